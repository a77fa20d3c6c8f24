// @ts-check
/** Home: both games with their 30-second rules, « Contre le CPU », « Avec des amis », join by code. */
import { ApiError, api } from './api.js';
import { dialog, fill, h, patch, toast } from './dom.js';
import { errorText, t } from './i18n.js';
import { askName } from './name.js';
import { swatch } from './players.js';
import { loadRoom, navigate } from './router.js';
import { installButton } from './install.js';
import { onlineSection } from './online.js';
import { whileShown } from './live.js';
import { cpuMsOverride } from './storage.js';
import { UPDATED } from './texts.js';

export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** Normalises a typed code; null if it cannot be one. @param {string} raw */
export function normalizeCode(raw) {
  const c = raw.trim().toUpperCase().replace(/[\s-]/g, '');
  if (c.length !== 6) return null;
  for (const ch of c) if (!CODE_ALPHABET.includes(ch)) return null;
  return c;
}

/**
 * The first screen plays (issue 23): on a 390×844 phone it holds both games' « Contre le CPU » and
 * « Avec des amis » and the join-by-code field; the rules summaries, the facts and the rest follow.
 * @param {HTMLElement} root
 */
export function showHome(root) {
  document.title = 'Dames — ' + t('cc_name') + ' · ' + t('dr_name');
  root.replaceChildren(
    h('section', { class: 'hero' },
      h('h1', null, t('tagline')),
      h('p', { class: 'muted small' }, t('no_account'), ' ', installButton())),
    h('div', { class: 'games' }, gameCard('cc'), gameCard('draughts')),
    joinCard(),
    onlineSection(),
    publicLists(),
    myGames(),
    h('section', { class: 'card rules-summary', 'aria-labelledby': 'rules-summary-title' },
      h('h2', { id: 'rules-summary-title' }, t('summary_title')),
      h('div', { class: 'rules-grid' }, rulesCard('cc'), rulesCard('draughts')),
      h('p', { class: 'small' }, h('a', { href: '/rules' }, t('related_rules')))),
    howTo(),
    facts(),
    rights(),
    h('p', { class: 'center muted' }, h('a', { href: '/avis', 'data-action': 'reviews' }, t('home_reviews'))));
}

/**
 * « Jouer en ligne »: the open tables and the games to watch (public.js, loaded after the first
 * screen: its place is kept and filled when the module arrives).
 */
function publicLists() {
  const slot = h('div', { class: 'public-slot' });
  import('./public.js').then((m) => { if (slot.isConnected) slot.replaceWith(m.publicSection()); }).catch(() => {});
  return slot;
}

/** The three steps of playing with friends (seed 000's copy). */
function howTo() {
  const steps = /** @type {const} */ ([1, 2, 3]);
  return h('section', { class: 'card how' },
    h('h2', null, t('how_title')),
    h('ol', { class: 'how-steps' }, steps.map((i) => h('li', null,
      h('strong', null, t(/** @type {any} */ (`how_${i}_t`))),
      h('span', { class: 'muted' }, t(/** @type {any} */ (`how_${i}`)))))));
}

/** « Vos parties »: rooms where this browser holds a seat (turn-by-turn games come back here). */
function myGames() {
  const list = h('ul', { class: 'my-games' });
  const box = h('section', { class: 'card my-games-card', hidden: true, 'data-testid': 'my-games' }, h('h2', null, t('my_games')), list);
  const load = async () => {
    const { rooms } = await api.myRooms();
    const views = await Promise.all(rooms.slice(0, 8).map((r) => api.getRoom(r.code).catch(() => null)));
    const items = views.filter((v) => v !== null).map((room) => {
      const g = room.game_view;
      let state = t('my_lobby');
      let mine = false;
      if (room.status === 'finished') state = t('game_over');
      else if (room.status === 'playing' && g) {
        mine = g.to_move !== null && g.to_move === room.you;
        const s = g.to_move !== null ? room.seats[g.to_move] : null;
        state = mine ? t('turn_you') : s ? t('turn_other', { name: s.kind === 'cpu' ? 'CPU' : s.name || '?' }) : '';
      }
      return h('li', { 'data-key': room.code }, h('a', { href: `/r/${room.code}`, class: `my-game${mine ? ' mine' : ''}` },
        h('span', { class: 'my-game-name' }, t(room.game === 'cc' ? 'cc_name' : 'dr_name')),
        h('span', { class: 'my-game-code' }, room.code),
        h('span', { class: 'my-game-state' }, state)));
    });
    box.hidden = !items.length;
    if (!items.length) return patch(list);
    patch(list, items, h('li', null, h('a', { href: '/games', class: 'btn ghost small', 'data-action': 'all-games' }, t('nav_games'))));
  };
  load().catch(() => {});
  // A move in another tab or browser shows here within a second (live.js).
  whileShown(box, () => { load().catch(() => {}); });
  return box;
}

/** A game's name and its buttons: what the first screen is for. @param {'cc'|'draughts'} game */
function gameCard(game) {
  const cc = game === 'cc';
  return h('article', { class: `card game-card game-${game}`, id: `game-${game}`, 'data-game': game },
    h('div', { class: 'game-card-head' },
      h('div', { class: 'game-icon', 'aria-hidden': 'true' }, cc ? starIcon() : boardIcon()),
      h('div', null,
        h('h2', null, t(cc ? 'cc_name' : 'dr_name')),
        h('p', { class: 'muted small' }, t(cc ? 'cc_meta' : 'dr_meta')))),
    h('div', { class: 'big-actions' },
      h('button', { class: 'btn primary big', type: 'button', 'data-action': `cpu-${game}`, onclick: () => soloSetup(game) },
        h('span', null, t('play_cpu')), h('small', null, t('play_cpu_sub'))),
      h('button', { class: 'btn accent big', type: 'button', 'data-action': `friends-${game}`, onclick: () => createWithFriends(game) },
        h('span', null, t('play_friends')), h('small', null, t('play_friends_sub')))),
    cc ? h('button', { class: 'btn ghost small import-open', type: 'button', 'data-action': 'solitaire', onclick: () => createWithFriends(game, true) }, t('solitaire_button')) : h('button', { class: 'btn ghost small import-open', type: 'button', 'data-action': 'import-position', onclick: () => import('./import.js').then((m) => m.importDialog()) }, t('import_button')));
}

/** A game's rules in four lines, below the first screen. @param {'cc'|'draughts'} game */
function rulesCard(game) {
  const p = game === 'cc' ? 'cc' : 'dr';
  const steps = /** @type {const} */ ([1, 2, 3, 4]);
  return h('article', { class: `rules-card rules-${game}`, 'data-rules': game },
    h('h3', null, t(game === 'cc' ? 'cc_name' : 'dr_name')),
    h('dl', { class: 'summary' }, steps.flatMap((i) => [
      h('dt', null, t(/** @type {any} */ (`${p}_s${i}_t`))),
      h('dd', null, t(/** @type {any} */ (`${p}_s${i}`))),
    ])),
    related(game));
}

/** « Jeux associés »: each game points to the other (same type; both play with 2). @param {'cc'|'draughts'} game */
function related(game) {
  const other = game === 'cc' ? 'draughts' : 'cc';
  const link = () => h('a', { href: `#game-${other}` }, t(other === 'cc' ? 'cc_name' : 'dr_name'));
  return h('div', { class: 'related small', 'data-testid': `related-${game}` },
    h('h4', null, t('related_title')),
    h('dl', null,
      h('dt', null, t('related_same_type')), h('dd', null, link()),
      h('dt', null, t('related_same_players')), h('dd', null, link(), ' ', t('related_with_2'))));
}

/** « En un coup d'œil »: the facts of both games side by side (seed 000's table). */
function facts() {
  const updated = () => h('time', { datetime: UPDATED }, UPDATED);
  /** @type {[import('./i18n.js').Key, string|HTMLElement, string|HTMLElement][]} */
  const rows = [
    ['facts_players', t('facts_cc_players'), t('facts_dr_players')],
    ['facts_length', t('facts_cc_length'), t('facts_dr_length')],
    ['facts_type', t('facts_board'), t('facts_board')],
    ['facts_ranked', t('facts_no'), t('facts_no')],
    ['facts_cpu', t('facts_yes'), t('facts_yes')],
    ['facts_price', t('facts_free'), t('facts_free')],
    ['facts_rights', t('facts_public'), t('facts_public')],
    ['facts_updated', updated(), updated()],
  ];
  return h('section', { class: 'card facts-card', 'data-testid': 'facts', 'aria-labelledby': 'facts-title' },
    h('h2', { id: 'facts-title' }, t('facts_title')),
    h('table', { class: 'facts' },
        h('thead', null, h('tr', null,
          h('th', { scope: 'col' }, t('facts_item')),
          h('th', { scope: 'col' }, t('cc_name')),
          h('th', { scope: 'col' }, t('dr_name')))),
        h('tbody', null, rows.map(([k, cc, dr]) => h('tr', null,
          h('th', { scope: 'row' }, t(k)), h('td', null, cc), h('td', null, dr))))));
}

/** « Ayants droit et version physique », for each game. */
function rights() {
  return h('section', { class: 'card rights-card', 'data-testid': 'rights' },
    h('h2', null, t('rights_title')),
    h('h3', null, t('cc_name')), h('p', null, t('rights_cc')),
    h('h3', null, t('dr_name')), h('p', null, t('rights_dr')),
    h('p', { class: 'small' }, h('a', { href: '/rules' }, t('related_rules'))));
}

function joinCard() {
  const input = h('input', {
    type: 'text', id: 'join-code', maxlength: 8, autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false',
    placeholder: t('join_placeholder'), 'aria-describedby': 'join-help', class: 'code-input',
  });
  const error = h('p', { class: 'join-error error small', role: 'alert', hidden: true, 'data-testid': 'join-error' });
  const say = (/** @type {string|null} */ text) => {
    error.textContent = text || '';
    error.hidden = !text;
    input.setAttribute('aria-invalid', text ? 'true' : 'false');
  };
  input.addEventListener('input', () => say(null));
  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    const code = normalizeCode(input.value);
    if (!code) {
      say(t('join_bad_code'));
      input.focus();
      return;
    }
    try {
      loadRoom().catch(() => {}); // fetched while the server answers
      // The code is checked first: nobody is asked their name for a game that does not exist.
      const room = await api.getRoom(code);
      if (room.you === null && room.status === 'lobby' && room.seats.some((s) => s.kind === 'empty')) {
        const name = await askName();
        if (!name) return;
        await api.join(code, name);
      }
      navigate(`/r/${code}`);
    } catch (err) {
      const apiErr = err instanceof ApiError ? err : null;
      say(apiErr && apiErr.code === 'unknown_room' ? t('err_code_unknown_room') : apiErr ? errorText(apiErr) : String(err));
      input.focus();
    }
  };
  return h('section', { class: 'card join-card' },
    h('h2', null, h('label', { for: 'join-code' }, t('join_title'))),
    h('form', { class: 'join-form', onsubmit: submit },
      input,
      h('button', { class: 'btn primary', type: 'submit', 'data-action': 'join-code' }, t('join_button'))),
    error,
    h('p', { id: 'join-help', class: 'muted small' }, t('join_help')));
}

/** One room at a time: a double tap must not create two. */
let busy = false;

/** With friends, or (Chinese checkers) « Défi solitaire »: alone, started at once. @param {'cc'|'draughts'} game @param {boolean} [solitaire] */
async function createWithFriends(game, solitaire) {
  if (busy) return;
  const name = await askName();
  if (!name) return;
  busy = true;
  try {
    /** @type {any} */
    const body = { game, name, solitaire };
    const ms = cpuMsOverride();
    if (ms) body.settings = { cpu_ms: ms };
    loadRoom().catch(() => {}); // fetched while the server answers
    const res = await api.createRoom(body);
    navigate(`/r/${res.code}`);
  } catch (err) {
    toast(err instanceof ApiError ? errorText(err) : String(err), 'error');
  } finally {
    busy = false;
  }
}

/**
 * « Contre le CPU »: the number of players (Chinese checkers) or the variant (draughts), and a
 * level for each CPU seat (one Facile, one Difficile…). Enter anywhere starts the game.
 * @param {'cc'|'draughts'} game
 */
async function soloSetup(game) {
  const name = await askName();
  if (!name) return;
  const levels = /** @type {const} */ (['facile', 'normal', 'difficile', 'expert']);
  const radios = (/** @type {string} */ group, /** @type {{value: string, label: string}[]} */ items, /** @type {string} */ def, /** @type {string} */ label) =>
    h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': label }, items.map((it) => h('label', { class: 'seg' },
      h('input', { type: 'radio', name: group, value: it.value, checked: it.value === def }),
      h('span', null, it.label))));
  const levelItems = levels.map((l) => ({ value: l, label: t(/** @type {any} */ ('level_' + l)) }));
  // One row per CPU seat, redrawn when the number of players changes (levels chosen are kept).
  // The first CPU's radios are named `level`, the others `level-2`…
  const group = (/** @type {number} */ n) => (n === 1 ? 'level' : `level-${n}`);
  /** @type {Map<number, string>} */
  const chosen = new Map();
  const cpuBox = h('div', { class: 'cpu-level-rows' });
  const pick = (/** @type {string} */ n) => /** @type {HTMLInputElement|null} */ (form.querySelector(`input[name=${n}]:checked`))?.value;
  const players = () => (game === 'cc' ? Number(pick('players') || 2) : 2);
  const drawRows = () => {
    for (let n = 1; n <= 5; n++) {
      const v = pick(group(n));
      if (v) chosen.set(n, v);
    }
    const count = players() - 1;
    cpuBox.replaceChildren(...Array.from({ length: count }, (_, i) => i + 1).map((n) => h('div', { class: 'cpu-level-row', 'data-cpu': n },
      count > 1 ? h('span', { class: 'cpu-level-name' }, swatch(n), t('cpu_n', { n })) : null,
      radios(group(n), levelItems, chosen.get(n) || 'normal', count > 1 ? t('cpu_n', { n }) : t('level_label')))));
  };
  const form = h('div', { class: 'solo-form' },
    h('p', { class: 'solo-game' }, game === 'cc' ? swatch(0) : swatch(0, { draughts: 'white' }), t(game === 'cc' ? 'cc_name' : 'dr_name')),
    game === 'cc'
      ? h('fieldset', null, h('legend', null, t('players_label')),
        radios('players', [2, 3, 4, 5, 6].map((n) => ({ value: String(n), label: String(n) })), '2', t('players_label')))
      : h('fieldset', null, h('legend', null, t('variant_label')),
        radios('variant', ['international', 'brazilian', 'canadian'].map((v) => ({ value: v, label: t(/** @type {any} */ ('variant_' + v)) })), 'international', t('variant_label'))),
    h('fieldset', { class: 'cpu-levels', 'data-testid': 'cpu-levels' }, h('legend', null, t('level_label')), cpuBox));
  drawRows();
  form.addEventListener('change', (e) => {
    if (/** @type {HTMLInputElement} */ (e.target).name === 'players') drawRows();
  });
  const v = await dialog({
    title: t('cpu_setup_title'),
    form,
    buttons: [{ label: t('cancel'), value: 'cancel' }, { label: t('play_now'), value: 'play', kind: 'primary' }],
  });
  if (v !== 'play') return;
  const n = players();
  const cpuLevels = /** @type {import('./api.js').Level[]} */ (Array.from({ length: n - 1 }, (_, i) => pick(group(i + 1)) || 'normal'));
  /** @type {any} */
  const settings = game === 'cc' ? { rules: { players: n } } : { rules: { variant: pick('variant') || 'international' } };
  const ms = cpuMsOverride();
  if (ms) settings.cpu_ms = ms;
  if (busy) return;
  busy = true;
  try {
    loadRoom().catch(() => {}); // fetched while the server answers
    const res = await api.createRoom({ game, name, settings, cpu: { levels: cpuLevels } });
    navigate(`/r/${res.code}`);
  } catch (err) {
    toast(err instanceof ApiError ? errorText(err) : String(err), 'error');
  } finally {
    busy = false;
  }
}

function starIcon() {
  const svg = h('span', null);
  svg.innerHTML = '<svg viewBox="0 0 48 48" width="48" height="48"><polygon points="24,2 30,14 44,14 37,24 44,34 30,34 24,46 18,34 4,34 11,24 4,14 18,14" fill="var(--star)" stroke="var(--line)" stroke-width="1.5" stroke-linejoin="round"/><circle cx="24" cy="9" r="2.6" fill="#0072B2"/><circle cx="24" cy="39" r="2.6" fill="#D55E00"/><circle cx="9" cy="16" r="2.6" fill="#009E73"/><circle cx="39" cy="32" r="2.6" fill="#CC79A7"/><circle cx="39" cy="16" r="2.6" fill="#F0E442"/><circle cx="9" cy="32" r="2.6" fill="#56B4E9"/></svg>';
  return svg;
}

function boardIcon() {
  const svg = h('span', null);
  let cells = '';
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) if ((r + c) % 2) cells += `<rect x="${4 + c * 10}" y="${4 + r * 10}" width="10" height="10" fill="var(--dark-sq)"/>`;
  svg.innerHTML = `<svg viewBox="0 0 48 48" width="48" height="48"><rect x="4" y="4" width="40" height="40" fill="var(--light-sq)" stroke="var(--line)"/>${cells}<circle cx="19" cy="9" r="3.6" fill="#2b2b2b"/><circle cx="29" cy="39" r="3.6" fill="#f3efe6" stroke="#555"/><circle cx="9" cy="29" r="3.6" fill="#f3efe6" stroke="#555"/></svg>`;
  return svg;
}
