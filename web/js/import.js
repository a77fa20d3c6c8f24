// @ts-check
/**
 * « Importer une position » (issue 14): a PDN game or a FEN position, pasted or read from a file,
 * checked by the server with the rules engine (`POST /api/draughts/position`: the position
 * reached, or a typed error told in the player's language), shown on a small board, then played
 * against the CPU or with a friend from that position (`POST /api/rooms` with `start`). The person
 * importing plays the side to move.
 */
import { ApiError, api, request } from './api.js';
import { Board } from './board.js';
import { draughtsGeometry, draughtsPieces } from './board-draughts.js';
import { fill, h, toast } from './dom.js';
import { t } from './i18n.js';
import { importErrorText, tl } from './texts-later.js';
import { askName } from './name.js';
import { loadRoom, navigate } from './router.js';
import { cpuMsOverride } from './storage.js';

/**
 * @typedef {{variant: 'international'|'brazilian'|'canadian', fen: string, initial: boolean, to_move: 'white'|'black', plies: number,
 *   board: import('./api.js').Board}} Imported
 */

/** @param {string} text @param {string} variant @returns {Promise<Imported>} */
export async function checkPosition(text, variant) {
  return /** @type {Imported} */ (await request('POST', '/api/draughts/position', { text, variant }));
}

/** Opens the import dialog. */
export function importDialog() {
  const levels = /** @type {const} */ (['facile', 'normal', 'difficile', 'expert']);
  const text = h('textarea', { name: 'position', rows: 6, spellcheck: 'false', autocomplete: 'off', 'aria-label': tl('import_text'), placeholder: 'W:W31,32,33:B18,19,K2', 'data-testid': 'import-text' });
  const file = h('input', { type: 'file', accept: '.pdn,.txt,text/plain', 'aria-label': tl('import_file'), 'data-testid': 'import-file' });
  const variant = h('select', { name: 'variant', 'aria-label': tl('import_variant') },
    ['international', 'brazilian', 'canadian'].map((v) => h('option', { value: v }, t(/** @type {any} */ ('variant_' + v)))));
  const level = h('select', { name: 'level', 'aria-label': t('level_label') },
    levels.map((l) => h('option', { value: l, selected: l === 'normal' }, t(/** @type {any} */ ('level_' + l)))));
  const result = h('div', { class: 'import-result', 'data-testid': 'import-result', 'aria-live': 'polite' });
  const preview = h('div', { class: 'import-preview' });
  /** @type {Imported|null} */
  let checked = null;
  let checkedText = '';
  const dlg = h('dialog', { class: 'dialog import-dialog', 'data-testid': 'import-dialog' });
  const close = () => {
    dlg.close();
    dlg.remove();
  };
  const check = async () => {
    const value = text.value;
    if (checked && checkedText === value + '\u0000' + variant.value) return checked;
    checked = null;
    fill(preview);
    try {
      const got = await checkPosition(value, variant.value);
      checked = got;
      checkedText = value + '\u0000' + variant.value;
      variant.value = got.variant;
      const side = t(got.to_move === 'black' ? 'black' : 'white');
      const n = (got.board.pieces || []).length;
      result.className = 'import-result good';
      fill(result,
        h('p', null, got.plies ? tl(got.plies === 1 ? 'import_ok_moves_one' : 'import_ok_moves_other', { n: got.plies, side, pieces: n }) : tl('import_ok', { side, pieces: n })),
        got.initial ? h('p', { class: 'muted small' }, tl('import_initial')) : null,
        h('p', { class: 'muted small' }, tl('import_you_play', { side })));
      const size = got.board.size || 10;
      const board = new Board(draughtsGeometry(size, got.to_move === 'black'), { onMove: () => {}, onPending: () => {}, onHint: () => {} });
      board.svg.classList.add('board-draughts', 'import-board');
      board.svg.setAttribute('aria-label', tl('import_title'));
      board.render({ pieces: draughtsPieces(got.board, () => null), moves: [], showLegal: false, confirm: false, last: null, animate: null });
      fill(preview, board.svg);
      return got;
    } catch (e) {
      result.className = 'import-result error';
      fill(result, h('p', { role: 'alert' }, e instanceof ApiError ? importErrorText(e) : String(e)));
      return null;
    }
  };
  file.addEventListener('change', async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    text.value = (await f.text()).slice(0, 12 * 1024);
    await check();
  });
  const play = async (/** @type {boolean} */ cpu) => {
    const got = await check();
    if (!got) return;
    close();
    const name = await askName();
    if (!name) return;
    /** @type {any} */
    const body = { game: 'draughts', name, settings: { rules: { variant: got.variant } }, start: got.fen };
    const ms = cpuMsOverride();
    if (ms) body.settings.cpu_ms = ms;
    if (cpu) body.cpu = { level: level.value };
    try {
      loadRoom().catch(() => {}); // fetched while the server answers
      const res = await api.createRoom(body);
      navigate(`/r/${res.code}`);
    } catch (e) {
      toast(e instanceof ApiError ? importErrorText(e) : String(e), 'error');
    }
  };
  dlg.append(h('form', { method: 'dialog', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); check(); } },
    h('h2', null, tl('import_title')),
    h('p', { class: 'muted small' }, tl('import_help')),
    h('div', { class: 'field' }, text),
    h('div', { class: 'import-row' },
      h('label', { class: 'field' }, h('span', { class: 'small' }, tl('import_file')), file),
      h('label', { class: 'field' }, h('span', { class: 'small' }, tl('import_variant')), variant)),
    h('button', { class: 'btn', type: 'submit', 'data-action': 'import-check' }, tl('import_check')),
    result,
    preview,
    h('label', { class: 'field' }, h('span', { class: 'small' }, t('level_label')), level),
    h('div', { class: 'dialog-buttons' },
      h('button', { class: 'btn', type: 'button', 'data-value': 'cancel', onclick: close }, t('cancel')),
      h('button', { class: 'btn accent', type: 'button', 'data-action': 'import-friend', onclick: () => play(false) }, tl('import_friend')),
      h('button', { class: 'btn primary', type: 'button', 'data-action': 'import-cpu', onclick: () => play(true) }, tl('import_cpu')))));
  dlg.addEventListener('cancel', (e) => {
    e.preventDefault();
    close();
  });
  document.body.append(dlg);
  dlg.showModal();
  text.focus();
}
