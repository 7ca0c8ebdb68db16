#!/usr/bin/env node
// Start Pyodide from DIR (its runtime files) and print, as JSON, what its dynamic linking
// made: every global offset table entry (its value; for a function, the function in that
// slot), the function table's length, the entries left unresolved, and whether Python runs.
//
//   node tests/pyodide/linking.mjs DIR
//
// tests/test_pyodide.py runs it on node_modules/pyodide and on a copy whose
// pyodide.asm.mjs is the built site's (tools/build/linking.py), and compares them.

import { pathToFileURL } from "node:url";
import { join, resolve } from "node:path";

const dir = resolve(process.argv[2]);
const { loadPyodide } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: dir + "/", packages: [] });
const Module = pyodide._module;
// Each entry: its value, and where that is a slot of the function table holding a function,
// that function's name and arity (a wasm function's name is its index in its module).
const table = Module.wasmTable;
const got = {};
for (const [name, entry] of Object.entries(Module.GOT)) {
  const value = Number(entry.value);
  const fn = value > 0 && value < table.length ? table.get(value) : null;
  got[name] = fn ? [value, fn.name, fn.length] : [value];
}
const empty = Object.entries(got).filter(([, [value]]) => value === -1).map(([name]) => name);
// Python to JavaScript and back, through functions the table wraps (errors, proxies).
const python = pyodide.runPython(`
import js
try:
    js.eval("throw new Error('from js')")
except Exception as err:
    caught = type(err).__name__
f"{caught} {sum(js.Array.of(1, 2, 3))}"
`);
console.log(JSON.stringify({ got, tableLength: table.length, empty, python }));
