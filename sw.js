// The service worker: keeps every file of one build in Cache Storage, so that later
// visits start with no network at all, offline too. js/offline.js registers it once the
// engine has started on a first visit (its downloads then come from the HTTP cache).
//
// build.py writes PRECACHE into dist/sw.js: the build hash and every file the page can
// fetch, each with its SHA-256 in Subresource Integrity form (`files`), and the files kept
// once fetched (`keep`: the learned evaluations of the variants other than two- and
// four-player Briscola and Chiamata, which a first visit does not download; the engine's
// worker puts one in this build's cache when it fetched it, js/worker.js), and the files this
// worker fetches itself when a page first asks for them (`later`: the code of playing with
// friends, which a page imports only when a person chooses it), each checked against this
// build's hash: a copy of another build (the host deployed a new one since) is refused, so
// that a tab never runs another build's friends code (js/engine.js friendsOfThisBuild then
// reloads it into one build). The languages other than English are `later` files too: a page
// fetches only the words of its own language (js/i18n.js, js/lang-files.js), and the page's
// modules that a first deal does not run are `later` files as well (`needed`: js/later.js),
// which this worker also fetches all at once when a page asks (its first deal over). (This source file has PRECACHE = null and does nothing.) A new build changes this file, so the browser
// installs the new worker beside the old one:
//
//   install   fill the cache "briscola:<scope path>:<hash>": each file is fetched and
//             checked against its hash (a stale copy from the HTTP cache is refetched);
//             a file that an older build's cache holds with the same hash is copied (a kept
//             or later one too, which is never fetched here, but for a language's file an
//             older build kept in another version, fetched anew); where the browser has static routes,
//             the files come from that cache without the fetch handler (the page itself,
//             whose query varies, still goes through it)
//   activate  (when no page of the old build is open any more, or a page asks for it)
//             delete the other builds' caches and their engine snapshots
//   fetch     answer from this build's cache (a later file fetched, checked and kept on its
//             first request); every other request goes to the network
//
// Each request is answered from one build's files. A page that loads while a new build takes
// over (another tab of the old build let it, js/offline.js) can still get files of both: the
// page checks its worker's build (js/engine.js) and reloads into one.

const PRECACHE = null; // build.py

const PREFIX = `briscola:${new URL(self.registration.scope).pathname}:`;
const CACHE = PRECACHE ? PREFIX + PRECACHE.hash : null;
const SNAPSHOTS = CACHE ? `${CACHE}:snapshot` : null; // written by js/worker.js
const INTEGRITY = "X-Briscola-Integrity"; // header kept on each cached copy

const urlOf = (path) => new URL(path, self.registration.scope).href;

self.addEventListener("install", (event) => {
  if (PRECACHE) event.waitUntil(Promise.all([precache(), routes(event)]));
});

// Where the browser supports static routes, a later visit's files come straight from this
// build's cache, without a turn through this worker's fetch handler below (which stays for
// the page itself, whatever its query, and for browsers without them). A file missing from
// the cache goes to the network, as in the fetch handler.
async function routes(event) {
  if (typeof event.addRoutes !== "function") return;
  const pathname = new URL(self.registration.scope).pathname + "*";
  // the later files go through the fetch handler (a route's cache miss would go to the network
  // unchecked): the first rule that matches a request wins
  const later = Object.keys(PRECACHE.later).map((path) => ({
    condition: { urlPattern: { pathname: new URL(self.registration.scope).pathname + path, baseURL: self.registration.scope } },
    source: "fetch-event",
  }));
  try {
    await event.addRoutes([...later, ...["cors", "same-origin", "no-cors"].map((requestMode) => ({
      condition: { urlPattern: { pathname, search: "", baseURL: self.registration.scope }, requestMethod: "GET", requestMode },
      source: { cacheName: CACHE },
    }))]);
  } catch (error) {
    console.warn("sw.js: static routes refused", error);
  }
}

async function precache() {
  const cache = await caches.open(CACHE);
  const older = (await caches.keys()).filter((name) => name.startsWith(PREFIX)
    && name !== CACHE && !name.endsWith(":snapshot"));
  /** Whether this build's cache has the file, copied from an older build's if need be. */
  const have = async (url, integrity) => {
    const mine = await cache.match(url);
    if (mine && mine.headers.get(INTEGRITY) === integrity) return true; // an interrupted install
    for (const name of older) {
      const res = await (await caches.open(name)).match(url);
      if (res && res.headers.get(INTEGRITY) === integrity) {
        await cache.put(url, res);
        return true;
      }
    }
    return false;
  };
  const fetched = async ([path, integrity]) => {
    const url = urlOf(path);
    if (await have(url, integrity)) return;
    let res;
    try {
      res = await fetch(url, { integrity });
    } catch {
      // Most likely an older copy in the HTTP cache: ask the server.
      res = await fetch(url, { integrity, cache: "reload" });
    }
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
    const headers = new Headers({ [INTEGRITY]: integrity });
    const type = res.headers.get("Content-Type");
    if (type) headers.set("Content-Type", type);
    await cache.put(url, new Response(await res.blob(), { headers }));
  };
  /** A language's file (js/locales/, a later one) that an older build kept in another version:
   * the person reads the page in it, so this build's is fetched now, for the page to start in
   * it offline after the update too (a failure leaves it to be fetched when asked); so is a
   * page module loaded when first needed (js/later.js: the review, the puzzle), for its flow
   * to work offline after the update as it did before. */
  const used = async ([path, integrity]) => {
    const url = urlOf(path);
    if (await have(url, integrity) || !(path.startsWith("js/locales/") || PRECACHE.needed.includes(path))) return;
    for (const name of older) {
      if (await (await caches.open(name)).match(url)) return fetched([path, integrity]).catch(() => {});
    }
  };
  await Promise.all([...Object.entries(PRECACHE.files).map(fetched),
    ...Object.entries(PRECACHE.keep).map(([path, integrity]) => have(urlOf(path), integrity)),
    ...Object.entries(PRECACHE.later).map(used)]);
}

self.addEventListener("activate", (event) => {
  if (!PRECACHE) return;
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE && name !== SNAPSHOTS) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
  // The page's modules loaded when first needed (js/later.js), all fetched and kept now: a page
  // asks once its first deal is over, or a flow of theirs is in sight (a failure, the network
  // gone, leaves each to be fetched when asked).
  if (event.data && event.data.type === "keep-needed" && PRECACHE) {
    event.waitUntil(Promise.all(PRECACHE.needed.map((path) => laterFile(path).catch(() => {}))));
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (!PRECACHE || request.method !== "GET") return;
  const scope = new URL(self.registration.scope);
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  let path = decodeURIComponent(url.pathname.slice(scope.pathname.length));
  // The page itself, whatever its query (?embed=1&seed=42...).
  if (request.mode === "navigate" && path === "") path = "index.html";
  if (!Object.hasOwn(PRECACHE.files, path) && !Object.hasOwn(PRECACHE.keep, path)
    && !Object.hasOwn(PRECACHE.later, path)) return;
  if (request.mode !== "navigate" && url.search) return; // cached without a query
  if (Object.hasOwn(PRECACHE.later, path)) {
    event.respondWith(laterFile(path));
    return;
  }
  event.respondWith((async () => {
    const hit = await (opened ??= caches.open(CACHE)).then((cache) => cache.match(urlOf(path)));
    return hit || fetch(request);
  })());
});

let opened = null; // this build's cache, opened once

/** A later file: from this build's cache, else fetched, checked against this build's hash and
 * kept; a copy of another build is an error (the page's import fails, and it reloads). */
async function laterFile(path) {
  const cache = await (opened ??= caches.open(CACHE));
  const url = urlOf(path);
  const integrity = PRECACHE.later[path];
  const hit = await cache.match(url);
  if (hit && hit.headers.get(INTEGRITY) === integrity) return hit;
  let res;
  try {
    res = await fetch(url, { integrity });
  } catch {
    try {
      res = await fetch(url, { integrity, cache: "reload" }); // an older copy in the HTTP cache?
    } catch (error) {
      console.warn(`sw.js: ${path} is not this build's file (or the network is gone)`, error);
      return Response.error();
    }
  }
  if (!res.ok) return res;
  const headers = new Headers({ [INTEGRITY]: integrity });
  const type = res.headers.get("Content-Type");
  if (type) headers.set("Content-Type", type);
  const body = await res.blob();
  cache.put(url, new Response(body, { headers })).catch(() => {});
  return new Response(body, { headers });
}
