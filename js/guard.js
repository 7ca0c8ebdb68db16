// Never sit dead: if the page's own code fails to load or run before the engine starts,
// show the reload button on the loading screen. This file imports nothing, so it runs
// even when another module cannot be loaded; so it carries its few words itself, in the
// language the page would choose (the saved choice, a deal link's, the browser's).

// Its words: the keys it says from js/locales/, which the build writes here in every language
// (tools/build/site.py, guard_words); as written, English alone.
const GUARD_KEYS = {"failed": "guard.failed", "hint": "guard.hint", "slow": "loading.timeout", "reload": "loading.reload", "details": "loading.details"};
const WORDS = {
  en: {
    failed: "The page did not load completely.",
    hint: "Reloading it usually helps (a download may have been cut off).",
    slow: "Loading is taking too long. Check the connection and reload.",
    reload: "Reload the page",
    details: "Technical details",
  },
};

/** A language it has words in, from a tag ("hr-HR"), or null. */
const known = (tag) => {
  const base = String(tag || "").toLowerCase().split(/[-_]/)[0];
  return base in WORDS ? base : null;
};

function lang() {
  try {
    const saved = known(JSON.parse(localStorage.getItem("briscola.prefs") || "{}").lang);
    if (saved) return saved;
  } catch {
    // storage refused (a third-party frame): the link's or the browser's language
  }
  const linked = known(new URLSearchParams(window.location.search).get("lang"));
  if (linked) return linked;
  for (const tag of [...(navigator.languages || []), navigator.language]) {
    if (known(tag)) return known(tag);
  }
  return "en";
}

function showRetry(message, key = "failed") {
  const box = document.getElementById("load-retry-box");
  const msg = document.getElementById("load-error-msg");
  if (!box || document.documentElement.dataset.ui !== "loading") return;
  const words = WORDS[lang()];
  const stage = document.getElementById("load-stage");
  if (stage) stage.textContent = words[key];
  if (msg && !msg.textContent && key === "failed") msg.textContent = words.hint;
  const tech = document.getElementById("load-error-tech");
  const details = document.getElementById("load-error-details");
  if (message && tech && details && !tech.textContent) {
    tech.textContent = message; // English, for a bug report
    details.querySelector("summary").textContent = words.details;
    details.hidden = false;
  }
  const button = document.getElementById("load-retry");
  if (button) button.textContent = words.reload;
  box.hidden = false;
}

document.getElementById("load-retry")?.addEventListener("click", () => window.location.reload());
window.addEventListener("error", (e) => showRetry(e.message || "script error"));
window.addEventListener("unhandledrejection", (e) => showRetry(String(e.reason && e.reason.message || e.reason)));
// A module that failed to download fires "error" on its <script>, which does not bubble.
for (const s of document.querySelectorAll('script[type="module"]')) {
  s.addEventListener("error", () => showRetry(`could not load ${s.getAttribute("src")}`));
}
// The engine reports progress; if nothing has moved in a long while, offer a reload.
setTimeout(() => {
  const bar = /** @type {HTMLProgressElement | null} */ (document.getElementById("load-progress"));
  if (bar && Number(bar.value) === 0) showRetry("", "slow");
}, 45000);
