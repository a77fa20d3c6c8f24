// Sharing a room (issue 14): the code in groups and spelled, « Lire le code » with the browser's
// voice in the page's language, « Copier le lien », the system share sheet, LINE, WhatsApp, SMS
// and e-mail links that all carry the room's link.
import { assert, equal, newPerson, roomCode, shot } from '../lib.mjs';

test('share: code grouped and read aloud, copy, share sheet, LINE / WhatsApp / SMS / e-mail carry the link', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { phone: true });
  track(ctx);
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  // What the page asks of the system share sheet and of the voice (headless Chromium has
  // neither), recorded.
  await ctx.addInitScript(() => {
    window.__shared = [];
    window.__spoken = [];
    Object.defineProperty(navigator, 'share', { value: async (data) => { window.__shared.push(data); } });
    speechSynthesis.speak = (u) => window.__spoken.push({ text: u.text, lang: u.lang });
  });
  await page.goto(base + '/');
  await page.click('[data-action=friends-cc]');
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = await roomCode(page);
  const link = `${base}/r/${code}`;

  // Two groups of three, spelled for a screen reader.
  const groups = await page.locator('[data-testid=room-code] .code-group').allTextContents();
  equal(groups.join('|'), `${code.slice(0, 3)}|${code.slice(3)}`, 'two groups of three');
  assert((await page.locator('[data-testid=room-code]').getAttribute('aria-label')).includes(code.slice(0, 3).split('').join(' ')), 'spelled label');

  // « Lire le code »: one utterance per character, in French, letters with their word.
  await page.click('[data-action=read-code]');
  const spoken = await page.evaluate(() => window.__spoken);
  const said = spoken.map((u) => u.text.trim()).filter(Boolean);
  equal(said.length, 6, `six characters read one by one (${JSON.stringify(said)})`);
  for (let i = 0; i < 6; i++) assert(said[i].startsWith(code[i]), `character ${i + 1} is ${code[i]} (${said[i]})`);
  assert(spoken.every((u) => u.lang === 'fr-FR'), 'in French');
  const letter = said.find((s) => /^[A-Z] comme /.test(s));
  assert(!/[A-Z]/.test(code) || letter, `letters are spelled « X comme … » (${JSON.stringify(said)})`);
  assert(await page.locator('[data-testid=code-spelled]').isVisible(), 'the spelling is shown too');
  await shot(page, '84-share-phone', { fullPage: true });

  // « Copier le lien ».
  await page.click('[data-action=copy-link]');
  await page.locator('.toast-good').waitFor();
  equal(await page.evaluate(() => navigator.clipboard.readText()), link, 'the link is copied');

  // The system share sheet.
  await page.click('[data-action=share-sheet]');
  const shared = await page.evaluate(() => window.__shared);
  equal(shared.length, 1, 'the share sheet opened');
  equal(shared[0].url, link, 'it shares the link');
  assert(shared[0].text.includes(code.slice(0, 3)), 'and names the code');

  // One link per app, each carrying the room's link.
  const href = async (kind) => page.locator(`[data-share=${kind}]`).getAttribute('href');
  const text = (url, param) => new URL(url).searchParams.get(param);
  const line = await href('line');
  assert(line.startsWith('https://line.me/R/share?'), `LINE share URL (${line})`);
  assert(text(line, 'text').includes(link), 'LINE message has the link');
  const wa = await href('whatsapp');
  assert(wa.startsWith('https://wa.me/?'), `WhatsApp share URL (${wa})`);
  assert(text(wa, 'text').includes(link), 'WhatsApp message has the link');
  const sms = await href('sms');
  assert(sms.startsWith('sms:') && decodeURIComponent(sms.split('body=')[1]).includes(link), `SMS body has the link (${sms})`);
  const mail = await href('email');
  assert(mail.startsWith('mailto:?subject='), 'e-mail with a subject');
  assert(decodeURIComponent(mail.split('body=')[1]).includes(link), 'e-mail body has the link');
  equal(await page.locator('[data-share=line]').getAttribute('target'), '_blank', 'apps open beside the game');

  // In English, the voice speaks English and spells with the international alphabet.
  await page.click('[data-action=lang]');
  await page.locator('[data-action=read-code]', { hasText: 'Read the code' }).waitFor();
  await page.evaluate(() => { window.__spoken = []; });
  await page.click('[data-action=read-code]');
  const en = await page.evaluate(() => window.__spoken);
  assert(en.length && en.every((u) => u.lang === 'en-GB'), 'in English');
  assert(!/[A-Z]/.test(code) || en.some((u) => / as in /.test(u.text)), 'letters spelled « X as in … »');
  equal(page.errors.length, 0, 'no script error');
});
