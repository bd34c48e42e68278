"""Issue 28: a rule page names each variable in words — by how it is reached from a named place
(日干之合所寄, 其所臨, 玄武所乘), and only what nothing names stays 某支 (two such: 一支 … 另一支) —
never by a numbered placeholder (某支①), in zh and in ja; a relation the names already say is not
repeated as 「X、Y 合於「T」」."""
import re

import pytest

from liuren.explain.conditions import conditions_in_words
from liuren.explain.words import condition_words
from liuren.knowledge.kbload import load_kb

NUMBERED = re.compile(r"[①-⑳]|某\d|何か\d")


@pytest.fixture(scope="module")
def kb():
    return load_kb(None)


def test_no_numbered_placeholder_on_any_entry(kb):
    seen = 0
    for e in kb.entries.values():
        _, conds = conditions_in_words(kb, e)
        for c in conds:
            seen += 1
            assert not NUMBERED.search(c), (e.id, c)
            ja = condition_words(c, "ja")
            assert not NUMBERED.search(ja), (e.id, ja)
    assert seen > 5000


STATED = {
    # 中正合: 日干之合 (干合), its 寄宮 (寄宮), the general on it (盤); the row's own cells as values
    "dq01-wuhe-zhongzheng": ["日干 為 甲或己", "日干之合所寄 所乘之將 為 貴人", "日干之合所寄 入占（課傳）"],
    # the family rule itself: what the names leave of the table is said by the table
    "dq01-wuhe-rule": ["日干之合所寄 入占（課傳）", "日干之合所寄 所臨、日干、其所乘之將 合於「五合所乘」"],
    # a branch named by the general on it, and the place under it
    "dq11-zeixiang-lianzuo": ["玄武所乘 合 其所臨（六合）"],
    # a 長生 table read from 日干's 行, then from the 初傳's (never 「其所屬」 beside 初傳所臨: 其 would be it)
    "dq12-juezhen-jiasheng": ["初傳 即 日干所屬之絕", "初傳所臨 即 初傳所屬之長生"],
    # four branches nothing names: told apart in words
    "dq10-liuchun": ["第一課 上神 一支", "第二課 上神 另一支", "第三課 上神 又一支", "第四課 上神 第四支"],
}


@pytest.mark.parametrize("key", sorted(STATED))
def test_lines_stated(kb, key):
    assert conditions_in_words(kb, kb.entries[key])[1] == STATED[key]


def test_ja_names(kb):
    got = [condition_words(c, "ja") for c in conditions_in_words(kb, kb.entries["dq01-wuhe-rule"])[1]]
    assert got == ["日干の合の寄宮 が占に入る（課伝）",
                   "日干の合の寄宮 の臨む所、日干、それに乗る天将 は「五合所乗」に合う"]
    got = [condition_words(c, "ja") for c in conditions_in_words(kb, kb.entries["dq10-liuchun"])[1]]
    assert got[1] == "第二課 上神 もう一つの支"


def test_a_negation_is_worded_from_its_own_model(kb):
    """A negated body has a model of its own (Meaning: Way.neg_ways), worded by the same code."""
    from liuren.knowledge.meaning import meaning_of
    m = meaning_of(kb)
    w = m.requirement("dq07-place-keshu-4")[0]
    assert w.neg_ways and all(isinstance(ways, list) and ways for ways in w.neg_ways)
    conds = conditions_in_words(kb, kb.entries["dq07-place-keshu-4"])[1]
    assert "無（發用之門 為 伏吟）" in conds and "無（日支 即 干上）" in conds


def test_whynot_words_its_conditions_from_the_model():
    """WHY-NOT's own list: no pattern text, a negation from the model with the board's values put in."""
    import liuren.explain.whynot as W
    from liuren.app import queries as Q
    from liuren.rules.judging import judge
    assert not hasattr(W, "cond_text")
    r = judge(dict(day="丁卯", on="亥加丑"))
    rep = Q.explain(r, "dq01-xingpo-he-xing")
    texts = [c["text"] for c in rep["conditions"]]
    # the rule page's lines, the board's values beside them: 中傳 酉 carries 貴人, 初傳 亥 is 丁's 日德
    by = {c["text"]: c for c in rep["conditions"]}
    c = by["無（中傳或初傳或末傳 所乘之將 為 貴人或青龍）"]
    assert not c["held"] and c["facts"] == ["貴人 乘 酉 臨 亥"], c
    assert not by["無（中傳或初傳或末傳 為日德）"]["held"]
    assert by["無（中傳或初傳或末傳 即 日干之日祿）"]["held"]
    for t in texts:
        assert '"outer"' not in t and "{" not in t and "$" not in t, t
