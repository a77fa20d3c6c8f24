// @ts-check
/**
 * Tiny DOM helpers: element builder, redraws that keep the control in use (`patch`), toasts,
 * modal dialogs.
 */

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
      const type = k.slice(2).toLowerCase();
      el.addEventListener(type, v);
      const own = listeners.get(el);
      if (own) own.push([type, v]);
      else listeners.set(el, [[type, v]]);
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

/**
 * Lets the browser paint and answer input before the rest of the work (a new task): loading a
 * screen does its work in several short tasks rather than one long one.
 * @returns {Promise<void>}
 */
export const nextTask = () => new Promise((r) => setTimeout(r, 0));

/**
 * Runs `f` once the page has loaded and the main thread is idle (at most 2 s later): work that the
 * first screen does not need. @param {() => void} f
 */
export function whenIdle(f) {
  const idle = () => ('requestIdleCallback' in window ? requestIdleCallback(() => f(), { timeout: 2000 }) : setTimeout(f, 1));
  if (document.readyState === 'complete') idle();
  else addEventListener('load', idle, { once: true });
}

/** Replaces the content of `el`. @param {Element} el @param {...(Child|Child[])} children */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** The listeners `h` and `s` attached to each element: a redraw that keeps an element gives it the new ones. */
const listeners = /** @type {WeakMap<Element, [string, EventListener][]>} */ (new WeakMap());

/**
 * Fields typed in since their last `change`: what they hold is the player's, not yet sent, and a
 * redraw leaves it alone. `change` (Enter, leaving the field) sends it; from then on the field
 * shows what the server stored, a refused value included. Not forgotten on `blur`: switching to
 * another app blurs the field without sending it, and the text must still be there on return.
 */
const typing = /** @type {WeakSet<EventTarget>} */ (new WeakSet());
document.addEventListener('input', (e) => { if (e.target) typing.add(e.target); }, true);
document.addEventListener('change', (e) => { if (e.target) typing.delete(e.target); }, true);

/**
 * Attributes that say which element of a redraw stands for which element on screen (with the tag;
 * elements with none of them are matched by tag, class and rank among their like).
 */
const KEYS = ['id', 'data-key', 'data-opt', 'data-seat', 'data-cpu-seat', 'data-action', 'data-testid', 'data-move', 'name', 'href'];

/**
 * Like `fill`, for content drawn again on every event of a live screen (lobby, game panels):
 * the control in use (the focused element: a field being typed in, an open select, a button
 * being pressed) is never taken out of the page, so that it keeps focus, caret, typed text and
 * the phone's keyboard. It and each element around it are updated in place from their new
 * version (attributes, listeners, the server's value unless the player is typing); everything
 * else is replaced by the new content, as `fill` does.
 *
 * Listeners of the new content are moved onto the elements kept: a listener must find the
 * elements it works on from its event (`e.currentTarget`), not from variables holding new
 * elements, which may be the ones left out.
 * @param {Element} el @param {...(Child|Child[])} children
 */
export function patch(el, ...children) {
  const active = document.activeElement;
  if (!active || active === el || !el.contains(active)) return fill(el, ...children);
  const box = document.createElement('div');
  append(box, children);
  keepActive(el, [...box.childNodes], active);
}

/**
 * Gives `parent` the children `nodes`, keeping its child that holds `active` if `nodes` has a
 * counterpart of it. @param {Element} parent @param {ChildNode[]} nodes @param {Element} active
 */
function keepActive(parent, nodes, active) {
  const kept = [...parent.children].find((c) => c.contains(active));
  const twin = kept ? counterpart(kept, nodes) : null;
  if (!kept || !twin) {
    parent.replaceChildren(...nodes);
    return;
  }
  placeAround(parent, kept, nodes, nodes.indexOf(twin));
  update(kept, twin);
  if (kept === active) updateControl(kept, twin);
  else keepActive(kept, [...twin.childNodes], active);
}

/**
 * Like `patch`, for a list that a live feed draws again on every event (the public tables, the
 * games to watch): each row whose `data-key` was already on screen stays the same element, its
 * attributes and content taken from the new version (the control in use kept, as `patch` keeps
 * it), so the row being read, scrolled to or tapped is never taken out of the page; rows that
 * left go, new ones come in their place. Rows without a key are replaced.
 * @param {Element} el @param {...(Child|Child[])} children
 */
export function fillKeyed(el, ...children) {
  const box = document.createElement('div');
  append(box, children);
  /** @type {Map<string, Element>} */
  const old = new Map();
  for (const c of el.children) {
    const key = c.getAttribute('data-key');
    if (key !== null) old.set(key, c);
  }
  const nodes = [...box.childNodes].map((n) => {
    const key = n instanceof Element ? n.getAttribute('data-key') : null;
    const kept = key === null ? undefined : old.get(key);
    if (!kept || !(n instanceof Element) || kept.tagName !== n.tagName) return n;
    update(kept, n);
    patch(kept, ...n.childNodes);
    return kept;
  });
  const active = document.activeElement;
  const held = nodes.find((n) => n.parentNode === el && active && n.contains(active));
  if (held) placeAround(el, held, nodes, nodes.indexOf(held));
  else el.replaceChildren(...nodes);
}

/**
 * Gives `parent` the children `nodes` around its child `kept`, which stands for `nodes[i]` and
 * never leaves the page (that would blur the control in use in it): the others go, the new ones
 * come before and after it.
 * @param {Element} parent @param {ChildNode} kept @param {ChildNode[]} nodes @param {number} i
 */
function placeAround(parent, kept, nodes, i) {
  for (const c of [...parent.childNodes]) if (c !== kept) c.remove();
  kept.before(...nodes.slice(0, i));
  kept.after(...nodes.slice(i + 1));
}

/** The element of `nodes` that stands for `old`, if any. @param {Element} old @param {ChildNode[]} nodes */
function counterpart(old, nodes) {
  const key = keyOf(old);
  const same = (/** @type {Node} */ n) => n instanceof Element && n.tagName === old.tagName && keyOf(n) === key
    && (key !== '' || n.className === old.className);
  const rank = (old.parentElement ? [...old.parentElement.children] : [old]).filter(same).indexOf(old);
  return /** @type {Element|undefined} */ (nodes.filter(same)[rank]) ?? null;
}

/** What tells an element apart from its siblings ('' if nothing does). @param {Element} el */
function keyOf(el) {
  const v = KEYS.map((k) => el.getAttribute(k));
  return v.some((x) => x !== null) ? JSON.stringify(v) : '';
}

/** Gives `old` the attributes and listeners of `twin`. @param {Element} old @param {Element} twin */
function update(old, twin) {
  for (const a of [...old.attributes]) if (!twin.hasAttribute(a.name)) old.removeAttribute(a.name);
  for (const a of twin.attributes) if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  for (const [type, f] of listeners.get(old) || []) old.removeEventListener(type, f);
  const fresh = listeners.get(twin) || [];
  for (const [type, f] of fresh) old.addEventListener(type, f);
  listeners.set(old, fresh);
}

/**
 * The focused control takes its new value, unless the player is typing in it; an open select
 * keeps its options (and stays open) while they are the same.
 * @param {Element} old @param {Element} twin
 */
function updateControl(old, twin) {
  if (old instanceof HTMLInputElement && twin instanceof HTMLInputElement) {
    if (old.type === 'checkbox' || old.type === 'radio') old.checked = twin.checked;
    else if (!typing.has(old) && old.value !== twin.value) old.value = twin.value;
  } else if (old instanceof HTMLTextAreaElement && twin instanceof HTMLTextAreaElement) {
    if (!typing.has(old) && old.value !== twin.value) old.value = twin.value;
  } else if (old instanceof HTMLSelectElement && twin instanceof HTMLSelectElement) {
    const sig = (/** @type {HTMLSelectElement} */ s) => [...s.options].map((o) => `${o.value}\u0001${o.text}\u0001${o.disabled}`).join('\u0002');
    const value = twin.value;
    if (sig(old) !== sig(twin)) old.replaceChildren(...twin.childNodes);
    if (old.value !== value) old.value = value;
  } else {
    old.replaceChildren(...twin.childNodes);
  }
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
