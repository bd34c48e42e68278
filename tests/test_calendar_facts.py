"""Issue 21: the facts the engine lacked — a second person (夫行年 beside 妻行年), the 節氣 a day holds,
the lunar date of a board given by its day — and the book's boards that need them, from the 干支
board with the new inputs and from a real moment where one exists."""
from __future__ import annotations

import pytest

from liuren import cast, judge
from liuren.errors import InputError
from helpers import fired_names as fired


def test_fanchang_of_a_couple():
    """卷八 ¶198 「如壬申日未時巳將，夫行年甲寅，妻行年己亥 … 為繁昌課德孕課」."""
    names = fired(day="壬申", on="巳加未", xingnian="甲寅", sex="m", partner_xingnian="己亥", partner_sex="f")
    assert "繁昌課" in names
    assert "繁昌課" not in fired(day="壬申", on="巳加未", xingnian="甲寅", sex="m")          # one person only
    # the same couple given the other way round: the asker is the wife
    assert "繁昌課" in fired(day="壬申", on="巳加未", xingnian="己亥", sex="f", partner_xingnian="甲寅", partner_sex="m")


def test_a_partner_from_a_birth_year():
    b = cast(day="壬申", on="巳加未", year=2026, born=1990, sex="m", partner_born=1992, partner_sex="f")
    assert b.partner[0] == "女" and b.partner[2] == "壬申" and b.partner[4]          # 本命 壬申, 行年 counted
    assert b.to_dict()["partner"]["benming"] == "壬申"
    assert "partner" not in cast(day="壬申", on="巳加未").to_dict()                    # only when given


def test_jieli_of_a_couple_and_wangyun():
    """卷九 ¶281 解離 (夫妻行年衝克) and 卷八 ¶239 旺孕 (「妻午夫年立在寅」, spring)."""
    # ¶281 「夫妻行年衝克，及上下神互相克賊」: both, the 干 克 支上 and the 支 克 干上 (甲子 午加寅)
    assert "解離課（夫妻行年）" in fired(day="甲子", on="午加寅", xingnian="甲子", sex="m",
                                     partner_xingnian="庚午", partner_sex="f")
    assert "解離課（夫妻行年）" not in fired(day="甲子", on="子加卯", xingnian="甲子", sex="m",
                                         partner_xingnian="庚午", partner_sex="f")
    assert "解離課（夫妻行年）" not in fired(day="甲子", on="子加子", xingnian="甲子", sex="m",     # 伏吟
                                         partner_xingnian="庚午", partner_sex="f")
    assert "旺孕格" in fired(day="甲子", on="子加卯", month="丙寅", xingnian="丙寅", sex="m",
                           partner_xingnian="甲午", partner_sex="f")


def test_wangyun_in_the_third_month_is_spring():
    """卷九 ¶282 「如三月甲子日未時酉將，夫年立寅，妻年立午，值三合，逢春旺相氣，為旺孕格」: bare branches."""
    assert "旺孕格" in fired(day="甲子", on="酉加未", month="戊辰", xingnian="寅", sex="m",
                           partner_xingnian="午", partner_sex="f")
    assert "旺孕格" not in fired(day="甲子", on="酉加未", month="己巳", xingnian="寅", sex="m",
                               partner_xingnian="午", partner_sex="f")


def test_fanchang_wants_a_year_on_the_de():
    """卷八 ¶196 「凡夫妻年立德方發用」: 壬申 (日德 亥, the wife's year) fires, 乙丑 (德 申, 午) does not."""
    assert "繁昌課" not in fired(day="乙丑", on="巳加未", xingnian="甲寅", sex="m", partner_xingnian="己亥",
                               partner_sex="f")
    assert "繁昌課" not in fired(day="壬申", on="巳加未", xingnian="寅", sex="m", partner_xingnian="亥",
                               partner_sex="f")                            # no stems: 干合 unknown


@pytest.mark.parametrize("kw, word", [
    (dict(partner_xingnian="己亥"), "--sex"),                                       # no sexes
    (dict(partner_xingnian="己亥", partner_sex="f"), "--sex"),                      # the asker's sex
    (dict(xingnian="甲寅", sex="f", partner_xingnian="己亥", partner_sex="f"), "--sex"),   # not a couple
    (dict(sex="m", partner_xingnian="己亥", partner_sex="f"), "--xingnian"),        # the asker's 行年
    (dict(xingnian="甲寅", sex="m", partner_benming="亥", partner_sex="f"), "--partner-xingnian"),
])
def test_a_second_person_that_cannot_be_read_is_refused(kw, word):
    with pytest.raises(InputError) as e:
        cast(day="壬申", on="巳加未", **kw)
    assert word in str(e.value) and "\n" not in str(e.value)


def test_a_bare_branch_partner_xingnian_is_used():
    b = cast(day="甲子", on="午加寅", xingnian="子", sex="m", partner_xingnian="午", partner_sex="f")
    assert b.partner[3] == "午"
    assert "解離課（夫妻行年）" in fired(day="甲子", on="午加寅", xingnian="子", sex="m", partner_xingnian="午",
                                     partner_sex="f")


def test_erfan_from_the_lunar_date():
    """卷九 ¶549 「如九月初三丙午日午時卯將占」: the 月宿 氐 (卯宮) counted from the lunar date."""
    names = fired(day="丙午", on="卯加午", month="戊戌", lunar="9-3")
    assert {"二煩課", "天煩", "地煩"} <= names
    assert "地煩" not in fired(day="丙午", on="卯加午", month="戊戌")               # no lunar date: no 月宿
    # a real moment: 2080-10-15 is 九月初三 丙午; 午時 with 月將 by month (戌月: 卯將)
    b = cast("2080-10-15T12:00+08:00", yuejiang="month")
    assert (b.day, b.jiang, b.hour, b.lunar[:2]) == ("丙午", "卯", "午", (9, 3))
    assert {"二煩課", "地煩"} <= {f.name for f in judge(b).fired}


def test_tianhuo_on_the_day_of_lichun():
    """卷九 ¶627 「如正月立春甲申日，絕日癸未，寅加癸，為天禍課」: 1987-02-04 is 甲申 and holds 立春."""
    assert "天禍課" in fired(day="甲申", on="卯加寅", month="丙寅", term_day="立春")
    assert "天禍課" not in fired(day="甲申", on="卯加寅", month="丙寅", term_day="雨水")
    assert "天禍課" not in fired(day="甲申", on="卯加寅", month="丙寅")
    b = cast("1987-02-04T22:00+08:00")
    assert b.day == "甲申" and b.term_day == "立春"
    assert cast("1987-02-04T08:00+08:00").jieqi == "大寒"      # the 節氣 comes later that day: the day holds it
    assert "天禍課" in {f.name for f in judge(b).fired}
    assert cast("1987-02-05T10:00+08:00").term_day is None


def test_tiankou_on_an_equinox():
    """卷九 ¶737 「假如八月初五日丁酉秋分，辰將酉時占事 … 房宿在卯，申為離辰，而卯加之」."""
    assert "天寇課" in fired(day="丁酉", on="辰加酉", term_day="秋分", lunar="8-5")
    assert "天寇課" not in fired(day="丁酉", on="辰加酉", term_day="秋分")
    # 2082-09-26 is 八月初五 丁酉, but 秋分 falls on 09-22 by today's calendar: no real moment
    assert cast("2082-09-26T18:00+08:00").term_day is None
    assert cast("2082-09-22T18:00+08:00").term_day == "秋分"


@pytest.mark.parametrize("kw, word", [
    (dict(day="甲子", on="子加子", term_day="立秋天"), "--term-day"),
    (dict(day="甲子", on="子加子", lunar="13-1"), "--lunar"),
    (dict(day="甲子", on="子加子", lunar="9-31"), "--lunar"),
    (dict(day="甲子", on="子加子", lunar="九月初三"), "--lunar"),
    (dict(moment="2026-11-22T10:00+08:00", lunar="9-3"), "--lunar"),
    (dict(moment="2026-11-22T10:00+08:00", term_day="立春"), "--term-day"),
    (dict(day="甲子", on="子加子", year=2026, partner_born=1990), "--partner-sex"),
    (dict(day="甲子", on="子加子", partner_sex="x"), "--partner-sex"),
    (dict(day="甲子", on="子加子", partner_xingnian="甲丑"), "--partner-xingnian"),
    (dict(day="甲子", on="子加子", year=2026, partner_born=1990, partner_sex="f", partner_xingnian="午"), "--partner-born"),
])
def test_bad_values_are_refused(kw, word):
    moment = kw.pop("moment", None)
    with pytest.raises(InputError) as e:
        cast(moment, **kw)
    assert word in str(e.value)


def test_the_cli_takes_them(capsys):
    from liuren.cli.main import main
    assert main(["judge", "--day", "丁酉", "--on", "辰加酉", "--term-day", "秋分", "--lunar", "8-5"]) == 0
    assert "天寇課" in capsys.readouterr().out
    assert main(["judge", "--day", "壬申", "--on", "巳加未", "--xingnian", "甲寅", "--sex", "m",
                 "--partner-xingnian", "己亥", "--partner-sex", "f"]) == 0
    assert "繁昌課" in capsys.readouterr().out


def test_erfan_takes_the_dates_rixiu_not_the_boards_yuejiang():
    """卷九 ¶579: 壬子日午將卯時 — 「若正月十四占得此課，則為地煩」 (日宿 亥 by 正月起亥, not the board's 午);
    「若六月初二占得此課，為天地二煩」."""
    names = fired(day="壬子", on="午加卯", lunar="1-14")
    assert "地煩" in names and "天煩" not in names and "二煩課" not in names
    assert {"天煩", "地煩", "二煩課"} <= fired(day="壬子", on="午加卯", lunar="6-2")
    assert "天煩" in fired(day="壬子", on="午加卯")                 # no date: the 日宿 is the 月將 (¶952)


def test_the_xiu_given_directly():
    """The books state them: 卷九 ¶725 「如癸卯日春分，離辰壬寅，月宿在辰，加寅，為天寇課」."""
    assert "天寇課" in fired(day="癸卯", on="辰加寅", term_day="春分", yuexiu="辰")
    assert "天寇課" not in fired(day="癸卯", on="辰加寅", term_day="春分", yuexiu="巳")
    assert "天煩" not in fired(day="壬子", on="午加卯", rixiu="亥")           # given: before the 月將
    assert {"天煩", "地煩", "二煩課"} <= fired(day="壬子", on="午加卯", rixiu="午", yuexiu="午")
    assert cast(day="壬子", on="午加卯", rixiu="午").to_dict()["xiu"] == {"日宿": "午"}
    with pytest.raises(InputError) as e:
        cast(day="壬子", on="午加卯", yuexiu="柳")
    assert "--yuexiu" in str(e.value)


def test_the_cli_and_api_take_the_xiu(capsys):
    from liuren.app.params import CAST_KEYS
    from liuren.cli.main import main
    assert {"rixiu", "yuexiu"} <= set(CAST_KEYS)
    assert main(["judge", "--day", "癸卯", "--on", "辰加寅", "--term-day", "春分", "--yuexiu", "辰"]) == 0
    assert "天寇課" in capsys.readouterr().out
    assert main(["judge", "--day", "壬申", "--on", "巳加未", "--partner-xingnian", "午"]) == 2
    err = capsys.readouterr().err
    assert "--sex" in err and len(err.strip().splitlines()) == 1
