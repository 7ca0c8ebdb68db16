"""The modules of py/briscola import one another one way only: no cycle, however indirect.

Every ``import`` and ``from ... import`` in a module counts, wherever it stands: at the top,
inside a function (a lazy import is still an arrow), or under ``if TYPE_CHECKING`` (a type
named from a module above is an arrow too). See ARCHITECTURE.md for the layers.
"""
from __future__ import annotations

import ast
import pathlib

PKG = pathlib.Path(__file__).resolve().parent.parent / "py" / "briscola"


def module_name(path: pathlib.Path, root: pathlib.Path = PKG.parent) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, pathlib.Path]:
    return {module_name(p): p for p in sorted(PKG.rglob("*.py"))}


def imports_of(name: str, path: pathlib.Path, known: set[str]) -> set[str]:
    """The modules of the package that ``name`` imports anywhere in its text."""
    is_pkg = path.name == "__init__.py"
    here = name if is_pkg else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                if node.level > 1:
                    base = base[:len(base) - (node.level - 1)]
                base_name = ".".join(base + ([node.module] if node.module else []))
            else:
                base_name = node.module or ""
            # ``from pkg import mod`` imports the submodule pkg.mod; ``from mod import name``
            # imports mod.
            targets = [f"{base_name}.{a.name}" if f"{base_name}.{a.name}" in known else base_name
                       for a in node.names]
        else:
            continue
        for t in targets:
            # ``import briscola.ai.base`` names the module itself; trim to the longest known.
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def find_cycle(g: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``g`` as a list of modules (first == last), or ``None``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for t in sorted(g.get(m, ())):
            if state.get(t) == 1:
                return stack[stack.index(t):] + [t]
            if t not in state:
                found = visit(t)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(g):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_the_package_has_no_import_cycle():
    cycle = find_cycle(graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_checker_sees_lazy_and_type_only_imports(tmp_path):
    # The checker itself: a cycle closed by an import inside a function, or under
    # TYPE_CHECKING, is found; a graph without one is not flagged.
    pkg = tmp_path / "briscola"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import x\n")
    (pkg / "b.py").write_text("def f():\n    from . import c\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\n"
                              "if TYPE_CHECKING:\n    from briscola.a import y\n")
    mods = {module_name(p, tmp_path): p for p in sorted(pkg.rglob("*.py"))}
    known = set(mods)
    g = {n: imports_of(n, p, known) for n, p in mods.items()}
    assert g["briscola.a"] == {"briscola.b"}
    assert g["briscola.b"] == {"briscola.c"}
    assert g["briscola.c"] == {"briscola.a"}
    assert find_cycle(g) == ["briscola.a", "briscola.b", "briscola.c", "briscola.a"]
    (pkg / "c.py").write_text("x = 1\n")
    g["briscola.c"] = imports_of("briscola.c", pkg / "c.py", known)
    assert find_cycle(g) is None


def test_the_real_graph_is_read():
    # The arrows the layers rely on are seen (so an empty graph cannot pass the test above).
    g = graph()
    assert "briscola.cards" in g["briscola.rules"]
    assert "briscola.game" in g["briscola.match"]
    assert "briscola.ai.base" in g["briscola.ai.heuristic"]
    assert "briscola.ai.chiamata.common" in g["briscola.ai.chiamata.bots"]
