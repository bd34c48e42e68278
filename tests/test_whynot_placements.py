"""Issue 28 §1: the WHY-NOT of an entry the condition model gives no lines for (a placement such as
太歲起例, a rule that reads only an input such as 所問之類, a family row whose cells cannot meet a
board) is the rule page's own line judged on the board, with the board's value at each place it
reads or what the board was not given — never a condition read off the engine's patterns (the old
item matcher said 「太歲 某」 and 「依「太歲」：太歲在「太歲」之列」)."""
import re

import pytest

from liuren.app import queries as Q
from liuren.explain.conditions import conditions_in_words, judged_ways
from liuren.explain.render import in_lang, to_text
from liuren.explain.whynot import reporting_rule
from liuren.knowledge.kbload import load_kb
from liuren.rules.judging import judge

BARE = dict(day="丁卯", on="亥加丑")          # no year, month, 本命, 行年, sex or question


@pytest.fixture(scope="module")
def kb():
    return load_kb()


@pytest.fixture(scope="module")
def bare():
    return judge(dict(BARE))


def _lineless(kb):
    out = []
    for key, e in kb.entries.items():
        rule, _ = reporting_rule(kb, key)
        if rule is not None and not any(lines for _w, _ww, lines in judged_ways(kb, e)):
            out.append(key)
    return sorted(out)


def test_the_entries_without_model_lines_are_the_placements_and_a_few_more(kb):
    keys = _lineless(kb)
    assert len(keys) >= 20 and {"place-taisui", "jz-zhanlei-wen", "j2c-wenshu-queming"} <= set(keys), keys


def test_each_line_is_the_rule_pages_and_speaks_of_the_board(kb, bare):
    fired = bare.fired_ids()
    seen = 0
    for key in _lineless(kb):
        if key in fired:
            continue
        seen += 1
        rep = Q.explain(bare, key)
        page = conditions_in_words(kb, kb.entries[key])[1]
        assert rep["conditions"] and not all(c["held"] for c in rep["conditions"]), (key, rep["conditions"])
        for c in rep["conditions"]:
            assert c["text"] in page, (key, c["text"], page)
            for f in c["facts"]:
                assert not re.search(r"某|\$|[A-Za-z]|之列", f), (key, f)
            if not c["held"]:
                assert c["facts"] or c.get("lacks"), (key, c)
    assert seen >= 8, seen


def test_an_input_not_given_is_named(bare):
    for key, gone in [("place-taisui", "此盤未給太歲"), ("jz-zhanlei-wen", "此盤未問占類"),
                      ("jz-zhanlei-ren", "此盤未給問者之性別"), ("yh-place-zhai", "此盤未給本命"),
                      ("place-season-sha", "此盤未給月建")]:
        (c,) = Q.explain(bare, key)["conditions"]
        assert not c["held"] and c["lacks"]["zh"] == gone, (key, c)


def test_a_choice_of_places_is_read_at_those_places_only(bare):
    # 長生在年命上: 本命或行年, neither given.  Never the branch 丁's 長生 酉 sits on (亥) said as 本命或行年
    (c,) = Q.explain(bare, "jzb-changsheng-nianming")["conditions"]
    assert c["facts"] == ["日干 丁", "日干之長生 酉"], c
    assert c["lacks"]["zh"] == "此盤未給本命；此盤未給行年"
    # given a 本命, its branch is said
    (c,) = Q.explain(judge(dict(BARE, benming="午")), "jzb-changsheng-nianming")["conditions"]
    assert "本命 午" in c["facts"] and not c["held"], c


def test_a_value_the_board_has_with_an_input_it_lacks(bare):
    # 發用旺相休囚 reads 初傳 (亥) and its 旺衰, which needs a month: both said, in zh and ja
    rep = Q.explain(bare, "dq07-qi-fayong-rule")
    (c,) = rep["conditions"]
    assert c["facts"] == ["初傳 亥"] and c["lacks"]["zh"] == "此盤未給月建", c
    zh = to_text(rep)
    assert "此盤：初傳 亥；此盤未給月建" in zh, zh
    assert Q.explain(judge(dict(BARE, month="壬寅")), "dq07-qi-fayong-rule")["fired"]


def test_a_row_whose_book_lost_a_cell(kb, bare):
    # 朱雀臨曰 (卷2 ¶73): the branch is lost.  Its page and WHY-NOT say so, beside the board's values
    key = "j2c-wenshu-queming"
    own = "初傳 所乘之將 為 朱雀，初傳 所臨（此條不載）"
    assert own in conditions_in_words(kb, kb.entries[key])[1]
    got = {c["text"]: c for c in Q.explain(bare, key)["conditions"]}
    assert got[own]["facts"] == ["初傳 所乘之將 朱雀", "初傳 所臨 丑"] and not got[own]["held"]
    assert got[own]["lacks"] == {"zh": "此條不載 初傳 所臨，盤上無從成立",
                                 "ja": "この条は 初伝 の臨む所 を載せず、盤上に成立しようがない"}
    # read with the 排除法 variant, the row has its 巳: the cell is said, and nothing is "lost"
    r = judge(dict(BARE), variants={key: "paichu"})
    got = {c["text"]: c for c in Q.explain(r, key)["conditions"]}
    assert "初傳 所乘之將 為 朱雀，初傳 所臨 為 巳" in got and "lacks" not in got["初傳 所乘之將 為 朱雀，初傳 所臨 為 巳"]


def test_in_japanese(bare):
    rep = Q.explain(bare, "j2c-wenshu-queming")
    with in_lang("ja"):
        ja = to_text(dict(rep, lang="ja"))
    assert "「初伝所乗天将臨十二宮」により 初伝、初伝 の臨む所、初伝 に乗る天将 を読む" in ja, ja
    assert "此條" not in ja and "所臨" not in ja, ja


def test_no_line_is_read_off_the_engines_patterns(kb, bare):
    # the old pattern readers are gone: every WHY-NOT line is the model's
    import liuren.explain.reads as RD
    import liuren.explain.whynot as W
    assert not hasattr(W, "_item_conditions") and not hasattr(RD, "entry_lines")
    # a 神煞 row read through a reading rule (the model has no way of its own for it) is said by its
    # page's lines alone, judged, each failed one with the board's values or what the board lacks
    from liuren.knowledge.meaning import meaning_of
    m, fired, n = meaning_of(kb), bare.fired_ids(), 0
    for key in sorted(k for k in kb.rows if k.startswith("sha-") and k not in m.entries and k not in fired
                      and reporting_rule(kb, k)[0] is not None)[:6]:
        rep = Q.explain(bare, key)
        assert rep["board"] == [] and rep["conditions"], key
        assert all(c["held"] or c["facts"] or c.get("lacks") for c in rep["conditions"]), (key, rep["conditions"])
        n += 1
    assert n == 6
