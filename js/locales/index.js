// The page's languages: one line a language, its words in the file of its code beside this one
// (every key of en.js, the same placeholders; tests/test_locales.py checks them). Adding a
// language is adding its file and its line here: the menus list it by its own name (its
// "lang.name"), the browser's language picks it on a first visit, the build gives the engine's
// bridge the same list (py/briscola/languages.py) and the embed's poster its words.
export { default as en } from "./en.js";
export { default as es } from "./es.js";
export { default as hr } from "./hr.js";
export { default as it } from "./it.js";
export { default as pt } from "./pt.js";
export { default as sl } from "./sl.js";
