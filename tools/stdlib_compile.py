"""Trim and precompile Pyodide's standard library zip.

This file runs INSIDE Pyodide (driven by tools/build_stdlib.mjs), so the
bytecode it writes is produced by the very CPython build that will load it
(Python 3.14 for Pyodide 314.x).  It is not meant for the host Python.

Inputs (globals set by the driver before running this file):
    SRC_ZIP   path in the Pyodide filesystem of the stock python_stdlib.zip
    DST_ZIP   path in the Pyodide filesystem to write the result to
    CONFIG    JSON text: {"drop": [...], "keep": [...], "optimize": 2,
                          "optimize_overrides": {"pyodide": 0},
                          "drop_frozen": true}

Module patterns in "drop"/"keep" are dotted names matched with fnmatch; a
pattern "pkg" also matches every submodule "pkg.x.y".  "keep" wins over
"drop".  "optimize" is the compile() optimization level (2 = like
python -OO: no docstrings, no asserts); "optimize_overrides" sets another
level for some modules (a pattern covers submodules too).  With
"drop_frozen", modules that this interpreter has frozen into its binary
(os, site, codecs, io, ...) are left out too: they are never imported from
the zip.  After running, the global RESULT holds a JSON report.
"""

import _imp
import fnmatch
import importlib.util
import json
import marshal
import sys
import zipfile

# The name under which the stdlib zip sits on sys.path at run time, e.g.
# "/lib/python314.zip".  Code objects get file names inside it so tracebacks
# look the same as with the stock zip.
ZIP_ON_PATH = "/lib/python%d%d.zip" % sys.version_info[:2]

# Fixed metadata for every zip member, so the output is byte-for-byte
# reproducible.
FIXED_DATE = (1980, 1, 1, 0, 0, 0)


def module_name(path):
    """'email/mime/text.py' -> 'email.mime.text'; 'json/__init__.py' -> 'json'.

    Data files and directories map to the package they are in.
    """
    parts = path.rstrip("/").split("/")
    if path.endswith(".py"):
        parts[-1] = parts[-1][:-3]
        if parts[-1] == "__init__":
            parts.pop()
    elif not path.endswith("/"):
        parts.pop()  # a data file belongs to its directory's package
    return ".".join(parts)


def matches(name, patterns):
    for pat in patterns:
        if fnmatch.fnmatchcase(name, pat):
            return True
        if name.startswith(pat + ".") and not any(c in pat for c in "*?["):
            return True
    return False


def pyc_bytes(source, filename, optimize):
    """Hash-based, unchecked .pyc (PEP 552): no timestamps, reproducible."""
    code = compile(source, filename, "exec", dont_inherit=True, optimize=optimize)
    header = importlib.util.MAGIC_NUMBER
    header += (0b01).to_bytes(4, "little")  # hash-based, do not check source
    header += importlib.util.source_hash(source)
    return header + marshal.dumps(code)


def zinfo(name):
    info = zipfile.ZipInfo(name, FIXED_DATE)
    info.create_system = 3
    if name.endswith("/"):
        info.external_attr = (0o40755 << 16) | 0x10
        info.compress_type = zipfile.ZIP_STORED
    else:
        info.external_attr = 0o100644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
    return info


def run(src_zip, dst_zip, config):
    drop = config.get("drop", [])
    keep = config.get("keep", [])
    optimize = int(config.get("optimize", 0))
    overrides = config.get("optimize_overrides", {})
    frozen = set()
    if config.get("drop_frozen") and sys.modules["os"].__spec__.origin == "frozen":
        frozen = set(_imp._frozen_module_names())

    out = []  # (name, bytes or None for a directory)
    dropped, kept_modules = [], []
    raw_in = 0
    with zipfile.ZipFile(src_zip) as zin:
        for info in zin.infolist():
            name = info.filename
            raw_in += info.file_size
            mod = module_name(name)
            if mod and (
                (matches(mod, drop) and not matches(mod, keep))
                or (name.endswith(".py") and mod in frozen)
            ):
                if name.endswith(".py"):
                    dropped.append(mod)
                continue
            if name.endswith("/"):
                out.append((name, None))
            elif name.endswith(".py"):
                src = zin.read(info)
                target = ZIP_ON_PATH + "/" + name
                level = optimize
                for pat, lvl in overrides.items():
                    if matches(mod, [pat]):
                        level = int(lvl)
                out.append((name[:-3] + ".pyc", pyc_bytes(src, target, level)))
                kept_modules.append(mod)
            else:
                out.append((name, zin.read(info)))

    # Drop directory entries that no longer contain anything.
    files = [n for n, d in out if d is not None]
    out = [
        (n, d)
        for n, d in out
        if d is not None or any(f.startswith(n) for f in files)
    ]
    out.sort(key=lambda item: item[0])

    raw_out = 0
    with zipfile.ZipFile(dst_zip, "w") as zout:
        for name, data in out:
            if data is None:
                zout.writestr(zinfo(name), b"")
            else:
                raw_out += len(data)
                zout.writestr(zinfo(name), data, compresslevel=9)

    return {
        "python": sys.version.split()[0],
        "magic": importlib.util.MAGIC_NUMBER.hex(),
        "optimize": optimize,
        "zip_on_path": ZIP_ON_PATH,
        "modules_kept": len(kept_modules),
        "modules_dropped": sorted(dropped),
        "raw_bytes_in": raw_in,
        "raw_bytes_out": raw_out,
    }


RESULT = json.dumps(run(SRC_ZIP, DST_ZIP, json.loads(CONFIG)))  # noqa: F821
