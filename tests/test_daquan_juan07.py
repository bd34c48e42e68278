"""《六壬大全》卷七 (seed 107): the volume's statements about the 720 lessons, checked against the
caster (engine.cast.lesson_table), and the helper facts of kb/daquan/juan07* against the caster's
own view of the board.  Where the book's figure differs from the cast, the test records the cast's
figure and says why (the report to the lead lists the differences too)."""
from collections import Counter, defaultdict

import pytest

from liuren import judge
from liuren.casting.cast import cast, lesson_table
from liuren.casting.symbols import BRANCHES


@pytest.fixture(scope="module")
def lessons():
    return [(off, b) for off, b in lesson_table()]


def _chuan(b):
    return "".join(b.transmissions.branches)


def test_yuanshou_count(lessons):
    """¶37「六壬總計七百二十課，內合元首課凡一百一十五」.  The cast finds 119 boards of the gate 賊克
    whose 體 is 元首 (one upper overcomes its lower, no other 克), and 2 more on 返吟 boards
    (癸丑、癸未 with 未加丑); kb/daquan reports 元首課 on all 121 (see dq07-zongmen).  The book's
    115 is not reproduced: 119 − 115 = 4 is exactly the number of 八專-day boards where the same
    upper overcomes both the stem and the branch (甲寅 酉, 己未 卯, 庚申 巳, 庚申 午: lessons 一
    and 三 coincide), which the book may have counted under 八專; the text does not say."""
    zeike = [b for _, b in lessons if (b.transmissions.gate, b.transmissions.subtype) == ("賊克", "元首")]
    fanyin = [b for _, b in lessons if (b.transmissions.gate, b.transmissions.subtype) == ("返吟", "元首")]
    assert len(zeike) == 119
    assert sorted(b.day for b in fanyin) == ["癸丑", "癸未"]
    both = [b for b in zeike if [i for i, l in enumerate(b.lessons) if _ke(l.upper, l.lower)] == [0, 2]
            and b.lessons[0].lower_branch == b.lessons[2].lower_branch]
    assert sorted((b.day, b.lessons[0].upper) for b in both) == [("己未", "卯"), ("庚申", "午"), ("庚申", "巳"), ("甲寅", "酉")]
    assert len(zeike) - len(both) == 115


def _ke(a, b):
    from liuren.casting.tables import core
    return core().ke(a, b)


def test_yuanshou_examples_of_para_37():
    """¶37「乙未日卯加未，丙申日卯加戌，壬寅日巳加申，辛酉日午加加申發用之類，則為元首」."""
    for day, on in (("乙未", "卯加未"), ("丙申", "卯加戌"), ("壬寅", "巳加申"), ("辛酉", "午加申")):
        b = cast(day=day, on=on)
        assert b.transmissions.subtype == "元首", (day, on)
        assert b.transmissions.branches[0] == on[0], (day, on)


def test_biezhe_days_of_para_360(lessons):
    """¶360「戊午、戊辰與丙辰，乾上皆午是為親。辛丑、辛未各二日，乾上皆是醜未真。丁酉當為巳丁是，
    辛酉原來是酉辛」: the nine 別責 boards, and the 干上 of each."""
    got = sorted((b.day, b.lessons[0].upper) for _, b in lessons if b.transmissions.gate == "別責")
    assert got == sorted([("戊午", "午"), ("戊辰", "午"), ("丙辰", "午"),
                          ("辛丑", "丑"), ("辛丑", "未"), ("辛未", "丑"), ("辛未", "未"),
                          ("丁酉", "巳"), ("辛酉", "酉")])


def test_jinglan_days(lessons):
    """¶553「無克者，惟丁未、己未、辛未、丁丑、己丑、辛丑六日」(the cast agrees); ¶536 names only
    four of them (己丑、丁丑、辛未、辛丑: 「無克惟四日」), leaving out 丁未 and 己未, which ¶558–559
    treat apart as 返吟 that 「猶屬八專」."""
    got = sorted(b.day for _, b in lessons if b.transmissions.subtype == "井欄射")
    assert got == sorted(["丁未", "己未", "辛未", "丁丑", "己丑", "辛丑"])
    assert set(got) - {"己丑", "丁丑", "辛未", "辛丑"} == {"丁未", "己未"}


def test_bazhuan_days(lessons):
    """¶364「蓋八專日有五，除癸丑日俱有克，無克者甲寅、庚申」 (剛日) and 「己未、丁未柔日」:
    the boards of the gate 八專 (干支同位而無克) fall on 甲寅、庚申、丁未、己未; 癸丑 has 克 on
    every offset."""
    got = Counter(b.day for _, b in lessons if b.transmissions.gate == "八專")
    assert set(got) == {"甲寅", "庚申", "丁未", "己未"}
    assert all(b.transmissions.gate != "八專" for _, b in lessons if b.day == "癸丑")


def test_fuyin_chuan_of_para_447_460(lessons):
    """¶447「甲日自用寅，三傳寅巳申；丙戊日自用巳，三傳巳申寅；庚日自用申，三傳申寅巳」 and ¶460
    「丁巳、辛巳、己巳，自用巳，三傳巳申寅；丁丑、辛丑、己丑用丑，三傳丑戌未；丁未、辛未、己未用未，
    三傳未丑戌」."""
    want = {"甲": "寅巳申", "丙": "巳申寅", "戊": "巳申寅", "庚": "申寅巳"}
    checked = 0
    for _, b in lessons:
        if b.offset != 0:
            continue
        if b.day[0] in want:
            assert _chuan(b) == want[b.day[0]], b.day
            checked += 1
        if b.day[0] in "丁辛己" and b.day[1] in "巳丑未":
            assert _chuan(b) == {"巳": "巳申寅", "丑": "丑戌未", "未": "未丑戌"}[b.day[1]], b.day
            checked += 1
    assert checked >= 24                            # the 甲丙戊庚 days and the nine 丁辛己 days


DUCHUAN = {  # ¶473, the 三傳 of each 杜傳 day as printed
    "壬辰": "亥辰戌", "壬午": "亥午子", "乙亥": "辰亥巳", "乙酉": "辰酉卯",
    "丁卯": "卯子午", "己卯": "卯子午", "辛卯": "卯子午",
    "壬申": "亥申寅", "壬戌": "亥戌未", "壬子": "亥子卯", "壬寅": "亥寅巳",
    "乙丑": "辰丑戌", "乙未": "辰未丑", "乙巳": "辰巳申", "乙卯": "辰卯子",
    "丁酉": "酉未丑", "己酉": "酉未丑", "辛酉": "酉戌未",
    "丁亥": "亥未丑", "己亥": "亥未丑", "辛亥": "亥戌未",
}


def test_duchuan_days_of_para_473():
    """¶473 lists twenty-one 杜傳 days with their 三傳; the cast gives every one (丁卯、己卯、辛卯
    卯子午 too: 「子卯兩刑，不複再傳，以子衝午為末傳」), and names them 杜傳."""
    for day, want in DUCHUAN.items():
        t = cast(day=day, on="子加子").transmissions
        assert (_chuan(cast(day=day, on="子加子")), t.subtype) == (want, "杜傳"), day


def test_lianru_days_of_para_684():
    """¶684「亥將有九課，癸酉、乙酉、丙戌、丁酉、戊戌、己酉、庚戌、辛酉、壬戌九日，俱亥將戌時占，是亥子丑
    為三傳也」 and the other 亥將戌時 連茹 it lists."""
    for day in "癸酉 乙酉 丙戌 丁酉 戊戌 己酉 庚戌 辛酉 壬戌".split():
        assert _chuan(cast(day=day, jiang="亥", hour="戌")) == "亥子丑", day
    others = {"甲子": "辰巳午", "乙丑": "寅卯辰", "丙寅": "辰巳午", "丁卯": "辰巳午", "壬申": "丑寅卯",
              "甲戌": "辰巳午", "丁丑": "申酉戌", "戊寅": "辰巳午", "己卯": "辰巳午", "庚辰": "午未申",
              "辛巳": "午未申", "壬午": "丑寅卯"}
    for day, want in others.items():
        assert _chuan(cast(day=day, jiang="亥", hour="戌")) == want, day
    # 「庚辰日午未申，神遙克日。辛巳日午未申，神遙克日」
    for day in ("庚辰", "辛巳"):
        t = cast(day=day, jiang="亥", hour="戌").transmissions
        assert (t.gate, t.subtype) == ("遙克", "蒿矢"), day


def test_keshu_matches_the_caster(lessons):
    """The helper fact 課數 (kb/daquan/juan07-a-zongmen.yaml) counts the distinct lessons as the
    caster does (its 四課俱全 test for 昴星 / 別責), on every board: one 課數 fact, the right one."""
    assert len(lessons) == 720
    for off, b in lessons:
        distinct = len({(l.upper, l.lower_branch) for l in b.lessons})
        r = judge({"day": b.day, "jiang": BRANCHES[off], "hour": "子"})
        got = [f["數"] for f in r.wm if f.get("t") == "課數"]
        assert got == [distinct], (b.day, off, got, distinct)
