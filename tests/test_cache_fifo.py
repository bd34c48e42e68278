"""Issue 22 §3: a cache file replaced by a FIFO (or anything but a regular file) is a miss, never a hang."""
import os
import subprocess
import sys

import pytest


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_in_the_cache_is_a_miss(tmp_path):
    env = dict(os.environ, LIUREN_CACHE_DIR=str(tmp_path))
    cmd = [sys.executable, "-m", "liuren", "judge", "--day", "丁卯", "--on", "亥加丑"]
    first = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert first.returncode == 0, first.stderr
    files = [p for p in tmp_path.iterdir() if p.is_file()]
    assert files
    for p in files:                      # every cache entry becomes a FIFO nobody writes to
        p.unlink()
        os.mkfifo(p)
    again = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
