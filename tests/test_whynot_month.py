"""Issue 28 §1: a WHY-NOT of a rule that reads the 旺衰 of a position states the board's own 旺衰 there
(every board cast with a month has one at each of its positions), and on a board cast without a month
it says that the 旺衰 needs the month, never that the board has none."""
import pytest

from liuren.app import queries as Q
from liuren.rules.judging import judge

# the 旺相休囚死 of each element by season (卷中 ¶183: 當時者旺，時令生之為相 …), worked here apart from the KB
SEASON = {"寅": "春", "卯": "春", "辰": "季", "巳": "夏", "午": "夏", "未": "季",
          "申": "秋", "酉": "秋", "戌": "季", "亥": "冬", "子": "冬", "丑": "季"}
RULER = {"春": "木", "夏": "火", "季": "土", "秋": "金", "冬": "水"}
GEN = {"木": "火", "火": "土", "土": "金", "金": "水", "水": "木"}            # x 生 GEN[x]
ELEM = dict(zip("子丑寅卯辰巳午未申酉戌亥", "水土木木土火火土金金土水")) | dict(zip("甲乙丙丁戊己庚辛壬癸", "木木火火土土金金水水"))


def qi(char, month):
    ruler, e = RULER[SEASON[month[1]]], ELEM[char]
    if e == ruler:
        return "旺"
    if GEN[ruler] == e:
        return "相"
    if GEN[e] == ruler:
        return "休"
    if GEN[GEN[e]] == ruler:          # e 克 the ruler
        return "囚"
    return "死"


def _lines(r, key):
    rep = Q.explain(r, key)
    assert not rep["fired"]
    return rep["board"]


@pytest.mark.parametrize("day,on,month", [("丁卯", "亥加丑", "丙午"), ("甲子", "子加子", "癸酉")])
def test_with_a_month_the_line_states_the_boards_own_qi(day, on, month):
    r = judge(dict(day=day, on=on, month=month))
    first = r.board.transmissions.branches[0]
    want = qi(first, month)
    assert want not in ("旺", "相")                   # the board is one where 三光課 fails at the 初傳
    board = _lines(r, "dq07-sanguang")
    line = [x for x in board if x["text"].startswith("初傳旺衰")]
    assert line, [x["text"] for x in board]
    assert line[0]["text"] == f"初傳旺衰：此盤為 {want}，三光課要 旺或相"
    assert line[0]["texts"]["ja"].startswith(f"初伝の旺衰：この盤は {want}、")
    assert all("無之" not in x["text"] and "月建" not in x["text"] for x in board)
    # the 日干 by its stem's own element, the 日支 by its branch: each line its own value
    for x in board:
        if x["text"].startswith("日干旺衰"):
            assert f"此盤為 {qi(day[0], month)}" in x["text"]
        if x["text"].startswith("日支旺衰"):
            assert f"此盤為 {qi(day[1], month)}" in x["text"]


def test_without_a_month_the_line_names_the_month():
    r = judge(dict(day="丁卯", on="亥加丑"))
    board = _lines(r, "dq07-sanguang")
    qi_lines = [x for x in board if "旺衰" in x["text"]]
    assert {x["text"].split("：")[0] for x in qi_lines} == {"初傳旺衰", "日干旺衰", "日支旺衰"}
    for x in qi_lines:
        assert "此盤無之" not in x["text"]
        assert "此盤未給月建" in x["text"] and x["text"].endswith("三光課要 旺或相")
        assert "月建" in x["texts"]["ja"] and "この盤にはない" not in x["texts"]["ja"]


def test_a_missing_value_the_month_does_not_give_is_still_absent():
    # a read the month does not supply keeps 「此盤無之」: only month-derived facts name the month
    from liuren.explain.reads import month_types
    r = judge(dict(day="丁卯", on="亥加丑"))
    types = month_types(r.kb)
    assert {"時令", "時氣", "位氣"} <= types
    assert not types & {"位", "盤", "傳", "日", "課"}


def test_the_board_page_without_a_month():
    from fastapi.testclient import TestClient
    from liuren.web.app import create_app
    c = TestClient(create_app(warm=False))
    t = c.get("/board?day=丁卯&on=亥加丑&why=三光課").text
    assert "初傳旺衰：依月建而定，此盤未給月建" in t and "此盤無之，三光課要 旺或相" not in t
    t = c.get("/board?day=丁卯&on=亥加丑&why=三光課&month=丙午").text
    assert f"初傳旺衰：此盤為 {qi('亥', '丙午')}" in t


def test_a_read_of_the_month_itself():
    r = judge(dict(day="丁卯", on="亥加丑"))
    board = _lines(r, "dq09-youzi")
    line = [x for x in board if x["text"].startswith("月建：")]
    assert line and line[0]["text"].startswith("月建：此盤未給月建，游子課要") and "依月建而定" not in line[0]["text"]


@pytest.mark.parametrize("day,on,month", [("丁卯", "亥加丑", "丙午"), ("甲子", "子加子", "癸酉")])
def test_the_day_stems_qi_is_told_of_the_stem(day, on, month):
    # 日干 is its stem: its 旺衰 line names the stem (日干丁), never the branch it lodges at (日干未)
    lodge = dict(zip("甲乙丙丁戊己庚辛壬癸", "寅辰巳未巳未申戌亥丑"))      # 寄宮 (卷一: 甲課寅 乙課辰 …)
    r = judge(dict(day=day, on=on, month=month))
    text = str(Q.explain(r, "dq07-sanguang"))       # its WHY-NOT: the conditions and the nearest on the board
    stem = day[0]
    assert f"日干旺衰 {qi(stem, month)}" in text, text
    assert f"日干{lodge[stem]}" not in text, text
