// Right after Trystero in js/friends/vendor.js: its id is made, Math.random is the browser's again
// (id_start.mjs says why it was not).
import { restore } from "./id_start.mjs";

restore();
