// @ts-check
/** The room before the game: code, link, QR code, seats, settings, « Commencer ». */
import { h } from './dom.js';
import { setSwatches } from './game.js';
import { t, tn } from './i18n.js';
import { swatch } from './players.js';
import { settingsForm } from './settings.js';
import { shareCard } from './share.js';

/**
 * @typedef {import('./api.js').RoomView} RoomView
 * @typedef {import('./api.js').Seat} Seat
 * @typedef {{
 *   join: (seat?: number) => void, leave: () => void, start: () => void,
 *   setSettings: (s: import('./api.js').Settings) => void, refuseSetting: (e: {field: string, text: string}) => void,
 *   seatCpu: (seat: number, level: string|null) => void, kick: (seat: number) => void,
 *   talk?: import('./phrases.js').Talk,
 * }} LobbyActions
 */

const LEVELS = /** @type {const} */ (['facile', 'normal', 'difficile', 'expert']);

/**
 * @param {RoomView} room @param {LobbyActions} act
 * @param {{field: string, text: string}|null} [settingError] the last refusal of a setting
 */
export function renderLobby(room, act, settingError = null) {
  const free = room.seats.filter((s) => s.kind === 'empty');
  const allTaken = free.length === 0;
  const share = shareCard(room);

  const seats = h('div', { class: 'seats card' },
    h('h2', null, t('seats_title')),
    h('ol', { class: 'seat-list' }, room.seats.map((s) => seatRow(room, s, act))),
    act.talk ? act.talk.bar(room) : null,
    room.you === null && free.length
      ? h('div', { class: 'join-box' },
        h('p', { class: 'muted' }, t('spectator_note')),
        h('button', { class: 'btn primary big', type: 'button', 'data-action': 'join', onclick: () => act.join() }, t('join_game')))
      : room.you === null ? h('p', { class: 'muted' }, t('spectator_full')) : null,
    room.you !== null && !room.host
      ? h('button', { class: 'btn ghost', type: 'button', 'data-action': 'leave', onclick: () => act.leave() }, t('leave_seat'))
      : null,
    room.host
      ? h('div', { class: 'start-box' },
        h('button', { class: 'btn primary big', type: 'button', 'data-action': 'start', disabled: !allTaken, onclick: () => act.start() }, t('start')),
        allTaken ? null : h('p', { class: 'muted small' }, t('start_wait')))
      : h('p', { class: 'muted' }, t('waiting_host')));

  const settings = h('div', { class: 'card settings-card' },
    h('h2', null, t('settings_title')),
    room.host ? null : h('p', { class: 'muted small' }, t('settings_host_only')),
    settingsForm(room.game, room.settings, room.host, act.setSettings, settingError, act.refuseSetting));

  const variant = room.game === 'draughts' && room.settings.rules && room.settings.rules.variant
    ? ' · ' + t(/** @type {any} */ ('variant_' + room.settings.rules.variant))
    : room.game === 'cc' ? ' · ' + tn('players_hint', room.seats.length) : '';
  const head = h('div', { class: 'lobby-head' },
    h('h1', null, t(room.game === 'cc' ? 'cc_name' : 'dr_name'), h('span', { class: 'muted lobby-sub' }, variant)),
    room.settings.public ? h('span', { class: 'tag public-tag', 'data-testid': 'public-tag' }, t('public_badge')) : null);
  // The seats, who is there and « Commencer » first; the invitation one tap below (share.js).
  return h('div', { class: 'lobby' }, head, seats, share, settings);
}

/** @param {RoomView} room @param {Seat} seat @param {LobbyActions} act */
function seatRow(room, seat, act) {
  const mine = room.you === seat.seat;
  const where = room.game === 'draughts'
    ? t(seat.color === 'black' ? 'black' : 'white')
    : seat.camps && seat.camps.length
      ? seat.camps.length > 1 ? t('camps_n', { list: seat.camps.join(', ') }) : t('camp_n', { n: seat.camps[0] })
      : '';
  /** @type {(HTMLElement|null)[]} */
  const tags = [];
  if (mine) tags.push(h('span', { class: 'tag you' }, t('seat_you')));
  if (seat.seat === 0) tags.push(h('span', { class: 'tag' }, t('seat_host')));
  if (seat.kind === 'human' && !mine) tags.push(h('span', { class: `dot ${seat.online ? 'on' : 'off'}`, title: t(seat.online ? 'seat_online' : 'seat_offline') }));

  /** @type {(HTMLElement|string|null)[]} */
  const controls = [];
  if (seat.kind === 'empty') {
    if (room.host) {
      controls.push(levelSelect(t('add_cpu'), null, (lv) => act.seatCpu(seat.seat, lv), seat.seat));
    } else if (room.you === null) {
      controls.push(h('button', { class: 'btn small', type: 'button', 'data-action': 'take-seat', onclick: () => act.join(seat.seat) }, t('take_seat')));
    }
  } else if (seat.kind === 'cpu' && room.host) {
    controls.push(levelSelect(null, seat.level, (lv) => act.seatCpu(seat.seat, lv), seat.seat));
    controls.push(h('button', { class: 'btn small ghost', type: 'button', 'data-action': 'remove-cpu', onclick: () => act.seatCpu(seat.seat, null) }, t('remove_cpu')));
  } else if (seat.kind === 'human' && room.host && !mine) {
    controls.push(h('button', { class: 'btn small ghost', type: 'button', 'data-action': 'kick', onclick: () => act.kick(seat.seat) }, t('kick')));
  }
  const name = seat.kind === 'empty' ? t('seat_empty')
    : seat.kind === 'cpu' ? t('seat_cpu', { level: t(/** @type {any} */ ('level_' + (seat.level || 'normal'))) })
      : seat.name || '?';
  return h('li', { class: `seat seat-${seat.kind}${mine ? ' mine' : ''}`, 'data-seat': seat.seat },
    room.game === 'draughts' ? swatch(seat.seat, { draughts: seat.color || (seat.seat === 0 ? 'white' : 'black') }) : setSwatches(seat),
    h('div', { class: 'seat-main' },
      h('div', { class: 'seat-name' }, name, ...tags, act.talk ? act.talk.bubble(seat.seat) : null, act.talk ? act.talk.menu(room, seat) : null),
      h('div', { class: 'seat-where muted small' }, where)),
    h('div', { class: 'seat-controls' }, controls));
}

/**
 * @param {string|null} placeholder @param {string|null} value @param {(lv: string) => void} onPick @param {number} seat
 */
function levelSelect(placeholder, value, onPick, seat) {
  return h('select', {
    class: 'level-select', 'aria-label': t('add_cpu'), 'data-cpu-seat': seat,
    onchange: (/** @type {Event} */ e) => {
      const v = /** @type {HTMLSelectElement} */ (e.target).value;
      if (v) onPick(v);
    },
  },
  placeholder ? h('option', { value: '', selected: true }, '+ ' + placeholder) : null,
  LEVELS.map((lv) => h('option', { value: lv, selected: lv === value }, 'CPU ' + t(/** @type {any} */ ('level_' + lv)))));
}
