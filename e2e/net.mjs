// Network measuring helpers of the browser tests: a byte-counting TCP proxy in front of the server
// (everything the browser receives, the service worker's fetches included, counted on the wire)
// and DevTools-protocol throttling to a phone profile.
import { createServer, connect } from 'node:net';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';

/**
 * Chrome DevTools' « Fast 4G » preset, the mid-range 4G profile of the page-weight goals: 9 Mbit/s
 * down, 1.5 Mbit/s up (× 0.9 for protocol overhead), 165 ms added to every request; the CPU of a
 * mid-range phone is emulated as 4 × slower than a host of benchmark index 1750 (`phoneSlowdown`
 * scales it to the host of the moment).
 */
export const MID_4G = {
  offline: false,
  downloadThroughput: ((9 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((1.5 * 1000 * 1000) / 8) * 0.9,
  latency: 60 * 2.75,
  cpuSlowdown: 4,
};

/**
 * A TCP proxy to `target` (http://host:port) on a random local port, counting the bytes and the
 * HTTP requests that go through it. `reset()` zeroes the counters; `close()` stops it. GET requests
 * for a path of `pages` are answered by the proxy itself with that HTML (a baseline page).
 * @param {string} target @param {Record<string, string>} [pages]
 */
export async function countingProxy(target, pages = {}) {
  const { hostname, port } = new URL(target);
  const counts = { down: 0, up: 0, requests: /** @type {string[]} */ ([]) };
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client);
    sockets.add(upstream);
    client.on('data', (d) => {
      const own = /^GET (\S+) HTTP\/1\.1\r\n/.exec(d.toString('latin1'));
      if (own && pages[own[1]] !== undefined) {
        const body = Buffer.from(pages[own[1]]);
        client.write(`HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncache-control: no-store\r\ncontent-length: ${body.length}\r\n\r\n`);
        client.write(body);
        return;
      }
      counts.up += d.length;
      // Request lines of HTTP/1.1 (bodies here are small JSON that never looks like one).
      for (const m of d.toString('latin1').matchAll(/(?:^|\r\n)(GET|HEAD|POST|PUT|DELETE) (\S+) HTTP\/1\.1\r\n/g)) {
        counts.requests.push(`${m[1]} ${m[2]}`);
      }
      upstream.write(d);
    });
    upstream.on('data', (d) => {
      counts.down += d.length;
      client.write(d);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const addr = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    base: `http://127.0.0.1:${addr.port}`,
    counts,
    reset() {
      counts.down = 0;
      counts.up = 0;
      counts.requests = [];
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((ok) => server.close(ok));
    },
  };
}

/**
 * The benchmark index for which a 4× CPU slowdown emulates a mid-range phone: Lighthouse's
 * documentation gives 4× for a high-end desktop, benchmark index 1500–2000 (its docs/throttling.md,
 * "CPU throttling"); 1750 is the middle of that range.
 */
export const CALIBRATED_FOR = 1750;

/**
 * The CPU slowdown that makes this host, at a moment when its benchmark index is `index`, as fast
 * as the mid-range phone: 4 × index / 1750, between 1 and 8, to two decimals. This shared virtual
 * machine's index goes from ~1,000 to ~1,900 between runs; a fixed 4× would emulate, at its slow
 * moments, a phone up to twice as slow as the profile's.
 * @param {number} index
 */
export function phoneSlowdown(index) {
  const s = Math.min(8, Math.max(1, (MID_4G.cpuSlowdown * index) / CALIBRATED_FOR));
  return Math.round(s * 100) / 100;
}

/**
 * The host's benchmark index now, measured in `page` (unthrottled) by Lighthouse's own benchmark
 * (the one its runs record as `BenchmarkIndex`; ~1 s).
 * @param {import('playwright-core').Page} page
 */
export function benchmarkIndex(page) {
  return page.evaluate(pageFunctions.computeBenchmarkIndex);
}

/**
 * Throttles a page (network and CPU) through the DevTools protocol.
 * @param {import('playwright-core').BrowserContext} ctx @param {import('playwright-core').Page} page
 * @param {typeof MID_4G} profile
 */
export async function throttle(ctx, page, profile = MID_4G) {
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  const { cpuSlowdown, ...net } = profile;
  await cdp.send('Network.emulateNetworkConditions', net);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
  return cdp;
}

/** First paint and first contentful paint of the page, in ms since navigation start. @param {import('playwright-core').Page} page */
export async function paints(page) {
  return page.evaluate(() => {
    const get = (/** @type {string} */ n) => performance.getEntriesByName(n)[0]?.startTime ?? null;
    const nav = /** @type {PerformanceNavigationTiming|undefined} */ (performance.getEntriesByType('navigation')[0]);
    return { fp: get('first-paint'), fcp: get('first-contentful-paint'), responseStart: nav ? nav.responseStart : null, responseEnd: nav ? nav.responseEnd : null };
  });
}
