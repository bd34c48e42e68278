"""Issue 20 (part): responses over 1 kB go gzip-compressed, the links of a page keep their parameters
in either language, and no page or API answer shows the server's file paths."""
from __future__ import annotations

import html
import re

import pytest



@pytest.fixture(scope="module")
def client():
    from fastapi.testclient import TestClient
    from liuren.web.app import create_app
    return TestClient(create_app(None, warm=False))


def test_large_responses_are_gzipped(client):
    r = client.get("/api/judge?day=丁卯&on=亥加丑", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers.get("content-encoding") == "gzip"
    assert int(r.headers["content-length"]) < len(r.content) / 4
    r = client.get("/board?day=丁卯&on=亥加丑", headers={"Accept-Encoding": "gzip"})
    assert r.headers.get("content-encoding") == "gzip"
    r = client.get("/api/judge?day=丁卯&on=亥加丑", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in r.headers


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_the_front_page_links_answer(client, lang):
    page = client.get("/" + ("?lang=ja" if lang == "ja" else ""))
    links = {html.unescape(h) for h in re.findall(r'href="(/[^"#]*)', page.text)}
    assert any(h.startswith("/board?") for h in links)
    for h in sorted(links):
        r = client.get(h)
        assert r.status_code == 200, (h, r.status_code, r.text[:200])
        if lang == "ja" and h.startswith("/board?"):
            assert "lang=ja" in h


ABSOLUTE = re.compile(r"(?<![\w.])/(?:work|home|root|tmp|usr|opt|var|srv|mnt)/[\w./-]+")


@pytest.mark.parametrize("url", [
    "/", "/board?day=丁卯&on=亥加丑", "/board?day=丁卯&on=亥加丑&why=斬首", "/rules", "/rules/斬首",
    "/api/rules/斬首", "/api/why/斬首?day=丁卯&on=亥加丑", "/practice?seed=3", "/api/practice?seed=3",
    "/api/rules", "/api/questions", "/api/judge?day=丁卯&on=亥加丑&trace=1", "/api/trace?day=丁卯&on=亥加丑&format=graphml",
    "/api/trace?day=丁卯&on=亥加丑&format=json",
])
def test_no_server_path(client, url):
    r = client.get(url)
    assert r.status_code == 200
    assert not ABSOLUTE.search(r.text), ABSOLUTE.search(r.text).group(0)


def test_rules_pages_like_datasette(client):
    """/rules: at most 100 rows a page with links on the names, sources as 《書》卷 ¶, facets with
    counts (kind, book) that say where a filter that finds nothing would find something."""
    t = client.get("/rules").text
    rows = re.findall(r"<tr><td><a href=\"/rules/([^\"]+)\">([^<]+)</a>", t)
    assert len(rows) == 100 and all(not name.startswith(("ge-", "dq", "jz", "yh", "j2")) for _, name in rows)
    assert "《六壬經緯》卷3 ¶" in t and "¶" in t and not re.search(r"\b\d{3}¶\d", t)       # no seed numbers
    assert 'rel="next"' in t and " / " in t
    last = int(re.search(r"1 / (\d+)", t).group(1))
    assert client.get(f"/rules?page={last}").status_code == 200
    assert client.get(f"/rules?page={last + 1}").status_code == 400
    assert client.get("/rules?page=x").status_code == 400
    empty = client.get("/rules?kind=格&book=六壬大全").text
    assert "課體</a> " in empty and "畢法</a> " in empty            # the 大全's entries are 課體 and 畢法
    facet = re.search(r'<div class="facet"><h3>[^<]*</h3><ul>(.*?)</ul>', t, re.S).group(1)
    counts = [int(n) for n in re.findall(r"<small>(\d+)</small>", facet)]
    total = int(re.search(r"<h1>[^<]*<small>(\d+)</small>", t).group(1))
    assert sum(counts) == total                                  # the kind facet counts every row


@pytest.mark.parametrize("lang, words", [("zh", ["日「甲丑」", "六十干支"]), ("ja", ["日「甲丑」", "六十干支"])])
def test_a_page_error_speaks_the_page_language(client, lang, words):
    q = "/board?day=甲丑&on=亥加丑" + ("&lang=ja" if lang == "ja" else "")
    r = client.get(q)
    assert r.status_code == 400
    msg = re.search(r'<p class="errmsg" id="error">(.*?)</p>', r.text, re.S).group(1)
    assert "--" not in msg and all(w in msg for w in words), msg
    assert not re.search(r"[A-Za-z]{4,}", msg), msg                 # no English sentence
    # the API keeps the CLI's one-line message
    assert "--day" in client.get("/api/judge?day=甲丑&on=亥加丑").json()["error"]


@pytest.mark.parametrize("query", ["moment=2026-12-03T10:00&day=丁卯&on=亥加丑",
                                   "moment=2026-12-03T10:00&tz=Asia/Shanghai&day=丁卯&jiang=亥&hour=丑"])
def test_a_typed_board_wins_over_the_prefilled_moment(client, query):
    r = client.get("/board?" + query)
    assert r.status_code == 200
    assert "丁卯日" in r.text and "已依所填之日與月將加占時起盤" in r.text


def test_the_japanese_rendering_only_under_ja(client):
    """The 日譯's paragraphs appear on a page only under ja, as on the CLI (a citation of its ¶ may stand)."""
    kana = re.compile(r"[ぁ-んァ-ン]{3,}")
    for url in ("/board?day=丁卯&on=亥加丑&why=斬首", "/rules/斬首"):
        assert not kana.search(client.get(url).text), url
        assert kana.search(client.get(url + ("&" if "?" in url else "?") + "lang=ja").text), url
