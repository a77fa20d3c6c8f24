// @ts-nocheck
/**
 * Service worker of Dames: shows the Web Push notifications of turn-by-turn games
 * (docs/protocol.md "Notifications") and opens or focuses the game when one is tapped.
 * No caching: the pages always come from the server.
 */
const TEXT = {
  fr: { turn: 'À vous de jouer (partie {code}).', finished: 'La partie {code} est terminée.', title: 'Dames' },
  en: { turn: 'Your move (game {code}).', finished: 'Game {code} is over.', title: 'Dames' },
};

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

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
      icon: '/img/favicon.svg',
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
