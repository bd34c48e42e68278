#!/usr/bin/env python3
"""Benchmark: casting (720 lessons, a year of hourly moments, vs kinliuren when installed),
judging (KB load and compile, per-board judge time over the 720 lessons) and the command line
(`liuren cast / judge / why` in fresh processes, with a warm cache and without one).

    python bench/bench.py              # everything
    python bench/bench.py --cast-only  # casting only
    python bench/bench.py --judge-only --repeat 1   # judging, one pass over the 720 lessons
    python bench/bench.py --cli-only   # the commands, median of 5 fresh processes each
    python bench/bench.py --startup-only   # judge and why against the bare import (ratios)
    python bench/bench.py --kb-examples    # `liuren kb check --examples` over the whole KB
    python bench/bench.py --kb-check       # `liuren kb check` (with the static checks), cold and warm
    python bench/bench.py --audit          # the full audit of today's space and of the widened one; --rules

A script, not a test: it prints figures; nothing asserts on time.
"""
from __future__ import annotations

import argparse
import datetime as dt
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import importlib  # noqa: E402

from liuren import cast  # noqa: E402
from liuren.casting.symbols import BRANCHES, JIAZI, STEMS  # noqa: E402

# 月將 -> a 節氣 whose 月將 it is, for feeding kinliuren the same lesson
KIN_JIEQI = {"亥": "雨水", "戌": "春分", "酉": "穀雨", "申": "小滿", "未": "夏至", "午": "大暑",
             "巳": "處暑", "辰": "秋分", "卯": "霜降", "寅": "小雪", "丑": "冬至", "子": "大寒"}
ZI_HOUR = {s: h for s, h in zip(STEMS, "甲子 丙子 戊子 庚子 壬子 甲子 丙子 戊子 庚子 壬子".split())}


def stats(name, times, n=None):
    times = sorted(times)
    med = statistics.median(times)
    p95 = times[int(len(times) * 0.95) - 1]
    print(f"  {name:<42} n={n or len(times):<6} median {med * 1e6:9.1f} µs   p95 {p95 * 1e6:9.1f} µs   "
          f"total {sum(times):7.3f} s")
    return med


def lessons():
    return [(d, BRANCHES[off]) for d in JIAZI for off in range(12)]


def bench_cast():
    c = cast
    ec = importlib.import_module("liuren.casting.cast")   # the module (engine.cast the name is the function)
    print("casting")
    t0 = time.perf_counter()
    cast(day="甲子", on="子加子")
    print(f"  first cast (loads kb/core)                 {(time.perf_counter() - t0) * 1e3:9.1f} ms")
    ls = lessons()
    for fn in (ec.structure, ec.generals, ec.day_tables):
        fn.cache_clear()
    cold = []
    for d, j in ls:
        t = time.perf_counter()
        c(day=d, jiang=j, hour="子")
        cold.append(time.perf_counter() - t)
    stats("720 lessons, cold (first time each)", cold)
    warm = []
    for d, j in ls:
        t = time.perf_counter()
        c(day=d, jiang=j, hour="子")
        warm.append(time.perf_counter() - t)
    ours = stats("720 lessons, warm", warm)
    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    hourly = []
    for h in range(24 * 365):
        m = start + dt.timedelta(hours=h)
        t = time.perf_counter()
        c(m)
        hourly.append(time.perf_counter() - t)
    stats("a year of hourly moments (2026)", hourly)
    try:
        from kinliuren import kinliuren as kin
    except ImportError:
        print("  kinliuren not installed: pip install kinliuren to compare")
        return
    kt, fails = [], 0
    for d, j in ls:
        t = time.perf_counter()
        try:
            kin.Liuren(KIN_JIEQI[j], "正", d, ZI_HOUR[d[0]]).result(0)
        except Exception:
            fails += 1
        kt.append(time.perf_counter() - t)
    theirs = stats("kinliuren, the same 720 lessons", kt)
    print(f"  kinliuren failed on {fails} of 720 lessons")
    print(f"  ratio kinliuren / ours (warm median): {theirs / ours:8.1f}×")
    print(f"  ratio kinliuren / ours (cold median): {theirs / statistics.median(cold):8.1f}×")


def bench_cli(runs=5):
    """`liuren …` as a user runs it: a fresh process each time (median of `runs`), with the
    cache warm (a scratch cache folder filled by one run first) and with --no-cache."""
    import os
    import subprocess
    import tempfile
    print(f"command line (fresh processes, median of {runs})")
    board = ["--day", "丁卯", "--on", "亥加丑", "--month", "壬寅"]
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, LIUREN_CACHE_DIR=d)
        env.pop("LIUREN_NO_CACHE", None)

        def timed(args):
            out = []
            for _ in range(runs):
                t = time.perf_counter()
                subprocess.run([sys.executable, "-m", "liuren", *args], env=env, check=True,
                               stdout=subprocess.DEVNULL)
                out.append(time.perf_counter() - t)
            return statistics.median(out)
        subprocess.run([sys.executable, "-m", "liuren", "judge", *board], env=env, check=True,
                       stdout=subprocess.DEVNULL)           # fills the cache
        for name, args in (("liuren cast", ["cast", *board]),
                           ("liuren judge, warm cache", ["judge", *board]),
                           ("liuren why 斬首, warm cache", ["why", "斬首", *board]),
                           ("liuren judge --no-cache (cold)", ["judge", *board, "--no-cache"])):
            print(f"  {name:<42} {timed(args):7.2f} s")


# issue 19 §5: a fresh process with a warm cache, against the bare import of what it cannot do
# without (in the same run, so that a busy machine weighs on both alike)
STARTUP_TARGETS = {"judge": 2.5, "why": 3.0}


def bench_startup(runs=5):
    """`liuren judge` and `liuren why 斬首` on 丁卯 亥加丑 (a fresh process each, the cache warm)
    against the bare import of experta, networkx and yaml: the median of `runs` of each, taken
    in turns, and the two ratios with their targets."""
    import os
    import subprocess
    import tempfile
    exe = pathlib.Path(sys.executable)
    script = exe.parent / "liuren"
    cli = [str(script)] if script.exists() else [sys.executable, "-m", "liuren"]
    board = ["--day", "丁卯", "--on", "亥加丑"]
    cmds = {"import": [sys.executable, "-c", "import liuren._compat, experta, networkx, yaml"],
            "judge": [*cli, "judge", *board],
            "why": [*cli, "why", "斬首", *board]}
    print(f"start-up (fresh processes, warm cache, median of {runs}, taken in turns; {' '.join(cli)})")
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, LIUREN_CACHE_DIR=d)
        env.pop("LIUREN_NO_CACHE", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)     # compiled once, as an installed package is
        for c in cmds.values():                     # fills the cache (and the .pyc)
            subprocess.run(c, env=env, check=True, stdout=subprocess.DEVNULL)
        times = {k: [] for k in cmds}
        for _ in range(runs):
            for k, c in cmds.items():
                t = time.perf_counter()
                subprocess.run(c, env=env, check=True, stdout=subprocess.DEVNULL)
                times[k].append(time.perf_counter() - t)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"  {'bare import of experta, networkx, yaml':<42} {med['import']:7.3f} s")
    print(f"  {'liuren judge --day 丁卯 --on 亥加丑':<42} {med['judge']:7.3f} s")
    print(f"  {'liuren why 斬首 --day 丁卯 --on 亥加丑':<42} {med['why']:7.3f} s")
    for k, target in STARTUP_TARGETS.items():
        r = med[k] / med["import"]
        print(f"  ratio {k} / bare import: {r:5.2f}×  (target ≤ {target}×: {'met' if r <= target else 'NOT met'})")
    return med


def bench_judge(kb_dir=None, repeat=1):
    import os
    print("judging")
    from liuren.knowledge.kbload import load_kb
    from liuren.rules.engines import engine_for
    from liuren.rules.judging import judge
    os.environ["LIUREN_NO_CACHE"] = "1"          # load and compile as on a cold start
    t0 = time.perf_counter()
    kb = load_kb(kb_dir)
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    eng = engine_for(kb_dir)
    compile_s = time.perf_counter() - t0
    del os.environ["LIUREN_NO_CACHE"]
    print(f"  KB load and check ({len(kb.rules)} rules, {len(kb.tables)} tables): {load_s:7.3f} s")
    print(f"  compile to experta ({eng.rule_count} rules → {len(eng.get_rules())} experta rules, "
          f"{eng.static_count} table facts): {compile_s:7.3f} s")
    times, fired, lean = [], [], []
    boards = [cast(day=d, jiang=j, hour="子", month="庚寅" if i % 2 else "丁酉", year=2026, born=1990, sex="m")
              for i, (d, j) in enumerate(lessons())]
    best = None
    for rep in range(max(1, repeat)):
        times = []
        for b in boards:
            t = time.perf_counter()
            r = judge(b, kb=kb_dir)
            times.append(time.perf_counter() - t)
            if rep == 0:
                fired.append(len(r.fired))
        best = times if best is None else [min(a, x) for a, x in zip(best, times)]
        if rep == 0:
            stats("judge (result, no trace), 720 lessons", times)
        else:
            stats(f"  pass {rep + 1}", times)
    if repeat > 1:
        stats(f"  the same, each board's best of {repeat} runs", best)
    t = time.perf_counter()
    r.graph
    print(f"  building the trace graph of one board: {(time.perf_counter() - t) * 1e3:7.1f} ms")
    from liuren.explain import audit as A
    A._init(kb_dir, ())
    for i, (d, j) in enumerate(lessons()[:240]):
        b = {"day": d, "jiang": j, "hour": "子", "month": "庚寅", "year": 2026, "born": 1990, "sex": "m"}
        t = time.perf_counter()
        A._judge_lean(b)
        lean.append(time.perf_counter() - t)
    stats("audit's lean judging (240 boards)", lean)
    print(f"  firings per board: median {statistics.median(fired)}, max {max(fired)}")


def bench_kb_examples(kb_dir=None):
    """`liuren kb check --examples` over the whole KB: every example board judged, network by
    network (CPU and wall time; the KB is read afresh, as kb check reads it)."""
    import subprocess
    from liuren.rules.kbexamples import check_examples
    from liuren.knowledge.kbload import load_kb
    up = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"kb check --examples ({up[up.find('load'):]})")
    kb, errors = load_kb.__wrapped__(kb_dir, collect=True)
    nets, failed = [], []
    c, w = time.process_time(), time.perf_counter()
    n = check_examples(kb, lambda *e: failed.append(e), progress=nets.append)
    print(f"  {n} boards judged in {len(nets)} networks: {time.process_time() - c:6.1f} s CPU, "
          f"{time.perf_counter() - w:6.1f} s wall, {len(failed)} failed")


def bench_kb_check(kb_dir=None, n=3):
    """`liuren kb check` in fresh processes: cold (an empty cache folder: the condition model is
    built) and warm (the model read from the cache), median of n each; and, in this process,
    building the model and running the static checks alone."""
    import os
    import subprocess
    import tempfile
    up = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"kb check ({up[up.find('load'):]})")
    exe = [sys.executable, "-m", "liuren.cli.main", "kb", "check"] + (["--kb", kb_dir] if kb_dir else [])
    for label, fresh in (("cold (empty cache)", True), ("warm (model cached)", False)):
        times, cpu = [], []
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, LIUREN_CACHE_DIR=d)
            if not fresh:
                subprocess.run(exe, env=env, capture_output=True)
            for _ in range(n):
                if fresh:
                    for p in pathlib.Path(d).iterdir():
                        p.unlink()
                import resource
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t = time.perf_counter()
                r = subprocess.run(exe, env=env, capture_output=True)
                times.append(time.perf_counter() - t)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        print(f"  liuren kb check, {label:<22} median {statistics.median(times):6.2f} s wall, "
              f"{statistics.median(cpu):6.2f} s CPU  (exit {r.returncode}, n={n})")
    from liuren.knowledge.kbload import load_kb
    from liuren.knowledge.kbstatic import static_findings
    from liuren.knowledge.meaning import Meaning
    kb, _ = load_kb.__wrapped__(kb_dir, collect=True)
    c, t = time.process_time(), time.perf_counter()
    m = Meaning(kb)
    print(f"  the condition model ({len(m.entries)} entries): {time.perf_counter() - t:6.2f} s wall, "
          f"{time.process_time() - c:6.2f} s CPU")
    kb.__dict__["_meaning"] = m
    c, t = time.process_time(), time.perf_counter()
    found = static_findings(kb)
    print(f"  the static checks ({len(found)} findings): {time.perf_counter() - t:6.2f} s wall, "
          f"{time.process_time() - c:6.2f} s CPU")
def bench_audit(kb=None, rules=("dq10-tuonan",), spaces=True, days=60, edited=False):
    """The full audit (variants on the sample, both cores) of the base space (720 lessons × 12
    months × 晝/夜, 占時 子) and of the widened space (knowledge/space.py), one after the other in
    this run, and `audit --rules` for one rule; the ratio widened / base (target ≤ 2).
    `edited`: also `--rules` as after an edit of the rule (a rule: its definition's digest in the
    saved run made different; a named row: one cell of it, see below), so where it fires is judged
    again and the met rules resting on it are not taken from the saved run."""
    import os
    from liuren.explain.audit import audit
    print(f"audit (load average {os.getloadavg()[0]:.1f} at the start; days {days} of 60)")
    out = {}
    prior = None                # --rules reuses the widened run's counts (else the cache's last run)
    if spaces:
        for label, kw in (("base space (720 × 12 × 晝/夜, 占時 子)", dict(wide=False, questions=False)),
                          ("widened space (knowledge/space.py)", dict(wide=True, questions=True))):
            t0, c0 = time.perf_counter(), _cpu()
            rep = audit(kb, progress=False, days=days, **kw)
            out[label] = time.perf_counter() - t0
            print(f"  {label:<44} {rep['space']['boards']:>7,} boards  {out[label]:7.1f} s  "
                  f"({_cpu() - c0:7.1f} s CPU of all processes; load {os.getloadavg()[0]:.1f})", flush=True)
            prior = rep
        a, b = out.values()
        print(f"  widened / base: {b / a:.2f}× (target ≤ 2×)")
    if prior is None:
        from liuren.explain.audit import last_run_path, load_run
        prior = load_run(last_run_path()) if last_run_path().exists() else None
        print(f"  the saved run: {'none' if prior is None else last_run_path()}")
    runs = [(r, prior) for r in rules or ()]
    if edited and prior is not None:
        import copy
        from liuren.knowledge.kbload import load_kb
        k = load_kb(kb)
        for r in rules or ():
            p = copy.deepcopy(prior)
            d = p["reuse"]["digests"]
            if r in k.rules:
                d["rule:" + r] = "edited"       # a rule: its whole definition
            else:
                # a named row, edited as one edits a cell: the saved run had one of its facts
                # otherwise — the last of the cells that vary within the row (財's 支, not its 干
                # or the 煞 that names it) of its first fact held another of that column's values
                import json
                row = k.rows[r]
                key = next(x for x in d if x.startswith(f"facts:{row.table}:") and x.endswith(":" + r))
                facts = [json.loads(x) for x in d[key]]
                varying = [c for c in dict.fromkeys(c for x in facts for c in x)
                           if len({str(x.get(c)) for x in facts}) > 1]
                c = varying[-1]
                f0 = facts[0]
                other = next(v for v in sorted({str(x.get(c)) for x in facts}) if v != str(f0[c]))

                def dump(x):
                    return json.dumps(x, ensure_ascii=False, sort_keys=True, default=str)
                d[key] = sorted(set(d[key]) - {dump(f0)} | {dump(dict(f0, **{c: other}))})
                print(f"  (as edited: {r}'s fact {dump(f0)} had {c} {other} in the saved run)")
            runs.append((r + " (as edited)", p))
    for label, p in runs:
        r = label.split()[0]
        t0, c0 = time.perf_counter(), _cpu()
        one = audit(kb, progress=False, variants=False, rules=[r], prior=p, days=days)
        r = label
        print(f"  audit --rules {r:<30} {time.perf_counter() - t0:7.1f} s (target ≤ 30 s; {_cpu() - c0:.1f} s CPU; "
              f"{one.get('counts_reused', 0)} met rules' counts from the saved run, "
              f"{len(one.get('not_compared', []))} not compared)  (load {os.getloadavg()[0]:.1f})", flush=True)
        if p is not None:
            # its findings against the saved full run's findings that name it
            x = label.split()[0]

            def of(fs):
                # (a "conflict (weighed)" line counts a row's pairs and names its biggest one: the
                # audited rule's own pairs are compared one by one below)
                return {f["key"] for f in fs if any(e["id"] == x for e in f["entries"])
                        and f["check"] != "conflict (weighed)"}
            mine, full = of(one["findings"]), of(p.get("findings") or [])
            print(f"      findings naming it (but the weighed lines): {len(mine)}; the full run's: {len(full)} "
                  f"({len(full - mine)} missing, {len(mine - full)} not in the full run)", flush=True)
            saved_pairs = (p.get("firing_sets") or {}).get("pairs")
            if saved_pairs is not None:
                got = {(c["a"], c["b"], c["boards"], c["example"]["branch"]) for k in one["conflicts"]
                       for c in one["conflicts"][k] if x in (c["a"], c["b"])}
                had = {(a, b, n, subj) for a, b, n, _, subj in saved_pairs if x in (a, b)}
                print(f"      its opposite-tone pairs: {len(got)}; the full run's: {len(had)} "
                      f"({len(had - got)} missing, {len(got - had)} not in the full run)", flush=True)
            for k in sorted(full - mine)[:5]:
                print(f"        missing: {k}")
            for k in sorted(mine - full)[:5]:
                print(f"        extra: {k}")
        if one.get("judged_again") is not None or one.get("judged_over_space"):
            print(f"      the edit's cone: {len(one.get('judged_again') or [])} entries judged again on its boards; "
                  f"{len(one.get('judged_over_space') or [])} met rules judged over the space "
                  f"({', '.join((one.get('judged_over_space') or [])[:5])}); "
                  f"{one.get('question_boards_as_base', 0):,} question boards taken as their base boards"
                  + (f"; the edit read on {len(one['edit_days'])} of the 60 days ({'、'.join(one['edit_days'][:6])}), "
                     "the other boards as saved" if one.get("edit_days") is not None else ""), flush=True)
        steps = "; ".join(f"{k} {v:.1f} s" for k, v in (one.get("steps") or {}).items())
        print(f"      where it fires {'from the saved run' if one.get('firings_reused') else 'judged'}; "
              f"{one['firing_counts'].get(r.split()[0], 0):,} boards; {len(one.get('met', [])):,} met; per step: {steps}",
              flush=True)


def _cpu():
    """CPU seconds of this process and of its finished children (the audit's workers)."""
    import os
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--audit", action="store_true", help="only the full audit: base space, widened space, --rules")
    ap.add_argument("--audit-rules", nargs="*", metavar="ID", help="only `audit --rules ID` for each ID")
    ap.add_argument("--audit-edited", action="store_true",
                    help="with --audit-rules: also each rule as after an edit of it (judged afresh)")
    ap.add_argument("--audit-days", type=int, default=60,
                    help="the audits on the first N days only (a documented subset on a busy machine)")
    ap.add_argument("--kb-examples", action="store_true", help="only `liuren kb check --examples` over the KB")
    ap.add_argument("--kb-check", action="store_true", help="only `liuren kb check` (the static checks), cold and warm")
    ap.add_argument("--cast-only", action="store_true")
    ap.add_argument("--judge-only", action="store_true")
    ap.add_argument("--cli-only", action="store_true")
    ap.add_argument("--startup-only", action="store_true",
                    help="only the start-up of judge and why against the bare import (their ratios)")
    ap.add_argument("--kb", help="another KB folder")
    ap.add_argument("--repeat", type=int, default=3,
                    help="judge the 720 lessons this many times and also report each board's best time "
                         "(a shared machine's noise only ever adds time); default 3")
    a = ap.parse_args()
    if a.kb_check:
        bench_kb_check(a.kb)
    if a.audit or a.audit_rules is not None:
        bench_audit(a.kb, a.audit_rules if a.audit_rules else ("dq10-tuonan",), spaces=a.audit, days=a.audit_days,
                    edited=a.audit_edited)
        return
    if a.kb_examples:
        bench_kb_examples(a.kb)
        return
    if a.startup_only:
        bench_startup()
        return
    if a.cli_only:
        bench_cli()
        bench_startup()
        return
    if not a.judge_only:
        bench_cast()
    if not a.cast_only:
        bench_cli()
        bench_startup()
        try:
            import liuren.rules.judging  # noqa: F401
        except ImportError:
            print("judging: not available yet")
            return
        bench_judge(a.kb, a.repeat)


if __name__ == "__main__":
    main()
