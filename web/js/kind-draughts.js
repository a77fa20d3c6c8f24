// @ts-check
/**
 * Draughts behind the games' interface (kinds.js): the board of the room's size turned for the
 * viewer playing Black, moves sent by their notation, white and black marks, captured pieces
 * fading out, draws by agreement (RULES.md part 2).
 */
import { draughtsGeometry, draughtsMove, draughtsPieces } from './board-draughts.js';
import { swatch } from './players.js';
import { moveText } from './notation.js';
import { nameList, tn } from './i18n.js';

/** @param {any} x */
const clone = (x) => JSON.parse(JSON.stringify(x));

/**
 * Which seat plays `color` among `seats`.
 * @param {import('./api.js').Seat[]} seats
 * @returns {(color: 'white'|'black') => number|null}
 */
const seatOf = (seats) => (color) => {
  const s = seats.find((x) => x.color === color);
  return s ? s.seat : null;
};

/** @type {import('./kinds.js').GameKind} */
export const draughts = {
  id: 'draughts',
  name: 'dr_name',
  notationHelp: 'notation_dr_help',
  download: 'download_pdn',
  boardClass: 'board-draughts',
  drawOffers: true,
  holes: false,
  geometry({ seats, size, you }) {
    const n = size || 10;
    const me = you !== null ? seats[you] : null;
    const flipped = !!me && me.color === 'black';
    return [`dr:${n}:${flipped}`, () => draughtsGeometry(n, flipped)];
  },
  boardMove: draughtsMove,
  moveInput: (m) => ({ notation: moveText('draughts', m.raw) }),
  pieces: (board, seats) => draughtsPieces(board, seatOf(seats)),
  ghosts: (before, m) => before.filter((p) => m.captures.includes(p.id)),
  labels: () => null,
  mark: (seat, seats) => swatch(seat, { draughts: seats[seat]?.color }),
  playerMark: (seat) => swatch(seat.seat, { draughts: seat.color }),
  colorName: (seat) => (seat.color === 'black' ? 'black' : 'white'),
  mustCapture: (legal) => legal.some((m) => m.captures && m.captures.length),
  resignText: () => 'resign_draughts',
  resigned: () => new Set(), // a resignation ends the game
  text: (m) => moveText('draughts', m),
  spoken(m) {
    const caps = (m.captures || []).map(String);
    const move = m.notation || (m.path && m.path.length ? m.path : [m.from, m.to]).join(caps.length ? 'x' : '-');
    return caps.length ? tn('a11y_captures', caps.length, { move, list: nameList(caps) }) : move;
  },
  applyEntry(board, entry) {
    const b = clone(board);
    if (entry.kind !== 'move') return b;
    const m = entry.move;
    const size = b.size || 10;
    const n = (size * size) / 2;
    const caps = new Set(m.captures || []);
    b.pieces = b.pieces.filter((/** @type {any} */ p) => !caps.has(p.square));
    const piece = b.pieces.find((/** @type {any} */ p) => p.square === m.from);
    if (piece) {
      piece.square = m.to;
      const last = piece.color === 'white' ? m.to <= size / 2 : m.to > n - size / 2;
      if (last) piece.king = true;
    }
    b.pieces.sort((/** @type {any} */ a, /** @type {any} */ c) => a.square - c.square);
    delete b.fen;
    return b;
  },
  signature(b) {
    return (b.pieces || []).map((/** @type {any} */ p) => `${p.color}@${p.square}${p.king ? 'K' : ''}`).sort().join(' ');
  },
};
