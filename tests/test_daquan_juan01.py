"""《六壬大全》卷一 as knowledge: the 天將不臨 headings (¶1427–1463) over the 720 lessons, and the 逐月神煞
listing (¶177–487) against the monthly 神煞 rows of kb/daquan/juan01-shensha.yaml."""
import os
import pathlib
import re

import pytest

from liuren.casting.cast import generals
from liuren.casting.symbols import BRANCHES
from liuren.knowledge.kbload import load_kb

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
FIX = {"會［部": "會神", "四放心": "四廢", "月皮": "月破", "喪魁": "喪魄", "驛心": "驛馬"}
GLUED = {"亡神孤辰": ["亡神", "孤辰"], "煞神枯骨": ["煞神", "枯骨"]}


def zhuyue_listing(text):
    """(月建 branch, name) -> set of branches, as the listing prints them.  A line 「支<TAB>神…」 names the 神 of
    that branch; a line without a branch continues the branch before.  In 三月 ¶249, ¶251, ¶253 the line
    without a branch belongs to the next branch (the slip the inventory notes: 解神 內解 under 酉 …)."""
    ps = text.split("\n\n")
    out = {}
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
            target = cur
        else:
            rest, target = p, cur
            if m == 2 and i in (249, 251, 253):
                target = BRANCHES[(BRANCHES.index(cur) + 1) % 12]
        for n in re.split(r"[\s\u3000]+", rest):
            if not n:
                continue
            for nn in GLUED.get(FIX.get(n, n), [FIX.get(n, n)]):
                out.setdefault((BRANCHES[(m + 2) % 12], nn), set()).add(target)
    return out


@pytest.mark.skipif(not SEED.exists(), reason="the seeds are not available ($LIUREN_SEEDS or ../shared/seeds)")
def test_zhuyue_listing_against_the_monthly_rows():
    """Every cell where the listing names a monthly 煞 of ¶79–176: the row's branch is among the listed ones,
    or the row's variant zhuyue records the listing's branches for that month (the reading chosen: ¶79–176)."""
    import yaml
    listing = zhuyue_listing(SEED.read_text(encoding="utf-8"))
    doc = yaml.safe_load((ROOT / "kb" / "daquan" / "juan01-shensha.yaml").read_text(encoding="utf-8"))
    table = next(t for t in doc["tables"] if t["id"] == "dq01-yue")
    agree = differ = 0
    for row in table["rows"]:
        names = [row["name"]] + (row.get("aliases") or [])
        cells = {e["鍵"]: e["支"] for e in row.get("each", [])}
        var = next((v for v in row.get("variants") or [] if v["id"] == "zhuyue"), None)
        vcells = {e["鍵"]: e["支"] for e in var["each"]} if var else {}
        for month in BRANCHES:
            listed = set().union(*[listing.get((month, n), set()) for n in names])
            if not listed or month not in cells:
                continue
            mine = cells[month]
            mine = {mine} if isinstance(mine, str) else set(mine)
            if mine & listed:
                agree += 1
                continue
            differ += 1
            assert var is not None, f"{row['id']} {row['name']}: month {month} listed at {sorted(listed)}, " \
                                    f"the row has {sorted(mine)} and no variant zhuyue"
            v = vcells.get(month)
            v = {v} if isinstance(v, str) else set(v or [])
            assert v == listed, f"{row['id']} {row['name']} month {month}: variant {sorted(v)}, listing {sorted(listed)}"
    assert agree > 500 and differ > 0
