// @ts-check
/** Asks the player's name once and remembers it on this browser. */
import { dialog, h } from './dom.js';
import { errorText, t } from './i18n.js';
import { currentSchema, loadSchema } from './settings.js';
import { getName, setName } from './storage.js';

/**
 * Whether `name` is acceptable, else the message to show: the limits of the server's table
 * (GET /api/settings), counted as the server counts (characters, after trimming).
 * @param {string} name @returns {string|null}
 */
export function nameProblem(name) {
  const limits = currentSchema()?.name ?? { min: 1, max: 24 };
  const n = [...name.trim()].length;
  if (n < limits.min) return errorText({ code: 'invalid_name', detail: { reason: 'empty' } });
  if (n > limits.max) return errorText({ code: 'invalid_name', detail: { reason: 'too_long', max: limits.max } });
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return errorText({ code: 'invalid_name', detail: { reason: 'control_chars' } });
  return null;
}

/** @param {boolean} [force] ask even if a name is known @returns {Promise<string|null>} */
export async function askName(force = false) {
  const known = getName();
  if (known && !force) return known;
  loadSchema();
  // No hard cap on typing: a name too long is told, not silently cut.
  const input = h('input', { type: 'text', name: 'name', required: true, autocomplete: 'nickname', value: known, placeholder: t('name_placeholder'), 'aria-label': t('your_name') });
  const v = await dialog({
    title: t('name_title'),
    body: h('p', { class: 'muted small' }, t('name_help')),
    form: h('div', { class: 'field' }, input),
    buttons: [{ label: t('cancel'), value: 'cancel' }, { label: t('ok'), value: 'ok', kind: 'primary' }],
    validate: () => nameProblem(input.value),
  });
  const name = input.value.trim();
  if (v !== 'ok' || !name) return null;
  setName(name);
  document.dispatchEvent(new CustomEvent('dames:name'));
  return getName();
}
