// @ts-check
/**
 * Readable moves (issue 11): draughts moves in PDN with the FMJD square numbers the board shows
 * (`32-28`, `28x19x10`); Chinese checkers moves as the numbers of the holes of their path
 * (`12-23`, `4-15-37`). The star's holes are numbered 1 to 121 row by row from the tip of camp 0
 * (the top of the unrotated star), left to right — the server writes the same numbers in its
 * files (docs/notation.md). The board can show every number (« Numéros des trous ») and always
 * labels the holes of the move shown.
 */
import { s } from './dom.js';

/** @typedef {import('./api.js').Cube} Cube */

/** @type {Map<string, number>|null} */
let numbers = null;

/** Every hole's number, by `x,y,z`. */
function table() {
  if (numbers) return numbers;
  /** @type {Cube[]} */
  const all = [];
  for (let z = -8; z <= 8; z++) {
    for (let x = -8; x <= 8; x++) {
      const y = -x - z;
      if (y < -8 || y > 8) continue;
      if ((x <= 4 && y <= 4 && z <= 4) || (x >= -4 && y >= -4 && z >= -4)) all.push([x, y, z]);
    }
  }
  numbers = new Map(all.map((c, i) => [c.join(','), i + 1]));
  return numbers;
}

/** The number (1–121) of a hole given as a cube or as its `x,y,z` key. @param {Cube|string} c */
export function holeNumber(c) {
  return table().get(typeof c === 'string' ? c : c.join(',')) ?? 0;
}

/** Every hole key with its number. */
export function holeNumbers() {
  return table();
}

/**
 * A move in readable notation.
 * @param {'cc'|'draughts'} game @param {any} m a LegalMove
 */
export function moveText(game, m) {
  if (!m) return '';
  if (game === 'draughts') {
    if (m.notation) return m.notation;
    const sep = m.captures && m.captures.length ? 'x' : '-';
    return (m.path && m.path.length ? m.path : [m.from, m.to]).join(sep);
  }
  const path = m.path && m.path.length >= 2 ? m.path : [m.from, m.to];
  return path.map((/** @type {Cube} */ c) => holeNumber(c)).join('-');
}

/**
 * Draws the hole numbers of the star into `board` (a layer under the pieces) once the board has
 * the class `show-holes`, not before: most boards never show them, and their 121 labels were a
 * fifth of a board's first drawing. Returns a function that labels the holes of a move on top of
 * everything (`null` clears).
 * @param {import('./board.js').Board} board
 * @returns {(path: string[]|null) => void}
 */
export function numberHoles(board) {
  const draw = () => {
    if (!board.svg.classList.contains('show-holes')) return;
    // Once: no call after this (a disconnected observer drops what it had not yet delivered).
    observer.disconnect();
    const layer = s('g', { class: 'layer-holes', 'aria-hidden': 'true' });
    for (const [id, n] of holeNumbers()) {
      const p = board.geo.cells.get(id);
      if (p) layer.append(s('text', { class: 'hole-num', x: p.x, y: p.y + 0.11 }, String(n)));
    }
    board.svg.insertBefore(layer, board.piecesLayer);
  };
  const observer = new MutationObserver(draw);
  observer.observe(board.svg, { attributes: true, attributeFilter: ['class'] });
  draw();
  const labels = s('g', { class: 'layer-labels', 'aria-hidden': 'true' });
  board.svg.append(labels);
  return (path) => {
    labels.replaceChildren();
    if (!path || path.length < 2) return;
    for (const id of [path[0], path[path.length - 1]]) {
      const p = board.geo.cells.get(id);
      const n = holeNumber(id);
      if (!p || !n) continue;
      const w = String(n).length * 0.25 + 0.2;
      labels.append(s('g', { class: 'hole-label', transform: `translate(${p.x + 0.32}, ${p.y - 0.45})` },
        s('rect', { x: -w / 2, y: -0.24, width: w, height: 0.48, rx: 0.14 }),
        s('text', { x: 0, y: 0.13 }, String(n))));
    }
  };
}

/** The star with every hole's number, unrotated (the rules page). */
export function starDiagram() {
  const svg = s('svg', { viewBox: '-8.6 -7.6 17.2 15.2', class: 'star-diagram', role: 'img', 'aria-label': 'Numérotation des trous / hole numbers 1–121' });
  for (const [id, n] of holeNumbers()) {
    const [x, , z] = id.split(',').map(Number);
    const px = x + z / 2;
    const py = (z * Math.sqrt(3)) / 2;
    svg.append(s('circle', { cx: px, cy: py, r: 0.46, class: n === 1 || n === 61 || n === 121 ? 'sd-hole sd-key' : 'sd-hole' }));
    svg.append(s('text', { x: px, y: py + 0.15, class: 'sd-num' }, String(n)));
  }
  return svg;
}
