// The page's chrome for the game kept: what storage refused, said; the start's resume (this
// tab's game, a link's deal, an older page's save moved to the worker, the list of unfinished
// games); a save that could not be read, said. Methods of js/app.js's App (mixed into it).

import { t } from "./i18n.js";
import * as store from "./storage.js";
import { STYLES, deckStyle } from "./cards.js";
import { startFromLink, FRIENDS_PAGE, reloadForFriends, takeFriendsStart } from "./embed.js";
import { friendsOfThisBuild, letNewBuildIn } from "./engine.js";
import { renderGames } from "./games.js";
import { dealWelcome } from "./welcome.js";
import { errorText } from "./errors.js";

const $ = (id) => document.getElementById(id);

// An invitation to a table with friends, or the test hook ?friends=1 (js/friends/index.js).
export const FRIENDS_LINK = /[?&](join|friends)=/.test(location.search);

/** Whether a game's meta is a table with friends this page hosted: the friends' seats kept
 * with their tokens (js/friends/host.js). */
function hostsFriends(meta) {
  const f = meta && meta.friends;
  return !!f && typeof f === "object" && Array.isArray(f.seats) && f.seats.some((s) => s && typeof s.token === "string");
}

export class Keeping {
  checkStorage(reply) {
    if (reply && reply.storage === "refused") this.storageTrouble("games");
  }

  /**
   * Storage refused a write: said plainly, once for each of what it refused, and naming what a
   * reload would lose. "games": IndexedDB (the worker's), the game itself; "local": localStorage
   * (js/storage.js), the statistics, the rating and the settings, the game being kept all the
   * same. Both: one line for both. The game goes on.
   */
  storageTrouble(kind = "games") {
    const kinds = this.storageKinds || (this.storageKinds = new Set());
    if (kinds.has(kind)) return;
    kinds.add(kind);
    this.storageTold = true;
    // in another site's frame (an embed): a short line, out of the way
    const framed = window.self !== window.top;
    const games = kinds.has("games");
    const key = framed ? (games ? "notice.storage.short" : "notice.storage.local.short")
      : games && kinds.has("local") ? "notice.storage.all" : games ? "notice.storage" : "notice.storage.local";
    const before = this.storageLine;
    this.storageLine = t(key);
    this.notice(this.storageLine, framed ? 8000 : 20000, framed ? "quiet" : "", before);
  }

  async resume() {
    if (FRIENDS_LINK && (await this.withFriends((f) => f.fromLink(this)))) return;
    const friendsStart = takeFriendsStart(); // a table with friends started before the reload
    if (friendsStart) return this.newGame(friendsStart);
    // the table that deals fairly this tab hosted (js/friends/fair-host.js): hosted again
    const fair = store.tabFairTable();
    if (fair && FRIENDS_PAGE && (await this.withFriends((f) => f.rehostFair(this, fair)))) return;
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
      return await use(await friendsOfThisBuild()); // of this page's build, or a reload first
    } catch (err) {
      if (!this.friendsOfAnotherBuild(err)) this.noticeError(err);
      return false;
    }
  }

  /** The site serves another build than this page's: the page reloads into it (the game is kept)
   * before a table with friends starts on two builds' code. True when that was the error. */
  friendsOfAnotherBuild(err) {
    if (!err || err.code !== "build_mismatch") return false;
    if (this.buildReload) return true; // said and reloading already (an invitation asks twice)
    this.buildReload = true;
    this.notice(t("friends.newbuild"), 20000);
    // the notice read, the new build's service worker let in, then the reload (fatal)
    Promise.all([letNewBuildIn(), new Promise((done) => setTimeout(done, 1500))]).then(() => this.fatal(err));
    return true;
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
    if (reply.storage === "refused") this.storageTrouble("games"); // kept here until it can move
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
    if (hostsFriends(this.meta) && !FRIENDS_PAGE) {
      store.setTabGame(reply.game); // resumed after the reload, into the policy for friends
      return reloadForFriends();
    }
    await this.startShowing(reply);
    // a game with friends (js/friends/): this page hosts it again, in the same room (a friend's
    // seat a computer plays for now included: its friend may come back)
    if (hostsFriends(this.meta)) await this.withFriends((f) => f.rehost(this, this.meta.friends));
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
    const own = deckStyle(reply.view.rules.deck); // French cards, or the 48-card Spanish deck
    if (own) m.style = own;
    return m;
  }
}
