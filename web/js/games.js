// @ts-check
/** « Mes parties » (/games): every game of this browser, those where it is your turn first. */
import { request } from './api.js';
import { fill, h, patch } from './dom.js';
import { lang, t } from './i18n.js';
import { whileShown } from './live.js';
import { refreshBadge } from './push.js';

/**
 * @typedef {{code: string, game: 'cc'|'draughts', status: 'lobby'|'playing'|'finished', rhythm: 'live'|'turn', seat: number,
 *   players: (string|null)[], to_move: number|null, your_turn: boolean, turn_since: number|null,
 *   outcome: import('./api.js').Outcome|null, game_no: number, earlier_games?: number[], active_at: number}} MyGame
 */

/** A date as "il y a 3 h" / "3 hours ago". @param {number} ms */
export function ago(ms) {
  const s = Math.max(0, (Date.now() - ms) / 1000);
  const rtf = new Intl.RelativeTimeFormat(lang(), { numeric: 'auto' });
  if (s < 60) return rtf.format(-Math.round(s), 'second');
  if (s < 3600) return rtf.format(-Math.round(s / 60), 'minute');
  if (s < 86400) return rtf.format(-Math.round(s / 3600), 'hour');
  return rtf.format(-Math.round(s / 86400), 'day');
}

/** A moment as a clock time today, else a date: « en attente depuis 14:03 ». @param {number} ms */
export function at(ms) {
  const d = new Date(ms);
  return d.toDateString() === new Date().toDateString()
    ? d.toLocaleTimeString(lang(), { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString(lang(), { day: 'numeric', month: 'short' });
}

/** @param {HTMLElement} root */
export function showGames(root) {
  document.title = `${t('games_title')} · Dames`;
  const list = h('ul', { class: 'my-games', 'data-testid': 'games-list' });
  fill(root, h('section', { class: 'card page-games' },
    h('h1', null, t('games_title')),
    h('p', { class: 'muted' }, t('games_intro')),
    list));
  const load = async () => {
    /** @type {{games: MyGame[]}} */
    const { games } = await request('GET', '/api/me/games');
    refreshBadge();
    if (!games.length) return patch(list, h('li', { class: 'muted' }, t('games_none')));
    patch(list, games.map(item));
  };
  load().catch(() => fill(list, h('li', { class: 'muted' }, t('err_network'))));
  // A move in another tab or browser shows here within a second (live.js).
  whileShown(list, () => { load().catch(() => {}); });
}

/** @param {MyGame} g */
function item(g) {
  let state;
  if (g.status === 'lobby') state = t('games_lobby');
  else if (g.status === 'finished') state = g.outcome && g.outcome.kind === 'abandoned' ? t('games_abandoned') : t('games_over');
  else if (g.your_turn) state = t('games_your_turn');
  else state = t('games_their_turn', { name: (g.to_move !== null && g.players[g.to_move]) || '?' });
  const others = g.players.filter((p, i) => i !== g.seat && p).join(', ');
  return h('li', { 'data-key': g.code }, h('a', { href: `/r/${g.code}`, class: `my-game${g.your_turn ? ' mine' : ''}`, 'data-code': g.code, 'data-your-turn': String(g.your_turn) },
    h('span', { class: 'my-game-name' }, t(g.game === 'cc' ? 'cc_name' : 'dr_name'), ' · ', t(g.rhythm === 'turn' ? 'rhythm_turn' : 'rhythm_live')),
    h('span', { class: 'my-game-code' }, g.code),
    h('span', { class: 'my-game-state' }, state, g.status === 'playing' && g.turn_since ? ' ' + t('games_since', { when: ago(g.turn_since) }) : ''),
    others ? h('span', { class: 'my-game-who muted small' }, t('games_vs', { names: others })) : null),
  // The room's earlier games (a rematch does not replace them), each on its own page.
  g.earlier_games && g.earlier_games.length ? h('p', { class: 'muted small', 'data-earlier': g.code }, t('games_earlier'),
    ...g.earlier_games.map((n) => [' ', h('a', { href: `/r/${g.code}/${n}`, class: 'btn ghost small' }, t('games_game_n', { n }))]).flat()) : null);
}
