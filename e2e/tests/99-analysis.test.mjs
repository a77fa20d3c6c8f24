// « Analyser » (issue 21): a finished draughts game with a blunder in it (29-23?? walks into
// 18x29) is analysed from its replay: the progress, then the evaluation graph (tapped, and
// driven by the keyboard), the best move drawn as an arrow, the blunder marked ?? in the move
// list with what it lost; the game's PDN carries the marks and the comments; a second visit shows
// the stored analysis at once. Phone viewport, screenshots looked at.
import { readFileSync } from 'node:fs';
import { assert, equal, newPerson, replayIndex as index, resign, shot, until } from '../lib.mjs';
import { noViolations as accessible } from '../axe.mjs';

/** White to move: 29-24 keeps the men level, 29-23?? walks into 18x29. */
const START = 'W:W29,47:B18,3';

/** Opens the move list (a closed `<details>` on a phone). */
async function openMoves(page) {
  const details = page.locator('details.moves-card');
  if (await details.count() && (await details.getAttribute('open')) === null) await details.locator('summary').click();
}

/** `fetch` from the page (same origin, its cookies): the JSON answer. */
async function api(page, method, path, body) {
  return page.evaluate(async ([method, path, body]) => {
    const r = await fetch(path, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
    return { status: r.status, body: await r.json() };
  }, [method, path, body]);
}

test('analysis: a finished draughts game analysed from its replay — graph, best-move arrow, the blunder marked ??, the PDN with its comments', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Lou', phone: true, cpuMs: 100 });
  track(ctx);
  await page.goto(base + '/');
  // A game against the CPU from a position where White can give a man away.
  const created = await api(page, 'POST', '/api/rooms', { game: 'draughts', name: 'Lou', cpu: { level: 'facile' }, start: START, settings: { cpu_ms: 100 } });
  equal(created.status, 201, JSON.stringify(created.body));
  const code = created.body.code;
  await page.goto(`${base}/r/${code}`);
  await page.locator('svg.board-draughts').waitFor();
  await page.locator('.status.mine').waitFor();
  const moved = await api(page, 'POST', `/api/rooms/${code}/move`, { move: { notation: '29-23' } });
  equal(moved.status, 200, JSON.stringify(moved.body));
  // The CPU's capture is forced.
  await until(async () => (await page.locator('[data-testid=moves] .mv-text').allTextContents()).includes('18x29'), 'the CPU took the man');
  await resign(page);
  await page.locator('[data-testid=replay][data-consistent=true]').waitFor();

  // « Analyser la partie »: the progress, then the graph.
  const button = page.locator('[data-testid=analysis] [data-action=analyse]');
  await button.waitFor();
  await shot(page, 'analysis-offer-phone');
  await button.click();
  const graph = page.locator('[data-testid=analysis-graph]');
  await graph.waitFor({ timeout: 30000 });
  equal(await graph.getAttribute('role'), 'slider', 'the graph is a slider');
  assert((await graph.getAttribute('aria-label')).length > 10, 'the graph has a name');
  equal(await graph.getAttribute('aria-valuemax'), '2', 'three positions');

  // The blunder is marked in the move list and explained in the list of marked moves.
  await openMoves(page);
  const mark = page.locator('[data-testid=moves] .mv-mark');
  await mark.first().waitFor();
  equal(await mark.first().textContent(), '??', 'the blunder is ??');
  assert((await mark.first().getAttribute('title')).includes('29-24') || (await mark.first().getAttribute('title')).length > 20, 'the mark says what was better');
  const marked = page.locator('[data-testid=analysis-marks] li');
  equal(await marked.count(), 1, 'one marked move');
  assert((await marked.first().textContent()).includes('29-23'), 'the marked move is 29-23');

  // A tap on the start of the graph shows the starting position, with its best move as an arrow.
  const box = await graph.boundingBox();
  await graph.tap({ position: { x: 2, y: box.height / 2 } });
  await until(async () => (await index(page)) === 0, 'the start shown');
  const arrow = page.locator('[data-testid=best-arrow]');
  await until(async () => (await arrow.locator('polygon').count()) === 1, 'an arrow on the board');
  const best = await arrow.getAttribute('data-best');
  assert(best && best !== '29-23', `the best move is not the blunder: ${best}`);
  assert((await page.locator('[data-testid=analysis-here]').textContent()).includes(best), 'the best move is named');
  await shot(page, 'analysis-start-phone');
  // The keyboard: → goes to the position after the blunder.
  await graph.focus();
  await page.keyboard.press('ArrowRight');
  await until(async () => (await index(page)) === 1, 'the position after 29-23');
  equal(await graph.getAttribute('aria-valuenow'), '1', 'the slider follows');
  await page.keyboard.press('End');
  await until(async () => (await graph.getAttribute('aria-valuenow')) === '2', 'the last position');
  const evalText = await page.locator('[data-testid=analysis-eval]').textContent();
  assert(/−\d|Noirs|Black/.test(evalText), `Black is better at the end: ${evalText}`);
  await shot(page, 'analysis-end-phone');

  // The PDN carries the mark and each move's comment, and re-imports.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=download]').first().click()]);
  const pdn = readFileSync(await download.path(), 'utf8');
  assert(pdn.includes('29-23?? {eval '), `the blunder marked in the PDN:\n${pdn}`);
  assert(pdn.includes(', best '), `best moves in the PDN:\n${pdn}`);
  assert(pdn.includes('[Annotator "Dames analysis'), `the annotator:\n${pdn}`);
  const imported = await api(page, 'POST', '/api/draughts/position', { text: pdn });
  equal(imported.status, 200, JSON.stringify(imported.body));
  equal(imported.body.plies, 2, 'the PDN replays both moves');

  // A second visit: the stored analysis at once, no button.
  await page.goto(`${base}/r/${code}/1`);
  await page.locator('[data-testid=analysis-graph]').waitFor();
  equal(await page.locator('[data-testid=analysis] [data-action=analyse]').count(), 0, 'no button: it is stored');
  await openMoves(page);
  await page.locator('[data-testid=moves] .mv-mark').first().waitFor();
  equal(await page.locator('[data-testid=moves] .mv-mark').first().textContent(), '??', 'marked on the game page too');
  await shot(page, 'analysis-archive-phone');
  // Dark mode too: the marks and the panel keep their contrast.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('[data-testid=moves] li').first().locator('button').click();
  await accessible(page, 'the analysis in dark mode, the marked move current');
  await shot(page, 'analysis-archive-dark-phone');
});
