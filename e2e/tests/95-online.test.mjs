// « Jouer en ligne » (issue 20, quick pairing): two strangers pair for 10×10 draughts in one tap
// each and land on the board (a phone and a desktop); two strangers pair on a server whose pools
// have a short clock, play a move each against it, and see the flag fall on both sides; three
// people and a CPU fill a 4-player Chinese checkers pool after the wait; a blocked browser is
// never paired again with its blocker.
import { assert, equal, moveCount, newPerson, playAnyMove, shot, startServer, toMove, until } from '../lib.mjs';

/** The room code of the page's address (a started game shows no invitation). @param {import('playwright-core').Page} page */
function roomCode(page) {
  const m = /\/r\/([A-Z0-9]{6})$/.exec(page.url());
  assert(m, `a room's address (${page.url()})`);
  return m[1];
}

/** Opens the home page and taps pool `id` (« Jouer en ligne »). @param {import('playwright-core').Page} page */
async function seek(page, base, id, { pace = 'live' } = {}) {
  await page.goto(base + '/');
  const section = page.locator('[data-testid=online]');
  await section.scrollIntoViewIfNeeded();
  if (pace !== 'live') await section.locator(`label:has([data-pace=${pace}])`).click();
  await section.locator(`[data-pool="${id}"]`).click();
  // Waiting (the cancel button), or already paired with someone who was waiting (the board).
  const cancel = section.locator('[data-action=online-cancel]');
  await until(async () => /\/r\//.test(page.url()) || (await cancel.count()) > 0,
    `seeking ${id}`);
}

test('online: two strangers pair for 10×10 draughts in one tap each (phone and desktop)', async ({ base, browser, track }) => {
  const phone = await newPerson(browser, { name: 'Léa', phone: true });
  const desk = await newPerson(browser, { name: 'Marc' });
  track(phone.ctx);
  track(desk.ctx);
  await seek(phone.page, base, 'draughts10-live');
  // Waiting: who waits for what, for how long, and a cancel button.
  const panel = phone.page.locator('[data-testid=online-waiting]');
  await panel.locator('[data-waiting-pool=draughts10-live]', { hasText: 'Léa' }).waitFor();
  await until(async () => /\d+ s/.test(await panel.locator('[data-testid=online-elapsed]').textContent() || ''), 'time waited shown');
  await shot(phone.page, '95-online-waiting-phone');
  await seek(desk.page, base, 'draughts10-live');
  await phone.page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  await desk.page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  equal(roomCode(phone.page), roomCode(desk.page), 'one room');
  await phone.page.locator('svg.board-draughts').waitFor();
  await desk.page.locator('svg.board-draughts').waitFor();
  equal(await phone.page.locator('svg.board .piece').count(), 40, '40 men on the 10×10 board');
  // Each holds a seat: one of them has pieces to move.
  await until(async () => (await phone.page.locator('svg.board .piece.movable').count()) + (await desk.page.locator('svg.board .piece.movable').count()) > 0, 'someone to move');
  await phone.page.locator('[data-testid=players] .player.mine').waitFor();
  await desk.page.locator('[data-testid=players] .player.mine').waitFor();
  await shot(desk.page, '95-online-board-desktop');
  equal(phone.page.errors.concat(desk.page.errors).length, 0, 'no script error');
});

test('online: two strangers pair with a clock, play a move each, and a flag falls on both sides', async ({ browser, track }) => {
  // A server of its own whose live draughts pools have a 10 s + 1 s clock (an operator's
  // option, `--pool-clock-draughts`): the suite's server keeps the default 5 min + 3 s.
  const server = await startServer({ args: ['--pool-clock-draughts', '10s+1s'] });
  try {
    const base = server.base;
    const phone = await newPerson(browser, { name: 'Yasmine', phone: true });
    const desk = await newPerson(browser, { name: 'Théo', laptop: true });
    track(phone.ctx);
    track(desk.ctx);
    // The clock is shown before joining, as the operator set it.
    await phone.page.goto(base + '/');
    const rule = phone.page.locator('[data-testid=online-clocks]');
    await rule.scrollIntoViewIfNeeded();
    await until(async () => (await rule.textContent() || '').includes('10 s + 1 s'), 'the pools’ clock shown before joining');
    await seek(phone.page, base, 'draughts10-live');
    await seek(desk.page, base, 'draughts10-live');
    const [a, b] = [phone.page, desk.page];
    for (const p of [a, b]) {
      await p.waitForURL(/\/r\/[A-Z0-9]{6}$/);
      await p.locator('svg.board-draughts').waitFor();
      await until(async () => (await p.locator('[data-testid=clocks] .clock').count()) === 2, 'a clock per seat');
    }
    equal(roomCode(a), roomCode(b), 'one room');
    // A move each, within the clock.
    for (let i = 0; i < 2; i++) {
      const mover = await toMove(a, b);
      equal(await mover.locator('[data-testid=clocks] .clock.running.mine').count(), 1, 'the mover’s own clock runs');
      await playAnyMove(mover);
      await until(async () => (await moveCount(a)) === i + 1 && (await moveCount(b)) === i + 1, `both see move ${i + 1}`);
    }
    // Then nobody moves: the flag of the side to move falls, and both results say so.
    const mover = await toMove(a, b);
    const other = mover === a ? b : a;
    await mover.locator('[data-testid=result-reason]', { hasText: 'votre pendule est tombée' }).waitFor({ timeout: 20000 });
    await other.locator('[data-testid=result-reason]', { hasText: 'Temps écoulé' }).waitFor();
    await other.locator('[data-testid=result] h2', { hasText: 'Vous avez gagné' }).waitFor();
    await shot(mover, '95-online-flag');
    equal(a.errors.concat(b.errors).length, 0, 'no script error');
  } finally {
    await server.stop();
  }
});

test('online: cancel, then three people and a CPU fill a 4-player Chinese checkers pool', async ({ base, browser, track }) => {
  const people = [];
  for (const name of ['Inès', 'Hugo', 'Zoé']) {
    const p = await newPerson(browser, { name, phone: name === 'Hugo' });
    track(p.ctx);
    people.push(p);
  }
  const [a, b, c] = people.map((p) => p.page);
  // A seek cancelled leaves the pool.
  await seek(c, base, 'cc4-intl-turn', { pace: 'turn' });
  await c.locator('[data-action=online-cancel]').click();
  await c.locator('[data-action=online-cancel]').waitFor({ state: 'detached' });
  // The first opts into the CPU fill after 10 s; the rule is shown before joining.
  await a.goto(base + '/');
  const section = a.locator('[data-testid=online]');
  await section.locator('[data-testid=online-cpu]').check();
  await section.locator('[data-testid=online-cpu-after]').selectOption('10');
  assert((await section.locator('[data-testid=online-cpu-rule]').textContent() || '').includes('10 s'), 'the wait and its end are shown');
  const t0 = Date.now();
  await section.locator('[data-pool="cc4-intl-live"]').click();
  await section.locator('[data-action=online-cancel]').waitFor();
  await seek(b, base, 'cc4-intl-live');
  await seek(c, base, 'cc4-intl-live');
  for (const p of [a, b, c]) await p.waitForURL(/\/r\/[A-Z0-9]{6}$/, { timeout: 30000 });
  assert(Date.now() - t0 >= 9000, 'not before the wait');
  const code = roomCode(a);
  equal(roomCode(b), code, 'same room');
  equal(roomCode(c), code, 'same room');
  await a.locator('svg.board-cc').waitFor();
  await a.locator('[data-testid=players] .player.mine').waitFor();
  equal(await a.locator('[data-testid=players] .player').count(), 4, 'four players');
  equal(await a.locator('[data-testid=players] .player', { hasText: 'CPU' }).count(), 1, 'one CPU');
  await shot(b, '95-online-cc4-phone');
});

test('online: a blocked browser is never paired again with its blocker', async ({ base, browser, track }) => {
  const ana = await newPerson(browser, { name: 'Anaïs' });
  const bo = await newPerson(browser, { name: 'Bob' });
  const cy = await newPerson(browser, { name: 'Cyril' });
  for (const p of [ana, bo, cy]) track(p.ctx);
  await seek(ana.page, base, 'draughts8-turn', { pace: 'turn' });
  await seek(bo.page, base, 'draughts8-turn', { pace: 'turn' });
  await ana.page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = roomCode(ana.page);
  await ana.page.locator('[data-testid=players] .player.mine').waitFor();
  // « Ne plus jouer avec cette personne » (the button is the players card's): Anaïs blocks Bob.
  const answer = await ana.page.evaluate(async (room) => {
    const mine = (await (await fetch(`/api/rooms/${room}`)).json()).you;
    const res = await fetch('/api/me/blocks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ room, seat: 1 - mine }) });
    return res.json();
  }, code);
  equal(JSON.stringify(answer), '{"blocked":true}', 'blocked');
  await seek(ana.page, base, 'draughts8-turn', { pace: 'turn' });
  await seek(bo.page, base, 'draughts8-turn', { pace: 'turn' });
  await new Promise((r) => setTimeout(r, 2000));
  assert(!/\/r\//.test(ana.page.url()) && !/\/r\//.test(bo.page.url()), 'not paired together');
  // Cyril pairs with the first of them; the other keeps waiting.
  await seek(cy.page, base, 'draughts8-turn', { pace: 'turn' });
  await cy.page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  await ana.page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  equal(roomCode(ana.page), roomCode(cy.page), 'Anaïs with Cyril');
  assert(!/\/r\//.test(bo.page.url()), 'Bob still waiting');
  await bo.page.locator('[data-action=online-cancel]').click();
});
