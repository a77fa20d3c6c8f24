// The host sets 6 players, fills the empty seats with CPUs of chosen levels, starts, and plays.
import { assert, equal, moveCount, newPerson, playAnyMove, until } from '../lib.mjs';

test('Chinese checkers, 6 seats: the host fills seats with CPUs, starts, the CPUs answer', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Hugo' });
  track(ctx);
  await page.goto(base + '/');
  await page.click('[data-action=friends-cc]');
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  // Japanese rules (RULES.md 1.6): the form brings the 15 pieces they need (shown, locked); the
  // server accepts. 4–6 players are not offered under them.
  await page.locator('[data-opt=rule_set] select').selectOption('japanese');
  await until(async () => (await page.locator('[data-opt=rule_set] select').inputValue()) === 'japanese' && (await page.locator('[data-opt=pieces] select').inputValue()) === '15', 'Japanese rules kept');
  equal(await page.locator('[data-opt=pieces] select').isDisabled(), true, '15 pieces locked');
  equal(await page.locator('[data-opt=players] option[value="6"]').count(), 0, '6 players not offered');
  equal(await page.locator('.toast-error').count(), 0, 'no refused setting');
  // Back to the international rules (10 pieces), then 6 players.
  await page.locator('[data-opt=rule_set] select').selectOption('international');
  await until(async () => (await page.locator('[data-opt=players] option[value="6"]').count()) === 1, '6 players offered again');
  await page.locator('[data-opt=players] select').selectOption('6');
  await until(async () => (await page.locator('.seat').count()) === 6, 'six seats');
  equal(await page.locator('[data-opt=rule_set] option[value=japanese]').isDisabled(), true, 'Japanese not offered with 6 players');
  equal(await page.locator('.toast-error').count(), 0, 'no refused setting');
  const levels = ['facile', 'normal', 'difficile', 'expert', 'facile'];
  for (let s = 1; s <= 5; s++) {
    await page.locator(`select[data-cpu-seat="${s}"]`).selectOption(levels[s - 1]);
    await page.locator(`.seat[data-seat="${s}"].seat-cpu`).waitFor();
  }
  assert((await page.locator('.seat[data-seat="4"]').textContent()).includes('Expert'), 'CPU level shown');
  // Each seat shows its camp (RULES.md 1.2: all six camps).
  const camps = await page.locator('.seat .seat-where').allTextContents();
  equal(new Set(camps).size, 6, 'six different camps');
  await page.click('[data-action=start]');
  await page.locator('svg.board-cc').waitFor();
  equal(await page.locator('svg.board .piece').count(), 60, '60 pieces');
  equal(await page.locator('[data-testid=players] .player').count(), 6, 'six players listed');
  // Six colours, each with its own mark.
  const marks = await page.locator('[data-testid=players] .player svg.swatch').evaluateAll((els) => els.map((e) => e.innerHTML));
  equal(new Set(marks).size, 6, 'six distinct colour+mark swatches');
  await until(async () => (await page.locator('.status.mine').count()) === 1, 'my turn', 30000);
  const before = await moveCount(page);
  await playAnyMove(page);
  await until(async () => (await moveCount(page)) >= before + 6, 'the five CPUs answered', 40000);
  equal(page.errors.length, 0, 'no script error');
});
