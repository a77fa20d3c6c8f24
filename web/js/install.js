// @ts-check
/**
 * Installing the site as an app: the browser's install prompt behind an « Installer
 * l'application » button where the browser offers one, and, on iPhone and iPad, the explanation
 * that Web Push only reaches sites added to the Home Screen (Safari has no install prompt).
 */
import { h, toast } from './dom.js';
import { t } from './i18n.js';

/** @type {any} the `beforeinstallprompt` event, kept until the player asks */
let deferred = null;
/** @type {Set<() => void>} */
const listeners = new Set();

window.addEventListener('beforeinstallprompt', (e) => {
  e.preventDefault();
  deferred = e;
  for (const f of listeners) f();
});
window.addEventListener('appinstalled', () => {
  deferred = null;
  for (const f of listeners) f();
});

/** iPhone, iPod or iPad (iPadOS says it is a Mac, with a touch screen). */
export function isIos() {
  const ua = navigator.userAgent;
  return /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
}

/** Opened from the home screen (or as an installed app). */
export function isStandalone() {
  return window.matchMedia('(display-mode: standalone)').matches || /** @type {any} */ (navigator).standalone === true;
}

/** Whether notifications need the site on the Home Screen first (iOS Safari in a tab). */
export function iosNeedsInstall() {
  return isIos() && !isStandalone();
}

/** The iPhone explanation of the notification settings. */
export function iosPushNote() {
  return h('details', { class: 'ios-note', 'data-testid': 'ios-push-note' },
    h('summary', null, t('ios_push_title')),
    h('p', { class: 'small' }, t('ios_push')));
}

/**
 * An « Installer l'application » button, shown only while the browser offers to install.
 * @returns {HTMLButtonElement}
 */
export function installButton() {
  const button = h('button', {
    class: 'btn ghost small', type: 'button', 'data-action': 'install', hidden: !deferred,
    onclick: async () => {
      const prompt = deferred;
      if (!prompt) return;
      deferred = null;
      prompt.prompt();
      const choice = await prompt.userChoice.catch(() => null);
      if (choice && choice.outcome === 'accepted') toast(t('install_done'), 'good');
      update();
    },
  }, t('install_app'));
  const update = () => {
    if (!button.isConnected) return listeners.delete(update);
    button.hidden = !deferred;
  };
  listeners.add(update);
  return button;
}
