// The way in: a first visit (no game saved) lands on a dealt, playable classic deal against
// the intermediate computer player, with the New game panel one click away; a link whose
// deal cannot be dealt says why on the page, in the person's language.

import { t } from "./i18n.js";

/** The first visitor's game: classic Briscola, one person against the computer. */
export function welcomeConfig(catalog, style) {
  const levels = (catalog && catalog.levels) || [];
  const level = levels.includes("intermediate") ? "intermediate" : levels[0];
  const seats = [{ kind: "human", name: "" }, { kind: "bot", level }];
  return {
    variant: "classic", overrides: {}, rules: { name: "classic" }, seats,
    allSeats: seats.map((s) => ({ ...s })), style, prefStyle: style, seed: "",
  };
}

/** Deal the welcome game and show it (app is the page's controller, js/app.js). */
export async function dealWelcome(app) {
  const cfg = welcomeConfig(app.catalog, app.prefs.style);
  // The engine's worker draws the seed and keeps it: the page never learns it.
  const meta = { variant: cfg.variant, custom: false, names: ["", ""], style: app.prefs.style, config: cfg };
  let reply;
  try {
    reply = await app.engine.call("new_match", { rules: cfg.rules, seats: cfg.seats, meta });
  } catch (err) {
    app.noticeError(err, 12000);
    return app.openNewGame(false);
  }
  app.meta = meta;
  await app.startShowing(reply);
}

/**
 * A link asked for a deal that cannot be dealt: say which option and why, in the page's
 * language. problem: {key: "variant"|"level"|"deck"|"players"|"seed"|"other", value, message}
 */
export function linkRefused(app, problem) {
  const text = problem.key === "other"
    ? t("link.bad.other", { message: problem.message || "" })
    : t(`link.bad.${problem.key}`, { value: problem.value || "" });
  app.notice(`${t("link.bad")} ${text}`, 20000);
}
