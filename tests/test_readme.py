"""README's usage examples run: every `$ liuren …` line of a console block exits 0, and every
line shown under it appears in its output."""
import pathlib
import re
import shlex

import pytest

from engine.cli import main

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
