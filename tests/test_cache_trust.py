"""Issue 29 §2: the cache loads only what this installation wrote.  A pickle planted in the cache
that would write a marker file when loaded is never loaded — without the keyed digest, with a
digest of another key or a wrong one, in a folder or a file others may write — and the run gives
the judgments of a run without the cache, saying once on stderr that it rebuilt."""
import hashlib
import hmac
import os
import pickle
import stat
import subprocess
import sys

import pytest

from liuren.knowledge import cache
from helpers import fired_in_json

BOARD = ["--day", "丁卯", "--on", "亥加丑", "--month", "壬寅"]


class Planted:
    """Unpickled, it creates the marker file (open(path, "w"))."""
    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def planted_body(kind, key, marker):
    return pickle.dumps((cache.FORMAT, kind, key)) + pickle.dumps(Planted(marker))


def signed(body, secret):
    return cache.MAGIC + hmac.new(secret, body, hashlib.sha256).digest() + body


def the_key():
    return cache._key(create=True)


VARIANTS = ["no digest", "wrong digest", "another key", "others may write the folder", "others may write the file"]


def plant(variant, path, body):
    if variant == "no digest":
        path.write_bytes(body)
    elif variant == "wrong digest":
        path.write_bytes(cache.MAGIC + bytes(32) + body)
    elif variant == "another key":
        path.write_bytes(signed(body, b"0123456789abcdef" * 4))
    else:
        path.write_bytes(signed(body, the_key()))          # rightly signed, but writable by others
        target = path.parent if variant == "others may write the folder" else path
        target.chmod(target.stat().st_mode | stat.S_IWOTH)


def test_the_planted_entry_does_run_when_trusted(tmp_path, _empty_cache):
    """The control: rightly signed in a private folder, the planted pickle runs — so the cases
    below would see the marker if the cache loaded them."""
    cache.read("kb", "k")                                   # makes nothing
    marker = tmp_path / "marker"
    cache_dir = cache.cache_dir()
    cache_dir.mkdir(mode=0o700, parents=True)
    p = cache._path("kb", "k" * 40)
    p.write_bytes(signed(planted_body("kb", "k" * 40, marker), the_key()))
    p.chmod(0o600)
    cache.read("kb", "k" * 40)
    assert marker.exists()


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_planted_entry_is_never_loaded(tmp_path, variant, capsys, monkeypatch):
    monkeypatch.setattr(cache, "_WARNED", [])
    marker = tmp_path / "marker"
    cache.cache_dir().mkdir(mode=0o700, parents=True)
    key = "k" * 40
    p = cache._path("kb", key)
    plant(variant, p, planted_body("kb", key, marker))
    if variant != "others may write the folder":
        os.chmod(p, os.stat(p).st_mode & ~0o022 | (0o002 if variant == "others may write the file" else 0))
    assert cache.read("kb", key) is None
    assert not marker.exists()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rebuilt" in err
    assert cache.read("kb", key) is None and capsys.readouterr().err == ""    # said once


def test_a_planted_cache_in_a_real_run(tmp_path):
    """Every entry of a filled cache replaced by a planted pickle under its own header: `liuren
    judge` loads none, judges as without a cache, says it once, and writes trusted entries."""
    c = tmp_path / "cache"
    env = dict(os.environ, LIUREN_CACHE_DIR=str(c))
    env.pop("LIUREN_NO_CACHE", None)
    cmd = [sys.executable, "-m", "liuren", "judge", *BOARD, "--json"]
    first = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert first.returncode == 0 and first.stderr == "", first.stderr
    entries = [p for p in c.iterdir() if p.name.startswith("liuren-")]
    assert {p.name.split("-")[1] for p in entries} >= {"kb", "engine", "core"}
    marker = tmp_path / "marker"
    for p in entries:
        data = p.read_bytes()
        header = pickle.loads(data[len(cache.MAGIC) + 32:])     # (FORMAT, kind, key): the first pickle
        p.write_bytes(cache.MAGIC + bytes(32) + planted_body(header[1], header[2], marker))
    again = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert again.returncode == 0, again.stderr
    assert not marker.exists()
    assert fired_in_json(again.stdout) == fired_in_json(first.stdout)
    assert again.stderr.count("\n") == 1 and "rebuilt" in again.stderr
    third = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert third.stderr == "" and third.stdout == again.stdout       # rewritten, and trusted


def test_the_folder_and_the_key_are_private(tmp_path):
    cache.write("core", "x" * 40, ({}, {}, {}))
    d = cache.cache_dir()
    assert stat.S_IMODE(d.stat().st_mode) == 0o700
    assert stat.S_IMODE(cache.key_path().stat().st_mode) == 0o600
    assert stat.S_IMODE(stat.S_IMODE(cache.key_path().parent.stat().st_mode)) == 0o700
    assert cache.read("core", "x" * 40) == ({}, {}, {})


def test_the_key_honours_xdg_config_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    assert cache.key_path() == tmp_path / "cfg" / "liuren" / "cache.key"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.key_path() == tmp_path / "home" / ".config" / "liuren" / "cache.key"


def test_a_key_others_may_read_is_not_used(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cache, "_WARNED", [])
    assert cache.write("core", "y" * 40, ({}, {}, {}))
    cache.key_path().chmod(0o644)
    try:
        assert cache.read("core", "y" * 40) is None
        assert "key" in capsys.readouterr().err
    finally:
        cache.key_path().chmod(0o600)


def test_a_core_entry_of_the_wrong_shape_is_a_miss(tmp_path):
    """A trusted core entry whose body is not the caster's tables (a bug, an old shape) is a
    miss: the tables are read from the YAML, and judge runs."""
    from liuren.casting.tables import core_dir, read_core
    folder = core_dir()
    good = cache.read_core_cached(folder)                   # writes the entry
    assert good == read_core(folder)
    entry = next(p for p in cache.cache_dir().iterdir() if p.name.startswith("liuren-core-"))
    header = pickle.loads(entry.read_bytes()[len(cache.MAGIC) + 32:])
    for bad in [({"ganzhi": None}, {}, {}), ([], {}, {}), ("x", "y", "z"), None, ({"ganzhi": [1]}, {}, {})]:
        entry.write_bytes(signed(pickle.dumps(header) + pickle.dumps(bad), the_key()))
        assert cache.read_core_cached(folder) == good
