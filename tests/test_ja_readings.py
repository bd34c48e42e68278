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
