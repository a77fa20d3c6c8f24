// @ts-check
/**
 * Texts of « Analyser » (analysis.js: the analysis of a finished game on its replay), in French
 * and English. Loaded with analysis.js, never by the home page; `ta` reads them in the current
 * language.
 */
import { fillIn, frTypo, lang } from './i18n.js';

export const FR = {
  analysis_button: 'Analyser la partie',
  analysis_title: 'Analyse de la partie',
  analysis_intro: 'Le moteur cherche le meilleur coup de chaque position, puis marque les coups qui ont coûté le plus.',
  analysis_running: 'Analyse en cours : position {done} sur {total}',
  analysis_progress: 'Avancement de l’analyse',
  analysis_stopped: 'L’analyse s’est arrêtée avant la fin. Vous pouvez la relancer.',
  analysis_graph: 'Courbe d’évaluation : touchez un point pour voir la position',
  analysis_at_start: 'Position de départ, évaluation {eval}',
  analysis_at_move: 'Coup {done} sur {total}, évaluation {eval}',
  analysis_eval: 'Évaluation : {eval}',
  analysis_best: 'Meilleur coup ici : {move} (flèche sur le plateau)',
  analysis_over: 'La partie est finie dans cette position.',
  analysis_white_wins: 'gain forcé des Blancs',
  analysis_black_wins: 'gain forcé des Noirs',
  analysis_marks: 'Coups marqués',
  analysis_no_marks: 'Aucun coup marqué : aucun n’a coûté beaucoup.',
  analysis_dubious: 'Coup douteux',
  analysis_mistake: 'Erreur',
  analysis_blunder: 'Gaffe',
  analysis_explain: '{mark} ({symbol}) : {loss} % de chances de gain perdus ; meilleur coup : {best}.',
  analysis_help: 'Évaluation en pions, du point de vue des Blancs. Marques : ?! dès 6 % de chances de gain perdus, ? dès 12 %, ?? dès 18 %. Le fichier PDN de la partie porte ces marques et ces évaluations.',
  analysis_truncated: 'Partie longue : seuls les premiers coups sont analysés.',
};

/** @typedef {keyof typeof FR} AnalysisKey */

export const EN = {
  analysis_button: 'Analyse the game',
  analysis_title: 'Game analysis',
  analysis_intro: 'The engine looks for the best move in every position, then marks the moves that cost the most.',
  analysis_running: 'Analysing: position {done} of {total}',
  analysis_progress: 'Analysis progress',
  analysis_stopped: 'The analysis stopped before the end. You can start it again.',
  analysis_graph: 'Evaluation graph: tap a point to see the position',
  analysis_at_start: 'Starting position, evaluation {eval}',
  analysis_at_move: 'Move {done} of {total}, evaluation {eval}',
  analysis_eval: 'Evaluation: {eval}',
  analysis_best: 'Best move here: {move} (arrow on the board)',
  analysis_over: 'The game is over in this position.',
  analysis_white_wins: 'White wins by force',
  analysis_black_wins: 'Black wins by force',
  analysis_marks: 'Marked moves',
  analysis_no_marks: 'No move marked: none cost much.',
  analysis_dubious: 'Dubious move',
  analysis_mistake: 'Mistake',
  analysis_blunder: 'Blunder',
  analysis_explain: '{mark} ({symbol}): {loss}% of winning chances lost; best move: {best}.',
  analysis_help: 'Evaluation in men, from White’s side. Marks: ?! from 6% of winning chances lost, ? from 12%, ?? from 18%. The game’s PDN file carries these marks and evaluations.',
  analysis_truncated: 'A long game: only its first moves are analysed.',
};

for (const k of /** @type {AnalysisKey[]} */ (Object.keys(FR))) FR[k] = frTypo(FR[k]);

/**
 * Translates a key of the analysis, replacing `{name}` placeholders.
 * @param {AnalysisKey} key @param {Record<string, string|number>} [params]
 */
export function ta(key, params) {
  return fillIn((lang() === 'en' ? EN : FR)[key] ?? FR[key], params);
}
