// @ts-nocheck
/**
 * Service worker of Dames.
 *
 * - The app shell (the page and every module, with content-hashed names) is precached when the
 *   worker installs: pages open at once, and offline, from this cache. A new version of the site
 *   is a new worker (its SHELL and VERSION change): it installs its own cache, takes over, and the
 *   page offers to reload (js/offline.js). `/api/` and the WebSocket always go to the network.
 * - Web Push notifications of turn-by-turn games (docs/protocol.md "Notifications"): shown, and
 *   tapping one opens or focuses the game.
 */

/** The app shell's URLs and a version, both filled in by the server's build (crates/server/build.rs). */
const SHELL = [];
const VERSION = 'dev';
const CACHE = 'dames-' + VERSION;

const TEXT = {
  fr: { turn: 'À vous de jouer (partie {code}).', finished: 'La partie {code} est terminée.', title: 'Dames' },
  en: { turn: 'Your move (game {code}).', finished: 'Game {code} is over.', title: 'Dames' },
};

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    if (SHELL.length) {
      const cache = await caches.open(CACHE);
      // The page itself is fetched fresh; the hashed files may come from the HTTP cache.
      await cache.add(new Request('/', { cache: 'no-cache' }));
      await cache.addAll(SHELL.filter((u) => u !== '/'));
    }
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => event.waitUntil((async () => {
  for (const key of await caches.keys()) {
    if (key.startsWith('dames-') && key !== CACHE) await caches.delete(key);
  }
  await self.clients.claim();
})()));

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || !SHELL.length) return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname === '/ws') return;
  if (req.mode === 'navigate' && !/\.[a-z0-9]+$/i.test(url.pathname)) {
    // Every page of the site is the same shell: the client routes itself. (A file opened in a
    // tab, `/img/icon-512.png`, is not a page.) An address that is no page goes to the network,
    // which answers the shell with its 404 status; offline, the shell says « Page introuvable ».
    event.respondWith(isPage(url.pathname) ? fromCache('/', req) : fetch(req).catch(() => fromCache('/', req)));
  } else if (SHELL.includes(url.pathname)) {
    event.respondWith(fromCache(url.pathname, req));
  }
});

/** The client's pages (router.js; docs/protocol.md "Pages"). @param {string} path */
function isPage(path) {
  const p = path.replace(/\/+$/, '') || '/';
  return ['/', '/index.html', '/cpu', '/games', '/avis', '/reviews', '/rules', '/faq', '/data'].includes(p) || /^\/r\/[A-Za-z0-9]{6}(\/[1-9][0-9]{0,8})?$/.test(p);
}

/** The cached copy of `key`, else the network (and a copy kept for next time). */
async function fromCache(key, req) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key);
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok && res.type === 'basic' && key !== '/') cache.put(key, res.clone());
  return res;
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const lang = (self.navigator.language || 'fr').toLowerCase().startsWith('fr') ? 'fr' : 'en';
  const text = TEXT[lang];
  const code = typeof data.code === 'string' ? data.code : '';
  const url = typeof data.url === 'string' && data.url.startsWith('/') ? data.url : '/games';
  const body = (data.kind === 'finished' ? text.finished : text.turn).replace('{code}', code);
  event.waitUntil((async () => {
    await self.registration.showNotification(text.title, {
      body,
      tag: 'dames-' + code,
      renotify: true,
      icon: '/img/icon-192.png',
      badge: '/img/badge-96.png',
      data: { url, code, kind: data.kind || 'turn' },
    });
    const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const page of pages) page.postMessage({ type: 'push', code, kind: data.kind });
  })());
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || '/games', self.location.origin).href;
  event.waitUntil((async () => {
    const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const page of pages) {
      if (page.url === url && 'focus' in page) return page.focus();
    }
    for (const page of pages) {
      if ('navigate' in page && new URL(page.url).origin === self.location.origin) {
        await page.focus();
        return page.navigate(url);
      }
    }
    return self.clients.openWindow(url);
  })());
});
