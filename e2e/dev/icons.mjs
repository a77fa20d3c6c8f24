// Development helper: draws the app's PNG icons (web/img/icon-*.png…) from the favicon's design
// with Chromium. Run after changing the design, then commit the PNGs: node dev/icons.mjs
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { E2E_DIR, launchBrowser } from '../lib.mjs';

const NAVY = '#1d3557';
const GOLD = '#f1c453';
const STAR = '32,6 39,20 55,20 46,32 55,44 39,44 32,58 25,44 9,44 18,32 9,20 25,20';

/** The star on the navy tile; `scale` < 1 leaves a margin (the safe zone of maskable icons). */
const tile = ({ rounded, scale = 1 }) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <rect width="64" height="64" rx="${rounded ? 14 : 0}" fill="${NAVY}"/>
  <g transform="translate(32 32) scale(${scale}) translate(-32 -32)">
    <polygon points="${STAR}" fill="${GOLD}"/><circle cx="32" cy="32" r="8" fill="${NAVY}"/>
  </g></svg>`;
/** Android's status-bar badge: a white silhouette on transparent. */
const badge = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <path fill-rule="evenodd" fill="#fff" d="M${STAR.split(' ').join(' L')} Z M32 24 a8 8 0 1 0 0.01 0 Z"/></svg>`;

const ICONS = [
  ['icon-192.png', 192, tile({ rounded: true })],
  ['icon-512.png', 512, tile({ rounded: true })],
  ['icon-maskable-512.png', 512, tile({ rounded: false, scale: 0.72 })],
  ['apple-touch-icon.png', 180, tile({ rounded: false, scale: 0.86 })],
  ['badge-96.png', 96, badge],
];

const browser = await launchBrowser();
const page = await browser.newPage();
for (const [name, size, svg] of ICONS) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
  const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  writeFileSync(resolve(E2E_DIR, '../web/img', name), png);
  console.log(name, png.length, 'bytes');
}
await browser.close();
