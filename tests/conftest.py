"""What every test starts from: no test reads or writes the user's own cache or config.

- A test of the cache itself (the modules in OWN_CACHE, or a test marked `own_cache`) has an empty
  cache folder of its own ($LIUREN_CACHE_DIR, and $XDG_CACHE_HOME beside it), made fresh for it:
  what it finds there, it wrote itself.  Every other test shares the worker's cache folder (made
  empty when the worker starts): the cache is keyed on the code and the KB's content, so what one
  test wrote there is what any other would compute, and a `liuren` child process reads the KB and
  its network from there instead of compiling them again (some 3 s of CPU a child).
- The fixtures that outlive a test (a module's web server, a module's index, the KB memo of the
  worker process) run under a folder of the worker's own, made empty when the worker starts
  (session scope): starting a server or building an index per test would make the suite many
  times slower, and they are read-only to the tests using them.
- The cache's key ($XDG_CONFIG_HOME/liuren/cache.key) is the worker's own too, made empty at
  start; the tests of the key itself make their own.
- $LIUREN_NO_CACHE, $LIUREN_KB and $LIUREN_LANG from the developer's shell are not inherited.

In a worker process the KB and its networks are compiled once (the library keeps them in
memory, keyed on the folder)."""
from __future__ import annotations

import inspect
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


# the tests of the cache itself (what it holds, reads, trusts, evicts), and those that compare a
# fresh process with a cached one: each starts from an empty cache folder of its own
OWN_CACHE = {"test_cache.py", "test_cache_fifo.py", "test_cache_trust.py", "test_experta_untouched.py",
             "test_network_history.py", "test_no_hidden_state.py", "test_same_bytes.py", "test_find.py"}


def pytest_configure(config):
    config.addinivalue_line("markers", "own_cache: the test starts from an empty cache folder of its own")


# the longest single tests, started first: xdist hands the work out in the order collected, and a
# test of minutes handed out last would leave the other worker idle while it runs
LONG_FIRST = ("test_kb_mutations_random.py::test_random_slips_are_refused",)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda it: not any(it.nodeid.split("@")[0].endswith(x) for x in LONG_FIRST))   # stable
    # An xdist worker's items carry their xdist_group in their id ("…@group"): `--dist loadgroup`
    # keeps a group on one worker by it.  xdist 3.8 writes it to item._nodeid, which pytest 9 no
    # longer reads (an item's id is item._id), so every group was shared out test by test: each
    # worker compiled every network of the KB examples, built the find index, judged the 720
    # lessons … twice.  Set where pytest 9 reads it (after xdist's own hook: trylast).
    if not getattr(config.option, "loadgroup", False):
        return
    from _pytest.nodeid import coerce_node_id
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if names and "@" not in item.nodeid.rsplit("]", 1)[-1]:
            item._id = coerce_node_id(f"{item.nodeid}@{'_'.join(names)}")


@pytest.fixture(autouse=True)
def _empty_cache(_worker_folders, tmp_path_factory, monkeypatch, request):
    """This test's own empty cache folder (a test of the cache), or the worker's (any other)."""
    own = (request.node.path.name in OWN_CACHE or request.node.get_closest_marker("own_cache") is not None
           or "_empty_cache" in inspect.signature(request.function).parameters)
    if not own:
        return _worker_folders / "cache" / "liuren"
    d = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("LIUREN_CACHE_DIR", str(d / "liuren"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(d))
    return d / "liuren"


# what each KB file's text parsed to, in this worker: a KB copy (kbcopy) is the installed KB
# with one file edited, and `kb check` on it reads every file afresh (some 70 files, a second of
# CPU each time); the files left as they were parse to what they parsed to before
_PARSED = {}


def _copy_doc(x):
    """A fresh copy of a parsed document: its maps and lists new (with their lines and key lines),
    its scalars shared (immutable)."""
    if isinstance(x, dict):
        m = type(x)()
        dict.update(m, ((k, _copy_doc(v)) for k, v in x.items()))
        m.__dict__.update(getattr(x, "__dict__", {}))
        if "key_lines" in m.__dict__:
            m.key_lines = dict(x.key_lines)
        return m
    if isinstance(x, list):
        s = type(x)(_copy_doc(v) for v in x)
        s.__dict__.update(getattr(x, "__dict__", {}))
        return s
    if isinstance(x, (set, frozenset)):
        return type(x)(x)
    return x


def _read_yaml_memo(real):
    """kbload.read_yaml, remembering what each text (bytes) parsed to: the same document for the
    same bytes, a fresh copy on every call (the loader may keep or change what it is given); any
    file that cannot be read or parsed goes to the real reader, which says why."""
    from liuren.casting.tables import read_regular

    def read(path):
        try:
            raw = read_regular(path)
        except OSError:
            return real(path)
        doc = _PARSED.get(raw)
        if doc is None:
            doc = _PARSED[raw] = real(path)
        return _copy_doc(doc)
    return read


@pytest.fixture
def kbcopy(tmp_path, monkeypatch):
    """A copy of the installed KB to edit (helpers.edit).  Its files are parsed once per worker
    by their text (_read_yaml_memo): an edited file, whose text is new, is parsed afresh."""
    from liuren.knowledge import kbload
    monkeypatch.setattr(kbload, "read_yaml", _read_yaml_memo(kbload.read_yaml))
    return copy_kb(tmp_path / "kb")
