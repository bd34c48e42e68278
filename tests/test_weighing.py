"""How the book weighs one judgment against the other tone (kb/common/weighing.yaml): a pair a row
answers for is listed as weighed by the book, under that row with its file:line, never as an
undeclared conflict; a pair the row does not name stays undeclared (an error within one book, a
warning across books); a rule that reads the other's judgment by name declares the pair itself; a row naming nothing, or a tone
its entry cannot oppose, is a stale declaration of `kb check`."""
import textwrap

from liuren.explain.audit import audit, markdown, weighs
from liuren.knowledge.kbload import load_kb
from liuren.knowledge.kbstatic import static_findings

from test_audit_report import _kb, _pairs

RULES = """\
  - id: t-w-de
    name: 試德
    kind: 斷
    valence: 吉
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: $a}
      - test: {in: [$a, [子, 午]]}
  - id: t-w-ji
    name: 試吉
    kind: 斷
    valence: 吉
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: $a}
      - test: {eq: [$a, 午]}
  - id: t-w-other
    name: 他書之吉
    kind: 格
    valence: 吉
    source: [{seed: 001_79f3a27b81ad2103.txt, para: 39, quote: 潔己 沐浴煞乘玄武為初傳曰潔己}]
    when:
      - 位: {位: 初傳, 支: $a}
      - test: {eq: [$a, 午]}
  - id: t-w-reads
    name: 讀課體凶而吉
    kind: 畢法
    valence: 吉
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 判: {規: t-kt}
"""

WEIGH = """\
tables:
  - id: book-weighing
    name: 書中之權衡
    kind: 總則表
    columns: [主, 對]
    reading: 試。
    rows:
      - id: t-weigh
        name: 試德轉凶
        reading: 試。
        source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
        each:
          - {主: t-w-de, 對: 凶}
"""


def _weigh_kb(tmp_path, weigh=WEIGH):
    k = _kb(tmp_path, RULES)
    (k / "weigh.yaml").write_text(textwrap.dedent(weigh), encoding="utf-8")
    return k


def test_a_row_of_book_weighing_answers_for_its_pairs_only(tmp_path):
    k = _weigh_kb(tmp_path)
    kb = load_kb(k)
    row = weighs(kb, "t-kt", "t-w-de")
    assert [w["id"] for w in row] == ["t-weigh"] and row[0]["side"] == "t-w-de"
    assert "t-weigh" in (k / "weigh.yaml").read_text(encoding="utf-8").splitlines()[row[0]["line"] - 1]
    assert weighs(kb, "t-kt", "t-w-ji") == []           # not named: the other 吉 is not weighed
    assert weighs(kb, "t-w-de", "t-w-ji") == []         # the same tone: nothing to weigh
    r = audit(str(k), months="1", daynight="day", progress=False, days=6, variants=False)
    und, wei = _pairs(r, "undeclared"), _pairs(r, "weighed")
    c = wei[("t-kt", "t-w-de")]
    assert c["subject"] == "午" and c["boards"] > 0 and c["weighed_by"][0]["id"] == "t-weigh"
    assert ("t-kt", "t-w-de") not in und
    assert ("t-kt", "t-w-ji") in und and "weighed_by" not in und[("t-kt", "t-w-ji")]
    notes = [f for f in r["findings"] if f["check"] == "conflict (weighed)" and "試德轉凶" in f["message"]]
    assert len(notes) == 1 and notes[0]["severity"] == "note" and "weigh.yaml:" in notes[0]["message"]
    # within one book an undeclared conflict is an error; across books (t-w-other cites 卷2) a warning
    sev = {tuple(sorted(e["id"] for e in f["entries"])): f["severity"]
           for f in r["findings"] if f["check"] == "conflict (undeclared)"}
    assert sev[("t-kt", "t-w-ji")] == "error" and sev[("t-kt", "t-w-other")] == "warning"
    # a rule whose condition reads the other's judgment by name answers for the pair itself
    dec = _pairs(r, "declared")
    assert dec[("t-kt", "t-w-reads")]["covered_by"][0]["how"] == "reads"
    assert ("t-kt", "t-w-reads") not in und
    md = markdown(r)
    assert "## Weighed by the book" in md and "`t-weigh` 試德轉凶 kb/weigh.yaml:" in md


def test_a_weighing_row_that_names_nothing_is_stale(tmp_path):
    k = _weigh_kb(tmp_path, WEIGH.replace("{主: t-w-de, 對: 凶}", "{主: t-w-none, 對: 凶}")
                  .replace("rows:", "rows:\n      - id: t-weigh2\n        name: 試同調\n        reading: 試。\n"
                           "        source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]\n"
                           "        each:\n          - {主: t-w-ji, 對: 吉}"))
    got = [f for f in static_findings(load_kb(k)) if f.code == "stale"]
    msgs = " | ".join(f.message for f in got)
    assert "「t-w-none」 names no entry or table" in msgs
    assert "「t-w-ji」 has no judgment of the tone opposite to 吉" in msgs
    assert all(f.severity == "error" for f in got)


def test_the_kb_weighing_rows_name_real_entries_of_the_opposite_tone():
    kb = load_kb()
    t = kb.tables["book-weighing"]
    assert t.rows and not [f for f in static_findings(kb) if f.code == "stale" and "weighing" in f.message]
    for row in t.rows:
        assert row.source and all(s.get("quote") for s in row.source), row.id
