// @ts-check
/** History-API router: `/`, `/r/{CODE}`, `/r/{CODE}/{n}`, `/games`, `/avis`, `/rules`, `/faq`, `/data`. */

/** @typedef {{name: 'home'} | {name: 'room', code: string} | {name: 'game', code: string, n: number} | {name: 'rules'} | {name: 'faq'} | {name: 'data'} | {name: 'games'} | {name: 'reviews'} | {name: 'notfound'}} Route */

/** @type {(route: Route) => void} */
let onRoute = () => {};

/** @param {string} path @returns {Route} */
export function parse(path) {
  const p = path.replace(/\/+$/, '') || '/';
  if (p === '/' || p === '/index.html' || p === '/cpu') return { name: 'home' };
  if (p === '/games') return { name: 'games' };
  if (p === '/avis' || p === '/reviews') return { name: 'reviews' };
  const m = /^\/r\/([A-Za-z0-9]{6})$/.exec(p);
  if (m) return { name: 'room', code: m[1].toUpperCase() };
  const g = /^\/r\/([A-Za-z0-9]{6})\/([1-9][0-9]{0,8})$/.exec(p);
  if (g) return { name: 'game', code: g[1].toUpperCase(), n: Number(g[2]) };
  if (p === '/rules') return { name: 'rules' };
  if (p === '/faq') return { name: 'faq' };
  if (p === '/data') return { name: 'data' };
  return { name: 'notfound' };
}

/** @param {string} path @param {boolean} [replace] */
export function navigate(path, replace = false) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.scrollTo(0, 0);
  onRoute(parse(location.pathname));
}

/** @param {(route: Route) => void} handler */
export function start(handler) {
  onRoute = handler;
  window.addEventListener('popstate', () => onRoute(parse(location.pathname)));
  document.addEventListener('click', (e) => {
    const target = /** @type {Element|null} */ (e.target);
    const a = target && target.closest ? target.closest('a') : null;
    if (!a || a.target || a.hasAttribute('download') || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
    if (url.pathname === location.pathname && url.hash) return; // in-page anchor
    e.preventDefault();
    navigate(url.pathname + url.hash);
  });
  onRoute(parse(location.pathname));
}

/** @type {Promise<typeof import('./room.js')>|null} */
let roomModule = null;

/**
 * The room screen (lobby and game), loaded when first needed: a room only works online, and a
 * first visit to the home page does not pay for it (docs/performance.md). Its modules are asked
 * for together, so that a link to a room costs one round trip more, not one per import level.
 * Call it as soon as a room is on its way (a tap on « Jouer ») to overlap the two.
 * @returns {Promise<typeof import('./room.js')>}
 */
export function loadRoom() {
  if (!roomModule) {
    // The room's page preloads the same list (server build.rs ROUTES reads it here).
    roomModule = Promise.all([
      import('./room.js'), import('./game.js'), import('./lobby.js'), import('./share.js'),
      import('./board.js'), import('./board-cc.js'), import('./board-draughts.js'), import('./kinds.js'),
      import('./kind-cc.js'), import('./kind-draughts.js'), import('./a11y.js'),
      import('./delta.js'), import('./away.js'), import('./clock.js'), import('./phrases.js'),
      Promise.all([import('./texts-away.js'), import('./i18n.js')]).then(([m, i18n]) => i18n.addTexts(m.FR, m.EN)),
    ]).then(([room]) => room);
    roomModule.catch(() => { roomModule = null; });
  }
  return roomModule;
}
