"""Queries over the whole board space (`liuren find`, /find, /api/find): where does a rule fire?

An expression (findexpr.py: rules and facts of the board joined by `and`, `or`, `not` and
parentheses; a name several entries share is asked about, not combined) is answered from the
index of the space (explain.index): each entry's and each fact's boards as a bitset, so that a
query is a few operations on integers of one bit per board.  Filters (month, day, gate, 晝夜, the
dimension a board varies) are masks of the same kind; counts by a key, cross-tables of two and the
facets of the page are popcounts of the result under each mask.  The page and the API are in
findweb.py, the export in export.py.

Everything here returns plain data; the CLI prints it, the web app renders it.
"""
from __future__ import annotations

import difflib

from liuren.app.findexpr import (DAYNIGHT, DIM_WORDS, DN_WORD, GATES, GENERALS, GRAMMAR, MAX_TOKENS, OPS,  # noqa: F401
                                  POSITIONS, FindError, _GEN_ALIAS, _KEYS, _position, dim_word, fact_key, facts_in,
                                  fold, names_in, parse, tokens)
from liuren.casting.symbols import BRANCHES, JIAZI
from liuren.errors import InputError
from liuren.explain import index as X

COUNT_BY = ("month", "gate", "day", "lesson", "daynight", "dim")
MAX_LIMIT = 1000
PAGE = 20


# --------------------------------------------------------------------------- names
def _lookup(ix):
    """{typed name: ids} over ids, names, aliases and labels (the index carries them)."""
    lk = getattr(ix, "_lookup", None)
    if lk is None:
        lk = {}
        for i, (name, kind, aliases, labels) in ix.names.items():
            for k in (name, *aliases, *labels.values()):
                if k:
                    lk.setdefault(k, set()).add(i)
        for i in ix.names:                      # an id names its entry alone
            lk[i] = {i}
        ix._lookup = lk
    return lk


class Names:
    """The names of a KB, for checking an expression before its index is built."""

    def __init__(self, kb):
        self.names = X.entry_names(kb)


def check_names(kb, expr):
    """Parse an expression and resolve its names against the KB (an unknown name is an error)."""
    tree = parse(expr)
    n = Names(kb)
    for name in names_in(tree, positive=False):
        _name_or_void(n, name)
    return tree


def _name_or_void(ix, name):
    """A name's ids, or None for a word 「初傳空」 that names no rule but a position's void."""
    try:
        return resolve(ix, name)
    except Ambiguous:
        raise
    except FindError:
        if name.endswith("空") and _position(name[:-1]):
            return None
        raise


class Ambiguous(FindError):
    """A name several entries share: which one?  (choices: [(id, name, kind, boards or None)])"""

    def __init__(self, msg, name, choices):
        super().__init__(msg)
        self.name, self.choices = name, choices


def resolve(ix, name):
    """The ids a typed name stands for; unknown → FindError with the nearest names; a name several
    entries share → Ambiguous, listing them (as `liuren why` does): the query names one by its id,
    or joins them with `or`."""
    lk = _lookup(ix)
    ids = lk.get(name)
    if ids and len(ids) > 1:
        bits = getattr(ix, "bits", None)
        choices = [(i, ix.names[i][0], ix.names[i][1], bits.get(i, 0).bit_count() if bits is not None else None)
                   for i in sorted(ids)]
        listed = "; ".join(f"{i} ({k}" + (f", {n} boards)" if n is not None else ")") for i, _, k, n in choices)
        raise Ambiguous(f"find: {name!r} names {len(ids)} entries: {listed} — give an id (or join them with or)",
                        name, choices)
    if ids:
        return sorted(ids)
    near = difflib.get_close_matches(name, sorted(lk), n=3, cutoff=0.4)
    raise FindError(f"find: unknown rule {name!r}" + (f" (did you mean {'、'.join(near)}?)" if near else ""))


def display_name(ix, i, lang="zh"):
    name, kind, aliases, labels = ix.names.get(i, (i, "", (), {}))
    return (labels.get(lang) if lang != "zh" else None) or name


def evaluate(ix, tree, terms=None):
    """The bitset of boards where the expression holds; `terms` collects {name: ids}."""
    def leaf(node):
        if node[0] == "fact":
            return fact_bits(ix, node[1], node[2])
        ids = _name_or_void(ix, node[1])
        if ids is None:
            return fact_bits(ix, ("空", _position(node[1][:-1])), node[1])
        if terms is not None:
            terms[node[1]] = ids
        x = 0
        for i in ids:
            x |= ix.bits.get(i, 0)
        return x
    return fold(tree, leaf, ix.all)


def fact_bits(ix, key, text=None):
    """The boards where a fact holds (0 where it never does); a 神煞 the index has never seen
    anywhere is an unknown name."""
    if key[0] in ("month", "day", "daynight", "dim"):
        m = masks(ix)[key[0]]
        if key[1] not in m:
            raise FindError(f"find: {text or key!r}: not in this index (its first {ix.days} days)")
        return m[key[1]]
    if key[0] == "體":
        sub = masks(ix)["subtype"]
        v = key[1] if key[1] in sub else key[1][:-1] if key[1].endswith("課") and key[1][:-1] in sub else None
        if v is None:
            known = _known(ix, "體")
            if key[1] not in known and key[1].rstrip("課") not in known:
                raise FindError(f"find: {text!r}: {key[1]!r} is not a 課 of the space ({'、'.join(sorted(known)[:8])} …)")
            return 0
        return sub[v]
    if key[0] == "@" and key[1] not in GENERALS:
        known = _known(ix, "@")
        if key[1] not in known:
            near = difflib.get_close_matches(key[1], sorted(known), n=3, cutoff=0.3)
            raise FindError(f"find: {text!r}: {key[1]!r} is not a 神煞 seen anywhere in this space"
                            + (f" (did you mean {'、'.join(near)}?)" if near else ""))
    return ix.facts.get(key, 0)


def _known(ix, kind):
    k = ix.__dict__.setdefault("_known", {})
    if kind not in k:
        if kind == "體":
            k[kind] = {s for _, s, _ in ix.lessons if s}
        else:
            k[kind] = {key[1] for key in ix.facts if key[0] == kind}
    return k[kind]


# --------------------------------------------------------------------------- masks (filters, facets)


def masks(ix):
    """Masks of the space, worked out once per index: by month, 晝夜, day, lesson, gate, 課, and
    the dimension a board varies (base boards, or extra boards of 占時, 太歲 …)."""
    m = getattr(ix, "_masks", None)
    if m is not None:
        return m
    P, L = ix.per_lesson, ix.days * 12
    base = (1 << X.BASE_PER_LESSON) - 1
    block = (1 << P) - 1

    def every_lesson(slot_bits):
        x = 0
        for l in range(L):
            x |= slot_bits << (P * l)
        return x
    if ix.layout_masks:
        month = {k: ix.layout_masks["month"].get(k, 0) for k in X.MONTHS}
        dn = {k: ix.layout_masks["daynight"].get(k, 0) for k in ("晝", "夜")}
    else:
        month = {X.MONTHS[k]: every_lesson((1 << k) | (1 << (12 + k))) for k in range(12)}
        dn = {"晝": every_lesson((1 << 12) - 1), "夜": every_lesson(((1 << 12) - 1) << 12)}
    m = {"month": month, "daynight": dn,
         "day": {JIAZI[d]: ((1 << (12 * P)) - 1) << (12 * P * d) & ix.all for d in range(ix.days)},
         "lesson": {f"{JIAZI[l // 12]} {BRANCHES[l % 12]}加子": block << (P * l) & ix.all for l in range(L)}}
    dims = {}
    for k, d in enumerate(ix.slot_dims):
        if d != "":
            dims[d] = dims.get(d, 0) | (1 << k)
    m["dim"] = {DIM_WORDS.get(d, d): every_lesson(v) & ix.all for d, v in dims.items()}
    gates, subtypes = {}, {}
    for l, (gate, subtype, _) in enumerate(ix.lessons):
        gates[gate] = gates.get(gate, 0) | (block << (P * l))
        if subtype:
            subtypes[subtype] = subtypes.get(subtype, 0) | (block << (P * l))
    m["gate"] = {g: gates[g] & ix.all for g in GATES if g in gates}
    m["subtype"] = {k: v & ix.all for k, v in subtypes.items()}
    del base
    ix._masks = m
    return m


def _split(v):
    return [x.strip() for x in str(v).replace("，", ",").replace("、", ",").split(",") if x.strip()]


def filter_mask(ix, month=None, day=None, gate=None, daynight=None, dim=None):
    """The boards the filters leave (each a value or a comma list); a bad value is a FindError."""
    M = masks(ix)
    x = ix.all
    if dim:
        y = 0
        for v in _split(dim):
            w = dim_word(v)
            if w is None:
                raise FindError(f"--dim {v!r}: base, or a dimension the space varies (hour, year, person, lunar, term)")
            y |= M["dim"].get(w, 0)
        x &= y
    if month:
        y = 0
        for v in _split(month):
            mm = next((k for k in X.MONTHS if k == v or k[1] == v), None)
            if mm is None:
                raise FindError(f"--month {v!r}: a month branch (寅 … 丑) or 干支 ({'、'.join(X.MONTHS[:3])} …)")
            y |= M["month"][mm]
        x &= y
    if day:
        y = 0
        for v in _split(day):
            if v not in JIAZI:
                raise FindError(f"--day {v!r}: a day 干支 (甲子 … 癸亥)")
            if v not in M["day"]:
                raise FindError(f"--day {v!r}: not in this index (its first {ix.days} days)")
            y |= M["day"][v]
        x &= y
    if gate:
        y = 0
        for v in _split(gate):
            if v in GATES:
                y |= M["gate"].get(v, 0)
            elif v in M["subtype"]:
                y |= M["subtype"][v]
            else:
                raise FindError(f"--gate {v!r}: a gate ({' '.join(GATES)}) or a 課 such as 元首, 重審")
        x &= y
    if daynight and daynight != "both":
        if daynight not in DAYNIGHT:
            raise FindError(f"--daynight {daynight!r}: day or night (晝 or 夜), or both")
        x &= M["daynight"][DN_WORD[DAYNIGHT[daynight]]]
    return x


def bits_of(x, start=0, limit=None, each_lesson=False, ix=None):
    """The set bits of x in order, from the start-th one on, at most limit of them; each_lesson:
    only the first board of each lesson (the others of its lesson are skipped)."""
    out, k = [], 0
    P = X.PER_LESSON if ix is None else ix.per_lesson
    lesson = (1 << P) - 1
    while x and (limit is None or len(out) < limit):
        low = x & -x
        i = low.bit_length() - 1
        if k >= start:
            out.append(i)
        k += 1
        if each_lesson:
            x &= ~(lesson << (i - i % P))
        else:
            x ^= low
    return out


def count_lessons(x, ix=None):
    """How many lessons hold at least one of the boards of x."""
    P = X.PER_LESSON if ix is None else ix.per_lesson
    n, lesson = 0, (1 << P) - 1
    while x:
        i = (x & -x).bit_length() - 1
        n += 1
        x &= ~(lesson << (i - i % P))
    return n


KE_KEY = "ke"                # count by the 課 (元首, 重審 …) of the 三傳


def by_keys(ix=None):
    """What counts may be split by: the space's dimensions, the 課, a position (its branch), a
    天將 (the 地盤 branch it stands on)."""
    return COUNT_BY + (KE_KEY,) + POSITIONS + GENERALS


def _by_word(b):
    """A count-by key by the word the find page offers it under (in any of its languages), else None."""
    from liuren.explain.words import WORDS
    return next((k for lang in WORDS.values() for k, w in (lang.get("find_by_keys") or {}).items() if w == b), None)


def _by_key(by):
    b = by.strip()
    if _by_word(b) is not None:
        return _by_word(b)
    if b in ("課", "體"):
        return KE_KEY
    if b in _KEYS and _KEYS[b] in ("month", "day", "daynight"):
        return _KEYS[b]
    if b in ("門", "發用"):
        return "gate"
    return _position(b) or _GEN_ALIAS.get(b, b)


def split_by(ix, by):
    """{value: mask} of a count-by key, every value of the space in order (zeros included)."""
    key = _by_key(by)
    if key in COUNT_BY:
        M = masks(ix)[key]
        if key == "gate":
            return {g: M.get(g, 0) for g in GATES}
        return dict(M)
    if key == KE_KEY:
        return dict(sorted(masks(ix)["subtype"].items()))
    if key in POSITIONS:
        return {b: ix.facts.get(("=", key, b), 0) for b in BRANCHES}
    if key in GENERALS:
        return {b: ix.facts.get(("將", key, b), 0) for b in BRANCHES}
    raise FindError(f"--count-by {by!r}: one of {'|'.join(COUNT_BY + (KE_KEY,))}, a position (初傳 …) or a 天將 (貴人 …);"
                    " two joined by a comma for a cross-table")


def parse_by(spec):
    """'month' or 'month,gate' → a tuple of one or two keys (each checked)."""
    parts = _split(spec)
    if not 1 <= len(parts) <= 2:
        raise FindError(f"--count-by {spec!r}: one key (gate) or two joined by a comma (month,gate)")
    for k in parts:
        if _by_key(k) not in by_keys():
            raise FindError(f"--count-by {k!r}: one of {'|'.join(COUNT_BY + (KE_KEY,))}, a position (初傳 …) or a "
                            "天將 (貴人 …); two joined by a comma for a cross-table")
    return tuple(parts)


def count_by(ix, x, by, zeros=True):
    """{value: count} of the boards x by a key; every value of the key is listed (0 included),
    except for the 720 lessons, where only those with boards are."""
    out = {}
    key = _by_key(by)
    for k, m in split_by(ix, by).items():
        c = (x & m).bit_count()
        if c or (zeros and key != "lesson"):
            out[k] = c
    return out


def crosstab(ix, x, a, b):
    """The boards x counted by two keys: rows of a, columns of b, every value (0 included; the
    lessons, as rows or columns, only where x has boards)."""
    ra, rb = split_by(ix, a), split_by(ix, b)
    if _by_key(a) == "lesson":
        ra = {k: m for k, m in ra.items() if x & m}
    if _by_key(b) == "lesson":
        rb = {k: m for k, m in rb.items() if x & m}
    rows = list(ra)
    cols = list(rb)
    cells = []
    for k in rows:
        xa = x & ra[k]
        cells.append([(xa & rb[c]).bit_count() for c in cols])
    return {"by": [a, b], "rows": rows, "cols": cols, "cells": cells,
            "row_totals": [sum(r) for r in cells], "col_totals": [sum(r[j] for r in cells) for j in range(len(cols))],
            "total": x.bit_count()}


def ordered(x, start=0, limit=None, ix=None):
    """The boards of x with distinct lessons first: the first board of each lesson (in the order
    of the space), then the second of each, and so on — a page shows as many lessons as it can."""
    P = X.PER_LESSON if ix is None else ix.per_lesson
    per = P // 8
    nbytes = (x.bit_length() + 7) // 8
    raw = x.to_bytes((nbytes + per - 1) // per * per, "little")      # whole lessons
    chunks = []
    for l in range(0, len(raw) // per):
        c = int.from_bytes(raw[l * per:(l + 1) * per], "little")
        if c:
            chunks.append((l, c))
    out, k = [], 0
    rank = 0
    live = chunks
    while live and (limit is None or len(out) < limit):
        if k + len(live) <= start:          # skip this rank whole
            k += len(live)
        else:
            for l, c in live:
                if k >= start:
                    out.append(l * P + (c & -c).bit_length() - 1)
                    if limit is not None and len(out) >= limit:
                        break
                k += 1
        live = [(l, c & (c - 1)) for l, c in live if c & (c - 1)]
        rank += 1
    return out


# --------------------------------------------------------------------------- boards
def _command_tail(ix, kb_arg=None):
    opts = [f"--{k.replace('_', '-')} {v}" for k, v in sorted(ix.options.items())]
    return (" ".join(opts) + (f" --question {ix.question}" if ix.question else "")
            + (f" --kb {kb_arg}" if kb_arg else "")).strip()


def _urlencode(pairs, memo):
    """urlencode, with the quoted values remembered in `memo` (the caller's: a page of boards
    repeats the same few values)."""
    from urllib.parse import quote_plus
    out = []
    for k, v in pairs:
        q = memo.get(v)
        if q is None:
            q = memo[v] = quote_plus(v)
        out.append(f"{k}={q}")
    return "&".join(out)


# a board's inputs as the CLI's options and the page's parameters, in this order
_INPUTS = (("year", "year"), ("born", "born"), ("benming", "benming"), ("xingnian", "xingnian"), ("sex", "sex"),
           ("lunar", "lunar"), ("term_day", "term-day"))


def places_at(ix, entry, i):
    """The places `entry` was about on board i, by bisection among the starts of each place's runs
    (sorted and apart; the starts worked out once per entry and process): no scan, no table of
    every board."""
    import bisect
    by_entry = ix.__dict__.setdefault("_places_bisect", {})
    t = by_entry.get(entry)
    if t is None:
        t = by_entry[entry] = [(place, [a for a, _ in runs], runs) for place, runs in ix.places.get(entry, ())]
    out = []
    for place, starts, runs in t:
        k = bisect.bisect_right(starts, i) - 1
        if k >= 0 and i < runs[k][1]:
            out.append(place)
    return out


def board_record(ix, i, terms=(), lang="zh", kb_arg=None, tail=None, memo=None):
    b = ix.board(i)
    gate, subtype, chuan = ix.lesson_of(i)
    on = f"{b['jiang']}加{b['hour']}"
    rec = {"day": b["day"], "on": on, "month": b["month"], "night": b["night"], "transmissions": list(chuan),
           "gate": gate, "lesson": subtype, "year": b["year"], "born": b.get("born"), "sex": b["sex"]}
    for k in ("benming", "xingnian", "lunar", "term_day"):
        if k in b:
            rec[k] = b[k]
    d = ix.dim_of(i)
    if d:
        rec["dim"] = DIM_WORDS.get(d, d)
    about = {}
    for name, ids in terms:
        for e in ids:
            raw = memo.get(("bits", e)) if memo is not None else None
            if raw is None:                 # the entry's bits as bytes, once per call: a bit test, not a shift
                x = ix.bits.get(e, 0)
                raw = x.to_bytes((x.bit_length() + 8) // 8, "little")
                if memo is not None:
                    memo[("bits", e)] = raw
            if (i >> 3) < len(raw) and raw[i >> 3] >> (i & 7) & 1:
                ps = places_at(ix, e, i)
                about.setdefault(name, [])
                about[name] += [p for p in ps if p not in about[name]]
    if about:
        rec["about"] = about
    tail = _command_tail(ix, kb_arg) if tail is None else tail
    given = [(flag, str(b[k])) for k, flag in _INPUTS if b.get(k) is not None]
    rec["command"] = (f"liuren judge --day {b['day']} --on {on} --month {b['month']} "
                      f"{'--night' if b['night'] else '--daytime'} " + " ".join(f"--{f} {v}" for f, v in given)
                      + (f" {tail}" if tail else ""))
    q = [("day", b["day"]), ("on", on), ("month", b["month"]), ("night", "true" if b["night"] else "false")] \
        + [(k, str(b[k])) for k, _ in _INPUTS if b.get(k) is not None] + sorted(ix.options.items())
    if ix.question:
        q.append(("question", ix.question))
    if lang != "zh":
        q.append(("lang", lang))
    rec["query"] = _urlencode(q, {} if memo is None else memo)
    return rec


DIM_VARIES = {"hour": "占時 over the 11 other branches, the plate kept (月將 moves with it)",
              "year": "the year over 2027–2037 (太歲 未 … 巳)",
              "person": "本命 and 行年 given apart from the lesson",
              "lunar": "a lunar date", "term": "a day that holds a 節氣"}


def space(ix):
    """What the space varies and what it fixes: printed with every count (text, JSON, page).
    Base boards fix 占時, the year, 本命/行年 and the lunar date; the extra boards of a widened
    index vary each of them, one at a time, for the rules that read it."""
    base = ix.days * 12 * X.BASE_PER_LESSON
    fixed = {"占時": "子", "year": "2026 丙午", "本命": "cycles with the lesson (born 1960–2019)",
             "行年": "from 本命 and the year", "sex": "alternates with the 月將", "lunar": "not given",
             **{k: str(v) for k, v in sorted(ix.options.items())},
             **({"question": ix.question} if ix.question else {})}
    extra = {}
    for d in ix.dims:
        extra[DIM_WORDS.get(d, d)] = {"boards": masks(ix)["dim"].get(DIM_WORDS.get(d, d), 0).bit_count(),
                                     "varies": DIM_VARIES.get(d, d)}
    return {"boards": ix.size, "base_boards": base,
            "varies": {"day": ix.days, "月將": 12, "month": 12, "晝夜": 2},
            "fixed": fixed, "extra": extra}


def notes(ix, ids):
    """The rules of a query whose counts depend on what the base boards fix: {id: {"changes_with":
    [dimension words], "reads": [...]}} — the dimensions whose extra boards change where it fires
    (observed in the index), and those its conditions read (knowledge/space.py's reads)."""
    out = {}
    for i in ids:
        seen = [DIM_WORDS.get(d, d) for d in ix.changes_with.get(i, ())]
        read = [DIM_WORDS.get(d, d) for d in ix.reads.get(i, ()) if d != "question" and DIM_WORDS.get(d, d) not in seen]
        if seen or read:
            out[i] = {"changes_with": seen, "reads": read}
    return out


def space_line(ix):
    """The space in one line, for the CLI: what varies, what the base boards fix, the extra boards."""
    sp = space(ix)
    v, f = sp["varies"], dict(sp["fixed"])
    fixed = [f"占時 {f.pop('占時')}", f"year {f.pop('year')}", "本命 cycling with the lesson (born 1960–2019) and its 行年",
             "sex alternating with the 月將", "no lunar date"]
    for k in ("本命", "行年", "sex", "lunar"):
        f.pop(k)
    fixed += [f"{k} {w}" for k, w in f.items()]
    line = (f"{sp['base_boards']} base boards: {v['day']} day{'s' if v['day'] != 1 else ''} × 12 月將 × 12 months × 晝夜; "
            f"fixed: {', '.join(fixed)}")
    if sp["extra"]:
        line += ("; and " + ", ".join(f"{e['boards']} boards varying {k}" for k, e in sp["extra"].items())
                 + " (--count-by dim)")
    return line


def notes_lines(ix, rep_notes, lang="zh"):
    """The notes as lines: which fixed inputs a rule's count depends on."""
    out = []
    for i, n in rep_notes.items():
        parts = []
        if n["changes_with"]:
            parts.append(f"fires otherwise when {'、'.join(n['changes_with'])} varies")
        if n["reads"]:
            parts.append(f"reads {'、'.join(n['reads'])}")
        out.append(f"note: {display_name(ix, i, lang)} ({i}) {'; '.join(parts)} — the base boards fix "
                   "these: its count depends on that choice (--count-by dim shows the boards that vary them)")
    return out


ORDERS = ("lessons", "space")


def find(ix, expr, month=None, day=None, gate=None, daynight=None, limit=20, offset=0, count_by_key=None,
         facets=False, lang="zh", kb_arg=None, each_lesson=False, order="lessons", dim=None):
    """Answer an expression: {"query", "count", "of", "space", "terms", "boards", ["counts"|"table"], ["facets"]}.
    order "lessons" (default): distinct lessons first (ordered); "space": the space's order.
    each_lesson: the boards listed are one of each lesson (the first of its months and 晝夜)."""
    limit = _bounded("--limit", limit, 0, MAX_LIMIT)
    offset = _bounded("--offset", offset, 0, ix.size)
    if order not in ORDERS:
        raise FindError(f"--order {order!r}: lessons (distinct lessons first) or space (the space's order)")
    by = parse_by(count_by_key) if count_by_key else None
    tree = parse(expr)
    terms = {}
    x = evaluate(ix, tree, terms)
    mask = filter_mask(ix, month, day, gate, daynight, dim)
    x &= mask
    pos = [n for n in dict.fromkeys(names_in(tree)) if n in terms]
    out = {"query": expr, "title": title(ix, expr, lang), "count": x.bit_count(), "of": mask.bit_count(),
           "space": space(ix),
           "filters": {k: v for k, v in (("month", month), ("day", day), ("gate", gate), ("daynight", daynight),
                                         ("dim", dim)) if v},
           "terms": {n: [{"id": i, "name": display_name(ix, i, lang)} for i in ids] for n, ids in terms.items()},
           "facts": [text for _, _, text in dict.fromkeys(facts_in(tree, positive=False))]}
    out["notes"] = notes(ix, [i for ids in terms.values() for i in ids])
    if each_lesson:
        picks = bits_of(x, offset, limit, True, ix)
    elif order == "lessons":
        picks = ordered(x, offset, limit, ix)
    else:
        picks = bits_of(x, offset, limit)
    labelled = [(_label(ix, n, lang), terms[n]) for n in pos]
    kb_cmd = _command_tail(ix, kb_arg)
    memo = {}
    out["boards"] = [board_record(ix, i, labelled, lang, kb_arg, kb_cmd, memo) for i in picks]
    if each_lesson:
        out["lessons"] = count_lessons(x, ix)
    if by and len(by) == 1:
        out["counts"] = count_by(ix, x, by[0])
    elif by:
        out["table"] = crosstab(ix, x, *by)
    if facets:
        out["facets"] = {k: count_by(ix, x, k) for k in ("gate", "month", "daynight") + (("dim",) if ix.dims else ())}
    return out


def _label(ix, name, lang):
    """A typed name for a reader: an id as its entry's name."""
    return display_name(ix, name, lang) if name in ix.names else name


def title(ix, expr, lang="zh"):
    """The expression for a reader: an id written in it shown by its entry's name."""
    out = []
    for kind, text in tokens(expr):
        if kind == "name" and text in ix.names:
            text = display_name(ix, text, lang)
        out.append(text)
    s = " ".join(out)
    return s.replace("( ", "(").replace(" )", ")").replace("（ ", "（").replace(" ）", "）")


def _bounded(name, v, lo, hi):
    try:
        n = int(v)
    except (TypeError, ValueError):
        raise FindError(f"{name} {v!r}: a whole number") from None
    if not lo <= n <= hi:
        raise FindError(f"{name} {v!r}: between {lo} and {hi}")
    return n


SORTS = ("lift", "count")


def cooccur(ix, name, limit=20, month=None, day=None, gate=None, daynight=None, lang="zh", sort="lift",
            min_count=1, dim=None):
    """The entries that fire on the boards where `name` (an expression) holds: count, the share
    of those boards, and lift (how much more often than over the filtered space).  sort "lift"
    (default: what is specific to it; ties by count) or "count" (what fires most with it);
    min_count: leave out entries on fewer of its boards (a lift of 1 or 2 boards says little)."""
    limit = _bounded("--limit", limit, 1, MAX_LIMIT)
    min_count = _bounded("--min-count", min_count, 1, ix.size)
    if sort not in SORTS:
        raise FindError(f"--sort {sort!r}: lift or count")
    tree = parse(name)
    terms = {}
    mask = filter_mask(ix, month, day, gate, daynight, dim)
    base = evaluate(ix, tree, terms) & mask
    nb, n = base.bit_count(), mask.bit_count()
    own = {i for ids in terms.values() for i in ids}
    rows = []
    if nb:
        for i, x in ix.bits.items():
            if i in own or ix.names.get(i, ("", ""))[1] == "起例":
                continue
            c = (x & base).bit_count()
            if c < min_count:
                continue
            ne = (x & mask).bit_count()
            rows.append({"id": i, "name": display_name(ix, i, lang), "kind": ix.names.get(i, ("", ""))[1],
                         "count": c, "share": round(c / nb, 4), "lift": round(c * n / (nb * ne), 3), "boards": ne})
    if sort == "lift":
        rows.sort(key=lambda r: (-r["lift"], -r["count"], r["id"]))
    else:
        rows.sort(key=lambda r: (-r["count"], -r["lift"], r["id"]))
    return {"query": name, "count": nb, "of": n, "sort": sort, "min_count": min_count, "space": space(ix),
            "cooccur": rows[:limit]}


def diff(old, new, lang="zh", limit=None, new_kb=None):
    """Entries whose boards differ between two indexes of the same space (installed → working)."""
    if old.n != new.n:
        raise FindError("--diff: the two indexes cover different spaces")
    rows = []
    for i in sorted(set(old.bits) | set(new.bits) | (set(new.names) - set(old.names))):
        a, b = old.bits.get(i, 0), new.bits.get(i, 0)
        gained, lost = (b & ~a).bit_count(), (a & ~b).bit_count()
        status = ("new" if i not in old.names else "removed" if i not in new.names else "changed")
        if gained or lost or status != "changed":
            ix = new if i in new.names else old
            ex_g = bits_of(b & ~a, 0, 1, ix=new)
            ex_l = bits_of(a & ~b, 0, 1, ix=old)
            rows.append({"id": i, "name": display_name(ix, i, lang), "status": status, "before": a.bit_count(),
                         "after": b.bit_count(), "gained": gained, "lost": lost,
                         "gained_example": board_record(new, ex_g[0], kb_arg=new_kb)["command"] if ex_g else None,
                         "lost_example": board_record(old, ex_l[0])["command"] if ex_l else None})
    rows.sort(key=lambda r: (-(r["gained"] + r["lost"]), r["id"]))
    return {"boards": new.size, "changed": len(rows), "entries": rows[:limit] if limit else rows}


def where_it_fires(ix, entry_id, examples=10, lang="zh"):
    """A rule page's block: the count over the space, the count by gate, ten example boards."""
    x = ix.bits.get(entry_id, 0)
    P = ix.per_lesson
    picks = bits_of(x, 0, None) if x.bit_count() <= examples else None
    if picks is None:
        # spread over the space: the first board of evenly spaced lessons where it fires
        lessons = [l for l in range(ix.days * 12) if x >> (l * P) & ((1 << P) - 1)]
        step = max(1, len(lessons) // examples)
        picks = []
        for l in lessons[::step][:examples]:
            picks += bits_of(x >> (l * P) << (l * P), 0, 1)
    return {"id": entry_id, "count": x.bit_count(), "of": ix.size, "by_gate": count_by(ix, x, "gate"),
            "boards": [board_record(ix, i, [(display_name(ix, entry_id, lang), [entry_id])], lang) for i in picks]}


# --------------------------------------------------------------------------- the indexes a process keeps
RECHECK = 30.0          # seconds before a process looks again for an index it did not find


class Finder:
    """The indexes a process has read (the web app keeps one): per (options, question)."""

    def __init__(self, kb_dir=None, days=60):
        self.kb_dir = str(kb_dir) if kb_dir else None
        self.days = days
        self._ix = {}
        self._missed = {}

    def index(self, options=None, question=None, build=True, progress=True, check=()):
        """The index of (options, question): in memory, else from the cache, else (build=True)
        built now — after the expressions `check` are found to name entries of the KB."""
        key = (tuple(sorted((options or {}).items())), question)
        ix = self._ix.get(key)
        if ix is None:
            import time
            missed = self._missed.get(key)
            if not build and missed is not None and time.monotonic() - missed < RECHECK:
                raise NotBuilt(self.kb_dir, options, question)      # looked a moment ago (hashing the KB costs)
            ix = X.cached_index(self.kb_dir, options, question, self.days)
            if ix is None and not build:
                self._missed[key] = time.monotonic()
                raise NotBuilt(self.kb_dir, options, question)
            if ix is None:
                if check:
                    from liuren.knowledge.kbload import load_kb
                    kb = load_kb(self.kb_dir)
                    for expr in check:
                        check_names(kb, expr)
                ix = X.get_index(self.kb_dir, options, question, self.days, progress)
            self._ix[key] = ix
        return ix


class NotBuilt(InputError):
    def __init__(self, kb_dir, options, question):
        extra = "".join(f" --{k} {v}" for k, v in sorted((options or {}).items()))
        extra += f" --question {question}" if question else ""
        extra += f" --kb {kb_dir}" if kb_dir else ""
        super().__init__(f"the index of this space is not built yet: run `liuren find --build{extra}` "
                         "(a few minutes, once per KB and options)")


def check_options(options):
    from liuren.casting.cast import check_options as check
    check(options)
    return options


def normalize_question(kb_dir, question):
    """A question's alias as its name; unknown → error (loads the KB)."""
    if question is None:
        return None
    from liuren.knowledge.kbload import load_kb
    kb = load_kb(kb_dir)
    q = kb.question_aliases.get(question, question)
    if q not in kb.questions:
        raise FindError(f"--question {question!r}: not a question of this KB (liuren questions lists them)")
    return q
