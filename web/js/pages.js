// @ts-check
/**
 * Static pages: rules (both games), FAQ, data and retention. Their text lives in content/, loaded
 * when a page is first opened (the home page does not need it; the service worker keeps it offline).
 */
import { fill, h } from './dom.js';
import { frTypo, lang, t } from './i18n.js';
import { starDiagram } from './notation.js';

const CONTENT = {
  rules: () => import('./content/rules.js').then((m) => m.RULES),
  faq: () => import('./content/faq.js').then((m) => m.FAQ),
  data: () => import('./content/data.js').then((m) => ({ fr: m.DATA, en: m.DATA })),
};

/** @param {HTMLElement} root @param {'rules'|'faq'|'data'} which */
export async function showPage(root, which) {
  const l = lang();
  const title = t(which === 'rules' ? 'nav_rules' : which === 'faq' ? 'nav_faq' : 'nav_data');
  document.title = `${title} · Dames`;
  const article = h('article', { class: `card prose page-${which}`, lang: which === 'data' ? 'en' : l });
  fill(root, article);
  let html;
  try {
    html = (await CONTENT[which]())[l];
  } catch {
    fill(article, h('p', { class: 'error' }, t('err_network')));
    return;
  }
  if (!article.isConnected || lang() !== l) return; // left the page, or switched language, meanwhile
  article.innerHTML = l === 'fr' && which !== 'data' ? frTypo(html) : html; // our own static text, no user input
  if (which === 'rules') article.querySelector('#notation-star')?.append(starDiagram());
  if (which === 'data' && l === 'fr') article.prepend(h('p', { lang: 'fr', class: 'muted' }, t('data_in_english')));
  // An anchor in the address (/rules#draughts) can only be followed once the text is there.
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}
