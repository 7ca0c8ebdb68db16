// Never sit dead: if the page's own code fails to load or run before the engine starts,
// show the reload button on the loading screen. This file imports nothing, so it runs
// even when another module cannot be loaded; so it carries its few words itself, in the
// language the page would choose (the saved choice, a deal link's, the browser's).

const WORDS = {
  it: {
    failed: "La pagina non si è caricata del tutto.",
    hint: "Di solito basta ricaricarla (un download può essersi interrotto).",
    slow: "Il caricamento ci mette troppo. Controlla la connessione e ricarica.",
    reload: "Ricarica la pagina",
    details: "Dettagli tecnici",
  },
  en: {
    failed: "The page did not load completely.",
    hint: "Reloading it usually helps (a download may have been cut off).",
    slow: "Loading is taking too long. Check the connection and reload.",
    reload: "Reload the page",
    details: "Technical details",
  },
};

function lang() {
  try {
    const saved = JSON.parse(localStorage.getItem("briscola.prefs") || "{}").lang;
    if (saved in WORDS) return saved;
  } catch {
    // storage refused (a third-party frame): the link's or the browser's language
  }
  const linked = new URLSearchParams(window.location.search).get("lang");
  if (linked in WORDS) return linked;
  return String(navigator.language || "it").toLowerCase().startsWith("it") ? "it" : "en";
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
