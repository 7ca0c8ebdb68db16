#!/usr/bin/env node
// Run Python inside Pyodide under Node, with the engine wheel from dist/.
//
//   node tests/pyodide/run.mjs [options] FILE.py [ARGS...]
//   node tests/pyodide/run.mjs [options] -c "CODE" [ARGS...]
//
// Options:
//   --stock       use Pyodide's own python_stdlib.zip, not the trimmed one in dist/
//   --no-wheel    do not install the briscola wheel
//   --no-models   do not install the models the wheel leaves out (dist/models/, as the page's
//                 worker installs one when its variant is played: by default all are)
//   --dist DIR    the built site (default: dist/ at the repo root)
//   --timing      print a JSON line of timings (ms) to stderr at the end
//   --repeat-start N   only boot Pyodide (and install the wheel) N times, print
//                 the timings of each start and their median as JSON; no code is run
//
// Pyodide comes from node_modules/pyodide; the wheel and the trimmed stdlib
// come from dist/ (run `python build.py` first).  The Python program's stdout
// and stderr go to ours.  Exit status: the program's SystemExit code, 1 on an
// uncaught Python exception, 2 on a harness error (no build, wheel failed).

import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYODIDE_DIR = join(ROOT, "node_modules", "pyodide");

class HarnessError extends Error {}

function parseArgs(argv) {
  const opts = { stock: false, wheel: true, models: true, dist: join(ROOT, "dist"), timing: false,
                 repeatStart: 0, file: null, code: null, args: [] };
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--stock") opts.stock = true;
    else if (a === "--no-wheel") opts.wheel = false;
    else if (a === "--no-models") opts.models = false;
    else if (a === "--timing") opts.timing = true;
    else if (a === "--dist") opts.dist = resolve(argv[++i]);
    else if (a === "--repeat-start") opts.repeatStart = Number(argv[++i]);
    else if (a === "-c") { opts.code = argv[++i]; i++; break; }
    else if (a === "--") { i++; break; }
    else if (a.startsWith("-")) throw new HarnessError(`unknown option ${a}`);
    else break;
  }
  if (opts.code === null && !opts.repeatStart) {
    if (i >= argv.length) throw new HarnessError("give a Python file or -c CODE");
    opts.file = resolve(argv[i++]);
  }
  opts.args = argv.slice(i);
  return opts;
}

function readBuild(dist) {
  const manifest = join(dist, "build-manifest.json");
  if (!existsSync(manifest)) {
    throw new HarnessError(`${manifest} not found: run \`python build.py\` first`);
  }
  return JSON.parse(readFileSync(manifest, "utf8"));
}

async function boot(opts, build) {
  if (!existsSync(join(PYODIDE_DIR, "pyodide.mjs"))) {
    throw new HarnessError("node_modules/pyodide is missing: run `npm ci`");
  }
  const { loadPyodide } = await import(pathToFileURL(join(PYODIDE_DIR, "pyodide.mjs")).href);
  const times = {};
  let t = performance.now();
  const config = {
    indexURL: PYODIDE_DIR + "/",
    // The same choices as js/worker.js: no lock file fetch, our stdlib.
    lockFileContents: { info: build ? build.lockInfo : JSON.parse(
      readFileSync(join(PYODIDE_DIR, "pyodide-lock.json"), "utf8")).info, packages: {} },
    stdout: (s) => process.stdout.write(s + "\n"),
    stderr: (s) => process.stderr.write(s + "\n"),
  };
  if (!opts.stock && build) config.stdLibURL = join(opts.dist, build.stdlib);
  const pyodide = await loadPyodide(config);
  times.boot_ms = performance.now() - t;
  if (opts.wheel) {
    t = performance.now();
    const wheel = join(opts.dist, build.wheel);
    const errors = [];
    const loaded = await pyodide.loadPackage(wheel, {
      messageCallback: () => {},
      errorCallback: (m) => errors.push(m),
    });
    if (!loaded.some((p) => p.name === "briscola")) {
      throw new HarnessError(`could not install ${wheel}:\n${errors.join("\n")}`);
    }
    times.wheel_ms = performance.now() - t;
  }
  return { pyodide, times };
}

// Runs the program as __main__; returns its exit status.
const RUNNER = `
import runpy, sys, traceback

def _harness_run(kind, target, argv):
    sys.argv = list(argv)
    try:
        if kind == "file":
            runpy.run_path(target, run_name="__main__")
        else:
            exec(compile(target, "<string>", "exec"), {"__name__": "__main__"})
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    except BaseException as exc:
        # Leave out the frames of this runner and of runpy.
        tb = exc.__traceback__
        while tb is not None and (tb.tb_frame.f_code.co_filename == "<exec>"
                                  or tb.tb_frame.f_globals.get("__name__") == "runpy"):
            tb = tb.tb_next
        traceback.print_exception(type(exc), exc, tb)
        return 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return 0

_harness_run
`;

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const needBuild = opts.wheel || !opts.stock;
  const build = needBuild ? readBuild(opts.dist) : null;

  if (opts.repeatStart) {
    const runs = [];
    for (let n = 0; n < opts.repeatStart; n++) {
      const { pyodide, times } = await boot(opts, build);
      const t = performance.now();
      if (opts.wheel) pyodide.pyimport("briscola.bridge").destroy();
      times.import_ms = performance.now() - t;
      times.total_ms = times.boot_ms + (times.wheel_ms ?? 0) + times.import_ms;
      runs.push(times);
      process.stderr.write(`start ${n + 1}: ${JSON.stringify(times, (k, v) => typeof v === "number" ? Math.round(v) : v)}\n`);
    }
    const median = (key) => {
      const v = runs.map((r) => r[key] ?? 0).sort((a, b) => a - b);
      return Math.round(v[Math.floor(v.length / 2)]);
    };
    console.log(JSON.stringify({
      stdlib: opts.stock ? "stock" : build.stdlib, wheel: opts.wheel, runs: runs.length,
      median_boot_ms: median("boot_ms"), median_wheel_ms: median("wheel_ms"),
      median_import_ms: median("import_ms"), median_total_ms: median("total_ms"),
    }));
    return 0;
  }

  const { pyodide, times } = await boot(opts, build);
  if (opts.wheel && opts.models && build.models && Object.keys(build.models).length) {
    const t = performance.now();
    const learn = pyodide.pyimport("briscola.ai.learn");
    for (const [name, { path }] of Object.entries(build.models)) {
      const data = pyodide.toPy(new Uint8Array(readFileSync(join(opts.dist, path))));
      learn.install(name, data).destroy();
      data.destroy();
    }
    learn.destroy();
    times.models_ms = performance.now() - t;
  }
  // Raw writes keep the program's output byte for byte (no line batching).
  const decoder = new TextDecoder();
  pyodide.setStdout({ write: (buf) => { process.stdout.write(decoder.decode(buf)); return buf.length; } });
  pyodide.setStderr({ write: (buf) => { process.stderr.write(decoder.decode(buf)); return buf.length; } });

  let kind = "code", target = opts.code, argv0 = "-c";
  if (opts.file) {
    if (!existsSync(opts.file)) throw new HarnessError(`${opts.file} not found`);
    // The file's own folder is mounted at the same path, so it can import
    // or read its neighbours.
    const dir = dirname(opts.file);
    pyodide.FS.mkdirTree(dir);
    pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: dir }, dir);
    kind = "file"; target = opts.file; argv0 = opts.file;
  }
  const t = performance.now();
  const run = pyodide.runPython(RUNNER);
  let status;
  try {
    status = run(kind, target, [argv0, ...opts.args]);
  } finally {
    run.destroy();
  }
  times.run_ms = performance.now() - t;
  if (opts.timing) {
    process.stderr.write(`timing ${JSON.stringify(times, (k, v) => typeof v === "number" ? Math.round(v) : v)}` +
      ` stdlib=${opts.stock ? "stock" : basename(build.stdlib)}\n`);
  }
  return status;
}

main().then(
  (status) => process.exit(status),
  (err) => {
    if (err instanceof HarnessError) process.stderr.write(`run.mjs: ${err.message}\n`);
    else process.stderr.write(`run.mjs: ${err && err.stack ? err.stack : err}\n`);
    process.exit(2);
  },
);
