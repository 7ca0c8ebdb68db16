// The local relays' command-line numbers (relay.mjs, nostr.mjs, relays.mjs): `name`'s value in
// argv as an integer from `low` to `high`, else `fallback`; anything else ends the process
// with what was expected (exit code 2), `who` naming the command.
export function intArg(who, argv, name, fallback, low, high, what) {
  const i = argv.indexOf(name);
  const raw = i >= 0 ? argv[i + 1] : String(fallback);
  const n = Number(raw);
  if (!Number.isInteger(n) || n < low || n > high) {
    console.error(`${who}: ${name} expects ${what}, not ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return n;
}
