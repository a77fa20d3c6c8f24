// A screen-reader walk of a whole draughts move (issue 23), read from Chromium's own
// accessibility tree (DevTools protocol): the position before (every square named, its piece's
// colour and kind or « vide »), the piece chosen, its destinations, the move announced with its
// capture. The position is imported: White to take 28x19 over Black's man on 23.
import { assert, equal, newPerson, until } from '../lib.mjs';

const FEN = 'W:W28,32:B23,K36';

/** The names Chromium gives the board's squares and buttons: `[role, name]` in document order. */
async function boardTree(page, cdp) {
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  return nodes
    .filter((n) => !n.ignored && n.name && /^(case|Aller|Passer)/.test(n.name.value || ''))
    .map((n) => [n.role && n.role.value, n.name.value]);
}

test('screen readers: a whole draughts move read from the accessibility tree', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Lou', cpuMs: 60 });
  track(ctx);
  await page.goto(base + '/rules');
  const code = await page.evaluate(async (start) => {
    const { api } = await import('/js/api.js');
    const res = await api.createRoom({ game: 'draughts', name: 'Lou', start, cpu: { level: 'facile' }, settings: { cpu_ms: 60 } });
    return res.code;
  }, FEN);
  await page.goto(`${base}/r/${code}`);
  await page.locator('.status.mine').waitFor();
  const cdp = await ctx.newCDPSession(page);

  // The position before: each of the 50 squares named once, with what stands on it.
  const before = await boardTree(page, cdp);
  const squares = before.filter(([, n]) => /^case \d+,/.test(n));
  equal(squares.length, 50, `every square named once (${squares.length})`);
  const byNo = new Map(squares.map(([role, n]) => [Number(n.match(/^case (\d+)/)[1]), [role, n]]));
  equal(byNo.size, 50, 'fifty different squares');
  equal(JSON.stringify(byNo.get(28)), JSON.stringify(['button', 'case 28, pion blanc']), 'the piece that can move is a button');
  equal(JSON.stringify(byNo.get(32)), JSON.stringify(['image', 'case 32, pion blanc']), 'a piece that cannot move is named too');
  equal(byNo.get(23)[1], 'case 23, pion noir', 'the opponent’s man');
  equal(byNo.get(36)[1], 'case 36, dame noire', 'the opponent’s king');
  equal(byNo.get(19)[1], 'case 19, vide', 'an empty square');
  assert(!before.some(([, n]) => /^\d+$/.test(n)), 'no bare square number read out');

  // The piece chosen (keyboard: the board's one Tab stop, Enter), then its destinations.
  await page.locator('svg.board .piece.movable[data-cell="28"]').focus();
  await page.keyboard.press('Enter');
  await page.locator('svg.board .dest[data-dest="19"]').waitFor();
  const picked = await boardTree(page, cdp);
  const dests = picked.filter(([role, n]) => role === 'button' && /^Aller/.test(n)).map(([, n]) => n);
  equal(JSON.stringify(dests), JSON.stringify(['Aller\u202F: case 19']), 'the one destination');
  const focusedName = await page.evaluate(() => document.activeElement && document.activeElement.getAttribute('aria-label'));
  equal(focusedName, 'Aller\u202F: case 19', 'the focus on the destination');

  // The move, announced with its capture; the square left is now empty.
  await page.keyboard.press('Enter');
  await until(async () => ((await page.locator('[data-testid=announcer]').textContent()) || '').includes('Vous jouez 28x19'), 'my move announced');
  const said = await page.locator('[data-testid=announcer] p').allTextContents();
  assert(said.includes('Vous jouez 28x19, prend la pièce de la case 23'), `the capture said (${said})`);
  const after = new Map((await boardTree(page, cdp)).filter(([, n]) => /^case \d+,/.test(n)).map(([, n]) => [Number(n.match(/^case (\d+)/)[1]), n]));
  equal(after.get(28), 'case 28, vide', 'the square left');
  equal(after.get(23), 'case 23, vide', 'the piece taken');
  equal(page.errors.length, 0, 'no script error');
});

test('screen readers: every hole of the star named once, with whose piece stands on it', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Lou' });
  track(ctx);
  await page.goto(base + '/');
  await page.click('[data-action=cpu-cc]');
  await page.click('dialog [data-value=play]');
  await page.locator('.status.mine').waitFor();
  const cdp = await ctx.newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const holes = nodes.filter((n) => !n.ignored && n.name && /^rangée \d+, trou \d+, /.test(n.name.value || '')).map((n) => [n.role.value, n.name.value]);
  equal(new Set(holes.map(([, n]) => n.split(', ').slice(0, 2).join(', '))).size, 121, 'the 121 holes, each named once');
  equal(holes.length, 121, 'no hole named twice');
  equal(holes.filter(([, n]) => n.endsWith(', vide')).length, 101, 'the empty holes');
  const mine = holes.filter(([, n]) => n.endsWith('pièce bleue ●'));
  const theirs = holes.filter(([, n]) => n.endsWith('pièce orange ▲'));
  equal(mine.length, 10, 'my ten pieces, blue');
  equal(theirs.length, 10, 'the CPU’s ten pieces, orange');
  assert(mine.some(([role]) => role === 'button') && mine.some(([role]) => role === 'image'), 'mine: buttons where they can move, named images elsewhere');
  equal(page.errors.length, 0, 'no script error');
});
