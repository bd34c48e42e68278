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

The entries are pickles, and unpickling runs code: an entry is loaded only if it is one this
installation wrote.  The folder (created 0700) and the file must belong to the user and be
writable by nobody else, and the entry must carry an HMAC-SHA256 of its bytes made with the
user's own key ($XDG_CONFIG_HOME/liuren/cache.key, else ~/.config/liuren/cache.key: 0600,
made on first use).  Anything else is a miss: the entry is rebuilt, and the reason is said once
per process on stderr.

No process-wide state is changed by a library call: --no-cache is a context (`disabled()`), not
an environment variable, and the freezing of what lasts out of the garbage collector's way is
done only where the CLI's entry point asks for it (`freezing()`).
"""
from __future__ import annotations

import contextlib
import contextvars
import functools
import gc
import hashlib
import hmac
import io
import os
import pathlib
import pickle
import secrets
import stat
import sys
import tempfile

FORMAT = 2                      # bump when what is stored changes shape (2: the keyed digest)
_PREFIX = "liuren-"
KEEP = 64                       # files of each kind kept, the most recently used (one network per question)
MAGIC = b"liuren-cache-hmac-sha256\n"
_DIGEST = 32

_OFF = contextvars.ContextVar("liuren_cache_off", default=False)
_FREEZE = contextvars.ContextVar("liuren_gc_freeze", default=False)
_WARNED = []                    # [True] once an untrusted entry was reported (once per process)


def cache_dir():
    d = os.environ.get("LIUREN_CACHE_DIR")
    if d:
        return pathlib.Path(d)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(base) / "liuren"


def key_path():
    """Where the user's cache key is kept: $XDG_CONFIG_HOME/liuren/cache.key, else ~/.config/…"""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return pathlib.Path(base) / "liuren" / "cache.key"


_NO_CACHE_VALUES = {"1": True, "true": True, "yes": True, "on": True,
                    "": False, "0": False, "false": False, "no": False, "off": False}


def enabled():
    """Is the cache used?  Not inside `disabled()` (liuren --no-cache), nor under LIUREN_NO_CACHE=1
    (true/yes/on); LIUREN_NO_CACHE=0 (false/no/off, or empty) leaves it on; another value is an
    InputError naming it."""
    if _OFF.get():
        return False
    v = os.environ.get("LIUREN_NO_CACHE")
    if v is None:
        return True
    off = _NO_CACHE_VALUES.get(v.strip().lower())
    if off is None:
        from liuren.errors import InputError
        raise InputError(f"LIUREN_NO_CACHE={v!r}: give 1 (no cache) or 0 (use the cache)")
    return not off


@contextlib.contextmanager
def disabled():
    """No cache meanwhile, in this thread or task (liuren --no-cache)."""
    token = _OFF.set(True)
    try:
        yield
    finally:
        _OFF.reset(token)


@contextlib.contextmanager
def freezing():
    """Meanwhile, what is loaded to last as long as the process (a KB, a network) is moved out of
    the garbage collector's way (gc.freeze), so that later collections do not scan it.  That is
    process-wide tuning: only the CLI's entry point asks for it (a library call leaves the
    collector as it found it)."""
    token = _FREEZE.set(True)
    try:
        yield
    finally:
        _FREEZE.reset(token)


def _warn(reason):
    """Say once per process (the first reason) that an entry was not loaded; those are rebuilt."""
    if not _WARNED:
        _WARNED.append(True)
        print(f"liuren: cache: {reason}: not loaded, rebuilt (said once)", file=sys.stderr)


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
    from liuren.casting.tables import read_regular
    h = hashlib.sha256(code_digest().encode())
    root = pathlib.Path(root)
    for p in files:
        h.update(str(pathlib.Path(p).relative_to(root)).encode() + b"\0")
        h.update(read_regular(p))         # a FIFO or an endless device: OSError, not a hang
        h.update(b"\0")
    return h.hexdigest()


def _path(kind, key):
    return cache_dir() / f"{_PREFIX}{kind}-{key[:40]}.pickle"


def _private(st):
    """Belongs to this user and is writable by nobody else."""
    return st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _key(create):
    """The user's cache key (bytes), made on first use when `create`; None when there is none, or
    when it is not the user's own private file (then nothing is loaded)."""
    p = key_path()
    for _ in range(2):
        try:
            fd = os.open(p, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            if not create:
                return None
            try:
                p.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                continue                            # made by another process meanwhile: read it
            except OSError:
                return None
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32) + "\n")
            continue
        except OSError:
            _warn(f"the key {p} cannot be read")
            return None
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
                _warn(f"the key {p} is not a private file of this user (0600)")
                return None
            key = f.read(4096).strip()
        if len(key) < 32:
            _warn(f"the key {p} is too short")
            return None
        return key
    return None


@contextlib.contextmanager
def lasting():
    """Making objects that live as long as the process (a KB, a network): no collections
    meanwhile (each would scan every object made so far, and there is no garbage worth it), and
    afterwards, where the CLI asked for it (freezing()), out of the collector's way (frozen), so
    that its next collection does not scan them either."""
    gc_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc_on:
            if _FREEZE.get():
                gc.freeze()
            gc.enable()


def _trusted_bytes(p):
    """The pickle bytes of the entry at p if this installation wrote it, else None (a miss)."""
    d = p.parent
    try:
        dst = os.stat(d)
    except OSError:
        return None
    if not _private(dst):
        _warn(f"the folder {d} is not this user's own, or others may write it")
        return None
    try:
        # a regular file only: a FIFO or a device put in the cache's place would block the read
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        if not _private(st):
            _warn(f"{p} is not this user's own, or others may write it")
            return None
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        data = f.read()
    key = _key(create=False)
    head = len(MAGIC) + _DIGEST
    if key is None or not data.startswith(MAGIC) or len(data) < head:
        _warn(f"{p.name} carries no digest of this installation")
        return None
    body = memoryview(data)[head:]
    if not hmac.compare_digest(data[len(MAGIC):head], hmac.new(key, body, hashlib.sha256).digest()):
        _warn(f"{p.name} carries a digest this installation did not make")
        return None
    return body


def read(kind, key, persistent_load=None):
    """The object stored under (kind, key), or None (a miss, whatever the reason)."""
    if not enabled():
        return None
    p = _path(kind, key)
    body = _trusted_bytes(p)
    if body is None:
        return None
    gc_on = gc.isenabled()
    gc.disable()                    # unpickling millions of objects: no collections meanwhile
    try:
        u = pickle.Unpickler(io.BytesIO(body))
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
            if _FREEZE.get():
                # what was read lives as long as the process: out of the collector's way before
                # it runs again (else its first collection would scan every object just made)
                gc.freeze()
            gc.enable()


def write(kind, key, obj, pickler=None):
    """Store obj under (kind, key); False when it could not be written (read-only folder …)."""
    if not enabled() or _READ_ONLY:
        return False
    d = cache_dir()
    tmp = None
    try:
        d.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private(os.stat(d)):
            _warn(f"the folder {d} is not this user's own, or others may write it")
            return False
        secret = _key(create=True)
        if secret is None:
            return False
        buf = io.BytesIO()
        p = (pickler or pickle.Pickler)(buf, protocol=pickle.HIGHEST_PROTOCOL)
        p.dump((FORMAT, kind, key))
        p.dump(obj)
        body = buf.getbuffer()
        fd, tmp = tempfile.mkstemp(prefix=f".{_PREFIX}{kind}-", dir=d)     # 0600
        with os.fdopen(fd, "wb") as f:
            f.write(MAGIC)
            f.write(hmac.new(secret, body, hashlib.sha256).digest())
            f.write(body)
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




def read_core_cached(folder):
    """casting.tables.read_core through the cache: a judgment casts its board without parsing
    kb/core's YAML again (the entry is keyed by the folder's files and the code).  The CLI's
    entry point has the caster read through it (casting.tables.reading_with); a library call
    casts with the plain reader.  An entry of the wrong shape is a miss."""
    from liuren.casting.tables import read_core
    folder = pathlib.Path(folder)
    if not enabled() or not folder.is_dir():
        return read_core(folder)
    from liuren.casting.tables import read_regular
    h = hashlib.sha256(code_digest().encode())
    try:
        for p in sorted(folder.glob("*.yaml")):
            h.update(p.name.encode() + b"\0")
            h.update(read_regular(p))
            h.update(b"\0")
    except OSError:
        return read_core(folder)            # its own error
    key = h.hexdigest()
    got = read("core", key)
    if not _core_shaped(got):
        got = read_core(folder)
        write("core", key, got)
    return got


def _core_shaped(got):
    return (isinstance(got, tuple) and len(got) == 3 and all(isinstance(x, dict) for x in got)
            and all(isinstance(v, list) and all(isinstance(f, dict) for f in v) for v in got[0].values())
            and all(isinstance(v, dict) for v in got[1].values())
            and all(isinstance(v, dict) for v in got[2].values()))
