// Prints, as JSON, what js/carry.js makes of a person's data files (stdin: {files: [text],
// merges: [[mine, file, mode]], make: [games, stats, prefs]}): readFile's verdict on each, the
// merged statistics and settings, a file made. Read by tests/test_carry.py.
import { makeFile, mergeSettings, mergeStats, readFile } from "../../js/carry.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const { files = [], merges = [], make = null } = JSON.parse(input);
const read = files.map((text) => readFile(text));
console.log(JSON.stringify({
  read: read.map((r) => (r.error ? r : { value: r.value })),
  polluted: ({}).x !== undefined || ({}).speed !== undefined,
  merged: merges.map(([mine, file, mode]) => {
    const checked = readFile(JSON.stringify(file));
    if (checked.error) return checked;
    return { stats: mergeStats(mine.stats, checked.value, mode), settings: mergeSettings(mine.prefs, checked.value, mode) };
  }),
  made: make ? makeFile(make[0], make[1], make[2], new Date(Date.UTC(2026, 0, 2))) : null,
}));
