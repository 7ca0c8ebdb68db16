// What the host's page and a friend's share: the network settings (relays, STUN), the
// person's name, the dialog every step of "play with friends" is shown in, and the views as
// they travel (what leaves the host's worker for a friend).

import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import * as store from "../storage.js";
import { DEFAULT_RELAYS, DEFAULT_STUN, parseRelays } from "./net.js";
import { cleanName } from "./referee.js";

const STUN_RE = /^(stun|stuns|turn|turns):[^\s]{1,200}$/;
const TURN_RE = /^turns?:[^\s]{1,200}$/;
/** The most characters a TURN username or credential may have. */
export const TURN_TEXT_MAX = 128;
const TEXT_RE = /^[^\u0000-\u001f\u007f]+$/;

/** What is wrong with a TURN server's address, username and credential (the words of the
 * setting), or "" when they are fine; an empty address is no TURN server (fine). */
export function turnProblem(url, user, credential) {
  if (!url) return "";
  if (!TURN_RE.test(url)) return t("friends.turn.bad.url");
  if (!user || !credential) return t("friends.turn.bad.missing");
  if (user.length > TURN_TEXT_MAX || credential.length > TURN_TEXT_MAX) return t("friends.turn.bad.long", { n: TURN_TEXT_MAX });
  if (!TEXT_RE.test(user) || !TEXT_RE.test(credential)) return t("friends.turn.bad.text");
  return "";
}

/** The TURN setting as kept: {url, user, credential, relayOnly, share}. */
function savedTurn() {
  const k = store.loadPrefs().friendsTurn;
  const kept = k && typeof k === "object" ? k : {};
  const text = (x) => (typeof x === "string" ? x : "");
  const out = { url: text(kept.url), user: text(kept.user), credential: text(kept.credential), relayOnly: kept.relayOnly === true, share: kept.share === true };
  if (turnProblem(out.url, out.user, out.credential)) Object.assign(out, { url: "", user: "", credential: "" });
  return out;
}

// the review's requests, a name as a page sends it, what of a reply travels: the referee's
export { REVIEW, REVIEW_ARGS, cleanName, travelling } from "./referee.js";

/** {relays, stun, turn, relayOnly, shareTurn, linkProblem}: the link's `relays` / `stun` /
 * `turn` (with `turn_user`, `turn_credential`) / `ice` first, else the settings, else the
 * defaults. `turn`: {urls, username, credential} or null; `relayOnly`: "hide my address"
 * (`ice=relay`); `shareTurn`: the host shares its TURN server in the invitation (the setting
 * only); `linkProblem`: why the link's TURN server was not taken ("" when it was, or none). */
export function netSettings(search = location.search) {
  const q = new URLSearchParams(search);
  const saved = store.loadPrefs().friends || {};
  let relays = q.has("relays") ? parseRelays(q.get("relays")) : parseRelays(Array.isArray(saved.relays) ? saved.relays.join(",") : "");
  if (!relays.length) relays = DEFAULT_RELAYS;
  let stun = q.has("stun") ? q.get("stun").trim() : typeof saved.stun === "string" ? saved.stun : DEFAULT_STUN;
  if (stun && !STUN_RE.test(stun)) stun = DEFAULT_STUN;
  const kept = savedTurn();
  let turn = kept.url ? { urls: kept.url, username: kept.user, credential: kept.credential } : null;
  let linkProblem = "";
  if (q.has("turn")) {
    const [url, user, credential] = ["turn", "turn_user", "turn_credential"].map((k) => (q.get(k) || "").trim());
    linkProblem = turnProblem(url, user, credential);
    if (!linkProblem) turn = url ? { urls: url, username: user, credential } : null;
  }
  const ice = q.get("ice");
  const relayOnly = ice === "relay" ? true : ice === "all" ? false : kept.relayOnly;
  return { relays, stun, turn, relayOnly, shareTurn: kept.share, linkProblem };
}

/** The settings part of a dialog: the relays, the STUN server, the TURN server (its username
 * and credential, whether only it may carry this page's traffic, whether the invitation shares
 * it: not on a friend's page, `inviting` false, which has no invitation to give), kept in the
 * preferences. Nothing is kept while one of them is wrong (the note says which). */
export function settingsSection(current, onSaved, inviting = true) {
  styles();
  const relays = h("textarea", { id: "friends-relays", rows: 3, value: current.relays.join("\n") });
  const field = (id, value, type = "text") => h("input", { id, type, value, attrs: { autocomplete: "off", spellcheck: "false" } });
  const stun = field("friends-stun", current.stun);
  // what this page uses now (a link's TURN server and "hide my address" first: kept if saved)
  const turn = current.turn || { urls: "", username: "", credential: "" };
  const turnUrl = field("friends-turn", turn.urls);
  const turnUser = field("friends-turn-user", turn.username);
  const turnCredential = field("friends-turn-credential", turn.credential, "password");
  const box = (id, checked) => {
    const el = h("input", { id, type: "checkbox" });
    el.checked = checked;
    return el;
  };
  const relayOnly = box("friends-relay-only", !!current.relayOnly);
  const share = box("friends-share-turn", !!current.shareTurn);
  const shared = () => (inviting ? share.checked : !!current.shareTurn); // kept as it was where not offered
  const note = h("p", { class: "muted small", attrs: { role: "status" } });
  const save = () => {
    const list = parseRelays(relays.value);
    const s = stun.value.trim();
    const [url, user, credential] = [turnUrl.value.trim(), turnUser.value.trim(), turnCredential.value];
    const problems = [];
    if (!list.length || (s && !STUN_RE.test(s))) problems.push(t("friends.settings.bad"));
    const turnBad = turnProblem(url, user, credential);
    if (turnBad) problems.push(turnBad);
    if (problems.length) {
      note.textContent = problems.join(" ");
      note.classList.add("form-error");
      return;
    }
    note.classList.remove("form-error");
    store.updatePrefs({ friends: { relays: list, stun: s },
      friendsTurn: { url, user: url ? user : "", credential: url ? credential : "", relayOnly: relayOnly.checked, share: shared() } });
    note.textContent = t("friends.settings.saved");
    onSaved({ relays: list, stun: s, turn: url ? { urls: url, username: user, credential } : null, relayOnly: relayOnly.checked,
      shareTurn: shared(), linkProblem: "" });
  };
  const check = (input, text) => h("div", { class: "opt opt-bool" }, h("label", { class: "check", attrs: { for: input.id } }, input, h("span", { text })));
  return h("details", { class: "friends-settings" },
    h("summary", { text: t("friends.settings") }),
    h("p", { class: "muted small", text: t("friends.settings.help") }),
    h("label", { attrs: { for: "friends-relays" }, text: t("friends.relays") }), relays,
    h("label", { attrs: { for: "friends-stun" }, text: t("friends.stun") }), stun,
    h("p", { class: "muted small", text: t("friends.turn.help") }),
    h("label", { attrs: { for: "friends-turn" }, text: t("friends.turn") }), turnUrl,
    h("label", { attrs: { for: "friends-turn-user" }, text: t("friends.turn.user") }), turnUser,
    h("label", { attrs: { for: "friends-turn-credential" }, text: t("friends.turn.credential") }), turnCredential,
    check(relayOnly, t("friends.turn.relay_only")),
    inviting ? check(share, t("friends.turn.share")) : "",
    h("div", { class: "buttons" }, h("button", { class: "btn", type: "button", text: t("friends.settings.save"), on: { click: save } })),
    note);
}

/** What keeps a page from its peers, in words with what to try (openRoom's `health()`), or "". */
export function connectionWords(health) {
  if (!health || !health.problem) return "";
  switch (health.problem) {
    case "relays": return t("friends.problem.relays");
    case "turn_auth": return t("friends.problem.turn_auth", { url: health.url });
    case "turn_unreachable": return t("friends.problem.turn_unreachable", { url: health.url });
    case "turn_full": return t("friends.problem.turn_full", { url: health.url });
    case "relay_only": return t("friends.problem.relay_only");
    case "no_webrtc": return t("friends.problem.no_webrtc");
    case "relay_busy": return t("friends.problem.relay_busy");
    default:
      return t(health.relayOnly && !health.turn ? "friends.problem.relay_only" : health.turn ? "friends.problem.no_path_turn" : "friends.problem.no_path");
  }
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

/** The dialog of "play with friends" (made once), emptied: returns its body. `onEscape`: what
 * Escape does (the dialog's Cancel). */
export function dialog(onEscape = null) {
  styles();
  let d = document.getElementById("friends-dialog");
  if (!d) {
    d = h("dialog", { id: "friends-dialog", class: "sheet", attrs: { "aria-labelledby": "friends-title" } }, h("div", { id: "friends-body", class: "panel" }));
    // Escape: the dialog's own way out (its Cancel), never a page left without one
    d.addEventListener("cancel", (e) => {
      e.preventDefault();
      if (typeof d.onEscape === "function") d.onEscape();
    });
    d.addEventListener("input", (e) => {
      const el = e.target;
      if (el && el.id && el.type === "checkbox") typed.set(el.id, { checked: el.checked });
      else if (el && el.id && "value" in el) typed.set(el.id, el.value);
    });
    document.body.append(d);
  }
  d.onEscape = onEscape;
  if (!d.open) d.showModal();
  const body = document.getElementById("friends-body");
  const active = document.activeElement;
  const focus = active && active.id && body.contains(active)
    ? { id: active.id, start: active.selectionStart, end: active.selectionEnd } : null;
  // a part the person opened (the settings) stays open
  const opened = [...body.querySelectorAll("details[open]")].map((el) => el.className);
  // the caller fills the body now; the typed values, the boxes ticked, the parts opened and
  // the focus come back once it has
  queueMicrotask(() => {
    for (const [id, value] of typed) {
      const el = document.getElementById(id);
      if (!el || !body.contains(el)) continue;
      if (typeof value === "object") el.checked = value.checked;
      else if ("value" in el && el.value !== value) el.value = value;
    }
    for (const el of body.querySelectorAll("details")) if (opened.includes(el.className)) el.open = true;
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
  if (d) d.onEscape = null;
  if (d && d.open) d.close();
}

/** The people at the table, who is connected and whose turn it is: a line beside the table
 * (on a phone, read out only: the others' seats on the table carry the same dots).
 * `problem` ({text, detail, button}): what keeps the friends away, under the names. */
let code = null; // the table's code at a fair table (./fair.js), once every device's key is in

/** The line of the fair table's code under the names (null: none; the bar drawn again now). */
export function setTableCode(text) {
  code = text;
  const bar = document.getElementById("friends-bar");
  const li = bar && bar.querySelector(".fair-code");
  if (li && text) li.firstChild.textContent = text;
  else if (li) li.remove();
  else if (bar && text) bar.append(codeLine());
}

function codeLine() {
  return h("li", { class: "fair-code" }, h("span", { id: "fair-code", attrs: { role: "status" }, text: code }));
}

export function peopleBar(people, turn, problem = null) {
  let bar = document.getElementById("friends-bar");
  if (!bar) {
    styles();
    bar = h("ul", { id: "friends-bar", class: "friends-bar", attrs: { "aria-label": t("friends.people") } });
    document.getElementById("app-main").prepend(bar);
  }
  // a button of the line focused (End the deal now, Deal the next one): the focus stays on it
  // once drawn again, or goes to the line's new button, or to the hand; never to <body>
  const had = bar.contains(document.activeElement) ? document.activeElement.id || "-" : null;
  clear(bar);
  people.forEach((p, i) => {
    if (!p) return;
    const state = p.kind === "bot" ? "bot" : p.connected ? "on" : p.away ? "away" : "off";
    // connected through the relay fallback: the same dot, and the words say it is slower
    const relay = state === "on" && !!p.relay;
    const words = t(relay ? "friends.state.relay" : `friends.state.${state}`);
    // the others' seats on the table show it too, the dot and its words: on a phone, where the
    // line has no room, they alone
    const box = document.querySelector(`#app-main .seat[data-seat="${i}"]`);
    if (box) {
      let label = box.querySelector(".link-state");
      if (state === "bot") {
        delete box.dataset.link;
        if (label) label.remove();
      } else {
        box.dataset.link = state;
        const head = box.querySelector(".seat-head");
        if (!label && head) {
          label = h("span", { class: "link-state" });
          head.append(label);
        }
        if (label) label.textContent = words;
      }
    }
    bar.append(h("li", { class: ["person", state, i === turn ? "turn" : ""], data: { seat: i, state, ...(relay ? { medium: "relay" } : {}) } },
      h("span", { class: "dot", attrs: { "aria-hidden": "true" } }),
      h("span", { text: p.name || t("new.seat", { n: i + 1 }) }),
      h("span", { class: "state", text: words })));
  });
  if (problem) bar.append(h("li", { class: "problem", attrs: { role: "alert", title: problem.detail || "" } }, h("span", { text: problem.text }), problem.button));
  if (code) bar.append(codeLine());
  bar.hidden = false;
  const next = had && ((had !== "-" && document.getElementById(had)) || bar.querySelector("button") || document.querySelector("#app-main .mine .hand"));
  if (next) next.focus({ preventScroll: true });
}

export function hideBar() {
  setTableCode(null);
  const bar = document.getElementById("friends-bar");
  if (bar) bar.hidden = true;
  // a table without friends next: no seat keeps its dot
  for (const box of document.querySelectorAll("#app-main .seat[data-link]")) delete box.dataset.link;
  for (const label of document.querySelectorAll("#app-main .seat .link-state")) label.remove();
}
