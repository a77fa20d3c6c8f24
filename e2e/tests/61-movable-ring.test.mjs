// The ring that marks the pieces able to move, and the ring around the piece picked (issue 23), on
// a phone (390×844, 2 device pixels per CSS pixel), on both boards, light and dark: they are seen,
// measured in the pixels Chromium draws. The board is photographed with its rings and again with
// them hidden, everything else unchanged; along each ring's middle line, the ring's pixel is compared with the board's pixel
// under it (WCAG's contrast ratio, as for any graphical object: at least 3:1, WCAG 1.4.11), and
// the ring is at least 2 CSS pixels wide.
import { assert, newPerson } from '../lib.mjs';

/** Points sampled along each ring. */
const SAMPLES = 72;

/**
 * In the page: the contrast, at each sample point of each visible ring (`selector`), between the
 * two screenshots (`withRings`, `without`, PNG bytes of the viewport). Returns per ring its
 * centre, its width in CSS pixels and the sorted contrasts.
 * @param {{ withRings: number[], without: number[], samples: number, selector: string }} arg
 */
async function ringContrasts({ withRings, without, samples, selector }) {
  const pixels = async (/** @type {number[]} */ bytes) => {
    const bmp = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' }));
    const c = new OffscreenCanvas(bmp.width, bmp.height);
    const g = /** @type {OffscreenCanvasRenderingContext2D} */ (c.getContext('2d'));
    g.drawImage(bmp, 0, 0);
    return { w: bmp.width, data: g.getImageData(0, 0, bmp.width, bmp.height).data };
  };
  const a = await pixels(withRings);
  const b = await pixels(without);
  const dpr = a.w / innerWidth;
  const lum = (/** @type {Uint8ClampedArray} */ d, /** @type {number} */ i) => {
    const lin = (/** @type {number} */ v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * lin(d[i]) + 0.7152 * lin(d[i + 1]) + 0.0722 * lin(d[i + 2]);
  };
  const out = [];
  for (const ring of document.querySelectorAll(`svg.board ${selector}`)) {
    const r = ring.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) continue;
    const cx = (r.left + r.width / 2) * dpr;
    const cy = (r.top + r.height / 2) * dpr;
    const rad = (r.width / 2) * dpr;
    const contrasts = [];
    for (let k = 0; k < samples; k++) {
      const t = (2 * Math.PI * k) / samples;
      const i = (Math.round(cy + rad * Math.sin(t)) * a.w + Math.round(cx + rad * Math.cos(t))) * 4;
      const [l1, l2] = [lum(a.data, i), lum(b.data, i)].sort((x, y) => y - x);
      contrasts.push((l1 + 0.05) / (l2 + 0.05));
    }
    contrasts.sort((x, y) => x - y);
    const width = Number(getComputedStyle(ring).strokeWidth.replace('px', '')) * (r.width / (2 * Number(ring.getAttribute('r'))));
    out.push({ cell: `${Math.round(cx)},${Math.round(cy)}`, width, contrasts });
  }
  return out;
}

/**
 * Photographs the viewport with the rings (`selector`) and without them, and measures each ring;
 * at least `least` of them on the first screen.
 */
async function measure(page, where, selector = '.can-move', least = 3) {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {}))));
  const withRings = [...(await page.screenshot())];
  const show = (visibility) => page.evaluate(([sel, v]) => {
    for (const el of document.querySelectorAll(`svg.board ${sel}`)) /** @type {SVGElement} */ (el).style.visibility = v;
  }, [selector, visibility]);
  await show('hidden');
  const without = [...(await page.screenshot())];
  await show('');
  const rings = await page.evaluate(ringContrasts, { withRings, without, samples: SAMPLES, selector });
  assert(rings.length >= least, `${where}: rings on the first screen (${rings.length})`);
  const worst = [];
  for (const ring of rings) {
    // Nine points in ten at least: where the last move's line crosses a ring, the board under it is that line.
    const tenth = ring.contrasts[Math.floor(ring.contrasts.length / 10)];
    worst.push(tenth);
    assert(tenth >= 3, `${where}: the ring at ${ring.cell} stands out from the board under it (contrast ${tenth.toFixed(2)}:1 at 9 points in 10, at least 3:1)`);
    assert(ring.width >= 2, `${where}: the ring at ${ring.cell} is at least 2 CSS pixels wide (${ring.width.toFixed(2)})`);
  }
  console.log(`# ${where}: ${rings.length} rings, contrast at 9 points in 10 ≥ ${Math.min(...worst).toFixed(2)}:1, width ${Math.min(...rings.map((r) => r.width)).toFixed(2)} px`);
}

for (const game of ['draughts', 'cc']) {
  test(`the rings around the pieces able to move and the piece picked stand out from the ${game === 'cc' ? 'star' : 'draughts board'} on a phone, light and dark (3:1)`, async ({ base, browser, track }) => {
    const { ctx, page } = await newPerson(browser, { name: 'Zoé', phone: true });
    track(ctx);
    await page.goto(base + '/');
    await page.click(`[data-action=cpu-${game}]`);
    await page.click('dialog [data-value=play]');
    await page.locator('.status.mine').waitFor();
    await page.locator('svg.board .can-move').first().waitFor();
    await page.locator('svg.board').scrollIntoViewIfNeeded();
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await measure(page, `${game}, ${colorScheme}`);
    }
    // A piece picked: its ring, alone (the movable rings are put away meanwhile).
    await page.locator('svg.board .piece.movable').first().tap();
    await page.locator('svg.board .selected').waitFor();
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await measure(page, `${game}, the piece picked, ${colorScheme}`, '.selected', 1);
    }
  });
}
