// @ts-check
/**
 * The featured game of « Jouer en ligne » (issue 20), drawn as a small live board: its position
 * read from the room (`GET /api/rooms/{code}`, as a spectator reads it), its last move marked,
 * redrawn when the public lists say it moved. Loaded by public.js only once the lists are on
 * screen with a featured game, so that the home page's first visit does not pay for the board.
 */
import { api } from './api.js';
import { Board } from './board.js';
import { t, tn } from './i18n.js';
import { kindOf } from './kinds.js';

const quiet = { onMove: () => {}, onPending: () => {}, onHint: () => {} };

/**
 * The board of room `code` as it is now, read-only; `null` if it has no game.
 * @param {string} code @returns {Promise<SVGSVGElement|null>}
 */
export async function featuredBoard(code) {
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
  board.svg.setAttribute('aria-label', t('public_featured_board', { game: t(kind.name), moves: tn('public_moves', g.moves.length) }));
  board.svg.dataset.moves = String(g.moves.length);
  return board.svg;
}
