"""Issue 29 §1: a library call leaves the process as it found it — no gc.freeze, no write of
os.environ, no module global changed (beyond the documented memos of generated code), no module
changing another at import, casting without experta, and memos keyed on what they depend on."""
import os
import shutil
import subprocess
import sys
import textwrap
import threading

import pytest

from helpers import run_python

# Memos of generated code, keyed on their whole input, that may only grow: the fact class of a
# fact type (one per process: the alpha network dispatches on it), the beta network's generated
# activations per shape, and the one-of tests per value set.  Each is documented where defined.
MEMOS = {("liuren.rules.beta", "_FACTORIES"), ("liuren.rules.runtime", "_FACT_CLASSES"),
         ("liuren.rules.compile", "_ONE_OF")}

SNAPSHOT = textwrap.dedent('''
    import gc, importlib, json, os, pkgutil, sys
    import liuren
    for m in pkgutil.walk_packages(liuren.__path__, "liuren."):
        if not m.name.startswith(("liuren.cli", "liuren.web", "liuren.__main__")):
            importlib.import_module(m.name)

    def snap():
        out = {}
        for name, mod in list(sys.modules.items()):
            if name.startswith("liuren"):
                for k, v in vars(mod).items():
                    if not k.startswith("__"):
                        c = dict(v) if isinstance(v, dict) else list(v) if isinstance(v, (list, set)) else None
                        out[(name, k)] = (v, c)
        return out

    def differ(before, after):
        out = []
        for k, (v, c) in before.items():
            v2, c2 = after[k]
            if v2 is not v:
                out.append((k, "rebound"))
            elif c is not None and c != (dict(v2) if isinstance(v2, dict) else list(v2)):
                grew = isinstance(c, dict) and all(v2.get(x) is y for x, y in c.items())
                out.append((k, "grew" if grew else "changed"))
        return [["%s.%s" % k, how] for k, how in out]

    env = dict(os.environ)
    before = snap()
    liuren.judge({"day": "丁卯", "on": "亥加丑", "month": "壬寅"})
    first = differ(before, snap())
    before = snap()
    liuren.judge({"day": "甲子", "on": "子加子", "question": "占病"})
    second = differ(before, snap())
    print(json.dumps({"freeze": gc.get_freeze_count(), "gc": gc.isenabled(), "env": env == dict(os.environ),
                      "first": first, "second": second}))
''')


@pytest.mark.parametrize("cached", [False, True], ids=["cold", "from-cache"])
def test_judge_leaves_the_process_as_it_found_it(tmp_path, cached):
    import json
    if cached:
        run_python(SNAPSHOT, tmp_path)              # the first process fills the cache
    out = json.loads(run_python(SNAPSHOT, tmp_path).stdout)
    assert out["freeze"] == 0 and out["gc"] and out["env"]
    memo = {f"{m}.{k}" for m, k in MEMOS}
    for d in out["first"] + out["second"]:
        assert d[0] in memo and d[1] == "grew", d      # only the memos, and only by new entries


def test_casting_alone_does_not_load_the_rule_engine(tmp_path):
    code = ("import sys, liuren\nb = liuren.cast(day='丁卯', on='亥加丑')\nb._repr_html_()\n"
            "print(sorted(m for m in sys.modules if m == 'experta' or m.startswith(('experta.', 'liuren.rules.judging', 'liuren.rules.compile', "
            "'liuren.rules.runtime', 'liuren.rules.engines'))))")
    assert run_python(code, tmp_path).stdout.strip() == "[]"


def test_importing_the_rules_changes_no_other_module(tmp_path):
    code = ("from liuren.casting import tables as t\nr = t._READER.get()\nimport liuren.rules.judging, liuren.app.service\n"
            "print(t._READER.get() is r is t.read_core)")
    assert run_python(code, tmp_path).stdout.strip() == "True"


def test_no_cache_is_not_written_into_the_environment(monkeypatch, capsys):
    from liuren.cli.main import main
    from liuren.knowledge import cache
    monkeypatch.delenv("LIUREN_NO_CACHE", raising=False)
    env = dict(os.environ)
    assert main(["--no-cache", "cast", "--day", "丁卯", "--on", "亥加丑"]) == 0
    assert dict(os.environ) == env and cache.enabled()
    assert "丁卯" in capsys.readouterr().out


@pytest.mark.parametrize("value,on", [("0", True), ("", True), ("false", True), ("no", True),
                                      ("1", False), ("true", False), ("yes", False)])
def test_liuren_no_cache_values(monkeypatch, value, on):
    from liuren.knowledge import cache
    monkeypatch.setenv("LIUREN_NO_CACHE", value)
    assert cache.enabled() is on


def test_liuren_no_cache_another_value_is_refused(monkeypatch, capsys):
    from liuren.cli.main import main
    monkeypatch.setenv("LIUREN_NO_CACHE", "maybe")
    assert main(["judge", "--day", "丁卯", "--on", "亥加丑"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "LIUREN_NO_CACHE='maybe'" in err


def test_the_render_language_is_per_thread():
    """A page being rendered in ja on one thread does not turn another thread's page into ja."""
    from liuren.explain import render as R
    a = {"branch": "子", "at": "初傳", "rides": "貴人", "belongs": [], "sits_on": "丑", "sits_on_sha": []}
    zh = R.aspect_lines(a)
    ja = R.aspect_lines(a, lang="ja")
    assert zh != ja
    inside, done = threading.Event(), threading.Event()

    def ja_page():
        with R.in_lang("ja"):
            inside.set()
            done.wait(10)
    t = threading.Thread(target=ja_page)
    t.start()
    inside.wait(10)
    try:
        assert R.aspect_lines(a) == zh           # rendered meanwhile on this thread: still zh
    finally:
        done.set()
        t.join()


def test_memos_follow_liuren_kb(tmp_path, monkeypatch):
    """load_kb(), core() and the network are kept per folder: a change of $LIUREN_KB is seen."""
    from liuren.casting.tables import core
    from liuren.knowledge.kbload import load_kb, packaged_kb_dir
    default = load_kb()
    kb = tmp_path / "kb"
    shutil.copytree(packaged_kb_dir(), kb)
    monkeypatch.setenv("LIUREN_KB", str(kb))
    assert core().root == (kb / "core").resolve()
    other = load_kb()
    assert other is not default and other.root == kb
    monkeypatch.delenv("LIUREN_KB")
    assert load_kb() is default and core().root != (kb / "core").resolve()
