// @ts-check
/**
 * The interactive SVG board shared by both games. A geometry (board-cc.js, board-draughts.js)
 * says where each cell is and draws the background; this module draws pieces and highlights and
 * turns taps and drags into moves. Pointer events only, `touch-action: none`: dragging never
 * scrolls the page. Keyboard: the board is one Tab stop; the arrow keys move the focus between the
 * movable pieces (then between the destinations of the piece picked), Enter or Space picks,
 * Escape goes back; while a move waits for ✓, Enter confirms it and Escape takes it back.
 */

/** @type {Record<string, [number, number]>} */
const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
import { s } from './dom.js';
import { t } from './i18n.js';

/**
 * @typedef {{x: number, y: number}} Pt
 * @typedef {{id: string, fill: string, stroke: string, mark?: SVGElement|null, ring?: SVGElement|null, king?: boolean, color?: 'white'|'black', inert?: boolean, owner: number|null}} PieceSpec  `ring`: tells a player's sets apart; `color`: a draughts piece's, said to screen readers
 * @typedef {{from: string, to: string, path: string[], captures: string[], raw: any}} BoardMove
 * @typedef {{viewBox: string, cells: Map<string, Pt>, pitch: number, pieceR: number, background: (layer: SVGElement) => void, squares?: boolean, ringR?: number}} Geometry  `squares`: mark cells as squares (draughts); `ringR`: radius of the ring around the pieces able to move (default 1.16 × `pieceR`)
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
    this.svg = /** @type {SVGSVGElement} */ (s('svg', { viewBox: geo.viewBox, class: 'board', role: 'group', tabindex: -1, 'data-board': '1' },
      s('desc', null, t('a11y_board_help'))));
    this.bg = s('g', { class: 'layer-bg' });
    this.marks = s('g', { class: 'layer-marks' });
    this.piecesLayer = s('g', { class: 'layer-pieces' });
    this.top = s('g', { class: 'layer-top' });
    this.bg.setAttribute('aria-hidden', 'true');
    geo.background(this.bg);
    /**
     * Every cell speaks (issue 23): one named element per square or hole, in reading order —
     * « case 31, pion blanc », « case 23, vide », « rangée 5, trou 3, pièce bleue » — except under
     * a movable piece, whose button says it. The squares' numbers are drawn above the pieces,
     * hidden from screen readers.
     * @type {Map<string, SVGElement>}
     */
    this.cellEls = new Map();
    this.cellsLayer = s('g', { class: 'layer-cells' });
    this.nums = s('g', { class: 'layer-nums', 'aria-hidden': 'true' });
    const order = [...geo.cells].sort(([a, p], [b, q]) => (geo.squares ? Number(a) - Number(b) : p.y - q.y || p.x - q.x));
    for (const [id, p] of order) {
      const el = geo.squares
        ? s('rect', { class: 'cell-name', 'data-square': id, x: p.x - 0.5, y: p.y - 0.5, width: 1, height: 1 })
        : s('circle', { class: 'cell-name', 'data-hole': id, cx: p.x, cy: p.y, r: geo.pitch * 0.45 });
      this.cellEls.set(id, el);
      this.cellsLayer.append(el);
    }
    if (geo.squares) for (const n of [...this.bg.querySelectorAll('.dr-num')]) this.nums.append(n);
    this.svg.append(this.bg, this.cellsLayer, this.marks, this.piecesLayer, this.nums, this.top);
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
    /** The last item focused (`piece:32`, `dest:28`), and whether the player plays by keyboard. */
    this.focusKey = '';
    this.keyboard = false;
    /** @type {Map<string, string>|null} names of the holes (row, hole), computed once */
    this.holeNames = null;
    /** @type {string|null} what to focus after the next redraw, chosen by a key ('' = the first) */
    this.nextFocus = null;
    this.svg.addEventListener('pointerdown', (e) => {
      this.keyboard = false;
      this.down(e);
    });
    // Focus brought in by the keyboard (Tab from the page) counts as keyboard play at once, so
    // that a redraw before the first key pressed inside the board keeps the focus where it is.
    this.svg.addEventListener('focusin', (e) => {
      const el = /** @type {Element} */ (e.target);
      if (el.matches(':focus-visible')) this.keyboard = true;
    });
    // Focus leaving for another control: redraws must not pull it back.
    this.svg.addEventListener('focusout', (e) => {
      const to = /** @type {Node|null} */ (e.relatedTarget);
      if (to && !this.svg.contains(to)) this.keyboard = false;
    });
    this.svg.addEventListener('pointermove', (e) => this.moveDrag(e));
    this.svg.addEventListener('pointerup', (e) => this.up(e));
    this.svg.addEventListener('pointercancel', () => this.cancelDrag());
    this.svg.addEventListener('keydown', (e) => this.key(e));
  }

  /** Keyboard play (see the module's comment). @param {KeyboardEvent} e */
  key(e) {
    const el = /** @type {Element} */ (e.target);
    this.keyboard = true;
    if (this.pending && (e.key === 'Enter' || e.key === ' ' || e.key === 'Escape')) {
      e.preventDefault();
      if (e.key === 'Escape') this.cancelPending();
      else this.confirm();
      return;
    }
    if (e.key === 'Escape') {
      const back = this.selected;
      this.selected = null;
      this.choosing = null;
      this.h.onHint(null);
      if (back) this.nextFocus = 'piece:' + back;
      this.drawMarks();
      return;
    }
    const dir = ARROWS[e.key];
    if (dir || e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      const items = this.focusables();
      const current = items.find((x) => x === el);
      const next = dir && current ? this.nearest(current, items, dir) : e.key === 'End' ? items[items.length - 1] : items[0];
      if (next) this.focusItem(next);
      return;
    }
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    const dest = el.getAttribute('data-dest');
    const cell = el.getAttribute('data-cell');
    if (dest) {
      this.tapCell(dest);
    } else if (cell && this.movesFrom(cell).length) {
      this.selected = cell;
      this.choosing = null;
      this.nextFocus = '';
      this.drawMarks();
    } else if (el === this.svg) {
      const first = this.focusables()[0];
      if (first) this.focusItem(first);
    }
  }

  /** What the arrow keys go through: path choices, else destinations, else movable pieces. */
  focusables() {
    const items = /** @type {SVGElement[]} */ (this.choosing || this.selected
      ? [...this.top.querySelectorAll(this.choosing ? '.dest.choose' : '.dest')]
      : [...this.piecesLayer.querySelectorAll('.piece.movable')].filter((p) => this.movesFrom(itemId(p)).length));
    const at = (/** @type {SVGElement} */ x) => this.geo.cells.get(itemId(x)) || { x: 0, y: 0 };
    // Reading order: top to bottom, then left to right.
    return items.sort((a, b) => at(a).y - at(b).y || at(a).x - at(b).x);
  }

  /**
   * The item nearest to `from` in direction `dir`, favouring straight lines.
   * @param {SVGElement} from @param {SVGElement[]} items @param {[number, number]} dir
   */
  nearest(from, items, dir) {
    const p = this.geo.cells.get(itemId(from));
    if (!p) return null;
    let best = null;
    let bestScore = Infinity;
    for (const it of items) {
      const q = this.geo.cells.get(itemId(it));
      if (!q || it === from) continue;
      const dx = q.x - p.x;
      const dy = q.y - p.y;
      const along = dx * dir[0] + dy * dir[1];
      if (along <= 1e-6) continue;
      const score = along + 2 * Math.abs(dx * dir[1] - dy * dir[0]);
      if (score < bestScore) {
        bestScore = score;
        best = it;
      }
    }
    return best;
  }

  /** @param {SVGElement} el */
  focusItem(el) {
    this.focusKey = itemKey(el);
    this.updateTabStops();
    el.focus({ preventScroll: false });
  }

  /**
   * One Tab stop: the item focused last (or the first one) has tabindex 0, the others -1. If the
   * player is using the keyboard and the focus was in the board, it stays there across redraws.
   * @param {boolean} [hadFocus]
   */
  updateTabStops(hadFocus = false) {
    const items = this.focusables();
    for (const it of this.svg.querySelectorAll('[tabindex]')) if (it !== this.svg) it.setAttribute('tabindex', '-1');
    const current = items.find((x) => itemKey(x) === this.focusKey) || items[0];
    if (current) current.setAttribute('tabindex', '0');
    this.svg.setAttribute('tabindex', current ? '-1' : '0');
    if (hadFocus && this.keyboard) {
      const target = current || this.svg;
      if (document.activeElement !== target) /** @type {SVGElement} */ (target).focus({ preventScroll: true });
    }
  }

  /** Whether the focus is in the board now, or was before a redraw removed the focused item. */
  focusInBoard() {
    const a = document.activeElement;
    return !!a && (this.svg.contains(a) || ((a === document.body || !a.isConnected) && this.keyboard));
  }

  /** What a screen reader says of a cell: « case 32 », or « rangée 5, trou 3 » on the star. @param {string} id */
  cellName(id) {
    if (this.geo.squares) return t('cell_square', { n: id });
    if (!this.holeNames) {
      const rows = new Map();
      for (const [cid, p] of this.geo.cells) {
        const y = Math.round(p.y * 100);
        if (!rows.has(y)) rows.set(y, []);
        rows.get(y).push({ cid, x: p.x });
      }
      this.holeNames = new Map();
      [...rows.keys()].sort((a, b) => a - b).forEach((y, r) => {
        rows.get(y).sort((/** @type {{x: number}} */ a, /** @type {{x: number}} */ b) => a.x - b.x)
          .forEach((/** @type {{cid: string}} */ c, /** @type {number} */ i) => this.holeNames?.set(c.cid, t('cell_hole', { r: r + 1, p: i + 1 })));
      });
    }
    return this.holeNames.get(id) || id;
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
    if (this.focusInBoard() && document.activeElement !== this.svg) this.focusKey = itemKey(/** @type {Element} */ (document.activeElement)) || this.focusKey;
    this.piecesLayer.replaceChildren();
    this.pieceEls.clear();
    const movable = new Set(this.state.moves.map((m) => m.from));
    for (const p of this.state.pieces) {
      const el = this.pieceEl(p, movable.has(p.id));
      this.pieceEls.set(p.id, el);
      this.piecesLayer.append(el);
    }
    this.nameCells(movable);
  }

  /**
   * What a screen reader says of a square and what is on it: « case 31, pion blanc », « case 7,
   * dame noire », « case 23, vide ». @param {string} id @param {PieceSpec|undefined} p
   */
  squareName(id, p) {
    const cell = this.cellName(id);
    if (!p) return t('a11y_empty', { cell });
    if (p.inert) return t('a11y_inert', { cell });
    if (!p.color) return p.owner === null ? t('a11y_piece', { cell }) : t(/** @type {import('./i18n.js').Key} */ (`a11y_cc_${p.owner % 6}`), { cell });
    return t(/** @type {import('./i18n.js').Key} */ (`a11y_${p.king ? 'king' : 'man'}_${p.color}`), { cell });
  }

  /** Names every cell: the piece's button under a movable piece, else the cell. @param {Set<string>} movable */
  nameCells(movable) {
    if (!this.cellEls.size) return;
    const at = new Map(this.state.pieces.map((p) => [p.id, p]));
    for (const [id, el] of this.cellEls) {
      const own = !movable.has(id);
      if (own) {
        el.removeAttribute('aria-hidden');
        el.setAttribute('role', 'img');
        el.setAttribute('aria-label', this.squareName(id, at.get(id)));
      } else {
        el.setAttribute('aria-hidden', 'true');
        el.removeAttribute('role');
        el.removeAttribute('aria-label');
      }
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
      tabindex: movable ? -1 : null,
      role: movable ? 'button' : null,
      'aria-label': movable ? this.squareName(p.id, p) : null,
      // A square's element names the pieces that cannot move (draughts).
      'aria-hidden': !movable && this.cellEls.size ? 'true' : null,
    });
    g.append(s('circle', { class: 'piece-shadow', r, cy: r * 0.12 }));
    g.append(s('circle', { class: 'piece-body', r, fill: p.fill, stroke: p.stroke, 'stroke-width': r * 0.12 }));
    if (p.king) g.append(s('circle', { class: 'piece-crown', r: r * 0.78, fill: 'none', 'stroke-width': r * 0.16 }));
    if (p.ring) g.append(p.ring);
    if (p.mark) g.append(p.mark);
    return g;
  }

  drawMarks() {
    const hadFocus = this.focusInBoard();
    const active = document.activeElement;
    if (this.nextFocus !== null) {
      this.focusKey = this.nextFocus;
      this.nextFocus = null;
    } else if (active && active !== this.svg && this.svg.contains(active)) {
      this.focusKey = itemKey(active) || this.focusKey;
    }
    this.drawMarksOnly();
    this.updateTabStops(hadFocus);
  }

  drawMarksOnly() {
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
        if (c) this.marks.append(s('circle', { class: 'can-move', cx: c.x, cy: c.y, r: this.geo.ringR ?? this.geo.pieceR * 1.16, 'stroke-width': R * 0.06 }));
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
          if (d) this.top.append(s('circle', { class: 'dest', 'data-dest': id, cx: d.x, cy: d.y, r: R * 0.2, tabindex: -1, role: 'button', 'aria-label': t('a11y_dest', { cell: this.cellName(id) }) }));
        }
      }
    }
    if (this.choosing) {
      const inter = new Set();
      for (const m of this.choosing) for (const id of m.path.slice(1, -1)) inter.add(id);
      for (const id of inter) {
        const d = this.geo.cells.get(id);
        if (d) this.top.append(s('circle', { class: 'dest choose', 'data-dest': id, cx: d.x, cy: d.y, r: R * 0.26, tabindex: -1, role: 'button', 'aria-label': t('a11y_path', { cell: this.cellName(id) }) }));
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

/** The cell an item stands for. @param {Element} el */
function itemId(el) {
  return el.getAttribute('data-dest') || el.getAttribute('data-cell') || '';
}

/** `piece:32`, `dest:28`, `choose:19`: what to focus again after a redraw. @param {Element} el */
function itemKey(el) {
  if (el.hasAttribute('data-dest')) return (el.classList.contains('choose') ? 'choose:' : 'dest:') + el.getAttribute('data-dest');
  return el.hasAttribute('data-cell') ? 'piece:' + el.getAttribute('data-cell') : '';
}
