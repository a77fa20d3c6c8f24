// Two people in two browser contexts: create a Chinese checkers room, join by code, start, play by
// clicking, see each other's moves live, resign, rematch.
import { assert, equal, moveCount, newPerson, playAnyMove, roomCode, shot, toMove, until } from '../lib.mjs';

test('Chinese checkers with a friend: create, join by code, play live, resign, rematch', async ({ base, browser, track }) => {
  const host = await newPerson(browser, { name: 'Ana' });
  const guest = await newPerson(browser, { name: 'Bo' });
  track(host.ctx);
  track(guest.ctx);
  const a = host.page;
  const b = guest.page;

  await a.goto(base + '/');
  await a.click('[data-action=friends-cc]');
  await a.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = await roomCode(a);
  assert(a.url().endsWith('/r/' + code), 'the URL is the room link');
  equal(await a.locator('img.qr').getAttribute('src'), `/api/rooms/${code}/qr.svg`, 'QR code image');
  await until(() => a.locator('img.qr').evaluate((img) => img.complete && img.naturalWidth > 0), 'QR code loaded');
  equal(await a.locator('.seat').count(), 2, 'two seats by default');
  assert(await a.locator('[data-action=start]').isDisabled(), 'cannot start with a free seat');
  assert((await a.locator('.settings [data-opt]').count()) >= 10, 'the host sees the room options');

  // The guest types the code in lower case on the home page.
  await b.goto(base + '/');
  await b.fill('#join-code', code.toLowerCase());
  await b.click('[data-action=join-code]');
  await b.waitForURL(new RegExp(`/r/${code}$`));
  await b.locator('.seat.mine').waitFor();
  assert((await b.locator('.seat.mine').textContent()).includes('Bo'), 'guest seated under their name');
  assert(await b.locator('.settings input').first().isDisabled(), 'guest cannot change the settings');

  // The host sees the guest arrive live, then starts.
  await a.locator('.seat[data-seat="1"]', { hasText: 'Bo' }).waitFor();
  await shot(a, '02-lobby-qr', { fullPage: true });
  await a.click('[data-action=start]');
  await a.locator('svg.board-cc').waitFor();
  await b.locator('svg.board-cc').waitFor();
  equal(await a.locator('svg.board .piece').count(), 20, '20 pieces on the star');
  // Each player sees their own camp at the bottom.
  for (const [p, me, other] of [[a, 0, 1], [b, 1, 0]]) {
    const ys = await p.evaluate(([me, other]) => {
      const avg = (s) => { const els = [...document.querySelectorAll(`svg.board .piece[data-owner="${s}"]`)]; return els.reduce((t, e) => t + e.getBoundingClientRect().y, 0) / els.length; };
      return [avg(me), avg(other)];
    }, [me, other]);
    assert(ys[0] > ys[1], `seat ${me} sees its camp at the bottom`);
  }
  // A third person with the link watches live.
  const watcher = await newPerson(browser, { name: 'Zoé' });
  track(watcher.ctx);
  const w = watcher.page;
  await w.goto(`${base}/r/${code}`);
  await w.locator('svg.board-cc').waitFor();

  // Whoever is to move plays by clicking; the other sees it live. Four moves.
  for (let i = 0; i < 4; i++) {
    const mover = await toMove(a, b);
    const other = mover === a ? b : a;
    const { to } = await playAnyMove(mover);
    await until(async () => (await moveCount(other)) === i + 1, `the other sees move ${i + 1}`);
    await until(async () => (await moveCount(mover)) === i + 1, `the mover sees move ${i + 1}`);
    await other.locator(`svg.board .piece[data-cell="${to}"]`).waitFor();
    await other.locator('svg.board .last-to').waitFor();
    await until(async () => (await moveCount(w)) === i + 1, `the spectator sees move ${i + 1}`);
  }
  equal(await w.locator('svg.board .piece.movable').count(), 0, 'the spectator cannot move');
  equal(await w.locator('[data-action=resign]').count(), 0, 'the spectator cannot resign');
  await w.locator('[data-testid=spectating]').waitFor();
  await shot(a, '03-cc-game');

  // The guest resigns: with two players the host wins.
  await b.click('[data-action=resign]');
  const dlg = b.locator('dialog');
  assert((await dlg.textContent()).includes('l’autre personne gagne'), 'the confirmation states the consequence');
  await dlg.locator('[data-value=yes]').click();
  await a.locator('[data-testid=result] h2', { hasText: 'Vous avez gagné' }).waitFor();
  await b.locator('[data-testid=result] h2', { hasText: 'Ana a gagné' }).waitFor();
  await shot(a, '05-end-screen');

  // The rematch panel reflects whether the other is still there and has answered (never « Tout le
  // monde est là » beside « En attente »): the guest closes the tab…
  await a.locator('[data-testid=result] .rematch', { hasText: 'En attente : Bo' }).waitFor();
  equal(await a.locator('[data-testid=result] .rematch', { hasText: 'Tout le monde est là' }).count(), 0, 'not « everybody is here » while waiting');
  await b.close();
  await a.locator('[data-testid=result] .warn', { hasText: 'Bo n’est plus là' }).waitFor();
  // …and comes back through the link: the seat cookie puts them back in their seat.
  const b2 = await guest.ctx.newPage();
  b2.errors = [];
  b2.on('pageerror', (e) => b2.errors.push(e.message));
  await b2.goto(`${base}/r/${code}`);
  await b2.locator('[data-testid=result] [data-action=rematch]').waitFor();
  await a.locator('[data-testid=result] .rematch', { hasText: 'En attente : Bo' }).waitFor();
  // Bo is ready first: now everybody is.
  await b2.click('[data-action=rematch]');
  await a.locator('[data-testid=result] .good', { hasText: 'Tout le monde est là' }).waitFor();

  // Rematch in the same room: both pressed « Rejouer ».
  await a.click('[data-action=rematch]');
  for (const p of [a, b2]) {
    await until(async () => (await p.locator('[data-testid=result]').isHidden()) && (await moveCount(p)) === 0, 'a new game started');
    await p.locator('svg.board-cc').waitFor();
  }
  // « Changer qui commence »: the guest's seat starts the second game.
  await b2.locator('.status.mine').waitFor();
  equal(a.errors.concat(b.errors, b2.errors).length, 0, 'no script error');
});
