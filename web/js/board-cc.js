// @ts-check
/**
 * Chinese checkers star (RULES.md 1.1): 121 holes in cube coordinates (x, y, z), x + y + z = 0,
 * drawn on a triangular lattice and rotated so that the viewer's first start camp is at the bottom.
 */
import { s } from './dom.js';
import { markSvg, setColorOf, setRing } from './players.js';

/** @typedef {import('./api.js').Cube} Cube */

/** @param {Cube} c */
export const key = (c) => `${c[0]},${c[1]},${c[2]}`;

/** @returns {Cube[]} every hole of the star */
export function holes() {
  /** @type {Cube[]} */
  const out = [];
  for (let x = -8; x <= 8; x++) {
    for (let y = -8; y <= 8; y++) {
      const z = -x - y;
      if (z < -8 || z > 8) continue;
      if ((x <= 4 && y <= 4 && z <= 4) || (x >= -4 && y >= -4 && z >= -4)) out.push([x, y, z]);
    }
  }
  return out;
}

/** Camp of a hole: 0..5, or -1 for the central hexagon. @param {Cube} c */
export function campOf([x, y, z]) {
  if (z < -4) return 0;
  if (x > 4) return 1;
  if (y < -4) return 2;
  if (z > 4) return 3;
  if (x < -4) return 4;
  if (y > 4) return 5;
  return -1;
}

/** Whether a hole lies in the 15-hole camp `i` (the point plus the hexagon edge row facing it). @param {Cube} c @param {number} i */
function inBigCamp([x, y, z], i) {
  return [z <= -4, x >= 4, y <= -4, z >= 4, x <= -4, y >= 4][i] && campOf([x, y, z]) !== (i + 1) % 6 && campOf([x, y, z]) !== (i + 5) % 6;
}

/** Unrotated position: neighbours are 1 apart, camp 0 at the top. @param {Cube} c */
function flat([x, , z]) {
  return { x: x + z / 2, y: (z * Math.sqrt(3)) / 2 };
}

/**
 * @param {number} bottomCamp camp drawn at the bottom
 * @param {{campColors: Map<number, string>, destColors?: Map<number, string>, big?: boolean}} opt  `big`: 15-hole camps (RULES.md 1.1)
 * @returns {import('./board.js').Geometry}
 */
export function ccGeometry(bottomCamp, opt) {
  const all = holes();
  const byCamp = [0, 1, 2, 3, 4, 5].map((i) => all.filter((c) => campOf(c) === i));
  // The tinted triangles: 10-hole points, or the side-5 triangles of 15-piece camps.
  const tinted = opt.big ? [0, 1, 2, 3, 4, 5].map((i) => all.filter((c) => inBigCamp(c, i))) : byCamp;
  const centre = (/** @type {Cube[]} */ cs) => {
    const ps = cs.map(flat);
    return { x: ps.reduce((a, p) => a + p.x, 0) / ps.length, y: ps.reduce((a, p) => a + p.y, 0) / ps.length };
  };
  const bc = centre(byCamp[((bottomCamp % 6) + 6) % 6]);
  const rot = Math.PI / 2 - Math.atan2(bc.y, bc.x);
  const cos = Math.cos(rot);
  const sin = Math.sin(rot);
  const place = (/** @type {{x:number,y:number}} */ p) => ({ x: round(p.x * cos - p.y * sin), y: round(p.x * sin + p.y * cos) });
  /** @type {Map<string, {x:number,y:number}>} */
  const cells = new Map();
  for (const c of all) cells.set(key(c), place(flat(c)));

  const background = (/** @type {SVGElement} */ layer) => {
    // The star: two big triangles through the camps' tips, with a margin.
    const tips = byCamp.map((cs) => {
      const ct = centre(cs);
      let far = cs[0];
      let fd = -1;
      for (const c of cs) {
        const p = flat(c);
        const d = p.x * p.x + p.y * p.y;
        if (d > fd) {
          fd = d;
          far = c;
        }
      }
      void ct;
      const p = flat(far);
      const len = Math.hypot(p.x, p.y);
      return place({ x: (p.x * (len + 1.1)) / len, y: (p.y * (len + 1.1)) / len });
    });
    const tri = (/** @type {number[]} */ idx) => idx.map((i) => `${tips[i].x},${tips[i].y}`).join(' ');
    layer.append(s('polygon', { class: 'star', points: tri([0, 2, 4]), 'stroke-linejoin': 'round' }));
    layer.append(s('polygon', { class: 'star', points: tri([1, 3, 5]), 'stroke-linejoin': 'round' }));
    // Camp tints for the seats that start there.
    tinted.forEach((cs, i) => {
      const col = opt.campColors.get(i);
      const dest = opt.destColors && opt.destColors.get(i);
      if (!col && !dest) return;
      const ct = centre(cs);
      const corners = extremes(cs.map(flat), ct);
      const pts = corners.map((p) => {
        const dx = p.x - ct.x;
        const dy = p.y - ct.y;
        const l = Math.hypot(dx, dy);
        return place({ x: ct.x + (dx * (l + 0.75)) / l, y: ct.y + (dy * (l + 0.75)) / l });
      });
      const points = pts.map((p) => `${p.x},${p.y}`).join(' ');
      if (col) layer.append(s('polygon', { class: 'camp-tint', points, fill: col, 'stroke-linejoin': 'round' }));
      if (dest) layer.append(s('polygon', { class: 'camp-dest', points, stroke: dest, 'stroke-width': 0.09, 'stroke-linejoin': 'round' }));
    });
    for (const c of all) {
      const p = cells.get(key(c));
      if (p) layer.append(s('circle', { class: 'hole', cx: p.x, cy: p.y, r: 0.2 }));
    }
  };
  // The ring around a piece able to move clears the piece's shadow and stops short of its neighbours.
  return { viewBox: '-8.15 -8.15 16.3 16.3', cells, pitch: 1, pieceR: 0.4, ringR: 0.485, background };
}

/** The three corner points of a triangle of points. @param {{x:number,y:number}[]} ps @param {{x:number,y:number}} ct */
function extremes(ps, ct) {
  const sorted = [...ps].sort((a, b) => (b.x - ct.x) ** 2 + (b.y - ct.y) ** 2 - ((a.x - ct.x) ** 2 + (a.y - ct.y) ** 2));
  /** @type {{x:number,y:number}[]} */
  const out = [];
  for (const p of sorted) {
    if (out.every((q) => Math.hypot(q.x - p.x, q.y - p.y) > 1.5)) out.push(p);
    if (out.length === 3) break;
  }
  return out;
}

/** @param {number} v */
const round = (v) => Math.round(v * 1000) / 1000;

/**
 * Pieces of a Chinese checkers board for the generic board. `camps`: each seat's start camps;
 * with several sets per seat, a piece's set (its start `camp`) gets its own shade and ring.
 * @param {import('./api.js').Board} board @param {(number[]|undefined)[]} [camps]
 * @returns {import('./board.js').PieceSpec[]}
 */
export function ccPieces(board, camps = []) {
  /** @type {import('./board.js').PieceSpec[]} */
  const out = [];
  for (const p of board.pieces || []) {
    const mine = camps[p.seat];
    const set = mine && mine.length > 1 && typeof p.camp === 'number' ? Math.max(0, mine.indexOf(p.camp)) : 0;
    out.push({ id: key(p.at), fill: setColorOf(p.seat, set), stroke: 'rgba(0,0,0,.45)', mark: markSvg(p.seat, 0.2), king: !!p.king, owner: p.seat,
      ring: set ? setRing(set, 0.4) : null });
  }
  for (const c of board.inert || []) {
    out.push({ id: key(c), fill: '#9a9a9a', stroke: 'rgba(0,0,0,.35)', mark: null, inert: true, owner: null });
  }
  return out;
}

/** @param {import('./api.js').LegalMove} m @returns {import('./board.js').BoardMove} */
export function ccMove(m) {
  const path = (m.path && m.path.length ? m.path : [m.from, m.to]).map(key);
  return { from: key(m.from), to: key(m.to), path, captures: [], raw: m };
}
