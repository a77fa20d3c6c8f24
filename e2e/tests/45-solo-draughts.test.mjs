// A solo draughts game on the Brazilian 8×8 board against the CPU, then « Rejouer ».
import { assert, equal, moveCount, newPerson, playAnyMove, until } from '../lib.mjs';

test('solo draughts 8×8 against the CPU: the CPU answers; resign and play again', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Iris', cpuMs: 150 });
  track(ctx);
  await page.goto(base + '/');
  await page.click('[data-action=cpu-draughts]');
  await page.locator('dialog .seg', { hasText: 'Brésilienne' }).click();
  await page.locator('dialog .seg', { hasText: 'Expert' }).click();
  await page.click('dialog [data-value=play]');
  await page.locator('svg.board-draughts').waitFor();
  equal(await page.locator('svg.board .piece').count(), 24, '24 men on the 8×8 board');
  equal(await page.locator('svg.board .dr-dark').count(), 32, '32 dark squares');
  assert((await page.locator('[data-testid=players]').textContent()).includes('CPU Expert'), 'CPU level shown');
  for (let i = 0; i < 2; i++) {
    await page.locator('.status.mine').waitFor();
    const before = await moveCount(page);
    await playAnyMove(page);
    await until(async () => (await moveCount(page)) >= before + 2, 'the CPU answered', 20000);
  }
  await page.click('[data-action=resign]');
  await page.locator('dialog [data-value=yes]').click();
  await page.locator('[data-testid=result] h2', { hasText: 'CPU Expert a gagné' }).waitFor();
  await page.click('[data-action=rematch]');
  await until(async () => (await page.locator('[data-testid=result]').isHidden()) && (await moveCount(page)) <= 1, 'a new game started');
  equal(await page.locator('svg.board .piece').count(), 24, 'a fresh board');
  // The home page lists this browser's games.
  const code = page.url().split('/r/')[1];
  await page.goto(base + '/');
  await page.locator('[data-testid=my-games] a', { hasText: code }).waitFor();
  await page.locator('[data-testid=my-games] a', { hasText: code }).click();
  await page.locator('svg.board-draughts').waitFor();
  equal(page.errors.length, 0, 'no script error');
});
