"""Issue 20: a rule's conditions in words, over the whole KB — no `$` ever shows; a family rule shown
for one of its rows puts in the row's values (斬首 is 「初傳 為旬空」); a variable is named by what it
stands for (the place it is read at, or 某支, 某干 …)."""
import pytest

from liuren.explain.conditions import conditions_in_words
from liuren.knowledge.kbload import load_kb


@pytest.fixture(scope="module")
def kb():
    return load_kb(None)


def test_no_dollar_in_any_rendered_condition(kb):
    seen = 0
    for e in kb.entries.values():
        family, conds = conditions_in_words(kb, e)
        if family is None:
            continue
        seen += 1
        assert conds, e.id
        for c in conds:
            assert "$" not in c and "~" not in c, (e.id, c)
    assert seen > 2000


def test_a_row_reads_with_its_own_values(kb):
    family, conds = conditions_in_words(kb, kb.entries["ge-zhanshou"])
    assert family.id != "ge-zhanshou"                 # reported by its family rule
    assert conds == ["初傳 為旬空"]


def test_variables_are_named_by_what_they_stand_for(kb):
    _, conds = conditions_in_words(kb, kb.entries["dq07-sanguang"])
    assert conds[0] == "初傳旺或相（時令）" and "乘 初傳 臨" in conds[1]
    _, conds = conditions_in_words(kb, kb.entries["dq08-fanchang"])
    assert conds == ["夫行年之干 合 妻行年之干", "夫行年 合 妻行年（六合）", "或（夫行年 為某｜妻行年 為某）"]
    _, conds = conditions_in_words(kb, kb.entries["jzb-cou-he-ge"])
    assert "某支①" in conds[0] and any("某支②" in c for c in conds)   # several of a kind are numbered


def test_the_rule_page_shows_them(kb):
    from fastapi.testclient import TestClient
    from liuren.web.app import create_app
    c = TestClient(create_app(None, warm=False))
    t = c.get("/rules/ge-zhanshou").text
    assert "<li>要 初傳 為旬空</li>" in t and "$" not in t.split("<ol class=\"conditions\">")[1].split("</ol>")[0]
