// A friend's page's words and dialogs (./guest.js's FriendsGuest: methods mixed into it): the
// dialog before the deal (the seats, the name, the connection's problems), the table closed or
// its host gone, the end screen's choices, the line of people at the table.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { forget } from "../embed.js";
import { cleanName, closeDialog, dialog, peopleBar, savedName, saveName, settingsSection } from "./common.js";
import { fairEnd, fairWords } from "./fair.js";

export class GuestDialog {
  // ---- the dialog before the deal ----------------------------------------------------------
  draw() {
    // before open() (this page's engine starting), only once the host's seats are here: the
    // loading screen says the rest
    if (this.shown || (!this.opened && (this.closed || !this.lobbySeats.length))) return;
    const body = dialog(() => this.cancel());
    const name = h("input", { id: "friends-name", type: "text", value: savedName(), attrs: { maxlength: "20", autocomplete: "nickname" } });
    name.addEventListener("input", () => saveName(name.value)); // a redraw keeps what is typed
    const list = h("ul", { class: "friends-seats", id: "friends-seats" });
    this.lobbySeats.forEach((s, i) => {
      const mine = i === this.seat;
      const who = s.kind === "bot" ? `${t("new.kind.bot")} · ${t(`level.${s.level}`)}`
        : mine ? t("friends.you") : s.kind === "human" ? t("friends.host", { name: s.name || t("seat.player", { n: i + 1 }) })
          : s.taken ? (s.name || t("friends.friend")) : t("friends.free");
      const take = s.kind === "friend" && !s.taken && this.seat === null
        ? h("button", { class: "btn small", type: "button", data: { take: i }, text: t("friends.take"), on: { click: () => {
          const n = cleanName(name.value);
          if (!n) { this.problem = t("friends.name.needed"); this.draw(); name.focus(); return; }
          saveName(n);
          this.taking = { t: "take", seat: i, name: n, token: this.token };
          this.send(this.taking);
        } } })
        : null;
      list.append(h("li", { data: { seat: i, taken: s.taken ? "1" : "0" } }, h("b", { text: t("new.seat", { n: i + 1 }) }), " ", who, " ", take));
    });
    const host = this.lobbySeats.find((s) => s.kind === "human");
    const full = this.lobbySeats.length > 0 && (this.started || !this.lobbySeats.some((s) => s.kind === "friend" && !s.taken));
    const status = this.seat !== null ? t("friends.waiting.host", { name: (host && host.name) || t("friends.host.someone") })
      : this.hostMissing ? t("friends.host.missing")
        : this.hostHere ? (full ? t("friends.full") : t("friends.pick")) : t("friends.connecting");
    body.append(...[ // (append() would print a null)
      h("h2", { id: "friends-title", text: t("friends.join.title") }),
      h("p", { class: "muted small", text: t("friends.relays.note") }),
      h("div", { class: "field" }, h("label", { attrs: { for: "friends-name" }, text: t("friends.name") }), name),
      // the problem says it all (not "Connecting" beside it)
      this.problemReload || (this.netProblem && !this.hostHere) ? null : h("p", { id: "friends-status", attrs: { role: "status" }, text: status }),
      this.relay && this.hostHere ? h("p", { id: "friends-relay", class: "muted small", text: t("friends.relay.note") }) : null,
      this.netProblem ? h("p", { id: "friends-connect-problem", class: "form-error", attrs: { role: "alert" }, text: this.netProblem }) : null,
      this.problem ? h("p", { class: "form-error", attrs: { role: "alert" }, text: this.problem }) : null,
      this.lobbySeats.length ? list : null,
      h("p", { class: "muted small", text: t("friends.undo.off") }),
      // kept: this page connects again with them (its seat is kept), the relays of the
      // invitation still (the host's page listens there), the TURN server and "hide my
      // address" now the setting's rather than the link's
      settingsSection(this.net, () => {
        forget(["turn", "turn_user", "turn_credential", "ice"]);
        location.reload();
      }, false),
      h("div", { class: "buttons" },
        h("button", { class: "btn", type: "button", id: "friends-cancel", text: t("new.cancel"), on: { click: () => this.cancel() } }),
        this.problemReload ? h("button", { class: "btn primary", type: "button", text: t("friends.reload"), on: { click: () => location.reload() } }) : ""),
    ].filter(Boolean));
  }

  /** The person leaves the table (Cancel, Escape): the room left, a new game offered. */
  cancel() {
    this.closed = true;
    this.leave();
    this.app.friends = null;
    closeDialog();
    // before this page's engine is up, fromLink opens it once the engine is
    if (this.opened) this.app.openNewGame(false);
  }

  /** The table has closed (`bye`: for good, the room left) or its host has been gone for long
   * (`sure` false: this page still listens, and the host's page coming back closes this): said,
   * with the score so far, and a new game offered. */
  ended(sure) {
    if (this.closed) return;
    if (sure) {
      this.closed = true;
      clearTimeout(this.goneTimer);
      this.leave();
    }
    const st = this.app.state;
    const body = dialog(() => this.cancel());
    const score = st && st.view && Array.isArray(st.view.side_points)
      ? t("friends.closed.score", { points: st.view.side_points.join(" – "), match: st.match && Array.isArray(st.match.score) ? st.match.score.join(" – ") : "" })
      : "";
    body.append(...[
      h("h2", { id: "friends-title", text: t(sure ? "friends.closed.title" : "friends.gone.title") }),
      h("p", { id: "friends-status", attrs: { role: "status" }, text: t(sure ? "friends.closed.text" : "friends.gone.text") }),
      score ? h("p", { id: "friends-score", text: score }) : null,
      h("div", { class: "buttons" },
        sure ? "" : h("button", { class: "btn", type: "button", id: "friends-wait", text: t("friends.gone.wait"), on: { click: () => closeDialog() } }),
        h("button", { class: "btn primary", type: "button", id: "friends-new", text: t("friends.closed.new"), on: { click: () => this.cancel() } })),
    ].filter(Boolean));
    if (!sure) {
      // "keep waiting": the dialog closes, this page still listens for the host's page
      const d = document.getElementById("friends-dialog");
      if (d) d.onEscape = () => closeDialog();
    }
  }

  /** The end screen's choices on this page (js/app.js): none to press; it says whom the next
   * deal waits for, and offers to leave the table. */
  endScreen() {
    if (this.closed) return null;
    const host = this.lobbySeats.findIndex((s) => s.kind === "human");
    const names = this.app.state ? this.app.names() : [];
    const name = (host >= 0 && (this.lobbySeats[host].name || names[host])) || t("friends.host.someone");
    return { waiting: t("friends.next.waiting", { name }), leave: () => this.cancel(), ...fairEnd(this) };
  }

  /** The summary's "next deal": the host deals it; this page shows it when it comes. */
  nextDeal() {
    this.app.notice(t("friends.next.wait"), 6000);
    return new Promise((resolve) => { this.nextWaiter = resolve; });
  }

  /** Back at the fair deal (this page's reload, or the host's page back): what the host's device
   * has not heard of this one sent again (from its message `heard` on), and what this one has
   * heard of each device said (`fair_heard`), for the others to send again what came after. */
  async fairCatchUp(heard) {
    const fair = this.fair;
    await fair.begun;
    if (!fair.fs) return;
    await fair.again(heard);
    this.send({ t: "fair_heard", round: fair.round, heard: fair.heard() });
  }

  /** Back without the fair deal under way (nothing of it kept here): the host's page is told,
   * and ends it uncounted on every device (this page joins the next). */
  fairLost() {
    this.send({ t: "fair_lost", round: this.fair.round });
  }

  /** This page refused the fair deal (not the match's next here: FairPlay's `refused`, the
   * code): the host's page is told, and ends it uncounted on every device. */
  fairRefuse() {
    this.send({ t: "fair_refuse", round: this.fair.round, code: this.fair.refused });
  }

  waits(turn) {
    this.bar();
    return turn !== this.seat;
  }

  bar() {
    if (!this.shown || !this.app.state) return;
    this.readHealth();
    const names = this.app.names();
    const turn = this.app.state.view.turn;
    peopleBar(this.lobbySeats.map((s, i) => ({ kind: s.kind, name: names[i] || s.name,
      connected: i === this.seat || (s.kind === "human" ? this.hostHere : s.connected), away: s.kind === "friend" && s.away,
      relay: s.kind === "human" && this.hostHere && this.relay })), turn,
    this.netProblem ? { text: t("friends.problem.host", { problem: this.netProblem }) } : fairWords(this));
  }
}
