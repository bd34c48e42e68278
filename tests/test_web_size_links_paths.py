"""Issue 20 (part): responses over 1 kB go gzip-compressed, the links of a page keep their parameters
in either language, and no page or API answer shows the server's file paths."""
from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("fastapi")


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
    "/api/rules", "/api/questions",
])
def test_no_server_path(client, url):
    r = client.get(url)
    assert r.status_code == 200
    assert not ABSOLUTE.search(r.text), ABSOLUTE.search(r.text).group(0)
