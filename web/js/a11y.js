// @ts-check
/**
 * Screen readers: one polite live region for the whole site, and the moves of a game said in
 * words (« Bo joue 32-28 », « Vous jouez 32x23x14 », on the star « Ana joue rangée 14, trou 3 →
 * rangée 12, trou 4 »).
 */
import { h } from './dom.js';
import { t } from './i18n.js';
import { kindOf } from './kinds.js';

/** @type {HTMLElement|null} */
let region = null;

/** Says `text` to screen readers (politely: after what they are reading). @param {string} text */
export function announce(text) {
  if (!region || !region.isConnected) {
    region = h('div', { class: 'sr-only', 'aria-live': 'polite', 'aria-atomic': 'false', 'data-testid': 'announcer' });
    document.body.append(region);
  }
  // A fresh node per message, so that the same words twice are said twice.
  region.append(h('p', null, text));
  while (region.childElementCount > 5) region.firstElementChild?.remove();
}

/**
 * Announces a move just played.
 * @param {import('./api.js').RoomView} room @param {import('./api.js').MoveRecord} rec
 * @param {string} name the player's name @param {{cellName: (id: string) => string}|null} board
 */
export function announceMove(room, rec, name, board) {
  const text = kindOf(room.game).spoken(rec.move, board);
  announce(rec.seat === room.you ? t('a11y_move_you', { move: text }) : t('a11y_move', { name, move: text }));
}
