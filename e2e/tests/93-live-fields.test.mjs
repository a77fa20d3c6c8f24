// Live screens do not eat what the player is typing: the lobby and the game's panels are drawn
// again on every event (someone joins, leaves, gets ready), and the control under the player's
// fingers stays on the page (dom.js `patch`): same element, focus (on a phone: the keyboard),
// caret, typed-but-unsent text, an open select. What the player confirms is sent, and the field
// then shows what the server stored, a refusal included.
import { assert, draughtsPair, equal, newPerson, resign, roomCode, shot, until } from '../lib.mjs';

/** The room as the server has it. @param {import('playwright-core').Page} page @param {string} code */
const roomOf = (page, code) => page.evaluate(async (c) => (await fetch(`/api/rooms/${c}`)).json(), code);

/** Marks the element `loc` points at, to tell later whether it is still the same one. */
const mark = (loc) => loc.evaluate((el) => { /** @type {any} */ (el).probe = true; });

/** The focused element: whether it is the one marked, and its value and caret (text fields). */
const focused = (page) => page.evaluate(() => {
  const el = /** @type {any} */ (document.activeElement);
  let caret = null;
  try { caret = el.selectionStart; } catch { /* number fields have none */ }
  return { marked: el.probe === true, connected: el.isConnected, value: el.value ?? null, caret };
});

/** A person opens the room's link and takes a seat (the name dialog if the browser knows none). */
async function joins(page, base, code) {
  await page.goto(`${base}/r/${code}`);
  await page.locator('[data-action=join]').click();
}

/** The host's page `a` opens a Chinese checkers room among friends set to 3 players; its code. */
async function threeSeatLobby(a, base) {
  await a.goto(base + '/');
  await a.click('[data-action=friends-cc]');
  await a.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = await roomCode(a);
  await a.locator('[data-opt=players] select').selectOption('3');
  await until(async () => (await a.locator('.seat').count()) === 3, 'three seats');
  return code;
}

test('live fields: patch keeps the focused field with its typed text and caret, gives it the new listeners, replaces the rest', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser);
  track(ctx);
  await page.goto(base + '/rules');
  await page.evaluate(async () => {
    const { h, patch } = await import('/js/dom.js');
    const box = h('div', { id: 'patch-box' });
    // Inside the page's main landmark, its field labelled: a state axe-core checks like any other.
    /** @type {HTMLElement} */ (document.querySelector('main')).prepend(box);
    /** @type {number[]} */
    const sent = [];
    /** One version of the content: what the server says, and listeners that tell which version they belong to. */
    const draw = (/** @type {number} */ n, /** @type {string} */ value) => [
      h('p', { class: 'title' }, `v${n}`),
      h('div', { class: 'row', 'data-key': 'name' },
        h('label', { class: 'label', for: 'f' }, `label ${n}`),
        h('input', { type: 'text', id: 'f', value, 'data-version': n, onchange: () => sent.push(n) })),
      h('button', { type: 'button', 'data-action': 'go' }, `go ${n}`),
    ];
    const w = /** @type {any} */ (window);
    w.redraw = (/** @type {number} */ n, /** @type {string} */ value) => {
      const before = { input: document.getElementById('f'), title: box.querySelector('.title') };
      patch(box, draw(n, value));
      const input = /** @type {HTMLInputElement} */ (document.getElementById('f'));
      return {
        sameInput: input === before.input, sameTitle: box.querySelector('.title') === before.title, focused: document.activeElement === input,
        value: input.value, caret: input.selectionStart, version: input.dataset.version, text: box.textContent, sent: [...sent],
      };
    };
    patch(box, draw(1, 'abc'));
  });
  const field = page.locator('#f');
  await field.click();
  await page.keyboard.press('End');
  await page.keyboard.type('XY');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  // Switching to another app and back: the page's focused field gets blur and focusout (and
  // stays the focused element), nothing is sent.
  await field.evaluate((el) => {
    el.dispatchEvent(new FocusEvent('blur'));
    el.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
  });
  // A redraw while typing: the same field, focused, what was typed, the caret.
  let r = await page.evaluate(() => /** @type {any} */ (window).redraw(2, 'server 2'));
  assert(r.sameInput && r.focused, 'the field typed in is kept, focused');
  equal(r.value, 'abcXY', 'the typed text is kept');
  equal(r.caret, 2, 'the caret is kept');
  assert(!r.sameTitle, 'the rest is replaced');
  equal(r.text, 'v2label 2go 2', 'by the new content');
  equal(r.version, '2', 'the field has the new attributes');
  // Enter sends with the new version's listener only.
  await page.keyboard.press('Enter');
  r = await page.evaluate(() => /** @type {any} */ (window).redraw(3, 'server 3'));
  equal(JSON.stringify(r.sent), '[2]', 'the change went to the listener of the version on screen, once');
  assert(r.sameInput && r.focused, 'still the same field');
  equal(r.value, 'server 3', 'once sent, the field shows what the server says');
  // A field no longer in use is drawn again like the rest.
  await page.locator('.title').click();
  r = await page.evaluate(() => /** @type {any} */ (window).redraw(4, 'server 4'));
  assert(!r.sameInput && !r.focused, 'an unfocused field is replaced');
  equal(r.value, 'server 4', 'with the new value');
  equal(page.errors.length, 0, 'no script error');
});

test('live fields: a live list keeps each row that stays (same element, new content), drops the rows gone, places the new ones', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser);
  track(ctx);
  await page.goto(base + '/rules');
  const r = await page.evaluate(async () => {
    const { h, fillKeyed } = await import('/js/dom.js');
    const list = h('ul', { id: 'keyed' });
    /** @type {HTMLElement} */ (document.querySelector('main')).prepend(list);
    const row = (/** @type {string} */ key, /** @type {string} */ text) => h('li', { 'data-key': key, class: `row-${text}` },
      h('span', null, text), h('button', { type: 'button', 'data-action': 'go' }, `go ${key}`));
    fillKeyed(list, [row('a', 'a1'), row('b', 'b1'), row('c', 'c1')]);
    const [a, b, c] = [...list.children];
    /** @type {HTMLElement} */ (b.querySelector('button')).focus();
    fillKeyed(list, [row('d', 'd2'), row('b', 'b2'), row('a', 'a2')]);
    const after = [...list.children];
    return {
      keys: after.map((e) => e.getAttribute('data-key')).join(','), text: list.textContent,
      sameA: after[2] === a, sameB: after[1] === b, cGone: !c.isConnected, classB: b.className,
      focusKept: document.activeElement === b.querySelector('button'),
    };
  });
  equal(r.keys, 'd,b,a', 'the new order');
  equal(r.text, 'd2go db2go ba2go a', 'each row with its new content');
  assert(r.sameA && r.sameB, 'the rows that stay are the same elements');
  assert(r.cGone, 'the row gone is gone');
  equal(r.classB, 'row-b2', 'a kept row takes the new attributes');
  assert(r.focusKept, 'the button in use in a row that stays keeps the focus');
  equal(page.errors.length, 0, 'no script error');
});

test('live fields: the host keeps typing a setting and a guest her name while players join and leave (phones); Enter sends them', async ({ base, browser, track }) => {
  const [ana, bo, cy] = await Promise.all([
    newPerson(browser, { name: 'Ana', phone: true }),
    newPerson(browser, { name: 'Bo', phone: true }),
    newPerson(browser, { name: '', phone: true }),
  ]);
  for (const p of [ana, bo, cy]) track(p.ctx);
  const [a, b, c] = [ana.page, bo.page, cy.page];
  const code = await threeSeatLobby(a, base);
  const field = a.locator('[data-opt=move_limit] input');
  const stored = await field.inputValue();

  // Ana types 15 in « Limite de coups », the caret between 1 and 5, and has not confirmed.
  await field.tap();
  await field.fill('');
  await a.keyboard.type('15');
  await a.keyboard.press('ArrowLeft');
  await mark(field);

  // Cy opens the link and types her name in the dialog, the caret before the last letter.
  await joins(c, base, code);
  const name = c.locator('dialog input[name=name]');
  await name.waitFor();
  await c.keyboard.type('Cyrl');
  await c.keyboard.press('ArrowLeft');
  await mark(name);

  // Bo sits down, leaves, sits down again: three redraws on both their screens.
  await joins(b, base, code);
  await b.locator('.seat.mine').waitFor();
  await a.locator('.seat[data-seat="1"]', { hasText: 'Bo' }).waitFor();
  await b.locator('[data-action=leave]').click();
  await until(async () => (await a.locator('.seat[data-seat="1"].seat-empty').count()) === 1, 'Ana sees Bo leave');
  await b.locator('[data-action=join]').click();
  await a.locator('.seat[data-seat="1"]', { hasText: 'Bo' }).waitFor();
  await until(async () => (await c.locator('.seat[data-seat="1"]', { hasText: 'Bo' }).count()) === 1, 'Cy sees Bo');

  let now = await focused(a);
  assert(now.marked && now.connected, 'Ana’s field is the same element, still focused');
  equal(now.value, '15', 'what Ana typed is still there');
  now = await focused(c);
  assert(now.marked && now.connected, 'Cy’s name field is the same element, still focused');
  equal(now.value, 'Cyrl', 'what Cy typed is still there');
  equal(now.caret, 3, 'Cy’s caret is where she left it');
  // Nothing was sent while typing.
  equal(String((await roomOf(a, code)).settings.rules.move_limit), stored, 'the server still has the stored limit');
  await field.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot(a, '93-phone-lobby-typing');
  await shot(c, '93-phone-name-typing');

  // Typing goes on where the carets were.
  await a.keyboard.type('2');
  equal(await field.inputValue(), '125', 'Ana’s caret stayed between 1 and 5');
  await c.keyboard.type('i');
  equal(await name.inputValue(), 'Cyril', 'Cy’s caret stayed before the l');

  // Cy confirms: she sits down under her name, one more redraw under Ana's fingers.
  await c.keyboard.press('Enter');
  await c.locator('.seat.mine', { hasText: 'Cyril' }).waitFor();
  await a.locator('.seat[data-seat="2"]', { hasText: 'Cyril' }).waitFor();
  now = await focused(a);
  assert(now.marked && now.value === '125', `Ana is still typing 125 (${JSON.stringify(now)})`);

  // Ana confirms: sent, stored, shown to everybody.
  await a.keyboard.press('Enter');
  await until(async () => (await roomOf(a, code)).settings.rules.move_limit === 125, 'the server stored 125');
  await until(async () => (await b.locator('[data-opt=move_limit] input').inputValue()) === '125', 'Bo sees 125');
  equal(await field.inputValue(), '125', 'Ana’s field shows the stored value');
  equal(await a.locator('[data-opt=move_limit] [data-testid=setting-error]').isVisible(), false, 'no error');

  // A refused value: the field shows the stored value, and the message stays through the next redraw.
  await a.keyboard.press('Control+A');
  await a.keyboard.type('-5');
  await a.keyboard.press('Enter');
  const error = a.locator('[data-opt=move_limit] [data-testid=setting-error]');
  await error.waitFor();
  equal(await field.inputValue(), '125', 'the field shows the stored value again');
  await b.locator('[data-action=leave]').click();
  await until(async () => (await a.locator('.seat[data-seat="1"].seat-empty').count()) === 1, 'Ana sees Bo leave');
  assert(await error.isVisible(), 'the refusal is still said after the redraw');
  equal(await field.inputValue(), '125', 'and the field still shows the stored value');
  equal((await roomOf(a, code)).settings.rules.move_limit, 125, 'the server kept 125');
  await shot(a, '93-phone-lobby-refused');
  equal(a.errors.length + b.errors.length + c.errors.length, 0, 'no script error');
});

test('live fields: a select the host has open stays open and usable while a player joins (phone)', async ({ base, browser, track }) => {
  const [ana, bo] = await Promise.all([newPerson(browser, { name: 'Ana', phone: true }), newPerson(browser, { name: 'Bo', phone: true })]);
  for (const p of [ana, bo]) track(p.ctx);
  const [a, b] = [ana.page, bo.page];
  const code = await threeSeatLobby(a, base);

  // Ana opens « Ajouter un CPU » on the third seat.
  const level = a.locator('select[data-cpu-seat="2"]');
  await level.tap();
  await mark(level);
  await joins(b, base, code);
  await a.locator('.seat[data-seat="1"]', { hasText: 'Bo' }).waitFor();
  const now = await focused(a);
  assert(now.marked && now.connected, 'the select is the same element, still focused');
  equal(now.value, '', 'nothing chosen yet');
  await shot(a, '93-phone-lobby-select');

  // She picks the first level with the keyboard: it reaches the select she opened.
  await a.keyboard.press('ArrowDown');
  await a.keyboard.press('Enter');
  await until(async () => {
    const seat = (await roomOf(a, code)).seats[2];
    return seat.kind === 'cpu' && seat.level === 'facile';
  }, 'the third seat is a CPU « facile »');
  await b.locator('.seat[data-seat="2"].seat-cpu').waitFor();
  await until(async () => (await level.inputValue()) === 'facile', 'Ana’s select shows the stored level');
  equal(a.errors.length + b.errors.length, 0, 'no script error');
});

test('live fields: the rematch button under the finger stays while the other player gets ready (phone)', async ({ base, browser, track }) => {
  const { ana, bo, code } = await draughtsPair(browser, base, track, { phone: true });
  const first = (await roomOf(ana, code)).game_no;
  await resign(bo);
  await ana.locator('[data-testid=result] h2').waitFor();
  const again = ana.locator('[data-action=rematch]');
  await again.focus();
  await mark(again);
  // Bo is ready: Ana's result panel is drawn again.
  await bo.locator('[data-action=rematch]').click();
  await until(async () => (await roomOf(ana, code)).seats[1].ready === true, 'Bo is ready');
  await ana.locator('[data-testid=result] .tag.good').waitFor();
  const now = await focused(ana);
  assert(now.marked && now.connected, 'Ana’s button is the same element, still focused');
  await shot(ana, '93-phone-rematch-focused');
  // Enter presses it: the second game starts.
  await ana.keyboard.press('Enter');
  await until(async () => (await roomOf(ana, code)).game_no === first + 1, 'the second game started');
  await until(async () => !(await ana.locator('.game.finished').count()), 'Ana sees the new game');
  equal(ana.errors.length + bo.errors.length, 0, 'no script error');
});
