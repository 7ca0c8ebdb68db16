// Right after Trystero in js/friends/vendor.js: its id is made, Math.random is the browser's again
// (start.mjs says why it was not).
import { restore } from "./start.mjs";

restore();
