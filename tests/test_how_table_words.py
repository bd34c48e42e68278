"""Issue 28 §2: a HOW chain says a table row in words, never the key–value dump 「表」：X為Y.

Every table a chain reads has a form in explain.factwords.FORMS (zh and ja: 「據孟仲季，仲為半新」,
「孟仲季によれば仲は半新」), or, of one column, is said as a list it is one of (「末傳在「入占之位」之列」).
Over a sample of boards, no step of the HOW chain of any firing entry falls back to the generic form,
in either language; the tables a rule reads that are still left to it are bounded (and listed)."""
import re

import pytest

from liuren.app import queries as Q
from liuren.explain import factwords as FW
from liuren.explain.conditions import _patterns
from liuren.explain.render import localize
from liuren.knowledge.kbload import load_kb
from liuren.rules.judging import judge

KB = load_kb()
BOARDS = [dict(day="庚辰", on="辰加子", month="辛卯", year=2026, born=1980, sex="m"),
          dict(day="丁卯", on="亥加丑", month="庚寅", year=2026, born=1975, sex="f"),
          dict(day="甲子", on="子加子", month="庚寅"), dict(day="壬午", on="巳加酉", month="甲午", year=2026),
          dict(day="己酉", on="子加午", month="丁酉"), dict(day="辛亥", on="卯加未", month="丙申", year=2026, born=1990, sex="m"),
          dict(day="丙寅", on="戌加子", night=False), dict(day="癸酉", on="巳加亥", month="辛丑")]
# tables that a rule reads, of more than one column, whose rows some row still says in the generic form
LEFT_GENERIC_MAX = 0


def _generic(text, lang):
    m = re.match(r"^「([^」]+)」：(.*)$", text)
    if not m or m.group(1) not in {t.name for t in KB.tables.values()}:
        return False
    return bool(re.search("為" if lang == "zh" else "は", m.group(2)))


def _lines(rep):
    for r in [rep, *(rep.get("defeated_by") or [])]:
        for s in r.get("steps") or []:
            if s.get("step") != "cast":
                yield from s.get("matched") or []


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: f"{b['day']}{b['on']}")
def test_no_chain_line_is_a_key_value_dump(board):
    r = judge(dict(board))
    ids = sorted({f.report for f in r.fired} | {f.rule for f in r.fired})
    bad, rows = [], 0
    for x in ids:
        rep = Q.explain(r, x)
        if not rep.get("fired"):
            continue
        for lang in ("zh", "ja"):
            for line in _lines(localize(rep, r.kb, lang)):
                rows += 1
                if _generic(line, lang):
                    bad.append((x, lang, line))
    assert rows > 500
    assert not bad, bad[:20]


def test_the_new_and_old_of_xinjiu():
    r = judge(dict(day="庚辰", on="辰加子"))
    rep = Q.explain(r, "jzb-place-xinjiu")
    zh = list(_lines(localize(rep, r.kb, "zh")))
    ja = list(_lines(localize(rep, r.kb, "ja")))
    assert "據孟仲季，仲為半新" in zh and "「新舊之別」：據為孟仲季，鍵為仲，值為半新" not in zh
    assert "孟仲季によれば仲は半新" in ja
    assert not any("matched_ja" in s for s in localize(rep, r.kb, "zh")["steps"])


def test_a_one_column_table_says_its_list():
    assert FW.row_words(KB, {"t": "jz-ruzhan", "位": "末傳"}) == "末傳在「入占之位」之列"
    assert FW.row_words(KB, {"t": "jz-ruzhan", "位": "末傳"}, "ja") == "末傳は「入占之位」の一つ"


def test_every_form_has_both_languages_and_fits_its_table():
    for forms, cols_of in [(FW.FORMS, lambda t: set(KB.tables[t].columns)), (FW.SHAPES, lambda c: set(c) | {"table"})]:
        for t, f2 in forms.items():
            assert set(f2) == {"zh", "ja"}, t
            assert not isinstance(t, str) or t in KB.tables, t
            for lang, f in f2.items():
                for one in [f] if isinstance(f, str) else f:
                    assert set(re.findall(r"\{([^}]+)\}", one)) <= cols_of(t), (t, lang, one)


def test_every_row_of_every_table_a_rule_reads_is_said_in_words():
    """A walk over kb.tables: each row of each table a rule reads (one column or more, with no `text:` of
    its own), in zh and ja, is said by a form (its table's, or its columns' shape), never 「表」：X為Y."""
    read = set()
    for r in KB.rules.values():
        read |= {t for t, _ in _patterns(r.when)}
        for v in r.variants:
            if v.get("when") is not None:
                read |= {t for t, _ in _patterns(v["when"])}
    left, n = set(), 0
    for t in KB.tables.values():
        if t.fact_type not in read or t.meta.get("text"):
            continue
        for f in t.facts():
            for lang in ("zh", "ja"):
                n += 1
                if _generic(FW.row_words(KB, {"t": t.id, **f}, lang), lang):
                    left.add(t.id)
    assert n > 5000
    assert len(left) <= LEFT_GENERIC_MAX, sorted(left)


def test_the_web_page_in_ja_and_the_json_twins():
    from fastapi.testclient import TestClient
    from liuren.web.app import create_app
    c = TestClient(create_app(None, warm=False))
    q = "day=庚辰&on=辰加子&why=jzb-place-xinjiu"
    assert "孟仲季によれば仲は半新" in c.get(f"/board?{q}&lang=ja").text
    assert "據孟仲季，仲為半新" in c.get(f"/board?{q}").text
    for url in ("/api/why/jzb-place-xinjiu?day=庚辰&on=辰加子", f"/api/judge?{q}",
                "/api/why/jzb-place-xinjiu?day=庚辰&on=辰加子&lang=ja"):
        t = c.get(url).text
        assert "matched_ja" not in t and ("仲為半新" in t or "仲は半新" in t), url
