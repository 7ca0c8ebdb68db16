// The interface's words, in every language of js/locales/: each language's whole file (the
// list is js/locales/index.js), registered with js/words.js (the machinery: t(), setLang(),
// applyStatic(), ...), which this module passes on, so the game's pages import everything
// from here. See js/words.js.

import { LANGS, addWords, applyStatic, detectLang, formatNumber, getLang, has, keysOf, langName, locale, onLangChange, plurals, setLang, t, tOr } from "./words.js";
import * as LOCALES from "./locales/index.js";

export { LANGS, addWords, applyStatic, detectLang, formatNumber, getLang, has, keysOf, langName, locale, onLangChange, plurals, setLang, t, tOr };

addWords(LOCALES);
