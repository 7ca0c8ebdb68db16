// The host's lobby of a table with friends (./host.js's FriendsHost: methods mixed into it):
// the invitation (its link, QR code, copy and share), the seats as they are taken, the
// timeout, the relays' settings, and Start.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { cleanName, dialog, saveName, settingsSection } from "./common.js";

export class HostLobby {
  drawLobby() {
    if (this.started) return;
    const body = dialog(() => this.cancel());
    const link = this.link || "";
    const invite = h("a", { class: "invite-link", href: link, data: { invite: "" }, attrs: { target: "_blank", rel: "noopener" }, text: link });
    const copy = h("button", { class: "btn", type: "button", id: "friends-copy", text: t("friends.copy"), on: { click: async () => {
      try {
        await navigator.clipboard.writeText(link);
        copy.textContent = t("friends.copied");
      } catch {
        copy.textContent = t("friends.copy.failed");
      }
    } } });
    const share = typeof navigator.share === "function"
      ? h("button", { class: "btn", type: "button", text: t("friends.share"), on: { click: () => navigator.share({ title: t("app.title"), text: t("friends.share.text"), url: link }).catch(() => {}) } })
      : null;
    const qr = h("figure", { class: "invite-qr" });
    if (link) this.drawQr(qr, link);
    const name = h("input", { id: "friends-host-name", type: "text", value: this.seats[this.mine].name, attrs: { maxlength: "20", autocomplete: "nickname" } });
    // kept as it is typed (a redraw before the field is left must not lose it); told on change
    const keep = () => {
      this.seats[this.mine].name = cleanName(name.value);
      saveName(name.value);
    };
    name.addEventListener("input", keep);
    name.addEventListener("change", () => {
      keep();
      this.tellLobby();
    });
    const timeout = h("input", { id: "friends-timeout", type: "number", value: String(this.timeout), attrs: { min: "5", max: "3600", step: "5" } });
    timeout.addEventListener("change", () => {
      const v = Number(timeout.value);
      if (Number.isFinite(v) && v >= 5 && v <= 3600) this.timeout = v;
      else timeout.value = String(this.timeout);
    });
    const fair = h("input", { id: "friends-fair", type: "checkbox", checked: !!this.fairDeal,
      on: { change: () => { this.fairDeal = fair.checked; this.drawLobby(); } } });
    const list = h("ul", { class: "friends-seats", id: "friends-seats" });
    this.seats.forEach((s, i) => {
      const who = s.kind === "bot" ? `${t("new.kind.bot")} · ${t(`level.${s.level}`)}`
        : s.kind === "human" ? t("friends.you")
          : s.token ? `${s.name || t("friends.friend")}${s.peer ? (this.conn && this.conn.medium(s.peer) === "relay" ? ` · ${t("friends.state.relay")}` : "")
            : ` · ${t("friends.state.off")}`}` : t("friends.free");
      list.append(h("li", { data: { seat: i, taken: s.kind !== "friend" || s.token ? "1" : "0" } },
        h("b", { text: t("new.seat", { n: i + 1 }) }), " ", who));
    });
    const free = this.free().length;
    const start = h("button", { class: "btn primary", type: "button", id: "friends-start", text: t("friends.start"), disabled: free > 0 || !this.conn,
      on: { click: () => this.start() } });
    const fill = h("button", { class: "btn", type: "button", id: "friends-fill", text: t("friends.fill"), disabled: free === 0 || !this.conn,
      on: { click: () => this.start(true) } });
    const cancel = h("button", { class: "btn", type: "button", text: t("new.cancel"), on: { click: () => this.cancel() } });
    body.append(
      h("h2", { id: "friends-title", text: t("friends.title") }),
      h("p", { class: "muted small", text: t("friends.relays.note") }),
      h("div", { class: "field" }, h("label", { attrs: { for: "friends-host-name" }, text: t("friends.name") }), name),
      h("h3", { text: t("friends.invite") }),
      // the QR code first: on a phone the friend beside scans it, and below the link it went
      // under the lobby's pinned buttons (360×740)
      qr,
      this.problem ? h("p", { class: "form-error", attrs: { role: "alert" }, text: this.problem })
        : h("p", { class: "invite" }, this.conn ? invite : h("span", { class: "muted", text: t("friends.connecting") })),
      this.connectProblem ? h("p", { id: "friends-connect-problem", class: "form-error", attrs: { role: "alert" }, text: this.connectProblem }) : "", // (append() would print a null)
      this.problem ? h("div", { class: "buttons" }, this.retryButton()) : h("div", { class: "buttons" }, copy, share),
      h("h3", { text: t("new.seats") }),
      list,
      h("div", { class: "field" }, h("label", { attrs: { for: "friends-timeout" }, text: t("friends.timeout") }), timeout),
      h("div", { class: "opt opt-bool" }, h("label", { class: "check", attrs: { for: "friends-fair" } }, fair, h("span", { text: t("friends.fair") }))),
      this.seats.some((s) => s.kind === "bot") ? h("p", { class: "muted small", text: t("friends.fair.bots") }) : "",
      this.fairDeal ? this.fairNote() : "",
      h("p", { class: "muted small", text: t("friends.undo.off") }),
      // relays saved while the room is not open are the ones "Try again" opens it with; saved
      // in an open lobby, the room opens again with them (a new invitation where it changed)
      settingsSection(this.net, (net) => this.renet(net)),
      h("div", { class: "buttons pinned" }, cancel, fill, start));
  }

  /** Under "Deal fairly", what such a table checks only when the deal ends under these rules
   * (the engine's check_rules says which: each device sees its own cards alone); asked once. */
  fairNote() {
    if (this.fairRules === undefined) {
      this.fairRules = null;
      this.call("check_rules", { rules: this.cfg.rules }).then((got) => {
        this.fairRules = got;
        if (got.hand_checks.length) this.drawLobby();
      }, () => {});
    }
    const later = (this.fairRules && this.fairRules.hand_checks) || [];
    return later.length ? h("p", { class: "muted small", id: "friends-fair-later",
      text: t("friends.fair.later", { what: later.map((k) => t(`friends.fair.later.${k}`)).join(", ") }) }) : "";
  }

  retryButton() {
    return h("button", { class: "btn primary", type: "button", id: "friends-retry", text: t("friends.retry"), disabled: !!this.retrying,
      on: { click: () => this.retry() } });
  }

  async drawQr(box, link) {
    try {
      const { qrcode } = await import("./vendor.js");
      const code = qrcode(0, "M");
      code.addData(link);
      code.make();
      box.append(h("img", { src: code.createDataURL(4, 8), alt: t("friends.qr") }));
    } catch {
      // no QR code: the link and its buttons are still there
    }
  }

}
