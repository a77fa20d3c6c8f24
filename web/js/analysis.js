// @ts-check
/**
 * « Analyser » on the replay of a finished draughts game (docs/protocol.md "Analysis"): the
 * button that asks the server for the analysis (`POST /api/rooms/{code}/games/{n}/analysis`),
 * its progress while it runs (polled every second: a page that stops polling lets the server
 * cancel it), then the evaluation graph (SVG; a tap or the arrow keys go to a position), the
 * best move of the position shown as an arrow on the board, and the marked moves (?!, ?, ??)
 * in the page's move list and in a list of their own with what each lost. Loaded by replay.js
 * (a dynamic import) only for a finished draughts game.
 */
import { h, s } from './dom.js';
import { ApiError, request } from './api.js';
import { errorText, lang } from './i18n.js';
import { ta } from './texts-analysis.js';

/**
 * @typedef {{from: number, to: number, path: number[], captures: number[], notation: string}} BestMove
 * @typedef {{eval: number, mate: number|null, best: BestMove|null, pv: string[], depth: number}} PositionEval
 * @typedef {{notation: string, loss: number, mark: '?!'|'?'|'??'|null}} MoveEval
 * @typedef {{format: number, nodes: number, positions: PositionEval[], moves: MoveEval[], truncated: boolean, at: number, ms: number}} GameAnalysis
 * @typedef {{status: 'none'} | {status: 'running', done: number, total: number} | {status: 'done', analysis: GameAnalysis}} Answer
 * @typedef {import('./replay.js').Replay} Replay
 */

/** The logistic scale of the evaluation (crates/ai/src/draughts/review.rs `SCALE`). */
const SCALE = 150;
/** The graph's size in its own units. */
const W = 300;
const H = 80;
const POLL_MS = 1000;

/** @type {Record<string, 'analysis_dubious'|'analysis_mistake'|'analysis_blunder'>} */
const MARK_NAME = { '?!': 'analysis_dubious', '?': 'analysis_mistake', '??': 'analysis_blunder' };
/** @type {Record<string, string>} */
const MARK_CLASS = { '?!': 'dubious', '?': 'mistake', '??': 'blunder' };

/** White's expected score (0–1) of an evaluation. @param {number} cp */
const expected = (cp) => 1 / (1 + Math.exp(-cp / SCALE));

/** An evaluation as text: pawns from White's side, or a forced win. @param {PositionEval} p */
export function evalText(p) {
  if (p.mate !== null && p.mate !== undefined) return ta(p.eval >= 0 ? 'analysis_white_wins' : 'analysis_black_wins');
  const v = p.eval / 100;
  const text = (v >= 0 ? '+' : '−') + Math.abs(v).toFixed(2);
  return lang() === 'en' ? text : text.replace('.', ',');
}

/**
 * The panel's styles, added once to the page when first used (kept out of app.css, which the
 * home page inlines). Colours are app.css's custom properties; a mark's colour is doubled by its
 * symbol, never the only sign.
 */
const CSS = `
.analysis { margin-top: 12px; }
.analysis-title { font-size: 1.05rem; margin: 0 0 8px; }
.analysis-sub { font-size: 0.95rem; margin: 12px 0 4px; }
.analysis progress { width: 100%; height: 12px; }
.analysis-graph-box { display: block; width: 100%; cursor: pointer; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; touch-action: manipulation; }
.analysis-graph-box:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.analysis-graph { display: block; width: 100%; height: 96px; }
.analysis-graph .graph-black { fill: #3b3f46; }
.analysis-graph .graph-white { fill: #f4f1ea; }
.analysis-graph .graph-middle { stroke: var(--muted); stroke-width: 0.6; stroke-dasharray: 3 3; }
.analysis-graph .graph-line { stroke: var(--accent); stroke-width: 1.4; vector-effect: non-scaling-stroke; }
.analysis-graph .graph-now { stroke: var(--primary); stroke-width: 2; vector-effect: non-scaling-stroke; }
.analysis-graph .graph-mark { stroke: #fff; stroke-width: 1; vector-effect: non-scaling-stroke; }
.graph-mark.dubious { fill: #a16207; } .graph-mark.mistake { fill: #c2410c; } .graph-mark.blunder { fill: var(--danger); }
.analysis-here p { margin: 6px 0; }
.analysis-marks { list-style: none; margin: 0; padding: 0; }
.analysis-marks li { margin: 2px 0; }
.analysis-mark-btn { display: flex; flex-wrap: wrap; gap: 6px; align-items: baseline; width: 100%; text-align: left; min-height: var(--tap); background: none; border: 0; border-radius: 8px; padding: 4px 6px; color: inherit; font: inherit; cursor: pointer; }
.analysis-mark-btn:hover { background: rgba(0, 0, 0, 0.04); }
.analysis-why { flex-basis: 100%; color: var(--muted); font-size: 0.85rem; }
.mv-mark { font-weight: 700; margin-left: 4px; }
.mv-mark.dubious { color: #854d0e; } .mv-mark.mistake { color: #9a3412; } .mv-mark.blunder { color: var(--danger); }
.move-list li.current .mv-mark { color: inherit; }
@media (prefers-color-scheme: dark) {
  .mv-mark.dubious { color: #fcd34d; } .mv-mark.mistake { color: #fdba74; } .mv-mark.blunder { color: #fca5a5; }
  .analysis-mark-btn:hover { background: rgba(255, 255, 255, 0.06); }
}
.analysis-arrow .best-line { stroke: rgba(21, 128, 61, 0.85); }
.analysis-arrow .best-head { fill: rgba(21, 128, 61, 0.85); }
.analysis-arrow { pointer-events: none; }
`;

function addStyles() {
  if (document.getElementById('analysis-css')) return;
  document.head.append(h('style', { id: 'analysis-css' }, CSS));
}

/** Adds the analysis to `replay` (a finished draughts game's). @param {Replay} replay */
export function attachAnalysis(replay) {
  const rec = replay.record;
  if (!rec || replay.analysis) return;
  addStyles();
  replay.analysis = new Analysis(replay, rec.code, rec.game_no);
}

class Analysis {
  /** @param {Replay} replay @param {string} code @param {number} n */
  constructor(replay, code, n) {
    this.replay = replay;
    this.path = `/api/rooms/${code}/games/${n}/analysis`;
    /** @type {GameAnalysis|null} */
    this.result = null;
    /** @type {number|null} */
    this.timer = null;
    this.el = h('section', { class: 'card analysis', 'data-testid': 'analysis', 'aria-labelledby': 'analysis-title' });
    this.arrow = /** @type {SVGGElement} */ (s('g', { class: 'analysis-arrow', 'aria-hidden': 'true', 'data-testid': 'best-arrow' }));
    /** @type {MutationObserver|null} */
    this.observer = null;
    this.place();
    replay.onShown = (i) => this.shown(i);
    this.read();
  }

  /** Puts the panel after the replay control (once that is on the page). */
  place() {
    const bar = this.replay.el;
    if (bar.parentNode && !this.el.isConnected) bar.after(this.el);
  }

  /** Whether the replay left the page (the panel stops). */
  get gone() {
    return !this.replay.el.isConnected && !this.el.isConnected;
  }

  async read() {
    try {
      this.answer(/** @type {Answer} */ (await request('GET', this.path)));
    } catch (e) {
      this.fail(e);
    }
  }

  async ask() {
    try {
      this.answer(/** @type {Answer} */ (await request('POST', this.path, {})));
    } catch (e) {
      this.fail(e);
    }
  }

  /** @param {Answer} a */
  answer(a) {
    if (this.gone) return;
    this.place();
    if (a.status === 'done') return this.show(a.analysis);
    if (a.status === 'running') return this.progress(a.done, a.total);
    this.offer(this.timer !== null ? ta('analysis_stopped') : null);
  }

  /** The « Analyser » button, with `note` above it. @param {string|null} note */
  offer(note) {
    this.stopPolling();
    const btn = h('button', { type: 'button', class: 'btn primary small', 'data-action': 'analyse' }, ta('analysis_button'));
    btn.addEventListener('click', () => {
      btn.disabled = true;
      this.ask();
    });
    this.el.replaceChildren(this.title(), h('p', { class: 'muted small' }, note || ta('analysis_intro')), btn);
  }

  title() {
    return h('h2', { id: 'analysis-title', class: 'analysis-title' }, ta('analysis_title'));
  }

  /** @param {number} done @param {number} total */
  progress(done, total) {
    const label = ta('analysis_running', { done, total });
    const bar = h('progress', { max: String(total), value: String(done), 'aria-label': ta('analysis_progress'), 'aria-valuetext': label });
    this.el.replaceChildren(this.title(), h('p', { class: 'analysis-running', 'data-testid': 'analysis-progress', role: 'status' }, label), bar);
    this.stopPolling();
    this.timer = window.setTimeout(() => {
      this.timer = null;
      if (this.gone) return;
      request('GET', this.path).then((a) => {
        // Not running any more without a result: it was stopped (say so, offer it again).
        if (/** @type {Answer} */ (a).status === 'none') this.timer = -1;
        this.answer(/** @type {Answer} */ (a));
      }).catch((e) => this.fail(e));
    }, POLL_MS);
  }

  stopPolling() {
    if (this.timer !== null && this.timer >= 0) window.clearTimeout(this.timer);
    this.timer = null;
  }

  /** @param {any} e */
  fail(e) {
    if (this.gone) return;
    this.stopPolling();
    this.offer(e instanceof ApiError ? errorText(e) : String(e));
  }

  /** @param {GameAnalysis} a */
  show(a) {
    this.stopPolling();
    this.result = a;
    this.graph = this.drawGraph(a);
    this.here = h('div', { class: 'analysis-here', 'data-testid': 'analysis-here' });
    this.el.replaceChildren(this.title(), this.graph, this.here, this.markList(a),
      ...(a.truncated ? [h('p', { class: 'muted small' }, ta('analysis_truncated'))] : []),
      h('p', { class: 'muted small' }, ta('analysis_help')));
    this.el.dataset.state = 'done';
    this.markMoves();
    this.shown(this.replay.index);
  }

  /** The ply (position index) of log entry `i` (moves only: a resignation ends the game). @param {number} i */
  plyOfEntry(i) {
    const log = this.replay.record ? this.replay.record.log : [];
    return log.slice(0, i).filter((e) => e.kind === 'move').length;
  }

  /** The replay's index showing the position after `ply` moves. @param {number} ply */
  indexOfPly(ply) {
    return ply === 0 ? 0 : this.replay.entryOfMove(ply - 1) + 1;
  }

  /** @param {GameAnalysis} a */
  drawGraph(a) {
    const n = a.positions.length;
    const x = (/** @type {number} */ i) => (n > 1 ? (i / (n - 1)) * W : W / 2);
    const y = (/** @type {number} */ i) => (1 - expected(a.positions[i].eval)) * H;
    const line = a.positions.map((_, i) => `${x(i).toFixed(1)},${y(i).toFixed(1)}`).join(' ');
    const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'analysis-graph', preserveAspectRatio: 'none', 'aria-hidden': 'true' },
      s('rect', { class: 'graph-black', x: 0, y: 0, width: W, height: H }),
      s('polygon', { class: 'graph-white', points: `0,${H} ${line} ${W},${H}` }),
      s('line', { class: 'graph-middle', x1: 0, y1: H / 2, x2: W, y2: H / 2 }),
      s('polyline', { class: 'graph-line', points: line, fill: 'none' }),
      ...a.moves.map((m, i) => (m.mark ? s('circle', { class: `graph-mark ${MARK_CLASS[m.mark]}`, cx: x(i + 1), cy: y(i + 1), r: 3.2 }) : null)).filter((c) => c !== null),
      s('line', { class: 'graph-now', x1: 0, y1: 0, x2: 0, y2: H }));
    const slider = h('div', { class: 'analysis-graph-box', role: 'slider', tabindex: '0', 'aria-label': ta('analysis_graph'),
      'aria-valuemin': '0', 'aria-valuemax': String(n - 1), 'aria-valuenow': '0', 'data-testid': 'analysis-graph' }, svg);
    slider.addEventListener('click', (e) => {
      const box = slider.getBoundingClientRect();
      const ply = Math.round(((e.clientX - box.left) / Math.max(1, box.width)) * (n - 1));
      this.goTo(Math.max(0, Math.min(n - 1, ply)));
    });
    slider.addEventListener('keydown', (e) => {
      const now = this.plyShown();
      /** @type {Record<string, number>} */
      const to = { ArrowLeft: now - 1, ArrowDown: now - 1, ArrowRight: now + 1, ArrowUp: now + 1, Home: 0, End: n - 1 };
      if (!(e.key in to)) return;
      e.preventDefault();
      this.goTo(Math.max(0, Math.min(n - 1, to[e.key])));
    });
    return slider;
  }

  /** The ply of the position the replay shows (past the moves analysed: the last). */
  plyShown() {
    const a = this.result;
    const ply = this.plyOfEntry(this.replay.index);
    return a ? Math.min(ply, a.positions.length - 1) : ply;
  }

  /** @param {number} ply */
  goTo(ply) {
    this.replay.stop();
    this.replay.show(this.indexOfPly(ply));
  }

  /** The marked moves, each a button to its position, with what it lost. @param {GameAnalysis} a */
  markList(a) {
    const marked = a.moves.map((m, i) => ({ m, i })).filter(({ m }) => m.mark);
    const head = h('h3', { class: 'analysis-sub' }, ta('analysis_marks'));
    if (!marked.length) return h('div', null, head, h('p', { class: 'muted small' }, ta('analysis_no_marks')));
    return h('div', null, head, h('ul', { class: 'analysis-marks', 'data-testid': 'analysis-marks' },
      ...marked.map(({ m, i }) => h('li', null,
        h('button', { type: 'button', class: `mv analysis-mark-btn ${MARK_CLASS[m.mark || '?!']}`, 'data-ply': String(i + 1), onclick: () => this.goTo(i + 1) },
          h('span', { class: 'mv-no' }, `${i + 1}.`),
          h('span', { class: 'mv-text' }, m.notation),
          h('span', { class: `mv-mark ${MARK_CLASS[m.mark || '?!']}` }, m.mark || ''),
          h('span', { class: 'analysis-why' }, this.explain(i)))))));
  }

  /** Why move `i` is marked. @param {number} i */
  explain(i) {
    const a = this.result;
    if (!a) return '';
    const m = a.moves[i];
    const best = a.positions[i].best;
    return ta('analysis_explain', { mark: ta(MARK_NAME[m.mark || '?!']), symbol: m.mark || '', loss: Math.round(m.loss * 100), best: best ? best.notation : '—' });
  }

  /** Marks the moves of the page's move list, and keeps them marked when the page redraws it. */
  markMoves() {
    const list = this.replay.el.closest('.game')?.querySelector('[data-testid=moves]');
    if (!list) return;
    const apply = () => {
      const a = this.result;
      if (!a) return;
      for (const li of list.querySelectorAll('li')) {
        const el = /** @type {HTMLElement} */ (li);
        const ply = el.dataset.move !== undefined ? Number(el.dataset.move) : el.dataset.entry !== undefined ? this.plyOfEntry(Number(el.dataset.entry) + 1) - 1 : -1;
        const m = ply >= 0 ? a.moves[ply] : undefined;
        const at = el.querySelector('button') || el;
        if (!m || !m.mark || at.querySelector('.mv-mark')) continue;
        const entry = el.dataset.entry !== undefined ? this.replay.record?.log[Number(el.dataset.entry)] : null;
        if (entry && entry.kind !== 'move') continue;
        at.append(h('span', { class: `mv-mark ${MARK_CLASS[m.mark]}`, title: this.explain(ply), 'data-mark': m.mark }, m.mark),
          h('span', { class: 'sr-only' }, ` ${this.explain(ply)}`));
      }
    };
    apply();
    this.observer?.disconnect();
    this.observer = new MutationObserver(() => (this.gone ? this.observer?.disconnect() : apply()));
    this.observer.observe(list, { childList: true });
  }

  /** The replay shows the position after `index` entries: the graph's cursor, the text, the arrow. @param {number} index */
  shown(index) {
    const a = this.result;
    if (!a || !this.graph || !this.here) return;
    const ply = Math.min(this.plyOfEntry(index), a.positions.length - 1);
    const p = a.positions[ply];
    const n = a.positions.length;
    const x = n > 1 ? (ply / (n - 1)) * W : W / 2;
    const now = this.graph.querySelector('.graph-now');
    if (now) {
      now.setAttribute('x1', String(x));
      now.setAttribute('x2', String(x));
    }
    const value = ply === 0 ? ta('analysis_at_start', { eval: evalText(p) }) : ta('analysis_at_move', { done: ply, total: n - 1, eval: evalText(p) });
    this.graph.setAttribute('aria-valuenow', String(ply));
    this.graph.setAttribute('aria-valuetext', value);
    this.here.replaceChildren(
      h('p', { 'data-testid': 'analysis-eval' }, ta('analysis_eval', { eval: evalText(p) })),
      h('p', null, p.best ? ta('analysis_best', { move: p.best.notation }) : ta('analysis_over')));
    this.drawArrow(p.best);
  }

  /** The best move as an arrow on the replay's board. @param {BestMove|null} best */
  drawArrow(best) {
    const board = this.replay.board;
    if (!this.arrow.isConnected) board.svg.append(this.arrow);
    this.arrow.replaceChildren();
    if (!best) return;
    const pts = best.path.map((sq) => board.geo.cells.get(String(sq))).filter((p) => !!p);
    if (pts.length < 2) return;
    const w = board.geo.pitch * 0.14;
    const last = /** @type {{x: number, y: number}} */ (pts[pts.length - 1]);
    const prev = /** @type {{x: number, y: number}} */ (pts[pts.length - 2]);
    const dx = last.x - prev.x;
    const dy = last.y - prev.y;
    const len = Math.hypot(dx, dy) || 1;
    const ux = dx / len;
    const uy = dy / len;
    const head = board.geo.pitch * 0.42;
    const tip = { x: last.x, y: last.y };
    const base = { x: tip.x - ux * head, y: tip.y - uy * head };
    const body = [...pts.slice(0, -1), base].map((p) => `${p.x},${p.y}`).join(' ');
    this.arrow.append(
      s('polyline', { class: 'best-line', points: body, fill: 'none', 'stroke-width': w, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }),
      s('polygon', { class: 'best-head', points: `${tip.x},${tip.y} ${base.x - uy * head * 0.6},${base.y + ux * head * 0.6} ${base.x + uy * head * 0.6},${base.y - ux * head * 0.6}` }));
    this.arrow.dataset.best = best.notation;
  }
}
