"""「X 見於 P」 means one thing (kb/README.md, "Positions and places"): a 天將 is seen at a position
only if it rides the 天盤 branch of that position's place — for 日干 and 日支 the general of 干上
and 支上.  Over the 720 lessons, every sighting the KB derives, and every aspect (所乘 所臨) of a
judgment, names the general that is really there."""
import pytest

from liuren import cast
from liuren import judge
from liuren.knowledge.facts import PLATE_OF_POSITION
from liuren.casting.symbols import BRANCHES, JIAZI

GENERALS = set("貴人 螣蛇 朱雀 六合 勾陳 青龍 天空 白虎 太常 玄武 太陰 天后".split())


def boards():
    for i, day in enumerate(JIAZI):
        for off in range(12):
            yield {"day": day, "jiang": BRANCHES[off], "hour": "子", "year": 2026, "born": 1990 + off,
                   "sex": "m" if i % 2 else "f", "night": bool((i + off) % 2), "month": "庚寅"}


def place_of(board, pos):
    b = board.positions()[pos]
    return b if PLATE_OF_POSITION[pos] == "天" else board.over(b)


@pytest.mark.parametrize("day", JIAZI)
def test_generals_are_seen_only_where_they_ride(day):
    mine = [x for x in boards() if x["day"] == day]
    assert mine, day
    for b in mine:
        r = judge(b)
        board = r.board
        seen = [d for d in r.wm if d["t"] == "見" and d.get("據") == "將"]
        assert seen, "every board has generals at its places"
        for d in seen:
            where = place_of(board, d["位"])
            assert d["支"] == where, (b, d)
            assert board.generals[where] == d["煞"], f"{b}: {d['煞']} said to be at {d['位']}, but " \
                f"{board.generals[where]} rides {where} there"
        for f in r.fired:
            for a in f.aspects:
                if a.get("plate") == "地":
                    assert a["rides"] == board.generals[board.over(a["branch"])], (b, f.report, a)
                    assert a["over"] == board.over(a["branch"])
                else:
                    assert a["rides"] == board.generals[a["branch"]], (b, f.report, a)
                    assert a["sits_on"] == board.under(a["branch"])
            if f.name in GENERALS and f.rule == "read-shensha":
                pos = f.bindings.get("$p")
                assert board.generals[place_of(board, pos)] == f.name, (b, f.name, pos)


def test_the_issue_board():
    # 丁卯日 巳加子: 丁 lodges at 未; 干上 is 子 (六合); 太陰 rides 天盤 未, which sits on 寅
    r = judge({"day": "丁卯", "on": "巳加子"})
    at_gan = {f.name for f in r.fired if f.rule == "read-shensha" and f.bindings.get("$p") == "日干"}
    assert "六合" in at_gan and "太陰" not in at_gan
    b = cast(day="丁卯", on="巳加子")
    assert b.generals[b.over("未")] == "六合" and b.generals["未"] == "太陰" and b.under("未") == "寅"


def test_positions_know_their_plate():
    b = cast(day="丁卯", on="巳加子")
    from liuren.knowledge.facts import board_facts
    pos = {d["位"]: d for d in board_facts(b) if d["t"] == "位"}
    assert (pos["日干"]["盤"], pos["日干"]["支"], pos["日干"]["天"], pos["日干"]["地"]) == ("地", "未", "子", "未")
    assert (pos["干上"]["盤"], pos["干上"]["天"], pos["干上"]["地"]) == ("天", "子", "未")
    assert (pos["占時"]["盤"], pos["占時"]["天"]) == ("地", "巳")
    assert pos["旬首"]["盤"] == "無" and "天" not in pos["旬首"]
