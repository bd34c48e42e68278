#!/usr/bin/env python3
"""Instructions per judged board, counted by valgrind (callgrind), which gives the same count
for the same code and boards whatever else the machine is doing — unlike seconds on a shared VM.

    python bench/instructions.py            # 40 boards (the same 40 each time)
    python bench/instructions.py --boards 20

It runs this script twice under callgrind with PYTHONHASHSEED=0, judging 0 and then N boards
after the engine is built (from the cache, filled first) and two warm-up boards; the difference
divided by N is the cost of one board.  A script, not a test: it prints figures.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve()


def boards(n):
    from liuren import cast
    from liuren.casting.symbols import BRANCHES, JIAZI
    return [cast(day=d, jiang=BRANCHES[(i * 5) % 12], hour="子", month="庚寅" if i % 2 else "丁酉", year=2026,
                 born=1990, sex="m") for i, d in enumerate(JIAZI[:n])]


def child(n, total):
    sys.path.insert(0, str(HERE.parent.parent))
    from liuren.rules.engines import engine_for
    from liuren.rules.judging import judge
    bs = boards(total)
    engine_for(None)
    judge(bs[0])
    judge(bs[1])
    for b in bs[:n]:
        judge(b)


def count(n, total, env):
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={d}/cg.out",
                              sys.executable, str(HERE), "--child", str(n), "--boards", str(total)],
                             env=env, capture_output=True, text=True)
    m = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode or not m:
        sys.exit(f"valgrind failed:\n{out.stderr[-2000:]}")
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=40)
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child is not None:
        child(a.child, a.boards)
        return
    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    env = dict(os.environ, PYTHONHASHSEED="0")
    subprocess.run([sys.executable, str(HERE), "--child", "0", "--boards", str(a.boards)], env=env, check=True)
    base = count(0, a.boards, env)
    full = count(a.boards, a.boards, env)
    print(f"start-up and engine (from the cache), two warm-up boards: {base / 1e6:8.1f} M instructions")
    print(f"judging one board (mean of {a.boards}):                   {(full - base) / a.boards / 1e6:8.1f} M instructions")


if __name__ == "__main__":
    main()
