// Draughts between two browser contexts: join through the link, « Confirmer les coups » set by the
// host, moves by clicking (with ✓), a draw offer declined, resignation.
import { assert, equal, moveCount, newPerson, roomCode, shot, toMove, until } from '../lib.mjs';

test('draughts with a friend: join by link, confirm moves, draw offer, resign', async ({ base, browser, track }) => {
  const host = await newPerson(browser, { name: 'Chloé' });
  const guest = await newPerson(browser, { name: 'Dan' });
  track(host.ctx);
  track(guest.ctx);
  const a = host.page;
  const b = guest.page;

  await a.goto(base + '/');
  await a.click('[data-action=friends-draughts]');
  await a.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = await roomCode(a);
  equal(await a.locator('.seat').count(), 2, 'two seats');
  // The host turns « Confirmer les coups » on.
  await a.locator('[data-opt=confirm_move] input').check();
  await until(() => a.locator('[data-opt=confirm_move] input').isChecked(), 'setting kept');

  // The guest opens the link: a spectator until they take the free seat.
  await b.goto(`${base}/r/${code}`);
  await b.locator('[data-action=join]').click();
  await b.locator('.seat.mine').waitFor();
  await until(() => b.locator('[data-opt=confirm_move] input').isChecked(), 'guest sees the setting');
  await a.locator('.seat[data-seat="1"]', { hasText: 'Dan' }).waitFor();
  // The guest leaves the seat (a spectator again), then sits down on that seat by name.
  await b.getByRole('button', { name: 'Quitter la place' }).click();
  await a.locator('.seat[data-seat="1"].seat-empty').waitFor();
  await b.locator('.seat[data-seat="1"] button', { hasText: 'S’asseoir ici' }).click();
  await b.locator('.seat.mine[data-seat="1"]').waitFor();
  await a.locator('.seat[data-seat="1"]', { hasText: 'Dan' }).waitFor();
  await a.click('[data-action=start]');
  await a.locator('svg.board-draughts').waitFor();
  await b.locator('svg.board-draughts').waitFor();
  equal(await a.locator('svg.board .piece').count(), 40, '40 men on the 10×10 board');

  for (let i = 0; i < 4; i++) {
    const mover = await toMove(a, b);
    const other = mover === a ? b : a;
    // With « Confirmer les coups », nothing is sent before ✓.
    const pieces = mover.locator('svg.board .piece.movable');
    await pieces.first().click();
    await mover.locator('svg.board .dest').first().click();
    await mover.locator('[data-action=confirm]').waitFor();
    await new Promise((r) => setTimeout(r, 300));
    equal(await moveCount(other), i, 'not sent before ✓');
    await mover.locator('[data-action=confirm]').click();
    await until(async () => (await moveCount(other)) === i + 1, `the other sees move ${i + 1}`);
    await until(async () => (await moveCount(mover)) === i + 1, `the mover sees move ${i + 1}`);
  }
  await shot(b, '04-draughts-game');

  // A draw offer, declined.
  const offerer = (await a.locator('[data-action=draw-offer]').count()) ? a : b;
  const answerer = offerer === a ? b : a;
  await offerer.click('[data-action=draw-offer]');
  await answerer.locator('[data-action=draw-decline]').waitFor();
  await answerer.click('[data-action=draw-decline]');
  await offerer.locator('[data-action=draw-offer]').waitFor();

  // The host resigns: the guest wins.
  await a.click('[data-action=resign]');
  assert((await a.locator('dialog').textContent()).includes('perdre la partie'), 'consequence stated');
  await a.locator('dialog [data-value=yes]').click();
  await b.locator('[data-testid=result] h2', { hasText: 'Vous avez gagné' }).waitFor();
  await a.locator('[data-testid=result]').waitFor();
  equal(a.errors.concat(b.errors).length, 0, 'no script error');
});
