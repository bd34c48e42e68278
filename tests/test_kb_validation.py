"""A malformed KB file gives one line naming the file, the line and what is wrong; the CLI
exits 2 (never a traceback).  Each case copies kb/core into a temporary KB and adds one
broken file."""
import re
import shutil
import textwrap

import pytest

from liuren.cli.main import main
from liuren.errors import KBError
from liuren.knowledge.kbload import load_kb, packaged_kb_dir

GOOD_RULE = """\
rules:
  - id: t-ok
    name: 試
    kind: 格
    reading: 試。
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: $_a}
    examples:
      fires:
        - board: {day: 丁卯, on: 亥加丑}
          why: 初傳亥。
      silent:
        - board: {day: 丁卯, on: 亥加丑}
          why: 不試。
"""

CASES = {
    "bad-indentation": ("""\
rules:
  - id: t-bad
    name: 試
   kind: 格
""", 4, "YAML syntax"),
    "unknown-fact-type": ("""\
rules:
  - id: t-unknown
    name: 試
    kind: 格
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 初傳位: {支: $a}
""", 7, "unknown fact type '初傳位'"),
    "missing-source": ("""\
rules:
  - id: t-nosource
    name: 試
    kind: 格
    when:
      - 位: {位: 初傳, 支: $a}
""", 2, "missing source"),
    "duplicate-id": (GOOD_RULE + """\
  - id: t-ok
    name: 又
    kind: 格
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 中傳, 支: $a}
""", 16, "duplicate id 't-ok'"),
    "unknown-field": ("""\
rules:
  - id: t-field
    name: 試
    kind: 格
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 枝: $a}
""", 7, "has no field '枝'"),
    "unbound-variable": ("""\
rules:
  - id: t-unbound
    name: 試
    kind: 格
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: $a}
    then:
      - 試煞: {支: $b}
""", 8, "then uses $b"),
    "bad-valence": (GOOD_RULE.replace("reading: 試。", "reading: 試。\n    valence: 大吉"), 6, "valence '大吉'"),
    "question-alias-clash": ("""\
questions:
  - id: t-q-a
    name: 占甲
    source: [{seed: 003_7b5b74542e0d6cf0.txt, para: 13, quote: 月將加正時，視日上所臨身。}]
  - id: t-q-b
    name: 占乙
    aliases: [占丙, 占甲]
    source: [{seed: 003_7b5b74542e0d6cf0.txt, para: 13, quote: 月將加正時，視日上所臨身。}]
""", 7, "question alias '占甲' is itself the name of a question"),
    # a project document is never a source: the book is cited (seed, para, quote)
    "doc-source": ("""\
rules:
  - id: t-doc
    name: 試
    kind: 格
    source: [{doc: casting.md, section: Basic tables, quote: 三合}]
    when:
      - 位: {位: 初傳, 支: $a}
""", 5, "is a project document, not a source"),
    "docs-key": ("""\
docs:
  - doc: casting.md
    book: 起課
""", 1, "docs: a project document is not a source"),
    "verse-without-seed": ("""\
verses:
  - id: t-verse
    name: 賊克
    quote: 取課先從下賊呼，如無下賊上克初。
""", 2, "verse t-verse: needs seed"),
    "verse-unknown-seed": ("""\
verses:
  - id: t-verse
    name: 賊克
    seed: 999_nowhere.txt
    para: 5
    quote: 取課先從下賊呼，如無下賊上克初。
""", 4, "seed '999_nowhere.txt' is not in books"),
}


@pytest.fixture
def kbdir(tmp_path):
    d = tmp_path / "kb"
    shutil.copytree(packaged_kb_dir() / "core", d / "core")
    return d


def test_a_good_file_loads(kbdir):
    (kbdir / "t.yaml").write_text(GOOD_RULE, encoding="utf-8")
    kb = load_kb(str(kbdir))
    assert "t-ok" in kb.rules


@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_file_names_file_and_line(kbdir, case, capsys):
    text, line, needle = CASES[case]
    (kbdir / "t.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(KBError) as e:
        load_kb(str(kbdir))
    msg = str(e.value)
    assert msg.startswith("kb/t.yaml:"), msg
    assert e.value.line == line, msg
    assert needle in msg, msg
    # the CLI: one line on stderr, exit 2, no traceback — for `kb check` and for judging
    assert main(["kb", "check", "--kb", str(kbdir)]) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err
    assert main(["judge", "--day", "丁卯", "--on", "亥加丑", "--kb", str(kbdir)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0]


def test_kb_check_reports_every_error(kbdir, capsys):
    (kbdir / "a.yaml").write_text(CASES["unknown-fact-type"][0], encoding="utf-8")
    (kbdir / "b.yaml").write_text(CASES["missing-source"][0], encoding="utf-8")
    assert main(["kb", "check", "--kb", str(kbdir)]) == 2
    err = capsys.readouterr().err
    assert "kb/a.yaml:7" in err and "kb/b.yaml:2" in err


def test_missing_kb_folder(capsys, tmp_path):
    assert main(["kb", "check", "--kb", str(tmp_path / "nowhere")]) == 2
    assert "no such knowledge-base folder" in capsys.readouterr().err


def test_the_installed_kb_is_valid(capsys):
    assert main(["kb", "check"]) == 0
    assert "ok" in capsys.readouterr().out


LATIN = re.compile(r"[A-Za-z]")


def _all_quotes(kb):
    """(where, quote) of every quote in the KB: sources of rules, rows, tables, questions and
    examples, variants, and the casting verses."""
    for e in kb.entries.values():
        for s in e.source:
            yield e.id, s.get("quote", "")
        for v in e.variants:
            yield f"{e.id} variant {v.get('id')}", str(v.get("quote", ""))
        for kind, boards in (e.meta.get("examples") or {}).items():
            for b in boards or []:
                src = b.get("source")
                for s in ([src] if isinstance(src, dict) else src or []):
                    yield f"{e.id} example", s.get("quote", "")
    for t in kb.tables.values():
        for s in t.meta.get("source") or []:
            yield t.id, s.get("quote", "")
    for q in kb.questions.values():
        for s in q.get("source") or []:
            yield q["id"], s.get("quote", "")
    for v in kb.verses.values():
        yield f"verse {v['id']}", v["quote"]


def test_no_source_quotes_latin_letters():
    # the sources are the classics, in Chinese (or the Japanese rendering): no English sentence,
    # no file name is ever quoted as a source
    bad = [(w, q) for w, q in _all_quotes(load_kb()) if LATIN.search(q)]
    assert not bad, bad[:5]


def test_every_source_cites_a_seed_paragraph():
    kb = load_kb()
    books = set(kb.books)
    srcs = [(e.id, s) for e in kb.entries.values() for s in e.source]
    srcs += [(t.id, s) for t in kb.tables.values() for s in t.meta.get("source") or []]
    srcs += [(q["id"], s) for q in kb.questions.values() for s in q.get("source") or []]
    srcs += [(f"verse {v['id']}", v) for v in kb.verses.values()]
    bad = [(w, s) for w, s in srcs if s.get("seed") not in books or not isinstance(s.get("para"), int) or "doc" in s]
    assert not bad, bad[:5]


def test_table_notes_and_interpretations_are_chinese():
    # what the core tables follow where the books do not state them is said in Chinese
    kb = load_kb()
    core = [t for t in kb.tables.values() if t.file.split("kb/")[-1].startswith("core/")]
    assert len(core) > 10
    for t in core:
        texts = [t.meta.get("note") or ""] + list((t.meta.get("interpretation") or {}).values())
        assert not any(LATIN.search(x) for x in texts), t.id


def test_the_caster_tables_cite_the_liuren_daquan():
    # every table the caster reads (kb/core casting.yaml, ganzhi.yaml and the 神煞 tables whose
    # relations it uses) cites 《六壬大全》 or the worked examples that show it
    kb = load_kb()
    caster = {t.id for t in kb.tables.values() if t.file.endswith(("core/casting.yaml", "core/ganzhi.yaml"))}
    caster |= {"shensha-zhi-relation", "shensha-ma", "shensha-xunkong"}
    assert len(caster) == 20        # with 卷一 ¶1411–1426: the 先天 貴人 and its 順逆
    for tid in sorted(caster):
        books = {kb.book_of(s)[0] for s in kb.tables[tid].meta.get("source") or []}
        assert "六壬大全" in books, tid


def test_every_kb_file_reads_without_libyaml():
    # the pure-Python loader is stricter than libyaml (e.g. a raw tab in a plain scalar): every
    # file must read with both, so that the KB and the shared tools work wherever PyYAML does
    import yaml
    files = sorted(packaged_kb_dir().rglob("*.yaml"))
    assert len(files) > 20, files                   # the loop below reads the whole KB, not nothing
    for p in files:
        assert yaml.load(p.read_text(encoding="utf-8"), Loader=yaml.SafeLoader), p
