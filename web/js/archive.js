// @ts-check
/**
 * The page of one game of a room, `/r/{CODE}/{n}` (issue 14): every finished game can be looked
 * at again, not only a room's last one — a rematch starts the next game without replacing it.
 * The game's record (`GET /api/rooms/{code}/games/{n}`) in the replay control, its moves, its
 * file (PDN or text), and the room's other games. Online only: loaded when first asked for.
 */
import { fill, h } from './dom.js';
import { ApiError, api } from './api.js';
import { errorText, lang, t } from './i18n.js';
import { seatName } from './game.js';
import { kindOf } from './kinds.js';
import { Replay, downloadUrl, fetchGames, fetchRecord, gamesNav } from './replay.js';
import { tl } from './texts-later.js';

/** The replay of the page shown (it stops by itself once its page is left). @type {Replay|null} */
let shown = null;

/**
 * The board's geometry for this game, the viewer's own side at the bottom when they played in it.
 * @param {import('./replay.js').GameRecord} rec @param {number|null} you
 */
function geometry(rec, you) {
  return kindOf(rec.game).geometry({ seats: rec.seats, rules: rec.rules, size: rec.start.size, you })[1]();
}

/** A seat's name in the game (its record's seats). @param {import('./replay.js').GameRecord} rec @param {number} seat */
const nameIn = (rec, seat) => seatName(/** @type {any} */ (rec), seat);

/** How the game ended: « Ana gagne », « Partie nulle »… @param {import('./replay.js').GameRecord} rec */
function resultText(rec) {
  const o = rec.outcome;
  if (!o) return tl('archive_playing');
  if (o.kind === 'draw') return t('result_draw');
  if (o.kind === 'abandoned') return t('result_abandoned');
  const winner = o.places.findIndex((p) => p === 1);
  return winner >= 0 ? t('result_win', { name: nameIn(rec, winner) }) : t('result_title');
}

const MONTHS = {
  fr: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
};

/**
 * When the game ended, as `toLocaleString` writes it with `dateStyle: 'long', timeStyle: 'short'`
 * in fr-FR and en-GB (« 4 décembre 2026 à 20:41 », « 4 December 2026 at 20:41 »), without building
 * that Intl formatter (190 ms of main thread with the CPU slowed 4× as Lighthouse's phone, on
 * the way to the page's first screen).
 * @param {number} ms
 */
function longDate(ms) {
  const d = new Date(ms);
  const l = lang();
  const time = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  return `${d.getDate()} ${MONTHS[l][d.getMonth()]} ${d.getFullYear()} ${l === 'fr' ? 'à' : 'at'} ${time}`;
}

/** @param {HTMLElement} root @param {string} code @param {number} n */
export async function showArchive(root, code, n) {
  shown?.destroy();
  shown = null;
  document.title = `${tl('archive_title', { n, code })} · Dames`;
  // Its heading from the start (for screen readers while the record loads); replaced with the page.
  const page = h('section', { class: 'game archive', 'data-testid': 'archive' }, h('h1', { class: 'sr-only' }, tl('archive_title', { n, code })));
  fill(root, page);
  let rec;
  let room;
  let games;
  try {
    [rec, room, games] = await Promise.all([
      fetchRecord(code, n),
      api.getRoom(code).catch(() => null),
      fetchGames(code).catch(() => null),
    ]);
  } catch (e) {
    const missing = e instanceof ApiError && (e.code === 'unknown_game' || e.code === 'unknown_room');
    fill(page, h('div', { class: 'card center', 'data-testid': 'archive-error' },
      h('h1', null, tl('archive_title', { n, code })),
      h('p', null, missing ? tl(e.code === 'unknown_game' ? 'archive_gone' : 'archive_no_room') : errorText(/** @type {any} */ (e))),
      missing && e.code === 'unknown_game' ? h('p', null, h('a', { class: 'btn primary', href: `/r/${code}` }, tl('archive_room'))) : null));
    return;
  }
  if (!page.isConnected) return;
  const you = room && room.you !== undefined ? room.you : null;
  const list = h('ol', { class: 'move-list', 'data-testid': 'moves' });
  const kind = kindOf(rec.game);
  const replay = new Replay({
    kind,
    geometry: () => geometry(rec, you),
    seats: () => rec.seats,
    name: (seat) => nameIn(rec, seat),
    live: false,
    onExit: () => {},
    onShow: (i) => {
      for (const li of list.querySelectorAll('li')) li.classList.toggle('current', Number(/** @type {HTMLElement} */ (li).dataset.entry) === i - 1);
    },
  });
  shown = replay;
  // Numbered in moves, as the replay counts them (a resignation or a draw is the end, unnumbered).
  let moveNo = 0;
  fill(list, rec.log.map((e, i) => h('li', { 'data-entry': String(i) },
    h('button', { class: 'mv', type: 'button', onclick: () => replay.show(i + 1) },
      h('span', { class: 'mv-no' }, e.kind === 'move' ? `${++moveNo}.` : '—'),
      e.kind === 'draw' || e.kind === 'abandon' || e.kind === 'stop' ? null : kind.mark(e.seat, rec.seats),
      h('span', { class: 'mv-text' }, replay.describe(e))))));
  const players = rec.seats.map((s) => nameIn(rec, s.seat)).join(', ');
  const when = rec.finished_at ? tl('archive_ended', { when: longDate(rec.finished_at) }) : null;
  fill(page,
    h('div', { class: 'game-main' },
      h('h1', { class: 'status over' }, tl('archive_title', { n, code })),
      h('div', { class: 'board-wrap' }, h('div', { class: 'board-box' }, replay.board.svg)),
      replay.el),
    h('div', { class: 'game-side' },
      h('div', { class: 'card' },
        h('p', null, h('strong', null, t(kind.name)), ' · ', players),
        h('p', { 'data-testid': 'archive-result' }, resultText(rec), when ? ` · ${when}` : ''),
        h('p', null,
          h('a', { class: 'btn ghost small', href: downloadUrl(code, n), download: '', 'data-testid': 'download' },
            t(kind.download)),
          ' ',
          h('a', { class: 'btn ghost small', href: `/r/${code}`, 'data-action': 'room' }, tl('archive_room')))),
      h('details', { class: 'card moves-card', open: true }, h('summary', null, tl('archive_moves', { n: rec.log.filter((e) => e.kind === 'move').length })), list),
      games ? gamesNav(code, games, n) : null));
  replay.setRecord(rec);
  replay.show(replay.last);
}
