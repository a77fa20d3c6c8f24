// Page weight and caching (issue 14): bytes and requests of a first and of a repeat visit of the
// home page, counted on the wire by a proxy (the service worker's own fetches included), on a
// phone throttled to mid-range 4G, and how soon the page paints once it has arrived.
import { assert, newPerson } from '../lib.mjs';
import { MID_4G, countingProxy, paints, throttle } from '../net.mjs';

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

/** Opens `path` through the proxy, throttled; returns what it cost and when it painted. */
async function visit(person, proxy, path = '/', ready = '[data-game=cc] h2', quiet = 600) {
  const page = await person.ctx.newPage();
  await throttle(person.ctx, page);
  proxy.reset();
  await page.goto(proxy.base + path);
  await page.locator(ready).waitFor();
  await settle(proxy, quiet);
  const cost = { kb: proxy.counts.down / 1024, requests: [...proxy.counts.requests], ...(await paints(page)) };
  await page.close();
  return cost;
}

/** An empty page (answered by the proxy itself) in the same browser and conditions: the floor this machine allows. */
const EMPTY = '<!doctype html><html lang="en"><title>x</title><p>x</p></html>';
const empty = (person, proxy) => visit(person, proxy, '/__empty', 'p', 100);

/** Above this, an empty page already paints too late here for a timing to mean anything (ms). */
const QUIET = 100;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Time from the page's arrival to its first paint: what the site controls (the network's round trips aside). */
const render = (c) => c.fp - c.responseEnd;
const fmt = (c) => `${c.requests.length} requests, ${c.kb.toFixed(1)} KB, first paint ${Math.round(c.fp)} ms, ${Math.round(render(c))} ms after the page arrived`;

test('page weight: first visit ≤ 80 KB, repeat visit ≤ 5 KB; first paint on a throttled phone', async ({ base, browser, track }) => {
  const proxy = await countingProxy(base, { '/__empty': EMPTY });
  try {
    const person = await newPerson(browser, { phone: true });
    track(person.ctx);
    await person.page.close();
    // Empty page and site page, interleaved, so that the load of this (shared) machine weighs on
    // both alike: E F E R E R.
    const e0 = await empty(person, proxy);
    const first = await visit(person, proxy);
    const pairs = [];
    for (let i = 0; i < 2; i++) pairs.push([await empty(person, proxy), await visit(person, proxy)]);
    const repeat = pairs[0][1];
    console.log(`# first visit: ${fmt(first)}\n#   ${first.requests.join(' ')}`);
    console.log(`# repeat visit: ${fmt(repeat)}\n#   ${repeat.requests.join(' ')}`);
    console.log(`# repeat visits' first paint: ${pairs.map(([, r]) => Math.round(r.fp)).join(', ')} ms; an empty page: ${[e0, ...pairs.map(([e]) => e)].map((c) => Math.round(c.fp)).join(', ')} ms (profile ${JSON.stringify(MID_4G)})`);
    assert(first.kb <= 80, `first visit ≤ 80 KB (${fmt(first)})`);
    assert(repeat.kb <= 5, `repeat visit ≤ 5 KB (${fmt(repeat)})`);
    // Painting must wait for nothing but the page itself. On a machine too busy to paint even an
    // empty page within the budget (a shared 2-core host while others compile), a timing says
    // nothing about the site: it is printed, not asserted.
    const floor = median([e0, ...pairs.map(([e]) => e)].map(render));
    if (floor > QUIET) {
      console.log(`# first paint NOT asserted: an empty page paints ${Math.round(floor)} ms after arriving on this machine now (> ${QUIET} ms)`);
      return;
    }
    assert(render(first) <= 150, `first visit paints ≤ 150 ms after the page arrived (${fmt(first)})`);
    const rep = Math.min(...pairs.map(([, r]) => r.fp));
    assert(rep <= 150, `a repeat visit paints ≤ 150 ms after the tap (${pairs.map(([, r]) => fmt(r)).join('; ')})`);
  } finally {
    await proxy.close();
  }
});
