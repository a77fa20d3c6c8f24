// Page weight and caching (issue 14): bytes and requests of a first and of a repeat visit of the
// home page, counted on the wire by a proxy (the service worker's own fetches included), on a
// phone throttled to mid-range 4G through the DevTools protocol, and how soon the page paints
// once it has arrived (how that is judged on a loaded machine: see BUDGET below).
import { assert, newPerson } from '../lib.mjs';
import { MID_4G, benchmarkIndex, countingProxy, paints, phoneSlowdown, throttle } from '../net.mjs';

/** Waits until nothing went through the proxy for `quiet` ms. */
async function settle(proxy, quiet = 800) {
  let last = -1;
  let since = Date.now();
  for (;;) {
    const now = proxy.counts.down + proxy.counts.up;
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quiet) {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Opens `path` through the proxy, throttled to `profile`; returns what it cost and when it painted. */
async function visit(person, proxy, profile, path = '/', ready = '[data-game=cc] h2', quiet = 600) {
  const page = await person.ctx.newPage();
  await throttle(person.ctx, page, profile);
  proxy.reset();
  await page.goto(proxy.base + path);
  await page.locator(ready).waitFor();
  await settle(proxy, quiet);
  const cost = { kb: proxy.counts.down / 1024, requests: [...proxy.counts.requests], ...(await paints(page)) };
  await page.close();
  return cost;
}

/** An empty page (answered by the proxy itself) in the same browser and conditions: the floor this machine allows now. */
const EMPTY = '<!doctype html><html lang="en"><title>x</title><main><h1>x</h1><p>x</p></main></html>';
const empty = (person, proxy, profile) => visit(person, proxy, profile, '/__empty', 'p', 100);

/**
 * A pair (empty page, site) in `person`'s browser, both with the phone's CPU calibrated to the
 * host's benchmark index measured just before (net.mjs `phoneSlowdown`); with the index.
 */
async function pair(person, proxy) {
  const probe = await person.ctx.newPage();
  const index = await benchmarkIndex(probe);
  await probe.close();
  const profile = { ...MID_4G, cpuSlowdown: phoneSlowdown(index) };
  const e = await empty(person, proxy, profile);
  return [e, await visit(person, proxy, profile), index];
}

/**
 * How first paint is judged (the goal: ≤ 150 ms on a phone profile). What the site controls is the
 * time from the page's arrival (its HTML's `responseEnd`) to its first paint, both read from the
 * browser's own Paint and Navigation Timing, with the network throttled to mid-range 4G and the
 * CPU slowed by DevTools to a mid-range phone's (MID_4G: 4× for a host of benchmark index 1750,
 * scaled to the index measured before each pair, as Lighthouse's runs are: this shared machine's
 * index goes from ~1,000 to ~1,900, and a fixed 4× emulated at its slow moments a phone twice as
 * slow as the profile's). On this shared 2-core machine the same time for an empty
 * page, painted in the same browser under the same throttling just before each visit of the site,
 * measures how loaded the machine is at that moment: a few ms when it is quiet, hundreds when
 * others compile. So:
 * - always, for a first visit: the site paints at most BUDGET − QUIET_EMPTY ms later than the
 *   empty page of its pair, in the best of PAIRS pairs: what the site adds before its first paint —
 *   its page and stylesheet, anything blocking rendering — must fit the budget whatever the load.
 *   Load only ever adds time, and adds it unevenly (one pair of three on a busy CI machine came out
 *   208 ms over its empty page, another 84 ms), so the best pair is the estimate of what the site
 *   itself costs; a render-blocking request is not noise: its 165 ms of round trip on this profile
 *   is in every pair, the best one too, and fails it. A repeat visit
 *   paints once its modules have run (they come from the service worker at once): script work,
 *   which a loaded machine stretches many times over, so its excess is printed, not asserted;
 * - on a quiet machine (the empty page paints within QUIET ms): the time itself, ≤ BUDGET, for the
 *   first visit (from the page's arrival) and for a repeat visit (from the tap: the page comes from
 *   the service worker).
 */
const BUDGET = 150;
/** What an empty page is allowed on a quiet machine under the profile (ms): the rest of BUDGET is the site's own. */
const QUIET_EMPTY = 30;
/** Above this, an empty page already paints too late here for an absolute timing to mean anything (ms). */
const QUIET = 100;
/** Pairs (empty page, site) for each kind of visit. */
const PAIRS = 5;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Time from the page's arrival to its first paint: what the site controls (the network's round trips aside). */
const render = (c) => c.fp - c.responseEnd;
const fmt = (c) => `${c.requests.length} requests, ${c.kb.toFixed(1)} KB, first paint ${Math.round(c.fp)} ms, ${Math.round(render(c))} ms after the page arrived`;
/** The site's paint over the empty page's, pair by pair (ms). */
const excess = (pairs) => pairs.map(([e, c]) => render(c) - render(e));

test('page weight: first visit ≤ 80 KB, repeat visit ≤ 5 KB; first paint on a throttled phone, judged against an empty page', async ({ base, browser, track }) => {
  const proxy = await countingProxy(base, { '/__empty': EMPTY });
  try {
    // First visits: each in a new browser profile (no cache, no service worker), after an empty
    // page in the same profile. Repeat visits: in the last profile, interleaved the same way.
    const firsts = [];
    let person;
    for (let i = 0; i < PAIRS; i++) {
      person = await newPerson(browser, { phone: true });
      track(person.ctx);
      await person.page.close();
      firsts.push(await pair(person, proxy));
    }
    const repeats = [];
    for (let i = 0; i < PAIRS; i++) repeats.push(await pair(person, proxy));
    const first = firsts[0][1];
    const repeat = repeats[0][1];
    const all = [...firsts, ...repeats];
    console.log(`# first visit: ${fmt(first)}\n#   ${first.requests.join(' ')}`);
    console.log(`# repeat visit: ${fmt(repeat)}\n#   ${repeat.requests.join(' ')}`);
    console.log(`# first paint after arrival, site − empty page: first visits ${excess(firsts).map(Math.round).join(', ')} ms, repeat visits ${excess(repeats).map(Math.round).join(', ')} ms; the empty page alone: ${all.map(([e]) => Math.round(render(e))).join(', ')} ms (profile ${JSON.stringify(MID_4G)}; host benchmark → CPU slowdown ${all.map(([, , i]) => `${Math.round(i)} → ${phoneSlowdown(i)}×`).join(', ')})`);
    for (const [, c] of firsts) assert(c.kb <= 80, `first visit ≤ 80 KB (${fmt(c)})`);
    for (const [, c] of repeats) assert(c.kb <= 5, `repeat visit ≤ 5 KB (${fmt(c)})`);

    // What the site adds to an empty page's paint, whatever the load.
    for (const [kind, pairs] of [['first', firsts]]) {
      const extra = Math.min(...excess(pairs));
      assert(extra <= BUDGET - QUIET_EMPTY, `a ${kind} visit paints ≤ ${BUDGET - QUIET_EMPTY} ms after an empty page in the same conditions (best pair ${Math.round(extra)} ms: ${pairs.map(([e, c]) => `${Math.round(render(c))} vs ${Math.round(render(e))}`).join('; ')})`);
    }
    // The time itself, where the machine lets it mean something.
    const floor = median(all.map(([e]) => render(e)));
    if (floor > QUIET) {
      console.log(`# absolute first paint NOT asserted: an empty page paints ${Math.round(floor)} ms after arriving on this machine now (> ${QUIET} ms)`);
      return;
    }
    const firstRender = median(firsts.map(([, c]) => render(c)));
    assert(firstRender <= BUDGET, `a first visit paints ≤ ${BUDGET} ms after the page arrived (median ${Math.round(firstRender)} ms; ${firsts.map(([, c]) => fmt(c)).join('; ')})`);
    const rep = median(repeats.map(([, c]) => c.fp));
    assert(rep <= BUDGET, `a repeat visit paints ≤ ${BUDGET} ms after the tap (median ${Math.round(rep)} ms; ${repeats.map(([, c]) => fmt(c)).join('; ')})`);
  } finally {
    await proxy.close();
  }
});
