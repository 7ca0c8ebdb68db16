// A person's data on the page: Export and Import (Settings, Statistics), the records set aside
// (Settings), and the browser asked to keep the site's storage (persist). The file's format and
// checks are js/carry.js's; the games are the worker's (js/worker/carry.js).
//
// An import is checked whole before anything is kept: the file by readFile, then each game by
// the engine as a save is read (data_stage); the statistics and settings are written, then the
// games in one transaction (data_commit): if that fails, the statistics and settings written
// are put back. Refused at any step, nothing is changed, and the person is told why.

import { h, clear } from "./dom.js";
import { t, locale } from "./i18n.js";
import * as store from "./storage.js";
import { loadCarry, inSight } from "./later.js";
import { errorText } from "./errors.js";

const $ = (id) => document.getElementById(id);
let persistAsked = false;

/**
 * Ask the browser to keep this site's storage (not to clear it when space runs short), once a
 * page: after a finished deal counted, and on export; never at a first visit (a browser may
 * ask the person). Nothing is said either way.
 */
export async function askPersist() {
  if (persistAsked || typeof navigator === "undefined" || !navigator.storage || !navigator.storage.persist) return;
  persistAsked = true;
  try {
    if (!(await navigator.storage.persisted())) await navigator.storage.persist();
  } catch {
    // not granted, or not here: the data stays as it was kept
  }
}

function download(name, text, type = "application/json") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h("a", { attrs: { href: url, download: name, hidden: true } });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

const day = (d = new Date()) => d.toISOString().slice(0, 10);
const dateText = (ms) => new Date(ms).toLocaleString(locale(), { dateStyle: "medium", timeStyle: "short" });

/** Export: one file with the games, statistics, rating, puzzle streak and settings. */
export async function exportData(app) {
  let games, makeFile;
  try {
    ({ makeFile } = await loadCarry());
  } catch {
    app.laterFailed();
    return;
  }
  try {
    ({ games } = await app.engine.call("data_export", {}));
  } catch (err) {
    app.noticeError(err);
    return;
  }
  const file = makeFile(games, store.loadStats(), store.loadPrefs());
  download(`briscola-data-${day()}.json`, JSON.stringify(file));
  app.notice(t("data.exported", { n: file.games.length }), 8000);
  askPersist();
}

/** The file input that Import opens (one for the page). */
function fileInput(app) {
  let input = /** @type {HTMLInputElement} */ ($("data-file"));
  if (!input) {
    input = /** @type {HTMLInputElement} */ (h("input", { id: "data-file", type: "file", attrs: { hidden: true, accept: ".json,application/json", "aria-hidden": "true", tabindex: "-1" } }));
    input.addEventListener("change", () => {
      const f = input.files && input.files[0];
      input.value = "";
      if (f) importFile(app, f);
    });
    document.body.append(input);
  }
  return input;
}

/** The buttons of Export and Import, and what says where the data lives; `where` prefixes the
 * ids ("stats", "set": the two dialogs that show it). */
export function dataSection(app, where) {
  inSight(loadCarry); // in by the time Export or Import is pressed
  fileInput(app);
  return h("section", { class: "data", attrs: { "aria-labelledby": `${where}-data-title` } },
    h("h3", { id: `${where}-data-title`, text: t("data.title") }),
    h("p", { class: "muted small", id: `${where}-data-here`, text: t("data.here") }),
    h("div", { class: "buttons" },
      h("button", { class: "btn", type: "button", id: `${where}-export`, text: t("data.export"), on: { click: () => exportData(app) } }),
      h("button", { class: "btn", type: "button", id: `${where}-import`, text: t("data.import"), on: { click: () => fileInput(app).click() } })));
}

/** @returns {HTMLDialogElement} */
function dialog() {
  let d = /** @type {HTMLDialogElement} */ ($("data-dialog"));
  if (!d) {
    d = /** @type {HTMLDialogElement} */ (h("dialog", { id: "data-dialog", class: "sheet small", attrs: { "aria-labelledby": "data-dialog-title" } }, h("div", { class: "panel", id: "data-body" })));
    d.addEventListener("click", (e) => { if (e.target === d) d.close(); });
    document.body.append(d);
  }
  return d;
}

function show(parts) {
  const d = dialog();
  clear($("data-body")).append(...parts);
  if (!d.open) d.showModal();
  return d;
}

function refused(why, detail) {
  const d = show([
    h("h2", { id: "data-dialog-title", text: t("data.import.title") }),
    h("p", { id: "data-refused", role: "alert", text: t("data.refused", { why: t(`data.refused.${why}`) }) }),
    detail ? h("p", { class: "muted small", id: "data-refused-detail", text: detail }) : "",
    h("div", { class: "buttons" }, h("button", { class: "btn primary", type: "button", text: t("menu.close"), on: { click: () => d.close() } })),
  ]);
}

/** A file chosen: checked, then the person asked how to import it. */
export async function importFile(app, file) {
  if (file.size > 20_000_000) return refused("size", "");
  let text;
  try {
    text = await file.text();
  } catch (err) {
    return refused("format", String(err && err.message ? err.message : err).slice(0, 200));
  }
  let readFile;
  try {
    ({ readFile } = await loadCarry());
  } catch {
    app.laterFailed();
    return;
  }
  const read = readFile(text);
  if (read.error) return refused(read.error.why, read.error.message);
  const data = read.value;
  const deals = Object.values(data.stats).reduce((n, v) => n + v.played, 0);
  const rating = data.rating && typeof data.rating.rating === "number" ? Math.round(data.rating.rating) : null;
  const choice = (mode) => h("label", { class: "check" },
    h("input", { type: "radio", attrs: { name: "data-mode", value: mode, id: `data-${mode}`, ...(mode === "merge" ? { checked: true } : {}) } }),
    h("span", {}, h("b", { text: t(`data.import.${mode}`) }), h("br"), h("span", { class: "muted small", text: t(`data.import.${mode}.help`) })));
  const go = h("button", { class: "btn primary", type: "button", id: "data-go", text: t("data.import.go") });
  const d = show([
    h("h2", { id: "data-dialog-title", text: t("data.import.title") }),
    h("p", { id: "data-summary", text: t("data.import.summary", { games: data.games.length, deals }) }),
    rating === null ? "" : h("p", { class: "small", text: t("data.import.rating", { rating }) }),
    h("div", { class: "opt opt-bool" }, choice("merge")),
    h("div", { class: "opt opt-bool" }, choice("replace")),
    h("div", { class: "buttons" },
      h("button", { class: "btn", type: "button", text: t("new.cancel"), on: { click: () => d.close() } }), go),
  ]);
  go.addEventListener("click", async () => {
    go.disabled = true;
    const mode = /** @type {HTMLInputElement} */ (d.querySelector("input[name=data-mode]:checked")).value;
    await carryIn(app, data, mode);
  }, { once: true });
}

/** Keep what the checked file `data` holds, merged or replacing; all of it, or nothing. */
async function carryIn(app, data, mode) {
  const engine = app.engine;
  const fail = (why, err) => refused(why, err ? errorText(err) + (err.message && err.code ? ` (${String(err.message).slice(0, 200)})` : "") : "");
  try {
    await engine.call("data_cancel", {}); // nothing left staged by an import before
    for (const record of data.games) await engine.call("data_stage", { record });
  } catch (err) {
    engine.call("data_cancel", {}).catch(() => {});
    // a game the engine refused; else it could not check them now (at a table with friends, say)
    return fail(err && err.code === "bad_import" ? "damaged" : "engine", err);
  }
  const before = store.keptNow();
  const { mergeSettings, mergeStats } = await loadCarry(); // in already: importFile's
  const stats = mergeStats(store.loadStats(), data, mode);
  const prefs = mergeSettings(store.loadPrefs(), data, mode);
  if (!store.replaceStats(stats) || !store.savePrefs(prefs)) {
    store.restoreKept(before);
    engine.call("data_cancel", {}).catch(() => {});
    return fail("storage", null);
  }
  let count;
  try {
    count = await engine.call("data_commit", { mode });
  } catch (err) {
    store.restoreKept(before);
    return fail("storage", err);
  }
  app.applyPrefs(); // the settings of the file, now this page's
  const d = dialog();
  const unfinished = async () => {
    d.close();
    try {
      const list = await engine.call("games", {});
      if (list.games.length) app.offerGames(list.games);
    } catch (err) {
      app.noticeError(err);
    }
  };
  show([
    h("h2", { id: "data-dialog-title", text: t("data.import.title") }),
    h("p", { id: "data-done", role: "status", text: t("data.import.done", { n: count.added }) }),
    count.kept ? h("p", { class: "small", text: t("data.import.kept", { n: count.kept }) }) : "",
    count.skipped ? h("p", { class: "small", text: t("data.import.skipped", { n: count.skipped }) }) : "",
    h("div", { class: "buttons" },
      h("button", { class: "btn", type: "button", id: "data-games", text: t("data.import.games"), on: { click: unfinished } }),
      h("button", { class: "btn primary", type: "button", text: t("menu.close"), on: { click: () => d.close() } })),
  ]);
  askPersist();
}

// ---- the records set aside ----------------------------------------------------------------

/** Settings' list of the records set aside (the worker's saves, this page's statistics), each
 * to download or remove. Filled once the worker answers. */
export function asideSection(app) {
  const box = h("section", { class: "aside-records", attrs: { "aria-labelledby": "aside-title" } },
    h("h3", { id: "aside-title", text: t("data.aside.title") }),
    h("p", { class: "muted small", text: t("data.aside.note") }));
  const list = h("ul", { class: "aside-list", id: "aside-list" });
  box.append(list);
  const fill = async () => {
    let worker = [];
    try {
      ({ aside: worker } = await app.engine.call("aside_list", {}));
    } catch {
      worker = [];
    }
    const rows = [];
    for (const a of worker) {
      rows.push(row(t("data.aside.game", { when: a.when ? dateText(a.when) : "?" }), a.reason,
        async () => download(`briscola-set-aside-${a.key}.json`, JSON.stringify((await app.engine.call("aside_get", { key: a.key })).entry)),
        async () => { await app.engine.call("aside_remove", { key: a.key }); fill(); }));
    }
    for (const { key } of store.asideKeys()) {
      const stamp = key.replace(/^bad-\w+-/, "").replace(/T(\d\d)-(\d\d)-(\d\d)-(\d+)Z$/, "T$1:$2:$3.$4Z");
      const when = Number.isNaN(Date.parse(stamp)) ? "?" : dateText(Date.parse(stamp));
      rows.push(row(t(key.startsWith("bad-stats") ? "data.aside.stats" : "data.aside.save", { when }), "",
        async () => download(`briscola-${key}.json`, store.readAside(key) || ""),
        async () => { store.removeAside(key); fill(); }));
    }
    clear(list).append(...(rows.length ? rows : [h("li", { class: "muted small", id: "aside-none", text: t("data.aside.none") })]));
  };
  const row = (what, reason, get, remove) => h("li", { class: "aside-entry" },
    h("span", { text: what }), reason ? h("span", { class: "muted small", text: ` ${reason}` }) : "",
    h("span", { class: "buttons" },
      h("button", { class: "btn small", type: "button", text: t("data.aside.download"), on: { click: () => get().catch((e) => app.noticeError(e)) } }),
      h("button", { class: "btn small danger", type: "button", text: t("data.aside.remove"), on: { click: () => remove().catch((e) => app.noticeError(e)) } })));
  fill();
  return box;
}
