// Every text of the interface, French and English, filled in with sample names (Alice, Hugo, Bo,
// Zoé, a CPU) and both numbers (1 and 2): French elides « de » before a vowel or a mute h and
// contracts it before « CPU », a text that follows a number has its singular and plural, a text
// about the reader has its « vous » form in both languages, nothing is left unfilled.
import { assert, newPerson } from '../lib.mjs';

export const NAMES = ['Alice', 'Hugo', 'Bo', 'Zoé', 'CPU Facile'];

/** Numbers other than the one that decides singular or plural ({n}): limits, a board's pieces, a room's seats — never 1. */
export const NUMBERS = ['max', 'min', 'total', 'pieces', 'players', 'count'];

/** Texts whose number is never 1 (kept in one form), and why. */
export const ALWAYS_MANY = {
  crossed: 'the crossing takes at least 27 moves',
  best_was: 'a best crossing has at least 27 moves',
  over_n: 'over_1 says one',
};

test('texts: every French and English text, with sample names and both numbers', async ({ base, browser, track }) => {
  const { ctx, page } = await newPerson(browser);
  track(ctx);
  await page.goto(base + '/rules');
  await page.locator('.page-rules h1').waitFor();
  const problems = await page.evaluate(textProblems, { NAMES, ALWAYS_MANY, NUMBERS, root: '' });
  assert(problems.length === 0, `texts:\n${problems.join('\n')}`);
});

/** Runs in the page (or in Node, `root` a file URL): every text's problems. */
export async function textProblems({ NAMES, ALWAYS_MANY, NUMBERS, root }) {
    const i18n = await import(root + '/js/i18n.js');
    const later = await import(root + '/js/texts-later.js');
    const solo = await import(root + '/js/solitaire.js');
    const analysis = await import(root + '/js/texts-analysis.js');
    // The room screen's texts, merged as the room screen merges them when it loads.
    const away = await import(root + '/js/texts-away.js');
    i18n.addTexts(away.FR, away.EN);
    const out = [];
    for (const lang of ['fr', 'en']) {
      i18n.setLang(lang);
      const other = lang === 'fr' ? 'en' : 'fr';
      const tables = [
        ['', i18n.textTable(lang), i18n.textTable(other)],
        ['later.', later.FR && lang === 'fr' ? later.FR : later.EN, lang === 'fr' ? later.EN : later.FR],
        ['solo.', solo.TEXTS[lang], solo.TEXTS[other]],
        ['analysis.', lang === 'fr' ? analysis.FR : analysis.EN, lang === 'fr' ? analysis.EN : analysis.FR],
      ];
      for (const [prefix, table, twin] of tables) {
        for (const [key, raw] of Object.entries(table)) {
          const where = `${lang} ${prefix}${key}`;
          if (!(key in twin)) out.push(`${where}: no ${other} text`);
          if (/_one$/.test(key) && !(key.replace(/_one$/, '_other') in table)) out.push(`${where}: no plural`);
          if (/\(s\)|·e\b|\(e\)/.test(raw)) out.push(`${where}: a bracketed ending (${raw})`);
          const numeric = [...raw.matchAll(/\{(n|d)\} (\p{L}+)/gu)].filter(([, , w]) => w.length > 1 && !['sur', 'of', 'à', 'to', 'de'].includes(w));
          if (numeric.length && !/_(one|other)$/.test(key) && !(key in ALWAYS_MANY)) out.push(`${where}: a number before a word without singular and plural (${raw})`);
          const places = [...raw.matchAll(/\{(?:de )?(\w+)\}/g)].map((m) => m[1]);
          for (const name of NAMES) {
            for (const n of [1, 2]) {
              if (/_one$/.test(key) && n !== 1) continue;
              if (/_other$/.test(key) && n === 1 && !(key.replace(/_other$/, '_one') in table)) continue;
              if (/_other$/.test(key) && n === 1) continue;
              const params = {};
              for (const p of places) params[p] = p === 'n' || p === 'd' ? (/_other$/.test(key) || key in ALWAYS_MANY ? 27 : n) : NUMBERS.includes(p) ? 27 : name;
              const s = i18n.fillIn(raw, params);
              if (/\{(de )?\w+\}/.test(s)) out.push(`${where}: left unfilled (${s})`);
              if (lang === 'fr') {
                if (/\b(de|que|le|la|ne|je|se|me|te) (?=[aeiouyhàâéèêîôûAEIOUYHÉ])/u.test(s) && /\{de /.test(raw)) out.push(`${where}: no elision (${s})`);
                if (/\bde CPU\b/.test(s)) out.push(`${where}: « de CPU » (${s})`);
              }
              if (!(key in ALWAYS_MANY) && /\b1 (?!s\b)\p{L}+s\b/u.test(s) && !/ 1 (sur|of) /.test(s)) out.push(`${where}: plural after 1 (${s})`);
            }
          }
          // A name after « de » written in the text itself, not through {de …}.
          if (lang === 'fr' && /\bde \{(name|names|who)\}/.test(raw)) out.push(`${where}: « de {name} » without elision`);
        }
      }
    }
    // A text of a module's table that another table overrides would never be shown.
    for (const file of ['texts', 'texts-play', 'texts-replay', 'texts-away', 'texts-clock', 'texts-online', 'texts-public']) {
      const mod = await import(`${root}/js/${file}.js`);
      for (const [lang, sub] of [['fr', mod.FR], ['en', mod.EN]]) {
        const table = i18n.textTable(lang);
        for (const [key, raw] of Object.entries(sub)) {
          const want = lang === 'fr' ? i18n.frTypo(raw) : raw;
          if (table[key] !== want && table[key] !== raw) out.push(`${lang} ${file}.${key}: overridden by another text (${table[key]})`);
        }
      }
    }
    i18n.setLang('fr');
    // The helpers themselves.
    const checks = [[i18n.de('Alice'), 'd’Alice'], [i18n.de('Hugo'), 'd’Hugo'], [i18n.de('Bo'), 'de Bo'], [i18n.de('Zoé'), 'de Zoé'],
      [i18n.de('CPU Facile'), 'du CPU Facile'], [i18n.t('turn_other', { name: 'Alice' }), 'Au tour d’Alice'],
      [i18n.tn('rematch_without', 1, { names: 'Chloé' }), 'Rejouer sans Chloé (un CPU à sa place)'],
      [i18n.tn('rematch_without', 2, { names: i18n.nameList(['Bo', 'Zoé']) }), 'Rejouer sans Bo et Zoé (des CPU à leur place)'],
      [i18n.tw('finished_toast', true, { name: 'Zoé' }), 'Vous avez terminé\u202F!'], [i18n.tw('finished_toast', false, { name: 'Zoé' }), 'Zoé a terminé\u202F!']];
    for (const [got, want] of checks) if (got !== want) out.push(`helper: ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
    return [...new Set(out)];
}
