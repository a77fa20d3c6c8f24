// The installable app (issue 14): a manifest Chromium accepts, icons of the sizes it names, the
// service worker serving the app shell offline with a « Hors ligne » bar, and the iPhone
// explanation of notifications.
import { assert, equal, moveCount, newPerson, playAnyMove, shot, until } from '../lib.mjs';

/** Width and height of a PNG, read from its IHDR chunk. @param {Buffer} png */
function pngSize(png) {
  equal(png.subarray(1, 4).toString('latin1'), 'PNG', 'a PNG file');
  return `${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`;
}

/** Waits until the service worker controls `page` and has precached the shell. */
async function controlled(page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await until(() => page.evaluate(() => !!navigator.serviceWorker.controller), 'the worker controls the page');
  await until(() => page.evaluate(async () => {
    const keys = await caches.keys();
    return keys.some((k) => k.startsWith('dames-'));
  }), 'the shell is cached');
}

test('installable: the manifest is valid, its icons exist at their sizes, no installability error', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { phone: true });
  track(ctx);
  await page.goto(base + '/');
  await page.locator('[data-game=cc] h2').waitFor();
  await controlled(page);
  const cdp = await ctx.newCDPSession(page);
  const { url, errors, data } = await cdp.send('Page.getAppManifest');
  equal(url, base + '/manifest.webmanifest', 'the page links its manifest');
  equal(errors.length, 0, `manifest parsed without error ${JSON.stringify(errors)}`);
  const m = JSON.parse(data);
  equal(m.display, 'standalone', 'display');
  equal(m.start_url, '/', 'start URL');
  assert(m.name && m.short_name === 'Dames', 'names');
  assert(/^#[0-9a-f]{6}$/i.test(m.theme_color) && /^#[0-9a-f]{6}$/i.test(m.background_color), 'theme colours');
  const sizes = new Set();
  for (const icon of m.icons) {
    const res = await page.request.get(new URL(icon.src, base).href);
    equal(res.status(), 200, `icon ${icon.src}`);
    if (icon.type === 'image/png') {
      equal(pngSize(await res.body()), icon.sizes, `${icon.src} is ${icon.sizes}`);
      sizes.add(`${icon.sizes} ${icon.purpose}`);
      assert(res.headers()['cache-control'].includes('immutable'), 'icons have hashed, immutable URLs');
    }
  }
  for (const s of ['192x192 any', '512x512 any', '512x512 maskable']) assert(sizes.has(s), `an icon ${s}`);
  const apple = await page.locator('link[rel=apple-touch-icon]').getAttribute('href');
  equal(pngSize(await (await page.request.get(base + apple)).body()), '180x180', 'apple-touch-icon');
  // Chromium's own verdict (it needs the worker to control the page). Test browser contexts are
  // incognito ones, where nothing can be installed: that reason alone is expected.
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  const errs = installabilityErrors.filter((e) => e.errorId !== 'in-incognito');
  equal(errs.length, 0, `installable ${JSON.stringify(errs)}`);
  equal(page.errors.length, 0, 'no script error');
});

test('offline: the worker serves the shell, « Hors ligne » is shown, rules still readable', async ({ base, browser, server, track }) => {
  const { ctx, page } = await newPerson(browser, { phone: true });
  track(ctx);
  await page.goto(base + '/');
  await page.locator('[data-game=cc] h2').waitFor();
  await controlled(page);
  equal(await page.locator('[data-testid=offline]').count(), 0, 'no offline bar while online');

  await ctx.setOffline(true);
  await page.reload();
  await page.locator('[data-game=cc] h2').waitFor();
  const bar = page.locator('[data-testid=offline]');
  await bar.waitFor();
  assert((await bar.textContent()).includes('Hors ligne'), 'the bar says Hors ligne');
  await page.goto(base + '/faq'); // a page never opened before, offline
  await page.locator('.page-faq h1').waitFor();
  await page.click('footer a[href="/rules"]'); // on a phone the header keeps « Mes parties » and the name; the rules are in the footer
  await page.locator('.page-rules h1').waitFor();
  await bar.waitFor();
  await ctx.setOffline(false);
  await bar.waitFor({ state: 'detached' });

  // The server itself out of reach (the device still online): the first failed request says so.
  if (server.restart) {
    await server.restart(async () => {
      await page.goto(base + '/');
      await page.locator('[data-game=cc] h2').waitFor();
      await page.locator('[data-testid=offline]').waitFor();
    });
    await page.locator('[data-testid=offline]').waitFor({ state: 'detached', timeout: 15000 });
  }
  equal(page.errors.length, 0, 'no script error');
});

test('offline: a game page reloaded offline shows its last position, read-only, under one banner', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { phone: true, name: 'Zoé' });
  track(ctx);
  await page.goto(base + '/');
  await controlled(page);
  await page.click('[data-action=cpu-draughts]');
  await page.click('dialog [data-value=play]');
  await page.locator('.status.mine').waitFor();
  await playAnyMove(page, { tap: true });
  await until(async () => (await moveCount(page)) >= 2, 'the CPU answered');
  const pieces = await page.locator('svg.board .piece').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')).sort().join(' '));

  await ctx.setOffline(true);
  await page.reload();
  await page.locator('[data-testid=stale]').waitFor();
  equal(await page.locator('svg.board .piece').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')).sort().join(' ')), pieces, 'the last position');
  equal(await page.locator('svg.board .piece.movable').count(), 0, 'read-only: nothing to move');
  equal(await page.locator('[data-action=resign]:visible, [data-action=draw-offer]:visible').count(), 0, 'read-only: no resign or draw button');
  equal(await page.locator('.loading:visible').count(), 0, 'no « Chargement… »');
  await page.waitForTimeout(1500); // a retry or two
  equal(await page.locator('[data-testid=reconnecting]:visible, [data-testid=offline]:visible').count(), 1, 'one banner, not two');
  await shot(page, '82-offline-game');

  await ctx.setOffline(false);
  await page.locator('[data-testid=stale]').waitFor({ state: 'hidden', timeout: 20000 });
  await page.locator('svg.board .piece.movable').first().waitFor({ timeout: 20000 });
  equal(page.errors.length, 0, 'no script error');
});

test('iPhone: the game explains that notifications need the site on the Home Screen', async ({ base, browser, track }) => {
  const ctx = await browser.newContext({
    viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3,
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
  });
  track(ctx);
  await ctx.addInitScript(() => {
    localStorage.setItem('dames.name', 'Ana');
    localStorage.setItem('dames.cpu_ms', '100');
  });
  const page = await ctx.newPage();
  await page.goto(base + '/');
  await page.click('[data-action=cpu-draughts]');
  await page.click('dialog [data-value=play]');
  await page.locator('svg.board-draughts').waitFor();
  const note = page.locator('[data-testid=ios-push-note]');
  await note.waitFor();
  equal(await page.locator('[data-action=push]').count(), 0, 'no push button that cannot work');
  await note.locator('summary').click();
  assert((await note.textContent()).includes('Sur l’écran d’accueil'), 'says how to add the site to the Home Screen');
});
