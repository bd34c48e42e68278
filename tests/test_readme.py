"""README's usage examples run: every `$ liuren …` line of a console block exits 0, and every
line shown under it appears in its output."""
import pathlib
import re
import shlex

import pytest

from liuren.cli.main import main

README = (pathlib.Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def examples():
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.S):
        cmd, shown = None, []
        for line in block.splitlines():
            if line.startswith("$ liuren "):
                if cmd:
                    yield cmd, shown
                cmd, shown = line[2:], []
            elif cmd:
                shown.append(line)
        if cmd:
            yield cmd, shown


CASES = list(examples())


def test_readme_has_examples_and_the_two_commands():
    assert len(CASES) >= 10
    first = README.split("\n\n")
    assert any(p.strip().startswith("python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/liuren judge")
               for p in first[:4])
    assert any("pip install '.[test]'" in p and "pytest" in p for p in first[:6])


@pytest.mark.parametrize("cmd, shown", CASES, ids=[c for c, _ in CASES])
def test_readme_example(cmd, shown, capsys):
    argv = shlex.split(cmd)[1:]
    assert main(argv) == 0
    out = capsys.readouterr().out
    for line in shown:
        if line.strip():
            assert line.strip() in out, f"{cmd}: expected {line.strip()!r} in the output"


def test_every_unmet_book_example_is_listed():
    # issue 13: the book's worked examples this KB does not reproduce are listed in the README,
    # each with its 卷 and ¶ and the entry it belongs to
    from liuren.knowledge.kbload import load_kb
    vol = {"107": "卷七", "108": "卷八", "109": "卷九", "110": "卷十", "111": "卷十一", "112": "卷十二"}
    rows = [line for line in README.splitlines() if line.startswith("| 卷")]
    unmet = [(e, b) for e in load_kb().entries.values() for b in (e.meta.get("examples") or {}).get("unmet") or []]
    assert unmet and rows
    for e, b in unmet:
        s = b["source"] if isinstance(b["source"], dict) else b["source"][0]
        where = f"{vol.get(s['seed'][:3], s['seed'][:3])} ¶{s['para']}"
        assert any(line.startswith(f"| {where} |") and f"`{e.id}`" in line for line in rows), \
            f"README lists no unmet example {where} of {e.id}"


def test_the_counts_it_gives_are_the_kbs():
    """README's opening paragraph gives the KB's size: it is the KB's (the performance notes give
    the size of the KB they measured, with their date)."""
    from liuren.knowledge.kbload import load_kb
    kb = load_kb(None)
    rules = len(kb.rules)
    rows = sum(1 for t in kb.tables.values() for r in t.rows if r.id)
    opening = README.split("\n## ", 1)[0]
    said = re.findall(r"([\d,]+) rules and ([\d,]+) named table rows", opening)
    assert len(said) == 1
    r, n = said[0]
    assert (int(r.replace(",", "")), int(n.replace(",", ""))) == (rules, rows)
