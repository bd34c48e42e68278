"""`liuren audit --rules` after an edit of table cells read by the day (issue 27, Speed): the saved
run keeps each row's facts, so an edit is known as the facts it changed; a table every reader of
which joins to the day's stem (神煞 by 日干) is read on those stems' days only, and every other
board is taken from the saved run as it was.  Each test compares with a fresh full audit of the
edited KB, and with the same `--rules` judging every board."""
import json

from liuren.casting.symbols import JIAZI
from liuren.explain.audit import _unchanged, audit, load_run, reuse_key, save_run
from liuren.knowledge.kbload import load_kb
from liuren.knowledge.kblint import dependency_graph

from test_audit_edit import EDIT, KW, Q, _edited_kb
from test_audit_report import _conflicts_of, _findings_of

# marks placed by the day's stem (as 日干神煞起例 places 財): a row's cells pair a 干 with its 支
STEM = f"""\
tables:
  - id: t-stem-marks
    name: 試干標表
    kind: 格表
    reported: 格
    columns: [名, 干, 支]
    rows:
      - id: t-smark-a
        name: 干標甲
        名: 干甲
        each:
          - {{干: 甲, 支: [子, 午]}}
          - {{干: 乙, 支: [卯]}}
          - {{干: 丙, 支: [酉]}}
        reading: 試。
        valence: 吉
        source: {Q}
rules:
  - id: t-place-smark
    name: 置干標
    kind: 起例
    source: {Q}
    when:
      - 日: {{干: $g}}
      - 位: {{位: 初傳, 支: $b}}
      - t-stem-marks: {{名: $n, 干: $g, 支: $b, id: $r}}
    then:
      - 試標: {{名: $n, 支: $b, 源: $r}}
"""
assert "試標" in EDIT          # (the derived fact and the family rule that reports it: test_audit_edit's)


def _stem_kb(tmp_path):
    k = _edited_kb(tmp_path)
    (k / "stem.yaml").write_text(STEM, encoding="utf-8")
    return k


def _edit(k, old, new):
    p = k / "stem.yaml"
    text = p.read_text(encoding="utf-8")
    assert old in text
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    load_kb.cache_clear()


def _run(tmp_path, old, new):
    k = _stem_kb(tmp_path)
    saved = tmp_path / "run.json"
    before = audit(str(k), **KW)
    save_run(before, saved)
    _edit(k, old, new)
    return k, saved, before


def test_an_edited_cell_is_judged_on_its_days_only(tmp_path, monkeypatch):
    # 甲 子 午 → 甲 子 午 寅: the facts it changed are of 甲; only the 甲 days are judged again
    k, saved, before = _run(tmp_path, "{干: 甲, 支: [子, 午]}", "{干: 甲, 支: [子, 午, 寅]}")
    one = audit(str(k), prior=str(saved), rules=["t-smark-a"], **KW)
    after = audit(str(k), **KW)
    assert set(one["edit_days"]) == {d for d in JIAZI if d[0] == "甲"}
    assert one["firing_counts"]["t-smark-a"] == after["firing_counts"]["t-smark-a"] \
        > before["firing_counts"]["t-smark-a"]
    assert _conflicts_of(one, "t-smark-a") == _conflicts_of(after, "t-smark-a") and _conflicts_of(one, "t-smark-a")
    # the same as when every board is judged again (the days not bounded)
    from liuren.explain import audit as A
    monkeypatch.setattr(A, "_edit_days", lambda *a: None)
    whole = audit(str(k), prior=str(saved), rules=["t-smark-a"], **KW)
    assert "edit_days" not in whole
    assert _conflicts_of(one, "t-smark-a") == _conflicts_of(whole, "t-smark-a")
    assert _findings_of(one, "t-smark-a") == _findings_of(whole, "t-smark-a")
    assert one["met"] == whole["met"] and one["firing_counts"] == whole["firing_counts"]


def test_a_fact_taken_away_is_judged_on_its_days(tmp_path):
    # 乙 卯 taken away: the facts the row had then count as changed as well as those it has now
    k, saved, before = _run(tmp_path, "          - {干: 乙, 支: [卯]}\n", "")
    one = audit(str(k), prior=str(saved), rules=["t-smark-a"], **KW)
    after = audit(str(k), **KW)
    assert set(one["edit_days"]) == {d for d in JIAZI if d[0] == "乙"}
    assert one["firing_counts"]["t-smark-a"] == after["firing_counts"]["t-smark-a"]
    assert _conflicts_of(one, "t-smark-a") == _conflicts_of(after, "t-smark-a")


def test_cells_swapped_between_facts_are_an_edit(tmp_path):
    # 乙 卯 / 丙 酉 → 乙 酉 / 丙 卯: each column keeps its values, the facts are others — the
    # saved run must not be taken as holding for the row
    k, saved, before = _run(tmp_path, "{干: 乙, 支: [卯]}\n          - {干: 丙, 支: [酉]}",
                            "{干: 乙, 支: [酉]}\n          - {干: 丙, 支: [卯]}")
    kb = load_kb(str(k))
    key = reuse_key(kb, str(k), "1", "day", {}, 3, None, True, True, None)
    u = _unchanged(kb, load_run(saved), key, dependency_graph(kb))
    assert not u("t-smark-a") and not u("t-place-smark")
    assert {f["干"] for f in u.changed_facts["t-stem-marks"]} == {"乙", "丙"}
    one = audit(str(k), prior=str(saved), rules=["t-smark-a"], **KW)
    after = audit(str(k), **KW)
    assert set(one["edit_days"]) == {d for d in JIAZI if d[0] in "乙丙"}
    assert one["firing_counts"]["t-smark-a"] == after["firing_counts"]["t-smark-a"]
    assert _conflicts_of(one, "t-smark-a") == _conflicts_of(after, "t-smark-a")


def test_a_table_read_other_than_by_the_day_is_judged_everywhere(tmp_path):
    # test_audit_edit's marks are placed by 初傳 alone: no day bounds them
    from test_audit_edit import _edit_row
    k = _edited_kb(tmp_path)
    saved = tmp_path / "run.json"
    save_run(audit(str(k), **KW), saved)
    _edit_row(k)
    one = audit(str(k), prior=str(saved), rules=["t-mark-a"], **KW)
    assert "edit_days" not in one
    side = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert any(x.startswith("facts:t-marks:") for x in side["reuse"]["digests"])
