"""Five boards checked by hand, from the cast to the judgments.  Each comment works the board
the way a student would, and the assertions check that the engine reaches the same places."""
from liuren import judge


from helpers import by_report as fired


def test_dingmao_hai_over_chou():
    # 丁卯日 亥將 丑時 (卷七's example), 寅月.  Lessons 巳/丁 卯/巳 丑/卯 亥/丑: 丑加卯 and 亥加丑 are both
    # 下賊上 and both yin like 丁 → 涉害: 亥 meets five earth on its way home, 丑 one → 三傳 亥酉未.
    # 丁卯 is in 甲子旬: void 戌亥 → 初傳 亥 void → 斬首 (卷3 ¶7).  All four lesson tops 巳卯丑亥 and all
    # transmissions are yin → 六陰 (卷3 ¶3).  For 丁 (fire) 亥 (water) is 鬼, seen at 初傳; 卯 (wood) is
    # 印, seen at 日支 (卷3 ¶11–13).  亥 carries 朱雀 and sits on 丑: 文書 (卷2 ¶73) with the palace
    # reading 掩目, but 朱雀 rides a void branch → 「朱雀空勿實論」: both stay listed, defeated.
    r = judge({"day": "丁卯", "on": "亥加丑", "month": "壬寅"})
    assert r.board.transmissions.branches == ("亥", "酉", "未")
    f = fired(r)
    assert {"ge-zhanshou", "ge-liuyin", "sha-gui", "sha-yin"} <= set(f)
    assert f["sha-gui"].bindings["$p"] in ("初傳", "日干") and "亥" in f["sha-gui"].about
    assert f["j2c-wenshu"].defeated and f["j2c-wenshu-yanmu"].defeated
    assert not f["ge-zhanshou"].defeated
    assert r.firings[f["j2c-wenshu"].defeated_by[0]].report == "j2c-wenshu-kong"


def test_jiazi_fuyin_in_spring():
    # 甲子日 子將 子時: 伏吟, no 克 (甲 lodges on 寅, 寅 over 寅), a yang day takes 干上 寅 (自任);
    # 寅 刑 巳, 巳 刑 申 → 三傳 寅巳申 — one of the listed 順懸胎 orders (卷2 ¶1), and in a 寅 month
    # (spring) its seasonal name is 玄胎 (¶3).  寅 is the same element as 甲 → 初傳比干 (劫財, ¶37);
    # 日支 子 (water) 生 甲 (wood) → 支生干 (印綬, ¶27).  Nothing is void (甲子旬: 戌亥).
    r = judge({"day": "甲子", "on": "子加子", "month": "丙寅"})
    t = r.board.transmissions
    assert (t.branches, t.gate, t.subtype) == (("寅", "巳", "申"), "伏吟", "自任")
    f = fired(r)
    assert {"j2a-xuantai", "j2a-shun-xuantai", "j2a-xuantai-chun", "j2b-jiecai-chuchuan", "j2b-yinshou-zhi-gan"} <= set(f)
    assert not any(x.defeated for x in f.values())
    assert "ge-zhanshou" not in f


def test_jiazi_shen_over_zi_fire_ju_not_real():
    # 甲子日 申將 子時 (offset 8): 甲's lodging 寅 has 戌 over it, so 戌 加 干 → 斬關 (卷3 ¶3); the
    # lesson tops 戌午申辰 and the transmissions (賊克) 戌午寅 are all yang → 六陽.  戌午寅 is the fire
    # 三合 → 火局 (卷2 ¶21), but 戌 is void in 甲子旬 → 「三將或空一二，勿以此名實論」: 火局 is listed,
    # defeated; 初傳 戌 void → 斬首, which no 總則 of 卷3 governs, stays real.
    r = judge({"day": "甲子", "on": "申加子"})
    assert r.board.transmissions.branches == ("戌", "午", "寅")
    f = fired(r)
    assert {"ge-zhanguan", "ge-liuyang", "ge-zhanshou", "j2a-huoju"} <= set(f)
    assert f["j2a-huoju"].defeated and not f["ge-zhanshou"].defeated
    assert r.firings[f["j2a-huoju"].defeated_by[0]].kind == "總則"


def test_gengyin_fuyin_shizhong():
    # 庚寅日 伏吟: 庚 lodges on 申; no 克 (申 over 申, 寅 over 寅), yang day → 干上 申 (自任); 申 刑 寅,
    # 寅 刑 巳 → 三傳 申寅巳.  庚寅 is in 甲申旬 (甲申 … 癸巳): 旬首 申, 旬尾 巳 → 初傳 is the 旬首 and
    # 末傳 the 旬尾: 始終 (卷3 ¶7).  The lodging 申 and the day branch 寅 clash → 干支相沖 (搖動, 卷2 ¶47).
    r = judge({"day": "庚寅", "on": "寅加寅"})
    assert r.board.transmissions.branches == ("申", "寅", "巳")
    f = fired(r)
    assert {"ge-shizhong", "j2b-yaodong-ganzhi"} <= set(f)


def test_yichou_noble_on_the_first_transmission():
    # 乙丑日 寅將 子時 (night): lessons 午/乙 申/午 卯/丑 巳/卯; only 申/午 has 下賊上 (fire 克 metal) →
    # 重審, 三傳 申戌子.  乙's night 貴人 is 申 (甲牛 school): it rides 申 on 地盤 午 (午 is among
    # 巳午未申酉戌, so the generals run backward).  初傳 乘貴人 → 干貴 (卷2 ¶69); 貴人臨午 → 受貢.
    # 甲子旬's void 戌亥 touches 中傳 戌 only, so 「貴人空勿實論」 (which looks at 初傳) does not apply.
    r = judge({"day": "乙丑", "on": "寅加子"})
    b = r.board
    assert b.transmissions.branches == ("申", "戌", "子") and b.transmissions.subtype == "重審"
    assert (b.noble_branch, b.noble_dir, b.under("申")) == ("申", "逆", "午")
    f = fired(r)
    assert {"j2c-gangui", "j2c-gangui-shougong"} <= set(f)
    assert not f["j2c-gangui"].defeated and not f["j2c-gangui-shougong"].defeated
