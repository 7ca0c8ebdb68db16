// Build a trimmed, precompiled python_stdlib.zip for Pyodide.
//
// The bytecode must come from the Python that will run it (Pyodide's 3.14),
// so this script boots Pyodide from node_modules and runs
// tools/stdlib_compile.py inside it.  With --verify it then boots a second
// Pyodide on the result and checks, module by module, that everything that
// is still shipped imports exactly as well as it does with the stock zip.
//
// Usage (normally called by build.py):
//   node tools/build_stdlib.mjs --pyodide node_modules/pyodide \
//        --config cfg.json --out stdlib.zip [--report report.json] [--verify]

import { readFileSync, writeFileSync, renameSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const opts = { verify: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--verify") opts.verify = true;
    else if (["--pyodide", "--config", "--out", "--report"].includes(arg)) {
      opts[arg.slice(2)] = argv[++i];
    } else throw new Error(`unknown argument ${arg}`);
  }
  for (const need of ["pyodide", "config", "out"]) {
    if (!opts[need]) throw new Error(`missing --${need}`);
  }
  return opts;
}

const log = (msg) => process.stderr.write(`[stdlib] ${msg}\n`);

async function boot(pyodideDir, stdLibURL) {
  const { loadPyodide } = await import(
    pathToFileURL(join(pyodideDir, "pyodide.mjs")).href
  );
  return loadPyodide({
    indexURL: pyodideDir + "/",
    stdLibURL,
    stdout: (s) => log(`py: ${s}`),
    stderr: (s) => log(`py! ${s}`),
  });
}

function runFile(py, file, globals) {
  const ns = py.globals.get("dict")();
  for (const [k, v] of Object.entries(globals)) ns.set(k, v);
  try {
    py.runPython(readFileSync(join(HERE, file), "utf8"), { globals: ns });
    return JSON.parse(ns.get("RESULT"));
  } finally {
    ns.destroy();
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const pyodideDir = resolve(opts.pyodide);
  const out = resolve(opts.out);
  const config = readFileSync(opts.config, "utf8");

  let t = performance.now();
  const stock = await boot(pyodideDir, undefined);
  log(`booted stock Pyodide ${stock.version} in ${(performance.now() - t).toFixed(0)} ms`);

  stock.FS.writeFile("/tmp/src.zip", readFileSync(join(pyodideDir, "python_stdlib.zip")));
  t = performance.now();
  const report = runFile(stock, "stdlib_compile.py", {
    SRC_ZIP: "/tmp/src.zip",
    DST_ZIP: "/tmp/out.zip",
    CONFIG: config,
  });
  log(`compiled ${report.modules_kept} modules, dropped ${report.modules_dropped.length}, ` +
      `in ${(performance.now() - t).toFixed(0)} ms`);
  const tmp = `${out}.tmp-${process.pid}`;
  writeFileSync(tmp, stock.FS.readFile("/tmp/out.zip"));
  report.zip_bytes_in = readFileSync(join(pyodideDir, "python_stdlib.zip")).length;
  report.zip_bytes_out = readFileSync(tmp).length;

  if (opts.verify) {
    t = performance.now();
    const before = runFile(stock, "stdlib_check.py", {});
    const trimmed = await boot(pyodideDir, tmp);
    const after = runFile(trimmed, "stdlib_check.py", {});
    log(`import check of both stdlibs took ${(performance.now() - t).toFixed(0)} ms`);
    const broken = [];
    for (const [name, err] of Object.entries(after.modules)) {
      if (err !== null && before.modules[name] === null) broken.push(`${name}: ${err}`);
    }
    for (const [name, err] of Object.entries(after.exercises)) {
      if (err !== null) broken.push(`exercise ${name}: ${err}` +
        (before.exercises[name] ? ` (stock: ${before.exercises[name]})` : ""));
    }
    for (const [name, file] of Object.entries(after.loaded_from)) {
      if (!file || !file.endsWith(".pyc")) broken.push(`${name} not loaded from bytecode: ${file}`);
    }
    report.verify = {
      checked: Object.keys(after.modules).length,
      import_ok: Object.values(after.modules).filter((e) => e === null).length,
      loaded_from: after.loaded_from,
      broken,
    };
    if (broken.length) {
      log("trimming broke modules that are still shipped:\n  " + broken.join("\n  "));
      if (opts.report) writeFileSync(opts.report, JSON.stringify(report, null, 2));
      process.exit(1);
    }
    log(`verified: ${report.verify.import_ok}/${report.verify.checked} shipped modules import as with the stock zip`);
  }
  // The report first, then the zip: a zip in place means a finished build.
  if (opts.report) {
    writeFileSync(`${opts.report}.tmp-${process.pid}`, JSON.stringify(report, null, 2) + "\n");
    renameSync(`${opts.report}.tmp-${process.pid}`, opts.report);
  }
  renameSync(tmp, out);
  process.exit(0);
}

main().catch((err) => {
  log(err && err.stack ? err.stack : String(err));
  process.exit(1);
});
