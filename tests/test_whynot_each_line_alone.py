"""A WHY-NOT judges each line of the rule page on its own: a line holds where the board meets
what that line says, with the values the board gives at the places read, whatever another line
needs of the same value.  喪門 on 辛亥年 己巳 丑加巳 (卷中 ¶89): 弔客 酉 is among the board's 入占
branches, so 「弔客 入占（課傳）」 holds; only 「弔客 入占（克干支）」 fails, since 酉 克 neither 己 nor 巳.
(It was judged ✗ while it was solved together with the 克干支 line through the shared branch.)"""
import pytest

from liuren.app import queries as Q
from liuren.rules.judging import judge

BOARD = dict(day="己巳", on="丑加巳", month="戊戌", year=2031)


@pytest.fixture(scope="module")
def board():
    return judge(dict(BOARD))


def _lines(rep):
    return {c["text"]: c for c in rep["conditions"]}


def test_both_in_the_lessons_holds_and_the_ke_line_alone_fails(board):
    rep = Q.explain(board, "jz-sangmen")
    assert not rep["fired"]
    got = _lines(rep)
    assert got["喪門 入占（課傳）"]["held"] and got["弔客 入占（課傳）"]["held"], got
    assert got["弔客 入占（課傳）"]["facts"] == ["弔客 酉"]
    assert not got["弔客 入占（克干支）"]["held"]
    # the row's own placement says the board's key and what it gives, never 「弔客 弔客」
    placed = next(c for t, c in got.items() if t.startswith("喪門（據太歲）"))
    assert placed["held"] and placed["facts"] == ["太歲 亥", "喪門 丑"], placed


def test_a_void_middle_is_void_whatever_the_gate(board):
    # 獨足 of 八專 with 中末 both void: this board's gate is 賊克, yet its 中傳 亥 is void (甲子旬 空 戌亥)
    got = _lines(Q.explain(board, "dq07-duzu-kong"))
    assert got["中傳 為旬空"]["held"] and got["中傳 為旬空"]["facts"] == ["中傳 亥"]
    assert not got["發用之門 為 八專"]["held"]


def test_a_lodging_stem_is_a_place_of_the_day(board):
    # 富貴課: 初傳 卯 臨 未, where 己 lodges: 「初傳所臨 即 日干或日支或本命或行年」 holds
    got = _lines(Q.explain(board, "dq08-fugui"))
    line = got["初傳所臨 即 日干或日支或本命或行年"]
    assert line["held"], line
    assert not got["初傳 所乘之將 為 貴人"]["held"]


def test_a_value_read_through_a_table_of_another_fact_type(board):
    # 血厭病虎作鬼格 reads 病符 of 太歲 in 卷中's 星煞 table (its rows are facts of another type than its
    # id): 辛亥年's 病符 is 戌, which carries 太陰 here, so 「太歲之病符 所乘之將 為 白虎」 fails, said of 戌
    # (it held, on any branch carrying 白虎, while that table was not followed)
    got = _lines(Q.explain(board, "dq12-xueyan-hugui"))
    line = got["太歲之病符 所乘之將 為 白虎"]
    assert not line["held"] and line["facts"] == ["太歲之病符 所乘之將 太陰"], line
    assert "太歲之病符 戌" in got["太歲之病符 克 日干"]["facts"]
