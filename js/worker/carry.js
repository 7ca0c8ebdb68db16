// A person's games carried to another browser, and the records set aside: a module of
// js/worker.js (bundled into it by the build, tools/build/worker.py).
//
// The page's file of a person's data (js/carry.js makes and checks it) holds the games as this
// worker keeps them. Requests the worker answers itself (js/worker.js `keep`):
//   data_export {}            -> {games: [{id, save, meta, created, updated}]}: every kept game,
//                                finished or not (the file is the person's own copy)
//   data_stage {record, first} -> {info}: one game of a file, checked as a save is (the bridge's
//                                `check_save`: the engine's own loading, the table left as it
//                                was) and held here until the commit; `first` forgets what an
//                                earlier import left staged. bad_import when refused
//   data_commit {mode}        -> {added, kept, skipped}: the staged games written in one
//                                transaction, "merge" (a game kept in both keeps its later
//                                state) or "replace" (the games here go first); a game open in a
//                                tab now is never replaced nor removed (`skipped`)
//   data_cancel {}            -> {}: the staged games forgotten
//   aside_list {}             -> {aside: [{key, when, reason, bytes}]}: the records set aside
//   aside_get {key}           -> {entry}: one of them whole (the page offers it as a download)
//   aside_remove {key}        -> {}
// Saves refused are set aside (js/worker/games.js), at most MAX_ASIDE of them (the oldest go).

import { checkJSON } from "../limits.js";
import { ask } from "./bridge.js";
import { allGames, current, heldElsewhere, infoOf, tx } from "./games.js";

export const CARRY = new Set(["data_export", "data_stage", "data_commit", "data_cancel",
  "aside_list", "aside_get", "aside_remove"]);
const MAX_STAGED = 200; // games in one file (js/carry.js MAX_GAMES)
const GAME_ID = /^[0-9a-z][0-9a-z-]{0,63}$/;
let staged = [];

const refuse = (message) => ({ error: { code: "bad_import", message } });
const when = (x) => Number.isFinite(x) && x >= 0 && x < 1e14;

/** One request of CARRY: `{result}` or `{error}`. */
export async function carry(type, args) {
  switch (type) {
    case "data_export": {
      const games = (await allGames()).filter((g) => g && typeof g.id === "string" && typeof g.save === "string")
        .map((g) => ({ id: g.id, save: g.save, meta: g.meta ?? null, created: g.created ?? null, updated: g.updated ?? null }));
      return { result: { games } };
    }
    case "data_stage": {
      if (args.first === true) staged = [];
      const g = args.record; // (not `game`: js/worker.js reads that as the table's id)
      const n = staged.length + 1;
      if (!g || typeof g !== "object" || Array.isArray(g)) return refuse(`game ${n}: expected an object`);
      if (typeof g.id !== "string" || !GAME_ID.test(g.id)) return refuse(`game ${n}: its id is not a game's id`);
      if (typeof g.save !== "string") return refuse(`game ${n}: no save`);
      if (!when(g.created) || !when(g.updated)) return refuse(`game ${n}: its dates are not dates`);
      const meta = g.meta ?? null;
      if (meta !== null && (typeof meta !== "object" || checkJSON(JSON.stringify(meta)))) {
        return refuse(`game ${n}: its settings are not what the page keeps`);
      }
      if (staged.length >= MAX_STAGED) return refuse(`more than ${MAX_STAGED} games`);
      if (staged.some((s) => s.id === g.id)) return refuse(`game ${n}: its id is twice in the file`);
      const checked = ask("check_save", { save: g.save });
      if (checked.error) return refuse(`game ${n}: ${checked.error.message}`);
      const info = infoOf(checked.result, meta);
      staged.push({ id: g.id, save: g.save, meta, info, created: g.created, updated: g.updated });
      return { result: { info } };
    }
    case "data_cancel":
      staged = [];
      return { result: {} };
    case "data_commit": {
      const mode = args.mode;
      if (mode !== "merge" && mode !== "replace") return refuse("mode: expected merge or replace");
      const open = await heldElsewhere();
      if (current) open.add(current.id);
      const incoming = staged;
      staged = [];
      const here = new Map((await allGames()).filter((g) => g && typeof g.id === "string").map((g) => [g.id, g]));
      const count = { added: 0, kept: 0, skipped: 0 };
      await tx(["games"], "readwrite", (st) => {
        if (mode === "replace") for (const id of here.keys()) if (!open.has(id)) st.games.delete(id);
        for (const g of incoming) {
          const mine = here.get(g.id);
          if (open.has(g.id)) count.skipped++;
          else if (mode === "merge" && mine && (mine.updated ?? 0) >= g.updated) count.kept++;
          else {
            st.games.put(g);
            count.added++;
          }
        }
      });
      return { result: count };
    }
    case "aside_list": {
      const aside = [];
      await tx(["aside"], "readonly", (st) => {
        const req = st.aside.openCursor();
        req.onsuccess = () => {
          const c = req.result;
          if (!c) return;
          const v = c.value || {};
          let bytes = 0;
          try {
            bytes = JSON.stringify(v).length;
          } catch {
            bytes = 0;
          }
          aside.push({ key: c.key, when: Number.isFinite(v.when) ? v.when : null,
            reason: typeof v.reason === "string" ? v.reason.slice(0, 300) : "", bytes });
          c.continue();
        };
      });
      return { result: { aside } };
    }
    case "aside_get":
    case "aside_remove": {
      if (!Number.isInteger(args.key)) return { error: { code: "bad_request", message: "key: expected a record's key" } };
      if (type === "aside_remove") {
        await tx(["aside"], "readwrite", (st) => { st.aside.delete(args.key); });
        return { result: {} };
      }
      let entry;
      await tx(["aside"], "readonly", (st) => {
        const req = st.aside.get(args.key);
        req.onsuccess = () => { entry = req.result; };
      });
      if (entry === undefined) return { error: { code: "no_game", message: "no such record set aside" } };
      return { result: { entry } };
    }
    default:
      return { error: { code: "bad_request", message: `unknown request ${type}` } };
  }
}
