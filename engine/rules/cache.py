"""A cache of what does not change between runs: the loaded and checked KB, and the compiled
network for a (KB, variants, question), in the user's cache folder.

    $LIUREN_CACHE_DIR, else $XDG_CACHE_HOME/liuren, else ~/.cache/liuren

An entry is keyed by the content of every KB file, the program's own code and version, and the
options that shape the network: any edit of a KB file, another --kb folder or another version
misses the cache.  Reading is best effort: a missing, corrupt, foreign or unreadable file is a
miss, and the KB is loaded and compiled as if there were no cache (then written again);
writing is best effort too (a read-only folder is fine).  Files are written to a temporary
name and renamed into place, so two first runs at once both leave a whole file.
`liuren --no-cache …` (or LIUREN_NO_CACHE=1) bypasses it; `liuren cache clear` empties it.
"""
from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import io
import os
import pathlib
import pickle
import stat
import sys
import tempfile

FORMAT = 1                      # bump when what is stored changes shape
_PREFIX = "liuren-"
KEEP = 64                       # files of each kind kept, the most recently used (one network per question)


def cache_dir():
    d = os.environ.get("LIUREN_CACHE_DIR")
    if d:
        return pathlib.Path(d)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(base) / "liuren"


def enabled():
    return not os.environ.get("LIUREN_NO_CACHE")


_READ_ONLY = []


@contextlib.contextmanager
def read_only():
    """Read the cache but write nothing meanwhile: for networks made once and not asked for
    again (the audit's one per 底本 variant, which a KB edit makes stale anyway), writing costs
    about as much as compiling."""
    _READ_ONLY.append(True)
    try:
        yield
    finally:
        _READ_ONLY.pop()


@functools.lru_cache(maxsize=1)
def code_digest():
    """The program itself: Python's version, experta's, and the source of the package (a
    change of the code that compiles a network changes what a cached network means).  experta's
    version is read from its __init__.py, which states it, without importing experta or
    importlib.metadata (slow to import, for a lookup every run makes)."""
    h = hashlib.sha256()
    try:
        import importlib.util
        spec = importlib.util.find_spec("experta")
        h.update(pathlib.Path(spec.origin).read_bytes())
    except Exception:  # noqa: BLE001 — not found: the sources of the package say the rest
        pass
    h.update(sys.version.encode())
    h.update(str(FORMAT).encode())
    here = pathlib.Path(__file__).resolve().parent.parent      # the package: casting, rules …
    for p in sorted(here.rglob("*.py")):
        h.update(str(p.relative_to(here)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def kb_digest(root, files):
    """The content of a KB folder: every file's path (relative) and bytes, and the code."""
    h = hashlib.sha256(code_digest().encode())
    root = pathlib.Path(root)
    for p in files:
        h.update(str(pathlib.Path(p).relative_to(root)).encode() + b"\0")
        h.update(pathlib.Path(p).read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def _path(kind, key):
    return cache_dir() / f"{_PREFIX}{kind}-{key[:40]}.pickle"


@contextlib.contextmanager
def lasting():
    """Making objects that live as long as the process (a KB, a network): no collections
    meanwhile (each would scan every object made so far, and there is no garbage worth it), and
    afterwards out of the collector's way (frozen), so that its next collection does not scan
    them either."""
    gc_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc_on:
            gc.freeze()
            gc.enable()


def read(kind, key, persistent_load=None):
    """The object stored under (kind, key), or None (a miss, whatever the reason)."""
    if not enabled():
        return None
    p = _path(kind, key)
    gc_on = gc.isenabled()
    gc.disable()                    # unpickling millions of objects: no collections meanwhile
    try:
        # a regular file only: a FIFO or a device put in the cache's place would block the read
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            if hasattr(os, "set_blocking"):
                os.set_blocking(fd, True)
            f = os.fdopen(fd, "rb")
        except BaseException:
            os.close(fd)
            raise
        with f:
            u = pickle.Unpickler(f)
            if persistent_load is not None:
                u.persistent_load = persistent_load
            header = u.load()
            if header != (FORMAT, kind, key):
                return None
            obj = u.load()
        try:
            os.utime(p)                 # recently used: kept when older entries are pruned
        except OSError:
            pass
        return obj
    except Exception:  # noqa: BLE001 — a cache is never an error: corrupt, partial, foreign …
        return None
    finally:
        if gc_on:
            # what was read lives as long as the process: out of the collector's way before it
            # runs again (else its first collection would scan every object just made)
            gc.freeze()
            gc.enable()


def write(kind, key, obj, pickler=None):
    """Store obj under (kind, key); False when it could not be written (read-only folder …)."""
    if not enabled() or _READ_ONLY:
        return False
    d = cache_dir()
    tmp = None
    try:
        d.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        p = (pickler or pickle.Pickler)(buf, protocol=pickle.HIGHEST_PROTOCOL)
        p.dump((FORMAT, kind, key))
        p.dump(obj)
        fd, tmp = tempfile.mkstemp(prefix=f".{_PREFIX}{kind}-", dir=d)
        with os.fdopen(fd, "wb") as f:
            f.write(buf.getvalue())
        os.replace(tmp, _path(kind, key))
        _prune(d, kind)
        return True
    except Exception:  # noqa: BLE001 — e.g. a read-only cache folder: judge without caching
        if tmp:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return False


def _prune(d, kind):
    """Keep the KEEP most recently used files of a kind (old KB versions, old code)."""
    mine = [p for p in d.iterdir() if p.name.startswith(f"{_PREFIX}{kind}-")]
    mine.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for p in mine[KEEP:]:
        try:
            p.unlink()
        except OSError:
            pass


def files():
    d = cache_dir()
    return sorted(p for p in d.iterdir() if p.name.startswith(_PREFIX)) if d.is_dir() else []


def clear():
    """Remove every cache file of this program; the number removed."""
    d = cache_dir()
    n = 0
    if d.is_dir():
        for p in d.iterdir():
            if p.name.startswith((_PREFIX, "." + _PREFIX)):
                try:
                    p.unlink()
                    n += 1
                except OSError:
                    pass
    return n


