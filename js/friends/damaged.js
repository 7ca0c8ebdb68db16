// An invitation that cannot be read, said in words with the way out (js/friends/index.js: a
// part of the link missing or malformed; ./guest.js: the host's key in it is no key).

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { forget } from "../embed.js";
import { closeDialog, dialog } from "./common.js";

/** An invitation that cannot be read (a part of it missing or changed): said in a dialog of
 * its own, with the way out (a new game), and the link taken off the address (a reload is
 * this page's own again). */
export function damaged(app) {
  forget(["join", "host", "relays", "stun", "turn", "turn_user", "turn_credential", "ice"]);
  const out = () => {
    closeDialog();
    app.openNewGame(false);
  };
  const body = dialog(out);
  body.append(
    h("h2", { id: "friends-title", text: t("friends.damaged.title") }),
    h("p", { id: "friends-status", attrs: { role: "alert" }, text: t("friends.damaged.text") }),
    h("div", { class: "buttons" }, h("button", { class: "btn primary", type: "button", id: "friends-new", text: t("friends.closed.new"), on: { click: out } })));
}

