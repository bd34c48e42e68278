"""Issue 28 §6: the board's 類相 hover text is Japanese under ?lang=ja — its categories, its formulas and
sentences in Japanese, its nouns in the new forms of their characters — and the classical text under zh."""
import html
import re

import pytest
from fastapi.testclient import TestClient

from liuren.explain.imagewords import imagery_word
from liuren.web.app import create_app


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(warm=False))


def _titles(page):
    return [html.unescape(t) for t in re.findall(r'<span class="(?:gen |heaven )?sym" title="([^"]+)"', page)]


# characters of the classical forms, and classical formulas, a Japanese reader should not meet
CLASSICAL = re.compile(r"[經臟顏黑黃內虛澤數應廚樓爐錢驛龍雞處鬥爭齊藥圖寶燒樂晝將壽雜餘氣]|所照處|所生|一應|沖則|之刑|之合|(?<!の)字$|星主")


def test_board_tooltips_are_japanese_under_ja(client):
    q = "/board?day=甲子&on=子加午&month=庚寅"
    ja = _titles(client.get(q + "&lang=ja").text)
    zh = _titles(client.get(q).text)
    assert len(ja) == len(zh) >= 24
    for t in ja:
        parts = re.split(r"[；、　]", t)
        bad = [p for p in parts if CLASSICAL.search(p)]
        assert not bad, (bad, t)
    # the classical text stays under zh
    assert any("所照處" in t or "一應" in t for t in zh)
    assert any("照らす地" in t or "すべての" in t for t in ja)


@pytest.mark.parametrize("word,ja", [
    ("一應水器", "すべての水器"), ("五行數一", "五行の数 一"), ("女虛危所照處", "女虚危の照らす地"), ("水字", "「水」の字"),
    ("沖則水火不投", "冲すれば水と火のように相容れない"), ("黃色物", "黄色い物"), ("經絡", "経絡"),
    ("女土蝠（凶）：巧藝、淫亂；天津星主關梁、水", "女土蝠（凶）：巧芸、淫乱。天津星は関梁、水を主る"),
])
def test_imagery_word(word, ja):
    assert imagery_word(word, "ja") == ja
    assert imagery_word(word, "zh") == word
