// @ts-check
/** Static pages: rules (both games), FAQ, data and retention. Their text lives in content/. */
import { fill, h } from './dom.js';
import { frTypo, lang, t } from './i18n.js';
import { DATA } from './content/data.js';
import { FAQ } from './content/faq.js';
import { RULES } from './content/rules.js';

/** @param {HTMLElement} root @param {'rules'|'faq'|'data'} which */
export function showPage(root, which) {
  const l = lang();
  const html = which === 'rules' ? RULES[l] : which === 'faq' ? FAQ[l] : DATA;
  const title = t(which === 'rules' ? 'nav_rules' : which === 'faq' ? 'nav_faq' : 'nav_data');
  document.title = `${title} · Dames`;
  const article = h('article', { class: `card prose page-${which}`, lang: which === 'data' ? 'en' : l });
  article.innerHTML = l === 'fr' && which !== 'data' ? frTypo(html) : html; // our own static text, no user input
  if (which === 'data' && l === 'fr') article.prepend(h('p', { lang: 'fr', class: 'muted' }, t('data_in_english')));
  fill(root, article);
}
