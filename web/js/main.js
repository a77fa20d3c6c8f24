// @ts-check
/** Entry point: header (navigation, name, language), router, page dispatch. */
import { prefetchGame, prefetchRoom } from './api.js';
import { fill, h, nextTask, whenIdle } from './dom.js';
import { showGames } from './games.js';
import { showHome } from './home.js';
import { lang, onLangChange, setLang, t, tn } from './i18n.js';
import { askName } from './name.js';
import { startOffline } from './offline.js';
import { showPage } from './pages.js';
import { onBadge, startBadge } from './push.js';
import { startLive } from './live.js';
import { loadRoom, start } from './router.js';
import { getName } from './storage.js';

const app = /** @type {HTMLElement} */ (document.getElementById('app'));
const nav = /** @type {HTMLElement} */ (document.getElementById('nav'));
const footer = /** @type {HTMLElement} */ (document.getElementById('footer'));

/** @type {import('./router.js').Route} */
let route = { name: 'home' };
/** The room screen once loaded (router.js `loadRoom`). @type {typeof import('./room.js')|null} */
let rooms = null;

function renderChrome() {
  const name = getName();
  const badge = h('span', { class: 'badge', 'data-testid': 'turn-badge', hidden: true });
  fill(nav,
    h('a', { href: '/games', 'data-nav': 'games' }, t('nav_games'), badge),
    h('a', { href: '/rules', 'data-nav': 'rules' }, t('nav_rules')),
    h('a', { href: '/faq', 'data-nav': 'faq' }, t('nav_faq')),
    h('a', { href: '/data', 'data-nav': 'data', class: 'hide-narrow' }, t('nav_data')),
    name ? h('button', { class: 'chip', type: 'button', title: t('name_change'), 'data-action': 'name', onclick: () => askName(true) }, '✎ ', name) : null,
    h('button', { class: 'chip lang', type: 'button', 'data-action': 'lang', lang: lang() === 'fr' ? 'en' : 'fr', title: t('lang_switch_title'),
      onclick: () => setLang(lang() === 'fr' ? 'en' : 'fr') },
    h('span', { class: 'hide-narrow' }, t('lang_switch')), h('span', { class: 'only-narrow' }, lang() === 'fr' ? 'EN' : 'FR')));
  for (const a of nav.querySelectorAll('a')) a.classList.toggle('active', a.dataset.nav === route.name);
  fill(footer,
    h('span', null, t('footer')),
    h('a', { href: '/rules' }, t('nav_rules')),
    h('a', { href: '/faq' }, t('nav_faq')),
    h('a', { href: '/avis' }, t('nav_reviews')),
    h('a', { href: '/data' }, t('nav_data')));
  onBadge((n) => {
    badge.textContent = String(n);
    badge.hidden = n === 0;
    badge.title = tn('badge_title', n);
  });
}

/** @param {import('./router.js').Route} r */
function show(r) {
  const sameRoom = r.name === 'room' && route.name === 'room' && r.code === route.code && app.querySelector('.room');
  route = r;
  renderChrome();
  document.body.dataset.route = r.name;
  if (r.name === 'room') {
    if (sameRoom) return;
    if (!rooms) {
      fill(app, h('h1', { class: 'sr-only' }, t('room_title', { code: r.code })), h('p', { class: 'muted center', 'aria-busy': 'true' }, t('loading')));
      // Not when the link moves a seat here: the room is read after that claim (away.js).
      if (!location.hash.startsWith('#transfer=')) prefetchRoom(r.code);
    }
    // The modules' evaluation and the room's first drawing in two tasks, not one long one.
    loadRoom().then(async (m) => {
      rooms = m;
      await nextTask();
      if (route === r) m.showRoom(app, r.code);
    }).catch(() => unavailable(r));
    return;
  }
  rooms?.leaveRoom();
  if (r.name === 'game') {
    // Its heading from the first frame, while its modules load (one h1 on every page and state).
    fill(app, h('h1', { class: 'sr-only' }, t('room_title', { code: r.code })), h('p', { class: 'muted center', 'aria-busy': 'true' }, t('loading')));
    prefetchGame(r.code, r.n);
    // A game of a room to look at again (online only): loaded when first asked for, not precached.
    // Every module it imports asked for at once (the board, the kinds, the game screen it takes the
    // seats' names from), not one import level at a time; not the lobby, the room screen or the
    // settings it never runs, whose compiling and evaluating cost the replay page's main thread.
    // The page preloads the same list (server build.rs ROUTES reads it here).
    Promise.all([import('./archive.js'), import('./replay.js'), import('./texts-later.js'),
      import('./game.js'), import('./board.js'), import('./kinds.js'), import('./kind-cc.js'),
      import('./kind-draughts.js'), import('./board-cc.js'), import('./board-draughts.js'),
      import('./a11y.js'), import('./away.js'), import('./clock.js')])
      .then(async ([m]) => {
        await nextTask();
        if (route === r) m.showArchive(app, r.code, r.n);
      }).catch(() => unavailable(r));
    return;
  }
  if (r.name === 'home') showHome(app);
  else if (r.name === 'games') showGames(app);
  else if (r.name === 'reviews') {
    // Online only (it lists what people wrote): loaded when first asked for, not precached.
    import('./reviews.js')
      .then((m) => { if (route === r) m.showReviews(app); })
      .catch(() => unavailable(r));
  }
  else if (r.name === 'rules' || r.name === 'faq' || r.name === 'data') showPage(app, r.name);
  else notFound();
}

/** A page that needs the network could not load. @param {import('./router.js').Route} r */
function offline(r) {
  if (route === r) fill(app, h('section', { class: 'card center' }, h('h1', null, t('offline_title')), h('p', null, t('offline_text'))));
}

/**
 * A lazily loaded screen failed to load. Online, the site most likely changed since this page was
 * loaded (its files have new names): load the page again, once a minute at most. Offline, say so.
 * @param {import('./router.js').Route} r
 */
function unavailable(r) {
  try {
    const last = Number(sessionStorage.getItem('dames.reloaded') || 0);
    if (navigator.onLine && route === r && Date.now() - last > 60000) {
      sessionStorage.setItem('dames.reloaded', String(Date.now()));
      location.reload();
      return;
    }
  } catch {
    /* no session storage: say it as offline */
  }
  offline(r);
}

/** « Page introuvable » (the server answers such addresses with this page and status 404). */
function notFound() {
  document.title = `${t('nf_title')} · Dames`;
  fill(app, h('section', { class: 'card center not-found', 'data-testid': 'not-found' },
    h('h1', null, t('nf_title')),
    h('p', null, t('nf_text', { path: location.pathname })),
    h('p', { class: 'muted small' }, t('nf_code')),
    h('p', { class: 'not-found-actions' },
      h('a', { class: 'btn primary', href: '/', 'data-action': 'home' }, t('nf_home')),
      ' ',
      h('a', { class: 'btn ghost', href: '/rules' }, t('nf_rules')))));
}

onLangChange(() => {
  renderChrome();
  if (route.name === 'room') rooms?.rerenderRoom();
  else show(route);
});
document.addEventListener('dames:name', renderChrome);

start(show);
startOffline();
// The header's badge and the live list of my games: once the page has loaded and is idle, not
// while the first screen is on its way (their requests, their work).
whenIdle(() => {
  startBadge();
  startLive();
});
