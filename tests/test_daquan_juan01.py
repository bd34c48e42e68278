"""《六壬大全》卷一 as knowledge: the 天將不臨 headings (¶1427–1463) over the 720 lessons, and the 逐月神煞
listing (¶177–487) against the monthly 神煞 rows of kb/daquan/juan01-shensha.yaml."""
import functools
import os
import pathlib
import re

import pytest

from helpers import in_ci
from liuren.casting.cast import generals
from liuren.casting.symbols import BRANCHES, JIAZI
from liuren.knowledge.kbload import load_kb

# one worker judges the 720 lessons once for all of this module's tests (its lru_cache), not once on each
pytestmark = pytest.mark.xdist_group("daquan-juan01")

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEEDS = pathlib.Path(os.environ.get("LIUREN_SEEDS") or ROOT.parent / "shared" / "seeds")
SEED = SEEDS / "101_liuren_daquan_juan01.txt"
STEMS = "甲乙丙丁戊己庚辛壬癸"

# ¶1427 … ¶1460: each general and the 地盤 positions it "does not 臨" (無處不臨: none)
BULIN = {"貴人": "", "螣蛇": "戌亥", "朱雀": "酉戌亥子", "六合": "申酉戌亥子丑", "勾陳": "酉戌亥子", "青龍": "戌亥",
         "天空": "", "白虎": "辰巳", "太常": "卯辰巳午", "玄武": "寅卯辰巳午未", "太陰": "卯辰巳午", "天后": "辰巳"}
# ¶1463: 惟貴神、天空不乗辰戌，玄武、六合不乗丑未，其餘無神不乗
BUCHENG = {"貴人": "辰戌", "天空": "辰戌", "玄武": "丑未", "六合": "丑未"}


def _over_all_lessons(school):
    """general -> (the 地盤 positions it stands over, the 天盤 branches it rides) over 10 stems × 12 plates × 晝夜
    (the generals depend on the stem and the plate only, so this is every one of the 720 lessons by day and night)."""
    lin, cheng = {}, {}
    for stem in STEMS:
        for offset in range(12):
            for daytime in (True, False):
                gens, _, _ = generals(stem, offset, daytime, school)
                for b, g in zip(BRANCHES, gens):
                    cheng.setdefault(g, set()).add(b)
                    lin.setdefault(g, set()).add(BRANCHES[(BRANCHES.index(b) - offset) % 12])
    return lin, cheng


@pytest.mark.parametrize("school", ["甲牛", "甲羊"])
def test_tianjiang_bulin_over_the_720_lessons(school):
    """「X 不臨 Y」: on no board does X ride a 天盤 branch that sits on 地盤 Y; and X does stand over every
    other position (the heading names exactly the positions it never reaches)."""
    lin, _ = _over_all_lessons(school)
    for g, never in BULIN.items():
        assert lin[g] == set(BRANCHES) - set(never), (g, sorted(set(BRANCHES) - lin[g]))


@pytest.mark.parametrize("school", ["甲牛", "甲羊"])
def test_tianjiang_bucheng_1463(school):
    """¶1463: 貴神 and 天空 never ride 辰戌, 玄武 and 六合 never 丑未; every other general rides every branch."""
    _, cheng = _over_all_lessons(school)
    for g, rides in cheng.items():
        assert rides == set(BRANCHES) - set(BUCHENG.get(g, "")), (g, sorted(set(BRANCHES) - rides))


def test_bulin_headings_are_in_the_kb_as_the_books_words():
    kb = load_kb()
    t = kb.tables["tianjiang"]
    names = set(t.meta.get("aliases") or [])
    for g, never in BULIN.items():
        assert any(n.startswith(g[:2] if g != "貴人" else "貴神") for n in names), g


# --------------------------------------------------------------------------- 逐月神煞
MONTHS = ["正月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月"]
# misprints of a listed name, each read by where it stands (the name it replaces is missing from that cell and
# belongs there by its row): 會［部 ¶302, 四放心 ¶368, 月皮 ¶341, 喪魁 ¶380, 驛心 ¶285, 殺神 ¶197 ¶248 ¶366,
# 天殺 ¶265, 孤神 ¶243, 戰難 ¶248, 天時 ¶374 ¶393, 陰災 ¶453
FIX = {"會［部": "會神", "四放心": "四廢", "月皮": "月破", "喪魁": "喪魄", "驛心": "驛馬", "殺神": "煞神", "天殺": "天煞",
       "孤神": "孤辰", "戰難": "戰雌", "天時": "大時", "陰災": "陰煞"}
# 戰雄 printed in a second line where 戰雌 belongs that month (and 戰雌 is missing): ¶334 六月亥, ¶365 八月寅
# (the repeat of ¶366, which prints 戰雌), ¶423 十月巳
FIX_AT = {(334, "戰雄"): "戰雌", (365, "戰雄"): "戰雌", (423, "戰雄"): "戰雌"}
GLUED = {"亡神孤辰": ["亡神", "孤辰"], "煞神枯骨": ["煞神", "枯骨"]}
# the slipped lines (kb/daquan/juan01-zhuyue.yaml, the table's note): ¶ -> how many branches after the printed one
# its 神 belong.  三月: the line after a branch's line belongs to the next branch.  八月: the first lines of 子–午
# stand under the branch before theirs (¶365's first name only: the rest of ¶365 repeats ¶366 under 寅), ¶375–376
# printed under 未 are 酉's, ¶379–380 under 酉 are 戌's, ¶381 under 戌 is 亥's; 未's second line is lost.
SLIPS = {249: 1, 251: 1, 253: 1,
         361: 1, 363: 1, 367: 1, 369: 1, 371: 1, 373: 1, 375: 2, 376: 2, 379: 1, 380: 1, 381: 1}
SLIP_NAMES = {(365, "雨煞"): 1}


def zhuyue_records(text, slips=True):
    """Every name the listing prints: (month index 0–11, the branch it belongs to, ¶, the name read, as printed).
    A line 「支<TAB>神…」 names the 神 of that branch; a line without a branch continues the branch before; with
    `slips`, the slipped lines are read where they belong (SLIPS)."""
    ps = text.split("\n\n")
    out = []
    m, cur = -1, None
    for i in range(178, 488):
        p = ps[i].strip()
        if p in MONTHS:
            m, cur = MONTHS.index(p), None
            continue
        if p in BRANCHES:
            cur = p
            continue
        if "\t" in p:
            cur, rest = p.split("\t", 1)
            cur = cur.strip()
        else:
            rest = p
        for n in re.split(r"[\s\u3000]+", rest):
            if not n:
                continue
            off = (SLIP_NAMES.get((i, n), SLIPS.get(i, 0))) if slips else 0
            target = BRANCHES[(BRANCHES.index(cur) + off) % 12]
            name = FIX_AT.get((i, n)) or FIX.get(n, n)
            for nn in GLUED.get(name, [name]):
                out.append((m, target, i, nn, n))
    return out


def zhuyue_listing(text, slips=True):
    """(月建 branch, name) -> set of branches, as the listing gives them (the slipped lines read where they belong)."""
    out = {}
    for m, b, _, n, _ in zhuyue_records(text, slips):
        out.setdefault((BRANCHES[(m + 2) % 12], n), set()).add(b)
    return out


needs_seeds = pytest.mark.skipif(not SEED.exists() and not in_ci(), reason="the seeds are not available ($LIUREN_SEEDS or ../shared/seeds)")


def _yaml(name):
    import yaml
    return yaml.safe_load((ROOT / "kb" / "daquan" / name).read_text(encoding="utf-8"))


def _monthly_rows():
    """The rows placed by 月建: ¶79–176's (dq01-yue) and those read from the listing (dq01-zhuyue)."""
    yue = next(t for t in _yaml("juan01-shensha.yaml")["tables"] if t["id"] == "dq01-yue")
    zy = next(t for t in _yaml("juan01-zhuyue.yaml")["tables"] if t["id"] == "dq01-zhuyue")
    return yue, zy


def _cells(row):
    return {e["鍵"]: ({e["支"]} if isinstance(e["支"], str) else set(e["支"])) for e in row.get("each", [])}


@needs_seeds
@pytest.mark.parametrize("table", ["dq01-yue", "dq01-zhuyue"])
def test_zhuyue_listing_against_the_monthly_rows(table):
    """Every cell where the listing names a monthly 煞: the row's branch is among the listed ones, or the row's
    variant zhuyue records the listing's branches for that month (the reading chosen: the row's rule); and a
    variant zhuyue differs from the row only where the listing does (none left over from a slipped line)."""
    listing = zhuyue_listing(SEED.read_text(encoding="utf-8"))
    rows = dict(zip(["dq01-yue", "dq01-zhuyue"], _monthly_rows()))[table]["rows"]
    agree = differ = 0
    for row in rows:
        names = [row["name"]] + (row.get("aliases") or [])
        cells = _cells(row)
        var = next((v for v in row.get("variants") or [] if v["id"] == "zhuyue"), None)
        vcells = _cells(var) if var else {}
        for month in BRANCHES:
            listed = set().union(*[listing.get((month, n), set()) for n in names])
            if month not in cells:
                continue
            mine = cells[month]
            if not listed or mine & listed:
                agree += bool(listed)
                assert var is None or month not in vcells or vcells[month] == mine, \
                    f"{row['id']} {row['name']} month {month}: variant {sorted(vcells[month])}, the listing agrees with the row"
                continue
            differ += 1
            assert var is not None, f"{row['id']} {row['name']}: month {month} listed at {sorted(listed)}, " \
                                    f"the row has {sorted(mine)} and no variant zhuyue"
            assert vcells.get(month) == listed, \
                f"{row['id']} {row['name']} month {month}: variant {sorted(vcells.get(month, ()))}, listing {sorted(listed)}"
    assert agree > (500 if table == "dq01-yue" else 600) and differ > 0


@needs_seeds
def test_zhuyue_slipped_lines_read_where_they_belong():
    """The slip reading, judged by ¶79–176's own rules (dq01-yue, which do not come from the listing): on every line
    of 三月 and 八月 naming two or more of their 煞, the branch the reading gives (SLIPS, or the printed one) holds
    at least as many of them as the printed branch or either of the two after it, and on a slipped line more than
    the printed branch; over the two months most names fall where the reading puts them.  The table's note names
    each slipped ¶."""
    import yaml
    text = SEED.read_text(encoding="utf-8")
    yue, zy = _monthly_rows()
    rule = {}
    for row in yue["rows"]:
        for n in [row["name"]] + (row.get("aliases") or []):
            rule[n] = _cells(row)
    # ¶361 prints only 風伯, which ¶79–176 lack: 卷中's 風伯 by month (the same twelve places) judges it
    xingsha = yaml.safe_load((ROOT / "kb" / "juanzhong" / "xingsha.yaml").read_text(encoding="utf-8"))
    rule["風伯"] = next(_cells(r) for t in xingsha["tables"] for r in t.get("rows", []) if r.get("id") == "jz-fengbo")
    read, printed = zhuyue_records(text), zhuyue_records(text, slips=False)
    by_line = {}
    for (m, b, i, n, raw), (_, b0, _, _, _) in zip(read, printed):
        month = BRANCHES[(m + 2) % 12]
        if n in rule and month in rule[n]:
            hit = by_line.setdefault(i, [0, 0, [0, 0, 0]])
            hit[0] += 1
            hit[1] += b in rule[n][month]
            for off in range(3):
                hit[2][off] += BRANCHES[(BRANCHES.index(b0) + off) % 12] in rule[n][month]
    months = [i for i, p in enumerate(text.split("\n\n")) if p.strip() in MONTHS]
    spans = [range(months[2], months[3]), range(months[7], months[8])]
    lines = {i: h for i, h in by_line.items() if any(i in r for r in spans) and h[0] >= 2}
    for i, (n, here, shifted) in lines.items():
        assert here >= max(shifted), (i, n, here, shifted)
        if i in SLIPS:
            assert here > shifted[0], (i, n, here, shifted)
    assert len(lines) >= 35 and all(i in by_line for i in SLIPS)
    assert 4 * sum(h[1] for h in lines.values()) >= 3 * sum(h[0] for h in lines.values())
    note = zy["note"]
    cited = {int(x) for x in re.findall(r"¶(\d+)", note.split("訛字")[0])}
    assert set(SLIPS) | {i for i, _ in SLIP_NAMES} <= cited


# the names the listing prints once or twice, whose place no rule can be read from (the table's note lists them)
UNREAD = {"雨師", "天日", "火災", "天恩", "天六", "陰死", "天神", "大神", "歲神", "浴神", "災神"}


@needs_seeds
def test_zhuyue_names_counted():
    """Every name of the listing (misprints read) is a monthly row of ¶79–176, a row of dq01-zhuyue, or one of the
    few names no rule can be read from; the counts are the note's and README's."""
    text = SEED.read_text(encoding="utf-8")
    recs = zhuyue_records(text)
    names = {n for _, _, _, n, _ in recs}
    yue, zy = _monthly_rows()
    known = set()
    for row in yue["rows"]:
        known |= {row["name"], *(row.get("aliases") or [])}
    mine = {row["name"] for row in zy["rows"]}
    assert not mine & known and mine | (names & known) | UNREAD == names
    assert (len(names), len(names & known), len(mine), len(UNREAD)) == (149, 79, 59, 11)
    for n in UNREAD:
        assert n in zy["note"] and sum(1 for r in recs if r[3] == n) <= 2, n
    for n in mine:
        assert len({m for m, _, _, nn, _ in recs if nn == n}) >= 5, n
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert all(s in " ".join(readme.split()) for s in ("prints 149 names", "79 are the monthly", "59 more recur",
                                                      "11 are printed once or twice"))


@needs_seeds
def test_zhuyue_rows_cite_the_listing():
    """A row of dq01-zhuyue cites every ¶ where the listing prints its name (as printed there), and no other."""
    recs = zhuyue_records(SEED.read_text(encoding="utf-8"))
    _, zy = _monthly_rows()
    for row in zy["rows"]:
        want = {(i, raw) for _, _, i, n, raw in recs if n == row["name"]}
        got = {(s["para"], s["quote"]) for s in row["source"]}
        assert {i for i, _ in got} == {i for i, _ in want} and got <= want, (row["id"], sorted(got ^ want))


# --------------------------------------------------------------------------- 課目 (¶1337–1401)
def test_kemu_names_are_aliases_of_the_lessons_they_name():
    kb = load_kb()
    want = {"dq08-fanchang": ("繁昌", "德孕", 1361), "dq08-wangyun": ("旺孕", 1361), "dq08-ronghua": ("繁華", 1362),
            "dq09-jieli": ("解離", 1375), "dq09-erfan": ("二煩", 1383), "dq10-shizhong": ("始終", 1401)}
    for rid, (*names, para) in want.items():
        r = kb.rules[rid]
        assert set(names) <= set(r.aliases), rid
        assert any(s["seed"].startswith("101_") and s["para"] == para for s in r.source), rid


def test_kemu_names_without_a_definition_are_no_rule():
    # 死色 (¶1392) and 拘檢 (¶1401): only the name in 卷一, nothing in the seeds defines them
    kb = load_kb()
    rows = {r.name: r for r in kb.tables["dq01-kemu-wuyi"].rows}
    assert set(rows) == {"死色", "拘檢"}
    for name, row in rows.items():
        assert row.meta["interpretation"]["chosen"].startswith("只記其名"), name
        assert not any(name == r.name or name in r.aliases for r in kb.rules.values()), name


# --------------------------------------------------------------------------- 補論 (¶1403–1410) over the 720 lessons
def _fired_at(day, jiang, night=False, year=None):
    from helpers import fired
    board = dict(day=day, jiang=jiang, hour="子", night=night)
    if year:
        board["year"] = year
    return fired(**board)


@functools.lru_cache(maxsize=None)
def _all_lessons():
    """{(day, 月將 over 子): what fired} over the 720 lessons, judged 晝 (these 畢法 do not read the general)."""
    return {(d, j): _fired_at(d, j) for d in JIAZI for j in BRANCHES}


def _where(rule):
    return {k for k, ids in _all_lessons().items() if rule in ids}


def _shift(on):
    x, y = on.split("加")
    return BRANCHES[(BRANCHES.index(x) - BRANCHES.index(y)) % 12]


def test_1403_waihao_lichaya_only_five_days():
    # 「凡干支相害，犯外好里槎丫者，止五日：丙寅、壬申、乙夘、辛酉、戊寅」
    assert {d for d, _ in _where("dq11-waihao-lichaya")} == {"丙寅", "壬申", "乙卯", "辛酉", "戊寅"}


def test_1404_shangshen_zuohe_linjin_only_three_days():
    # 「凡上神作合，支加乾鄰近相會，止三日：壬子、丙午、戊午」: one lesson each (支 over the stem's 寄宮)
    assert _where("dq11-richen-linjin") == {("壬子", _shift("子加亥")), ("丙午", _shift("午加巳")),
                                             ("戊午", _shift("午加巳"))}


def test_1405_sanliuhe_the_eight_days():
    # 「止八日九課：壬寅、乙酉、壬午、丙申、丙辰、丙子、戊辰、戊申」: exactly the eight days; 卷十二 ¶149's
    # definition gives 丙子 and 壬午 two lessons each (辰加子, 申加子), ten lessons in all, where 卷一 counts nine
    # without saying which it leaves out (the interpretation of dq12-fa083)
    got = _where("dq12-fa083")
    assert {d for d, _ in got} == {"壬寅", "乙酉", "壬午", "丙申", "丙辰", "丙子", "戊辰", "戊申"}
    assert len(got) == 10
    assert {k for k in got if k[0] in ("丙子", "壬午")} == {("丙子", "辰"), ("丙子", "申"), ("壬午", "辰"), ("壬午", "申")}


def test_1406_yuanxiao_genduan_four_lessons():
    # 「凡源消根斷課，止四日四課：癸未、癸巳、癸夘、辛夘」: 乾上卯 on the 癸 days, 乾上子 on 辛卯 (卷十一 ¶99–100);
    # the 四課 alone would give seventeen lessons, the 三傳 chain of ¶100 leaves these four
    assert _where("dq11-yuanxiao-genduan") == {(d, _shift("寅加子")) for d in ("癸未", "癸巳", "癸卯", "辛卯")}
    assert "dq11-yuanxiao-genduan" not in _all_lessons()[("己巳", "寅")]      # 四課 chain, 三傳 亥丑卯 not


def test_1407_1408_dingshen_linzhai_every_geng_and_xin_day():
    # 「凡六庚日，巳加申，皆丁神臨宅」「凡六辛日，午加辛，亦丁神臨宅」(辛 lodged in 戌): the twelve lessons, no other
    want = {(d, _shift("巳加申")) for d in JIAZI if d[0] == "庚"} | {(d, _shift("午加戌")) for d in JIAZI if d[0] == "辛"}
    assert _where("dq11-renzhai-lihuo") == want


def test_1410_sangdiao_quanfeng_only_ten_days():
    # 「凡喪吊全逢，惟十日」: 干上 and 支上 are 喪門 (歲前二) and 吊客 (歲後二) only where the day branch is four
    # places from the stem's 寄宮, whatever the plate; on 伏吟 (干上 = 寄宮, 支上 = 日支) the only years that can
    # give it are 寄宮 ± 2, so two years per day decide every day
    from liuren.casting.tables import core
    jigong = core().jigong
    year_of = {b: next(y for y in JIAZI if y[1] == b) for b in BRANCHES}
    got = {}
    for d in JIAZI:
        j = BRANCHES.index(jigong[d[0]])
        for k, side in ((2, "吊客"), (-2, "喪門")):
            if "dq12-fa072" in _fired_at(d, "子", year=year_of[BRANCHES[(j + k) % 12]]):
                got[d] = side
    assert got == {**dict.fromkeys(("甲午", "丁亥", "己亥", "庚子", "癸巳"), "吊客"),
                   **dict.fromkeys(("甲戌", "丁卯", "己卯", "庚辰", "癸酉"), "喪門")}


# --------------------------------------------------------------------------- 先天貴神圖 (¶1411–1426)
XIANTIAN = {"甲": "子申", "乙": "丑未", "丙": "寅午", "丁": "卯巳", "戊": "巳卯", "己": "未丑", "庚": "申子", "辛": "酉亥",
            "壬": "亥酉", "癸": "丑未"}


def test_xiantian_guiren_school_places_and_turns_as_1426():
    from liuren import cast
    for stem, (day_b, night_b) in XIANTIAN.items():
        for offset in range(12):
            g, noble, direction = generals(stem, offset, True, "先天")
            assert (noble, direction) == (day_b, "順")          # 「此貴神晝順行，夜逆行」
            g, noble, direction = generals(stem, offset, False, "先天")
            assert (noble, direction) == (night_b, "逆")
    placed = {b for v in XIANTIAN.values() for b in v}
    assert not placed & set("辰戌")                              # 「不坐辰戌牢獄之地」
    assert "午" not in {v[0] for v in XIANTIAN.values()}         # 「貴人之前不敢有對衝坐者，故午上無寄」
    assert (XIANTIAN["癸"][0], XIANTIAN["癸"][1]) == ("丑", "未")  # 「晝寄丑宮，夜寄未宮」
    b = cast(day="甲子", on="子加卯", guiren="先天")
    assert (b.noble_branch, b.generals["子"]) == ("子", "貴人")
    assert cast(day="甲子", on="子加卯").noble_branch == "丑"     # the default stays 甲牛
