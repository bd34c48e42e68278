"""The knowledge-base audit: judge the whole board space and report dead rules, rules that
always fire, conflicts (declared or not), redundant and subsumed rules, the effect of every
底本 variant, and same-named entries from different sources that disagree.

    liuren audit [--months all] [--daynight both] [--options guiren=甲羊,…] [--json] [--markdown FILE]

The space is the 720 lessons (60 days × 12 offsets of 月將 over 占時 子) × 12 months × 晝/夜;
every board also has the year 丙午 and a birth year cycling with the lesson (so that 太歲,
本命 and 行年 exist).  Boards are judged in parallel on all cores.  Exit status 1 when a
conflict exists that the KB does not declare.

It is one thing, the audit's walk and its report, kept in one module so that a reader follows a
finding from the boards that produced it to the line that prints it.
"""
from __future__ import annotations

import fnmatch
import json
import multiprocessing as mp
import os
import sys
import time
from collections import Counter, defaultdict

from liuren.errors import InputError
from liuren.rules.kbload import JUDGMENT_KINDS
from liuren.casting.calendar import month_of_year
from liuren.casting.symbols import BRANCHES, JIAZI

YEAR = 2026                 # the boards of the space are cast in this year (丙午) …
# … and so in its months (寅 to 丑, each with the stem the year gives it: 庚寅 … 辛丑)
MONTHS = [month_of_year("丙午", b) for b in "寅卯辰巳午未申酉戌亥子丑"]
OPPOSITE = {("吉", "凶"), ("凶", "吉")}


# --------------------------------------------------------------------------- the space
def board_space(months="all", daynight="both", options=None, days=60, question=None):
    if not isinstance(days, int) or not 1 <= days <= 60:
        raise InputError(f"--days {days!r}: between 1 and 60")
    ms = MONTHS if months == "all" else _months(months)
    dn = {"both": (False, True), "day": (False,), "night": (True,)}.get(daynight)
    if dn is None:
        raise InputError(f"--daynight {daynight!r}: use both, day or night")
    out = []
    # a lesson's boards come together, months innermost: consecutive boards then differ in the
    # month alone, which the incremental judging of a worker makes cheap
    for i, day in enumerate(JIAZI[:days]):
        for off in range(12):
            for night in dn:
                for m in ms:
                    b = dict(options or {}, day=day, jiang=BRANCHES[off], hour="子", month=m,
                             night=night, year=2026, born=1960 + (i + off) % 60, sex="m" if off % 2 else "f")
                    if question:
                        b["question"] = question
                    out.append(b)
    return out


def _months(spec):
    spec = str(spec)
    if spec.isascii() and spec.isdigit():
        n = int(spec)
        if not 1 <= n <= 12:
            raise InputError(f"--months {spec}: between 1 and 12, or all, or branches like 寅,申")
        return MONTHS[:n]
    out = []
    for b in spec.replace("，", ",").split(","):
        b = b.strip()
        m = next((x for x in MONTHS if x[1] == b or x == b), None)
        if m is None:
            raise InputError(f"--months {spec!r}: {b!r} is not a month branch (寅 … 丑)")
        out.append(m)
    return out


# --------------------------------------------------------------------------- judging (workers)
_W = {}


def _init(kb_dir, variants):
    """Build the engine once per worker; a failure is kept and raised by the first task (a pool
    whose initializer raises would restart its workers forever)."""
    try:
        import gc
        from liuren.rules.judging import engine_for
        _W["kb_dir"], _W["variants"] = kb_dir, variants
        _W["eng"] = engine_for(kb_dir, dict(variants))
        gc.disable()          # a worker keeps nothing between boards; it collects every chunk
    except Exception as e:  # noqa: BLE001
        _W["error"] = e


def _question_engine(question):
    from liuren.rules.judging import engine_for
    return engine_for(_W["kb_dir"], dict(_W["variants"]), question)


def _board_engine(board, incremental):
    """(casting arguments, question, engine, incremental) for a board of the space: the
    worker's engine, or the one of the board's question; a run can only go on incrementally
    on the engine that judged the previous board."""
    kw = dict(board)
    question = kw.pop("question", None)
    eng = _W["eng"] if question is None else _question_engine(question)
    if eng is not _W.get("last_engine"):
        incremental = False
    _W["last_engine"] = eng
    return kw, question, eng, incremental


def _judge_lean(board, incremental=False):
    """(fired entries, judgments) of a board, without building the trace graph.  With
    incremental=True the engine starts from the previous board of this worker and only
    retracts and declares what differs (the 24 boards of one lesson differ in a few facts)."""
    from liuren.casting.cast import cast
    from liuren.rules.facts import board_facts
    from liuren.rules.judging import Recorder
    kw, question, eng, incremental = _board_engine(board, incremental)
    b = cast(**kw)
    active = _W.setdefault("active", {})
    if not incremental:
        active.clear()
    rec = Recorder(eng.kb, eng.judged_consumed, eng)

    def on_fire(cr, act):
        new = rec.on_fire(cr, act)
        f = rec.firings[-1]
        active[id(f)] = f
        return f, new

    def on_unfire(f):
        active.pop(id(f), None)
    eng.run_board(board_facts(b, question), on_fire, on_unfire, incremental=incremental)
    defeated = set()
    for f in active.values():
        for d in f.new:                 # the facts it asserted (keys of the trace not needed)
            if d["t"] == "不實":
                defeated.add(d.get("規"))
    fired = set()
    judg = []
    for f in active.values():
        if f.internal:
            continue
        fired.add(f.report)
        fired.add(f.rule)
        if f.kind != "起例":
            judg.append((f.report, f.kind, f.valence, tuple(f.about), f.report in defeated))
    return fired, judg


class _Walk:
    """A worker's walk through its boards: each board judged incrementally from the last one of
    the same lesson, and what the audit keeps of it worked out from what changed — the entries
    that began or stopped firing (their runs of boards: `fired_at` as ranges), the 不實 now in
    force, and the judgments of a tone (吉/凶) whose co-firing the conflict check counts —
    rather than from every firing of every board."""

    def __init__(self):
        self.count = Counter()          # entry -> active firings reporting it (or of its rule)
        self.changed = set()            # entries whose count moved during this board
        self.defeats = Counter()        # 規 -> active firings asserting 不實 of it
        self.polar = {}                 # id(firing) -> firing: a 吉/凶 judgment about something
        self.open = {}                  # entry -> first board of its current run
        self.ranges = defaultdict(list)     # entry -> [(first board, board after the last)]

    def _fire(self, f, sign):
        if not f.internal:
            for e in {f.report, f.rule}:
                self.count[e] += sign
                self.changed.add(e)
            if f.kind != "起例" and f.about and f.valence in ("吉", "凶"):
                if sign > 0:
                    self.polar[id(f)] = f
                else:
                    self.polar.pop(id(f), None)
        for d in f.new:                 # the facts it asserted (keys of the trace not needed)
            if d["t"] == "不實":
                self.defeats[d.get("規")] += sign

    def judge(self, i, board, incremental):
        from liuren.casting.cast import cast
        from liuren.rules.facts import board_facts
        from liuren.rules.judging import Recorder
        kw, question, eng, incremental = _board_engine(board, incremental)
        if not incremental:             # the engine starts afresh: every firing is gone
            self.changed.update(e for e, n in self.count.items() if n)
            self.count.clear()
            self.defeats.clear()
            self.polar.clear()
        rec = Recorder(eng.kb, eng.judged_consumed, eng)

        def on_fire(cr, act):
            new = rec.on_fire(cr, act)
            f = rec.firings[-1]
            self._fire(f, 1)
            return f, new
        eng.run_board(board_facts(cast(**kw), question), on_fire, lambda f: self._fire(f, -1),
                      incremental=incremental)
        for e in self.changed:
            now, began = self.count[e] > 0, self.open.get(e)
            if now and began is None:
                self.open[e] = i
            elif not now and began is not None:
                self.ranges[e].append((self.open.pop(e), i))
        self.changed.clear()

    def close(self, end):
        for e, began in self.open.items():
            self.ranges[e].append((began, end))
        self.open.clear()

    def subjects(self):
        """The 吉/凶 judgments in force, by subject: judgments of one kind about the same branches
        (a 格 on the same 三傳, a 神煞 on the same branch); defeated ones are not taken as real
        and do not conflict."""
        by_subject = defaultdict(set)
        for f in self.polar.values():
            if self.defeats[f.report] <= 0:
                by_subject[(f.kind, "".join(sorted(set(f.about))))].add((f.report, f.valence))
        return by_subject


def _work(args):
    if "error" in _W:
        raise _W["error"]
    start, boards = args
    import gc
    gc.collect()
    walk = _Walk()
    pairs = defaultdict(lambda: [0, None])
    prev = None
    i = start
    for i, b in enumerate(boards, start):
        lesson = (b.get("day"), b.get("jiang"), b.get("hour"), b.get("question"))
        walk.judge(i, b, incremental=(lesson == prev))
        prev = lesson
        for (kind, x), items in walk.subjects().items():
            if len(items) < 2:
                continue
            items = sorted(items)
            for a in range(len(items)):
                for c in range(a + 1, len(items)):
                    (ra, va), (rc, vc) = items[a], items[c]
                    if ra != rc and (va, vc) in OPPOSITE:
                        p = pairs[(ra, rc)]
                        p[0] += 1
                        if p[1] is None:
                            p[1] = (i, x)
    walk.close(i + 1)
    return dict(walk.ranges), {k: tuple(v) for k, v in pairs.items()}


def run_space(boards, kb_dir=None, variants=None, procs=None, progress=True, label="audit"):
    procs = procs or min(os.cpu_count() or 1, 2) if os.cpu_count() else 1
    # chunks of whole lessons (the space lists a lesson's boards together), so that a worker
    # judges a lesson's boards one after another, incrementally
    per_lesson = 1
    while per_lesson < len(boards) and all(boards[per_lesson].get(k) == boards[0].get(k)
                                            for k in ("day", "jiang", "hour")):
        per_lesson += 1
    lessons_per_chunk = max(1, len(boards) // per_lesson // (procs * 30))
    chunk = per_lesson * lessons_per_chunk
    tasks = [(i, boards[i:i + chunk]) for i in range(0, len(boards), chunk)]
    fired_at, pairs = defaultdict(list), {}
    t0 = time.time()
    done = 0
    ctx = mp.get_context("fork") if sys.platform != "win32" else mp.get_context()
    with ctx.Pool(procs, initializer=_init, initargs=(kb_dir, tuple(sorted((variants or {}).items())))) as pool:
        for f, p in pool.imap_unordered(_work, tasks):
            for k, runs in f.items():           # runs of consecutive boards: (first, after last)
                at = fired_at[k]
                for a, b in runs:
                    at.extend(range(a, b))
            merge_pairs(pairs, p)
            done += 1
            if progress:
                n = min(done * chunk, len(boards))
                bar = "#" * int(30 * n / len(boards))
                el = time.time() - t0
                sys.stderr.write(f"\r{label}: [{bar:<30}] {n}/{len(boards)} boards {el:5.0f}s")
                sys.stderr.flush()
    if progress:
        sys.stderr.write("\n")
    return {k: sorted(v) for k, v in fired_at.items()}, pairs


def merge_pairs(pairs, more):
    """Add a worker's co-firing counts {pair: (boards, example)} to the total.  The example is
    the first board of the space where the pair occurs (the smallest index), whatever order the
    workers finish in, so that two audits print the same report."""
    for k, (n, ex) in more.items():
        if k in pairs:
            old = pairs[k][1]
            pairs[k] = (pairs[k][0] + n, min(old, ex) if old and ex else old or ex)
        else:
            pairs[k] = (n, ex)
    return pairs


# --------------------------------------------------------------------------- analysis
def _declared_rows(kb):
    """The table declared-conflicts as (the pairs its rows name, the cells that are globs)."""
    named, globs = set(), []
    t = kb.tables.get("declared-conflicts")
    for row in (t.rows if t is not None else ()):
        for cell in row.data:
            x, y = cell["甲"], cell["乙"]
            if any(ch in x + y for ch in "*?["):
                globs.append((x, y))
            else:
                named.add((x, y))
                named.add((y, x))
    return named, globs


def _declared(kb, a, b, rows=None):
    """Does the KB declare that a and b may co-fire with opposite readings?  On either rule
    (conflicts / defeats / defeated_by, or its table's conflicts), or as a row of the table
    declared-conflicts (the two ids named, or globs on both sides, with the reason and its
    source).  `rows` is _declared_rows(kb), worked out once for many pairs."""
    ents = kb.entries
    named, globs = rows if rows is not None else _declared_rows(kb)
    if (a, b) in named:
        return True
    for x, y in globs:
        if (fnmatch.fnmatchcase(a, x) and fnmatch.fnmatchcase(b, y)) or \
                (fnmatch.fnmatchcase(b, x) and fnmatch.fnmatchcase(a, y)):
            return True

    def decl(x):
        e = ents.get(x)
        if e is None:
            return []
        out = list(e.meta.get("conflicts") or []) + list(e.meta.get("defeats") or []) + \
            list(e.meta.get("defeated_by") or [])
        t = kb.tables.get(getattr(e, "table", None) or "")
        if t is not None:
            out += list(t.meta.get("conflicts") or [])
        return out
    return any(fnmatch.fnmatchcase(b, pat) for pat in decl(a)) or any(fnmatch.fnmatchcase(a, pat) for pat in decl(b))


def analyse(kb, boards, fired_at, pairs):
    n = len(boards)
    asked = {b.get("question") for b in boards} - {None}
    from liuren.casting.cast import OPTIONS
    space_options = {k: boards[0][k] for k in OPTIONS if boards and k in boards[0]}
    ents = kb.entries
    judged = {e.id for e in ents.values() if e.kind in JUDGMENT_KINDS}
    checkable = [e for e in ents.values() if e.id in kb.rules or
                 (getattr(e, "table", "") and kb.tables[e.table].meta.get("reported"))]
    never = sorted(e.id for e in checkable if not fired_at.get(e.id))
    always = sorted(e.id for e in checkable if len(fired_at.get(e.id, ())) == n)

    conflicts = {"declared": [], "undeclared": []}
    rows = _declared_rows(kb)
    for (a, b), (count, ex) in sorted(pairs.items()):
        item = {"a": a, "a_name": ents[a].name if a in ents else a, "b": b, "b_name": ents[b].name if b in ents else b,
                "boards": count, "example": _board_ref(boards[ex[0]]) | {"branch": ex[1]}}
        conflicts["declared" if _declared(kb, a, b, rows) else "undeclared"].append(item)

    # redundancy and subsumption among judgments that fire sometimes but not always
    bits = {}
    for e in sorted(judged):
        idx = fired_at.get(e)
        if idx and len(idx) < n:
            v = 0
            for i in idx:
                v |= 1 << i
            bits[e] = v
    family_of = {}
    for r in kb.rules.values():
        if r.as_var:
            family_of[r.id] = r.id
    groups = defaultdict(list)
    for e, v in bits.items():
        groups[v].append(e)
    redundant = [{"rules": sorted(g), "names": [ents[x].name for x in sorted(g)], "boards": bin(v).count("1")}
                 for v, g in groups.items() if len(g) > 1 and not _family_only(kb, g)]
    subsumed = []
    items = sorted(bits.items(), key=lambda kv: bin(kv[1]).count("1"))
    for i, (a, va) in enumerate(items):
        ca = bin(va).count("1")
        for b, vb in items[i + 1:]:
            if va != vb and va & vb == va and not _related(kb, a, b):
                subsumed.append({"narrow": a, "broad": b, "narrow_boards": ca, "broad_boards": bin(vb).count("1")})
    return {"space": {"boards": n}, "never_fire": [dict(_ref(ents, x), **never_reason(kb, x, asked, space_options))
                                                    for x in never],
            "always_fire": [_ref(ents, x) for x in always], "conflicts": conflicts,
            "redundant": redundant, "subsumed": subsumed}


def _family_only(kb, group):
    """A family rule and rows it reports are expected to coincide when there is one row."""
    rules = [x for x in group if x in kb.rules and kb.rules[x].as_var]
    return len(group) == 2 and len(rules) == 1


def _related(kb, a, b):
    """Rows and the family rule that reports them are trivially nested."""
    for x, y in ((a, b), (b, a)):
        if y in kb.rules and kb.rules[y].as_var and x in kb.rows:
            return True
    return False


# inputs the audit's space never gives: a second person, the 節氣 a day holds, a lunar date
OUTSIDE_INPUTS = ("partner_born", "partner_sex", "partner_benming", "partner_xingnian", "term_day", "lunar")


def never_reason(kb, x, asked=(), options=None):
    """Why an entry may not have fired in the space: declared unreachable (with the KB's reason);
    gated on a question this audit did not ask (`--question` audits one) — by its condition, by
    the rows of the table that reads it, by its family's rows, or (through facts a question
    brings, such as 類神) by its own example boards all asking one; outside the space (its example
    board has another 占時 or option); or nothing known — the ones to look at."""
    from liuren.casting.cast import OPTIONS
    from liuren.rules.compile import gating_questions
    e = kb.entries.get(x)
    if e is None:
        return {"reason": "unknown"}
    un = e.meta.get("unreachable")
    if un:
        return {"reason": "unreachable", "note": un.get("why", "") if isinstance(un, dict) else str(un)}
    ix = _never_index(kb)
    rule = ix.reporting(x)
    qs = set()
    if rule is not None:
        qs |= set(gating_questions(rule.when) or ())
        if rule.meta.get("question"):
            qs.add(rule.meta["question"])
    for q in [e.meta.get("問")] + [d.get("問") for d in getattr(e, "data", None) or []]:
        if isinstance(q, str):
            qs.add(q)
        elif isinstance(q, list):
            qs |= {v for v in q if isinstance(v, str)}
    if not qs:
        # reported through a reading table whose rows name it and a question (卷中's 星煞 readings:
        # {源: jz-tianyi, 類: 占病, 報: jz-tianyi}): question-only when every such row names one
        rows = ix.rows_naming.get(x, [])
        named = [{v for v in d.values() if isinstance(v, str) and v in kb.questions} for d in rows]
        if rows and all(named):
            qs = set().union(*named)
    if not qs and x in kb.rules and kb.rules[x].as_var:
        # a family rule whose every row is asked under some question is itself question-only
        rows = ix.rows_of.get(x, [])
        row_qs = [ix.reason(r.id).get("questions") for r in rows]
        if rows and all(row_qs):
            qs = {q for r in row_qs for q in r}
    fires = [ex.get("board") or {} for ex in ((e.meta.get("examples") or {}).get("fires") or [])
             if isinstance(ex, dict)]
    if not qs and fires and all(b.get("question") for b in fires):
        # gated through facts a question brings (類神 …): the KB's own example boards all ask one
        qs = {b["question"] for b in fires}
    if qs and not qs & set(asked):
        return {"reason": "question", "questions": sorted(qs)}
    for b in fires:
        hour = b.get("hour") or (str(b.get("on", ""))[-1:] or None)
        extra = sorted(k for k in b if k in OPTIONS and (options or {}).get(k) != b[k])
        extra += sorted(k for k in b if k in OUTSIDE_INPUTS)
        if (hour and hour != "子") or extra:
            # this audit casts at 占時 子 with its own options: the rule fires on its example board
            return {"reason": "outside the space", "example": b}
    return {"reason": "not seen"}


class _NeverIndex:
    """What never_reason looks up for every entry, worked out once per KB: the rule reporting
    each entry, the rows of each family rule, the table rows naming each value, and the
    reasons of rows without a question (the family rule's reason reads them all)."""

    def __init__(self, kb):
        from liuren.explain.whynot import reporting_rule
        self.kb = kb
        self._rep = {}
        self._reporting_rule = reporting_rule
        self.rows_of = {}
        for r in kb.rows.values():
            rule = self.reporting(r.id)
            if rule is not None and rule.as_var:
                self.rows_of.setdefault(rule.id, []).append(r)
        self.rows_naming = {}
        for t in kb.tables.values():
            for r in t.rows:
                for d in getattr(r, "data", None) or []:
                    for v in set(v for v in d.values() if isinstance(v, str)):
                        self.rows_naming.setdefault(v, []).append(d)
        self._reasons = {}

    def reporting(self, x):
        if x not in self._rep:
            self._rep[x] = self._reporting_rule(self.kb, x)[0]
        return self._rep[x]

    def reason(self, x):
        if x not in self._reasons:
            self._reasons[x] = never_reason(self.kb, x)
        return self._reasons[x]


def _never_index(kb):
    ix = kb.__dict__.get("_never_index")
    if ix is None:
        ix = kb.__dict__["_never_index"] = _NeverIndex(kb)
    return ix


def _ref(ents, x):
    e = ents.get(x)
    return {"id": x, "name": e.name if e else x, "kind": e.kind if e else ""}


def _board_ref(b):
    return {k: b[k] for k in ("day", "jiang", "hour", "month", "night") if k in b}


def _variant_task(args):
    """Judge the sample boards with one variant switched on, with a whole network of its own (in a
    worker; one engine per task).  For a variant that the base network cannot place (a rule it
    does not have)."""
    kb_dir, entry, variant, space = args
    from liuren.rules import cache
    from liuren.rules.judging import engine_for
    import gc
    _W["kb_dir"], _W["variants"] = kb_dir, ((entry, variant),) if entry else ()
    with cache.read_only():         # a variant's network is compiled for this audit only
        _W["eng"] = engine_for(kb_dir, {entry: variant} if entry else None)
    gc.disable()
    sets = [frozenset(_judge_lean(b)[0]) for b in space]
    gc.enable()
    return entry, variant, sets


def _base_run(eng, board):
    """A board judged by the base network: (rule, report, internal, facts asserted) per firing."""
    from liuren.casting.cast import cast
    from liuren.rules.facts import board_facts
    from liuren.rules.judging import Recorder
    rec = Recorder(eng.kb, eng.judged_consumed, eng)
    eng.run_board(board_facts(cast(**board)), rec.on_fire, keep=False)
    eng.reset_board()
    return [(f.rule, f.report, f.internal, tuple(f.new)) for f in rec.firings]


def _entries(firings, skip=frozenset()):
    return {x for rule, report, internal, _ in firings if not internal and rule not in skip for x in (report, rule)}


def _cone(eng, kb, entry, variant):
    """The rules a variant can change the firings of: those that read the variant's rule's
    conclusions or the variant's table, and what reads theirs in turn (eng.dependents,
    eng.readers), with every helper of a rule taken in.  As KB rule ids and compiled ids:
    (KB rules to compile, every compiled id they make).  None when the base network does
    not have the variant's rule (a rule only another question, or only the variant, brings)."""
    ids = [cr.id for cr in eng.compiled]
    parent = {i: i.split("~", 1)[0] for i in ids}
    if entry.id in kb.rules:
        if entry.id not in parent:
            return None
        start = {entry.id}
        v = next(x for x in entry.variants if x.get("id") == variant)
        from liuren.rules.kbload import then_facts
        for t, _ in then_facts(v.get("then", entry.then)):       # what the variant asserts
            start |= set(eng.readers.get(t, ()))
    else:
        start = set(eng.readers.get(kb.tables[entry.table].fact_type, ()))
    seen, stack = set(), list(start)
    while stack:
        x = stack.pop()
        if x in seen:
            continue
        seen.add(x)
        stack.extend(eng.dependents.get(x, ()))
        stack.extend(i for i in ids if parent[i] == parent.get(x, x))        # its rule and helpers
    rules = {parent.get(x, x) for x in seen}
    return rules, frozenset(i for i in ids if parent[i] in rules)


def _set_variant_base(space, base):
    _W["variant_base"] = (space, base)


def _cone_task(args):
    """Judge the sample boards with one variant switched on, on the part of the network it can
    reach: the rules of its cone (compiled with the variant), given each board's own facts and
    everything the base network's other rules derived there.  Those rules read nothing the cone
    asserts, so their firings are the base run's; the cone's are worked out afresh.  The
    variant's firings on a board: the others' entries and the cone's."""
    kb_dir, entry, variant, rules, cone, declared = args
    import gc
    from liuren.casting.cast import cast
    from liuren.rules.compile import build
    from liuren.rules.facts import board_facts
    from liuren.rules.judging import Recorder
    from liuren.rules.kbload import load_kb
    kb = load_kb(kb_dir)
    eng = build(kb, {entry: variant}, only=set(rules), declared=declared)
    eng.kb = kb
    space, base = _W["variant_base"]
    gc.disable()
    sets = []
    for board, firings in zip(space, base):
        given = [d for rule, _, _, new in firings if rule not in cone for d in new]
        rec = Recorder(kb, eng.judged_consumed, eng)
        eng.run_board(board_facts(cast(**board)) + given, rec.on_fire, keep=False)
        eng.reset_board()
        sets.append(frozenset(_entries(firings, cone) | {x for f in rec.firings if not f.internal
                                                          for x in (f.report, f.rule)}))
    gc.enable()
    return entry, variant, sets


def variant_space(days=60, sample=True):
    """The boards a variant's effect is measured on: one lesson of each of the sixty days (its
    offset cycling; one month each, cycling, alternating 晝夜), or all 720."""
    space = []
    for i, day in enumerate(JIAZI[:days]):
        for off in ([(i * 5) % 12] if sample else range(12)):
            space.append({"day": day, "jiang": BRANCHES[off], "hour": "子", "month": MONTHS[(i + off) % 12],
                          "night": bool((i + off) % 2), "year": 2026, "born": 1960 + (i + off) % 60,
                          "sex": "m" if off % 2 else "f"})
    return space


def variant_effects(kb, kb_dir, procs, progress, days=60, sample=True, whole_networks=False, entries=None):
    """For every 底本 (or other) variant: boards whose firings change when it is switched on.
    Measured over lessons (one month each, cycling, alternating 晝夜): by default one lesson of
    each of the sixty days (its offset cycling), so that every stem and branch is there and the
    whole audit fits in minutes; `--variants full` measures all 720.

    The base network judges those boards once; each variant is then one task for one worker,
    which compiles only the rules the variant can reach (_cone) and judges them on what the
    base run gives them — a variant no rule reads changes nothing.  `whole_networks` compiles
    and judges a whole network per variant instead (what the cones are tested against);
    `entries`: only the variants of these entries."""
    from liuren.rules.judging import engine_for
    space = variant_space(days, sample)
    base_eng = engine_for(kb_dir)
    base = [_base_run(base_eng, b) for b in space]
    base_sets = [frozenset(_entries(f)) for f in base]
    results, todo, cones = {}, [], []
    declared = frozenset(base_eng._dynamic_types())       # what the base run gives a cone
    measured = [e for e in kb.entries.values() if entries is None or e.id in entries]
    for e in measured:
        for v in e.variants:
            c = None if whole_networks else _cone(base_eng, kb, e, v["id"])
            if c is None:
                todo.append((kb_dir, e.id, v["id"], space))
            elif not c[0]:
                results[(e.id, v["id"])] = base_sets      # nothing reads it here
            else:
                cones.append((kb_dir, e.id, v["id"], sorted(c[0]), c[1], declared))
    procs = procs or min(os.cpu_count() or 1, 2)
    ctx = mp.get_context("fork") if sys.platform != "win32" else mp.get_context()
    t0 = time.time()
    total = len(todo) + len(cones)
    n = 0
    with ctx.Pool(procs, maxtasksperchild=4, initializer=_set_variant_base, initargs=(space, base)) as pool:
        for entry, variant, sets in pool.imap_unordered(_run_variant, [("whole", t) for t in todo]
                                                         + [("cone", t) for t in cones]):
            results[(entry, variant)] = sets
            n += 1
            if progress:
                sys.stderr.write(f"\rvariants: {n}/{total} ({len(space)} boards each) {time.time() - t0:5.0f}s")
                sys.stderr.flush()
    if progress:
        sys.stderr.write("\n")
    out = []
    for e in measured:
        for v in e.variants:
            sets = results[(e.id, v["id"])]
            changed = [i for i in range(len(space)) if sets[i] != base_sets[i]]
            out.append({"entry": e.id, "name": e.name, "variant": v["id"], "label": v.get("label", ""),
                        "quote": v.get("quote"), "boards_changed": len(changed), "of": len(space),
                        "example": _board_ref(space[changed[0]]) if changed else None})
    return out


def _run_variant(task):
    kind, args = task
    return _variant_task(args) if kind == "whole" else _cone_task(args)


def source_disagreements(kb, fired_at):
    """Same-named entries (or tables) from different seeds: cells or boards where they differ."""
    by_name = defaultdict(list)
    for e in kb.entries.values():
        seeds = sorted({s["seed"][:3] for s in e.source if s.get("seed")})
        for nm in [e.name] + e.aliases:
            by_name[nm].append((e, seeds))
    out = []
    for name, items in sorted(by_name.items()):
        for i in range(len(items)):
            for j in range(i + 1, len(items)):
                (a, sa), (b, sb) = items[i], items[j]
                if not sa or not sb or set(sa) == set(sb) or a.id == b.id:
                    continue
                d = {"name": name, "a": a.id, "a_seed": sa, "b": b.id, "b_seed": sb}
                if getattr(a, "data", None) is not None and getattr(b, "data", None) is not None and a.data and b.data:
                    ca = {json.dumps(c, ensure_ascii=False, sort_keys=True) for c in a.data}
                    cb = {json.dumps(c, ensure_ascii=False, sort_keys=True) for c in b.data}
                    d["only_a"] = [json.loads(x) for x in sorted(ca - cb)][:50]
                    d["only_b"] = [json.loads(x) for x in sorted(cb - ca)][:50]
                    d["cells_differ"] = ca != cb
                fa, fb = set(fired_at.get(a.id, ())), set(fired_at.get(b.id, ()))
                d["boards_only_a"], d["boards_only_b"] = len(fa - fb), len(fb - fa)
                if d.get("cells_differ") or d["boards_only_a"] or d["boards_only_b"]:
                    out.append(d)
    tables = defaultdict(list)
    for t in kb.tables.values():
        seeds = sorted({s["seed"][:3] for s in (t.meta.get("source") or []) if s.get("seed")})
        tables[t.name].append((t, seeds))
    for name, items in tables.items():
        for i in range(len(items)):
            for j in range(i + 1, len(items)):
                (a, sa), (b, sb) = items[i], items[j]
                if sa and sb and set(sa) != set(sb):
                    ca = {json.dumps(c, ensure_ascii=False, sort_keys=True) for c in a.facts()}
                    cb = {json.dumps(c, ensure_ascii=False, sort_keys=True) for c in b.facts()}
                    if ca != cb:
                        out.append({"name": name, "a": a.id, "a_seed": sa, "b": b.id, "b_seed": sb,
                                    "cells_differ": True, "only_a": [json.loads(x) for x in sorted(ca - cb)][:50],
                                    "only_b": [json.loads(x) for x in sorted(cb - ca)][:50]})
    return out


# --------------------------------------------------------------------------- command
def audit(kb_dir=None, months="all", daynight="both", options=None, procs=None, progress=True, variants=True,
          days=60, variant_space="sample", question=None):
    from liuren.casting.cast import check_options
    from liuren.rules.kbload import load_kb
    check_options(options or {})
    kb = load_kb(kb_dir)
    if question is not None:
        question = kb.question_aliases.get(question, question)
        if question not in kb.questions:
            raise InputError(f"--question {question!r}: not a question of this KB (liuren questions lists them)")
    boards = board_space(months, daynight, options, days, question)
    fired_at, pairs = run_space(boards, kb_dir, None, procs, progress)
    rep = analyse(kb, boards, fired_at, pairs)
    rep["space"].update({"months": months, "daynight": daynight, "options": options or {}, "days": days,
                         "question": question})
    rep["variants"] = variant_effects(kb, kb_dir, procs, progress, days, variant_space != "full") if variants else []
    rep["space"]["variant_space"] = variant_space
    rep["source_disagreements"] = source_disagreements(kb, fired_at)
    return rep


def markdown(rep):
    L = [f"# KB audit ({rep['space']['boards']} boards)", ""]
    L.append(f"## Rules that never fire ({len(rep['never_fire'])})")
    heads = {"not seen": "No reason known (look at these)", "question": "Only under a question this audit did not ask",
             "outside the space": "Only on boards outside this space (another 占時 or option; its example board)",
             "unreachable": "Declared unreachable", "unknown": "Unknown entries"}
    for reason in ("not seen", "question", "outside the space", "unreachable", "unknown"):
        xs = [x for x in rep["never_fire"] if x.get("reason", "not seen") == reason]
        if not xs:
            continue
        L += ["", f"### {heads[reason]} ({len(xs)})"]
        for x in xs:
            extra = ""
            if reason == "question":
                extra = f" — {'、'.join(x['questions'])}"
            elif reason == "unreachable" and x.get("note"):
                extra = f" — {x['note']}"
            elif reason == "outside the space":
                extra = " — " + " ".join(f"{k}={v}" for k, v in x["example"].items())
            L.append(f"- `{x['id']}` {x['name']}{extra}")
    L.append("")
    L.append(f"## Rules that fire on every board ({len(rep['always_fire'])})")
    L += [f"- `{x['id']}` {x['name']}" for x in rep["always_fire"]] + [""]
    for k in ("undeclared", "declared"):
        cs = rep["conflicts"][k]
        L.append(f"## Conflicts, {k} ({len(cs)})")
        L += [f"- `{c['a']}` {c['a_name']} × `{c['b']}` {c['b_name']}: {c['boards']} boards, e.g. {c['example']}"
              for c in cs[:300]] + [""]
    L.append(f"## Redundant (identical firing sets) ({len(rep['redundant'])})")
    L += [f"- {', '.join(f'`{r}`' for r in x['rules'])} ({'、'.join(x['names'])}): {x['boards']} boards"
          for x in rep["redundant"]] + [""]
    L.append(f"## Subsumed (nested firing sets) ({len(rep['subsumed'])})")
    L += [f"- `{x['narrow']}` ({x['narrow_boards']}) ⊂ `{x['broad']}` ({x['broad_boards']})"
          for x in rep["subsumed"][:500]] + [""]
    L.append(f"## Variants ({len(rep['variants'])})")
    L += [f"- `{v['entry']}` {v['name']} — {v['label']}「{v['quote']}」: {v['boards_changed']}/{v['of']} boards change"
          for v in rep["variants"]] + [""]
    L.append(f"## Same-named entries from different sources that disagree ({len(rep['source_disagreements'])})")
    for d in rep["source_disagreements"]:
        L.append(f"- {d['name']}: `{d['a']}` ({','.join(d['a_seed'])}) vs `{d['b']}` ({','.join(d['b_seed'])})"
                 + (f"; cells only in a: {d.get('only_a')}; only in b: {d.get('only_b')}" if d.get("cells_differ") else "")
                 + (f"; boards only a {d.get('boards_only_a')}, only b {d.get('boards_only_b')}" if "boards_only_a" in d else ""))
    return "\n".join(L) + "\n"


def cmd_audit(a):
    opts = {}
    for part in (a.options or "").replace("，", ",").split(","):
        if part.strip():
            if "=" not in part:
                raise InputError(f"--options {a.options!r}: write name=value,… e.g. guiren=甲羊")
            k, v = part.split("=", 1)
            opts[k.strip()] = v.strip()
    if a.variants not in ("sample", "full"):
        raise InputError(f"--variants {a.variants!r}: sample or full")
    rep = audit(a.kb, a.months, a.daynight, opts, progress=not a.quiet, variants=not a.no_variants, days=a.days,
                variant_space=a.variants, question=a.question)
    if a.markdown:
        try:
            with open(a.markdown, "w", encoding="utf-8") as f:
                f.write(markdown(rep))
        except OSError as e:
            raise InputError(f"--markdown {a.markdown!r}: {e.strerror}") from None
    if a.json:
        print(json.dumps(rep, ensure_ascii=False, indent=1))
    else:
        c = rep["conflicts"]
        why = Counter(x.get("reason") for x in rep["never_fire"])
        print(f"boards: {rep['space']['boards']}; never fire: {len(rep['never_fire'])} ({why['not seen']} with no "
              f"reason known, {why['question']} under other questions, {why['outside the space']} outside the space, "
              f"{why['unreachable']} declared unreachable); "
              "always fire: "
              f"{len(rep['always_fire'])}; conflicts: {len(c['undeclared'])} undeclared, {len(c['declared'])} declared; "
              f"redundant groups: {len(rep['redundant'])}; subsumed pairs: {len(rep['subsumed'])}; variants: "
              f"{len(rep['variants'])}; source disagreements: {len(rep['source_disagreements'])}")
        for x in c["undeclared"][:20]:
            print(f"  undeclared conflict: {x['a']} {x['a_name']} × {x['b']} {x['b_name']} ({x['boards']} boards)")
    return 1 if rep["conflicts"]["undeclared"] else 0


def add_command(sub):
    p = sub.add_parser("audit", help="judge the whole board space and audit the KB (exit 1 on undeclared conflicts)")
    p.add_argument("--months", default="all", help="all (default), a number 1–12, or month branches like 寅,申")
    p.add_argument("--daynight", default="both", help="both (default), day or night")
    p.add_argument("--days", type=int, default=60, help="only the first N days of the sixty (default 60: all)")
    p.add_argument("--options", help="casting options for every board, e.g. guiren=甲羊,shehai=mengzhong")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--markdown", metavar="FILE", help="also write the report as Markdown")
    p.add_argument("--no-variants", action="store_true", help="skip measuring the 底本 variants")
    p.add_argument("--variants", default="sample", help="sample (default: one lesson of each day, 60 boards) or "
                                                       "full (the 720 lessons): where each variant's effect is measured")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--question", help="ask this question on every board (its procedure's rules are then audited)")
    p.add_argument("--kb", metavar="DIR", help="audit another knowledge-base folder")
    p.set_defaults(fn=cmd_audit)
