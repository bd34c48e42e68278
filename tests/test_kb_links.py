"""Issue 24: the links between rules — one definition of each term, no stale notes or dead
pointers, readings with their conditions, question names that meet, findings a reader can use."""
import functools
import json

import pytest

from engine import judge
from engine.kbload import load_kb

KB = load_kb()


@functools.lru_cache(maxsize=None)
def _judge(board_json):
    return judge(json.loads(board_json))


def J(**board):
    return _judge(json.dumps(board, ensure_ascii=False, sort_keys=True))


COUJU = {"j2b-place-ju-ganzhi": "couju"}


# ---------------------------------------------------------------- 1. wrong

@pytest.mark.parametrize("variants", [{}, COUJU])
def test_guanju_not_on_bingyin_xu_over_zi(variants):
    """丙寅 戌加子: 三傳 丑亥酉, the void 亥 is 丙's 官鬼, not in the 財局 巳酉丑: no 鰥居."""
    j = J(day="丙寅", on="戌加子", month="丙寅", variants=variants)
    ids = j.fired_ids()
    assert not any(i.startswith("j2c-guanju") for i in ids), sorted(i for i in ids if "guanju" in i)
    assert "鰥居" not in {f.name.split(":")[0] for f in j.judgments()}


@pytest.mark.parametrize("variants", [{}, COUJU])
def test_gu_ai_needs_the_void_inside_the_ju(variants):
    """乙丑 寅加子: 三傳 申戌子; the void 戌 is outside the 水局 申子辰: no 孤哀."""
    ids = J(day="乙丑", on="寅加子", month="癸酉", year="己巳", variants=variants).fired_ids()
    assert not any(i.startswith("j2c-gu-ai") for i in ids)


def _ju(j, kind):
    if kind == "b":
        return {f["局"] for f in j.wm if f["t"] == "方合局" and f["方"] == "三傳干支"}
    return {f["局"] for f in j.wm if f["t"] == "合局處" and f["處"] == "三傳干支合局"}


@pytest.mark.parametrize("variants", [{}, COUJU])
@pytest.mark.parametrize("day, on", [("乙丑", "寅加子"), ("丙寅", "戌加子"), ("丁卯", "辰加子"),
                                     ("甲子", "申加子"), ("辛未", "辰加子"), ("丁卯", "寅加子")])
def test_one_definition_of_sanchuan_ganzhi_heju(day, on, variants):
    """卷2 ¶27–37 (印綬…劫財) and ¶57–67 (及時…失群) read 三傳干支合局 from one rule."""
    j = J(day=day, on=on, month="丙寅", year="甲子", variants=variants)
    assert _ju(j, "b") == _ju(j, "c")


def test_sanchuan_ganzhi_heju_has_one_defining_rule():
    rule = KB.rules["j2c-place-heju-ganzhi"]
    assert [list(w.keys())[0] for w in rule.meta["when"]] == ["方合局"]
    assert "couju" in {v["id"] for v in KB.rules["j2b-place-ju-ganzhi"].variants}
