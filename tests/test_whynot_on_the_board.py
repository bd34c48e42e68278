"""Issue 20: WHY-NOT speaks of the board's own facts.  A failed condition about a named place (初傳,
干上 …) is said of the branch the board puts there — never of a branch the search found elsewhere —
over every rule that did not fire on sample boards."""
import itertools

import pytest

from liuren import judge
from liuren.app.queries import explain
from liuren.knowledge.conditions import VAR_RE, expand_macros

BOARDS = [{"day": "丁卯", "on": "亥加丑", "month": "壬寅"}, {"day": "甲子", "on": "申加子", "month": "丙寅"},
          {"day": "庚午", "on": "子加寅", "month": "戊戌"}]


def _placed(item):
    """(place, variable) of a top-level item that reads a branch at a named place."""
    k = next((x for x in item if x != "macro"), None)
    if k in (None, "all", "any", "not", "test") or not isinstance(item.get(k), dict):
        return None
    place, br = item[k].get("位"), item[k].get("支")
    if isinstance(place, str) and not VAR_RE.match(place) and isinstance(br, str) and VAR_RE.match(br):
        return place, br
    return None


@pytest.mark.parametrize("board", BOARDS, ids=[f"{b['day']}{b['on']}" for b in BOARDS])
def test_a_failed_condition_names_the_board_value(board):
    r = judge(board)
    positions = r.board.positions()
    fired = r.fired_ids()
    checked = 0
    rules = [x for x in r.kb.rules.values() if x.id not in fired and not x.as_var and not x.meta.get("question")]
    for rule in rules:
        items = expand_macros(rule.when if isinstance(rule.when, list) else [rule.when], r.kb.macros,
                              itertools.count())
        placed = [_placed(it) if isinstance(it, dict) else None for it in items]
        if not any(placed):
            continue
        rep = explain(r, rule.id)
        if rep.get("fired") or len(rep.get("conditions", [])) != len(items):
            continue
        for p, cond in zip(placed, rep["conditions"]):
            if p and not cond["held"] and positions.get(p[0]):
                checked += 1
                # said of the board's own branch there, or (a rule that wants another) the board's
                # branch there comes first among what the board has: 「要 日支 未；盤上最近者：日支 卯」
                own = positions[p[0]] in cond["text"]
                first = (cond["facts"] or [""])[0]
                assert own or (first.startswith(p[0]) and positions[p[0]] in first), \
                    (rule.id, p, cond["text"], cond["facts"][:2], positions[p[0]])
    assert checked > 10
