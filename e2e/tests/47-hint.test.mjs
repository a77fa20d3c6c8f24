// « Conseil »: the player to move asks the CPU for a hint; the suggested piece and destination are
// marked on the board without being played; the player then plays it by clicking. The lobby has
// the « Conseils autorisés » row.
import { assert, equal, moveCount, newPerson, until } from '../lib.mjs';

test('hint: « Conseil » marks a suggested move on the board, not played; the lobby can turn hints off', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Hugo', cpuMs: 150 });
  track(ctx);
  await page.goto(base + '/');
  await page.click('[data-action=cpu-cc]');
  await page.locator('dialog .seg', { hasText: 'Facile' }).click();
  await page.click('dialog [data-value=play]');
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  await page.locator('svg.board-cc').waitFor();

  let asked = 0;
  for (let round = 1; round <= 2; round++) {
    await page.locator('.status.mine').waitFor();
    // One hint per seat every 2 s (the server answers rate_limited sooner).
    // Counted from when the previous hint was answered: a loaded machine may take a while between
    // this line and the server receiving the click.
    await new Promise((r) => setTimeout(r, Math.max(0, asked + 2300 - Date.now())));
    const before = await moveCount(page);
    await page.locator('[data-action=hint]', { hasText: 'Conseil' }).click();
    const from = page.locator('svg.board [data-suggest=from]');
    const to = page.locator('svg.board [data-suggest=to]');
    await until(async () => (await from.count()) === 1 && (await to.count()) === 1, 'the suggested piece and destination are marked');
    asked = Date.now();
    const fromCell = await from.getAttribute('data-suggest-cell');
    const toCell = await to.getAttribute('data-suggest-cell');
    assert(fromCell && toCell && fromCell !== toCell, `a suggestion from ${fromCell} to ${toCell}`);
    equal(await page.locator(`svg.board .piece.movable[data-cell="${fromCell}"]`).count(), 1, 'the suggested piece is one of mine that can move');
    equal(await moveCount(page), before, 'the hint is not played');
    // The player plays the suggested move by clicking it.
    await page.locator(`svg.board .piece[data-cell="${fromCell}"]`).click();
    await page.locator(`svg.board .dest[data-dest="${toCell}"]`).click();
    await until(async () => (await moveCount(page)) >= before + 2, `my move and the CPU's answer (round ${round})`, 20000);
    equal(await page.locator('svg.board [data-suggest]').count(), 0, 'the suggestion is gone after the move');
  }

  // A room with a friend: the host sees « Conseils autorisés », on by default, and can turn it off.
  await page.goto(base + '/');
  await page.click('[data-action=friends-draughts]');
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const row = page.locator('[data-opt=hints]');
  assert((await row.textContent()).includes('Conseils autorisés'), 'the setting row');
  assert(await row.locator('input').isChecked(), 'hints are on by default');
  await row.locator('input').uncheck();
  const code = page.url().split('/r/')[1];
  await until(() => page.evaluate(async (c) => (await (await fetch(`/api/rooms/${c}`)).json()).settings.hints === false, code), 'the server has hints off');
  await page.reload();
  await until(async () => !(await page.locator('[data-opt=hints] input').isChecked()), 'the setting is kept');
  equal(page.errors.length, 0, 'no script error');
});
