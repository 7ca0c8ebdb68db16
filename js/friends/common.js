// What the host's page and a friend's share: the network settings (relays, STUN), the
// person's name, the dialog every step of "play with friends" is shown in, and the views as
// they travel (what leaves the host's worker for a friend).

import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import * as store from "../storage.js";
import { DEFAULT_RELAYS, DEFAULT_STUN, parseRelays } from "./net.js";
import { cleanName } from "./referee.js";

const STUN_RE = /^(stun|stuns|turn|turns):[^\s]{1,200}$/;

// the review's requests, a name as a page sends it, what of a reply travels: the referee's
export { REVIEW, cleanName, travelling } from "./referee.js";

/** {relays, stun}: the link's `relays` / `stun` first, else the settings, else the defaults. */
export function netSettings(search = location.search) {
  const q = new URLSearchParams(search);
  const saved = store.loadPrefs().friends || {};
  let relays = q.has("relays") ? parseRelays(q.get("relays")) : parseRelays(Array.isArray(saved.relays) ? saved.relays.join(",") : "");
  if (!relays.length) relays = DEFAULT_RELAYS;
  let stun = q.has("stun") ? q.get("stun").trim() : typeof saved.stun === "string" ? saved.stun : DEFAULT_STUN;
  if (stun && !STUN_RE.test(stun)) stun = DEFAULT_STUN;
  return { relays, stun };
}

/** The settings part of a dialog: the relays and STUN server, kept in the preferences. */
export function settingsSection(current, onSaved) {
  styles();
  const relays = h("textarea", { id: "friends-relays", rows: 3, value: current.relays.join("\n") });
  const stun = h("input", { id: "friends-stun", type: "text", value: current.stun, attrs: { autocomplete: "off", spellcheck: "false" } });
  const note = h("p", { class: "muted small", attrs: { role: "status" } });
  const save = () => {
    const list = parseRelays(relays.value);
    const s = stun.value.trim();
    if (!list.length || (s && !STUN_RE.test(s))) {
      note.textContent = t("friends.settings.bad");
      return;
    }
    store.updatePrefs({ friends: { relays: list, stun: s } });
    note.textContent = t("friends.settings.saved");
    onSaved({ relays: list, stun: s });
  };
  return h("details", { class: "friends-settings" },
    h("summary", { text: t("friends.settings") }),
    h("p", { class: "muted small", text: t("friends.settings.help") }),
    h("label", { attrs: { for: "friends-relays" }, text: t("friends.relays") }), relays,
    h("label", { attrs: { for: "friends-stun" }, text: t("friends.stun") }), stun,
    h("div", { class: "buttons" }, h("button", { class: "btn", type: "button", text: t("friends.settings.save"), on: { click: save } })),
    note);
}

/** The person's name at a table with friends (remembered). */
export function savedName() {
  const n = store.loadPrefs().friendsName;
  return typeof n === "string" ? n.slice(0, 20) : "";
}

export function saveName(name) {
  store.updatePrefs({ friendsName: cleanName(name) });
}


let sheet = null;
/** The stylesheet of these dialogs (loaded with this code, not with the page). */
function styles() {
  if (sheet) return;
  sheet = h("link", { rel: "stylesheet", href: new URL("./friends.css", import.meta.url).href });
  document.head.append(sheet);
}

// What the person typed in the dialog's fields (by id) since it opened: a redraw (a new lobby
// from the host, a friend joining) keeps it, and the field that had the focus keeps it too.
const typed = new Map();

/** The dialog of "play with friends" (made once), emptied: returns its body. */
export function dialog() {
  styles();
  let d = document.getElementById("friends-dialog");
  if (!d) {
    d = h("dialog", { id: "friends-dialog", class: "sheet", attrs: { "aria-labelledby": "friends-title" } }, h("div", { id: "friends-body", class: "panel" }));
    d.addEventListener("cancel", (e) => e.preventDefault()); // a choice is needed: its own buttons
    d.addEventListener("input", (e) => {
      const el = e.target;
      if (el && el.id && "value" in el) typed.set(el.id, el.value);
    });
    document.body.append(d);
  }
  if (!d.open) d.showModal();
  const body = document.getElementById("friends-body");
  const active = document.activeElement;
  const focus = active && active.id && body.contains(active)
    ? { id: active.id, start: active.selectionStart, end: active.selectionEnd } : null;
  // the caller fills the body now; the typed values and the focus come back once it has
  queueMicrotask(() => {
    for (const [id, value] of typed) {
      const el = document.getElementById(id);
      if (el && body.contains(el) && "value" in el && el.value !== value) el.value = value;
    }
    const el = focus && document.getElementById(focus.id);
    if (el && body.contains(el) && !body.contains(document.activeElement)) { // (not if the caller focused one)
      el.focus();
      if (typeof focus.start === "number" && typeof el.setSelectionRange === "function") {
        try { el.setSelectionRange(focus.start, focus.end); } catch { /* not a text field */ }
      }
    }
  });
  return clear(body);
}

export function closeDialog() {
  const d = document.getElementById("friends-dialog");
  typed.clear();
  if (d && d.open) d.close();
}

/** The people at the table, who is connected and whose turn it is: a line beside the table
 * (on a phone, read out only: the others' seats on the table carry the same dots).
 * `problem` ({text, detail, button}): what keeps the friends away, under the names. */
export function peopleBar(people, turn, problem = null) {
  let bar = document.getElementById("friends-bar");
  if (!bar) {
    styles();
    bar = h("ul", { id: "friends-bar", class: "friends-bar", attrs: { "aria-label": t("friends.people") } });
    document.getElementById("app-main").prepend(bar);
  }
  clear(bar);
  people.forEach((p, i) => {
    if (!p) return;
    const state = p.kind === "bot" ? "bot" : p.connected ? "on" : p.away ? "away" : "off";
    // the others' seats on the table show it too: on a phone, where the line has no room, they alone
    const box = document.querySelector(`#app-main .seat[data-seat="${i}"]`);
    if (box) {
      if (state === "bot") delete box.dataset.link;
      else box.dataset.link = state;
    }
    bar.append(h("li", { class: ["person", state, i === turn ? "turn" : ""], data: { seat: i, state } },
      h("span", { class: "dot", attrs: { "aria-hidden": "true" } }),
      h("span", { text: p.name || t("new.seat", { n: i + 1 }) }),
      h("span", { class: "sr", text: ` (${t(`friends.state.${state}`)})` })));
  });
  if (problem) bar.append(h("li", { class: "problem", attrs: { role: "alert", title: problem.detail || "" } }, h("span", { text: problem.text }), problem.button));
  bar.hidden = false;
}

export function hideBar() {
  const bar = document.getElementById("friends-bar");
  if (bar) bar.hidden = true;
  // a table without friends next: no seat keeps its dot
  for (const box of document.querySelectorAll("#app-main .seat[data-link]")) delete box.dataset.link;
}
