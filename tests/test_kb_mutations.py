"""The slips a scholar makes while editing kb/ are refused by `liuren kb check`, with the file,
the line and what is wrong (and a "did you mean" where one is near).  Each case copies the
installed KB, makes one edit, and checks the one-line message and exit status 2."""

import pytest

from liuren.cli.main import main
from helpers import edit

# (file, text to find, replacement) -> (line of the message, words it must contain); the line is
# counted from the edit's own first line ("+0" = that line), or given as a number
MUTATIONS = {
    "branch 夘 in a table cell": (
        ("juan3/ge.yaml", "        初: 卯\n", "        初: 夘\n"),
        (None, "'夘' is none (did you mean 卯")),
    "branch 戍 in a condition": (
        ("juanzhong/b-misc.yaml", "      - 盤: {天: 戌, 將: 勾陳}", "      - 盤: {天: 戍, 將: 勾陳}"),
        ("+0", "盤.天 '戍' is not a value this field holds (a branch 子…亥) (did you mean 戌")),
    "position 初传": (
        ("juan3/leixiang.yaml", "      - 位: {位: 初傳, 支: $b}", "      - 位: {位: 初传, 支: $b}"),
        ("+0", "位.位 '初传' is not a value this field holds (a position) (did you mean 初傳")),
    "question 占兵x": (
        ("yinhe/affairs.yaml", "  - 問: {問: 占人謀害己}\n", "  - 問: {問: 占人謀害己x}\n"),
        ("+0", "問.問 '占人謀害己x' is not a value this field holds")),
    "category 日盒": (
        ("juanzhong/b-de-he.yaml", "      - 德合: {類: 日合, 支: $d}", "      - 德合: {類: 日盒, 支: $d}"),
        ("+0", "德合.類 '日盒' is not a value this field holds")),
    "general 青竜": (
        ("juanzhong/b-misc.yaml", "      - 盤: {天: 戌, 將: 勾陳}", "      - 盤: {天: 戌, 將: 勾陣}"),
        ("+0", "盤.將 '勾陣' is not a value this field holds (a general) (did you mean 勾陳")),
    "a variable used once ($bx for $b)": (
        ("juan3/ge.yaml", "      - 空: {支: $b}\n      - chuan-kong-names", "      - 空: {支: $bx}\n      - chuan-kong-names"),
        ("+0", "variable $bx is used only once")),
    "name: 123": (
        ("juan3/ge.yaml", "    name: 三傳空亡格\n    kind: 格\n", "    name: 123\n    kind: 格\n"),
        ("+0", "name must be text, got int 123")),
    "reading: true": (
        ("juan3/ge.yaml", "    reading: 三傳某一傳為旬空", "    reading: true\n    note: 三傳某一傳為旬空"),
        ("+0", "reading must be text, got bool True")),
    "name: {x: …}": (
        ("juan3/ge.yaml", "        name: 斬首\n", "        name: {x: 斬首}\n"),
        ("+0", "name must be text, got LMap")),
    "a 5 MB reading": (
        ("juan3/ge.yaml", "    reading: 三傳某一傳為旬空", "    reading: " + "空" * 5_000_000 + "\n    note: 三傳某一傳為旬空"),
        ("+0", "reading is 5,000,000 characters long")),
    "a reported row without examples": (
        ("juan3/ge.yaml", """        examples:
          fires:
            - board: {day: 丁卯, on: 亥加丑}
              why: 丁卯屬甲子旬，戌亥空；初傳亥空。
          silent:
            - board: {day: 甲子, on: 子加子}
              why: 甲子日伏吟，三傳寅巳申，初傳寅不在本旬空亡戌亥。
""", ""),
        ("-9", "ge-zhanshou: no example board where it fires")),
    "an emptied file": (
        ("juan3/zongze.yaml", None, ""),
        (1, "the file holds nothing")),
    "a file whose every entry is gone": (
        ("juan3/zongze.yaml", None, "rules: []\ntables: []\n"),
        (1, "the file holds nothing")),
    "a NUL byte": (
        ("juan3/ge.yaml", "    reading: 三傳某一傳為旬空", "    reading: 三傳某一\x00傳為旬空"),
        ("+0", "a NUL byte")),
    "a negation cycle": (
        ("juanzhong/b-misc.yaml", "      - 位: {位: 日干, 支: $j, 干: $g}\n      - any:\n          - 合: [$a, $z]",
         "      - 位: {位: 日干, 支: $j, 干: $g}\n      - not: {判: {規: jzb-ganzhi-shu}}\n      - any:\n          - 合: [$a, $z]"),
        (None, "negate each other in a cycle (no stratification): jzb-ganzhi-")),
    "a 地盤 position read as a 天盤 branch": (
        ("juanzhong/xingsha.yaml", "  - 位: {位: $p, 支: $b, 天: $t}\n  - jz-ruzhan: {位: $p}\n  - 盤: {天: $t, 將: $j}",
         "  - 位: {位: 日支, 支: $b}\n  - 盤: {天: $b, 將: $j}"),
        (None, "盤.天 $b is the branch of 日支, a 地盤 position")),
    "a fact's words for a field it has not": (
        ("juanzhong/xingsha.yaml", "  words: {將: {任: 任一天將}}", "  words: {乘: {任: 任一天將}}"),
        ("+0", "fact type '星煞乘': words is {field: {value: its words}} for its fields")),
    "a table's words for a column it has not": (
        ("juanzhong/xingsha.yaml", "  words: {將: {任: 不拘}}", "  words: {將: {任: ''}}"),
        ("+0", "table jz-xingsha-lun: words is {column: {value: its words}}")),
}


@pytest.mark.parametrize("case", list(MUTATIONS))
def test_an_edit_is_refused_with_file_and_line(kbcopy, case, capsys):
    (rel, old, new), (line, words) = MUTATIONS[case]
    if isinstance(line, str):               # relative to the edit
        text = (kbcopy / rel).read_text(encoding="utf-8")
        line = text[:text.index(old)].count("\n") + 1 + int(line)
    edit(kbcopy, rel, old, new)
    assert main(["kb", "check", "--kb", str(kbcopy)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    where = f"kb/{rel}:{line}:" if line else ""
    hits = [ln for ln in err.splitlines() if words in ln and (where in ln or "cycle" in words)]
    assert hits, f"{case}: expected {where} … {words!r} in:\n{err[:2000]}"


def test_invalid_utf8_names_the_line(kbcopy, capsys):
    p = kbcopy / "juan3" / "ge.yaml"
    raw = p.read_bytes()
    i = raw.index("        name: 斬首".encode())
    p.write_bytes(raw[:i] + b"\xff" + raw[i + 1:])
    line = raw[:i].count(b"\n") + 1
    assert main(["kb", "check", "--kb", str(kbcopy)]) == 2
    err = capsys.readouterr().err
    assert f"kb/juan3/ge.yaml:{line}: not UTF-8" in err, err


def test_a_lost_rule_is_not_ok_without_a_word(kbcopy, capsys):
    # the manifest (kb/manifest.yaml) pins what each file holds: deleting a rule is reported
    p = kbcopy / "juan3" / "ge.yaml"
    text = p.read_text(encoding="utf-8")
    start = text.index("  - id: ge-chuan-kong\n")
    end = text.find("\n  - id: ", start + 10)
    p.write_text(text[:start] + (text[end + 1:] if end > 0 else ""), encoding="utf-8")
    assert main(["kb", "check", "--kb", str(kbcopy)]) == 2
    err = capsys.readouterr().err
    assert "kb/juan3/ge.yaml: holds" in err and "the manifest says" in err, err
    # after a deliberate change the manifest is rewritten, and the check passes again
    assert main(["kb", "check", "--kb", str(kbcopy), "--update-manifest"]) == 0
    assert main(["kb", "check", "--kb", str(kbcopy)]) == 0
    out = capsys.readouterr().out
    assert "juan3/ge.yaml:" in out and "— ok" in out


def test_kb_check_says_what_each_file_holds(capsys):
    assert main(["kb", "check"]) == 0
    out = capsys.readouterr().out
    assert "juan3/ge.yaml: " in out and " rules" in out and "named rows" in out
