"""The peer id a page of "play with friends" has in the room (js/friends/peer-id/start.mjs,
run in Node): a page that joins later sorts lower, so the pages already there answer its first
offers (docs/friends.md); the rest of the id stays random, and Math.random is the runtime's
again once Trystero has made it."""
import json
import subprocess
from pathlib import Path

from tools.build import friends

ROOT = Path(__file__).resolve().parents[1]

ORDER = """
const start = await import(process.argv[1]);
const out = [];
for (const t of JSON.parse(process.argv[2])) out.push(start.idPrefix(t));
console.log(JSON.stringify({ alphabet: start.ALPHABET, prefixes: out }));
"""

BUNDLE = """
const random = Math.random;
const ids = [];
for (const tag of ["a", "b", "c"]) {
  ids.push((await import(process.argv[1] + "?" + tag)).selfId);
  await new Promise((r) => setTimeout(r, 30));
}
const draws = Array.from({ length: 2000 }, () => Math.random());
console.log(JSON.stringify({ ids, same: Math.random === random, spread: Math.max(...draws) - Math.min(...draws) }));
"""


def run(node, script, *args):
    out = subprocess.run([node, "--input-type=module", "-e", script, *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_later_pages_have_lower_prefixes_across_every_digit(node):
    base = 1_767_225_600_000  # ms: the first of January 2026, where the prefixes' cycle of 18 years starts
    times = [base, base + 10, base + 620, base + 38_440, base + 2_383_280, base + 147_763_360,
             base + 86_400_000 * 365, base + 86_400_000 * 365 * 17, base + 62 ** 6 * 10 - 1]
    out = run(node, ORDER, str(ROOT / friends.IDS[0]), json.dumps(times))
    prefixes = out["prefixes"]
    assert all(len(p) == 6 for p in prefixes)
    assert prefixes == sorted(prefixes, reverse=True) and len(set(prefixes)) == len(prefixes)
    assert run(node, ORDER, str(ROOT / friends.IDS[0]), json.dumps([base, base + 9]))["prefixes"] == [prefixes[0]] * 2
    # the alphabet is Trystero's: a prefix drawn from another would not be what its ids are made of
    utils = (ROOT / "node_modules/@trystero-p2p/core/dist/utils.mjs").read_text()
    assert f'const charSet = "{out["alphabet"]}";' in utils


def test_the_bundle_gives_later_pages_lower_ids_and_math_random_back(node, tmp_path):
    friends.bundle_vendor(tmp_path)
    out = run(node, BUNDLE, str(tmp_path / friends.VENDOR))
    ids = out["ids"]
    assert all(len(i) == 20 for i in ids)
    assert ids == sorted(ids, reverse=True)  # each page later than the one before: lower
    assert len({i[6:] for i in ids}) == 3  # the rest is drawn afresh
    assert out["same"] and out["spread"] > 0.9
