// The seed's sections of the home page (issue 14): « En un coup d'œil », « Ayants droit et version
// physique », « Jeux associés », in French and in English.
import { assert, equal, newPerson, shot } from '../lib.mjs';

/** The facts table as {row header: [Chinese checkers, draughts]}. */
async function factsTable(page) {
  return page.locator('[data-testid=facts] tbody tr').evaluateAll((rows) => Object.fromEntries(rows.map((r) => [
    r.querySelector('th').textContent, [...r.querySelectorAll('td')].map((td) => td.textContent)])));
}

test('home: the facts of both games, rights and physical edition, each game pointing to the other (FR, EN)', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser, { phone: true });
  track(ctx);
  await page.goto(base + '/');
  await page.locator('[data-testid=facts] table').waitFor();
  const fr = await factsTable(page);
  equal(Object.keys(fr).length, 8, 'eight facts, as in the seed');
  equal(fr['Nombre de joueurs'].join(' | '), '2–6 joueurs | 2 joueurs', 'players');
  equal(fr['Durée'][0], 'Environ 20 min', 'length');
  equal(fr['Type'].join(' | '), 'Plateau | Plateau', 'type');
  equal(fr['Parties classées'][0], 'Non', 'not ranked');
  assert(fr['Entraînement CPU'][0].startsWith('Oui'), 'CPU practice');
  equal(fr['Tarifs'][0], 'Gratuit, sans inscription', 'free');
  equal(fr['Ayants droit'][1], 'Classique du domaine public', 'rights holder');
  assert(/^\d{4}-\d{2}-\d{2}$/.test(fr['Dernière mise à jour'][0]), 'last updated');
  const rights = await page.locator('[data-testid=rights]').textContent();
  for (const s of ['Ayants droit et version physique', 'Classique du domaine public', '121 trous', 'FMJD']) assert(rights.includes(s), `rights mention ${s}`);
  // « Jeux associés »: each card links to the other one.
  for (const [game, other] of [['cc', 'draughts'], ['draughts', 'cc']]) {
    const box = page.locator(`[data-testid=related-${game}]`);
    assert((await box.textContent()).includes('Même type (Plateau)'), `${game}: same type`);
    const links = await box.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert(links.length >= 1 && links.every((h) => h === `#game-${other}`), `${game} points to ${other} (${links})`);
  }
  await page.locator('[data-testid=related-cc] a').first().click();
  await page.waitForURL(/#game-draughts$/);
  await shot(page, '86-home-facts-phone', { fullPage: true });

  await page.click('[data-action=lang]');
  await page.locator('[data-testid=facts] h2', { hasText: 'At a glance' }).waitFor();
  const en = await factsTable(page);
  equal(en['Players'].join(' | '), '2–6 players | 2 players', 'players (EN)');
  equal(en['Rights holder'][0], 'Public-domain classic', 'rights holder (EN)');
  assert((await page.locator('[data-testid=rights]').textContent()).includes('Rights holders and physical edition'), 'rights (EN)');
  assert((await page.locator('[data-testid=related-draughts]').textContent()).includes('Same type (Board)'), 'related (EN)');
  equal(page.errors.length, 0, 'no script error');
});
