"""Issue 28 §1, §3: a rule that ties two values the tables name (日干之長生 over 其所屬之墓, 晝貴 over
夜貴) says that tie on its page and judges it in its WHY-NOT — never the generic 「依「長生十二神」讀 …」
line, nor the old item matcher.  The WHY-NOT names both values and where the first one sits on the
board (「亥 所臨 亥」).  Each line holds exactly where the rule fires, on its own example boards."""
import pytest

from liuren.app import queries as Q
from liuren.explain.conditions import conditions_in_words, judged_ways
from liuren.explain.words import condition_words
from liuren.knowledge.kbload import load_kb
from liuren.rules.judging import judge

LINES = {
    "dq08-guiren-zuoye": ["或（日干之晝貴人 臨 日干之夜貴人｜日干之夜貴人 臨 日干之晝貴人）"],
    "dq11-tai-zuo-changsheng": ["日干所屬之胎 臨 其所屬之長生"],
    "dq12-wulu": ["日干之祿 臨 其所屬之絕"],
    "jzb-changsheng-zuomu": ["或（日干之長生 臨 其所屬之墓｜日支所屬之長生 臨 其所屬之墓）"],
    "jzb-changsheng-daimu": ["或（日干之長生所屬之墓 臨 日干之長生｜日支所屬之長生所屬之墓 臨 日支所屬之長生）"],
    "jzb-changsheng-zuo-ganzhi-mu": ["或（日干之長生 臨 日干之墓｜日支所屬之長生 臨 日支所屬之墓）"],
    "jzb-changsheng-dai-ganzhi-mu": ["或（日干之墓 臨 日干之長生｜日支所屬之墓 臨 日支所屬之長生）"],
    "jzb-lu-rumu": ["日干之臨官 臨 其所屬之墓"],
}


@pytest.fixture(scope="module")
def kb():
    return load_kb()


@pytest.mark.parametrize("key", sorted(LINES))
def test_the_page_says_the_tie(kb, key):
    assert conditions_in_words(kb, kb.entries[key])[1] == LINES[key]


def test_and_in_japanese(kb):
    lines = conditions_in_words(kb, kb.entries["dq12-wulu"])[1]
    assert [condition_words(x, "ja") for x in lines] == ["日干の祿 が その五行の絕 に臨む"]


def test_a_place_tied_to_itself_is_not_said(kb):
    # 日支 所臨 即 日支之墓: the plate only names where 日支 sits (never 「日支 臨 日支 所臨」)
    for key in ("dq01-zhi-zuomu", "dq11-futai", "dq12-fa087", "jzb-ganzhi-zuomu"):
        lines = conditions_in_words(kb, kb.entries[key])[1]
        assert not any(" 臨 " in x and "所臨" in x.split(" 臨 ", 1)[1] for x in lines), (key, lines)


@pytest.mark.parametrize("key", sorted(LINES))
def test_each_line_holds_exactly_where_the_rule_fires(kb, key):
    entry = kb.entries[key]
    page = {x for _w, _ww, lines in judged_ways(kb, entry) for x, _ in lines}
    assert page, key
    examples = entry.meta.get("examples") or {}
    for kind in ("fires", "silent"):
        for ex in examples.get(kind) or ():
            rep = Q.explain(judge(dict(ex["board"])), key)
            assert bool(rep["fired"]) == (kind == "fires"), (key, ex)
            if rep["fired"]:
                continue
            conds = rep["conditions"]
            assert conds and all(c["text"] in page for c in conds), (key, conds)
            assert not all(c["held"] for c in conds), (key, ex, conds)


def test_whynot_names_both_values_and_where_the_first_sits(kb):
    # 甲子 子加子: 甲's 長生 亥 sits on 亥, its 墓 is 辰
    rep = Q.explain(judge(dict(day="甲子", on="子加子")), "jzb-changsheng-zuomu")
    line = next(c for c in rep["conditions"] if not c["held"])
    assert line["text"] == "日干之長生 臨 其所屬之墓"
    assert line["facts"] == ["日干之長生 亥", "日干之長生所屬之墓 辰", "亥 所臨 亥"], line


def test_a_places_branch_read_for_being_there(kb):
    # 占夢 reads 行年's 上神 whatever it is: 「行年上神」, never 「行年上見某支」; with its general, 「（乘…）」
    assert conditions_in_words(kb, kb.entries["yh-meng"])[1] == ["所問 為 占夢", "行年上神"]
    assert conditions_in_words(kb, kb.entries["yh-xintiao-jijiang"])[1][1] == "行年上神（乘六合或太常或太陰或貴人或青龍）"
    r = judge(dict(day="丁卯", on="亥加丑", question="占心跳心驚", born=1963, sex="f", year=2026))
    line = next(c for c in Q.explain(r, "yh-xintiao-jijiang")["conditions"] if not c["held"])
    assert line["text"].startswith("行年上神") and line["facts"] == ["行年上見卯（乘天空）"], line


def test_another_shensha_a_row_reads_is_named_by_its_class(kb):
    # 喪門 needs 弔客 in the 課傳 too (卷中 ¶89 「喪吊俱到」): 「弔客 入占（課傳）」, never 「某支 為弔客（據歲）」
    lines = conditions_in_words(kb, kb.entries["jz-sangmen"])[1]
    assert "弔客 入占（課傳）" in lines and not any("某" in x for x in lines), lines
    lines = conditions_in_words(kb, kb.entries["jz-diaoke"])[1]
    assert "喪門 入占（課傳）" in lines and not any("某" in x for x in lines), lines
