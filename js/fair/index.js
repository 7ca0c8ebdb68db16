// The fair deal (docs/friends.md, "The fair deal"): mental poker over ristretto255 for a table
// of friends, with no DOM and no network. The page loads it bundled (js/fair/vendor.js, built by
// tools/build/friends.py with @noble/curves and @noble/hashes) when a table deals fairly.
export { ALL, FairTable } from "./table.js";
export { replay } from "./check.js";
export { KINDS, VERSION, shapeError } from "./codec.js";
export { SAVED_VERSION, restore, snapshot } from "./saved.js";
export { FairSeat } from "./seat.js";
export { tableCode } from "./code.js";
