// @ts-check
/** The room page `/r/{CODE}`: loads the room, keeps the WebSocket, shows the lobby or the game. */
import { ApiError, RoomSocket, api } from './api.js';
import { fill, h, patch, randomId, toast } from './dom.js';
import { GameView } from './game.js';
import { errorText, t, tn } from './i18n.js';
import { renderLobby } from './lobby.js';
import * as deltas from './delta.js';
import { askName } from './name.js';
import { loadSchema } from './settings.js';
import { claimTransferFromLink } from './away.js';
import { load as loadSaved, save as saveLocal } from './storage.js';
import { Talk } from './phrases.js';

/** @typedef {import('./api.js').RoomView} RoomView */

/** @type {RoomPage|null} */
let current = null;

/** @param {HTMLElement} root @param {string} code */
export function showRoom(root, code) {
  leaveRoom();
  current = new RoomPage(root, code);
}

export function leaveRoom() {
  if (current) current.close();
  current = null;
}

/** Re-render after a language change. */
export function rerenderRoom() {
  if (current) current.rerender();
}

class RoomPage {
  /** @param {HTMLElement} root @param {string} code */
  constructor(root, code) {
    this.root = root;
    this.code = code;
    /** @type {RoomView|null} */
    this.room = null;
    /** @type {GameView|null} */
    this.game = null;
    this.gameNo = -1;
    this.banner = h('div', { class: 'banner', hidden: true, role: 'status', 'data-testid': 'reconnecting' });
    // Until the room is drawn (or when it cannot be), the page's one heading names it for screen readers.
    this.body = h('div', { class: 'room-body' }, this.heading(), h('p', { class: 'loading' }, t('loading')));
    /** Showing the last known position while offline (read-only). */
    this.stale = false;
    this.el = h('section', { class: 'room' }, this.banner, h('p', { class: 'stale-note', 'data-testid': 'stale' }, t('offline_position')), this.body);
    fill(root, this.el);
    document.title = t('room_title', { code }) + ' · Dames';
    /** @type {RoomSocket|null} */
    this.socket = null;
    this.closed = false;
    /** @type {Set<string>} */
    this.inFlight = new Set();
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.retry = undefined;
    /** The last refusal of a setting, shown under its field until the next accepted change. @type {{field: string, text: string}|null} */
    this.settingError = null;
    /** The preset phrases said in the room, mutes, reports (phrases.js). */
    this.talk = new Talk(code, (phrase) => this.socket?.sendRaw({ type: 'phrase', id: randomId('p'), phrase }), () => this.redrawPlayers());
    this.el.append(this.talk.live);
    this.load();
  }

  /** A phrase came or went, or a player was muted: the players are drawn again. */
  redrawPlayers() {
    const room = this.room;
    if (!room) return;
    if (room.status === 'lobby') patch(this.body, renderLobby(room, this.lobbyActions(), this.settingError));
    else {
      this.game?.renderPlayers(room);
      this.game?.renderStrip(room);
    }
  }

  async load(attempt = 0) {
    if (this.closed) return;
    try {
      // Opened from a link moving a seat here: take it first.
      if (attempt === 0) await claimTransferFromLink(this.code);
      // The settings table (limits, defaults) comes with the room: the lobby checks input with it.
      const [room] = await Promise.all([api.getRoom(this.code), loadSchema()]);
      if (this.closed) return; // left the page meanwhile
      const wasStale = this.stale;
      this.stale = false;
      this.apply(room, wasStale);
      this.connect();
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError(0, 'network', String(e));
      if (err.status === 0 || err.status >= 500 || err.code === 'rate_limited') {
        // Offline: the last position this browser saw, read-only, until the server answers.
        if (!this.room) this.showSaved();
        // Server unreachable: say so and keep trying, with the same capped backoff as the socket.
        this.showStatus('reconnecting', attempt + 1);
        clearTimeout(this.retry);
        this.retry = setTimeout(() => this.load(attempt + 1), Math.min(500 * 2 ** attempt, 10000));
        return;
      }
      fill(this.body, this.heading(), h('div', { class: 'card center' },
        h('p', { class: 'error' }, errorText(err)),
        h('a', { class: 'btn primary', href: '/' }, t('back_home'))));
    }
  }

  connect() {
    const queue = this.socket ? this.socket.queue : [];
    this.socket?.close();
    this.socket = new RoomSocket(this.code, {
      onRoom: (r, fresh) => this.apply(r, fresh, true),
      onStatus: (s, n) => this.showStatus(s, n),
      onError: (err, id) => this.onSocketError(err, id),
      onPresence: (seat, online) => this.onPresence(seat, online),
      onPhrase: (seat, phrase) => this.talk.heard(this.room, seat, phrase),
      deltas,
    }, this.room ? this.room.version : 0, queue);
  }

  /** The last known state of this room (saved by `apply`), shown read-only while offline. */
  showSaved() {
    const saved = savedRooms()[this.code];
    if (!saved || !saved.game_view) return;
    this.stale = true;
    const g = saved.game_view;
    this.apply({ ...saved, game_view: { ...g, legal_moves: [] } }, true);
  }

  /**
   * @param {RoomView} room @param {boolean} [fresh] first state of a new connection: always taken
   * @param {boolean} [socket] from the socket
   */
  apply(room, fresh = false, socket = false) {
    if (!fresh && this.room && room.version <= this.room.version && room.game_no <= this.room.game_no) return;
    const prev = this.room;
    this.room = room;
    if (!this.stale && room.game_view) saveRoom(room);
    this.el?.classList.toggle('stale', this.stale);
    // A socket's first state is most often the room just fetched: the screen is not drawn a
    // second time, the same (a whole lobby or game: the longest task of a room's first second).
    if (socket && fresh && prev && !this.stale && JSON.stringify(room) === JSON.stringify(prev)) return;
    if (room.status === 'lobby') {
      // The host sent a finished game back to the lobby without those who left.
      if (prev && prev.status === 'finished') toast(t('reopened_toast'));
      this.game = null;
      // Drawn again on every event: the field, select or button in use stays (dom.js `patch`).
      patch(this.body, renderLobby(room, this.lobbyActions(), this.settingError));
      return;
    }
    if (!this.game || this.gameNo !== room.game_no) {
      const wasLobby = !prev || prev.status === 'lobby' || prev.game_no !== room.game_no;
      this.game = new GameView(this.gameActions(), this.talk);
      this.gameNo = room.game_no;
      fill(this.body, this.game.el);
      if (wasLobby) window.scrollTo(0, 0); // a new game: show the board from the top
      this.game.update(room, null);
    } else {
      this.game.update(room, prev);
    }
  }

  /** A seat's person connected or left (no version: the room is otherwise the same). @param {number} seat @param {boolean} online */
  onPresence(seat, online) {
    const room = this.room;
    if (!room || !room.seats[seat] || room.seats[seat].kind !== 'human' || room.seats[seat].online === online) return;
    this.apply({ ...room, seats: room.seats.map((s, i) => (i === seat ? { ...s, online } : s)) }, true);
  }

  rerender() {
    const room = this.room;
    if (!room) return;
    this.game = null;
    this.room = null;
    this.apply(room);
  }

  /** @param {import('./api.js').SocketStatus} s @param {number} attempt */
  showStatus(s, attempt) {
    if (s === 'open') {
      this.banner.hidden = true;
      return;
    }
    if (s === 'reconnecting') {
      // One banner, not two: this one (its queued moves, « Réessayer ») hides the site's « Hors ligne » bar (app.css).
      this.banner.hidden = false;
      const queued = this.socket ? this.socket.queue.filter((a) => a.type === 'move').length : 0;
      fill(this.banner,
        h('span', { class: 'spinner', 'aria-hidden': 'true' }),
        h('span', null, attempt > 1 ? t('reconnecting_n', { n: attempt }) : t('reconnecting')),
        queued ? h('span', { class: 'small' }, ` · ${tn('queued_moves', queued)}`) : null,
        h('button', { class: 'btn small', type: 'button', onclick: () => (this.socket ? this.socket.retryNow() : this.load()) }, t('retry_now')));
    }
  }

  /** @param {import('./i18n.js').ErrorLike} err @param {string|null} _id */
  onSocketError(err, _id) {
    if (err.code === 'unknown_room') return this.gone();
    // A phrase refused (too many at once): said, nothing else to do.
    if (_id && _id.startsWith('p-')) return toast(errorText(err), 'error');
    toast(errorText(err), 'error');
    this.game?.reset();
    this.reload();
  }

  /** Shows the stored state again (after a refusal: the fields show what the server kept). */
  reload() {
    api.getRoom(this.code).then((r) => this.apply(r, true)).catch(() => {});
  }

  /**
   * Runs one action; the same action is not sent twice while in flight (double taps). A refusal
   * is told in the player's language and the page shows the stored state again.
   * @param {() => Promise<RoomView|{room: RoomView}>} f @param {string} [key]
   * @param {(e: ApiError) => void} [onRefused] before the stored state is shown again
   */
  async run(f, key, onRefused) {
    if (key) {
      if (this.inFlight.has(key)) return;
      this.inFlight.add(key);
    }
    try {
      const r = await f();
      const room = 'room' in r && r.room && typeof r.room === 'object' && 'seats' in r.room ? r.room : /** @type {RoomView} */ (r);
      // The answer to my own action speaks from my seat: taken unless something newer came.
      this.apply(room, !this.room || room.version >= this.room.version);
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError(0, 'network', String(e));
      toast(errorText(err), 'error');
      if (onRefused) onRefused(err);
      this.reload();
    } finally {
      if (key) this.inFlight.delete(key);
    }
  }

  /** @returns {import('./lobby.js').LobbyActions} */
  lobbyActions() {
    const code = this.code;
    return {
      join: async (seat) => {
        const name = await askName();
        if (!name) return;
        await this.run(() => api.join(code, name, seat), 'join');
        // The seat cookie is new: reopen the socket so that it speaks for the seat.
        this.connect();
      },
      leave: async () => {
        await this.run(() => api.leave(code));
        this.connect(); // the socket speaks for whoever opened it: reopen it as a spectator
      },
      start: () => this.run(() => api.start(code), 'start'),
      setSettings: (s) => {
        this.settingError = null;
        return this.run(() => api.settings(code, s), undefined, (e) => {
          if (e.field) this.settingError = { field: e.field, text: errorText(e) };
        });
      },
      // Refused before sending: kept like the server's refusals, so that the next event's redraw shows it too.
      refuseSetting: (e) => {
        this.settingError = e;
      },
      seatCpu: (seat, level) => this.run(() => api.seat(code, seat, { cpu: level })),
      kick: (seat) => this.run(() => api.seat(code, seat, { kick: true })),
      talk: this.talk,
    };
  }

  /** @returns {import('./game.js').GameActions} */
  gameActions() {
    const code = this.code;
    return {
      move: (input) => {
        if (this.socket) {
          this.socket.send({ type: 'move', id: randomId('m'), move: input });
          if (this.socket.status !== 'open') this.showStatus('reconnecting', this.socket.attempt);
        } else {
          this.run(() => api.move(code, randomId('m'), input));
        }
      },
      resign: () => this.run(() => api.resign(code), 'resign'),
      draw: (a) => this.run(() => api.draw(code, a), 'draw'),
      rematch: (ready) => this.run(() => api.rematch(code, ready), 'rematch'),
      away: (body) => this.run(() => api.away(code, body), 'away'),
      rematchWithout: {
        withCpu: (level) => this.run(() => api.rematch(code, true, { cpu: level }), 'rematch'),
        withEmpty: () => this.run(() => api.rematch(code, true, { empty: true }), 'rematch'),
      },
    };
  }

  /** The page's heading while neither the lobby nor the game (each with its own) is shown: « Partie K7M2QX ». */
  heading() {
    return h('h1', { class: 'sr-only' }, t('room_title', { code: this.code }));
  }

  /** The room no longer exists (deleted after its retention time). */
  gone() {
    this.close();
    this.banner.hidden = true;
    fill(this.body, this.heading(), h('div', { class: 'card center' },
      h('p', { class: 'error' }, t('err_unknown_room')),
      h('a', { class: 'btn primary', href: '/' }, t('back_home'))));
  }

  close() {
    this.closed = true;
    this.talk.close();
    clearTimeout(this.retry);
    this.socket?.close();
    this.socket = null;
  }
}

/** The last state of the rooms this browser looked at (three at most), for offline reloads. @returns {Record<string, RoomView>} */
function savedRooms() {
  try {
    return JSON.parse(loadSaved('rooms') || '{}');
  } catch {
    return {};
  }
}

/** @param {RoomView} room */
function saveRoom(room) {
  const all = savedRooms();
  delete all[room.code];
  const keep = Object.fromEntries([...Object.entries(all).slice(-2), [room.code, room]]);
  try {
    saveLocal('rooms', JSON.stringify(keep));
  } catch {
    /* storage full: offline reloads show « Chargement… » as before */
  }
}
