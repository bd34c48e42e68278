"""Issue 22 §2–§3: values still answered instead of refused.  Each is one line naming the value,
exit 2 (HTTP 400 on the web), never an answer, never a traceback."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from liuren.cli.main import main


def _refused(capsys, argv, *words):
    assert main(argv) == 2, argv
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err, err
    for w in words:
        assert w in err, (argv, err)
    return err


@pytest.mark.parametrize("argv, name", [
    (["table", "--day", ""], "--day"),
    (["rules", "list", "--kind", ""], "--kind"),
    (["rules", "list", "--source", ""], "--source"),
    (["lookup", "午", "--category", ""], "--category"),
    (["rules", "show", ""], "rule"),
    (["why", "", "--day", "甲子", "--on", "子加子"], "rule"),
    (["why", "斬首", "--day", "甲子", "--on", "子加子", "--output", ""], "--output"),
    (["serve", "--host", ""], "--host"),
    (["judge", "--day", "甲子", "--on", "子加子", "--book", ""], "--book"),
])
def test_an_empty_value_is_no_value(capsys, argv, name):
    _refused(capsys, argv, name, "''")


@pytest.mark.parametrize("argv, words", [
    (["cast", "--day", "甲子", "--on", "子加子", "--tz", "Nowhere/Zone"], ["--tz", "Nowhere/Zone"]),
    (["cast", "--day", "甲子", "--on", "子加子", "--tz", "Asia/Shanghai"], ["--tz"]),
    (["rules", "list", "--source", "000junk"], ["000junk"]),
    (["rules", "list", "--source", "000\udcff\udcfe"], ["--source"]),
    (["cast", "2026-11-22T02:30+08:60"], ["+08:60"]),
    (["cast", "--day", "甲子", "--on", "子加子", "--year", "0"], ["--year", "'0'"]),
    (["cast", "--day", "甲子", "--on", "子加子", "--year", "0000"], ["--year", "0000"]),
    (["cast", "--day", "甲子", "--on", "子加子", "--year", "9999"], ["--year", "9999"]),
    (["cast", "--day", "甲子", "--on", "子加子", "--year", "2026", "--born", "0001-01-01", "--sex", "m"], ["--born"]),
    (["cast", "2026-11-22T10:00+08:00", "--born", "2027-01-15", "--sex", "m"], ["--born", "2027-01-15"]),
    (["audit", "--months", "²"], ["²"]),
])
def test_values_taken_in_part_are_refused(capsys, argv, words):
    _refused(capsys, argv, *words)


def test_a_source_given_whole_is_read(capsys):
    assert main(["rules", "list", "--source", "000"]) == 0
    assert main(["rules", "list", "--source", "000_97d20668deca6813.txt"]) == 0


def test_what_cast_prints_it_reads_back(capsys):
    """A local-mean-time offset, as cast prints it for an old moment, is read when given back."""
    assert main(["cast", "1902-05-11T05:17-07:48:04", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"moment": "1902-05-11T05:17' in out


def test_the_environment_zone_does_not_override_an_offset():
    """TZ set in the environment applies only to a moment without an offset (issue 21)."""
    env = dict(os.environ, TZ="Asia/Shanghai")
    p = subprocess.run([sys.executable, "-m", "liuren", "cast", "2026-11-22T02:30-05:00", "--json"],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    assert '"moment": "2026-11-22T02:30-05:00"' in p.stdout
    assert '"hour": "丁丑"' in p.stdout                          # 02:30 is 丑時, not 申時 (15:30 in Shanghai)
    # an explicit --tz converts the instant to that zone's clock, as README says
    p = subprocess.run([sys.executable, "-m", "liuren", "cast", "2026-11-22T02:30-05:00", "--tz", "Asia/Shanghai",
                        "--json"], capture_output=True, text=True, env=env, timeout=300)
    assert '"moment": "2026-11-22T15:30+08:00"' in p.stdout


@pytest.fixture(scope="module")
def client():
    from fastapi.testclient import TestClient
    from liuren.web.app import create_app
    return TestClient(create_app(None, warm=False))


@pytest.mark.parametrize("url", [
    "/rules/", "/api/rules/", "/api/why/?day=甲子&on=子加子", "/practice?seed=²", "/api/practice?seed=²",
    "/board?day=甲子&on=子加子&tz=Nowhere/Zone", "/api/judge?day=甲子&on=子加子&tz=%3Cscript%3E",
])
def test_the_web_refuses_them_too(client, url):
    r = client.get(url)
    assert r.status_code == 400, (url, r.status_code)
    assert "<script>" not in r.text and "Traceback" not in r.text


def test_api_judge_reads_all(client):
    """/api/judge lists the placements (起例) as the CLI's JSON does; all=false leaves them out."""
    every = client.get("/api/judge?day=丁卯&on=亥加丑&month=壬寅").json()["fired"]
    without = client.get("/api/judge?day=丁卯&on=亥加丑&month=壬寅&all=false").json()["fired"]
    assert any(f["kind"] == "起例" for f in every)
    assert without == [f for f in every if f["kind"] != "起例"]
    assert client.get("/api/judge?day=丁卯&on=亥加丑&all=maybe").status_code == 400
