// @ts-check
/**
 * Notifications of turn-by-turn games (docs/protocol.md "Notifications"): the service worker
 * `/sw.js`, the Web Push subscription of a seat (behind an explicit button), the header badge
 * of games where it is your turn, and the in-page signals (title ●, an optional beep).
 */
import { request } from './api.js';
import { load, save } from './storage.js';

/** Whether this browser can do Web Push at all. */
export function pushSupported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window && window.isSecureContext;
}

/** @type {Promise<ServiceWorkerRegistration>|null} */
let registering = null;

/** Registers `/sw.js` (once per page). */
export function registration() {
  if (!registering) registering = navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(() => navigator.serviceWorker.ready);
  return registering;
}

/** @param {string} b64 base64url @returns {ArrayBuffer} */
function bytes(b64) {
  const s = atob(b64.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(s.length));
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out.buffer;
}

/** Rooms whose seat this browser subscribed (to show the button's state). */
function subscribedRooms() {
  try {
    return /** @type {string[]} */ (JSON.parse(load('push_rooms') || '[]'));
  } catch {
    return [];
  }
}

/** @param {string} code */
export function isSubscribed(code) {
  return Notification.permission === 'granted' && subscribedRooms().includes(code);
}

/**
 * Asks the permission (the caller is a click), subscribes this browser and gives the
 * subscription to the server for the caller's seat of `code`.
 * @param {string} code @returns {Promise<'ok'|'denied'|'failed'>}
 */
export async function enablePush(code) {
  if (!pushSupported()) return 'failed';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  try {
    const reg = await registration();
    let sub = await reg.pushManager.getSubscription();
    if (!sub) {
      const { key } = await request('GET', '/api/push/key');
      sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key) });
    }
    await request('POST', `/api/rooms/${code}/push`, sub.toJSON());
    save('push_rooms', JSON.stringify([code, ...subscribedRooms().filter((c) => c !== code)].slice(0, 50)));
    return 'ok';
  } catch {
    return 'failed';
  }
}

/** Forgets the subscription of the caller's seat of `code`. @param {string} code */
export async function disablePush(code) {
  save('push_rooms', JSON.stringify(subscribedRooms().filter((c) => c !== code)));
  await request('DELETE', `/api/rooms/${code}/push`).catch(() => {});
}

/** A short two-tone beep (WebAudio, no file), if the player turned the sound on. */
export function beep() {
  if (load('sound') !== '1') return;
  try {
    const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    const ctx = new Ctx();
    const gain = ctx.createGain();
    gain.gain.value = 0.08;
    gain.connect(ctx.destination);
    [660, 880].forEach((f, i) => {
      const o = ctx.createOscillator();
      o.frequency.value = f;
      o.connect(gain);
      o.start(ctx.currentTime + i * 0.15);
      o.stop(ctx.currentTime + i * 0.15 + 0.12);
    });
    setTimeout(() => ctx.close(), 600);
  } catch {
    /* no audio: the title still says ● */
  }
}

export function soundOn() {
  return load('sound') === '1';
}

/** @param {boolean} on */
export function setSound(on) {
  save('sound', on ? '1' : null);
}

/** @type {(n: number) => void} */
let badgeListener = () => {};
let badgeCount = 0;

/** The header's badge (one at a time: the header is redrawn on every route). @param {(n: number) => void} f */
export function onBadge(f) {
  badgeListener = f;
  f(badgeCount);
}

/** Asks the server how many games wait for this browser's move; updates the header badge. */
export async function refreshBadge() {
  try {
    const { your_turn: n } = await request('GET', '/api/me/games');
    if (n !== badgeCount) {
      badgeCount = n;
      badgeListener(n);
    }
  } catch {
    /* offline: keep the last count */
  }
}

let polling = 0;
/** Keeps the badge fresh: every 30 s, and when the tab comes back. */
export function startBadge() {
  if (polling) return;
  refreshBadge();
  polling = window.setInterval(() => { if (!document.hidden) refreshBadge(); }, 30000);
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refreshBadge(); });
  if ('serviceWorker' in navigator) {
    // A push shown by the service worker while a page is open refreshes the badge at once.
    navigator.serviceWorker.addEventListener('message', (e) => { if (e.data && e.data.type === 'push') refreshBadge(); });
  }
}
