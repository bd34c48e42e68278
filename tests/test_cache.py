"""The cache of the loaded KB and the compiled network (engine/cache.py): a hit, a miss after a
one-character edit of a KB file, a corrupt file, two first runs at once, a read-only folder —
each gives exactly the judgments of a run without the cache.  Each case runs `liuren` in fresh
processes, as a user does."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from liuren.knowledge.kbload import packaged_kb_dir
from helpers import fired_in_json

BOARD = ["--day", "丁卯", "--on", "亥加丑", "--month", "壬寅"]


def liuren(args, cache, extra_env=None, check=True):
    env = dict(os.environ, LIUREN_CACHE_DIR=str(cache), **(extra_env or {}))
    env.pop("LIUREN_NO_CACHE", None)
    p = subprocess.run([sys.executable, "-m", "liuren", *args], capture_output=True, text=True, env=env, timeout=600)
    if check:
        assert p.returncode == 0, p.stderr
    return p


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The judgments without any cache."""
    p = liuren(["judge", *BOARD, "--json", "--no-cache"], tmp_path_factory.mktemp("nocache"))
    return fired_in_json(p.stdout)


def cache_files(d):
    return sorted(p.name for p in d.iterdir() if p.name.startswith("liuren-")) if d.is_dir() else []


def test_a_hit_gives_the_same_judgments(tmp_path, reference):
    c = tmp_path / "cache"
    assert fired_in_json(liuren(["judge", *BOARD, "--json"], c).stdout) == reference      # miss: builds, writes
    names = cache_files(c)
    assert any(n.startswith("liuren-kb-") for n in names) and any(n.startswith("liuren-engine-") for n in names)
    assert fired_in_json(liuren(["judge", *BOARD, "--json"], c).stdout) == reference      # hit
    assert cache_files(c) == names                                                # nothing rewritten


def test_a_one_character_kb_edit_misses(tmp_path, reference):
    c, kb = tmp_path / "cache", tmp_path / "kb"
    shutil.copytree(packaged_kb_dir(), kb)
    args = ["judge", *BOARD, "--json", "--kb", str(kb)]
    assert fired_in_json(liuren(args, c).stdout) == reference
    before = set(cache_files(c))
    # one character of one reading: the KB is another KB, and its judgment says so
    p = kb / "juan3" / "ge.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("以無始論。", "以無始論！", 1), encoding="utf-8")
    d = json.loads(liuren(args, c).stdout)
    assert next(f for f in d["fired"] if f["rule"] == "ge-zhanshou")["reading"] == "以無始論！"
    assert set(cache_files(c)) - before, "the edited KB was cached under a new key"


def test_a_corrupt_cache_is_ignored_and_rebuilt(tmp_path, reference):
    c = tmp_path / "cache"
    liuren(["judge", *BOARD, "--json"], c)
    for name in cache_files(c):
        (c / name).write_bytes(b"\x80\x05 not a pickle at all")
    p = liuren(["judge", *BOARD, "--json"], c)
    # not an entry this installation wrote: a miss, rebuilt, said once (one line)
    assert fired_in_json(p.stdout) == reference
    assert len(p.stderr.splitlines()) == 1 and "rebuilt" in p.stderr, p.stderr
    # a file cut short (a crash while another process wrote it)
    for name in cache_files(c):
        data = (c / name).read_bytes()
        (c / name).write_bytes(data[: len(data) // 3])
    assert fired_in_json(liuren(["judge", *BOARD, "--json"], c).stdout) == reference


def test_two_first_runs_at_once(tmp_path, reference):
    c = tmp_path / "cache"
    env = dict(os.environ, LIUREN_CACHE_DIR=str(c))
    env.pop("LIUREN_NO_CACHE", None)
    procs = [subprocess.Popen([sys.executable, "-m", "liuren", "judge", *BOARD, "--json"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        assert fired_in_json(out) == reference
    assert not [n for n in os.listdir(c) if n.startswith(".")], "no temporary file is left behind"
    assert fired_in_json(liuren(["judge", *BOARD, "--json"], c).stdout) == reference      # and the files are whole


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_cache_folder(tmp_path, reference):
    c = tmp_path / "cache"
    c.mkdir()
    c.chmod(0o500)
    try:
        p = liuren(["judge", *BOARD, "--json"], c)
        assert fired_in_json(p.stdout) == reference and p.stderr == ""
    finally:
        c.chmod(0o700)


def test_a_cache_folder_that_cannot_be_made(tmp_path, reference):
    # (for root too): the cache folder's place is a file, so nothing can be written there
    c = tmp_path / "a-file"
    c.write_text("not a folder")
    p = liuren(["judge", *BOARD, "--json"], c / "cache")
    assert fired_in_json(p.stdout) == reference and p.stderr == ""


def test_no_cache_and_cache_clear(tmp_path, reference):
    c = tmp_path / "cache"
    assert fired_in_json(liuren(["judge", *BOARD, "--json", "--no-cache"], c).stdout) == reference
    assert cache_files(c) == []                                  # --no-cache neither reads nor writes
    liuren(["judge", *BOARD], c)
    assert cache_files(c)
    out = liuren(["cache", "show"], c).stdout
    assert str(c) in out and "liuren-engine-" in out
    assert "removed" in liuren(["cache", "clear"], c).stdout
    assert cache_files(c) == []
