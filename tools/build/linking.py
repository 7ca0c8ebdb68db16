"""One change to Pyodide's script, made as the site is staged: the start's dynamic linking
puts each JavaScript function that the wasm takes the address of into the function table
through a wasm module of its own, compiled and instantiated one by one (Emscripten's
convertJsFunctionToWasm; 259 of them in Pyodide 314, 15-20 ms of every start, cold or
warm). Here they are made by one module with one import and one export per function.

The table's layout stays exactly what Emscripten makes: each function's slot is taken in
the same order as before (getEmptyTableSlot, as addFunction does) and only filled once the
one module is instantiated, so a memory snapshot taken by either script holds the same
function pointers. The replaced code is matched exactly; another Pyodide without it stops
the build (BuildError), as does any other change of that function.
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

# What the batched code calls from the script's scope: each must be defined there.
USES = ("var resolveGlobalSymbol=", "var getFunctionAddress=", "var getEmptyTableSlot=",
        "var setWasmTableEntry=", "var generateTypePack=", "functionsInTableMap")


def batch_trampolines(asm: str) -> str:
    """pyodide.asm.mjs with its JavaScript functions' table wrappers made by one module."""
    if asm.count(REPORT_UNDEFINED) != 1:
        raise BuildError("pyodide.asm.mjs: Emscripten's reportUndefinedSymbols is not the one "
                         "tools/build/linking.py replaces (another Pyodide?)")
    missing = [name for name in USES if name not in asm]
    if missing:
        raise BuildError(f"pyodide.asm.mjs: no {', '.join(missing)} (another Pyodide?)")
    for name in ("addFunctionLater", "convertJsFunctionsToWasm"):
        if name in asm:
            raise BuildError(f"pyodide.asm.mjs: already defines {name}")
    return asm.replace(REPORT_UNDEFINED, BATCHED.replace("\n", ""))
