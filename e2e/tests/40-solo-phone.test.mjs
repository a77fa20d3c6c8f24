// A solo game against the CPU on a phone-sized, touch viewport.
import { assert, equal, moveCount, newPerson, playAnyMove, shot, until } from '../lib.mjs';

test('phone: solo Chinese checkers against 2 CPUs, by tapping; the CPUs answer', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Eva', phone: true, cpuMs: 150 });
  track(ctx);
  await page.goto(base + '/');
  await page.locator('[data-action=cpu-cc]').tap();
  await page.locator('dialog .seg', { hasText: '3' }).tap();
  await page.locator('dialog .cpu-level-row').nth(0).locator('.seg', { hasText: 'Facile' }).tap();
  await page.locator('dialog .cpu-level-row').nth(1).locator('.seg', { hasText: 'Facile' }).tap();
  await page.locator('dialog [data-value=play]').tap();
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  await page.locator('svg.board-cc').waitFor();
  equal(await page.locator('[data-testid=players] .player').count(), 3, 'three players');
  equal(await page.locator('svg.board .piece').count(), 30, '30 pieces');

  // The board fits the phone screen and the page does not scroll sideways.
  const box = await page.locator('svg.board').boundingBox();
  assert(box && box.width <= 390 && box.width > 300, `board fills the width (${box && box.width})`);
  assert(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no horizontal scroll');
  equal(await page.locator('svg.board').evaluate((el) => getComputedStyle(el).touchAction), 'none', 'touch-action: none');

  for (let round = 1; round <= 2; round++) {
    await page.locator('.status.mine').waitFor();
    const before = await moveCount(page);
    await playAnyMove(page, { tap: true, pick: round });
    // My move, then both CPUs answer.
    await until(async () => (await moveCount(page)) >= before + 3, `the CPUs answered (round ${round})`, 20000);
  }
  await page.locator('.status.mine').waitFor();
  await shot(page, '06-phone-game');
  equal(page.errors.length, 0, 'no script error');
});
