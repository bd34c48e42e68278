"""Issue 20: under ?lang=ja the whole interface is Japanese, and no page in zh or ja shows English
words — the page's visible text (and its tooltips) has no ASCII word of 3+ letters beyond the names
of formats and the find page's operators (and, on /docs, the API's own identifiers, marked
code.api).  The page words live in explain/words.py, zh and ja side
by side."""
import html.parser
import re

import pytest
from fastapi.testclient import TestClient

from liuren.explain import words as L
from liuren.web.app import create_app

ALLOWED = {"JSON", "API", "DOT", "GraphML", "Mermaid", "URL", "OpenAPI", "Swagger"}     # formats and tools, by name
FIND_OPERATORS = {"and", "not"}          # the find query's own words (斬首 and 元首課)

PAGES = ["/", "/board?day=丁卯&on=亥加丑", "/board?day=丁卯&on=亥加丑&month=壬寅&why=ge-zhanshou",
         "/board?day=丁卯&on=亥加丑&month=壬寅&why=始終", "/board?day=甲午&on=辰加子&month=丙寅&question=射覆",
         "/rules", "/rules?kind=格", "/rules/ge-zhanshou", "/rules/dq07-biyongge", "/practice?seed=7",
         "/practice/sheet?seed=7&n=2", "/find", "/docs", "/board?day=甲丑&on=亥加丑", "/無此頁"]


class Visible(html.parser.HTMLParser):
    """The text a reader sees: text outside <script>/<style>, and title / aria-label attributes."""

    def __init__(self):
        super().__init__()
        self.skip = 0
        self.skipping = []
        self.parts = []

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style") or (tag == "code" and "api" in (dict(attrs).get("class") or "").split()):
            self.skip += 1
            self.skipping.append(tag)
            return
        for k, v in attrs:
            if k in ("title", "aria-label") and v:
                self.parts.append(v)

    def handle_endtag(self, tag):
        if self.skipping and tag == self.skipping[-1]:
            self.skipping.pop()
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def visible(page):
    p = Visible()
    p.feed(page)
    return "\n".join(p.parts)


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(None))


def test_both_languages_have_the_same_words():
    assert set(L.WORDS["zh"]) == set(L.WORDS["ja"])
    for k, v in L.WORDS["zh"].items():
        if isinstance(v, dict) and v:
            assert set(v) <= set(L.WORDS["ja"][k]) or not L.WORDS["ja"][k] or k == "positions", k
    assert set(L.FIELDS["zh"]) == set(L.FIELDS["ja"])


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_no_english_on_any_page(client, lang):
    bad = {}
    for url in PAGES:
        u = url + (("&" if "?" in url else "?") + "lang=ja" if lang == "ja" else "")
        r = client.get(u)
        assert r.status_code in (200, 400, 404, 503), (u, r.status_code)
        text = visible(r.text)
        words = set(re.findall(r"[A-Za-z]{3,}", text)) - ALLOWED - (FIND_OPERATORS if url.startswith("/find") else set())
        if words:
            bad[u] = sorted(words)
    assert not bad, bad


def test_ja_pages_say_once_that_classical_names_stay(client):
    for url in ("/", "/board?day=丁卯&on=亥加丑&lang=ja", "/rules?lang=ja", "/practice?seed=7&lang=ja"):
        t = visible(client.get(url if "lang" in url else url + "?lang=ja").text)
        assert t.count(L.WORDS["ja"]["footer_classical"]) == 1, url
    assert L.WORDS["ja"]["footer_classical"] not in visible(client.get("/").text)


def test_ja_interface_words(client):
    """The interface of a ja board is Japanese: its headings, labels, buttons, kinds, valences and
    positions are the ja words, and the zh words that differ do not appear as labels."""
    t = visible(client.get("/board?day=丁卯&on=亥加丑&lang=ja").text)
    ja = L.WORDS["ja"]
    for k in ("judgments", "rule_search", "why", "placements_all", "exports", "footer", "two_views"):
        assert ja[k] in t, k
    for kind in ("課体", "神殺", "断", "総則"):
        assert f"【{kind}】" in t, kind
    assert "〔吉凶両見〕" in t and "〔吉凶兩見〕" not in t
    assert "初伝に見る" in t and "見於初傳" not in t
    assert "三伝" in t and "發用之由" not in t and "発用の由来" in t
    idx = visible(client.get("/?lang=ja").text)
    for k in ("f_moment", "f_explicit", "f_go", "f_person", "f_options", "f_partner"):
        assert ja[k] in idx, k
