// Development helper: screenshots of a running site (DARK=1 for the dark theme).
// Usage: node dev/shoot.mjs BASE_URL OUT_DIR
import { launchBrowser } from '../lib.mjs';
const [base, out = '/tmp/shots'] = process.argv.slice(2);
const browser = await launchBrowser();
for (const [name, vp] of [['desk', { width: 1280, height: 860 }], ['phone', { width: 390, height: 844 }]]) {
  const ctx = await browser.newContext({ viewport: vp, hasTouch: name === 'phone', colorScheme: process.env.DARK ? 'dark' : 'light' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  page.on('console', (m) => m.type() === 'error' && console.log('console', m.text()));
  await page.addInitScript(() => localStorage.setItem('dames.name', 'Ana'));
  for (const path of ['/', '/rules', '/faq', '/data']) {
    await page.goto(base + path);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${out}/${name}${path.replace(/\//g, '_') || '_home'}.png`, fullPage: path === '/' });
  }
  await page.goto(base + '/');
  await page.click('[data-action=friends-cc]');
  await page.waitForSelector('.room-code');
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${out}/${name}_lobby.png`, fullPage: true });
  await page.goto(base + '/');
  await page.click('[data-action=cpu-cc]');
  await page.click('dialog [data-value=play]');
  await page.waitForSelector('svg.board');
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${out}/${name}_ccgame.png` });
  await page.goto(base + '/');
  await page.click('[data-action=cpu-draughts]');
  await page.click('dialog [data-value=play]');
  await page.waitForSelector('svg.board');
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${out}/${name}_drgame.png` });
  await ctx.close();
}
await browser.close();
