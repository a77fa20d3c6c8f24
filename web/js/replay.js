// @ts-check
/**
 * Looking at a game again (issue 14, issue 11): the game's record from the server
 * (`GET /api/rooms/{code}/record`), every position rebuilt from the start by applying the log,
 * and a replay control — start, back, forward, end, autoplay — by buttons, by the keyboard
 * (← → Home End, Space for autoplay, Escape to go back to the game) and by swiping the board.
 * Used by the game screen: a tap on a move of the list shows the position after it, « Revenir à
 * la partie » goes back to the live board; a finished game opens on its last position.
 */
import { Board } from './board.js';
import { fill, h, s } from './dom.js';
import { request, roomPaths } from './api.js';
import { t } from './i18n.js';
import { tl } from './texts-later.js';

/**
 * @typedef {import('./api.js').Board} BoardValue
 * @typedef {{kind: 'move', seat: number, move: any, passes: number[], finished: number[], notation: string, at: number}
 *   | {kind: 'resign', seat: number, at: number} | {kind: 'flag', seat: number, at: number} | {kind: 'draw', at: number} | {kind: 'abandon', at: number} | {kind: 'stop', at: number}} Entry
 * @typedef {{code: string, game: 'cc'|'draughts', game_no: number, status: string, rules: any,
 *   seats: import('./api.js').Seat[], first_seat: number, start: BoardValue, log: Entry[], board: BoardValue,
 *   outcome: import('./api.js').Outcome|null, finished_at: number|null}} GameRecord
 */

/**
 * @typedef {{game_no: number, status: 'playing'|'finished', first_seat: number, started_at: number|null,
 *   finished_at: number|null, outcome: import('./api.js').Outcome|null}} GameItem
 * @typedef {{code: string, current: number, games: GameItem[], next_before: number|null}} RoomGames
 */

/** Game `n` of the room, or its current (last) one. @param {string} code @param {number} [n] @returns {Promise<GameRecord>} */
export async function fetchRecord(code, n) {
  return /** @type {GameRecord} */ (await request('GET', roomPaths.record(code, n)));
}

/**
 * A page of the room's games, newest first (`before`: those numbered below it).
 * @param {string} code @param {number} [before] @returns {Promise<RoomGames>}
 */
export async function fetchGames(code, before) {
  return /** @type {RoomGames} */ (await request('GET', roomPaths.games(code, before)));
}

/** The address of a game's file (PDN for draughts, the text format for Chinese checkers). @param {string} code @param {number} [n] */
export function downloadUrl(code, n) {
  return n ? `/api/rooms/${code}/games/${n}/download` : `/api/rooms/${code}/download`;
}

/**
 * The room's games, each a link to its page (`/r/{CODE}/{n}`; the one being played: the room),
 * `shown` marked as the one on screen.
 * @param {string} code @param {RoomGames} list @param {number} shown
 */
export function gamesNav(code, list, shown) {
  /** @param {GameItem} g */
  const item = (g) => {
    const label = g.status === 'playing' ? tl('games_n_playing', { n: g.game_no }) : tl('games_n', { n: g.game_no });
    if (g.game_no === shown) return h('li', null, h('a', { href: g.status === 'playing' ? `/r/${code}` : `/r/${code}/${g.game_no}`, 'aria-current': 'page', class: 'btn small primary' }, label));
    return h('li', null, h('a', { href: g.status === 'playing' ? `/r/${code}` : `/r/${code}/${g.game_no}`, class: 'btn small ghost', 'data-game-no': String(g.game_no) }, label));
  };
  // The server sends the newest first, a page at a time; shown oldest first, older pages on demand.
  const ul = h('ul', { class: 'inline-list', style: 'display:inline-flex;flex-wrap:wrap;gap:6px;list-style:none;margin:0;padding:0' },
    ...[...list.games].reverse().map(item));
  /** @param {number|null} before */
  const older = (before) => {
    if (!before) return null;
    const btn = h('button', { type: 'button', class: 'btn small ghost', 'data-testid': 'older-games' }, tl('games_older'));
    btn.addEventListener('click', () => {
      btn.disabled = true;
      fetchGames(code, before).then((page) => {
        ul.prepend(...[...page.games].reverse().map(item));
        btn.replaceWith(older(page.next_before) || '');
      }).catch(() => { btn.disabled = false; });
    });
    return btn;
  };
  return h('nav', { class: 'room-games', 'aria-label': tl('games_of_room'), 'data-testid': 'room-games', style: 'flex-basis:100%' },
    h('span', { class: 'muted small' }, tl('games_of_room'), ' '), older(list.next_before), ul);
}

/** The replay buttons' icons, drawn (some systems lack the ⏮ ⏭ glyphs). */
const ICONS = {
  start: 'M5 4h2.4v16H5zM19 4v16L8.5 12z',
  back: 'M15.6 4 7.6 12l8 8 2-2-6-6 6-6z',
  forward: 'M8.4 4l8 8-8 8-2-2 6-6-6-6z',
  end: 'M16.6 4H19v16h-2.4zM5 4v16l10.5-8z',
  play: 'M7 4v16l13-8z',
  pause: 'M6 4h4v16H6zM14 4h4v16h-4z',
};

/** @param {string} name */
function svgIcon(name) {
  return s('svg', { viewBox: '0 0 24 24', width: 20, height: 20, 'aria-hidden': 'true', class: 'icon' },
    s('path', { d: ICONS[/** @type {keyof typeof ICONS} */ (name)], fill: 'currentColor' }));
}

export class Replay {
  /**
   * @param {{kind: import('./kinds.js').GameKind, geometry: () => import('./board.js').Geometry, seats: () => import('./api.js').Seat[],
   *   name: (seat: number) => string, live: boolean, onExit: () => void, onShow: (index: number) => void}} opt
   *   `seats`: the seats as shown now (their colours and sets mark the pieces)
   */
  constructor(opt) {
    this.opt = opt;
    /** @type {GameRecord|null} */
    this.record = null;
    /** @type {BoardValue[]} positions: [i] is the board after i entries */
    this.boards = [];
    this.index = 0;
    /** Whether the positions rebuilt here end on the server's board. */
    this.consistent = true;
    /** @type {number|null} */
    this.timer = null;
    /** « Analyser » (analysis.js), once a finished draughts game's record is here. @type {object|null} */
    this.analysis = null;
    /** Called after each position shown (the analysis's graph and arrow). @type {((index: number) => void)|null} */
    this.onShown = null;
    this.board = new Board(opt.geometry(), { onMove: () => {}, onPending: () => {}, onHint: () => {} });
    this.board.svg.classList.add('replay-board', opt.kind.boardClass);
    this.board.svg.setAttribute('aria-label', tl('replay_board'));
    this.labels = opt.kind.labels(this.board);
    this.pos = h('span', { class: 'replay-pos', 'data-testid': 'replay-pos', 'aria-live': 'polite' });
    // Each button: its icon and a short word under it (issue 23: ▶ beside ▶▶ said nothing).
    const btn = (/** @type {string} */ action, /** @type {string} */ icon, /** @type {import('./texts-later.js').LaterKey} */ label) =>
      h('button', { class: 'btn replay-btn', type: 'button', 'data-replay': action, title: tl(label), onclick: () => this.act(action) },
        svgIcon(icon), h('span', { class: 'replay-label' }, tl(/** @type {import('./texts-later.js').LaterKey} */ (`${label}_short`))));
    this.playBtn = btn('play', 'play', 'replay_play');
    this.el = h('div', { class: 'replay-bar', role: 'toolbar', 'aria-label': tl('replay_title'), 'data-testid': 'replay' },
      h('div', { class: 'replay-buttons' },
        btn('start', 'start', 'replay_start'),
        btn('back', 'back', 'replay_back'),
        btn('forward', 'forward', 'replay_forward'),
        btn('end', 'end', 'replay_end'),
        this.playBtn),
      this.pos,
      opt.live ? h('button', { class: 'btn primary small', type: 'button', 'data-replay': 'exit', onclick: () => this.act('exit') }, tl('replay_exit')) : null);
    this.onDocKey = (/** @type {KeyboardEvent} */ e) => {
      const target = /** @type {HTMLElement} */ (e.target);
      // The page was left without a goodbye (the game page of a room): clean up.
      if (!this.el.isConnected && !this.board.svg.isConnected) return this.destroy();
      if (e.defaultPrevented || !this.el.isConnected || target.closest('input, textarea, select, dialog, [contenteditable]')) return;
      // Anywhere on the game's page (its buttons, its move list) but a field: the keys drive the
      // replay and never scroll the page.
      if (target.closest('.replay-bar, [data-board], .game') || target === document.body) this.key(e);
    };
    document.addEventListener('keydown', this.onDocKey);
    // Swipes on the board: left for the next position, right for the previous one.
    /** @type {{x: number, y: number}|null} */
    let touch = null;
    this.board.svg.addEventListener('pointerdown', (e) => { touch = { x: e.clientX, y: e.clientY }; });
    this.board.svg.addEventListener('pointerup', (e) => {
      if (!touch) return;
      const dx = e.clientX - touch.x;
      const dy = e.clientY - touch.y;
      touch = null;
      if (Math.abs(dx) > 40 && Math.abs(dx) > 1.5 * Math.abs(dy)) this.act(dx < 0 ? 'forward' : 'back');
    });
  }

  /** Loads (or reloads) the record; keeps the position shown unless `at` says which. @param {string} code @param {number} [at] */
  async load(code, at) {
    const rec = await fetchRecord(code);
    this.setRecord(rec);
    this.show(at === undefined ? Math.min(this.index, this.boards.length - 1) : at, false);
    // A finished game: the room's earlier games are a tap away.
    if (!this.opt.live && rec.game_no > 1 && !this.el.querySelector('.room-games')) {
      fetchGames(code).then((list) => {
        if (list.games.length > 1 && this.el.isConnected && !this.el.querySelector('.room-games')) this.el.append(gamesNav(code, list, rec.game_no));
      }).catch(() => {});
    }
  }

  /** @param {GameRecord} rec */
  setRecord(rec) {
    this.record = rec;
    this.boards = [rec.start];
    const kind = this.opt.kind;
    for (const e of rec.log) this.boards.push(kind.applyEntry(this.boards[this.boards.length - 1], e, rec.seats.length));
    const end = this.boards[this.boards.length - 1];
    this.consistent = kind.signature(end) === kind.signature(rec.board);
    if (!this.consistent) {
      // Never show a wrong position: the server's board is the truth for the end.
      console.warn('replay: rebuilt position differs from the server board');
      this.boards[this.boards.length - 1] = rec.board;
    }
    this.el.dataset.consistent = String(this.consistent);
    // A finished draughts game can be analysed: the module comes only then.
    if (rec.status === 'finished' && rec.game === 'draughts' && !this.analysis) {
      import('./analysis.js').then((m) => m.attachAnalysis(this)).catch(() => {});
    }
  }

  /** Number of positions minus one: the last index. */
  get last() {
    return this.boards.length - 1;
  }

  /** The log index of the `n`-th move (0-based) of the move list, or -1. @param {number} n */
  entryOfMove(n) {
    if (!this.record) return -1;
    let k = -1;
    for (let i = 0; i < this.record.log.length; i++) {
      if (this.record.log[i].kind === 'move' && ++k === n) return i;
    }
    return -1;
  }

  /** @param {string} action */
  act(action) {
    if (action !== 'play') this.stop();
    if (action === 'start') this.show(0);
    else if (action === 'back') this.show(this.index - 1);
    else if (action === 'forward') this.show(this.index + 1, true);
    else if (action === 'end') this.show(this.last);
    else if (action === 'play') this.toggle();
    else if (action === 'exit') this.opt.onExit();
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    /** @type {Record<string, string>} */
    const map = { ArrowLeft: 'back', ArrowRight: 'forward', Home: 'start', End: 'end', ' ': 'play', Escape: 'exit' };
    const action = map[e.key];
    if (!action) return;
    if (action === 'exit' && !this.opt.live) return;
    // Space on a focused button presses it: let the button do it.
    if (e.key === ' ' && /** @type {HTMLElement} */ (e.target).tagName === 'BUTTON') return;
    e.preventDefault();
    this.act(action);
  }

  toggle() {
    if (this.timer !== null) return this.stop();
    if (this.index >= this.last) this.show(0);
    this.playBtn.setAttribute('aria-pressed', 'true');
    this.playBtn.replaceChildren(svgIcon('pause'), h('span', { class: 'replay-label' }, tl('replay_pause_short')));
    this.playBtn.title = tl('replay_pause');
    this.timer = window.setInterval(() => {
      if (this.index >= this.last || !this.el.isConnected) this.stop();
      else this.show(this.index + 1, true);
    }, 900);
  }

  stop() {
    if (this.timer !== null) window.clearInterval(this.timer);
    this.timer = null;
    this.playBtn.setAttribute('aria-pressed', 'false');
    this.playBtn.replaceChildren(svgIcon('play'), h('span', { class: 'replay-label' }, tl('replay_play_short')));
    this.playBtn.title = tl('replay_play');
  }

  /** Shows the position after `i` entries. @param {number} i @param {boolean} [animate] */
  show(i, animate = false) {
    const rec = this.record;
    if (!rec) return;
    const index = Math.max(0, Math.min(this.last, i));
    const step = animate && index === this.index + 1;
    this.index = index;
    const board = this.boards[index];
    const entry = index > 0 ? rec.log[index - 1] : null;
    const kind = this.opt.kind;
    const seats = this.opt.seats();
    const bm = entry && entry.kind === 'move' ? kind.boardMove(entry.move) : null;
    const pieces = kind.pieces(board, seats);
    const ghosts = step && bm ? kind.ghosts(kind.pieces(this.boards[index - 1], seats), bm) : [];
    this.board.render({
      pieces,
      moves: [],
      showLegal: false,
      confirm: false,
      last: bm ? { path: bm.path, captures: bm.captures } : null,
      animate: step && bm ? { path: bm.path, ghosts } : null,
    });
    if (this.labels) this.labels(bm ? bm.path : null);
    const moves = rec.log.filter((e) => e.kind === 'move').length;
    const done = rec.log.slice(0, index).filter((e) => e.kind === 'move').length;
    fill(this.pos,
      // Counted in moves, as the move list: a resignation or a draw after the last move is « the end ».
      h('span', { class: 'replay-count' }, index === 0 ? tl('replay_at_start') : entry && entry.kind !== 'move' ? tl('replay_at_end') : tl('replay_count', { n: done, total: moves })),
      entry ? h('span', { class: 'replay-entry' }, entry.kind === 'draw' || entry.kind === 'abandon' || entry.kind === 'stop' ? null : kind.mark(entry.seat, rec.seats),
        this.describe(entry)) : null);
    this.el.dataset.index = String(index);
    for (const [a, off] of /** @type {[string, boolean][]} */ ([['start', index === 0], ['back', index === 0], ['forward', index === this.last], ['end', index === this.last]])) {
      const b = /** @type {HTMLButtonElement|null} */ (this.el.querySelector(`[data-replay=${a}]`));
      if (b) b.disabled = off;
    }
    this.opt.onShow(index);
    this.onShown?.(index);
  }

  /** @param {Entry} e */
  describe(e) {
    if (e.kind === 'move') return tl('replay_move', { name: this.opt.name(e.seat), move: e.notation || this.opt.kind.text(e.move) });
    if (e.kind === 'resign') return tl('replay_resign', { name: this.opt.name(e.seat) });
    if (e.kind === 'flag') return tl('replay_flag', { name: this.opt.name(e.seat) });
    if (e.kind === 'draw') return tl('replay_draw');
    if (e.kind === 'stop') return tl('replay_stop');
    return tl('replay_abandon');
  }

  destroy() {
    this.stop();
    document.removeEventListener('keydown', this.onDocKey);
  }
}
