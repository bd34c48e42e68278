"""Queries over the whole board space (`liuren find`, /find, /api/find): where does a rule fire?

An expression joins rule names or ids — in either language, or by an alias — with `and`, `or`,
`not` and parentheses (`斬首 and 元首課`, `三光課 and not (返吟 or 伏吟)`); a name shared by several
entries stands for any of them.  It is answered from the index of the space (explain.index):
each entry's boards as a bitset, so that a query is a few operations on integers of 17,280
bits.  Filters (month, day, gate, 晝夜) are masks of the same kind; counts by month, gate, day,
lesson or 晝夜 (the facets of the page) are popcounts of the result under each mask.

Everything here returns plain data; the CLI prints it, the web app renders it.
"""
from __future__ import annotations

import difflib
import re

from liuren.casting.symbols import BRANCHES, GATES, JIAZI
from liuren.errors import InputError
from liuren.explain import index as X

COUNT_BY = ("month", "gate", "day", "lesson", "daynight")
DAYNIGHT = {"day": False, "晝": False, "night": True, "夜": True}
DN_WORD = {False: "晝", True: "夜"}
OPS = {"and", "or", "not"}
MAX_LIMIT = 1000


class FindError(InputError):
    """A bad expression or filter: one line naming the token."""


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
        resolve(n, name)
    return tree


def resolve(ix, name):
    """The ids a typed name stands for; unknown → FindError with the nearest names."""
    lk = _lookup(ix)
    ids = lk.get(name)
    if ids:
        return sorted(ids)
    near = difflib.get_close_matches(name, sorted(lk), n=3, cutoff=0.4)
    raise FindError(f"find: unknown rule {name!r}" + (f" (did you mean {'、'.join(near)}?)" if near else ""))


def display_name(ix, i, lang="zh"):
    name, kind, aliases, labels = ix.names.get(i, (i, "", (), {}))
    return (labels.get(lang) if lang != "zh" else None) or name


# --------------------------------------------------------------------------- expressions
_TOKEN = re.compile(r'\s*(?:(?P<paren>[()（）])|"(?P<dq>[^"]*)"|\'(?P<sq>[^\']*)\'|(?P<word>[^\s()（）"\']+))')


def tokens(expr):
    if not isinstance(expr, str) or not expr.strip():
        raise FindError("find: give an expression, e.g. '斬首 and 元首課'")
    out, pos = [], 0
    expr = expr.strip()
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if m is None or m.end() == pos:
            raise FindError(f"find: cannot read {expr[pos:pos + 20]!r} (an unclosed quote?)")
        pos = m.end()
        if m.group("paren"):
            out.append(("(" if m.group("paren") in "(（" else ")", m.group("paren")))
        elif m.group("word") is not None and m.group("word").lower() in OPS:
            out.append((m.group("word").lower(), m.group("word")))
        else:
            w = m.group("word") if m.group("word") is not None else (m.group("dq") if m.group("dq") is not None
                                                                     else m.group("sq"))
            if not w.strip():
                raise FindError("find: an empty quoted name")
            out.append(("name", w.strip()))
    return out


def parse(expr):
    """The expression as a tree: ("name", text) | ("not", t) | ("and"|"or", a, b)."""
    toks = tokens(expr)
    pos = 0

    def peek():
        return toks[pos][0] if pos < len(toks) else None

    def where(k):
        return f"at token {k + 1}" if k < len(toks) else "at the end"

    def or_():
        nonlocal pos
        t = and_()
        while peek() == "or":
            pos += 1
            t = ("or", t, and_())
        return t

    def and_():
        nonlocal pos
        t = not_()
        while peek() == "and":
            pos += 1
            t = ("and", t, not_())
        return t

    def not_():
        nonlocal pos
        if peek() == "not":
            pos += 1
            return ("not", not_())
        return atom()

    def atom():
        nonlocal pos
        k = peek()
        if k == "(":
            open_at = pos
            pos += 1
            t = or_()
            if peek() != ")":
                raise FindError(f"find: {toks[open_at][1]!r} {where(open_at)} is never closed")
            pos += 1
            return t
        if k == "name":
            pos += 1
            return ("name", toks[pos - 1][1])
        if k is None:
            prev = toks[pos - 1][1] if pos else ""
            raise FindError(f"find: {prev!r} at the end has nothing after it" if prev else "find: empty expression")
        if k == ")":
            raise FindError(f"find: {toks[pos][1]!r} {where(pos)} closes nothing" if not pos or toks[pos - 1][0] != "("
                            else f"find: '()' {where(pos - 1)} is empty")
        # an operator where a rule is wanted
        prev = toks[pos - 1][1] if pos else None
        raise FindError(f"find: {toks[pos][1]!r} {where(pos)} " +
                        (f"follows {prev!r}: a rule name is missing between them" if prev else "has no rule before it"))

    t = or_()
    if pos < len(toks):
        k, text = toks[pos]
        if k == ")":
            raise FindError(f"find: {text!r} {where(pos)} closes nothing")
        raise FindError(f"find: {text!r} {where(pos)}: join it with and / or to what comes before")
    return t


def names_in(tree, positive=True, out=None):
    """The names of a tree; positive=True: only those not under a `not`."""
    out = [] if out is None else out
    if tree[0] == "name":
        out.append(tree[1])
    elif tree[0] == "not":
        if not positive:
            names_in(tree[1], positive, out)
    else:
        names_in(tree[1], positive, out)
        names_in(tree[2], positive, out)
    return out


def evaluate(ix, tree, terms=None):
    """The bitset of boards where the expression holds; `terms` collects {name: ids}."""
    if tree[0] == "name":
        ids = resolve(ix, tree[1])
        if terms is not None:
            terms[tree[1]] = ids
        x = 0
        for i in ids:
            x |= ix.bits.get(i, 0)
        return x
    if tree[0] == "not":
        return ix.all & ~evaluate(ix, tree[1], terms)
    a, b = evaluate(ix, tree[1], terms), evaluate(ix, tree[2], terms)
    return a & b if tree[0] == "and" else a | b


# --------------------------------------------------------------------------- masks (filters, facets)
def _mask_of(n, test):
    return int("".join("1" if test(i) else "0" for i in range(n - 1, -1, -1)) or "0", 2)


def masks(ix):
    """Masks of the space, worked out once per index: by month, 晝夜, day, lesson, gate."""
    m = getattr(ix, "_masks", None)
    if m is not None:
        return m
    P = X.PER_LESSON
    m = {"month": {X.MONTHS[k]: _mask_of(ix.n, lambda i, k=k: i % 12 == k) for k in range(12)},
         "daynight": {DN_WORD[v]: _mask_of(ix.n, lambda i, v=v: (i % P >= 12) == v) for v in (False, True)},
         "day": {JIAZI[d]: ((1 << (12 * P)) - 1) << (12 * P * d) for d in range(ix.days)},
         "lesson": {f"{JIAZI[l // 12]} {BRANCHES[l % 12]}加子": ((1 << P) - 1) << (P * l) for l in range(ix.days * 12)}}
    gates = {}
    for l, (gate, subtype, _) in enumerate(ix.lessons):
        gates[gate] = gates.get(gate, 0) | (((1 << P) - 1) << (P * l))
    m["gate"] = {g: gates[g] for g in GATES if g in gates}
    subtypes = {}
    for l, (gate, subtype, _) in enumerate(ix.lessons):
        if subtype:
            subtypes[subtype] = subtypes.get(subtype, 0) | (((1 << P) - 1) << (P * l))
    m["subtype"] = subtypes
    ix._masks = m
    return m


def _split(v):
    return [x.strip() for x in str(v).replace("，", ",").replace("、", ",").split(",") if x.strip()]


def filter_mask(ix, month=None, day=None, gate=None, daynight=None):
    """The boards the filters leave (each a value or a comma list); a bad value is a FindError."""
    M = masks(ix)
    x = ix.all
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


def bits_of(x, start=0, limit=None, each_lesson=False):
    """The set bits of x in order, from the start-th one on, at most limit of them; each_lesson:
    only the first board of each lesson (the others of its lesson are skipped)."""
    out, k = [], 0
    lesson = (1 << X.PER_LESSON) - 1
    while x and (limit is None or len(out) < limit):
        low = x & -x
        i = low.bit_length() - 1
        if k >= start:
            out.append(i)
        k += 1
        if each_lesson:
            x &= ~(lesson << (i - i % X.PER_LESSON))
        else:
            x ^= low
    return out


def count_lessons(x):
    """How many lessons hold at least one of the boards of x."""
    n, lesson = 0, (1 << X.PER_LESSON) - 1
    while x:
        i = (x & -x).bit_length() - 1
        n += 1
        x &= ~(lesson << (i - i % X.PER_LESSON))
    return n


def count_by(ix, x, by):
    if by not in COUNT_BY:
        raise FindError(f"--count-by {by!r}: one of {'|'.join(COUNT_BY)}")
    out = {}
    for k, m in masks(ix)[by].items():
        c = (x & m).bit_count()
        if c:
            out[k] = c
    return out


# --------------------------------------------------------------------------- boards
def board_record(ix, i, terms=(), lang="zh", kb_arg=None):
    b = ix.board(i)
    gate, subtype, chuan = ix.lesson_of(i)
    on = f"{b['jiang']}加{b['hour']}"
    rec = {"day": b["day"], "on": on, "month": b["month"], "night": b["night"], "transmissions": list(chuan),
           "gate": gate, "lesson": subtype, "year": b["year"], "born": b["born"], "sex": b["sex"]}
    about = {}
    for name, ids in terms:
        for e in ids:
            if ix.bits.get(e, 0) >> i & 1:
                about.setdefault(name, [])
                about[name] += [p for p in ix.places_of(e, i) if p not in about[name]]
    if about:
        rec["about"] = about
    opts = [f"--{k.replace('_', '-')} {v}" for k, v in sorted(ix.options.items())]
    rec["command"] = " ".join(["liuren judge --day", b["day"], "--on", on, "--month", b["month"],
                               "--night" if b["night"] else "--daytime", "--year 2026 --born", str(b["born"]),
                               "--sex", b["sex"], *opts] + ([f"--question {ix.question}"] if ix.question else [])
                              + ([f"--kb {kb_arg}"] if kb_arg else []))
    q = [("day", b["day"]), ("on", on), ("month", b["month"]), ("night", "true" if b["night"] else "false"),
         ("year", "2026"), ("born", str(b["born"])), ("sex", b["sex"])] + sorted(ix.options.items())
    if ix.question:
        q.append(("question", ix.question))
    if lang != "zh":
        q.append(("lang", lang))
    from urllib.parse import urlencode
    rec["query"] = urlencode(q)
    return rec


def find(ix, expr, month=None, day=None, gate=None, daynight=None, limit=20, offset=0, count_by_key=None,
         facets=False, lang="zh", kb_arg=None, each_lesson=False):
    """Answer an expression: {"query", "count", "of", "terms", "boards", ["counts"], ["facets"]}.
    each_lesson: the boards listed are one of each lesson (the first of its months and 晝夜)."""
    limit = _bounded("--limit", limit, 0, MAX_LIMIT)
    offset = _bounded("--offset", offset, 0, ix.n)
    tree = parse(expr)
    terms = {}
    x = evaluate(ix, tree, terms)
    mask = filter_mask(ix, month, day, gate, daynight)
    x &= mask
    pos = [n for n in dict.fromkeys(names_in(tree)) if n in terms]
    out = {"query": expr, "title": title(ix, expr, lang), "count": x.bit_count(), "of": mask.bit_count(),
           "filters": {k: v for k, v in (("month", month), ("day", day), ("gate", gate), ("daynight", daynight)) if v},
           "terms": {n: [{"id": i, "name": display_name(ix, i, lang)} for i in ids] for n, ids in terms.items()}}
    out["boards"] = [board_record(ix, i, [(_label(ix, n, lang), terms[n]) for n in pos], lang, kb_arg)
                     for i in bits_of(x, offset, limit, each_lesson)]
    if each_lesson:
        out["lessons"] = count_lessons(x)
    if count_by_key:
        out["counts"] = count_by(ix, x, count_by_key)
    if facets:
        out["facets"] = {k: count_by(ix, x, k) for k in ("gate", "month", "daynight")}
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


def cooccur(ix, name, limit=20, month=None, day=None, gate=None, daynight=None, lang="zh"):
    """The entries that fire most on the boards where `name` (an expression) holds: count, the
    share of those boards, and lift (how much more often than over the filtered space)."""
    limit = _bounded("--limit", limit, 1, MAX_LIMIT)
    tree = parse(name)
    terms = {}
    mask = filter_mask(ix, month, day, gate, daynight)
    base = evaluate(ix, tree, terms) & mask
    nb, n = base.bit_count(), mask.bit_count()
    own = {i for ids in terms.values() for i in ids}
    rows = []
    if nb:
        for i, x in ix.bits.items():
            if i in own or ix.names.get(i, ("", ""))[1] == "起例":
                continue
            c = (x & base).bit_count()
            if not c:
                continue
            ne = (x & mask).bit_count()
            rows.append({"id": i, "name": display_name(ix, i, lang), "kind": ix.names.get(i, ("", ""))[1],
                         "count": c, "share": round(c / nb, 4), "lift": round(c * n / (nb * ne), 3), "boards": ne})
    rows.sort(key=lambda r: (-r["count"], -r["lift"], r["id"]))
    return {"query": name, "count": nb, "of": n, "cooccur": rows[:limit]}


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
            ex_g = bits_of(b & ~a, 0, 1)
            ex_l = bits_of(a & ~b, 0, 1)
            rows.append({"id": i, "name": display_name(ix, i, lang), "status": status, "before": a.bit_count(),
                         "after": b.bit_count(), "gained": gained, "lost": lost,
                         "gained_example": board_record(new, ex_g[0], kb_arg=new_kb)["command"] if ex_g else None,
                         "lost_example": board_record(old, ex_l[0])["command"] if ex_l else None})
    rows.sort(key=lambda r: (-(r["gained"] + r["lost"]), r["id"]))
    return {"boards": new.n, "changed": len(rows), "entries": rows[:limit] if limit else rows}


def where_it_fires(ix, entry_id, examples=10, lang="zh"):
    """A rule page's block: the count over the space, the count by gate, ten example boards."""
    x = ix.bits.get(entry_id, 0)
    picks = bits_of(x, 0, None) if x.bit_count() <= examples else None
    if picks is None:
        # spread over the space: the first board of evenly spaced lessons where it fires
        lessons = [l for l in range(ix.days * 12) if x >> (l * X.PER_LESSON) & ((1 << X.PER_LESSON) - 1)]
        step = max(1, len(lessons) // examples)
        picks = []
        for l in lessons[::step][:examples]:
            picks += bits_of(x >> (l * X.PER_LESSON) << (l * X.PER_LESSON), 0, 1)
    return {"id": entry_id, "count": x.bit_count(), "of": ix.n, "by_gate": count_by(ix, x, "gate"),
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
                    from liuren.rules.kbload import load_kb
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
    from liuren.rules.kbload import load_kb
    kb = load_kb(kb_dir)
    q = kb.question_aliases.get(question, question)
    if q not in kb.questions:
        raise FindError(f"--question {question!r}: not a question of this KB (liuren questions lists them)")
    return q


# --------------------------------------------------------------------------- the web's /find and /api/find
FIND_KEYS = ("q", "month", "day", "gate", "daynight", "limit", "offset", "count_by", "cooccur", "each_lesson",
             "guiren", "shehai", "question", "lang")
EXAMPLES = ("斬首 and 元首課", "三光課 and 魁度天門", "返吟 and not 涉害課")
PAGE = 20


def _space_args(finder, p):
    opts = check_options({k: p[k] for k in ("guiren", "shehai") if k in p})
    question = normalize_question(finder.kb_dir, p.get("question"))
    return opts, question


def api_find(finder, p, lang="zh"):
    """/api/find: the CLI's JSON (find --json), with the facets; cooccur=NAME: find --cooccur."""
    opts, question = _space_args(finder, p)
    for k in ("q", "cooccur"):
        if k in p:
            parse(p[k])
    if "q" not in p and "cooccur" not in p:
        raise FindError("find: give q=EXPR (e.g. q=斬首 and 元首課) or cooccur=NAME")
    ix = finder.index(opts, question, build=False)
    filters = {k: p.get(k) for k in ("month", "day", "gate", "daynight")}
    if "cooccur" in p:
        return cooccur(ix, p["cooccur"], p.get("limit", 20), lang=lang, **filters)
    return find(ix, p["q"], limit=p.get("limit", PAGE), offset=p.get("offset", 0), count_by_key=p.get("count_by"),
                facets=True, lang=lang, each_lesson=_flag(p, "each_lesson"), **filters)


def _flag(p, name):
    from liuren.app.params import flag
    return bool(flag(p, name))


def page_find(finder, p, lang="zh"):
    """/find: the result with its facets as links (a value adds its filter; the chosen one removes
    it) and the pager's query strings."""
    from urllib.parse import urlencode
    ctx = {"p": p, "r": None, "facets": {}, "prev": None, "next": None, "why": None, "cooccur": [],
           "months": list(X.MONTHS), "gates": GATES, "examples": EXAMPLES, "space": 60 * 12 * X.PER_LESSON}
    opts, question = _space_args(finder, p)
    # what the page does not show it still checks, as /api/find does: never a silent 200
    if p.get("count_by") is not None and p["count_by"] not in COUNT_BY:
        raise FindError(f"--count-by {p['count_by']!r}: one of {'|'.join(COUNT_BY)}")
    if "cooccur" in p:
        parse(p["cooccur"])
        cooccur(finder.index(opts, question, build=False), p["cooccur"], 1,
                **{k: p.get(k) for k in ("month", "day", "gate", "daynight")})
    if "q" not in p:
        return ctx
    parse(p["q"])
    ix = finder.index(opts, question, build=False)
    ctx["space"] = ix.n
    filters = {k: p.get(k) for k in ("month", "day", "gate", "daynight")}
    limit = _bounded("limit", p.get("limit", PAGE), 1, MAX_LIMIT)
    r = find(ix, p["q"], limit=limit, offset=p.get("offset", 0), facets=True, lang=lang,
             each_lesson=_flag(p, "each_lesson"), **filters)
    r["offset"] = int(p.get("offset", 0))
    ctx["r"] = r
    items = [(k, v) for k, v in p.items() if k != "offset"]

    def qs(**change):
        d = dict(items)
        for k, v in change.items():
            if v is None:
                d.pop(k, None)
            else:
                d[k] = v
        return urlencode(list(d.items()))
    words = {"daynight": {"晝": "day", "夜": "night"}}
    for key, counts in r["facets"].items():
        out = []
        for value, count in counts.items():
            param = words.get(key, {}).get(value, value)
            on = p.get(key) in (param, value)
            out.append({"value": value, "count": count, "on": on, "qs": qs(**{key: None if on else param})})
        ctx["facets"][key] = out
    off = r["offset"]
    if off > 0:
        ctx["prev"] = qs(offset=str(max(0, off - limit)) if off - limit > 0 else None)
    r["total"] = r.get("lessons", r["count"])
    if off + limit < r["total"]:
        ctx["next"] = qs(offset=str(off + limit))
    if r["count"]:
        co = cooccur(ix, p["q"], 10, lang=lang, **filters)["cooccur"]
        for row in co:
            row["qs"] = qs(q=f"({p['q']}) and {row['id']}", offset=None)
        ctx["cooccur"] = co
    pos = [n for n in names_in(parse(p["q"])) if n in r["terms"]]
    if pos and r["terms"][pos[0]]:
        ctx["why"] = r["terms"][pos[0]][0]["id"]
    return ctx


def rule_block(finder, entry_id, lang="zh"):
    """A rule page's "where it fires", or None when the index is not built (a note says how)."""
    try:
        ix = finder.index(build=False)
    except NotBuilt as e:
        from liuren.explain.words import error_text
        return {"missing": error_text(e, lang)}
    return where_it_fires(ix, entry_id, 10, lang)
