"""Casting: the structural facts of 《六壬大全》卷一 起例 over the 720 lessons, the 卷七 example,
calendar edges and properties."""
import datetime as dt
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from liuren import InputError
from liuren import cast
from liuren.casting.cast import lesson_table
from liuren.casting.symbols import BRANCHES, JIAZI

ALL = list(lesson_table())


def test_720_lessons():
    assert len(ALL) == 720
    assert len({(b.day, off) for off, b in ALL}) == 720


def test_fuyin_fanyin_sixty_each():
    gates = Counter(b.transmissions.gate for _, b in ALL)
    assert gates["伏吟"] == 60 and gates["返吟"] == 60
    # 伏吟 is offset 0 and 返吟 offset 6, and nothing else
    assert all((b.transmissions.gate == "伏吟") == (off == 0) for off, b in ALL)
    assert all((b.transmissions.gate == "返吟") == (off == 6) for off, b in ALL)


def test_exactly_16_maoxing():
    assert sum(b.transmissions.gate == "昴星" for _, b in ALL) == 16


def test_exactly_9_biezhe_and_which():
    got = sorted((b.day, b.lessons[0].upper) for _, b in ALL if b.transmissions.gate == "別責")
    want = sorted([("戊辰", "午"), ("戊午", "午"), ("丙辰", "午"), ("辛丑", "丑"), ("辛丑", "未"),
                   ("辛未", "丑"), ("辛未", "未"), ("丁酉", "巳"), ("辛酉", "酉")])
    assert got == want


def test_fuyin_with_ke_only_on_yi_and_gui_days():
    # A 伏吟 board "has 克" when a lesson's upper and lower 克 each other (only lesson 1 can).
    from liuren.casting.tables import core
    T = core()
    with_ke = {b.day[0] for off, b in ALL if off == 0
               and any(T.ke(l.lower, l.upper) or T.ke(l.upper, l.lower) for l in b.lessons)}
    assert with_ke == {"乙", "癸"}
    # and on those days the 三傳 start from the 克 lesson
    for off, b in ALL:
        if off == 0 and b.day[0] in "乙癸":
            assert b.transmissions.branches[0] == b.lessons[0].upper


def test_same_day_and_offset_same_lessons_whatever_the_absolute_plate():
    for day in ("丁卯", "甲子", "辛酉", "庚申"):
        for off in range(12):
            ref = cast(day=day, jiang=BRANCHES[off], hour="子")
            for h in range(12):
                b = cast(day=day, jiang=BRANCHES[(off + h) % 12], hour=BRANCHES[h])
                assert [(l.upper, l.lower) for l in b.lessons] == [(l.upper, l.lower) for l in ref.lessons]
                assert b.transmissions.branches == ref.transmissions.branches
                assert b.transmissions.gate == ref.transmissions.gate


def test_juan7_example_shehai():
    # 卷七: 正月丁卯日 丑時 亥將. Lessons 巳/丁 卯/巳 丑/卯 亥/丑; 丑加卯 and 亥加丑 are both 下賊上
    # and both yin like 丁, so 涉害: 亥 passes 辰 戊 未 己 戌 (five earth) on its way home, 丑 only 乙.
    # 亥 is 初傳; 亥 over 酉 over 未.  丑 is a night hour: 丁 night 貴人 is 酉.
    b = cast(day="丁卯", jiang="亥", hour="丑")
    t = b.transmissions
    assert t.gate == "涉害"
    assert t.branches == ("亥", "酉", "未")
    assert [b.generals[x] for x in t.branches] == ["朱雀", "貴人", "太陰"]
    assert not b.daytime
    assert any("辰、戊、未、己、戌，5 重" in s.text for s in t.steps)
    assert cast(day="丁卯", on="亥加丑") == b


def test_stem_in_on_stands_for_its_jigong():
    assert cast(day="甲子", on="午加辛") == cast(day="甲子", jiang="午", hour="戌")


def test_book_examples_for_guiren_school():
    # 《六壬大全》卷一 ¶1272, 卷十一 ¶127: 壬子日 未加卯 by night → 三傳 generals 勾陳 太常 貴人 (needs 壬 夜卯, 甲牛 school)
    b = cast(day="壬子", on="未加卯", night=True)
    assert [b.generals[x] for x in b.transmissions.branches] == ["勾陳", "太常", "貴人"]
    # 癸亥日 辰加癸 (癸 lodges on 丑) by night → 螣蛇 勾陳 白虎
    b = cast(day="癸亥", on="辰加癸", night=True)
    assert [b.generals[x] for x in b.transmissions.branches] == ["螣蛇", "勾陳", "白虎"]


def test_juanzhong_examples_need_jiayang_school():
    # 卷中 ¶239: 乙未日 申加午, 申 乘貴人 (乙 晝申) — only under guiren=甲羊
    assert cast(day="乙未", on="申加午", guiren="甲羊").generals["申"] == "貴人"
    assert cast(day="乙未", on="申加午").generals["申"] != "貴人"


def test_xun_void_dungan():
    b = cast(day="丁卯", on="亥加丑")
    assert b.xun.name == "甲子" and (b.xun.head, b.xun.tail) == ("子", "酉")
    assert b.void == ("戌", "亥")
    assert b.dungan["酉"] == "癸" and b.dungan["亥"] == ""
    b = cast(day="癸亥", on="子加子")
    assert b.xun.name == "甲寅" and b.void == ("子", "丑") and b.xun.tail == "亥"


def test_liuqin_and_changsheng():
    b = cast(day="甲子", on="子加子")
    d = b.to_dict()
    assert d["liuqin"]["亥"] == "父母" and d["liuqin"]["申"] == "官鬼" and d["liuqin"]["辰"] == "妻財"
    assert d["changsheng"]["亥"] == "長生" and d["changsheng"]["卯"] == "帝旺" and d["changsheng"]["未"] == "墓"
    # 陰干逆行: 乙 長生 午, 帝旺 寅
    d = cast(day="乙丑", on="子加子").to_dict()
    assert d["changsheng"]["午"] == "長生" and d["changsheng"]["寅"] == "帝旺"


def test_explicit_year_month_give_taisui_season_and_wangxiang():
    b = cast(day="丁卯", on="亥加丑", year="丙午", month="庚寅")
    assert b.taisui == "午" and b.month_branch == "寅" and b.season == ("春", "春")
    assert dict(b.wangxiang) == {"木": "旺", "火": "相", "土": "死氣", "金": "囚", "水": "休"}
    b = cast(day="丁卯", on="亥加丑", month="壬辰")
    assert b.season == ("春", "季") and dict(b.wangxiang)["土"] == "旺"
    b = cast(day="丁卯", on="亥加丑")
    assert b.taisui is None and b.season is None
    assert any("--year" in n for n in b.notes) and any("--month" in n for n in b.notes)


def test_benming_xingnian():
    # born 1990 (庚午), male, cast year 2026: 虛歲 37 → 丙寅 + 36 = 壬寅
    b = cast(day="丁卯", on="亥加丑", year=2026, born=1990, sex="m")
    assert b.benming_gz == "庚午" and b.xingnian_gz == "壬寅"
    # female from 壬申 backward: 壬申 − 36 = 丙申
    b = cast(day="丁卯", on="亥加丑", year=2026, born=1990, sex="f")
    assert b.xingnian_gz == "丙申"
    # a birth date before 立春 belongs to the previous year
    b = cast(day="丁卯", on="亥加丑", year=2026, born="1990-01-20", sex="m")
    assert b.benming_gz == "己巳"


# --------------------------------------------------------------------------- calendar edges
def test_yuejiang_changes_at_zhongqi():
    # 小雪 2026-11-22 15:23:21 (UTC+8): 霜降 gives 卯, 小雪 gives 寅
    before = cast("2026-11-22T15:22+08:00")
    after = cast("2026-11-22T15:24+08:00")
    assert (before.zhongqi, before.jiang) == ("霜降", "卯")
    assert (after.zhongqi, after.jiang) == ("小雪", "寅")


def test_year_changes_at_lichun():
    # 立春 2026-02-04 04:02 (UTC+8)
    assert cast("2026-02-04T04:00+08:00").pillars[0] == "乙巳"
    assert cast("2026-02-04T04:05+08:00").pillars[0] == "丙午"
    assert cast("2026-02-04T04:05+08:00").jieqi == "立春"


@pytest.mark.parametrize("boundary, t, day, hour", [
    ("23", "2026-11-30T22:59+08:00", "戊申", "亥"),
    ("23", "2026-11-30T23:00+08:00", "己酉", "子"),
    ("23", "2026-12-01T00:00+08:00", "己酉", "子"),
    ("0", "2026-11-30T22:59+08:00", "戊申", "亥"),
    ("0", "2026-11-30T23:00+08:00", "戊申", "子"),
    ("0", "2026-12-01T00:00+08:00", "己酉", "子"),
])
def test_day_boundary(boundary, t, day, hour):
    b = cast(t, day_boundary=boundary)
    assert (b.day, b.hour) == (day, hour)


def test_moment_in_another_zone():
    # 03:00 in New York is 16:00 in Beijing, after 小雪: 月將 寅 (absolute); day and 占時 by the
    # local clock: 2026-11-22 (庚子), 寅 hour.
    ny = cast("2026-11-22 03:00", tz="America/New_York")
    assert (ny.day, ny.hour, ny.jiang) == ("庚子", "寅", "寅")
    same_instant_cn = cast("2026-11-22T16:00+08:00")
    assert same_instant_cn.jiang == "寅" and same_instant_cn.hour == "申"
    assert cast("2026-11-22T03:00-05:00") == ny


def test_traditional_jieqi_names():
    assert cast("2026-03-10T12:00+08:00").jieqi == "驚蟄"
    assert cast("2026-04-25T12:00+08:00").jieqi == "穀雨"


# --------------------------------------------------------------------------- properties
moments = st.datetimes(min_value=dt.datetime(1901, 3, 1), max_value=dt.datetime(2099, 11, 30),
                       timezones=st.just(dt.timezone(dt.timedelta(hours=8))))


@settings(max_examples=60, deadline=None)
@given(moments)
def test_any_moment_casts(m):
    b = cast(m)
    assert b.day in JIAZI and b.pillars[2] == b.day
    assert sorted(b.generals.values()) == sorted(set(b.generals.values())) and len(set(b.generals.values())) == 12
    plate = set(b.plate.values())
    assert set(b.transmissions.branches) <= plate
    assert {l.upper for l in b.lessons} <= plate
    assert cast(m) == b


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(JIAZI), st.sampled_from(BRANCHES), st.sampled_from(BRANCHES), st.booleans(),
       st.sampled_from(["甲牛", "甲羊"]))
def test_explicit_properties(day, jiang, hour, night, school):
    b = cast(day=day, jiang=jiang, hour=hour, night=night, guiren=school)
    assert len(set(b.generals_t)) == 12
    assert b.generals[b.noble_branch] == "貴人"
    assert b == cast(day=day, jiang=jiang, hour=hour, night=night, guiren=school)
    assert hash(b) == hash(cast(day=day, jiang=jiang, hour=hour, night=night, guiren=school))


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("kw, needle", [
    ({"day": "甲丑", "on": "亥加丑"}, "甲丑"),
    ({"day": "丁卯", "jiang": "Q", "hour": "丑"}, "'Q'"),
    ({"day": "丁卯", "jiang": "亥", "hour": "13"}, "'13'"),
    ({"day": "丁卯", "on": "子加Q"}, "'Q'"),
    ({"day": "丁卯", "on": "亥加丑", "sex": "x", "born": 1990}, "'x'"),
    ({"day": "丁卯", "on": "亥加丑", "guiren": "甲狗"}, "甲狗"),
    ({"moment": "tomorrow"}, "tomorrow"),
    ({"moment": "1800-01-01T00:00+08:00"}, "range"),
    ({"moment": "2026-01-01 10:00", "tz": "Mars/Olympus"}, "Mars/Olympus"),
])
def test_bad_input_names_the_value(kw, needle):
    m = kw.pop("moment", None)
    with pytest.raises(InputError) as e:
        cast(m, **kw)
    assert needle in str(e.value)


@settings(max_examples=150, deadline=None)
@given(st.datetimes(min_value=dt.datetime(1901, 3, 1), max_value=dt.datetime(2099, 11, 1)),
       st.sampled_from([8, 0, -5, 9, 5.5]), st.sampled_from([23, 0]))
def test_calendar_cache_agrees_with_lunar_python(naive, hours, boundary):
    # moment_inputs caches by 節 period and by date; it must give exactly what lunar-python's
    # EightChar gives at the instant (year, month, 節氣 in China time) and on the local clock
    # (day, hour), under both day boundaries.
    from liuren.casting.calendar import CHINA, JIEQI_NAMES, _solar, moment_inputs
    m = naive.replace(tzinfo=dt.timezone(dt.timedelta(hours=hours)))
    got = moment_inputs(m, boundary)
    cn = m.astimezone(CHINA).replace(tzinfo=None)
    lunar = _solar(cn).getLunar()
    ec = lunar.getEightChar()
    el = _solar(naive).getLunar().getEightChar()
    el.setSect(1 if boundary == 23 else 2)
    assert (got["year"], got["month"], got["day"], got["hour"]) == (ec.getYear(), ec.getMonth(), el.getDay(), el.getTime())
    assert got["jieqi"] == JIEQI_NAMES[lunar.getPrevJieQi(False).getName()]
    assert got["zhongqi"] == JIEQI_NAMES[lunar.getPrevQi(False).getName()]


# 《六壬大全》卷七 杜傳格 (107 ¶473) lists every 杜傳 lesson of 伏吟 with its 三傳
DUFU = {"壬辰": "亥辰戌", "壬午": "亥午子", "乙亥": "辰亥巳", "乙酉": "辰酉卯", "丁卯": "卯子午", "己卯": "卯子午",
        "辛卯": "卯子午", "壬申": "亥申寅", "壬戌": "亥戌未", "壬子": "亥子卯", "壬寅": "亥寅巳", "乙丑": "辰丑戌",
        "乙未": "辰未丑", "乙巳": "辰巳申", "乙卯": "辰卯子", "丁酉": "酉未丑", "己酉": "酉未丑", "辛酉": "酉戌未",
        "丁亥": "亥未丑", "己亥": "亥未丑", "辛亥": "亥戌未"}


@pytest.mark.parametrize("day", sorted(DUFU))
def test_every_dufu_lesson_of_the_book(day):
    t = cast(day=day, on="子加子").transmissions
    assert "".join(t.branches) == DUFU[day]
    assert t.gate == "伏吟" and t.subtype == "杜傳"


def test_dufu_is_exactly_the_books_list():
    # no other 伏吟 lesson is 杜傳
    dufu = {d for d in JIAZI if cast(day=d, on="子加子").transmissions.subtype == "杜傳"}
    assert dufu == set(DUFU)


def test_zimao_dufu_step_cites_the_line():
    steps = cast(day="丁卯", on="子加子").transmissions.steps
    assert any("子卯兩刑，不複再傳，以子衝午為末傳也" in s.verse for s in steps)


# --------------------------------------------------------------------------- the steps cite the book
def _all_steps():
    """Every derivation step of the 720 lessons, under both 涉害 options (伏吟 and 返吟 included)."""
    from liuren.casting.cast import structure
    for day in JIAZI:
        for offset in range(12):
            for shehai in ("count", "mengzhong"):
                for s in structure(day, offset, shehai)[4]:
                    yield day, offset, shehai, s


def test_every_step_cites_a_verse_of_the_book():
    import re
    from liuren.casting.tables import core
    T = core()
    used = set()
    for day, offset, shehai, s in _all_steps():
        where = f"{day} offset {offset} {shehai}: {s.text}"
        v = T.verses.get(s.rule)
        assert v is not None, where
        assert s.verse == v["quote"] and s.seed == v["seed"] and s.para == v["para"], where
        assert s.book == "六壬大全" and s.volume.startswith("卷"), where
        assert s.seed in T.books and isinstance(s.para, int), where
        assert not re.search(r"[A-Za-z]", s.verse), where
        assert s.to_dict()["seed"] == s.seed and s.to_dict()["para"] == s.para
        used.add(s.rule)
    # every gate's verse is used somewhere, the 伏吟 and 返吟 ones included
    assert {"plate", "plate-fuyin", "plate-fanyin", "lessons", "chuanfa", "zeike", "zeike-one", "biyong",
            "biyong-shehai", "shehai", "shehai-tie", "yaoke", "maoxing", "maoxing-order", "biezhe", "bazhuan",
            "fuyin", "fuyin-xing", "fuyin-zixing", "fuyin-zixing-last", "fuyin-dufu", "fanyin"} <= used


def test_fuyin_steps_cite_the_line_that_justifies_them():
    # 丁卯 伏吟: 中傳 is 初傳's 刑 (「迤邐刑之作中末」), 末 its 衝 (杜傳, 卷七 ¶473)
    steps = cast(day="丁卯", on="子加子").transmissions.steps
    by = {s.rule: s for s in steps}
    assert by["plate-fuyin"].para == 434 and by["plate-fuyin"].volume == "卷七"
    assert by["fuyin-xing"].verse == "迤邐刑之作中末" and (by["fuyin-xing"].volume, by["fuyin-xing"].para) == ("卷一", 19)
    assert (by["fuyin-dufu"].volume, by["fuyin-dufu"].para) == ("卷七", 473)
    # 乙亥 伏吟: 初傳 辰 自刑 → 次傳 支上 亥 (「次傳顛倒日辰並」), 亥 又自刑 → 末傳 its 衝 巳
    b = cast(day="乙亥", on="亥加亥")
    assert b.transmissions.branches == ("辰", "亥", "巳")
    by = {s.rule: s for s in b.transmissions.steps}
    assert by["fuyin-zixing"].verse == "若也自刑為發用，次傳顛倒日辰並。"
    assert by["fuyin-zixing-last"].verse == "次傳更複自刑者，衝取末傳不論刑。"
