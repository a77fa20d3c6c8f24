// Games among friends never get stuck (issue 11 items 1 and 6), from the players' side: the
// « Mes parties » badge and the home page's list follow a move made in another browser within
// a second.
import { assert, draughtsPair, equal, newPerson, playAnyMove, roomCode, shot, until } from '../lib.mjs';

test('leavers: the badge and the home list follow a move in another browser within a second', async ({ base, browser, track }) => {
  const { ana, bo, code } = await draughtsPair(browser, base, track, { phone: true });
  // Ana (White) moves, then goes to the home page: Bo is to move.
  await ana.locator('.status.mine').waitFor();
  await playAnyMove(ana, { tap: true });
  await bo.locator('.status.mine').waitFor();
  await ana.goto(base + '/');
  const item = ana.locator(`[data-testid=my-games] a[href="/r/${code}"]`);
  await item.waitFor();
  const badge = ana.locator('[data-testid=turn-badge]');
  equal(await item.evaluate((a) => a.classList.contains('mine')), false, 'not Ana’s turn yet');
  equal(await badge.isHidden(), true, 'no badge yet');
  // The page's stream is open before Bo moves. Ana has the game's link focused (keyboard).
  await until(() => ana.evaluate(() => document.documentElement.dataset.live === 'open'), 'the stream is open');
  await item.focus();
  await item.evaluate((el) => { /** @type {any} */ (el).probe = true; });

  const t0 = Date.now();
  await playAnyMove(bo, { tap: true });
  await until(async () => (await badge.isVisible()) && (await badge.textContent()) === '1', 'the badge says 1', 3000);
  const badgeMs = Date.now() - t0;
  await until(() => item.evaluate((a) => a.classList.contains('mine')), 'the list says it is Ana’s turn', 3000);
  const listMs = Date.now() - t0;
  assert(badgeMs < 1500 && listMs < 1500, `within a second of the move (badge ${badgeMs} ms, list ${listMs} ms, click included)`);
  assert(await ana.evaluate(() => /** @type {any} */ (document.activeElement).probe === true), 'the list drawn again keeps the focused link');
  await shot(ana, '92-phone-home-live');

  // « Mes parties » too: Ana moves in the room (another tab of hers), the list follows.
  const tab = await ana.context().newPage();
  await tab.goto(`${base}/r/${code}`);
  await ana.goto(base + '/games');
  const row = ana.locator(`[data-testid=games-list] a[data-code="${code}"]`);
  await until(async () => (await row.getAttribute('data-your-turn')) === 'true', 'your turn in « Mes parties »');
  await playAnyMove(tab, { tap: true });
  await until(async () => (await row.getAttribute('data-your-turn')) === 'false', '« Mes parties » follows the move', 3000);
  await until(() => badge.isHidden(), 'the badge is gone', 3000);
  await shot(ana, '92-phone-games-live');
  equal(ana.errors.length + bo.errors.length, 0, 'no script error');
});

/** Sets the room's settings as its host (the page's own cookies). @param {import('playwright-core').Page} page */
async function hostSettings(page, code, settings) {
  await page.evaluate(async ([c, s]) => {
    const r = await fetch(`/api/rooms/${c}/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(s) });
    if (!r.ok) throw new Error(await r.text());
  }, [code, settings]);
}

/** The toasts shown now, spaces made plain. */
const toasts = async (page) => (await page.locator('#toasts .toast').allTextContents()).map((s) => s.replace(/\s+/g, ' '));

test('leavers: C leaves for good, A hands the seat to a CPU, the game ends, the rematch does not wait, C comes back and takes the seat', async ({ base, browser, track }) => {
  const people = await Promise.all(['Ana', 'Bo', 'Cy'].map((name) => newPerson(browser, { name, phone: true })));
  for (const p of people) track(p.ctx);
  const [a, b, c] = people.map((p) => p.page);
  await a.goto(base + '/');
  await a.click('[data-action=friends-cc]');
  await a.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = await roomCode(a);
  // Three players, three turns each, a 5-second « Absence tolérée », quick CPUs.
  await hostSettings(a, code, { rules: { players: 3, move_limit: 3 }, away_after: 5, cpu_ms: 200 });
  await until(async () => (await a.locator('.seat').count()) === 3, 'three seats');
  // The setting is in the form, with its default marked.
  await a.locator('[data-opt=away_after]').waitFor();
  for (const p of [b, c]) {
    await p.goto(`${base}/r/${code}`);
    await p.locator('[data-action=join]').click();
    await p.locator('.seat.mine').waitFor();
  }
  await a.locator('.seat[data-seat="2"]', { hasText: 'Cy' }).waitFor();
  await a.click('[data-action=start]');
  for (const p of [a, b, c]) await p.locator('svg.board-cc').waitFor();

  // Ana and Bo move; it is Cy's turn, and Cy closes the page for good.
  await a.locator('.status.mine').waitFor();
  await playAnyMove(a, { tap: true });
  await b.locator('.status.mine').waitFor();
  await playAnyMove(b, { tap: true });
  await c.locator('.status.mine').waitFor();
  await c.close();

  // Ana is told Cy is away, then offered « Confier à un CPU » once 5 s have passed.
  const bar = a.locator('[data-testid=away]');
  await until(async () => (await bar.isVisible()) && (await bar.textContent()).includes('La connexion de Cy est coupée'), 'Ana sees Cy is away');
  await shot(a, '92-phone-away-wait');
  await a.locator('[data-action=away-cpu]').waitFor({ timeout: 15000 });
  await a.locator('[data-testid=away-level]').selectOption('facile');
  await shot(a, '92-phone-away-offer');
  await a.click('[data-action=away-cpu]');
  // Everyone is told; the CPU plays Cy's seat, which stays Cy's.
  for (const p of [a, b]) {
    await until(async () => (await toasts(p)).some((s) => s.includes('Un CPU (Facile) joue pour Cy')), 'the stand-in is announced');
  }
  await a.locator('[data-testid=players] [data-seat="2"] [data-testid=stand-in]').waitFor();
  equal(await bar.isHidden(), true, 'nothing more to offer');
  await shot(b, '92-phone-stand-in');

  // Ana and Bo play on, the CPU answers for Cy, until the move limit ends the game.
  await until(async () => {
    if (await a.locator('[data-testid=result]').isVisible()) return true;
    for (const p of [a, b]) {
      if (await p.locator('.status.mine').count()) {
        await playAnyMove(p, { tap: true }).catch(() => {});
        return false;
      }
    }
    return false;
  }, 'the game ends', 60000);
  await b.locator('[data-testid=result]').waitFor();
  await shot(a, '92-phone-away-finished');

  // The rematch does not wait for Cy: the CPU standing in for them is ready.
  await a.click('[data-action=rematch]');
  await b.click('[data-action=rematch]');
  await until(async () => (await a.locator('[data-testid=result]').isHidden()) && (await a.locator('[data-testid=moves] li[data-seat]').count()) < 3, 'game 2 started without Cy');

  // Cy comes back (a new tab of the same browser): the seat is theirs again at once.
  const back = await people[2].ctx.newPage();
  back.errors = [];
  back.on('pageerror', (e) => back.errors.push(e.message));
  await back.goto(`${base}/r/${code}`);
  await until(async () => (await toasts(back)).some((s) => s.includes('Vous reprenez votre place')), 'Cy is told they took the seat back');
  await until(async () => (await toasts(a)).some((s) => s.includes('Cy est de retour')), 'Ana is told Cy is back');
  await until(async () => (await a.locator('[data-testid=stand-in]').count()) === 0, 'no CPU on Cy’s seat any more');
  equal(await back.locator('[data-testid=players] li.mine[data-seat="2"]').count(), 1, 'Cy holds seat 3 again');
  await shot(back, '92-phone-returned');
  equal(a.errors.length + b.errors.length + back.errors.length, 0, 'no script error');
});

test('leavers: in a 2-player game the one who stays claims the win', async ({ base, browser, track }) => {
  const ana = await newPerson(browser, { name: 'Ana', phone: true });
  const bo = await newPerson(browser, { name: 'Bo' });
  track(ana.ctx);
  track(bo.ctx);
  const a = ana.page;
  const b = bo.page;
  await a.goto(base + '/');
  await a.click('[data-action=friends-draughts]');
  await a.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = await roomCode(a);
  await hostSettings(a, code, { away_after: 5 });
  await b.goto(`${base}/r/${code}`);
  await b.locator('[data-action=join]').click();
  await b.locator('.seat.mine').waitFor();
  await a.locator('.seat[data-seat="1"]', { hasText: 'Bo' }).waitFor();
  await a.click('[data-action=start]');
  await a.locator('.status.mine').waitFor();
  await playAnyMove(a, { tap: true });
  await b.locator('.status.mine').waitFor();
  await b.close();
  // First the CPU, with the claim's own wait said; then the claim.
  await a.locator('[data-action=away-cpu]').waitFor({ timeout: 15000 });
  const wait = a.locator('[data-testid=claim-wait]');
  await wait.waitFor();
  // The bar is drawn again each second of the countdown: the level select Ana has open stays.
  const level = a.locator('[data-testid=away-level]');
  await level.tap();
  await level.evaluate((el) => { /** @type {any} */ (el).probe = true; });
  const said = await wait.textContent();
  await until(async () => (await wait.textContent()) !== said, 'the countdown moved on');
  assert(await a.evaluate(() => /** @type {any} */ (document.activeElement).probe === true), 'the level select is the same element, still focused');
  const claim = a.locator('[data-action=away-claim]');
  await claim.waitFor({ timeout: 20000 });
  await shot(a, '92-phone-claim');
  await claim.click();
  await a.locator('dialog [data-value=yes]').click();
  await a.locator('[data-testid=result-title]', { hasText: 'Vous avez gagné' }).waitFor();
  const result = (await a.locator('[data-testid=result]').textContent()) || '';
  assert(result.includes('Victoire réclamée'), `the reason is said (${result})`);
  await shot(a, '92-phone-claimed');
  // In English too.
  await a.locator('[data-action=lang]').click();
  await until(async () => ((await a.locator('[data-testid=result]').textContent()) || '').includes('Win claimed'), 'the reason in English');
  equal(a.errors.length, 0, 'no script error');
});

test('leavers: Bo moves to a new browser through the one-time link and plays on while the old page is refused', async ({ base, browser, track }) => {
  const { ana, bo, code } = await draughtsPair(browser, base, track, { phone: true });
  await ana.locator('.status.mine').waitFor();
  await playAnyMove(ana, { tap: true });
  await bo.locator('.status.mine').waitFor();
  // Bo shows the link and its QR code.
  await bo.click('[data-action=transfer]');
  await bo.locator('[data-testid=transfer-qr]').waitFor();
  const url = await bo.locator('[data-testid=transfer-url]').inputValue();
  assert(url.includes(`/r/${code}#transfer=`), `a link to the room with its token (${url})`);
  await shot(bo, '92-phone-transfer');
  await bo.locator('dialog [data-value=close]').click();

  // The other device opens it: the seat is there, Bo plays on.
  const phone = await newPerson(browser, { name: 'Bo', phone: true });
  track(phone.ctx);
  const p = phone.page;
  await p.goto(url);
  await until(async () => (await toasts(p)).some((s) => s.includes('Vous jouez maintenant depuis cet appareil')), 'the new device is told');
  equal(new URL(p.url()).hash, '', 'the link is forgotten once used');
  await p.locator('.status.mine').waitFor();
  // The old page is told and becomes a spectator's.
  await until(async () => (await toasts(bo)).some((s) => s.includes('Votre place est passée sur un autre appareil')), 'the old page is told');
  await bo.locator('[data-testid=spectating]').waitFor();
  equal(await bo.locator('svg.board .piece.movable').count(), 0, 'nothing to move on the old page');
  await shot(bo, '92-phone-seat-moved');
  const before = await p.locator('[data-testid=moves] li[data-seat]').count();
  await playAnyMove(p, { tap: true });
  await until(async () => (await ana.locator('[data-testid=moves] li[data-seat]').count()) === before + 1, 'Ana sees the move from the new device');
  // The link worked once.
  const again = await newPerson(browser, { name: 'Eve' });
  track(again.ctx);
  await again.page.goto(url);
  await until(async () => (await toasts(again.page)).some((s) => s.includes('Ce lien n’est plus valable')), 'a used link is refused');
  equal(ana.errors.length + bo.errors.length + p.errors.length, 0, 'no script error');
});

test('leavers: a rematch starts without the player who left, a CPU in their seat', async ({ base, browser, track }) => {
  const { ana, bo } = await draughtsPair(browser, base, track, { phone: true });
  await ana.locator('.status.mine').waitFor();
  await ana.click('[data-action=resign]');
  await ana.locator('dialog [data-value=yes]').click();
  await ana.locator('[data-testid=result]').waitFor();
  await bo.close();
  const without = ana.locator('[data-action=rematch-without]');
  await without.waitFor();
  assert(((await without.textContent()) || '').includes('Rejouer sans Bo'), 'the button names who is missing');
  await ana.locator('[data-testid=rematch-level]').selectOption('expert');
  await shot(ana, '92-phone-rematch-without');
  await without.click();
  await until(async () => (await ana.locator('[data-testid=result]').isHidden()), 'game 2 started');
  await ana.locator('[data-testid=players] [data-seat="1"] [data-testid=stand-in]').waitFor();
  await until(async () => (await toasts(ana)).some((s) => s.includes('Un CPU (Expert) joue pour Bo')), 'the CPU of the chosen level is announced');
  // The CPU plays Bo's moves: the game goes on.
  await until(async () => (await ana.locator('[data-testid=moves] li[data-seat="1"]').count()) >= 1 || (await ana.locator('.status.mine').count()) > 0, 'the game goes on');
  equal(ana.errors.length, 0, 'no script error');
});

test('leavers: the host frees the seat of the player who left; the room goes back to the lobby and someone new plays', async ({ base, browser, track }) => {
  const { ana, bo, code } = await draughtsPair(browser, base, track, { phone: true });
  await ana.locator('.status.mine').waitFor();
  await ana.click('[data-action=resign]');
  await ana.locator('dialog [data-value=yes]').click();
  await bo.locator('[data-testid=result]').waitFor();
  // Ana (the host) steps away: Bo may hand her seat to a CPU, but freeing seats is the host's choice.
  await ana.goto(base + '/');
  await bo.locator('[data-action=rematch-without]').waitFor();
  equal(await bo.locator('[data-action=rematch-empty]').count(), 0, 'only the host is offered to free seats');
  await ana.goto(`${base}/r/${code}`);
  await ana.locator('[data-testid=result]').waitFor();
  await bo.close();
  const empty = ana.locator('[data-action=rematch-empty]');
  await empty.waitFor();
  assert(((await empty.textContent()) || '').includes('Libérer la place de Bo'), 'the button names who left');
  await shot(ana, '92-phone-rematch-empty');
  await empty.click();
  // Back in the lobby, Bo's seat free, said in a toast.
  await ana.locator('[data-action=start]').waitFor();
  await until(async () => (await toasts(ana)).some((s) => s.includes('Retour au salon')), 'the lobby is announced');
  equal(await ana.locator('.seat[data-seat="1"]', { hasText: 'Bo' }).count(), 0, 'Bo’s seat is free');
  await shot(ana, '92-phone-lobby-reopened');
  // Cy joins with the link; Ana starts game 2.
  const cy = await newPerson(browser, { name: 'Cy', phone: true });
  track(cy.ctx);
  await cy.page.goto(`${base}/r/${code}`);
  await cy.page.locator('[data-action=join]').click();
  await cy.page.locator('.seat.mine').waitFor();
  await ana.locator('.seat[data-seat="1"]', { hasText: 'Cy' }).waitFor();
  await ana.click('[data-action=start]');
  await ana.locator('svg.board-draughts').waitFor();
  await cy.page.locator('svg.board-draughts').waitFor();
  await until(async () => (await ana.locator('.status.mine').count()) + (await cy.page.locator('.status.mine').count()) > 0, 'game 2 is played');
  equal(ana.errors.length + cy.page.errors.length, 0, 'no script error');
});
