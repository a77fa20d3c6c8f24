// @ts-check
/**
 * The six player colours: the Okabe–Ito palette, which people with the common forms of colour
 * blindness tell apart, and each colour also carries its own mark drawn inside every piece.
 */
import { s } from './dom.js';

export const COLORS = ['#0072B2', '#D55E00', '#009E73', '#F0E442', '#CC79A7', '#56B4E9'];
/** Colour of the mark on top of each colour (contrast). */
export const INK = ['#ffffff', '#ffffff', '#ffffff', '#222222', '#222222', '#222222'];
export const MARK_NAMES = ['●', '▲', '■', '◆', '✚', '★'];

/** @param {number} seat */
export const colorOf = (seat) => COLORS[seat % 6];

/**
 * The colour of one set of a seat playing several (RULES.md 1.2): the first set has the seat's
 * colour, the second a lighter shade, the third a darker one; the board also rings them
 * differently (solid, dashed), so that a player's sets are told apart without colour.
 * @param {number} seat @param {number} set index in the seat's camps (0, 1, 2)
 */
export function setColorOf(seat, set) {
  const base = colorOf(seat);
  if (!set) return base;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(base.slice(i, i + 2), 16));
  const mix = (/** @type {number} */ c) => Math.round(set === 1 ? c + (255 - c) * 0.45 : c * 0.6);
  return '#' + [r, g, b].map((c) => mix(c).toString(16).padStart(2, '0')).join('');
}

/**
 * The colour of each Chinese checkers camp where a set starts, and of the camp opposite where it
 * goes, for the seats of a game.
 * @param {{ seat: number, camps?: number[] | null }[]} seats
 * @returns {{ campColors: Map<number, string>, destColors: Map<number, string> }}
 */
export function campColorsOf(seats) {
  const campColors = new Map();
  const destColors = new Map();
  for (const s of seats) {
    (s.camps || []).forEach((c, set) => {
      campColors.set(c, setColorOf(s.seat, set));
      destColors.set((c + 3) % 6, setColorOf(s.seat, set));
    });
  }
  return { campColors, destColors };
}

/**
 * The mark of a seat as an SVG element centred on (0, 0), of radius about `r`.
 * @param {number} seat @param {number} r @param {string} [ink]
 * @returns {SVGElement}
 */
export function markSvg(seat, r, ink = INK[seat % 6]) {
  const k = seat % 6;
  const a = { fill: ink, class: 'mark' };
  switch (k) {
    case 0:
      return s('circle', { ...a, r: r * 0.62 });
    case 1: {
      const p = [0, 1, 2].map((i) => polar(r * 1.05, -90 + i * 120)).map(([x, y]) => `${x},${y + r * 0.18}`);
      return s('polygon', { ...a, points: p.join(' ') });
    }
    case 2:
      return s('rect', { ...a, x: -r * 0.68, y: -r * 0.68, width: r * 1.36, height: r * 1.36 });
    case 3: {
      const p = [0, 1, 2, 3].map((i) => polar(r * 1.0, -90 + i * 90)).map(([x, y]) => `${x},${y}`);
      return s('polygon', { ...a, points: p.join(' ') });
    }
    case 4: {
      const w = r * 0.36;
      const l = r * 0.95;
      return s('path', { ...a, d: `M${-w},${-l}H${w}V${-w}H${l}V${w}H${w}V${l}H${-w}V${w}H${-l}V${-w}H${-w}Z` });
    }
    default: {
      const p = [];
      for (let i = 0; i < 10; i++) p.push(polar(i % 2 ? r * 0.45 : r * 1.05, -90 + i * 36));
      return s('polygon', { ...a, points: p.map(([x, y]) => `${x},${y + r * 0.08}`).join(' ') });
    }
  }
}

/** @param {number} r @param {number} deg @returns {[number, number]} */
function polar(r, deg) {
  const t = (deg * Math.PI) / 180;
  return [+(r * Math.cos(t)).toFixed(4), +(r * Math.sin(t)).toFixed(4)];
}

/**
 * A small standalone swatch (piece with its mark) for player lists.
 * @param {number} seat @param {{draughts?: 'white'|'black', set?: number}} [opt] `set`: which of the seat's sets
 */
export function swatch(seat, opt = {}) {
  const svg = s('svg', { viewBox: '-1 -1 2 2', class: 'swatch', 'aria-hidden': 'true' });
  if (opt.draughts) {
    const white = opt.draughts === 'white';
    svg.append(s('circle', { r: 0.9, fill: white ? '#f3efe6' : '#2a2a2a', stroke: white ? '#555' : '#000', 'stroke-width': 0.12 }));
    svg.append(s('circle', { r: 0.55, fill: 'none', stroke: white ? '#bbb' : '#555', 'stroke-width': 0.1 }));
  } else {
    const set = opt.set ?? 0;
    svg.append(s('circle', { r: 0.9, fill: setColorOf(seat, set), stroke: 'rgba(0,0,0,.45)', 'stroke-width': 0.1 }));
    if (set) svg.append(setRing(set, 0.9));
    svg.append(markSvg(seat, 0.45));
  }
  return svg;
}

/**
 * The ring that tells a second (solid) or third (dashed) set apart, inside a piece of radius `r`.
 * @param {number} set @param {number} r @returns {SVGElement}
 */
export function setRing(set, r) {
  return s('circle', { class: 'set-ring', r: r * 0.78, fill: 'none', stroke: set === 1 ? '#1a1a1a' : '#ffffff', 'stroke-width': r * 0.13,
    'stroke-dasharray': set === 2 ? `${r * 0.32} ${r * 0.2}` : null });
}
