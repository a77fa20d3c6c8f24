// Development helper: screenshots of game states (selection, destinations, end screen) at phone
// and desktop sizes. Usage: node dev/states.mjs BASE_URL OUT_DIR
import { launchBrowser, newPerson } from '../lib.mjs';
const [base, out = '/tmp/shots'] = process.argv.slice(2);
const browser = await launchBrowser();
for (const phone of [false, true]) {
  const tag = phone ? 'phone' : 'desk';
  const { page } = await newPerson(browser, { name: 'Ana', phone, lang: process.env.LANG_EN ? 'en' : null });
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  await page.goto(base + '/');
  await page.locator('[data-action=cpu-cc]').click();
  await page.locator('dialog .seg', { hasText: '6' }).click();
  await page.locator('dialog [data-value=play]').click();
  await page.locator('svg.board-cc').waitFor();
  await page.locator('.status.mine').waitFor();
  await page.locator('svg.board .piece.movable').first().click();
  await page.waitForTimeout(200);
  await page.screenshot({ path: `${out}/${tag}_select.png` });
  await page.locator('svg.board .dest').last().click();
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${out}/${tag}_after.png`, fullPage: true });
  await page.locator('[data-action=resign]').click();
  await page.screenshot({ path: `${out}/${tag}_resign.png` });
  await page.locator('dialog [data-value=yes]').click();
  await page.waitForTimeout(800);
  await page.screenshot({ path: `${out}/${tag}_end.png`, fullPage: true });
}
await browser.close();
