#!/usr/bin/env node
// The engine in a stock Pyodide, installed the way its ecosystem installs packages.
//
//   node tests/pyodide/micropip.mjs MICROPIP_WHEEL URL [BAD_URL]
//
// Boots the pinned Pyodide as it comes (its own standard library and lock file, nothing of
// dist/), loads micropip from MICROPIP_WHEEL (a local file: the build fetched it), then in
// Python: `await micropip.install(URL)`, plays a seeded deal with the computer players and
// reviews it. With BAD_URL, also checks that micropip refuses to install from it (a wheel
// file name micropip cannot parse). Prints what it did; exit 1 on any Python error, 2 on a
// harness error.

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYODIDE_DIR = join(ROOT, "node_modules", "pyodide");

const CODE = `
import json, sys
import micropip

async def main(url, bad_url):
    if bad_url:
        try:
            await micropip.install(bad_url)
        except Exception as exc:
            print("refused", type(exc).__name__, str(exc).splitlines()[0][:120])
        else:
            raise AssertionError(f"micropip installed {bad_url}")
    await micropip.install(url)
    import briscola
    from importlib.metadata import version
    from briscola.ai import make_bot
    from briscola.coach.review import review_deal
    from briscola.game import Game
    print("installed", briscola.__version__, version("briscola"), briscola.__file__)
    game = Game.new("classic", seed=5)
    bots = [make_bot("intermediate", seed=s) for s in range(2)]
    while not game.is_over:
        seat = game.current_player
        game.apply(bots[seat].choose(game.view(seat)), seat=seat)
    print("played", json.dumps(game.outcome().to_dict()["side_points"]))
    review = review_deal(game, 0)
    assert review["count"] > 0, review
    print("reviewed", review["count"], "decisions, accuracy", review.get("accuracy"))
    print("python", sys.version.split()[0])

main
`;

async function run() {
  const [wheel, url, badUrl] = process.argv.slice(2);
  if (!wheel || !url) {
    process.stderr.write("usage: micropip.mjs MICROPIP_WHEEL URL [BAD_URL]\n");
    return 2;
  }
  if (!existsSync(wheel)) {
    process.stderr.write(`${wheel} not found: python build.py fetches micropip's wheel\n`);
    return 2;
  }
  const { loadPyodide } = await import(pathToFileURL(join(PYODIDE_DIR, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL: PYODIDE_DIR + "/",
    stdout: (s) => process.stdout.write(s + "\n"),
    stderr: (s) => process.stderr.write(s + "\n"),
  });
  const errors = [];
  const loaded = await pyodide.loadPackage(wheel, {
    messageCallback: () => {}, errorCallback: (m) => errors.push(m) });
  if (!loaded.some((p) => p.name === "micropip")) {
    process.stderr.write(`could not load ${wheel}:\n${errors.join("\n")}\n`);
    return 2;
  }
  const main = pyodide.runPython(CODE);
  try {
    await main(url, badUrl || null);
  } catch (err) {
    process.stderr.write(String(err && err.message ? err.message : err) + "\n");
    return 1;
  } finally {
    main.destroy();
  }
  return 0;
}

run().then((code) => process.exit(code), (err) => {
  process.stderr.write(`${err && err.stack ? err.stack : err}\n`);
  process.exit(2);
});
