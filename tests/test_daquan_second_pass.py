"""《六壬大全》, second pass (issue 21): rules widened to what their passage names, the
conditions the text states, and the 涉害 option named in a derivation.

Boards are judged over the 720 lessons (月將 over 占時 子) in one month, so that the
seasonal 課 (三光, 天獄 …) can fire.
"""
import functools

import pytest

from liuren import judge
from liuren.casting.symbols import BRANCHES, JIAZI
from helpers import fired

# one worker judges the 720 lessons once for all of this module's tests (its lru_cache), not once on each
pytestmark = pytest.mark.xdist_group("daquan-second-pass")

MONTH = "丙寅"


@functools.lru_cache(maxsize=None)
def fired_at(day, jiang, month=MONTH, night=None, question=None):
    board = dict(day=day, jiang=jiang, hour="子", month=month)
    if night is not None:
        board["night"] = night
    if question:
        board["question"] = question
    return fired(board)


def on(day, on_, **kw):
    x, y = on_.split("加")
    jiang = BRANCHES[(BRANCHES.index(x) - BRANCHES.index(y)) % 12]
    return fired_at(day, jiang, **kw)


LESSONS = [(d, j) for d in JIAZI for j in BRANCHES]


# ---------------------------------------------------------------- 法99 常問不應逢吉象
JITAI = {"dq07-longde", "dq08-zhuyin", "dq08-xuangai", "dq08-zhuolun", "dq08-guanjue", "dq08-fugui",
         "dq07-sanguang", "dq07-sanqi", "dq07-sanyang", "ge-zhuolun", "ge-zhuyin", "ge-xuangai"}


def test_fa099_fires_with_every_jitai_gua_of_p235():
    # 112 ¶235: 「諸龍德、鑄印、高蓋乘軒、斫輪、官爵、富貴、三光、三奇、三陽之吉泰卦」, 常人占得.
    seen = set()
    for d, j in LESSONS:
        f = fired_at(d, j)
        hit = f & JITAI
        seen |= hit
        assert bool(hit) == ("dq12-fa099" in f), (d, j, hit)
    assert {"dq07-sanguang", "dq08-zhuolun"} <= seen
    assert "dq12-fa099" in on("丙寅", "午加子")          # 三光課
    assert "dq12-fa099" not in on("丙寅", "午加子", question="占官")


# ---------------------------------------------------------------- 法100 已災凶逃返無疑
XIONGFOU = {"dq09-zaie-sangche", "dq09-pohua", "dq09-tianhuo", "j2c-tianhuo", "dq09-tiankou", "dq10-fuyang",
            "dq09-tianyu", "dq09-tianwang", "dq11-tianwang-sizhang", "dq09-erfan"}


def test_fa100_fires_with_every_xiongfou_gua_of_p237():
    n = 0
    for d, j in LESSONS:
        f = fired_at(d, j)
        assert bool(f & XIONGFOU) == ("dq12-fa100" in f), (d, j)
        n += "dq12-fa100" in f
    assert n > 0
    assert "dq12-fa100" in on("丙寅", "寅加子")          # 天獄課


def test_no_stale_weili_note_in_daquan():
    # 「本庫未立」/「待他卷」 notes in kb/daquan name no rule that exists now.
    from pathlib import Path
    kb = Path(__file__).resolve().parent.parent / "kb" / "daquan"
    files = list(kb.glob("*.yaml"))
    assert len(files) > 5, kb
    for p in files:
        text = p.read_text(encoding="utf-8")
        assert "本庫未立" not in text and "待他卷" not in text, p.name


# ---------------------------------------------------------------- 伏吟: 六癸 is 伏吟 itself, not 自信
def test_gui_fuyin_is_fuyin_not_zixin():
    # 卷七 ¶434 「取神克日為用，曰伏吟……此六癸日初傳丑，中戌，末傳未是也」; 自信 is 無克 (¶460, ¶492).
    from liuren import cast
    for d in JIAZI:
        if d[0] != "癸":
            continue
        t = cast(day=d, on="子加子").transmissions
        assert (t.gate, t.subtype) == ("伏吟", "伏吟"), d
        f = fired_at(d, "子")
        assert "dq07-fuyin" in f and "dq07-zixin" not in f, d
    for d in ("丁丑", "辛巳", "己未"):
        assert cast(day=d, on="子加子").transmissions.subtype == "自信"
        assert "dq07-zixin" in fired_at(d, "子")


def test_fa020_silent_example_names_the_right_siqi():
    # 111 ¶176 「戊己日子為胎財，七月死氣在子」: the silent example's comment names 子, not 戌.
    from pathlib import Path
    import yaml
    p = Path(__file__).resolve().parent.parent / "kb" / "daquan" / "juan11-b.yaml"
    rule = next(r for r in yaml.safe_load(p.read_text(encoding="utf-8"))["rules"] if r["id"] == "dq11-fa020")
    whys = [e["why"] for e in rule["examples"]["silent"]]
    assert any("七月死氣在子" in w for w in whys) and not any("死氣在戌" in w for w in whys)


# ---------------------------------------------------------------- 斫輪: 卯加辛 (辛寄戌)
def test_zhuolun_takes_mao_on_xin():
    # 卷八 ¶130 「卯加庚或加辛為用」; ¶147 辛卯日乾上卯.  卯 over 戌 發用 on the four 辛 days of 巳加子.
    for d in ("辛丑", "辛卯", "辛巳", "辛亥"):
        assert "dq08-zhuolun" in on(d, "巳加子"), d
        assert "dq08-zhuolun" in on(d, "巳加子", month="丙申"), d
    for d in ("丙申", "戊申"):            # 卯 over 戌 發用, but 戌 is not the 辛 of the day
        assert "dq08-zhuolun" not in on(d, "巳加子"), d


# ---------------------------------------------------------------- 法9 避難逃生須棄舊
def test_fa009_the_lessons_of_p108():
    # 111 ¶108: the first board and the ten listed 「X日乾上Y」, 己巳 by the stem's own seat (天盤未 on 日支巳)
    from liuren.casting.tables import core
    jigong = core().jigong
    listed = [("丁卯", "亥"), ("乙亥", "酉"), ("戊寅", "申"), ("庚戌", "午"), ("辛未", "丑"), ("戊午", "辰"),
              ("己巳", "酉"), ("辛酉", "亥"), ("壬申", "寅"), ("庚辰", "子")]
    assert "dq11-fa009" in on("甲子", "戌加子")
    for d, up in listed:
        assert "dq11-fa009" in on(d, f"{up}加{jigong[d[0]]}"), d
    assert "dq11-fa009" not in on("甲子", "午加子")      # 干上申 鬼, no refuge: 寅 sits on 申, which 克s it


def test_fa009_the_boards_of_p109_and_its_near_misses():
    # ¶109: 甲子 辰加寅 「日乾就子支上而受生」 (天盤寅 on 子); 庚子 子加申 「天盤申金坐於辰土之上就生」
    assert "dq11-fa009" in on("甲子", "辰加寅")
    assert "dq11-fa009" in on("庚子", "子加申")
    # 返吟 庚子 寅加申: 三傳 寅申寅 財比財, no enemy, no refuge
    assert "dq11-fa009" not in on("庚子", "寅加申")


def test_fa009_p110_to_p112():
    assert "dq11-fa009-mingding" in _j(dict(day="甲子", on="卯加亥", benming="卯"))       # ¶110 丁神 on 長生
    assert "dq11-fa009-mingding" not in _j(dict(day="甲子", on="卯加子", benming="卯"))
    assert "dq11-fa009-buneng" in _j(dict(day="丁亥", on="戌加未", night=True))          # ¶111 長生 乘白虎
    assert "dq11-fa009-buneng" not in _j(dict(day="丁亥", on="戌加未", night=False))
    assert "dq11-fa009-decai" in _j(dict(day="壬午", on="辰加亥"))                       # ¶112 壬干加午取財
    assert "dq11-fa009-decai" not in _j(dict(day="丙寅", on="寅加巳"))                   # ¶112 財落空


# ---------------------------------------------------------------- 法95 六爻現卦防其克 (112 ¶206–¶210)
XIANGGUA = ["dq12-caiyao-xiangua", "dq12-fumu-xiangua", "dq12-zixi-xiangua", "dq12-guangui-xiangua",
            "dq12-tonglei-xiangua"]


def _j(board):
    return judge(board).fired_ids()


@pytest.mark.parametrize("day, on_, month", [("辛未", "午加戌", "丙寅"), ("戊寅", "丑加巳", "庚午"),
                                             ("己巳", "亥加未", "乙酉"), ("乙丑", "子加辰", "乙酉"),
                                             ("丙寅", "丑加巳", "庚午")])
def test_fa095_the_books_relieved_examples_get_no_warning(day, on_, month):
    # ¶206–¶210: 干上 先有 the 爻 that 竊s the 三傳 and 生s the threatened one (傳財化鬼 …).
    f = _j(dict(day=day, on=on_, month=month))
    assert not set(XIANGGUA) & f and "dq12-fa095" not in f


def test_fa095_conditions_of_p206():
    # the threatened 爻 stands first on 干支年命 (丁丑日乾上先見卯), in a month the 財 is 旺
    assert {"dq12-caiyao-xiangua", "dq12-fa095"} <= _j(dict(day="丁丑", on="卯加未", month="乙酉"))
    assert "dq12-fa095" not in _j(dict(day="丁丑", on="卯加未", month="丙寅"))     # 財 休囚
    assert "dq12-fa095" not in _j(dict(day="丁丑", on="卯加未"))                   # month unknown
    # 乙亥: 支上申 would 竊 the 財 but is 空; a 父母爻 on 本命 makes it speak, none and it does not
    assert "dq12-caiyao-xiangua" in _j(dict(day="乙亥", on="申加亥", month="戊辰", benming="卯"))
    assert "dq12-caiyao-xiangua" not in _j(dict(day="乙亥", on="申加亥", month="戊辰"))


# ---------------------------------------------------------------- 法 where an independent detector fires and we did not
DETECTOR = [("dq11-fa014", "乙丑", "子加子", "丙寅"), ("dq11-fa017", "癸酉", "丑加子", "丙寅"),
            ("dq11-fa019", "甲子", "未加子", "乙亥"), ("dq11-fa031", "甲子", "卯加子", "丙寅"),
            ("dq11-fa038", "丙寅", "丑加子", "丙寅"), ("dq11-fa041", "甲子", "子加子", "丙寅"),
            ("dq11-fa045", "甲子", "午加子", "丙寅"), ("dq12-fa064", "甲子", "辰加子", "丙寅"),
            ("dq12-fa068", "甲子", "寅加子", "丙寅"), ("dq12-fa069", "戊辰", "子加子", "丙寅"),
            ("dq12-fa092", "甲子", "卯加子", "丙寅")]


@pytest.mark.parametrize("rule, day, on_, month", DETECTOR)
def test_detector_board_is_met_or_its_reading_recorded(rule, day, on_, month):
    # widened where the passage supports it; otherwise the wider reading is the rule's alternative,
    # naming the board, with the reason
    from liuren.knowledge.kbload import load_kb
    meta = load_kb().entries[rule].meta
    if any(rule in f for f in (on(day, on_, month=month, night=n) for n in (True, False))):
        return
    alt = (meta.get("interpretation") or {}).get("alternative", "")
    assert f"{day}日{on_}" in alt and "不從" in alt, rule


def test_fa045_jia_wu_geng_fanyin():
    # 111 ¶304 「甲戊庚日返吟」: 丑 and 未 change places, the two 貴人 on each other
    for d in ("甲子", "戊辰", "庚午", "甲戌"):
        assert "dq11-fa045" in on(d, "午加子"), d


def test_fa031_sheng_zhi():
    # 111 ¶235 「生幹客勝，生支主勝」: 丁卯 戌加子, 亥酉未 遞生 and 亥 生 卯
    assert "dq11-fa031" in on("丁卯", "戌加子")
    assert "dq11-fa031" not in on("甲子", "卯加子")


# ---------------------------------------------------------------- 涉害: the derivation names the other option
def test_shehai_derivation_names_the_other_option_when_the_first_differs():
    from liuren import cast
    from liuren.casting.cast import structure
    b = cast(day="丁卯", on="亥加丑")
    texts = [s.text for s in b.transmissions.steps]
    assert any("另一取法（先孟仲：不計涉害之數，逕以孟仲季取之），初傳為 丑，三傳 丑亥酉（察微）" in t for t in texts)
    b = cast(day="丁卯", on="亥加丑", shehai="mengzhong")
    assert any("另一取法（計涉害之數：數歸本家所歷之克，取其深者），初傳為 亥，三傳 亥酉未（涉害）" in s.text
               for s in b.transmissions.steps)
    assert not any("shehai" in s.text for s in b.transmissions.steps)       # the option by its name, never its id
    # over the 720 lessons: the note is there exactly when the two options give different 初傳
    for d in JIAZI:
        for off in range(12):
            c, m = structure(d, off, "count"), structure(d, off, "mengzhong")
            differs = c[1][0] != m[1][0]
            for s, other in ((c, "mengzhong"), (m, "count")):
                noted = [st.text for st in s[4] if "另一取法" in st.text]
                assert len(noted) == (1 if differs else 0), (d, off)
                if differs:
                    alt = (m if other == "mengzhong" else c)[1]
                    how = "先孟仲" if other == "mengzhong" else "計涉害之數"
                    assert f"另一取法（{how}：" in noted[0] and f"），初傳為 {alt[0]}，三傳 {''.join(alt)}" in noted[0]


# ---------------------------------------------------------------- README: the 涉害 table
def _shehai_table():
    from pathlib import Path
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    sec = readme.split("### 涉害: counting or 孟仲", 1)[1].split("\n## ", 1)[0]
    rows = [l for l in sec.splitlines() if l.startswith("| 卷")]
    out = []
    for l in rows:
        where, board, printed, count, meng, tian, bi = [c.strip() for c in l.strip("|").split("|")]
        day, on_ = board.split()
        out.append((where, day, on_, printed, count, meng, tian, bi))
    return readme, out


SHEHAI_OPTIONS = ("count", "mengzhong", "tianpan", "biyong")


def _as_printed(t, printed):
    pos = {"初傳": 0, "中傳": 1, "末傳": 2}
    printed = printed.replace("（推）", "")
    if printed[:2] in pos:
        return t.branches[pos[printed[:2]]] == printed.split()[1]
    return "".join(t.branches) == printed


def test_readme_shehai_table_matches_the_cast():
    from liuren import cast
    _, rows = _shehai_table()
    assert len(rows) == 61
    n = dict.fromkeys(SHEHAI_OPTIONS, 0)
    n_printed = dict.fromkeys(SHEHAI_OPTIONS, 0)         # without the （推） rows: what the book prints
    for where, day, on_, printed, *cells in rows:
        assert printed.replace("（推）", "").replace(" ", "") != ""
        for opt, cell in zip(SHEHAI_OPTIONS, cells):
            t = cast(day=day, on=on_, shehai=opt).transmissions
            assert t.subtype in ("涉害", "見機", "察微", "復等", "比用"), where
            assert cell.startswith(f"{''.join(t.branches)}（{t.subtype}）"), (where, opt)
            ok = _as_printed(t, printed)
            assert cell.endswith("✓") == ok, (where, opt)
            n[opt] += ok
            n_printed[opt] += ok and "（推）" not in printed
    assert n == {"count": 38, "mengzhong": 50, "tianpan": 22, "biyong": 36}
    assert n_printed == {"count": 34, "mengzhong": 42, "tianpan": 21, "biyong": 32}
    assert sum("（推）" not in r[3] for r in rows) == 53


def test_readme_shehai_table_marks_what_the_book_does_not_print():
    # 卷七 ¶180 甲戌 names only 「取子加戌」; ¶94 and 卷十 ¶346 only 「初傳戌財」; ¶231 and ¶222 imply their 三傳
    _, rows = _shehai_table()
    book = {(w, d, o): p for w, d, o, p, *_ in rows}
    assert book[("卷七 ¶180", "甲戌", "辰加寅")] == "初傳 子"
    assert book[("卷十一 ¶94", "甲午", "子加寅")] == "初傳 戌"
    assert book[("卷十 ¶346", "甲午", "子加寅")] == "初傳 戌"
    assert book[("卷十一 ¶231", "甲辰", "戌加寅")] == "戌午寅（推）"
    assert book[("卷十一 ¶222", "甲申", "戌加寅")] == "戌午寅（推）"
    # ¶151 lists plates after 「戌加子為初傳」; ¶168 「己酉、辛酉日未加寅…皆如前說」: the 初傳 by analogy
    assert book[("卷十一 ¶151", "乙卯", "丑加卯")] == "初傳 丑（推）"
    assert book[("卷十二 ¶168", "辛酉", "未加寅")] == "初傳 未（推）"
    assert book[("卷十一 ¶228", "癸卯", "酉加巳")] == "初傳 酉"          # 「癸卯日酉加巳用」 prints the 用
    for w in ("卷十一 ¶151", "卷十一 ¶228", "卷十一 ¶266", "卷十一 ¶269", "卷十二 ¶20", "卷十二 ¶48", "卷十二 ¶168"):
        assert any(r[0] == w for r in rows), w
    assert ("卷十二 ¶194", "甲戌", "辰加寅") in book


def test_biyong_takes_the_books_p180_boards_and_counts_otherwise():
    from liuren import cast
    for day, on_, chuan in (("甲戌", "辰加寅", "子寅辰"), ("戊子", "酉加子", "午卯子"), ("壬戌", "巳加子", "申丑午"),
                            ("庚子", "戌加子", "戌申午"), ("乙卯", "子加寅", "亥酉未")):
        t = cast(day=day, on=on_, shehai="biyong").transmissions
        assert ("".join(t.branches), t.subtype) == (chuan, "比用"), day
        assert "".join(cast(day=day, on=on_).transmissions.branches) != chuan or day in ("乙卯",)
    # 丁卯 亥加丑: 亥 克 丁, 丑 is 丁's child, none 生s or 比s: 比用 cannot decide and counts (亥, five 重)
    t = cast(day="丁卯", on="亥加丑", shehai="biyong").transmissions
    assert ("".join(t.branches), t.subtype) == ("亥酉未", "涉害")
    assert any(s.key == "shehai-biyong-none" for s in t.steps)


def test_tianpan_reads_the_branch_itself():
    from liuren import cast
    # 卷七 ¶203 甲辰 亥加卯: 子 (神後) 仲, 戌 (河魁) 季 → 子; by the 地盤, 戌 on 寅 is 孟 → 戌 「用戌者非也」
    assert cast(day="甲辰", on="亥加卯", shehai="tianpan").transmissions.branches[0] == "子"
    assert cast(day="甲辰", on="亥加卯", shehai="mengzhong").transmissions.branches[0] == "戌"
    # 卷七 ¶210 己丑 亥加卯: 巳 is a 孟 branch (on 酉, a 仲 place) → 見機
    t = cast(day="己丑", on="亥加卯", shehai="tianpan").transmissions
    assert (t.branches[0], t.subtype) == ("巳", "見機")
    t = cast(day="己丑", on="亥加卯", shehai="mengzhong").transmissions
    assert (t.branches[0], t.subtype) == ("巳", "察微")


def test_readme_mengzhong_list_is_the_tables():
    # the list of passages that come out only with --shehai mengzhong (Casting, Options) is the table's
    readme, rows = _shehai_table()
    only_m = {w for w, _, _, _, c, m, *_ in rows if m.endswith("✓") and not c.endswith("✓")}
    para = readme.split("Many of its worked examples elsewhere follow 孟/仲 directly", 1)[1].split("come out as", 1)[0]
    listed, vol = set(), None
    import re
    for tok in re.findall(r"(卷[七八九十一二]+)?\s*¶(\d+)", para):
        vol = tok[0] or vol
        listed.add(f"{vol} ¶{tok[1]}")
    assert listed == only_m
    assert "卷七 ¶143" not in listed and "卷七 ¶200" not in listed
    assert {"卷十一 ¶94", "卷十二 ¶63", "卷十二 ¶117"} <= listed


def test_chongshen_mojiang_takes_the_jishen_the_book_places():
    # 卷七 ¶51 「生氣、解神、天德、月德、天喜……吉神得一在末傳」: 生氣 (卷十一 ¶153), 天德, 月德 (卷八 ¶278)
    assert "dq07-chongshen-mojiang" in _j(dict(day="丙戌", on="申加巳", month="丁卯"))      # 月德 寅
    assert "dq07-chongshen-mojiang" in _j(dict(day="丙戌", on="申加巳", month="戊辰"))      # 生氣 寅
    assert "dq07-chongshen-mojiang" not in _j(dict(day="丙戌", on="申加巳", month="丙寅"))  # 寅 乘 玄武


# ---------------------------------------------------------------- issue 30: the third pass (book board and near miss)
def test_fa045_the_used_gui_void_is_not_read():
    # 111 ¶304 「視其合用之貴，如值空亡，不可照前說」: 丁卯 亥加酉 晝 uses 亥 (void in 甲子旬), 夜 uses 酉
    assert "dq11-fa045" not in on("丁卯", "亥加酉", night=False)
    assert "dq11-fa045" in on("丁卯", "亥加酉", night=True)
    assert "dq11-fa045" in on("丁巳", "亥加酉", night=False)
    assert "dq11-fa045" not in on("丁丑", "酉加亥", night=True)       # 酉 void in 甲戌旬
    assert "dq11-fa045" in on("丁亥", "酉加亥", night=True)


def test_fa092_the_voids_and_stems_of_p192():
    assert "dq12-fa092" in on("丙子", "寅加巳", month="戊辰", night=True)
    assert "dq12-fa092" not in on("丙午", "寅加巳", month="戊辰", night=True)     # 寅 void
    assert "dq12-fa092" in on("己丑", "巳加未", month="辛未", night=False)
    assert "dq12-fa092" not in on("己亥", "巳加未", month="辛未", night=False)    # 巳 void
    assert "dq12-fa092" in on("戊子", "申加巳", month="甲戌", night=False)        # 申: 戊's 長生
    assert "dq12-fa092" not in on("戊寅", "申加巳", month="甲戌", night=False)    # 申 void


def test_fa038_the_tianpan_xunshou_in_three_xun():
    # 111 ¶278: 甲午 甲辰 甲寅 旬 take the 天盤 旬首 riding 玄武
    assert "dq11-fa038" in on("甲辰", "卯加子", night=False)
    assert "dq11-fa038" not in on("丙寅", "丑加子", night=True)       # 甲子旬: only the 地盤 旬首


def test_fa095_reads_the_chuan_as_juan11_does():
    # 112 ¶206 戊戌日乾上午: 亥子丑 北方 as 水, one reading with 卷十一 (dq11-chuanxing)
    assert "dq12-caiyao-xiangua" in _j(dict(day="戊戌", on="午加巳", month="丙子"))
    assert "dq12-caiyao-xiangua" not in _j(dict(day="戊戌", on="午加巳", month="丙午"))
