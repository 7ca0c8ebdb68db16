"""The local relays of "play with friends" (tools/relay/, docs/friends.md): `npm run relays`
prints one line of JSON that `?relays=` takes as it is (a tracker and a Nostr relay, both
listening), and the Nostr relay refuses a forged event as public relays do (an id that is not
the event's hash, a signature that is not its author's), passing only good ones on."""
import json
import socket
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# the line read by the page's own parser (js/friends/wire.js)
PARSE = """
const { parseRelays, relaysByMedium } = await import(process.argv[1]);
const relays = parseRelays(process.argv[2]);
console.log(JSON.stringify({ relays, media: relaysByMedium(relays) }));
"""


def start(node, *args):
    return subprocess.Popen([node, "tools/relay/relays.mjs", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def stop(proc):
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def listening(port) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def free_pair() -> int:
    """A port N with N and N + 1 free (asked of the system, then checked)."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            n = s.getsockname()[1]
        if n < 65534 and not listening(n) and not listening(n + 1):
            return n
    raise RuntimeError("no two free ports in a row")


def test_npm_run_relays_prints_one_line_the_page_takes_as_it_is(node):
    proc = start(node, "--port", "0")
    try:
        line = proc.stdout.readline()
        out = json.loads(line)
        assert list(out) == ["relays"]
        tracker, nostr = out["relays"].split(",")
        assert tracker.startswith("ws://127.0.0.1:") and nostr.startswith("nostr:ws://127.0.0.1:")
        ports = [int(tracker.rsplit(":", 1)[1]), int(nostr.rsplit(":", 1)[1])]
        assert ports[0] != ports[1] and all(listening(p) for p in ports)
        parsed = json.loads(subprocess.run([node, "--input-type=module", "-e", PARSE, str(ROOT / "js/friends/wire.js"), out["relays"]],
                                           capture_output=True, text=True, check=True).stdout)
        assert parsed["relays"] == [tracker, nostr]
        assert parsed["media"] == {"trackers": [tracker], "nostr": [nostr.removeprefix("nostr:")]}
    finally:
        stop(proc)


def test_a_port_given_is_the_tracker_s_and_the_next_the_nostr_relay_s(node):
    n = free_pair()
    proc = start(node, "--port", str(n))
    try:
        assert json.loads(proc.stdout.readline()) == {"relays": f"ws://127.0.0.1:{n},nostr:ws://127.0.0.1:{n + 1}"}
    finally:
        stop(proc)


def test_a_bad_port_is_refused_with_a_clear_error(node):
    proc = start(node, "--port", "65535")  # its Nostr relay would need 65536
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and not out
    assert "--port expects a port number below 65535" in err and '"65535"' in err


def test_the_nostr_relay_refuses_a_forged_event_and_passes_a_good_one_on(node):
    proc = subprocess.Popen([node, "tools/relay/nostr.mjs", "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().split()[-1]
        assert url.startswith("ws://127.0.0.1:")
        run = subprocess.run([node, str(ROOT / "tests/js/nostr_relay.mjs"), url], cwd=ROOT, capture_output=True,
                             text=True, timeout=60, check=True)
        out = json.loads(run.stdout)
        answers = out["answers"]
        assert answers["good"][2] is True
        assert answers["badId"][2] is False and answers["badId"][3] == "invalid: the id is not the event's hash"
        assert answers["badSig"][2] is False and answers["badSig"][3] == "invalid: bad signature"
        assert answers["foreign"][2] is False and answers["foreign"][3] == "invalid: bad signature"
        # only the good one reached the subscriber
        assert out["received"] == ["good"]
    finally:
        stop(proc)
