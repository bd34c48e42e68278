"""The audit's report (issue 27 §4, §6): conflicts across kinds and about the board as a whole,
tones beside redundancy and subsumption, trivial nestings dropped, findings ranked with
file:line and a `liuren judge` command that reproduces them, --baseline, --html, --rules."""
import json
import shutil
import textwrap

import pytest

from liuren.cli.main import main
from liuren.explain.audit import audit, judge_argv
from liuren.knowledge.kbload import packaged_kb_dir

from test_audit import PLANTED

MORE = """\
  - id: t-whole-good
    name: 全盤吉
    kind: 畢法
    valence: 吉
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 日: {陰陽: 陽}
  - id: t-whole-bad
    name: 全盤凶
    kind: 格
    valence: 凶
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 日: {陰陽: 陽}
      - 晝夜: {晝夜: 晝}
  - id: t-kt
    name: 課體凶
    kind: 課體
    valence: 凶
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: $a}
      - test: {eq: [$a, 午]}
  - id: t-mix2-ji
    name: 混吉二
    kind: 格
    valence: 吉
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 末傳, 支: 酉}
  - id: t-mix2-xiong
    name: 混凶二
    kind: 格
    valence: 凶
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 末傳, 支: 酉}
  - id: t-mix-ji
    name: 混吉
    kind: 格
    valence: 吉
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 末傳, 支: 卯}
  - id: t-mix-xiong
    name: 混凶
    kind: 格
    valence: 凶
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 末傳, 支: 卯}
  - id: t-broad
    name: 廣
    kind: 格
    valence: 平
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: $_x}
      - not: {位: {位: 初傳, 支: 子}}
"""


DECL = """\
tables:
  - id: declared-conflicts
    name: 宣告之相反
    kind: 總則表
    columns: [甲, 乙]
    reading: 試。
    rows:
      - id: t-decl-glob
        name: 全盤合參
        甲: [t-mix-*]
        乙: [t-mix-*]
        reading: 試。
        source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
      - id: t-decl-mix2
        name: 一位二名
        甲: t-mix2-ji
        乙: t-mix2-xiong
        reading: 試。
        source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
"""


def _kb(root, extra=""):
    d = root / "kb"
    shutil.copytree(packaged_kb_dir() / "core", d / "core")
    (d / "planted.yaml").write_text(textwrap.dedent(PLANTED) + MORE + extra, encoding="utf-8")
    (d / "decl.yaml").write_text(DECL, encoding="utf-8")
    return d


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    return _kb(tmp_path_factory.mktemp("report"))


@pytest.fixture(scope="module")
def rep(kb):
    return audit(str(kb), months="1", daynight="day", progress=False, days=6, variants=False)


def _pairs(rep, k):
    return {(c["a"], c["b"]): c for c in rep["conflicts"][k]}


def test_board_wide_conflict(rep):
    # neither binds a branch: they are about the board as a whole, and are compared as such
    c = _pairs(rep, "undeclared")[("t-whole-bad", "t-whole-good")]
    assert c["subject"] == "（全盤）" and c["boards"] > 0


def test_conflict_across_kinds(rep):
    # a 課體 (凶) and a 格 (吉) about the same 初傳 午 meet
    assert ("t-good", "t-kt") in _pairs(rep, "undeclared")


def test_tones_in_redundancy_and_subsumption(rep):
    g = next(g for g in rep["redundant"] if set(g["rules"]) == {"t-mix-ji", "t-mix-xiong"})
    assert sorted(g["valences"]) == ["凶", "吉"]
    f = next(f for f in rep["findings"] if f["check"] == "redundant"
             and {e["id"] for e in f["entries"]} == {"t-mix-ji", "t-mix-xiong"})
    assert f["severity"] == "error" and {e["valence"] for e in f["entries"]} == {"吉", "凶"}
    # the same two conditions declared by both ids: the book names one place twice, not an error
    two = next(f for f in rep["findings"] if f["check"] == "redundant"
               and {e["id"] for e in f["entries"]} == {"t-mix2-ji", "t-mix2-xiong"})
    assert two["severity"] == "warning" and [c["id"] for c in two["covered_by"]] == ["t-decl-mix2"]
    assert "已宣告：t-decl-mix2" in two["message"]
    dup = next(f for f in rep["findings"] if f["check"] == "redundant"
               and {e["id"] for e in f["entries"]} == {"t-dup-1", "t-dup-2"})
    assert dup["severity"] == "warning"                  # the same tone, one book
    s = next(x for x in rep["subsumed"] if x["narrow"] == "t-declared" and x["broad"] == "t-good")
    assert s["narrow_valence"] == "凶" and s["broad_valence"] == "吉"


def test_trivial_nestings_dropped(rep):
    # t-broad fires on 11 of 12 初傳: what lies inside it says nothing
    assert rep["firing_counts"]["t-broad"] * 2 > rep["firing_universe"]["t-broad"]
    assert not any(x["broad"] == "t-broad" for x in rep["subsumed"])
    assert rep["space"]["trivial_nestings_dropped"] > 0


def test_findings_ranked_with_file_and_line(rep, kb):
    fs = rep["findings"]
    order = {"error": 0, "warning": 1, "note": 2}
    keys = [(order[f["severity"]], -f["boards"]) for f in fs]
    assert keys == sorted(keys) and fs[0]["severity"] == "error"
    lines = (kb / "planted.yaml").read_text(encoding="utf-8").splitlines()
    for f in fs:
        for e in f["entries"]:
            if e["file"] == "planted.yaml":
                assert f"id: {e['id']}" in lines[e["line"] - 1]


def test_printed_command_reproduces_each_conflict(rep, kb, capsys):
    cs = rep["conflicts"]["declared"] + rep["conflicts"]["undeclared"]
    assert len(rep["conflicts"]["declared"]) >= 1 and len(cs) >= 4
    for c in cs:
        assert c["command"].startswith("liuren judge ") and "--kb" in c["command"]
        assert main(judge_argv(c["board"], str(kb)) + ["--json"]) == 0
        fired = {f["rule"] for f in json.loads(capsys.readouterr().out)["fired"]}
        assert {c["a"], c["b"]} <= fired, c["command"]


def test_nothing_cut_silently(rep, tmp_path):
    from liuren.explain.audit import LIMIT, markdown, html_report
    big = dict(rep, findings=rep["findings"] * (LIMIT // max(1, len(rep["findings"])) + 2))
    md = markdown(big)
    assert f"{LIMIT} of {len(big['findings']):,} findings shown; --all for the rest" in md
    assert "--all for the rest" not in markdown(big, all_=True).split("## Declared")[0]
    assert f"{LIMIT} of {len(big['findings']):,} findings shown" in html_report(big)


def test_baseline_reports_new_and_gone(kb, tmp_path, capsys):
    base = tmp_path / "base.json"
    args = ["audit", "--months", "1", "--daynight", "day", "--days", "6", "--quiet", "--no-variants", "--all"]
    main(args + ["--kb", str(kb), "--baseline", str(base)])
    assert base.exists() and "baseline saved" in capsys.readouterr().out
    # the same KB: nothing new, exit 0 even though it has errors
    assert main(args + ["--kb", str(kb), "--baseline", str(base)]) == 0
    assert "0 new (0 errors), 0 gone" in capsys.readouterr().out
    # an opposite-tone copy of a rule: a new error, exit 1; the fixed one gone
    edited = _kb(tmp_path / "e", """\
  - id: t-good-copy
    name: 吉象之反
    kind: 格
    valence: 凶
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: $a}
      - test: {in: [$a, [子, 午]]}
""".replace("t-kt", "t-kt"))
    text = (edited / "planted.yaml").read_text(encoding="utf-8")
    (edited / "planted.yaml").write_text(text.replace("      - 位: {位: 末傳, 支: 卯}\n  - id: t-broad",
                                                      "      - 位: {位: 末傳, 支: 辰}\n  - id: t-broad"),
                                         encoding="utf-8")
    assert main(args + ["--kb", str(edited), "--baseline", str(base)]) == 1
    out = capsys.readouterr().out
    assert "new error conflict (undeclared)" in out and "t-good-copy" in out
    gone = out.split("\n  gone ", 1)[1]
    assert "error redundant" in gone and "t-mix-xiong" in gone      # 混吉/混凶 no longer fire alike


def test_bad_baseline(tmp_path, capsys):
    bad = tmp_path / "x.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    assert main(["audit", "--days", "1", "--baseline", str(bad), "--quiet"]) == 2
    assert "not a saved audit run" in capsys.readouterr().err


def test_html_file(kb, tmp_path, capsys):
    out = tmp_path / "a.html"
    main(["audit", "--kb", str(kb), "--months", "1", "--daynight", "day", "--days", "2", "--quiet", "--no-variants",
          "--html", str(out)])
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>") and "t-whole-good" in text and "planted.yaml:" in text


def test_rules_mode_gives_what_the_whole_audit_gives_for_them(kb, rep):
    one = audit(str(kb), months="1", daynight="day", progress=False, days=6, variants=False, rules=["t-good"])
    mine = lambda r: {(c["a"], c["b"], c["boards"]) for k in ("declared", "undeclared")  # noqa: E731
                      for c in r["conflicts"][k] if "t-good" in (c["a"], c["b"])}
    assert mine(one) == mine(rep) and mine(one)
    assert {"t-bad", "t-declared", "t-kt"} <= set(one["met"])
    sub = lambda r: {(x["narrow"], x["broad"]) for x in r["subsumed"] if "t-good" in (x["narrow"], x["broad"])}  # noqa: E731
    # what nests inside it is the full audit's work: the 格 it meets there are named as not compared
    assert sub(one) <= sub(rep) and "t-declared" in one["not_compared"]
    assert one["firing_counts"]["t-good"] == rep["firing_counts"]["t-good"]
    assert main(["audit", "--kb", str(kb), "--rules", "t-nothing", "--quiet"]) == 2


def test_rules_mode_reuses_a_saved_run_for_what_the_edit_cannot_move(kb, rep, tmp_path):
    # with the full run saved (its counts and each entry's definition), --rules compares the met
    # rules the edit cannot have moved by their saved counts: what nests in t-good is compared too
    from liuren.explain.audit import save_run
    saved = tmp_path / "run.json"
    save_run(rep, saved)
    kw = dict(months="1", daynight="day", progress=False, days=6, variants=False, rules=["t-good"])
    one = audit(str(kb), prior=str(saved), **kw)
    assert one["counts_reused"] > 0 and "t-declared" not in one["not_compared"]
    sub = lambda r: {(x["narrow"], x["broad"]) for x in r["subsumed"] if "t-good" in (x["narrow"], x["broad"])}  # noqa: E731
    red = lambda r: {tuple(g["rules"]) for g in r["redundant"] if "t-good" in g["rules"]}  # noqa: E731
    assert sub(one) == sub(rep) and red(one) == red(rep)
    assert one["space"]["trivial_nestings_dropped"] >= 0
    # a met rule edited since the saved run is not taken from it: it is judged, or not compared
    k2 = _kb(tmp_path / "edited")
    text = (k2 / "planted.yaml").read_text(encoding="utf-8")
    (k2 / "planted.yaml").write_text(text.replace("name: 課體凶", "name: 課體凶之二"), encoding="utf-8")
    full = audit(str(k2), **dict(kw, rules=None))
    save_run(full, saved)
    (k2 / "planted.yaml").write_text(text.replace("name: 課體凶", "name: 課體凶之三"), encoding="utf-8")
    from liuren.knowledge.kbload import load_kb
    load_kb.cache_clear()
    two = audit(str(k2), prior=str(saved), **kw)
    assert two["counts_reused"] < one["counts_reused"] or "t-kt" not in one["met"]


SUBJECTS = """\
  - id: t-sha-ji
    name: 吉神臨午
    kind: 神煞
    valence: 吉
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: $a}
      - test: {eq: [$a, 午]}
  - id: t-ping-chu
    name: 初傳平
    kind: 格
    valence: 平
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: $a}
      - test: {in: [$a, [子, 午]]}
  - id: t-sum-ji
    name: 總而論吉
    kind: 畢法
    valence: 吉
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 判: {規: t-ping-chu}
"""


def test_subjects_inherited_and_shensha_weighed(tmp_path):
    k = _kb(tmp_path, SUBJECTS)
    r = audit(str(k), months="1", daynight="day", progress=False, days=6, variants=False)
    und, wei = _pairs(r, "undeclared"), _pairs(r, "weighed")
    # a branchless judgment resting on one about the 初傳 is about that branch: it meets 課體凶
    # (初傳 午) on 午, not as the whole board, and no longer meets 全盤凶 there
    c = und[("t-kt", "t-sum-ji")]
    assert c["subject"] == "午" and c["boards"] > 0
    assert ("t-sum-ji", "t-whole-bad") not in und and ("t-sum-ji", "t-whole-bad") not in wei
    # a 神煞 on 午 beside 課體凶 about 午: weighed, not an error; one counted line of the report
    assert ("t-kt", "t-sha-ji") in wei and ("t-kt", "t-sha-ji") not in und
    line = [f for f in r["findings"] if f["check"] == "conflict (weighed)"]
    assert len(line) == 1 and line[0]["severity"] == "note" and f"{len(wei):,} 對" in line[0]["message"]
    from liuren.explain.audit import markdown
    md = markdown(r)
    assert f"a 神煞 and an opposite judgment on one branch ({len(wei):,} pairs)" in md and "`t-sha-ji`" in md


def test_declared_pairs_name_their_declaration(rep, kb):
    dec = _pairs(rep, "declared")
    # declared on the rule itself (conflicts: [t-good]): that line, not a wildcard
    c = dec[("t-declared", "t-good")]
    cov = c["covered_by"][0]
    assert cov["how"] == "entry" and cov["file"] == "kb/planted.yaml" and not c["wildcard_only"]
    assert "conflicts:" in (kb / "planted.yaml").read_text(encoding="utf-8").splitlines()[cov["line"] - 1]
    # a glob row of declared-conflicts: its file:line, and counted as covered only by a wildcard
    g = dec[("t-mix-ji", "t-mix-xiong")]
    assert g["covered_by"][0]["id"] == "t-decl-glob" and g["wildcard_only"]
    assert "t-decl-glob" in (kb / "decl.yaml").read_text(encoding="utf-8").splitlines()[g["covered_by"][0]["line"] - 1]
    from liuren.explain.audit import declared_stats, markdown
    st = declared_stats(rep)
    assert st["wildcard_only"] == sum(1 for x in dec.values() if x["wildcard_only"]) and 0 < st["share"] < 1
    assert f"covered only by wildcard rows" in markdown(rep) and "decl.yaml:" in markdown(rep)


def test_real_kb_rules_mode_commands_reproduce_declared_conflicts(capsys):
    # the packaged KB, one rule, a small space: its conflicts (declared ones among them) each
    # come with a `liuren judge` command that shows both judgments on that board
    rep = audit(None, months="1", daynight="day", progress=False, days=1, variants=False, rules=["sha-cai"])
    assert len(rep["conflicts"]["declared"]) >= 3
    for c in rep["conflicts"]["declared"][:4] + rep["conflicts"]["undeclared"][:2]:
        assert main(judge_argv(c["board"]) + ["--json"]) == 0
        fired = {f["rule"] for f in json.loads(capsys.readouterr().out)["fired"]}
        assert {c["a"], c["b"]} <= fired, c["command"]
    for f in rep["findings"]:
        assert any(e["id"] == "sha-cai" for e in f["entries"])
        assert all(e["file"].startswith("kb/") and e["line"] > 0 for e in f["entries"])


def _findings_of(r, x):
    return sorted((f["key"], f["boards"]) for f in r["findings"] if any(e["id"] == x for e in f["entries"]))


def test_rules_mode_on_an_unchanged_kb_takes_where_the_rule_fires_from_the_saved_run(kb, rep, tmp_path):
    # the full run keeps where each entry fired beside it (FILE.firings): --rules on the same KB
    # reads the audited rule's boards from there instead of judging the space, and finds for it
    # what the full run found
    from liuren.explain.audit import firings_path, load_run, save_run
    saved = tmp_path / "run.json"
    save_run(rep, saved)
    assert firings_path(saved).exists()
    kw = dict(months="1", daynight="day", progress=False, days=6, variants=False)
    for x in ("t-good", "t-kt", "t-whole-good"):
        one = audit(str(kb), prior=str(saved), rules=[x], **kw)
        assert one["firings_reused"] == [x]
        assert one["firing_counts"][x] == rep["firing_counts"][x]
        assert _findings_of(one, x) == _findings_of(rep, x) and _findings_of(one, x)
        assert "1 where they fire" in one["steps"] and "2 what they meet (saved run)" in one["steps"]
    # without the file beside it, the same findings from judging the space
    firings_path(saved).unlink()
    assert "firing_sets" not in load_run(saved)
    one = audit(str(kb), prior=str(saved), rules=["t-good"], **kw)
    assert one["firings_reused"] == [] and _findings_of(one, "t-good") == _findings_of(rep, "t-good")


def test_rules_mode_judges_an_edited_rule_afresh(tmp_path):
    # the saved run holds for the KB as it was: after an edit of the rule's condition, where it
    # fires is judged again, and is what a full audit of the edited KB finds
    from liuren.explain.audit import save_run
    from liuren.knowledge.kbload import load_kb
    k = _kb(tmp_path)
    saved = tmp_path / "run.json"
    kw = dict(months="1", daynight="day", progress=False, days=3, variants=False)
    before = audit(str(k), **kw)
    save_run(before, saved)
    text = (k / "planted.yaml").read_text(encoding="utf-8")
    edited = text.replace("      - test: {in: [$a, [子, 午]]}", "      - test: {in: [$a, [子, 午, 卯]]}", 1)
    assert edited != text
    (k / "planted.yaml").write_text(edited, encoding="utf-8")
    load_kb.cache_clear()
    one = audit(str(k), prior=str(saved), rules=["t-good"], **kw)
    assert one["firings_reused"] == []
    after = audit(str(k), **kw)
    assert one["firing_counts"]["t-good"] == after["firing_counts"]["t-good"] > before["firing_counts"]["t-good"]
    assert _findings_of(one, "t-good") == _findings_of(after, "t-good")


def test_fill_dims_finds_the_base_board_of_a_year_board():
    # a rule that does not read the year fires on a year board as on the base board it was made
    # from, though the year names that month otherwise (壬寅 for 庚寅)
    from collections import Counter
    from liuren.explain.audit import _dim_of, _fill_dims, wide_space
    boards, _ = wide_space("all", "both", None, 1, None, ["year", "hour"])
    base = [i for i, b in enumerate(boards) if _dim_of(b) is None]
    filled = Counter(_dim_of(boards[i]) for i in _fill_dims(boards, len(boards), base, set()))
    assert filled == Counter({None: len(base), "hour": 12 * 11, "year": 12 * 11})


def _conflicts_of(r, x):
    return {(c["a"], c["b"], c["boards"], c["subject"], json.dumps(c["board"], sort_keys=True, ensure_ascii=False))
            for k in ("declared", "undeclared", "weighed") for c in r["conflicts"][k] if x in (c["a"], c["b"])}


def test_rules_mode_reads_what_an_unchanged_rule_meets_from_the_saved_run(kb, tmp_path):
    # the full run keeps its co-firing pairs beside it: on an unchanged KB, --rules reads the
    # audited rule's conflicts and the rules it meets from there (its second step judges nothing)
    # and finds for it what the full run found, nestings included (the met rules' own firing sets)
    from liuren.explain.audit import firings_path, save_run
    kw = dict(months="1", daynight="day", progress=False, days=6, variants=False)
    full = audit(str(kb), **kw)
    saved = tmp_path / "run.json"
    save_run(full, saved)
    side = json.loads(firings_path(saved).read_text(encoding="utf-8"))
    assert side["pairs"] and all(len(p) == 5 for p in side["pairs"])
    for x in ("t-good", "t-kt", "t-whole-good", "t-declared"):
        one = audit(str(kb), prior=str(saved), rules=[x], **kw)
        assert "2 what they meet (saved run)" in one["steps"], one["steps"]
        assert _conflicts_of(one, x) == _conflicts_of(full, x) and _conflicts_of(one, x)
        assert _findings_of(one, x) == _findings_of(full, x)
        assert one["not_compared"] == []
    # the same rule judged on its boards (no pairs kept beside the run) meets the same rules
    side.pop("pairs")
    firings_path(saved).write_text(json.dumps(side, ensure_ascii=False), encoding="utf-8")
    judged = audit(str(kb), prior=str(saved), rules=["t-good"], **kw)
    assert "2 what they meet" in judged["steps"]
    assert _conflicts_of(judged, "t-good") == _conflicts_of(full, "t-good")
    assert _findings_of(judged, "t-good") == _findings_of(full, "t-good")


def test_rules_mode_judges_the_pairs_of_an_edited_rule(tmp_path):
    # an edit of the audited rule (or of any judgment it could meet) and its pairs are judged
    # afresh, not read from the saved run: they are those of a fresh full audit of the edited KB
    from liuren.explain.audit import save_run
    from liuren.knowledge.kbload import load_kb
    k = _kb(tmp_path)
    saved = tmp_path / "run.json"
    kw = dict(months="1", daynight="day", progress=False, days=3, variants=False)
    save_run(audit(str(k), **kw), saved)
    text = (k / "planted.yaml").read_text(encoding="utf-8")
    edited = text.replace("      - test: {in: [$a, [子, 午]]}", "      - test: {in: [$a, [子, 午, 卯]]}", 1)
    (k / "planted.yaml").write_text(edited, encoding="utf-8")
    load_kb.cache_clear()
    one = audit(str(k), prior=str(saved), rules=["t-good"], **kw)
    after = audit(str(k), **kw)
    assert ("2 what they meet (edit's cone + saved run)" in one["steps"]) and "2 what they meet (saved run)" not in one["steps"]
    assert _conflicts_of(one, "t-good") == _conflicts_of(after, "t-good") and _conflicts_of(one, "t-good")
    assert _findings_of(one, "t-good") == _findings_of(after, "t-good")
    # an unchanged rule beside the edit: the edited rule could meet it, so it is judged too
    two = audit(str(k), prior=str(saved), rules=["t-kt"], **kw)
    assert "2 what they meet (saved run)" not in two["steps"]
    assert _conflicts_of(two, "t-kt") == _conflicts_of(after, "t-kt")


ASKED_ON_GOOD = """\
  - id: t-asked-bad
    name: 問而論凶
    kind: 占驗
    valence: 凶
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 問: {問: 試問}
      - 判: {規: t-good}
"""


def test_rules_mode_meets_on_the_boards_of_a_question_whose_network_holds_it(tmp_path):
    # a rule that is not itself brought out by a question fires on that question's boards when
    # the question's network rests on it, and meets there what only the question brings out:
    # --rules holds those boards, so its pairs are the full run's, read or judged
    from liuren.explain.audit import firings_path, save_run
    k = _kb(tmp_path, ASKED_ON_GOOD)
    kw = dict(months="1", daynight="day", progress=False, days=3, variants=False)
    full = audit(str(k), **kw)
    assert any("t-asked-bad" in (c[0], c[1]) for c in _conflicts_of(full, "t-good"))
    saved = tmp_path / "run.json"
    save_run(full, saved)
    read = audit(str(k), prior=str(saved), rules=["t-good"], **kw)
    assert "試問" in read["space"]["question_spaces"] and "2 what they meet (saved run)" in read["steps"]
    assert _conflicts_of(read, "t-good") == _conflicts_of(full, "t-good")
    firings_path(saved).unlink()
    judged = audit(str(k), prior=str(saved), rules=["t-good"], **kw)
    assert _conflicts_of(judged, "t-good") == _conflicts_of(full, "t-good")
    # a rule no question's network holds: no question's boards
    assert audit(str(k), prior=str(saved), rules=["t-whole-good"], **kw)["space"]["question_spaces"] == {}
