// A development stand-in for the dames server: serves web/ and speaks docs/protocol.md with toy
// rules (Chinese checkers steps and jump chains; draughts steps and single captures) and a CPU
// that plays a random move. Only for looking at the client before the real server exists:
// the browser tests run against the real server. Usage: node dev/mock-server.mjs [port]
import { createServer } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const ALPHA = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };
const rooms = new Map();

// ---- Chinese checkers toy rules
const key = (c) => c.join(',');
const holes = [];
for (let x = -8; x <= 8; x++) for (let y = -8; y <= 8; y++) {
  const z = -x - y;
  if (z < -8 || z > 8) continue;
  if ((x <= 4 && y <= 4 && z <= 4) || (x >= -4 && y >= -4 && z >= -4)) holes.push([x, y, z]);
}
const onBoard = new Set(holes.map(key));
const campOf = ([x, y, z]) => (z < -4 ? 0 : x > 4 ? 1 : y < -4 ? 2 : z > 4 ? 3 : x < -4 ? 4 : y > 4 ? 5 : -1);
const DIRS = [[1, -1, 0], [1, 0, -1], [0, 1, -1], [-1, 1, 0], [-1, 0, 1], [0, -1, 1]];
const CAMPS = { 2: [0, 3], 3: [0, 2, 4], 4: [0, 1, 3, 4], 5: [0, 1, 2, 3, 4], 6: [0, 1, 2, 3, 4, 5] };
function ccMoves(pieces, seat) {
  const occ = new Map(pieces.map((p) => [key(p.at), p]));
  const out = [];
  for (const p of pieces.filter((q) => q.seat === seat)) {
    for (const d of DIRS) {
      const n = p.at.map((v, i) => v + d[i]);
      if (onBoard.has(key(n)) && !occ.has(key(n))) out.push({ from: p.at, to: n, path: [p.at, n] });
    }
    const seen = new Set([key(p.at)]);
    const stack = [[p.at]];
    while (stack.length) {
      const path = stack.pop();
      const cur = path[path.length - 1];
      for (const d of DIRS) {
        const over = cur.map((v, i) => v + d[i]);
        const land = cur.map((v, i) => v + 2 * d[i]);
        if (!occ.has(key(over)) || !onBoard.has(key(land)) || occ.has(key(land)) || seen.has(key(land))) continue;
        seen.add(key(land));
        const np = [...path, land];
        out.push({ from: p.at, to: land, path: np });
        stack.push(np);
      }
    }
  }
  return out;
}
function ccStart(players) {
  const camps = CAMPS[players];
  const pieces = [];
  camps.forEach((c, seat) => holes.filter((h) => campOf(h) === c).forEach((h) => pieces.push({ seat, at: h, king: false })));
  return { pieces, inert: [] };
}

// ---- Draughts toy rules (men only, single captures)
function drSquares(size) {
  const half = size / 2, out = [];
  for (let s = 1; s <= (size * size) / 2; s++) { const i = s - 1, r = Math.floor(i / half), k = i % half; out.push({ s, r, c: r % 2 === 0 ? 2 * k + 1 : 2 * k }); }
  return out;
}
function drStart(size) {
  const rows = size / 2 - 1;
  return drSquares(size).flatMap(({ s, r }) => (r < rows ? [{ square: s, color: 'black', king: false }] : r >= size - rows ? [{ square: s, color: 'white', king: false }] : []));
}
function drMoves(size, pieces, color) {
  const sq = drSquares(size);
  const at = (r, c) => sq.find((x) => x.r === r && x.c === c);
  const occ = new Map(pieces.map((p) => [p.square, p]));
  const caps = [], steps = [];
  for (const p of pieces.filter((q) => q.color === color)) {
    const { r, c } = sq[p.square - 1];
    const fwd = color === 'white' ? -1 : 1;
    for (const dr of [-1, 1]) for (const dc of [-1, 1]) {
      const a = at(r + dr, c + dc), b = at(r + 2 * dr, c + 2 * dc);
      if (a && b && occ.has(a.s) && occ.get(a.s).color !== color && !occ.has(b.s)) caps.push({ from: p.square, to: b.s, path: [p.square, b.s], captures: [a.s], notation: `${p.square}x${b.s}` });
      if (dr === fwd && a && !occ.has(a.s)) steps.push({ from: p.square, to: a.s, path: [p.square, a.s], captures: [], notation: `${p.square}-${a.s}` });
    }
  }
  return caps.length ? caps : steps;
}

// ---- Rooms
function newRoom(game, settings) {
  let code = '';
  for (let i = 0; i < 6; i++) code += ALPHA[Math.floor(Math.random() * ALPHA.length)];
  const rules = game === 'cc'
    ? { players: 2, sets: 1, pieces: 10, rule_set: 'international', unused_camps: 'empty', anti_blocking: true, play_to_the_end: true, move_limit: 200, stagnation_rounds: 30, allow_five_players: true, rotate_first_player: true, random_first_player: false, no_resting_in_foreign_camps: false, forced_exit: false, no_leaving_destination: false, swap_rule: false, long_jumps: false, ...(settings?.rules || {}) }
    : { variant: 'international', three_vs_king_moves: 16, ...(settings?.rules || {}) };
  const room = { code, game, version: 1, status: 'lobby', settings: { show_legal_moves: true, rotate_first: true, random_first: false, confirm_move: false, cpu_ms: 1000, ...(settings || {}), rules }, seats: [], game_no: 0, g: null, sockets: new Set(), ids: new Set() };
  resize(room);
  rooms.set(code, room);
  return room;
}
function resize(room) {
  const n = room.game === 'cc' ? room.settings.rules.players : 2;
  while (room.seats.length < n) room.seats.push({ kind: 'empty', name: null, level: null, token: null, online: false, ready: false });
  room.seats.length = n;
}
function view(room, client) {
  const you = room.seats.findIndex((s) => s.token && client.cookies[`dames_seat_${room.code}`] === s.token);
  const n = room.seats.length;
  const size = { international: 10, brazilian: 8, canadian: 12 }[room.settings.rules.variant] || 10;
  return {
    code: room.code, game: room.game, version: room.version, status: room.status, you: you < 0 ? null : you, host: you === 0,
    settings: room.settings, game_no: room.game_no,
    seats: room.seats.map((s, i) => ({ seat: i, kind: s.kind, name: s.name, level: s.level, online: s.kind === 'cpu' || s.online, ready: s.kind === 'cpu' || s.ready,
      ...(room.game === 'cc' ? { camps: [CAMPS[n][i]] } : { color: i === 0 ? 'white' : 'black' }) })),
    play: room.g && {
      to_move: room.g.to_move, moves: room.g.moves, draw_offer: room.g.draw_offer ?? null, outcome: room.g.outcome,
      board: room.game === 'cc' ? { pieces: room.g.pieces, inert: [] } : { size, fen: '', pieces: room.g.pieces },
      legal_moves: room.g.to_move !== null && room.g.to_move === you ? legal(room) : [],
    },
  };
}
function legal(room) {
  const g = room.g;
  const size = { international: 10, brazilian: 8, canadian: 12 }[room.settings.rules.variant] || 10;
  return room.game === 'cc' ? ccMoves(g.pieces, g.to_move) : drMoves(size, g.pieces, g.to_move === 0 ? 'white' : 'black');
}
function start(room) {
  room.status = 'playing';
  room.game_no++;
  const size = { international: 10, brazilian: 8, canadian: 12 }[room.settings.rules.variant] || 10;
  room.g = { to_move: room.settings.rotate_first ? (room.game_no - 1) % room.seats.length : 0, moves: [], outcome: null, draw_offer: null,
    pieces: room.game === 'cc' ? ccStart(room.seats.length).pieces : drStart(size) };
  for (const s of room.seats) s.ready = false;
  changed(room);
}
function play(room, seat, m) {
  const g = room.g;
  if (room.game === 'cc') {
    const p = g.pieces.find((q) => key(q.at) === key(m.from));
    p.at = m.to;
  } else {
    g.pieces = g.pieces.filter((q) => !(m.captures || []).includes(q.square));
    const p = g.pieces.find((q) => q.square === m.from);
    p.square = m.to;
  }
  g.moves.push({ seat, move: m, passes: [], finished: [] });
  g.to_move = (seat + 1) % room.seats.length;
  g.draw_offer = null;
  if (!legal(room).length) finish(room, room.seats.map((_, i) => (i === seat ? 1 : 2)), 'win');
  changed(room);
}
function finish(room, places, kind) {
  room.g.outcome = { kind, reason: kind, places };
  room.g.to_move = null;
  room.status = 'finished';
}
function changed(room) {
  room.version++;
  for (const ws of room.sockets) ws.sendJson({ type: 'state', version: room.version, room: view(room, ws.client) });
  const g = room.g;
  if (room.status === 'playing' && g && g.to_move !== null && room.seats[g.to_move].kind === 'cpu') {
    const v = room.version;
    setTimeout(() => {
      if (room.version !== v) return;
      const ms = legal(room);
      play(room, g.to_move, ms[Math.floor(Math.random() * ms.length)]);
    }, Math.min(room.settings.cpu_ms, 1500));
  }
}

// ---- HTTP
const err = (res, status, code, message) => json(res, status, { error: { code, message } });
function json(res, status, body, cookies = []) {
  res.writeHead(status, { 'content-type': 'application/json', 'set-cookie': cookies });
  res.end(JSON.stringify(body));
}
function parseCookies(h = '') { return Object.fromEntries(h.split(/;\s*/).filter(Boolean).map((kv) => { const i = kv.indexOf('='); return [kv.slice(0, i), kv.slice(i + 1)]; })); }
async function body(req) { let s = ''; for await (const c of req) s += c; return s ? JSON.parse(s) : {}; }

async function api(req, res, client) {
  const url = new URL(req.url, 'http://x');
  const parts = url.pathname.split('/').filter(Boolean).slice(1); // after 'api'
  const b = req.method === 'POST' ? await body(req) : {};
  if (parts[0] !== 'rooms') return err(res, 404, 'unknown_room', 'no');
  if (parts.length === 1 && req.method === 'POST') {
    const room = newRoom(b.game, b.settings);
    const token = randomBytes(16).toString('hex');
    Object.assign(room.seats[0], { kind: 'human', name: b.name, token, online: true });
    client.cookies[`dames_seat_${room.code}`] = token;
    if (b.cpu) { for (const s of room.seats.slice(1)) Object.assign(s, { kind: 'cpu', level: b.cpu.level, name: null }); start(room); }
    return json(res, 201, { code: room.code, seat: 0, token, room: view(room, client) }, [`dames_seat_${room.code}=${token}; Path=/; HttpOnly`]);
  }
  const room = rooms.get((parts[1] || '').toUpperCase());
  if (!room) return err(res, 404, 'unknown_room', 'No such room.');
  const you = room.seats.findIndex((s) => s.token && client.cookies[`dames_seat_${room.code}`] === s.token);
  const act = parts[2];
  if (!act && req.method === 'GET') return json(res, 200, view(room, client));
  if (act === 'qr.svg') { res.writeHead(200, { 'content-type': 'image/svg+xml' }); return res.end('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 21 21"><rect width="21" height="21" fill="#fff"/><rect x="1" y="1" width="7" height="7"/><rect x="13" y="1" width="7" height="7"/><rect x="1" y="13" width="7" height="7"/><rect x="10" y="10" width="2" height="2"/></svg>'); }
  if (act === 'join') {
    if (you >= 0) return json(res, 200, { seat: you, token: room.seats[you].token, room: view(room, client) });
    const i = b.seat ?? room.seats.findIndex((s) => s.kind === 'empty');
    if (i < 0) return err(res, 409, 'room_full', 'Room full.');
    const token = randomBytes(16).toString('hex');
    Object.assign(room.seats[i], { kind: 'human', name: b.name, token, online: true });
    client.cookies[`dames_seat_${room.code}`] = token;
    changed(room);
    return json(res, 200, { seat: i, token, room: view(room, client) }, [`dames_seat_${room.code}=${token}; Path=/; HttpOnly`]);
  }
  if (act === 'settings') { room.settings = { ...room.settings, ...b, rules: { ...room.settings.rules, ...(b.rules || {}) } }; resize(room); changed(room); return json(res, 200, view(room, client)); }
  if (act === 'seats') { const s = room.seats[Number(parts[3])]; if (b.kick || b.cpu === null) Object.assign(s, { kind: 'empty', name: null, level: null, token: null }); else Object.assign(s, { kind: 'cpu', level: b.cpu }); changed(room); return json(res, 200, view(room, client)); }
  if (act === 'start') { if (room.seats.some((s) => s.kind === 'empty')) return err(res, 409, 'not_enough_players', 'Seats empty.'); start(room); return json(res, 200, view(room, client)); }
  if (act === 'resign') { finish(room, room.seats.map((_, i) => (i === you ? 2 : 1)), 'win'); changed(room); return json(res, 200, view(room, client)); }
  if (act === 'draw') { if (b.action === 'offer') room.g.draw_offer = you; else if (b.action === 'accept') finish(room, room.seats.map(() => 1), 'draw'); else room.g.draw_offer = null; changed(room); return json(res, 200, view(room, client)); }
  if (act === 'rematch') { room.seats[you].ready = b.ready; if (room.seats.every((s) => s.kind !== 'human' || s.ready)) start(room); else changed(room); return json(res, 200, view(room, client)); }
  if (act === 'move') { const r = wsMove(room, you, b.id, b.move); if (r) return err(res, 409, r, r); return json(res, 200, { applied: true, room: view(room, client) }); }
  return err(res, 404, 'unknown_room', 'no');
}
function wsMove(room, you, id, input) {
  if (id && room.ids.has(id)) return null;
  if (!room.g || room.g.to_move !== you) return 'not_your_turn';
  const ms = legal(room);
  const m = room.game === 'cc' ? ms.find((x) => key(x.from) === key(input.from) && key(x.to) === key(input.to)) : ms.find((x) => x.notation === input.notation);
  if (!m) return 'illegal_move';
  if (id) room.ids.add(id);
  play(room, you, m);
  return null;
}

const clients = new Map();
function clientOf(req, res) {
  const c = parseCookies(req.headers.cookie);
  let id = c.dames_client;
  if (!id) { id = randomBytes(16).toString('hex'); res?.setHeader('set-cookie', `dames_client=${id}; Path=/; HttpOnly`); }
  if (!clients.has(id)) clients.set(id, { cookies: {} });
  const cl = clients.get(id);
  Object.assign(cl.cookies, c);
  return cl;
}

const server = createServer(async (req, res) => {
  try {
    const client = clientOf(req, res);
    if (req.url.startsWith('/api/')) return await api(req, res, client);
    let p = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!extname(p)) p = '/index.html';
    const data = await readFile(join(WEB, p)).catch(() => null);
    if (!data) { res.writeHead(404); return res.end('not found'); }
    res.writeHead(200, { 'content-type': TYPES[extname(p)] || 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(data);
  } catch (e) { console.error(e); res.writeHead(500); res.end(); }
});

// ---- Minimal WebSocket (text frames only)
server.on('upgrade', (req, socket) => {
  const m = /^\/ws\/rooms\/([A-Z0-9]{6})/i.exec(req.url);
  const room = m && rooms.get(m[1].toUpperCase());
  if (!room) return socket.destroy();
  const accept = createHash('sha1').update(req.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  const ws = { client: clientOf(req, null), sendJson(o) {
    const data = Buffer.from(JSON.stringify(o));
    const head = data.length < 126 ? Buffer.from([0x81, data.length]) : data.length < 65536 ? Buffer.from([0x81, 126, data.length >> 8, data.length & 255]) : (() => { const b = Buffer.alloc(10); b[0] = 0x81; b[1] = 127; b.writeBigUInt64BE(BigInt(data.length), 2); return b; })();
    socket.write(Buffer.concat([head, data]));
  } };
  room.sockets.add(ws);
  const you = room.seats.findIndex((s) => s.token && ws.client.cookies[`dames_seat_${room.code}`] === s.token);
  if (you >= 0) { room.seats[you].online = true; }
  ws.sendJson({ type: 'state', version: room.version, room: view(room, ws.client) });
  let buf = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    while (buf.length >= 2) {
      const op = buf[0] & 15; let len = buf[1] & 127, off = 2;
      if (len === 126) { len = buf.readUInt16BE(2); off = 4; }
      if (buf.length < off + 4 + len) return;
      const mask = buf.subarray(off, off + 4); const data = Buffer.from(buf.subarray(off + 4, off + 4 + len));
      for (let i = 0; i < data.length; i++) data[i] ^= mask[i % 4];
      buf = buf.subarray(off + 4 + len);
      if (op === 8) return socket.end();
      if (op !== 1) continue;
      const msg = JSON.parse(data.toString());
      if (msg.type === 'ping') ws.sendJson({ type: 'pong' });
      if (msg.type === 'move') {
        const me = room.seats.findIndex((s) => s.token && ws.client.cookies[`dames_seat_${room.code}`] === s.token);
        const dup = msg.id && room.ids.has(msg.id);
        const e = wsMove(room, me, msg.id, msg.move);
        if (e) ws.sendJson({ type: 'error', id: msg.id, code: e, message: e }); else ws.sendJson({ type: 'ack', id: msg.id, applied: !dup });
      }
    }
  });
  const bye = () => { room.sockets.delete(ws); if (you >= 0) { room.seats[you].online = false; changed(room); } };
  socket.on('close', bye);
  socket.on('error', () => {});
});

server.listen(Number(process.argv[2] || 0), '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
