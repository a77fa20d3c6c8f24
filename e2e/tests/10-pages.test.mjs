// Home, rules, FAQ, data pages, and the language switch.
import { assert, equal, newPerson, shot } from '../lib.mjs';

test('home presents both games with their two big actions and the join-by-code field', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser);
  track(ctx);
  await page.goto(base + '/');
  await page.locator('[data-game=cc] h2').waitFor();
  equal(await page.locator('[data-game=cc] h2').textContent(), 'Dames chinoises', 'Chinese checkers card title');
  equal(await page.locator('[data-game=draughts] h2').textContent(), 'Jeu de dames', 'draughts card title');
  for (const g of ['cc', 'draughts']) {
    assert((await page.locator(`[data-action=cpu-${g}]`).textContent()).includes('Contre le CPU'), `${g}: Contre le CPU`);
    assert((await page.locator(`[data-action=friends-${g}]`).textContent()).includes('Avec des amis'), `${g}: Avec des amis`);
    equal(await page.locator(`[data-rules=${g}] .summary dt`).count(), 4, `${g}: a 4-line summary`);
  }
  assert(await page.locator('#join-code').isVisible(), 'join field visible');
  for (const href of ['/rules', '/faq', '/data']) assert(await page.locator(`a[href="${href}"]`).first().isVisible(), `link ${href}`);
  await shot(page, '01-home', { fullPage: true });
  // A malformed code is refused before asking the server, under the field.
  await page.fill('#join-code', 'OOOO11');
  await page.click('[data-action=join-code]');
  await page.locator('[data-testid=join-error]', { hasText: 'pas la bonne forme' }).waitFor();
  equal(page.errors.length, 0, 'no script error');
});

test('rules, FAQ and data pages render', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser);
  track(ctx);
  await page.goto(base + '/rules');
  await page.locator('.page-rules h1').waitFor();
  const rules = await page.locator('.page-rules').textContent();
  for (const s of ['121 trous', 'Antiblocage', 'Sauts longs', 'prise majoritaire', 'brésilienne', 'canadienne']) assert(rules.includes(s), `rules mention ${s}`);
  await shot(page, '07-rules-page');
  await page.click('nav a[href="/faq"]');
  await page.locator('.page-faq h1').waitFor();
  assert((await page.locator('.page-faq details').count()) >= 12, 'FAQ has its questions');
  assert((await page.locator('.page-faq').textContent()).includes('Combien de personnes peuvent jouer'), 'FAQ question of seed 000');
  await page.goto(base + '/data');
  await page.locator('.page-data h1').waitFor();
  const data = await page.locator('.page-data').textContent();
  for (const s of ['dames_client', 'HttpOnly', '7 days', '30 days', '45 days', 'in memory only', 'no third-party trackers']) assert(data.includes(s), `data page mentions ${s}`);
  await shot(page, '08-data-page');
  equal(page.errors.length, 0, 'no script error');
});

test('language switch: FR → EN, the texts change and stay after a reload', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser);
  track(ctx);
  await page.goto(base + '/');
  equal(await page.locator('html').getAttribute('lang'), 'fr', 'French by default');
  await page.click('[data-action=lang]');
  await page.locator('[data-game=cc] h2', { hasText: 'Chinese checkers' }).waitFor();
  equal(await page.locator('html').getAttribute('lang'), 'en', 'lang attribute');
  assert((await page.locator('[data-action=cpu-cc]').textContent()).includes('Against the CPU'), 'button translated');
  assert((await page.locator('nav a[href="/rules"]').textContent()) === 'Rules', 'nav translated');
  await page.reload();
  await page.locator('[data-game=draughts] h2').waitFor();
  equal(await page.locator('[data-game=draughts] h2').textContent(), 'Draughts', 'English kept after reload');
  await page.goto(base + '/rules');
  assert((await page.locator('.page-rules').textContent()).includes('121 holes'), 'rules in English');
  await page.click('[data-action=lang]');
  await page.locator('.page-rules h1', { hasText: 'Règles' }).waitFor();
  equal(page.errors.length, 0, 'no script error');
});

test('the name is asked once, then remembered on this browser', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: null });
  track(ctx);
  await page.goto(base + '/');
  await page.click('[data-action=friends-draughts]');
  await page.locator('dialog input[name=name]').fill('Jade');
  await page.locator('dialog [data-value=ok]').click();
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  await page.locator('.seat.mine', { hasText: 'Jade' }).waitFor();
  equal(await page.evaluate(() => localStorage.getItem('dames.name')), 'Jade', 'remembered');
  await page.goto(base + '/');
  await page.click('[data-action=cpu-cc]');
  await page.locator('dialog [data-value=play]').waitFor();
  equal(await page.locator('dialog input[name=name]').count(), 0, 'not asked again');
  assert((await page.locator('[data-action=name]').textContent()).includes('Jade'), 'shown in the header');
});
