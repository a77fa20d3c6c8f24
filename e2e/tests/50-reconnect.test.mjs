// Reconnection: the server stops in the middle of a game; both pages say « Reconnexion… », a move
// made meanwhile is queued, and after the restart it is applied once and the banners go away.
import { assert, equal, moveCount, newPerson, playAnyMove, roomCode, until } from '../lib.mjs';

test('server restart mid-game: banner, queued move resent once, nothing lost', async ({ base, browser, server, track }) => {
  if (!server.restart) {
    console.log('  (skipped: DAMES_URL server cannot be restarted)');
    return;
  }
  const host = await newPerson(browser, { name: 'Fa' });
  const guest = await newPerson(browser, { name: 'Gil' });
  track(host.ctx);
  track(guest.ctx);
  const a = host.page;
  const b = guest.page;
  await a.goto(base + '/');
  await a.click('[data-action=friends-cc]');
  await a.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = await roomCode(a);
  await b.goto(`${base}/r/${code}`);
  await b.locator('[data-action=join]').click();
  await a.locator('.seat[data-seat="1"]', { hasText: 'Gil' }).waitFor();
  await a.click('[data-action=start]');
  await a.locator('svg.board-cc').waitFor();
  await b.locator('svg.board-cc').waitFor();

  // One move before the outage.
  const first = (await a.locator('.status.mine').count()) ? a : b;
  await playAnyMove(first);
  for (const p of [a, b]) await until(async () => (await moveCount(p)) === 1, 'move 1 seen');
  const mover = first === a ? b : a;
  await mover.locator('.status.mine').waitFor();

  let played = null;
  await server.restart(async () => {
    for (const p of [a, b]) await p.locator('[data-testid=reconnecting]').waitFor({ state: 'visible' });
    assert((await a.locator('[data-testid=reconnecting]').textContent()).includes('Reconnexion'), 'banner says Reconnexion…');
    played = await playAnyMove(mover);
    await until(async () => (await mover.locator('[data-testid=reconnecting]').textContent()).includes('1 coup'), 'the queued move is shown');
  });
  for (const p of [a, b]) {
    await until(async () => (await moveCount(p)) === 2, 'the queued move arrives after the restart', 30000);
    await p.locator('[data-testid=reconnecting]').waitFor({ state: 'hidden', timeout: 30000 });
    await p.locator(`svg.board .piece[data-cell="${played.to}"]`).waitFor();
  }
  // Reloading puts each person back in their seat.
  await b.reload();
  await b.locator('svg.board-cc').waitFor();
  await until(async () => (await b.locator('.player.mine').count()) === 1, 'seat kept after reload');
  equal(await moveCount(b), 2, 'no move lost, none doubled');
});

test('network lost on the player side: banner at once, the move made offline is sent when back', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Kim', cpuMs: 150 });
  track(ctx);
  await page.goto(base + '/');
  await page.click('[data-action=cpu-cc]');
  await page.click('dialog [data-value=play]');
  await page.locator('.status.mine').waitFor();
  await ctx.setOffline(true);
  await page.locator('[data-testid=reconnecting]').waitFor({ state: 'visible' });
  const { to } = await playAnyMove(page);
  await until(async () => (await page.locator('[data-testid=reconnecting]').textContent()).includes('1 coup'), 'the move waits in the queue');
  equal(await moveCount(page), 0, 'not applied while offline');
  await page.locator(`svg.board .piece[data-cell="${to}"]`).waitFor(); // shown where it was played
  await ctx.setOffline(false);
  await until(async () => (await moveCount(page)) >= 2, 'sent once back online, and the CPU answered', 30000);
  await page.locator('[data-testid=reconnecting]').waitFor({ state: 'hidden' });
  equal(page.errors.length, 0, 'no script error');
});
