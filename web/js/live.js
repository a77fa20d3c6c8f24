// @ts-check
/**
 * Live lists (issue 11 item 6, docs/protocol.md "Live lists"): one stream of server-sent events
 * per tab (`/api/me/events`) that says when a room this browser is seated in changed. The
 * header badge and the lists of my games (home, « Mes parties ») read the server again at once,
 * a burst of changes read once. Without the stream (refused, not supported) the badge keeps
 * its 30-second poll (push.js).
 */
import { refreshBadge } from './push.js';

/** @type {EventSource|null} */
let source = null;
/** @type {Set<() => void>} */
const listeners = new Set();
let timer = 0;
let opened = false;

/** Reads the lists again, once for a burst of notices. */
function changed() {
  if (timer) return;
  timer = window.setTimeout(() => {
    timer = 0;
    refreshBadge();
    for (const f of [...listeners]) f();
  }, 120);
}

/** Opens the tab's stream (once). */
export function startLive() {
  if (source || typeof EventSource === 'undefined') return;
  source = new EventSource('/api/me/events');
  source.addEventListener('games', changed);
  // A reconnection may have missed changes: read once more.
  source.addEventListener('ready', () => {
    if (opened) changed();
    opened = true;
    document.documentElement.dataset.live = 'open';
  });
  source.addEventListener('error', () => { document.documentElement.dataset.live = 'closed'; });
}

/**
 * Calls `f` after each change of my rooms while `node` is in the page (then forgets it).
 * @param {Node} node @param {() => void} f
 */
export function whileShown(node, f) {
  const g = () => { if (node.isConnected) f(); else listeners.delete(g); };
  listeners.add(g);
}
