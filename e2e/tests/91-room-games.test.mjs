// Every game of a room can be looked at again (issue 14): two games played in one room through a
// rematch, each on its own page (`/r/{CODE}/{n}`) with the replay control, reached from the
// finished game and from « Mes parties »; the first game's PDN still downloads after the second.
// Phone viewport, screenshots looked at.
import { readFileSync } from 'node:fs';
import { assert, equal, moveCount, newPerson, playAgainstCpu, replayIndex as index, resign, shot, until } from '../lib.mjs';
import { noViolations as accessible } from '../axe.mjs';

/** The notations of the move list of the page shown. */
const notations = (page) => page.locator('[data-testid=moves] .mv-text').allTextContents();

test('games of a room: two games through a rematch, both replayable on their own page; the first one’s PDN still downloads', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Noé', phone: true, cpuMs: 100 });
  track(ctx);
  await page.goto(base + '/');
  await page.click('[data-action=cpu-draughts]');
  await page.click('dialog [data-value=play]');
  await page.locator('svg.board-draughts').waitFor();
  const code = page.url().split('/r/')[1];
  await playAgainstCpu(page, 2);
  await resign(page);
  await page.locator('[data-testid=replay][data-consistent=true]').waitFor();
  const firstEnd = await index(page);
  // A single game: no list of the room's games yet.
  equal(await page.locator('[data-testid=room-games]').count(), 0, 'one game: no list');

  // The rematch: the CPU plays White and moves first this time.
  await page.click('[data-action=rematch]');
  await until(async () => (await page.locator('[data-testid=result]').isHidden()) && (await moveCount(page)) <= 1, 'a new game started');
  await playAgainstCpu(page, 3);
  await resign(page);
  await page.locator('[data-testid=replay][data-consistent=true]').waitFor();
  // The finished game links to the room's earlier one.
  const nav = page.locator('[data-testid=room-games]');
  await nav.waitFor();
  equal(await nav.locator('[aria-current=page]').textContent(), 'Partie 2', 'this game is marked');
  await shot(page, 'room-games-finished-phone');
  await accessible(page, 'a finished game with its room’s games');
  await nav.locator('a[data-game-no="1"]').click();
  await page.waitForURL(new RegExp(`/r/${code}/1$`));

  // Game 1 on its own page: its moves, its result, stepped through.
  const archive = page.locator('[data-testid=archive]');
  await archive.locator('[data-testid=replay]').waitFor();
  await page.locator('h1', { hasText: `Partie 1 de la salle ${code}` }).waitFor();
  equal(await index(page), firstEnd, 'opens on its last position');
  const moves1 = await notations(page);
  equal(moves1.length, 5, 'four moves and the resignation');
  assert(moves1[4].includes('abandonne'), `the resignation is listed: ${moves1[4]}`);
  assert((await page.locator('[data-testid=archive-result]').textContent()).includes('a gagné'), 'the result');
  await page.click('[data-replay=start]');
  equal(await index(page), 0, 'start');
  equal(await page.locator('.board-box svg.board .piece').count(), 40, 'the usual start');
  await page.locator('[data-testid=moves] li[data-entry="1"] button').tap();
  equal(await index(page), 2, 'a tapped move shows the position after it');
  equal(await page.locator('[data-testid=moves] li.current').getAttribute('data-entry'), '1', 'and is marked');
  await page.locator('[data-replay=forward]').focus();
  await page.keyboard.press('End');
  equal(await index(page), firstEnd, 'End');
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'room-games-game1-phone');
  await accessible(page, 'the page of game 1');

  // Its PDN: game 1 (« Round 1 »), Noé with White and the CPU winning by resignation.
  const [download] = await Promise.all([page.waitForEvent('download'), archive.locator('[data-testid=download]').click()]);
  equal(download.suggestedFilename(), `dames-${code}-1.pdn`, 'file name');
  const pdn = readFileSync(await download.path(), 'utf8');
  for (const tag of ['[Round "1"]', '[White "Noé"]', '[Black "CPU (normal)"]', '[Result "0-2"]']) {
    assert(pdn.includes(tag), `${tag} in the PDN:\n${pdn}`);
  }
  for (const m of moves1.slice(0, 4)) {
    const move = /\d+(?:[-x]\d+)+/.exec(m);
    assert(move && pdn.includes(` ${move[0]}`), `move ${m} in the PDN:\n${pdn}`);
  }

  // Game 2 from the list of this page; its colours are the other way round.
  await archive.locator('[data-testid=room-games] a', { hasText: 'Partie 2' }).click();
  await page.waitForURL(new RegExp(`/r/${code}/2$`));
  await page.locator('h1', { hasText: `Partie 2 de la salle ${code}` }).waitFor();
  const moves2 = await notations(page);
  equal(moves2.length, 8, 'the CPU’s first move, three of each, the resignation');
  assert(JSON.stringify(moves2) !== JSON.stringify(moves1), 'another game');
  const [download2] = await Promise.all([page.waitForEvent('download'), archive.locator('[data-testid=download]').click()]);
  const pdn2 = readFileSync(await download2.path(), 'utf8');
  for (const tag of ['[Round "2"]', '[White "CPU (normal)"]', '[Black "Noé"]', '[Result "2-0"]']) {
    assert(pdn2.includes(tag), `${tag} in the PDN:\n${pdn2}`);
  }

  // « Mes parties » points to the earlier game; a fresh load of its address shows it.
  await page.goto(base + '/games');
  const earlier = page.locator(`[data-earlier="${code}"] a`);
  await earlier.waitFor();
  equal(await earlier.count(), 1, 'one earlier game');
  await shot(page, 'room-games-my-games-phone');
  await earlier.click();
  await page.waitForURL(new RegExp(`/r/${code}/1$`));
  await page.reload();
  await page.locator('h1', { hasText: `Partie 1 de la salle ${code}` }).waitFor();
  equal(JSON.stringify(await notations(page)), JSON.stringify(moves1), 'the same game after a reload');
  // « Aller à la salle » goes back to the room.
  await page.click('[data-testid=archive] [data-action=room]');
  await page.waitForURL(new RegExp(`/r/${code}$`));
  await page.locator('[data-testid=result]').waitFor();

  // A game the room never had: said, with the way to the room.
  await page.goto(`${base}/r/${code}/9`);
  await page.locator('[data-testid=archive-error]', { hasText: 'n’existe pas' }).waitFor();
  equal(page.errors.length, 0, 'no script error');
});
