// The browser test suite: starts a real dames server (fresh database, random port), drives
// Debian's Chromium through playwright-core, saves screenshots under test-output/screenshots,
// prints "N passed, M failed" and exits non-zero on failure. Always stops the server.
// axe-core checks every page and state the tests reach (axe.mjs): a test fails with what it finds.
// Env: DAMES_BIN (server binary, default ../target/release/dames), DAMES_URL (use a running
// server instead), E2E_ONLY (substring filter on test names), E2E_SERVER_LOG=1, E2E_AXE=0 (no
// axe-core hook).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { E2E_DIR, launchBrowser, startServer } from './lib.mjs';
import { axeStats, beginTest, takeFindings, watchBrowser } from './axe.mjs';

const tests = [];
globalThis.test = (name, fn) => tests.push({ name, fn });
for (const f of readdirSync(join(E2E_DIR, 'tests')).filter((f) => f.endsWith('.test.mjs')).sort()) {
  await import(pathToFileURL(join(E2E_DIR, 'tests', f)).href);
}

let server = null;
let browser = null;
let passed = 0;
let failed = 0;
const stopAll = async () => {
  await browser?.close().catch(() => {});
  await server?.stop().catch(() => {});
};
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, async () => { await stopAll(); process.exit(130); });
// A stray rejection (a page event after its test ended…) is reported, not fatal.
process.on('unhandledRejection', (e) => console.log(`# unhandled rejection: ${e && e.message || e}`));

const started = Date.now();
try {
  server = await startServer();
  browser = await launchBrowser();
  console.log(`# server ${server.base}`);
  const only = process.env.E2E_ONLY;
  for (const t of tests) {
    if (only && !t.name.includes(only)) continue;
    const t0 = Date.now();
    const contexts = [];
    const ctx = { base: server.base, browser: watchBrowser(browser), server, track: (c) => contexts.push(c) };
    beginTest(t.name);
    try {
      await Promise.race([
        t.fn(ctx),
        new Promise((_, fail) => setTimeout(() => fail(new Error('test timed out after 120 s')), 120000)),
      ]);
      const found = await takeFindings();
      if (found.length) throw Object.assign(new Error(`axe-core found violations (its default rules, every impact):\n${JSON.stringify(found, null, 1)}`), { whole: true });
      passed++;
      console.log(`ok - ${t.name} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed++;
      const found = e && e.whole ? [] : await takeFindings({ endChecks: false });
      console.log(`not ok - ${t.name} (${Date.now() - t0} ms)\n  ${(e && e.whole ? e.message : String(e && e.stack || e).split('\n').slice(0, 6).join('\n')).split('\n').join('\n  ')}`);
      if (found.length) console.log(`  axe-core, before the failure: ${JSON.stringify(found)}`);
    } finally {
      for (const c of contexts) await c.close().catch(() => {});
    }
  }
} catch (e) {
  failed++;
  console.log(`not ok - setup\n  ${e && e.stack || e}`);
} finally {
  await stopAll();
}
console.log(`# axe-core: ${axeStats.runs} states checked in ${(axeStats.ms / 1000).toFixed(1)} s, ${axeStats.skipped} checkpoints on a state already checked, ${axeStats.gone} gone before their check`);
console.log(`# ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
