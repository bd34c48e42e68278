"""《六壬大全》卷十一 《畢法賦》上 (seed 111): the lesson lists of the text, checked over the 720 lessons.

Where a 法 or 格 says on which lessons it occurs (「惟乙未卯加辰、辛丑卯加戌 … 五日有之」), the rule must
fire on exactly those lessons (judged 晝; these 法 do not depend on the general), or the difference is
stated here.  A lesson 「X加Y」 is the plate on which 天盤 X sits on 地盤 Y; over the
720 lessons it is the offset of 月將 over 占時 子.
"""
import functools

import pytest

from liuren.casting.symbols import BRANCHES, JIAZI
from helpers import fired

# one worker judges the 720 lessons once for all of this module's tests (its lru_cache), not once on each
pytestmark = pytest.mark.xdist_group("daquan-juan11")


def shift(on):
    """「X加Y」 -> the 月將 that sits on 子 on that plate."""
    x, y = on.split("加")
    return BRANCHES[(BRANCHES.index(x) - BRANCHES.index(y)) % 12]


@functools.lru_cache(maxsize=None)
def fired_at(day, jiang, night):
    return fired(day=day, jiang=jiang, hour="子", night=night)


def lessons_where(rule, night=False, days=JIAZI):
    return {(d, j) for d in days for j in BRANCHES if rule in fired_at(d, j, night)}


def L(*pairs):
    """{(day, 月將 over 子)} from the text's (day, 「X加Y」)."""
    return {(d, shift(on)) for d, on in pairs}


# ¶69–70 首尾相見: 干上旬尾支上旬首 five days, 干上旬首支上旬尾 five days, no other lesson.
# The text prints 「丙寅丑加巳」: 丙寅 is of the 甲子旬 (旬首 子, 旬尾 酉), and 丑加巳 puts 丑 on 干上 and
# 戌 on 支上, neither 旬首 nor 旬尾; 子加巳 (干上 子 旬首, 支上 酉 旬尾) is the lesson meant.  The rule
# fires there, and not on 丑加巳 (see the interpretation of dq11-fa002).
SHOUWEI = L(("乙未", "卯加辰"), ("辛丑", "卯加戌"), ("丙申", "卯加巳"), ("壬寅", "卯加亥"), ("戊申", "丑加巳"),
            ("乙丑", "子加辰"), ("辛未", "子加戌"), ("丙寅", "子加巳"), ("戊寅", "戌加巳"), ("壬申", "子加亥"))


def test_069_070_shouwei_xiangjian_exactly_the_ten_lessons():
    assert lessons_where("dq11-fa002") == SHOUWEI
    assert ("丙寅", shift("丑加巳")) not in lessons_where("dq11-fa002")


def test_064_ganzhi_gong_lu_only_three_fuyin():
    # 「惟伏吟卦為的，如丁巳、己巳、癸亥皆伏吟」
    assert lessons_where("dq11-ganzhi-gong-lu") == {("丁巳", "子"), ("己巳", "子"), ("癸亥", "子")}


def test_065_ganzhi_gong_gui_only_three_fuyin():
    # 「如庚午、己酉支干拱夜貴，甲子支干拱晝貴，皆伏吟卦」
    assert lessons_where("dq11-ganzhi-gong-gui") == {("庚午", "子"), ("己酉", "子"), ("甲子", "子")}


def test_105_lu_lin_zhi_one_lesson_every_day():
    # 「且此例每日有一課」
    got = lessons_where("dq11-fa008")
    assert len(got) == 60 and {d for d, _ in got} == set(JIAZI)


def test_117_xiumu_listed_lessons_fire():
    # 「如庚戌日卯加申，辛亥日卯加辛，此二者尤的，餘有癸丑日卯加申發用」: the three listed lessons fire.
    # The rule (卯 空 and 加 庚辛之地, in the lesson) also fires on 戊申 卯加申 (卯 干陰 over 申) and
    # 己酉 卯加酉 (卯 over 酉 in the lesson); the text's list is not exhaustive («餘有»).
    got = lessons_where("dq11-fa010")
    listed = L(("庚戌", "卯加申"), ("辛亥", "卯加戌"), ("癸丑", "卯加申"))
    assert listed <= got
    assert got - listed == L(("戊申", "卯加申"), ("己酉", "卯加酉"))


def test_187_jiaoche_one_lesson_on_each_of_55_days():
    # 「六十日內除甲寅、庚申、丁未、己未、癸丑五日系八專日，干支不分，交車無合，其餘五十五日每日一課」
    got = lessons_where("dq11-fa021")
    days = [d for d, _ in got]
    assert len(got) == 55 and len(set(days)) == 55
    assert set(JIAZI) - set(days) == {"甲寅", "庚申", "丁未", "己未", "癸丑"}


def test_189_shangxia_jie_he_five_days():
    # 「如乙酉、丙申、戊申、辛卯、壬寅，此五日伏吟者是也」: the five days' 伏吟 fire.  The definition
    # (干上合支上、寄宮合日支) also holds on the same five days' 返吟 (both upper branches move by six),
    # which the text does not name; no other lesson.
    five = ["乙酉", "丙申", "戊申", "辛卯", "壬寅"]
    assert lessons_where("dq11-fa022") == {(d, j) for d in five for j in ("子", "午")}


def test_322_liang_gui_shou_ke_lessons():
    # 「如六乙、六己日申加午、子加戌，六丙、六丁日亥加未、酉加巳，六辛日午加子、寅加申，六壬、六癸日巳加亥，
    # 卯加酉，惟甲戊庚三乾無此例」: exactly one plate for each stem, none for 甲戊庚.
    plates = {"乙": "申加午", "己": "申加午", "丙": "亥加未", "丁": "亥加未", "辛": "午加子", "壬": "巳加亥", "癸": "巳加亥"}
    want = {(d, shift(plates[d[0]])) for d in JIAZI if d[0] in plates}
    assert lessons_where("dq11-fa049") == want


def test_315_guiren_linshen_only_yi_xin():
    # 「如是乙辛二日占，卻名貴人臨身」: 貴人 on 辰戌 that is the 寄宮 only on 乙 (辰) and 辛 (戌) days.
    stems = {d[0] for d, _ in lessons_where("dq11-fa047")}
    assert stems == {"乙", "辛"}
