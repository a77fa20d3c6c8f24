// @ts-check
/**
 * « Défi solitaire » (docs/protocol.md): the panel of a room playing the crossing puzzle — the
 * moves played so far against the optimum (27 moves: Levenspiel 1971, proved the shortest by
 * Bell 2009) and this browser's best crossing, then the result and « Rejouer ». The server is
 * the authority (it lists the legal moves and ends the game); the best is remembered here.
 * Loaded when a solitaire room is first shown, with its texts and styles, so that a first visit
 * does not pay for it.
 */
import { h, patch } from './dom.js';
import { fillIn, frTypo, lang } from './i18n.js';
import { load, save } from './storage.js';

/** The fewest moves a crossing can take. */
export const OPTIMUM = 27;

const FR = {
  title: 'Défi solitaire',
  goal: 'Amenez vos dix pions dans la pointe d’en face en le moins de coups possible.',
  moves: 'Coups',
  optimum: 'Optimum',
  best: 'Votre record',
  optimum_note: 'Personne ne peut faire moins de 27 coups (O. Levenspiel, 1971 ; prouvé par G. I. Bell, 2009).',
  crossed: 'Traversée en {n} coups !',
  perfect: 'Parfait : c’est l’optimum.',
  over_1: '1 coup de plus que l’optimum.',
  over_n: '{d} coups de plus que l’optimum.',
  new_best: 'Nouveau record !',
  same_best: 'Record égalé.',
  best_was: 'Votre record : {n} coups.',
  not_crossed: 'Pas de traversée cette fois. Coups joués : {n}.',
  again: 'Rejouer le défi',
  home: 'Accueil',
};

/** @type {Record<keyof typeof FR, string>} */
const EN = {
  title: 'Solo challenge',
  goal: 'Bring your ten pieces to the opposite point in as few moves as possible.',
  moves: 'Moves',
  optimum: 'Optimum',
  best: 'Your best',
  optimum_note: 'Nobody can do it in fewer than 27 moves (O. Levenspiel, 1971; proved by G. I. Bell, 2009).',
  crossed: 'Across in {n} moves!',
  perfect: 'Perfect: that is the optimum.',
  over_1: '1 move more than the optimum.',
  over_n: '{d} moves more than the optimum.',
  new_best: 'New best!',
  same_best: 'Best equalled.',
  best_was: 'Your best: {n} moves.',
  not_crossed: 'No crossing this time. Moves played: {n}.',
  again: 'Play the challenge again',
  home: 'Home',
};

for (const k of /** @type {(keyof typeof FR)[]} */ (Object.keys(FR))) FR[k] = frTypo(FR[k]);

/** @param {keyof typeof FR} key @param {Record<string, string|number>} [params] */
function tx(key, params) {
  return fillIn((lang() === 'en' ? EN : FR)[key], params);
}

/** The texts of this screen (the browser test over every text reads them). */
export const TEXTS = { fr: FR, en: EN };

const CSS = `
.solo-panel { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: 10px 12px; display: grid; gap: 6px; }
.solo-panel h2 { font-size: 1.05rem; margin: 0; }
.solo-panel p { margin: 0; }
.solo-stats { display: grid; grid-template-columns: repeat(3, 1fr); gap: 6px; margin: 0; text-align: center; }
.solo-stats div { background: var(--bg-2); border-radius: 10px; padding: 4px; }
.solo-stats dt { font-size: 0.78rem; color: var(--muted); }
.solo-stats dd { margin: 0; font-size: 1.35rem; font-weight: 800; font-variant-numeric: tabular-nums; }
.solo-panel.done { border: 2px solid var(--primary); }
.solo-result { font-size: 1.25rem; }
.solo-actions { display: flex; flex-wrap: wrap; gap: 8px; }`;

function styles() {
  if (document.getElementById('solo-css')) return;
  document.head.append(h('style', { id: 'solo-css' }, CSS));
}

/** This browser's best crossing: `{n, at}` (`at` is the game that set it: `CODE/game_no`). */
function best() {
  const [n, at] = (load('solitaire_best') || '').split(' ');
  const moves = Number(n);
  return Number.isInteger(moves) && moves > 0 ? { n: moves, at: at || '' } : null;
}

/**
 * Draws the panel for `room` into `box`; a finished crossing of this browser's seat is compared
 * with the best and may become it.
 * @param {HTMLElement} box @param {import('./api.js').RoomView} room
 * @param {import('./game.js').GameActions} act
 */
export function renderSolitaire(box, room, act) {
  const g = room.game_view;
  if (!room.solitaire || !g) return;
  styles();
  const n = g.moves.length;
  const mine = room.you !== null;
  const o = room.status === 'finished' ? g.outcome : null;
  const crossed = !!o && o.places[0] === 1;
  const game = `${room.code}/${room.game_no}`;
  let record = mine ? best() : null;
  /** @type {HTMLElement[]} */
  const result = [];
  if (crossed && mine) {
    const before = record;
    if (!record || n < record.n) {
      record = { n, at: game };
      save('solitaire_best', `${n} ${game}`);
    }
    result.push(h('p', { class: 'good' }, record.at === game ? tx('new_best') : before && n === before.n ? tx('same_best') : tx('best_was', { n: record.n })));
  }
  const stat = (/** @type {string} */ label, /** @type {string|number} */ value, /** @type {string} */ id) =>
    h('div', null, h('dt', null, label), h('dd', { 'data-testid': id }, String(value)));
  box.hidden = false;
  box.classList.toggle('done', !!o);
  patch(box,
    h('h2', null, tx('title')),
    o
      ? h('p', { class: 'solo-result', 'data-testid': 'solitaire-result' }, h('strong', null, crossed ? tx('crossed', { n }) : tx('not_crossed', { n })))
      : h('p', { class: 'muted small' }, tx('goal')),
    crossed ? h('p', null, n === OPTIMUM ? tx('perfect') : n - OPTIMUM === 1 ? tx('over_1') : tx('over_n', { d: n - OPTIMUM })) : null,
    ...result,
    h('dl', { class: 'solo-stats' },
      stat(tx('moves'), n, 'solitaire-moves'),
      stat(tx('optimum'), OPTIMUM, 'solitaire-optimum'),
      mine ? stat(tx('best'), record ? record.n : '—', 'solitaire-best') : null),
    h('p', { class: 'muted small' }, tx('optimum_note')),
    o && mine
      ? h('p', { class: 'solo-actions' },
        h('button', { class: 'btn primary', type: 'button', 'data-action': 'rematch', onclick: () => act.rematch(true) }, tx('again')),
        h('a', { class: 'btn ghost', href: '/' }, tx('home')))
      : null);
}
