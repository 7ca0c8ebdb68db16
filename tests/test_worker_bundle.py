"""The engine's worker is written as modules (js/worker.js and js/worker/, one job each) and
shipped as one file (tools/build/worker.py): the site, the one-file page and the service
worker's list see one js/worker.js, as the browser tests play it."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.build import BuildError  # noqa: E402
from tools.build.onefile import inline_build, without_comment_lines  # noqa: E402
from tools.build.worker import bundle_worker, stage_worker  # noqa: E402

INFO = {"version": "0", "hash": "abc", "models": {}, "files": []}


def code_lines(text: str) -> list[str]:
    """A module's lines as the bundle holds them: no comment lines, no imports, no `export`."""
    text = re.sub(r'^import\s*\{[^}]*\}\s*from\s*"[^"]+";\n', "", text, flags=re.M)
    text = re.sub(r"^export\s+", "", text, flags=re.M)
    return [line for line in without_comment_lines(text).split("\n") if line.strip()]


def test_the_shipped_worker_is_one_file_with_every_module_in_it(tmp_path):
    shutil.copytree(ROOT / "js", tmp_path / "js")
    stage_worker(tmp_path)
    assert not (tmp_path / "js" / "worker").exists()  # the sources are not shipped apart
    shipped = (tmp_path / "js" / "worker.js").read_text(encoding="utf-8")
    imports = re.findall(r"^\s*import\b(?!\s*\().*$", shipped, re.M)
    assert imports == ['import { BUILD } from "./build-info.js";', 'import { checkJSON } from "./limits.js";']
    assert "worker/" not in "".join(re.findall(r"""\bfrom\s*["'][^"']*["']""", shipped))
    modules = sorted((ROOT / "js" / "worker").glob("*.js"))
    assert {p.name for p in modules} >= {"site.js", "bridge.js", "snapshot.js", "models.js", "games.js"}
    lean = [line for line in without_comment_lines(shipped).split("\n") if line.strip()]
    for module in [*modules, ROOT / "js" / "worker.js"]:
        lines = code_lines(module.read_text(encoding="utf-8"))
        assert lines, module
        n = len(lines)
        assert any(lean[i:i + n] == lines for i in range(len(lean) - n + 1)), f"{module.name} is not in the worker"
    # As the site ships it (the build's facts and the bounds inlined): still one module that parses.
    built = without_comment_lines(inline_build(shipped, INFO, (ROOT / "js" / "limits.js").read_text(encoding="utf-8")))
    assert not re.search(r"^\s*(import|export)\b(?!\s*\()", built, re.M)
    if shutil.which("node"):
        (tmp_path / "worker.mjs").write_text(built, encoding="utf-8")
        proc = subprocess.run(["node", "--check", str(tmp_path / "worker.mjs")], capture_output=True, text=True,
                              timeout=60)
        assert proc.returncode == 0, proc.stderr


def site(tmp_path: Path, parts: dict[str, str], entry_imports: str, entry_code: str = "") -> Path:
    js = tmp_path / "js"
    (js / "worker").mkdir(parents=True)
    (js / "build-info.js").write_text('export const BUILD = { hash: "h" };\n', encoding="utf-8")
    (js / "limits.js").write_text("export function checkJSON() { return null; }\n", encoding="utf-8")
    (js / "worker.js").write_text('// the entry\nimport { BUILD } from "./build-info.js";\n'
                                  'import { checkJSON } from "./limits.js";\n'
                                  f"{entry_imports}\n{entry_code}\n", encoding="utf-8")
    for name, text in parts.items():
        (js / "worker" / name).write_text(text, encoding="utf-8")
    return js


def test_the_bundle_runs_as_the_modules_do(tmp_path):
    """Each module after those it imports, in the order of the imports; a `let` a module
    assigns is read live by the others: the same output from node either way."""
    js = site(tmp_path, {
        "a.js": 'import { c } from "./c.js";\nexport let n = 0;\nexport function bump() { n += c; }\nconsole.log("a");\n',
        "b.js": 'import { BUILD } from "../build-info.js";\nimport { n } from "./a.js";\n'
                'export const seen = () => `${BUILD.hash}:${n}`;\nconsole.log("b");\n',
        "c.js": 'export const c = 2;\nconsole.log("c");\n',
    }, 'import { bump, n } from "./worker/a.js";\nimport { seen } from "./worker/b.js";',
        'bump();\nconsole.log(n, seen(), checkJSON(), BUILD.hash);')
    bundle = bundle_worker(js)
    (js / "bundle.js").write_text(bundle, encoding="utf-8")
    assert bundle.index("\nconst c = 2;") < bundle.index("\nlet n = 0;") < bundle.index("\nconst seen")
    if not shutil.which("node"):
        pytest.skip("node is not installed")
    (tmp_path / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    run = [subprocess.run(["node", str(js / name)], capture_output=True, text=True, timeout=60)
           for name in ("worker.js", "bundle.js")]
    assert run[0].returncode == 0, run[0].stderr
    assert run[0].stdout == run[1].stdout == "c\na\nb\n2 h:2 null h\n"


@pytest.mark.parametrize("parts,imports,refused", [
    ({"a.js": "export const x = 1;\n", "b.js": "const x = 2;\nexport const y = x;\n"},
     'import { x } from "./worker/a.js";\nimport { y } from "./worker/b.js";', "declared at the top of both"),
    ({"a.js": "export const x = 1;\n", "b.js": "export const y = 2;\n"},
     'import { x } from "./worker/a.js";', "imported by no module"),
    ({"a.js": "const x = 1;\n"}, 'import { x } from "./worker/a.js";', "does not export"),
    ({"a.js": 'import { other } from "../limits.js";\nexport const x = other;\n'},
     'import { x } from "./worker/a.js";', "does not import"),
    ({"a.js": "export default 1;\n"}, 'import { x } from "./worker/a.js";', "cannot take"),
    ({"a.js": "export const x = 1;\nexport { x as z };\n"}, 'import { x } from "./worker/a.js";', "cannot take"),
    ({"a.js": 'import { y } from "./b.js";\nexport const x = 1;\n',
      "b.js": 'import { x } from "./a.js";\nexport const y = 1;\n'},
     'import { x } from "./worker/a.js";', "in a circle"),
    ({"a.js": 'export const x = 1;\n'}, 'import { x as w } from "./worker/a.js";', "plain names"),
])
def test_what_the_bundle_cannot_take_is_refused(tmp_path, parts, imports, refused):
    js = site(tmp_path, parts, imports)
    before = (js / "worker.js").read_text(encoding="utf-8")
    with pytest.raises(BuildError, match=refused):
        bundle_worker(js)
    with pytest.raises(BuildError, match=refused):
        stage_worker(tmp_path)
    assert (js / "worker.js").read_text(encoding="utf-8") == before and (js / "worker").is_dir()
