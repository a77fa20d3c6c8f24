// The board component in a real page, on synthetic positions the server cannot be asked for:
// several draughts captures ending on the same square (pick the path by its intermediate
// squares), drag and drop, and the confirm-move step; the games' interface (kinds.js) they are
// drawn and replayed through.
import { assert, equal, newPerson } from '../lib.mjs';

test('board: ambiguous captures are picked by tapping an intermediate square', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser);
  track(ctx);
  await page.goto(base + '/rules');
  const sent = await page.evaluate(async () => {
    const { Board } = await import('/js/board.js');
    const { draughtsGeometry } = await import('/js/board-draughts.js');
    const out = [];
    const hints = [];
    const board = new Board(draughtsGeometry(10, false), { onMove: (m) => out.push(m.raw.notation), onPending: () => {}, onHint: (k) => hints.push(k) });
    document.body.prepend(board.svg);
    board.svg.style.width = '500px';
    const piece = (sq, color) => ({ id: String(sq), fill: color === 'white' ? '#fff' : '#000', stroke: '#000', owner: color === 'white' ? 0 : 1 });
    // White king on 46; two different double captures end on 24 (via 19... or via 28...).
    const mv = (path, captures) => ({ from: String(path[0]), to: String(path[path.length - 1]), path: path.map(String), captures: captures.map(String), raw: { notation: path.join('x') } });
    board.render({
      pieces: [piece(46, 'white'), piece(41, 'black'), piece(37, 'black'), piece(29, 'black')],
      moves: [mv([46, 28, 24], [37, 33]), mv([46, 19, 24], [41, 29])],
      showLegal: true, confirm: false, last: null, animate: null,
    });
    window.__board = { out, hints };
    return true;
  });
  assert(sent, 'board mounted');
  await page.locator('svg.board .piece[data-cell="46"]').click();
  await page.locator('svg.board .dest[data-dest="24"]').click();
  equal(await page.locator('svg.board .dest.choose').count(), 2, 'two intermediate squares offered');
  equal(await page.evaluate(() => window.__board.out.length), 0, 'nothing played yet');
  await page.locator('svg.board .dest.choose[data-dest="19"]').click();
  equal(await page.evaluate(() => window.__board.out.join()), '46x19x24', 'the path through 19 was played');
  equal(await page.evaluate(() => window.__board.hints[0]), 'choose_path', 'the hint was shown');
});

test('board: drag and drop, the ✓ step of « Confirmer les coups », keyboard play', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser);
  track(ctx);
  await page.goto(base + '/rules');
  await page.evaluate(async () => {
    const { Board } = await import('/js/board.js');
    const { ccGeometry, ccMove, ccPieces } = await import('/js/board-cc.js');
    const out = [];
    const pend = [];
    const board = new Board(ccGeometry(0, { campColors: new Map() }), { onMove: (m) => out.push(m.to), onPending: (m) => pend.push(m ? m.to : null), onHint: () => {} });
    document.body.prepend(board.svg);
    board.svg.style.width = '600px';
    const state = (confirm) => ({
      pieces: ccPieces({ pieces: [{ seat: 0, at: [1, 4, -5] }, { seat: 1, at: [1, 3, -4] }] }),
      moves: [ccMove({ from: [1, 4, -5], to: [1, 2, -3], path: [[1, 4, -5], [1, 2, -3]] }), ccMove({ from: [1, 4, -5], to: [2, 3, -5], path: [[1, 4, -5], [2, 3, -5]] })],
      showLegal: true, confirm, last: null, animate: null,
    });
    window.__t = { board, out, pend, state };
    board.render(state(false));
  });
  // Drag the piece onto the jump destination.
  const from = await page.locator('svg.board .piece[data-cell="1,4,-5"]').boundingBox();
  await page.locator('svg.board .piece[data-cell="1,4,-5"]').click(); // select: destinations appear
  const to = await page.locator('svg.board .dest[data-dest="1,2,-3"]').boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
  equal(await page.evaluate(() => window.__t.out.join()), '1,2,-3', 'dropped on the destination: played');
  // With confirmation: the move waits for ✓.
  await page.evaluate(() => window.__t.board.render(window.__t.state(true)));
  await page.locator('svg.board .piece[data-cell="1,4,-5"]').click();
  await page.locator('svg.board .dest[data-dest="2,3,-5"]').click();
  equal(await page.evaluate(() => window.__t.out.length), 1, 'not played before ✓');
  equal(await page.evaluate(() => window.__t.pend.join()), '2,3,-5', 'shown as pending');
  // A new state with the same legal moves (say, someone came online) keeps the move shown.
  await page.evaluate(() => window.__t.board.render(window.__t.state(true)));
  equal(await page.evaluate(() => window.__t.pend.join()), '2,3,-5', 'still pending after a re-render');
  await page.evaluate(() => window.__t.board.confirm());
  equal(await page.evaluate(() => window.__t.out.join()), '1,2,-3,2,3,-5', 'played after ✓');
  // Keyboard: Tab to the piece, Enter, the first destination gets the focus, Enter plays it.
  await page.evaluate(() => window.__t.board.render(window.__t.state(false)));
  await page.locator('svg.board .piece[data-cell="1,4,-5"]').focus();
  await page.keyboard.press('Enter');
  const focused = await page.evaluate(() => document.activeElement && document.activeElement.getAttribute('data-dest'));
  assert(focused === '1,2,-3' || focused === '2,3,-5', `a destination has the focus (${focused})`);
  await page.keyboard.press('Enter');
  equal(await page.evaluate(() => window.__t.out.length), 3, 'played with the keyboard');
});

test('games behind one interface: both answer every member; each rebuilds its own positions', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser);
  track(ctx);
  await page.goto(base + '/rules');
  const r = await page.evaluate(async () => {
    const { kindOf } = await import('/js/kinds.js');
    const cc = kindOf('cc');
    const dr = kindOf('draughts');
    const shape = (k) => Object.keys(k).sort().map((name) => `${name}:${typeof k[name]}`).join(' ');
    // Chinese checkers, 3 players: the swap rule puts the piece on the destination back on the
    // start hole; a resigner's pieces leave the board.
    const ccStart = { pieces: [{ seat: 0, at: [1, 4, -5] }, { seat: 1, at: [1, 3, -4] }, { seat: 2, at: [0, 0, 0] }], inert: [] };
    const swapped = cc.applyEntry(ccStart, { kind: 'move', seat: 0, move: { from: [1, 4, -5], to: [1, 3, -4], path: [] } }, 3);
    const resigned = cc.applyEntry(swapped, { kind: 'resign', seat: 2 }, 3);
    // Draughts 10×10: a capture removes the taken piece; a man reaching the far row is crowned.
    const drStart = { size: 10, fen: 'W:W28,7:B23', pieces: [{ square: 7, color: 'white' }, { square: 23, color: 'black' }, { square: 28, color: 'white' }] };
    const taken = dr.applyEntry(drStart, { kind: 'move', seat: 0, move: { from: 28, to: 19, path: [28, 19], captures: [23] } }, 2);
    const crowned = dr.applyEntry(taken, { kind: 'move', seat: 0, move: { from: 7, to: 1, path: [7, 1], captures: [] } }, 2);
    return {
      same: shape(cc) === shape(dr), shape: shape(cc), ids: [cc.id, dr.id],
      swapped: cc.signature(swapped), resigned: cc.signature(resigned), untouched: cc.signature(ccStart),
      taken: dr.signature(taken), crowned: dr.signature(crowned), fen: 'fen' in taken,
      inputs: [JSON.stringify(cc.moveInput(cc.boardMove({ from: [1, 4, -5], to: [1, 2, -3], path: [] }))),
        JSON.stringify(dr.moveInput(dr.boardMove({ from: 32, to: 28, path: [32, 28], captures: [], notation: '32-28' })))],
    };
  });
  assert(r.same, `the same members in both games: ${r.shape}`);
  equal(r.ids.join(), 'cc,draughts');
  equal(r.untouched, '0@1,4,-5 1@1,3,-4 2@0,0,0', 'applying an entry makes a new board');
  equal(r.swapped, '0@1,3,-4 1@1,4,-5 2@0,0,0');
  equal(r.resigned, '0@1,3,-4 1@1,4,-5');
  equal(r.taken, 'white@19 white@7');
  equal(r.crowned, 'white@19 white@1K');
  assert(!r.fen, 'a rebuilt draughts board has no FEN of its own');
  equal(r.inputs.join(' '), '{"from":[1,4,-5],"to":[1,2,-3]} {"notation":"32-28"}');
});
