"""Issue 28 §1: WHY-NOT says the rule page's lines.  Each condition of a WHY-NOT is a line of the entry's
condition model (the lines its rule page is made of, explain.conditions.way_lines), judged on the board
(held or not, with the board's value at the places it names), so that the page and its WHY-NOT say
the same thing; a family row's own cells are said as the page says them (named values, never 「地為某」)."""
import re

import pytest

from liuren.app import queries as Q
from liuren.explain.conditions import conditions_in_words, way_lines
from liuren.rules.judging import judge

BOARD = dict(day="丁卯", on="亥加丑", month="壬寅")
# across the books, families' rows among them (伏吟課, 元首課, 牛女相會格, 斫輪木日, 死者年上見登明 …)
ENTRIES = ["dq07-fuyin", "dq07-yuanshou", "dq07-sanguang", "dq09-youzi", "dq08-zhuolun-mu", "dq11-niunv-xianghui",
           "dq12-konglu", "dq01-wuhe-zhongzheng", "dq01-side", "j2c-jiaohe", "j2a-conge", "dq10-sheyi",
           "jzb-shi-ji-zhong-ji", "yh-nishi-dengming", "dq12-liangchang-jiamu"]


@pytest.fixture(scope="module")
def r():
    return judge(dict(BOARD))


def test_the_sample_spans_books_and_families(r):
    kb = r.kb
    books = {str(s.get("seed", ""))[:3] for e in ENTRIES for s in kb.entries[e].source}
    assert len(ENTRIES) >= 10 and len(books) >= 6, books
    assert sum(1 for e in ENTRIES if e in kb.rows) >= 4          # rows of a family, read through its rule


# where an entry fires on BOARD, its WHY-NOT is asked on the first of these where it does not
OTHER_BOARDS = [dict(day="甲子", on="子加子", month="庚寅"), dict(day="庚午", on="子加寅", month="甲午"),
                dict(day="癸酉", on="巳加亥", month="辛丑")]


@pytest.mark.parametrize("key", ENTRIES)
def test_each_whynot_line_is_a_line_of_the_rule_page(r, key):
    kb = r.kb
    rep = Q.explain(r, key)
    for other in OTHER_BOARDS:
        if not rep["fired"]:
            break
        rep = Q.explain(judge(dict(other)), key)
    assert not rep["fired"], (key, "fires on every board of the test")
    page = {x for way in way_lines(kb, kb.entries[key])[1] for x in way}
    shown = conditions_in_words(kb, kb.entries[key])[1]
    assert rep["conditions"], key
    for c in rep["conditions"]:
        assert c["text"] in page, (key, c["text"], page)
        # the rule page shows it, whole or inside its 或（…｜…）
        assert any(c["text"] == x or c["text"] in x for x in shown), (key, c["text"], shown)
        for f in c["facts"] if c.get("on_board") else []:
            assert not re.search(r"某|\$|[A-Za-z]", f), (key, f)
    assert not all(c["held"] for c in rep["conditions"]), (key, rep["conditions"])


def test_the_board_value_beside_a_failed_line(r):
    rep = Q.explain(r, "dq07-fuyin")
    c = next(c for c in rep["conditions"] if c["text"] == "發用之門 為 伏吟")
    assert not c["held"] and c["facts"] == [f"發用之門 {r.board.transmissions.gate}"]
    rep = Q.explain(r, "dq11-niunv-xianghui")
    chu = r.board.transmissions.branches[0]
    c = next(c for c in rep["conditions"] if c["text"] == "初傳 所乘之將 為 太常")
    assert c["facts"] == [f"初傳 所乘之將 {r.board.to_dict()['generals'][chu]}"]


def test_the_board_page_whynot_says_the_page_lines():
    from fastapi.testclient import TestClient
    from liuren.web.app import create_app
    c = TestClient(create_app(None, warm=False))
    t = c.get("/board?day=丁卯&on=亥加丑&why=伏吟").text
    assert "發用之門 為 伏吟；此盤：發用之門 涉害" in t
    assert "發用之門：此盤為 涉害，伏吟課要 伏吟" in t          # the board lines above stay
    assert "依「伏吟課」" not in t
    t = c.get("/board?day=丁卯&on=亥加丑&why=伏吟&lang=ja").text
    assert "この盤では" in t
