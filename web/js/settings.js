// @ts-check
/**
 * The room options of RULES.md as a form: each with a label, a one-line explanation and « par
 * défaut » for its default. Limits and defaults come from the server's settings table (GET
 * /api/settings, one source of truth): a number out of range is refused before anything is sent,
 * and the field keeps the stored value. An option that another one turns off says so, and choices
 * that cannot apply are not offered. The host edits; everybody else sees the same form read-only.
 */
import { api } from './api.js';
import { h } from './dom.js';
import { errorText, lang, t } from './i18n.js';

/** @type {import('./api.js').SettingsSchema|null} */
let schema = null;

/** Loads the server's settings table once (the lobby and the name dialog check input with it). */
export async function loadSchema() {
  try {
    schema = await api.settingsSchema();
  } catch {
    /* the server checks anyway; the form then shows no limits */
  }
  return schema;
}

/** The settings table if it is loaded. */
export function currentSchema() {
  return schema;
}

/**
 * @typedef {import('./i18n.js').Key} Key
 * @typedef {import('./api.js').Settings} Settings
 * @typedef {{
 *   id: string, scope: 'rules'|'top', names: string[], type: 'bool'|'select'|'number',
 *   label: Key, help: Key,
 *   options?: (s: Settings) => Choice[],
 *   visible?: (s: Settings, get: (id: string) => any) => boolean,
 *   locked?: (s: Settings) => boolean,
 *   note?: (s: Settings) => string|null,
 * }} Opt
 * @typedef {{value: any, label: string, disabled?: boolean}} Choice
 */

const num = (/** @type {number[]} */ xs) => () => xs.map((v) => ({ value: v, label: String(v) }));

/**
 * A number of seconds as the reader writes it (« 0,3 », « 1.5 »). `toLocaleString` built an Intl
 * formatter for each of the lobby's numbers on every drawing (80 ms of main thread per lobby
 * drawn, with the CPU slowed 4× as Lighthouse's phone).
 * @param {number} n
 */
const decimal = (n) => (n >= 1000 ? n.toLocaleString(lang()) : lang() === 'fr' ? String(n).replace('.', ',') : String(n));

/** @type {Opt[]} */
const CC = [
  { id: 'players', scope: 'rules', names: ['players', 'num_players', 'player_count'], type: 'select', label: 'opt_players', help: 'opt_players_help',
    // Japanese rules are for 2–3 players; 5 only if allowed: the other counts are not offered.
    options: (s) => (get(s, 'rule_set') === 'japanese' ? [2, 3] : [2, 3, 4, 5, 6])
      .filter((n) => n !== 5 || get(s, 'allow_five') !== false).map((v) => ({ value: v, label: String(v) })),
    note: (s) => (get(s, 'rule_set') === 'japanese' ? t('setting_japanese_players') : get(s, 'allow_five') === false ? t('setting_five_off') : null) },
  { id: 'sets', scope: 'rules', names: ['sets', 'sets_per_player'], type: 'select', label: 'opt_sets', help: 'opt_sets_help',
    options: (s) => (get(s, 'players') === 3 ? [1, 2] : [1, 2, 3]).map((v) => ({ value: v, label: String(v) })),
    visible: (s) => get(s, 'players') === 2 || get(s, 'players') === 3,
    locked: (s) => get(s, 'rule_set') === 'japanese',
    note: (s) => (get(s, 'rule_set') === 'japanese' ? t('setting_japanese_sets') : null) },
  { id: 'pieces', scope: 'rules', names: ['pieces', 'pieces_per_camp', 'camp_size', 'pieces_per_set'], type: 'select', label: 'opt_pieces', help: 'opt_pieces_help',
    options: num([10, 15]),
    visible: (s) => (get(s, 'players') === 2 || get(s, 'players') === 3) && (get(s, 'sets') ?? 1) === 1,
    // Japanese rules fix 15 pieces: shown, not editable, and why.
    locked: (s) => get(s, 'rule_set') === 'japanese',
    note: (s) => (get(s, 'rule_set') === 'japanese' ? t('setting_japanese_pieces') : null) },
  { id: 'rule_set', scope: 'rules', names: ['rule_set', 'ruleset', 'rules_type', 'kind', 'type'], type: 'select', label: 'opt_rule_set', help: 'opt_rule_set_help',
    options: (s) => [{ value: 'international', label: t('rule_set_international') },
      (get(s, 'players') ?? 2) > 3
        ? { value: 'japanese', label: t('setting_japanese_needs'), disabled: true }
        : { value: 'japanese', label: t('rule_set_japanese') }] },
  { id: 'anti_blocking', scope: 'rules', names: ['anti_blocking', 'antiblocking', 'anti_block'], type: 'bool', label: 'opt_anti_blocking', help: 'opt_anti_blocking_help',
    // « Échange » and « Antiblocage » exclude each other (RULES.md): said, not silently changed.
    locked: (s) => get(s, 'swap') === true,
    note: (s) => (get(s, 'swap') === true ? t('setting_disabled_by', { by: t('opt_swap') }) : null) },
  { id: 'play_to_end', scope: 'rules', names: ['play_to_the_end', 'play_to_end'], type: 'bool', label: 'opt_play_to_end', help: 'opt_play_to_end_help',
    visible: (s) => (get(s, 'players') ?? 2) >= 3 },
  { id: 'move_limit', scope: 'rules', names: ['move_limit', 'max_moves', 'moves_per_player', 'move_limit_per_player'], type: 'number', label: 'opt_move_limit', help: 'opt_move_limit_help' },
  { id: 'stagnation', scope: 'rules', names: ['stagnation_rounds', 'stagnation', 'stagnation_limit'], type: 'number', label: 'opt_stagnation', help: 'opt_stagnation_help' },
  { id: 'allow_five', scope: 'rules', names: ['allow_five_players', 'allow_five'], type: 'bool', label: 'opt_allow_five', help: 'opt_allow_five_help' },
  { id: 'fill_unused', scope: 'rules', names: ['unused_camps'], type: 'select', label: 'opt_fill_unused', help: 'opt_fill_unused_help',
    options: () => [{ value: 'empty', label: t('unused_empty') }, { value: 'filled', label: t('unused_filled') }] },
  { id: 'no_resting', scope: 'rules', names: ['no_resting_in_foreign_camps', 'no_resting', 'no_rest_in_foreign_camps', 'no_foreign_camps'], type: 'bool', label: 'opt_no_resting', help: 'opt_no_resting_help' },
  { id: 'forced_exit', scope: 'rules', names: ['forced_exit', 'force_exit'], type: 'bool', label: 'opt_forced_exit', help: 'opt_forced_exit_help' },
  { id: 'no_leaving', scope: 'rules', names: ['no_leaving_destination', 'no_leaving_dest', 'stay_in_destination', 'no_leaving'], type: 'bool', label: 'opt_no_leaving', help: 'opt_no_leaving_help' },
  { id: 'swap', scope: 'rules', names: ['swap_rule', 'swap'], type: 'bool', label: 'opt_swap', help: 'opt_swap_help',
    note: (s) => (get(s, 'swap') !== true ? t('setting_turns_off', { other: t('opt_anti_blocking') }) : null) },
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
  // « Partie publique » (issue 20): listed on « Jouer en ligne » (public.js).
  { id: 'public', scope: 'top', names: ['public'], type: 'bool', label: 'opt_public', help: 'opt_public_help' },
  { id: 'show_legal_moves', scope: 'top', names: ['show_legal_moves'], type: 'bool', label: 'opt_show_legal', help: 'opt_show_legal_help' },
  { id: 'rotate_first', scope: 'top', names: ['rotate_first'], type: 'bool', label: 'opt_rotate_first', help: 'opt_rotate_first_help' },
  { id: 'random_first', scope: 'top', names: ['random_first'], type: 'bool', label: 'opt_random_first', help: 'opt_random_first_help' },
  { id: 'confirm_move', scope: 'top', names: ['confirm_move'], type: 'bool', label: 'opt_confirm_move', help: 'opt_confirm_move_help' },
  { id: 'hints', scope: 'top', names: ['hints'], type: 'bool', label: 'opt_hints', help: 'opt_hints_help' },
  { id: 'cpu_ms', scope: 'top', names: ['cpu_ms'], type: 'select', label: 'opt_cpu_ms', help: 'opt_cpu_ms_help',
    options: (s) => uniq([300, 1000, 3000, 10000, s.cpu_ms]).sort((a, b) => a - b).map((v) => ({ value: v, label: t('seconds', { n: decimal(v / 1000) }) })) },
  // « Pendule » (clock.js): live games only; the presets of each game, and the room's own value if it is another.
  { id: 'clock', scope: 'top', names: ['clock'], type: 'select', label: 'opt_clock', help: 'opt_clock_help',
    visible: (s) => s.rhythm !== 'turn',
    options: (s) => clockChoices(s) },
  { id: 'on_flag', scope: 'top', names: ['on_flag'], type: 'select', label: 'opt_on_flag', help: 'opt_on_flag_help',
    visible: (s) => s.rhythm !== 'turn' && !!s.clock && s.clock.kind !== 'none' && (get(s, 'players') ?? 2) >= 3,
    options: () => [{ value: 'cpu', label: t('on_flag_cpu') }, { value: 'last', label: t('on_flag_last') }] },
  // Live games: how long the seat to move may stay disconnected before the others may act (away.js).
  { id: 'away_after', scope: 'top', names: ['away_after'], type: 'select', label: 'opt_away_after', help: 'opt_away_after_help',
    visible: (s) => s.rhythm !== 'turn',
    options: (s) => uniq([30, 60, 120, 300, s.away_after]).sort((a, b) => a - b).map((v) => ({ value: v, label: t('seconds', { n: decimal(v) }) })) },
];

/** The clock presets: draughts in Fischer (base + increment), Chinese checkers per move (with a reserve). */
const CLOCK_PRESETS = {
  draughts: ['none', 'fischer:180000:2000', 'fischer:300000:3000', 'fischer:600000:5000', 'fischer:900000:10000'],
  cc: ['none', 'per_move:30000:60000', 'per_move:60000:120000'],
};

/** A clock setting as a select's value: `none`, `fischer:300000:3000`, `per_move:30000:60000`. @param {any} c */
export function clockKey(c) {
  if (!c || c.kind === 'fischer') return c ? `fischer:${c.base_ms}:${c.increment_ms}` : 'none';
  if (c.kind === 'per_move') return `per_move:${c.move_ms}:${c.reserve_ms}`;
  return 'none';
}

/**
 * The clock setting of a select's value.
 * @param {string} key
 * @returns {{kind: 'none'} | {kind: 'fischer', base_ms: number, increment_ms: number} | {kind: 'per_move', move_ms: number, reserve_ms: number}}
 */
export function clockOf(key) {
  const [kind, a, b] = String(key).split(':');
  if (kind === 'fischer') return { kind: 'fischer', base_ms: Number(a), increment_ms: Number(b) };
  if (kind === 'per_move') return { kind: 'per_move', move_ms: Number(a), reserve_ms: Number(b) };
  return { kind: 'none' };
}

/** How a clock setting reads: « Sans pendule », « 5 min + 3 s », « 30 s par coup (réserve 60 s) ». @param {string} key */
export function clockLabel(key) {
  const c = clockOf(key);
  const sec = (/** @type {number} */ ms) => decimal(ms / 1000);
  if (c.kind === 'fischer') {
    return c.base_ms % 60000 === 0
      ? t('clock_fischer_min', { m: sec(c.base_ms / 60), inc: sec(c.increment_ms) })
      : t('clock_fischer_sec', { s: sec(c.base_ms), inc: sec(c.increment_ms) });
  }
  if (c.kind === 'per_move') return t('clock_per_move', { s: sec(c.move_ms), r: sec(c.reserve_ms) });
  return t('clock_none');
}

/** The clock choices of a room's settings: its game's presets, and its own value if it is another. @param {Settings} st */
function clockChoices(st) {
  const presets = 'variant' in (st.rules || {}) ? CLOCK_PRESETS.draughts : CLOCK_PRESETS.cc;
  const own = clockKey(st.clock);
  const keys = presets.includes(own) ? presets : [...presets, own];
  return keys.map((k) => ({ value: k, label: clockLabel(k) }));
}

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
  // The clock is an object: the form handles it by its key (`clockKey`).
  if (id === 'clock') return clockKey(st.clock);
  return o.scope === 'rules' ? st.rules[f] : st[f];
}

/** @param {Settings} st @param {string} id @param {any} v @returns {Settings} */
function set(st, id, v) {
  const o = BY_ID.get(id);
  if (!o) return st;
  const f = fieldOf(st, o) || o.names[0];
  if (o.scope === 'rules') return { ...st, rules: { ...st.rules, [f]: v } };
  if (id === 'clock') return { ...st, clock: typeof v === 'string' ? clockOf(v) : v };
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
  // A clock is for live games: going turn by turn drops it (the server does the same).
  if (id === 'rhythm' && v === 'turn' && n.clock) n = { ...n, clock: { kind: 'none' } };
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

/** The server's path of an option (`rules.move_limit`, `cpu_ms`). @param {Settings} st @param {Opt} o */
function pathOf(st, o) {
  const f = fieldOf(st, o) || o.names[0];
  return o.scope === 'rules' ? 'rules.' + f : f;
}

/** What the server's table says the field at `path` accepts, if it is loaded. @param {'cc'|'draughts'} game @param {string} path */
function accepts(game, path) {
  return schema && schema.games[game] ? schema.games[game].fields[path] ?? null : null;
}

/** The default settings of `game`, if the table is loaded. @param {'cc'|'draughts'} game */
export function defaultsOf(game) {
  return schema && schema.games[game] ? schema.games[game].defaults : null;
}

/**
 * The form. `onChange` receives the whole new settings (host only). `error`: the last refusal of
 * a field (by its server path), shown under that field; `onRefused` is told of a value refused
 * here, before sending, so that the form drawn again on the next event still shows it.
 * @param {'cc'|'draughts'} game @param {Settings} st @param {boolean} editable
 * @param {(s: Settings) => void} onChange @param {{field: string, text: string}|null} [error]
 * @param {(e: {field: string, text: string}) => void} [onRefused]
 */
export function settingsForm(game, st, editable, onChange, error = null, onRefused = () => {}) {
  // The rhythm first: it is the first choice at room creation (live or turn by turn); then whether
  // strangers may find the room.
  const first = ['rhythm', 'public'];
  const opts = [...COMMON.filter((o) => first.includes(o.id)), ...(game === 'cc' ? CC : DRAUGHTS), ...COMMON.filter((o) => !first.includes(o.id))];
  const defaults = defaultsOf(game);
  const rows = [];
  const known = new Set(['rules:rotate_first_player', 'rules:random_first_player']);
  const errorFor = (/** @type {string} */ path) => (error && error.field.replace(/^settings\./, '') === path ? error.text : null);
  for (const o of opts) {
    const f = fieldOf(st, o);
    if (f) known.add(o.scope + ':' + f);
    if (!f || (o.visible && !o.visible(st, (id) => get(st, id)))) continue;
    const path = pathOf(st, o);
    rows.push(row({ game, st, o, value: get(st, o.id), editable, path, def: defaults ? get(defaults, o.id) : undefined, error: errorFor(path),
      onChange: (v) => onChange(change(st, o.id, v)), onRefused }));
  }
  // Fields the server knows and this table does not: still shown, still editable.
  for (const [k, v] of Object.entries(st.rules || {})) {
    if (known.has('rules:' + k) || (typeof v !== 'boolean' && typeof v !== 'number')) continue;
    /** @type {Opt} */
    const o = { id: k, scope: 'rules', names: [k], type: typeof v === 'boolean' ? 'bool' : 'number', label: /** @type {Key} */ (k), help: /** @type {Key} */ ('') };
    const path = 'rules.' + k;
    rows.push(row({ game, st, o, value: v, editable, path, def: defaults && defaults.rules ? defaults.rules[k] : undefined, error: errorFor(path),
      onChange: (nv) => onChange({ ...st, rules: { ...st.rules, [k]: nv } }), onRefused, rawLabel: k }));
  }
  return h('div', { class: 'settings' }, rows);
}

/** How a default value reads: « activé », « 0 (aucune) », the option's label. @param {Opt} o @param {Settings} st @param {any} def */
function defaultText(o, st, def) {
  if (o.type === 'bool') return t(def ? 'default_on' : 'default_off');
  if (o.type === 'number') return def === 0 ? t('default_none') : String(def);
  const choice = o.options ? o.options(st).find((x) => String(x.value) === String(def)) : null;
  return choice ? choice.label : String(def);
}

/**
 * One option: label, control, « par défaut », why it is locked or what it changes, its error.
 * @param {{game: 'cc'|'draughts', st: Settings, o: Opt, value: any, editable: boolean, path: string, def: any,
 *   error: string|null, onChange: (v: any) => void, onRefused: (e: {field: string, text: string}) => void, rawLabel?: string}} a
 */
function row({ game, st, o, value, editable, path, def, error, onChange, onRefused, rawLabel }) {
  const id = 'opt-' + o.id;
  const label = rawLabel ?? t(o.label);
  const help = rawLabel ? '' : t(o.help);
  const locked = !!(o.locked && o.locked(st));
  const enabled = editable && !locked;
  const errId = id + '-error';
  const errBox = h('p', { class: 'setting-error', id: errId, role: 'alert', hidden: !error, 'data-testid': 'setting-error' }, error || '');
  /**
   * Found from the field itself: a redraw while the field is in use keeps the field on screen
   * and gives it this listener (dom.js `patch`).
   * @param {HTMLInputElement} input @param {string|null} text
   */
  const showError = (input, text) => {
    const box = input.closest('.setting')?.querySelector('.setting-error');
    if (box instanceof HTMLElement) {
      box.textContent = text || '';
      box.hidden = !text;
    }
    input.setAttribute('aria-invalid', text ? 'true' : 'false');
  };
  /** @type {HTMLElement} */
  let control;
  if (o.type === 'bool') {
    control = h('input', { type: 'checkbox', role: 'switch', id, class: 'switch', checked: locked ? false : !!value, disabled: !enabled,
      onchange: (/** @type {Event} */ e) => onChange(/** @type {HTMLInputElement} */ (e.target).checked) });
  } else if (o.type === 'select') {
    const options = o.options ? o.options(st) : [];
    control = h('select', { id, disabled: !enabled, onchange: (/** @type {Event} */ e) => {
      const raw = /** @type {HTMLSelectElement} */ (e.target).value;
      const opt = options.find((x) => String(x.value) === raw);
      onChange(opt ? opt.value : raw);
    } }, options.map((x) => h('option', { value: String(x.value), selected: String(x.value) === String(value), disabled: !!x.disabled }, x.label)));
  } else {
    const acc = accepts(game, path);
    const range = acc && acc.type === 'int' ? acc : null;
    control = h('input', { type: 'number', id, value: String(value), min: range ? range.min : null, max: range ? range.max : null, step: 1, inputmode: 'numeric', disabled: !enabled,
      'aria-describedby': errId,
      onchange: (/** @type {Event} */ e) => {
        const input = /** @type {HTMLInputElement} */ (e.target);
        const v = Number(input.value);
        // Refused here, before anything is sent: the field shows the stored value again.
        const bad = input.value.trim() === '' || !Number.isInteger(v) ? { reason: 'wrong_type' }
          : range && (v < range.min || v > range.max) ? { reason: 'out_of_range', min: range.min, max: range.max } : null;
        if (bad) {
          input.value = String(value);
          const text = errorText({ code: 'invalid_settings', field: path, detail: bad }) + ' ' + t('setting_kept', { v: String(value) });
          showError(input, text);
          onRefused({ field: path, text });
          return;
        }
        showError(input, null);
        onChange(v);
      } });
  }
  if (error) control.setAttribute('aria-invalid', 'true');
  const note = o.note ? o.note(st) : null;
  return h('div', { class: `setting setting-${o.type}${locked ? ' setting-locked' : ''}`, 'data-opt': o.id },
    h('label', { for: id, class: 'setting-label' }, label),
    control,
    help ? h('p', { class: 'setting-help' }, help) : null,
    def !== undefined ? h('p', { class: 'setting-default', 'data-testid': 'setting-default' }, t('default_is', { v: defaultText(o, st, def) })) : null,
    note ? h('p', { class: 'setting-note', 'data-testid': 'setting-note' }, note) : null,
    errBox);
}
