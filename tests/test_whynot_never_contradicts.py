"""Issue 28 §1: a WHY-NOT line never contradicts the judgment.  On every board of a sample, for every entry
that fires there, each line of its rule page judged on the board (explain.whynot.model_conditions) holds:
the lines are judged on the binding the rule holds by (of several ways, the one the board meets; of several
bindings, 用神 辰 or 陰神 申, the one where the lines hold), and a value a table gives from the board's
(日干所屬局, the third 支 of a 局) or a judgment the board formed is looked up, never taken as missing.
新舊起例 on 庚辰 辰加子 (it fires through 陰神 申 by 孟仲季) once showed its 剛日長生墓 way's ✗."""
import pytest

from liuren.app import queries as Q
from liuren.explain.whynot import FactBase, model_conditions
from liuren.rules.judging import judge

BOARDS = [dict(day="庚辰", on="辰加子", month="辛卯", year=2026, born=1980, sex="m"),
          dict(day="庚辰", on="辰加子"),
          dict(day="丁卯", on="亥加丑", month="庚寅"), dict(day="甲子", on="子加子", month="庚寅"),
          dict(day="壬午", on="巳加酉", month="甲午"), dict(day="己酉", on="子加午", month="丁酉"),
          dict(day="甲子", on="申加辰", month="壬午"), dict(day="乙丑", on="戌加酉", month="戊寅"),
          dict(day="丙寅", on="戌加子", night=False), dict(day="癸酉", on="巳加亥", month="辛丑"),
          dict(day="戊寅", on="午加寅", month="己未"), dict(day="辛亥", on="卯加未", month="丙申"),
          # 簾幕貴人 (dq11-fa003) read at 干上或本命或行年: the board's 天 卯 is also over 干陰, which it may not be
          dict(day="癸酉", on="申加丑", month="己亥", year=2026, born=1960, sex="m", night=False)]


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: f"{b['day']}{b['on']}{b.get('month', '')}")
def test_no_line_of_a_firing_entry_fails(board):
    r = judge(dict(board))
    kb = r.kb
    fb = FactBase(r.graph, kb)
    ids = sorted({f.report for f in r.fired} | {f.rule for f in r.fired})
    n, bad = 0, []
    for x in ids:
        e = kb.entries.get(x)
        got = model_conditions(kb, e, fb) if e is not None else None
        if not got:
            continue
        n += 1
        bad += [(x, c["text"]) for c in got if not c["held"]]
    assert n > 150, n
    assert not bad, bad


def test_xinjiu_on_gengchen():
    r = judge(dict(day="庚辰", on="辰加子"))
    assert Q.explain(r, "jzb-place-xinjiu")["fired"]
    got = model_conditions(r.kb, r.kb.entries["jzb-place-xinjiu"], FactBase(r.graph, r.kb))
    assert got and all(c["held"] for c in got), got

