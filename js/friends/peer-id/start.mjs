// Bundled into js/friends/vendor.js just before Trystero (tools/build/friends.py), so that a page
// that joins the room later gets a lower peer id than the pages already there.
//
// Trystero names the page in the room with an id of 20 characters drawn with Math.random when its
// module is evaluated. Of two pages, only the one whose id sorts higher answers the other's
// WebRTC offers; the other ignores the first's offers, and its own reach the first only at its
// next announce through the tracker (10 s to 2 minutes later, as the tracker asks: 2 minutes by
// default). So a friend opening the invitation or reloading waited, half the time, and so did
// friends after the host's reload (docs/friends.md). Here the first six draws spell a prefix that sorts lower the
// later the page joined (in hundredths of a second from 2026, backwards; a cycle of 18 years):
// the pages already in the room answer a newcomer's first offers at once. The other 14
// characters stay random. `restore` (end.mjs, right after Trystero) gives Math.random back.

/** Trystero's alphabet for ids, in its order (tests/test_friends_ids.py checks it is still so). */
export const ALPHABET = "0123456789AaBbCcDdEeFfGgHhIiJjKkLlMmNnOoPpQqRrSsTtUuVvWwXxYyZz";
const SORTED = [...ALPHABET].sort().join(""); // by UTF-16 code unit, as ids are compared
const DIGITS = 6;
const UNIT_MS = 10;
const EPOCH = Date.UTC(2026, 0, 1);

/** The prefix of a page started at `now` (ms): later pages, lower prefixes. */
export function idPrefix(now) {
  const span = SORTED.length ** DIGITS;
  let n = span - 1 - ((Math.floor((now - EPOCH) / UNIT_MS) % span) + span) % span;
  let out = "";
  for (let i = 0; i < DIGITS; i++) {
    out = SORTED[n % SORTED.length] + out;
    n = Math.floor(n / SORTED.length);
  }
  return out;
}

const random = Math.random;
const draws = [...idPrefix(Date.now())].map((c) => (ALPHABET.indexOf(c) + 0.5) / ALPHABET.length);
Math.random = () => (draws.length ? draws.shift() : random());

/** Math.random as it was (called once Trystero's module has made its id). */
export function restore() {
  Math.random = random;
}
