// @ts-check
/**
 * The room as the server sends it (docs/protocol.md, "WebSocket"), kept up to date from its
 * messages: a full `state` replaces it; a `delta` (a change's events and the part of the room that
 * is the same for everyone) is applied to it, the `move` events appended to the move list; a
 * `turn` gives the seat to move its legal moves; `presence` flips a seat's `online`. Pure
 * functions on the server's JSON (`play`, not `game_view`: api.js `normalizeRoom` comes after),
 * loaded with the room screen, and run as they are by the server's property test under node
 * (crates/server/tests/wire.rs).
 */

/**
 * The room after `msg`, or `null` when the client cannot follow (a gap in the versions, or no
 * state yet): it must ask for a full state (`{"type":"sync"}`). A message older than the room
 * leaves it as it is.
 * @param {any} room the last room (server JSON), or null before the first state
 * @param {any} msg a server message
 * @returns {any}
 */
export function apply(room, msg) {
  switch (msg.type) {
    case 'state':
      return msg.room;
    case 'delta':
      return applyDelta(room, msg);
    case 'turn':
      return applyTurn(room, msg);
    case 'presence':
      return applyPresence(room, msg);
    default:
      return room;
  }
}

/** @param {any} room @param {any} msg @returns {any} */
export function applyDelta(room, msg) {
  if (!room) return null;
  if (msg.version <= room.version) return room;
  const events = Array.isArray(msg.events) ? msg.events : [];
  if (!events.length || events[0].version !== room.version + 1) return null;
  const shared = msg.room;
  let moves = room.play ? room.play.moves : [];
  for (const { event } of events) {
    if (event.kind === 'started') moves = [];
    else if (event.kind === 'move') {
      const { kind: _kind, ...record } = event;
      moves = [...moves, record];
    }
  }
  const next = { ...room, version: msg.version, status: shared.status, game_no: shared.game_no, seats: shared.seats };
  if (shared.settings) next.settings = shared.settings;
  // The legal moves come in their own `turn` message, to the seat to move only.
  next.play = shared.play ? { ...shared.play, moves, legal_moves: [] } : null;
  return next;
}

/** @param {any} room @param {any} msg @returns {any} */
export function applyTurn(room, msg) {
  if (!room || !room.play || msg.version !== room.version) return room;
  return { ...room, play: { ...room.play, legal_moves: msg.legal_moves } };
}

/** @param {any} room @param {any} msg @returns {any} */
export function applyPresence(room, msg) {
  if (!room || !room.seats[msg.seat]) return room;
  return { ...room, seats: room.seats.map((/** @type {any} */ s, /** @type {number} */ i) => (i === msg.seat ? { ...s, online: msg.online } : s)) };
}

/**
 * Whether a `turn` is still to come for `room`: it is the turn of the seat this connection
 * speaks for (the server sends its legal moves right after).
 * @param {any} room @returns {boolean}
 */
export function awaitsTurn(room) {
  return !!room && room.status === 'playing' && !!room.play && room.you !== null && room.play.to_move === room.you && room.play.legal_moves.length === 0;
}
