// Precompile a pure-Python package to bytecode with Pyodide's own Python.
//
// Writes, for every module under --src, __pycache__/<module>.<cache_tag>.pyc
// (e.g. cpython-314) under --out, as unchecked hash-based .pyc files (PEP 552):
// the interpreter loads them without looking at the source's timestamp, and the
// .py files stay in the wheel for tracebacks. This saves compiling the engine
// on every page start.
//
// Usage (normally called by build.py):
//   node tools/compile_package.mjs --pyodide node_modules/pyodide \
//        --src py/briscola --out build/pyc/KEY/briscola [--skip cli.py,env.py]
// --skip names modules (paths under --src) the browser never runs: not compiled.
// Code objects get the file names the modules have once installed in
// Pyodide's site-packages; cache_tag.txt is written next to --out.

import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

const log = (msg) => process.stderr.write(`[pyc] ${msg}\n`);

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (["--pyodide", "--src", "--out", "--skip"].includes(arg)) opts[arg.slice(2)] = argv[++i];
    else throw new Error(`unknown argument ${arg}`);
  }
  for (const need of ["pyodide", "src", "out"]) {
    if (!opts[need]) throw new Error(`missing --${need}`);
  }
  return opts;
}

function pyFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith(".") || name === "__pycache__") continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...pyFiles(path));
    else if (name.endsWith(".py")) out.push(path);
  }
  return out;
}

const COMPILE = `
import ast, importlib.util, marshal, os, sys, sysconfig

def without_docstrings(tree):
    # Docstrings are for readers of the source: the engine never reads one at run time (no
    # help(), no __doc__), so the bytecode leaves them out (about 45 KB less in the wheel);
    # asserts and line numbers stay as they are.
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            first = body[0] if body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                node.body = body[1:] or [ast.copy_location(ast.Pass(), first)]
    return tree

def compile_all(root, files, target_root):
    tag = sys.implementation.cache_tag
    written = []
    for rel in files:
        src_path = os.path.join(root, rel)
        with open(src_path, "rb") as f:
            source = f.read()
        name = os.path.join(target_root, rel)
        code = compile(without_docstrings(ast.parse(source, name)), name, "exec", dont_inherit=True)
        data = (importlib.util.MAGIC_NUMBER + (0b01).to_bytes(4, "little")
                + importlib.util.source_hash(source) + marshal.dumps(code))
        head, name = os.path.split(rel)
        pyc = os.path.join(head, "__pycache__", name[:-3] + "." + tag + ".pyc")
        out = os.path.join("/tmp/pyc-out", pyc)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as f:
            f.write(data)
        written.append(pyc)
    return tag, written

compile_all
`;

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const pyodideDir = resolve(opts.pyodide);
  const src = resolve(opts.src);
  const out = resolve(opts.out);
  const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
  const t = performance.now();
  const py = await loadPyodide({
    indexURL: pyodideDir + "/",
    stdout: (s) => log(`py: ${s}`),
    stderr: (s) => log(`py! ${s}`),
  });

  const skip = new Set((opts.skip || "").split(",").filter(Boolean));
  const files = pyFiles(src).map((p) => relative(src, p).split(sep).join("/"))
    .filter((rel) => !skip.has(rel));
  for (const rel of files) {
    const dest = `/tmp/pyc-src/${rel}`;
    py.FS.mkdirTree(dest.slice(0, dest.lastIndexOf("/")));
    py.FS.writeFile(dest, readFileSync(join(src, rel)));
  }
  const pkg = src.split(sep).pop();
  const target = py.runPython(
    `import site; site.getsitepackages()[0] + "/${pkg}"`);
  const compileAll = py.runPython(COMPILE);
  const result = compileAll("/tmp/pyc-src", files, target);
  const [tag, written] = result.toJs();
  result.destroy();
  compileAll.destroy();
  for (const rel of written) {
    const dest = join(out, ...rel.split("/"));
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, py.FS.readFile(`/tmp/pyc-out/${rel}`));
  }
  writeFileSync(join(out, "..", "cache_tag.txt"), `${tag}\n`);
  log(`compiled ${written.length} modules (${tag}) in ${(performance.now() - t).toFixed(0)} ms`);
  process.exit(0);
}

main().catch((err) => {
  log(err && err.stack ? err.stack : String(err));
  process.exit(1);
});
