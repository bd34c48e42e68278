"""The tests' shared helpers, one copy of each (test modules import from here, never from each
other): what fired, a KB copy to edit, a child Python or `liuren serve`, the browser."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading

import pytest


# ---------------------------------------------------------------------------- what fired
def fired(x=None, **board):
    """The ids of what fired (frozenset): x is a Judgment, a board dict (judged now), or a board
    dict as JSON text; or the board is given as keywords."""
    from liuren import judge
    if x is None:
        x = board
    if isinstance(x, str):
        x = json.loads(x)
    if isinstance(x, dict):
        x = judge(x)
    return frozenset(x.fired_ids())


def fired_names(board=None, **kw):
    """The names of what fired on a board (a dict, or keywords)."""
    from liuren import judge
    return {f.name for f in judge(board if board is not None else kw).fired}


def by_report(r):
    """A judgment's firings by what they report (a rule, or a table row)."""
    return {f.report: f for f in r.fired}


def fired_in_json(out):
    """What fired in `liuren judge --json`'s output: sorted (rule, bindings) pairs."""
    d = json.loads(out)
    return sorted((f["rule"], json.dumps(f["bindings"], sort_keys=True, ensure_ascii=False)) for f in d["fired"])


# ---------------------------------------------------------------------------- a KB to edit
def copy_kb(dest):
    """A copy of the installed KB at dest (a path); the path."""
    from liuren.knowledge.kbload import packaged_kb_dir
    shutil.copytree(packaged_kb_dir(), dest)
    return dest


def edit(kb, rel, old, new):
    """Replace the first `old` in the KB file kb/rel by `new` (old None: the whole file becomes
    `new`).  The file's text before, and the line where `old` was (1-based)."""
    p = kb / rel
    text = p.read_text(encoding="utf-8")
    if old is None:
        p.write_text(new, encoding="utf-8")
        return text, 1
    assert old in text, f"the edit's anchor is not in {rel}: {old!r}"
    at = text[:text.index(old)].count("\n") + 1
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text, at


# ---------------------------------------------------------------------------- child processes
def run_python(code, tmp_path, env=None, timeout=600):
    """`python -c code` in a fresh process with the cache in tmp_path/cache; it must succeed."""
    e = dict(os.environ, LIUREN_CACHE_DIR=str(tmp_path / "cache"), **(env or {}))
    e.pop("LIUREN_NO_CACHE", None)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=e, timeout=timeout)
    assert p.returncode == 0, p.stderr[-3000:]
    return p


def start_server(*args, timeout=180):
    """`liuren serve --port 0 …` in a child process; (process, base URL) once it prints its URL."""
    cmd = [sys.executable, "-m", "liuren", "serve", "--port", "0", *args]
    # as from a terminal: Ctrl-C reaches it.  (A pytest-xdist worker ignores SIGINT, and an ignored
    # signal stays ignored across exec: the server would never see the test's Ctrl-C that comes
    # before uvicorn installs its own handler.)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
                            env=dict(os.environ, PYTHONUNBUFFERED="1"),
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    line = [None]

    def read():
        line[0] = proc.stdout.readline()
    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(timeout)
    m = re.search(r"(http://\S+?)/\s", line[0] or "")
    if not m:
        proc.kill()
        raise RuntimeError(f"liuren serve did not start: {line[0]!r} {proc.stderr.read()[:2000] if proc.poll() is not None else ''}")
    return proc, m.group(1)


def stop_server(proc):
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


# ---------------------------------------------------------------------------- the browser
CHROMIUM = os.environ.get("LIUREN_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def in_ci():
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


def need(ok, why):
    """Skip when the browser cannot run here; in CI that is a failure, not a skip."""
    if ok:
        return
    if in_ci():
        pytest.fail(f"browser test cannot run in CI: {why}", pytrace=False)
    pytest.skip(why)
