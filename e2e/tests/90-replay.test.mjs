// Looking at games again (issue 14 item 4, issue 11 item 9): the move list in readable notation,
// a tap on a move shows that position with « Revenir à la partie », a finished game opens on its
// last position with start / back / forward / end / autoplay (buttons, keyboard, swipe), the
// game downloads (PDN for draughts, the text format for Chinese checkers), and a draughts PDN
// re-imports to the same final position. Phone viewport, screenshots looked at.
import { readFileSync } from 'node:fs';
import { assert, equal, newPerson, playAgainstCpu, replayIndex as index, resign, shot, until } from '../lib.mjs';

/** The pieces of the board shown, as a sorted list of `cell:fill:king`. */
async function boardPieces(page) {
  return page.locator('.board-box svg.board').evaluate((svg) => [...svg.querySelectorAll('.layer-pieces .piece:not(.ghost)')]
    .map((p) => `${p.getAttribute('data-cell')}:${p.querySelector('.piece-body')?.getAttribute('fill')}:${p.classList.contains('king')}`)
    .sort());
}

async function openMoves(page) {
  const details = page.locator('details.moves-card');
  if (!(await details.getAttribute('open') !== null)) await details.locator('summary').click();
}

test('replay: draughts move list, a tapped move, a finished game stepped through; its PDN downloads and re-imports to the same position', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Lou', phone: true, cpuMs: 100 });
  track(ctx);
  await page.goto(base + '/');
  await page.click('[data-action=cpu-draughts]');
  await page.click('dialog [data-value=play]');
  await page.locator('svg.board-draughts').waitFor();
  await playAgainstCpu(page, 3);
  await openMoves(page);
  const texts = await page.locator('[data-testid=moves] .mv-text').allTextContents();
  equal(texts.length, 6, 'six moves listed');
  for (const t of texts) assert(/^\d+([-x]\d+)+$/.test(t), `draughts notation: ${t}`);

  // A tap on the second move shows the position after it; « Revenir à la partie » goes back.
  const live = await boardPieces(page);
  await page.locator('[data-testid=moves] li[data-move="1"] button').tap();
  await page.locator('[data-testid=replay] [data-replay=exit]').waitFor();
  await until(async () => (await index(page)) === 2, 'the position after move 2');
  assert((await page.locator('[data-testid=replay-pos]').textContent()).includes(texts[1]), 'the move shown is named');
  equal(await page.locator('[data-testid=moves] li.current').getAttribute('data-move'), '1', 'the move is marked in the list');
  assert(JSON.stringify(await boardPieces(page)) !== JSON.stringify(live), 'an older position is shown');
  await shot(page, 'replay-draughts-move-phone');
  await page.click('[data-replay=exit]');
  await page.locator('[data-testid=replay]').waitFor({ state: 'detached' });
  equal(JSON.stringify(await boardPieces(page)), JSON.stringify(live), 'back to the live board');
  await page.locator('.piece.movable').first().waitFor();

  // Finished: the game opens on its last position with the replay control.
  await resign(page);
  await page.locator('[data-testid=replay]').waitFor();
  // The record arrives after the control is drawn: its consistency mark says it is there.
  equal(await until(() => page.locator('[data-testid=replay]').getAttribute('data-consistent')), 'true', 'the rebuilt positions end on the server board');
  const last = await index(page);
  equal(last, 7, 'six moves and the resignation');
  equal(await page.locator('[data-replay=exit]').count(), 0, 'nothing to go back to');
  const final = await boardPieces(page);
  await page.click('[data-replay=start]');
  equal(await index(page), 0, 'start');
  equal((await boardPieces(page)).length, 40, 'the usual start: 40 men');
  await page.click('[data-replay=forward]');
  equal(await index(page), 1, 'forward');
  await page.click('[data-replay=end]');
  equal(await index(page), last, 'end');
  await page.click('[data-replay=back]');
  equal(await index(page), last - 1, 'back');
  // Keyboard: ← → Home End on the replay control.
  await page.locator('[data-replay=forward]').focus();
  await page.keyboard.press('Home');
  equal(await index(page), 0, 'Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  equal(await index(page), 2, 'ArrowRight twice');
  await page.keyboard.press('ArrowLeft');
  equal(await index(page), 1, 'ArrowLeft');
  // Touch: a swipe to the left on the board shows the next position.
  const box = await page.locator('.board-box svg.board').boundingBox();
  const y = box.y + box.height / 2;
  await page.locator('.board-box svg.board').dispatchEvent('pointerdown', { clientX: box.x + box.width * 0.8, clientY: y, pointerId: 5, isPrimary: true });
  await page.locator('.board-box svg.board').dispatchEvent('pointerup', { clientX: box.x + box.width * 0.2, clientY: y + 5, pointerId: 5, isPrimary: true });
  equal(await index(page), 2, 'swipe left: next');
  // Autoplay runs to the end.
  await page.click('[data-replay=play]');
  equal(await page.locator('[data-replay=play]').getAttribute('aria-pressed'), 'true', 'autoplay on');
  await until(async () => (await index(page)) === last, 'autoplay reaches the end', 15000);
  equal(JSON.stringify(await boardPieces(page)), JSON.stringify(final), 'the last position again');
  await shot(page, 'replay-draughts-finished-phone');

  // The PDN file.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=download]').click()]);
  assert(/^dames-[A-Z0-9]{6}-1\.pdn$/.test(download.suggestedFilename()), `file name ${download.suggestedFilename()}`);
  const pdn = readFileSync(await download.path(), 'utf8');
  for (const tag of ['[Event "Dames ', '[Site "', '[Date "', '[Round "1"]', '[White "Lou"]', '[Black "CPU (normal)"]', '[Result "0-2"]', '[GameType "20"]']) {
    assert(pdn.includes(tag), `${tag} in the PDN:\n${pdn}`);
  }

  // Re-imported on the home page: the same position, to play against the CPU.
  await page.goto(base + '/');
  await page.click('[data-action=import-position]');
  await page.locator('[data-testid=import-text]').fill('W:W99:B1');
  await page.click('[data-action=import-check]');
  await page.locator('[data-testid=import-result].error', { hasText: 'Position refusée' }).waitFor();
  await page.locator('[data-testid=import-text]').fill(pdn);
  await page.click('[data-action=import-check]');
  await page.locator('[data-testid=import-result].good', { hasText: 'Blancs au trait' }).waitFor();
  await shot(page, 'import-dialog-phone');
  await page.click('[data-action=import-cpu]');
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  await page.locator('.status.mine').waitFor();
  equal(JSON.stringify(await boardPieces(page)), JSON.stringify(final), 'the imported game starts from the final position');
  await shot(page, 'import-game-phone');
  equal(page.errors.length, 0, 'no script error');
});

test('replay: Chinese checkers moves in hole numbers, a tapped move labelled on the board, the finished game stepped through and downloaded', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Sam', phone: true, cpuMs: 100 });
  track(ctx);
  await page.goto(base + '/');
  await page.click('[data-action=cpu-cc]');
  await page.click('dialog [data-value=play]');
  await page.locator('svg.board-cc').waitFor();
  await playAgainstCpu(page, 3);
  await openMoves(page);
  const texts = await page.locator('[data-testid=moves] .mv-text').allTextContents();
  equal(texts.length, 6, 'six moves listed');
  for (const t of texts) {
    assert(/^\d{1,3}(-\d{1,3})+$/.test(t), `hole-number notation: ${t}`);
    for (const n of t.split('-')) assert(Number(n) >= 1 && Number(n) <= 121, `hole ${n}`);
  }
  // The last move's holes are labelled on the live board.
  const lastHoles = texts[5].split('-');
  const labels = async () => (await page.locator('.board-box .hole-label text').allTextContents()).sort();
  equal(JSON.stringify(await labels()), JSON.stringify([lastHoles[0], lastHoles[lastHoles.length - 1]].sort()), 'last move labelled');

  // A tap on the first move: the position after it, its holes labelled.
  await page.locator('[data-testid=moves] li[data-move="0"] button').tap();
  await page.locator('[data-replay=exit]').waitFor();
  await until(async () => (await index(page)) === 1, 'the position after move 1');
  const first = texts[0].split('-');
  equal(JSON.stringify(await labels()), JSON.stringify([first[0], first[first.length - 1]].sort()), 'move 1 labelled');
  await shot(page, 'replay-cc-move-phone');
  await page.click('[data-replay=exit]');
  await page.locator('[data-testid=replay]').waitFor({ state: 'detached' });

  // Every hole's number on demand.
  await page.click('[data-action=holes]');
  await until(async () => (await page.locator('.board-box svg.board').getAttribute('class')).includes('show-holes'), 'numbers shown');
  equal(await page.locator('.board-box .hole-num').count(), 121, '121 numbers');
  await page.locator('.board-box').scrollIntoViewIfNeeded();
  await shot(page, 'cc-hole-numbers-phone');
  await page.click('[data-action=holes]');

  await resign(page);
  await page.locator('[data-testid=replay]').waitFor();
  equal(await until(() => page.locator('[data-testid=replay]').getAttribute('data-consistent')), 'true', 'rebuilt positions end on the server board');
  const last = await index(page);
  equal(last, 7, 'six moves and the resignation');
  await page.click('[data-replay=start]');
  equal((await boardPieces(page)).length, 20, 'the start: 10 pieces each');
  await page.click('[data-replay=forward]');
  await page.click('[data-replay=forward]');
  equal(await index(page), 2, 'two steps');
  await page.click('[data-replay=end]');
  await page.locator('[data-testid=replay]').scrollIntoViewIfNeeded();
  await shot(page, 'replay-cc-finished-phone');

  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=download]').click()]);
  assert(/^dames-chinoises-[A-Z0-9]{6}-1\.txt$/.test(download.suggestedFilename()), download.suggestedFilename());
  const text = readFileSync(await download.path(), 'utf8');
  assert(text.startsWith('[Game "Chinese checkers"]'), text);
  assert(text.includes('[P1 "Sam"]') && text.includes('[P2 "CPU (normal)"]'), text);
  assert(text.includes(`\n1. P1 ${texts[0]}\n`), `the first move in the file:\n${text}`);
  assert(text.includes('\n7. P1 resigns\n'), text);

  // The rules page explains the numbers with the numbered star.
  await page.goto(base + '/rules#notation');
  await page.locator('#notation-star svg').waitFor();
  equal(await page.locator('#notation-star .sd-num').count(), 121, 'every hole numbered');
  await page.locator('#notation').scrollIntoViewIfNeeded();
  await shot(page, 'rules-notation-phone');
  equal(page.errors.length, 0, 'no script error');
});

test('import: a bad position is refused in English too, and a FEN game is played with a friend', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Ann', lang: 'en' });
  track(ctx);
  await page.goto(base + '/');
  await page.click('[data-action=import-position]');
  await page.locator('[data-testid=import-text]').fill('1. 32-28 32-28 *');
  await page.click('[data-action=import-check]');
  await page.locator('[data-testid=import-result].error', { hasText: 'Position refused: move 32-28 (ply 2) cannot be played.' }).waitFor();
  await page.locator('[data-testid=import-text]').fill('B:W28,33,K46:B14,19');
  await page.click('[data-action=import-check]');
  await page.locator('[data-testid=import-result].good', { hasText: 'Black to move, 5 pieces.' }).waitFor();
  await page.click('[data-action=import-friend]');
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = page.url().split('/r/')[1];
  const { ctx: ctx2, page: bo } = await newPerson(browser, { name: 'Bo', lang: 'en' });
  track(ctx2);
  await bo.goto(`${base}/r/${code}`);
  await bo.locator('[data-action=join]').click();
  await bo.locator('.seat.mine').waitFor();
  await page.locator('.seat[data-seat="1"]', { hasText: 'Bo' }).waitFor();
  await page.locator('[data-action=start]').click();
  await page.locator('.status.mine').waitFor();
  const pieces = await boardPieces(page);
  equal(pieces.length, 5, 'the imported position');
  assert(pieces.some((p) => p.startsWith('46:') && p.endsWith(':true')), 'the king on 46');
  equal(page.errors.length, 0, 'no script error');
});
