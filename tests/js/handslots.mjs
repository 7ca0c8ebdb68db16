// Prints, as JSON, the places js/handslots.js gives each hand of the sequences on standard
// input (a JSON list of sequences of hands, each a list of card codes or nulls), one
// {code: place} (or null) a hand. Read by tests/test_handslots.py.
import { readFileSync } from "node:fs";
import { handSlots } from "../../js/handslots.js";

const runs = JSON.parse(readFileSync(0, "utf-8"));
const out = runs.map((hands) => {
  let prev = null;
  return hands.map((cards) => {
    const got = handSlots(prev, cards);
    if (!got || !got.hidden) prev = got;
    return got ? { cols: got.cols, places: Object.fromEntries(got.slots) } : null;
  });
});
process.stdout.write(JSON.stringify(out));
