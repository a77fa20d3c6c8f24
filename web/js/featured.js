// @ts-check
/**
 * The featured game of « Jouer en ligne » (issue 20), drawn as a small live board: its position
 * read from the room (`GET /api/rooms/{code}`, as a spectator reads it), its last move marked,
 * redrawn when the public lists say it moved. Loaded by public.js only when the lists have a
 * featured game, and the board's modules only once the section is on screen, so that the home
 * page's first visit does not pay for them.
 */
import { api } from './api.js';
import { fill } from './dom.js';
import { t, tn } from './i18n.js';

const quiet = { onMove: () => {}, onPending: () => {}, onHint: () => {} };

/**
 * The board of room `code` as it is now, read-only; `null` if it has no game.
 * @param {string} code @returns {Promise<SVGSVGElement|null>}
 */
export async function featuredBoard(code) {
  const [{ Board }, { kindOf }] = await Promise.all([import('./board.js'), import('./kinds.js')]);
  const room = await api.getRoom(code);
  const g = room.game_view;
  if (!g) return null;
  const kind = kindOf(room.game);
  const [, make] = kind.geometry({ seats: room.seats, rules: room.settings.rules, size: g.board.size, you: null });
  const board = new Board(make(), quiet);
  const last = g.moves[g.moves.length - 1];
  const lastBm = last ? kind.boardMove(last.move) : null;
  board.render({
    pieces: kind.pieces(g.board, room.seats),
    moves: [],
    showLegal: false,
    confirm: false,
    last: lastBm ? { path: lastBm.path, captures: lastBm.captures } : null,
    animate: null,
  });
  board.svg.classList.add(kind.boardClass, 'featured-board');
  const label = t('public_featured_board', { game: t(kind.name), moves: tn('public_moves', g.moves.length) });
  board.svg.setAttribute('aria-label', label);
  board.svg.dataset.moves = String(g.moves.length);
  return board.svg;
}

/**
 * Keeps `box` showing the featured game given, drawn once `section` is on screen, kept while
 * that game has not moved, redrawn when it did. Returns what to call with each new lists' one.
 * @param {HTMLElement} section @param {HTMLElement} box
 * @returns {(r: {code: string, moves?: number}) => void}
 */
export function follow(section, box) {
  let seen = typeof IntersectionObserver === 'undefined';
  /** @type {{code: string, moves?: number}|null} */
  let wanted = null;
  let drawn = '';
  const draw = async () => {
    const r = wanted;
    if (!seen || !r) return;
    const key = `${r.code}:${r.moves ?? 0}`;
    if (key === drawn) return;
    drawn = key;
    try {
      const svg = await featuredBoard(r.code);
      if (drawn === key) fill(box, svg);
    } catch {
      drawn = '';
    }
  };
  if (!seen) {
    const watcher = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      watcher.disconnect();
      seen = true;
      draw();
    });
    watcher.observe(section);
  }
  return (r) => {
    wanted = r;
    draw();
  };
}
