"""Issue 29 §6: inputs the calendar cannot hold together are refused, naming both values; inputs
that would say nothing are refused or noted; a local time the clocks skip is refused."""
import pytest

from liuren.casting import calendar as cal
from liuren.casting.symbols import BRANCHES, JIAZI
from liuren.cli.main import main

BOARD = ["cast", "--day", "丁卯", "--on", "亥加丑"]


@pytest.mark.parametrize("argv, both", [
    (["--month", "庚戌", "--term-day", "立春"], ("庚戌", "立春")),
    (["--year", "2026", "--month", "丙寅"], ("2026", "丙寅")),
    (["--year", "丙午", "--month", "癸卯"], ("丙午", "癸卯")),
    (["--lunar", "1-5", "--month", "庚戌"], ("1-5", "庚戌")),
    (["--lunar", "閏4-5", "--month", "庚辰"], ("閏4-5", "庚辰")),
    (["--month", "辛卯", "--term-day", "雨水"], ("辛卯", "雨水")),
])
def test_a_combination_the_calendar_cannot_hold(argv, both, capsys):
    assert main(BOARD + argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and all(v in err for v in both), err


@pytest.mark.parametrize("argv", [
    ["--year", "2026", "--month", "庚寅", "--term-day", "立春", "--lunar", "1-5"],
    ["--month", "己丑", "--term-day", "立春"],        # a 立春 day before its instant: still 丑
    ["--month", "庚寅", "--term-day", "雨水"],
    ["--year", "丙午", "--month", "辛丑"],            # the 丙午 year's last month
    ["--lunar", "12-28", "--month", "庚寅"],
])
def test_what_the_calendar_holds_is_taken(argv, capsys):
    assert main(BOARD + argv) == 0, capsys.readouterr().err


def test_the_month_of_a_year_is_that_of_the_real_calendar():
    """month_of_year against the moments' own pillars (lunar_python): every month of 2026 and 1984."""
    import datetime as dt
    for y in (1984, 2026):
        for mo in range(1, 13):
            m = cal.parse_moment(f"{y}-{mo:02d}-20T12:00+08:00")
            inp = cal.moment_inputs(m, 23)
            assert cal.month_of_year(inp["year"], inp["month"][1]) == inp["month"], (y, mo)


def test_the_months_of_a_term_and_of_a_lunar_date_hold_the_real_ones():
    checked = 0
    for y in (1990, 2001, 2026, 2033):
        for doy in range(0, 365, 3):
            d = cal.parse_moment(f"{y}-01-01T12:00+08:00") + __import__("datetime").timedelta(days=doy)
            inp = cal.moment_inputs(d, 23)
            if inp["term_day"]:
                assert inp["month"][1] in cal.months_of_term(inp["term_day"]), (d, inp["term_day"])
            lm, _ld, _last, leap = inp["lunar"]
            assert inp["month"][1] in cal.months_of_lunar(lm, leap), (d, inp["lunar"])
            checked += 1
    assert checked > 400


def test_partner_sex_alone_is_refused(capsys):
    assert main(BOARD + ["--partner-sex", "f"]) == 2
    assert "--partner-sex f" in capsys.readouterr().err


def test_sex_alone_is_noted(capsys):
    import json
    assert main(BOARD + ["--sex", "m", "--json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert any("生年" in n for n in notes), notes


def test_sex_alone_is_noted_on_the_api():
    from fastapi.testclient import TestClient
    from liuren.web.app import create_app
    r = TestClient(create_app(warm=False)).get("/api/cast?day=丁卯&on=亥加丑&sex=m")
    assert r.status_code == 200 and any("生年" in n for n in r.json()["notes"])


def test_a_local_time_the_clocks_skip_is_refused(capsys):
    assert main(["cast", "2026-03-08", "02:30", "--tz", "America/New_York"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "2026-03-08 02:30" in err and "America/New_York" in err
    assert main(["cast", "2026-03-08", "03:30", "--tz", "America/New_York"]) == 0
    assert "2026-03-08T03:30-04:00" in capsys.readouterr().out
