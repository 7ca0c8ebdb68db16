// The new-game panel: variant, players and seats, deck style, language, match format and
// every house rule, each with a one-line explanation. The engine validates the options
// (`check_rules`); the panel only collects them and remembers the last choices.

import { h, clear } from "./dom.js";
import { t, tOr, getLang, langName, LANGS } from "./i18n.js";
import { errorText } from "./errors.js";
import { STYLES, deckStyle } from "./cards.js";

// Options shown as house rules, in this order (docs/rules.md §10 and §11, the deck's among them).
const HOUSE = ["mode", "deck", "ranking", "southern", "natural_three", "removed_two", "removed", "hand_cards",
  "double", "rebury", "exchange_two", "exchange_seven", "exchange_brisca", "partner_view", "signals", "open_hands", "teams"];
const MATCH = ["match", "drawn_deal"];
const CHIAMATA = ["mode", "auction", "raise_after_two", "multipliers", "points_multipliers", "carichi",
  "forced_call", "deck", "ranking", "southern", "natural_three", "match_deals", "match_target"];
// Options of one auction only: shown with that auction, or while changed (so they can be undone).
const AUCTION_ONLY = { raise_after_two: "rank", multipliers: "rank", points_multipliers: "points" };

export function defaultSeats(n, old = []) {
  const seats = [];
  for (let i = 0; i < n; i++) {
    if (old[i]) seats.push({ ...old[i] });
    else seats.push(i === 0 ? { kind: "human", name: "" } : { kind: "bot", level: "" });
  }
  return seats;
}

/**
 * panel = new NewGamePanel(dialog, {catalog, engine, onStart(config), onCancel(), prefs})
 * config = {variant, rules, seats, style, lang, seed}
 */
export class NewGamePanel {
  constructor(dialog, opts) {
    this.dialog = dialog;
    this.opts = opts;
    this.catalog = opts.catalog;
    this.optionInfo = new Map(this.catalog.options.map((o) => [o.name, o]));
    this.variants = this.catalog.variants;
    this.levels = this.catalog.levels || [];
    this.checkSeq = 0;
    this.valid = null;
    this.checking = null; // the latest check's promise while it runs
    this.starting = false;
  }

  /** Open with the remembered choices. */
  open(prefs, { canCancel }) {
    const p = prefs || {};
    const variant = this.variants.find((v) => v.name === p.variant) || this.variants[0];
    this.state = {
      variant: variant.name,
      overrides: p.overrides && typeof p.overrides === "object" ? { ...p.overrides } : {},
      seats: Array.isArray(p.seats) ? p.seats.map((s) => ({ ...s })) : [],
      style: STYLES.includes(p.style) ? p.style : "napoletane",
      lang: p.lang || getLang(),
      seed: p.seed === undefined || p.seed === null ? "" : String(p.seed),
    };
    this.canCancel = canCancel;
    this.draw();
    if (!this.dialog.open) this.dialog.showModal();
    this.validate();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  variantRules(name) {
    const v = this.variants.find((x) => x.name === name);
    /** @type {Record<string, any>} */
    const full = {};
    for (const o of this.catalog.options) full[o.name] = o.default;
    Object.assign(full, v ? v.rules : {});
    delete full.name;
    return full;
  }

  /** The option values now chosen: the variant's plus the person's changes. */
  values() {
    const base = this.variantRules(this.state.variant);
    const vals = { ...base };
    for (const [k, v] of Object.entries(this.state.overrides)) if (k in vals || this.optionInfo.has(k)) vals[k] = v;
    return { base, vals };
  }

  rulesArg() {
    const { base, vals } = this.values();
    const rules = { name: this.state.variant };
    for (const [k, v] of Object.entries(vals)) if (v !== base[k]) rules[k] = v;
    return rules;
  }

  players() {
    return this.values().vals.players || 2;
  }

  setOption(name, value) {
    const base = this.variantRules(this.state.variant);
    if (value === base[name]) delete this.state.overrides[name];
    else this.state.overrides[name] = value;
    this.draw();
    this.validate();
  }

  /** Ask the engine about the choices as they are now; Start waits for the latest answer. */
  validate() {
    const done = this.check(++this.checkSeq);
    this.checking = done;
    done.finally(() => { if (this.checking === done) this.checking = null; });
    return done;
  }

  async check(seq) {
    const msg = this.el.error;
    try {
      const res = await this.opts.engine.call("check_rules", { rules: this.rulesArg() });
      if (seq !== this.checkSeq) return;
      this.valid = res;
      msg.textContent = "";
      msg.hidden = true;
      this.el.start.disabled = false;
      this.el.teams.textContent = res.teams && res.sides.length === 2
        ? t("new.teams", { a: res.sides[0].map((s) => s + 1).join("+"), b: res.sides[1].map((s) => s + 1).join("+") })
        : t("new.alone");
      const own = deckStyle(res.deck); // French cards, or the 48-card Spanish deck
      this.el.style.disabled = !!own;
      this.el.style.value = own || this.state.style;
      this.el.styleNote.textContent = own ? tOr(`style.forced.${res.deck}`, t("style.forced")) : "";
      this.el.styleNote.hidden = !own;
    } catch (err) {
      if (seq !== this.checkSeq) return;
      this.valid = null;
      msg.textContent = `${t("new.invalid")}: ${errorText(err)}`;
      msg.hidden = false;
      this.el.start.disabled = true;
    }
  }

  draw() {
    const d = clear(this.dialog);
    const st = this.state;
    const { vals } = this.values();
    const n = vals.players;
    st.seats = defaultSeats(Math.max(n, st.seats.length), st.seats); // kept beyond n: remembered
    this.el = {};

    const form = h("form", { class: "panel newgame", attrs: { method: "dialog", novalidate: true } });
    form.addEventListener("submit", (e) => { e.preventDefault(); this.start(); });
    form.append(h("h2", { text: t("new.title") }));

    // variant
    const vsel = h("select", { id: "ng-variant", name: "variant" });
    appendVariantOptions(vsel, this.variants);
    vsel.value = st.variant;
    vsel.addEventListener("change", () => {
      st.variant = vsel.value;
      st.overrides = {};
      const home = homeStyle(st.variant); // Brisca's Spanish cards, Briškula's Triestine ones
      if (home) st.style = home;
      this.draw();
      this.validate();
    });
    const vinfo = this.variants.find((v) => v.name === st.variant);
    form.append(field("ng-variant", t("new.variant"), vsel,
      tOr(`vdesc.${st.variant}`, vinfo ? vinfo.description : "")));

    // players
    const pinfo = this.optionInfo.get("players");
    const psel = h("select", { id: "ng-players", name: "players" });
    for (const c of pinfo.choices) psel.append(h("option", { value: String(c), text: t("new.players.n", { n: c }) }));
    psel.value = String(n);
    psel.addEventListener("change", () => this.setOption("players", Number(psel.value)));
    this.el.teams = h("span", { class: "teams-note" });
    form.append(field("ng-players", t("new.players"), psel, null, this.el.teams));

    // seats
    const seatsBox = h("fieldset", { class: "seats-config" }, h("legend", { text: t("new.seats") }));
    st.seats.slice(0, n).forEach((seat, i) => seatsBox.append(this.seatRow(seat, i)));
    form.append(seatsBox);

    // deck style and language
    const ssel = h("select", { id: "ng-style", name: "style" });
    for (const s of STYLES) ssel.append(h("option", { value: s, text: t(`style.${s}`) }));
    ssel.value = st.style;
    ssel.addEventListener("change", () => { st.style = ssel.value; if (this.opts.onStyle) this.opts.onStyle(ssel.value); });
    this.el.style = ssel;
    this.el.styleNote = h("span", { class: "note", text: t("style.forced") });
    this.el.styleNote.hidden = true;
    const lsel = h("select", { id: "ng-lang", name: "lang" },
      LANGS.map((l) => h("option", { value: l, text: langName(l), attrs: { lang: l } })));
    lsel.value = st.lang;
    lsel.addEventListener("change", () => {
      st.lang = lsel.value;
      if (this.opts.onLang) this.opts.onLang(st.lang);
    });
    form.append(h("div", { class: "row2" },
      field("ng-style", t("new.style"), ssel, null, this.el.styleNote),
      field("ng-lang", t("new.lang"), lsel)));

    // match format
    const chiamata = vals.mode === "chiamata";
    const mbox = h("fieldset", { class: "options" }, h("legend", { text: t("new.match") }));
    for (const name of chiamata ? CHIAMATA.filter((x) => x.startsWith("match")) : MATCH) {
      if (this.optionInfo.has(name)) mbox.append(this.optionRow(name, vals[name]));
    }
    form.append(mbox);

    // house rules
    const hbox = h("details", { class: "options house" });
    hbox.open = Object.keys(st.overrides).some((k) => HOUSE.includes(k) || CHIAMATA.includes(k)) || this.houseOpen;
    hbox.addEventListener("toggle", () => { this.houseOpen = hbox.open; });
    hbox.append(h("summary", { text: t("new.house") }));
    const names = chiamata ? CHIAMATA.filter((x) => !x.startsWith("match") && this.shown(x, vals)) : HOUSE;
    for (const name of names) if (this.optionInfo.has(name)) hbox.append(this.optionRow(name, vals[name]));
    form.append(hbox);

    // advanced
    const adv = h("details", { class: "options advanced" });
    adv.open = !!st.seed;
    const seed = h("input", { id: "ng-seed", name: "seed", type: "text", value: st.seed,
      attrs: { inputmode: "numeric", autocomplete: "off", maxlength: "40" } });
    seed.addEventListener("input", () => { st.seed = seed.value.trim(); });
    adv.append(h("summary", { text: t("new.advanced") }), field("ng-seed", t("new.seed"), seed, t("new.seed.help")));
    form.append(adv);

    // Why Start is refused, beside it: in view however far down the panel is scrolled
    this.el.error = h("p", { class: "form-error", attrs: { role: "alert" } });
    this.el.error.hidden = true;

    const buttons = h("div", { class: "buttons pinned" }, this.el.error); // always in view (app.css)
    if (this.canCancel) {
      buttons.append(h("button", { class: "btn", type: "button", text: t("new.cancel"),
        on: { click: () => { this.close(); if (this.opts.onCancel) this.opts.onCancel(); } } }));
    }
    this.el.start = h("button", { class: "btn primary", type: "submit", id: "ng-start", text: t("new.start") });
    buttons.append(this.el.start);
    form.append(buttons);
    d.append(form);
  }

  /** Is option `name` shown with the values `vals`? (Those of the other auction are not.) */
  shown(name, vals) {
    const only = AUCTION_ONLY[name];
    const info = this.optionInfo.get(name);
    return !only || only === vals.auction || (info && vals[name] !== info.default);
  }

  seatRow(seat, i) {
    const st = this.state;
    const row = h("div", { class: "seat-row" });
    const id = `ng-seat-${i}`;
    const sel = h("select", { id, name: id, attrs: { "aria-label": t("new.seat", { n: i + 1 }) } });
    sel.append(h("option", { value: "human", text: t("new.kind.human") }));
    sel.append(h("option", { value: "friend", text: t("friends.kind") })); // a friend's own device (js/friends/)
    const levels = [...this.levels];
    if (seat.kind === "bot" && seat.level && !levels.includes(seat.level)) levels.push(seat.level);
    for (const lv of levels) {
      sel.append(h("option", { value: `bot:${lv}`, text: `${t("new.kind.bot")} · ${tOr(`level.${lv}`, lv)}` }));
    }
    if (seat.kind === "bot" && !seat.level) seat.level = this.levels.includes("intermediate") ? "intermediate" : levels[0];
    sel.value = seat.kind === "bot" ? `bot:${seat.level}` : seat.kind;
    sel.addEventListener("change", () => {
      if (sel.value === "human" || sel.value === "friend") st.seats[i] = { kind: sel.value, name: st.seats[i].name || "" };
      else st.seats[i] = { kind: "bot", level: sel.value.slice(4), name: st.seats[i].name || "" };
      this.draw();
      this.validate();
    });
    row.append(h("label", { class: "seat-label", attrs: { for: id }, text: t("new.seat", { n: i + 1 }) }), sel);
    if (seat.kind === "human") {
      const name = h("input", { type: "text", id: `${id}-name`, value: seat.name || "",
        attrs: { maxlength: "20", autocomplete: "off", "aria-label": `${t("new.name")} (${t("new.seat", { n: i + 1 })})`,
          placeholder: i === 0 ? t("seat.you") : t("seat.player", { n: i + 1 }) } });
      name.addEventListener("input", () => { st.seats[i].name = name.value; });
      row.append(name);
    }
    return row;
  }

  optionRow(name, value) {
    const info = this.optionInfo.get(name);
    const id = `ng-opt-${name}`;
    let input;
    if (info.kind === "bool" && name !== "teams") {
      input = h("input", { type: "checkbox", id, name });
      input.checked = !!value;
      input.addEventListener("change", () => this.setOption(name, input.checked));
      return h("div", { class: "opt opt-bool" },
        h("label", { class: "check", attrs: { for: id } }, input, h("span", { text: tOr(`opt.${name}`, name) })),
        h("span", { class: "help", text: tOr(`help.${name}`, info.help) }));
    }
    input = h("select", { id, name });
    if (name === "teams") {
      for (const [v, label] of [["auto", t("choice.teams.auto")], ["true", t("choice.on")], ["false", t("choice.off")]]) {
        input.append(h("option", { value: v, text: label }));
      }
      input.value = value === null || value === undefined ? "auto" : String(value);
      input.addEventListener("change", () => this.setOption(name,
        input.value === "auto" ? null : input.value === "true"));
    } else if (info.choices) {
      for (const c of info.choices) {
        input.append(h("option", { value: String(c), text: tOr(`choice.${name}.${c}`, String(c)) }));
      }
      input.value = String(value);
      input.addEventListener("change", () => {
        const raw = input.value;
        this.setOption(name, info.kind === "int" ? Number(raw) : raw);
      });
    } else {
      input = h("input", { type: "number", id, name, value: String(value), attrs: { min: "0", max: "1000" } });
      input.addEventListener("change", () => this.setOption(name, Number(input.value) || 0));
    }
    return h("div", { class: "opt" },
      h("label", { attrs: { for: id }, text: tOr(`opt.${name}`, name) }), input,
      h("span", { class: "help", text: tOr(`help.${name}`, info.help) }));
  }

  async start() {
    // Start pressed while the last choice is still being checked (a variant picked, then Start
    // at once): the answer about the earlier choice would deal the wrong players. It waits.
    if (this.starting) return;
    this.starting = true;
    try {
      while (this.checking) await this.checking;
    } finally {
      this.starting = false;
    }
    if (!this.valid || !this.dialog.open) return;
    const st = this.state;
    const own = deckStyle(this.valid.deck);
    const n = this.valid.players;
    const seats = st.seats.slice(0, n).map((s) => (s.kind === "human"
      ? { kind: "human", name: (s.name || "").trim().slice(0, 20) }
      : s.kind === "friend" ? { kind: "friend" } : { kind: "bot", level: s.level }));
    const config = {
      variant: st.variant,
      overrides: { ...st.overrides },
      rules: this.rulesArg(),
      seats,
      allSeats: st.seats.map((s) => ({ ...s })),
      style: own || st.style,
      prefStyle: st.style,
      lang: st.lang,
      seed: st.seed,
    };
    this.opts.onStart(config);
  }
}

// The common choice first (classic, against the computer), then the other variants grouped.
const GROUPS = ["two", "more", "decks", "countries", "chiamata", "match"];
// The games of Spain (Brisca), Portugal (Bisca), Croatia and Bosnia (Briškula): docs/rules.md §11.7 to §11.11.
const COUNTRIES = /^(brisca|bisca|briskula|bosnian)(-|$)/;

/** The deck a country's game is played with at home (the person may choose another). */
export function homeStyle(variant) {
  if (/^brisca(-|$)/.test(variant)) return "spagnole";
  if (/^briskula(-|$)/.test(variant)) return "triestine";
  return null;
}

export function variantGroup(rules) {
  const r = rules || {};
  if (r.name === "classic") return "";
  if (COUNTRIES.test(r.name || "")) return "countries";
  if (r.mode === "chiamata") return "chiamata";
  if (r.match || r.match_deals) return "match";
  if (r.deck && r.deck !== "italian") return "decks";
  if (r.players && r.players > 2) return "more";
  return "two";
}

function appendVariantOptions(select, variants) {
  const option = (v) => h("option", { value: v.name, text: tOr(`variant.${v.name}`, v.name) });
  const groups = new Map(GROUPS.map((g) => [g, []]));
  for (const v of variants) {
    const g = variantGroup(v.rules);
    if (!g) select.append(option(v));
    else groups.get(g).push(v);
  }
  for (const [g, list] of groups) {
    if (list.length) select.append(h("optgroup", { attrs: { label: t(`new.group.${g}`) } }, ...list.map(option)));
  }
}

function field(id, label, input, help, extra) {
  return h("div", { class: "field" },
    h("label", { attrs: { for: id }, text: label }), input,
    help ? h("span", { class: "help", text: help }) : null, extra || null);
}
