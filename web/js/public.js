// @ts-check
/**
 * « Jouer en ligne »: the open tables and the games to watch (issue 20, docs/protocol.md "Public
 * lists"). Public rooms waiting for players, joined in one tap; public games being played, each
 * opening as the room's page where a person without a seat watches (board, players, move list);
 * one featured game. Read once (`GET /api/public`) then kept live by the server's feed
 * (`/api/public/events`) while the section is on the page.
 */
import { ApiError, api, request } from './api.js';
import { fillKeyed, h, toast } from './dom.js';
import { errorText, fieldLabel, nameList, t, tn } from './i18n.js';
import { askName } from './name.js';
import { navigate } from './router.js';

/**
 * @typedef {{seat: number, kind: 'human'|'cpu'|'empty', name?: string|null, level?: string|null}} PublicSeat
 * @typedef {{code: string, game: 'cc'|'draughts', rules: Record<string, any>, rhythm: 'live'|'turn', clock: any,
 *   seats: PublicSeat[], free?: number, taken?: number, host?: string|null, moves?: number, spectators?: number}} PublicRoom
 * @typedef {{open: PublicRoom[], watch: PublicRoom[], featured: string|null}} Lists
 */

/** The section with both lists, live while it is in the page. */
export function publicSection() {
  const open = h('ul', { class: 'public-list', 'data-testid': 'public-open' });
  const watch = h('ul', { class: 'public-list', 'data-testid': 'public-watch' });
  const el = h('section', { class: 'card public-card', 'aria-labelledby': 'public-open-title', 'data-testid': 'public' },
    h('h2', { id: 'public-open-title' }, t('public_open_title')), open,
    h('h2', { id: 'public-watch-title' }, t('public_watch_title')), watch);
  /** @param {Lists} lists */
  const show = (lists) => {
    fillKeyed(open, lists.open.length ? lists.open.map(openTable) : h('li', { class: 'muted small public-empty' }, t('public_open_empty')));
    const featured = lists.watch.find((g) => g.code === lists.featured);
    const rest = lists.watch.filter((g) => g !== featured);
    fillKeyed(watch, lists.watch.length
      ? [featured ? gameToWatch(featured, mini.box) : null, ...rest.map((g) => gameToWatch(g, null))]
      : h('li', { class: 'muted small public-empty' }, t('public_watch_empty')));
    el.dataset.loaded = 'true';
    if (featured) mini.show(featured);
  };
  const mini = miniBoard(el);
  request('GET', '/api/public').then((/** @type {Lists & {pool_clocks?: any}} */ lists) => {
    // The clocks of the live pools, for the « Jouer en ligne » section (online.js).
    if (lists.pool_clocks) document.dispatchEvent(new CustomEvent('dames:pool-clocks', { detail: lists.pool_clocks }));
    show(lists);
  }).catch(() => {});
  follow(el, show);
  return el;
}

/**
 * Keeps the lists live from the feed while `el` is in the page; closes it once `el` is gone.
 * @param {HTMLElement} el @param {(lists: Lists) => void} show
 */
function follow(el, show) {
  if (typeof EventSource === 'undefined') return;
  const source = new EventSource('/api/public/events');
  source.addEventListener('lists', (e) => {
    if (!el.isConnected) return;
    try {
      show(JSON.parse(/** @type {MessageEvent} */ (e).data));
    } catch {
      /* a broken event: the next one tells */
    }
  });
  const check = setInterval(() => {
    if (el.isConnected) return;
    source.close();
    clearInterval(check);
  }, 2000);
}

/** The game's name, its variant or number of players, the pace, the clock. @param {PublicRoom} r */
function headline(r) {
  const parts = [t(r.game === 'cc' ? 'cc_name' : 'dr_name')];
  if (r.game === 'draughts') parts.push(t(/** @type {any} */ ('variant_' + (r.rules.variant || 'international'))));
  else parts.push(tn('players_hint', r.seats.length));
  parts.push(t(r.rhythm === 'turn' ? 'rhythm_turn' : 'rhythm_live'));
  const clock = clockText(r.clock);
  if (clock) parts.push(clock);
  return parts.join(' · ');
}

/** A room's clock as players write it: « 5+3 », « 30 s ». @param {any} clock */
function clockText(clock) {
  if (!clock || typeof clock !== 'object') return null;
  if (clock.kind === 'fischer') return `${Math.round(clock.base_ms / 60000)}+${Math.round(clock.increment_ms / 1000)}`;
  if (clock.kind === 'per_move') return t('seconds', { n: Math.round(clock.move_ms / 1000) });
  return null;
}

/** The rules that differ from the defaults (the variant and players are in the headline). @param {PublicRoom} r */
function rulesLine(r) {
  const items = Object.entries(r.rules || {}).filter(([k]) => k !== 'variant' && k !== 'players').map(([k, v]) => {
    const label = fieldLabel('rules.' + k);
    if (typeof v === 'boolean') return t(v ? 'public_rule_on' : 'public_rule_off', { label });
    const named = k === 'rule_set' ? 'rule_set_' + v : k === 'unused_camps' ? 'unused_' + v : null;
    return t('public_rule_value', { label, value: named ? t(/** @type {any} */ (named)) : String(v) });
  });
  return items.length ? h('p', { class: 'small public-rules' }, items.join(' · ')) : null;
}

/** @param {PublicSeat} s */
function seatName(s) {
  return s.kind === 'cpu' ? t('seat_cpu', { level: t(/** @type {any} */ ('level_' + (s.level || 'normal'))) }) : s.name || '?';
}

/** An open table: joined in one tap. @param {PublicRoom} r */
function openTable(r) {
  const host = r.host || '?';
  const game = t(r.game === 'cc' ? 'cc_name' : 'dr_name');
  return h('li', { class: 'public-item', 'data-code': r.code, 'data-key': r.code },
    h('div', { class: 'public-main' },
      h('strong', null, headline(r)),
      h('p', { class: 'muted small' }, t('public_host', { name: host }), ' · ', tn('public_free', r.free ?? 0)),
      rulesLine(r)),
    h('button', { class: 'btn primary small', type: 'button', 'data-action': 'public-join', 'aria-label': t('public_open_label', { name: host, game }) + ' — ' + t('public_join'),
      onclick: () => join(r.code) }, t('public_join')));
}

/**
 * The featured game's small board (featured.js, loaded only when there is a featured game).
 * @param {HTMLElement} section
 */
function miniBoard(section) {
  const box = h('div', { class: 'featured-box', 'data-testid': 'featured-board' });
  /** @type {Promise<(r: PublicRoom) => void>|null} */
  let shown = null;
  return {
    box,
    /** @param {PublicRoom} r */
    show(r) {
      shown ??= import('./featured.js').then((m) => m.follow(section, box));
      shown.then((f) => f(r)).catch(() => { shown = null; });
    },
  };
}

/**
 * A game to watch: opens the room's page as a spectator; the featured one with its small board.
 * @param {PublicRoom} r @param {HTMLElement|null} board the featured game's board, if it is the one
 */
function gameToWatch(r, board) {
  const featured = board !== null;
  const players = r.seats.filter((s) => s.kind !== 'empty').map(seatName);
  const game = t(r.game === 'cc' ? 'cc_name' : 'dr_name');
  return h('li', { class: `public-item${featured ? ' public-featured' : ''}`, 'data-code': r.code, 'data-key': r.code },
    board,
    h('div', { class: 'public-main' },
      featured ? h('span', { class: 'tag public-tag' }, t('public_featured')) : null,
      h('strong', null, headline(r)),
      h('p', { class: 'small' }, nameList(players)),
      h('p', { class: 'muted small' },
        r.moves ? tn('public_moves', r.moves) : t('public_no_moves'), ' · ', tn('public_spectators', r.spectators ?? 0)),
      rulesLine(r)),
    h('a', { class: 'btn small', href: `/r/${r.code}`, 'data-action': 'public-watch', 'aria-label': t('public_watch_label', { code: r.code, game }) + ' — ' + t('public_watch') }, t('public_watch')));
}

/** One tap: the name (asked once per browser), a seat, the room. @param {string} code */
async function join(code) {
  const name = await askName();
  if (!name) return;
  try {
    await api.join(code, name);
    navigate(`/r/${code}`);
  } catch (err) {
    toast(err instanceof ApiError ? errorText(err) : String(err), 'error');
  }
}
