"""Benchmark of the web app (a script, not a test): a bounded local load against 127.0.0.1.

    python bench/web.py                     # 1 and 2 workers, 8 clients, 20 s per measurement
    python bench/web.py --seconds 10 --workers 1

For each worker count it starts `liuren serve --port 0 --workers N`, then measures, each for
--seconds: /board with one client, /api/judge with --clients clients, /board with --clients
clients (requests/s, p50/p95 latency, errors).  Beside it, the in-process judge rate of the same
run (engine.judging.judge on the same boards, one thread, before and after the load: the machine's
speed drifts).  Every request loop is bounded in time and count; only 127.0.0.1 is contacted.
"""
from __future__ import annotations

import argparse
import http.client
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import warnings

warnings.filterwarnings("ignore", message=".*httpx.*")    # starlette's TestClient about httpx2

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

MAX_REQUESTS = 200_000      # per measurement, whatever the duration


def boards(n=60):
    from liuren.casting.symbols import BRANCHES, JIAZI
    out = []
    for i in range(n):
        day = JIAZI[(i * 7) % 60]
        out.append({"day": day, "on": f"{BRANCHES[(i * 5) % 12]}加{BRANCHES[i % 12]}", "month": JIAZI[(i * 11) % 60]})
    return out


def judge_rate(bs, seconds):
    from liuren.rules.judging import judge
    judge(bs[0])
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        judge(bs[n % len(bs)])
        n += 1
    return n / (time.perf_counter() - t0)


def page_split(bs, seconds):
    """In-process: median ms of a judgment, and of the rest of a /board page (grouping, the
    board's parts, the template) for the same boards — what the page adds to the judgment."""
    from fastapi.testclient import TestClient

    from liuren.web.app import create_app
    app = create_app()
    svc = app.state.svc
    client = TestClient(app)
    client.get("/board?" + urllib.parse.urlencode(bs[-1]))     # warm: templates compiled, 類相 gathered
    tj, tp = [], []
    t0 = time.perf_counter()
    i = 0
    while time.perf_counter() - t0 < seconds and i < 10_000:
        b = bs[i % len(bs)]
        t = time.perf_counter()
        svc.judged(b)
        tj.append(time.perf_counter() - t)
        t = time.perf_counter()
        r = client.get("/board?" + urllib.parse.urlencode(b))
        assert r.status_code == 200
        tp.append(time.perf_counter() - t - tj[-1])      # the page judges again: leave one judgment out
        i += 1
    return statistics.median(tj) * 1000, statistics.median(tp) * 1000, i


def start(workers):
    cmd = [sys.executable, "-m", "liuren", "serve", "--port", "0", "--workers", str(workers)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    line = proc.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not m:
        proc.kill()
        raise SystemExit(f"liuren serve did not start: {line!r}")
    port = int(m.group(1))
    deadline = time.time() + 300
    while time.time() < deadline:             # the workers compile their networks
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/api/judge?day=%E7%94%B2%E5%AD%90&on=%E5%AD%90%E5%8A%A0%E5%AD%90")
            if c.getresponse().status == 200:
                break
        except OSError:
            time.sleep(0.5)
    return proc, port


def load(port, path_of, clients, seconds):
    """`clients` threads, each on one keep-alive connection, for `seconds`: (rps, p50, p95, errors, n)."""
    lat, errors = [], [0]
    lock = threading.Lock()
    stop = time.perf_counter() + seconds
    count = [0]

    def client(k):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        i = k
        mine = []
        while time.perf_counter() < stop:
            with lock:
                if count[0] >= MAX_REQUESTS:
                    break
                count[0] += 1
            t = time.perf_counter()
            try:
                c.request("GET", path_of(i))
                r = c.getresponse()
                r.read()
                if r.status != 200:
                    with lock:
                        errors[0] += 1
            except (OSError, http.client.HTTPException):
                with lock:
                    errors[0] += 1
                c.close()
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            mine.append(time.perf_counter() - t)
            i += clients
        c.close()
        with lock:
            lat.extend(mine)
    t0 = time.perf_counter()
    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 120)
    wall = time.perf_counter() - t0
    lat.sort()
    q = (lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] * 1000) if lat else (lambda p: float("nan"))
    return len(lat) / wall, statistics.median(lat) * 1000 if lat else float("nan"), q(0.95), errors[0], len(lat)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--workers", default="1,2", help="worker counts to measure, e.g. 1,2")
    a = ap.parse_args()
    bs = boards()
    enc = [urllib.parse.urlencode(b) for b in bs]
    judge_path = lambda i: "/api/judge?" + enc[i % len(enc)]            # noqa: E731
    board_path = lambda i: "/board?" + enc[i % len(enc)]                # noqa: E731
    print(f"# bench/web.py: {len(bs)} boards, {a.clients} clients, {a.seconds:g} s per measurement, "
          f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")
    before = judge_rate(bs, min(10, a.seconds / 2))
    print(f"in-process judge(): {before:.1f} boards/s (one thread, before the load)")
    tj, tp, n = page_split(bs, min(10, a.seconds / 2))
    print(f"in-process /board: judgment {tj:.1f} ms, the rest of the page {tp:.1f} ms (medians of {n})", flush=True)
    rows = {}
    for w in [int(x) for x in a.workers.split(",")]:
        proc, port = start(w)
        try:
            load(port, board_path, 1, 2)                                     # warm every worker
            for name, path, clients in (("/board", board_path, 1), ("/api/judge", judge_path, a.clients),
                                        ("/board", board_path, a.clients)):
                rps, p50, p95, err, n = load(port, path, clients, a.seconds)
                rows[(w, name, clients)] = rps
                print(f"workers {w}  {name:<11} clients {clients}:  {rps:7.1f} req/s  p50 {p50:7.1f} ms  "
                      f"p95 {p95:7.1f} ms  errors {err}  (n={n})", flush=True)
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
    after = judge_rate(bs, min(10, a.seconds / 2))
    print(f"in-process judge(): {after:.1f} boards/s (one thread, after the load); load average {os.getloadavg()[0]:.1f}")
    for name in ("/api/judge", "/board"):
        if (1, name, a.clients) in rows and (2, name, a.clients) in rows:
            print(f"2 workers / 1 worker, {name} at {a.clients} clients: "
                  f"{rows[(2, name, a.clients)] / rows[(1, name, a.clients)]:.2f}×")


if __name__ == "__main__":
    main()
