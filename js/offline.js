// Offline play: registers the service worker (sw.js at the site root), which keeps every
// file of this build so that later visits start with no network at all.
//
// It waits until the engine has started (the page leaves its loading state), so that on a
// first visit the worker's downloads never compete with the start; by then the files are in
// the HTTP cache and the worker copies them from there. A newer build's worker, once
// installed, takes over when this page is hidden or closed (a tab loading meanwhile may get
// files of both builds: js/engine.js reloads it into one). Nothing happens on file:// pages (briscola.html
// carries everything itself) or where the browser has no service workers.

const SITE_ROOT = new URL("../", import.meta.url);

function whenStarted(callback) {
  const root = document.documentElement;
  const started = () => root.dataset.ui && root.dataset.ui !== "loading";
  if (started()) return callback();
  const watch = new MutationObserver(() => {
    if (!started()) return;
    watch.disconnect();
    callback();
  });
  watch.observe(root, { attributes: true, attributeFilter: ["data-ui"] });
}

async function register() {
  let registration;
  try {
    registration = await navigator.serviceWorker.register(new URL("sw.js", SITE_ROOT), { scope: SITE_ROOT.pathname });
  } catch (err) {
    console.warn("offline play is not available:", err && err.message ? err.message : err);
    return;
  }
  // A browser that blocks service workers (a policy, an automation setting) may answer with
  // nothing rather than an error: no offline play, and the page plays on.
  if (!registration) {
    console.warn("offline play is not available: the browser registered no service worker");
    return;
  }
  // A newer build waiting: let it take over once this page is out of sight.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden" && registration.waiting) {
      registration.waiting.postMessage({ type: "skip-waiting" });
    }
  });
}

if (typeof navigator !== "undefined" && "serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
  whenStarted(() => {
    register();
  });
}
