// The embed's poster (embed.html): a picture of the table and a Play button, for a blog post
// whose readers may never play. It loads no part of the engine: Play opens the game,
// index.html?embed=1 with the same options, in this frame. Options (besides the game's own,
// which pass through: variant, players, deck, level, seed, lang; see js/embed.js):
//
//   start   "play" (the default): the game loads when the reader presses Play;
//           "view": it loads as soon as the frame comes into view (scrolled to), Play or not
//
// Like the game, it tells the host page its height and takes a new-deal request (which
// starts the game, with the seed it gives): see js/host.js.

import { t, setLang, detectLang, applyStatic, addWords, LANGS } from "./words.js";
import words from "./poster-words.js";
import { cardSVG, backSVG } from "./cards.js";
import { loadPrefs } from "./storage.js";
import { watchHeight, onRequest } from "./host.js";

addWords(words);
const params = new URLSearchParams(location.search);
const prefs = loadPrefs();
const lang = [params.get("lang"), prefs.lang].find((l) => LANGS.includes(l)) || detectLang();
setLang(lang);
applyStatic(document);
document.title = `${t("app.title")} — ${t("app.tagline")}`;

// The picture: the opponent's three cards, the talon with the trump under it, a card on the
// table and the reader's hand.
const french = params.get("deck") === "french";
const style = french ? "french" : ["napoletane", "piacentine"].includes(prefs.style) ? prefs.style : "napoletane";
const table = document.getElementById("poster-table");
const place = (svg, left, top, turn = 0) => {
  const card = document.createElement("div");
  card.className = "card";
  card.style.left = `${left}%`;
  card.style.top = `${top}%`;
  if (turn) card.style.transform = `rotate(${turn}deg)`;
  card.innerHTML = svg; // drawn by cards.js from fixed shapes, nothing from the URL
  table.append(card);
};
[30, 41.5, 53].forEach((left, i) => place(backSVG(style, lang, `p${i}`), left, 4));
place(cardSVG("3D", style, lang, "pt"), 12, 34, 90);
place(backSVG(style, lang, "pd"), 8, 30, 0);
place(cardSVG("KS", style, lang, "pk"), 47, 36, -8);
const fan = /** @type {[string, number, number][]} */ ([["AB", 27, -7], ["7C", 41.5, 0], ["2D", 56, 7]]);
fan.forEach(([code, left, turn], i) =>
  place(cardSVG(code, style, lang, `ph${i}`), left, 62, turn));

const play = /** @type {HTMLButtonElement} */ (document.getElementById("poster-play"));
let going = false;

/** Open the game in this frame, with the poster's options (and `seed`, if given). */
function go(seed) {
  if (going) return;
  going = true;
  play.setAttribute("aria-busy", "true");
  play.textContent = t("poster.opening");
  const query = new URLSearchParams(params);
  query.delete("start");
  query.set("embed", "1");
  if (seed !== undefined && seed !== null) query.set("seed", String(seed));
  location.replace(new URL(`index.html?${query}`, location.href).href);
}

play.addEventListener("click", () => go());
// Disabled in embed.html until now: a press before this script ran would have been lost.
play.disabled = false;
onRequest("new-deal", (msg) => go(typeof msg.seed === "number" || typeof msg.seed === "string" ? msg.seed : null));
watchHeight(() => document.body.getBoundingClientRect().height);

if (params.get("start") === "view" && typeof IntersectionObserver !== "undefined") {
  // Inside a frame the browser measures against the top page's viewport.
  const seen = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) {
      seen.disconnect();
      go();
    }
  });
  seen.observe(document.querySelector(".poster"));
}
