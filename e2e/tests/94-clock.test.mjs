// « Pendule » (issue 20): two browsers (a phone and a laptop) in a 10×10 draughts friends' room
// with a clock. The host picks a preset in the lobby, then a short clock through the API (the
// presets are the page's choices; the API takes any value in its documented range); a move each,
// the clocks tick on both sides, the reader's own clock turns red under 10 s and a screen reader is
// told once; a reload keeps the clocks; then the flag falls and both results say « Temps écoulé ».
import { assert, equal, moveCount, newPerson, playAnyMove, roomCode, shot, toMove, until } from '../lib.mjs';

/** The text of seat `seat`'s clock on `page`. */
const clockText = (page, seat) => page.locator(`[data-testid=clocks] .clock[data-seat="${seat}"] .clock-time`).textContent();

/** A clock's text (« 0:11 », « 0:09.4 ») in milliseconds. @param {string} s */
function ms(s) {
  const m = /^(\d+):(\d\d)(?:\.(\d))?$/.exec(s.trim());
  assert(m, `a clock's time (${s})`);
  return (Number(m[1]) * 60 + Number(m[2])) * 1000 + Number(m[3] || 0) * 100;
}

/** Fails unless seat `seat`'s clock on `page` goes down within a second. */
async function ticks(page, seat, where) {
  const before = ms(await clockText(page, seat));
  await until(async () => ms(await clockText(page, seat)) < before, `${where}: seat ${seat}'s clock ticks`, 3000);
}

test('a clock in a draughts game between friends: presets, ticking on both sides, low time, flag on both sides', async ({ base, browser, track }) => {
  const host = await newPerson(browser, { name: 'Chloé', phone: true });
  const guest = await newPerson(browser, { name: 'Dan', laptop: true });
  track(host.ctx);
  track(guest.ctx);
  const a = host.page;
  const b = guest.page;

  await a.goto(base + '/');
  await a.click('[data-action=friends-draughts]');
  await a.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = await roomCode(a);
  // « Pendule »: none by default; the host picks 5 min + 3 s.
  const select = a.locator('[data-opt=clock] select');
  equal(await select.inputValue(), 'none', 'no clock by default');
  const presets = await select.locator('option').allTextContents();
  equal(presets.join(' | '), 'Sans pendule | 3 min + 2 s | 5 min + 3 s | 10 min + 5 s | 15 min + 10 s', 'the draughts presets');
  await select.selectOption('fischer:300000:3000');
  await b.goto(`${base}/r/${code}`);
  await b.locator('[data-action=join]').click();
  await b.locator('.seat.mine').waitFor();
  await until(async () => (await b.locator('[data-opt=clock] select').inputValue()) === 'fischer:300000:3000', 'the guest sees the clock chosen');
  await shot(a, '94-clock-lobby');
  // A short clock through the API, with the host's seat (the page's own cookie): 12 s + 1 s.
  const status = await a.evaluate(async (c) => (await fetch(`/api/rooms/${c}/settings`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clock: { kind: 'fischer', base_ms: 12000, increment_ms: 1000 } }),
  })).status, code);
  equal(status, 200, 'the API takes a clock in its range');
  await until(async () => (await b.locator('[data-opt=clock] select option:checked').textContent()) === '12 s + 1 s', 'the guest sees the short clock');
  await a.locator('.seat[data-seat="1"]', { hasText: 'Dan' }).waitFor();
  await a.click('[data-action=start]');
  await a.locator('svg.board-draughts').waitFor();
  await b.locator('svg.board-draughts').waitFor();
  for (const p of [a, b]) equal(await p.locator('[data-testid=clocks] .clock').count(), 2, 'a clock per seat');

  // A move each; before each, the running clock ticks on both pages.
  for (let i = 0; i < 2; i++) {
    const mover = await toMove(a, b);
    const seat = mover === a ? 0 : 1;
    await ticks(a, seat, 'host');
    await ticks(b, seat, 'guest');
    equal(await mover.locator('[data-testid=clocks] .clock.running').getAttribute('data-seat'), String(seat), 'the mover’s clock runs');
    await playAnyMove(mover);
    await until(async () => (await moveCount(a)) === i + 1 && (await moveCount(b)) === i + 1, `both see move ${i + 1}`);
  }
  await shot(b, '94-clock-game');

  // The guest's page reloads: the clocks come back from the server, the stopped one as it was.
  const mover = await toMove(a, b);
  const waiting = mover === a ? 1 : 0;
  const kept = await clockText(a, waiting);
  await b.reload();
  await b.locator('[data-testid=clocks] .clock').first().waitFor();
  equal(await clockText(b, waiting), kept, 'the stopped clock after a reload');
  await ticks(b, 1 - waiting, 'guest after the reload');

  // Nobody moves: the mover's own clock turns red under 10 s and a screen reader is told once.
  await mover.locator('[data-testid=clocks] .clock.mine.low').waitFor();
  await until(async () => (await mover.locator('[data-testid=clock-alert]').textContent()).includes('presque écoulé'), 'the low-time warning is said');
  // The flag falls: both results say so, each in its reader's grammar.
  const other = mover === a ? b : a;
  await mover.locator('[data-testid=result-reason]', { hasText: 'votre pendule est tombée' }).waitFor({ timeout: 20000 });
  await other.locator('[data-testid=result-reason]', { hasText: 'Temps écoulé' }).waitFor();
  await other.locator('[data-testid=result] h2', { hasText: 'Vous avez gagné' }).waitFor();
  equal(await clockText(mover, 1 - waiting), 'Temps écoulé', 'the fallen clock says so');
  await shot(a, '94-clock-flag');
  equal(a.errors.concat(b.errors).length, 0, 'no script error');
});
