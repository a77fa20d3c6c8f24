// @ts-check
/**
 * Client side of docs/protocol.md: the HTTP API and the room WebSocket (with reconnection,
 * `since`, queued actions resent with their `id`, and an HTTP fallback that never gets stuck).
 */
import { networkFailed } from './offline.js';

/**
 * @typedef {[number, number, number]} Cube
 * @typedef {'facile'|'normal'|'difficile'|'expert'} Level
 * @typedef {{players?: number, variant?: string, [k: string]: any}} Rules
 * @typedef {{rules: Rules, show_legal_moves: boolean, rotate_first: boolean, random_first: boolean, confirm_move: boolean, cpu_ms: number, hints?: boolean, [k: string]: any}} Settings
 * @typedef {{seat: number, kind: 'human'|'cpu'|'empty', name: string|null, level: Level|null, online: boolean, ready: boolean, camps?: number[], color?: 'white'|'black', stand_in?: Level|null}} Seat
 * @typedef {{from: any, to: any, path: any[], captures?: number[], notation?: string}} LegalMove
 * @typedef {{seat: number, move: LegalMove, passes?: number[], finished?: number[]}} MoveRecord
 * @typedef {{kind: 'win'|'places'|'draw'|'abandoned', reason?: string, places: (number|null)[]}} Outcome
 * @typedef {{seat: number, at: Cube, king?: boolean, camp?: number|null}} CcPiece
 * @typedef {{square: number, color: 'white'|'black', king?: boolean}} DraughtsPiece
 * @typedef {{pieces: any[], inert?: Cube[], size?: number, fen?: string}} Board
 * @typedef {{to_move: number|null, board: Board, moves: MoveRecord[], legal_moves: LegalMove[], draw_offer: number|null, draw_declined?: number|null, outcome: Outcome|null, turn_since?: number|null, clock?: import('./clock.js').ClockView|null}} GameView
 * @typedef {{code: string, game: 'cc'|'draughts', version: number, status: 'lobby'|'playing'|'finished', you: number|null, host: boolean, settings: Settings, seats: Seat[], game_no: number, game_view: GameView|null, solitaire?: boolean}} RoomView
 */

/**
 * An error answered by the server (or a network failure, code `network`): its code, and the field
 * and detail that say what to tell the player (`errorText` in i18n.js; docs/protocol.md "Errors").
 */
export class ApiError extends Error {
  /**
   * @param {number} status @param {string} code @param {string} message
   * @param {string|null} [field] @param {{reason?: string, [k: string]: any}|null} [detail]
   */
  constructor(status, code, message, field = null, detail = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
    this.detail = detail;
  }
}

/**
 * The protocol names both the game kind and the game state `game`; the server may send the state
 * under `game` (object) or another key. Normalise to `game` (kind) + `game_view` (state).
 * @param {any} raw @returns {RoomView}
 */
export function normalizeRoom(raw) {
  const room = { ...raw };
  if (raw && typeof raw.game === 'object' && raw.game !== null) {
    room.game_view = raw.game;
    room.game = raw.kind || raw.game_kind || guessKind(raw);
  } else {
    room.game_view = raw.play ?? raw.game_view ?? raw.state ?? raw.current ?? null;
  }
  if (room.game !== 'cc' && room.game !== 'draughts') room.game = guessKind(raw);
  return /** @type {RoomView} */ (room);
}

/** @param {any} raw */
function guessKind(raw) {
  const k = raw.kind || raw.game_kind || raw.game_type;
  if (k === 'cc' || k === 'draughts') return k;
  if (raw.settings && raw.settings.rules && 'variant' in raw.settings.rules) return 'draughts';
  return 'cc';
}

/**
 * @param {string} method @param {string} path @param {any} [body]
 * @returns {Promise<any>}
 */
export async function request(method, path, body) {
  if (method === 'GET') {
    const asked = early.get(path);
    early.delete(path);
    if (asked && Date.now() - asked.at < EARLY_FOR) return asked.answer;
  }
  /** @type {RequestInit} */
  const init = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    networkFailed();
    throw new ApiError(0, 'network', String(e));
  }
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  if (!res.ok) {
    const err = json && json.error ? json.error : { code: 'http_' + res.status, message: text.slice(0, 200) };
    throw new ApiError(res.status, err.code, err.message, err.field ?? null, err.detail ?? (err.reason ? { reason: err.reason } : null));
  }
  return json;
}

/** @param {any} j */
const withRoom = (j) => (j && j.room ? { ...j, room: normalizeRoom(j.room) } : j);

/**
 * @typedef {{type: 'bool'} | {type: 'int', min: number, max: number} | {type: 'one_of', allowed: any[]} | {type: 'clock', kinds: Record<string, Record<string, {type: 'int', min: number, max: number}>>}} Accepts
 * @typedef {{games: Record<'cc'|'draughts', {defaults: Settings, fields: Record<string, Accepts>}>, name: {min: number, max: number}, levels: Level[]}} SettingsSchema
 */

/** @type {Promise<SettingsSchema>|null} */
let schemaPromise = null;

/**
 * GET answers asked for while the modules that read them were still loading (`prefetch`), by
 * path, each with when it was asked: the next `request('GET', path)` takes it, if it is at most
 * `EARLY_FOR` ms old.
 * @type {Map<string, {answer: Promise<any>, at: number}>}
 */
const early = new Map();
const EARLY_FOR = 10000;

/**
 * Asks for `path` now, alongside the modules of the screen that will read it, not after them.
 * @param {string} path
 */
export function prefetch(path) {
  if (early.has(path)) return;
  const answer = request('GET', path);
  answer.catch(() => {});
  early.set(path, { answer, at: Date.now() });
}

/** Where a room's game record (game `n`, or its current one) and its list of games are read. */
export const roomPaths = {
  /** @param {string} code */
  room: (code) => `/api/rooms/${code}`,
  /** @param {string} code @param {number} [n] */
  record: (code, n) => (n ? `/api/rooms/${code}/games/${n}` : `/api/rooms/${code}/record`),
  /** @param {string} code @param {number} [before] */
  games: (code, before) => `/api/rooms/${code}/games${before ? `?before=${before}&limit=20` : '?limit=20'}`,
};

/**
 * Opening a room's link: its state and the settings table are asked for at once, alongside the
 * room screen's modules, not after them. The next `getRoom(code)` takes the answer.
 * @param {string} code
 */
export function prefetchRoom(code) {
  prefetch(roomPaths.room(code));
  api.settingsSchema().catch(() => {});
}

/**
 * Opening a game of a room (`/r/CODE/n`): its record, the room and the room's games, asked for
 * alongside the replay's modules.
 * @param {string} code @param {number} n
 */
export function prefetchGame(code, n) {
  prefetch(roomPaths.record(code, n));
  prefetch(roomPaths.room(code));
  prefetch(roomPaths.games(code));
}

export const api = {
  /** The server's settings table (GET /api/settings), fetched once per page load. @returns {Promise<SettingsSchema>} */
  settingsSchema: () => {
    if (!schemaPromise) {
      schemaPromise = request('GET', '/api/settings');
      schemaPromise.catch(() => { schemaPromise = null; });
    }
    return schemaPromise;
  },
  /** Rooms where this browser holds a seat, most recently active first. */
  myRooms: async () => /** @type {{rooms: {code: string, seat: number}[]}} */ (await request('GET', '/api/me/rooms')),
  /** @param {{game: 'cc'|'draughts', name: string, settings?: any, cpu?: {level: Level} | {levels: Level[]}, solitaire?: boolean}} body */
  createRoom: async (body) => withRoom(await request('POST', '/api/rooms', body)),
  /** @param {string} code @returns {Promise<RoomView>} */
  getRoom: async (code) => normalizeRoom(await request('GET', roomPaths.room(code))),
  /** @param {string} code @param {string} name @param {number} [seat] */
  join: async (code, name, seat) =>
    withRoom(await request('POST', `/api/rooms/${code}/join`, seat === undefined ? { name } : { name, seat })),
  /** @param {string} code */
  leave: async (code) => normalizeRoom(await request('POST', `/api/rooms/${code}/leave`, {})),
  /** @param {string} code @param {any} settings */
  settings: async (code, settings) => normalizeRoom(await request('POST', `/api/rooms/${code}/settings`, settings)),
  /** @param {string} code @param {number} seat @param {any} body */
  seat: async (code, seat, body) => normalizeRoom(await request('POST', `/api/rooms/${code}/seats/${seat}`, body)),
  /** @param {string} code */
  start: async (code) => normalizeRoom(await request('POST', `/api/rooms/${code}/start`, {})),
  /** @param {string} code @param {string} id @param {any} move */
  move: async (code, id, move) => withRoom(await request('POST', `/api/rooms/${code}/move`, { id, move })),
  /** A private hint for the seat to move (not played). @param {string} code @returns {Promise<{move: LegalMove}>} */
  hint: async (code) => /** @type {{move: LegalMove}} */ (await request('POST', `/api/rooms/${code}/hint`, {})),
  /** @param {string} code */
  resign: async (code) => normalizeRoom(await request('POST', `/api/rooms/${code}/resign`, {})),
  /** @param {string} code @param {'offer'|'accept'|'decline'} action */
  draw: async (code, action) => normalizeRoom(await request('POST', `/api/rooms/${code}/draw`, { action })),
  /**
   * `absent`: without the players who left — CPUs of this level in their seats, or (the host) back
   * to the lobby with their seats free.
   * @param {string} code @param {boolean} ready @param {{ cpu: Level } | { empty: true }} [absent]
   */
  rematch: async (code, ready, absent) => normalizeRoom(await request('POST', `/api/rooms/${code}/rematch`,
    absent && 'cpu' in absent ? { ready, absent_cpu: absent.cpu } : absent ? { ready, absent_empty: true } : { ready })),
  /** A one-time link (and QR code) moving my seat to another browser. @param {string} code @returns {Promise<{url: string, qr: string, expires_at: number}>} */
  transfer: async (code) => /** @type {{url: string, qr: string, expires_at: number}} */ (await request('POST', `/api/rooms/${code}/transfer`, {})),
  /** This browser takes the seat a link moves. @param {string} code @param {string} token */
  claimTransfer: async (code, token) => await request('POST', `/api/rooms/${code}/transfer/claim`, { token }),
  /** « Confier à un CPU » / « Réclamer la victoire » for a seat away on its turn. @param {string} code @param {{seat: number, action: 'cpu'|'claim', level?: Level}} body */
  away: async (code, body) => normalizeRoom(await request('POST', `/api/rooms/${code}/away`, body)),
};

/**
 * @typedef {{type: string, id: string, [k: string]: any}} Action
 * @typedef {'connecting'|'open'|'reconnecting'} SocketStatus
 */

/**
 * One WebSocket per open room page. Keeps the last version seen, reconnects with exponential
 * backoff (capped), refreshes the room over HTTP while the socket is down, and resends queued
 * actions (moves…) with their ids until the server acknowledges them.
 */
export class RoomSocket {
  /**
   * @param {string} code
   * @param {{onRoom: (room: RoomView, fresh?: boolean) => void, onStatus: (s: SocketStatus, attempt: number) => void, onError: (err: import('./i18n.js').ErrorLike, id: string|null) => void, onAck?: (id: string, applied: boolean) => void, onPresence?: (seat: number, online: boolean) => void, onPhrase?: (seat: number, phrase: string) => void, deltas: typeof import('./delta.js')}} handlers
   * @param {number} [since] last version seen
   * @param {Action[]} [queue] actions still waiting for their ack
   */
  constructor(code, handlers, since = 0, queue = []) {
    this.code = code;
    this.h = handlers;
    this.version = since;
    /** @type {Action[]} */
    this.queue = queue;
    /** @type {WebSocket|null} */
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.fresh = false;
    /** The room as the server last described it (its JSON, kept up to date by delta.js). @type {any} */
    this.raw = null;
    /** A full state was asked for (a gap in the versions). */
    this.syncing = false;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.turnTimer = undefined;
    /** @type {SocketStatus} */
    this.status = 'connecting';
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setInterval>|undefined} */
    this.pinger = undefined;
    this.onOnline = () => this.retryNow();
    // The browser knows the network is gone before the socket does: reconnect from scratch.
    this.onOffline = () => {
      if (this.ws) this.ws.close();
    };
    window.addEventListener('offline', this.onOffline);
    /** when the server was last heard from */
    this.lastHeard = Date.now();
    this.onVisible = () => {
      if (document.visibilityState === 'visible') this.retryNow();
    };
    window.addEventListener('online', this.onOnline);
    document.addEventListener('visibilitychange', this.onVisible);
    this.connect();
  }

  /** @param {number} v */
  seen(v) {
    if (v > this.version) this.version = v;
  }

  connect() {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const url = `${proto}//${location.host}/ws/rooms/${this.code}?since=${this.version}`;
    let ws;
    try {
      ws = new WebSocket(url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    const openTimeout = setTimeout(() => {
      if (ws.readyState !== WebSocket.OPEN) ws.close();
    }, 6000);
    ws.onopen = () => {
      clearTimeout(openTimeout);
      this.raw = null;
      this.syncing = false;
      this.attempt = 0;
      this.fresh = true;
      this.setStatus('open');
      for (const a of this.queue) this.sendRaw(a);
      this.lastHeard = Date.now();
      clearInterval(this.pinger);
      // Heartbeat: a ping every 15 s; a socket that stays silent for 40 s is dead (a network that
      // vanished without closing it) and is replaced.
      this.pinger = setInterval(() => {
        if (Date.now() - this.lastHeard > 40000) ws.close();
        else this.sendRaw({ type: 'ping' });
      }, 15000);
    };
    ws.onmessage = (e) => this.receive(e.data);
    ws.onclose = (e) => {
      clearTimeout(openTimeout);
      clearInterval(this.pinger);
      if (this.ws === ws) this.ws = null;
      if (!this.closed) this.scheduleReconnect(e.code === 1012);
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  /** @param {any} data */
  receive(data) {
    this.lastHeard = Date.now();
    let msg;
    try {
      msg = JSON.parse(String(data));
    } catch {
      return;
    }
    switch (msg.type) {
      case 'state':
      case 'delta':
      case 'turn':
      case 'presence':
        this.follow(msg);
        break;
      case 'event':
        if (typeof msg.version === 'number') this.seen(msg.version);
        break;
      case 'phrase':
        if (this.h.onPhrase) this.h.onPhrase(msg.seat, msg.phrase);
        break;
      case 'ack':
        this.dequeue(msg.id);
        if (this.h.onAck) this.h.onAck(msg.id, !!msg.applied);
        break;
      case 'error':
        if (msg.id) this.dequeue(msg.id);
        this.h.onError({ code: msg.code, message: msg.message, field: msg.field ?? null, detail: msg.detail ?? null }, msg.id ?? null);
        break;
      default:
        break;
    }
  }

  /**
   * Keeps the room (the server's JSON) up to date from a `state`, `delta`, `turn` or `presence`
   * (delta.js) and hands it on. A gap in the versions asks the server for a full state; a change
   * that makes it this seat's turn is handed on with its legal moves, which come right after it.
   * @param {any} msg
   */
  follow(msg) {
    const d = this.h.deltas;
    if (msg.type === 'state') {
      this.syncing = false;
      if (typeof msg.version === 'number') this.seen(msg.version);
      if (!msg.room) return;
      this.raw = msg.room;
      this.seen(msg.room.version);
      // The first state of a new connection is the truth, even if its version went down
      // (a server restored from an older snapshot).
      this.h.onRoom(normalizeRoom(msg.room), this.fresh);
      this.fresh = false;
      return;
    }
    const next = d.apply(this.raw, msg);
    if (next === null) {
      if (!this.syncing) this.sendRaw({ type: 'sync' });
      this.syncing = true;
      return;
    }
    if (next === this.raw) return;
    this.raw = next;
    if (msg.type === 'presence') {
      if (this.h.onPresence) this.h.onPresence(msg.seat, !!msg.online);
      return;
    }
    this.seen(next.version);
    clearTimeout(this.turnTimer);
    if (d.awaitsTurn(next)) {
      // Its legal moves follow at once; should they not, ask for the whole state.
      this.turnTimer = setTimeout(() => this.sendRaw({ type: 'sync' }), 3000);
      return;
    }
    this.h.onRoom(normalizeRoom(next));
  }

  /** @param {string} id */
  dequeue(id) {
    this.queue = this.queue.filter((a) => a.id !== id);
  }

  /** @param {SocketStatus} s */
  setStatus(s) {
    this.status = s;
    this.h.onStatus(s, this.attempt);
  }

  /**
   * @param {boolean} [restarting] the server closed the socket as it restarts (1012, a deploy):
   * another node takes the socket at once, so the first attempt comes within 50–300 ms, spread
   * so that the sockets of a whole node do not all arrive in the same millisecond.
   */
  scheduleReconnect(restarting = false) {
    if (this.closed) return;
    this.attempt++;
    this.setStatus('reconnecting');
    const delay = restarting && this.attempt === 1
      ? 50 + Math.random() * 250
      : Math.min(500 * 2 ** (this.attempt - 1), 10000) * (0.8 + Math.random() * 0.4);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
    // While the socket is down, the state still comes over HTTP, and queued actions go there too.
    this.refreshOverHttp();
  }

  async refreshOverHttp() {
    try {
      const room = await api.getRoom(this.code);
      if (this.closed || this.status === 'open') return;
      this.seen(room.version);
      this.h.onRoom(room);
      await this.flushOverHttp();
    } catch (e) {
      // A deleted room will not come back; anything else: the next attempt will tell.
      if (e instanceof ApiError && e.code === 'unknown_room') this.h.onError(e, null);
    }
  }

  async flushOverHttp() {
    for (const a of [...this.queue]) {
      if (this.status === 'open' || this.closed) return;
      if (a.type !== 'move') continue;
      try {
        const res = await api.move(this.code, a.id, a.move);
        this.dequeue(a.id);
        if (res && res.room) this.h.onRoom(res.room);
      } catch (e) {
        if (e instanceof ApiError && e.status > 0) {
          this.dequeue(a.id);
          this.h.onError(e, a.id);
        }
        return;
      }
    }
  }

  retryNow() {
    if (this.closed || this.status === 'open') return;
    clearTimeout(this.timer);
    this.attempt = 0;
    if (this.ws) this.ws.close();
    else this.connect();
  }

  /** Sends an action now if connected, and keeps it queued until acknowledged. @param {Omit<Action,'id'> & {id?: string}} action */
  send(action) {
    const a = /** @type {Action} */ ({ ...action, id: action.id || cryptoId() });
    this.queue.push(a);
    if (this.status === 'open') this.sendRaw(a);
    else this.refreshOverHttp();
    return a.id;
  }

  /** @param {any} msg */
  sendRaw(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.turnTimer);
    clearInterval(this.pinger);
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
    document.removeEventListener('visibilitychange', this.onVisible);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}

function cryptoId() {
  const a = new Uint8Array(8);
  crypto.getRandomValues(a);
  return 'a-' + Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}
