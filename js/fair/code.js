// The table's code (docs/friends.md, "The table's code"): nine digits that every device of a
// fair deal shows once the keys are in, the same on every device exactly when every device
// deals under the same keys. A friend's page hears the others only through the host's page,
// which could otherwise stand in the middle: give each friend a key of its own in another's
// name and play two tables at once, one with each. Friends who read their codes to each other
// (at the same table, or on a call) see it: two tables, two codes. The digits are SHA-256 of the
// table's id, the round and every device's key in order (js/fair/group.js `hash`), 40 bits of
// it reduced to nine digits: a device that would make its key match another table's code must
// try about 10^9 keys while the table waits for it.
import { hash } from "./group.js";

const DIGITS = 9;

/** The code of `table` (a FairTable) once it has every device's key, "482 913 770"; null before. */
export function tableCode(table) {
  const keys = table.Y;
  if (!keys || keys.length !== table.devices || !Array.from(keys).every(Boolean)) return null; // (every: holes skipped)
  const h = hash("briscola-fair-code-v1", table.table, table.round, ...keys);
  let n = 0n;
  for (let i = 0; i < 5; i++) n = (n << 8n) | BigInt(h[i]);
  const s = (n % 10n ** BigInt(DIGITS)).toString().padStart(DIGITS, "0");
  return `${s.slice(0, 3)} ${s.slice(3, 6)} ${s.slice(6)}`;
}
