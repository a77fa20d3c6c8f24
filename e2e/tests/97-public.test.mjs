// Open tables, games to watch and conduct without accounts (issue 20), from the people's side,
// on phones and desktops: a public room appears live in a third browser's « Jouer en ligne » and
// is joined in one tap, a private room never appears in any list; a spectator opens a public game
// from the list and sees a move arrive; a preset phrase is shown by the player's name and heard by
// screen readers, then muted (and stays muted after a reload); a report is filed; « Ne plus jouer
// avec cette personne » is sent and acknowledged.
import { assert, equal, moveCount, newPerson, playAnyMove, roomCode, shot, toMove, until } from '../lib.mjs';

/** Ana's friends room of `game`, made public in the lobby (« Partie publique »); its code. */
async function publicRoom(page, base, game) {
  await page.goto(base + '/');
  await page.locator(`[data-action=friends-${game}]`).click();
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = await roomCode(page);
  await page.locator('#opt-public').check();
  await page.locator('[data-testid=public-tag]').waitFor();
  return code;
}

/** Every room code the page's lists show. */
const listed = (page) => page.locator('[data-testid=public] [data-code]').evaluateAll((els) => els.map((e) => e.getAttribute('data-code')));
/** What `GET /api/public` answers, as text. */
const answered = (page) => page.evaluate(async () => (await fetch('/api/public')).text());

test('public: a public table appears live in a third browser and is joined in one tap; a private room never appears', async ({ base, browser, track }) => {
  const ana = await newPerson(browser, { name: 'Ana', phone: true });
  const cy = await newPerson(browser, { name: 'Cy', laptop: true });
  const bo = await newPerson(browser, { name: 'Bo' });
  for (const p of [ana, cy, bo]) track(p.ctx);
  // Cy's room stays private (the default); Cy watches the home page of a second tab.
  await cy.page.goto(base + '/');
  await cy.page.locator('[data-action=friends-cc]').click();
  await cy.page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const secret = await roomCode(cy.page);
  const cyHome = await cy.ctx.newPage();
  await cyHome.goto(base + '/');
  await cyHome.locator('[data-testid=public][data-loaded=true]').waitFor();

  const code = await publicRoom(ana.page, base, 'draughts');
  // Cy's open home page shows it without a reload (the live feed).
  await cyHome.locator(`[data-testid=public-open] [data-code="${code}"]`).waitFor();
  await bo.page.goto(base + '/');
  const table = bo.page.locator(`[data-testid=public-open] [data-code="${code}"]`);
  await table.waitFor();
  const text = (await table.textContent()).replace(/\s+/g, ' ');
  assert(text.includes('Jeu de dames') && text.includes('Ana') && text.includes('1 place libre'), `the table says the game, the host and the free seat (${text})`);
  await table.scrollIntoViewIfNeeded();
  await shot(bo.page, '97-desktop-open-tables');
  for (const page of [bo.page, cyHome]) {
    assert(!(await listed(page)).includes(secret), 'the private room is in no list');
    assert(!(await answered(page)).includes(secret), 'nor in the answer of the server');
  }

  // One tap: Bo's name is known, the seat is taken, the room opens with Bo seated.
  await table.locator('[data-action=public-join]').click();
  await bo.page.waitForURL(new RegExp(`/r/${code}$`));
  await bo.page.locator('.seat.mine').waitFor();
  await ana.page.locator('.seat[data-seat="1"]', { hasText: 'Bo' }).waitFor();
  // Full: the table leaves Cy's list, live.
  await until(async () => !(await listed(cyHome)).includes(code), 'the full table leaves the list');
  assert(!(await listed(cyHome)).includes(secret), 'the private room never appeared');
  equal(ana.page.errors.length + bo.page.errors.length + cy.page.errors.length, 0, 'no script error');
});

test('public: a spectator watches a public game from the list and sees a move arrive; a phrase is shown, heard and muted', async ({ base, browser, track }) => {
  const ana = await newPerson(browser, { name: 'Ana' });
  const bo = await newPerson(browser, { name: 'Bo', phone: true });
  const dee = await newPerson(browser, { name: 'Dee', phone: true });
  for (const p of [ana, bo, dee]) track(p.ctx);
  const code = await publicRoom(ana.page, base, 'draughts');
  await bo.page.goto(`${base}/r/${code}`);
  await bo.page.locator('[data-action=join]').click();
  await bo.page.locator('.seat.mine').waitFor();
  await ana.page.locator('.seat[data-seat="1"]', { hasText: 'Bo' }).waitFor();
  await ana.page.click('[data-action=start]');
  await ana.page.locator('svg.board-draughts').waitFor();
  await bo.page.locator('svg.board-draughts').waitFor();

  // Dee finds it among the games to watch (featured: the only one watched) and opens it.
  await dee.page.goto(base + '/');
  const game = dee.page.locator(`[data-testid=public-watch] [data-code="${code}"]`);
  await game.waitFor();
  assert((await game.textContent()).includes('Ana'), 'the players are named');
  await game.scrollIntoViewIfNeeded();
  await shot(dee.page, '97-phone-games-to-watch');
  await game.locator('[data-action=public-watch]').click();
  await dee.page.waitForURL(new RegExp(`/r/${code}$`));
  await dee.page.locator('svg.board-draughts').waitFor();
  await dee.page.locator('[data-testid=spectating]').waitFor();
  equal(await dee.page.locator('[data-action=resign]').count(), 0, 'a spectator has no action');
  equal(await dee.page.locator('[data-testid=phrase-bar]').count(), 0, 'nor phrases to say');
  const before = await moveCount(dee.page);
  const mover = await toMove(ana.page, bo.page);
  await playAnyMove(mover, { tap: mover === bo.page });
  await until(async () => (await moveCount(dee.page)) === before + 1, 'the spectator sees the move arrive');

  // The featured game (the most watched: Dee watches this one) is drawn small on the home page
  // of a fourth browser, and follows the game.
  const eve = await newPerson(browser, { name: 'Eve', phone: true });
  track(eve.ctx);
  await eve.page.goto(base + '/');
  const featured = eve.page.locator(`[data-testid=public-watch] .public-featured[data-code="${code}"]`);
  await featured.waitFor();
  await featured.scrollIntoViewIfNeeded();
  const mini = featured.locator('[data-testid=featured-board] svg.featured-board');
  await mini.waitFor();
  equal(await mini.locator('.piece').count(), 40, 'the featured game’s position is drawn');
  equal(Number(await mini.getAttribute('data-moves')), before + 1, 'as it is now');
  assert((await mini.getAttribute('aria-label') || '').includes('coup'), 'the small board has a name');
  const next = await toMove(ana.page, bo.page);
  await playAnyMove(next, { tap: next === bo.page });
  await until(async () => Number(await featured.locator('svg.featured-board').getAttribute('data-moves')) === before + 2,
    'the featured board follows the game');
  await shot(eve.page, '97-phone-featured-board');

  // A phrase: a bubble by Ana's name for Bo and Dee, and a polite announcement.
  await ana.page.locator('[data-testid=phrase-bar] [data-phrase=hello]').click();
  for (const page of [bo.page, dee.page]) {
    const bubble = page.locator('.players [data-testid=phrase-bubble][data-phrase=hello]');
    await bubble.waitFor();
    equal((await bubble.textContent()).trim(), 'Bonjour', 'shown in the reader’s language');
    await until(async () => (await page.locator('[data-testid=phrase-live]').textContent()).includes('Ana'), 'announced to screen readers');
  }
  await shot(bo.page, '97-phone-phrase');

  // Bo mutes Ana: her next phrase reaches Dee but not Bo, and it stays so after a reload.
  const anaSeat = await ana.page.locator('.players .player.mine').getAttribute('data-seat');
  await bo.page.locator(`.players [data-action=conduct][data-seat="${anaSeat}"]`).click();
  await bo.page.locator('dialog [data-value=mute]').click();
  await bo.page.locator('.players [data-testid=muted]').waitFor();
  await ana.page.waitForTimeout(300);
  await ana.page.locator('[data-testid=phrase-bar] [data-phrase=well_played]').click();
  await dee.page.locator('.players [data-testid=phrase-bubble][data-phrase=well_played]').waitFor();
  await bo.page.waitForTimeout(500);
  equal(await bo.page.locator('[data-testid=phrase-bubble][data-phrase=well_played]').count(), 0, 'muted: not shown');
  await bo.page.reload();
  await bo.page.locator('.players [data-testid=muted]').waitFor();

  // « Signaler »: a preset reason, sent to the site's team.
  await bo.page.locator(`.players [data-action=conduct][data-seat="${anaSeat}"]`).click();
  await bo.page.locator('dialog [data-value=report]').click();
  await bo.page.locator('dialog input[name=report-reason][value=stalling]').check();
  await bo.page.locator('dialog [data-value=send]').click();
  await bo.page.locator('#toasts .toast', { hasText: 'Signalement envoyé' }).waitFor();
  for (const p of [ana, bo, dee, eve]) equal(p.page.errors.length, 0, 'no script error');
});

test('public: « Ne plus jouer avec cette personne » asks first, then the server acknowledges it', async ({ base, browser, track }) => {
  const ana = await newPerson(browser, { name: 'Ana', phone: true });
  const bo = await newPerson(browser, { name: 'Bo', laptop: true });
  for (const p of [ana, bo]) track(p.ctx);
  const code = await publicRoom(ana.page, base, 'cc');
  await bo.page.goto(`${base}/r/${code}`);
  await bo.page.locator('[data-action=join]').click();
  await bo.page.locator('.seat.mine').waitFor();
  await bo.page.locator('.seat[data-seat="0"] [data-action=conduct]').click();
  await bo.page.locator('dialog [data-value=block]').click();
  // The confirmation says what it does; cancelling sends nothing.
  const sent = [];
  bo.page.on('request', (r) => { if (r.url().endsWith('/api/me/blocks')) sent.push(r.postDataJSON()); });
  await bo.page.locator('dialog', { hasText: 'Ne plus jouer avec Ana' }).waitFor();
  const answer = bo.page.waitForResponse((r) => r.url().endsWith('/api/me/blocks'));
  await bo.page.locator('dialog [data-value=block]').click();
  const res = await answer;
  equal(JSON.stringify(sent[0]), JSON.stringify({ room: code, seat: 0 }), 'the room and the seat are sent, nothing else');
  equal(res.status(), 200, 'the server acknowledges the block');
  equal(JSON.stringify(await res.json()), JSON.stringify({ blocked: true }), 'blocked');
  await bo.page.locator('#toasts .toast', { hasText: 'C’est noté' }).waitFor();
  // The room is left as it was found: private again.
  await ana.page.locator('#opt-public').uncheck();
  await ana.page.locator('[data-testid=public-tag]').waitFor({ state: 'detached' });
});
