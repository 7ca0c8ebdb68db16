// A stop heard from another device (js/fair/table.js `stop`): FairTable's, apart for its size.
import { shareRight } from "./shares.js";

/** Another device stopped the deal, naming a device (or none). A share said wrong can be
 * checked here (the shares go to every device), whether the stop says a share is wrong
 * (`bad_token`, the share of `device`) or that an accusation of one was false
 * (`false_accusation` of `device`, about the share of `of`): whoever the share proves wrong is
 * named. Anything else is said as the accuser's word (`by`, `checked: false`): this device
 * stops too. */
export function onStop(t, j, m) {
  const about = m.code === "bad_token" ? m.device : m.code === "false_accusation" ? m.of : undefined;
  if (t.phase !== "keys" && t.phase !== "shuffle" && Number.isInteger(about) && about < t.devices &&
      m.p !== undefined && m.p < t.size) {
    const entry = t.tokens[m.p].get(about) ?? t.pending[m.p].get(about);
    if (entry) {
      const right = shareRight(t, about, m.p, entry); // (a share's group: its one proof)
      const accuser = m.code === "bad_token" ? j : m.device;
      if (right && accuser !== null) {
        t._cheat(accuser, "false_accusation", `device ${accuser} said device ${about}'s share of position ${m.p} was wrong; it is right`, { p: m.p, of: about });
      } else if (!right) {
        t._cheat(about, "bad_token", `device ${about}'s share for position ${m.p} is wrong (its proof fails)`, { p: m.p });
      }
      if (t.stopped) return;
    }
  }
  const who = m.device === null ? "a shuffle was forged" : `device ${m.device} cheated`;
  t._cheat(m.device, m.code, `device ${j} stopped the deal: it says ${who} (${m.code})`, { by: j });
}
