"""The board space the audit judges (and that `liuren find` and the atlas index walk): what it
fixes and what it varies, as data, and which rules read each varied dimension.

The space is built from lessons.  A lesson is a day (the sixty 干支) with a plate (月將 over
占時: twelve offsets), so 720 lessons.  Each lesson has its BASE boards (the twelve months ×
晝/夜, 占時 子, the year 丙午, a birth year and sex cycling with the lesson, so that 太歲, 本命
and 行年 exist) and then, for each DIMENSION that some rule reads, a few EXTRA boards that keep
the lesson's plate and change only that input: another 占時 (the 月將 moves with it, so the
plate and the 三傳 stay), another year (太歲), a 本命 and 行年 given apart from the lesson, a
lunar date, a day that holds a 節.  A dimension no rule reads is not varied at all (it would
only repeat the base boards).  The question is a dimension of its own: a question-only rule is
judged under its question, on QUESTION_BOARDS boards per question.

An extra board differs from the lesson's base board in one input, so the audit judges it
incrementally from that board: the network retracts and declares the one or two facts that
changed, and only the rules that read those facts (and what reads their conclusions) are
matched again — a dimension is varied, in cost, only for the rules that read it.

`reads(kb)` says which dimensions each rule reads, from its conditions (the fact types and
positions its patterns name, and, through the facts other rules conclude, what those read).
It is a small function over the conditions, meant to be switched to the KB's condition model
once that exists.
"""
from __future__ import annotations

from liuren.casting.calendar import month_of_year

from liuren.casting.symbols import BRANCHES, JIAZI

# the months of the year 丙午 (寅 to 丑, each with the stem the year gives it: 庚寅 … 辛丑), so that no
# board pairs a year with a month its calendar cannot hold
MONTHS = [month_of_year("丙午", b) for b in "寅卯辰巳午未申酉戌亥子丑"]
TERMS = ("立春 雨水 驚蟄 春分 清明 穀雨 立夏 小滿 芒種 夏至 小暑 大暑 "
         "立秋 處暑 白露 秋分 寒露 霜降 立冬 小雪 大雪 冬至 小寒 大寒").split()

# What every base board has, and what the space never gives (as data: the report prints it)
BASE = {
    "lessons": "60 days × 12 offsets of 月將 over 占時 子 (720 lessons)",
    "per_lesson": "12 months (丙寅 … 丁丑) × 晝/夜",
    "hour": "子",
    "year": 2026,
    "born": "1960 + (day + offset) mod 60 (本命 and 行年 tied to the lesson)",
    "sex": "m on odd offsets, f on even",
}
FIXED = {
    "options": "the default school of every casting option (guiren, shehai, …; --options changes it)",
    "second person": "none (夫妻行年 and partner inputs are never given)",
    "moment": "none: boards are given by day and plate, so no calendar beyond the inputs below",
}

# The dimensions varied beyond the base boards.  `reads`: the (fact type, position) pairs whose
# reading makes a rule read the dimension (position None: any fact of that type).  `extra`: how
# many extra boards a lesson gets for it.
DIMENSIONS = [
    {"id": "hour", "label": "占時", "reads": [("位", "占時")], "extra": 11,
     "varies": "占時 over the 11 other branches, the plate kept (月將 moves with 占時)"},
    {"id": "year", "label": "太歲", "reads": [("位", "太歲")], "extra": 11,
     "varies": "the year over 2027 … 2037 (太歲 未 … 巳; 行年 moves with it; the month keeps its branch, named by that year)"},
    {"id": "person", "label": "本命・行年", "reads": [("位", "本命"), ("位", "行年"), ("人", None)], "extra": 11,
     "varies": "本命 and 行年 given apart from the lesson and from each other (12 × 12 over the space), sex alternating"},
    {"id": "lunar", "label": "農曆", "reads": [("農曆", None)], "extra": 3,
     "varies": "a lunar date the month can hold (the lunar month whose 中氣 falls in it; day 1–30, day 30 a 晦), the day cycling over the space"},
    {"id": "term", "label": "節日", "reads": [("節日", None)], "extra": 2,
     "varies": "the day holds the month's own 節 or 中氣 (24 節氣 over the twelve months)"},
]
QUESTION = {"id": "question", "label": "所問", "reads": [("問", None)],
            "varies": "each question that gates some rule, asked on its own boards (one lesson per day and "
                      "offset, month and 晝夜 cycling)"}
QUESTION_BOARDS = 240


def dimension_ids():
    return [d["id"] for d in DIMENSIONS] + [QUESTION["id"]]


# --------------------------------------------------------------------------- what rules read
def _atoms(kb, rule):
    from liuren.knowledge.conditions import walk_patterns
    whens = [rule.when] + [v.get("when") for v in rule.variants if isinstance(v, dict) and v.get("when")]
    for w in whens:
        if w is None:
            continue
        try:
            atoms = list(walk_patterns(w, kb.macros))
        except ValueError:
            continue
        for kind, payload, _line in atoms:
            if kind == "macro":
                for item in kb.macros[payload[0]].get("expands") or []:
                    if isinstance(item, dict):
                        for t, fields in item.items():
                            yield t, fields if isinstance(fields, dict) else {}
            elif kind == "pattern":
                yield payload


def _direct(t, fields):
    out = set()
    for d in DIMENSIONS + [QUESTION]:
        for rt, pos in d["reads"]:
            if t != rt:
                continue
            if pos is None:
                out.add(d["id"])
                continue
            v = fields.get("位")
            vals = v if isinstance(v, list) else [v]
            if v is None or any(isinstance(x, str) and (x == pos or x.startswith("$")) for x in vals):
                out.add(d["id"])
    return out


def reads(kb):
    """{rule id: set of dimension ids it reads}, directly (its patterns) or through the fact types
    other rules conclude from what they read (a rule reading 煞 reads what the rules asserting 煞
    read).  A 判 pattern (a judgment has fired) is followed to the rules it names when it names
    them, and not followed otherwise (it would make every rule read everything)."""
    from liuren.knowledge.conditions import then_facts
    direct, types_read, judged_read = {}, {}, {}
    producers = {}
    for r in kb.rules.values():
        ds, ts, js = set(), set(), set()
        for t, fields in _atoms(kb, r):
            ds |= _direct(t, fields)
            ts.add(t)
            if t == "判":
                ids = fields.get("規")
                js |= {x for x in (ids if isinstance(ids, list) else [ids])
                       if isinstance(x, str) and not x.startswith("$")}
        direct[r.id], types_read[r.id], judged_read[r.id] = ds, ts, js
        for t, _ in then_facts(r.then):
            producers.setdefault(t, set()).add(r.id)
    fact_type = {t.id: t.fact_type for t in kb.tables.values()}
    row_reporters = {}                   # a named row -> the family rules reading its table
    for row in kb.rows.values():
        ft = fact_type.get(row.table)
        row_reporters[row.id] = [x for x, ts in types_read.items() if kb.rules[x].as_var and ft in ts]
    out = {k: set(v) for k, v in direct.items()}
    changed = True
    while changed:                       # a fixed point over the producers (they may form cycles)
        changed = False
        for rid in out:
            before = len(out[rid])
            for t in types_read[rid]:
                if t == "判":
                    continue
                for p in producers.get(t, ()):
                    if p != rid:
                        out[rid] |= out[p]
            for j in judged_read[rid]:
                for p in ([j] if j in out else row_reporters.get(j, ())):
                    if p != rid:
                        out[rid] |= out[p]
            if len(out[rid]) != before:
                changed = True
    return out


def readers(kb, read=None):
    """{dimension id: sorted rule ids that read it}."""
    read = read if read is not None else reads(kb)
    out = {d: [] for d in dimension_ids()}
    for rid, ds in sorted(read.items()):
        for d in ds:
            out[d].append(rid)
    return out


# --------------------------------------------------------------------------- the boards
def base_board(d, off, night, m, options=None):
    """Board (d, off, night, m) of the base space, as cast() takes it (the find index's order:
    i = ((d × 12 + off) × 2 + night) × 12 + m)."""
    return dict(options or {}, day=JIAZI[d], jiang=BRANCHES[off], hour="子", month=MONTHS[m], night=bool(night),
                year=2026, born=1960 + (d + off) % 60, sex="m" if off % 2 else "f")


def _extra(dim, lesson, j, base):
    """The j-th extra board of a lesson for dimension `dim`: the base board with one input changed."""
    b = dict(base)
    d, off = divmod(lesson, 12)
    if dim == "hour":
        h = 1 + j                                       # 丑 … 亥
        b["hour"], b["jiang"] = BRANCHES[h], BRANCHES[(off + h) % 12]
    elif dim == "year":
        b["year"] = 2027 + j
        if b.get("month"):                              # the same month branch, as that year names it
            b["month"] = month_of_year(JIAZI[(2027 + j - 4) % 60], b["month"][1])
    elif dim == "person":
        b.pop("born", None)
        bm = (lesson + j) % 12
        xn = (lesson * 5 + j * 7 + 3) % 12             # apart from 本命 and from the lesson
        b["benming"], b["xingnian"] = BRANCHES[bm], BRANCHES[xn]
        b["sex"] = "m" if (lesson + j) % 2 else "f"
    elif dim == "lunar":
        # a lunar date the month can hold: the lunar month whose 中氣 is in it (寅: 正月), on days
        # that vary with the lesson
        k = lesson * 3 + j
        mb = BRANCHES.index(b["month"][1]) if b.get("month") else (k % 12 + 2)
        b["lunar"] = f"{(mb - 2) % 12 + 1}-{(k * 7) % 30 + 1}"
    elif dim == "term":
        # the month's own 節 (j = 0) and 中氣 (j = 1)
        mb = BRANCHES.index(b["month"][1]) if b.get("month") else (lesson % 12 + 2)
        b["term_day"] = TERMS[(2 * ((mb - 2) % 12) + j) % 24]
    return b


def space_boards(days=60, months="all", nights=(False, True), options=None, dims=None):
    """The boards of the space, a lesson's together: its base boards (months innermost), then its
    extra boards for each varied dimension in `dims` (default: every dimension).  Each board is
    (cast() arguments, dimension id or None for a base board).  `months`: indices of MONTHS."""
    ms = list(range(12)) if months == "all" else list(months)
    dims = [d for d in DIMENSIONS if dims is None or d["id"] in dims]
    out = []
    for d in range(days):
        for off in range(12):
            lesson = d * 12 + off
            for night in nights:
                for m in ms:
                    out.append((base_board(d, off, night, m, options), None))
            # the extra boards start from one base board of the lesson (month and 晝夜 cycling)
            base = base_board(d, off, nights[lesson % len(nights)], ms[lesson % len(ms)], options)
            for dim in dims:
                for j in range(dim["extra"]):
                    out.append((_extra(dim["id"], lesson, j, base), dim["id"]))
    return out


def question_boards(question, days=60, n=None, options=None):
    """A question's boards: one per lesson (month and 晝夜 cycling), the first `n` (default
    QUESTION_BOARDS, all 720 lessons) spread over the days."""
    n = QUESTION_BOARDS if n is None else n
    lessons = list(range(days * 12))
    step = max(1, len(lessons) // max(1, n))
    out = []
    for lesson in lessons[::step][:n]:
        d, off = divmod(lesson, 12)
        b = base_board(d, off, lesson % 2, (lesson * 5) % 12, options)
        b["question"] = question
        out.append(b)
    return out


def plate_key(board):
    """What stays the same over a lesson's boards (base and extra): the day, the plate (月將's
    offset over 占時) and the question.  Consecutive boards with one key are judged one from the
    other."""
    off = (BRANCHES.index(board["jiang"]) - BRANCHES.index(board.get("hour", "子"))) % 12
    return board["day"], off, board.get("question")


def describe(kb=None, read=None, varied=None):
    """The space as the report prints it: what it fixes and what it varies (and, given the KB,
    how many rules read each varied dimension)."""
    read = read if read is not None or kb is None else reads(kb)
    who = readers(kb, read) if read is not None else {}
    dims = []
    for d in DIMENSIONS + [QUESTION]:
        x = {"id": d["id"], "label": d["label"], "varies": d["varies"], "extra_per_lesson": d.get("extra")}
        if who:
            x["rules_reading"] = len(who[d["id"]])
        if varied is not None:
            x["varied"] = d["id"] in varied
        dims.append(x)
    return {"base": dict(BASE), "fixed": dict(FIXED), "dimensions": dims}


def entry_reads(kb, read=None):
    """{entry id: dimensions it reads} for every rule and named row (a row reads what the family
    rules reporting it read).  A year board moves 行年 as well, so a rule reading 本命・行年 reads
    the year's boards too."""
    read = read if read is not None else reads(kb)
    out = {}
    for rid, ds in read.items():
        out[rid] = set(ds)
    by_type = {}
    for r in kb.rules.values():
        if r.as_var:
            for t, _ in _atoms(kb, r):
                by_type.setdefault(t, set()).add(r.id)
    for row in kb.rows.values():
        t = kb.tables.get(row.table)
        ds = set()
        for rid in by_type.get(t.fact_type if t else None, ()):
            ds |= read.get(rid, set())
        out[row.id] = ds
    for ds in out.values():
        if "person" in ds:
            ds.add("year")
    return out


def dim_of(board):
    """The dimension an extra board varies (None for a base board or a question's board)."""
    if board.get("question"):
        return None
    if board.get("hour", "子") != "子":
        return "hour"
    if board.get("year", 2026) != 2026:
        return "year"
    if "benming" in board:
        return "person"
    if "lunar" in board:
        return "lunar"
    if "term_day" in board:
        return "term"
    return None
