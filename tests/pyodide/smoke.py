"""Smoke test run inside Pyodide (see tests/test_pyodide.py and tests/pyodide/run.mjs).

Imports the engine and, once the browser bridge exists, asks it for a ping the
way js/worker.js does: JSON text in, JSON text out. Engine authors: extend this
with more calls; a failed assert or any exception fails the test.
"""
import json
import sys

import briscola

print("python", sys.version.split()[0], sys.platform)
print("briscola", briscola.__version__)

try:
    from briscola import bridge
except ModuleNotFoundError as exc:
    if exc.name != "briscola.bridge":
        raise
    print("briscola.bridge is not there yet: skipping the bridge calls")
else:
    reply = json.loads(bridge.call("ping", "{}"))
    assert isinstance(reply, dict) and "result" in reply, reply
    print("ping", json.dumps(reply["result"], sort_keys=True))
