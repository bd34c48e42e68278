"""What every test starts from: no test reads or writes the user's own cache or config.

- Each test has an empty cache folder of its own ($LIUREN_CACHE_DIR, and $XDG_CACHE_HOME beside
  it), made fresh for it: what it finds there, it wrote itself.
- The fixtures that outlive a test (a module's web server, a module's index, the KB memo of the
  worker process) run under a folder of the worker's own, made empty when the worker starts
  (session scope): starting a server or building an index per test would make the suite many
  times slower, and they are read-only to the tests using them.
- The cache's key ($XDG_CONFIG_HOME/liuren/cache.key) is the worker's own too, made empty at
  start; the tests of the key itself make their own.
- $LIUREN_NO_CACHE, $LIUREN_KB and $LIUREN_LANG from the developer's shell are not inherited.

In a worker process the KB and its networks are compiled once (the library keeps them in
memory, keyed on the folder), so a per-test empty cache costs only the tests that start
`liuren` as a child process (each compiles the network again: a few seconds)."""
from __future__ import annotations

import os

import pytest

from helpers import copy_kb

_ISOLATED = ("LIUREN_NO_CACHE", "LIUREN_KB", "LIUREN_LANG", "LIUREN_WEB_KB")


@pytest.fixture(scope="session", autouse=True)
def _worker_folders(tmp_path_factory):
    """The worker's own cache, cache home and config home, empty at start."""
    base = tmp_path_factory.mktemp("worker")
    saved = {k: os.environ.get(k) for k in ("LIUREN_CACHE_DIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", *_ISOLATED)}
    for k in _ISOLATED:
        os.environ.pop(k, None)
    os.environ["LIUREN_CACHE_DIR"] = str(base / "cache" / "liuren")
    os.environ["XDG_CACHE_HOME"] = str(base / "cache")
    os.environ["XDG_CONFIG_HOME"] = str(base / "config")
    yield base
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


@pytest.fixture(autouse=True)
def _empty_cache(_worker_folders, tmp_path_factory, monkeypatch):
    """This test's own empty cache folder."""
    d = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("LIUREN_CACHE_DIR", str(d / "liuren"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(d))
    return d / "liuren"


@pytest.fixture
def kbcopy(tmp_path):
    """A copy of the installed KB to edit (helpers.edit)."""
    return copy_kb(tmp_path / "kb")
