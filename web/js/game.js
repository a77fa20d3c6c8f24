// @ts-check
/**
 * The game screen: board, whose turn, players (colour, mark, name, place), move list, resign,
 * draw offers (draughts), confirm-move bar, result and « Rejouer ».
 */
import { Board } from './board.js';
import { dialog, fill, h, patch, toast } from './dom.js';
import { ApiError, api } from './api.js';
import { errorText, nameList, place, reasonText, t, tw } from './i18n.js';
import { at } from './games.js';
import { kindOf } from './kinds.js';
export { setSwatches } from './kind-cc.js';
import { beep, disablePush, enablePush, isSubscribed, pushSupported, refreshBadge, setSound, soundOn } from './push.js';
import { announceMove } from './a11y.js';
import { iosNeedsInstall, iosPushNote } from './install.js';
import { load, save } from './storage.js';
import { AwayPanel, awayNews, rematchWithout, showTransfer } from './away.js';
import { Clocks } from './clock.js';

/**
 * @typedef {import('./api.js').RoomView} RoomView
 * @typedef {import('./api.js').Seat} Seat
 * @typedef {{
 *   move: (input: any) => void, resign: () => void,
 *   draw: (a: 'offer'|'accept'|'decline') => void, rematch: (ready: boolean) => void,
 *   away: import('./away.js').AwayAct, rematchWithout: { withCpu: (level: import('./api.js').Level) => void, withEmpty: () => void },
 * }} GameActions
 */

export class GameView {
  /** @param {GameActions} act @param {import('./phrases.js').Talk|null} [talk] the room's phrases (phrases.js) */
  constructor(act, talk = null) {
    this.act = act;
    this.talk = talk;
    /** The phrase buttons of a seated person (phrases.js). */
    this.phraseBar = h('div', { class: 'phrase-box' });
    /** @type {RoomView|null} */
    this.room = null;
    this.geoKey = '';
    /** @type {Board|null} */
    this.board = null;
    this.boardBox = h('div', { class: 'board-box' });
    this.status = h('div', { class: 'status', 'aria-live': 'polite', 'data-testid': 'status' });
    this.hint = h('div', { class: 'hint', hidden: true });
    this.strip = h('ol', { class: 'player-strip', 'aria-hidden': 'true' });
    this.offer = h('div', { class: 'offer-bar', hidden: true, role: 'alert' });
    /** A disconnected seat to move: « Confier à un CPU », « Réclamer la victoire » (away.js). */
    this.away = new AwayPanel((body) => act.away(body));
    /** The clocks of a game with a « Pendule » (clock.js). */
    this.clocks = new Clocks((seat) => (this.room ? seatName(this.room, seat) : ''));
    this.confirmBar = h('div', { class: 'confirm-bar', hidden: true },
      h('button', { class: 'btn primary round', type: 'button', 'data-action': 'confirm', 'aria-label': t('confirm_move'), title: t('confirm_move'), onclick: () => this.board?.confirm() }, '✓'),
      h('button', { class: 'btn round', type: 'button', 'data-action': 'cancel-move', 'aria-label': t('cancel_move'), title: t('cancel_move'), onclick: () => this.board?.cancelPending() }, '✕'));
    this.players = h('ol', { class: 'players', 'data-testid': 'players' });
    this.actions = h('div', { class: 'actions' });
    this.result = h('div', { class: 'result', hidden: true, 'data-testid': 'result' });
    /** « Défi solitaire » (solitaire.js, loaded when first needed): moves, optimum, best, result. */
    this.solo = h('section', { class: 'solo-panel', hidden: true, 'data-testid': 'solitaire' });
    this.moveList = h('ol', { class: 'move-list', 'data-testid': 'moves' });
    /** Looking at past positions (replay.js, loaded when first needed); `null` while the live board is shown. @type {import('./replay.js').Replay|null} */
    this.replay = null;
    /** Counts the replays asked for: an older one still loading its module gives way. */
    this.replayAsked = 0;
    this.replayBox = h('div', { class: 'replay-box' });
    this.movesFoot = h('div', { class: 'moves-foot' });
    /** @type {((path: string[]|null) => void)|null} labels the holes of the last move (Chinese checkers) */
    this.labelLast = null;
    /** The page's one h1 (said to screen readers; the status line says the rest). */
    this.title = h('h1', { class: 'sr-only', 'data-testid': 'game-title' });
    this.el = h('div', { class: 'game' },
      h('div', { class: 'game-main' }, this.title, this.status, this.solo, this.strip, this.clocks.el, this.offer, this.away.el, h('div', { class: 'board-wrap' }, this.boardBox, this.confirmBar), this.replayBox, this.hint),
      h('aside', { class: 'game-side' },
        this.result,
        h('section', { class: 'card tight players-card' }, h('h2', null, t('players_title')), this.players, this.phraseBar, this.actions),
        h('details', { class: 'card tight moves-card', open: window.innerWidth > 800 },
          h('summary', null, t('moves_title')), this.moveList, this.movesFoot)));
    /** A move this client sent and has not yet seen applied: the board stays frozen, the piece shown on arrival. */
    this.awaiting = false;
    /** @type {import('./board.js').BoardMove|null} */
    this.sentMove = null;
    this.sentAt = { gameNo: 0, moves: 0 };
  }

  /** @param {RoomView} room @param {RoomView|null} prev */
  update(room, prev) {
    this.room = room;
    const g = room.game_view;
    if (!g) return;
    this.ensureBoard(room);
    const sameGame = prev && prev.game_no === room.game_no && prev.game_view;
    const prevMoves = sameGame && prev.game_view ? prev.game_view.moves.length : g.moves.length;
    const fresh = g.moves.slice(prevMoves);
    for (const rec of fresh) this.announce(room, rec);
    const last = g.moves[g.moves.length - 1];
    /** @type {{path: string[], ghosts: import('./board.js').PieceSpec[]}|null} */
    let animate = null;
    if (fresh.length === 1 && last && !(this.awaiting && last.seat === room.you)) {
      const bm = this.toBoardMove(room, last.move);
      const ghosts = prev && prev.game_view ? kindOf(room.game).ghosts(this.pieces(prev), bm) : [];
      animate = { path: bm.path, ghosts };
    }
    // Still waiting for my move (another change came first): keep the board frozen.
    const stillWaiting = this.awaiting && room.game_no === this.sentAt.gameNo && g.moves.length === this.sentAt.moves && room.status === 'playing';
    if (!stillWaiting) {
      this.awaiting = false;
      this.sentMove = null;
    }
    const mine = g.to_move !== null && g.to_move === room.you && room.status === 'playing' && !stillWaiting;
    const moves = mine ? g.legal_moves.map((m) => this.toBoardMove(room, m)) : [];
    const lastBm = last ? this.toBoardMove(room, last.move) : null;
    this.board?.render({
      pieces: this.pieces(room),
      moves,
      showLegal: room.settings.show_legal_moves !== false,
      confirm: !!room.settings.confirm_move,
      last: lastBm ? { path: lastBm.path, captures: lastBm.captures } : null,
      animate,
    });
    if (stillWaiting && this.sentMove) this.board?.showAt(this.sentMove);
    if (this.labelLast) this.labelLast(lastBm ? lastBm.path : null);
    if (prev && sameGame && kindOf(room.game).drawOffers) this.drawNews(room, prev);
    const wasMine = !!prev && !!prev.game_view && prev.game_view.to_move === prev.you && prev.status === 'playing';
    if (mine && !wasMine) {
      notifyTurn(room);
      if (prev) beep();
    }
    // A rematch starts a new game: the server forgot the subscription with the last one.
    if (prev && prev.status === 'finished' && room.status === 'playing' && room.you !== null && pushSupported() && isSubscribed(room.code)) {
      enablePush(room.code);
    }
    // The header badge counts games waiting for me: a move may change it.
    if (mine !== wasMine || fresh.length || (prev && prev.status !== room.status)) refreshBadge();
    this.title.textContent = `${t(kindOf(room.game).name)} · ${t('room_title', { code: room.code })}`;
    this.renderStatus(room);
    this.renderStrip(room);
    this.clocks.update(room);
    this.renderOffer(room);
    awayNews(room, (seat) => seatName(room, seat));
    this.away.render(room, (seat) => seatName(this.room || room, seat));
    this.el.classList.toggle('finished', room.status === 'finished');
    this.renderPlayers(room);
    this.renderActions(room);
    this.renderMoves(room);
    this.renderResult(room);
    if (room.solitaire) import('./solitaire.js').then((m) => this.room && m.renderSolitaire(this.solo, this.room, this.act)).catch(() => {});
    // A finished game opens on its last position with the replay control; a live one being
    // looked at follows the new moves in its record.
    if (room.status === 'finished' && (!this.replay || this.replay.opt.live)) this.openReplay(room, null);
    else if (this.replay && this.replay.opt.live && (fresh.length || room.status !== 'playing')) this.replay.load(room.code).catch(() => {});
  }

  /**
   * Shows the position after the move `n` (0-based) of the move list, or the last position.
   * @param {RoomView} room @param {number|null} n
   */
  async openReplay(room, n) {
    if (!this.replay || (this.replay.opt.live && room.status !== 'playing')) {
      const asked = ++this.replayAsked;
      const { Replay } = await import('./replay.js');
      if (asked !== this.replayAsked) return;
      this.closeReplay(false);
      const live = room.status === 'playing';
      this.replay = new Replay({
        kind: kindOf(room.game),
        geometry: () => this.geometry(room)[1](),
        seats: () => (this.room || room).seats,
        name: (seat) => seatName(this.room || room, seat),
        live,
        onExit: () => this.closeReplay(true),
        onShow: (i) => this.markEntry(i),
      });
      fill(this.boardBox, this.replay.board.svg);
      fill(this.replayBox, this.replay.el);
      this.el.classList.add('replaying');
    }
    const replay = this.replay;
    try {
      await replay.load(room.code, Number.MAX_SAFE_INTEGER);
      if (n !== null && replay === this.replay) replay.show(replay.entryOfMove(n) + 1);
      if (n !== null) {
        // Tapped in the move list (below the board on a phone): bring the position into view.
        this.boardBox.scrollIntoView({ block: 'nearest' });
        /** @type {HTMLElement|null} */ (replay.el.querySelector('[data-replay=exit], [data-replay=back]'))?.focus({ preventScroll: true });
      }
    } catch (e) {
      toast(e instanceof ApiError ? errorText(e) : String(e), 'error');
      if (live(room)) this.closeReplay(false);
    }
  }

  /** Back to the live board. @param {boolean} focus */
  closeReplay(focus) {
    this.replayAsked++;
    if (!this.replay) return;
    this.replay.destroy();
    this.replay = null;
    this.el.classList.remove('replaying');
    fill(this.replayBox);
    if (this.board) fill(this.boardBox, this.board.svg);
    this.markEntry(-1);
    if (focus && this.board) this.board.svg.focus({ preventScroll: true });
  }

  /** Marks in the move list the move whose position is shown (`-1`: none). @param {number} index positions after `index` log entries */
  markEntry(index) {
    let move = -1;
    if (this.replay && this.replay.record && index > 0) {
      move = this.replay.record.log.slice(0, index).filter((e) => e.kind === 'move').length - 1;
    }
    for (const li of this.moveList.querySelectorAll('li[data-move]')) {
      const on = Number(/** @type {HTMLElement} */ (li).dataset.move) === move;
      li.classList.toggle('current', on);
      const b = li.querySelector('button');
      if (b) b.setAttribute('aria-current', on ? 'step' : 'false');
      // Scroll the list only (scrollIntoView would move the page away from the board).
      const el = /** @type {HTMLElement} */ (li);
      const list = this.moveList;
      if (on && (el.offsetTop < list.scrollTop || el.offsetTop + el.offsetHeight > list.scrollTop + list.clientHeight)) {
        list.scrollTop = el.offsetTop - list.clientHeight / 2;
      }
    }
  }

  /** The local move was sent: freeze the board until the server answers. @param {import('./board.js').BoardMove} [m] */
  sent(m) {
    this.awaiting = true;
    this.sentMove = m || null;
    const g = this.room && this.room.game_view;
    this.sentAt = { gameNo: this.room ? this.room.game_no : 0, moves: g ? g.moves.length : 0 };
    if (this.board) {
      this.board.state = { ...this.board.state, moves: [] };
      this.board.drawMarks();
    }
  }

  /** Re-render from the last state (after a refused move). */
  reset() {
    this.awaiting = false;
    this.sentMove = null;
    if (this.room) this.update(this.room, this.room);
  }

  /**
   * Asks the server for a hint and marks it on the board (not played: the player still taps).
   * @param {RoomView} room @param {HTMLButtonElement} [button]
   */
  async askHint(room, button) {
    if (button) button.disabled = true;
    const asked = { gameNo: room.game_no, moves: room.game_view ? room.game_view.moves.length : 0 };
    try {
      const { move } = await api.hint(room.code);
      const now = this.room;
      // The position moved on while the AI was thinking: the hint is stale.
      if (!now || !now.game_view || now.game_no !== asked.gameNo || now.game_view.moves.length !== asked.moves) return;
      this.board?.suggest(this.toBoardMove(now, move));
      toast(t('hint_shown'), 'good');
    } catch (e) {
      toast(e instanceof ApiError ? errorText(e) : String(e), 'error');
    } finally {
      if (button) setTimeout(() => { button.disabled = false; }, 2000);
    }
  }

  /**
   * The board's geometry for this viewer: its key and how to make it.
   * @param {RoomView} room @returns {[string, () => import('./board.js').Geometry]}
   */
  geometry(room) {
    const g = room.game_view;
    return kindOf(room.game).geometry({ seats: room.seats, rules: room.settings.rules, size: g ? g.board.size : undefined, you: room.you });
  }

  /** @param {RoomView} room */
  ensureBoard(room) {
    const g = room.game_view;
    if (!g) return;
    const [geoKey, make] = this.geometry(room);
    const geo = geoKey !== this.geoKey ? make() : null;
    if (geo) {
      const kind = kindOf(room.game);
      this.geoKey = geoKey;
      this.board = new Board(geo, {
        onMove: (m) => {
          this.sent(m);
          this.act.move(kind.moveInput(m));
        },
        onPending: (m) => { this.confirmBar.hidden = !m; },
        onHint: (k) => {
          this.hint.hidden = !k;
          if (k) fill(this.hint, t(k));
        },
      });
      this.board.svg.setAttribute('aria-label', t(kind.name));
      this.board.svg.classList.add(kind.boardClass);
      this.labelLast = kind.labels(this.board);
      if (!this.replay) fill(this.boardBox, this.board.svg);
    }
  }

  /** @param {RoomView} room @param {any} m */
  toBoardMove(room, m) {
    return kindOf(room.game).boardMove(m);
  }

  /** @param {RoomView} room */
  pieces(room) {
    const g = room.game_view;
    if (!g) return [];
    return kindOf(room.game).pieces(g.board, room.seats);
  }

  /** @param {RoomView} room @param {import('./api.js').MoveRecord} rec */
  announce(room, rec) {
    announceMove(room, rec, seatName(room, rec.seat), this.board); // screen readers: « Bo joue 32-28 »
    for (const s of rec.passes || []) toast(tw('passed_toast', s === room.you, { name: seatName(room, s) }));
    // The last to finish ends the game: the result card says it, nothing covers the board.
    if (room.status !== 'playing') return;
    for (const s of rec.finished || []) toast(tw('finished_toast', s === room.you, { name: seatName(room, s) }), 'good');
  }

  /** @param {RoomView} room */
  renderStatus(room) {
    const g = room.game_view;
    if (!g) return;
    this.status.className = 'status';
    if (room.status === 'finished' || g.outcome) {
      this.status.classList.add('over');
      fill(this.status, t('game_over'));
      return;
    }
    const s = g.to_move !== null ? room.seats[g.to_move] : null;
    if (!s) return fill(this.status, '');
    const kind = kindOf(room.game);
    const sw = kind.mark(s.seat, room.seats);
    document.title = `${g.to_move === room.you ? '● ' : ''}${t('room_title', { code: room.code })} · Dames`;
    if (g.to_move === room.you) {
      this.status.classList.add('mine');
      const capture = kind.mustCapture(g.legal_moves);
      fill(this.status, sw, t('turn_you'), capture ? h('span', { class: 'status-note' }, t('must_capture')) : null, since(room));
    } else if (s.kind === 'cpu') {
      fill(this.status, sw, t('turn_cpu_thinking', { name: seatName(room, s.seat) }));
    } else if (s.stand_in) {
      fill(this.status, sw, t('turn_stand_in', { name: seatName(room, s.seat) }));
    } else {
      fill(this.status, sw, t('turn_other', { name: seatName(room, s.seat) }), since(room));
    }
  }

  /**
   * Every draw offer, acceptance and refusal is told to everybody but the one who made it (the
   * CPU's answer comes at once, in the answer to the offer itself).
   * @param {RoomView} room @param {RoomView} prev
   */
  drawNews(room, prev) {
    const was = prev.game_view;
    const now = room.game_view;
    if (!was || !now) return;
    const offerNow = now.draw_offer ?? null;
    const offerWas = was.draw_offer ?? null;
    if (offerNow !== null && offerNow !== offerWas && offerNow !== room.you) toast(t('draw_offer_toast', { name: seatName(room, offerNow) }));
    const declined = now.draw_declined ?? null;
    if (declined !== null && declined !== (was.draw_declined ?? null) && declined !== room.you) toast(drawDeclinedText(room, declined));
    const o = now.outcome;
    if (o && o.kind === 'draw' && o.reason === 'agreement' && !was.outcome) {
      // A CPU accepts in the answer to the offer itself: the offer was then mine.
      const offerer = offerWas ?? room.you;
      const accepter = room.seats.find((s) => s.seat !== offerer);
      if (accepter && accepter.seat !== room.you) {
        toast(accepter.kind === 'cpu' ? t('draw_accepted_cpu') : t('draw_accepted_by', { name: seatName(room, accepter.seat) }), 'good');
      }
    }
  }

  /** Compact players above the board (narrow screens): colour, mark, name, place, turn. @param {RoomView} room */
  renderStrip(room) {
    const g = room.game_view;
    if (!g) return;
    const places = currentPlaces(room);
    fill(this.strip, room.seats.map((s) => {
      const pl = places[s.seat];
      return h('li', { class: `chip-player${g.to_move === s.seat && room.status === 'playing' ? ' turn' : ''}${s.seat === room.you ? ' mine' : ''}` },
        kindOf(room.game).mark(s.seat, room.seats),
        h('span', { class: 'chip-name' }, s.seat === room.you ? t('seat_you') : seatName(room, s.seat)),
        this.talk ? this.talk.bubble(s.seat) : null,
        pl ? h('span', { class: 'place' }, placeText(room, pl)) : null);
    }));
  }

  /**
   * A draw offered to me: answer right above the board. A refusal stays there for everybody
   * until the next move (« Le CPU refuse la nulle »).
   * @param {RoomView} room
   */
  renderOffer(room) {
    const g = room.game_view;
    const offered = g && room.status === 'playing' && room.you !== null && g.draw_offer !== null && g.draw_offer !== undefined && g.draw_offer !== room.you;
    const declined = g && room.status === 'playing' && g.draw_declined !== null && g.draw_declined !== undefined ? g.draw_declined : null;
    this.offer.hidden = !offered && declined === null;
    this.offer.classList.toggle('offer-news', !offered);
    if (offered && g && g.draw_offer !== null) {
      patch(this.offer,
        h('span', null, t('draw_offered_to_you', { name: seatName(room, g.draw_offer) })),
        h('button', { class: 'btn primary small', type: 'button', 'data-action': 'draw-accept', onclick: () => this.act.draw('accept') }, t('draw_accept')),
        h('button', { class: 'btn small', type: 'button', 'data-action': 'draw-decline', onclick: () => this.act.draw('decline') }, t('draw_decline')));
    } else if (declined !== null) {
      patch(this.offer, h('span', { 'data-testid': 'draw-declined' }, declined === room.you ? t('draw_declined_toast') : drawDeclinedText(room, declined)));
    }
  }

  /** @param {RoomView} room */
  renderPlayers(room) {
    const g = room.game_view;
    if (!g) return;
    const places = currentPlaces(room);
    const kind = kindOf(room.game);
    const resigned = kind.resigned(room);
    fill(this.phraseBar, this.talk ? this.talk.bar(room) : null);
    fill(this.players, room.seats.map((s) => {
      const turn = g.to_move === s.seat && room.status === 'playing';
      const pl = places[s.seat];
      return h('li', { class: `player${turn ? ' turn' : ''}${s.seat === room.you ? ' mine' : ''}`, 'data-seat': s.seat },
        kind.playerMark(s),
        h('span', { class: 'player-name' }, seatName(room, s.seat),
          s.seat === room.you ? h('span', { class: 'tag you' }, t('seat_you')) : null,
          s.kind === 'human' && s.seat !== room.you ? h('span', { class: `dot ${s.online ? 'on' : 'off'}`, title: t(s.online ? 'seat_online' : 'seat_offline') }) : null,
          this.talk ? this.talk.bubble(s.seat) : null, this.talk ? this.talk.menu(room, s) : null),
        h('span', { class: 'player-info' },
          colorLabel(kind, s),
          pl !== undefined && pl !== null ? h('span', { class: 'place' }, placeText(room, pl)) : null,
          resigned.has(s.seat) ? h('span', { class: 'muted small' }, t('resigned_label')) : null,
          s.stand_in ? h('span', { class: 'tag', 'data-testid': 'stand-in' }, t('stand_in_label')) : null,
          turn ? h('span', { class: 'turn-badge' }, t('to_move_label')) : null));
    }));
  }

  /** @param {RoomView} room */
  renderActions(room) {
    const g = room.game_view;
    if (room.you === null) {
      patch(this.actions, h('p', { class: 'muted small', 'data-testid': 'spectating' }, t('spectator_game')));
      return;
    }
    const kind = kindOf(room.game);
    if (!g || room.status !== 'playing' || kind.resigned(room).has(room.you) || currentPlaces(room)[room.you]) {
      patch(this.actions);
      return;
    }
    /** @type {HTMLElement[]} */
    const items = [];
    if (kind.drawOffers) {
      if (g.draw_offer === null || g.draw_offer === undefined) {
        items.push(h('button', { class: 'btn', type: 'button', 'data-action': 'draw-offer', onclick: () => this.act.draw('offer') }, t('draw_offer')));
      } else if (g.draw_offer === room.you) {
        items.push(h('p', { class: 'muted small' }, t('draw_offered_by_you')));
      }
    }
    if (g.to_move === room.you && room.settings.hints !== false && !this.awaiting) {
      items.push(h('button', { class: 'btn', type: 'button', 'data-action': 'hint', 'data-testid': 'hint', onclick: (/** @type {MouseEvent} */ e) => this.askHint(room, /** @type {HTMLButtonElement} */ (e.currentTarget)) }, t('hint_button')));
    }
    items.push(h('button', { class: 'btn danger', type: 'button', 'data-action': 'resign', onclick: () => this.confirmResign(room) }, t('resign')));
    if (!room.solitaire) {
      items.push(h('button', { class: 'btn ghost small', type: 'button', 'data-action': 'transfer', onclick: () => showTransfer(room.code) }, t('transfer_button')));
    }
    if (room.solitaire) {
      // Always this player's turn: nothing to be told about.
    } else if (iosNeedsInstall()) {
      items.push(iosPushNote()); // Web Push reaches iOS only from the Home Screen
    } else if (room.you !== null && pushSupported() && Notification.permission !== 'denied') {
      // Web Push for this seat: told even with the page closed (turn-by-turn games above all).
      const on = isSubscribed(room.code);
      items.push(h('button', { class: 'btn ghost small', type: 'button', 'aria-pressed': String(on), 'data-action': 'push',
        onclick: async () => {
          if (on) await disablePush(room.code);
          else {
            const r = await enablePush(room.code);
            toast(t(r === 'ok' ? 'push_enabled' : r === 'denied' ? 'push_denied' : 'push_failed'), r === 'ok' ? 'good' : 'error');
          }
          this.renderActions(room);
        } }, on ? t('push_off') : t('push_on')));
    } else if ('Notification' in window && Notification.permission !== 'denied') {
      const on = load('notify') === '1' && Notification.permission === 'granted';
      items.push(h('button', { class: 'btn ghost small', type: 'button', 'aria-pressed': String(on), 'data-action': 'notify',
        onclick: async () => {
          if (on) save('notify', null);
          else if ((await Notification.requestPermission()) === 'granted') save('notify', '1');
          this.renderActions(room);
        } }, on ? t('notify_on') : t('notify_off')));
    }
    items.push(h('button', { class: 'btn ghost small', type: 'button', 'aria-pressed': String(soundOn()), 'data-action': 'sound',
      onclick: () => {
        setSound(!soundOn());
        if (soundOn()) beep();
        this.renderActions(room);
      } }, soundOn() ? t('sound_on') : t('sound_off')));
    patch(this.actions, items);
  }

  /** @param {RoomView} room */
  async confirmResign(room) {
    const text = t(kindOf(room.game).resignText(room));
    const v = await dialog({
      title: t('resign_title'),
      body: h('p', null, text),
      buttons: [{ label: t('cancel'), value: 'no' }, { label: t('resign_confirm'), value: 'yes', kind: 'danger primary' }],
    });
    if (v === 'yes') this.act.resign();
  }

  /** @param {RoomView} room */
  renderMoves(room) {
    const g = room.game_view;
    if (!g) return;
    if (!g.moves.length) {
      patch(this.moveList, h('li', { class: 'muted small' }, t('no_moves_yet')));
      return;
    }
    // Each move is a button: it shows the position after it (replay.js).
    patch(this.moveList, g.moves.map((rec, i) => h('li', { 'data-seat': rec.seat, 'data-move': i },
      // Its name begins with what it shows (« 1 31-27 »), then who played and what it does.
      h('button', { class: 'mv', type: 'button', onclick: () => this.openReplay(this.room || room, i) },
        h('span', { class: 'mv-no' }, String(i + 1)),
        kindOf(room.game).mark(rec.seat, room.seats),
        h('span', { class: 'mv-text' }, describe(room, rec.move)),
        h('span', { class: 'sr-only' }, t('replay_show_move', { name: seatName(room, rec.seat) }))))));
    if (this.replay) this.markEntry(this.replay.index);
    else this.moveList.scrollTop = this.moveList.scrollHeight;
    this.renderMovesFoot(room);
  }

  /** Under the move list: the game's file, and the holes' numbers on the star. @param {RoomView} room */
  renderMovesFoot(room) {
    const kind = kindOf(room.game);
    const holes = load('holes') === '1';
    this.board?.svg.classList.toggle('show-holes', holes);
    this.replay?.board.svg.classList.toggle('show-holes', holes);
    patch(this.movesFoot,
      h('p', { class: 'muted small' }, t(kind.notationHelp)),
      kind.holes
        ? h('button', { class: 'btn ghost small', type: 'button', 'aria-pressed': String(holes), 'data-action': 'holes',
          onclick: () => {
            save('holes', holes ? null : '1');
            this.renderMovesFoot(room);
          } }, t('show_holes'))
        : null,
      h('a', { class: 'btn ghost small', href: `/api/rooms/${room.code}/download`, download: '', 'data-testid': 'download' },
        t(kind.download)));
  }

  /**
   * The one result card (issue 23): the outcome in the reader's grammar (« Vous avez gagné »,
   * « Bo a gagné »), the places once, the reason, then « Rejouer », « Revoir la partie »,
   * « Télécharger ». The players' card and strip step aside while it is shown.
   * @param {RoomView} room
   */
  renderResult(room) {
    const g = room.game_view;
    const o = g && g.outcome;
    if (!o || room.status !== 'finished' || room.solitaire) {
      this.result.hidden = true;
      return;
    }
    this.result.hidden = false;
    const kind = kindOf(room.game);
    const order = room.seats.map((s) => ({ s, p: o.places[s.seat] })).sort((a, b) => (a.p ?? 99) - (b.p ?? 99));
    let title;
    if (o.kind === 'draw') title = t('result_draw');
    else if (o.kind === 'abandoned') title = t('result_abandoned');
    else if (room.you !== null && o.places[room.you] === 1) title = t('you_won');
    else {
      const w = order.find((x) => x.p === 1);
      title = w ? t('result_win', { name: seatName(room, w.s.seat) }) : t('result_title');
    }
    const me = room.you !== null ? room.seats[room.you] : null;
    const others = room.seats.filter((s) => s.kind === 'human' && s.seat !== room.you);
    // A seat a CPU plays for its absent person is ready: not waited for.
    const gone = others.filter((s) => !s.online && !s.stand_in);
    const waiting = others.filter((s) => s.online && !s.ready);
    /** @type {HTMLElement[]} */
    const rematch = [];
    if (me) {
      // Without them: a CPU plays their seats until they come back, or (the host) back to the lobby with their seats free (away.js).
      if (gone.length) rematch.push(...rematchWithout(room, gone.map((s) => ({ ...s, name: seatName(room, s.seat) })), this.act.rematchWithout));
      if (waiting.length) rematch.push(h('p', { class: 'muted small' }, t('rematch_waiting', { names: nameList(waiting.map((s) => seatName(room, s.seat))) })));
      // « Tout le monde est là » only when nobody is missing or still to answer.
      if (!gone.length && !waiting.length && others.length) rematch.push(h('p', { class: 'good small' }, t('rematch_all_here')));
    }
    const reason = resultReason(room, o);
    patch(this.result,
      h('h2', { 'data-testid': 'result-title' }, title),
      reason ? h('p', { class: 'result-reason', 'data-testid': 'result-reason' }, reason) : null,
      h('ol', { class: 'places' }, order.map(({ s, p }) => h('li', { class: s.seat === room.you ? 'mine' : null, 'data-seat': s.seat },
        h('span', { class: 'place' }, p === null || p === undefined ? t('no_result') : placeText(room, p)),
        kind.mark(s.seat, room.seats),
        h('span', { class: 'place-name' }, seatName(room, s.seat), s.seat === room.you ? h('span', { class: 'tag you' }, t('seat_you')) : null),
        s.kind === 'human' && s.ready ? h('span', { class: 'tag good' }, t('rematch_ready_n')) : null))),
      h('div', { class: 'result-actions' },
        me
          ? me.ready
            ? h('button', { class: 'btn big', type: 'button', 'data-action': 'rematch-cancel', onclick: () => this.act.rematch(false) }, t('rematch_ready'))
            : h('button', { class: 'btn primary big', type: 'button', 'data-action': 'rematch', onclick: () => this.act.rematch(true) }, t('rematch'))
          : null,
        h('button', { class: 'btn', type: 'button', 'data-action': 'review', onclick: () => this.review() }, t('result_review')),
        h('a', { class: 'btn', href: `/api/rooms/${room.code}/download`, download: '', 'data-action': 'download' }, t('download_short'))),
      rematch.length ? h('div', { class: 'rematch' }, rematch) : null,
      h('a', { class: 'small', href: '/', 'data-action': 'new-game' }, t('new_game')));
  }

  /** « Revoir la partie »: the replay from the start, played by itself, the board in view. */
  review() {
    const replay = this.replay;
    if (!replay) return;
    replay.show(0);
    replay.toggle();
    this.boardBox.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }
}

/**
 * Why the game ended, in the reader's grammar; nothing when a two-player game was simply played to
 * its end (the title says it all).
 * @param {RoomView} room @param {import('./api.js').Outcome} o
 */
function resultReason(room, o) {
  const loser = room.seats.length === 2 ? room.seats.find((s) => o.places[s.seat] === 2) : undefined;
  if (o.reason === 'finished' && room.seats.length === 2) return null;
  if (loser && (o.reason === 'resignation' || o.reason === 'no_moves' || o.reason === 'time')) {
    return tw(`reason_${o.reason}_by`, loser.seat === room.you, { name: seatName(room, loser.seat) });
  }
  return reasonText(o.reason);
}

/** « en attente depuis … » for turn-by-turn games. @param {RoomView} room */
function since(room) {
  const since = room.game_view && room.game_view.turn_since;
  if (room.settings.rhythm !== 'turn' || typeof since !== 'number') return null;
  return h('span', { class: 'status-note status-since', 'data-testid': 'turn-since', title: new Date(since).toLocaleString() }, t('waiting_since', { when: at(since) }));
}

/** Tells a player whose page is in the background that it is their turn (if they asked). @param {RoomView} room */
function notifyTurn(room) {
  if (!document.hidden || load('notify') !== '1' || !('Notification' in window) || Notification.permission !== 'granted') return;
  try {
    const n = new Notification('Dames', { body: t('notify_body', { code: room.code }), tag: 'dames-' + room.code, icon: '/img/favicon.svg' });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch {
    /* some mobile browsers only notify from a service worker: the tab title still says ● */
  }
}

/** A move in readable notation: FMJD squares, or the star's hole numbers (notation.js). @param {RoomView} room @param {any} m */
function describe(room, m) {
  return kindOf(room.game).text(m);
}

/** @param {RoomView} room */
function live(room) {
  return room.status === 'playing';
}

/** A seat's colour's name in the player list (draughts: « Blancs »), if the game has colours. @param {import('./kinds.js').GameKind} kind @param {Seat} seat */
function colorLabel(kind, seat) {
  const name = kind.colorName(seat);
  return name ? h('span', { class: 'muted small' }, t(name)) : null;
}

/** « Le CPU refuse la nulle » or « Bo refuse la nulle ». @param {RoomView} room @param {number} seat */
function drawDeclinedText(room, seat) {
  const s = room.seats[seat];
  return s && s.kind === 'cpu' ? t('draw_declined_cpu') : t('draw_declined_by', { name: seatName(room, seat) });
}

/** A place as shown: « 2ᵉ », or « nulle » for both sides of a drawn game. @param {RoomView} room @param {number} p */
function placeText(room, p) {
  const o = room.game_view && room.game_view.outcome;
  return o && o.kind === 'draw' ? t('draw_place') : place(p);
}

/** @param {RoomView} room @param {number} seat */
export function seatName(room, seat) {
  const s = room.seats[seat];
  if (!s) return '?';
  if (s.kind === 'cpu') return t('seat_cpu', { level: t(/** @type {any} */ ('level_' + (s.level || 'normal'))) });
  return s.name || '?';
}

/** Places known so far: the outcome's, or the order of finishing during the game. @param {RoomView} room */
function currentPlaces(room) {
  const g = room.game_view;
  /** @type {(number|null|undefined)[]} */
  const out = [];
  if (!g) return out;
  if (g.outcome) return g.outcome.places;
  let n = 0;
  for (const rec of g.moves) for (const s of rec.finished || []) out[s] = ++n;
  return out;
}
