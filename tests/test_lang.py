"""--lang ja (and LIUREN_LANG): names by their Japanese label, the 日譯 quote beside the classical
one, Japanese headings; names in either form are accepted everywhere."""
import json
import re

import pytest

from liuren.cli.main import main
from liuren.knowledge.kbload import load_kb

KB = load_kb()
KANA = re.compile(r"[\u3040-\u30fa\u30fc-\u30ff]")       # kana (not ・, which Chinese texts use too)
BOARD = ["--day", "丁卯", "--on", "巳加子"]


def run(argv, capsys):
    assert main(argv) == 0, argv
    return capsys.readouterr().out


def test_judge_in_japanese(capsys):
    out = run(["judge", *BOARD, "--lang", "ja"], capsys)
    assert "鋳印（" in out and "断橋（" in out          # labels
    assert "三伝（" in out and "初伝" in out and "【格】" in out and "【神煞】" in out
    zh = run(["judge", *BOARD], capsys)
    assert "鑄印（" in zh and "三傳（" in zh and "鋳印" not in zh


def test_judge_json_names_by_label(capsys):
    d = json.loads(run(["judge", *BOARD, "--lang", "ja", "--json"], capsys))
    assert d["lang"] == "ja"
    item = next(f for f in d["fired"] if f["rule"] == "ge-zhuyin")
    assert item["name"] == "鋳印" and item["name_zh"] == "鑄印"


def test_why_shows_the_rendering_beside_the_classical_line(capsys):
    ja = run(["why", "斷橋", *BOARD, "--lang", "ja"], capsys)
    assert "断橋（ge-duanqiao）" in ja
    assert "中傳空曰斷橋" in ja                          # the classical line
    assert "中伝が旬空に落入するを断橋という" in ja         # and the 日譯's own sentence
    assert "《六壬經緯（日譯）》卷3 ¶8" in ja
    assert "断：" in ja and "乗る所" in ja
    zh = run(["why", "斷橋", *BOARD], capsys)
    assert "中傳空曰斷橋" in zh and "《六壬經緯（日譯）》卷3 ¶8" in zh
    assert not KANA.search(zh), "the zh chain shows no Japanese text"


def test_html_says_its_language(capsys):
    assert 'lang="ja"' in run(["why", "斷橋", *BOARD, "--lang", "ja", "--format", "html"], capsys)
    assert 'lang="zh-Hant"' in run(["why", "斷橋", *BOARD, "--format", "html"], capsys)


def test_names_in_either_form(capsys):
    assert "ge-zhuyin" in run(["rules", "show", "鋳印"], capsys)
    assert "ge-duanqiao" in run(["why", "断橋", *BOARD], capsys)
    assert "臟腑：心" in run(["lookup", "午", "--category", "臓腑"], capsys)
    assert "臓腑：心" in run(["lookup", "午", "--category", "臟腑", "--lang", "ja"], capsys)
    assert "\t鋳印\t" in run(["rules", "list", "--kind", "格", "--source", "000", "--lang", "ja"], capsys)


def test_trace_names_by_label(capsys):
    g = json.loads(run(["trace", *BOARD, "--lang", "ja", "--format", "json"], capsys))
    names = {n.get("name") for n in g["nodes"] if n.get("kind") == "firing"}
    assert "鋳印" in names and "鑄印" not in names and g["graph"]["lang"] == "ja"


def test_environment_language(capsys, monkeypatch):
    monkeypatch.setenv("LIUREN_LANG", "ja")
    assert "三伝（" in run(["cast", *BOARD], capsys)
    monkeypatch.setenv("LIUREN_LANG", "jp")
    assert main(["cast", *BOARD]) == 2
    assert "LIUREN_LANG 'jp'" in capsys.readouterr().err


@pytest.mark.parametrize("cmd", [["judge", *BOARD], ["why", "斷橋", *BOARD], ["rules", "list"],
                                 ["rules", "show", "ge-zhuyin"], ["lookup", "午"], ["trace", *BOARD], ["cast", *BOARD]])
def test_an_unknown_language_is_an_error(cmd, capsys):
    assert main(cmd + ["--lang", "fr"]) == 2
    err = capsys.readouterr().err
    assert "--lang 'fr'" in err and len(err.strip().splitlines()) == 1


def test_the_rendering_is_cited_by_its_japanese_paragraphs():
    # 002's odd ¶ repeat the classical line of 000; its even ¶ are the Japanese rendering
    n = 0
    for e in KB.entries.values():
        for s in e.source:
            if s.get("seed", "").startswith("002"):
                n += 1
                assert s["para"] % 2 == 0 and KANA.search(s["quote"]), (e.id, s["para"])
    assert n >= 68


def test_entries_named_in_the_rendering_have_its_label():
    checked = 0
    for e in KB.entries.values():
        if any(s.get("seed", "").startswith("002") for s in e.source) and e.id.startswith(("sha-", "ge-", "lx-")):
            jp = next(s["quote"] for s in e.source if s.get("seed", "").startswith("002"))
            if jp.startswith("「"):
                assert (e.meta.get("labels") or {}).get("ja") == jp[1:jp.index("」")], e.id
                checked += 1
    assert checked > 5
