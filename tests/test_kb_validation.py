"""A malformed KB file gives one line naming the file, the line and what is wrong; the CLI
exits 2 (never a traceback).  Each case copies kb/core into a temporary KB and adds one
broken file."""
import shutil
import textwrap

import pytest

from engine.cli import main
from engine.errors import KBError
from engine.kbload import load_kb, packaged_kb_dir

GOOD_RULE = """\
rules:
  - id: t-ok
    name: 試
    kind: 格
    reading: 試。
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: $a}
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
""", 9, "duplicate id 't-ok'"),
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
