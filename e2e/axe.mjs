// axe-core (the accessibility rules engine, from npm) in the browser tests: its default rules,
// every impact, on every page and state the tests reach (issue 23).
//
// `watchBrowser` wraps the suite's browser: every context made through it, and every page of
// those contexts (second players, tabs opened later, popups), is watched. axe runs at each
// checkpoint of a test: after a navigation (`goto`, `reload`, `goBack`, `goForward`,
// `waitForURL`), whenever a `locator.waitFor()` is met, before each screenshot (`shot`), and on
// every page still open when the test ends. A state is a hash of what axe's rules read in the
// DOM (tags, roles, classes, the attributes that matter, text or no text, the viewport and the
// colour scheme), not of positions, names, decorative shapes or what is hidden from assistive
// technologies: a state already checked, in this test or an
// earlier one, is not checked again, which keeps the suite's time reasonable. What axe finds is
// collected and fails the test when it ends (`takeFindings`), so that the hook never changes
// what a test's own code sees.
import { appendFileSync, readFileSync } from 'node:fs';
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

// ---- The hook: every page and state the tests reach ----

/** What the hook did over the whole suite (printed by run.mjs). */
export const axeStats = { runs: 0, skipped: 0, ms: 0, gone: 0 };

/** The states already checked (hashes), over the whole suite. */
const seen = new Set();
/** Violations found during the current test, with where they were found. */
let findings = [];
/** The current test's name. */
let testName = '';
/** The contexts made during the current test. */
let contexts = new Set();
/** Per page: the tail of its chain of checks (one axe run at a time in a page). */
const chains = new WeakMap();
/** Off with E2E_AXE=0 (quicker runs while working on something else). */
const enabled = process.env.E2E_AXE !== '0';

/** Starts a test: its findings and contexts are its own. */
export function beginTest(name) {
  testName = name;
  findings = [];
  contexts = new Set();
}

/**
 * Checks every page still open in the test's contexts (unless `endChecks` is false: a test that
 * failed), then returns what axe found during the test.
 */
export async function takeFindings({ endChecks = true } = {}) {
  for (const ctx of endChecks ? contexts : []) {
    for (const page of ctx.pages()) await checkpoint(page, 'end of the test');
  }
  const out = findings;
  findings = [];
  contexts = new Set();
  return out;
}

/**
 * A signature of the page's state as axe's rules see it, hashed in the page: elements with their
 * tags and the attributes that change what a rule decides; text as present or not; children as
 * the set of their signatures (twelve pieces or eleven, a move list of 3 or 30 lines, are the
 * same state); SVG drawings without their geometry.
 */
function stateHash(dump) {
  const KEEP = new Set(['class', 'role', 'type', 'id', 'for', 'name', 'tabindex', 'hidden', 'open', 'disabled', 'inert',
    'lang', 'dir', 'style', 'scope', 'colspan', 'rowspan', 'headers', 'autocomplete', 'inputmode', 'multiple', 'readonly',
    'required', 'checked', 'selected', 'contenteditable', 'accesskey', 'srcdoc']);
  const PRESENCE_ONLY_SVG = /^(?:transform|style|cx|cy|x|y|x1|x2|y1|y2|dx|dy|points|d|r|rx|ry|width|height|viewBox|fill|stroke|stroke-width|font-size|opacity|fill-opacity|stroke-dasharray|data-.*)$/;
  const norm = (v) => v.replace(/\d+(?:\.\d+)?/g, '#');
  const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex], [contenteditable]';
  const SPEAKS = '[role], [aria-label], [aria-labelledby], [tabindex], title, text';
  /** @param {Element} el @returns {string} */
  const sig = (el) => {
    const svg = el.namespaceURI === 'http://www.w3.org/2000/svg';
    // Hidden from assistive technologies: only whether something in it takes the focus matters.
    if (el.getAttribute('aria-hidden') === 'true') return `<${el.localName} aria-hidden ${el.querySelector(FOCUSABLE) ? 'F' : ''}/>`;
    // A drawing's shapes that neither speak nor take the focus: nothing a rule reads.
    if (svg && el.localName !== 'svg' && !el.matches(SPEAKS) && !el.querySelector(SPEAKS)) return '';
    const attrs = [];
    for (const a of el.attributes) {
      const n = a.name;
      let v;
      if (svg && PRESENCE_ONLY_SVG.test(n)) continue;
      if (KEEP.has(n) || n.startsWith('aria-') && !/^aria-(?:label|description|valuetext|valuenow|placeholder|roledescription)$/.test(n)) v = norm(a.value);
      else if (n.startsWith('data-')) v = svg ? '' : norm(a.value);
      else v = a.value.trim() ? '+' : '';
      attrs.push(`${n}=${v}`);
    }
    attrs.sort();
    const kids = [];
    const set = new Set();
    for (const c of el.childNodes) {
      let k = '';
      if (c.nodeType === 1) {
        const tag = /** @type {Element} */ (c).localName;
        if (tag === 'script' || tag === 'style' || tag === 'template') continue;
        k = sig(/** @type {Element} */ (c));
      } else if (c.nodeType === 3 && c.textContent.trim()) {
        k = 'T';
      }
      if (k && !set.has(k)) { set.add(k); kids.push(k); }
    }
    return `<${el.localName} ${attrs.join(' ')}>${kids.join('')}</>`;
  };
  const text = `${innerWidth}x${innerHeight}|${matchMedia('(prefers-color-scheme: dark)').matches}|${sig(document.documentElement)}`;
  if (dump) return text;
  // cyrb53: a 53-bit hash of the signature.
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** Lets the page's finite animations and transitions end (at most 1 s): a fading text is not a contrast failure. */
function animationsDone() {
  const running = document.getAnimations().filter((a) => {
    const end = a.effect && a.effect.getComputedTiming().endTime;
    return a.playState === 'running' && typeof end === 'number' && Number.isFinite(end);
  });
  return Promise.race([Promise.all(running.map((a) => a.finished.catch(() => {}))), new Promise((r) => setTimeout(r, 1000))]).then(() => true);
}

/** An error that only means the state went away under the check (a navigation, a closed page). */
const gone = (e) => /Execution context was destroyed|Target page, context or browser has been closed|Target closed|navigation|Frame was detached|has been closed/i.test(String(e && e.message || e));

/**
 * Runs axe on `page` at a checkpoint if its state is new; what it finds is kept for the test.
 * Never throws: a page that navigates or closes under the check is simply checked later.
 * @param {import('playwright-core').Page} page
 */
export function checkpoint(page, where) {
  if (!enabled || page.isClosed()) return Promise.resolve();
  const test = testName;
  const prev = chains.get(page) || Promise.resolve();
  const next = prev.then(async () => {
    if (page.isClosed()) return;
    try {
      await page.evaluate(animationsDone);
      const hash = await page.evaluate(stateHash, false);
      if (seen.has(hash)) { axeStats.skipped++; return; }
      if (process.env.E2E_AXE_DUMP) appendFileSync(process.env.E2E_AXE_DUMP, `${JSON.stringify({ test, where, hash, sig: await page.evaluate(stateHash, true) })}\n`);
      const t0 = Date.now();
      const found = await axeViolations(page, { all: true });
      axeStats.ms += Date.now() - t0;
      axeStats.runs++;
      seen.add(hash);
      if (found.length && test === testName) findings.push({ where, url: page.url(), viewport: page.viewportSize(), violations: found });
    } catch (e) {
      if (!gone(e)) findings.push({ where, url: page.url(), error: String(e && e.message || e).split('\n')[0] });
      else axeStats.gone++;
    }
  });
  chains.set(page, next);
  return next;
}

/** Wraps `page`'s navigation methods: each is followed by a check of the page it led to. */
function watchPage(page) {
  if (page.__axeWatched) return;
  page.__axeWatched = true;
  for (const m of ['goto', 'reload', 'goBack', 'goForward', 'waitForURL']) {
    const orig = page[m].bind(page);
    page[m] = async (...args) => {
      const r = await orig(...args);
      await checkpoint(page, `after ${m}${m === 'goto' ? ` ${args[0]}` : ''}`);
      return r;
    };
  }
  patchLocator(page);
}

let locatorPatched = false;
/** `locator.waitFor()` everywhere: once it is met, the locator's page is checked. */
function patchLocator(page) {
  if (locatorPatched) return;
  locatorPatched = true;
  const proto = Object.getPrototypeOf(page.locator('html'));
  const orig = proto.waitFor;
  proto.waitFor = async function waitFor(...args) {
    const r = await orig.apply(this, args);
    const p = this.page();
    if (p.__axeWatched) await checkpoint(p, `after waitFor ${this.toString()}`);
    return r;
  };
}

/**
 * The suite's browser, watched: its `newContext` gives contexts whose every page is checked.
 * @param {import('playwright-core').Browser} browser
 * @returns {import('playwright-core').Browser}
 */
export function watchBrowser(browser) {
  return new Proxy(browser, {
    get(target, prop) {
      if (prop === 'newContext') {
        return async (...args) => {
          const ctx = await target.newContext(...args);
          contexts.add(ctx);
          ctx.on('page', watchPage);
          return ctx;
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}
