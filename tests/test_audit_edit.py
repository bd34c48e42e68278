"""`liuren audit --rules` after an edit (issue 27, Speed): the saved full run keeps each 吉/凶
judgment's boards by subject, so that after an edit only what the edit can move is judged (the
edit's cone) and the audited rule's pairs with every other judgment are an intersection with the
saved run.  Each test compares with a fresh full audit of the edited KB: the same pairs, the same
findings."""
import json

from liuren.explain.audit import audit, save_run
from liuren.knowledge.kbload import load_kb

from test_audit_report import _conflicts_of, _findings_of, _kb

Q = "[{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]"

# a table of marks whose named rows a placing rule turns into derived facts (as 神煞 rows become
# 煞 facts), a family rule that reports each row from those facts, a rule that reads only the
# facts of the row 乙, and a rule that asserts 不實 of the row 甲 on some boards
EDIT = f"""\
facts:
  - type: 試標
    fields: [名, 支, 源]
    text: "{{支}} 為{{名}}"
    doc: a planted derived fact for the tests
tables:
  - id: t-marks
    name: 試標表
    kind: 格表
    reported: 格
    columns: [名, 支]
    rows:
      - id: t-mark-a
        name: 標甲
        名: 甲
        支: [子, 午]
        reading: 試。
        valence: 吉
        source: {Q}
      - id: t-mark-b
        name: 標乙
        名: 乙
        支: [卯, 酉]
        reading: 試。
        valence: 凶
        source: {Q}
rules:
  - id: t-place-mark
    name: 置標
    kind: 起例
    source: {Q}
    when:
      - 位: {{位: 初傳, 支: $b}}
      - t-marks: {{名: $n, 支: $b, id: $r}}
    then:
      - 試標: {{名: $n, 支: $b, 源: $r}}
  - id: t-read-mark
    name: 見標
    kind: 格
    as: $r
    source: {Q}
    about: [$b]
    when:
      - 試標: {{支: $b, 源: $r}}
  - id: t-only-b
    name: 唯乙論凶
    kind: 畢法
    valence: 凶
    source: {Q}
    about: [$b]
    when:
      - 試標: {{名: 乙, 支: $b}}
  - id: t-defeat-a
    name: 甲不實
    kind: 總則
    source: {Q}
    when:
      - 判: {{規: t-mark-a}}
      - 位: {{位: 初傳, 支: 子}}
      - 日: {{陰陽: 陽}}
    then:
      - 不實: {{規: t-mark-a}}
"""

KW = dict(months="1", daynight="day", progress=False, days=3, variants=False)


def _edited_kb(tmp_path):
    k = _kb(tmp_path)
    (k / "edit.yaml").write_text(EDIT, encoding="utf-8")
    return k


def _edit_row(k):
    """Move the row 甲 (its 支 cells) as one edits a table row: 子 午 → 子 午 寅."""
    p = k / "edit.yaml"
    text = p.read_text(encoding="utf-8")
    new = text.replace("        支: [子, 午]\n", "        支: [子, 午, 寅]\n", 1)
    assert new != text
    p.write_text(new, encoding="utf-8")
    load_kb.cache_clear()


def _pairs_of(r, x):
    return {c[:4] for c in _conflicts_of(r, x)}


def test_an_edited_row_is_audited_on_the_edits_cone(tmp_path):
    k = _edited_kb(tmp_path)
    saved = tmp_path / "run.json"
    before = audit(str(k), **KW)
    save_run(before, saved)
    side = json.loads((tmp_path / "run.json.firings").read_text(encoding="utf-8"))
    # the full run keeps each 吉/凶 judgment's boards by tone and subject
    assert side["subjects"]["t-mark-a"]["吉"] and side["subjects"]["t-kt"]["凶"]
    _edit_row(k)
    one = audit(str(k), prior=str(saved), rules=["t-mark-a"], **KW)
    after = audit(str(k), **KW)
    # only the edit's cone was judged in step 2: the row, its family rule and what rests on
    # the row's facts; not the rule that reads only the row 乙's facts, nor 課體凶 (t-kt)
    assert "2 what they meet (edit's cone + saved run)" in one["steps"], one["steps"]
    cone = set(one["judged_again"])
    assert {"t-mark-a", "t-read-mark"} <= cone and not cone & {"t-only-b", "t-kt", "t-mark-b", "t-good", "t-bad"}
    # where it fires is judged again and is the fresh full audit's
    assert one["firing_counts"]["t-mark-a"] == after["firing_counts"]["t-mark-a"] \
        > before["firing_counts"]["t-mark-a"]
    # its pairs: those of a fresh full audit of the edited KB, one by one (count, first board, subject)
    assert _conflicts_of(one, "t-mark-a") == _conflicts_of(after, "t-mark-a")
    # a pair with a judgment outside the cone (凶象 t-bad, unchanged) is found by intersecting
    # the row's boards by subject with the saved run's
    assert "t-bad" not in cone and any("t-bad" in p[:2] for p in _pairs_of(one, "t-mark-a"))
    # its findings: the full audit's, but a nesting with a met rule of the cone narrower than it
    # (甲不實, which rests on it), listed as not compared (its count over the space is not judged)
    assert one["not_compared"] == ["t-defeat-a"]
    assert _findings_of(one, "t-mark-a") == [f for f in _findings_of(after, "t-mark-a") if "t-defeat-a" not in f[0]]


def test_the_same_as_the_whole_network_judging_its_boards(tmp_path, monkeypatch):
    from liuren.explain import audit as A
    k = _edited_kb(tmp_path)
    saved = tmp_path / "run.json"
    save_run(audit(str(k), **KW), saved)
    _edit_row(k)
    one = audit(str(k), prior=str(saved), rules=["t-mark-a"], **KW)
    monkeypatch.setattr(A, "_step2_partial_ok", lambda *a: False)
    whole = audit(str(k), prior=str(saved), rules=["t-mark-a"], **KW)
    assert "2 what they meet" in whole["steps"]
    assert _conflicts_of(one, "t-mark-a") == _conflicts_of(whole, "t-mark-a") and _conflicts_of(one, "t-mark-a")
    assert _findings_of(one, "t-mark-a") == _findings_of(whole, "t-mark-a")
    assert one["met"] == whole["met"]


def test_a_defeat_is_still_honoured(tmp_path):
    # 甲不實 defeats the row 甲 on 子 on a 陽 day: a defeated judgment meets nothing there, in
    # the saved run as after the edit (the defeating rule is judged with the row)
    k = _edited_kb(tmp_path)
    saved = tmp_path / "run.json"
    save_run(audit(str(k), **KW), saved)
    _edit_row(k)
    one = audit(str(k), prior=str(saved), rules=["t-mark-a"], **KW)
    assert "t-defeat-a" in one["judged_again"]
    k2 = _edited_kb(tmp_path / "nodefeat")
    p = k2 / "edit.yaml"
    p.write_text(p.read_text(encoding="utf-8").split("  - id: t-defeat-a")[0], encoding="utf-8")
    _edit_row(k2)
    undefeated = audit(str(k2), **KW)
    after = audit(str(k), **KW)
    # the defeat removes boards from its pairs (else the test would show nothing)
    count = lambda r: sum(c[2] for c in _conflicts_of(r, "t-mark-a"))  # noqa: E731
    assert count(after) < count(undefeated)
    assert _conflicts_of(one, "t-mark-a") == _conflicts_of(after, "t-mark-a")


def test_an_edit_of_one_row_leaves_its_siblings_unchanged(tmp_path):
    # the row 乙 (same table, other cells) and the rule that reads only its facts keep their
    # saved sets: its audit reads its pairs from the saved run
    k = _edited_kb(tmp_path)
    saved = tmp_path / "run.json"
    save_run(audit(str(k), **KW), saved)
    _edit_row(k)
    from liuren.explain.audit import _unchanged, reuse_key
    from liuren.explain.audit import load_run
    from liuren.knowledge.kblint import dependency_graph
    kb = load_kb(str(k))
    key = reuse_key(kb, str(k), "1", "day", {}, 3, None, True, True, None)
    u = _unchanged(kb, load_run(saved), key, dependency_graph(kb))
    assert not u("t-mark-a") and not u("t-read-mark") and not u("t-place-mark")
    assert u("t-mark-b") and u("t-only-b") and u("t-kt")
    after = audit(str(k), **KW)
    two = audit(str(k), prior=str(saved), rules=["t-mark-b"], **KW)
    assert two["firings_reused"] == ["t-mark-b"]
    assert _conflicts_of(two, "t-mark-b") == _conflicts_of(after, "t-mark-b")


ASKED = f"""\
  - id: t-asked-on-a
    name: 問而論甲凶
    kind: 占驗
    valence: 凶
    source: {Q}
    when:
      - 問: {{問: 試問}}
      - 判: {{規: t-mark-a}}
"""


def test_a_questions_boards_fire_as_their_base_boards(tmp_path):
    # a question whose network holds the row's family: the row fires on its boards as on their
    # base boards (step 1 takes them from there), and meets there what only the question brings out
    k = _edited_kb(tmp_path)
    p = k / "edit.yaml"
    p.write_text(p.read_text(encoding="utf-8") + ASKED, encoding="utf-8")
    saved = tmp_path / "run.json"
    kw = dict(KW, months="all", daynight="both", days=1)     # (every base board a question's board is made from)
    save_run(audit(str(k), **kw), saved)
    _edit_row(k)
    one = audit(str(k), prior=str(saved), rules=["t-mark-a"], **kw)
    after = audit(str(k), **kw)
    assert "試問" in one["space"]["question_spaces"] and one["question_boards_as_base"] > 0
    assert one["firing_counts"]["t-mark-a"] == after["firing_counts"]["t-mark-a"]
    assert any("t-asked-on-a" in c[:2] for c in _pairs_of(after, "t-mark-a"))
    assert _conflicts_of(one, "t-mark-a") == _conflicts_of(after, "t-mark-a")


def test_a_network_of_part_of_a_table_fires_as_the_whole_one_for_the_rows_it_keeps(tmp_path):
    # the row 甲's network needs only the table rows whose facts can reach it: the row 乙's
    # facts (名 乙) reach 唯乙論凶 and the row 乙, never the row 甲, so they are left out; the
    # network keyed with its rows fires the row 甲 (and its family rule's report of it) on every
    # board as the network of the whole table does
    from liuren.casting.cast import cast
    from liuren.explain import audit as A
    from liuren.knowledge.facts import board_facts
    from liuren.knowledge.kblint import dependency_graph
    from liuren.rules.compile import build
    from liuren.rules.judging import Recorder
    k = _edited_kb(tmp_path)
    kb = load_kb(str(k))
    rules = A.row_closure(kb, dependency_graph(kb), {"t-mark-a"})
    assert {"t-place-mark", "t-read-mark"} <= rules
    rows, inexact = A._rows_for(kb, {"t-mark-a"}, rules)
    assert dict(rows)["t-marks"] == ("t-mark-a",)
    assert "t-mark-a" not in inexact and "t-mark-b" in inexact
    # (its key says so: never the whole network's)
    assert A._net_within(rules, None, rows) != A._net_within(rules, None)
    part = build(kb, only=set(rules), rows=dict(rows))
    whole = build(kb, only=set(rules))

    def fired(eng, b):
        rec = Recorder(kb, eng.judged_consumed, eng)

        def on_fire(cr, act):
            new = rec.on_fire(cr, act)
            return rec.firings[-1], new
        eng.run_board(board_facts(b, None), on_fire, lambda f: None, incremental=False)
        return {(f.report, tuple(f.about)) for f in rec.firings if not f.internal}

    seen_a = seen_b = 0
    for day in ("甲子", "乙丑", "丙寅", "丁卯", "戊辰", "己巳"):
        for on in ("子加子", "卯加子", "午加子", "酉加子"):
            b = cast(day=day, on=on)
            p, w = fired(part, b), fired(whole, b)
            assert {x for x in p if x[0] == "t-mark-a"} == {x for x in w if x[0] == "t-mark-a"}
            seen_a += any(x[0] == "t-mark-a" for x in w)
            seen_b += any(x[0] == "t-mark-b" for x in w)
            assert not any(x[0] == "t-mark-b" for x in p)       # (the row left out: never there)
    assert seen_a and seen_b


# a second rule placing 試標, for the row 乙 only (源 written as it), from 末傳
OTHER_PLACER = f"""\
rules:
  - id: t-place-b-too
    name: 置乙標於末
    kind: 起例
    source: {Q}
    when:
      - 位: {{位: 末傳, 支: $b}}
      - t-marks: {{名: 乙, 支: $b}}
    then:
      - 試標: {{名: 乙, 支: $b, 源: t-mark-b}}
"""


def _fired_whole(kb, eng, b):
    """(the rows and rules that fire on board b, judged by the network eng)"""
    from liuren.knowledge.facts import board_facts
    from liuren.rules.judging import Recorder
    rec = Recorder(kb, eng.judged_consumed, eng)

    def on_fire(cr, act):
        new = rec.on_fire(cr, act)
        return rec.firings[-1], new
    eng.run_board(board_facts(b, None), on_fire, lambda f: None, incremental=False)
    return {(f.rule, f.report) for f in rec.firings if not f.internal}


def test_what_a_reported_row_needs_is_followed_by_value(tmp_path, monkeypatch):
    # 試標 has two producers, so without values nothing below the family rule is known to fire;
    # where 見標 reports 標甲, the 試標 it read carries 標甲, which 置乙標於末 (源 written 標乙)
    # never concludes: 置標 fired there.  Where it reports 標乙, either may have.
    from liuren.casting.cast import cast
    from liuren.explain import audit as A
    from liuren.rules.compile import build
    k = _edited_kb(tmp_path)
    (k / "other.yaml").write_text(OTHER_PLACER, encoding="utf-8")
    kb = load_kb(str(k))
    assert A._necessary(kb, {"t-read-mark"}) == {"t-read-mark"}
    assert A._necessary(kb, {"t-read-mark"}, ["t-mark-a"]) == {"t-read-mark", "t-place-mark"}
    assert A._necessary(kb, {"t-read-mark"}, ["t-mark-b"]) == {"t-read-mark"}
    # the whole network agrees, board by board (and shows why 標乙 gets no such bound)
    whole = build(kb)
    seen_a = b_alone = 0
    for day in ("甲子", "乙丑", "丙寅", "丁卯", "戊辰", "己巳"):
        for on in ("子加子", "丑加子", "寅加子", "卯加子", "辰加子", "巳加子", "午加子", "未加子", "申加子",
                   "酉加子", "戌加子", "亥加子"):
            got = _fired_whole(kb, whole, cast(day=day, on=on))
            if ("t-read-mark", "t-mark-a") in got:
                seen_a += 1
                assert ("t-place-mark", "t-place-mark") in got
            if ("t-read-mark", "t-mark-b") in got and ("t-place-mark", "t-place-mark") not in got:
                b_alone += 1
    assert seen_a and b_alone
    # and after an edit of 標甲, the audit that takes 置標 as firing on all its boards is the
    # audit that judges the whole cone there
    saved = tmp_path / "run.json"
    save_run(audit(str(k), **KW), saved)
    _edit_row(k)
    one = audit(str(k), prior=str(saved), rules=["t-mark-a"], **KW)
    assert "2 what they meet (edit's cone + saved run)" in one["steps"]
    monkeypatch.setattr(A, "_step2_partial_ok", lambda *a: False)
    whole_run = audit(str(k), prior=str(saved), rules=["t-mark-a"], **KW)
    assert _conflicts_of(one, "t-mark-a") == _conflicts_of(whole_run, "t-mark-a") and _conflicts_of(one, "t-mark-a")
    assert _findings_of(one, "t-mark-a") == _findings_of(whole_run, "t-mark-a")
    assert one["met"] == whole_run["met"]


# a family rule (課體) that reports 類甲 where a 試標 of 甲 is placed and 類丙 on every board: broader
# than the row 標甲, and an edit of 標甲 moves only its reports of 類甲
KINDS = f"""\
facts:
  - type: 試類
    fields: [名]
    text: "{{名}} 類"
    doc: a planted derived fact for the tests
tables:
  - id: t-kinds
    name: 試類表
    kind: 格表
    reported: 課體
    columns: [名]
    rows:
      - id: t-kind-x
        name: 類甲
        名: 甲
        reading: 試。
        valence: 吉
        source: {Q}
      - id: t-kind-z
        name: 類丙
        名: 丙
        reading: 試。
        valence: 吉
        source: {Q}
rules:
  - id: t-place-kind
    name: 置類
    kind: 起例
    source: {Q}
    when:
      - 試標: {{名: $n}}
    then:
      - 試類: {{名: $n}}
  - id: t-place-kind-all
    name: 置丙類
    kind: 起例
    source: {Q}
    when:
      - 日: {{陰陽: $_y}}
    then:
      - 試類: {{名: 丙}}
  - id: t-kind-read
    name: 見類
    kind: 課體
    as: $q
    source: {Q}
    when:
      - 試類: {{名: $n}}
      - t-kinds: {{名: $n, id: $q}}
"""


def test_a_broader_familys_moved_rows_are_walked_in_step_1(tmp_path, monkeypatch):
    # step 1 walks 類甲 too (見類 fired wherever 標甲 did in the saved run): step 3 then bounds
    # 見類 by its saved boards and 類甲's new ones instead of walking the space — the same
    # firings, findings and pairs as the walk of the space
    from liuren.explain import audit as A
    k = _edited_kb(tmp_path)
    (k / "kinds.yaml").write_text(KINDS, encoding="utf-8")
    saved = tmp_path / "run.json"
    save_run(audit(str(k), **KW), saved)
    _edit_row(k)
    one = audit(str(k), prior=str(saved), rules=["t-mark-a"], **KW)
    assert "t-kind-read" in one["met"] and one["judged_over_space"] == []
    monkeypatch.setattr(A, "_foreseen", lambda *a: set())
    walked = audit(str(k), prior=str(saved), rules=["t-mark-a"], **KW)
    assert walked["judged_over_space"] == ["t-kind-read", "t-kind-x"]      # (類甲 too: broader, moved)
    assert _findings_of(one, "t-mark-a") == _findings_of(walked, "t-mark-a")
    assert _conflicts_of(one, "t-mark-a") == _conflicts_of(walked, "t-mark-a")
    assert one["met"] == walked["met"] and one["not_compared"] == walked["not_compared"]
    # (and its pairs are those of a full audit of the edited KB)
    assert _conflicts_of(one, "t-mark-a") == _conflicts_of(audit(str(k), **KW), "t-mark-a")
