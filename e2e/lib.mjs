// Shared helpers of the browser tests: server process, Chromium, screenshots, small assertions.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { checkpoint } from './axe.mjs';

export const E2E_DIR = dirname(fileURLToPath(import.meta.url));
export const SHOTS = resolve(E2E_DIR, '../test-output/screenshots');

/** Server processes alive: killed however this process ends, so that none is ever left behind. */
const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/** The `dames` binary: DAMES_BIN, or the one `cargo build --profile e2e -p dames` just built
 * (it honours CARGO_TARGET_DIR too). */
export function serverBin() {
  const target = process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : resolve(E2E_DIR, '../target');
  return process.env.DAMES_BIN ? resolve(E2E_DIR, process.env.DAMES_BIN) : join(target, 'e2e', 'dames');
}

/**
 * Starts `dames serve` on a random port with a fresh database; resolves with its base URL.
 * DAMES_URL skips this and uses a server already running (development), unless `args` asks for
 * options of its own (e.g. short pool clocks): such a server is always started here.
 * @param {{args?: string[]}} [opts]
 */
export async function startServer({ args = [] } = {}) {
  if (process.env.DAMES_URL && !args.length) return { base: process.env.DAMES_URL.replace(/\/$/, ''), stop: async () => {}, restart: null };
  const bin = serverBin();
  const dir = mkdtempSync(join(tmpdir(), 'dames-e2e-'));
  const db = join(dir, 'dames.db');
  let child = null;
  const spawnServer = (addr) => new Promise((ok, fail) => {
    child = spawn(bin, ['serve', '--addr', addr, '--db', db, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' },
    });
    children.add(child);
    child.once('exit', () => children.delete(child));
    let out = '';
    let log = '';
    child.stderr.on('data', (d) => { log += d; if (process.env.E2E_SERVER_LOG) process.stderr.write(d); });
    const timer = setTimeout(() => fail(new Error(`server did not say "listening on" within 20 s:\n${out}\n${log}`)), 20000);
    const onExit = (code) => { clearTimeout(timer); fail(new Error(`server exited with ${code}:\n${out}\n${log}`)); };
    child.on('exit', onExit);
    child.on('error', (e) => { clearTimeout(timer); fail(e); });
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) { clearTimeout(timer); child.off('exit', onExit); ok(m[1].replace(/\/$/, '')); }
    });
  });
  const kill = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode) return;
    c.kill('SIGTERM');
    await new Promise((r) => { const t = setTimeout(() => { c.kill('SIGKILL'); r(); }, 3000); c.once('exit', () => { clearTimeout(t); r(); }); });
  };
  const base = await spawnServer('127.0.0.1:0');
  return {
    base,
    /** Stops the server, runs `during` while it is down, starts it again (same port and database). */
    restart: async (during) => {
      await kill();
      if (during) await during();
      await spawnServer(new URL(base).host);
    },
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * A fresh browser context (its own cookies: a different person) with a remembered name and a
 * short CPU think time for the games it creates.
 * @param {import('playwright-core').Browser} browser
 */
export async function newPerson(browser, { name = 'Ana', lang = null, phone = false, laptop = false, cpuMs = 200, userAgent = undefined } = {}) {
  const ctx = await browser.newContext({
    ...(phone
      ? { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }
      : { viewport: laptop ? { width: 1366, height: 768 } : { width: 1280, height: 860 } }),
    ...(userAgent ? { userAgent } : {}),
  });
  await ctx.addInitScript(([n, l, ms]) => {
    if (n && !localStorage.getItem('dames.name')) localStorage.setItem('dames.name', n);
    if (l && !localStorage.getItem('dames.lang')) localStorage.setItem('dames.lang', l);
    if (ms) localStorage.setItem('dames.cpu_ms', String(ms));
  }, [name, lang, cpuMs]);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.errors = errors;
  page.setDefaultTimeout(15000);
  return { ctx, page };
}

/** Saves a screenshot of `page`; axe-core checks the state it shows first (a test's checkpoint). */
export async function shot(page, name, opts = {}) {
  await checkpoint(page, `before the screenshot ${name}`);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), ...opts });
}

/**
 * Fails unless every element matched by each selector lies wholly inside the viewport (the page
 * scrolled to its top): what must be seen without scrolling. `where` names the screen.
 */
export async function inFirstScreen(page, selectors, where) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const vp = page.viewportSize();
  for (const sel of selectors) {
    // Polled a little: a live screen may be drawing itself again at that moment.
    let bad = null;
    for (let i = 0; i < 20; i++) {
      const boxes = await page.locator(sel).evaluateAll((els) => els.map((e) => {
        const r = e.getBoundingClientRect();
        return { top: r.top + window.scrollY, left: r.left, bottom: r.bottom + window.scrollY, right: r.right, w: r.width, attached: e.isConnected };
      }));
      bad = boxes.length ? boxes.find((b) => !(b.w > 0 && b.top >= 0 && b.left >= 0 && b.bottom <= vp.height && b.right <= vp.width)) : 'none';
      if (!bad) break;
      await new Promise((r) => setTimeout(r, 150));
    }
    assert(bad !== 'none', `${where}: ${sel} is on the page`);
    assert(!bad, `${where} (${vp.width}×${vp.height}): ${sel} inside the first screen (${JSON.stringify(bad)})`);
  }
}

export function assert(cond, message) {
  if (!cond) throw new Error('assertion failed: ' + message);
}

export function equal(actual, expected, message) {
  if (actual !== expected) throw new Error(`${message}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** Polls `f` until it returns a truthy value. */
export async function until(f, message, timeout = 15000) {
  const end = Date.now() + timeout;
  let last;
  while (Date.now() < end) {
    last = await f();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out: ${message} (last: ${JSON.stringify(last)})`);
}

/** Number of moves in the move list of a game page. */
/** Of two players' pages, the one whose player is to move (once one is). */
export async function toMove(a, b) {
  return until(async () => {
    if (await a.locator('.status.mine').count()) return a;
    if (await b.locator('.status.mine').count()) return b;
    return null;
  }, 'someone to move');
}

export async function moveCount(page) {
  return page.locator('[data-testid=moves] li[data-seat]').count();
}

/**
 * Plays one legal move by clicking (or tapping) a movable piece and then a highlighted
 * destination; picks the path of an ambiguous capture by its intermediate squares; confirms
 * with ✓ when the room asks for it. Returns the cells moved from and to.
 */
export async function playAnyMove(page, { tap = false, pick = 0 } = {}) {
  const press = (loc) => (tap ? loc.tap() : loc.click());
  await page.locator('svg.board .piece.movable').first().waitFor();
  const pieces = page.locator('svg.board .piece.movable');
  const n = await pieces.count();
  const piece = pieces.nth(pick % n);
  const from = await piece.getAttribute('data-cell');
  await press(piece);
  const dests = page.locator('svg.board .dest:not(.choose)');
  await dests.first().waitFor();
  const dest = dests.last();
  const to = await dest.getAttribute('data-dest');
  await press(dest);
  for (let i = 0; i < 10 && (await page.locator('svg.board .dest.choose').count()); i++) {
    await press(page.locator('svg.board .dest.choose').first());
  }
  const confirm = page.locator('[data-action=confirm]');
  if (await confirm.isVisible()) await press(confirm);
  return { from, to };
}

/** Plays `n` moves (tapped) against the CPU, waiting for each answer, until it is our turn again. */
export async function playAgainstCpu(page, n) {
  for (let i = 0; i < n; i++) {
    await page.locator('.status.mine').waitFor();
    const before = await moveCount(page);
    await playAnyMove(page, { tap: true });
    await until(async () => (await moveCount(page)) >= before + 2, 'the CPU answered', 20000);
  }
  await page.locator('.status.mine').waitFor();
}

/** Resigns (confirming) and waits for the result panel. */
export async function resign(page) {
  await page.click('[data-action=resign]');
  await page.locator('dialog [data-value=yes]').click();
  await page.locator('[data-testid=result] h2').waitFor();
}

/** The position the replay control shows (0 is the start). */
export async function replayIndex(page) {
  return Number(await page.locator('[data-testid=replay]').getAttribute('data-index'));
}

/** The room code shown in a lobby. */
export async function roomCode(page) {
  const code = (await page.locator('[data-testid=room-code]').textContent()).trim();
  assert(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/.test(code), `room code looks right (${code})`);
  return code;
}

/**
 * Ana creates a draughts room at `base` and Bo joins it through its link; Ana starts. `agents`:
 * their browsers' user agents (a proxy's log tells them apart).
 */
export async function draughtsPair(browser, base, track, { phone = false, agents = [undefined, undefined] } = {}) {
  const ana = await newPerson(browser, { name: 'Ana', phone, userAgent: agents[0] });
  const bo = await newPerson(browser, { name: 'Bo', phone, userAgent: agents[1] });
  track(ana.ctx);
  track(bo.ctx);
  await ana.page.goto(base + '/');
  await ana.page.click('[data-action=friends-draughts]');
  await ana.page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = await roomCode(ana.page);
  await bo.page.goto(`${base}/r/${code}`);
  await bo.page.locator('[data-action=join]').click();
  await bo.page.locator('.seat.mine').waitFor();
  // The host sees the guest sit down live.
  await ana.page.locator('.seat[data-seat="1"]', { hasText: 'Bo' }).waitFor();
  await ana.page.click('[data-action=start]');
  await ana.page.locator('svg.board-draughts').waitFor();
  await bo.page.locator('svg.board-draughts').waitFor();
  return { ana: ana.page, bo: bo.page, code, anaCtx: ana.ctx };
}
