"""Issue 20: WHY-NOT speaks of the board's own facts.  A failed condition about a named place (初傳,
干上 …) is said of the branch the board puts there — never of a branch the search found elsewhere —
over every rule that did not fire on sample boards."""

import pytest

from liuren import judge
from liuren.app.queries import explain

BOARDS = [{"day": "丁卯", "on": "亥加丑", "month": "壬寅"}, {"day": "甲子", "on": "申加子", "month": "丙寅"},
          {"day": "庚午", "on": "子加寅", "month": "戊戌"}]


PLACES = ("初傳", "中傳", "末傳", "干上", "支上", "日支", "占時")


@pytest.mark.parametrize("board", BOARDS, ids=[f"{b['day']}{b['on']}" for b in BOARDS])
def test_a_failed_condition_names_the_board_value(board):
    # each condition is a line of the rule page judged on the board; the values it gives are the
    # board's own at the places it names (「初傳 寅」 where the board's 初傳 is 寅), never a branch
    # found elsewhere to satisfy the rest
    r = judge(board)
    positions = r.board.positions()
    fired = r.fired_ids()
    checked = 0
    rules = [x for x in r.kb.rules.values() if x.id not in fired and not x.as_var and not x.meta.get("question")]
    for rule in rules:
        rep = explain(r, rule.id)
        if rep.get("fired"):
            continue
        for cond in rep.get("conditions", []):
            if not cond.get("on_board"):
                continue
            for f in cond["facts"]:
                name, _, value = f.rpartition(" ")
                if name in PLACES and positions.get(name):
                    checked += 1
                    assert value == positions[name], (rule.id, cond["text"], f, positions[name])
    assert checked > 10
