// @ts-check
/**
 * The clocks of a live game with a « Pendule » (issue 20, docs/protocol.md "Clocks"): one per
 * seat, the running one ticking every 100 ms. The server is the authority: each state or delta
 * carries the clocks as of its own `now`; this page counts down from the moment the message came
 * (its own monotonic clock, never its wall clock), so a wrong clock on the device changes
 * nothing. Under 10 s the reader's own clock turns red and a screen reader is told once. A
 * reconnect gets the clocks again from the server.
 */
import { h, toast } from './dom.js';
import { t } from './i18n.js';

/**
 * @typedef {{remaining: number[], move_left?: number|null, running: number|null, now: number, flagged?: number[]}} ClockView
 * @typedef {import('./api.js').RoomView} RoomView
 */

/** Below this (ms), the reader's own clock warns. */
export const LOW_MS = 10_000;
/** How often the running clock is drawn again (ms). */
const TICK_MS = 100;

/**
 * A time as the clocks show it: « 4:05 », and with tenths under 10 s: « 0:09.4 ».
 * @param {number} ms
 */
export function formatClock(ms) {
  const v = Math.max(0, ms);
  const min = Math.floor(v / 60_000);
  const sec = Math.floor((v % 60_000) / 1000);
  const base = `${min}:${String(sec).padStart(2, '0')}`;
  return v < LOW_MS ? `${base}.${Math.floor((v % 1000) / 100)}` : base;
}

/**
 * What a seat's clock shows `elapsed` ms after the figures of `c` came: its time before the flag
 * falls (per move: the move's time, then the reserve), and the reserve apart.
 * @param {ClockView} c @param {any} setting the room's `clock` setting @param {number} seat @param {number} elapsed
 * @returns {{main: number, reserve: number|null}}
 */
export function shown(c, setting, seat, elapsed) {
  const left = c.remaining[seat] ?? 0;
  const running = c.running === seat;
  if (setting && setting.kind === 'per_move') {
    const move = running ? (c.move_left ?? 0) - elapsed : setting.move_ms;
    // A move that overruns its time spends the reserve.
    const reserve = move < 0 ? left + move : left;
    return { main: Math.max(0, move), reserve: Math.max(0, reserve) };
  }
  return { main: Math.max(0, left - (running ? elapsed : 0)), reserve: null };
}

export class Clocks {
  /** @param {(seat: number) => string} name */
  constructor(name) {
    this.name = name;
    this.list = h('ol', { class: 'clocks', 'aria-label': t('clocks_label') });
    /** Told once to a screen reader when the reader's own time runs low. */
    this.say = h('p', { class: 'sr-only', 'aria-live': 'assertive', 'data-testid': 'clock-alert' });
    this.el = h('section', { class: 'clocks-box', hidden: true, 'data-testid': 'clocks' }, this.list, this.say);
    /** @type {RoomView|null} */
    this.room = null;
    /** @type {ClockView|null} */
    this.clock = null;
    /** `performance.now()` when the figures of `clock` came. */
    this.at = 0;
    /** @type {ReturnType<typeof setInterval>|null} */
    this.timer = null;
    /** The game whose low-time warning was given. */
    this.warned = '';
    /** @type {number[]} the fallen flags already told */
    this.told = [];
  }

  /** The room changed (a state or a delta). @param {RoomView} room */
  update(room) {
    const g = room.game_view;
    const c = g && g.clock ? /** @type {ClockView} */ (g.clock) : null;
    this.room = room;
    if (!c) {
      this.stop();
      this.el.hidden = true;
      this.clock = null;
      return;
    }
    // New figures from the server: count from now; the same ones again (another redraw) keep counting.
    if (!this.clock || this.clock.now !== c.now || this.clock.running !== c.running) this.at = performance.now();
    this.tellFlags(room, c);
    this.clock = c;
    this.el.hidden = false;
    this.draw();
    if (c.running !== null && room.status === 'playing') this.start();
    else this.stop();
  }

  /** A flag that fell while the others play on (3 players or more): said once. @param {RoomView} room @param {ClockView} c */
  tellFlags(room, c) {
    const flagged = c.flagged || [];
    const fresh = flagged.filter((s) => !this.told.includes(s));
    const sameGame = this.room && this.clock;
    this.told = flagged;
    if (!sameGame || room.status !== 'playing' || room.seats.length < 3) return;
    const cpu = room.settings.on_flag !== 'last';
    for (const seat of fresh) {
      const you = seat === room.you;
      toast(you ? t(cpu ? 'flag_you_cpu' : 'flag_you_last') : t(cpu ? 'flag_cpu_toast' : 'flag_last_toast', { name: this.name(seat) }));
    }
  }

  start() {
    if (this.timer !== null) return;
    this.timer = setInterval(() => {
      // The page left the game (another screen): nothing more to draw.
      if (!this.el.isConnected) this.stop();
      else this.draw();
    }, TICK_MS);
  }

  stop() {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** Draws every seat's clock as of now. */
  draw() {
    const room = this.room;
    const c = this.clock;
    if (!room || !c) return;
    const elapsed = room.status === 'playing' ? performance.now() - this.at : 0;
    const setting = room.settings.clock;
    const items = room.seats.map((s) => {
      const out = (c.flagged || []).includes(s.seat) || (room.status === 'finished' && c.remaining[s.seat] === 0 && room.game_view?.outcome?.reason === 'time');
      const { main, reserve } = shown(c, setting, s.seat, elapsed);
      const running = c.running === s.seat && room.status === 'playing';
      const total = main + (reserve ?? 0);
      const low = running && total < LOW_MS;
      return { s, out, main, reserve, running, low };
    });
    const mine = items.find((x) => x.s.seat === room.you);
    const key = `${room.code}/${room.game_no}`;
    if (mine && mine.low && this.warned !== key) {
      this.warned = key;
      this.say.textContent = t('clock_low_warning');
    }
    // Drawn once, then only their figures change (no flicker, nothing for a screen reader to re-read).
    if (this.list.children.length !== items.length) {
      this.list.replaceChildren(...items.map((x) => h('li', { class: 'clock', 'data-seat': x.s.seat },
        h('span', { class: 'clock-name' }),
        h('span', { class: 'clock-time', role: 'timer', 'aria-live': 'off' }),
        h('span', { class: 'clock-reserve muted small' }))));
    }
    items.forEach((x, i) => {
      const li = /** @type {HTMLElement} */ (this.list.children[i]);
      li.className = `clock${x.running ? ' running' : ''}${x.low ? ' low' : ''}${x.out ? ' out' : ''}${x.s.seat === room.you ? ' mine' : ''}`;
      const [nameEl, timeEl, reserveEl] = /** @type {HTMLElement[]} */ ([...li.children]);
      const name = this.name(x.s.seat);
      if (nameEl.textContent !== name) nameEl.textContent = name;
      const text = x.out ? t('clock_out') : formatClock(x.main);
      if (timeEl.textContent !== text) timeEl.textContent = text;
      timeEl.setAttribute('aria-label', `${t('clock_of', { name })}, ${text}`);
      const res = x.reserve !== null && !x.out ? t('clock_reserve', { t: formatClock(x.reserve) }) : '';
      if (reserveEl.textContent !== res) reserveEl.textContent = res;
      reserveEl.hidden = !res;
    });
  }
}
