// Live screens do not eat what the player is typing: the lobby and the game's panels are drawn
// again on every event (someone joins, leaves, gets ready), and the control under the player's
// fingers stays on the page (dom.js `patch`): same element, focus (on a phone: the keyboard),
// caret, typed-but-unsent text, an open select. What the player confirms is sent, and the field
// then shows what the server stored, a refusal included.
import { assert, equal, newPerson } from '../lib.mjs';

test('live fields: patch keeps the focused field with its typed text and caret, gives it the new listeners, replaces the rest', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser);
  track(ctx);
  await page.goto(base + '/rules');
  await page.evaluate(async () => {
    const { h, patch } = await import('/js/dom.js');
    const box = h('div', { id: 'patch-box' });
    document.body.prepend(box);
    /** @type {number[]} */
    const sent = [];
    /** One version of the content: what the server says, and listeners that tell which version they belong to. */
    const draw = (/** @type {number} */ n, /** @type {string} */ value) => [
      h('p', { class: 'title' }, `v${n}`),
      h('div', { class: 'row', 'data-key': 'name' },
        h('span', { class: 'label' }, `label ${n}`),
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
