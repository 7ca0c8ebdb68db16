"""ARCHITECTURE.md's "Where a change goes" holds: each place it says a change must also reach
agrees with the others. A new computer level is in every list of levels, a new option, card
style or level has its words in every language, every request the page can make has its place
at a table with friends, every message between the pages of such a table is read by the other
side and documented, and every module of the build is listed."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "js"
FRIENDS = JS / "friends"


def locales() -> dict[str, dict[str, str]]:
    """Every language's words (a locale file is `export default <JSON object>;`)."""
    out = {}
    for path in sorted((JS / "locales").glob("*.js")):
        if path.name == "index.js":
            continue  # the list of languages
        text = path.read_text(encoding="utf-8")
        body = text[text.index("\nexport default ") + len("\nexport default "):].strip()
        out[path.stem] = json.loads(body.rstrip(";"))
    return out


def js_sets(*paths: Path) -> dict[str, set[str]]:
    """The `const NAME = new Set([...])` of these sources: their string literals, with a
    `...OTHER` spread of another set of the same sources filled in."""
    raw = {}
    for path in paths:
        for name, body in re.findall(r"\bconst (\w+) = new Set\(\[([^\]]*)\]\)",
                                     path.read_text(encoding="utf-8")):
            raw[name] = body
    out: dict[str, set[str]] = {}

    def expand(name: str, seen: tuple = ()) -> set[str]:
        if name in out:
            return out[name]
        assert name in raw and name not in seen, f"no set {name}"
        items = set(re.findall(r'"([^"]+)"', raw[name]))
        for other in re.findall(r"\.\.\.(\w+)", raw[name]):
            items |= expand(other, seen + (name,))
        out[name] = items
        return items

    for name in raw:
        expand(name)
    return out


# ---- a new computer level ---------------------------------------------------------------------

def registry(name: str = "BOTS") -> set[str]:
    """The levels the package registers (``BOTS`` or ``CHIAMATA_BOTS``), read in a fresh
    interpreter: a test may register one of its own in this one (tests/test_learn.py does)."""
    import subprocess
    import sys
    code = f"from briscola.ai import {name} as R, load_all; load_all(); print(' '.join(sorted(R)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT / "py", capture_output=True,
                         text=True, check=True).stdout
    return set(out.split())


def test_every_list_of_levels_agrees_with_the_registry():
    from briscola import bridge, env
    from briscola.coach import rating
    levels = registry()
    assert {"random", "beginner", "intermediate", "expert"} <= levels
    # the page offers every level but the random player
    assert set(bridge.LEVELS) == levels - {"random"}, "LEVELS in bridge.py"
    assert set(rating.LEVELS) == levels, "MEASURED in coach/rating.py (a rating for each level)"
    assert set(env.LEVELS) == levels, "LEVELS in env.py"
    assert registry("CHIAMATA_BOTS") == levels, "a Chiamata player for each level"


def test_every_level_has_its_words():
    from briscola import bridge
    levels = registry()
    for lang, words in locales().items():
        missing = sorted(n for n in levels if f"level.{n}" not in words)
        assert not missing, f"{lang}: no words level.<name> for {missing}"
        unnamed = [n for n in bridge.LEVELS if not re.search(rf"\b{n}\b", words["link.bad.level"])]
        assert not unnamed, f"{lang}: link.bad.level does not name {unnamed}"


# ---- a new variant or option, a new card style -----------------------------------------------------------

def test_every_variant_and_option_has_its_words():
    from briscola.rules import OPTIONS, VARIANTS
    for lang, words in locales().items():
        keys = [f"variant.{v}" for v in VARIANTS]
        keys += [f"{k}.{o}" for o in OPTIONS for k in ("opt", "help")]
        keys += [f"choice.{o.name}.{c}" for o in OPTIONS.values() for c in o.choices or ()
                 if isinstance(c, str)]  # a number is shown as it is
        missing = [k for k in keys if k not in words]
        assert not missing, f"{lang}: no words for {missing}"


def test_every_card_style_has_its_words():
    found = re.search(r"export const STYLES = \[([^\]]*)\]", (JS / "card-names.js").read_text())
    styles = re.findall(r'"(\w+)"', found.group(1))
    assert "napoletane" in styles
    for lang, words in locales().items():
        missing = [s for s in styles if f"style.{s}" not in words]
        assert not missing, f"{lang}: no words style.<name> for {missing}"


# ---- a new request from the page, at a table with friends -------------------------------------

# Every request's facts are one row of briscola.protocol's table: the bridge, the worker and
# the friends' referee read it. What still keeps a list of its own is checked against it here.


def requests() -> set[str]:
    """Every request the page's worker answers: the bridge's handlers and the worker's own."""
    from briscola.bridge import Bridge
    worker = (JS / "worker.js").read_text(encoding="utf-8")
    own = set(re.findall(r'^\s*case "(\w+)":', worker, re.M))
    assert {"games", "resume", "set_meta"} <= own
    # a person's data: the worker hands CARRY's requests to js/worker/carry.js
    carry = (JS / "worker" / "carry.js").read_text(encoding="utf-8")
    listed = re.search(r"export const CARRY = new Set\(\[(.*?)\]\)", carry, re.S)
    assert listed and "CARRY.has(type)" in worker
    return set(Bridge().handlers) | own | set(re.findall(r'"(\w+)"', listed.group(1)))


def friends_sets() -> dict[str, set[str]]:
    return js_sets(*sorted(FRIENDS.glob("*.js")))


def test_the_page_reads_the_table_of_requests_as_python_writes_it():
    from briscola import protocol
    assert (JS / "requests.js").read_text(encoding="utf-8") == protocol.js_module(), \
        "js/requests.js is not briscola.protocol's: python3 -m briscola.protocol > js/requests.js"


def test_every_request_is_a_row_of_the_table_answered_where_it_says():
    from briscola.bridge import CHANGES, Bridge
    from briscola.protocol import REQUESTS, where
    assert set(Bridge().handlers) == where(by="bridge")
    assert requests() == set(REQUESTS)
    worker = (JS / "worker.js").read_text(encoding="utf-8")
    own = set(re.findall(r'^\s*case "(\w+)":', worker, re.M))
    # (and the bridge's it handles on the way: load, new_match; a person's data: carry.js)
    assert where(by="worker") <= own | (requests() - set(Bridge().handlers))
    assert CHANGES == where(by="bridge", changes=True)
    # the page's play loop moves the table on by the requests the table says
    assert 'MOVES = where("moves", true)' in (JS / "seam.js").read_text(encoding="utf-8")
    assert where(moves=True) == {"act", "bot_step", "next_deal"}


def test_every_request_has_its_place_at_a_friends_table():
    """The referee reads the table (js/requests.js); a friend's page's own lists (guest.js:
    REMOTE, what it asks the host; LOCAL, what its own engine answers) agree with it."""
    from briscola.protocol import REQUESTS, where
    sets = friends_sets()
    referee = (FRIENDS / "referee.js").read_text(encoding="utf-8")
    assert 'from "../requests.js"' in referee and 'where("referee", "asks")' in referee
    assert {"act", "state"} == where(friend="host") == where(referee="asks")
    assert sets["REMOTE"] == where(friend="host"), "REMOTE (guest.js) is not the table's"
    assert sets["LOCAL"] == where(friend="own"), "LOCAL (guest.js) is not the table's"
    review = where(friend="review")
    assert "review_plan" in review and review <= where(referee="not_offered")
    for name, row in REQUESTS.items():  # refused with a reason, or placed
        assert (row.friend == "refused") == bool(row.why), name
        assert row.referee == "refused" or row.friend in ("host", "review") or name in ("hint", "tracker"), name


def test_a_request_that_needs_no_table_is_answered_at_a_friends_table():
    """A request that needs no table is the friend's own worker's, or refused with a reason."""
    from briscola.protocol import REQUESTS
    for name, row in REQUESTS.items():
        if not row.table and not row.changes:
            assert row.friend == "own" or row.why, name
    assert REQUESTS["puzzle"].friend == "own"


# ---- a new message between the pages of a table with friends ---------------------------------

def messages(paths: list[Path]) -> tuple[set[str], set[str]]:
    """(the message types these sources send, those they read)."""
    sent, read = set(), set()
    for path in paths:
        src = path.read_text(encoding="utf-8")
        sent |= set(re.findall(r'\{ t: "(\w+)"', src))
        read |= set(re.findall(r'^\s*case "(\w+)":', src, re.M))
        read |= set(re.findall(r'msg\.t === "(\w+)"', src))
    return sent, read


def test_every_friends_message_is_read_by_the_other_side_and_documented():
    guest = [FRIENDS / "guest.js", FRIENDS / "guest-dialog.js"]
    # (pairs.js is both sides': the envelope `sealed` every other message travels in)
    host = [p for p in sorted(FRIENDS.glob("*.js")) if p.name not in ("guest.js", "guest-dialog.js", "pairs.js")]
    to_host, read_by_guest = messages(guest)
    to_guest, read_by_host = messages(host)
    sealed_out, _ = messages([FRIENDS / "pairs.js"])
    assert sealed_out == {"sealed"} and 'msg.t !== "sealed"' in (FRIENDS / "pairs.js").read_text(encoding="utf-8")
    assert {"who", "req", "sync"} <= to_host and {"view", "res", "lobby"} <= to_guest
    assert to_host <= read_by_host, f"sent by a friend, read by no host: {to_host - read_by_host}"
    assert to_guest <= read_by_guest, f"sent by the host, read by no friend: {to_guest - read_by_guest}"
    doc = (ROOT / "docs" / "friends.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `(\w+)[ `]", doc, re.M))
    assert not (to_host | to_guest) - rows, \
        f"not in docs/friends.md's tables: {sorted((to_host | to_guest) - rows)}"


# ---- the friends layer and the play loop -----------------------------------------------------

# What of the play loop the friends layer may not touch: it waits, shows and is told through the
# seam (js/seam.js, `app.seam`) only; App's chrome it may use (ARCHITECTURE.md, "The seam").
LOOP_MEMBERS = re.compile(
    r"\bapp\.(?:looping|presentingFor|gen|busy|bump|loop|present|advance|startShowing|hideHand|hinted)\b"
    r"|\bapp\.state\s*(?:=(?!=)|\+=|\|\|=|\?\?=)|\bapp\.engine\.call\s*=(?!=)")


def loop_touches(src: str) -> list[str]:
    """The places where `src` reaches past the seam into the play loop, or writes the table."""
    return [m.group(0) for m in LOOP_MEMBERS.finditer(src)]


def test_the_friends_layer_reaches_the_table_through_the_seam_only():
    found = {p.name: loop_touches(p.read_text(encoding="utf-8")) for p in sorted(FRIENDS.glob("*.js"))}
    assert {k: v for k, v in found.items() if v} == {}, "js/friends/ past the seam (js/seam.js)"
    arch = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert "app.seam" in arch and "js/seam.js" in arch


@pytest.mark.parametrize("line,caught", [
    ("while (app.looping !== null) await tick();", True),
    ("if (this.app.presentingFor === my) return;", True),
    ("const my = app.gen;", True),
    ("app.busy = true;", True),
    ("this.app.bump();", True),
    ("app.state = { ...app.state, seats };", True),
    ("this.app.state = reply;", True),
    ("engine.call = wrapped; app.engine.call = (t, a) => own(t, a);", True),
    ("await app.present(reply, my);", True),
    ("if (app.state && app.state.view) app.draw();", False),
    ("if (app.state === null) return;", False),
    ("app.seam.shown(state);", False),
    ("const g = app.game; app.general = 1; app.busyness = 2;", False),
])
def test_a_touch_past_the_seam_is_caught(line, caught):
    assert bool(loop_touches(line)) is caught


# ---- a new thing to build ---------------------------------------------------------------------

def test_every_build_module_is_listed():
    modules = sorted(p.name for p in (ROOT / "tools" / "build").glob("*.py")
                     if p.name != "__init__.py")
    assert "site.py" in modules
    readme = (ROOT / "tools" / "README.md").read_text(encoding="utf-8")
    package = (ROOT / "tools" / "build" / "__init__.py").read_text(encoding="utf-8")
    assert [m for m in modules if f"`{m}`" not in readme] == [], "tools/README.md"
    assert [m for m in modules if not re.search(rf"^ +{re.escape(m)} ", package, re.M)] == [], \
        "tools/build/__init__.py"


@pytest.mark.parametrize("source,expected", [
    ('const A = new Set(["x", "y"]);\nconst B = new Set(["z", ...A]);',
     {"A": {"x", "y"}, "B": {"x", "y", "z"}}),
])
def test_the_sets_are_read_as_written(tmp_path, source, expected):
    path = tmp_path / "a.js"
    path.write_text(source)
    assert js_sets(path) == expected


# ---- the size of a module -----------------------------------------------------------------------

# Modules still over the bound, each to be split by concern (the locales are words, not code).
STILL_OVER = set()


def test_no_module_of_the_page_is_over_600_lines():
    sizes = {p.relative_to(JS).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for p in JS.rglob("*.js") if "locales" not in p.parts and "vendor" not in p.name}
    over = {name: n for name, n in sizes.items() if n > 600 and name not in STILL_OVER}
    assert not over, f"modules over 600 lines (split them by concern): {over}"
    # a module split below the bound leaves the list
    assert all(sizes.get(name, 0) > 600 for name in STILL_OVER), {n: sizes.get(n) for n in STILL_OVER}
