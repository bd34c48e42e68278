"""總鈐, the book's own table of the 720 lessons (《六壬大全》卷一 ¶488–1202), against the cast.

tests/data/zongqian.yaml is the table parsed by bench/zongqian.py (the parse is described there);
tests/data/zongqian-differences.yaml lists every printed column the cast does not give, with its class
(a fault of the text, a wrong label line, a real difference, or a 涉害 lesson where the book takes one
option).  README states how many lessons the table confirms under each 涉害 option."""
import os
import pathlib
import re
import subprocess
import sys
from collections import Counter

import pytest

from helpers import in_ci
import yaml

from liuren.casting.cast import structure
from liuren.casting.symbols import BRANCHES

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
ROWS = yaml.safe_load((DATA / "zongqian.yaml").read_text(encoding="utf-8"))["rows"]
DIFFS = yaml.safe_load((DATA / "zongqian-differences.yaml").read_text(encoding="utf-8"))["differences"]
OPTIONS = ("count", "mengzhong")
JIGONG = dict(zip("甲乙丙丁戊己庚辛壬癸", "寅辰巳未巳未申戌亥丑"))
SEEDS = pathlib.Path(os.environ.get("LIUREN_SEEDS") or ROOT.parent / "shared" / "seeds")
SEED = SEEDS / "101_liuren_daquan_juan01.txt"


def _offset(on):
    j, h = on.split("加")
    return (BRANCHES.index(j) - BRANCHES.index(h)) % 12


def _cast(day, on, option):
    return "".join(structure(day, _offset(on), option)[1])


CASTS = {(r["day"], r["plate"], o): _cast(r["day"], r["plate"], o) for r in ROWS for o in OPTIONS}


def _entry(row):
    on = row["plate"].split("加")[0] + "加" + row["day"][0]
    found = [d for d in DIFFS if d["cell"] == on and row["day"] in d["days"]]
    assert len(found) <= 1, (row, found)
    return found[0] if found else None


def test_every_lesson_once():
    keys = [(r["day"], _offset(r["plate"])) for r in ROWS]
    assert len(keys) == 720 and len(set(keys)) == 720
    for r in ROWS:                       # 加 over the stem is 加 over its 寄宮
        assert r["plate"].split("加")[1] == JIGONG[r["day"][0]]
        assert len(r["chuan"]) == 3 and all(b in BRANCHES for b in r["chuan"])


@pytest.mark.skipif(not SEED.exists() and not in_ci(), reason="the seeds are not available ($LIUREN_SEEDS or ../shared/seeds)")
def test_data_file_is_the_parse_of_the_text():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "zongqian.py"), str(SEED)],
                         capture_output=True, text=True, check=True).stdout
    assert out == (DATA / "zongqian.yaml").read_text(encoding="utf-8")
    # and each row's three branches stand in the three ¶ it cites (己 for 巳 as the OCR prints it)
    paras = re.split(r"\n\s*\n", SEED.read_text(encoding="utf-8"))
    for r in ROWS:
        for b, p in zip(r["chuan"], r["para"]):
            assert b in paras[p].replace("己", "巳").replace("夘", "卯"), (r, p)


@pytest.mark.parametrize("option", OPTIONS)
def test_every_disagreement_is_listed(option):
    for r in ROWS:
        cast = CASTS[(r["day"], r["plate"], option)]
        e = _entry(r)
        if cast == r["chuan"]:
            if e is not None and e["class"] == "shehai":
                assert e["follows"] == option, (r, e)
            continue
        assert e is not None, f"{r['day']} {r['on']}: book {r['chuan']}, cast ({option}) {cast}: not listed"
        assert r["chuan"] in e["book"].split(" / ") and cast in str(e[option]).split(" / "), (r, e)
        assert e["class"] in ("text", "labels", "real", "shehai")
        assert (e.get("which") or e.get("why")), e
        if e["class"] == "shehai":
            assert e["follows"] != option


def test_no_stale_entries():
    """Every listed column still differs from the cast under some option, and names rows of the table."""
    for e in DIFFS:
        rows = [r for r in ROWS if r["plate"].split("加")[0] + "加" + r["day"][0] == e["cell"] and r["day"] in e["days"]]
        assert len(rows) == len(e["days"]), e
        assert any(CASTS[(r["day"], r["plate"], o)] != r["chuan"] for r in rows for o in OPTIONS), e
        if e["class"] in ("text", "labels", "real"):      # neither option gives the printed column
            assert all(CASTS[(r["day"], r["plate"], o)] != r["chuan"] for r in rows for o in OPTIONS), e


def confirmed():
    return Counter(o for r in ROWS for o in OPTIONS if CASTS[(r["day"], r["plate"], o)] == r["chuan"])


def test_readme_states_the_counts():
    c = confirmed()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"總鈐 confirms (\d+) of the 720 lessons under `--shehai count` and (\d+) under "
                  r"`--shehai mengzhong`", readme)
    assert m, "README states the 總鈐 result in its 涉害 discussion"
    assert (int(m.group(1)), int(m.group(2))) == (c["count"], c["mengzhong"])
    split = [e for e in DIFFS if e["class"] == "shehai"]
    n = Counter(e["follows"] for e in split for _ in e["days"])
    m2 = re.search(r"the book takes the counted 初傳 in (\d+) and the 孟仲 one in (\d+)", readme)
    assert m2 and (int(m2.group(1)), int(m2.group(2))) == (n["count"], n["mengzhong"])
    by_class = Counter(e["class"] for e in DIFFS for _ in e["days"])
    m3 = re.search(r"The other (\d+) rows the cast\s+misses under both options are listed in "
                   r"tests/data/zongqian-differences.yaml: (\d+) are faults of the text .*?, (\d+) of a label line"
                   r" .*?, and (\d+) are a real difference", readme, re.S)
    assert m3, "README states the classes of the differences"
    assert [int(x) for x in m3.groups()] == [by_class["text"] + by_class["labels"] + by_class["real"],
                                            by_class["text"], by_class["labels"], by_class["real"]]
