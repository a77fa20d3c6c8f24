// @ts-check
/**
 * Players who leave a live game (issue 11 item 1, docs/protocol.md "Away players"): above the
 * board, the other players see that the seat to move is disconnected, then « Confier à un CPU »
 * (with a level) once the room's `away_after` has passed, and in a 2-player game « Réclamer la
 * victoire » after three times as long. The server decides: a click too early is answered
 * `not_away` with the time left. Every change is told to everyone: a CPU standing in, the person
 * coming back (who takes the seat back on reconnecting).
 */
import { ApiError, api } from './api.js';
import { dialog, h, patch, toast } from './dom.js';
import { errorText, nameList, t, tn } from './i18n.js';

/**
 * @typedef {import('./api.js').RoomView} RoomView
 * @typedef {import('./api.js').Level} Level
 * @typedef {(body: {seat: number, action: 'cpu'|'claim', level?: Level}) => void} AwayAct
 */

/** The claim of a win waits this many times `away_after` (the server's CLAIM_FACTOR). */
export const CLAIM_FACTOR = 3;
const LEVELS = /** @type {Level[]} */ (['facile', 'normal', 'difficile', 'expert']);

/** When this page saw each seat leave (code:seat → Date.now()): presence has no time of its own. */
const seenLeaving = new Map();

/**
 * Since when the seat to move of `room` is away on its turn (ms), or null: a live game, a
 * person with no open connection and no CPU standing in, and `room.you` another seated player.
 * @param {RoomView} room
 */
export function awaySince(room) {
  const g = room.game_view;
  if (!g || room.status !== 'playing' || room.settings.rhythm === 'turn' || g.to_move === null) return null;
  const s = room.seats[g.to_move];
  if (!s || s.kind !== 'human' || s.online || s.stand_in || room.you === null || room.you === s.seat) return null;
  const turn = g.turn_since ?? 0;
  const seen = seenLeaving.get(`${room.code}:${s.seat}`);
  const gone = seen ?? turn;
  return Math.max(gone, turn);
}

/** What this page last saw of each seat (code:seat → online, and the level of a CPU standing in). */
const seen = new Map();

/**
 * Tells everyone what changed about the seats (a CPU standing in, a person back), once, whether
 * in the same game or with a rematch starting.
 * @param {RoomView} room @param {(seat: number) => string} name
 */
export function awayNews(room, name) {
  for (const s of room.seats) {
    const key = `${room.code}:${s.seat}`;
    const was = seen.get(key);
    seen.set(key, { online: s.online, standIn: s.stand_in || null });
    if (s.online) seenLeaving.delete(key);
    else if (!was || was.online) seenLeaving.set(key, Date.now());
    if (!was) continue; // first sight of this room: nothing changed yet
    if (s.stand_in && !was.standIn) {
      toast(t('stand_in_toast', { name: name(s.seat), level: t(/** @type {any} */ ('level_' + s.stand_in)) }));
    } else if (!s.stand_in && was.standIn && s.kind === 'human') {
      toast(s.seat === room.you ? t('returned_you') : t('returned_toast', { name: name(s.seat) }), 'good');
    }
  }
}

/** The bar above the board that offers to act on an away seat. */
export class AwayPanel {
  /** @param {AwayAct} act */
  constructor(act) {
    this.act = act;
    this.el = h('div', { class: 'offer-bar away-bar', hidden: true, role: 'status', 'data-testid': 'away' });
    /** @type {ReturnType<typeof setInterval>|undefined} */
    this.ticker = undefined;
    /** @type {Level} */
    this.level = 'normal';
    this.key = '';
    /** @type {[RoomView, (seat: number) => string]|null} the last room drawn, for the ticker */
    this.last = null;
  }

  /** @param {RoomView} room @param {(seat: number) => string} name */
  render(room, name) {
    this.last = [room, name];
    const since = awaySince(room);
    const g = room.game_view;
    if (since === null || !g || g.to_move === null) {
      this.el.hidden = true;
      clearInterval(this.ticker);
      this.ticker = undefined;
      this.key = '';
      return;
    }
    const seat = g.to_move;
    const after = (Number(room.settings.away_after) || 60) * 1000;
    const cpuIn = Math.ceil((since + after - Date.now()) / 1000);
    const claimIn = Math.ceil((since + CLAIM_FACTOR * after - Date.now()) / 1000);
    const two = room.seats.length === 2;
    // Drawn again only when what it shows changes; then the select or button in use stays (dom.js `patch`).
    const key = `${seat}:${cpuIn > 0 ? cpuIn : 'cpu'}:${two ? (claimIn > 0 ? claimIn : 'claim') : ''}`;
    if (!this.ticker) {
      this.ticker = setInterval(() => {
        if (this.el.isConnected && this.last) this.render(...this.last);
        else clearInterval(this.ticker);
      }, 1000);
    }
    if (key === this.key) return;
    this.key = key;
    this.el.hidden = false;
    /** @type {(HTMLElement|null)[]} */
    const parts = [h('span', null, t('away_gone', { name: name(seat) }))];
    if (cpuIn > 0) {
      parts.push(h('span', { class: 'muted small', 'data-testid': 'away-wait' }, t('away_cpu_in', { n: cpuIn })));
    } else {
      const select = h('select', { 'aria-label': t('away_level'), 'data-testid': 'away-level',
        onchange: (/** @type {Event} */ e) => { this.level = /** @type {Level} */ (/** @type {HTMLSelectElement} */ (e.target).value); } },
      LEVELS.map((l) => h('option', { value: l, selected: l === this.level }, t(/** @type {any} */ ('level_' + l)))));
      parts.push(h('label', { class: 'away-level' }, h('span', { class: 'small' }, t('away_level')), select));
      parts.push(h('button', { class: 'btn primary small', type: 'button', 'data-action': 'away-cpu',
        onclick: () => this.act({ seat, action: 'cpu', level: this.level }) }, t('away_cpu')));
    }
    if (two && claimIn > 0 && cpuIn <= 0) {
      parts.push(h('span', { class: 'muted small', 'data-testid': 'claim-wait' }, t('away_claim_in', { n: claimIn })));
    } else if (two && claimIn <= 0) {
      parts.push(h('button', { class: 'btn danger small', type: 'button', 'data-action': 'away-claim',
        onclick: async () => {
          const v = await dialog({
            title: t('away_claim_title'),
            body: h('p', null, t('away_claim_body', { name: name(seat) })),
            buttons: [{ label: t('cancel'), value: 'no' }, { label: t('away_claim'), value: 'yes', kind: 'danger primary' }],
          });
          if (v === 'yes') this.act({ seat, action: 'claim' });
        } }, t('away_claim')));
    }
    patch(this.el, parts);
  }
}

/**
 * « Continuer sur un autre appareil »: asks the server for a one-time link moving my seat and
 * shows it with its QR code, to scan or open on the other device (docs/protocol.md "Continue on
 * another device").
 * @param {string} code
 */
export async function showTransfer(code) {
  const link = await api.transfer(code).catch((e) => {
    toast(e instanceof ApiError ? errorText(e) : String(e), 'error');
    return null;
  });
  if (!link) return;
  const qr = h('img', { class: 'transfer-qr', alt: t('transfer_link'), width: 220, height: 220, 'data-testid': 'transfer-qr',
    src: 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(link.qr) });
  const url = h('input', { type: 'text', readonly: true, value: link.url, 'aria-label': t('transfer_link'), 'data-testid': 'transfer-url',
    onfocus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select() });
  const copy = h('button', { class: 'btn small', type: 'button', 'data-action': 'transfer-copy',
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(link.url);
      } catch {
        /** @type {HTMLInputElement} */ (url).select();
        document.execCommand('copy');
      }
      toast(t('transfer_copied'), 'good');
    } }, t('transfer_copy'));
  await dialog({
    title: t('transfer_button'),
    body: h('div', { class: 'transfer' }, qr, h('p', { class: 'small' }, t('transfer_help')), h('div', { class: 'transfer-link' }, url, copy)),
    buttons: [{ label: t('close'), value: 'close', kind: 'primary' }],
  });
}

/**
 * This page was opened from a link moving a seat (`#transfer=…`): takes the seat, then forgets
 * the link (it works once). Resolves when done, whatever the answer.
 * @param {string} code
 */
export async function claimTransferFromLink(code) {
  const m = /^#transfer=([0-9a-fA-F]{32})$/.exec(location.hash);
  if (!m) return;
  history.replaceState(history.state, '', location.pathname + location.search);
  try {
    await api.claimTransfer(code, m[1]);
    toast(t('transfer_done'), 'good');
  } catch (e) {
    toast(e instanceof ApiError ? errorText(e) : String(e), 'error');
  }
}

/** The level last chosen for CPUs in the seats of those who left a finished game (kept across redraws). */
let rematchLevel = /** @type {Level} */ ('normal');

/**
 * After a game, for the persons who left (`gone`): « Rejouer sans … » with a CPU of a chosen level in
 * their seats, and for the host, « Libérer leur place »: back to the lobby with their seats free.
 * @param {RoomView} room @param {import('./api.js').Seat[]} gone
 * @param {{ withCpu: (level: Level) => void, withEmpty: () => void }} act
 * @returns {HTMLElement[]}
 */
export function rematchWithout(room, gone, act) {
  const names = nameList(gone.map((s) => s.name || '?'));
  const n = gone.length;
  const select = h('select', { 'aria-label': t('away_level'), 'data-testid': 'rematch-level',
    onchange: (/** @type {Event} */ e) => { rematchLevel = /** @type {Level} */ (/** @type {HTMLSelectElement} */ (e.target).value); } },
  LEVELS.map((l) => h('option', { value: l, selected: l === rematchLevel }, t(/** @type {any} */ ('level_' + l)))));
  const parts = /** @type {HTMLElement[]} */ ([
    h('p', { class: 'warn small' }, tn('rematch_gone', n, { names })),
    h('div', { class: 'rematch-without' },
      h('label', { class: 'away-level' }, h('span', { class: 'small' }, t('away_level')), select),
      h('button', { class: 'btn small', type: 'button', 'data-action': 'rematch-without', onclick: () => act.withCpu(rematchLevel) }, tn('rematch_without', n, { names }))),
  ]);
  if (room.host) {
    parts.push(h('button', { class: 'btn small ghost', type: 'button', 'data-action': 'rematch-empty', onclick: () => act.withEmpty() }, tn('rematch_empty', n, { names })));
  }
  return parts;
}
