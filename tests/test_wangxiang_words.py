"""Issue 28 §6: the board's 旺相 line is in the page's language. Under ?lang=ja it is in the 日譯's
words (《經緯》卷3 目錄 in seed 002: 「旺・相・死・囚・休は、四時の五等の気勢である」): its 「死」, not the KB's
死氣; the Chinese page keeps the board's own 旺相 line."""
import html
import re

import pytest
from fastapi.testclient import TestClient

from liuren.casting.cast import cast
from liuren.explain import boardtext
from liuren.explain import words as L



@pytest.fixture(scope="module")
def client():
    from liuren.web.app import create_app
    return TestClient(create_app(warm=False))


def _visible(t):
    return html.unescape(re.sub(r"<[^>]+>", " ", t))


def test_header_line_in_each_language():
    b = cast(day="丁卯", on="亥加丑", month="戊子")
    qi = dict(b.wangxiang)
    assert "死氣" in qi.values()                       # the board's own value, as the KB names it
    zh = [x for x in boardtext.header(b, "zh") if x.startswith("旺相：")]
    ja = [x for x in boardtext.header(b, "ja") if x.startswith(L.WORDS["ja"]["wangxiang"] + "：")]
    assert zh and ja
    for e, s in qi.items():
        assert f"{e}{s}" in zh[0]
        assert f"{e}{L.WORDS['ja']['qi'][s]}" in ja[0]
    assert "死氣" not in ja[0] and "火死" in ja[0] and "旺相：" not in ja[0]


def test_the_japanese_words_are_the_renderings():
    import glob
    import os
    files = glob.glob(os.path.join(os.environ.get("LIUREN_SEEDS", ""), "002_*.txt"))
    if not files:
        from helpers import in_ci
        assert not in_ci(), "the seeds are not available in CI ($LIUREN_SEEDS)"
        pytest.skip("LIUREN_SEEDS is not set")
    text = open(files[0], encoding="utf-8").read()
    assert "旺・相・死・囚・休は、四時の五等の気勢" in text
    assert set(L.WORDS["ja"]["qi"].values()) == set("旺相死囚休")
    assert set(L.WORDS["zh"]["qi"]) == set(L.WORDS["ja"]["qi"])


def test_board_page_ja(client):
    ja = _visible(client.get("/board?day=丁卯&on=亥加丑&month=戊子&lang=ja").text)
    zh = _visible(client.get("/board?day=丁卯&on=亥加丑&month=戊子").text)
    assert "四時の気勢（旺・相・死・囚・休）：木相 火死 土囚 金休 水旺" in ja
    assert "死氣" not in ja.split("四時の気勢")[1][:40]
    assert "旺相：木相 火死氣 土囚 金休 水旺" in zh
