"""Issue 28 §6: the 斷 of an entry under ?lang=ja is the 日譯's (seed 002's even ¶) where its rendering
gives the phrase it reads the board by — 「…」と論ずる and 「…」に按じて論ずる alike."""
import pytest

from liuren.explain.words import ja_reading
from liuren.i18n import is_rendering
from liuren.knowledge.kbload import load_kb

KB = load_kb()


@pytest.mark.parametrize("eid,words", [
    ("ge-zhanshou", "事ありて開頭なし"),
    ("sha-yin", "扶助する所有り"),
    ("sha-gui", "官府詞訟"),
    ("sha-jie", "財物を損傷す"),
    ("sha-bing", "疾病"),
])
def test_the_rendering_gives_the_reading(eid, words):
    assert ja_reading(KB.entries[eid]) == words


def test_two_phrases_joined_by_or():
    got = ja_reading(KB.entries["ge-zhuolun"]) if "ge-zhuolun" in KB.entries else None
    assert got == "官印を接受し、車軒に乗坐す、または舟車器物を営造す"


def test_most_rendered_entries_carry_it():
    rendered = [e for e in KB.entries.values() if any(is_rendering(s) for s in e.source)]
    with_reading = [e for e in rendered if ja_reading(e)]
    assert len(with_reading) >= 50          # (3 before 「…」に按じて論ずる was read)


def test_a_classical_reading_has_none():
    assert ja_reading(KB.entries["dq07-sanguang"]) is None


def test_the_ja_page_shows_it():
    from fastapi.testclient import TestClient
    from liuren.web.app import create_app
    c = TestClient(create_app(None, warm=False))
    assert "扶助する所有り" in c.get("/rules/sha-yin?lang=ja").text
    assert "扶助する所有り" not in c.get("/rules/sha-yin").text


# the rendering's other phrasings of a 斷 (刑沖破害合, 旺相/休囚 of 數目 and 顏色, how a 類相 is taken)
@pytest.mark.parametrize("eid,words", [
    ("sha-xing-gan", "傷は「我」なり。また問う所の人を傷す"),          # 刑が日干に到るは、…
    ("sha-chong-zhi", "動は「相手」なり。また問う所の事を動かす"),
    ("sha-he-gan", "合は「我」なり。また問う所の人を合す"),
    ("duan-shumu-xiuqiu", "数を取るに少なきに往きて算す"),             # もし休・囚・死の地に処れば、…
    ("duan-yanse-wangxiang", "顔色は便ち鮮艶明亮にして新制の物のごとし"),  # the quote's ごとく, closed
    ("lx-yinshi", "何を食したか・席上に何あるかを占問すれば、便ち盤上の支に据えて之を取る"),
])
def test_the_other_phrasings(eid, words):
    e = KB.entries[eid]
    assert ja_reading(e) == words
    quotes = "".join(s["quote"] for s in e.source if is_rendering(s))
    core = words[:-1] if words.endswith(("す", "し")) else words
    assert core in quotes                     # the rendering's own words, never made up


def test_a_relation_gives_both_its_sides():
    got = ja_reading(KB.entries["sha-po"])
    assert got.startswith("破が日干に到るは、損は「我」なり。") and "破が日支に到るは、損は「相手」なり。" in got
    assert "吉凶" not in got and "破は虧折" not in got     # the judgment of each side, not the passage


def test_a_passage_stating_no_judgment_gives_none():
    # a definition, a list of images, a condition without its consequence
    for eid in ("zongze-fengkong-linkong", "lx-gongshi", "lx-qiyong", "zongze-jianchu"):
        assert ja_reading(KB.entries[eid]) is None, eid


def test_nearly_all_rendered_entries_carry_one_now():
    rendered = [e for e in KB.entries.values() if any(is_rendering(s) for s in e.source)]
    assert len([e for e in rendered if ja_reading(e)]) >= 70     # (51 from 「…」と論ずる alone)


def test_the_ja_page_shows_a_newly_read_one():
    from fastapi.testclient import TestClient
    from liuren.web.app import create_app
    c = TestClient(create_app(None, warm=False))
    assert "傷は「我」なり" in c.get("/rules/sha-xing-gan?lang=ja").text
    assert "傷は「我」なり" not in c.get("/rules/sha-xing-gan").text
