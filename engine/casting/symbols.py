"""The alphabet of the board: ten stems, twelve branches, the sixty 干支.

Only the order of the symbols lives here (it is the engine's type system);
everything relational (elements, 寄宮, 刑沖 …) is data in kb/.
"""
from liuren.errors import InputError

STEMS = "甲乙丙丁戊己庚辛壬癸"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
JIAZI = tuple(STEMS[i % 10] + BRANCHES[i % 12] for i in range(60))
_JIAZI_INDEX = {gz: i for i, gz in enumerate(JIAZI)}
_B = {b: i for i, b in enumerate(BRANCHES)}
_S = {s: i for i, s in enumerate(STEMS)}
# the nine gates of 發用 (九宗門), in the books' order: the one list the KB checker, the drill and find read
GATES = ("賊克", "比用", "涉害", "遙克", "昴星", "別責", "八專", "伏吟", "返吟")
POSITIONS_OF_GENERALS = "貴人 螣蛇 朱雀 六合 勾陳 青龍 天空 白虎 太常 玄武 太陰 天后".split()
SHORT_GENERALS = {"貴": "貴人", "蛇": "螣蛇", "雀": "朱雀", "合": "六合", "勾": "勾陳", "龍": "青龍",
                  "空": "天空", "虎": "白虎", "常": "太常", "玄": "玄武", "陰": "太陰", "后": "天后"}


def bi(b):
    """Index of a branch (子 = 0)."""
    return _B[b]


def si(s):
    """Index of a stem (甲 = 0)."""
    return _S[s]


def badd(b, n):
    """The branch n steps forward (negative: backward) from b."""
    return BRANCHES[(_B[b] + n) % 12]


def is_stem(x):
    return isinstance(x, str) and len(x) == 1 and x in _S


def is_branch(x):
    return isinstance(x, str) and len(x) == 1 and x in _B


def jiazi_index(gz):
    return _JIAZI_INDEX[gz]


def parse_ganzhi(value, what="干支"):
    """Check a 干支 such as 丁卯; raise InputError naming the value otherwise."""
    if not isinstance(value, str) or value not in _JIAZI_INDEX:
        raise InputError(
            f"{what} {value!r} is not one of the sixty 干支 "
            "(a stem 甲乙丙丁戊己庚辛壬癸 then a branch 子丑寅卯辰巳午未申酉戌亥 of the same yin/yang, e.g. 丁卯)")
    return value


def parse_branch(value, what="branch"):
    if not is_branch(value):
        raise InputError(f"{what} {value!r} is not a branch (one of 子丑寅卯辰巳午未申酉戌亥)")
    return value
