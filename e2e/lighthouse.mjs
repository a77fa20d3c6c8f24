// Lighthouse (npm `lighthouse`, pinned for Node 20) driving Debian's Chromium in a browser of its
// own (chrome-launcher): the mobile preset, the four categories on a first run, performance twice
// more, the median kept (tests/98-lighthouse).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { launch } from 'chrome-launcher';
import { phoneSlowdown } from './net.mjs';

/**
 * Starts a Chromium for Lighthouse; `close()` when done.
 * @returns {Promise<{port: number, close: () => Promise<void>}>}
 */
export async function lighthouseBrowser() {
  const chrome = await launch({
    chromePath: process.env.CHROMIUM || '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    logLevel: 'silent',
  });
  return { port: chrome.port, close: async () => { await chrome.kill(); } };
}

/**
 * One Lighthouse run of `url`: its scores out of 100, the audits that cost points, the host's
 * benchmark index measured by that run and the CPU slowdown its performance was simulated with.
 *
 * The page is loaded once, unthrottled (the preset's "simulate" throttling: the phone's CPU and
 * network are applied afterwards, to the tasks and requests observed). The simulated phone is
 * kept the same whatever the moment of this shared virtual machine: its benchmark index, measured
 * by Lighthouse at the start of the same run, went from 1,100 to 1,900 between three runs of an
 * empty page, and with a fixed 4× the slow moments simulated a phone 1.6 times slower than the
 * preset's. So the slowdown is the preset's scaled by the run's own index (net.mjs `phoneSlowdown`: 4 × index / 1750,
 * between 1 and 8: harsher than the preset when the host is faster than the machine it was
 * calibrated on), applied to the artifacts of that run before they are audited.
 */
export async function audit(port, url, categories = ['performance', 'accessibility', 'best-practices', 'seo']) {
  const dir = mkdtempSync(join(tmpdir(), 'dames-lh-'));
  let result;
  let benchmarkIndex;
  let slowdown;
  try {
    await lighthouse(url, { port, logLevel: 'error', onlyCategories: categories, gatherMode: dir });
    const file = join(dir, 'artifacts.json');
    const artifacts = JSON.parse(readFileSync(file, 'utf8'));
    benchmarkIndex = artifacts.BenchmarkIndex;
    slowdown = phoneSlowdown(benchmarkIndex);
    artifacts.settings.throttling.cpuSlowdownMultiplier = slowdown;
    writeFileSync(file, JSON.stringify(artifacts));
    result = await lighthouse(url, {
      port, output: 'json', logLevel: 'error', onlyCategories: categories, auditMode: dir,
      throttling: { ...artifacts.settings.throttling },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const lhr = result.lhr;
  // E2E_LH_SAVE=DIR keeps every run's report (JSON: the critical chains, the largest paint's
  // element and phases, the main thread's tasks) for a look at what a page costs.
  if (process.env.E2E_LH_SAVE) {
    mkdirSync(process.env.E2E_LH_SAVE, { recursive: true });
    const name = `${new URL(url).pathname.replace(/[^A-Za-z0-9]+/g, '_')}-${categories.length}-${Date.now()}.json`;
    writeFileSync(join(process.env.E2E_LH_SAVE, name), JSON.stringify(lhr));
  }
  const scores = Object.fromEntries(Object.entries(lhr.categories).map(([k, c]) => [k, Math.round((c.score ?? 0) * 100)]));
  const failing = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual' && a.scoreDisplayMode !== 'notApplicable')
    .map((a) => `${a.id} (${a.displayValue || a.score})`);
  if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  return { scores, failing, benchmarkIndex, slowdown };
}

/**
 * The scores of `url`: all four categories from a first run, performance the median of `runs`.
 * @returns {Promise<{scores: Record<string, number>, perfRuns: number[], hosts: string[], failing: string[]}>}
 */
export async function scoresOf(port, url, runs = 3) {
  // Every category once, then performance alone `runs` times, whose median is kept: the
  // accessibility, best-practices and SEO gatherers' own main-thread work (and a browser just
  // started) weighed on the first run's blocking time, and that is not the page's.
  const first = await audit(port, url);
  const perfRuns = [];
  const hosts = [];
  for (let i = 0; i < runs; i++) {
    const run = await audit(port, url, ['performance']);
    perfRuns.push(run.scores.performance);
    hosts.push(`${Math.round(run.benchmarkIndex)} → ${run.slowdown}×`);
  }
  const sorted = [...perfRuns].sort((a, b) => a - b);
  return { scores: { ...first.scores, performance: sorted[Math.floor(sorted.length / 2)] }, perfRuns, hosts, failing: first.failing };
}
