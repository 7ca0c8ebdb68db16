// Never sit dead: if the page's own code fails to load or run before the engine starts,
// show the reload button on the loading screen. This file imports nothing, so it runs
// even when another module cannot be loaded.

function showRetry(message) {
  const box = document.getElementById("load-retry-box");
  const msg = document.getElementById("load-error-msg");
  if (!box || document.documentElement.dataset.ui !== "loading") return;
  if (msg && message && !msg.textContent) msg.textContent = message;
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
  const bar = document.getElementById("load-progress");
  if (bar && Number(bar.value) === 0) showRetry("");
}, 45000);
