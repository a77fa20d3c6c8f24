// @ts-check
/**
 * Draughts boards (RULES.md part 2): 10×10, 8×8, 12×12, dark squares numbered as in FMJD
 * notation (row r from the top, dark squares are odd columns on even rows and even columns on odd
 * rows, numbered left to right, top to bottom). Flipped for Black.
 */
import { s } from './dom.js';

/** @param {number} size @param {number} sq 1-based square number @returns {{r: number, c: number}} */
export function squareToRc(size, sq) {
  const half = size / 2;
  const i = sq - 1;
  const r = Math.floor(i / half);
  const k = i % half;
  return { r, c: r % 2 === 0 ? 2 * k + 1 : 2 * k };
}

/**
 * @param {number} size @param {boolean} flipped true to show Black's side at the bottom
 * @returns {import('./board.js').Geometry}
 */
export function draughtsGeometry(size, flipped) {
  /** @type {Map<string, {x:number,y:number}>} */
  const cells = new Map();
  const n = (size * size) / 2;
  for (let sq = 1; sq <= n; sq++) {
    const { r, c } = squareToRc(size, sq);
    const rr = flipped ? size - 1 - r : r;
    const cc = flipped ? size - 1 - c : c;
    cells.set(String(sq), { x: cc + 0.5, y: rr + 0.5 });
  }
  const background = (/** @type {SVGElement} */ layer) => {
    layer.append(s('rect', { class: 'dr-frame', x: -0.25, y: -0.25, width: size + 0.5, height: size + 0.5, rx: 0.2 }));
    layer.append(s('rect', { class: 'dr-light', x: 0, y: 0, width: size, height: size }));
    for (const [id, p] of cells) {
      layer.append(s('rect', { class: 'dr-dark', x: p.x - 0.5, y: p.y - 0.5, width: 1, height: 1 }));
      layer.append(s('text', { class: 'dr-num', x: p.x - 0.47, y: p.y - 0.33 }, id));
    }
  };
  return { viewBox: `-0.3 -0.3 ${size + 0.6} ${size + 0.6}`, cells, pitch: 1, pieceR: 0.38, background, squares: true };
}

/**
 * @param {import('./api.js').Board} board
 * @param {(color: 'white'|'black') => number|null} seatOf
 * @returns {import('./board.js').PieceSpec[]}
 */
export function draughtsPieces(board, seatOf) {
  return (board.pieces || []).map((p) => {
    const white = p.color === 'white';
    const g = s('g', { class: 'dr-piece-mark' });
    g.append(s('circle', { r: 0.24, fill: 'none', stroke: white ? '#b9b2a3' : '#5a5a5a', 'stroke-width': 0.04 }));
    if (p.king) {
      g.append(s('path', { d: 'M-0.2,0.1 L-0.22,-0.12 L-0.1,0 L0,-0.16 L0.1,0 L0.22,-0.12 L0.2,0.1 Z', fill: '#e3b23c', stroke: '#7a5a10', 'stroke-width': 0.02 }));
    }
    return {
      id: String(p.square),
      fill: white ? '#f3efe6' : '#2b2b2b',
      stroke: white ? '#6b6457' : '#000',
      mark: g,
      king: !!p.king,
      color: white ? 'white' : 'black',
      owner: seatOf(p.color),
    };
  });
}

/** @param {import('./api.js').LegalMove} m @returns {import('./board.js').BoardMove} */
export function draughtsMove(m) {
  const path = (m.path && m.path.length ? m.path : [m.from, m.to]).map(String);
  return { from: String(m.from), to: String(m.to), path, captures: (m.captures || []).map(String), raw: m };
}
