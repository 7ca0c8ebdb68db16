// The page's controller: starts the engine, keeps the game saved, paces the computer
// players, animates each reply, and routes every decision to the Python engine.

import { Engine } from "./engine.js";
import { mark } from "./start.js";
import { h, clear, sleep } from "./dom.js";
import { t, tOr, setLang, getLang, onLangChange, applyStatic, detectLang, LANGS } from "./i18n.js";
import { cardName, STYLES } from "./cards.js";
import * as store from "./storage.js";
import { TableView, signalWords, cardFace, actionLabel } from "./table.js";
import { auctionWords, revealWords, turnWords, chiamataActionLabel } from "./chiamata.js";
import { NewGamePanel } from "./newgame.js";
import { renderSummary, renderStats, sideName, renderLookBar } from "./summary.js";
import { renderRules } from "./rules-page.js";
import { startFromLink, LINK } from "./embed.js";
import { computerNames, renderGames } from "./games.js";
import { Coach, dealUndone } from "./coach.js";
import { dealWelcome } from "./welcome.js";
import * as sound from "./sound.js";
import * as tips from "./tips.js";
import { errorText } from "./errors.js";
import { cardNamesFigure } from "./names.js";

// Pacing per speed (milliseconds): a card's flight, a computer's thinking pause (the engine
// thinks meanwhile), how long a full trick stays on the table, its collection, and the draw.
// The default is brisk: at most about 2.5 s from the person's play to their next turn in a two-player
// deal (bench/pace.py measures it); slow is still there.
const SPEEDS = {
  slow: { play: 650, think: 1100, trick: 1700, collect: 600, draw: 480, stagger: 120 },
  normal: { play: 250, think: 350, trick: 620, collect: 250, draw: 220, stagger: 40 },
  fast: { play: 240, think: 260, trick: 550, collect: 260, draw: 200, stagger: 40 },
  instant: { play: 0, think: 0, trick: 0, collect: 0, draw: 0, stagger: 0 },
};

const $ = (id) => document.getElementById(id);

/** Reload into one build, the scripts fetched afresh first (the HTTP cache's copies could mix
 * builds again); false, not reloading, when this very mix `why` was met after such a reload. */
function reloadIntoOneBuild(why) {
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

/** A reply for a game or a step that is no longer the table's: dropped, never shown. */
class Stale extends Error {
  constructor() {
    super("stale");
    this.name = "Stale";
  }
}
// An invitation to a table with friends, or the test hook ?friends=1 (js/friends/index.js).
const FRIENDS_LINK = /[?&](join|friends)=/.test(location.search);
const reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };

class App {
  constructor() {
    this.engine = null;
    this.catalog = null;
    this.state = null; // the last reply of the bridge
    this.display = 0; // the seat whose view is drawn (at the bottom)
    this.meta = null;
    this.game = null; // the id of the game on the table (the worker keeps its save)
    // The one owner of "which game and which step is current": bumped (bump()) whenever the
    // table is replaced (a new game, a resumed one, a taken-back move). Every request about the
    // table goes through ask(), which drops a reply that arrives for an earlier generation;
    // every loop and animation stops at its next step once its generation is gone.
    this.gen = 0;
    this.storageTold = false;
    this.busy = false;
    this.hinted = null;
    this.hintText = "";
    this.hideHand = false;
    this.summaryShown = false;
    const prefs = store.loadPrefs();
    this.prefs = {
      speed: SPEEDS[prefs.speed] ? prefs.speed : "normal",
      reasons: prefs.reasons === true,
      showPoints: prefs.showPoints !== false,
      style: STYLES.includes(prefs.style) ? prefs.style : "napoletane",
      lang: LANGS.includes(prefs.lang) ? prefs.lang : LINK.lang || detectLang(),
    };
    setLang(this.prefs.lang);
  }

  // ---- start -------------------------------------------------------------------------------
  async boot() {
    mark("page modules run"); // the start's trace (bench/startup.py)
    store.onTrouble(() => this.storageTrouble());
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
    this.engine.onstorage = () => this.storageTrouble(); // a new deal's write refused after its reply
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
      card: (code) => this.play(code),
      action: (a) => this.play(a),
      hint: () => this.hint(),
      lastTrick: () => this.showLastTrick(),
      undo: () => this.coach.undo(),
    });
    this.coach = new Coach(this);
    $("btn-new").addEventListener("click", () => this.openNewGame(true));
    $("btn-rules").addEventListener("click", () => this.openRules());
    $("btn-stats").addEventListener("click", () => this.openStats());
    $("btn-settings").addEventListener("click", () => this.openSettings());
    $("btn-lang").addEventListener("click", () => this.setLanguage(getLang() === "it" ? "en" : "it"));
    sound.setup($("btn-sound")); // js/sound.js: quiet, remembered, nothing before a gesture
    for (const d of document.querySelectorAll("dialog.closable")) {
      d.addEventListener("click", (e) => { if (e.target === d) d.close(); });
    }
    $("handoff-go").addEventListener("click", () => this.handoffDone());
    // A notice goes at a tap (it may cover the hand on a phone).
    $("notice").addEventListener("click", () => { clearTimeout(this.noticeTimer); $("notice").classList.remove("show"); $("notice").hidden = true; });
    // the result closed with Escape: the table is looked at, with its way back (the look bar)
    $("summary-dialog").addEventListener("cancel", () => { if (document.documentElement.dataset.ui === "summary") this.ui("over"); });
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

  pace() {
    return SPEEDS[this.prefs.speed] || SPEEDS.normal;
  }

  setLanguage(lang) {
    this.prefs.lang = lang;
    store.updatePrefs({ lang });
    setLang(lang);
  }

  relabel() {
    applyStatic(document);
    const other = getLang() === "it" ? "EN" : "IT";
    $("btn-lang-text").textContent = other;
    $("btn-lang").setAttribute("aria-label", t("menu.lang.aria"));
    $("btn-lang").title = t("menu.lang");
    document.title = `${t("app.title")} — ${t("app.tagline")}`;
    if (this.state) this.draw();
    if (this.coach) this.coach.review.relabel();
    if ($("rules-dialog").open) this.fillRules();
    if ($("stats-dialog").open) this.openStats();
    if ($("settings-dialog").open) this.openSettings();
    if ($("summary-dialog").open) this.showSummary(true);
    if (this.panel && $("newgame-dialog").open) { this.panel.draw(); this.panel.validate(); }
    if (!$("handoff").hidden && this.handoffSeat !== undefined) this.fillHandoff(this.handoffSeat);
  }

  // ---- the current game, saving and resuming ------------------------------------------------
  /** A new table (another game, or the same one taken back): every older reply is stale. */
  bump() {
    this.gen++;
    this.busy = false;
    this.looping = null;
    return this.gen;
  }

  /**
   * A request about the game on the table. Rejects with Stale when the table moved on
   * before the reply came (a new game, an undo...), or when the worker says the game is no
   * longer its table: the caller then simply stops.
   */
  async ask(type, args = {}) {
    const gen = this.gen;
    let reply;
    try {
      reply = await this.engine.call(type, { ...args, game: this.game });
    } catch (err) {
      if (gen !== this.gen || (err && err.code === "stale")) throw new Stale();
      throw err;
    }
    if (gen !== this.gen) throw new Stale();
    this.checkStorage(reply);
    return reply;
  }

  checkStorage(reply) {
    if (reply && reply.storage === "refused") this.storageTrouble();
  }

  /** Storage refused a write: said once, plainly; the game goes on. */
  storageTrouble() {
    if (this.storageTold) return;
    this.storageTold = true;
    // in another site's frame (an embed): a short line, out of the way
    const framed = window.self !== window.top;
    this.notice(t(framed ? "notice.storage.short" : "notice.storage"), framed ? 8000 : 20000, framed ? "quiet" : "");
  }

  async resume() {
    if (FRIENDS_LINK && (await this.withFriends((f) => f.fromLink(this)))) return;
    if (await startFromLink(this)) return; // a deal asked for by the URL (js/embed.js)
    if (await this.migrate()) return;
    // This tab's own game (a reload), finished or not, unless another tab has it open now.
    const mine = store.tabGame();
    if (mine && (await this.resumeGame(mine, { quiet: true }))) return;
    let list = { games: [] };
    try {
      list = await this.engine.call("games", {});
      this.checkStorage(list);
    } catch (err) {
      this.noticeError(err);
    }
    if (list.games.length) return this.offerGames(list.games);
    return dealWelcome(this); // no unfinished game: straight into a deal (js/welcome.js)
  }

  /** "Play with friends" (js/friends/): its code loads only now; not in the one-file page. */
  async withFriends(use) {
    if (location.protocol === "file:") {
      this.notice(t("friends.unavailable"), 12000);
      return false;
    }
    try {
      return await use(await import("./friends/index.js"));
    } catch (err) {
      this.noticeError(err);
      return false;
    }
  }

  /** The game an older page kept in localStorage moves to the worker, once. */
  async migrate() {
    const legacy = store.legacySave();
    if (!legacy) return false;
    let reply;
    try {
      reply = await this.engine.call("import_save", legacy);
    } catch (err) {
      // Kept aside by the worker (bad_save), or here when too large even to reach it.
      const aside = err.code === "bad_save" || (/^input_too/.test(err.code) && store.setAsideLegacySave());
      if (aside) store.clearLegacySave();
      this.badSave(err, aside);
      return false;
    }
    if (reply.storage === "refused") this.storageTrouble(); // kept here until it can move
    else store.clearLegacySave();
    await this.showResumed(reply, legacy.meta);
    return true;
  }

  badSave(err, aside = err.code === "bad_save") {
    if (aside) this.notice(t("notice.badsave", { message: errorText(err) }), 15000);
    else if (/^(bad_save_not_kept|input_too)/.test(err.code)) this.notice(t("notice.badsave.left", { message: errorText(err) }), 20000);
    else this.noticeError(err, 10000);
  }

  async resumeGame(id, { quiet = false } = {}) {
    let reply;
    try {
      reply = await this.engine.call("resume", { id });
    } catch (err) {
      if (err.code === "game_open_elsewhere") {
        if (!quiet) this.notice(t("games.elsewhere.notice"), 10000);
      } else if (!(quiet && err.code === "no_game")) this.badSave(err);
      return false;
    }
    this.checkStorage(reply);
    await this.showResumed(reply, reply.meta);
    return true;
  }

  async showResumed(reply, meta) {
    this.meta = this.checkMeta(meta, reply);
    if (JSON.stringify(this.meta) !== JSON.stringify(meta)) {
      this.engine.call("set_meta", { meta: this.meta, game: reply.game }).then((r) => this.checkStorage(r), () => {});
    }
    await this.startShowing(reply);
    // a game with friends (js/friends/): this page hosts it again, in the same room
    if (this.meta.friends && reply.seats.some((s) => s.kind === "friend")) await this.withFriends((f) => f.rehost(this, this.meta.friends));
  }

  /** The unfinished games kept in this browser, to resume one or start another. */
  offerGames(games) {
    const dialog = $("games-dialog");
    this.ui("games");
    renderGames($("games-body"), games, {
      catalog: this.catalog,
      onResume: async (id) => {
        dialog.close();
        if (await this.resumeGame(id)) return;
        await this.resume();
      },
      onNew: () => {
        dialog.close();
        this.openNewGame(!!this.state);
      },
    });
    if (!dialog.open) dialog.showModal();
  }

  checkMeta(meta, reply) {
    const n = reply.view.players;
    const ok = meta && typeof meta === "object" && Array.isArray(meta.names) && meta.names.length === n;
    const m = ok ? { ...meta } : {
      variant: reply.view.rules.name, custom: false,
      names: reply.seats.map((s) => (s.kind === "human" && s.name) || ""), style: this.prefs.style,
    };
    if (!STYLES.includes(m.style)) m.style = this.prefs.style;
    const french = reply.view.rules.deck && reply.view.rules.deck !== "italian";
    if (french) m.style = "french";
    return m;
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
    return (this.meta && this.meta.style) || this.prefs.style;
  }

  // ---- new game ----------------------------------------------------------------------------
  openNewGame(canCancel) {
    this.ui("newgame");
    if (!this.panel) {
      this.panel = new NewGamePanel($("newgame-dialog"), {
        catalog: this.catalog,
        engine: this.engine,
        onStart: (cfg) => this.newGame(cfg),
        onCancel: () => this.afterDialog(),
        onLang: (lang) => this.setLanguage(lang),
      });
      $("newgame-dialog").addEventListener("cancel", (e) => {
        if (!this.state) e.preventDefault();
        else this.afterDialog();
      });
    }
    const prefs = store.loadPrefs();
    this.panel.open({ ...prefs.newgame, style: (prefs.newgame && prefs.newgame.style) || this.prefs.style, lang: getLang() },
      { canCancel: canCancel && !!this.state });
  }

  afterDialog() {
    if (this.state) this.advance();
  }

  async newGame(cfg) {
    if (cfg.seats.some((s) => s.kind === "friend")) {
      if (this.panel) this.panel.close();
      return this.withFriends((f) => f.host(this, cfg));
    }
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
    let reply;
    try {
      reply = await this.engine.call("new_match", { rules: cfg.rules, ...(seed === undefined ? {} : { seed }), meta, seats: cfg.seats.map((s) => (s.kind === "human" ? { kind: "human", ...(s.name ? { name: s.name } : {}) } : { kind: "bot", level: s.level })) });
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

  async startShowing(reply) {
    const my = this.bump();
    this.game = reply.game ?? null;
    store.setTabGame(this.game);
    this.checkStorage(reply);
    this.state = reply;
    await this.learnOrder(reply.view.rules, reply.order);
    if (my !== this.gen) return;
    this.summaryShown = false;
    this.lastReveal = null;
    this.hinted = null;
    this.hintText = "";
    this.state = reply;
    this.display = reply.seat;
    this.hideHand = false;
    const humans = this.humans();
    const turn = reply.view.turn;
    if (humans.length > 1 && reply.view.phase !== "over") {
      this.draw({ hideHand: true });
      // The device goes to the first person to play (the computer players play before).
      if (turn !== null && humans.includes(turn)) return this.showHandoff(turn);
      this.advance();
      return;
    }
    await this.showDeal();
    if (my === this.gen) this.advance();
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

  async showDeal() {
    const v = this.state.view;
    this.draw();
    this.say(v.trump_card ? t("say.deal", { card: this.cardText(v.trump_card) }) : t("say.deal.nocard"));
    sound.play("deal");
    if (v.tricks_done === 0 && v.trick.length === 0) {
      await this.table.flip(new Map(), this.pace().draw, { stagger: this.pace().stagger });
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
      hideHand: this.hideHand, order: this.order, undo: this.coach ? this.coach.undoState() : null, ...extra,
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
    const live = $("live");
    live.textContent = "";
    // a fresh text node each time so that assistive technology announces repeats too
    setTimeout(() => { live.textContent = text; }, 30);
  }

  /** An engine error said in a notice, in the person's words (js/errors.js). */
  noticeError(err, ms) {
    this.notice(t("notice.error", { message: errorText(err) }), ms);
  }

  notice(text, ms = 6000, kind = "") {
    const box = $("notice");
    box.classList.toggle("quiet", kind === "quiet");
    // A notice still showing stays (one line each): two things said at once are both read.
    const showing = !box.hidden && box.classList.contains("show") ? [...box.children].map((p) => p.textContent) : [];
    box.replaceChildren(...[...showing.filter((x) => x !== text).slice(-2), text].map((line) => h("p", { text: line })));
    box.hidden = false;
    box.classList.add("show");
    clearTimeout(this.noticeTimer);
    const away = () => { clearTimeout(this.noticeTimer); box.classList.remove("show"); box.hidden = true; };
    box.onclick = away; // read, and put away with a tap
    this.noticeTimer = setTimeout(away, ms);
  }

  // ---- the flow of play --------------------------------------------------------------------
  async advance() {
    const my = this.gen;
    if (this.looping === my) return;
    // A reply of this table still being shown: its caller goes on when it is done (a dialog
    // closed meanwhile must not start a second flow over the animation).
    if (this.presentingFor === my) return;
    this.looping = my;
    try {
      while (my === this.gen && this.state) {
        if (document.querySelector("dialog[open]") || !$("handoff").hidden) return;
        const st = this.state;
        const v = st.view;
        if (v.phase === "over") {
          this.busy = false;
          this.draw();
          this.ui("over");
          await sleep(this.pace().trick / 2);
          if (my === this.gen && !this.summaryShown) this.showSummary();
          return;
        }
        const turn = v.turn;
        if (turn === null || turn === undefined) return;
        const seat = st.seats[turn];
        // another device plays (js/friends/); a friend's seat is never this page's to show
        if (this.friends ? this.friends.waits(turn) : seat.kind === "friend") {
          this.busy = true;
          this.draw();
          this.ui("busy");
          return;
        }
        if (seat.kind === "bot") {
          this.busy = true;
          this.ui("busy");
          this.draw();
          const pause = sleep(this.pace().think); // the computer's pause and its thinking overlap
          let reply;
          try {
            reply = await this.ask("bot_step", { seat: this.display, lang: getLang(), reasons: this.prefs.reasons === true });
            await pause;
          } catch (err) {
            if (err instanceof Stale || my !== this.gen) return;
            this.busy = false;
            this.notice(t("notice.nobot", { level: tOr(`level.${seat.level}`, seat.level), message: errorText(err) }), 15000);
            this.ui("error");
            return;
          }
          if (my !== this.gen) return;
          if (this.prefs.reasons && reply.bot) {
            this.hintText = t("table.bot.says", { name: this.names()[reply.bot.seat], reason: this.coach.words(reply.bot.reason) });
          }
          if (!(await this.present(reply, my))) return;
          continue;
        }
        // a person's turn
        const humans = this.humans();
        if (turn !== this.display || (humans.length > 1 && this.hideHand)) {
          if (humans.length > 1) {
            this.draw({ hideHand: true });
            this.showHandoff(turn);
            return;
          }
          let r;
          try {
            r = await this.ask("state", { seat: turn });
          } catch (err) {
            if (err instanceof Stale) return;
            throw err;
          }
          this.state = r;
          this.display = turn;
          this.draw();
          continue;
        }
        this.busy = false;
        this.draw();
        if (this.handFocused && !document.querySelector("dialog[open]")) this.table.focusHand();
        this.ui("waiting");
        sound.play("turn");
        tips.atTurn(v, this.ctx()); // js/tips.js: a first deal's tips, each once
        const playable = v.legal.filter((a) => /^[A2-9TJHK][DCSB]$/.test(a)).map((c) => this.cardText(c));
        if (!playable.length && v.chiamata) this.say(turnWords(v, this.ctx()));
        else this.say(t("say.turn", { cards: playable.join(", ") }));
        return;
      }
    } finally {
      if (this.looping === my) this.looping = null;
    }
  }

  async play(action) {
    const st = this.state;
    if (!st || this.busy || st.view.turn !== this.display || !st.view.legal.includes(action)) return;
    const focused = document.activeElement;
    this.handFocused = !!(focused && focused.closest && (focused.closest(".hand") || focused.closest(".extra-actions") || focused.closest(".board")));
    this.busy = true;
    this.ui("busy");
    this.hinted = null;
    this.hintText = "";
    const my = this.gen;
    let reply;
    try {
      reply = await this.ask("act", { seat: this.display, action });
    } catch (err) {
      if (err instanceof Stale) return;
      this.busy = false;
      this.noticeError(err);
      this.draw();
      this.ui("waiting");
      return;
    }
    if (await this.present(reply, my)) this.advance();
  }

  /**
   * Show one reply of generation `my`: the new plays fly in, a full trick stays, is collected,
   * cards are drawn. Stops at the first step after the generation moved on (false then): an
   * older table is never drawn or written back over the current one.
   */
  async present(reply, my) {
    if (my !== this.gen) return false;
    this.presentingFor = my;
    try {
      return await this.presentSteps(reply, my);
    } finally {
      if (this.presentingFor === my) this.presentingFor = null;
    }
  }

  async presentSteps(reply, my) {
    const prev = this.state;
    this.state = reply;
    const pv = prev && prev.view;
    const nv = reply.view;
    const sameDeal = pv && prev.match.deal === reply.match.deal && pv.seat === nv.seat
      && nv.events.length >= pv.events.length;
    if (!sameDeal) {
      this.draw();
      return true;
    }
    const fresh = nv.events.slice(pv.events.length);
    this.announce(fresh);
    sound.events(fresh);
    const pace = this.pace();
    const reveal = fresh.find((e) => e.type === "partner");
    const ti = fresh.findIndex((e) => e.type === "trick");
    if (ti >= 0) {
      const plays = fresh.slice(0, ti).filter((e) => e.type === "play");
      const frame = withPlays(pv, plays);
      if (reveal) withSides(frame, nv);
      const winner = fresh[ti].winner;
      let snap = this.table.snapshot();
      this.state = { ...reply, view: frame };
      this.draw({ trickWinner: winner, trickPoints: fresh[ti].points });
      this.markWinner(winner);
      await this.table.flip(snap, pace.play);
      if (my !== this.gen) return false;
      if (reveal) await this.revealPartner(reveal, nv);
      if (my !== this.gen) return false;
      await sleep(pace.trick);
      if (my !== this.gen) return false;
      await this.table.collect(winner, pace.collect);
      if (my !== this.gen) return false;
      this.state = reply;
      snap = this.table.snapshot();
      this.draw();
      await this.table.flip(snap, pace.draw, { stagger: pace.stagger / 2 });
    } else {
      const snap = this.table.snapshot();
      this.draw();
      await this.table.flip(snap, pace.play);
      if (my !== this.gen) return false;
      if (reveal) await this.revealPartner(reveal, nv);
    }
    return my === this.gen;
  }

  /** The called card has fallen: everyone learns who the partner is. */
  async revealPartner(e, view) {
    const text = revealWords(e, view, this.ctx());
    this.lastReveal = { seat: e.seat, text, deal: this.state.match.deal };
    this.table.reveal(e.seat, text, 2600);
    this.say(text);
    await sleep(Math.max(this.pace().trick, this.pace().think));
  }

  markWinner(seat) {
    for (const el of this.table.el.trick.querySelectorAll(".trick-card")) {
      const mine = this.table.view.trick.find((p) => p.card === el.dataset.key);
      if (mine && mine.seat === seat) el.classList.add("winning");
    }
  }

  announce(events) {
    const names = this.names();
    const parts = [];
    const ms = Math.max(1800, this.pace().trick * 2);
    for (const e of events) {
      if (e.type === "play") {
        parts.push(e.seat === this.display && this.state.seats[e.seat].kind === "human"
          ? t("say.you.play", { card: this.cardText(e.card) })
          : t("say.play", { name: names[e.seat], card: this.cardText(e.card) }));
      } else if (e.type === "trick") {
        const you = e.winner === this.display && this.state.seats[e.winner].kind === "human" && this.humans().length === 1;
        parts.push(you ? t("say.you.trick", { points: e.points }) : t("say.trick", { name: names[e.winner], points: e.points }));
      } else if (e.type === "exchange") {
        const txt = t("say.exchange", { name: names[e.seat], gave: this.cardText(e.gave), took: this.cardText(e.took) });
        parts.push(txt);
        this.table.bubble(e.seat, txt, ms);
      } else if (e.type === "signal") {
        const txt = e.signal ? t("say.signal", { name: names[e.seat], what: signalWords(e.signal, getLang(), this.style()) })
          : t("say.signal.hidden", { name: names[e.seat] });
        parts.push(txt);
        this.table.bubble(e.seat, txt, ms * 1.5);
      } else if (e.type === "rebury") {
        parts.push(t("say.rebury", { card: this.cardText(e.card) }));
      } else if (e.type === "end") {
        parts.push(t("say.end"));
      } else if (this.state.view.chiamata) {
        const words = auctionWords(e, this.state.view, this.ctx());
        if (words) {
          parts.push(words.say);
          if (words.bubble && e.seat !== this.display) this.table.bubble(e.seat, words.bubble, ms * 0.6);
        }
      }
    }
    if (parts.length) this.say(parts.join(" "));
  }

  async hint() {
    const st = this.state;
    if (!st || this.busy || st.view.turn !== this.display) return;
    try {
      const res = await this.ask("hint", { seat: this.display, lang: getLang() });
      const words = /^[A2-9TJHK][DCSB]$/.test(res.action) ? this.cardText(res.action)
        : (st.view.chiamata && chiamataActionLabel(res.action, st.view, this.ctx())) || actionLabel(res.action, getLang(), this.style());
      this.hinted = res.action;
      this.hintText = t("table.hint.says", { card: words, reason: this.coach.words(res.reason) });
      tips.hintAsked(); // the hint's line takes the tip's room
      this.draw();
      this.say(this.hintText);
    } catch (err) {
      if (!(err instanceof Stale)) this.noticeError(err);
    }
  }

  // ---- people sharing a device -------------------------------------------------------------
  showHandoff(seat) {
    this.handoffSeat = seat;
    this.fillHandoff(seat);
    const box = $("handoff");
    box.hidden = false;
    this.ui("handoff");
    $("handoff-go").focus();
  }

  fillHandoff(seat) {
    const name = this.names()[seat];
    $("handoff-title").textContent = t("handoff.title", { name });
    $("handoff-text").textContent = t("handoff.hidden", { name });
    $("handoff-go").textContent = t("handoff.tap");
  }

  async handoffDone() {
    const seat = this.handoffSeat;
    $("handoff").hidden = true;
    this.ui("busy");
    const my = this.gen;
    let reply;
    try {
      reply = await this.ask("state", { seat });
    } catch (err) {
      if (err instanceof Stale) return;
      this.noticeError(err);
      return;
    }
    this.state = reply;
    this.display = seat;
    this.hideHand = false;
    this.hinted = null;
    this.hintText = "";
    const v = reply.view;
    if (v.tricks_done === 0 && v.trick.length === 0 && v.events.length <= 2) await this.showDeal();
    else this.draw();
    if (my !== this.gen) return;
    this.advance();
    this.table.focusHand();
  }

  // ---- end of a deal -----------------------------------------------------------------------
  showSummary(redraw = false) {
    const st = this.state;
    if (!st || !st.summary) return;
    this.summaryShown = true;
    const humans = this.humans();
    const me = humans.length ? humans[0] : 0;
    if (!redraw) this.recordStats(st, me);
    const dialog = $("summary-dialog");
    const ctx = {
      names: this.names(), me: humans.length === 1 ? me : this.display, humans: humans.length,
      style: this.style(), lang: getLang(), order: this.order,
      onNext: () => this.nextDeal(),
      onNew: () => { dialog.close(); this.openNewGame(true); },
      onAgain: () => this.again(),
      onLook: () => { dialog.close(); this.ui("over"); $("look-bar").querySelector(".btn.primary").focus(); },
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
    dialog.scrollTop = 0; // the result first; the buttons stay in view at the bottom
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
    if (counted) this.coach.rate(st, seat);
  }

  async nextDeal() {
    $("summary-dialog").close();
    let reply;
    try {
      reply = await this.ask("next_deal", {});
    } catch (err) {
      if (!(err instanceof Stale)) this.noticeError(err);
      return;
    }
    await this.startShowing(reply);
  }

  again() {
    $("summary-dialog").close();
    const cfg = this.meta && this.meta.config;
    if (!cfg) return this.openNewGame(true);
    this.newGame({ ...cfg, seed: "" });
  }

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
    $("stats-body").querySelector(".buttons").before(this.coach.statsSection(), this.coach.puzzleSection(), this.coach.historySection(() => $("stats-dialog").close()));
    if (!$("stats-dialog").open) $("stats-dialog").showModal();
  }

  openSettings() {
    const box = clear($("settings-body"));
    box.append(h("h2", { text: t("settings.title") }));
    const speed = h("select", { id: "set-speed" });
    for (const k of Object.keys(SPEEDS)) speed.append(h("option", { value: k, text: t(`speed.${k}`) }));
    speed.value = this.prefs.speed;
    speed.addEventListener("change", () => { this.prefs.speed = speed.value; store.updatePrefs({ speed: speed.value }); this.applyMotion(); });
    const style = h("select", { id: "set-style" });
    for (const s of STYLES) style.append(h("option", { value: s, text: t(`style.${s}`) }));
    const forced = this.state && this.state.view.rules.deck && this.state.view.rules.deck !== "italian";
    style.value = forced ? "french" : this.style();
    style.disabled = !!forced;
    style.addEventListener("change", () => {
      this.prefs.style = style.value;
      store.updatePrefs({ style: style.value });
      if (this.meta) {
        this.meta.style = style.value;
        this.ask("set_meta", { meta: this.meta }).catch(() => {});
      }
      this.draw();
    });
    const lang = h("select", { id: "set-lang" }, h("option", { value: "it", text: "Italiano" }), h("option", { value: "en", text: "English" }));
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
      forced ? h("p", { class: "note", text: t("style.forced") }) : "", // never null: append() would print it
      h("div", { class: "opt opt-bool" }, h("label", { class: "check", attrs: { for: "set-reasons" } }, reasons, h("span", { text: t("settings.reasons") }))),
      h("div", { class: "opt opt-bool" }, h("label", { class: "check", attrs: { for: "set-points" } }, points, h("span", { text: t("settings.points") }))),
      h("div", { class: "opt opt-bool" }, h("label", { class: "check", attrs: { for: "set-tracker" } }, tracker, h("span", { text: t("settings.tracker") }))),
      // playing with friends: the relays and STUN, with its code (js/friends/), when asked for
      h("div", { class: "field" }, h("button", { class: "btn", type: "button", id: "set-friends", text: t("friends.settings"),
        on: { click: (e) => this.withFriends((f) => e.target.replaceWith(f.settingsPanel())) } })),
      h("div", { class: "buttons" }, h("button", { class: "btn primary", type: "button", text: t("menu.close"), on: { click: () => $("settings-dialog").close() } })),
    );
    if (!$("settings-dialog").open) $("settings-dialog").showModal();
  }
}

/** Chiamata: the sides as the reply knows them (the partner just revealed), on an earlier frame. */
function withSides(frame, view) {
  frame.side_of_seat = view.side_of_seat;
  frame.sides = view.sides;
  frame.chiamata = view.chiamata;
  frame.side_points = view.sides.map((side) => side.reduce((sum, s) => sum + (frame.points[s] || 0), 0));
  return frame;
}

/** The previous view with `plays` added to its trick: the full trick before it is collected. */
function withPlays(view, plays) {
  const v = { ...view, trick: [...view.trick], hand: [...view.hand], hand_sizes: [...view.hand_sizes],
    known: view.known.map((k) => [...k]), legal: [], turn: null };
  for (const p of plays) {
    v.trick.push({ seat: p.seat, card: p.card });
    if (p.seat === v.seat) v.hand = v.hand.filter((c) => c !== p.card);
    v.hand_sizes[p.seat] = Math.max(0, v.hand_sizes[p.seat] - 1);
    const k = v.known[p.seat].indexOf(p.card);
    if (k >= 0) v.known[p.seat].splice(k, 1);
  }
  return v;
}

const app = new App();
for (const d of ["rules-dialog", "stats-dialog", "settings-dialog", "trick-dialog"]) {
  document.getElementById(d).addEventListener("close", () => { if (app.state) app.advance(); });
}
app.boot();
