// @ts-check
/**
 * The interactive SVG board shared by both games. A geometry (board-cc.js, board-draughts.js)
 * says where each cell is and draws the background; this module draws pieces and highlights and
 * turns taps and drags into moves. Pointer events only, `touch-action: none`: dragging never
 * scrolls the page.
 */
import { s } from './dom.js';

/**
 * @typedef {{x: number, y: number}} Pt
 * @typedef {{id: string, fill: string, stroke: string, mark?: SVGElement|null, king?: boolean, inert?: boolean, owner: number|null}} PieceSpec
 * @typedef {{from: string, to: string, path: string[], captures: string[], raw: any}} BoardMove
 * @typedef {{viewBox: string, cells: Map<string, Pt>, pitch: number, pieceR: number, background: (layer: SVGElement) => void, squares?: boolean}} Geometry  `squares`: mark cells as squares (draughts)
 * @typedef {{
 *   pieces: PieceSpec[],
 *   moves: BoardMove[],
 *   showLegal: boolean,
 *   confirm: boolean,
 *   last: {path: string[], captures: string[]} | null,
 *   animate: {path: string[], ghosts: PieceSpec[]} | null,
 * }} BoardState
 */

export class Board {
  /**
   * @param {Geometry} geo
   * @param {{onMove: (m: BoardMove) => void, onPending: (m: BoardMove|null) => void, onHint: (text: 'choose_path'|null) => void}} handlers
   */
  constructor(geo, handlers) {
    this.geo = geo;
    this.h = handlers;
    this.svg = /** @type {SVGSVGElement} */ (s('svg', { viewBox: geo.viewBox, class: 'board', role: 'img', 'data-board': '1' }));
    this.bg = s('g', { class: 'layer-bg' });
    this.marks = s('g', { class: 'layer-marks' });
    this.piecesLayer = s('g', { class: 'layer-pieces' });
    this.top = s('g', { class: 'layer-top' });
    this.svg.append(this.bg, this.marks, this.piecesLayer, this.top);
    geo.background(this.bg);
    /** @type {BoardState} */
    this.state = { pieces: [], moves: [], showLegal: true, confirm: false, last: null, animate: null };
    /** @type {string|null} */
    this.selected = null;
    /** @type {BoardMove[]|null} candidates while picking among capture paths */
    this.choosing = null;
    /** @type {BoardMove|null} move shown, waiting for ✓ */
    this.pending = null;
    /** @type {BoardMove|null} a hint: marked, not played; cleared when the legal moves change */
    this.suggestion = null;
    /** @type {Map<string, SVGElement>} */
    this.pieceEls = new Map();
    /** @type {{id: string, start: Pt, el: SVGElement, dragging: boolean, pointer: number}|null} */
    this.press = null;
    this.svg.addEventListener('pointerdown', (e) => this.down(e));
    this.svg.addEventListener('pointermove', (e) => this.moveDrag(e));
    this.svg.addEventListener('pointerup', (e) => this.up(e));
    this.svg.addEventListener('pointercancel', () => this.cancelDrag());
    this.svg.addEventListener('keydown', (e) => this.key(e));
  }

  /** Keyboard play: Tab to a piece or a destination, Enter or Space to pick it, Escape to drop. @param {KeyboardEvent} e */
  key(e) {
    const el = /** @type {Element} */ (e.target);
    if (e.key === 'Escape') {
      if (this.pending) this.cancelPending();
      this.selected = null;
      this.choosing = null;
      this.h.onHint(null);
      this.drawMarks();
      return;
    }
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    const dest = el.getAttribute('data-dest');
    const cell = el.getAttribute('data-cell');
    if (dest) {
      this.tapCell(dest);
    } else if (cell && this.movesFrom(cell).length && !this.pending) {
      this.selected = cell;
      this.choosing = null;
      this.drawMarks();
    } else {
      return;
    }
    const next = /** @type {SVGElement|null} */ (this.top.querySelector('[data-dest]'));
    if (next) next.focus();
  }

  /** @param {BoardState} state */
  render(state) {
    // A new state with the same legal moves (someone came online, a setting of no consequence…)
    // keeps what the player is doing: the piece picked, the path being chosen, the move shown.
    const sameLegal = sameMoves(this.state.moves, state.moves);
    const same = sameLegal && !state.animate;
    this.state = state;
    if (!same) {
      if (this.pending) this.h.onPending(null);
      if (this.choosing) this.h.onHint(null);
      this.pending = null;
      this.choosing = null;
    }
    // A hint stays while the legal moves are the same (an animation or a presence change keeps it).
    if (!sameLegal) this.suggestion = null;
    if (this.selected && !state.moves.some((m) => m.from === this.selected)) this.selected = null;
    this.drawPieces();
    if (this.pending) this.showAt(this.pending);
    this.drawMarks();
    if (state.animate) this.animate(state.animate);
  }

  drawPieces() {
    this.piecesLayer.replaceChildren();
    this.pieceEls.clear();
    const movable = new Set(this.state.moves.map((m) => m.from));
    for (const p of this.state.pieces) {
      const el = this.pieceEl(p, movable.has(p.id));
      this.pieceEls.set(p.id, el);
      this.piecesLayer.append(el);
    }
  }

  /** @param {PieceSpec} p @param {boolean} movable */
  pieceEl(p, movable) {
    const c = this.geo.cells.get(p.id) || { x: 0, y: 0 };
    const r = this.geo.pieceR;
    const g = s('g', {
      class: `piece${movable ? ' movable' : ''}${p.inert ? ' inert' : ''}${p.king ? ' king' : ''}`,
      'data-cell': p.id,
      'data-owner': p.owner ?? '',
      style: `transform: translate(${c.x}px, ${c.y}px)`,
      tabindex: movable ? 0 : null,
      role: movable ? 'button' : null,
      'aria-label': movable ? p.id : null,
    });
    g.append(s('circle', { class: 'piece-shadow', r, cy: r * 0.12 }));
    g.append(s('circle', { class: 'piece-body', r, fill: p.fill, stroke: p.stroke, 'stroke-width': r * 0.12 }));
    if (p.king) g.append(s('circle', { class: 'piece-crown', r: r * 0.78, fill: 'none', 'stroke-width': r * 0.16 }));
    if (p.mark) g.append(p.mark);
    return g;
  }

  drawMarks() {
    this.marks.replaceChildren();
    this.top.replaceChildren();
    const st = this.state;
    const R = this.geo.pitch;
    if (st.last && st.last.path.length) {
      const pts = st.last.path.map((id) => this.geo.cells.get(id)).filter((p) => !!p);
      this.marks.append(s('polyline', { class: 'last-path', points: pts.map((p) => `${p.x},${p.y}`).join(' '), 'stroke-width': R * 0.1 }));
      const first = pts[0];
      const end = pts[pts.length - 1];
      if (this.geo.squares) {
        for (const p of [first, end]) {
          if (p) this.marks.insertBefore(s('rect', { class: 'last-square', x: p.x - R / 2, y: p.y - R / 2, width: R, height: R }), this.marks.firstChild);
        }
      } else {
        if (first) this.marks.append(s('circle', { class: 'last-from', cx: first.x, cy: first.y, r: R * 0.42, 'stroke-width': R * 0.07 }));
        if (end) this.marks.append(s('circle', { class: 'last-to', cx: end.x, cy: end.y, r: R * 0.5, 'stroke-width': R * 0.08 }));
      }
    }
    if (this.suggestion) {
      const pts = this.suggestion.path.map((id) => this.geo.cells.get(id)).filter((p) => !!p);
      this.marks.append(s('polyline', { class: 'suggest-path', points: pts.map((p) => `${p.x},${p.y}`).join(' '), 'stroke-width': R * 0.1 }));
      const from = this.geo.cells.get(this.suggestion.from);
      const to = this.geo.cells.get(this.suggestion.to);
      if (from) this.marks.append(s('circle', { class: 'suggest-from', 'data-suggest': 'from', 'data-suggest-cell': this.suggestion.from, cx: from.x, cy: from.y, r: this.geo.pieceR * 1.25, 'stroke-width': R * 0.09 }));
      if (to) this.marks.append(s('circle', { class: 'suggest-to', 'data-suggest': 'to', 'data-suggest-cell': this.suggestion.to, cx: to.x, cy: to.y, r: R * 0.3, 'stroke-width': R * 0.08 }));
    }
    const movable = new Set(st.moves.map((m) => m.from));
    if (st.showLegal && !this.selected) {
      for (const id of movable) {
        const c = this.geo.cells.get(id);
        if (c) this.marks.append(s('circle', { class: 'can-move', cx: c.x, cy: c.y, r: this.geo.pieceR * 1.16, 'stroke-width': R * 0.06 }));
      }
    }
    if (this.selected) {
      const c = this.geo.cells.get(this.selected);
      if (c) this.marks.append(s('circle', { class: 'selected', cx: c.x, cy: c.y, r: this.geo.pieceR * 1.2, 'stroke-width': R * 0.09 }));
      if (st.showLegal || this.choosing) {
        const dests = new Set(this.movesFrom(this.selected).map((m) => m.to));
        if (this.choosing) dests.clear();
        for (const id of dests) {
          const d = this.geo.cells.get(id);
          if (d) this.top.append(s('circle', { class: 'dest', 'data-dest': id, cx: d.x, cy: d.y, r: R * 0.2, tabindex: 0, role: 'button', 'aria-label': id }));
        }
      }
    }
    if (this.choosing) {
      const inter = new Set();
      for (const m of this.choosing) for (const id of m.path.slice(1, -1)) inter.add(id);
      for (const id of inter) {
        const d = this.geo.cells.get(id);
        if (d) this.top.append(s('circle', { class: 'dest choose', 'data-dest': id, cx: d.x, cy: d.y, r: R * 0.26, tabindex: 0, role: 'button', 'aria-label': id }));
      }
      const caps = new Set(this.choosing.flatMap((m) => m.captures));
      for (const id of caps) {
        const d = this.geo.cells.get(id);
        if (d) this.top.append(s('circle', { class: 'capture-mark', cx: d.x, cy: d.y, r: this.geo.pieceR * 0.9, 'stroke-width': R * 0.06 }));
      }
    }
    if (this.pending) {
      const pts = this.pending.path.map((id) => this.geo.cells.get(id)).filter((p) => !!p);
      this.top.append(s('polyline', { class: 'pending-path', points: pts.map((p) => `${p.x},${p.y}`).join(' '), 'stroke-width': R * 0.12 }));
      for (const id of this.pending.captures) {
        const d = this.geo.cells.get(id);
        if (d) this.top.append(s('circle', { class: 'capture-mark', cx: d.x, cy: d.y, r: this.geo.pieceR * 0.9, 'stroke-width': R * 0.08 }));
      }
    }
  }

  /** Marks a suggested move (a hint) without playing it; `null` clears it. @param {BoardMove|null} m */
  suggest(m) {
    this.suggestion = m;
    this.drawMarks();
  }

  /** @param {string} id */
  movesFrom(id) {
    return this.state.moves.filter((m) => m.from === id);
  }

  /** @param {PointerEvent} e @returns {Pt} */
  point(e) {
    const m = this.svg.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  /** The cell under a point, if close enough. @param {Pt} p */
  cellAt(p) {
    let best = null;
    let bestD = Infinity;
    for (const [id, c] of this.geo.cells) {
      const d = (c.x - p.x) ** 2 + (c.y - p.y) ** 2;
      if (d < bestD) {
        bestD = d;
        best = id;
      }
    }
    return bestD <= (this.geo.pitch * 0.6) ** 2 ? best : null;
  }

  /** @param {PointerEvent} e */
  down(e) {
    if (e.button !== 0 || this.pending) return;
    const id = this.cellAt(this.point(e));
    if (id && this.movesFrom(id).length && !this.choosing) {
      const el = this.pieceEls.get(id);
      if (!el) return;
      e.preventDefault();
      this.selected = id;
      this.drawMarks();
      this.press = { id, start: this.point(e), el, dragging: false, pointer: e.pointerId };
      try {
        this.svg.setPointerCapture(e.pointerId);
      } catch {
        /* synthetic pointers */
      }
    }
  }

  /** @param {PointerEvent} e */
  moveDrag(e) {
    const pr = this.press;
    if (!pr || e.pointerId !== pr.pointer) return;
    const p = this.point(e);
    if (!pr.dragging && Math.hypot(p.x - pr.start.x, p.y - pr.start.y) > this.geo.pitch * 0.3) {
      pr.dragging = true;
      pr.el.classList.add('dragging');
      this.piecesLayer.append(pr.el);
    }
    if (pr.dragging) {
      e.preventDefault();
      pr.el.style.transform = `translate(${p.x}px, ${p.y}px) scale(1.15)`;
    }
  }

  /** @param {PointerEvent} e */
  up(e) {
    const pr = this.press;
    this.press = null;
    const p = this.point(e);
    const id = this.cellAt(p);
    if (pr && pr.dragging) {
      pr.el.classList.remove('dragging');
      const dest = id && this.movesFrom(pr.id).some((m) => m.to === id) ? id : null;
      if (dest) {
        this.chooseDest(pr.id, dest);
      } else {
        const c = this.geo.cells.get(pr.id) || { x: 0, y: 0 };
        pr.el.style.transform = `translate(${c.x}px, ${c.y}px)`;
      }
      return;
    }
    if (pr) return; // a tap on a movable piece: selected at pointerdown
    if (this.pending || !id) return;
    this.tapCell(id);
  }

  cancelDrag() {
    const pr = this.press;
    this.press = null;
    if (pr) {
      pr.el.classList.remove('dragging');
      const c = this.geo.cells.get(pr.id) || { x: 0, y: 0 };
      pr.el.style.transform = `translate(${c.x}px, ${c.y}px)`;
    }
  }

  /** @param {string} id */
  tapCell(id) {
    if (this.choosing) {
      const left = this.choosing.filter((m) => m.path.slice(1, -1).includes(id) || m.captures.includes(id));
      if (left.length === 1) return this.proceed(left[0]);
      if (left.length > 1) this.choosing = left;
      this.drawMarks();
      return;
    }
    if (this.selected && this.movesFrom(this.selected).some((m) => m.to === id)) {
      return this.chooseDest(this.selected, id);
    }
    this.selected = null;
    this.drawMarks();
  }

  /** @param {string} from @param {string} to */
  chooseDest(from, to) {
    const cands = this.movesFrom(from).filter((m) => m.to === to);
    if (cands.length === 1) return this.proceed(cands[0]);
    // Several captures end here (draughts): pick by their intermediate squares.
    const distinct = uniqueBy(cands, (m) => m.path.join('-'));
    if (distinct.length === 1) return this.proceed(distinct[0]);
    this.choosing = distinct;
    const el = this.pieceEls.get(from);
    const c = this.geo.cells.get(from);
    if (el && c) el.style.transform = `translate(${c.x}px, ${c.y}px)`;
    this.h.onHint('choose_path');
    this.drawMarks();
  }

  /** @param {BoardMove} m */
  proceed(m) {
    this.choosing = null;
    this.h.onHint(null);
    this.selected = null;
    this.showAt(m);
    if (this.state.confirm) {
      this.pending = m;
      this.drawMarks();
      this.h.onPending(m);
    } else {
      this.drawMarks();
      this.h.onMove(m);
    }
  }

  /** Shows a piece at its destination (optimistic, or waiting for ✓). @param {BoardMove} m */
  showAt(m) {
    const el = this.pieceEls.get(m.from);
    const c = this.geo.cells.get(m.to);
    if (el && c) {
      el.style.transform = `translate(${c.x}px, ${c.y}px)`;
      el.classList.add('moved');
      el.setAttribute('data-cell', m.to);
    }
    for (const id of m.captures) this.pieceEls.get(id)?.classList.add('captured');
  }

  /** The player confirmed the move shown. */
  confirm() {
    const m = this.pending;
    this.pending = null;
    this.h.onPending(null);
    if (m) this.h.onMove(m);
    this.drawMarks();
  }

  /** The player took back the move shown. */
  cancelPending() {
    this.pending = null;
    this.h.onPending(null);
    this.drawPieces();
    this.drawMarks();
  }

  /** @param {{path: string[], ghosts: PieceSpec[]}} a */
  animate(a) {
    const end = a.path[a.path.length - 1];
    const el = this.pieceEls.get(end);
    const pts = a.path.map((id) => this.geo.cells.get(id)).filter((p) => !!p);
    if (!el || pts.length < 2 || typeof el.animate !== 'function') return;
    if (window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const per = pts.length > 2 ? 220 : 260;
    el.animate(
      pts.map((p) => ({ transform: `translate(${p.x}px, ${p.y}px)` })),
      { duration: per * (pts.length - 1), easing: 'ease-in-out' },
    );
    for (const gp of a.ghosts) {
      const g = this.pieceEl(gp, false);
      g.classList.add('ghost');
      this.piecesLayer.insertBefore(g, this.piecesLayer.firstChild);
      const anim = g.animate([{ opacity: 1 }, { opacity: 1, offset: 0.7 }, { opacity: 0 }], { duration: per * (pts.length - 1) + 200 });
      anim.onfinish = () => g.remove();
    }
  }
}

/** @param {BoardMove[]} a @param {BoardMove[]} b */
function sameMoves(a, b) {
  if (a.length !== b.length) return false;
  const k = (/** @type {BoardMove} */ m) => m.path.join('-') + '/' + m.captures.join('-');
  const set = new Set(a.map(k));
  return b.every((m) => set.has(k(m)));
}

/** @template T @param {T[]} xs @param {(x: T) => string} key */
function uniqueBy(xs, key) {
  const seen = new Set();
  return xs.filter((x) => {
    const k = key(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
