// What a page keeps of a table that deals fairly, in its own storage (IndexedDB "briscola-fair",
// this page's origin only; docs/friends.md, "The page at a fair table"): one record a table and
// role, replaced at each step, so that a reload carries on.
//   guest:ROOM  {deal, past}            a friend's page: its FairPlay's snapshot (./fair.js)
//   host:ROOM   {table, deal, past}     the host's page: what it needs to host the table again
//                                       (the room, its key, the seats and their tokens, the
//                                       round) and the deal under way, or null once it is over
// `past`: the public records of the match's deals found fair here (every card public once a deal
// is over), for the match's next deal; none once the match is over.
// A deal's snapshot holds this device's secret key and seed, its own cards and those opened to
// all (its engine's `fair_save`), and the messages it heard (masked cards, shares): never a card
// of another device's hand. It never leaves the device. At most KEPT records stay (the oldest
// go); the room of the table this tab hosts is in its session storage (js/storage.js
// tabFairTable). Storage that refuses is said once by the caller; the deal goes on.

const DB = "briscola-fair";
const STORE = "tables";
const KEPT = 4;

let opening = null;

function db() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "key" });
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    opening.catch(() => { opening = null; });
  }
  return opening;
}

function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve(true);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** The record kept under `key`, or null (none, or storage refused). */
export async function readKept(key) {
  try {
    const tx = (await db()).transaction(STORE, "readonly");
    const req = tx.objectStore(STORE).get(key);
    await done(tx);
    return req.result ?? null;
  } catch {
    return null;
  }
}

/** `value` kept under `key` (replacing what was), the oldest records past KEPT removed. False
 * where storage refused. */
export async function keep(key, value) {
  try {
    const tx = (await db()).transaction(STORE, "readwrite");
    const store = tx.objectStore(STORE);
    store.put({ ...value, key, at: Date.now() });
    const all = store.getAll();
    all.onsuccess = () => {
      const old = all.result.filter((r) => r.key !== key).sort((a, b) => b.at - a.at).slice(KEPT - 1);
      for (const r of old) store.delete(r.key);
    };
    return await done(tx);
  } catch {
    return false;
  }
}

export async function drop(key) {
  try {
    const tx = (await db()).transaction(STORE, "readwrite");
    tx.objectStore(STORE).delete(key);
    return await done(tx);
  } catch {
    return false;
  }
}
