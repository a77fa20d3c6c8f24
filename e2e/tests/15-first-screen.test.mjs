// The first screen plays (issue 23): on a 390×844 phone and a 1366×768 laptop, what each screen is
// for lies inside the viewport without scrolling — the home page's buttons and join field, the
// lobby's seats and « Commencer », a game's board. Screenshots of each: 15-*.png.
import { noViolations } from '../axe.mjs';
import { equal, inFirstScreen, newPerson, playAnyMove, resign, roomCode, shot, until } from '../lib.mjs';

const SIZES = [['phone', { phone: true }], ['laptop', { laptop: true }]];

/** What every screen here must also be: one h1, and nothing axe-core (default rules) objects to. */
async function sound(page, where) {
  equal(await page.locator('h1').count(), 1, `${where}: one h1`);
  await noViolations(page, where);
}

const HOME = ['[data-action=cpu-cc]', '[data-action=friends-cc]', '[data-action=cpu-draughts]',
  '[data-action=friends-draughts]', '#join-code', '[data-action=join-code]'];

test('first screen: the home page holds both games’ buttons and the join field (phone, laptop, FR, EN)', async ({ base, browser, track }) => {
  for (const [size, opts] of SIZES) {
    for (const lang of ['fr', 'en']) {
      const { ctx, page } = await newPerson(browser, { ...opts, lang });
      track(ctx);
      await page.goto(base + '/');
      await page.locator('#join-code').waitFor();
      await inFirstScreen(page, [...HOME, 'main h1'], `home ${lang}`);
      await sound(page, `home ${lang} ${size}`);
      if (lang === 'fr') await shot(page, `15-home-${size}`);
      await ctx.close();
    }
  }
});

/** A person who opens the room's link and sits down. */
async function joins(browser, track, base, code, name, opts) {
  const { ctx, page } = await newPerson(browser, { name, ...opts });
  track(ctx);
  await page.goto(`${base}/r/${code}`);
  await page.locator('[data-action=join]').click();
  await page.locator('.seat.mine').waitFor();
  return page;
}

test('first screen: the host’s lobby shows the seats, who is there and « Commencer » (1 and 3 players)', async ({ base, browser, track }) => {
  for (const [size, opts] of SIZES) {
    const { ctx, page } = await newPerson(browser, { ...opts, name: 'Alice' });
    track(ctx);
    await page.goto(base + '/');
    await page.click('[data-action=friends-cc]');
    await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
    const code = await roomCode(page);
    // Alone: the seats and « Commencer » first, the invitation open by itself below them.
    await inFirstScreen(page, ['.seat', '[data-action=start]', 'main h1'], `lobby alone ${size}`);
    if (!(await page.locator('[data-testid=invite][open]').count())) throw new Error('the invitation opens by itself while the room has a free seat');
    await shot(page, `15-lobby-1-${size}`);
    await sound(page, `lobby alone ${size}`);
    // Three players: Hugo and Zoé join; the host sees them without scrolling.
    await page.locator('[data-opt=players] select').selectOption('3');
    await until(async () => (await page.locator('.seat').count()) === 3, 'three seats');
    await joins(browser, track, base, code, 'Hugo', opts);
    await joins(browser, track, base, code, 'Zoé', opts);
    await page.locator('.seat', { hasText: 'Zoé' }).waitFor();
    await until(async () => !(await page.locator('[data-testid=invite][open]').count()), 'the invitation folds once every seat is taken');
    await inFirstScreen(page, ['.seat', '[data-action=start]:not([disabled])'], `lobby 3 players ${size}`);
    await shot(page, `15-lobby-3-${size}`);
    await sound(page, `lobby 3 players ${size}`);
    // One tap opens the invitation again.
    await page.locator('[data-testid=invite] summary').click();
    await page.locator('[data-testid=room-code]').waitFor();
  }
});

test('first screen: a game of each kind shows its status and whole board', async ({ base, browser, track }) => {
  for (const [size, opts] of SIZES) {
    for (const game of ['cc', 'draughts']) {
      const { ctx, page } = await newPerson(browser, { ...opts, name: 'Zoé' });
      track(ctx);
      await page.goto(base + '/');
      await page.click(`[data-action=cpu-${game}]`);
      await page.click('dialog [data-value=play]');
      await page.locator('.status.mine').waitFor();
      await inFirstScreen(page, ['.status', 'svg.board'], `${game} game ${size}`);
      await shot(page, `15-game-${game}-${size}`);
      await sound(page, `${game} game ${size}`);
      // A toast (someone's news) is shown beside or under the board, never over it.
      await page.evaluate(async () => (await import('/js/dom.js')).toast('Bo propose la nulle.'));
      const [toastBox, boardBox] = await Promise.all([page.locator('#toasts .toast').last().boundingBox(),
        page.locator(game === 'cc' ? 'svg.board .layer-bg' : 'svg.board .dr-frame').first().boundingBox()]);
      const overlap = toastBox.x < boardBox.x + boardBox.width && boardBox.x < toastBox.x + toastBox.width
        && toastBox.y < boardBox.y + boardBox.height && boardBox.y < toastBox.y + toastBox.height;
      equal(overlap, false, `${game} ${size}: the toast ${JSON.stringify(toastBox)} clear of the board ${JSON.stringify(boardBox)}`);
      await ctx.close();
    }
  }
});

test('first screen: the result card, then the replay page', async ({ base, browser, track }) => {
  for (const [size, opts] of SIZES) {
    const { ctx, page } = await newPerson(browser, { ...opts, name: 'Zoé' });
    track(ctx);
    await page.goto(base + '/');
    await page.click('[data-action=cpu-draughts]');
    await page.click('dialog [data-value=play]');
    await page.locator('.status.mine').waitFor();
    await playAnyMove(page);
    await page.locator('.status.mine').waitFor();
    await resign(page);
    // One card: the outcome, the places once, the reason, the three buttons; nothing over the board.
    await page.locator('[data-testid=result-title]', { hasText: 'CPU Normal a gagné' }).waitFor();
    await page.locator('[data-testid=result-reason]', { hasText: 'Vous avez abandonné' }).waitFor();
    await inFirstScreen(page, ['[data-testid=result-title]', '[data-testid=result] .places li', '[data-action=rematch]',
      '[data-action=review]', '[data-testid=result] [data-action=download]'], `result ${size}`);
    equal(await page.locator('.place:visible').count(), 2, 'the places shown once');
    await until(async () => !(await page.locator('#toasts .toast').count()), 'no toast left over the board', 8000);
    await shot(page, `15-result-${size}`);
    await sound(page, `result ${size}`);
    const code = page.url().split('/r/')[1];
    await page.goto(`${base}/r/${code}/1`);
    await page.locator('[data-testid=replay] [data-replay=start]').waitFor();
    await inFirstScreen(page, ['main h1', 'svg.board', '[data-testid=replay] .replay-btn', '[data-testid=replay-pos]'], `replay page ${size}`);
    await shot(page, `15-replay-${size}`);
    await sound(page, `replay page ${size}`);
    // The keys drive the replay and never scroll the page, from a button as from the move list.
    await page.click('[data-replay=start]');
    for (const from of ['[data-replay=forward]', '[data-testid=moves] li:first-child button']) {
      await page.locator(from).focus({ preventScroll: true });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.keyboard.press('End');
      await until(async () => (await page.locator('[data-testid=replay-pos]').textContent()).includes('Fin de la partie'), 'End shows the end');
      equal(await page.evaluate(() => window.scrollY), 0, `End did not scroll the page (${from})`);
      await page.keyboard.press('Home');
      await until(async () => (await page.locator('[data-testid=replay]').getAttribute('data-index')) === '0', 'Home shows the start');
      equal(await page.evaluate(() => window.scrollY), 0, `Home did not scroll the page (${from})`);
    }
    await ctx.close();
  }
});
