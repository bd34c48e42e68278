"""The real server: `liuren serve` on a free port (uvicorn), and 8 clients judging different boards at
once getting exactly the results of sequential calls (the network is never shared mid-judgment)."""
import json
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from helpers import start_server, stop_server

BOARDS = [
    "day=丁卯&on=亥加丑&month=壬寅", "day=甲子&on=子加子", "day=庚寅&on=子加子&month=丙寅", "day=甲午&on=辰加子&month=丙寅",
    "day=乙丑&on=卯加卯&night=true", "day=丙寅&on=子加丑&year=丙午&born=1990&sex=m", "day=戊戌&on=亥加子&month=戊辰",
    "day=壬申&on=午加子&guiren=甲羊",
]


@pytest.fixture(scope="module")
def server():
    proc, url = start_server()
    yield url
    stop_server(proc)


def get(url, timeout=120):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.headers.get("content-type", ""), r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("content-type", ""), e.read().decode("utf-8")


def q(s):
    return "&".join(f"{k}={urllib.parse.quote(v)}" for k, v in (kv.split("=", 1) for kv in s.split("&")))


def test_serve_binds_loopback_and_prints_the_url(server):
    assert server.startswith("http://127.0.0.1:")
    status, ctype, body = get(server + "/")
    assert status == 200 and "text/html" in ctype and 'action="/board"' in body


def test_pages_and_api_over_http(server):
    status, _, body = get(server + "/board?" + q(BOARDS[0]) + "&why=ge-zhanshou")
    assert status == 200 and "「斬首 初傳空曰斬首，凡占人占事以無始論。」" in body
    status, ctype, body = get(server + "/api/judge?" + q(BOARDS[0]))
    assert status == 200 and ctype.startswith("application/json") and json.loads(body)["fired"]
    status, ctype, body = get(server + "/api/judge?" + q("day=丁子&on=亥加丑"))
    assert status == 400 and json.loads(body)["error"].startswith("--day '丁子' is not one of the sixty 干支")
    status, _, body = get(server + "/static/vendor/cytoscape/cytoscape.min.js")
    assert status == 200 and len(body) > 100_000


def test_eight_clients_at_once_get_the_sequential_results(server):
    sequential = {b: json.loads(get(server + "/api/judge?" + q(b) + "&trace=1")[2]) for b in BOARDS}
    assert all(d["fired"] for d in sequential.values())
    results, errors = {}, []
    barrier = threading.Barrier(len(BOARDS))

    def client(b):
        try:
            barrier.wait(60)
            got = []
            for _ in range(3):
                status, _, body = get(server + "/api/judge?" + q(b) + "&trace=1")
                assert status == 200, body[:200]
                got.append(json.loads(body))
                status, _, page = get(server + "/board?" + q(b))
                assert status == 200 and "天地盤" in page
            results[b] = got
        except Exception as e:                    # noqa: BLE001 -- reported below
            errors.append(f"{b}: {e!r}")
    threads = [threading.Thread(target=client, args=(b,)) for b in BOARDS]
    t0 = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    assert not errors, errors
    assert time.time() - t0 < 600
    for b in BOARDS:
        for d in results[b]:
            assert d["board"] == sequential[b]["board"], b
            assert d["fired"] == sequential[b]["fired"], b
            assert d["findings"] == sequential[b]["findings"], b
            assert len(d["trace"]["nodes"]) == len(sequential[b]["trace"]["nodes"]), b


def test_serve_with_a_bad_kb_is_one_line(tmp_path):
    import shutil

    from liuren.knowledge.kbload import packaged_kb_dir
    bad = tmp_path / "kb"
    shutil.copytree(packaged_kb_dir(), bad)          # a whole KB (kb check names a missing core first)
    (bad / "x.yaml").write_text("rules:\n  - id: [unclosed\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "liuren", "serve", "--port", "0", "--kb", str(bad)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("liuren: ") and "x.yaml" in lines[0]


def test_serve_refuses_a_bad_port():
    r = subprocess.run([sys.executable, "-m", "liuren", "serve", "--port", "70000"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and r.stderr.strip() == "liuren: --port 70000: give 0 … 65535"


def test_two_workers_serve_the_same_results():
    """--workers 2: two processes, each with its own network, behind the one printed port."""
    proc, url = start_server("--workers", "2")
    try:
        assert url.startswith("http://127.0.0.1:")
        deadline = time.time() + 300
        while True:                                   # the workers compile their networks
            try:
                status, _, body = get(url + "/api/judge?" + q(BOARDS[0]))
            except urllib.error.URLError:
                status = None
            if status == 200 or time.time() > deadline:
                break
            time.sleep(1)
        assert status == 200
        want = json.loads(body)["fired"]
        got, errors = [], []

        def client():
            try:
                for _ in range(3):
                    s, _, b = get(url + "/api/judge?" + q(BOARDS[0]))
                    assert s == 200
                    got.append(json.loads(b)["fired"])
            except Exception as e:                    # noqa: BLE001
                errors.append(repr(e))
        threads = [threading.Thread(target=client) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(600)
        assert not errors and len(got) == 12 and all(g == want for g in got)
    finally:
        stop_server(proc)


def test_zh_and_ja_pages_rendered_at_once_keep_their_language(server):
    """Issue 29 §1: the language of a page is passed down (a context variable), never a module
    global: many zh and ja pages requested at once through the real server are each exactly the
    page requested alone."""
    from concurrent.futures import ThreadPoolExecutor
    # 飛魂 fires on the first board with its places (aspects): the lines rendered per language
    urls = [server + "/board?" + q(BOARDS[0]) + why + lang for why in ("&why=dq09-hunpo", "&why=dq09-zaie")
            for lang in ("", "&lang=ja")]
    alone = {}
    for u in urls:
        status, _, body = get(u)
        assert status == 200, body[:500]
        alone[u] = body
    assert alone[urls[0]] != alone[urls[1]]                 # the two languages do differ
    aspects = [re.findall(r'<ul class="aspects">(.*?)</ul>', alone[u], re.S) for u in urls[:2]]
    assert aspects[0] and aspects[1] and aspects[0] != aspects[1]    # the places, in each language
    many = urls * 12
    with ThreadPoolExecutor(len(many)) as pool:
        got = list(pool.map(get, many))
    assert len(got) == len(many)
    for u, (status, _, body) in zip(many, got):
        assert status == 200 and body == alone[u], u
