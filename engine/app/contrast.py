"""The contrast under a WHY-NOT: the nearest board where the rule does fire, differing from the
student's board in one fact — the same day with another plate (月將加占時), or the same plate on
another day — taken from the `find` index (explain/index.py), linked.

The index's boards are 月將加子 (a plate is its offset of 月將 over 占時) with a month and 晝/夜 of
their own; a contrast keeps the student's 占時 (its 月將 moved by the same offset) and the student's
month and 晝夜 where given, and takes the index board's where not (said on the line)."""
from __future__ import annotations

from urllib.parse import urlencode

from liuren.casting.symbols import BRANCHES, JIAZI

MAX = 2                 # the nearest plate, the nearest day


def _lesson_bits(x, lesson, per):
    return (x >> (lesson * per)) & ((1 << per) - 1)


def _pick(bits, per, month, night):
    """The board of a lesson's bits that keeps the student's month and 晝夜 where known (among its
    first `per` slots: the base boards, 占時 子)."""
    for pos in range(per):
        if not bits >> pos & 1:
            continue
        n, m = divmod(pos, 12)
        if (night is None or bool(n) == night) and (month is None or m == month):
            return pos
    return None


def contrast(finder, p, board, entry_id, lang="zh"):
    """[{board, differs, query}] — at most one by plate and one by day; [] when the index is not built
    or the rule fires nowhere near."""
    from liuren.app.find import NotBuilt
    from liuren.explain import index as X
    from liuren.explain import words as L
    try:
        ix = finder.index(build=False)
    except NotBuilt:
        return []
    x = ix.bits.get(entry_id, 0)
    if not x or board.day not in JIAZI[:ix.days]:
        return []
    P, B = ix.per_lesson, X.BASE_PER_LESSON     # a lesson's slots, the first B of them its base boards
    d = JIAZI.index(board.day)
    hour = BRANCHES.index(board.hour)
    off = (BRANCHES.index(board.jiang) - hour) % 12
    # the student's month by its branch (a month of another year names it with another stem)
    month = next((k for k, m in enumerate(X.MONTHS) if p.get("month") and str(p["month"])[-1:] == m[1]), None)
    night = not board.daytime                 # the board the student sees has its 晝夜
    w = L.WORDS[lang]
    here_on = f"{board.jiang}加{board.hour}"
    out = []
    # the same day, another plate: nearest offset first
    for delta in (1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6):
        o2 = (off + delta) % 12
        pos = _pick(_lesson_bits(x, d * 12 + o2, P), B, month, night)
        if pos is not None:
            on = f"{BRANCHES[(hour + o2) % 12]}加{board.hour}"
            out.append(_record(ix, p, board.day, on, pos, w["contrast_plate"].format(on=on, here=here_on), month, night, lang))
            break
    # the same plate, another day
    for delta in sorted(range(1, ix.days), key=lambda k: min(k, ix.days - k)):
        for d2 in ((d + delta) % ix.days, (d - delta) % ix.days):
            pos = _pick(_lesson_bits(x, d2 * 12 + off, P), B, month, night)
            if pos is not None:
                out.append(_record(ix, p, JIAZI[d2], here_on, pos, w["contrast_day"].format(day=JIAZI[d2], here=board.day),
                                   month, night, lang))
                break
        if len(out) >= MAX:
            break
    return out[:MAX]


def _record(ix, p, day, on, pos, differs, month, night, lang):
    from liuren.explain import index as X
    from liuren.explain import words as L
    n, m = divmod(pos, 12)
    keep = {k: v for k, v in p.items() if k not in ("day", "on", "jiang", "hour", "moment", "tz", "why", "lang")}
    also = []
    if month is None:
        keep["month"] = X.MONTHS[m]
        also.append(L.FIELDS[lang].get("month", "month"))
    if night is None:
        keep["night"] = "true" if n else "false"
        also.append(L.WORDS[lang]["f_night_g"] if n else L.WORDS[lang]["f_day_g"])
    q = {"day": day, "on": on, **keep}
    if lang != "zh":
        q["lang"] = lang
    text = L.board_text({"day": day, "on": on, **{k: v for k, v in keep.items() if k in ("month", "night")}}, lang)
    if also:
        differs += L.WORDS[lang]["contrast_also"].format(fields="、".join(also))
    return {"board": text, "differs": differs, "query": urlencode(q)}
