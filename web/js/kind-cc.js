// @ts-check
/**
 * Chinese checkers behind the games' interface (kinds.js): the star with the viewer's camp at
 * the bottom, moves by holes, marks by seat and set, resigners' pieces leaving the board
 * (RULES.md 1.4), the swap rule in the replay (RULES.md 1.5).
 */
import { ccGeometry, ccMove, ccPieces, key as cubeKey } from './board-cc.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { campColorsOf, swatch } from './players.js';
import { moveText, numberHoles } from './notation.js';

/**
 * A seat's swatch, or one per set when it plays several (each set's shade and ring, as on the
 * board, with « jeu 2 » for screen readers).
 * @param {import('./api.js').Seat} seat
 */
export function setSwatches(seat) {
  const camps = seat.camps || [];
  if (camps.length < 2) return swatch(seat.seat);
  return h('span', { class: 'set-swatches', role: 'img', 'aria-label': camps.map((_, i) => t('set_n', { n: i + 1 })).join(', ') },
    camps.map((_, set) => swatch(seat.seat, { set })));
}

/** @param {any} x */
const clone = (x) => JSON.parse(JSON.stringify(x));

/** @type {import('./kinds.js').GameKind} */
export const cc = {
  id: 'cc',
  name: 'cc_name',
  notationHelp: 'notation_cc_help',
  download: 'download_cc',
  boardClass: 'board-cc',
  drawOffers: false,
  holes: true,
  geometry({ seats, rules, you }) {
    const me = you !== null ? seats[you] : null;
    const bottom = me && me.camps && me.camps.length ? me.camps[0] : 0;
    const { campColors, destColors } = campColorsOf(seats);
    const big = !!rules && rules.pieces === 15;
    return [`cc:${bottom}:${big}:${[...campColors].join(';')}`, () => ccGeometry(bottom, { campColors, destColors, big })];
  },
  boardMove: ccMove,
  moveInput: (m) => ({ from: m.raw.from, to: m.raw.to }),
  pieces: (board, seats) => ccPieces(board, seats.map((s) => s.camps)),
  ghosts: () => [], // nothing is taken
  labels: numberHoles,
  mark: (seat) => swatch(seat),
  playerMark: setSwatches,
  colorName: () => null,
  mustCapture: () => false,
  resignText: (room) => (room.solitaire ? 'resign_solo' : room.seats.length === 2 ? 'resign_cc_2' : 'resign_cc_many'),
  resigned(room) {
    // RULES.md 1.4: a resigner's pieces leave the board; the seats without pieces resigned.
    const g = room.game_view;
    /** @type {Set<number>} */
    const out = new Set();
    if (!g || room.status !== 'playing') return out;
    const present = new Set((g.board.pieces || []).map((p) => p.seat));
    for (const s of room.seats) if (!present.has(s.seat)) out.add(s.seat);
    return out;
  },
  text: (m) => moveText('cc', m),
  spoken(m, board) {
    const cell = (/** @type {number[]} */ c) => (board ? board.cellName(c.join(',')) : c.join(','));
    return `${cell(m.from)} → ${cell(m.to)}`;
  },
  applyEntry(board, entry, seats) {
    const b = clone(board);
    if (entry.kind === 'move') {
      const from = cubeKey(entry.move.from);
      const to = cubeKey(entry.move.to);
      const mover = b.pieces.find((/** @type {any} */ p) => cubeKey(p.at) === from);
      // The swap rule (RULES.md 1.5): a piece on the destination goes to the start hole.
      const other = b.pieces.find((/** @type {any} */ p) => cubeKey(p.at) === to);
      const inert = (b.inert || []).findIndex((/** @type {any} */ c) => cubeKey(c) === to);
      if (other && other !== mover) other.at = entry.move.from;
      if (inert >= 0) b.inert[inert] = entry.move.from;
      if (mover) mover.at = entry.move.to;
    } else if ((entry.kind === 'resign' || entry.kind === 'flag') && seats > 2) {
      // RULES.md 1.4: with three players or more, the resigner's pieces leave the board (a fallen flag that takes the last place too).
      b.pieces = b.pieces.filter((/** @type {any} */ p) => p.seat !== entry.seat);
    }
    return b;
  },
  signature(b) {
    const ps = (b.pieces || []).map((/** @type {any} */ p) => `${p.seat}@${cubeKey(p.at)}${p.king ? 'K' : ''}`);
    const inert = (b.inert || []).map((/** @type {any} */ c) => 'i@' + cubeKey(c));
    return [...ps, ...inert].sort().join(' ');
  },
};
