// @ts-check
/**
 * « Avis et demandes » (/avis): reviews (after a finished game of that kind on this browser),
 * requests, problems and rule proposals, all public with their status. Everything typed by
 * people is shown with textContent (dom.js `h` never parses HTML).
 */
import { ApiError, request } from './api.js';
import { fill, h, toast } from './dom.js';
import { errorText, lang, t } from './i18n.js';
import { getName } from './storage.js';

/**
 * @typedef {{id: number, kind: 'review'|'request'|'problem'|'rule', game: 'cc'|'draughts'|null, stars: number|null,
 *   text: string, name: string|null, status: 'new'|'planned'|'done'|'declined', created_at: number, mine: boolean}} Entry
 */

/** @param {HTMLElement} root */
export function showReviews(root) {
  document.title = `${t('reviews_title')} · Dames`;
  const list = h('ul', { class: 'feedback-list', 'data-testid': 'feedback-list' });
  const reviewBox = h('div', { class: 'review-box' });
  const requestBox = h('div', { class: 'request-box' });
  fill(root, h('section', { class: 'card page-reviews' },
    h('h1', null, t('reviews_title')),
    h('p', { class: 'muted' }, t('reviews_intro')),
    h('h2', null, t('review_write')), reviewBox,
    h('h2', null, t('request_write')), requestBox,
    h('h2', null, t('reviews_published')), list));
  const reload = async () => {
    /** @type {{entries: Entry[], can_review: {cc: boolean, draughts: boolean}}} */
    const data = await request('GET', '/api/feedback');
    const games = /** @type {('cc'|'draughts')[]} */ (['cc', 'draughts']).filter((g) => data.can_review[g]);
    const locked = /** @type {('cc'|'draughts')[]} */ (['cc', 'draughts']).filter((g) => !data.can_review[g]);
    fill(reviewBox,
      games.length ? form('review', games, reload) : null,
      locked.length ? h('ul', { class: 'muted', 'data-testid': 'review-locked' },
        locked.map((g) => h('li', null, t(g === 'cc' ? 'cc_name' : 'dr_name'), lang() === 'fr' ? '\u00a0: ' : ': ', t('review_locked')))) : null);
    fill(list, data.entries.length ? data.entries.map((e) => entry(e, reload)) : h('li', { class: 'muted' }, t('reviews_none')));
  };
  fill(requestBox, form('request', [], reload));
  reload().catch(() => fill(list, h('li', { class: 'muted' }, t('err_network'))));
}

/**
 * @param {'review'|'request'} which @param {('cc'|'draughts')[]} games @param {() => Promise<void>} reload
 */
function form(which, games, reload) {
  const review = which === 'review';
  const kind = h('select', { name: 'kind' }, ['request', 'problem', 'rule'].map((k) => h('option', { value: k }, t(/** @type {any} */ ('kind_' + k)))));
  const choices = review ? games : /** @type {('cc'|'draughts'|'')[]} */ (['', 'cc', 'draughts']);
  const game = h('select', { name: 'game' }, choices.map((g) => h('option', { value: g }, t(g === 'cc' ? 'cc_name' : g === 'draughts' ? 'dr_name' : 'request_game_any'))));
  const stars = h('select', { name: 'stars' }, [5, 4, 3, 2, 1].map((n) => h('option', { value: String(n) }, '★'.repeat(n))));
  const text = h('textarea', { name: 'text', maxlength: 2000, rows: 4, required: true });
  const name = h('input', { name: 'name', type: 'text', maxlength: 24, value: getName() });
  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    const body = {
      kind: review ? 'review' : /** @type {HTMLSelectElement} */ (kind).value,
      text: /** @type {HTMLTextAreaElement} */ (text).value,
      name: /** @type {HTMLInputElement} */ (name).value.trim() || undefined,
      game: /** @type {HTMLSelectElement} */ (game).value || undefined,
      ...(review ? { stars: Number(/** @type {HTMLSelectElement} */ (stars).value) } : {}),
    };
    try {
      await request('POST', '/api/feedback', body);
      toast(t('review_sent'), 'good');
      /** @type {HTMLTextAreaElement} */ (text).value = '';
      await reload();
    } catch (err) {
      toast(err instanceof ApiError ? errorText(err) : String(err), 'error');
    }
  };
  const field = (/** @type {string} */ label, /** @type {HTMLElement} */ control) => h('label', { class: 'field' }, h('span', null, label), control);
  return h('form', { class: `feedback-form form-${which}`, 'data-testid': `form-${which}`, onsubmit: submit },
    review ? null : field(t('request_kind'), kind),
    field(t('review_game'), game),
    review ? field(t('review_stars'), stars) : null,
    field(t('review_text'), text),
    field(t('review_name'), name),
    h('button', { class: 'btn primary', type: 'submit' }, t('review_send')));
}

/** @param {Entry} e @param {() => Promise<void>} reload */
function entry(e, reload) {
  const date = new Date(e.created_at).toLocaleDateString(lang());
  return h('li', { class: `feedback feedback-${e.kind}`, 'data-kind': e.kind },
    h('div', { class: 'feedback-head' },
      h('span', { class: 'tag' }, t(/** @type {any} */ ('kind_' + e.kind))),
      e.game ? h('span', null, t(e.game === 'cc' ? 'cc_name' : 'dr_name')) : null,
      e.stars ? h('span', { class: 'stars', 'aria-label': `${e.stars}/5` }, '★'.repeat(e.stars) + '☆'.repeat(5 - e.stars)) : null,
      h('span', { class: `tag status-${e.status}` }, t(/** @type {any} */ ('status_' + e.status))),
      h('span', { class: 'muted small' }, (e.name ? e.name + ' · ' : '') + date)),
    h('p', { class: 'feedback-text' }, e.text),
    e.mine ? h('button', { class: 'btn ghost small', type: 'button', onclick: async () => {
      await request('DELETE', `/api/feedback/${e.id}`).catch(() => {});
      await reload();
    } }, t('review_delete')) : null);
}
