// « Défi solitaire » on a phone: cross the board alone by tapping, 27 scripted moves (the
// optimum, as in crates/server/tests/solitaire.rs), shown against the optimum and this
// browser's best; « Rejouer le défi » starts again, the best is kept, giving up ends with no
// crossing; the texts follow the language.
import { assert, equal, moveCount, newPerson, shot, until } from '../lib.mjs';

/** A 27-move crossing, the optimum (`dames cc solve --beam 1000`): from, to as `x,y,z`. */
const CROSSING = [
  ['1,4,-5', '1,3,-4'], ['3,4,-7', '1,2,-3'], ['4,2,-6', '0,2,-2'], ['0,2,-2', '-1,2,-1'],
  ['4,4,-8', '-2,2,0'], ['2,4,-6', '0,2,-2'], ['2,3,-5', '-2,1,1'], ['-2,1,1', '-2,0,2'],
  ['4,3,-7', '-2,-1,3'], ['4,1,-5', '-2,1,1'], ['1,3,-4', '-3,-1,4'], ['-3,-1,4', '-3,-2,5'],
  ['3,2,-5', '2,3,-5'], ['3,3,-6', '-3,-3,6'], ['2,3,-5', '1,3,-4'], ['1,3,-4', '-3,-1,4'],
  ['-3,-2,5', '-2,-3,5'], ['-1,2,-1', '-3,-4,7'], ['1,2,-3', '-1,-4,5'], ['0,2,-2', '-1,2,-1'],
  ['-1,2,-1', '-3,-2,5'], ['-2,0,2', '-4,-4,8'], ['-2,2,0', '-4,-2,6'], ['-2,1,1', '-2,0,2'],
  ['-2,0,2', '-2,-4,6'], ['-2,-1,3', '-4,-3,7'], ['-3,-1,4', '-4,-1,5'],
];

const text = async (page, id) => (await page.locator(`[data-testid=${id}]`).textContent()).trim();

test('phone: « Défi solitaire » crossed alone by tapping, against the optimum and the best; again', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Lou', phone: true });
  track(ctx);
  await page.goto(base + '/');
  await page.locator('[data-action=solitaire]').tap();
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  await page.locator('svg.board-cc').waitFor();
  await page.locator('[data-testid=solitaire] h2', { hasText: 'Défi solitaire' }).waitFor();
  equal(await page.locator('svg.board .piece').count(), 10, 'ten pieces, alone');
  equal(await page.locator('[data-testid=players] .player').count(), 1, 'one player');
  equal(await text(page, 'solitaire-moves'), '0', 'no move yet');
  equal(await text(page, 'solitaire-optimum'), '27', 'the optimum');
  equal(await text(page, 'solitaire-best'), '—', 'no best yet');
  assert(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no horizontal scroll');
  await shot(page, '42-solitaire-start');

  // A destination the server did not list is not offered: tapping the tip piece shows none.
  await page.locator('.status.mine').waitFor();
  await page.locator('svg.board .piece[data-cell="4,4,-8"]').tap();
  equal(await page.locator('svg.board .dest').count(), 0, 'the tip piece cannot move yet');

  for (const [i, [from, to]] of CROSSING.entries()) {
    await page.locator('.status.mine').waitFor();
    await page.locator(`svg.board .piece.movable[data-cell="${from}"]`).tap();
    await page.locator(`svg.board .dest[data-dest="${to}"]`).tap();
    await until(async () => (await moveCount(page)) === i + 1, `move ${i + 1} applied`);
    if (i + 1 < CROSSING.length) await until(async () => (await text(page, 'solitaire-moves')) === String(i + 1), `counter at ${i + 1}`);
    if (i === 12) await shot(page, '42-solitaire-halfway');
  }
  await page.locator('[data-testid=solitaire-result]', { hasText: 'Traversée en 27 coups' }).waitFor();
  const panel = await page.locator('[data-testid=solitaire]').textContent();
  assert(panel.includes('c’est l’optimum'), `compared with the optimum: ${panel}`);
  assert(panel.includes('Nouveau record'), `a first crossing is a record: ${panel}`);
  equal(await text(page, 'solitaire-moves'), '27', 'the moves');
  equal(await text(page, 'solitaire-best'), '27', 'the best');
  assert(await page.locator('[data-testid=result]').isHidden(), 'no generic result card');
  await shot(page, '42-solitaire-crossed');

  // In English.
  await page.locator('[data-action=lang]').tap();
  await page.locator('[data-testid=solitaire-result]', { hasText: 'Across in 27 moves!' }).waitFor();
  assert((await page.locator('[data-testid=solitaire]').textContent()).includes('that is the optimum'), 'English comparison');

  // Again: a fresh crossing, the best kept; giving up after two moves ends it with no crossing.
  await page.locator('[data-testid=solitaire] [data-action=rematch]').tap();
  await until(async () => (await moveCount(page)) === 0 && (await text(page, 'solitaire-moves')) === '0', 'a new crossing started');
  equal(await text(page, 'solitaire-best'), '27', 'the best is kept');
  equal(await page.locator('svg.board .piece').count(), 10, 'back in the start camp');
  for (const [i, [from, to]] of CROSSING.slice(0, 2).entries()) {
    await page.locator('.status.mine').waitFor();
    await page.locator(`svg.board .piece.movable[data-cell="${from}"]`).tap();
    await page.locator(`svg.board .dest[data-dest="${to}"]`).tap();
    await until(async () => (await moveCount(page)) === i + 1, `move ${i + 1} applied`);
  }
  await page.locator('[data-action=resign]').tap();
  await page.locator('dialog', { hasText: 'The challenge ends here' }).waitFor();
  await page.locator('dialog [data-value=yes]').tap();
  await page.locator('[data-testid=solitaire-result]', { hasText: 'No crossing this time. Moves played: 2.' }).waitFor();
  equal(await text(page, 'solitaire-best'), '27', 'the best is still 27');
  equal(page.errors.length, 0, 'no script error');
});
