// @ts-check
/** Small wrappers around localStorage: the few things this browser remembers (never an account). */

const PREFIX = 'dames.';

/** @param {string} key @returns {string|null} */
export function load(key) {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

/** @param {string} key @param {string|null} value */
export function save(key, value) {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    /* private mode: remember nothing */
  }
}

/** The player's name, asked once. @returns {string} */
export function getName() {
  return load('name') || '';
}

/** @param {string} name */
export function setName(name) {
  save('name', name.trim().slice(0, 24));
}

/** Test hook and power-user setting: CPU think time (ms) for games created from this browser. */
export function cpuMsOverride() {
  const v = Number(load('cpu_ms'));
  return Number.isFinite(v) && v > 0 ? v : null;
}
