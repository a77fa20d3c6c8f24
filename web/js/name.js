// @ts-check
/** Asks the player's name once and remembers it on this browser. */
import { dialog, h } from './dom.js';
import { t } from './i18n.js';
import { getName, setName } from './storage.js';

/** @param {boolean} [force] ask even if a name is known @returns {Promise<string|null>} */
export async function askName(force = false) {
  const known = getName();
  if (known && !force) return known;
  const input = h('input', { type: 'text', name: 'name', maxlength: 24, required: true, autocomplete: 'nickname', value: known, placeholder: t('name_placeholder'), 'aria-label': t('your_name') });
  const v = await dialog({
    title: t('name_title'),
    body: h('p', { class: 'muted small' }, t('name_help')),
    form: h('div', { class: 'field' }, input),
    buttons: [{ label: t('cancel'), value: 'cancel' }, { label: t('ok'), value: 'ok', kind: 'primary' }],
  });
  const name = input.value.trim();
  if (v !== 'ok' || !name) return null;
  setName(name);
  document.dispatchEvent(new CustomEvent('dames:name'));
  return getName();
}
