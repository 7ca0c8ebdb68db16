"""Two changes to Pyodide's script, made as the site is staged. First, the start's dynamic linking
puts each JavaScript function that the wasm takes the address of into the function table
through a wasm module of its own, compiled and instantiated one by one (Emscripten's
convertJsFunctionToWasm; 259 of them in Pyodide 314, 15-20 ms of every start, cold or
warm). Here they are made by one module with one import and one export per function.

The table's layout stays exactly what Emscripten makes: each function's slot is taken in
the same order as before (getEmptyTableSlot, as addFunction does) and only filled once the
one module is instantiated, so a memory snapshot taken by either script holds the same
function pointers. The replaced code is matched exactly; another Pyodide without it stops
the build (BuildError), as does any other change of that function.

Second, the main module's linking: Emscripten gave every function and datum the
main module exports an entry of the global offset table (a `WebAssembly.Global`) and every
exported function a table slot, 8,554 entries and 5,182 slots at every start (16-27 ms),
though the main module itself imports only 280 of them. Only those are set now, in the same
order. Entries are for side modules, which we never load; a side module would still get
the others: an import the global offset table lacks becomes an unresolved entry, which
Emscripten's reportUndefinedSymbols resolves from the main module's exports.
"""

from __future__ import annotations

from .common import BuildError

# Emscripten's reportUndefinedSymbols as Pyodide 314's pyodide.asm.mjs has it, up to the
# next definition.
REPORT_UNDEFINED = (
    "var reportUndefinedSymbols=()=>{for(var[symName,entry]of Object.entries(GOT)){"
    "if(entry.value==-1){var value=resolveGlobalSymbol(symName,true).sym;"
    "if(!value&&!entry.required){entry.value=0;continue}else if(!value){"
    "throw new Error(`Dynamic linking error: undefined symbol '${symName}'`)}"
    "if(typeof value==\"function\"){entry.value=addFunction(value,value.sig)}"
    "else if(typeof value==\"number\"){entry.value=value}"
    "else if(typeof value.value==\"number\"){entry.value=value}"
    "else{throw new Error(`bad export type for '${symName}': ${typeof value} (${value})`)}}}};"
)

# The same walk over the global offset table; a JavaScript function gets its slot at once
# (addFunctionLater) and its wasm wrapper from one module made for all of them at the end
# (convertJsFunctionsToWasm). Written here (no code copied), in the script's own scope.
BATCHED = r"""var reportUndefinedSymbols=()=>{var pending=[];for(var[symName,entry]of Object.entries(GOT)){if(entry.value==-1){var value=resolveGlobalSymbol(symName,true).sym;if(!value&&!entry.required){entry.value=0;continue}else if(!value){throw new Error(`Dynamic linking error: undefined symbol '${symName}'`)}if(typeof value=="function"){entry.value=addFunctionLater(value,value.sig,pending)}else if(typeof value=="number"){entry.value=value}else if(typeof value.value=="number"){entry.value=value}else{throw new Error(`bad export type for '${symName}': ${typeof value} (${value})`)}}}convertJsFunctionsToWasm(pending)};
var addFunctionLater=(func,sig,pending)=>{var rtn=getFunctionAddress(func);if(rtn){return rtn}var ret=getEmptyTableSlot();try{setWasmTableEntry(ret,func)}catch(err){if(!(err instanceof TypeError)||typeof sig!="string"){throw err}pending.push([ret,func,sig])}functionsInTableMap.set(func,ret);return ret};
var convertJsFunctionsToWasm=pending=>{if(!pending.length)return;var leb=n=>{var out=[];do{var b=n&127;n>>>=7;out.push(n?b|128:b)}while(n);return out};var bytesOf=text=>{var b=[...new TextEncoder().encode(text)];return[...leb(b.length),...b]};var vec=items=>[...leb(items.length),...items.flat()];var section=(id,body)=>[id,...leb(body.length),...body];var types=[],typeIndex=new Map,imports=[],exports=[],funcs={};pending.forEach(([slot,func,sig],i)=>{var t=typeIndex.get(sig);if(t===undefined){t=types.length;typeIndex.set(sig,t);types.push([96,...generateTypePack(sig.slice(1)),...generateTypePack(sig[0]==="v"?"":sig[0])])}imports.push([...bytesOf("e"),...bytesOf(String(i)),0,...leb(t)]);exports.push([...bytesOf(String(i)),0,...leb(i)]);funcs[i]=func});var bytes=Uint8Array.from([0,97,115,109,1,0,0,0,...section(1,vec(types)),...section(2,vec(imports)),...section(7,vec(exports))]);var instance=new WebAssembly.Instance(new WebAssembly.Module(bytes),{e:funcs});pending.forEach(([slot],i)=>setWasmTableEntry(slot,instance.exports[String(i)]))};"""

# The main module's exports set in the global offset table as it is instantiated.
MAIN_GOT = "updateGOT(origExports);LDSO.init();loadDylibs();"
# Only those that have an entry already (the main module's own imports), in export order.
MAIN_GOT_IMPORTED = "updateGOT(exportsInGOT(origExports));LDSO.init();loadDylibs();"
EXPORTS_IN_GOT = ("var exportsInGOT=exports=>{var wanted={};for(var symName in exports){"
                  "if(symName in GOT){wanted[symName]=exports[symName]}}return wanted};")

# What the batched code calls from the script's scope: each must be defined there.
USES = ("var resolveGlobalSymbol=", "var getFunctionAddress=", "var getEmptyTableSlot=",
        "var setWasmTableEntry=", "var generateTypePack=", "functionsInTableMap")


def patch_linking(asm: str) -> str:
    """pyodide.asm.mjs with its JavaScript functions' table wrappers made by one module, and
    the main module's global offset table set only where the main module imports."""
    if asm.count(REPORT_UNDEFINED) != 1:
        raise BuildError("pyodide.asm.mjs: Emscripten's reportUndefinedSymbols is not the one "
                         "tools/build/linking.py replaces (another Pyodide?)")
    missing = [name for name in USES if name not in asm]
    if missing:
        raise BuildError(f"pyodide.asm.mjs: no {', '.join(missing)} (another Pyodide?)")
    for name in ("addFunctionLater", "convertJsFunctionsToWasm", "exportsInGOT"):
        if name in asm:
            raise BuildError(f"pyodide.asm.mjs: already defines {name}")
    if asm.count(MAIN_GOT) != 1:
        raise BuildError("pyodide.asm.mjs: the main module's updateGOT call is not the one "
                         "tools/build/linking.py replaces (another Pyodide?)")
    asm = asm.replace(MAIN_GOT, MAIN_GOT_IMPORTED)
    return asm.replace(REPORT_UNDEFINED, BATCHED.replace("\n", "") + EXPORTS_IN_GOT)
