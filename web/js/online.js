// @ts-check
/**
 * « Jouer en ligne » (issue 20, quick pairing; docs/protocol.md "Pools"): the pools of both games
 * as one-tap buttons (game × players or board × rules × pace), the CPU fill with its level and
 * wait, and, while waiting, who waits for what, for how long, and a cancel button. Each tap
 * adds or removes a pool of the one seek this browser holds on the socket `/ws/pools`; when the
 * server seats it, the socket gives the room's code and the seat token, which `join` turns into
 * the seat cookie, and the board opens.
 */
import { ApiError } from './api.js';
import { fill, h, toast } from './dom.js';
import { errorText, t, tn } from './i18n.js';
import { askName } from './name.js';
import { loadRoom, navigate } from './router.js';
import { clockKey, clockLabel } from './settings.js';

/** @typedef {'live'|'turn'} Pace */
/** @typedef {{pool: string, count: number, waiting: {name: string, waited_ms: number}[]}} Waiting */

const LEVELS = /** @type {const} */ (['facile', 'normal', 'difficile', 'expert']);
const AFTER = [10, 30, 60, 120];
const DEFAULT_AFTER = 60;

/** The label of pool `id` (`cc4-intl-live`, `draughts10-turn`…). @param {string} id */
export function poolLabel(id) {
  const m = /^(?:draughts(\d+)|cc(\d)-(intl|jp))-(live|turn)$/.exec(id);
  if (!m) return id;
  const pace = t(m[4] === 'live' ? 'online_pace_live' : 'online_pace_turn');
  const what = m[1]
    ? t('online_pool_draughts', { size: `${m[1]}×${m[1]}` })
    : t(m[3] === 'jp' ? 'online_pool_cc_jp' : 'online_pool_cc', { players: tn('online_cc_players', Number(m[2])) });
  return `${what} (${pace})`;
}

/** Minutes and seconds. @param {number} ms */
function duration(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')}`;
}

/**
 * The clocks of the live pools, as the server's operator set them: they come with the public
 * lists (`GET /api/public`, `pool_clocks`), which public.js reads for the same section and
 * tells here (event `dames:pool-clocks`), so that the section costs no request of its own.
 * @type {{draughts: string, cc: string}|null}
 */
let clocks = null;
/** @type {(() => void)|null} */
let onClocks = null;
document.addEventListener('dames:pool-clocks', (e) => {
  const c = /** @type {CustomEvent} */ (e).detail;
  if (!c || !c.draughts || !c.cc) return;
  clocks = { draughts: clockLabel(clockKey(c.draughts)), cc: clockLabel(clockKey(c.cc)) };
  onClocks?.();
});

/** The seeking socket and what it knows; one per page. */
const state = {
  /** @type {WebSocket|null} */ ws: null,
  /** @type {Set<string>} */ chosen: new Set(),
  /** @type {string[]} */ seeking: [],
  since: 0,
  penalty: 0,
  /** @type {Waiting[]} */ waiting: [],
  at: 0,
  name: '',
  /** @type {(() => void)|null} */ redraw: null,
};

/** Sends the seek of the pools chosen (or a cancel when none is left). */
function sendSeek() {
  const ws = state.ws;
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  if (!state.chosen.size) {
    ws.send(JSON.stringify({ type: 'cancel' }));
    return;
  }
  /** @type {any} */
  const msg = { type: 'seek', name: state.name, pools: [...state.chosen] };
  const box = /** @type {HTMLInputElement|null} */ (document.querySelector('[data-testid=online-cpu]'));
  if (box && box.checked) {
    const level = /** @type {HTMLSelectElement|null} */ (document.querySelector('[data-testid=online-cpu-level]'));
    const after = /** @type {HTMLSelectElement|null} */ (document.querySelector('[data-testid=online-cpu-after]'));
    msg.cpu = { level: level ? level.value : 'normal', after: after ? Number(after.value) : DEFAULT_AFTER };
  }
  ws.send(JSON.stringify(msg));
}

/** Opens the socket if needed; resolves when it is open. @returns {Promise<WebSocket>} */
function open() {
  if (state.ws && state.ws.readyState <= WebSocket.OPEN) {
    const ws = state.ws;
    return ws.readyState === WebSocket.OPEN ? Promise.resolve(ws) : new Promise((ok) => ws.addEventListener('open', () => ok(ws), { once: true }));
  }
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(`${proto}//${location.host}/ws/pools`);
  state.ws = ws;
  ws.addEventListener('message', (e) => onMessage(JSON.parse(String(e.data))));
  ws.addEventListener('close', () => {
    if (state.ws !== ws) return;
    state.ws = null;
    state.seeking = [];
    state.chosen.clear();
    state.redraw?.();
  });
  return new Promise((ok, fail) => {
    ws.addEventListener('open', () => ok(ws), { once: true });
    ws.addEventListener('error', () => fail(new ApiError(0, 'network', 'socket')), { once: true });
  });
}

/** @param {any} msg */
async function onMessage(msg) {
  switch (msg.type) {
    case 'waiting':
      state.waiting = msg.pools;
      state.at = Date.now();
      break;
    case 'seeking':
      if (!state.seeking.length) state.since = Date.now();
      state.seeking = msg.pools;
      state.penalty = msg.penalty_ms;
      break;
    case 'cancelled':
      state.seeking = [];
      state.chosen.clear();
      break;
    case 'matched':
      await land(msg.code, msg.token);
      return;
    case 'error':
      toast(errorText(new ApiError(0, msg.code, msg.message, msg.field ?? null, msg.detail ?? null)), 'error');
      state.chosen = new Set(state.seeking);
      break;
    default:
      return;
  }
  state.redraw?.();
}

/** Takes the seat the server made for this browser, then opens the board. @param {string} code @param {string} token */
async function land(code, token) {
  state.seeking = [];
  state.chosen.clear();
  const ws = state.ws;
  state.ws = null;
  ws?.close();
  toast(t('online_matched'));
  loadRoom().catch(() => {});
  // The seat is ours already: presenting its token sets the seat cookie, as for any seat holder.
  await fetch(`/api/rooms/${code}/join`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: state.name }),
  });
  navigate(`/r/${code}`);
}

/** A pool's button. @param {string} id @param {string} label */
function poolButton(id, label) {
  const on = state.chosen.has(id);
  return h('button', {
    class: `btn ${on ? 'primary' : 'ghost'} pool-button`, type: 'button', 'data-pool': id, 'aria-pressed': on ? 'true' : 'false',
    onclick: () => toggle(id),
  }, label);
}

/** One tap: the pool joins (or leaves) this browser's seek. @param {string} id */
async function toggle(id) {
  if (!state.name) {
    const name = await askName();
    if (!name) return;
    state.name = name;
  }
  if (state.chosen.has(id)) state.chosen.delete(id);
  else state.chosen.add(id);
  state.redraw?.();
  try {
    await open();
    sendSeek();
  } catch (err) {
    state.chosen.delete(id);
    state.redraw?.();
    toast(err instanceof ApiError ? errorText(err) : String(err), 'error');
  }
}

/** The « Jouer en ligne » section of the home page. */
export function onlineSection() {
  /** @type {Pace} */
  let pace = 'live';
  const pools = h('div', { class: 'online-pools' });
  const panel = h('div', { class: 'online-waiting', 'aria-live': 'polite', 'data-testid': 'online-waiting' });
  const level = h('select', { 'data-testid': 'online-cpu-level', 'aria-label': t('online_cpu_level'), onchange: () => sendSeek() },
    LEVELS.map((l) => h('option', { value: l, selected: l === 'normal' }, t(/** @type {any} */ (`level_${l}`)))));
  const after = h('select', { 'data-testid': 'online-cpu-after', 'aria-label': t('online_cpu_after'), onchange: () => { rule(); sendSeek(); } },
    AFTER.map((n) => h('option', { value: String(n), selected: n === DEFAULT_AFTER }, tn('online_cpu_seconds', n))));
  const cpu = h('input', { type: 'checkbox', id: 'online-cpu', 'data-testid': 'online-cpu', onchange: () => { rule(); sendSeek(); } });
  const ruleText = h('p', { class: 'muted small', 'data-testid': 'online-cpu-rule' });
  const rule = () => fill(ruleText, /** @type {HTMLInputElement} */ (cpu).checked
    ? t('online_cpu_rule', { after: /** @type {HTMLSelectElement} */ (after).value })
    : t('online_no_cpu_rule'));
  rule();
  const paceRow = h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': t('online_pace') },
    (/** @type {Pace[]} */ (['live', 'turn'])).map((p) => h('label', { class: 'seg' },
      h('input', { type: 'radio', name: 'online-pace', value: p, checked: p === pace, 'data-pace': p, onchange: () => { pace = p; drawPools(); drawClocks(); } }),
      h('span', null, t(p === 'live' ? 'online_live' : 'online_turn')))));
  const clockRule = h('p', { class: 'muted small', 'data-testid': 'online-clocks' });
  const drawClocks = () => fill(clockRule,
    pace === 'turn' ? t('online_turn_rule') : (clocks ? t('online_clocks', clocks) : null));
  onClocks = () => { if (clockRule.isConnected) drawClocks(); };
  const drawPools = () => fill(pools,
    h('div', { class: 'online-game' },
      h('h3', null, t('dr_name')),
      h('div', { class: 'online-buttons' }, [10, 8, 12].map((n) => poolButton(`draughts${n}-${pace}`, `${n}×${n}`)))),
    h('div', { class: 'online-game' },
      h('h3', null, t('cc_name')),
      h('div', { class: 'online-buttons' }, [2, 3, 4, 6].map((n) => poolButton(`cc${n}-intl-${pace}`, tn('online_cc_players', n)))),
      h('div', { class: 'online-buttons' }, [2, 3].map((n) => poolButton(`cc${n}-jp-${pace}`, `${tn('online_cc_players', n)} · ${t('online_cc_japanese')}`)))));
  const drawPanel = () => {
    const mine = state.seeking.length
      ? h('div', { class: 'online-mine' },
        h('p', null, h('strong', null, t('online_waiting_you', { pools: state.seeking.map(poolLabel).join(', ') })), ' ',
          h('span', { class: 'muted', 'data-testid': 'online-elapsed' }, t('online_waited', { time: duration(Date.now() - state.since) }))),
        state.penalty > 0 ? h('p', { class: 'muted small' }, t('online_penalty', { n: Math.ceil(state.penalty / 1000) })) : null,
        h('button', { class: 'btn', type: 'button', 'data-action': 'online-cancel', onclick: () => { state.chosen.clear(); sendSeek(); } }, t('online_cancel')))
      : null;
    const late = Date.now() - state.at;
    const rows = state.waiting.map((w) => h('li', { 'data-waiting-pool': w.pool },
      h('strong', null, poolLabel(w.pool)), ' : ',
      w.waiting.map((p) => `${p.name} (${duration(p.waited_ms + late)})`).join(', '),
      w.count > w.waiting.length ? ` ${tn('online_more', w.count - w.waiting.length)}` : ''));
    fill(panel, mine,
      state.ws ? h('div', null, h('h3', null, t('online_who')),
        rows.length ? h('ul', { class: 'online-who' }, rows) : h('p', { class: 'muted small' }, t('online_nobody'))) : null);
  };
  const section = h('section', { class: 'card online-card', id: 'online', 'aria-labelledby': 'online-title', 'data-testid': 'online' },
    h('h2', { id: 'online-title' }, t('online_title')),
    h('p', { class: 'muted small' }, t('online_intro')),
    paceRow, clockRule, pools,
    h('div', { class: 'online-cpu field' },
      h('label', { for: 'online-cpu' }, cpu, ' ', t('online_cpu_fill')), ' ',
      h('label', null, t('online_cpu_after'), ' ', after), ' ',
      h('label', null, t('online_cpu_level'), ' ', level)),
    ruleText, panel);
  state.redraw = () => {
    if (!section.isConnected) return;
    drawPools();
    drawPanel();
  };
  drawPools();
  drawPanel();
  drawClocks();
  const clock = setInterval(() => {
    if (!section.isConnected) {
      clearInterval(clock);
      // Leaving the home page leaves the queues.
      if (!state.seeking.length && state.ws) { state.ws.close(); state.ws = null; }
      return;
    }
    if (state.seeking.length || state.waiting.length) drawPanel();
  }, 1000);
  return section;
}
