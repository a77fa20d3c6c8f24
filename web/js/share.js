// @ts-check
/**
 * Inviting friends to a room (seed 000: « Envoyez-le sur LINE ou lisez le code à voix haute »):
 * the code in two groups of three (its alphabet has no 0/O, 1/I/L), spelled for reading aloud and
 * read by the browser's voice on request; the link with « Copier le lien »; the system share sheet
 * where the browser has one; LINE, WhatsApp, SMS and e-mail links; the QR code.
 */
import { h, toast } from './dom.js';
import { lang, t } from './i18n.js';

/** Words to spell letters with: the French telephone alphabet, and the international one. */
const SPELLING = {
  fr: {
    A: 'Anatole', B: 'Berthe', C: 'Célestin', D: 'Désiré', E: 'Eugène', F: 'François', G: 'Gaston', H: 'Henri',
    I: 'Irma', J: 'Joseph', K: 'Kléber', L: 'Louis', M: 'Marcel', N: 'Nicolas', O: 'Oscar', P: 'Pierre',
    Q: 'Quintal', R: 'Raoul', S: 'Suzanne', T: 'Thérèse', U: 'Ursule', V: 'Victor', W: 'William', X: 'Xavier',
    Y: 'Yvonne', Z: 'Zoé',
  },
  en: {
    A: 'Alfa', B: 'Bravo', C: 'Charlie', D: 'Delta', E: 'Echo', F: 'Foxtrot', G: 'Golf', H: 'Hotel',
    I: 'India', J: 'Juliett', K: 'Kilo', L: 'Lima', M: 'Mike', N: 'November', O: 'Oscar', P: 'Papa',
    Q: 'Quebec', R: 'Romeo', S: 'Sierra', T: 'Tango', U: 'Uniform', V: 'Victor', W: 'Whiskey', X: 'X-ray',
    Y: 'Yankee', Z: 'Zulu',
  },
};

/** `K7M2QX` → `['K7M', '2QX']`. @param {string} code */
export function codeGroups(code) {
  return [code.slice(0, 3), code.slice(3)];
}

/** Each character as said aloud: « K comme Kléber », « 7 ». @param {string} code @returns {string[][]} per group */
export function spelled(code) {
  const words = /** @type {Record<string, string>} */ (SPELLING[lang()]);
  return codeGroups(code).map((g) => [...g].map((c) => (words[c] ? t('spell_as', { c, word: words[c] }) : c)));
}

/** The voice's language tag for the page's language. */
function speechLang() {
  return lang() === 'fr' ? 'fr-FR' : 'en-GB';
}

/** Reads the code aloud, character by character, a pause between the groups. @param {string} code */
export function readAloud(code) {
  const synth = window.speechSynthesis;
  if (!synth) return;
  synth.cancel();
  const tag = speechLang();
  const voice = synth.getVoices().find((v) => v.lang.replace('_', '-').startsWith(tag.slice(0, 2)));
  for (const group of spelled(code)) {
    for (const text of [...group, ' ']) {
      const u = new SpeechSynthesisUtterance(text);
      u.lang = tag;
      u.rate = 0.8;
      if (voice) u.voice = voice;
      synth.speak(u);
    }
  }
}

/** The rooms whose code this page has spelled out (« Lire le code »). */
const spelledShown = new Set();

/** The rooms whose invitation the player opened (true) or closed (false) by hand. @type {Map<string, boolean>} */
const inviteChoice = new Map();

/**
 * The « Invitez vos amis » card of a lobby.
 * @param {import('./api.js').RoomView} room
 */
export function shareCard(room) {
  const link = `${location.origin}/r/${room.code}`;
  const message = t(room.game === 'cc' ? 'share_message_cc' : 'share_message_draughts', { code: codeGroups(room.code).join(' ') });
  const body = `${message}\n${link}`;
  const aloud = spelled(room.code);
  const spelledLine = h('div', { class: 'code-spelled small', 'data-testid': 'code-spelled', hidden: !spelledShown.has(room.code) },
    h('span', { class: 'muted' }, t('share_spelled_label')),
    h('ol', null, aloud.map((g) => h('li', null, g.join(', ')))));
  const enc = encodeURIComponent;
  /** @param {string} kind @param {string} href @param {string} label */
  const via = (kind, href, label) => h('a', {
    class: 'btn small share-via', 'data-share': kind, href,
    target: href.startsWith('http') ? '_blank' : null, rel: href.startsWith('http') ? 'noopener' : null,
  }, label);
  // One tap away below the seats; open by itself while a seat is free, until the player opens or
  // closes it (kept when the lobby is drawn again).
  const open = inviteChoice.has(room.code) ? inviteChoice.get(room.code) : room.seats.some((s) => s.kind === 'empty');
  return h('details', { class: 'share card', 'data-testid': 'invite', open: open || null },
    h('summary', {
      class: 'invite-summary',
      onclick: (/** @type {Event} */ e) => {
        const box = /** @type {HTMLElement} */ (e.currentTarget).parentElement;
        if (box instanceof HTMLDetailsElement) inviteChoice.set(room.code, !box.open);
      },
    },
    h('h2', null, t('invite_title')),
    h('span', { class: 'invite-code', 'aria-hidden': 'true' }, codeGroups(room.code).join(' '))),
    h('p', { class: 'muted' }, t('invite_help')),
    h('div', { class: 'share-grid' },
      h('div', { class: 'share-text' },
        h('div', { class: 'label' }, t('room_code')),
        h('div', { class: 'code-row' },
          h('div', {
            class: 'room-code', 'data-testid': 'room-code', role: 'img',
            'aria-label': t('share_code_groups', { spelled: codeGroups(room.code).map((g) => [...g].join(' ')).join(', ') }),
          }, codeGroups(room.code).map((g) => h('span', { class: 'code-group' }, g))),
          h('button', {
            class: 'btn small', type: 'button', 'data-action': 'read-code',
            onclick: (/** @type {Event} */ e) => {
              // Stays shown when the lobby is drawn again (someone joins while it is read out).
              spelledShown.add(room.code);
              const line = /** @type {HTMLElement} */ (e.currentTarget).closest('.share-text')?.querySelector('[data-testid=code-spelled]');
              if (line instanceof HTMLElement) line.hidden = false;
              readAloud(room.code);
            },
          }, speakerIcon(), t('share_read'))),
        spelledLine,
        h('div', { class: 'label' }, t('share_link')),
        h('div', { class: 'link-row' },
          h('input', {
            class: 'link', type: 'text', readonly: true, value: link, 'aria-label': t('share_link'),
            onfocus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select(),
          }),
          h('button', { class: 'btn', type: 'button', 'data-action': 'copy-link', onclick: () => copy(link) }, t('share_copy_link'))),
        h('div', { class: 'share-buttons', role: 'group', 'aria-label': t('share_via') },
          'share' in navigator
            ? h('button', {
              class: 'btn small primary', type: 'button', 'data-action': 'share-sheet',
              onclick: () => navigator.share({ title: 'Dames', text: message, url: link }).catch(() => {}),
            }, t('share_sheet'))
            : null,
          via('line', `https://line.me/R/share?text=${enc(body)}`, t('share_line')),
          via('whatsapp', `https://wa.me/?text=${enc(body)}`, t('share_whatsapp')),
          via('sms', `sms:?&body=${enc(body)}`, t('share_sms')),
          via('email', `mailto:?subject=${enc(t(room.game === 'cc' ? 'share_subject_cc' : 'share_subject_draughts'))}&body=${enc(body)}`, t('share_email')))),
      h('img', { class: 'qr', src: `/api/rooms/${room.code}/qr.svg`, alt: t('qr_alt', { code: room.code }), width: 176, height: 176 })));
}

/** A loudspeaker, drawn (emoji fonts are not everywhere). */
function speakerIcon() {
  const icon = h('span', { class: 'icon', 'aria-hidden': 'true' });
  icon.innerHTML = '<svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M4 9v6h4l5 4V5L8 9z" fill="currentColor"/><path d="M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12"/></svg>';
  return icon;
}

/** @param {string} text */
async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = h('textarea', null, text);
    document.body.append(ta);
    ta.select();
    document.execCommand('copy');
    ta.remove();
  }
  toast(t('copied'), 'good');
}
