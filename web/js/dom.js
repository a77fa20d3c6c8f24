// @ts-check
/** Tiny DOM helpers: element builder, toasts, modal dialogs. */

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {Record<string, any>} Attrs
 */

/**
 * Builds an HTML element. `on*` attributes that are functions become listeners; `class`, `style`
 * (string), `dataset` keys (`data-*`) and booleans behave as expected.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Attrs|null} [attrs] @param {...(Child|Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVGNS = 'http://www.w3.org/2000/svg';

/**
 * Builds an SVG element.
 * @param {string} tag @param {Attrs|null} [attrs] @param {...(Child|Child[])} children
 * @returns {SVGElement}
 */
export function s(tag, attrs, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVGNS, tag));
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** @param {Element} el @param {Attrs|null|undefined} attrs */
function setAttrs(el, attrs) {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2).toLowerCase(), v);
    } else if (k === 'value' && 'value' in el) {
      /** @type {any} */ (el).value = v;
    } else if (k === 'checked' && 'checked' in el) {
      /** @type {any} */ (el).checked = !!v;
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
}

/** @param {Element} el @param {(Child|Child[])[]} children */
function append(el, children) {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'object' ? c : String(c));
  }
}

/** Replaces the content of `el`. @param {Element} el @param {...(Child|Child[])} children */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** Shows a short message at the bottom of the screen. @param {string} text @param {'info'|'error'|'good'} [kind] */
export function toast(text, kind = 'info') {
  let box = document.getElementById('toasts');
  if (!box) {
    box = h('div', { id: 'toasts', 'aria-live': 'polite', role: 'status' });
    document.body.append(box);
  }
  const t = h('div', { class: `toast toast-${kind}` }, text);
  box.append(t);
  setTimeout(() => t.classList.add('toast-out'), 3800);
  setTimeout(() => t.remove(), 4300);
}

/**
 * A modal dialog with buttons; resolves with the value of the button pressed (or null). Enter
 * anywhere in it (a radio button, a select, a text field) presses the primary button.
 * `validate(value)`: for a button other than « cancel », a message keeps the dialog open and is
 * shown in it.
 * @param {{title: string, body?: Child|Child[], buttons: {label: string, value: string, kind?: string}[], form?: HTMLElement,
 *   validate?: (value: string) => string|null}} opts
 * @returns {Promise<string|null>}
 */
export function dialog(opts) {
  return new Promise((resolve) => {
    const dlg = h('dialog', { class: 'dialog' });
    const error = h('p', { class: 'dialog-error', role: 'alert', hidden: true, 'data-testid': 'dialog-error' });
    const close = (/** @type {string|null} */ v) => {
      const problem = v !== null && v !== 'cancel' && opts.validate ? opts.validate(v) : null;
      if (problem) {
        error.textContent = problem;
        error.hidden = false;
        const input = dlg.querySelector('input[type=text]');
        if (input) {
          input.setAttribute('aria-invalid', 'true');
          /** @type {HTMLInputElement} */ (input).focus();
        }
        return;
      }
      dlg.close();
      dlg.remove();
      resolve(v);
    };
    const buttons = opts.buttons.map((b) =>
      h('button', { type: 'button', class: `btn ${b.kind || ''}`, 'data-value': b.value, onclick: () => close(b.value) }, b.label),
    );
    dlg.append(
      h('form', {
        method: 'dialog',
        onsubmit: (/** @type {Event} */ e) => {
          e.preventDefault();
          const primary = opts.buttons.find((b) => b.kind && b.kind.includes('primary'));
          close(primary ? primary.value : null);
        },
      },
        h('h2', null, opts.title),
        opts.body ?? null,
        opts.form ?? null,
        error,
        h('div', { class: 'dialog-buttons' }, buttons),
      ),
    );
    // Enter on a radio button, a checkbox or a select does not submit a form by itself.
    dlg.addEventListener('keydown', (e) => {
      const el = /** @type {HTMLElement} */ (e.target);
      if (e.key !== 'Enter' || e.isComposing || el.tagName === 'BUTTON' || el.tagName === 'TEXTAREA') return;
      if (el instanceof HTMLInputElement && el.type === 'text') return; // the form's own submission
      e.preventDefault();
      const primary = opts.buttons.find((b) => b.kind && b.kind.includes('primary'));
      close(primary ? primary.value : null);
    });
    dlg.addEventListener('cancel', (e) => {
      e.preventDefault();
      close(null);
    });
    document.body.append(dlg);
    dlg.showModal();
    const input = dlg.querySelector('input');
    if (input) input.focus();
  });
}

/** A random id for client actions (moves queued while offline are resent with it). */
export function randomId(prefix = 'm') {
  const a = new Uint8Array(8);
  crypto.getRandomValues(a);
  return prefix + '-' + Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}
