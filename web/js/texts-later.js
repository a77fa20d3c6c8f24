// @ts-check
/**
 * Texts of the screens loaded when first used, in French and English: the replay control
 * (replay.js), the page of a game of a room (archive.js) and the import of draughts positions
 * (import.js) with its errors. Kept out of
 * i18n.js's tables so that a first visit does not download them; `tl` reads them in the
 * current language.
 */
import { errorText, fillIn, frTypo, lang } from './i18n.js';

export const FR = {
  replay_title: 'Revoir la partie',
  replay_board: 'Position de la partie revue',
  replay_start: 'Début de la partie',
  replay_back: 'Coup précédent',
  replay_forward: 'Coup suivant',
  replay_end: 'Dernière position',
  replay_play: 'Lecture automatique',
  replay_pause: 'Pause',
  replay_exit: 'Revenir à la partie',
  replay_at_start: 'Position de départ',
  replay_count: 'Coup {n} sur {total}',
  replay_at_end: 'Fin de la partie',
  replay_start_short: 'Début',
  replay_back_short: 'Précédent',
  replay_forward_short: 'Suivant',
  replay_end_short: 'Fin',
  replay_play_short: 'Lecture',
  replay_pause_short: 'Pause',
  archive_ended: 'terminée le {when}',
  replay_move: '{name} : {move}',
  replay_resign: '{name} abandonne',
  replay_flag: 'Temps écoulé pour {name}',
  replay_draw: 'Nulle acceptée',
  replay_abandon: 'Partie abandonnée sans résultat',
  replay_stop: 'Partie arrêtée : plus aucune personne en jeu',
  archive_title: 'Partie {n} de la salle {code}',
  archive_moves: 'Déroulement ({n})',
  archive_room: 'Aller à la salle',
  archive_gone: 'Cette partie n’existe pas ou n’est plus conservée (les parties terminées sont gardées 30 jours).',
  archive_no_room: 'Aucune salle n’a ce code (les salles sont effacées 30 jours après leur dernière partie).',
  archive_playing: 'Partie en cours',
  games_of_room: 'Parties de cette salle :',
  games_n: 'Partie {n}',
  games_n_playing: 'Partie {n} (en cours)',
  games_older: 'Parties plus anciennes',
  import_title: 'Importer une position',
  import_help: 'Collez une partie PDN (la position après son dernier coup sera jouée) ou une position FEN comme W:W31,32:B1,K2, ou choisissez un fichier .pdn.',
  import_text: 'PDN ou FEN',
  import_file: 'Fichier PDN',
  import_variant: 'Plateau (si le texte ne le dit pas)',
  import_check: 'Vérifier',
  import_ok: '{side} au trait, {pieces} pièces.',
  import_ok_moves_one: 'Position après {n} demi-coup : {side} au trait, {pieces} pièces.',
  import_ok_moves_other: 'Position après {n} demi-coups : {side} au trait, {pieces} pièces.',
  import_initial: 'C’est la position de départ habituelle.',
  import_cpu: 'Jouer contre le CPU',
  import_friend: 'Jouer avec un ami',
  import_you_play: 'Vous jouez le camp au trait ({side}).',
  err_invalid_position: 'Position refusée : {why}',
  pos_empty: 'le texte ne contient ni partie PDN ni position FEN.',
  pos_too_long: 'le texte est trop long (au plus {max} octets).',
  pos_fen: 'la position FEN n’est pas valable sur ce plateau ({why}).',
  pos_tag: 'une balise PDN est mal formée ({tag}).',
  pos_unterminated: 'un commentaire { } ou une variante ( ) n’est pas refermé.',
  pos_game_type: 'le GameType {game_type} n’est pas le jeu de dames international (20), brésilien (26) ou canadien (27).',
  pos_move: 'le coup {move} (demi-coup {ply}) ne peut pas être joué.',
  pos_no_moves: 'le camp au trait n’a aucun coup : la partie est finie.',
  pos_no_pieces: 'un des deux camps n’a aucune pièce.',
};

/** @type {Record<keyof typeof FR, string>} */
export const EN = {
  replay_title: 'Look at the game again',
  replay_board: 'Position of the game being looked at',
  replay_start: 'Start of the game',
  replay_back: 'Previous move',
  replay_forward: 'Next move',
  replay_end: 'Last position',
  replay_play: 'Autoplay',
  replay_pause: 'Pause',
  replay_exit: 'Back to the game',
  replay_at_start: 'Starting position',
  replay_count: 'Move {n} of {total}',
  replay_at_end: 'End of the game',
  replay_start_short: 'Start',
  replay_back_short: 'Back',
  replay_forward_short: 'Next',
  replay_end_short: 'End',
  replay_play_short: 'Play',
  replay_pause_short: 'Pause',
  archive_ended: 'ended on {when}',
  replay_move: '{name}: {move}',
  replay_resign: '{name} resigns',
  replay_flag: '{name} ran out of time',
  replay_draw: 'Draw agreed',
  replay_abandon: 'Game abandoned with no result',
  replay_stop: 'Game stopped: no person left in play',
  archive_title: 'Game {n} of room {code}',
  archive_moves: 'Moves ({n})',
  archive_room: 'Go to the room',
  archive_gone: 'This game does not exist or is no longer kept (finished games are kept for 30 days).',
  archive_no_room: 'No room has this code (rooms are deleted 30 days after their last game).',
  archive_playing: 'Game in progress',
  games_of_room: 'Games of this room:',
  games_n: 'Game {n}',
  games_n_playing: 'Game {n} (in progress)',
  games_older: 'Older games',
  import_title: 'Import a position',
  import_help: 'Paste a PDN game (the position after its last move is played) or a FEN position such as W:W31,32:B1,K2, or pick a .pdn file.',
  import_text: 'PDN or FEN',
  import_file: 'PDN file',
  import_variant: 'Board (if the text does not say)',
  import_check: 'Check',
  import_ok: '{side} to move, {pieces} pieces.',
  import_ok_moves_one: 'Position after {n} ply: {side} to move, {pieces} pieces.',
  import_ok_moves_other: 'Position after {n} plies: {side} to move, {pieces} pieces.',
  import_initial: 'This is the usual starting position.',
  import_cpu: 'Play against the CPU',
  import_friend: 'Play with a friend',
  import_you_play: 'You play the side to move ({side}).',
  err_invalid_position: 'Position refused: {why}',
  pos_empty: 'the text holds neither a PDN game nor a FEN position.',
  pos_too_long: 'the text is too long (at most {max} bytes).',
  pos_fen: 'the FEN position is not valid on this board ({why}).',
  pos_tag: 'a PDN tag is malformed ({tag}).',
  pos_unterminated: 'a { } comment or a ( ) variation is not closed.',
  pos_game_type: 'GameType {game_type} is not international (20), Brazilian (26) or Canadian (27) draughts.',
  pos_move: 'move {move} (ply {ply}) cannot be played.',
  pos_no_moves: 'the side to move has no move: the game is over.',
  pos_no_pieces: 'one side has no piece.',
};

/** @typedef {keyof typeof FR} LaterKey */

for (const k of /** @type {LaterKey[]} */ (Object.keys(FR))) FR[k] = frTypo(FR[k]);

/**
 * Translates a key of these screens, replacing `{name}` placeholders.
 * @param {LaterKey} key @param {Record<string, string|number>} [params]
 */
export function tl(key, params) {
  return fillIn((lang() === 'en' ? EN : FR)[key] ?? FR[key], params);
}

/** Why an imported position was refused, from the error's `detail`. @param {any} detail */
export function positionWhy(detail) {
  const reason = detail && typeof detail.reason === 'string' ? detail.reason : 'empty';
  const k = /** @type {LaterKey} */ ('pos_' + reason);
  if (!(k in FR)) return String(reason);
  /** @type {Record<string, string|number>} */
  const params = {};
  for (const [name, v] of Object.entries(detail || {})) if (typeof v === 'string' || typeof v === 'number') params[name] = v;
  return tl(k, params);
}

/** An error of the import dialog in the player's language. @param {import('./i18n.js').ErrorLike} e */
export function importErrorText(e) {
  return e.code === 'invalid_position' ? tl('err_invalid_position', { why: positionWhy(e.detail) }) : errorText(e);
}
