// @ts-check
/**
 * The installed, offline-capable site: registers the service worker (`/sw.js`, which precaches
 * the app shell), shows a « Hors ligne » bar while the network or the server is out of reach, and
 * offers to reload when a new version of the site has taken over.
 */
import { h, whenIdle } from './dom.js';
import { onLangChange, t } from './i18n.js';

/** @type {HTMLElement|null} */
let bar = null;
let down = false;
/** @type {ReturnType<typeof setTimeout>|undefined} */
let probing;

/** Starts it all, once, from main.js. */
export function startOffline() {
  window.addEventListener('offline', () => setDown(true));
  window.addEventListener('online', () => probe());
  if (!navigator.onLine) setDown(true);
  onLangChange(() => {
    bar?.remove();
    bar = null;
    if (down) showBar();
  });
  if ('serviceWorker' in navigator && window.isSecureContext) {
    const hadWorker = !!navigator.serviceWorker.controller;
    // A worker replacing another one is a new version of the site (the first install is not).
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      if (hadWorker) showUpdate();
    });
    // Once the page has loaded and the main thread is idle: installing the worker (and its
    // precache's requests) must not slow the first visit down.
    whenIdle(() => { navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {}); });
  }
}

/** Whether the site is known to be offline right now. */
export function isOffline() {
  return down;
}

/**
 * A request could not reach the server (api.js calls this): say so until it answers again.
 * Cheap to call often.
 */
export function networkFailed() {
  setDown(true);
}

/** @param {boolean} value */
function setDown(value) {
  down = value;
  if (value) {
    showBar();
    clearTimeout(probing);
    probing = setTimeout(probe, 5000);
  } else if (bar) {
    bar.remove();
    bar = null;
  }
  document.documentElement.classList.toggle('offline', value);
}

/** Asks the server for a tiny file, bypassing every cache; back online when it answers. */
async function probe() {
  clearTimeout(probing);
  try {
    const res = await fetch('/manifest.webmanifest', { method: 'HEAD', cache: 'no-store' });
    if (res.ok) return setDown(false);
  } catch {
    /* still offline */
  }
  setDown(true);
}

function showBar() {
  if (bar) return;
  bar = h('div', { class: 'net-bar', role: 'status', 'data-testid': 'offline' },
    h('strong', null, t('offline_title')), ' ', h('span', null, t('offline_text')));
  document.querySelector('.topbar')?.after(bar);
}

function showUpdate() {
  if (document.querySelector('[data-testid=update]')) return;
  const box = h('div', { class: 'net-bar update', role: 'status', 'data-testid': 'update' },
    h('span', null, t('update_ready')),
    h('button', { class: 'btn small primary', type: 'button', onclick: () => location.reload() }, t('update_reload')));
  document.querySelector('.topbar')?.after(box);
}
