// Lighthouse's performance metrics of the five pages of tests/98-lighthouse, run by run, for
// working on them: score, FCP, LCP, TBT, CLS, Speed Index, the LCP element, the longest
// main-thread tasks. Starts its own server (DAMES_BIN, as run.mjs) unless DAMES_URL is set.
//   node dev/lighthouse.mjs [runs] [page…]    pages: home rules lobby game replay (default all)
// LH_TASKS=1 also prints what the page's main thread did in each task of 10 ms or more (trace
// time, not the simulated time of the metrics): its largest events by self time.
import lighthouse from 'lighthouse';
import { launchBrowser, newPerson, resign, roomCode, startServer } from '../lib.mjs';
import { lighthouseBrowser } from '../lighthouse.mjs';

const runs = Number(process.argv[2] || 3);
const wanted = process.argv.slice(3);
const server = await startServer();
const browser = await launchBrowser();
const base = server.base;

/** A CPU game waiting for its creator's move; its tab closed. */
async function cpuGame(game, finish = false) {
  const { ctx, page } = await newPerson(browser, { name: 'Zoé' });
  await page.goto(base + '/');
  await page.click(`[data-action=cpu-${game}]`);
  await page.click('dialog [data-value=play]');
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  await page.locator('.status.mine').waitFor();
  const code = page.url().split('/r/')[1];
  if (finish) await resign(page);
  await ctx.close();
  return code;
}

async function lobby() {
  const { ctx, page } = await newPerson(browser, { name: 'Alice' });
  await page.goto(base + '/');
  await page.click('[data-action=friends-draughts]');
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = await roomCode(page);
  await ctx.close();
  return code;
}

const PAGES = {
  home: async () => '/',
  rules: async () => '/rules',
  lobby: async () => `/r/${await lobby()}`,
  game: async () => `/r/${await cpuGame('draughts')}`,
  replay: async () => `/r/${await cpuGame('cc', true)}/1`,
};

const ms = (a) => Math.round(a.numericValue);
try {
  for (const [name, path] of Object.entries(PAGES)) {
    if (wanted.length && !wanted.includes(name)) continue;
    const url = base + (await path());
    const lh = await lighthouseBrowser();
    try {
      for (let i = 0; i < runs; i++) {
        const { lhr, artifacts } = await lighthouse(url, { port: lh.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
        const a = lhr.audits;
        const tasks = (a['long-tasks']?.details?.items || []).map((t) => `${Math.round(t.duration)}@${Math.round(t.startTime)} ${String(t.url).replace(base, '').slice(0, 40)}`);
        const cands = artifacts.Trace.traceEvents.filter((e) => e.name === 'largestContentfulPaint::Candidate');
        const last = cands[cands.length - 1]?.args?.data;
        const lcpEl = last ? `${last.type} ${last.size}px² (${cands.length} candidates) ${a['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.nodeLabel || ''}` : '?';
        console.log(`${name} run ${i + 1}: ${Math.round(lhr.categories.performance.score * 100)}  FCP ${ms(a['first-contentful-paint'])} LCP ${ms(a['largest-contentful-paint'])} TBT ${ms(a['total-blocking-time'])} CLS ${a['cumulative-layout-shift'].numericValue.toFixed(3)} SI ${ms(a['speed-index'])}  LCP ${lcpEl.slice(0, 110)}`);
        console.log(`    long tasks: ${tasks.join('; ') || 'none'}; main thread ${ms(a['mainthread-work-breakdown'])} ms, JS ${ms(a['bootup-time'])} ms`);
        if (process.env.LH_TASKS) console.log(taskBreakdown(artifacts.Trace.traceEvents));
      }
    } finally {
      await lh.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}

/** The renderer main thread's tasks of 10 ms or more: start (ms after navigation), duration, largest events by self time. */
function taskBreakdown(events) {
  const nav = events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && e.args.data.documentLoaderURL);
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === nav?.pid);
  if (!nav || !main) return '    (no main thread found)';
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur).sort((x, y) => x.ts - y.ts || y.dur - x.dur);
  const lines = [];
  for (const task of onMain.filter((e) => e.name === 'RunTask' && e.dur >= 10000)) {
    const inner = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur);
    // Self time: each event's duration less its direct children's.
    const self = new Map();
    const stack = [];
    for (const e of inner) {
      while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) stack.pop();
      const label = e.name + (e.args?.data?.url ? ' ' + e.args.data.url.replace(/^https?:\/\/[^/]+/, '').slice(0, 40) : e.args?.data?.functionName ? ' ' + e.args.data.functionName : '');
      e.label = label;
      self.set(label, (self.get(label) || 0) + e.dur);
      if (stack.length) { const p = stack[stack.length - 1]; self.set(p.label, (self.get(p.label) || 0) - e.dur); }
      stack.push(e);
    }
    const top = [...self].sort((x, y) => y[1] - x[1]).slice(0, 6).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`).join(', ');
    lines.push(`    task @${Math.round((task.ts - nav.ts) / 1000)} ${(task.dur / 1000).toFixed(1)} ms: ${top}`);
    for (const l of inner.filter((e) => e.name === 'Layout' && e.dur >= 2000)) {
      const b = l.args?.beginData || {};
      const f = b.stackTrace?.[0];
      lines.push(`      Layout ${(l.dur / 1000).toFixed(1)} ms, ${b.dirtyObjects}/${b.totalObjects} objects${f ? `, forced by ${f.functionName} ${String(f.url).split('/').pop()}:${f.lineNumber}` : ''}`);
    }
  }
  return lines.join('\n');
}
