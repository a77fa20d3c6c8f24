// axe-core (the accessibility rules engine, from npm) run inside a page of the browser tests.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { assert } from './lib.mjs';

const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core on `page` (WCAG 2.x A and AA rules and best practices) and returns its serious
 * and critical violations, each as "rule: target…"; `all`: axe-core's default rules, every impact.
 * @param {import('playwright-core').Page} page
 */
export async function axeViolations(page, { all = false } = {}) {
  // Evaluated through the DevTools protocol: the page's Content-Security-Policy does not apply.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(source);
  const violations = await page.evaluate(async (all) => {
    const res = await /** @type {any} */ (window).axe.run(document, all ? { resultTypes: ['violations'] } : {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return res.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + (n.failureSummary ? ` (${n.failureSummary.split('\n').slice(1, 2).join('').trim()})` : '')) }));
  }, all);
  return all ? violations : violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Fails with every violation axe-core finds on `page` with its default rules, whatever its impact (issue 23). */
export async function noViolations(page, where) {
  const found = await axeViolations(page, { all: true });
  assert(found.length === 0, `${where}: ${JSON.stringify(found, null, 1)}`);
}

/** Fails with the serious or critical violations axe-core finds on `page`, if any. */
export async function noSeriousViolations(page, where) {
  const found = await axeViolations(page);
  assert(found.length === 0, `${where}: ${JSON.stringify(found, null, 1)}`);
}
