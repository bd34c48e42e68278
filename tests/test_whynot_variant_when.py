"""Issue 28 §1: a variant with a `when:` of its own (三光 under 《觀月經》, 三陽 訂訛, 湊局 …) has its own
condition model: its rule page shows its lines, and the WHY-NOT under that variant (--variant ID=VARIANT,
variant= on the web) says those lines judged on the board, the board's own values beside the failed ones;
on a board where the variant fires, its lines hold."""
import re

import pytest

from liuren.app import queries as Q
from liuren.explain.conditions import conditions_in_words, way_lines
from liuren.explain.whynot import FactBase, model_conditions
from liuren.knowledge.kbload import load_kb
from liuren.knowledge.meaning import meaning_of
from liuren.rules.judging import judge

KB = load_kb()
M = meaning_of(KB)
VARIANTS = sorted(M.variants)
# where a variant fires on none of these, its WHY-NOT is asked on the first
BOARDS = [dict(day="丁卯", on="亥加丑", month="壬寅"), dict(day="甲子", on="子加子", month="庚寅"),
          dict(day="庚午", on="子加寅", month="甲午"), dict(day="癸酉", on="巳加亥", month="辛丑")]


# boards where a variant without a fires example of its own fires (found by judging the sixty days)
FIRES = {("dq10-huhuan-zuomu", "dinge"): dict(day="辛未", on="午加子", month="庚寅"),
         ("dq12-fa092", "wide"): dict(day="甲子", on="辰加子", month="庚寅"),
         ("j2c-qiancheng", "diben"): dict(day="甲子", on="子加子", month="庚寅")}


def _examples(eid, vid, kind="fires"):
    ex = KB.entries[eid].meta.get("examples") or {}
    got = [dict(x["board"]) for x in ex.get(kind) or [] if (x.get("board") or {}).get("variants", {}).get(eid) == vid]
    if kind == "fires" and (eid, vid) in FIRES:
        got.append({**FIRES[(eid, vid)], "variants": {eid: vid}})
    return got


def test_every_variant_with_its_own_when_has_a_model():
    want = {(e.id, v["id"]) for e in KB.rules.values() for v in e.variants if v.get("when") is not None}
    assert len(want) >= 10 and set(VARIANTS) == want
    for eid, vid in VARIANTS:
        assert M.requirement(eid, variant=vid) is not M.requirement(eid)
    # a variant changes the page's lines (三光 under 觀月經 does not read 日支)
    e = KB.entries["dq07-sanguang"]
    assert "日支旺衰 為 旺或相" in conditions_in_words(KB, e)[1]
    assert "日支旺衰 為 旺或相" not in conditions_in_words(KB, e, variant="guanyue")[1]
    assert "初傳旺衰 為 旺或相" in conditions_in_words(KB, e, variant="guanyue")[1]


@pytest.mark.parametrize("key", VARIANTS, ids=lambda k: f"{k[0]}={k[1]}")
def test_whynot_under_a_variant_says_its_own_lines(key):
    eid, vid = key
    extra = {k: v for b in _examples(eid, vid) for k, v in b.items() if k in ("question", "born", "sex")}
    rep = None
    for b in BOARDS:
        b = {**b, **({"year": 2026, "month": "庚寅"} if "born" in extra else {})}     # (丙午's own month)
        r = judge({**b, **extra, "variants": {eid: vid}})
        rep = Q.explain(r, eid)
        if not rep["fired"]:
            break
    assert not rep["fired"], (key, "fires on every board of the test")
    page = {x for way in way_lines(KB, KB.entries[eid], variant=vid)[1] for x in way}
    shown = conditions_in_words(KB, KB.entries[eid], variant=vid)[1]
    assert rep["conditions"], key
    for c in rep["conditions"]:
        assert c["text"] in page, (key, c["text"], page)
        assert any(c["text"] == x or c["text"] in x for x in shown), (key, c["text"], shown)
        for f in c["facts"] if c.get("on_board") else []:
            assert not re.search(r"某|\$|[A-Za-z]", f), (key, f)
    failed = [c for c in rep["conditions"] if not c["held"]]
    assert failed, (key, rep["conditions"])
    # at least one failed line says what the board has there (or, of a fact the board makes none of,
    # that it has none: 此盤無「四課缺一」)
    assert any(c.get("on_board") and c["facts"] or c.get("lacks") for c in failed), (key, failed)


@pytest.mark.parametrize("key", VARIANTS, ids=lambda k: f"{k[0]}={k[1]}")
def test_where_a_variant_fires_its_lines_hold(key):
    eid, vid = key
    assert _examples(eid, vid), key
    for b in _examples(eid, vid):
        r = judge(b)
        assert Q.explain(r, eid)["fired"], (key, b)
        got = model_conditions(KB, KB.entries[eid], FactBase(r.graph, KB), variant=vid)
        assert got, key
        assert all(c["held"] for c in got), (key, b, [c for c in got if not c["held"]])


def test_the_web_rule_page_shows_a_variants_lines_and_its_whynot():
    from fastapi.testclient import TestClient
    from liuren.web.app import create_app
    c = TestClient(create_app(None, warm=False))
    t = c.get("/rules/dq07-sanguang").text
    part = t[t.index("class=\"variants\""):]
    assert "初傳旺衰 為 旺或相" in part and "日支旺衰" not in part.split("</ul>")[0]
    q = "/board?day=丁卯&on=亥加丑&month=壬寅&why=dq07-sanguang&variant=dq07-sanguang%3Dguanyue"
    t = c.get(q).text
    assert "初傳旺衰 為 旺或相" in t and "日支旺衰 為 旺或相" not in t
    rep = c.get("/api/why/dq07-sanguang?day=丁卯&on=亥加丑&month=壬寅&variant=dq07-sanguang%3Dguanyue").json()
    texts = [x["text"] for x in rep["conditions"]]
    assert "初傳旺衰 為 旺或相" in texts and "日支旺衰 為 旺或相" not in texts, texts
