#!/usr/bin/env python3
"""Benchmark of `liuren find` (issue 23): the index build against the audit's walk over the same
boards, the query time in a warm process (median of 20 queries), and a fresh `liuren find` with
a warm index against the bare import of experta, networkx and yaml (median of 5 processes each).

    python bench/find.py                     # the whole space (17,280 boards): build if not cached, then queries
    python bench/find.py --build             # build the index afresh (not from the cache) and time it
    python bench/find.py --days 6 --build --audit   # a tenth of the space: index build vs the audit's walk

A script, not a test: it prints figures; nothing asserts on time.  The machine's load matters:
`uptime` is printed beside the figures.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

QUERIES = ["斬首 and 元首課", "三光課 and 魁度天門", "返吟", "not 返吟", "斬首 or 元首課 or 重審課",
           "(斬首 or 元首課) and not 重審課", "涉害課", "伏吟 and not 返吟", "ge-zhanshou", "三光課",
           "魁度天門 or 斬首", "重審課 and 斬首", "元首課", "返吟 and 斬首", "not (斬首 and 元首課)",
           "涉害課 or 伏吟", "斬首 and not 斬首", "三光課 or 返吟", "元首課 and 三光課", "重審課"]


FACT_QUERIES = ["初傳=亥", "鬼@初傳", "貴人@卯 and not gate=涉害", "初傳 空 and (返吟 or 伏吟)", "斬首 and 初傳=戌",
                "gate=涉害 and 白虎@初傳", "not 初傳 空 and 元首課", "月將=亥 and 課=元首"]


def load():
    out = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    return out[out.find("load"):] if "load" in out else out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--days", type=int, default=60)
    ap.add_argument("--build", action="store_true", help="build the index afresh and time it")
    ap.add_argument("--audit", action="store_true", help="also time the audit's walk over the same boards")
    ap.add_argument("--procs", type=int, default=None)
    ap.add_argument("--export", action="store_true", help="also time the three exports of the whole index")
    a = ap.parse_args()
    from liuren.app import find as F
    from liuren.explain import audit as A
    from liuren.explain import index as X
    from liuren.knowledge import cache

    print(f"space: {a.days} days = {a.days * 288} boards; {load()}")
    if a.build:
        t = time.time()
        ix = X.build_index(None, {}, None, a.days, progress=True, procs=a.procs)
        build = time.time() - t
        # the key is worked out now, after the build (the index's key is not cached in the process)
        cache.write(X.KIND, X.index_key(None, {}, None, a.days), ix)
        print(f"index build: {build:.1f} s ({len(ix.bits)} entries that fire); {load()}")
    else:
        t = time.time()
        ix = X.get_index(None, {}, None, a.days, progress=True, procs=a.procs)
        print(f"index (cache or build): {time.time() - t:.1f} s; built in {ix.seconds:.1f} s")
    import pickle
    print(f"index size: {len(pickle.dumps(ix, protocol=pickle.HIGHEST_PROTOCOL)) / 1e6:.1f} MB pickled "
          f"(bitsets {sum(x.bit_length() for x in ix.bits.values()) / 8e6:.1f} MB at most; the board's facts: "
          f"{len(ix.facts)} of them, {len(pickle.dumps(ix.facts, protocol=pickle.HIGHEST_PROTOCOL)) / 1e6:.1f} MB)")
    if a.audit:
        t = time.time()
        A.run_space(A.board_space("all", "both", {}, a.days), None, None, a.procs, progress=True)
        print(f"audit's walk over the same boards: {time.time() - t:.1f} s; {load()}")

    F.masks(ix)                 # the masks are made once per process
    times = []
    for q in QUERIES:
        t = time.perf_counter()
        F.find(ix, q, count_by_key="gate", facets=True, limit=20)
        times.append(time.perf_counter() - t)
    print(f"query (find + count by gate + facets + 20 boards), warm process: median {statistics.median(times) * 1e3:.1f} ms, "
          f"max {max(times) * 1e3:.1f} ms over {len(times)} queries")
    times = []
    for q in ("返吟", "斬首", "三光課", "元首課", "涉害課"):
        t = time.perf_counter()
        F.cooccur(ix, q, 20)
        times.append(time.perf_counter() - t)
    print(f"cooccur: median {statistics.median(times) * 1e3:.1f} ms")
    times = []
    for q in FACT_QUERIES:
        t = time.perf_counter()
        F.find(ix, q, count_by_key="month,gate", facets=True, limit=20)
        times.append(time.perf_counter() - t)
    print(f"position/fact query + cross-table month×gate + facets + 20 boards: median "
          f"{statistics.median(times) * 1e3:.1f} ms, max {max(times) * 1e3:.1f} ms over {len(times)} queries")
    # a page of 1,000 boards, in a fresh copy of the index (nothing worked out yet: places, masks)
    for q in ("返吟 or 斬首", "not 返吟", "初傳 空"):
        ix2 = pickle.loads(pickle.dumps(ix))
        F.masks(ix2)            # once per process, as for every query
        t = time.perf_counter()
        r = F.find(ix2, q, limit=1000)
        cold = time.perf_counter() - t
        t = time.perf_counter()
        F.find(ix2, q, limit=1000, offset=1000)
        warm = time.perf_counter() - t
        print(f"a page of {len(r['boards'])} boards of '{q}' ({r['count']}): first {cold * 1e3:.0f} ms "
              f"(places worked out), next page {warm * 1e3:.0f} ms")
    if a.export:
        import tempfile
        from liuren.app import export as E
        with tempfile.TemporaryDirectory() as d:
            for suffix in (".csv", ".sqlite", ".parquet"):
                t = time.perf_counter()
                try:
                    rep = E.export(ix, pathlib.Path(d, "atlas" + suffix))
                except Exception as e:      # noqa: BLE001 — parquet without duckdb
                    print(f"export {suffix}: {e}")
                    continue
                size = sum(os.path.getsize(f) for f in rep["files"])
                print(f"export {suffix}: {rep['rows']} rows, {rep['boards']} boards, {time.perf_counter() - t:.1f} s, "
                      f"{size / 1e6:.0f} MB")

    if a.days == 60:
        py = sys.executable
        liuren = str(pathlib.Path(py).parent / "liuren")

        def fresh(argv, n=5):
            ts = []
            for _ in range(n):
                t = time.perf_counter()
                subprocess.run(argv, check=True, capture_output=True, env=dict(os.environ))
                ts.append(time.perf_counter() - t)
            return statistics.median(ts)
        bare = fresh([py, "-c", "import liuren._compat, experta, networkx, yaml"])
        cmd = fresh([liuren, "find", "斬首 and 元首課", "--count-by", "gate"])
        print(f"fresh process: bare import of experta, networkx, yaml {bare:.2f} s; "
              f"liuren find '斬首 and 元首課' --count-by gate {cmd:.2f} s ({cmd / bare:.1f}×); {load()}")


if __name__ == "__main__":
    main()
