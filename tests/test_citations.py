"""No product output shows English as a quote or a file name as a source: cast, judge and why,
in text, markdown, html and json, on a handful of boards (賊克, 涉害, 伏吟 杜傳, 返吟 井欄射, 昴星,
別責, 八專).  Every casting step cites 《六壬大全》 with 卷 and ¶."""
import json
import re

import pytest

from liuren.cli.main import main

BOARDS = [("丁卯", "亥加丑"), ("丁卯", "子加子"), ("辛丑", "亥加巳"), ("乙未", "辰加寅"),
          ("丙辰", "辰加卯"), ("甲寅", "子加丑"), ("乙亥", "亥加亥")]
LATIN = re.compile(r"[A-Za-z]")
QUOTE = re.compile(r"「([^「」]*)」")
FILENAME = re.compile(r"\.(md|txt|ya?ml)\b|casting")


def run(capsys, *argv):
    assert main(list(argv)) == 0, argv
    return capsys.readouterr().out


def quotes_in_json(obj, path=""):
    """(path, quote) of every quote and verse in a JSON document."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("quote", "verse") and isinstance(v, str):
                yield f"{path}.{k}", v
            else:
                yield from quotes_in_json(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from quotes_in_json(v, f"{path}[{i}]")


def sources_in_json(obj):
    if isinstance(obj, dict):
        if "quote" in obj or "seed" in obj or "doc" in obj:
            yield obj
        for v in obj.values():
            yield from sources_in_json(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from sources_in_json(v)


def check_text(out, what):
    assert not FILENAME.search(out), f"{what}: a file name in the output"
    for q in QUOTE.findall(out):
        assert not LATIN.search(q), f"{what}: English quoted: {q}"


def check_json(doc, what):
    for path, q in quotes_in_json(doc):
        assert not LATIN.search(q), f"{what}: {path} quotes English: {q}"
    for s in sources_in_json(doc):
        assert "doc" not in s, f"{what}: a document cited as a source: {s}"
        if s.get("quote"):
            assert s.get("book") and not LATIN.search(s["book"]), f"{what}: a source without its book: {s}"


@pytest.mark.parametrize("day, on", BOARDS)
def test_cast_cites_the_book(day, on, capsys):
    out = run(capsys, "cast", "--day", day, "--on", on)
    check_text(out, f"cast {day} {on}")
    steps = [l for l in out.splitlines() if l.startswith("    · ")]
    assert steps and all(re.search(r"」《六壬大全》卷[一七九] ¶\d+$", l) for l in steps), steps
    doc = json.loads(run(capsys, "cast", "--day", day, "--on", on, "--json"))
    check_json(doc, f"cast --json {day} {on}")
    for s in doc["transmissions"]["steps"]:
        assert s["book"] == "六壬大全" and s["volume"].startswith("卷") and s["seed"].startswith("1")
        assert isinstance(s["para"], int)


@pytest.mark.parametrize("day, on", BOARDS[:4])
def test_judge_cites_the_books(day, on, capsys):
    out = run(capsys, "judge", "--day", day, "--on", on, "--month", "壬寅")
    check_text(out, f"judge {day} {on}")
    check_json(json.loads(run(capsys, "judge", "--day", day, "--on", on, "--month", "壬寅", "--json")),
               f"judge --json {day} {on}")


@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "json"])
@pytest.mark.parametrize("rule, day, on, fired", [("斬首", "丁卯", "亥加丑", True), ("sha-yin", "甲子", "子加子", True),
                                                  ("斬首", "甲子", "子加子", False)])
def test_why_cites_the_books(rule, day, on, fired, fmt, capsys):
    out = run(capsys, "why", rule, "--day", day, "--on", on, "--format", fmt)
    if fmt == "json":
        doc = json.loads(out)
        check_json(doc, f"why {rule} {day} {on}")
        casts = [s for s in doc.get("steps") or [] if s["step"] == "cast"]
        assert bool(casts) == fired
        assert all(s["sources"] and s["sources"][0]["book"] == "六壬大全" and isinstance(s["sources"][0]["para"], int)
                   for s in casts)
    else:
        check_text(out, f"why {rule} {day} {on} ({fmt})")
        if fired:                       # the HOW chain starts with the cast, each step citing 卷 and ¶
            assert re.search(r"《六壬大全》卷[一七九] ¶\d+", out)
