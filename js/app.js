// The page's chrome: starts the engine, draws the table, and holds the new game, the end of a
// deal, the language and the notices. The play loop of a deal (turns, the engine calls of a
// deal, the animation of their replies) is js/play.js's PlayLoop, which it creates. Its methods
// for the game kept and resumed are js/keeping.js's, those of the other dialogs (rules,
// statistics, settings, the last trick) js/dialogs.js's: both mixed into App below.

import { Engine, friendsOfThisBuild } from "./engine.js";
import { mark } from "./start.js";
import { h, dialogLive } from "./dom.js";
import { PlayLoop, SPEEDS, Stale } from "./play.js";
import { t, tOr, setLang, getLang, onLangChange, applyStatic, detectLang, langName, loadLang, LANGS } from "./i18n.js";
import { cardName, STYLES, drawn } from "./cards.js";
import { langMenu, markLang } from "./langmenu.js";
// the regional decks beyond the first three: their art, imported when first needed
import { loadDecks, inSight, loadChiamata, chiamataIn } from "./later.js";
import * as store from "./storage.js";
import { TableView } from "./table.js";
import { NewGamePanel } from "./newgame.js";
import { renderSummary, renderLookBar } from "./summary.js";
import { LINK, FRIENDS_PAGE, reloadForFriends } from "./embed.js";
import { computerNames } from "./games.js";
import { Coach, dealUndone } from "./coach.js";
import * as sound from "./sound.js";
import * as tips from "./tips.js";
import { errorText } from "./errors.js";
import { Keeping, FRIENDS_LINK } from "./keeping.js";
import { Dialogs } from "./dialogs.js";
import { askPersist } from "./data.js";

const $ = (id) => document.getElementById(id);

/** Reload into one build, the scripts fetched afresh first (the HTTP cache's copies could mix
 * builds again); false, not reloading, when the mix of builds `message` names was met after
 * such a reload. */
function reloadIntoOneBuild(message) {
  // the two builds, whichever side found them apart (the worker or the page: its words differ)
  const why = message ? (message.match(/\b[0-9a-f]{8,}\b/g) || [message]).sort().join(" ") : "";
  try {
    if (why && sessionStorage.getItem("briscola.reloaded") === why) return false;
    if (why) sessionStorage.setItem("briscola.reloaded", why);
  } catch {
    return false; // nowhere to remember the reload (it could loop): the button then
  }
  const urls = [...document.querySelectorAll("script[src], link[rel=modulepreload]")].map((e) => e.src || e.href);
  Promise.all([...urls, "js/worker.js"].map((url) => fetch(url, { cache: "reload" }).catch(() => {})))
    .then(() => window.location.reload());
  return true;
}

const reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };

class App {
  constructor() {
    this.engine = null;
    this.catalog = null;
    this.state = null; // the last reply of the bridge
    this.display = 0; // the seat whose view is drawn (at the bottom)
    this.meta = null;
    this.game = null; // the id of the game on the table (the worker keeps its save)
    this.loop = new PlayLoop(this); // the turns and their animation (js/play.js)
    this.storageTold = false;
    this.summaryShown = false;
    this.prefs = App.prefsKept();
    setLang(this.prefs.lang);
  }

  /** The settings kept (js/storage.js), each checked. */
  static prefsKept() {
    const prefs = store.loadPrefs();
    return {
      speed: SPEEDS[prefs.speed] ? prefs.speed : "normal",
      reasons: prefs.reasons === true,
      showPoints: prefs.showPoints !== false,
      style: STYLES.includes(prefs.style) ? prefs.style : "napoletane",
      lang: LANGS.includes(prefs.lang) ? prefs.lang : LINK.lang || detectLang(),
    };
  }

  /** The settings kept, read again (an import's, js/data.js) and applied to the page. */
  applyPrefs() {
    this.prefs = App.prefsKept();
    if (this.coach) this.coach.trackerOn = store.loadPrefs().tracker === true;
    this.applyMotion();
    if (getLang() !== this.prefs.lang) this.showLanguage(this.prefs.lang); // relabels (and redraws)
    else this.relabel();
  }

  // ---- the play loop's members, as the coach and the review use them -------------------------
  // (the friends layer uses the seam only, js/seam.js, and the page's chrome: ARCHITECTURE.md)
  get seam() { return this.loop.seam; }
  get gen() { return this.loop.gen; }
  set gen(n) { this.loop.gen = n; }
  get busy() { return this.loop.busy; }
  set busy(b) { this.loop.busy = b; }
  get hinted() { return this.loop.hinted; }
  set hinted(a) { this.loop.hinted = a; }
  get hintText() { return this.loop.hintText; }
  set hintText(s) { this.loop.hintText = s; }
  get hideHand() { return this.loop.hideHand; }
  set hideHand(b) { this.loop.hideHand = b; }
  get lastReveal() { return this.loop.lastReveal; }
  bump() { return this.loop.bump(); }
  ask(type, args = {}) { return this.loop.ask(type, args); }
  advance() { return this.loop.advance(); }
  play(action) { return this.loop.play(action); }
  startShowing(reply) { return this.loop.startShowing(reply); }
  nextDeal() { return this.loop.nextDeal(); }

  // ---- start -------------------------------------------------------------------------------
  async boot() {
    mark("page modules run"); // the start's trace (bench/startup.py)
    store.onTrouble(() => this.storageTrouble("local")); // the statistics, rating, settings
    applyStatic(document);
    this.ui("loading");
    const bar = $("load-progress");
    const stage = $("load-stage");
    stage.textContent = t("loading.start");
    const slow = setTimeout(() => { stage.textContent = t("loading.timeout"); $("load-retry-box").hidden = false; }, 90000);
    store.tabGame(); // session storage loads at its first use (a few ms): now, not at the first deal
    // The table and the menus are set up while the engine starts (hidden until it is up):
    // nothing of them needs it yet, and a later visit's engine is up within a few ms.
    this.setupChrome();
    const deck = this.deckFor(this.prefs.style); // a regional deck kept: in before the first deal
    // the language kept, its words not fetched (offline before it was ever kept): said in English
    if (getLang() !== this.prefs.lang) this.notice(t("notice.lang.failed", { lang: langName(this.prefs.lang) }), 10000);
    // An invitation: its room opened now, beside the engine's start (the seats show once the
    // host answers, the table once the engine is up); what goes wrong with the link is said
    // once the engine is up (resume(), fromLink).
    if (FRIENDS_LINK && location.protocol !== "file:" && /[?&]join=/.test(location.search)) {
      friendsOfThisBuild().then((f) => f.joinEarly(this)).catch((err) => this.friendsOfAnotherBuild(err));
    }
    try {
      this.engine = await Engine.start((p) => {
        const fraction = p && typeof p === "object" ? p.fraction : undefined;
        const name = p && typeof p === "object" ? p.stage : String(p);
        if (typeof fraction === "number") bar.value = Math.max(bar.value, Math.min(1, fraction));
        stage.textContent = tOr(`loading.stage.${name}`, t("loading.start"));
      }, { first: ["catalog", {}] }); // asked at once: answered the moment the engine is up
      this.engine.onfatal = (err) => this.fatal(err);
      this.catalog = await this.engine.first;
    } catch (err) {
      clearTimeout(slow);
      this.fatal(err);
      return;
    }
    clearTimeout(slow);
    bar.value = 1;
    window.__briscola = { engine: this.engine, app: this, get state() { return window.__briscola.app.state; } };
    this.engine.onstorage = () => this.storageTrouble("games"); // a new deal's write refused after its reply
    // older unfinished games let go past the bound the engine keeps (js/worker/games.js)
    this.engine.onletgo = (msg) => this.notice(t("notice.letgo", { n: msg.games.length, max: msg.max }), 15000);
    await deck;
    await this.resume();
    this.unveil(); // whatever the start showed (a dialog, a notice) or left to the person
  }

  /**
   * The loading screen gives way to the table, once: at the first drawing of a deal, so that
   * the page lays the table out once, with its cards (showing the empty table first cost a
   * layout while the first deal's reply came back), or when the start is over without one.
   */
  unveil() {
    if (this.unveiled || document.documentElement.dataset.ui === "error") return;
    this.unveiled = true;
    $("loading").hidden = true;
    $("app-main").hidden = false;
    $("topbar").hidden = false;
  }

  fatal(err) {
    // A page and an engine of two builds: reloaded once, then said (README: one build at a time).
    const mismatch = err && err.code === "build_mismatch";
    if (mismatch && reloadIntoOneBuild(err.message)) return;
    this.gen++;
    this.ui("error");
    $("loading").hidden = false;
    $("app-main").hidden = true;
    $("load-stage").textContent = t("loading.failed");
    // What a person can do, in their language; the engine's own message (English, for a bug
    // report) folded under it.
    const offline = typeof navigator !== "undefined" && navigator.onLine === false;
    const why = errorText(err);
    $("load-error-msg").textContent = mismatch ? why[0].toUpperCase() + why.slice(1) : t(offline ? "loading.failed.offline" : "loading.failed.hint");
    if (mismatch) { // its button fetches the scripts afresh too
      const retry = $("load-retry").cloneNode(true);
      retry.addEventListener("click", () => reloadIntoOneBuild(""));
      $("load-retry").replaceWith(retry);
    }
    const tech = err && err.message ? err.message : String(err ?? "");
    $("load-error-tech").textContent = tech;
    $("load-error-details").hidden = !tech;
    $("load-retry-box").hidden = false;
    for (const d of document.querySelectorAll("dialog[open]")) d.close();
  }

  ui(mode) {
    document.documentElement.dataset.ui = mode;
  }

  setupChrome() {
    this.table = new TableView($("table"), {
      card: (code) => this.loop.play(code),
      action: (a) => this.loop.play(a),
      hint: () => this.loop.hint(),
      lastTrick: () => this.showLastTrick(),
      undo: () => this.coach.undo(),
    });
    this.coach = new Coach(this);
    $("btn-new").addEventListener("click", () => this.openNewGame(true));
    $("btn-rules").addEventListener("click", () => this.openRules());
    $("btn-stats").addEventListener("click", () => this.openStats());
    $("btn-settings").addEventListener("click", () => this.openSettings());
    langMenu($("btn-lang"), $("lang-menu"), (lang) => this.setLanguage(lang));
    sound.setup($("btn-sound")); // js/sound.js: quiet, remembered, nothing before a gesture
    for (const d of document.querySelectorAll("dialog.closable")) {
      d.addEventListener("click", (e) => { if (e.target === d) d.close(); });
    }
    $("handoff-go").addEventListener("click", () => this.loop.handoffDone());
    for (const d of document.querySelectorAll("dialog")) dialogLive(d); // there before they speak
    // the skip link "Your hand" lands on a card of the hand, not on <body>
    document.querySelector("a.skip").addEventListener("click", (e) => { if (this.state) { e.preventDefault(); this.table.focusHand(); } });
    // A notice goes at a tap (it may cover the hand on a phone).
    $("notice").addEventListener("click", () => { clearTimeout(this.noticeTimer); $("notice").classList.remove("show"); $("notice").hidden = true; });
    // the result closed with Escape: the table is looked at, with its way back (the look bar)
    $("summary-dialog").addEventListener("cancel", () => {
      if (document.documentElement.dataset.ui !== "summary") return;
      this.ui("over");
      $("summary-dialog").addEventListener("close", () => this.focusLookBar(), { once: true }); // not <body>
    });
    $("games-dialog").addEventListener("cancel", (e) => {
      e.preventDefault(); // a choice is needed: resume a game or start another
      $("games-new").click();
    });
    onLangChange(() => this.relabel());
    this.relabel();
    if (reducedMotion.addEventListener) reducedMotion.addEventListener("change", () => this.applyMotion());
    this.applyMotion();
  }

  applyMotion() {
    this.table.motion = reducedMotion.matches || this.prefs.speed === "instant" ? 0 : 1;
    document.documentElement.classList.toggle("no-motion", this.table.motion === 0);
  }

  /** The language a person picked: shown, and kept in the settings, once its words are in
   * (fetched if need be; the page stays as it is meanwhile). Resolves once it is shown or
   * refused. */
  setLanguage(lang) {
    return this.showLanguage(lang, true);
  }

  /** The page in `lang` once its words are in (`keep`: and the choice kept); where they cannot
   * be fetched (offline before it was ever kept), the page stays in its language and says why
   * in it. The last choice wins. */
  async showLanguage(lang, keep = false) {
    const asked = (this.langAsked = lang);
    const button = $("btn-lang");
    button.setAttribute("aria-busy", "true");
    let fetched = true;
    try {
      await loadLang(lang);
    } catch {
      fetched = false;
    }
    if (asked !== this.langAsked) return;
    this.langAsked = null;
    button.removeAttribute("aria-busy");
    if (!fetched) {
      if (this.panel) this.panel.state.lang = getLang();
      this.relabel(); // the menus and selects back on the language shown
      const text = t("notice.lang.failed", { lang: langName(lang) });
      this.notice(text, 10000);
      this.say(text); // heard inside an open dialog too
      return;
    }
    if (keep) {
      this.prefs.lang = lang;
      store.updatePrefs({ lang });
    }
    setLang(lang);
  }

  relabel() {
    applyStatic(document);
    $("btn-lang-text").textContent = getLang().toUpperCase();
    // the words it shows first in its name (speech input says what it sees), then what it does
    $("btn-lang").setAttribute("aria-label", `${getLang().toUpperCase()}: ${t("menu.lang")}, ${langName(getLang())}`);
    $("btn-lang").title = t("menu.lang");
    markLang($("lang-menu"));
    document.title = `${t("app.title")} — ${t("app.tagline")}`;
    if (this.state) this.draw();
    if (this.state && tips.current()) tips.atTurn(this.state.view, this.ctx()); // a tip up: in the new words
    if (this.coach) this.coach.review.relabel();
    if ($("rules-dialog").open) this.fillRules();
    if ($("stats-dialog").open) this.openStats();
    if ($("settings-dialog").open) this.openSettings();
    if ($("summary-dialog").open) this.showSummary(true);
    if (this.panel && $("newgame-dialog").open) { this.panel.draw(); this.panel.validate(); }
    if (!$("handoff").hidden && this.loop.handoffSeat !== undefined) this.loop.fillHandoff(this.loop.handoffSeat);
  }

  humans() {
    return this.state ? this.state.seats.map((s, i) => (s.kind === "human" ? i : -1)).filter((i) => i >= 0) : [];
  }

  names() {
    const seats = this.state.seats;
    const humans = this.humans();
    const given = seats.map((s, i) => (this.meta && this.meta.names[i]) || (s.kind !== "bot" && s.name) || "");
    const computers = computerNames(seats, given);
    return seats.map((s, i) => {
      if (given[i]) return given[i];
      if (s.kind === "human") return humans.length === 1 ? t("seat.you") : t("seat.player", { n: i + 1 });
      if (s.kind === "friend") return t("seat.player", { n: i + 1 });
      return computers[i];
    });
  }

  style() {
    const style = (this.meta && this.meta.style) || this.prefs.style;
    if (drawn(style)) return style;
    // a deck of js/decks.js before it is in (a game kept in it, a friend's table): drawn as the
    // Napoletane until then, and again once it is
    if (!this.decksIn && !this.decksFailed) this.deckFor(style).then((ok) => { if (ok) this.relabel(); });
    return "napoletane";
  }

  /** Resolves once `style` can be drawn (js/decks.js imported if it draws it: js/later.js); false
   * where it could not be loaded (offline, never fetched), said. */
  deckFor(style) {
    if (drawn(style)) return Promise.resolve(true);
    this.decksIn = this.decksIn || loadDecks().then(() => true, () => {
      this.decksIn = null;
      this.decksFailed = true;
      return this.laterFailed();
    });
    return this.decksIn;
  }

  /** A module loaded when first needed that could not be (offline, never kept: js/later.js):
   * said, in the notice and in an open dialog's live region; the page stays as it was. */
  laterFailed() {
    this.notice(t("notice.later.failed"), 10000);
    this.say(t("notice.later.failed"));
    return false;
  }

  // ---- new game ----------------------------------------------------------------------------
  openNewGame(canCancel) {
    inSight(loadDecks); // a deck picked there is drawn at once
    this.backToResult = false;
    this.ui("newgame");
    if (!this.panel) {
      this.panel = new NewGamePanel($("newgame-dialog"), {
        catalog: this.catalog,
        engine: this.engine,
        onStart: (cfg) => this.newGame(cfg),
        onCancel: () => this.afterDialog(),
        onLang: (lang) => this.setLanguage(lang),
        onStyle: (style) => this.deckFor(style), // in by the time Start is pressed
      });
      $("newgame-dialog").addEventListener("cancel", (e) => {
        if (!this.state) e.preventDefault();
        else $("newgame-dialog").addEventListener("close", () => this.afterDialog(), { once: true }); // once it is closed
      });
    }
    const prefs = store.loadPrefs();
    this.panel.open({ ...prefs.newgame, style: (prefs.newgame && prefs.newgame.style) || this.prefs.style, lang: getLang() },
      { canCancel: canCancel && !!this.state });
  }

  /** The new game panel put away: back where the person was (the result they came from). */
  afterDialog() {
    if (this.backToResult && this.state && this.state.summary) this.showSummary(true);
    else if (this.state) this.advance();
    this.backToResult = false;
  }

  async newGame(cfg) {
    if (cfg.seats.some((s) => s.kind === "friend")) {
      if (this.panel) this.panel.close();
      if (!FRIENDS_PAGE) return reloadForFriends(cfg); // into the policy that lets it reach relays
      return this.withFriends((f) => f.host(this, cfg));
    }
    // Chiamata's panels (js/chiamata.js) in first: where they cannot be loaded, nothing changes
    const listed = (this.catalog.variants || []).find((v) => v.name === cfg.variant);
    const chiamata = ((cfg.rules && cfg.rules.mode) || (listed && listed.rules.mode)) === "chiamata";
    if (chiamata && !chiamataIn() && !(await loadChiamata().then(() => true, () => false))) return this.laterFailed();
    if (this.friends) this.friends.leave(); // a game without them: the table with friends ends here
    this.friends = null;
    // No seed typed: the engine's worker draws one and keeps it (a typed seed is public by choice).
    const seed = cfg.seed === "" ? undefined : (/^\d+$/.test(cfg.seed) ? Number(cfg.seed) : cfg.seed);
    const meta = {
      variant: cfg.variant,
      custom: Object.keys(cfg.overrides).length > 0,
      names: cfg.seats.map((s) => (s.kind === "human" ? s.name || "" : "")),
      style: cfg.style,
      config: cfg,
    };
    const before = { ui: document.documentElement.dataset.ui, busy: this.busy };
    this.bump(); // the table is being replaced: whatever the old one still awaits is stale
    // and nobody plays on it meanwhile: not the person's turn ("waiting") any more
    this.busy = true;
    this.ui("busy");
    const deck = this.deckFor(cfg.style); // beside the engine's answer
    let reply;
    try {
      reply = await this.engine.call("new_match", { rules: cfg.rules, ...(seed === undefined ? {} : { seed }), meta, seats: cfg.seats.map((s) => (s.kind === "human" ? { kind: "human", ...(s.name ? { name: s.name } : {}) } : { kind: "bot", level: s.level })) });
      await deck; // never refused: false where it could not be loaded (drawn as the Napoletane)
    } catch (err) {
      // from the panel: the reason beside its Start; from the end screen's "again": a notice
      if (this.panel && $("newgame-dialog").open) {
        this.panel.el.error.textContent = `${t("new.invalid")}: ${errorText(err)}`;
        this.panel.el.error.hidden = false;
      } else if (!(err instanceof Stale)) this.noticeError(err);
      this.busy = before.busy;
      this.ui(before.ui);
      return;
    }
    store.updatePrefs({ newgame: { variant: cfg.variant, overrides: cfg.overrides, seats: cfg.allSeats || cfg.seats, style: cfg.prefStyle, seed: cfg.seed } });
    if (cfg.prefStyle !== this.prefs.style && cfg.style !== "french") {
      this.prefs.style = cfg.prefStyle;
      store.updatePrefs({ style: cfg.prefStyle });
    }
    this.meta = meta;
    // the panel exists only once it has been opened: "again" on a first visit's end screen
    // starts a game without it
    if (this.panel) this.panel.close();
    $("summary-dialog").open && $("summary-dialog").close();
    await this.startShowing(reply);
  }

  /** The ranks of the deal's rules, strongest first (the auction's ladder): the table's reply
   * carries them (`known`); an older reply does not, and the engine is asked. */
  async learnOrder(rules, known) {
    const key = JSON.stringify(rules || {});
    if (typeof known === "string" || Array.isArray(known)) { // the engine sends a string ("A3KHJ76542")
      this.order = known;
      this.orderKey = key;
    }
    if (this.orderKey === key) return;
    try {
      const res = await this.engine.call("card_points", { rules });
      this.order = res.order;
      this.orderKey = key;
    } catch {
      this.order = null; // the default order then
    }
  }

  // ---- drawing -----------------------------------------------------------------------------
  ctx(extra = {}) {
    const st = this.state;
    const v = st.view;
    const humans = this.humans();
    const canPlay = !this.busy && v.phase !== "over" && v.turn === this.display
      && st.seats[this.display].kind === "human" && !this.hideHand;
    return {
      names: this.names(), kinds: st.seats, style: this.style(), lang: getLang(), match: st.match,
      canPlay, showPoints: this.prefs.showPoints, hinted: this.hinted, hintText: this.hintText,
      cardPoints: st.card_points, humans: humans.length, firstHuman: humans[0],
      hideHand: this.hideHand, order: this.order, undo: this.coach ? this.coach.undoState() : null,
      model: st.model || null, ...extra, // experts without their learned model (js/worker/games.js)
    };
  }

  draw(extra = {}, view = null) {
    if (!this.state) return;
    if ("hideHand" in extra) this.hideHand = extra.hideHand;
    this.unveil();
    const ctx = this.ctx(extra);
    this.table.render(view || this.state.view, ctx);
    this.table.root.classList.toggle("tips-live", tips.live(view || this.state.view, ctx)); // the tips' room kept
    if (this.coach) this.coach.onDraw();
  }

  cardText(code) {
    return cardName(code, getLang(), this.style());
  }

  say(text) {
    // the page's live region, and each open dialog's own: inside a modal dialog the rest of
    // the page is inert, so only the top dialog's region is heard (js/dom.js dialogLive)
    const lives = [$("live"), ...[...document.querySelectorAll("dialog[open]")].map(dialogLive)];
    for (const live of lives) live.textContent = "";
    // a fresh text node each time so that assistive technology announces repeats too
    setTimeout(() => { for (const live of lives) live.textContent = text; }, 30);
  }

  /** An engine error said in a notice, in the person's words (js/errors.js). */
  noticeError(err, ms) {
    this.notice(t("notice.error", { message: errorText(err) }), ms);
  }

  /** `text` said for `ms`; `replaces`: a line it says again better, taken away if showing. */
  notice(text, ms = 6000, kind = "", replaces = undefined) {
    const box = $("notice");
    box.classList.toggle("quiet", kind === "quiet");
    // A notice still showing stays (one line each): two things said at once are both read.
    const showing = !box.hidden && box.classList.contains("show") ? [...box.children].map((p) => p.textContent) : [];
    box.replaceChildren(...[...showing.filter((x) => x !== text && x !== replaces).slice(-2), text].map((line) => h("p", { text: line })));
    box.hidden = false;
    box.classList.add("show");
    clearTimeout(this.noticeTimer);
    const away = () => { clearTimeout(this.noticeTimer); box.classList.remove("show"); box.hidden = true; };
    box.onclick = away; // read, and put away with a tap
    this.noticeTimer = setTimeout(away, ms);
  }

  // ---- the flow of play --------------------------------------------------------------------

  // ---- people sharing a device -------------------------------------------------------------

  // ---- end of a deal -----------------------------------------------------------------------
  showSummary(redraw = false) {
    const st = this.state;
    if (!st || !st.summary) return;
    this.summaryShown = true;
    const humans = this.humans();
    const me = humans.length ? humans[0] : 0;
    if (!redraw) this.recordStats(st, me);
    const dialog = $("summary-dialog");
    // at a table with friends (js/friends/): the host plays again with them; a friend's page waits
    const friends = this.friends && this.friends.endScreen ? this.friends.endScreen() : null;
    const ctx = {
      names: this.names(), me: humans.length === 1 ? me : this.display, humans: humans.length,
      style: this.style(), lang: getLang(), order: this.order,
      friends: friends && friends.leave ? { ...friends, leave: () => { dialog.close(); friends.leave(); } } : friends,
      onNext: () => this.nextDeal(),
      onNew: () => { const back = dialog.open; dialog.close(); this.openNewGame(true); this.backToResult = back; },
      onAgain: () => (friends && friends.again ? friends.again() : this.again()),
      onLook: () => {
        dialog.close();
        this.ui("over");
        this.focusLookBar();
      },
      coach: this.coach.summaryParts(st, this.names()),
    };
    renderSummary($("summary-body"), st, ctx);
    // while the table is looked at (mode "over"), a bar in the hand's place leads back and on
    const bar = $("look-bar") || h("div", { id: "look-bar", class: "look-bar" });
    const hand = $("table").querySelector(".mine .hand");
    if (hand) hand.after(bar); else $("app-main").append(bar);
    renderLookBar(bar, st, { ...ctx, onResult: () => this.showSummary(true) });
    if (!dialog.open) dialog.showModal();
    this.ui("summary");
    const primary = dialog.querySelector(".btn.primary");
    if (primary) primary.focus({ preventScroll: true });
    if (friends && friends.note && !redraw) this.say(friends.note); // a fair table's check, heard with the result
    dialog.scrollTop = 0; // the result first; the buttons stay in view at the bottom
  }

  /** The look bar's primary button (a friend's page has none: the host deals the next), else Result. */
  focusLookBar() {
    const bar = $("look-bar");
    const go = bar && (bar.querySelector(".btn.primary") || bar.querySelector(".btn"));
    if (go instanceof HTMLElement) go.focus();
  }

  recordStats(st, seat) {
    const out = st.summary.outcome;
    const side = out.sides.findIndex((sd) => sd.includes(seat));
    // once per game and deal: a game is open in one tab only, and a reload resumes its id
    // (a game moved from an older page keeps the id it counted its deals under)
    const key = `${(this.meta && this.meta.id) || this.game || "?"}/${st.match.deal}`;
    const variant = ((this.meta && this.meta.variant) || st.view.rules.name) + (this.meta && this.meta.custom ? "*" : "");
    // a deal with an undo is kept out of the won counts (and of the rating)
    const counted = store.recordDeal(variant, key, {
      draw: out.draw, won: !out.draw && out.winners.includes(side), points: out.side_points[side] || 0,
      undone: dealUndone(st),
    });
    if (counted) {
      this.coach.rate(st, seat);
      askPersist(); // a first deal counted: the browser asked to keep the site's storage (js/data.js)
    }
  }

  again() {
    $("summary-dialog").close();
    const cfg = this.meta && this.meta.config;
    if (!cfg) return this.openNewGame(true);
    this.newGame({ ...cfg, seed: "" });
  }

}

// The methods of js/keeping.js and js/dialogs.js, App's own.
for (const part of [Keeping, Dialogs]) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name !== "constructor") Object.defineProperty(App.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
  }
}

const app = new App();
for (const d of ["rules-dialog", "stats-dialog", "settings-dialog", "trick-dialog"]) {
  document.getElementById(d).addEventListener("close", () => { if (app.state) app.advance(); });
}
app.boot();
