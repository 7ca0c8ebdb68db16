// A language's whole words, fetched when the page needs them (js/i18n.js loadLang): its file
// of js/locales/ imported. The service worker fetches such a file when a page it controls first
// asks for it, checks it against the build and keeps it (sw.js `later`), so the language works
// offline from then on. briscola.html, which fetches nothing, carries every language: its
// build bundles in place of this module one with the same exports that holds them all
// (tools/build/onefile.py, ONE_FILE_WORDS).

/** The words of `lang` (a language js/lang-names.js lists: the caller checks). */
export function importWords(lang) {
  return import(`./locales/${lang}.js`).then((m) => m.default);
}

/**
 * The language files this page fetched before a service worker controlled it (a first visit's
 * own language) asked for again through it once one does, and again when a newer build's
 * takes over: it keeps them, and the page starts in its language offline next time.
 * @param {() => Iterable<string>} langs the languages whose words the page holds
 */
export function keepOffline(langs) {
  if (typeof navigator === "undefined" || !navigator.serviceWorker || !/^https?:$/.test(location.protocol)) return;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    for (const lang of langs()) fetch(new URL(`./locales/${lang}.js`, import.meta.url)).catch(() => {});
  });
}
