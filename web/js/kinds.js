// @ts-check
/**
 * Each game behind one interface (issue 9): what the game screen (game.js), the replay
 * (replay.js), the page of a past game (archive.js) and the screen reader's announcements need to
 * know of a game — its board, how its moves are drawn and sent, its pieces' marks, its words — in
 * one module per game (kind-cc.js, kind-draughts.js), chosen once by the room's `game`. Those
 * screens hold no `game === 'cc'` branches: a third game would be a third module.
 */
import { cc } from './kind-cc.js';
import { draughts } from './kind-draughts.js';

/**
 * @typedef {import('./api.js').Seat} Seat
 * @typedef {import('./api.js').Board} BoardValue
 * @typedef {import('./api.js').LegalMove} LegalMove
 * @typedef {import('./api.js').RoomView} RoomView
 * @typedef {import('./board.js').BoardMove} BoardMove
 * @typedef {import('./board.js').PieceSpec} PieceSpec
 * @typedef {import('./board.js').Geometry} Geometry
 * @typedef {import('./i18n.js').Key} Key
 * @typedef {{seats: Seat[], rules: import('./api.js').Rules|null|undefined, size: number|undefined, you: number|null}} View
 *   what the board's geometry depends on: the seats, the rules, the board's size, the viewer's seat
 * @typedef {{kind: string, seat?: number, move?: any}} Entry an entry of a game's log (replay.js)
 * @typedef {{
 *   id: 'cc'|'draughts',
 *   name: Key,
 *   notationHelp: Key,
 *   download: Key,
 *   boardClass: string,
 *   drawOffers: boolean,
 *   holes: boolean,
 *   geometry: (view: View) => [string, () => Geometry],
 *   boardMove: (m: LegalMove) => BoardMove,
 *   moveInput: (m: BoardMove) => any,
 *   pieces: (board: BoardValue, seats: Seat[]) => PieceSpec[],
 *   ghosts: (before: PieceSpec[], m: BoardMove) => PieceSpec[],
 *   labels: (board: import('./board.js').Board) => ((path: string[]|null) => void)|null,
 *   mark: (seat: number, seats: Seat[]) => SVGElement,
 *   playerMark: (seat: Seat) => Element,
 *   colorName: (seat: Seat) => Key|null,
 *   mustCapture: (legal: LegalMove[]) => boolean,
 *   resignText: (room: RoomView) => Key,
 *   resigned: (room: RoomView) => Set<number>,
 *   text: (m: any) => string,
 *   spoken: (m: any, board: {cellName: (id: string) => string}|null) => string,
 *   applyEntry: (board: BoardValue, entry: Entry, seats: number) => BoardValue,
 *   signature: (board: BoardValue) => string,
 * }} GameKind
 *   `name`, `notationHelp`, `download`: the game's name, how its moves are written, its file's
 *   link; `boardClass`: the board's CSS class; `drawOffers`: draws by agreement; `holes`: the
 *   « numéros des trous » toggle; `geometry`: the board's key and how to make it for this viewer;
 *   `boardMove`: a move of the protocol as the board draws it; `moveInput`: what the server is
 *   sent for a move made on the board; `pieces`: the pieces to draw; `ghosts`: the pieces a move
 *   takes (faded out while it plays); `labels`: labels of the last move's cells, if the game has
 *   them; `mark`: a seat's swatch in lists; `playerMark`: its marks in the player list;
 *   `colorName`: its colour's name, if the game has colours; `mustCapture`: whether the legal
 *   moves are captures; `resignText`: what resigning does; `resigned`: the seats that resigned
 *   and left the board; `text`: a move in the game's notation (notation.js); `spoken`: a move
 *   for screen readers; `applyEntry`: the board after an
 *   entry of the log; `signature`: a comparable form of a board.
 */

/** @type {Record<'cc'|'draughts', GameKind>} */
const KINDS = { cc, draughts };

/**
 * The interface of `game`.
 * @param {'cc'|'draughts'} game @returns {GameKind}
 */
export function kindOf(game) {
  return KINDS[game];
}
