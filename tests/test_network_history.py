"""Issue 29 §6 (history): what a network says does not depend on where it was loaded from.  The
占病 judgment of 丁卯 亥加丑 壬寅 is the same bytes from a process that compiled another network
first (and cached the 占病 one), from a fresh process that reads that network from the cache,
and from one without the cache — under two PYTHONHASHSEEDs."""
import os
import subprocess
import sys

import pytest

JUDGE = """
import json, sys
from liuren import judge
if "other-first" in sys.argv:
    judge({"day": "甲子", "on": "子加子"})
r = judge({"day": "丁卯", "on": "亥加丑", "month": "壬寅", "question": "占病"})
print(json.dumps(r.to_dict(), ensure_ascii=False, sort_keys=True))
"""


def run(cache, seed, *args, no_cache=False):
    env = dict(os.environ, LIUREN_CACHE_DIR=str(cache), PYTHONHASHSEED=str(seed))
    env.pop("LIUREN_NO_CACHE", None)
    if no_cache:
        env["LIUREN_NO_CACHE"] = "1"
    p = subprocess.run([sys.executable, "-c", JUDGE, *args], capture_output=True, text=True, env=env, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    return p.stdout


@pytest.mark.parametrize("seed", [0, 12345])
def test_the_same_words_whatever_the_network_was_loaded_from(tmp_path, seed):
    cache = tmp_path / "cache"
    compiled_after_another = run(cache, seed, "other-first")     # writes the 占病 network
    from_cache = run(cache, seed)
    without_cache = run(tmp_path / "unused", seed, no_cache=True)
    assert "所否之條件成立" in without_cache
    assert "~not0：" not in from_cache                           # no raw id of a helper fact
    assert from_cache == without_cache == compiled_after_another
