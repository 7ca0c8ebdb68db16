"""The table's code at a fair table (js/fair/code.js, docs/friends.md "The table's code"), run
in Node by tests/js/fair_code.mjs: the same nine digits on every honest device once the keys are
in, another code for another round or table, and a host's page standing in the middle (a key of
its own given to one friend in another's name) seen as two codes, where nothing else in the
protocol stops it at that point."""
import json
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_tables_code_is_the_same_on_every_device_only_under_the_same_keys(node):
    out = json.loads(subprocess.run([node, str(ROOT / "tests" / "js" / "fair_code.mjs")], capture_output=True,
                                    text=True, check=True, timeout=120, cwd=ROOT).stdout)
    for case in ("honest", "again", "other", "middle"):
        assert out[case]["before"] == [None] * 3  # no code before every key is in
        assert all(re.fullmatch(r"\d{3} \d{3} \d{3}", c) for c in out[case]["after"])
    for case in ("honest", "again", "other"):
        assert len(set(out[case]["after"])) == 1
    codes = {out[c]["after"][0] for c in ("honest", "again", "other")}
    assert len(codes) == 3  # another round, another table: another code
    mid = out["middle"]["after"]
    assert mid[0] == mid[1] != mid[2]  # the friend given another's key: another code
    assert out["stateOf"] == ["shuffle"] * 3  # (and the protocol goes on: only the code shows it)
