// The page's dialogs that show and change what is kept: the last trick, the rule book, the
// statistics (with where they live and their export), the settings (with the person's data and
// the records set aside). Methods of js/app.js's App (mixed into it).

import { h, clear } from "./dom.js";
import { t, tOr, getLang, langName, LANGS } from "./i18n.js";
import { STYLES, deckStyle } from "./cards.js";
import * as store from "./storage.js";
import { cardFace } from "./table.js";
import { renderStats } from "./summary.js";
import { renderRules } from "./rules-page.js";
import { SPEEDS } from "./play.js";
import * as tips from "./tips.js";
import { cardNamesFigure } from "./names.js";
import { dataSection, asideSection } from "./data.js";
import { loadDecks, inSight } from "./later.js";

const $ = (id) => document.getElementById(id);

export class Dialogs {
  showLastTrick() {
    const v = this.state && this.state.view;
    const dialog = $("trick-dialog");
    const body = clear($("trick-body"));
    if (!v || !v.tricks.length) {
      body.append(h("p", { text: t("table.nolasttrick") }));
    } else {
      const last = v.tricks[v.tricks.length - 1];
      const names = this.names();
      body.append(h("h2", { text: t("table.lasttrick.title", { name: names[last.winner], points: last.points }) }));
      const row = h("div", { class: "review" });
      for (const p of last.plays) {
        row.append(h("figure", { class: p.seat === last.winner ? "won" : "" },
          h("div", { class: "slot review-card" }, cardFace(p.card, this.style(), getLang(), "r")),
          h("figcaption", { text: names[p.seat] })));
      }
      body.append(row);
    }
    body.append(h("div", { class: "buttons" }, h("button", { class: "btn primary", type: "button", text: t("menu.close"), on: { click: () => dialog.close() } })));
    dialog.showModal();
  }

  // ---- other dialogs -----------------------------------------------------------------------
  openRules() {
    this.fillRules();
    const dialog = $("rules-dialog");
    if (!dialog.open) dialog.showModal();
    // the top first: the focus on the title, not on the Close button at the end
    const title = $("rules-title");
    if (title) {
      title.tabIndex = -1;
      title.focus({ preventScroll: true });
    }
    dialog.scrollTop = 0;
  }

  /** The rule book, with the names of the chosen deck's cards and the tips' entry. */
  fillRules() {
    const body = $("rules-body");
    renderRules(body);
    const cards = body.querySelector("table");
    const names = cardNamesFigure(this.style(), getLang());
    if (cards) cards.after(names);
    else body.prepend(names);
    body.append(tips.rulesEntry());
  }

  openStats() {
    const { stats, setAside, kept } = store.checkedStats();
    if (setAside.length) {
      this.notice(t(kept === false ? "notice.badstats.left" : "notice.badstats", { n: setAside.length }), 12000);
    }
    renderStats($("stats-body"), stats, () => {
      if (window.confirm(t("stats.reset.confirm"))) {
        store.resetStats();
        this.openStats();
      }
    });
    $("stats-body").querySelector(".buttons").before(this.coach.statsSection(), this.coach.puzzleSection(),
      this.coach.historySection(() => {
        $("stats-dialog").close(); // the review in its place, and the statistics again once it is put away
        queueMicrotask(() => $("review-dialog").addEventListener("close", () => this.openStats(), { once: true }));
      }), dataSection(this, "stats")); // where it lives, its export
    if (!$("stats-dialog").open) $("stats-dialog").showModal();
  }

  openSettings() {
    inSight(loadDecks); // a deck picked here is drawn at once
    const box = clear($("settings-body"));
    box.append(h("h2", { text: t("settings.title") }));
    const speed = h("select", { id: "set-speed" });
    for (const k of Object.keys(SPEEDS)) speed.append(h("option", { value: k, text: t(`speed.${k}`) }));
    speed.value = this.prefs.speed;
    speed.addEventListener("change", () => { this.prefs.speed = speed.value; store.updatePrefs({ speed: speed.value }); this.applyMotion(); });
    const style = h("select", { id: "set-style" });
    for (const s of STYLES) style.append(h("option", { value: s, text: t(`style.${s}`) }));
    const deck = this.state && this.state.view.rules.deck;
    const forced = deckStyle(deck);
    style.value = forced || this.style();
    style.disabled = !!forced;
    style.addEventListener("change", async () => {
      if (!(await this.deckFor(style.value))) { // offline, never fetched: said, the deck as it was
        style.value = this.style();
        return;
      }
      this.prefs.style = style.value;
      store.updatePrefs({ style: style.value });
      if (this.meta) {
        this.meta.style = style.value;
        this.ask("set_meta", { meta: this.meta }).catch(() => {});
      }
      this.draw();
    });
    const lang = h("select", { id: "set-lang" }, LANGS.map((l) => h("option", { value: l, text: langName(l), attrs: { lang: l } })));
    lang.value = getLang();
    lang.addEventListener("change", () => this.setLanguage(lang.value));
    const reasons = h("input", { type: "checkbox", id: "set-reasons" });
    reasons.checked = this.prefs.reasons;
    reasons.addEventListener("change", () => { this.prefs.reasons = reasons.checked; store.updatePrefs({ reasons: reasons.checked }); if (!reasons.checked) { this.hintText = ""; this.draw(); } });
    const points = h("input", { type: "checkbox", id: "set-points" });
    points.checked = this.prefs.showPoints;
    points.addEventListener("change", () => { this.prefs.showPoints = points.checked; store.updatePrefs({ showPoints: points.checked }); this.draw(); });
    const tracker = h("input", { type: "checkbox", id: "set-tracker" });
    tracker.checked = this.coach.trackerOn;
    tracker.addEventListener("change", () => this.coach.setTracker(tracker.checked));
    const row = (id, label, input) => h("div", { class: "field" }, h("label", { attrs: { for: id }, text: label }), input);
    box.append(
      row("set-lang", t("settings.lang"), lang),
      row("set-speed", t("settings.speed"), speed),
      row("set-style", t("settings.style"), style),
      forced ? h("p", { class: "note", text: tOr(`style.forced.${deck}`, t("style.forced")) }) : "", // never null: append() would print it
      h("div", { class: "opt opt-bool" }, h("label", { class: "check", attrs: { for: "set-reasons" } }, reasons, h("span", { text: t("settings.reasons") }))),
      h("div", { class: "opt opt-bool" }, h("label", { class: "check", attrs: { for: "set-points" } }, points, h("span", { text: t("settings.points") }))),
      h("div", { class: "opt opt-bool" }, h("label", { class: "check", attrs: { for: "set-tracker" } }, tracker, h("span", { text: t("settings.tracker") }))),
      // playing with friends: the relays and STUN, with its code (js/friends/), when asked for
      h("div", { class: "field" }, h("button", { class: "btn", type: "button", id: "set-friends", text: t("friends.settings"),
        on: { click: (e) => this.withFriends((f) => e.target.replaceWith(f.settingsPanel())) } })),
      dataSection(this, "set"), // the person's data, to carry to another browser (js/data.js)
      asideSection(this), // the records set aside, each to download or remove
      h("div", { class: "buttons" }, h("button", { class: "btn primary", type: "button", text: t("menu.close"), on: { click: () => $("settings-dialog").close() } })),
    );
    if (!$("settings-dialog").open) $("settings-dialog").showModal();
  }
}
