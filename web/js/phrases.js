// @ts-check
/**
 * Conduct without accounts (issue 20, docs/protocol.md "Phrases and reports"): no free text
 * between strangers. A seated person says one of six preset phrases; everyone in the room sees it
 * in their own language as a small bubble by the player's name (never over the board), and
 * screen readers hear it. Each player may be muted (« Masquer », remembered per room in this
 * browser), blocked from one's online pairings (« Ne plus jouer avec cette personne ») or reported
 * to the site's team (« Signaler », a preset reason).
 */
import { ApiError, request } from './api.js';
import { dialog, h, toast } from './dom.js';
import { errorText, t } from './i18n.js';
import { load, save } from './storage.js';

/** The preset phrases, by protocol id, in the order they are offered. */
export const PHRASES = /** @type {const} */ (['hello', 'good_game', 'well_played', 'thanks', 'oops', 'rematch']);
/** The reasons a report may give (crates/server/src/http/reports.rs). */
export const REASONS = /** @type {const} */ (['name', 'stalling', 'leaving', 'cheating', 'other']);
/** How long a bubble stays by a name. */
const BUBBLE_MS = 6000;

/** @typedef {import('./api.js').RoomView} RoomView @typedef {import('./api.js').Seat} Seat */

/** The phrases of one room page: what was said lately, who is muted, the phrase buttons. */
export class Talk {
  /**
   * @param {string} code
   * @param {(phrase: string) => void} say sends a phrase (the room's socket)
   * @param {() => void} redraw draws the players again (a bubble came or went, a mute changed)
   */
  constructor(code, say, redraw) {
    this.code = code;
    this.say = say;
    this.redraw = redraw;
    /** The phrase by each seat's name, until when. @type {Map<number, {phrase: string, until: number}>} */
    this.said = new Map();
    /** @type {Set<number>} */
    this.muted = new Set(readMuted(code));
    /** Announced to screen readers (polite: never interrupts the moves). */
    this.live = h('div', { class: 'sr-only', 'aria-live': 'polite', 'data-testid': 'phrase-live' });
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.timer = undefined;
  }

  /**
   * A seat said a phrase (the server's `phrase` message).
   * @param {RoomView|null} room @param {number} seat @param {string} phrase
   */
  heard(room, seat, phrase) {
    if (!room || !PHRASES.includes(/** @type {any} */ (phrase)) || this.muted.has(seat)) return;
    this.said.set(seat, { phrase, until: Date.now() + BUBBLE_MS });
    const name = seat === room.you ? t('seat_you') : seatLabel(room.seats[seat]);
    this.live.textContent = t('phrase_said', { name, phrase: phraseText(phrase) });
    this.redraw();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.expire(), BUBBLE_MS + 50);
  }

  expire() {
    const now = Date.now();
    let left = false;
    for (const [seat, s] of [...this.said]) {
      if (s.until <= now) this.said.delete(seat);
      else left = true;
    }
    this.redraw();
    if (left) this.timer = setTimeout(() => this.expire(), 500);
  }

  /** The bubble by a seat's name, if it said something lately. @param {number} seat */
  bubble(seat) {
    const s = this.said.get(seat);
    if (!s || s.until <= Date.now() || this.muted.has(seat)) return null;
    return h('span', { class: 'phrase-bubble', 'data-testid': 'phrase-bubble', 'data-phrase': s.phrase, 'aria-hidden': 'true' }, phraseText(s.phrase));
  }

  /** The phrase buttons, for a person seated in the room (null otherwise). @param {RoomView} room */
  bar(room) {
    if (room.you === null || room.solitaire) return null;
    if (!room.seats.some((s) => s.kind === 'human' && s.seat !== room.you)) return null;
    return h('div', { class: 'phrase-bar', role: 'group', 'aria-label': t('phrases_label'), 'data-testid': 'phrase-bar' },
      PHRASES.map((p) => h('button', { class: 'btn small ghost phrase-btn', type: 'button', 'data-phrase': p, onclick: () => this.say(p) }, phraseText(p))));
  }

  /**
   * The « ⋯ » button by another person's name: « Masquer », « Ne plus jouer avec cette personne »,
   * « Signaler ». Null for oneself, a CPU or an empty seat.
   * @param {RoomView} room @param {Seat} seat
   */
  menu(room, seat) {
    if (seat.kind !== 'human' || seat.seat === room.you || room.solitaire) return null;
    const name = seatLabel(seat);
    const muted = this.muted.has(seat.seat);
    return h('span', { class: 'conduct' },
      muted ? h('span', { class: 'tag muted-tag', 'data-testid': 'muted' }, t('conduct_muted')) : null,
      h('button', { class: 'btn ghost conduct-open', type: 'button', 'data-action': 'conduct', 'data-seat': seat.seat,
        'aria-label': t('conduct_menu', { name }), title: t('conduct_menu', { name }), onclick: () => this.openMenu(room, seat) }, '⋯'));
  }

  /** @param {RoomView} room @param {Seat} seat */
  async openMenu(room, seat) {
    const name = seatLabel(seat);
    const muted = this.muted.has(seat.seat);
    /** @type {{label: string, value: string, kind?: string}[]} */
    const buttons = [{ label: t(muted ? 'conduct_unmute' : 'conduct_mute'), value: 'mute' }];
    if (room.you !== null) buttons.push({ label: t('conduct_block'), value: 'block' });
    buttons.push({ label: t('conduct_report'), value: 'report', kind: 'danger' }, { label: t('close'), value: 'cancel' });
    const v = await dialog({ title: t('conduct_menu', { name }), buttons });
    if (v === 'mute') this.toggleMute(seat.seat);
    else if (v === 'block') await this.block(room, seat);
    else if (v === 'report') await this.report(seat);
  }

  /** @param {number} seat */
  toggleMute(seat) {
    if (this.muted.has(seat)) this.muted.delete(seat);
    else {
      this.muted.add(seat);
      this.said.delete(seat);
    }
    save(mutedKey(this.code), this.muted.size ? JSON.stringify([...this.muted]) : null);
    this.redraw();
  }

  /** « Ne plus jouer avec cette personne », confirmed first. @param {RoomView} room @param {Seat} seat */
  async block(room, seat) {
    const ok = await dialog({
      title: t('conduct_block_title', { name: seatLabel(seat) }),
      body: h('p', null, t('conduct_block_body')),
      buttons: [{ label: t('cancel'), value: 'cancel' }, { label: t('conduct_block'), value: 'block', kind: 'primary danger' }],
    });
    if (ok !== 'block') return;
    try {
      await request('POST', '/api/me/blocks', { room: room.code, seat: seat.seat });
      toast(t('conduct_block_done'), 'good');
    } catch (e) {
      toast(e instanceof ApiError ? errorText(e) : String(e), 'error');
    }
  }

  /** « Signaler »: a preset reason, and a note for the site's team only. @param {Seat} seat */
  async report(seat) {
    const form = h('div', { class: 'report-form' },
      h('fieldset', null, h('legend', null, t('conduct_report_reason')),
        REASONS.map((r) => h('label', { class: 'report-reason' },
          h('input', { type: 'radio', name: 'report-reason', value: r }), ' ', t(/** @type {any} */ ('report_' + r))))),
      h('label', { class: 'report-note' }, t('conduct_report_note'),
        h('textarea', { name: 'report-note', maxlength: 300, rows: 2 })));
    const reason = () => /** @type {HTMLInputElement|null} */ (form.querySelector('input[name=report-reason]:checked'))?.value;
    const v = await dialog({
      title: t('conduct_report_title', { name: seatLabel(seat) }),
      form,
      buttons: [{ label: t('cancel'), value: 'cancel' }, { label: t('conduct_report_send'), value: 'send', kind: 'primary' }],
      validate: () => (reason() ? null : t('conduct_report_pick')),
    });
    if (v !== 'send') return;
    const note = /** @type {HTMLTextAreaElement} */ (form.querySelector('textarea')).value.trim();
    try {
      await request('POST', `/api/rooms/${this.code}/reports`, note ? { seat: seat.seat, reason: reason(), note } : { seat: seat.seat, reason: reason() });
      toast(t('conduct_report_done'), 'good');
    } catch (e) {
      toast(e instanceof ApiError ? errorText(e) : String(e), 'error');
    }
  }

  close() {
    clearTimeout(this.timer);
  }
}

/** A phrase in the reader's language. @param {string} id */
export function phraseText(id) {
  return t(/** @type {any} */ ('phrase_' + id));
}

/** @param {Seat|undefined} seat */
function seatLabel(seat) {
  return (seat && seat.name) || '?';
}

/** @param {string} code */
const mutedKey = (code) => `muted.${code}`;

/** The seats muted in this room by this browser. @param {string} code @returns {number[]} */
function readMuted(code) {
  try {
    const v = JSON.parse(load(mutedKey(code)) || '[]');
    return Array.isArray(v) ? v.filter((n) => Number.isInteger(n)) : [];
  } catch {
    return [];
  }
}
