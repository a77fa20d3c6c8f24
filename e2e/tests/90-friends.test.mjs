// Playing among friends (issue 11), from the players' side, on phones: every error in the
// player's language, explicit settings, « Contre le CPU » with a level per CPU, the answer to a
// draw offer, results that read right, the real 404 page, and the small things (phone header,
// sets told apart, Enter in the CPU dialog).
import { assert, equal, newPerson, roomCode, shot, until } from '../lib.mjs';

/** Creates a friends room of `game` from the home page; returns its code. */
async function friendsRoom(page, base, game) {
  await page.goto(base + '/');
  await page.locator(`[data-action=friends-${game}]`).click();
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  return roomCode(page);
}

/** Text with its spaces made plain (French typography puts narrow no-break spaces before « : »). */
const norm = (text) => (text || '').replace(/\s+/g, ' ').trim();
/** The text of an element, spaces made plain. */
const textOf = async (loc) => norm(await loc.textContent());
/** The texts of the toasts shown so far (they stay about 4 s). */
const toasts = async (page) => (await page.locator('#toasts .toast').allTextContents()).map(norm);

test('friends: a refused setting is said in French under its field, which keeps the stored value', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Ana', phone: true });
  track(ctx);
  await friendsRoom(page, base, 'cc');
  const field = page.locator('[data-opt=move_limit] input');
  // The limits are the server's (GET /api/settings), not the client's own.
  const schema = await page.evaluate(async () => (await fetch('/api/settings')).json());
  const limit = schema.games.cc.fields['rules.move_limit'];
  equal(await field.getAttribute('max'), String(limit.max), 'the field takes its maximum from the server');
  const stored = await field.inputValue();
  const error = page.locator('[data-opt=move_limit] [data-testid=setting-error]');
  // The lobby is drawn again when the socket's first state and the presence arrive: the field
  // being typed in stays (93-live-fields), and the refusal stays said through those redraws.
  await field.fill('-5');
  await field.press('Enter');
  await error.waitFor();
  const text = await textOf(error);
  assert(text.includes('Limite de coups') && text.includes(`entre ${limit.min} et ${limit.max}`), `a French message with the limits (${text})`);
  assert(!/invalid|expected|integer/i.test(text), 'no raw English');
  equal(await field.inputValue(), stored, 'the field shows the stored value');
  await page.locator('[data-opt=move_limit]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot(page, '90-phone-setting-refused');
  // Nothing was sent: the room still has the stored value.
  const code = await roomCode(page);
  const room = await page.evaluate(async (c) => (await fetch(`/api/rooms/${c}`)).json(), code);
  equal(String(room.settings.rules.move_limit), stored, 'the server kept its value');

  // A refusal by the server itself (here a value past the table, sent as a script would) is
  // translated from its code, field and detail, in French and in English.
  const said = await page.evaluate(async (c) => {
    const r = await fetch(`/api/rooms/${c}`);
    const st = (await r.json()).settings;
    st.rules.move_limit = 5000;
    const res = await fetch(`/api/rooms/${c}/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(st) });
    const { error } = await res.json();
    const i18n = await import('/js/i18n.js');
    const fr = i18n.errorText(error);
    i18n.setLang('en');
    const en = i18n.errorText(error);
    i18n.setLang('fr');
    return { status: res.status, error, fr, en };
  }, code);
  equal(said.status, 400, 'the server refuses 5000');
  equal(said.error.field, 'rules.move_limit', 'the error names its field');
  assert(norm(said.fr).startsWith('« Limite de coups »') && said.fr.includes('1000'), `French: ${said.fr}`);
  assert(said.en.includes('Move limit') && said.en.includes('1000'), `English: ${said.en}`);
  equal(page.errors.length, 0, 'no script error');
});

test('friends: settings show their defaults, say what turns them off, and do not offer what cannot apply', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Ana', phone: true });
  track(ctx);
  await friendsRoom(page, base, 'cc');
  // « par défaut » on every option.
  const options = await page.locator('.settings .setting').count();
  equal(await page.locator('.settings [data-testid=setting-default]').count(), options, 'each option shows its default');
  assert((await textOf(page.locator('[data-opt=anti_blocking] [data-testid=setting-default]'))).includes('Par défaut : activé'), 'anti-blocking on by default');
  assert((await textOf(page.locator('[data-opt=rule_set] [data-testid=setting-default]'))).includes('Par défaut : Internationales'), 'the default choice is named');

  // « Échange » turns « Antiblocage » off, and the switch says so.
  await page.locator('[data-opt=swap] input').check();
  await until(async () => (await page.locator('[data-opt=anti_blocking] input').isDisabled()), 'anti-blocking locked');
  equal(await page.locator('[data-opt=anti_blocking] input').isChecked(), false, 'anti-blocking off');
  assert((await textOf(page.locator('[data-opt=anti_blocking] [data-testid=setting-note]'))).includes('Désactivé par « Échange'), 'it says why');
  await page.locator('[data-opt=anti_blocking]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot(page, '91-phone-settings-swap');
  await page.locator('[data-opt=swap] input').uncheck();
  await until(async () => !(await page.locator('[data-opt=anti_blocking] input').isDisabled()), 'anti-blocking editable again');

  // 4 players: the Japanese rules are not offered; Japanese rules: 4–6 players are not offered.
  await page.locator('[data-opt=players] select').selectOption('4');
  await until(async () => (await page.locator('.seat').count()) === 4, 'four seats');
  equal(await page.locator('[data-opt=rule_set] option[value=japanese]').isDisabled(), true, 'Japanese not offered with 4 players');
  assert((await page.locator('[data-opt=rule_set] option[value=japanese]').textContent()).includes('2 ou 3'), 'and why');
  await page.locator('[data-opt=players] select').selectOption('3');
  await until(async () => (await page.locator('.seat').count()) === 3, 'three seats');
  await page.locator('[data-opt=rule_set] select').selectOption('japanese');
  await until(async () => (await page.locator('[data-opt=players] option').evaluateAll((os) => os.map((o) => o.value).join(','))) === '2,3', 'players 2–3 only');
  assert((await page.locator('[data-opt=players] [data-testid=setting-note]').textContent()).includes('Règles japonaises'), 'players say why');
  equal(await page.locator('[data-opt=pieces] select').isDisabled(), true, '15 pieces fixed');
  equal(await page.locator('[data-opt=pieces] select').inputValue(), '15', '15 pieces shown');
  await page.locator('[data-opt=players]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot(page, '92-phone-settings-japanese');
  equal(page.errors.length, 0, 'no script error');
});

test('friends: a blank or too-long name gets a message; an unknown code is refused before the name is asked', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: '', phone: true });
  track(ctx);
  await page.goto(base + '/');
  // Unknown room code: said under the field, no name asked.
  await page.locator('#join-code').fill('ZZZ ZZZ');
  await page.locator('[data-action=join-code]').click();
  const joinError = page.locator('[data-testid=join-error]');
  await joinError.waitFor();
  assert((await joinError.textContent()).includes('Aucune partie'), 'unknown code told');
  equal(await page.locator('dialog').count(), 0, 'no name dialog');
  await page.locator('#join-code').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot(page, '93-phone-join-unknown');

  // The name: blank, then too long, then right.
  await page.locator('[data-action=friends-cc]').click();
  const input = page.locator('dialog input[name=name]');
  await input.fill('   ');
  await page.locator('dialog [data-value=ok]').click();
  const err = page.locator('dialog [data-testid=dialog-error]');
  await err.waitFor();
  assert((await err.textContent()).includes('Entrez un nom'), 'blank name told');
  await input.fill('Anastasia-Maximiliana de la Tour');
  await input.press('Enter');
  await until(async () => (await err.textContent()).includes('24 caractères'), 'too long told');
  await shot(page, '94-phone-name-too-long');
  await input.fill('Anastasia');
  await page.locator('dialog [data-value=ok]').click();
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = await roomCode(page);
  // A friend with a real code: the name is asked, then the seat is taken.
  const friend = await newPerson(browser, { name: '', phone: true });
  track(friend.ctx);
  await friend.page.goto(base + '/');
  await friend.page.locator('#join-code').fill(code.toLowerCase());
  await friend.page.locator('[data-action=join-code]').click();
  await friend.page.locator('dialog input[name=name]').fill('Bo');
  await friend.page.locator('dialog input[name=name]').press('Enter');
  await friend.page.locator('.seat.mine').waitFor();
  await page.locator('.seat[data-seat="1"]', { hasText: 'Bo' }).waitFor();
  equal(page.errors.length + friend.page.errors.length, 0, 'no script error');
});

test('friends: « Contre le CPU » with a level per CPU seat, started with Enter', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Eva', phone: true, cpuMs: 100 });
  track(ctx);
  await page.goto(base + '/');
  await page.locator('[data-action=cpu-cc]').tap();
  await page.locator('dialog .seg', { hasText: '3' }).tap();
  const rows = page.locator('dialog .cpu-level-row');
  await until(async () => (await rows.count()) === 2, 'one level per CPU');
  await rows.nth(0).locator('.seg', { hasText: 'Facile' }).tap();
  await rows.nth(1).locator('.seg', { hasText: 'Difficile' }).tap();
  await shot(page, '95-phone-cpu-levels');
  // Enter on the dialog starts the game (the focus is on a radio button).
  await rows.nth(1).locator('input[value=difficile]').focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  await page.locator('svg.board-cc').waitFor();
  const players = await page.locator('[data-testid=players] .player').allTextContents();
  assert(players[1].includes('CPU Facile') && players[2].includes('CPU Difficile'), `levels per seat (${players.join(' | ')})`);
  // Arrow keys move between the pieces on the board.
  await page.locator('.status.mine').waitFor();
  await page.locator('svg.board .piece.movable').first().focus();
  const before = await page.evaluate(() => document.activeElement.getAttribute('data-cell'));
  await page.keyboard.press('ArrowRight');
  const after = await page.evaluate(() => document.activeElement.getAttribute('data-cell'));
  assert(after && after !== before, `the arrow moved to another piece (${before} → ${after})`);
  equal(page.errors.length, 0, 'no script error');
});

test('friends: the CPU answers a draw offer visibly; friends see every offer, refusal and acceptance; a draw reads « Partie nulle »', async ({ base, browser, track }) => {
  // Against the CPU: the opening is not a dead draw, so the CPU refuses, and says so.
  const solo = await newPerson(browser, { name: 'Lou', phone: true, cpuMs: 100 });
  track(solo.ctx);
  const p = solo.page;
  await p.goto(base + '/');
  await p.locator('[data-action=cpu-draughts]').tap();
  await p.locator('dialog [data-value=play]').tap();
  await p.locator('svg.board-draughts').waitFor();
  await p.locator('.status.mine').waitFor();
  await p.locator('[data-action=draw-offer]').tap();
  const declined = p.locator('[data-testid=draw-declined]');
  await declined.waitFor();
  assert((await textOf(declined)).includes('Le CPU refuse la nulle'), `the CPU's refusal shown (${await textOf(declined)})`);
  await shot(p, '96-phone-cpu-declines-draw');

  // Between friends, in two browsers.
  const host = await newPerson(browser, { name: 'Chloé', phone: true });
  const guest = await newPerson(browser, { name: 'Dan', phone: true });
  track(host.ctx);
  track(guest.ctx);
  const a = host.page;
  const b = guest.page;
  const code = await friendsRoom(a, base, 'draughts');
  await b.goto(`${base}/r/${code}`);
  await b.locator('[data-action=join]').click();
  await b.locator('.seat.mine').waitFor();
  await a.locator('[data-action=start]').click();
  await a.locator('svg.board-draughts').waitFor();
  await b.locator('svg.board-draughts').waitFor();
  // Chloé offers: Dan is told and refuses; Chloé sees « Dan refuse la nulle ».
  await a.locator('[data-action=draw-offer]').click();
  await b.locator('[data-action=draw-decline]').waitFor();
  assert((await toasts(b)).some((x) => x.includes('Chloé propose la nulle')), 'the offer announced');
  await b.locator('[data-action=draw-decline]').click();
  await until(async () => (await toasts(a)).some((x) => x.includes('Dan refuse la nulle')), 'the refusal announced');
  await a.locator('[data-testid=draw-declined]', { hasText: 'Dan refuse la nulle' }).waitFor();
  // Dan offers in turn; Chloé accepts: both read « Partie nulle », nobody « 1ᵉʳ ».
  await b.locator('[data-action=draw-offer]').click();
  await a.locator('[data-action=draw-accept]').waitFor();
  await a.locator('[data-action=draw-accept]').click();
  for (const pg of [a, b]) {
    await pg.locator('[data-testid=result-title]').waitFor();
    equal(await textOf(pg.locator('[data-testid=result-title]')), 'Partie nulle', 'draw title');
    const places = await pg.locator('[data-testid=result] .places .place').allTextContents();
    assert(places.length === 2 && places.every((x) => x === 'nulle'), `no winner in the places (${places.join(', ')})`);
  }
  await until(async () => (await toasts(b)).some((x) => x.includes('Chloé accepte la nulle')), 'the acceptance announced');
  // The rematch panel: Chloé is ready, Dan is waited for; never « Tout le monde est là » beside it.
  await a.locator('[data-action=rematch]').click();
  await a.locator('[data-action=rematch-cancel]').waitFor();
  const panel = a.locator('[data-testid=result] .rematch');
  await until(async () => (await textOf(panel)).includes('En attente : Dan'), 'waiting for Dan');
  assert(!(await textOf(panel)).includes('Tout le monde est là'), 'not « everybody is here » while waiting');
  await a.locator('[data-testid=result]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot(a, '97-phone-draw-result');
  await b.locator('[data-action=rematch]').click();
  await a.locator('.status.mine, .status:not(.over)').first().waitFor();
  await until(async () => !(await a.locator('[data-testid=result]').isVisible()), 'the rematch started');
  equal(p.errors.length + a.errors.length + b.errors.length, 0, 'no script error');
});

test('friends: an unknown address shows the site’s own page with a 404, in the player’s language', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Ana', phone: true });
  track(ctx);
  const res = await page.goto(base + '/nimporte-quoi');
  equal(res.status(), 404, 'HTTP status');
  await page.locator('[data-testid=not-found] h1').waitFor();
  equal((await page.locator('[data-testid=not-found] h1').textContent()).trim(), 'Page introuvable', 'French title');
  assert(await page.locator('header.topbar .brand').isVisible(), 'the header is there');
  await shot(page, '98-phone-404');
  await page.locator('[data-testid=not-found] [data-action=home]').click();
  await page.waitForURL(base + '/');
  await page.locator('[data-action=cpu-cc]').waitFor();
  // In English for an English player; /regles is no page either.
  const en = await newPerson(browser, { name: 'Ann', lang: 'en' });
  track(en.ctx);
  const res2 = await en.page.goto(base + '/regles');
  equal(res2.status(), 404, 'HTTP status of /regles');
  equal((await en.page.locator('[data-testid=not-found] h1').textContent()).trim(), 'Page not found', 'English title');
  equal(page.errors.length + en.page.errors.length, 0, 'no script error');
});

test('friends: phone header on one line with a name; two sets of one player told apart', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { name: 'Marie-Charlotte', phone: true, cpuMs: 100 });
  track(ctx);
  await friendsRoom(page, base, 'cc');
  // The header: one line, the wordmark visible.
  const bar = await page.locator('header.topbar').boundingBox();
  assert(bar.height < 64, `the header is one line (${bar.height}px)`);
  assert(await page.locator('header.topbar .brand span').isVisible(), 'the wordmark stays');
  assert(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no horizontal scroll');
  await shot(page, '99-phone-header', { clip: { x: 0, y: 0, width: 390, height: 120 } });
  // Two sets each: the host plays a CPU.
  await page.locator('[data-opt=sets] select').selectOption('2');
  await until(async () => (await page.locator('.seat[data-seat="0"] .set-swatches .swatch').count()) === 2, 'two swatches for the host');
  await page.locator('select[data-cpu-seat="1"]').selectOption('facile');
  await page.locator('.seat[data-seat="1"].seat-cpu').waitFor();
  await page.locator('[data-action=start]').click();
  await page.locator('svg.board-cc').waitFor();
  const fills = await page.locator('svg.board .piece[data-owner="0"] .piece-body').evaluateAll((els) => els.map((e) => e.getAttribute('fill')));
  equal(fills.length, 20, 'twenty pieces of mine');
  equal(new Set(fills).size, 2, 'my two sets have two shades');
  equal(await page.locator('svg.board .piece[data-owner="0"] .set-ring').count(), 10, 'the second set is ringed');
  await shot(page, '99-phone-two-sets');
  equal(page.errors.length, 0, 'no script error');
});
