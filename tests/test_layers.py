"""The house: one import name, layers that import only downward (import-linter's contracts in
pyproject.toml), no import cycle — imports inside functions counted —, and the documented
entry points (`python -m liuren`, `from liuren import cast, judge, why`)."""
from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _lint_imports():
    exe = shutil.which("lint-imports", path=str(pathlib.Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert exe, "lint-imports (import-linter) is a test dependency"
    return exe


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """The package `liuren` as a wheel lays it out, built from the checkout's folders by
    pyproject's package-dir (the .py files): the import graph is read from it, so the checks mean
    the same whatever the install (an editable install maps liuren.explain, .cli and .web to other
    folders, where a graph of the installed package would not look).  (folder on the path, the
    number of modules)."""
    import tomllib
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    base = tmp_path_factory.mktemp("tree")
    n = 0
    for pkg in cfg["packages"]:
        src = ROOT / cfg["package-dir"].get(pkg, cfg["package-dir"]["liuren"] + "/" + "/".join(pkg.split(".")[1:]))
        dest = base.joinpath(*pkg.split("."))
        dest.mkdir(parents=True, exist_ok=True)
        for f in src.glob("*.py"):
            shutil.copy2(f, dest / f.name)
            n += 1
    return base, n


def _env(tree):
    import os
    return dict(os.environ, PYTHONPATH=str(tree[0]))


def test_the_tree_is_the_package(tree):
    code = "import liuren, liuren.web, liuren.explain; print(liuren.__file__, liuren.web.__file__)"
    p = subprocess.run([sys.executable, "-c", code], cwd=tree[0], env=_env(tree), capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.count(str(tree[0])) == 2, p.stdout + p.stderr
    assert tree[1] > 50


def test_the_layers_contracts_hold(tree):
    p = subprocess.run([_lint_imports(), "--config", str(ROOT / "pyproject.toml")], cwd=tree[0], env=_env(tree),
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    assert "0 broken" in p.stdout
    # the contracts are the ones the layers are: casting → knowledge → rules → explain → app → front-ends
    out = " ".join(p.stdout.split())            # lint-imports wraps long names at the console's width
    assert "Layers: casting → knowledge → rules → explain → app → front-ends" in out
    assert "The front-ends reach the casting, the knowledge base and the rules only through" in out
    assert "without the rule engine: no experta" in out and "6 kept" in out


def test_a_front_end_reaching_into_the_rules_breaks_the_contract(tree, tmp_path):
    # the contract can fail: the same tree with one direct import of the rules in the web app is refused
    planted = tmp_path / "tree"
    shutil.copytree(tree[0], planted)
    views = planted / "liuren" / "web" / "views.py"
    views.write_text(views.read_text(encoding="utf-8") + "\n\ndef _reach():\n    from liuren.rules.judging import _sources\n"
                     "    return _sources\n", encoding="utf-8")
    p = subprocess.run([_lint_imports(), "--config", str(ROOT / "pyproject.toml")], cwd=planted,
                       env=_env((planted, tree[1])), capture_output=True, text=True, timeout=300)
    assert p.returncode != 0 and "liuren.web.views -> liuren.rules.judging" in p.stdout, p.stdout[-3000:]


def test_the_knowledge_base_reaching_into_the_engine_breaks_the_contract(tree, tmp_path):
    # the engine reads the knowledge base, never the reverse: one import of the engine, inside a
    # function of the KB's loader, is refused
    planted = tmp_path / "tree"
    shutil.copytree(tree[0], planted)
    kbload = planted / "liuren" / "knowledge" / "kbload.py"
    kbload.write_text(kbload.read_text(encoding="utf-8") + "\n\ndef _reach():\n    from liuren.rules import compile\n"
                      "    return compile\n", encoding="utf-8")
    p = subprocess.run([_lint_imports(), "--config", str(ROOT / "pyproject.toml")], cwd=planted,
                       env=_env((planted, tree[1])), capture_output=True, text=True, timeout=300)
    assert p.returncode != 0 and "liuren.knowledge.kbload -> liuren.rules.compile" in p.stdout, p.stdout[-3000:]


def test_the_application_door_opens_on_every_name():
    from liuren.app import engine
    for name in dir(engine):
        if not name.startswith("_"):
            assert getattr(engine, name) is not None, name
    with pytest.raises(AttributeError):
        engine.no_such_name


GRAPH = """
import json, grimp
g = grimp.build_graph("liuren")          # every import statement, in functions too
print(json.dumps({m: sorted(d for d in g.find_modules_directly_imported_by(m) if d.startswith("liuren"))
                  for m in g.modules if m.startswith("liuren")}))
"""


def test_no_import_cycle_even_inside_functions(tree):
    p = subprocess.run([sys.executable, "-c", GRAPH], cwd=tree[0], env=_env(tree), capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    edges = {m: set(d) for m, d in json.loads(p.stdout).items()}
    assert len(edges) == tree[1], (len(edges), tree[1])       # every module of the package, seen
    # Tarjan's strongly connected components, by hand (no dependency of the test on networkx)
    index, low, stack, on, sccs = {}, {}, [], set(), []

    def visit(v, n=[0]):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for m in sorted(edges):
        if m not in index:
            visit(m)
    assert sccs == [], sccs


SKIP_DIRS = {".git", ".venv", "venv", "__pycache__", "build", "dist", ".pytest_cache", ".hypothesis"}


def _source_files(root):
    """The checkout's files: git's tracked files, or, in a copy without .git (CI's fresh copy),
    every file but the virtual environment, caches and build output."""
    try:
        return subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True,
                              check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = []
        for f in root.rglob("*"):
            rel = f.relative_to(root)
            if f.is_file() and not any(part in SKIP_DIRS or part.endswith(".egg-info") for part in rel.parts):
                out.append(str(rel))
        return out


@pytest.fixture(scope="module")
def wheel_files(tmp_path_factory):
    """The files of the wheel pip builds from the checkout's tracked files (in a copy: the
    checkout is left as it is), whatever the install the tests run under."""
    import zipfile
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    tracked = _source_files(ROOT)
    for f in tracked:
        if (ROOT / f).is_file():
            (src / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, src / f)
    p = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base / "dist"), str(src)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    whl = next((base / "dist").glob("liuren-*.whl"))
    return zipfile.ZipFile(whl).namelist()


def test_one_top_level_name(wheel_files):
    """What pip installs: the package `liuren` (and its metadata), nothing else at the top level
    of site-packages."""
    files = wheel_files
    tops = {f.split("/")[0] for f in files}
    tops = {t for t in tops if not t.endswith((".dist-info", ".data")) and t != "__pycache__"}
    assert tops == {"liuren"}, tops
    assert any(f.startswith("liuren/kb/core/") and f.endswith(".yaml") for f in files)
    assert any(f.startswith("liuren/web/templates/") for f in files)
    assert any(f.startswith("liuren/explain/templates/") for f in files)


def test_every_data_file_ships():
    """Every file beside the code in a package folder (templates, CSS, vendored JS, KB YAML) is
    matched by a package-data pattern in pyproject.toml, so a wheel install finds what an editable
    one reads from the checkout."""
    import fnmatch
    import subprocess
    import tomllib
    root = pathlib.Path(__file__).resolve().parents[1]
    cfg = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    dirs = cfg["package-dir"]
    data = cfg.get("package-data", {})
    tracked = _source_files(root)
    unshipped = []
    for f in tracked:
        if f.endswith(".py") or "/__pycache__/" in f:
            continue
        # the deepest package whose folder holds the file
        owner = max((pkg for pkg, d in dirs.items() if f.startswith(d.rstrip("/") + "/")),
                    key=lambda pkg: len(dirs[pkg]), default=None)
        if owner is None:
            continue
        rel = f[len(dirs[owner].rstrip("/")) + 1:]
        pats = data.get(owner, [])
        # setuptools' glob: `*` does not cross a `/`
        if not any(fnmatch.fnmatch(rel, pat) and rel.count("/") == pat.count("/") for pat in pats):
            unshipped.append(f)
    assert len(tracked) > 100
    assert unshipped == [], unshipped


def test_python_m_liuren_and_the_api():
    code = ("from liuren import cast, judge, why\n"
            "b = cast(day='丁卯', on='亥加丑')\n"
            "r = judge(b)\n"
            "w = why('斬首', day='丁卯', on='亥加丑')\n"
            "print(''.join(b.transmissions.branches), '斬首' in {f.name for f in r.fired}, w['fired'])\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, cwd="/")
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["亥酉未", "True", "True"]
    p = subprocess.run([sys.executable, "-m", "liuren", "cast", "--day", "丁卯", "--on", "亥加丑"],
                       capture_output=True, text=True, timeout=600, cwd="/")
    assert p.returncode == 0 and "三傳（涉害）" in p.stdout, p.stderr


def test_every_module_says_what_it_holds():
    """Each module opens with a docstring; one over about 800 lines says it is one thing."""
    import liuren
    pkg = pathlib.Path(liuren.__file__).resolve().parent
    missing, long = [], []
    import ast
    for p in sorted(pkg.rglob("*.py")):
        src = p.read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(src))
        if p.name != "__main__.py" and not doc:
            missing.append(str(p.relative_to(pkg)))
        if src.count("\n") > 800 and "one thing" not in (doc or "").lower():
            long.append(str(p.relative_to(pkg)))
    assert missing == [] and long == [], (missing, long)
