// Turn-by-turn games (issue 6): the rhythm option, leaving and coming back through « Mes parties »
// (with the header badge and « en attente depuis »), the service worker showing a notification for
// a push delivered through the DevTools protocol, and reviews only after a finished game.
import { assert, equal, moveCount, newPerson, playAnyMove, roomCode, shot, toMove, until } from '../lib.mjs';

/** A turn-by-turn draughts game between two people, started. */
async function turnGame(base, browser, track) {
  const host = await newPerson(browser, { name: 'Ana' });
  const guest = await newPerson(browser, { name: 'Bo' });
  track(host.ctx);
  track(guest.ctx);
  const a = host.page;
  const b = guest.page;
  await a.goto(base + '/');
  await a.click('[data-action=friends-draughts]');
  await a.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = await roomCode(a);
  await a.locator('[data-opt=rhythm] select').selectOption('turn');
  // « Confirmer le coup » follows: on by default for turn-by-turn games.
  await until(() => a.locator('[data-opt=confirm_move] input').isChecked(), 'confirm move on');
  await b.goto(`${base}/r/${code}`);
  await b.locator('[data-action=join]').click();
  await b.locator('.seat.mine').waitFor();
  await until(async () => (await b.locator('[data-opt=rhythm] select').inputValue()) === 'turn', 'guest sees the rhythm');
  await a.locator('.seat[data-seat="1"]', { hasText: 'Bo' }).waitFor();
  await a.click('[data-action=start]');
  await a.locator('svg.board-draughts').waitFor();
  await b.locator('svg.board-draughts').waitFor();
  return { host, guest, a, b, code };
}


test('turn by turn: create, leave, come back through My games, play', async ({ base, browser, track }) => {
  const { host, guest, a, b, code } = await turnGame(base, browser, track);
  const first = await toMove(a, b);
  await playAnyMove(first);
  const waiting = first === a ? b : a;
  const person = first === a ? guest : host;
  await until(async () => (await moveCount(waiting)) === 1, 'the move arrives');
  await waiting.locator('[data-testid=turn-since]').waitFor();

  // The player whose turn it is closes the page and comes back later from the home page.
  await waiting.close();
  const back = await person.ctx.newPage();
  back.errors = [];
  back.on('pageerror', (e) => back.errors.push(e.message));
  back.setDefaultTimeout(15000);
  await back.goto(base + '/');
  await until(async () => (await back.locator('[data-testid=turn-badge]').textContent()) === '1', 'badge: one game waits for me');
  await back.click('a[href="/games"][data-nav=games]');
  await back.waitForURL(/\/games$/);
  const item = back.locator(`[data-testid=games-list] a.my-game.mine[data-code="${code}"]`);
  await item.waitFor();
  assert((await item.textContent()).includes('Tour par tour'), 'the rhythm is listed');
  await shot(back, '70-my-games');
  await item.click();
  await back.waitForURL(new RegExp(`/r/${code}$`));
  await back.locator('.status.mine').waitFor();
  assert((await back.locator('[data-testid=turn-since]').textContent()).includes('en attente depuis'), 'waiting since is shown');
  await playAnyMove(back);
  await until(async () => (await moveCount(first)) === 2, 'the other player sees the second move');
  await until(async () => (await back.locator('[data-testid=turn-badge]').isHidden()), 'no game waits for me any more');
  equal(first.errors.concat(back.errors).length, 0, 'no script error');
});

test('the service worker shows a notification for a push and it names the game', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Cy' });
  track(ctx);
  await ctx.grantPermissions(['notifications'], { origin: base });
  await page.goto(base + '/');
  const cdp = await ctx.newCDPSession(page);
  const registrationId = new Promise((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
      for (const r of e.registrations) if (r.scopeURL.startsWith(base) && !r.isDeleted) resolve(r.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const scope = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
    return reg.scope;
  });
  equal(scope, base + '/', 'the worker controls the whole site');
  const id = await Promise.race([registrationId, new Promise((_, fail) => setTimeout(() => fail(new Error('no registration id')), 10000))]);
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: base,
    registrationId: id,
    data: JSON.stringify({ kind: 'turn', code: 'K7M2QX', game: 'draughts', url: '/r/K7M2QX', seat: 1, ply: 3 }),
  });
  const shown = await until(() => page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    const list = await reg.getNotifications();
    return list.length ? list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data })) : null;
  }), 'a notification');
  equal(shown.length, 1, 'one notification');
  equal(shown[0].title, 'Dames', 'title');
  assert(shown[0].body.includes('K7M2QX'), `the notification names the game (${shown[0].body})`);
  equal(shown[0].data.url, '/r/K7M2QX', 'tapping it opens the game');
  equal(page.errors.length, 0, 'no script error');
});

test('a review can only be written after a finished game; requests are shown as text', async ({ base, browser, track }) => {
  const { a, b } = await turnGame(base, browser, track);
  const reviews = await a.context().newPage();
  await reviews.goto(base + '/avis');
  await reviews.locator('[data-testid=review-locked]').waitFor();
  equal(await reviews.locator('[data-testid=form-review]').count(), 0, 'no review form before a finished game');
  // Anyone can send a request; what people type is never HTML.
  const html = '<b>gras</b> & <img src=x onerror=alert(1)>';
  await reviews.locator('[data-testid=form-request] select[name=kind]').selectOption('rule');
  await reviews.locator('[data-testid=form-request] textarea').fill(html);
  await reviews.locator('[data-testid=form-request] button[type=submit]').click();
  const rule = reviews.locator('[data-testid=feedback-list] li[data-kind=rule]');
  await rule.waitFor();
  equal(await rule.locator('.feedback-text').textContent(), html, 'shown as typed');
  equal(await rule.locator('.feedback-text b, .feedback-text img').count(), 0, 'no element made from it');

  // Ana finishes a game (she resigns); then she may review draughts.
  await a.click('[data-action=resign]');
  await a.locator('dialog [data-value=yes]').click();
  await a.locator('[data-testid=result]').waitFor();
  await b.locator('[data-testid=result]').waitFor();
  await until(async () => {
    await reviews.reload();
    return reviews.locator('[data-testid=form-review]').isVisible();
  }, 'the review form');
  await reviews.locator('[data-testid=form-review] select[name=stars]').selectOption('4');
  await reviews.locator('[data-testid=form-review] textarea').fill('Belle partie, interface claire.');
  await reviews.locator('[data-testid=form-review] button[type=submit]').click();
  const review = reviews.locator('[data-testid=feedback-list] li[data-kind=review]');
  await review.waitFor();
  assert((await review.textContent()).includes('★★★★☆'), 'four stars');
  assert((await review.textContent()).includes('Nouveau'), 'its status');
  await shot(reviews, '71-reviews');
});
