#!/usr/bin/env node
// Start Pyodide from DIR (its runtime files) and print, as JSON, what its dynamic linking
// made: every global offset table entry's value, the function table's length, which of
// the table's slots that those entries name are empty, and whether Python runs.
//
//   node tests/pyodide/linking.mjs DIR
//
// tests/test_pyodide.py runs it on node_modules/pyodide and on a copy whose
// pyodide.asm.mjs is the built site's (tools/build/linking.py): the two must match.

import { pathToFileURL } from "node:url";
import { join, resolve } from "node:path";

const dir = resolve(process.argv[2]);
const { loadPyodide } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: dir + "/", packages: [] });
const Module = pyodide._module;
const got = {};
for (const [name, entry] of Object.entries(Module.GOT)) got[name] = Number(entry.value);
const table = Module.wasmTable;
const empty = Object.entries(got).filter(([, slot]) => slot > 0 && slot < table.length && table.get(slot) === null)
  .map(([name]) => name);
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
