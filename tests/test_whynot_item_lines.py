"""A line the rule wrote as a test or a table pattern of its own is judged on the board by that
test or pattern, and its values are those it reads.

撞干格 (《大全》卷十 ¶341–343) needs that 日干's 寄宮 is not in the 三傳 and that 初傳 or 末傳 stands
next to it (兩支相距 距 1).  Its page used to drop the second line, and its WHY-NOT judged the first
by both together: on 甲子 辰加寅 (三傳 辰午申, 甲 寄寅) it said 「✗ 日干 不在 初傳、中傳、末傳 之中」
although 寅 is in none of them."""
import pytest

from liuren.app import queries as Q
from liuren.explain.conditions import conditions_in_words
from liuren.explain.words import condition_words
from liuren.knowledge.kbload import load_kb
from liuren.rules.judging import judge


@pytest.fixture(scope="module")
def kb():
    return load_kb()


@pytest.fixture(scope="module")
def board():
    return judge(dict(day="甲子", on="辰加寅"))


def _lines(rep):
    return {c["text"]: c for c in rep["conditions"]}


def test_the_page_says_the_distance_it_reads(kb):
    for key, place in (("dq10-zhuang", "日干"), ("dq10-zhuangzhi", "日支")):
        lines = conditions_in_words(kb, kb.entries[key])[1]
        assert f"或（初傳 與 {place}，相距 1 位｜末傳 與 {place}，相距 1 位）" in lines, lines
        ja = [condition_words(x, "ja") for x in lines]
        assert f"いずれか（初伝 と {place} は 1 位離れる｜末伝 と {place} は 1 位離れる）" in ja, ja
    # the table read with a count the rule fixes: 罡離干四位 (卷中)
    assert "日干 與 辰 所臨，相距 4 位" in conditions_in_words(kb, kb.entries["jzb-gang-li-si"])[1]


def test_each_line_is_judged_by_what_it_says(board):
    rep = Q.explain(board, "dq10-zhuang")
    assert not rep["fired"]
    got = _lines(rep)
    notin = got["日干 不在 初傳、中傳、末傳 之中"]
    assert notin["held"], notin
    assert notin["facts"] == ["日干 甲（寄寅）", "初傳 辰", "中傳 午", "末傳 申"], notin
    near = got["初傳 與 日干，相距 1 位"]
    assert not near["held"] and near["facts"] == ["初傳 辰", "日干 甲（寄寅）"], near


def test_a_line_holds_by_its_own_values_whatever_the_others_need(board):
    # 連珠 (卷七) of 亥子丑: this board's 三傳 辰午申 are not 亥子丑, but they are three different branches
    got = _lines(Q.explain(board, "dq07-lianzhu"))
    assert not got["初傳 在 亥、子、丑 之中"]["held"]
    for text in ("初傳 與 中傳 不同", "中傳 與 末傳 不同", "初傳 與 末傳 不同"):
        assert got[text]["held"], got[text]
    assert got["初傳 與 中傳 不同"]["facts"] == ["初傳 辰", "中傳 午"]


def test_a_row_judges_with_its_own_cell(board):
    # 求受 (卷九 ¶137) is the row whose 係 is 生: 甲 does not 生 子 on this board, whatever 甲 and 子 are
    got = _lines(Q.explain(board, "dq09-qiushou"))
    assert not got["日干生日支"]["held"], got
    # 培本 (比): 甲 木 and 子 水 are not of one kind either; 干臨支 (寅 over 子) holds
    got = _lines(Q.explain(board, "dq09-peiben"))
    assert not got["日干比日支"]["held"] and got["日支 即 日干 所臨"]["held"], got


def test_a_line_held_by_one_way_of_an_any_stays_held():
    # 干生末末生中中生初 (卷二) where it fires: each line of its page holds on the chain it fired on, 「某 即 無」
    # (one way of its any:) too, though the row it fired by reads a fourth place
    from liuren.explain.whynot import FactBase, model_conditions
    r = judge(dict(day="丁卯", on="亥加丑", month="庚寅", year=2026))
    g = r.chain_graph("j2b-yongshen-lian-rule")
    got = model_conditions(r.kb, r.kb.entries["j2b-yongshen-lian-rule"], FactBase(g, r.kb))
    assert got and all(c["held"] for c in got), [(c["text"], c["held"]) for c in got]
