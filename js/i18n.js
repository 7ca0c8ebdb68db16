// The interface's words, in every language of js/locales/: each language's whole file,
// registered with js/words.js (the machinery: t(), setLang(), applyStatic(), ...), which this
// module passes on, so the game's pages import everything from here. See js/words.js.

import { LANGS, addWords, applyStatic, detectLang, formatNumber, getLang, has, onLangChange, plurals, setLang, t, tOr } from "./words.js";
import it from "./locales/it.js";
import en from "./locales/en.js";

export { LANGS, addWords, applyStatic, detectLang, formatNumber, getLang, has, onLangChange, plurals, setLang, t, tOr };

// One file a language in js/locales/: adding a language is adding its file and its line here.
addWords({ it, en });
