// @ts-check
/**
 * The room options of RULES.md as a form: each with its default (as sent by the server), a label
 * and a one-line explanation. The host edits; everybody else sees the same form read-only.
 */
import { h } from './dom.js';
import { lang, t } from './i18n.js';

/**
 * @typedef {import('./i18n.js').Key} Key
 * @typedef {import('./api.js').Settings} Settings
 * @typedef {{
 *   id: string, scope: 'rules'|'top', names: string[], type: 'bool'|'select'|'number',
 *   label: Key, help: Key,
 *   options?: (s: Settings) => {value: any, label: string}[],
 *   visible?: (s: Settings, get: (id: string) => any) => boolean,
 *   min?: number, max?: number,
 * }} Opt
 */

const num = (/** @type {number[]} */ xs) => () => xs.map((v) => ({ value: v, label: String(v) }));

/** @type {Opt[]} */
const CC = [
  { id: 'players', scope: 'rules', names: ['players', 'num_players', 'player_count'], type: 'select', label: 'opt_players', help: 'opt_players_help',
    options: (s) => [2, 3, 4, 5, 6].filter((n) => n !== 5 || get(s, 'allow_five') !== false).map((v) => ({ value: v, label: String(v) })) },
  { id: 'sets', scope: 'rules', names: ['sets', 'sets_per_player'], type: 'select', label: 'opt_sets', help: 'opt_sets_help',
    options: (s) => (get(s, 'players') === 3 ? [1, 2] : [1, 2, 3]).map((v) => ({ value: v, label: String(v) })),
    visible: (s) => get(s, 'players') === 2 || get(s, 'players') === 3 },
  { id: 'pieces', scope: 'rules', names: ['pieces', 'pieces_per_camp', 'camp_size', 'pieces_per_set'], type: 'select', label: 'opt_pieces', help: 'opt_pieces_help',
    options: num([10, 15]),
    visible: (s) => (get(s, 'players') === 2 || get(s, 'players') === 3) && (get(s, 'sets') ?? 1) === 1 && get(s, 'rule_set') !== 'japanese' },
  { id: 'rule_set', scope: 'rules', names: ['rule_set', 'ruleset', 'rules_type', 'kind', 'type'], type: 'select', label: 'opt_rule_set', help: 'opt_rule_set_help',
    options: () => [{ value: 'international', label: t('rule_set_international') }, { value: 'japanese', label: t('rule_set_japanese') }] },
  { id: 'anti_blocking', scope: 'rules', names: ['anti_blocking', 'antiblocking', 'anti_block'], type: 'bool', label: 'opt_anti_blocking', help: 'opt_anti_blocking_help' },
  { id: 'play_to_end', scope: 'rules', names: ['play_to_the_end', 'play_to_end'], type: 'bool', label: 'opt_play_to_end', help: 'opt_play_to_end_help',
    visible: (s) => (get(s, 'players') ?? 2) >= 3 },
  { id: 'move_limit', scope: 'rules', names: ['move_limit', 'max_moves', 'moves_per_player', 'move_limit_per_player'], type: 'number', min: 0, max: 2000, label: 'opt_move_limit', help: 'opt_move_limit_help' },
  { id: 'stagnation', scope: 'rules', names: ['stagnation_rounds', 'stagnation', 'stagnation_limit'], type: 'number', min: 0, max: 1000, label: 'opt_stagnation', help: 'opt_stagnation_help' },
  { id: 'allow_five', scope: 'rules', names: ['allow_five_players', 'allow_five'], type: 'bool', label: 'opt_allow_five', help: 'opt_allow_five_help' },
  { id: 'fill_unused', scope: 'rules', names: ['unused_camps'], type: 'select', label: 'opt_fill_unused', help: 'opt_fill_unused_help',
    options: () => [{ value: 'empty', label: t('unused_empty') }, { value: 'filled', label: t('unused_filled') }] },
  { id: 'no_resting', scope: 'rules', names: ['no_resting_in_foreign_camps', 'no_resting', 'no_rest_in_foreign_camps', 'no_foreign_camps'], type: 'bool', label: 'opt_no_resting', help: 'opt_no_resting_help' },
  { id: 'forced_exit', scope: 'rules', names: ['forced_exit', 'force_exit'], type: 'bool', label: 'opt_forced_exit', help: 'opt_forced_exit_help' },
  { id: 'no_leaving', scope: 'rules', names: ['no_leaving_destination', 'no_leaving_dest', 'stay_in_destination', 'no_leaving'], type: 'bool', label: 'opt_no_leaving', help: 'opt_no_leaving_help' },
  { id: 'swap', scope: 'rules', names: ['swap_rule', 'swap'], type: 'bool', label: 'opt_swap', help: 'opt_swap_help' },
  { id: 'long_jumps', scope: 'rules', names: ['long_jumps', 'long_jump'], type: 'bool', label: 'opt_long_jumps', help: 'opt_long_jumps_help' },
];

/** @type {Opt[]} */
const DRAUGHTS = [
  { id: 'variant', scope: 'rules', names: ['variant'], type: 'select', label: 'opt_variant', help: 'opt_variant_help',
    options: () => ['international', 'brazilian', 'canadian'].map((v) => ({ value: v, label: t(/** @type {Key} */ ('variant_' + v)) })) },
  { id: 'three_vs_king', scope: 'rules', names: ['three_vs_king_moves', 'three_vs_king', 'three_vs_lone_king'], type: 'select', label: 'opt_three_vs_king', help: 'opt_three_vs_king_help',
    options: num([16, 10]) },
];

/** @type {Opt[]} */
const COMMON = [
  { id: 'rhythm', scope: 'top', names: ['rhythm'], type: 'select', label: 'opt_rhythm', help: 'opt_rhythm_help',
    options: () => [{ value: 'live', label: t('rhythm_live') }, { value: 'turn', label: t('rhythm_turn') }] },
  { id: 'show_legal_moves', scope: 'top', names: ['show_legal_moves'], type: 'bool', label: 'opt_show_legal', help: 'opt_show_legal_help' },
  { id: 'rotate_first', scope: 'top', names: ['rotate_first'], type: 'bool', label: 'opt_rotate_first', help: 'opt_rotate_first_help' },
  { id: 'random_first', scope: 'top', names: ['random_first'], type: 'bool', label: 'opt_random_first', help: 'opt_random_first_help' },
  { id: 'confirm_move', scope: 'top', names: ['confirm_move'], type: 'bool', label: 'opt_confirm_move', help: 'opt_confirm_move_help' },
  { id: 'hints', scope: 'top', names: ['hints'], type: 'bool', label: 'opt_hints', help: 'opt_hints_help' },
  { id: 'cpu_ms', scope: 'top', names: ['cpu_ms'], type: 'select', label: 'opt_cpu_ms', help: 'opt_cpu_ms_help',
    options: (s) => uniq([300, 1000, 3000, 10000, s.cpu_ms]).sort((a, b) => a - b).map((v) => ({ value: v, label: t('seconds', { n: (v / 1000).toLocaleString(lang()) }) })) },
];

/** @param {number[]} xs */
const uniq = (xs) => [...new Set(xs.filter((x) => typeof x === 'number'))];

/** @type {Map<string, Opt>} */
const BY_ID = new Map([...CC, ...DRAUGHTS, ...COMMON].map((o) => [o.id, o]));

/** The server's field name of an option, if it has one. @param {Settings} st @param {Opt} o */
function fieldOf(st, o) {
  const obj = o.scope === 'rules' ? st.rules || {} : st;
  return o.names.find((n) => n in obj) ?? null;
}

/** Value of an option by id. @param {Settings} st @param {string} id */
export function get(st, id) {
  const o = BY_ID.get(id);
  if (!o) return undefined;
  const f = fieldOf(st, o);
  if (!f) return undefined;
  return o.scope === 'rules' ? st.rules[f] : st[f];
}

/** @param {Settings} st @param {string} id @param {any} v @returns {Settings} */
function set(st, id, v) {
  const o = BY_ID.get(id);
  if (!o) return st;
  const f = fieldOf(st, o) || o.names[0];
  if (o.scope === 'rules') return { ...st, rules: { ...st.rules, [f]: v } };
  return { ...st, [f]: v };
}

/**
 * Applies one change, with the rules' couplings (swap excludes anti-blocking; sets fit players).
 * @param {Settings} st @param {string} id @param {any} v
 */
export function change(st, id, v) {
  let n = set(st, id, v);
  // « Confirmer le coup » is on by default for turn-by-turn games.
  if (id === 'rhythm') n = set(n, 'confirm_move', v === 'turn');
  if (id === 'swap' && v === true && get(n, 'anti_blocking') === true) n = set(n, 'anti_blocking', false);
  if (id === 'anti_blocking' && v === true && get(n, 'swap') === true) n = set(n, 'swap', false);
  // Chinese checkers' rules carry the first-player flags too; the server lets the rules' copy win.
  if (id === 'rotate_first' && n.rules && 'rotate_first_player' in n.rules) n = { ...n, rules: { ...n.rules, rotate_first_player: v } };
  if (id === 'random_first' && n.rules && 'random_first_player' in n.rules) n = { ...n, rules: { ...n.rules, random_first_player: v } };
  // Japanese rules: 15 pieces, one set, 2–3 players (RULES.md 1.6); 15 pieces need one set and 2–3 players.
  if (id === 'rule_set' && v === 'japanese') {
    n = set(n, 'pieces', 15);
    if (get(n, 'sets') !== undefined) n = set(n, 'sets', 1);
    if ((get(n, 'players') ?? 2) > 3) n = set(n, 'players', 3);
  }
  if (id === 'rule_set' && v === 'international' && get(n, 'pieces') === 15) n = set(n, 'pieces', 10);
  if ((id === 'sets' && v > 1) || (id === 'players' && v > 3)) {
    if (get(n, 'pieces') === 15) n = set(n, 'pieces', 10);
  }
  if (id === 'players') {
    const sets = get(n, 'sets');
    if (typeof sets === 'number' && (v > 3 || (v === 3 && sets > 2))) n = set(n, 'sets', 1);
    if (v > 3 && get(n, 'rule_set') === 'japanese') n = set(n, 'rule_set', 'international');
  }
  return n;
}

/**
 * The form. `onChange` receives the whole new settings (host only).
 * @param {'cc'|'draughts'} game @param {Settings} st @param {boolean} editable
 * @param {(s: Settings) => void} onChange
 */
export function settingsForm(game, st, editable, onChange) {
  // The rhythm first: it is the first choice at room creation (live or turn by turn).
  const opts = [...COMMON.filter((o) => o.id === 'rhythm'), ...(game === 'cc' ? CC : DRAUGHTS), ...COMMON.filter((o) => o.id !== 'rhythm')];
  const rows = [];
  const known = new Set(['rules:rotate_first_player', 'rules:random_first_player']);
  for (const o of opts) {
    const f = fieldOf(st, o);
    if (f) known.add(o.scope + ':' + f);
    if (!f || (o.visible && !o.visible(st, (id) => get(st, id)))) continue;
    rows.push(row(st, o, get(st, o.id), editable, (v) => onChange(change(st, o.id, v))));
  }
  // Fields the server knows and this table does not: still shown, still editable.
  for (const [k, v] of Object.entries(st.rules || {})) {
    if (known.has('rules:' + k) || (typeof v !== 'boolean' && typeof v !== 'number')) continue;
    /** @type {Opt} */
    const o = { id: k, scope: 'rules', names: [k], type: typeof v === 'boolean' ? 'bool' : 'number', label: /** @type {Key} */ (k), help: /** @type {Key} */ ('') };
    rows.push(row(st, o, v, editable, (nv) => onChange({ ...st, rules: { ...st.rules, [k]: nv } }), k));
  }
  return h('div', { class: 'settings' }, rows);
}

/** @param {Settings} st @param {Opt} o @param {any} value @param {boolean} editable @param {(v: any) => void} onChange @param {string} [rawLabel] */
function row(st, o, value, editable, onChange, rawLabel) {
  const id = 'opt-' + o.id;
  const label = rawLabel ?? t(o.label);
  const help = rawLabel ? '' : t(o.help);
  /** @type {HTMLElement} */
  let control;
  if (o.type === 'bool') {
    control = h('input', { type: 'checkbox', role: 'switch', id, class: 'switch', checked: !!value, disabled: !editable,
      onchange: (/** @type {Event} */ e) => onChange(/** @type {HTMLInputElement} */ (e.target).checked) });
  } else if (o.type === 'select') {
    const options = o.options ? o.options(st) : [];
    control = h('select', { id, disabled: !editable, onchange: (/** @type {Event} */ e) => {
      const raw = /** @type {HTMLSelectElement} */ (e.target).value;
      const opt = options.find((x) => String(x.value) === raw);
      onChange(opt ? opt.value : raw);
    } }, options.map((x) => h('option', { value: String(x.value), selected: String(x.value) === String(value) }, x.label)));
  } else {
    control = h('input', { type: 'number', id, value: String(value), min: o.min, max: o.max, inputmode: 'numeric', disabled: !editable,
      onchange: (/** @type {Event} */ e) => {
        const v = Number(/** @type {HTMLInputElement} */ (e.target).value);
        if (Number.isFinite(v)) onChange(Math.round(v));
      } });
  }
  return h('div', { class: `setting setting-${o.type}`, 'data-opt': o.id },
    h('label', { for: id, class: 'setting-label' }, label),
    control,
    help ? h('p', { class: 'setting-help' }, help) : null);
}
