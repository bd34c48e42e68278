"""Inputs a user mistypes get one line naming the value and exit status 2 — never an answer
made of defaults, an empty list, or a fallback (issue 10 §6)."""
import os
import subprocess
import sys

import pytest

from liuren.cli.main import main

BOARD = ["--day", "丁卯", "--on", "亥加丑"]


@pytest.fixture
def empty_kb(tmp_path):
    d = tmp_path / "kb"
    d.mkdir()
    return str(d)


CASES = {
    "unknown variant for every entry": (["judge", *BOARD, "--variant", "*=nonexistent"], "'nonexistent'"),
    "unknown variant of one entry": (["judge", *BOARD, "--variant", "sha-diwang=nope"], "sha-diwang=nope"),
    "empty --kb": (["judge", *BOARD, "--kb", ""], "--kb ''"),
    "unknown kind": (["rules", "list", "--kind", "無此類"], "'無此類'"),
    "unknown source": (["rules", "list", "--source", "999"], "'999'"),
    "negative --max": (["kb", "examples", "ge-zhanshou", "--max", "-1"], "--max -1"),
    "zero --max": (["kb", "examples", "ge-zhanshou", "--max", "0"], "--max 0"),
    "unknown --book": (["judge", *BOARD, "--book", "六壬x"], "'六壬x'"),
    "unknown --lang": (["judge", *BOARD, "--lang", "fr"], "'fr'"),
    "bad --benming": (["cast", *BOARD, "--benming", "寅x"], "'寅x'"),
    "--born with --benming": (["cast", *BOARD, "--born", "1990", "--benming", "寅"], "--born"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_refused_in_one_line(case, capsys):
    argv, needle = CASES[case]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in err, err
    assert out == ""


@pytest.mark.parametrize("cmd", [["kb", "check"], ["judge", *BOARD], ["lookup", "午"], ["rules", "list"],
                                 ["questions"]])
def test_an_empty_kb_folder_is_an_error(cmd, empty_kb, capsys):
    assert main(cmd + ["--kb", empty_kb]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no knowledge-base files" in err[0]


def test_an_unknown_zone_in_the_environment():
    env = dict(os.environ, TZ="Nowhere/Bogus")
    p = subprocess.run([sys.executable, "-m", "liuren", "cast", "2026-11-30", "14:05"], capture_output=True,
                       text=True, env=env)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.strip().count("\n") == 0 and "TZ='Nowhere/Bogus'" in p.stderr
    ok = subprocess.run([sys.executable, "-m", "liuren", "cast", "2026-11-30", "14:05"], capture_output=True,
                        text=True, env=dict(os.environ, TZ="Asia/Tokyo"))
    assert ok.returncode == 0 and "+09:00" in ok.stdout
