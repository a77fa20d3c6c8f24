// Two nodes behind nginx (issue 13, docs/cluster.md): the test starts its own cluster — a scratch
// PostgreSQL database, a Redis key prefix, two `dames serve` nodes and nginx run with
// deploy/nginx/dames.conf (only its addresses, port and log path changed) — and two people play a
// live draughts game through nginx while their WebSockets are on different nodes. nginx spreads
// connections round-robin, so which node a socket lands on is not chosen: the guest's page is
// reloaded between moves (a new socket each time, one more request through nginx every other
// round) until the access log, which records each closed WebSocket with its node, shows the
// guest's sockets on both nodes; the host's one socket stays
// open all along, so some of the moves crossed from one node to the other.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { E2E_DIR, assert, draughtsPair, equal, moveCount, playAnyMove, serverBin, toMove, until } from '../lib.mjs';

const PG = ['-h', '127.0.0.1', '-U', 'postgres'];
const REDIS = process.env.DAMES_TEST_REDIS || 'redis://127.0.0.1:6379';

/** A free TCP port on 127.0.0.1 (nginx needs one written in its configuration). */
const freePort = () => new Promise((ok, fail) => {
  const s = createServer();
  s.once('error', fail);
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => ok(port)); });
});

/** Spawns `cmd args`; resolves with the process once `ready(stdout)` returns an address. */
function start(cmd, args, ready = null) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let log = '';
  child.stderr.on('data', (d) => { log += d; });
  if (!ready) return Promise.resolve({ child, addr: null });
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${cmd} did not start within 20 s:\n${out}\n${log}`)), 20000);
    child.once('exit', (code) => { clearTimeout(timer); fail(new Error(`${cmd} exited with ${code}:\n${log}`)); });
    child.stdout.on('data', (d) => {
      out += d;
      const addr = ready(out);
      if (addr) { clearTimeout(timer); child.removeAllListeners('exit'); ok({ child, addr }); }
    });
  });
}

/** deploy/nginx/dames.conf in front of `nodes`, listening on `port`, logging to `log`. */
function siteConf(nodes, port, log) {
  let conf = readFileSync(resolve(E2E_DIR, '../deploy/nginx/dames.conf'), 'utf8');
  const swap = (from, to) => {
    equal(conf.split(from).length, 2, `${from} once in dames.conf`);
    conf = conf.replace(from, to);
  };
  swap('server 127.0.0.1:8081 ', `server ${nodes[0]} `);
  swap('server 127.0.0.1:8082 ', `server ${nodes[1]} `);
  swap('listen 80;', `listen 127.0.0.1:${port};`);
  swap('/var/log/nginx/dames.access.log', log);
  return conf;
}

/** The WebSockets of room `code` that nginx logged (closed ones): user agent and node of each. */
function sockets(log, code) {
  let text = '';
  try { text = readFileSync(log, 'utf8'); } catch { return []; }
  const re = new RegExp(`"GET /ws/rooms/${code}[^"]*" 101 \\d+ "([^"]*)" [\\d.]+ upstream=(\\S+)`);
  return text.split('\n').map((l) => re.exec(l)).filter(Boolean).map((m) => ({ agent: m[1], node: m[2] }));
}

test('two nodes behind nginx: a live game whose players are on different nodes', async ({ browser, track }) => {
  const dir = mkdtempSync(join(tmpdir(), 'dames-e2e-cluster-'));
  const db = `dames_e2e_${process.pid}_${Date.now().toString(36)}`;
  const prefix = `dames-e2e:${db}:`;
  const procs = [];
  execFileSync('createdb', [...PG, db]);
  try {
    const url = `postgres://postgres@127.0.0.1:5432/${db}`;
    for (let i = 0; i < 2; i++) {
      procs.push(await start(serverBin(), ['serve', '--addr', '127.0.0.1:0', '--database', url,
        '--redis', REDIS, '--redis-prefix', prefix, '--trusted-proxy', '127.0.0.1', '--log', 'warn'],
      (out) => /listening on http:\/\/(\S+)/.exec(out)?.[1]));
    }
    const nodes = procs.map((p) => p.addr);
    const port = await freePort();
    const log = join(dir, 'access.log');
    writeFileSync(join(dir, 'dames.conf'), siteConf(nodes, port, log));
    writeFileSync(join(dir, 'nginx.conf'), [
      'user root;', 'worker_processes 1;', `pid ${dir}/nginx.pid;`, `error_log ${dir}/error.log warn;`,
      'events { worker_connections 256; }',
      `http { client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi;`,
      `  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi; access_log off; include ${dir}/dames.conf; }`,
    ].join('\n'));
    const nginx = existsNginx();
    procs.push(await start(nginx, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;']));
    const base = `http://127.0.0.1:${port}`;
    await until(async () => (await fetch(base + '/ready').catch(() => null))?.ok, 'nginx and the nodes ready', 20000);

    // The guest's user agent tells its sockets apart in nginx's log.
    const { ana: a, bo: b, code, anaCtx } = await draughtsPair(browser, base, track, { agents: ['dames-e2e-host', 'dames-e2e-guest'] });

    // Two moves live per round, then the guest's page is reloaded: a new socket, maybe another node.
    let moves = 0;
    let round = 0;
    const guestNodes = () => new Set(sockets(log, code).filter((s) => s.agent === 'dames-e2e-guest').map((s) => s.node));
    while (guestNodes().size < 2 || round < 2) {
      assert(round < 12, `the guest's sockets never reached both nodes: ${JSON.stringify(sockets(log, code))}`);
      for (let i = 0; i < 2; i++) {
        const mover = await toMove(a, b);
        const other = mover === a ? b : a;
        await playAnyMove(mover);
        moves++;
        await until(async () => (await moveCount(other)) === moves, `the other sees move ${moves} live`);
        await until(async () => (await moveCount(mover)) === moves, `the mover sees move ${moves}`);
      }
      // A reload makes about the same number of requests each time; round-robin could then put
      // every new socket on the same node. One more request through nginx every other round
      // shifts the turn.
      if (round % 2 === 1 && guestNodes().size < 2) await fetch(base + '/ready');
      await b.reload();
      await b.locator('svg.board-draughts').waitFor();
      await until(async () => (await moveCount(b)) === moves, 'the reloaded page has every move');
      round++;
      await until(async () => sockets(log, code).filter((s) => s.agent === 'dames-e2e-guest').length >= round, 'the closed socket logged');
    }
    // The host's page kept its one socket (on one node) all along.
    await anaCtx.close();
    const hostSockets = await until(() => {
      const s = sockets(log, code).filter((x) => x.agent === 'dames-e2e-host');
      return s.length ? s : null;
    }, 'the host socket logged');
    equal(hostSockets.length, 1, 'the host never reconnected');
    assert(nodes.includes(hostSockets[0].node), `the host was on a node: ${hostSockets[0].node}`);
    assert([...guestNodes()].some((n) => n !== hostSockets[0].node), 'the guest was on the other node for some rounds');
  } finally {
    for (const p of procs.reverse()) {
      p.child.kill('SIGTERM');
      await new Promise((r) => { const t = setTimeout(() => { p.child.kill('SIGKILL'); r(); }, 5000); p.child.once('exit', () => { clearTimeout(t); r(); }); if (p.child.exitCode !== null) r(); });
    }
    try { execFileSync('dropdb', [...PG, '--force', db]); } catch { /* already gone */ }
    try {
      const keys = execFileSync('redis-cli', ['--scan', '--pattern', `${prefix}*`], { encoding: 'utf8' }).split('\n').filter(Boolean);
      if (keys.length) execFileSync('redis-cli', ['del', ...keys]);
    } catch { /* no redis-cli: the keys expire or stay under their own prefix */ }
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Debian's nginx (./scripts/test installs it when missing). */
function existsNginx() {
  const found = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
  if (found) return found;
  throw new Error('nginx is not installed (apt-get install -y nginx)');
}
