"""The declarations of kb/common/conflicts.yaml answer for themselves: no row declares a whole
book against anything (a rule added to it later would be declared before it exists), and each
pair the audit found with opposite tones on the same or nested conditions is settled from the
text — declared by a row naming both entries, or no longer firing together on its board."""
import fnmatch
import functools
import json
import re

import pytest

from liuren import judge
from liuren.knowledge.kbload import load_kb

KB = load_kb()
TABLE = KB.tables["declared-conflicts"]
GLOB = re.compile(r"[*?\[]")


def _prefix(x):
    return x.split("-", 1)[0]


def _books():
    """The entries of each id prefix (dq07, jzb, sha, yh …): the books and 卷 of the KB."""
    out = {}
    for e in KB.entries:
        out.setdefault(_prefix(e), set()).add(e)
    return out


def _cells():
    for row in TABLE.rows:
        for c in row.data:
            yield row.id, c["甲"], c["乙"]


def test_no_declaration_row_is_a_wildcard_over_a_whole_book():
    books = _books()
    every = set(KB.entries)
    bad = []
    for rid, x, y in _cells():
        for side in (x, y):
            if not GLOB.search(side):
                assert side in every, (rid, side)      # a name that names nothing is stale
                continue
            hit = {e for e in every if fnmatch.fnmatchcase(e, side)}
            whole = [p for p, ids in books.items() if len(ids) > 1 and ids <= hit]
            if side in ("*", "**") or whole:
                bad.append((rid, side, whole))
    assert not bad, bad


def test_rule_conflict_keys_name_no_whole_book():
    books = _books()
    bad = []
    for e in list(KB.rules.values()) + list(KB.tables.values()):
        for pat in e.meta.get("conflicts") or []:
            hit = {x for x in KB.entries if fnmatch.fnmatchcase(x, pat)}
            if any(len(ids) > 1 and ids <= hit for ids in books.values()):
                bad.append((e.id, pat))
    assert not bad, bad


def test_the_declaration_table_is_not_empty_and_every_row_quotes_its_passage():
    rows = [r for r in TABLE.rows if r.id]
    assert len(rows) >= 20
    for r in rows:
        assert r.meta.get("reading") and r.meta.get("source"), r.id
        assert all(s.get("quote") and s.get("seed") for s in r.meta["source"]), r.id


def _named(a, b):
    """The rows naming both a and b, without globs."""
    return sorted({rid for rid, x, y in _cells()
                   if not GLOB.search(x + y) and {x, y} == {a, b}})


@functools.lru_cache(maxsize=None)
def _fired(board_json):
    j = judge(json.loads(board_json))
    return frozenset(f.report for f in j.fired if not f.defeated_by)


def F(**board):
    return _fired(json.dumps(board, ensure_ascii=False, sort_keys=True))


# The pairs of issue 27 whose conditions are the same (or one inside the other) with opposite
# tones, each with the board that showed it, and how the text settles it.
DECLARED = [
    # 卷十一 ¶215–216: the same 三傳 is 凶 for taking wealth and 吉 for one going to office;
    # 催官符 (¶87–89, under 「惟將赴任宜見」) is judged only when the question is 占官.
    ("dq11-cuiguan-fu", "dq11-fa027", {"day": "辛亥", "on": "午加戌", "question": "占官"}),
    # 卷十 ¶231 帶殺 and 卷十一 ¶126 / 卷中 ¶284: 「誠為凶也……亦宜免禍」「主反凶成吉」
    ("dq10-yanshang-daisha", "dq11-tianjiang-jiushen", {"day": "辛巳", "on": "午加戌", "night": False}),
    ("dq10-yanshang-daisha", "jzb-gui-ju-jiang-jiu", {"day": "辛巳", "on": "午加戌", "night": False}),
    # 卷中 ¶98 鑰神 and ¶105 天目: the same table of branches, two matters
    ("jz-yaoshen", "jz-tianmu", {"day": "庚辰", "on": "酉加卯", "night": False, "month": "戊戌", "year": 2021,
                                 "sex": "m", "guiren": "甲羊"}),
    # 卷中 ¶75 歲德 (by the year's stem) and ¶87 破碎 (by its branch) meet on 巳 in a 丙午 year
    ("jz-suide", "jz-posui-sui", {"day": "甲子", "on": "子加子", "night": False, "month": "戊戌", "year": 2026,
                                  "guiren": "甲羊"}),
]

# fixed: the two no longer fire together on the board that showed them
APART = [
    # 卷十 ¶264: 久厄者 … 脫難；常占則名鯨鯢歸澗 — one or the other, by the question
    ("dq10-tuonan", "dq10-jingni", [{"day": "癸未", "on": "卯加子"}, {"day": "癸未", "on": "卯加子", "question": "占訟"}]),
    # 卷2 ¶13/¶15: 反射 is the reverse 金局 丑酉巳, 操會 keeps 酉巳丑
    ("j2a-caohui", "j2a-fanshe", [{"day": "丙戌", "on": "申加子"}]),
    # 催官符 is not judged when the question is not 占官
    ("dq11-cuiguan-fu", "dq11-fa027", [{"day": "辛亥", "on": "午加戌"}]),
]


@pytest.mark.parametrize("a,b,board", DECLARED, ids=[f"{a}×{b}" for a, b, _ in DECLARED])
def test_settled_pair_is_declared_by_name_and_still_cofires(a, b, board):
    assert _named(a, b), f"{a} × {b}: no row of declared-conflicts names both"
    fired = F(**board)
    assert {a, b} <= fired, (a in fired, b in fired)   # the declaration is not stale


@pytest.mark.parametrize("a,b,boards", APART, ids=[f"{a}×{b}" for a, b, _ in APART])
def test_settled_pair_no_longer_cofires(a, b, boards):
    seen = set()
    for board in boards:
        fired = F(**board)
        assert not {a, b} <= fired, board
        seen |= fired & {a, b}
    assert seen, "neither fires on the boards: the test would prove nothing"


def test_fanshe_reads_the_diben_under_its_variant():
    j = judge({"day": "丙戌", "on": "申加子", "variants": {"j2a-fanshe": "diben"}})
    fired = {f.report for f in j.fired}
    assert {"j2a-fanshe", "j2a-caohui"} <= fired


def test_nested_pairs_are_named_one_by_one():
    """The rows for pairs whose conditions are the same or nested list single pairs."""
    one_by_one = ["zongze-cuiguan-chuancai", "zongze-daisha-jiushen", "zongze-yaoshen-tianmu",
                  "zongze-suide-posui", "zongze-j2-jieji-taotuo", "zongze-j2-hehe-yongshen",
                  "zongze-keti-biege", "zongze-bifa-biege", "zongze-juanzhong-biege", "zongze-kuashu-xianghan"]
    rows = {r.id: r for r in TABLE.rows}
    for rid in one_by_one:
        items = rows[rid].meta.get("each") or []
        assert items, rid
        assert all(isinstance(c["甲"], str) and isinstance(c["乙"], str) for c in items), rid
