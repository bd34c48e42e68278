"""卷中 (seed 004) ¶183–356: the worked examples of the text, cast and judged.

卷中's examples are cast in
the 甲羊 貴人 school (guiren="甲羊", see the guiren table of kb/core/casting.yaml): every board below passes it.
Where the text writes 「X加干」 the stem stands for its 寄宮 (甲寅 乙辰 丙戊巳 丁己未 庚申 辛戌 壬亥
癸丑).  「旦將」 = day 貴人 (night=False), 「夜將」 = night 貴人 (night=True).  Each test works the
text's reasoning in a comment and asserts what the board and the KB can show; where the text
cannot be reproduced the comment says why.
"""
import pytest

from liuren import cast
from liuren import judge

from liuren.casting.symbols import BRANCHES, JIAZI
from helpers import fired

STEMS = "甲乙丙丁戊己庚辛壬癸"
DE = dict(zip(STEMS, "寅申巳亥巳寅申巳亥巳"))          # 日德 (¶234, ¶268)
JIGONG = dict(zip(STEMS, "寅辰巳未巳未申戌亥丑"))
ELEM = {**{c: "木" for c in "甲乙寅卯"}, **{c: "火" for c in "丙丁巳午"}, **{c: "土" for c in "戊己辰戌丑未"},
        **{c: "金" for c in "庚辛申酉"}, **{c: "水" for c in "壬癸亥子"}}
KE = {"木": "土", "土": "水", "水": "火", "火": "金", "金": "木"}


def J(**board):
    board.setdefault("guiren", "甲羊")
    return judge(board)


def facts(r, t, **match):
    return [d for d in r.wm if d["t"] == t and all(d.get(k) == v for k, v in match.items())]


def firings(r, rid):
    return [f for f in r.firings if rid in (f.report, f.rule)]


def ke(a, b):
    return KE[ELEM[a]] == ELEM[b]


def all_boards(**extra):
    """The 720 lessons as 月將 over 子 (offset = 月將), with the given options."""
    for d in JIAZI:
        for j in BRANCHES:
            yield dict(day=d, on=f"{j}加子", guiren="甲羊", **extra)


# ------------------------------------------------------------------------------------- 德 ¶236–240
def test_236_de_fayong_he_guiren():
    # 丁酉日 亥加丁（丁寄未：亥加未），巳午未時為晝，旦將。丁德歸於合（丁合壬，壬德在亥），丁之日合亦亥
    # （壬居亥）。三傳亥卯未，亥發用而乘貴人（丁晝貴亥）：日德發用、日合、貴人三者同在一支，主意外之喜。
    r = J(day="丁酉", on="亥加未")
    b = r.board
    assert b.transmissions.branches[0] == "亥" and b.generals["亥"] == "貴人"
    assert facts(r, "德合", 類="日德", 支="亥") and facts(r, "德合", 類="日合", 支="亥")
    assert "jzb-de-fayong-he-gui" in fired(r)
    # 亥又為丁之日鬼（陰水克陰火，同陰陽）：¶237 日德發用為鬼，仍作德斷。
    assert "jzb-de-hua-gui" in fired(r)


def test_236_only_yi_ding_gui_days():
    # 「此惟乙丁癸三日有之」：日德即日合者乙申、丁亥、己寅、癸巳；己之貴人（子、申）永不乘寅，故只乙丁癸。
    # 逐盤查日德為初傳或干上者（晝夜兩將），凡成此格者日干必在乙丁癸。
    stems = set()
    for night in (False, True):
        for bd in all_boards(night=night):
            b = cast(**bd)
            p = b.positions()
            if DE[b.day[0]] not in (p["初傳"], p["干上"]):
                continue
            if "jzb-de-fayong-he-gui" in fired(judge(bd)):
                stems.add(b.day[0])
    assert stems == set("乙丁癸")


def test_237_de_hua_gui_only_ding_xin():
    # 「此惟丁、辛二日有之」：鬼取同陰陽相克（¶274）。乙德申（陽金克陰木）、己德寅（陽木克陰土）異陰陽，
    # 不為日鬼；丁德亥、辛德巳同陰陽。逐盤查日德發用者。
    stems = set()
    for bd in all_boards():
        b = cast(**bd)
        if b.transmissions.branches[0] != DE[b.day[0]]:
            continue
        if "jzb-de-hua-gui" in fired(judge(bd)):
            stems.add(b.day[0])
    assert stems == set("丁辛")


def test_238_wende_ge():
    # 己巳日寅加巳發用：寅為己之日德（己合甲，甲德在寅），寅木克己土為官星；旦將己貴在子，
    # 寅乘朱雀。又己丑日寅加丑旦將亦然。（丑時本為夜，文言旦將，故指定 night=False。）
    r1 = J(day="己巳", on="寅加巳")
    assert r1.board.daytime and r1.board.transmissions.branches[0] == "寅"
    assert r1.board.generals["寅"] == "朱雀"
    assert "jzb-wende-ge" in fired(r1)
    r2 = J(day="己丑", on="寅加丑", night=False)
    assert r2.board.transmissions.branches[0] == "寅" and r2.board.generals["寅"] == "朱雀"
    assert "jzb-wende-ge" in fired(r2)
    # 「雀得地」「申克德為冤仇，一在末傳，一在干上」：己巳一課申在末傳，己丑一課申在干上。
    assert r1.board.transmissions.branches[2] == "申"
    assert r2.board.positions()["干上"] == "申"
    # 雖值空亡：己丑日甲申旬，申為旬首，不空；己巳日甲子旬空戌亥，申亦不空。文「雖值空亡，第恐填實」
    # 於此二盤不能印證（申俱不空），只記之。年命制伏之附論未立為規則。
    assert "申" not in r1.board.void and "申" not in r2.board.void


def test_238_only_two_lessons():
    # 「此只己巳日寅加巳，己丑日寅加丑旦將兩課而已」：旦將之 720 課中，日德發用者逐一判之，只此兩課成格。
    hits = set()
    for bd in all_boards(night=False):
        b = cast(**bd)
        if b.transmissions.branches[0] != DE[b.day[0]]:
            continue
        if "jzb-wende-ge" in fired(judge(bd)):
            hits.add((b.day, b.transmissions.branches[0], b.under(b.transmissions.branches[0])))
    assert hits == {("己巳", "寅", "巳"), ("己丑", "寅", "丑")}


def test_239_de_bei_xiazei():
    # 乙未日申加午為用：申為乙之日德（乙合庚，庚德在申）；地盤午火克申金，下賊上發用；
    # 旦將乙貴在申，申乘貴人，貴人（丑土）脫午之火而生申之金：得生扶，仍作全吉。
    r = J(day="乙未", on="申加午")
    b = r.board
    assert b.transmissions.branches[0] == "申" and b.under("申") == "午" and b.generals["申"] == "貴人"
    assert "jzb-de-xiazei-sheng" in fired(r)
    # 文以此例置於「若無生扶，又見克脫，主喜中生憂」之後，然貴人實生申：此例屬有生扶之條。
    assert "jzb-de-xiazei-wusheng" not in fired(r)


def test_240_gui_de_ge():
    # 辛未日巳加午：巳為辛之日德（辛合丙，丙德在巳），巳火克辛金，所臨午火亦克辛；
    # 乙酉日申加酉：申為乙之日德，申金克乙木，所臨酉金亦克乙。德隨鬼行，名鬼德格。
    for day, on in (("辛未", "巳加午"), ("乙酉", "申加酉")):
        r = J(day=day, on=on)
        assert r.board.transmissions.branches[0] == on[0]
        assert "jzb-gui-de-ge" in fired(r)


def test_240_only_two_lessons():
    # 「此只辛未日巳加午，乙酉日申加酉兩課而已」。
    hits = set()
    for bd in all_boards():
        b = cast(**bd)
        c = b.transmissions.branches[0]
        g = b.day[0]
        if c != DE[g] or not ke(c, g) or not ke(b.under(c), g):
            continue
        if "jzb-gui-de-ge" in fired(judge(bd)):
            hits.add((b.day, c, b.under(c)))
    assert hits == {("辛未", "巳", "午"), ("乙酉", "申", "酉")}


# ------------------------------------------------------------------------------------- 合 ¶248–258
def test_248_dun_gan_zuo_he():
    # 戊辰日干上酉：戊辰屬甲子旬，酉遁癸，癸與戊合（戊癸合）。酉加巳（戊寄巳）。
    r = J(day="戊辰", on="酉加巳")
    assert r.board.positions()["干上"] == "酉" and r.board.dungan["酉"] == "癸"
    assert "jzb-dun-gan-he" in fired(r)


def test_250_251_gan_zhi_ben_liuhe():
    # ¶251：丙申日巳加申為用（丙寄巳，巳申六合，干加支）；辛卯日卯加辛為用（辛寄戌，卯戌六合，支加干）。
    for day, on in (("丙申", "巳加申"), ("辛卯", "卯加戌")):
        r = J(day=day, on=on)
        assert "jzb-ganzhi-ben-liuhe" in fired(r)
    # ¶250 之「丙子日申加子為用，與丙寄之巳宮六合」：申為丙之干六合（德合立成六合行：丙申）。
    r = J(day="丙子", on="申加子")
    assert facts(r, "德合", 類="干六合", 支="申")
    assert r.board.transmissions.branches[0] == "申"
    assert "jzb-sandeng-he" in fired(r)            # 六合神為用入傳


def test_256_gan_sanhe():
    # 甲子日戌加申，三傳戌午寅，與甲寄之寅宮三合：三傳合火局而含寄宮寅。
    # 照字面起「戌加申」，三傳乃辰午申，不成火局；三傳戌午寅者為戌加甲（甲寄寅，月將申加子時），
    # 「申」蓋「甲」之誤，與下例「申加乙」同式（乙寄辰，申加辰）。
    assert J(day="甲子", on="戌加申").board.transmissions.branches == ("辰", "午", "申")
    r = J(day="甲子", on="戌加寅")
    assert r.board.transmissions.branches == ("戌", "午", "寅")
    assert facts(r, "傳局", 局="火")
    assert facts(r, "德合", 類="干三合", 支="午") and facts(r, "德合", 類="干三合", 支="戌")
    # 乙酉日申加乙（乙寄辰：申加辰），三傳申子辰，與乙寄之辰宮三合。
    r = J(day="乙酉", on="申加辰")
    assert r.board.transmissions.branches == ("申", "子", "辰")
    assert facts(r, "德合", 類="干三合", 支="申")


def test_257_gan_zhi_ben_sanhe():
    # 甲午日寅加午，三傳戌午寅：甲寄寅與日支午同屬寅午戌，干加支，三傳成局。
    # 癸酉日酉加癸（癸寄丑：酉加丑），三傳巳丑酉：支加干，三傳成金局。
    for day, on, chuan in (("甲午", "寅加午", ("戌", "午", "寅")), ("癸酉", "酉加丑", ("巳", "丑", "酉"))):
        r = J(day=day, on=on)
        assert r.board.transmissions.branches == chuan
        assert "jzb-ganzhi-ben-sanhe" in fired(r)


def test_257_only_five_stems():
    # 「惟甲庚丁己癸五日有之」：逐盤查寄宮與日支同局而相加者。
    stems = set()
    for bd in all_boards():
        b = cast(**bd)
        j, z = JIGONG[b.day[0]], b.day[1]
        if j == z or (b.under(j) != z and b.under(z) != j):
            continue
        if "jzb-ganzhi-ben-sanhe" in fired(judge(bd)):
            stems.add(b.day[0])
    assert stems <= set("甲庚丁己癸") and {"甲", "癸"} <= stems


def test_258_mu_guan_cou_he():
    # 占幕館：丙辰年壬申日，酉將未時（晝）。壬申屬甲子旬，戌亥空；壬寄亥，干即值空。
    # 干陰卯乘貴人（旦將壬貴在卯）。亥卯未木局：卯入課傳，亥空（虛），未缺：虛一待用；
    # 占時未湊足之，日干寄宮亥亦為湊位：湊合格。未為壬之日合（丁居未）又為官星（土克水），
    # 未加巳乘勾陳（有權力，亦主遲滯）。
    r = J(day="壬申", jiang="酉", hour="未", year="丙辰", question="占幕館")
    b = r.board
    p = b.positions()
    assert p["干陰"] == "卯" and b.generals["卯"] == "貴人"
    assert "亥" in b.void and p["日干"] == "亥"
    assert b.under("未") == "巳" and b.generals["未"] == "勾陳"
    assert facts(r, "德合", 類="日合", 支="未")
    assert "jzb-xu-yi-dai-yong" in fired(r)
    assert "jzb-cou-he-ge" in fired(r)
    assert facts(r, "湊神", 支="未")
    assert "jzb-cou-rihe" in fired(r)           # 所湊之神未為日合：相好之人成合
    # 文「幹上醜空亡」與盤不合：干上確為丑，但丑不在本旬空亡（所空者乃壬寄之亥）。
    assert p["干上"] == "丑" and "丑" not in b.void
    # 「次年四月朔辛未日由相好有力之官薦」之應期，非盤上之事，不能檢。


# ------------------------------------------------------------------------------------- 鬼 ¶279–286
def test_279_ming_an_liang_gui():
    # 庚辰日午加巳為用：午火為庚金之日鬼（陽克陽），所臨巳火亦克庚：明暗兩鬼（攢眉格）。
    r = J(day="庚辰", on="午加巳")
    assert r.board.transmissions.branches[0] == "午" and r.board.under("午") == "巳"
    assert "jzb-mingan-lianggui" in fired(r)


def test_280_cai_sheng_gui():
    # 庚申日午加申（庚寄申，午加干），三傳午辰寅：午鬼發用，末傳寅木為庚之財，財生午鬼。
    r = J(day="庚申", on="午加申")
    assert r.board.transmissions.branches == ("午", "辰", "寅")
    assert "jzb-cai-dong-sheng-gui" in fired(r)
    # 庚寅日午加申，三傳午辰寅：庚寅屬甲申旬，午未空，午鬼空亡；命在辰（生於辰年，1988 戊辰），
    # 辰上見寅（天盤寅加地盤辰），寅為財而生午鬼：貪財自招其禍。
    r = J(day="庚寅", on="午加申", born=1988)
    b = r.board
    assert b.transmissions.branches == ("午", "辰", "寅") and "午" in b.void
    assert b.benming == "辰" and b.over("辰") == "寅"
    assert "jzb-tan-cai-zhao-huo" in fired(r)


def test_281_gui_duo_you_zhi_and_baihu():
    # 壬辰日支上未（未加辰），三傳戌丑辰，干上寅木制之。夜將戌乘青龍，制鬼無患；旦將戌乘白虎，
    # 克傷寅木，不能御。
    night = J(day="壬辰", on="未加辰", night=True)
    day = J(day="壬辰", on="未加辰", night=False)
    for r in (night, day):
        assert r.board.transmissions.branches == ("戌", "丑", "辰")
        assert r.board.positions()["干上"] == "寅" and r.board.positions()["支上"] == "未"
        assert "jzb-gui-duo-you-zhi" in fired(r)
    assert night.board.generals["戌"] == "青龍" and "jzb-gui-cheng-baihu" not in fired(night)
    assert day.board.generals["戌"] == "白虎" and "jzb-gui-cheng-baihu" in fired(day)
    # 文謂「皆作日鬼」，然丑（陰土）與壬（陽水）異陰陽，依 ¶274 不為日鬼：鬼多有制以凡克干者計。
    assert not facts(night, "卷中鬼", 類="日鬼", 支="丑")
    assert facts(night, "卷中鬼", 類="日鬼", 支="戌") and facts(night, "卷中鬼", 類="日鬼", 支="辰")


def test_282_gui_ju_sheng_gan_shang():
    # 乙酉日巳加酉為用（文「為三」當作「為用」），三傳巳丑酉成金局克乙木；干上子水，金生水、水生木。
    r = J(day="乙酉", on="巳加酉")
    assert r.board.transmissions.branches == ("巳", "丑", "酉") and r.board.positions()["干上"] == "子"
    assert "jzb-gui-ju-sheng-ganshang" in fired(r)


def test_283_gui_tuo_sheng_ge():
    # 丙戌日干上子（子加巳），三傳子未寅：子水為丙火之日鬼（陽克陽），子水生末傳寅木，寅為丙之長生。
    r = J(day="丙戌", on="子加巳")
    assert r.board.positions()["干上"] == "子" and r.board.transmissions.branches == ("子", "未", "寅")
    assert "jzb-gui-tuo-sheng-ge" in fired(r)


def test_284_gui_ju_jiang_jiu():
    # 辛巳日午加辛（辛寄戌：午加戌）為用，三傳午寅戌成火局克辛金；旦夜天將皆貴勾常（土），脫火生金。
    for night in (False, True):
        r = J(day="辛巳", on="午加戌", night=night)
        b = r.board
        assert b.transmissions.branches == ("午", "寅", "戌")
        assert {b.generals[x] for x in b.transmissions.branches} == {"貴人", "勾陳", "太常"}
        assert "jzb-gui-ju-jiang-jiu" in fired(r)


def test_285_jiang_gui_chuan_jiu():
    # 壬子日未加卯為用，三傳未亥卯（木局，壬之子孫）；旦將勾常貴，皆土克壬水，為鬼；木局制土，神將相戰。
    r = J(day="壬子", on="未加卯", night=False)
    b = r.board
    assert b.transmissions.branches == ("未", "亥", "卯")
    assert [b.generals[x] for x in b.transmissions.branches] == ["勾陳", "太常", "貴人"]
    assert "jzb-jiang-gui-chuan-jiu" in fired(r)


# ------------------------------------------------------------------------------------- 刑 沖 ¶292–300
def test_292_xing_shen_changsheng():
    # 庚寅日巳加申（庚寄申，巳加干）為用：巳刑申，巳又為庚之長生，生扶之中亦有傷殘。
    r = J(day="庚寅", on="巳加申")
    assert r.board.transmissions.branches[0] == "巳"
    assert "jzb-xing-shen" in fired(r) and "jzb-changsheng-fayong" in fired(r)


def test_293_qu_qie_yong_xing_lei():
    # 占娶妾：辛卯日干上未（未加戌），三傳子未子；旦將卯乘天后，卯與辛寄之戌宮六合，為妾之類神；
    # 用神子刑卯，必有變。
    r = J(day="辛卯", on="未加戌", night=False, question="占娶妾")
    b = r.board
    assert b.positions()["干上"] == "未" and b.transmissions.branches == ("子", "未", "子")
    assert b.generals["卯"] == "天后"
    assert facts(r, "卷中類神", 支="卯")
    assert "jzb-yong-xing-lei" in fired(r)


def test_297_chong_shen_cai():
    # 乙丑日戌加乾（乙寄辰：戌加辰）為用：戌沖辰，戌土雖為乙之財，求財亦無望。
    r = J(day="乙丑", on="戌加辰")
    assert r.board.transmissions.branches[0] == "戌"
    assert "jzb-chong-shen" in fired(r)


def test_300_gan_gui_yong_chong_lei():
    # 占干貴：己酉日干上辰（辰加未），三傳午卯子；旦將子乘貴人（類神）；命在辰（1988 戊辰），
    # 辰上見丑，子丑六合；然用神午沖子，機緣散。
    r = J(day="己酉", on="辰加未", night=False, born=1988, question="占干貴")
    b = r.board
    assert b.transmissions.branches == ("午", "卯", "子") and b.generals["子"] == "貴人"
    assert b.benming == "辰" and b.over("辰") == "丑"
    assert facts(r, "卷中類神", 支="子")
    assert "jzb-yong-chong-lei" in fired(r)


# ------------------------------------------------------------------------------------- 數目 ¶319–321
def test_319_cai_shu_first():
    # 占財：七月（申月）壬戌日子時午將，巳加壬（壬寄亥）為用。巳為壬之財（類神）。
    # 巳數四，「休氣減半」（依 ¶183 火於秋為囚，亦衰，同減半），壬數六：4×½×6=12，文作一百二十兩；
    # 巳遁丁（甲寅旬），丁數六，減半，乘壬六：6×½×6=18，文作一百八十兩。數之十百由占者酌定。
    r = J(day="壬戌", on="午加子", month="戊申", question="占財")
    assert r.board.transmissions.branches[0] == "巳" and r.board.under("巳") == "亥"
    assert facts(r, "時氣", 行="火", 氣="囚")
    assert facts(r, "數", 項="上下相乘", 支="巳", 值=12)
    assert facts(r, "數", 項="遁干上下相乘", 支="巳", 值=18)


def test_319_cai_shu_second():
    # 丙辰年九月（戊戌月）乙卯日卯時辰將，辰加卯為用。辰為乙之財；辰係太歲又係月將，以極旺論，
    # 數五加倍為十，文作一千兩；辰乘勾陳（旦將乙貴在申），勾數五，相併為十五，文作一千五百兩；
    # 乙卯干支同類（木），分而爭之，中分之，七有半，「不過七百有零」。
    r = J(day="乙卯", on="辰加卯", year="丙辰", month="戊戌", question="占財")
    b = r.board
    assert b.transmissions.branches[0] == "辰" and b.taisui == "辰" and b.jiang == "辰"
    assert b.generals["辰"] == "勾陳"
    assert facts(r, "數倍", 支="辰", 倍=2)
    assert facts(r, "數", 項="本數", 支="辰", 值=10)
    assert facts(r, "數", 項="本數天將相併", 支="辰", 值=15)
    assert facts(r, "數", 項="干支同類中分", 支="辰", 值=7.5)
    # 「而財支土豈能得乎」之意未明（或言財為土而干支俱木，克而難得），不立。


def test_320_dao_li():
    # 四月（巳月）乙酉日酉將戌時（夜）：子乘貴人（乙夜貴子）加丑；四月天馬在子；子之陰神亥（天盤亥加子），
    # 亥為酉日之驛馬（日馬，文稱「對馬」），遁丁。二馬相乘：子九×亥四=三十六，文作三千六百里；
    # 夏令水囚，衰氣減半，十八，文作一千八百里。
    r = J(day="乙酉", on="酉加戌", month="辛巳", question="占道里")
    b = r.board
    assert not b.daytime and b.generals["子"] == "貴人" and b.under("子") == "丑"
    assert b.over("子") == "亥" and b.dungan["亥"] == "丁"
    assert facts(r, "數", 項="二馬相乘", 支="子", 值=18)
    # 「道路神」文未定義，不立。


def test_321_guan_pin():
    # 占官以官星上下相乘定品：「得四數為四品，四十八數為從四品」是泛說，文無盤可檢；此處只驗其算法：
    # 甲子日申加卯，問占官：官星申（金克木）加卯，申七卯六，相乘四十二，相併十三。
    r = J(day="甲子", on="申加卯", question="占官")
    assert r.board.under("申") == "卯"
    assert facts(r, "數", 項="官品（上下相乘）", 支="申", 值=42)
    assert facts(r, "數", 項="官品（上下相併）", 支="申", 值=13)
    # 三傳三合作官局者按五行本數：甲子日子加辰，三傳申子辰水局（生甲，為印，非官非財）不論；
    # 找一官局之盤：乙日見巳酉丑金局（克乙）。
    hits = []
    for bd in all_boards(question="占官"):
        b = cast(**{k: v for k, v in bd.items() if k != "question"})
        if b.day[0] == "乙" and set(b.transmissions.branches) == set("巳酉丑"):
            hits.append(judge(bd))
            break
    assert hits and facts(hits[0], "數", 項="官品（五行本數）", 值=4)


# ------------------------------------------------------------------------------------- 顏色 ¶327–328
def test_327_328_colours():
    # ¶327「壬寅加申為用」：用神寅遁壬，壬黑為外衣，寅青中雜赤為內衣（上身），申白中雜黃黑為下身。
    # 找寅遁壬（甲午旬）而寅加申發用之盤：甲午日寅加申。
    r = J(day="甲午", on="寅加申", question="占人服色")
    b = r.board
    assert b.transmissions.branches[0] == "寅" and b.dungan["寅"] == "壬"
    assert facts(r, "色", 項="外", 值="黑")
    assert facts(r, "色", 項="內", 值="青中雜赤")
    assert facts(r, "色", 項="下身", 值="白中雜黃黑")
    # ¶328 射覆「午加酉為用，應是上赤下白之物」。
    for bd in all_boards(question="射覆"):
        b = cast(**{k: v for k, v in bd.items() if k != "question"})
        if b.transmissions.branches[0] == "午" and b.under("午") == "酉":
            r = judge(bd)
            assert facts(r, "色", 項="上", 值="赤") and facts(r, "色", 項="下", 值="白")
            break
    else:
        pytest.fail("no board with 午加酉 為用")


# ------------------------------------------------------------------------------------- 墓 ¶213–223
def test_213_223_mu_examples():
    # ¶213 干支坐墓：甲日寅加未（甲墓未）；乙日辰加戌（乙墓戌）；子亥日子亥加辰（水墓辰）。
    assert "jzb-ganzhi-zuomu" in fired(J(day="甲子", on="寅加未"))
    assert "jzb-ganzhi-zuomu" in fired(J(day="乙丑", on="辰加戌"))
    assert "jzb-ganzhi-zuomu" in fired(J(day="丙子", on="子加辰"))
    # ¶214 干支戴墓：丙日戌加巳（干上戌）；丁日丑加未；申酉日丑加申。
    assert "jzb-ganzhi-daimu" in fired(J(day="丙寅", on="戌加巳"))
    assert "jzb-ganzhi-daimu" in fired(J(day="丁卯", on="丑加未"))
    assert "jzb-ganzhi-daimu" in fired(J(day="甲申", on="丑加申"))
    # ¶215/¶217 乙日午加戌：午為乙之長生，戌既為午（火）之墓，又為乙之墓：兩條同盤而斷異（見 conflicts）。
    r = J(day="乙丑", on="午加戌")
    assert {"jzb-changsheng-zuomu", "jzb-changsheng-zuo-ganzhi-mu"} <= fired(r)
    # ¶216/¶218 乙日戌加午：亦兩條並見。
    r = J(day="乙丑", on="戌加午")
    assert {"jzb-changsheng-daimu", "jzb-changsheng-dai-ganzhi-mu"} <= fired(r)
    # ¶215 丑未辰戌日申加丑；¶217 甲日亥加未；¶218 申酉日丑加巳。
    assert "jzb-changsheng-zuomu" in fired(J(day="甲辰", on="申加丑"))
    assert "jzb-changsheng-zuo-ganzhi-mu" in fired(J(day="甲子", on="亥加未"))
    assert "jzb-changsheng-dai-ganzhi-mu" in fired(J(day="甲申", on="丑加巳"))
    # ¶219 祿神入墓：庚日申加丑；癸日子加辰（子為水，墓辰）。
    assert "jzb-lu-rumu" in fired(J(day="庚午", on="申加丑"))
    assert "jzb-lu-rumu" in fired(J(day="癸酉", on="子加辰"))
    # ¶220 年命入墓：命在辰（1988）辰加辰。¶221 年命戴墓：命在寅（1986）未加寅。
    assert "jzb-nianming-rumu" in fired(J(day="甲子", on="辰加辰", born=1988))
    assert "jzb-nianming-daimu" in fired(J(day="甲子", on="未加寅", born=1986))
    # ¶223 日鬼入墓：丙日子為鬼，子加辰。
    assert "jzb-rigui-rumu" in fired(J(day="丙寅", on="子加辰"))


# ------------------------------------------------------------------------------------- 眾寡 遲速 已往 ¶345–356
def test_345_gan_zai_kong_xiang():
    # 庚辰日（甲戌旬，申酉空）庚寄申，干在空鄉。辰加申：辰土生庚金，又與申三合，有相契之人來扶；
    # 午加申：午為日鬼克庚，孤立之際又遭劫難。
    r = J(day="庚辰", on="辰加申")
    assert "申" in r.board.void
    assert {"jzb-gan-kong-xiang", "jzb-kongxiang-youfu"} <= fired(r)
    r = J(day="庚辰", on="午加申")
    assert {"jzb-gan-kong-xiang", "jzb-kongxiang-gui"} <= fired(r)


def test_354_yi_wang_wei_lai():
    # 甲日辰加卯為用：卯在甲寄寅之前一位，為已往；戌加子為用：子在寅之後二位，為未來。
    r = J(day="甲子", on="辰加卯")
    assert r.board.transmissions.branches[0] == "辰"
    assert facts(r, "時態", 項="用神臨干", 值="已往")
    r = J(day="甲子", on="戌加子")
    assert r.board.transmissions.branches[0] == "戌"
    assert facts(r, "時態", 項="用神臨干", 值="未來")
