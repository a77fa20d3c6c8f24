// @ts-check
/**
 * Texts of looking at games again and of the games' files that the game page shows at once
 * (its move list, the downloads) and the home page's import button, in French and English;
 * i18n.js merges them. The replay control's and the import dialog's own texts are in
 * texts-later.js, loaded with those modules when first used.
 */

export const FR = {
  replay_show_move: ', {name} : voir la position',
  notation_cc_help: 'Les trous sont numérotés de 1 à 121, rangée par rangée depuis la pointe du haut (voir les règles). Touchez un coup pour revoir la position.',
  notation_dr_help: 'Notation officielle : les cases foncées numérotées comme sur le plateau. Touchez un coup pour revoir la position.',
  show_holes: 'Numéros des trous',
  download_pdn: 'Télécharger la partie (PDN)',
  download_cc: 'Télécharger la partie (texte)',
  import_button: 'Importer une position (PDN ou FEN)',
};

export const EN = {
  replay_show_move: ', {name}: show the position',
  notation_cc_help: 'Holes are numbered 1 to 121, row by row from the top point (see the rules). Tap a move to see the position again.',
  notation_dr_help: 'Official notation: the dark squares numbered as on the board. Tap a move to see the position again.',
  show_holes: 'Hole numbers',
  download_pdn: 'Download the game (PDN)',
  download_cc: 'Download the game (text)',
  import_button: 'Import a position (PDN or FEN)',
};
