// Lighthouse (npm `lighthouse`, pinned for Node 20) driving Debian's Chromium in a browser of its
// own (chrome-launcher): the mobile preset, the four categories on a first run, performance twice
// more, the median kept (tests/98-lighthouse).
import lighthouse from 'lighthouse';
import { launch } from 'chrome-launcher';

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

/** One Lighthouse run of `url`: its scores out of 100 and the audits that cost points. */
export async function audit(port, url, categories = ['performance', 'accessibility', 'best-practices', 'seo']) {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: categories });
  const lhr = result.lhr;
  const scores = Object.fromEntries(Object.entries(lhr.categories).map(([k, c]) => [k, Math.round((c.score ?? 0) * 100)]));
  const failing = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual' && a.scoreDisplayMode !== 'notApplicable')
    .map((a) => `${a.id} (${a.displayValue || a.score})`);
  if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  return { scores, failing };
}

/**
 * The scores of `url`: all four categories from a first run, performance the median of `runs`.
 * @returns {Promise<{scores: Record<string, number>, perfRuns: number[], failing: string[]}>}
 */
export async function scoresOf(port, url, runs = 3) {
  // Every category once, then performance alone `runs` times, whose median is kept: the
  // accessibility, best-practices and SEO gatherers' own main-thread work (and a browser just
  // started) weighed on the first run's blocking time, and that is not the page's.
  const first = await audit(port, url);
  const perfRuns = [];
  for (let i = 0; i < runs; i++) perfRuns.push((await audit(port, url, ['performance'])).scores.performance);
  const sorted = [...perfRuns].sort((a, b) => a - b);
  return { scores: { ...first.scores, performance: sorted[Math.floor(sorted.length / 2)] }, perfRuns, failing: first.failing };
}
