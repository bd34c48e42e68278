"""What each condition means (knowledge.meaning) and the static checks of `liuren kb check` over it
(knowledge.kbstatic): the model's API on real rules, each fault injected into a copy of the KB and
named by `kb check` with file and line, and the findings of today's KB."""
import re

import pytest

from liuren.cli.main import main
from liuren.knowledge.kbload import load_kb
from liuren.knowledge.meaning import meaning_of


@pytest.fixture(scope="module")
def kb():
    return load_kb()


@pytest.fixture(scope="module")
def m(kb):
    return meaning_of(kb)


# ---------------------------------------------------------------- the model's API
def _reads(m, eid):
    return {(r.fact, r.at, r.field): r.needs for r in m.reads(eid)}


def test_fuyin_reads_the_gate(m):
    # 伏吟課, a row of 卷七's table of 課: what it needs is the gate, nothing of a position
    reads = _reads(m, "dq07-fuyin")
    assert reads[("傳", (), "門")] == frozenset({"伏吟"})
    assert not any(fact == "位" for fact, _, _ in reads)
    # the 初傳 it is about is read only to be named: not a requirement
    assert ("傳", (), "初") not in reads
    assert ("傳", (), "初") in {(r.fact, r.at, r.field) for r in m.reads("dq07-fuyin", free=True)}


def test_yuanshou_reads_gate_and_subtype(m):
    reads = _reads(m, "dq07-yuanshou")
    assert "賊克" in reads[("傳", (), "門")]
    assert reads[("傳", (), "體")] == frozenset({"元首"})


def test_jiaohe_reads_the_general_at_chuchuan(m):
    # 交合 (卷2): 初傳乘六合 — the general riding the 天盤 branch of 初傳
    reads = m.reads("j2c-jiaohe")
    gen = [r for r in reads if r.fact == "盤" and r.field == "將"]
    assert [(r.at, r.sort, r.needs) for r in gen] == [(("初傳",), "將", frozenset({"六合"}))]
    pos = [r for r in reads if r.fact == "位"]
    assert pos and all(r.at == ("初傳",) and r.sort == "天盤" for r in pos)
    # the join: the general's branch is 初傳's branch
    (branch,) = [r.var for r in reads if r.fact == "位" and r.field == "支"]
    assert [r.var for r in reads if r.fact == "盤" and r.field == "天"] == [branch]


def test_sanguang_reads_only_its_positions(m):
    reads = m.reads("dq07-sanguang")
    assert {p for r in reads for p in r.at} == {"初傳", "日干", "日支"}
    qi = {r.at: r.needs for r in reads if r.field == "氣"}
    assert qi == {("初傳",): frozenset({"旺", "相"}), ("日干",): frozenset({"旺", "相"}),
                  ("日支",): frozenset({"旺", "相"})}
    # the table of 吉將 is expanded into the generals allowed at 初傳
    gen = [r.needs for r in reads if r.fact == "盤" and r.field == "將"]
    assert gen == [frozenset({"貴人", "青龍", "太常", "太陰", "六合", "天后"})]


def test_a_named_row_reads_its_own_row(m):
    # 斬首, a row of the family 三傳空亡格: 初傳 void
    reads = m.reads("ge-zhanshou")
    assert {(r.fact, r.at) for r in reads} == {("位", ("初傳",)), ("空", ())}


def test_judgment_read_and_expanded(m):
    reads = m.reads("dq10-jingni")
    assert ("判", (), "規") in {(r.fact, r.at, r.field) for r in reads}
    expanded = {(r.fact, r.field) for r in m.reads("dq10-jingni", expanded=True)}
    assert ("日", "干") in expanded and ("傳", "初") in expanded and ("判", "規") not in expanded
    # settled from 卷十 ¶264 (issue 27 §3): 脫難殺 for a distress question, 鯨鯢歸澗 for the others —
    # neither is inside the other any more
    assert not m.narrower("dq10-jingni", "dq10-tuonan") and not m.narrower("dq10-tuonan", "dq10-jingni")


def test_implied_conditions_add_nothing(m):
    # 傳財化鬼's extra 日干克三傳 follows from the others: 催官符 (the same conditions, and since issue
    # 27 §3 the question 占官) is strictly inside it, not beside it
    assert m.narrower("dq11-cuiguan-fu", "dq11-fa027") and not m.equivalent("dq11-cuiguan-fu", "dq11-fa027")
    # 反射 now reads 丑酉巳 (卷2 ¶13): no longer 操會's 酉巳丑
    assert not m.equivalent("j2a-caohui", "j2a-fanshe")
    assert not m.equivalent("dq07-fuyin", "dq07-yuanshou")


def test_check_on_a_board(m):
    from liuren.rules.judging import judge
    j = judge({"day": "甲子", "on": "子加卯"})         # 元首: 賊克, 初傳 午 乘 青龍
    (way,) = m.check_on("dq07-fuyin", j.wm)
    gate = [c for c in way if c.read and c.read.field == "門"]
    assert [(c.value, c.needs, c.ok) for c in gate] == [("賊克", frozenset({"伏吟"}), False)]
    (way,) = m.check_on("j2c-jiaohe", j.wm)
    gen = [c for c in way if c.read and c.read.field == "將"]
    assert [(c.read.at, c.value, c.ok) for c in gen] == [(("初傳",), "青龍", False)]
    assert all(c.ok for c in m.check_on("dq07-yuanshou", j.wm)[0])


# ---------------------------------------------------------------- faults injected into a copy
# kbcopy: the copy of conftest.py (each file of the KB parsed once per worker, by its text)


def _block(text, eid):
    """The YAML block of a top-level rule (from its `  - id:` line to the next one)."""
    i = text.index(f"\n  - id: {eid}\n") + 1
    j = text.find("\n  - id: ", i + 1)
    k = text.find("\n\n", i)
    end = min(x for x in (j, k, len(text)) if x > 0)
    return text[i:end + 1]


def _add_copy(kbcopy, rel, eid, new_id, edit=lambda b: b):
    p = kbcopy / rel
    text = p.read_text(encoding="utf-8")
    block = _block(text, eid)
    copy = edit(block.replace(f"  - id: {eid}\n", f"  - id: {new_id}\n", 1))
    assert copy != block
    text = text.replace(block, block + "\n" + copy, 1)
    p.write_text(text, encoding="utf-8")
    return text[:text.index(f"  - id: {new_id}\n")].count("\n") + 1


def _check(kbcopy, capsys, *extra):
    code = main(["kb", "check", "--update-manifest", "--kb", str(kbcopy), *extra])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err


def test_a_duplicate_under_a_new_id(kbcopy, capsys):
    line = _add_copy(kbcopy, "daquan/juan07-c-duan.yaml", "dq07-gaogai", "dq07-gaogai-copy")
    code, _, err = _check(kbcopy, capsys)
    assert code == 2
    hits = [ln for ln in err.splitlines() if "redundant" in ln and "dq07-gaogai-copy" in ln]
    assert hits and f"kb/daquan/juan07-c-duan.yaml:{line}" in hits[0] and "dq07-gaogai (" in hits[0], err[-2000:]
    assert "one book" in hits[0]


def test_a_duplicate_written_otherwise(kbcopy, capsys):
    # the same condition with the variables renamed, the items in another order and a 克 that
    # follows from the others (the tests' 午卯子 as literals): still the same
    def edit(b):
        return b.replace("""      - 傳: {初: $a, 中: $b, 末: $c}
      - test: {eq: [$a, 午]}
      - test: {eq: [$b, 卯]}
      - test: {eq: [$c, 子]}
""", """      - test: {eq: [$z, 子]}
      - 傳: {初: $x, 中: $y, 末: $z}
      - test: {eq: [$y, 卯]}
      - test: {eq: [$x, 午]}
      - 沖: [$x, $z]
""").replace("about: [$a, $b, $c]", "about: [$x, $y, $z]")
    _add_copy(kbcopy, "daquan/juan07-c-duan.yaml", "dq07-gaogai", "dq07-gaogai-copy", edit)
    code, _, err = _check(kbcopy, capsys)
    assert code == 2
    assert any("redundant" in ln and "dq07-gaogai-copy" in ln and "dq07-gaogai (" in ln for ln in err.splitlines()), err[-2000:]


def test_a_narrower_copy(kbcopy, capsys):
    def edit(b):
        return b.replace("      - test: {eq: [$c, 子]}\n", "      - test: {eq: [$c, 子]}\n      - 晝夜: {晝夜: 晝}\n")
    _add_copy(kbcopy, "daquan/juan07-c-duan.yaml", "dq07-gaogai", "dq07-gaogai-day", edit)
    code, out, err = _check(kbcopy, capsys, "--notes")
    assert code == 0, err[-2000:]
    hits = [ln for ln in out.splitlines() if "subsumed" in ln and "dq07-gaogai-day" in ln]
    assert hits and "dq07-gaogai (" in hits[0] and hits[0].startswith("note: kb/daquan/juan07-c-duan.yaml:")
    # without --notes: counted, never cut silently
    code, out, _ = _check(kbcopy, capsys)
    assert re.search(r"\d+ note subsumed", out) and "--notes" in out


def test_an_opposite_tone_copy_in_the_same_book(kbcopy, capsys):
    # a dq11- id: no glob of conflicts.yaml may declare it before it exists
    line = _add_copy(kbcopy, "daquan/juan11-d.yaml", "dq11-cuiguan-fu", "dq11-cuiguan-fu-x",
                     lambda b: b.replace("    valence: 吉\n", "    valence: 凶\n", 1))
    code, _, err = _check(kbcopy, capsys)
    assert code == 2
    hits = [ln for ln in err.splitlines() if "conflict" in ln and "dq11-cuiguan-fu-x" in ln and "dq11-cuiguan-fu (" in ln]
    assert hits and "opposite tones" in hits[0] and f"juan11-d.yaml:{line}" in hits[0], err[-2000:]


def test_a_narrow_declaration_answers_for_the_pair(kbcopy, capsys):
    _add_copy(kbcopy, "daquan/juan11-d.yaml", "dq11-cuiguan-fu", "dq11-cuiguan-fu-x",
              lambda b: b.replace("    valence: 吉\n", "    valence: 凶\n    conflicts: [dq11-cuiguan-fu]\n", 1))
    code, _, err = _check(kbcopy, capsys)
    assert not [ln for ln in err.splitlines() if "conflict" in ln and "dq11-cuiguan-fu-x" in ln], err[-2000:]


def test_a_position_with_two_fixed_values(kbcopy, capsys):
    line = _add_copy(kbcopy, "daquan/juan07-c-duan.yaml", "dq07-gaogai", "dq07-gaogai-never",
                     lambda b: b.replace("    when:\n", "    when:\n      - 位: {位: 初傳, 支: 子}\n      - 位: {位: 初傳, 支: 午}\n", 1))
    code, _, err = _check(kbcopy, capsys)
    assert code == 2
    # named as impossible by the model, or, earlier, by the loader's check of test values
    hits = [ln for ln in err.splitlines() if ("impossible" in ln or "is not a value" in ln) and "dq07-gaogai-never" in ln]
    assert hits and f"kb/daquan/juan07-c-duan.yaml:{line}:" in hits[0] and "初傳" in hits[0], err[-2000:]


def test_a_test_no_binding_passes(kbcopy, capsys):
    # a branch compared with a stem (a value outside the branch's domain): no board passes
    line = _add_copy(kbcopy, "daquan/juan07-c-duan.yaml", "dq07-gaogai", "dq07-gaogai-never",
                     lambda b: b.replace("      - test: {eq: [$a, 午]}\n", "      - test: {eq: [$a, 甲]}\n", 1))
    code, _, err = _check(kbcopy, capsys)
    assert code == 2
    # named as impossible by the model, or, earlier, by the loader's check of test values
    hits = [ln for ln in err.splitlines() if ("impossible" in ln or "is not a value" in ln) and "dq07-gaogai-never" in ln]
    import re
    at = re.search(r"kb/daquan/juan07-c-duan\.yaml:(\d+):", hits[0]) if hits else None
    assert at and line <= int(at.group(1)) <= line + 40, err[-2000:]     # the entry's line, or its test's


def test_a_join_no_table_row_allows(kbcopy, capsys):
    # 日干 克 a stem of its own element: the tables of 五行 give no such row
    _add_copy(kbcopy, "daquan/juan11-d.yaml", "dq11-cuiguan-fu", "dq11-cuiguan-fu-never",
              lambda b: b.replace("      - 日: {干: $g}\n", "      - 日: {干: $g}\n      - 克: [$g, $g]\n", 1))
    code, _, err = _check(kbcopy, capsys)
    assert code == 2
    assert any("impossible" in ln and "dq11-cuiguan-fu-never" in ln for ln in err.splitlines()), err[-2000:]


def test_a_stale_declaration(kbcopy, capsys):
    p = kbcopy / "common/conflicts.yaml"
    text = p.read_text(encoding="utf-8")
    old = "          - {甲: dq11-cuiguan-fu, 乙: dq11-fa027}\n"
    assert old in text
    p.write_text(text.replace(old, old + "          - {甲: [j2b-*], 乙: [j9-nothing-*]}\n", 1), encoding="utf-8")
    code, _, err = _check(kbcopy, capsys)
    assert code == 2
    assert any("stale" in ln and "j9-nothing-*" in ln and "kb/common/conflicts.yaml:" in ln for ln in err.splitlines()), err[-2000:]


def test_a_declared_pair_that_can_never_meet(kbcopy, capsys):
    # 伏吟課 (gate 伏吟) declared in conflict with 元首課 (gate 賊克 / 返吟): they never meet
    p = kbcopy / "daquan/juan07-a-zongmen.yaml"
    text = p.read_text(encoding="utf-8")
    old = "      - id: dq07-fuyin\n        name: 伏吟課\n"
    assert old in text
    p.write_text(text.replace(old, old + "        conflicts: [dq07-yuanshou]\n", 1), encoding="utf-8")
    code, _, err = _check(kbcopy, capsys)
    assert code == 2
    assert any("stale" in ln and "dq07-fuyin" in ln and "dq07-yuanshou" in ln for ln in err.splitlines()), err[-2000:]


# ---------------------------------------------------------------- today's KB
def test_todays_kb(kb):
    """No error in today's KB, and nothing pending (kbstatic.PENDING is empty): every same-book
    duplicate is settled — the nine pairs of issue 27 §2 declared as "the book says both", each
    by a row quoting its passage."""
    from liuren.knowledge.kbstatic import PENDING, static_findings
    found = static_findings(kb)
    assert not [f.text() for f in found if f.severity == "error"]
    assert PENDING == frozenset()
    assert not [f.text() for f in found if "pending" in f.message]
    said_twice = {frozenset(e[0] for e in f.entries) for f in found
                  if f.code == "redundant" and "the book says both" in f.message}
    assert frozenset(("j2a-congji", "j2a-zhengyang")) in said_twice and len(said_twice) == 9
    opposite = {frozenset(e[0] for e in f.entries) for f in found if f.code == "conflict"}
    # the two opposite-tone pairs of issue 27 were settled from the text: none is left
    assert opposite == set()
    nested = {frozenset(e[0] for e in f.entries) for f in found if f.code == "nested-conflict"}
    assert nested and frozenset(("dq10-jingni", "dq10-tuonan")) not in nested
    # every finding names each entry with its file and line
    for f in found:
        assert all(path.startswith("kb/") and line > 0 for _, path, line in f.entries), f.text()


def test_no_same_rows_twice(kb):
    from liuren.knowledge.kblint import duplicate_tables
    assert duplicate_tables(kb) == []


def test_restates_declares_the_same_rows(kbcopy, capsys):
    p = kbcopy / "daquan/juan12-base.yaml"
    text = p.read_text(encoding="utf-8")
    old = "    restates: [dq10-guanshen]\n"
    assert old in text
    p.write_text(text.replace(old, "", 1), encoding="utf-8")
    code, _, err = _check(kbcopy, capsys)
    assert "the same rows are defined twice: dq10-guanshen" in err
    p.write_text(text.replace(old, "    restates: [dq10-guanshen-x]\n", 1), encoding="utf-8")
    code, _, err = _check(kbcopy, capsys)
    assert code == 2 and "restates names unknown table or row 'dq10-guanshen-x'" in err
