// Accessibility (issues 14, 23): axe-core with its default rules finds no violation of any impact on any page (light and
// dark), in dialogs, in a lobby and in games in progress; moves are announced to screen readers;
// a whole game is played with the keyboard alone.
import { assert, equal, moveCount, newPerson, resign, shot, until } from '../lib.mjs';
import { noViolations } from '../axe.mjs';

test('axe-core: every page, the dialogs, a lobby and games in progress, light and dark', async ({ base, browser, track }) => {
  for (const colorScheme of ['light', 'dark']) {
    const { ctx, page } = await newPerson(browser, { phone: colorScheme === 'dark' });
    track(ctx);
    await page.emulateMedia({ colorScheme });
    // Every page in light; in dark (the same markup, other colours) the home page and the rules.
    const pages = [['/', '[data-testid=facts]'], ['/rules', '.page-rules h1'], ['/faq', '.page-faq h1'],
      ['/data', '.page-data h1'], ['/games', 'main h1'], ['/avis', 'main h1'], ['/no-such-page', 'main a[href="/"]']];
    for (const [path, ready] of colorScheme === 'light' ? pages : pages.slice(0, 2)) {
      await page.goto(base + path);
      await page.locator(ready).first().waitFor();
      await noViolations(page, `${colorScheme} ${path}`);
    }
    // The name dialog (« Changer de nom »), then the « Contre le CPU » one.
    await page.goto(base + '/');
    await page.click('[data-action=name]');
    await page.locator('dialog input[name=name]').waitFor();
    await noViolations(page, `${colorScheme} name dialog`);
    await page.locator('dialog [data-value=ok]').click();
    await page.click('[data-action=cpu-draughts]');
    await page.locator('dialog [data-value=play]').waitFor();
    await noViolations(page, `${colorScheme} CPU dialog`);
    await page.click('dialog [data-value=play]');
    // A draughts game in progress, a piece picked (its destinations shown).
    await page.locator('.status.mine').waitFor();
    await page.locator('svg.board .piece.movable').first().click();
    await page.locator('svg.board .dest').first().waitFor();
    await noViolations(page, `${colorScheme} draughts game`);
    // A lobby with its sharing card, then a Chinese checkers game in progress.
    await page.goto(base + '/');
    await page.click('[data-action=friends-cc]');
    await page.locator('[data-testid=room-code]').waitFor();
    await noViolations(page, `${colorScheme} lobby`);
    await page.locator('[data-cpu-seat="1"]').selectOption('facile');
    await page.locator('.seat[data-seat="1"].seat-cpu').waitFor();
    await page.click('[data-action=start]');
    await page.locator('svg.board-cc').waitFor();
    await page.locator('.status.mine').waitFor();
    await noViolations(page, `${colorScheme} Chinese checkers game`);
    // The end of the game: the result card, then the game's replay page.
    await resign(page);
    await noViolations(page, `${colorScheme} result card`);
    const code = page.url().split('/r/')[1];
    await page.goto(`${base}/r/${code}/1`);
    await page.locator('[data-testid=replay] [data-replay=start]').waitFor();
    await noViolations(page, `${colorScheme} replay page`);
    equal(page.errors.length, 0, 'no script error');
  }
});

/** Presses Tab until `selector` has the focus (it must be reachable by the keyboard). */
async function tabTo(page, selector, max = 60) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((sel) => !!document.activeElement && document.activeElement.matches(sel), selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${selector} not reached with Tab`);
}

/** What has the focus, for assertions. */
const focused = (page) => page.evaluate(() => {
  const a = document.activeElement;
  return a ? { cell: a.getAttribute('data-cell'), dest: a.getAttribute('data-dest'), inBoard: !!a.closest('svg.board'), label: a.getAttribute('aria-label') } : null;
});

test('keyboard only: a whole draughts game against the CPU, every move announced', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Lou', cpuMs: 60 });
  track(ctx);
  await page.goto(base + '/');
  await page.locator('[data-action=cpu-draughts]').waitFor();
  await tabTo(page, '[data-action=cpu-draughts]');
  await page.keyboard.press('Enter');
  // The dialog: the variant radios (arrow keys), the level, then « Jouer ».
  await page.locator('dialog [data-value=play]').waitFor();
  await tabTo(page, 'dialog input[name=variant]');
  await page.keyboard.press('ArrowRight'); // Brésilienne, 8×8
  equal(await page.evaluate(() => document.activeElement.value), 'brazilian', 'the 8×8 board picked with the arrows');
  await tabTo(page, 'dialog input[name=level]');
  await page.keyboard.press('ArrowLeft'); // Facile
  await tabTo(page, 'dialog [data-value=play]');
  await page.keyboard.press('Enter');
  await page.locator('svg.board-draughts').waitFor();
  await page.locator('.status.mine').waitFor();
  // Into the board: one Tab stop, a movable piece.
  await tabTo(page, 'svg.board .piece.movable');
  assert(/^case \d+, (pion blanc|dame blanche)$/.test((await focused(page)).label), `a piece says where it is and what it is (${(await focused(page)).label})`);

  let mine = 0;
  for (let turn = 0; turn < 150; turn++) {
    const state = await until(async () => {
      if (await page.locator('[data-testid=result]').isVisible()) return 'over';
      if (await page.locator('.status.mine').count()) return 'mine';
      return null;
    }, 'my turn or the end', 30000);
    if (state === 'over') break;
    // The focus came back to the board by itself: a movable piece.
    await until(async () => {
      const f = await focused(page);
      return f && f.inBoard && f.cell && (await page.locator(`svg.board .piece.movable[data-cell="${f.cell}"]`).count());
    }, 'a movable piece has the focus');
    // Walk over the pieces with the arrows, pick one, walk over its destinations, play.
    const moves = await moveCount(page);
    for (let k = 0; k < (turn % 4); k++) await page.keyboard.press(['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp'][(turn + k) % 4]);
    await page.keyboard.press('Enter');
    await until(async () => (await focused(page)).dest, 'a destination has the focus');
    if (turn % 3 === 1) await page.keyboard.press('End');
    for (let k = 0; k < 5 && (await focused(page)).dest; k++) await page.keyboard.press('Enter'); // a path to pick: Enter again
    mine++;
    await until(async () => (await moveCount(page)) > moves || (await page.locator('[data-testid=result]').isVisible()), 'my move was played');
  }
  await page.locator('[data-testid=result]').waitFor();
  assert(mine >= 5, `several moves played by keyboard (${mine})`);
  const said = await page.locator('[data-testid=announcer]').textContent();
  assert(/Vous jouez \d+[-x]\d+/.test(said) || /CPU Facile joue \d+[-x]\d+/.test(said), `moves announced (${said})`);
  await shot(page, '88-keyboard-game-over');
  // The result's buttons are reachable too.
  await tabTo(page, '[data-action=rematch]');
  equal(page.errors.length, 0, 'no script error');
});

test('screen readers: the opponent’s moves are announced (« CPU Facile joue 32-28 »)', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Max', cpuMs: 60 });
  track(ctx);
  await page.goto(base + '/');
  await page.click('[data-action=cpu-draughts]');
  await page.locator('dialog .seg', { hasText: 'Facile' }).click();
  await page.click('dialog [data-value=play]');
  await page.locator('.status.mine').waitFor();
  await page.locator('svg.board .piece.movable').first().click();
  await page.locator('svg.board .dest').first().click();
  await until(async () => (await moveCount(page)) >= 2, 'the CPU answered');
  const lines = await page.locator('[data-testid=announcer] p').allTextContents();
  assert(lines.some((l) => /^Vous jouez \d+-\d+$/.test(l)), `my move (${lines})`);
  assert(lines.some((l) => /^CPU Facile joue \d+[-x]\d+$/.test(l)), `the CPU's move (${lines})`);
  equal(await page.locator('[data-testid=announcer]').getAttribute('aria-live'), 'polite', 'a polite live region');
});

test('a room page and a replay page while they load: one h1 naming them, axe-core clean', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Inès' });
  track(ctx);
  await page.goto(base + '/');
  await page.click('[data-action=cpu-draughts]');
  await page.click('dialog [data-value=play]');
  await page.locator('.status.mine').waitFor();
  const code = page.url().split('/r/')[1];
  await resign(page);
  // The room's and the game's answers held back: the pages stay on their loading state.
  const held = [];
  await page.route(/\/api\/rooms\//, (route) => { held.push(route); });
  for (const [path, title] of [[`/r/${code}`, `Partie ${code}`], [`/r/${code}/1`, `Partie 1 de la salle ${code}`]]) {
    await page.goto(base + path, { waitUntil: 'domcontentloaded' });
    await until(() => held.length, `${path} asked for its data`);
    // A game's page names its room until its screen's module has run, then the game: wait for
    // that heading rather than read whichever of the two the first look finds.
    const heading = async () => ((await page.locator('main h1').count()) === 1 ? await page.locator('main h1').textContent() : null);
    await until(async () => (await heading())?.includes(title), `${path}: one h1 while loading, naming the page`);
    await noViolations(page, `${path} while loading`);
    for (const r of held.splice(0)) await r.abort().catch(() => {});
  }
  await page.unroute(/\/api\/rooms\//);
});
