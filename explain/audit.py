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
import functools
import json
import multiprocessing as mp
import os
import sys
import time
from collections import Counter, defaultdict

from liuren.errors import InputError
from liuren.knowledge.kbload import JUDGMENT_KINDS
from liuren.casting.symbols import BRANCHES, JIAZI

from liuren.knowledge import space as SPACE
from liuren.knowledge.space import MONTHS

OPPOSITE = {("吉", "凶"), ("凶", "吉")}
SEVERITIES = ("error", "warning", "note")


# --------------------------------------------------------------------------- the space
def board_space(months="all", daynight="both", options=None, days=60, question=None):
    """The base boards of the space (knowledge/space.py): 720 lessons × months × 晝/夜, in the find
    index's order."""
    if not isinstance(days, int) or not 1 <= days <= 60:
        raise InputError(f"--days {days!r}: between 1 and 60")
    ms = MONTHS if months == "all" else _months(months)
    dn = _daynight(daynight)
    out = []
    # a lesson's boards come together, months innermost: consecutive boards then differ in the
    # month alone, which the incremental judging of a worker makes cheap
    for i in range(days):
        for off in range(12):
            for night in dn:
                for m in ms:
                    b = SPACE.base_board(i, off, night, MONTHS.index(m), options)
                    if question:
                        b["question"] = question
                    out.append(b)
    return out


def _daynight(daynight):
    dn = {"both": (False, True), "day": (False,), "night": (True,)}.get(daynight)
    if dn is None:
        raise InputError(f"--daynight {daynight!r}: use both, day or night")
    return dn


def wide_space(months="all", daynight="both", options=None, days=60, question=None, dims=None):
    """The widened space (knowledge/space.py): each lesson's base boards, then its extra boards for
    the dimensions `dims` (those some rule reads).  (boards, the dimension of each board)."""
    if not isinstance(days, int) or not 1 <= days <= 60:
        raise InputError(f"--days {days!r}: between 1 and 60")
    ms = "all" if months == "all" else [MONTHS.index(m) for m in _months(months)]
    pairs = SPACE.space_boards(days, ms, _daynight(daynight), options, dims)
    boards = [b for b, _ in pairs]
    if question:
        for b in boards:
            b["question"] = question
    return boards, [d for _, d in pairs]


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


def _init(kb_dir, variants, whole=True, shared=None):
    """Build the engine once per worker; a failure is kept and raised by the first task (a pool
    whose initializer raises would restart its workers forever).  `whole`: False when every task
    names its network (the whole one is then never loaded); `shared`: what the parent worked out
    for all workers (each entry's dimensions, the carried types), inherited at the fork."""
    try:
        import gc
        # what the worker inherited at the fork (the caller's whole heap: gigabytes in a long-lived
        # process) is never scanned by the worker's collections: scanning writes to every object,
        # and so copies every page of it
        gc.freeze()
        from liuren.rules.engines import engine_for
        _W["kb_dir"], _W["variants"] = kb_dir, variants
        _W.update(shared or {})
        if whole:
            _W["eng"] = engine_for(kb_dir, dict(variants))
        gc.disable()          # a worker keeps nothing between boards; it collects every chunk
    except Exception as e:  # noqa: BLE001
        _W["error"] = e


def _question_engine(question):
    from liuren.rules.engines import engine_for
    return engine_for(_W["kb_dir"], dict(_W["variants"]), question)


def _net_engine(net):
    """The engine of a network spec: None (the worker's whole network) or (question, rule ids):
    a network holding only those rules (the rules a question's rules rest on, or the rules
    `--rules` audits), compiled once per worker and kept while its tasks come."""
    if net is None:
        return None
    if _W.get("net_key") != net:
        from liuren.rules.compile import build
        from liuren.knowledge.kbload import load_kb
        kb = _W.get("kb") or _W.setdefault("kb", load_kb(_W["kb_dir"]))
        question, rules, *more = net
        # (a third item: the table rows loaded, {table: row keys} as pairs — see _rows_for)
        rows = dict(more[0]) if more and more[0] else None
        eng = build(kb, dict(_W["variants"]) or None, question=question, only=set(rules), rows=rows)
        eng.kb = kb
        _W["net_key"], _W["net_eng"] = net, eng
    return _W["net_eng"]


def _board_engine(board, incremental, net=None):
    """(casting arguments, question, engine, incremental) for a board of the space: the
    worker's engine, the one of the board's question, or the network `net`; a run can only go
    on incrementally on the engine that judged the previous board."""
    kw = dict(board)
    question = kw.pop("question", None)
    if net is not None:
        eng = _net_engine(net)
    else:
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
    from liuren.knowledge.facts import board_facts
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

    def __init__(self, carry=False):
        self.count = Counter()          # entry -> active firings reporting it (or of its rule)
        self.changed = set()            # entries whose count moved during this board
        self.defeats = Counter()        # 規 -> active firings asserting 不實 of it
        self.polar = {}                 # id(firing) -> firing: a 吉/凶 judgment about something
        self.open = {}                  # entry -> first board of its current run
        self.ranges = defaultdict(list)     # entry -> [(first board, board after the last)]
        self.carried = defaultdict(Counter)  # derived fact key -> {branches of who asserts it: firings}
        self.carry = _carried_types() if carry else frozenset()     # only the audit compares subjects

    def _fire(self, f, sign):
        if f.about and self.carry:
            from liuren.rules.judging import fact_key
            ab = tuple(sorted(set(f.about)))
            for d in f.new:
                if d["t"] in self.carry:
                    self.carried[fact_key(d)][ab] += sign
        if not f.internal:
            for e in {f.report, f.rule}:
                self.count[e] += sign
                self.changed.add(e)
            if f.kind != "起例" and f.valence in ("吉", "凶"):
                if sign > 0:
                    self.polar[id(f)] = f
                else:
                    self.polar.pop(id(f), None)
        for d in f.new:                 # the facts it asserted (keys of the trace not needed)
            if d["t"] == "不實":
                self.defeats[d.get("規")] += sign

    def judge(self, i, board, incremental, net=None):
        from liuren.casting.cast import cast
        from liuren.knowledge.facts import board_facts
        from liuren.rules.judging import Recorder
        kw, question, eng, incremental = _board_engine(board, incremental, net)
        if not incremental:             # the engine starts afresh: every firing is gone
            self.changed.update(e for e, n in self.count.items() if n)
            self.count.clear()
            self.defeats.clear()
            self.polar.clear()
            self.carried.clear()
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
        """The 吉/凶 judgments in force, by subject, whatever their kind (a 課體, a 畢法, a 格 and a
        神煞 about the same branches meet): the branches a judgment is about, or "" for one with
        no branch of its own, which is about the board as a whole and meets the others like it.
        A judgment with no branch of its own that rests on judgments about branches (a 格 named
        once for the sub-rows that make it, a 畢法 on another judgment) is about their branches:
        it is compared there, not as the whole board.  Defeated ones are not taken as real and
        do not conflict."""
        by_subject = defaultdict(set)
        for f in self.polar.values():
            if self.defeats[f.report] <= 0:
                about = set(f.about or ()) or self._inherited(f)
                by_subject["".join(sorted(about))].add((f.report, f.valence))
        return by_subject

    def _inherited(self, f):
        """The branches of the judgments whose conclusions a branchless judgment matched."""
        if not self.carry:
            return set()
        from liuren.rules.judging import _fact_dict, fact_key
        out = set()
        for x in f._pf or ():
            d = _fact_dict(x)
            if d is not None and d["t"] in self.carry:
                for ab, n in self.carried.get(fact_key(d), {}).items():
                    if n > 0:
                        out.update(ab)
        return out


def _work(args):
    if "error" in _W:
        raise _W["error"]
    start, boards, net = args
    import gc
    _W["since_gc"] = _W.get("since_gc", 0) + len(boards)
    if _W["since_gc"] > 1500:           # a collection of a worker's heap takes ~0.5 s: not per small task
        gc.collect()
        _W["since_gc"] = 0
    walk = _Walk(carry=True)
    pairs = defaultdict(lambda: [0, None])
    prev = None
    i = start
    reads = _entry_reads()
    # each 吉/凶 judgment by subject, as the pairs below are counted: (entry, tone, subject) -> runs of
    # boards [(first, after last)] (a later --rules intersects an edited rule's with them)
    by_subject, open_at = defaultdict(list), {}
    for i, b in enumerate(boards, start):
        lesson = SPACE.plate_key(b)
        walk.judge(i, b, incremental=(lesson == prev), net=net)
        prev = lesson
        dim = SPACE.dim_of(b)
        subjects = walk.subjects()
        now = {(r, v, x) for x, items in subjects.items() for r, v in items}
        for k in [k for k in open_at if k not in now]:
            by_subject[k].append((open_at.pop(k), i))
        for k in now:
            if k not in open_at:
                open_at[k] = i
        # (subjects in order: a pair's first board and subject is the smallest, whoever counts it)
        for x, items in sorted(subjects.items()):
            if len(items) < 2:
                continue
            good = sorted(r for r, v in items if v == "吉")
            bad = sorted(r for r, v in items if v == "凶")
            for ra in good:
                for rc in bad:
                    if ra != rc:
                        # an extra board counts for a pair when one of the two reads what it varies
                        # (otherwise it repeats its base board)
                        if dim is not None and dim not in reads.get(ra, ()) and dim not in reads.get(rc, ()):
                            continue
                        p = pairs[(ra, rc) if ra < rc else (rc, ra)]
                        p[0] += 1
                        if p[1] is None:
                            p[1] = (i, x)
    walk.close(i + 1)
    for k, a in open_at.items():
        by_subject[k].append((a, i + 1))
    return dict(walk.ranges), {k: tuple(v) for k, v in pairs.items()}, dict(by_subject)


def _carried_types():
    """The derived fact types a 吉/凶 judgment may read (the conclusions a judgment rests on): the
    walk follows the branches of who asserts them, for the judgments with no branch of their own."""
    c = _W.get("carry")
    if c is None:
        from liuren.knowledge.kbload import load_kb
        if "kb_dir" not in _W:
            return frozenset()
        kb = _W.get("kb") or _W.setdefault("kb", load_kb(_W["kb_dir"]))
        c = _W["carry"] = _carry_of(kb)
    return c


def _carry_of(kb):
    from liuren.knowledge.kblint import _reads, _thens
    produced = set()
    for r in kb.rules.values():
        for then in _thens(r):
            for it in (then if isinstance(then, list) else [then]):
                if isinstance(it, dict):
                    produced.update(it)
    read = set()
    for r in kb.rules.values():
        if r.kind in JUDGMENT_KINDS:
            read |= _reads(kb, r)[0]
    produced.add("判")
    return frozenset(read & produced)


def worker_shared(kb, read=None):
    """What every worker of a run over `kb` needs and the parent works out once: each entry's
    dimensions (space.entry_reads) and the derived types a judgment's subject is carried by."""
    return {"reads": SPACE.entry_reads(kb, read), "carry": _carry_of(kb)}


def _entry_reads():
    r = _W.get("reads")
    if r is None:
        from liuren.knowledge.kbload import load_kb
        kb = _W.get("kb") or _W.setdefault("kb", load_kb(_W["kb_dir"]))
        r = _W["reads"] = SPACE.entry_reads(kb)
    return r


def _tasks(boards, procs, start=0, net=None):
    """Chunks of whole lessons (boards with one plate_key, listed together), so that a worker
    judges a lesson's boards one after another, incrementally."""
    groups, cur, key = [], [], object()
    for b in boards:
        k = SPACE.plate_key(b)
        if k != key and cur:
            groups.append(cur)
            cur = []
        key = k
        cur.append(b)
    if cur:
        groups.append(cur)
    per = max(1, len(groups) // (procs * 30))
    tasks, i = [], start
    for g in range(0, len(groups), per):
        chunk = [b for grp in groups[g:g + per] for b in grp]
        tasks.append((i, chunk, net))
        i += len(chunk)
    return tasks


def run_space(boards, kb_dir=None, variants=None, procs=None, progress=True, label="audit", nets=None,
              shared=None, subjects=False):
    """Judge the boards on the workers: (fired_at {entry: sorted board indices}, co-firing pairs
    {(a, b): (boards, (first board, subject))}).  `nets`: [(first board, after last, net)] — the
    boards of a range judged by the network `net` (see _net_engine) instead of the whole one.
    `shared`: worker_shared(kb) when the caller has it (else each worker works it out).
    `subjects`: also, third, where each 吉/凶 judgment is in force by subject (as the pairs are
    counted: after inheritance and 不實) — {(entry, tone, subject): sorted board indices}."""
    procs = procs or min(os.cpu_count() or 1, 2) if os.cpu_count() else 1
    tasks = []
    ranges = nets or [(0, len(boards), None)]
    for a, b, net in ranges:
        if net is not None and net[0] is not None and b - a <= 2000:
            tasks.append((a, boards[a:b], net))       # a question's boards: one network, one worker
        else:
            tasks += _tasks(boards[a:b], procs, a, net)
    fired_at, pairs, by_subject = defaultdict(list), {}, defaultdict(list)
    t0 = time.time()
    done = 0
    ctx = mp.get_context("fork") if sys.platform != "win32" else mp.get_context()
    whole = any(net is None for _, _, net in ranges)
    procs = max(1, min(procs, len(tasks)))      # no worker started for nothing
    with ctx.Pool(procs, initializer=_init,
                  initargs=(kb_dir, tuple(sorted((variants or {}).items())), whole, shared)) as pool:
        for f, p, sub in pool.imap_unordered(_work, tasks):
            for k, runs in f.items():           # runs of consecutive boards: (first, after last)
                at = fired_at[k]
                for a, b in runs:
                    at.extend(range(a, b))
            merge_pairs(pairs, p)
            if subjects:
                for k, runs in sub.items():
                    at = by_subject[k]
                    for a, b in runs:
                        at.extend(range(a, b))
            done += 1
            if progress:
                n = sum(len(t[1]) for t in tasks[:done])
                bar = "#" * int(30 * n / max(1, len(boards)))
                el = time.time() - t0
                sys.stderr.write(f"\r{label}: [{bar:<30}] {done}/{len(tasks)} chunks of {len(boards)} boards {el:5.0f}s")
                sys.stderr.flush()
    if progress:
        sys.stderr.write("\n")
    if subjects:
        return ({k: sorted(v) for k, v in fired_at.items()}, pairs,
                {k: sorted(v) for k, v in by_subject.items()})
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
def _declared(kb, a, b):
    """Does the KB declare that a and b may co-fire with opposite readings?  (see covers)"""
    return bool(covers(kb, a, b))


def _declared_rows(kb):
    """The table declared-conflicts indexed once per KB object: {(a, b): [rows naming both ids]}
    (both orders) and [(row, x, y)] for the cells that are globs.  Kept on the KB object itself
    (no module state): thousands of pairs are looked up in one audit."""
    got = kb.__dict__.get("_declared_rows")
    if got is not None:
        return got
    named, globs = {}, []
    t = kb.tables.get("declared-conflicts")
    for row in (t.rows if t is not None else ()):
        for cell in row.data:
            x, y = cell["甲"], cell["乙"]
            if _is_glob(x) or _is_glob(y):
                globs.append((row, x, y))
            else:
                for k in ((x, y), (y, x)):
                    lst = named.setdefault(k, [])
                    if row not in lst:
                        lst.append(row)
    kb.__dict__["_declared_rows"] = got = (named, globs)
    return got


def _judgments_read(kb):
    """{rule id: the ids of the judgments its condition reads by name (判: {規: …})}, once per KB."""
    got = kb.__dict__.get("_judgments_read")
    if got is not None:
        return got

    def walk(c, out):
        if isinstance(c, list):
            for x in c:
                walk(x, out)
        elif isinstance(c, dict):
            for k, v in c.items():
                if k == "判" and isinstance(v, dict) and v.get("規"):
                    g = v["規"]
                    out.update(x for x in (g if isinstance(g, list) else [g]) if isinstance(x, str) and x[:1] != "$")
                else:
                    walk(v, out)
    got = {}
    for r in kb.rules.values():
        s = set()
        walk(r.when, s)
        if s:
            got[r.id] = frozenset(s)
    kb.__dict__["_judgments_read"] = got
    return got


def _is_glob(p):
    return any(c in str(p) for c in "*?[")


def covers(kb, a, b):
    """Every declaration that covers the pair (a, b): a row of the table declared-conflicts (globs
    on both sides, with the reason and its source), or a rule's own conflicts / defeats /
    defeated_by (or its table's conflicts).  Each as {how, id, file, line, wildcard}; wildcard
    when a side of it is a glob rather than the entry's own id."""
    ents = kb.entries
    out = []
    named, globs = _declared_rows(kb)
    for row in named.get((a, b), ()):
        out.append({"how": "row", "id": row.id or row.name, "file": _rel(kb, row.file),
                    "line": row.line, "wildcard": False})
    for row, x, y in globs:
        if (fnmatch.fnmatchcase(a, x) and fnmatch.fnmatchcase(b, y)) or \
                (fnmatch.fnmatchcase(b, x) and fnmatch.fnmatchcase(a, y)):
            if all(o["id"] != (row.id or row.name) for o in out):
                out.append({"how": "row", "id": row.id or row.name, "file": _rel(kb, row.file),
                            "line": row.line, "wildcard": True})

    for x, y in ((a, b), (b, a)):
        e = ents.get(x)
        if e is None:
            continue
        if y in _judgments_read(kb).get(x, ()):
            # x's own condition reads y's judgment (判: {規: y}) and concludes otherwise: the book's
            # refinement of y (元首課 and 上雖制下而下不受制), named by the rule itself
            out.append({"how": "reads", "id": e.id, "file": _rel(kb, e.file), "line": e.line, "wildcard": False})
            continue
        pats = list(e.meta.get("conflicts") or []) + list(e.meta.get("defeats") or []) + \
            list(e.meta.get("defeated_by") or [])
        for pat in pats:
            if fnmatch.fnmatchcase(y, pat):
                line = e.meta.kline("conflicts") if hasattr(e.meta, "kline") else e.line
                out.append({"how": "entry", "id": e.id, "file": _rel(kb, e.file), "line": line,
                            "wildcard": _is_glob(pat)})
                break
        t = kb.tables.get(getattr(e, "table", None) or "")
        if t is not None:
            for pat in t.meta.get("conflicts") or []:
                if fnmatch.fnmatchcase(y, pat):
                    out.append({"how": "table", "id": t.id, "file": _rel(kb, t.file), "line": t.line,
                                "wildcard": _is_glob(pat)})
                    break
    return out


def _weighing_rows(kb):
    """The table book-weighing indexed once per KB object: {id named under 主: [(row, tone)]}."""
    got = kb.__dict__.get("_weighing_rows")
    if got is not None:
        return got
    got = {}
    t = kb.tables.get(WEIGHING)
    for row in (t.rows if t is not None else ()):
        for cell in row.data:
            got.setdefault(cell["主"], []).append((row, cell["對"]))
    kb.__dict__["_weighing_rows"] = got
    return got


def weighs(kb, a, b):
    """The rows of book-weighing (kb/common/weighing.yaml) that weigh the pair (a, b): the book
    states how one side (named under 主: its entry, or its table for each of the table's rows)
    weighs against every judgment of the opposite tone (對) on the branch it sits on.  Each as
    {how, id, name, file, line, side}."""
    rows = _weighing_rows(kb)
    if not rows:
        return []
    out = []
    for x, y in ((a, b), (b, a)):
        e = kb.entries.get(x)
        if e is None:
            continue
        tone = (kb.entries[y].valence if y in kb.entries else "") or ""
        for key in (x, getattr(e, "table", "") or None):
            for row, against in rows.get(key, ()) if key else ():
                if against == tone and all(o["id"] != row.id for o in out):
                    out.append({"how": "weighing", "id": row.id, "name": row.name, "file": _rel(kb, row.file),
                                "line": row.line, "side": x})
    return out


def _rel(kb, path):
    """A KB file relative to the KB's folder (kb/daquan/juan07-b-ge.yaml for the packaged KB)."""
    return _rel_path(str(kb.root), str(path))


@functools.lru_cache(maxsize=4096)
def _rel_path(root, path):
    import pathlib
    try:
        rel = pathlib.Path(path).resolve().relative_to(pathlib.Path(root).resolve())
        return ("kb/" + str(rel)) if pathlib.Path(root).name == "kb" else str(rel)
    except (ValueError, TypeError):
        return str(path)


def entry_ref(kb, x, fired=None):
    """An entry as the report names it: id, name, kind, tone, file:line and book (the KB folder
    it is in); `fired`: on how many boards."""
    e = kb.entries.get(x)
    if e is None:
        return {"id": x, "name": x, "kind": "", "valence": "", "file": "", "line": 0, "book": ""}
    f = _rel(kb, e.file)
    parts = f.split("/")
    book = parts[1] if parts[0] == "kb" and len(parts) > 2 else (parts[0] if len(parts) > 1 else "")
    out = {"id": x, "name": e.name, "kind": e.kind, "valence": e.valence or "", "file": f, "line": e.line,
           "book": book}
    if fired is not None:
        out["boards"] = fired
    return out


def judge_command(board, kb_dir=None, variants=None):
    """`liuren judge …` with every input the audit gave the board (so that it reproduces)."""
    flags = [("day", "--day"), ("jiang", "--jiang"), ("hour", "--hour"), ("on", "--on"), ("month", "--month"),
             ("year", "--year"), ("born", "--born"), ("sex", "--sex"), ("benming", "--benming"),
             ("xingnian", "--xingnian"), ("term_day", "--term-day"), ("lunar", "--lunar"),
             ("partner_born", "--partner-born"), ("partner_sex", "--partner-sex"),
             ("partner_benming", "--partner-benming"), ("partner_xingnian", "--partner-xingnian"),
             ("question", "--question")]
    from liuren.casting.cast import OPTIONS
    parts = ["liuren", "judge"]
    for k, flag in flags:
        if board.get(k) is not None:
            parts += [flag, str(board[k])]
    if "night" in board:
        parts.append("--night" if board["night"] else "--daytime")
    for e, v in sorted((board.get("variants") or {}).items()) if isinstance(board.get("variants"), dict) else ():
        parts += ["--variant", f"{e}={v}"]
    for k in OPTIONS:
        if board.get(k) is not None:
            parts += ["--" + k.replace("_", "-"), str(board[k])]
    for e, v in sorted((variants or {}).items()):
        parts += ["--variant", f"{e}={v}"]
    if kb_dir:
        parts += ["--kb", str(kb_dir)]
    import shlex
    return " ".join(shlex.quote(p) for p in parts)


def judge_argv(board, kb_dir=None, variants=None):
    """judge_command as an argument list (for liuren.cli.main.main)."""
    import shlex
    return shlex.split(judge_command(board, kb_dir, variants))[1:]


def analyse(kb, boards, fired_at, pairs, n_main=None, kb_dir=None, examples=True, only=None, read=None):
    """What the walk found, as the report's sections and its ranked findings.  Boards [0, n_main)
    are the widened space; the boards after it are the question spaces (judged by networks of
    a question's rules and what they rest on): an entry that fires on the widened space is
    compared there only, an entry that fires only under a question on its question's boards.
    `only`: the entries whose never- and always-firing is asked (`--rules`: the audited ones;
    the others were not judged over the space, so their silence says nothing)."""
    n = len(boards)
    n_main = n if n_main is None else n_main
    asked = {b.get("question") for b in boards} - {None}
    from liuren.casting.cast import OPTIONS
    space_options = {k: boards[0][k] for k in OPTIONS if boards and k in boards[0]}
    ents = kb.entries
    # an entry fired in the widened space is compared there; a question-only entry on its boards
    fired_at = {k: (v if not v or v[0] >= n_main else [i for i in v if i < n_main]) for k, v in fired_at.items()}
    # an entry's own space: the base boards and the extra boards of what it reads (an extra board
    # of another dimension repeats its base board for it), or its question's boards
    ereads = SPACE.entry_reads(kb, read)
    dim_at = [SPACE.dim_of(b) for b in boards[:n_main]]
    n_dim = Counter(dim_at)
    universe, own = {}, {}
    for k, v in fired_at.items():
        if v and v[0] >= n_main:
            qs = {boards[i].get("question") for i in v}
            universe[k] = sum(1 for b in boards[n_main:] if b.get("question") in qs)
            own[k] = len(v)
        else:
            ds = ereads.get(k, set())
            universe[k] = sum(c for d, c in n_dim.items() if d is None or d in ds)
            own[k] = sum(1 for i in v if dim_at[i] is None or dim_at[i] in ds)
    judged = {e.id for e in ents.values() if e.kind in JUDGMENT_KINDS}
    checkable = [e for e in ents.values() if (e.id in kb.rules or
                 (getattr(e, "table", "") and kb.tables[e.table].meta.get("reported")))
                 and (only is None or e.id in only)]
    never = sorted(e.id for e in checkable if not fired_at.get(e.id))
    always = sorted(e.id for e in checkable if fired_at.get(e.id) and own[e.id] == universe[e.id])

    conflicts = {"declared": [], "undeclared": [], "weighed": []}
    rows = _declared_rows(kb)
    for (a, b), (count, ex) in sorted(pairs.items()):
        board = boards[ex[0]]
        item = {"a": a, "a_name": ents[a].name if a in ents else a, "b": b, "b_name": ents[b].name if b in ents else b,
                "a_valence": ents[a].valence if a in ents else "", "b_valence": ents[b].valence if b in ents else "",
                "boards": count, "subject": ex[1] or "（全盤）",
                "example": _board_ref(board) | {"branch": ex[1]},
                "board": dict(board), "command": judge_command(board, kb_dir)}
        cov = covers(kb, a, b)
        if cov:
            item["covered_by"] = cov
            item["wildcard_only"] = all(c["wildcard"] for c in cov)
        if cov:
            conflicts["declared"].append(item)
        elif weighs(kb, a, b):
            # the book itself says how the one weighs against the other on that branch (德能轉凶為吉):
            # listed under the row that quotes it, not an error
            item["weighed_by"] = weighs(kb, a, b)
            conflicts["weighed"].append(item)
        elif SHENSHA in (_kind(kb, a), _kind(kb, b)):
            # a 神煞 on a branch and an opposite judgment about it: both hold on the board, and the
            # books weigh them (kb/README.md, "神煞 placements"); counted and listed, not an error
            conflicts["weighed"].append(item)
        else:
            conflicts["undeclared"].append(item)

    # redundancy and subsumption among judgments that fire sometimes but not always
    bits = {}
    for e in sorted(judged):
        idx = fired_at.get(e)
        if idx and own[e] < universe[e]:
            raw = bytearray(max(idx) // 8 + 1)
            for i in idx:
                raw[i >> 3] |= 1 << (i & 7)
            bits[e] = int.from_bytes(bytes(raw), "little")
    groups = defaultdict(list)
    for e, v in bits.items():
        groups[v].append(e)
    redundant = []
    for v, g in groups.items():
        if len(g) > 1 and not _family_only(kb, g):
            g = sorted(g)
            first = (v & -v).bit_length() - 1
            redundant.append({"rules": g, "names": [ents[x].name for x in g],
                              "valences": [ents[x].valence or "" for x in g], "boards": max(own[x] for x in g),
                              "board": dict(boards[first]), "command": judge_command(boards[first], kb_dir)})
    subsumed, trivial = [], 0
    items = sorted(bits.items(), key=lambda kv: bin(kv[1]).count("1"))
    counts = {k: own[k] for k in bits}
    for i, (a, va) in enumerate(items):
        ca = counts[a]
        for b, vb in items[i + 1:]:
            if only is not None and a not in only and b not in only:
                continue                # (--rules: the nestings of the audited entries only)
            if va != vb and va & vb == va and not _related(kb, a, b):
                if counts[b] * 2 > universe[b]:
                    trivial += 1                # a broad rule on more than half the boards: nothing to learn
                    continue
                first = (va & -va).bit_length() - 1
                subsumed.append({"narrow": a, "broad": b, "narrow_boards": ca, "broad_boards": counts[b],
                                 "narrow_valence": ents[a].valence or "", "broad_valence": ents[b].valence or "",
                                 "narrow_name": ents[a].name, "broad_name": ents[b].name,
                                 "board": dict(boards[first]), "command": judge_command(boards[first], kb_dir)})
    never_items = [dict(_ref(ents, x), **never_reason(kb, x, asked, space_options)) for x in never]
    if examples:
        _judge_own_examples(kb, never_items)
    return {"space": {"boards": n, "main_boards": n_main, "question_boards": n - n_main,
                      "trivial_nestings_dropped": trivial},
            "never_fire": never_items,
            "always_fire": [_ref(ents, x) for x in always], "conflicts": conflicts,
            "redundant": redundant, "subsumed": subsumed,
            "firing_counts": {k: own[k] for k, v in sorted(fired_at.items()) if k in ents and v},
            "firing_universe": {k: universe[k] for k in sorted(fired_at) if k in ents and fired_at[k]}}


def _judge_own_examples(kb, items):
    """A rule that never fires in the space is classified by judging its own example boards (its
    `fires` examples, each on a network of what it rests on): `example_fires` when it fires on
    them (so it fires only on boards the space lacks), `example_fails` (with the message) when an
    example of it does not fire, `no_examples` when it has none.  Declared unreachable ones are
    left as they are."""
    from liuren.rules.kbexamples import check_examples
    todo = {x["id"]: x for x in items if x.get("reason") != "unreachable" and x["id"] in kb.entries}
    if not todo:
        return
    fails = defaultdict(list)

    def err(file, line, msg):
        rid = msg.split(":", 1)[0]
        if "does not fire on its example board" in msg or "cannot be" in msg:
            fails[rid].append(f"{_rel(kb, file)}:{line}: {msg}")
    try:
        check_examples(kb, err, only=set(todo))
    except Exception as e:  # noqa: BLE001 — the classification is evidence, not the audit
        for x in todo.values():
            x["examples"] = f"not judged ({type(e).__name__})"
        return
    for rid, x in todo.items():
        e = kb.entries[rid]
        fires = [ex for ex in ((e.meta.get("examples") or {}).get("fires") or []) if isinstance(ex, dict)]
        if not fires:
            x["examples"] = "no_examples"
        elif fails.get(rid):
            x["examples"] = "example_fails"
            x["example_errors"] = fails[rid]
        else:
            x["examples"] = "example_fires"
            x.setdefault("example", dict(fires[0].get("board") or {}))


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
    from liuren.knowledge.conditions import gating_questions
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


SHENSHA = "神煞"
WEIGHING = "book-weighing"          # kb/common/weighing.yaml: how the book weighs one judgment against a tone


def _kind(kb, x):
    e = kb.entries.get(x)
    return e.kind if e is not None else ""


def _variant_task(args):
    """Judge the sample boards with one variant switched on, with a whole network of its own (in a
    worker; one engine per task).  For a variant that the base network cannot place (a rule it
    does not have)."""
    kb_dir, entry, variant, space = args
    from liuren.knowledge import cache
    from liuren.rules.engines import engine_for
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
    from liuren.knowledge.facts import board_facts
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
        from liuren.knowledge.kbload import then_facts
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
    import gc
    gc.freeze()                         # what was inherited at the fork is never scanned (see _init)
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
    from liuren.knowledge.facts import board_facts
    from liuren.rules.judging import Recorder
    from liuren.knowledge.kbload import load_kb
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
    from liuren.rules.engines import engine_for
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
def question_rules(kb, only=None):
    """{question: the entries only it brings out} (never_reason's reading of each entry, with no
    question asked; `only`: of those entries alone)."""
    out = defaultdict(set)
    checkable = [e for e in kb.entries.values() if (e.id in kb.rules or
                 (getattr(e, "table", "") and kb.tables[e.table].meta.get("reported")))
                 and (only is None or e.id in only)]
    for e in checkable:
        why = never_reason(kb, e.id)
        if why.get("reason") == "question":
            for q in why["questions"]:
                q = kb.question_aliases.get(q, q)
                if q in kb.questions:
                    out[q].add(e.id)
    return dict(out)


def audit(kb_dir=None, months="all", daynight="both", options=None, procs=None, progress=True, variants=True,
          days=60, variant_space="sample", question=None, wide=True, questions=True, rules=None, examples=True,
          question_boards=None, prior=None):
    """Judge the space and report.  `wide`: the widened space (knowledge/space.py: the dimensions
    some rule reads varied beyond the base boards); False: the base boards only (today's space
    before issue 27).  `questions`: judge each question's own boards for the rules only it
    brings out.  `rules`: audit only these entries and the rules they meet (see audit_rules),
    reusing the firing counts of a saved full run (`prior`: a path or a loaded run; by default
    the last one the cache keeps) for the met rules the edit cannot have moved."""
    from liuren.casting.cast import check_options
    from liuren.knowledge.kbload import load_kb
    from liuren.knowledge.kblint import dependency_graph
    check_options(options or {})
    kb = load_kb(kb_dir)
    t0 = time.time()
    if question is not None:
        question = kb.question_aliases.get(question, question)
        if question not in kb.questions:
            raise InputError(f"--question {question!r}: not a question of this KB (liuren questions lists them)")
    read = SPACE.reads(kb)
    who = SPACE.readers(kb, read)
    dims = [d["id"] for d in SPACE.DIMENSIONS if who[d["id"]]] if wide else []
    if rules is not None:
        # --rules: every dimension the full run varies is in the space (a rule that does not read
        # one fires on its boards as on their base boards, and meets there the rules that do);
        # only the dimensions they read are walked for where they fire
        bad = [x for x in rules if x not in kb.entries]
        if bad:
            raise InputError(f"--rules {bad[0]!r}: no rule or named row has this id (liuren rules lists them)")
    closure_of = dependency_graph(kb)
    if wide:
        boards, _ = wide_space(months, daynight, options, days, question, dims)
    else:
        boards = board_space(months, daynight, options, days, question)
    n_main = len(boards)
    nets = [(0, n_main, None)]
    qspaces = {}
    main_dims = list(dims)
    nq = None
    if questions and question is None:
        nq = min(days * 12, SPACE.QUESTION_BOARDS if question_boards is None else question_boards)
        gated = question_rules(kb)
        if rules is not None:
            # (--rules: the questions whose network holds one of those rules — a rule, or a
            # family rule reporting a named row — as the full run judges their boards: where
            # they fire there, they meet the rules the question brings out)
            fams = {x: row_reporters(kb, x) for x in rules if x not in kb.rules}
        for q, ids in sorted(gated.items()):
            closure = closure_of(ids)
            if rules is not None and not any(x in ids or x in closure or fams.get(x, set()) & closure
                                             for x in rules):
                continue
            qb = SPACE.question_boards(q, days, nq, options)
            nets.append((len(boards), len(boards) + len(qb), (q, tuple(sorted(closure)))))
            boards += qb
            qspaces[q] = {"boards": len(qb), "entries": len(ids)}
        if qspaces:
            dims.append("question")
    if rules is not None:
        if prior is None:
            try:                        # the last full run the cache keeps, when there is one
                prior = load_run(last_run_path()) if last_run_path().exists() else None
            except InputError:
                prior = None
        elif not isinstance(prior, dict):
            prior = load_run(prior)
        key = reuse_key(kb, kb_dir, months, daynight, options, days, question, wide, questions, question_boards)

        def saved_boards(layout):
            """The boards of the saved full run, in its order (its layout: the dimensions and questions it varied)."""
            try:
                if wide:
                    old, _ = wide_space(months, daynight, options, days, question, list(layout["dims"]))
                else:
                    old = board_space(months, daynight, options, days, question)
                for q in layout.get("questions") or ():
                    old += SPACE.question_boards(q, days, layout["nq"], options)
            except (KeyError, TypeError, InputError):
                return None
            return old
        return audit_rules(kb, kb_dir, rules, boards, n_main, nets, procs, progress, dims, qspaces, t0,
                           dict(months=months, daynight=daynight, options=options or {}, days=days, question=question),
                           read, prior, key, saved_boards, closure_of, worker_shared(kb, read))
    fired_at, pairs, by_subject = run_space(boards, kb_dir, None, procs, progress, nets=nets,
                                            shared=worker_shared(kb, read), subjects=True)
    # where each entry fired, for a later --rules (kept beside the saved run, not in the report)
    firing_sets = {"layout": {"dims": main_dims, "questions": sorted(qspaces), "nq": nq},
                   "boards": len(boards), "sets": {k: _pack(v, len(boards)) for k, v in fired_at.items()
                                                   if k in kb.entries},
                   # every co-firing pair of opposite tones on one subject: [a, b, boards, first board,
                   # subject] (so that --rules reads an unchanged rule's conflicts instead of judging them)
                   "pairs": [[a, b, n, ex[0], ex[1]] for (a, b), (n, ex) in sorted(pairs.items())],
                   # each 吉/凶 judgment's boards by subject (after inheritance and 不實, as the pairs
                   # are counted): {entry: {subject: bitmap}} (so that an edited rule's pairs with an
                   # unchanged judgment are an intersection, not a judging of the whole network)
                   "subjects": _pack_subjects(by_subject, len(boards))}
    rep = analyse(kb, boards, fired_at, pairs, n_main, kb_dir, examples, read=read)
    rep["space"].update({"months": months, "daynight": daynight, "options": options or {}, "days": days,
                         "question": question, "wide": wide, "varied": dims, "question_spaces": qspaces,
                         "definition": SPACE.describe(kb, read, set(dims))})
    rep["variants"] = variant_effects(kb, kb_dir, procs, progress, days, variant_space != "full") if variants else []
    rep["space"]["variant_space"] = variant_space
    rep["source_disagreements"] = source_disagreements(kb, fired_at)
    rep["kb_dir"] = kb_dir
    rep["findings"] = findings(kb, rep)
    rep["reuse"] = reuse_key(kb, kb_dir, months, daynight, options, days, question, wide, questions,
                             question_boards)
    rep["firing_sets"] = firing_sets
    rep["seconds"] = round(time.time() - t0, 1)
    return rep


def _pack(indices, n):
    """A sorted list of board indices as text: a bitmap (bit i: board i), compressed, base64."""
    import base64
    import zlib
    bits = bytearray((n + 7) // 8)
    for i in indices:
        bits[i >> 3] |= 1 << (i & 7)
    return base64.b64encode(zlib.compress(bytes(bits), 6)).decode("ascii")


def _pack_subjects(by_subject, n):
    """{entry: {tone: {subject: bitmap}}}"""
    out = defaultdict(lambda: defaultdict(dict))
    for (e, tone, x), v in sorted(by_subject.items()):
        out[e][tone][x] = _pack(v, n)
    return {e: dict(t) for e, t in out.items()}


def _unpack(text):
    """The board indices _pack packed."""
    import base64
    import zlib
    bits = zlib.decompress(base64.b64decode(text))
    out = []
    for j, byte in enumerate(bits):
        if byte:
            base = j << 3
            out.extend(base + k for k in range(8) if byte >> k & 1)
    return out


# --------------------------------------------------------------------------- what a later --rules reuses
def _firing_code_digest():
    """The code that decides which rules fire on a board (casting and rules), as index.firing_digest
    reads it, without the KB's files (their entries are compared one by one)."""
    import hashlib
    import importlib.util
    import pathlib
    h = hashlib.sha256(sys.version.encode())
    for pkg in ("liuren.casting", "liuren.rules", "experta"):
        folder = pathlib.Path(importlib.util.find_spec(pkg).origin).resolve().parent
        for f in sorted(folder.rglob("*.py")):
            if f.name not in ("cache.py", "netcache.py", "kblint.py", "kbstatic.py", "meaning.py"):
                h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def definition_digests(kb):
    """{"rule:ID" | "table:ID" | "row:T:K" | "facts:T:K": digest of what decides its firings}: a
    rule's kind, conditions, conclusions, variants and tone; a table's columns, metadata and which
    rows it has; a row's metadata, and its facts written out (the cells of each).
    Where an entry was written (file, line) is left out: an edit above it moves it, nothing more."""
    import hashlib

    def h(x):
        return hashlib.sha256(json.dumps(x, ensure_ascii=False, sort_keys=True, default=str).encode()).hexdigest()[:20]
    out = {"kb:format": "rows-3"}
    for r in kb.rules.values():
        out["rule:" + r.id] = h([r.kind, r.name, dict(r.meta), r.when, r.then, r.as_var, r.about])
    for t in kb.tables.values():
        # a table: its columns, metadata and which rows it has, in order; each row apart
        keys = [_row_key(row, i) for i, row in enumerate(t.rows)]
        out["table:" + t.id] = h([t.kind, t.columns, t.fact_type, {k: v for k, v in t.meta.items() if k != "rows"},
                                  keys])
        for key, row in zip(keys, t.rows):
            facts = [cells for data in [row.data, *row.variant_data.values()] for cells in data]
            # the row's metadata (name, tone, reading …), and each of its facts as it is: an edit
            # of one cell is then known to be that cell's facts, before and after (see _unchanged)
            meta = {k: v for k, v in row.meta.items() if k not in t.columns and k != "each"}
            out[f"row:{t.id}:{key}"] = [h([row.id, meta])[:12]]
            out[f"facts:{t.id}:{key}"] = sorted({json.dumps(x, ensure_ascii=False, sort_keys=True, default=str)
                                                 for x in facts})
    # what any rule may read beside its own definition: the macros its conditions name, the
    # questions and their aliases, the options, the declared and derived fact types
    out["kb:shared"] = h([kb.macros, kb.questions, kb.question_aliases, kb.options, kb.declared,
                          {k: sorted(v, key=str) for k, v in kb.derived.items()}])
    return out


def _row_key(row, i):
    return row.id or f"#{i}"


def reuse_key(kb, kb_dir, months, daynight, options, days, question, wide, questions, question_boards):
    """What a full run's firing counts hold for: its space, the code that fires the rules, the KB's
    folder and each entry's definition (a later `--rules` reuses the count of every rule whose
    network — itself and what it rests on — is unchanged)."""
    import pathlib
    from liuren.knowledge.kbload import packaged_kb_dir
    root = str(pathlib.Path(kb_dir or packaged_kb_dir()).resolve())
    space = json.dumps([str(months), daynight, sorted((options or {}).items()), days, question, bool(wide),
                        bool(questions), question_boards], ensure_ascii=False)
    return {"space": space, "code": _firing_code_digest(), "kb": root, "digests": definition_digests(kb),
            "produces": _produces(kb)}


def _produces(kb):
    """{rule: the fact types it concludes}: what an edited rule may have asserted before the edit."""
    from liuren.knowledge.kblint import _thens
    out = {}
    for r in kb.rules.values():
        ts = {t for then in _thens(r) for it in (then if isinstance(then, list) else [then])
              if isinstance(it, dict) for t in it}
        if ts:
            out[r.id] = sorted(ts)
    return out


def _unchanged(kb, prior, key, closure_of):
    """A test `unchanged(entry)`: may the entry fire where it fired in the saved full run `prior`,
    whose space, code and KB folder are this run's?  It may not when its own definition moved,
    or when it reads (through its conditions, its family rule or a judgment it rests on) a fact
    an edit may have changed: see _Impact, which follows an edited rule's conclusions and an
    edited row's facts, value by value, to what reads them.  (None when nothing of the saved run
    holds here.)  `unchanged.defeated`: the judgments a 不實 may now be asserted of otherwise
    (None: any)."""
    if not prior or not key or not isinstance(prior.get("reuse"), dict):
        return None
    old = prior["reuse"]
    if old.get("space") != key["space"] or old.get("code") != key["code"] or old.get("kb") != key["kb"]:
        return None
    then, now = old.get("digests") or {}, key["digests"]
    if then.get("kb:format") != now.get("kb:format") or not isinstance(old.get("produces"), dict):
        return None                      # saved by an older audit: its digests are not per row
    if any(k.startswith("table:") and k not in now for k in then):
        return None                      # a table gone: what read it is not known any more
    if then.get("kb:shared") != now.get("kb:shared"):
        return None                      # macros, questions, options: what every rule may read
    rules = {k.split(":", 1)[1] for k in set(then) | set(now) if k.startswith("rule:") and then.get(k) != now.get(k)}
    seeds, touched, entries = [], set(), set()
    facts_of = defaultdict(list)         # fact type -> the facts an edit of rows changed (None: not known)
    for t in kb.tables.values():
        if then.get("table:" + t.id) != now.get("table:" + t.id):
            facts_of = None
            # its columns or rows as a whole: every fact of it, every row of it
            seeds.append((t.fact_type, {}))
            touched.add(t.fact_type)
            entries |= {row.id for row in t.rows if row.id}
            continue
        for i, row in enumerate(t.rows):
            k = f"{t.id}:{_row_key(row, i)}"
            a, b = then.get("row:" + k), now.get("row:" + k)
            fa, fb = then.get("facts:" + k), now.get("facts:" + k)
            if a == b and fa == fb:
                continue
            if not isinstance(a, list) or not a or a[0] != b[0]:
                if row.id:
                    entries.add(row.id)  # its name, tone, reading …: the entry itself
            gone_or_new = set(fa if isinstance(fa, list) else ()) ^ set(fb)
            if gone_or_new or not isinstance(fa, list):
                # its facts: those it had then and has no more, and those it has now and had not
                # (each field the values they have; a field one of them lacks, any value)
                changed = [json.loads(x) for x in sorted(gone_or_new)] if isinstance(fa, list) else None
                sig = {}
                if changed:
                    for c in set.intersection(*(set(x) for x in changed)):
                        try:
                            sig[c] = frozenset(x[c] for x in changed)
                        except TypeError:
                            pass
                if row.id:
                    sig["id"] = frozenset([row.id])
                seeds.append((t.fact_type, sig))
                touched.add(t.fact_type)
                if changed is None:
                    facts_of = None
                elif facts_of is not None:
                    facts_of[t.fact_type].extend(changed)
    impact = _impact(kb)
    affected, defeated = impact.run(seeds, rules, entries, old["produces"], touched)

    def unchanged(y):
        return y not in affected
    unchanged.nothing_changed = not affected and not seeds
    unchanged.affected = affected
    unchanged.defeated = defeated
    # a family rule the edit reaches: the rows it may report otherwise (the others as they were)
    unchanged.reports = {k: set(v) for k, v in impact.reports.items()}
    unchanged.rules_changed = rules
    # an edit of table rows only (their cells: no rule, no table's columns, no entry's name or
    # tone): the facts it changed, whose boards bound where anything can fire otherwise (_edit_days)
    unchanged.changed_facts = dict(facts_of) if facts_of is not None and not rules and not entries else None
    return unchanged


# the fields of the day's own fact (日) a table pattern may be joined to, as functions of the day
_DAY_FIELDS = {"干": lambda d: d[0], "支": lambda d: d[1], "干支": lambda d: d}


def _edit_days(kb, changed):
    """The days (干支) on whose boards the changed facts of an edit of table rows (`changed`: fact
    type -> facts, before and after) can be read at all, or None when that is not bounded.  A fact
    is read by a rule's pattern on its type whose literal fields allow it; the pattern bounds the
    day when one of its variables is also a field of the day's fact 日 in a positive pattern of the
    same way (神煞 by 日干: `日: {干: $g}` beside `{干: $g, …}` reads the 甲 facts on 甲 days only).
    Every pattern that may read one of them must be bounded so; off those days no rule sees the
    edit, and every board there judges as it did before it."""
    imp = _impact(kb)
    var = imp._var
    days = set()
    for t, facts in (changed or {}).items():
        for r in sorted(imp.readers.get(t, ())):
            for way in imp.ways.get(r) or [None]:
                if way is None:
                    return None                 # a condition the impact cannot read: anything
                pos, neg = way
                for t2, fields in pos + neg:
                    if t2 != t:
                        continue
                    hit = [f for f in facts if all(
                        c not in f or var(v) or isinstance(f[c], (list, dict)) or imp._allows(v, {f[c]})
                        for c, v in fields.items())]
                    if not hit:
                        continue
                    bound = None
                    for c, v in fields.items():
                        if not var(v) or not all(c in f and isinstance(f[c], str) for f in hit):
                            continue
                        vals = {f[c] for f in hit}
                        for t3, g in pos:
                            if t3 != "日":
                                continue
                            for k, v3 in g.items():
                                if v3 == v and k in _DAY_FIELDS:
                                    on = {d for d in JIAZI if _DAY_FIELDS[k](d) in vals}
                                    bound = on if bound is None else bound & on
                    if bound is None:
                        return None
                    days |= bound
    return days


def _impact(kb):
    imp = kb.__dict__.get("_audit_impact")
    if imp is None:
        imp = kb.__dict__["_audit_impact"] = _Impact(kb)
    return imp


def row_closure(kb, closure_of, ids):
    """The rules a set of entries rests on: for a row, the family rules that may report it —
    those its facts (and any fact carrying its id) reach, worked out by _Impact —, and what they
    rest on (value_closure)."""
    rules = {x for x in ids if x in kb.rules}
    rows = [x for x in ids if x not in kb.rules and x in kb.rows]
    for x in rows:
        rules |= row_reporters(kb, x)
    return value_closure(kb, closure_of, rules) if rules else set()


def value_closure(kb, closure_of, rules):
    """What `rules` rest on, as closure_of, but a rule that concludes a fact type only with
    values none of the patterns reading it can match (`見: {據: 星}` for a pattern
    `見: {據: [日干, 日支]}`) is not taken in for it.  A rule reading 判 takes closure_of's."""
    imp = _impact(kb)
    producers = imp.__dict__.get("_producers")
    if producers is None:
        producers = imp._producers = defaultdict(list)
        for rid, ts in imp.thens.items():
            for t, fields in ts:
                producers[t].append((rid, fields if isinstance(fields, dict) else {}))
    out, todo = set(), list(rules)
    while todo:
        r = todo.pop()
        if r in out or r not in kb.rules:
            continue
        ways = imp.ways.get(r)
        if not ways or any(w is None for w in ways) or "判" in closure_of.reads[r][0]:
            out |= closure_of({r})
            continue
        out.add(r)
        for pos, neg in ways:
            for t, fields in pos + neg:
                for p, pf in producers.get(t, ()):
                    if p not in out and all(_Impact._allows(v, None if _Impact._var(pf.get(f)) or f not in pf
                                                           or not isinstance(pf.get(f), (str, int, float))
                                                           else {pf[f]}) for f, v in fields.items()):
                        todo.append(p)
    return out


def _table_facts(kb):
    """(table, fact) for each fact of each table row, its variants' included: the row's cells, and
    its id when it has one."""
    for t in kb.tables.values():
        for row in t.rows:
            for data in [row.data, *row.variant_data.values()]:
                for cells in data:
                    f = dict(cells)
                    if row.id:
                        f["id"] = row.id
                    yield t, f


def row_reporters(kb, x):
    """The family rules that may report the row x: those its facts, and any fact carrying its
    id, reach (see _Impact)."""
    return _row_reach(kb, x)[1]


def _row_reach(kb, x):
    """(the rules that may read a fact carrying the row x's id or cells, the family rules that
    may report it): _Impact run from the row's facts and from every conclusion naming it."""
    impact = _impact(kb)
    seeds = []
    for t, f in _table_facts(kb):
        if any(v == x for v in f.values()):
            try:
                seeds.append((t.fact_type, {c: frozenset([v]) for c, v in f.items()}))
            except TypeError:
                seeds.append((t.fact_type, {}))
    for ts in impact.thens.values():
        for t, fields in ts:
            if isinstance(fields, dict) and x in fields.values():
                seeds.append((t, {c: frozenset([v]) for c, v in fields.items() if v == x}))
    affected, _ = impact.run(seeds, (), (), {}, set())
    return affected, {f for f, rep in impact.reports.items() if x in rep}


class _Impact:
    """What an edit can move, worked out from the KB's conditions, value by value: the facts it
    may change (a fact type and, for each field, the values such a fact may have — None: any),
    carried from the rules that read them to what those rules conclude, the entries they report
    and the 判 of the judgments among them.  A pattern reads a changed fact only where its
    literal fields allow one of the values (`煞: 臨官` does not read the 煞 facts of the row 財); a
    variable the pattern binds carries the values on (to a `then:` field, to the family rule's
    row id), narrowed by the tables the same way through the condition joins (a table no edit
    touched).  Anything it cannot tell (a calculation, a negation, an edited rule's old
    conclusions) is taken as any value: the result may say too much, never too little."""

    ANY = None

    def __init__(self, kb):
        from liuren.knowledge.conditions import dnf, expand_macros
        from liuren.knowledge.kblint import _thens, _whens
        import itertools
        self.kb = kb
        self.readers = defaultdict(set)         # fact type -> rules with a pattern on it
        self.ways = {}                          # rule -> [(positive patterns, negated patterns)]
        self.thens = {}
        counter = itertools.count()
        for r in kb.rules.values():
            ways = []
            for w in _whens(r):
                try:
                    for pats, _tests, negs in dnf(expand_macros(w, kb.macros, counter)):
                        neg = [p for n in negs for p in self._patterns(n)]
                        pos = [(t, f) for t, f in pats if isinstance(f, dict)]
                        ways.append((pos, neg))
                        for t, _f in pos + neg:
                            self.readers[t].add(r.id)
                except Exception:  # noqa: BLE001 — a malformed condition: read as "anything"
                    ways.append(None)
                    for t in self._types(r):
                        self.readers[t].add(r.id)
            self.ways[r.id] = ways
            self.thens[r.id] = [(t, f) for then in _thens(r) for it in (then if isinstance(then, list) else [then])
                                if isinstance(it, dict) for t, f in it.items()]
        self.static = defaultdict(list)         # fact type -> its table facts (variants included)
        for t, f in _table_facts(kb):
            self.static[t.fact_type].append(f)
        self.produced = {t for ts in self.thens.values() for t, _ in ts} | {"判"}
        self._narrowed = {}                     # see _narrow

    def _types(self, r):
        from liuren.knowledge.kblint import _reads
        return _reads(self.kb, r)[0]

    def _patterns(self, cond):
        if isinstance(cond, list):
            for c in cond:
                yield from self._patterns(c)
            return
        if not isinstance(cond, dict):
            return
        for k, v in cond.items():
            if k == "macro" or k == "test":
                continue
            if k in ("all", "any", "not"):
                yield from self._patterns(v)
            elif isinstance(v, dict):
                yield (k, v)

    @staticmethod
    def _var(v):
        return isinstance(v, str) and v.startswith("$")

    @classmethod
    def _allows(cls, v, values):
        """Can a pattern's field `v` match a fact whose field has one of `values` (None: any)?"""
        if values is None or cls._var(v):
            return True
        if isinstance(v, list):
            return any(x in values for x in v if isinstance(x, (str, int, float)))
        if isinstance(v, (str, int, float)):
            return v in values
        return True                     # {not: …} and the like: taken as able to

    def _env(self, fields, sig):
        env = {}
        for f, v in fields.items():
            if self._var(v):
                got = sig.get(f) if sig is not None else None
                if v in env and env[v] is not None and got is not None:
                    env[v] = env[v] & got
                elif v not in env or env[v] is None:
                    env[v] = got
        return env

    def _narrow(self, env, pos, touched):
        """Narrow `env` by the table patterns of the same way (tables no edit touched): the values
        their rows allow.  None when no row can join."""
        for t, fields in pos:
            if t not in self.static or t in touched or t in self.produced:
                continue
            # (what a pattern allows depends only on the values its variables may have: kept)
            key = (t, id(fields), tuple((v, None if env.get(v) is None else frozenset(env[v]))
                                        for v in fields.values() if self._var(v)))
            got = self._narrowed.get(key, key)
            if got is key:
                got = self._narrowed[key] = self._narrow_one(env, t, fields)
            if got is None:
                return None
            for v, vals in got:
                env[v] = vals if env.get(v) is None else env[v] & vals
        return env

    def _narrow_one(self, env, t, fields):
        """[(variable, the values the rows of table pattern t allow it)], None when no row can join."""
        rows = []
        for f in self.static[t]:
            ok = True
            for c, v in fields.items():
                if c not in f:
                    continue        # (a cell the row leaves out: taken as able to join)
                if self._var(v):
                    ok = env.get(v) is None or f[c] in env[v]
                else:
                    ok = self._allows(v, {f[c]})
                if not ok:
                    break
            if ok:
                rows.append(f)
        if not rows:
            return None
        out = []
        for c, v in fields.items():
            if self._var(v):
                if any(c not in f for f in rows):
                    continue
                out.append((v, frozenset(f[c] for f in rows)))
        return out

    def run(self, seeds, rules_changed, entries_changed, old_produces, touched, within=None, stop=None):
        """The entries whose firings may differ, and the judgments a changed 不實 may name (None:
        any).  `seeds`: [(fact type, {field: values | None})] changed facts; `rules_changed`:
        rules defined otherwise (all they conclude, now or before, taken as changed);
        `entries_changed`: entries whose own definition moved (a row's name or tone).
        `within`: only the rules of a network of them are followed (what no rule of it reads
        moves nothing there); `stop`: done as soon as one of these entries is reached, or a 不實
        of one of them (or of any judgment) is."""
        from liuren.knowledge.facts import JUDGMENT_KINDS
        kb = self.kb
        affected = set(entries_changed)
        defeated = set()
        self.reports = defaultdict(set)         # family rule -> the rows it may report otherwise
        seen = defaultdict(list)
        todo = list(seeds)
        for e in entries_changed:
            if e in kb.entries and kb.entries[e].kind in JUDGMENT_KINDS:
                todo.append(("判", {"規": frozenset([e])}))
        for r in rules_changed:
            affected.add(r)
            types = set(old_produces.get(r, ())) | {t for t, _ in self.thens.get(r, ())}
            todo += [(t, {}) for t in types]
            rule = kb.rules.get(r)
            if rule is not None and rule.as_var:
                affected |= set(kb.entries)     # an edited family: any row it reports
                todo.append(("判", {}))
            else:
                todo.append(("判", {"規": frozenset([r])}))
        while todo:
            t, sig = todo.pop()
            if t == "不實":
                v = sig.get("規")
                if v is None:
                    defeated = None
                elif defeated is not None:
                    defeated |= v
            if sig in seen[t]:
                continue
            seen[t].append(sig)
            if stop is not None and (affected & stop or defeated is None or defeated & stop):
                break
            for rid in self.readers.get(t, ()):
                if within is not None and rid not in within:
                    continue
                for out, reports in self._reader(rid, t, sig, touched):
                    affected.add(rid)
                    rule = kb.rules[rid]
                    if rule.as_var:
                        rep = reports.get(rule.as_var)
                        rep = set(kb.entries) if rep is None else {x for x in rep if x in kb.entries}
                        self.reports[rid] |= rep
                    else:
                        rep = {rid}
                    affected |= rep
                    judg = {x for x in rep | {rid} if kb.entries.get(x) is not None
                            and (kb.entries[x].kind in JUDGMENT_KINDS or rule.kind in JUDGMENT_KINDS)}
                    if judg:
                        if rule.as_var is None or reports.get(rule.as_var) is not None:
                            todo.append(("判", {"規": frozenset(judg)}))
                        else:
                            todo.append(("判", {}))
                    todo += out
        return affected, defeated

    def _reader(self, rid, t, sig, touched):
        """For each way rule `rid` may read a changed fact of type t with fields `sig`: (the
        facts it may then conclude otherwise, the values of its variables)."""
        ways = self.ways.get(rid) or [None]
        outs = []
        for way in ways:
            if way is None:             # not understood: anything
                outs.append(({}, True))
                continue
            pos, neg = way
            for tt, fields in pos:
                if tt == t and all(self._allows(v, sig.get(f)) for f, v in fields.items()):
                    env = self._narrow(self._env(fields, sig), pos, touched)
                    if env is not None:
                        outs.append((env, False))
            if any(tt == t and all(self._allows(v, sig.get(f)) for f, v in fields.items()) for tt, fields in neg):
                env = self._narrow({}, pos, touched)
                if env is not None:
                    outs.append((env, False))
        for env, anything in outs:
            facts = []
            for tt, fields in self.thens.get(rid, ()):
                if anything or not isinstance(fields, dict):
                    facts.append((tt, {}))
                    continue
                o = {}
                for f, v in fields.items():
                    if self._var(v):
                        if env.get(v) is not None:
                            o[f] = frozenset(env[v])
                    elif isinstance(v, (str, int, float)):
                        o[f] = frozenset([v])
                facts.append((tt, o))
            yield facts, ({} if anything else env)


_BITS = [tuple(k for k in range(8) if byte >> k & 1) for byte in range(256)]


class _SavedSets:
    """Where each entry fired in a saved full run (FILE.firings), read against this run's boards:
    `bits(x)` the boards of x as an int bitmap of the saved run's indices, `here` the saved
    index → this run's index (None where the saved board is not in this run), and the saved
    co-firing pairs when the run kept them."""

    def __init__(self, sets, boards, saved_boards):
        self.sets = sets
        old = saved_boards(sets["layout"])
        if old is None or len(old) != sets.get("boards"):
            raise ValueError("layout")

        def key(b):
            return tuple(sorted(b.items()))
        if len(old) >= len(boards) and old[:len(boards)] == boards:
            self.here = list(range(len(boards))) + [None] * (len(old) - len(boards))
        else:
            at = {key(b): i for i, b in enumerate(boards)}
            self.here = [at.get(key(b)) for b in old]
        self.back = {j: i for i, j in enumerate(self.here) if j is not None}
        self._bits = {}
        # (the boards of this run in the saved run's order, as they are made: no sort needed)
        kept = [j for j in self.here if j is not None]
        self._ordered = all(a < b for a, b in zip(kept, kept[1:]))

    def bits(self, x):
        v = self._bits.get(x)
        if v is None:
            import base64
            import zlib
            packed = self.sets["sets"].get(x)
            v = self._bits[x] = int.from_bytes(zlib.decompress(base64.b64decode(packed)), "little") if packed else 0
        return v

    def indices(self, v):
        """This run's board indices of the saved run's bitmap v (sorted)."""
        raw = v.to_bytes((v.bit_length() + 7) // 8, "little")
        out = [(j << 3) + k for j, byte in enumerate(raw) if byte for k in _BITS[byte]]
        got = [j for j in map(self.here.__getitem__, out) if j is not None]
        return got if self._ordered else sorted(got)

    def mask(self, indices):
        """The saved run's bitmap of this run's board indices."""
        raw = bytearray((len(self.here) + 7) // 8)
        for j in indices:
            i = self.back.get(j)
            if i is not None:
                raw[i >> 3] |= 1 << (i & 7)
        return int.from_bytes(bytes(raw), "little")


def _saved_sets(prior, boards, saved_boards):
    sets = (prior or {}).get("firing_sets")
    if not saved_boards or not isinstance(sets, dict) or not isinstance(sets.get("layout"), dict):
        return None
    try:
        return _SavedSets(sets, boards, saved_boards)
    except ValueError:
        return None


def _step2_unchanged(kb, ids, unchanged, closure_of):
    """May the conflicts of `ids` be read from the saved run?  Each of them, and every judgment
    that could meet them on a subject or defeat them (every 吉/凶 judgment, every rule asserting
    不實), is defined as it was then: none could fire or be about anything else now."""
    if unchanged is None or not all(unchanged(x) for x in ids):
        return False
    if unchanged.nothing_changed:
        return True
    from liuren.knowledge.kblint import _thens
    for e in kb.entries.values():
        polar = e.kind != "起例" and e.valence in ("吉", "凶")
        r = kb.rules.get(e.id)
        defeats = r is not None and any(isinstance(it, dict) and "不實" in it for then in _thens(r)
                                        for it in (then if isinstance(then, list) else [then]))
        if (polar or defeats) and not unchanged(e.id):
            return False
    return True


def _step2_partial_ok(kb, saved, saved_pairs, unchanged, mine):
    """Can step 2 judge only the edit's cone?  A saved run with the boards by subject (and every
    board where the audited rules fire among its boards), and an edit whose 不實 names are known."""
    if saved is None or unchanged is None or not isinstance(saved_pairs, list):
        return False
    if not isinstance(saved.sets.get("subjects"), dict) or getattr(unchanged, "defeated", None) is None:
        return False
    return all(i in saved.back for i in mine)


def _defeaters(kb, targets):
    """The rules that may assert 不實 of one of `targets` (a 規 written as one of them, or a variable)."""
    from liuren.knowledge.kblint import _thens
    out = set()
    for r in kb.rules.values():
        for then in _thens(r):
            for it in (then if isinstance(then, list) else [then]):
                if isinstance(it, dict) and "不實" in it:
                    v = (it["不實"] or {}).get("規") if isinstance(it["不實"], dict) else None
                    if not isinstance(v, str) or v.startswith("$") or v in targets:
                        out.add(r.id)
    return out


def _step2_partial(kb, kb_dir, ids, boards, mine, nets, saved, unchanged, closure_of, procs, progress, shared,
                   read, days=None):
    """Step 2 of audit_rules after an edit, on the edit's cone: (pairs of the audited entries,
    the entries firing on their boards, where each of those fires among them).  `days`: an edit
    of table cells read only on these days (_edit_days); the boards of other days are as in the
    saved run, the cone's firings and subjects there with the rest."""
    import bisect
    ents = kb.entries
    D = set(ids) | {e for e in unchanged.affected if e in ents} | {e for e in unchanged.defeated if e in ents}
    rules = row_closure(kb, closure_of, D | _defeaters(kb, D))
    # only what the cone's firings need of the tables: the rows whose facts can reach one of D,
    # but for two kinds of entry of D whose firings here need less than that —
    # - a family rule that alone may report an audited row: it fires wherever that row does
    #   (on every board of `mine`), whatever the other rows; so does what it needs there,
    #   followed by value (_necessary: 財's 見 is placed by 神煞見於諸處 alone, from a 煞 fact
    #   only 日干神煞起例 concludes);
    # - an entry not a judgment, of a network with no negation (taking table rows away can only
    #   take firings away): only whether it fires on one of these boards is read (`met`), and a
    #   firing without the other rows is one with them
    imp = _impact(kb)
    alone = set()
    if all(x in kb.rows for x in ids):
        reps = [row_reporters(kb, x) for x in ids]
        if all(len(r) == 1 and r == reps[0] for r in reps):
            # (every audited row: so it fires on every board of `mine`, and so does what it needs)
            alone = _necessary(kb, reps[0], ids) & D
    positive = set()
    for y in D - set(ids) - alone:
        if ents[y].kind not in JUDGMENT_KINDS and y in kb.rules:
            c = value_closure(kb, closure_of, {y})
            if all(w is not None and not w[1] for r in c for w in imp.ways.get(r, ())):
                positive.add(y)
    rows, reach = _rows_for(kb, D - alone - positive, rules)
    if rows is not None and positive:
        # (when the rows they need add few to these, judged exactly with the rest: no second walk)
        rows_p, reach_p = _rows_for(kb, D - alone, rules)
        a, b = dict(rows), dict(rows_p or ())
        more = sum(len(b.get(t, kb.tables[t].rows)) - len(a.get(t, kb.tables[t].rows)) for t in set(a) | set(b))
        if rows_p is not None and more <= 50:
            rows, reach, positive = rows_p, reach_p, set()
    loose = reach & (alone | positive) if rows is not None else set()
    # (a question's boards that fire as their base boards: not judged again, see _question_aliases)
    alias, kept = _question_aliases(kb, boards, nets[0][1], nets, rules, closure_of)
    on = set(mine) if days is None else {i for i in mine if boards[i].get("day") in days}
    off = [] if days is None else [i for i in mine if i not in on]      # (as in the saved run)
    alias = {i: j for i, j in alias.items() if i in on}
    if any(j not in on for j in alias.values()):
        alias, kept = {}, list(nets[1:])
    walk = [i for i in mine if i in on and i not in alias]
    sub = [boards[i] for i in walk]
    sub_nets = [(bisect.bisect_left(walk, a), bisect.bisect_left(walk, b), _net_within(rules, net, rows))
                for a, b, net in nets[:1] + kept]
    sub_nets = [(a, b, net) for a, b, net in sub_nets if b > a and net[1]]
    fired2, pairs2, subj2 = run_space(sub, kb_dir, None, procs, progress, "rules 2/3", nets=sub_nets,
                                      shared=shared, subjects=True) if sub_nets else ({}, {}, {})
    for y in loose & alone:
        fired2[y] = list(range(len(walk)))          # wherever the rows it alone reports fire
    unsure = sorted(y for y in loose & positive if not fired2.get(y))
    if unsure:
        # (one of them fired nowhere without the other rows: it may with them — judged on these
        # boards by a network of what it rests on, with the rows that can reach it)
        rules_u = row_closure(kb, closure_of, set(unsure))
        rows_u, _ = _rows_for(kb, set(unsure), rules_u)
        nets_u = [(bisect.bisect_left(walk, a), bisect.bisect_left(walk, b), _net_within(rules_u, net, rows_u))
                  for a, b, net in nets[:1] + kept]
        nets_u = [(a, b, net) for a, b, net in nets_u if b > a and net[1]]
        fired_u, _ = run_space(sub, kb_dir, None, procs, progress, "rules 2/3", nets=nets_u,
                               shared=shared) if nets_u else ({}, {})
        for y in unsure:
            fired2[y] = fired_u.get(y, [])
    # in this run's board indices, the aliased question boards with their base boards' firings
    back = walk
    fired2 = {e: [back[j] for j in js] for e, js in fired2.items()}
    subj2 = {k: [back[j] for j in js] for k, js in subj2.items()}
    pairs = {k: (c, (back[ex[0]], ex[1])) for k, (c, ex) in pairs2.items()
             if (k[0] in ids or k[1] in ids) and k[0] in D and k[1] in D}
    if alias:
        by_base = defaultdict(list)
        for i, j in alias.items():
            by_base[j].append(i)
        for e, js in fired2.items():
            js.extend([i for j in js if j in by_base for i in by_base[j]])
        items_at = defaultdict(lambda: defaultdict(list))     # base board -> subject -> [(entry, tone)]
        for (e, tone, x), js in subj2.items():
            js.extend([i for j in js if j in by_base for i in by_base[j]])
            if e in D:
                for j in js:
                    if j in by_base:
                        items_at[j][x].append((e, tone))
        for j, subjects_j in items_at.items():
            for x, items in sorted(subjects_j.items()):
                good = sorted(e for e, v in items if v == "吉")
                bad = sorted(e for e, v in items if v == "凶")
                for ra in good:
                    for rc in bad:
                        if ra != rc and (ra in ids or rc in ids):
                            k = (ra, rc) if ra < rc else (rc, ra)
                            for i in by_base[j]:
                                c, ex = pairs.get(k, (0, None))
                                pairs[k] = (c + 1, (i, x) if ex is None else min(ex, (i, x)))
    # pairs of an audited entry with a judgment outside D: its boards by subject & the saved ones
    reads = (shared or {}).get("reads") or SPACE.entry_reads(kb, read)
    dim_masks = defaultdict(list)
    for i in mine:
        dim_masks[_dim_of(boards[i])].append(i)
    dim_masks = {d: saved.mask(v) for d, v in dim_masks.items()}
    subjects = saved.sets["subjects"]
    opposite = {"吉": "凶", "凶": "吉"}
    off_mask = saved.mask(off) if off else 0
    for a in ids:
        mine_a = defaultdict(list)           # (tone, subject) -> this run's boards
        for (e, tone, x), js in subj2.items():
            if e == a:
                mine_a[(tone, x)].extend(js)
        bits_a = {k: saved.mask(v) for k, v in mine_a.items()}
        # (off the edit's days: its subjects as the saved run has them, met there by every other
        # judgment as it was, those of the cone too)
        off_a = {}
        if off_mask:
            for tone, by_x in (subjects.get(a) or {}).items():
                for x, packed in by_x.items():
                    v = _bits_of(packed) & off_mask
                    if v:
                        off_a[(tone, x)] = v
        if not bits_a and not off_a:
            continue
        for y, tones in subjects.items():
            if y == a:
                continue
            allowed = None
            here = off_a if y in D else {k: bits_a.get(k, 0) | off_a.get(k, 0) for k in set(bits_a) | set(off_a)}
            for (tone, x), va in here.items():
                packed = (tones.get(opposite.get(tone)) or {}).get(x)
                if not packed:
                    continue
                if allowed is None:
                    ds = set(reads.get(a, ())) | set(reads.get(y, ()))
                    allowed = 0
                    for d, m in dim_masks.items():
                        if d is None or d in ds:
                            allowed |= m
                v = va & _bits_of(packed) & allowed
                if not v:
                    continue
                n = bin(v).count("1")
                first = (saved.here[(v & -v).bit_length() - 1], x)
                k = (a, y) if a < y else (y, a)
                if k in pairs:
                    c, ex = pairs[k]
                    pairs[k] = (c + n, min(ex, first))
                else:
                    pairs[k] = (n, first)
    # the entries firing on those boards: the walk's for those the edit may move, the saved
    # run's for the others
    # (where among them: for the judgments only, the others are only met)
    m = saved.mask(mine)
    on_all, met = {}, set()
    for y in saved.sets["sets"]:
        if y in ents and y not in ids and unchanged(y):
            v = saved.bits(y) & m
            if v:
                met.add(y)
                if ents[y].kind in JUDGMENT_KINDS:
                    on_all[y] = saved.indices(v)
    for y in set(fired2) | ({y for y in saved.sets["sets"] if y in ents and not unchanged(y)} if off_mask else set()):
        js = list(fired2.get(y, ()))
        if off_mask:
            js += saved.indices(saved.bits(y) & off_mask)
        if y in ents and y not in ids and not unchanged(y) and js:
            met.add(y)
            if ents[y].kind in JUDGMENT_KINDS:
                on_all[y] = sorted(js)
    return pairs, met, on_all, sorted(D)


def _necessary(kb, roots, rows=()):
    """`roots` and the rules that fire wherever they do: a rule of one way (no any:) needs a
    fact of each type its way reads; a derived type only one rule of the KB concludes needs that
    rule to have fired on the board.  `rows`: the roots are family rules taken where they report
    one of these rows, so a pattern whose field holds the family's row variable needs a fact
    carrying one of the rows there — a conclusion with that field written otherwise cannot be
    it, nor one whose field is a variable of a rule no fact of the rows reaches (_row_reach):
    when one rule is left, it fired, and what it needs carries the rows in its turn (its
    variable in that field).  Only rule conclusions put derived facts on the audit's boards
    (the board gives the built-in types, the tables their own)."""
    from liuren.knowledge.facts import BUILTIN_FACTS
    imp = _impact(kb)
    prod = defaultdict(list)
    for rid, ts in imp.thens.items():
        for t, f in ts:
            prod[t].append((rid, f if isinstance(f, dict) else None))
    rows = frozenset(rows)
    carriers = set().union(*(_row_reach(kb, x)[0] for x in rows)) if rows else set()
    out, todo = set(), []
    for r in roots:
        var = kb.rules[r].as_var if r in kb.rules else None
        todo.append((r, {var: rows} if rows and var else {}))
    while todo:
        r, env = todo.pop()
        if r in out:
            continue
        out.add(r)
        ways = imp.ways.get(r)
        if not ways or len(ways) != 1 or ways[0] is None:
            continue
        for t, fields in ways[0][0]:
            if t in imp.static or t in BUILTIN_FACTS or t == "判":
                continue
            need = {f: env[v] for f, v in fields.items() if _Impact._var(v) and v in env}
            if t in kb.declared and not need:
                continue
            cands = []
            for p, pf in prod.get(t, ()):
                if pf is None:
                    cands.append((p, None))
                    continue
                ok = True
                for f, vals in need.items():
                    v = pf.get(f)
                    if isinstance(v, str) and not _Impact._var(v):
                        ok = v in vals          # written in the conclusion: one of the rows or not
                    elif _Impact._var(v) and vals <= rows:
                        ok = p in carriers      # a variable: only if a fact of the rows reaches it
                    if not ok:
                        break
                if ok:
                    cands.append((p, pf))
            if len({p for p, _ in cands}) != 1:
                continue
            p = cands[0][0]
            env_p = {}
            if len(cands) == 1 and cands[0][1] is not None:
                for f, vals in need.items():
                    v = cands[0][1].get(f)
                    if _Impact._var(v):
                        env_p[v] = vals
            todo.append((p, env_p))
    return out


def _bits_of(packed):
    import base64
    import zlib
    return int.from_bytes(zlib.decompress(base64.b64decode(packed)), "little")


def _prior_counts(kb, prior, key, closure_of, candidates):
    """From a saved full run (`prior`, as slim() keeps it) whose space, code and KB folder are this
    run's: {rule: (own count, universe)} for each candidate whose network is unchanged since
    (no rule of its dependency closure, and no table one of them reads, defined otherwise)."""
    unchanged = _unchanged(kb, prior, key, closure_of)
    if unchanged is None:
        return {}
    counts, universe = prior.get("firing_counts") or {}, prior.get("firing_universe") or {}
    return {y: (counts.get(y, 0), universe[y]) for y in candidates if y in universe and unchanged(y)}


def _prior_firings(prior, ids, unchanged, boards, saved_boards):
    """{entry: sorted indices into `boards`} for each of `ids` whose network is unchanged since the
    saved full run (`unchanged`, see _unchanged) when the run kept where each entry fired
    (FILE.firings): its boards, found among this run's by their inputs.  An entry the saved run
    never saw fire has no set there, and fires nowhere."""
    sets = (prior or {}).get("firing_sets")
    if unchanged is None or not isinstance(sets, dict) or not isinstance(sets.get("layout"), dict):
        return {}
    todo = [x for x in ids if unchanged(x)]
    if not todo:
        return {}
    old = saved_boards(sets["layout"])
    if old is None or len(old) != sets.get("boards"):
        return {}

    def key(b):
        return tuple(sorted(b.items()))
    here = {key(b): i for i, b in enumerate(boards)}
    out = {}
    for x in todo:
        packed = sets["sets"].get(x)
        idx = _unpack(packed) if packed else []
        out[x] = sorted(j for j in (here.get(key(old[i])) for i in idx) if j is not None)
    return out


def _question_aliases(kb, boards, n_main, nets, rules, closure_of):
    """({question board: its base board}, the question ranges still to judge) for a network of
    `rules`: a question's boards are its base boards with the question asked, so where the
    question's network holds every one of `rules` and none of them reads the question, they
    fire there as on the base board (the full run judged them by that network)."""
    if any("問" in closure_of.reads[r][0] for r in rules if r in closure_of.reads):
        return {}, list(nets[1:])

    def key(b):
        return tuple(sorted((k, v) for k, v in b.items() if k != "question"))
    base_at = None
    alias, kept = {}, []
    for a, b, net in nets[1:]:
        if net is None or net[1] is None or not set(rules) <= set(net[1]):
            kept.append((a, b, net))
            continue
        if base_at is None:
            base_at = {key(x): i for i, x in enumerate(boards[:n_main]) if _dim_of(x) is None}
        got = {i: base_at.get(key(boards[i])) for i in range(a, b)}
        if None in got.values():
            kept.append((a, b, net))
        else:
            alias.update(got)
    return alias, kept


def _net_within(rules, net, rows=None):
    """The network of `rules` for a range of boards the full run judged by `net` (None: the whole
    network; (question, rules): that question's network): on a question's boards, only those of
    them the question's network holds (the full run judged nothing else there).  `rows`: the
    table rows it loads (see _rows_for), a third item of its key, so that a network of part of
    its tables is never taken for the whole one."""
    if net is None or net[1] is None:
        out = ((net[0] if net else None), tuple(sorted(rules)))
    else:
        out = (net[0], tuple(sorted(set(rules) & set(net[1]))))
    return out + (rows,) if rows else out


def _row_seeds(t, i, row):
    """The facts a table row puts in working memory (its variants' too), as one seed of _Impact:
    each field with the values it takes in any of them (a field some of them lack: any value)."""
    facts = []
    for data in [row.data, *row.variant_data.values()]:
        for cells in data:
            f = dict(cells)
            if row.id:
                f["id"] = row.id
            facts.append(f)
    if not facts:
        return []
    sig = {}
    for c in set(facts[0]).intersection(*facts[1:]):
        try:
            sig[c] = frozenset(f[c] for f in facts)
        except TypeError:
            pass
    return [(t.fact_type, sig)]


def _rows_for(kb, targets, rules):
    """(rows, reach): the table rows a network of `rules` needs for the firings of `targets` to be
    as the whole tables give them — for each table the network reads, a row stays unless its
    facts can reach none of `targets` and no 不實 of one of them (_Impact: what dropping a row's
    facts can move is what an edit of them can move; it says too much, never too little) —,
    as a key for _net_within (None when every row stays), and the entries the dropped rows can
    reach (those whose firings in such a network may not be the whole network's)."""
    imp = _impact(kb)
    read = set()
    for r in rules:
        for way in imp.ways.get(r, ()):
            if way is None:
                return None, set()      # a condition not understood: every table whole
            read |= {t for t, _ in way[0] + way[1]}
    targets, rules = set(targets), set(rules)
    keep, dropped = {}, []
    for t in kb.tables.values():
        if t.fact_type not in read or not t.rows:
            continue
        rows, drop = [], []

        def split(part):
            # the rows of `part` together first (what they reach is what each one reaches, put
            # together), then each half of them: one run for a table none of whose rows reaches
            seeds = [s for _i, _row, ss in part for s in ss]
            affected, defeated = imp.run(seeds, (), (), {}, set(), within=rules, stop=targets)
            if not (affected & targets or defeated is None or defeated & targets):
                drop.extend(seeds)
            elif len(part) == 1:
                rows.append(_row_key(part[0][1], part[0][0]))
            else:
                split(part[:len(part) // 2])
                split(part[len(part) // 2:])
        split([(i, row, _row_seeds(t, i, row)) for i, row in enumerate(t.rows)])
        if drop:
            keep[t.id] = tuple(sorted(rows))
            dropped += drop
    if not dropped:
        return None, set()
    # (what they reach, each table's dropped rows as one seed: too much, never too little)
    merged = defaultdict(list)
    for t, sig in dropped:
        merged[t].append(sig)
    seeds = []
    for t, sigs in merged.items():
        common = set(sigs[0]).intersection(*sigs[1:])
        seeds.append((t, {c: frozenset().union(*(x[c] for x in sigs)) for c in common}))
    reach, _ = imp.run(seeds, (), (), {}, set(), within=rules)
    return tuple(sorted(keep.items())), reach


def _foreseen(kb, ids, unchanged, saved, closure_of, read, closure, nets):
    """The rows step 1 walks besides the audited entries, so that step 3 finds where they fire
    now: those an edit moves in the reports of a family rule that, in the saved run, fired
    wherever the audited entries fired (so it is likely met as broader than they are, and step 3
    needs its boards over the space: see "a family rule the edit moves only in its reports"
    there), when their network reads no dimension and no question step 1's does not, and every
    question's network holding step 1's holds theirs (they add rules to its walk, never boards:
    see _question_aliases).  A guess from the saved run: the result is exact either
    way, only step 3's walk is spared when it holds."""
    reports = getattr(unchanged, "reports", None) or {}
    if saved is None or not reports:
        return set()
    old = 0
    for x in ids:
        old |= saved.bits(x)
    if not old:
        return set()
    dims = {d for r in closure for d in read.get(r, ())}
    holding = [set(net[1]) for _a, _b, net in nets[1:] if net and net[1] is not None and closure <= set(net[1])]
    out = set()
    for y, xs in sorted(reports.items()):
        rule = kb.rules.get(y)
        if (rule is None or not rule.as_var or rule.kind not in JUDGMENT_KINDS
                or y in getattr(unchanged, "rules_changed", {y}) or saved.bits(y) & old != old):
            continue
        xs = {x for x in xs if x in kb.entries} - set(ids)
        if not xs:
            continue
        c = row_closure(kb, closure_of, xs)
        if ({d for r in c for d in read.get(r, ())} <= dims and all(c <= h for h in holding)
                and not any("問" in closure_of.reads[r][0] for r in c if r in closure_of.reads)):
            out |= xs
    return out


def audit_rules(kb, kb_dir, ids, boards, n_main, nets, procs, progress, dims, qspaces, t0, space, read,
                prior=None, key=None, saved_boards=None, closure_of=None, shared=None):
    """`liuren audit --rules ID…`: those entries and the rules they meet, on the cone of the edit.
    1. A network of only what the entries rest on judges the space (the dimensions they read):
       where they fire.
    2. The whole network judges the boards where they fire: every rule they meet there, and
       every conflict with them (a conflict needs them to fire).
    3. The met rules of a judgment kind that fire wherever an entry does (which it may nest
       in or equal) and those of its kind that fire on part of its boards (which may nest in
       it) need their own firing count over the space.  A saved full run (`prior`: the last
       one, or --baseline FILE) gives it for every met rule whose network — itself and what
       it rests on — is defined as it was then (the edit cannot have moved it); only the
       others are judged, the broader ones by a network of what they rest on over the space,
       the narrower ones listed as not compared.
    Findings are those that name one of the entries."""
    from liuren.knowledge.kblint import dependency_graph
    ids = list(dict.fromkeys(ids))
    bad = [x for x in ids if x not in kb.entries]
    if bad:
        raise InputError(f"--rules {bad[0]!r}: no rule or named row has this id (liuren rules lists them)")
    closure_of = closure_of or dependency_graph(kb)
    unchanged = _unchanged(kb, prior, key, closure_of)
    steps = {}
    t1 = time.time()
    # 1. where they fire: from the saved full run for those whose network is unchanged since,
    # else judged by a network of what they rest on
    fired1 = _prior_firings(prior, ids, unchanged, boards, saved_boards) if saved_boards else {}
    todo = [x for x in ids if x not in fired1]
    walked1, closure1 = {}, set()        # every entry step 1's walk judged, with where it fired
    inexact1 = set()                     # (but those the rows left out of its tables may move)
    aliased = 0
    saved = _saved_sets(prior, boards, saved_boards) if unchanged is not None else None
    # an edit of table cells only: the days whose boards can read the facts it changed; every
    # other board judges as in the saved run (which holds all of this run's boards), so it is
    # read from there and only these days are judged (the report's `edit_days`)
    days = None
    if saved is not None and getattr(unchanged, "changed_facts", None) is not None \
            and len(saved.back) == len(boards):
        days = _edit_days(kb, unchanged.changed_facts)
    off = None if days is None else [i for i, b in enumerate(boards) if b.get("day") not in days]

    def on_days(idx):
        return idx if days is None else [i for i in idx if boards[i].get("day") in days]

    def saved_off(x):
        """Where x fired in the saved run on the boards off the edit's days."""
        return saved.indices(saved.bits(x) & off_mask) if days is not None else []
    off_mask = saved.mask(off) if days is not None else 0
    if todo:
        closure = closure1 = row_closure(kb, closure_of, set(todo))
        # (and the rows a family rule step 3 will need moved in, when they add no board: see _foreseen)
        extra1 = _foreseen(kb, ids, unchanged, saved, closure_of, read, closure, nets)
        if extra1:
            closure = closure1 = row_closure(kb, closure_of, set(todo) | extra1)
        # of the tables it reads, only the rows whose facts can reach the audited entries (a row
        # of a 神煞 table: not every 神煞 of every table placed on each board)
        rows1, inexact1 = _rows_for(kb, set(todo) | extra1, closure)
        net_for = functools.partial(_net_within, closure, rows=rows1)
        need1 = {d for r in closure for d in read.get(r, ())}
        keep1 = on_days([i for i, b in enumerate(boards[:n_main]) if _dim_of(b) is None or _dim_of(b) in need1
                         or (_dim_of(b) == "year" and "person" in need1)])
        n1 = len(keep1)
        # a question's boards where its network holds all of this one and none of it reads the
        # question: each fires as its base board does (the same board without the question)
        alias, kept = _question_aliases(kb, boards, n_main, nets, closure, closure_of)
        aliased += len(alias)
        nets1 = []
        for a, b, net in kept:
            sel = on_days(range(a, b))
            if net_for(net)[1] and sel:     # (none of it in the question's network: nothing fires there)
                nets1.append((len(keep1), len(keep1) + len(sel), net_for(net)))
                keep1 += sel
        walked, _ = run_space([boards[i] for i in keep1], kb_dir, None, procs, progress, "rules 1/3",
                              nets=[(0, n1, net_for(None))] + nets1, shared=shared)
        # (every entry the walk reports, not only the audited ones: a met rule among them needs
        # no judging again in step 3; one that never fired there fires nowhere)
        for x in set(walked) | set(todo):
            if x in inexact1 and x not in todo:
                continue
            got = [keep1[j] for j in walked.get(x, [])]
            main_got = _fill_dims(boards, n_main, [i for i in got if i < n_main], need1)
            on = set(main_got)
            walked1[x] = sorted(main_got + [i for i in got if i >= n_main] + [i for i, j in alias.items() if j in on]
                                + saved_off(x))
        for x in todo:
            fired1[x] = walked1[x]
    steps["1 where they fire"] = round(time.time() - t1, 1)
    t1 = time.time()
    mine = sorted({i for x in ids for i in fired1.get(x, ())})
    judged_again = None
    saved_pairs = saved.sets.get("pairs") if saved is not None else None
    step2_read = (isinstance(saved_pairs, list) and _step2_unchanged(kb, ids, unchanged, closure_of))
    if step2_read:
        # 2. read from the saved run: the KB is as it was then for them and every judgment that
        # could meet them, so their pairs and the rules firing on their boards are the run's
        want = set(ids)
        pairs = {}
        for a, b, n, ex, subject in saved_pairs:
            if (a in want or b in want) and saved.here[ex] is not None:
                pairs[(a, b)] = (n, (saved.here[ex], subject))
        m = saved.mask(mine)
        on_all, met = {}, set()
        for y in saved.sets["sets"]:
            if y in kb.entries and y not in want:
                v = saved.bits(y) & m
                if v:
                    met.add(y)          # (where among them: for the judgments only, the others are only met)
                    if kb.entries[y].kind in JUDGMENT_KINDS:
                        on_all[y] = saved.indices(v)
        steps["2 what they meet (saved run)"] = round(time.time() - t1, 1)
    elif _step2_partial_ok(kb, saved, saved_pairs, unchanged, mine):
        # 2. an edit since the saved run: only the judgments whose boards by subject it may move
        # (D: the entries it may make fire otherwise, those a 不實 may now name otherwise, and the
        # audited ones) are judged, with what they rest on and every rule that may defeat them,
        # on the boards where the audited ones fire; their pairs with the others are the
        # intersection of their boards by subject with the saved run's
        pairs, met, on_all, judged_again = _step2_partial(kb, kb_dir, ids, boards, mine, nets, saved, unchanged,
                                                          closure_of, procs, progress, shared, read, days)
        steps["2 what they meet (edit's cone + saved run)"] = round(time.time() - t1, 1)
    else:
        # 2. the whole network (or the whole question network) on those boards
        sub = [boards[i] for i in mine]
        # (a question's boards on the network the full run judges them by: its rules and what they rest on)
        import bisect
        sub_nets = [(bisect.bisect_left(mine, a), bisect.bisect_left(mine, b), net) for a, b, net in nets]
        sub_nets = [(a, b, net) for a, b, net in sub_nets if b > a]
        fired2, pairs2 = run_space(sub, kb_dir, None, procs, progress, "rules 2/3", nets=sub_nets,
                                   shared=shared) if sub else ({}, {})
        back = {j: i for j, i in enumerate(mine)}
        pairs = {k: (c, (back[ex[0]], ex[1])) for k, (c, ex) in pairs2.items() if k[0] in ids or k[1] in ids}
        met = {x for x, v in fired2.items() if x in kb.entries and x not in ids}
        on_all = {y: [back[j] for j in fired2[y]] for y in met}
        steps["2 what they meet"] = round(time.time() - t1, 1)
    t1 = time.time()
    mine_set = {x: set(fired1.get(x, ())) for x in ids}
    kinds = {kb.entries[x].kind for x in ids}
    on_of, broad, narrow = {}, set(), set()
    for y in met:
        e = kb.entries[y]
        if e.kind not in JUDGMENT_KINDS:
            continue
        on = on_of[y] = set(on_all[y])
        if any(s and s <= on for s in mine_set.values()):
            broad.add(y)
        else:
            narrow.add(y)
    fired = {x: fired1.get(x, []) for x in ids}
    # a met rule whose network is as in the saved run: where it fired there (the full run's own
    # set, so redundancy and nesting are found as the full run finds them)
    from_saved = set()
    if saved is not None:
        for y in sorted(broad | narrow):
            if y in saved.sets["sets"] and unchanged(y):
                fired[y] = saved.indices(saved.bits(y))
                from_saved.add(y)
    # a met rule step 1's network holds whole (itself and all it rests on): where that walk found it
    for y in sorted((broad | narrow) - from_saved):
        if closure1 and y not in inexact1 and (y in closure1 if y in kb.rules
                                               else row_closure(kb, closure_of, {y}) <= closure1):
            fired[y] = walked1[y] if y in walked1 else saved_off(y)
            from_saved.add(y)
    # a family rule the edit moves only in its reports of rows whose boards are known now (the
    # audited ones, or walked exactly in step 1): it fires where it reported the other rows then
    # and where those rows fire now — between (its saved boards but those rows' saved ones) and
    # (its saved boards and those rows' new ones); taken when the two are the same
    reports = getattr(unchanged, "reports", None) or {}
    for y in sorted((broad | narrow) - from_saved):
        xs = reports.get(y)
        if (saved is None or y not in kb.rules or not kb.rules[y].as_var or not xs or y not in saved.sets["sets"]
                or y in getattr(unchanged, "rules_changed", {y})):
            continue
        new_of = {x: fired1[x] if x in fired1 else walked1.get(x) for x in xs}
        if any(v is None for v in new_of.values()) or any(i not in saved.back for v in new_of.values() for i in v):
            continue
        old_y, old_x, new_x = saved.bits(y), 0, saved.mask(sorted({i for v in new_of.values() for i in v}))
        for x in xs:
            old_x |= saved.bits(x)
        low, high = (old_y & ~old_x) | new_x, old_y | new_x
        if low == high:
            fired[y] = saved.indices(high)
            from_saved.add(y)
    reused = _prior_counts(kb, prior, key, closure_of, (broad | narrow) - from_saved) if prior and key else {}
    # the rest: the broader ones judged over the space by a network of what they rest on; the
    # narrower ones of their kind would need what they rest on judged everywhere (the full audit)
    cand = broad - set(reused) - from_saved
    # (with no saved run, only those of the entries' kind are listed: the others are many)
    skipped = {y for y in narrow - set(reused) - from_saved if reused or from_saved or kb.entries[y].kind in kinds}
    if cand:
        closure3 = row_closure(kb, closure_of, cand)
        rows3, _ = _rows_for(kb, cand, closure3)
        # on the boards of the dimensions the candidates read; a board of another dimension
        # gives them what its base board gives
        need = {d for r in closure3 for d in read.get(r, ())}
        keep = [i for i, b in enumerate(boards[:n_main]) if _dim_of(b) is None or _dim_of(b) in need
                or (_dim_of(b) == "year" and "person" in need)]
        n3 = len(keep)
        # (a question's boards on the part of this network the question's holds, or as their
        # base boards: see step 1)
        alias3, kept3 = _question_aliases(kb, boards, n_main, nets, closure3, closure_of)
        nets3 = []
        for a, b, net in kept3:
            if _net_within(closure3, net)[1]:
                nets3.append((len(keep), len(keep) + b - a, _net_within(closure3, net, rows3)))
                keep += list(range(a, b))
        fired3, _ = run_space([boards[i] for i in keep], kb_dir, None, procs, progress, "rules 3/3",
                              nets=[(0, n3, _net_within(closure3, None, rows3))] + nets3, shared=shared)
        for y in cand:
            got = [keep[j] for j in fired3.get(y, [])]
            main_got = _fill_dims(boards, n_main, [i for i in got if i < n_main], need)
            on = set(main_got)
            fired[y] = sorted(main_got + [i for i in got if i >= n_main] + [i for i, j in alias3.items() if j in on])
    steps["3 the met rules' counts"] = round(time.time() - t1, 1)
    t1 = time.time()
    rep = analyse(kb, boards, fired, pairs, n_main, kb_dir, True, only=set(ids), read=read)
    if reused:
        skipped |= _compare_reused(kb, rep, boards, ids, mine_set, on_of, reused, dims, kb_dir, read)
    keep = set(ids)
    rep["never_fire"] = [x for x in rep["never_fire"] if x["id"] in keep]
    rep["always_fire"] = [x for x in rep["always_fire"] if x["id"] in keep]
    rep["redundant"] = [g for g in rep["redundant"] if keep & set(g["rules"])]
    rep["subsumed"] = [x for x in rep["subsumed"] if x["narrow"] in keep or x["broad"] in keep]
    rep["firing_counts"] = {k: v for k, v in rep["firing_counts"].items() if k in keep}
    rep["met"] = sorted(met)
    rep["not_compared"] = sorted(skipped)
    if judged_again is not None:
        rep["judged_again"] = judged_again      # step 2's cone: the entries judged on their boards
    if days is not None:
        rep["edit_days"] = sorted(days)         # an edit of cells: only these days' boards judged
    rep["question_boards_as_base"] = aliased
    rep["judged_over_space"] = sorted(cand)     # step 3: met rules judged over the space
    rep["counts_reused"] = len(reused) + len(from_saved)
    rep["firings_reused"] = sorted(x for x in ids if x not in todo)
    rep["space"].update(space, wide=True, varied=dims, question_spaces=qspaces, rules=ids,
                        definition=SPACE.describe(kb, read, set(dims)))
    rep["variants"], rep["source_disagreements"] = [], []
    rep["kb_dir"] = kb_dir
    rep["findings"] = findings(kb, rep)
    steps["4 the report"] = round(time.time() - t1, 1)
    rep["steps"] = steps
    rep["seconds"] = round(time.time() - t0, 1)
    return rep


def _compare_reused(kb, rep, boards, ids, mine_set, on_of, reused, dims, kb_dir, read=None):
    """Redundancy and nesting between the audited entries and the met rules whose count over the
    space the saved run gives (reused: {rule: (own count, universe)}), as analyse() finds them
    from firing sets: a met rule that fires on every board of an entry is equal to it when it
    fires as often, else broader; one that fires on part of them is inside it when all its
    firings are there.  A met rule that reads a dimension this run did not vary (its extra
    boards are not here) is not compared.  Returns the rules not compared."""
    ents = kb.entries
    ereads = SPACE.entry_reads(kb, read)
    varied = set(dims)
    counts, universe = rep["firing_counts"], rep["firing_universe"]
    not_compared = set()
    trivial = 0
    for y, (own_y, u_y) in sorted(reused.items()):
        yd = set(ereads.get(y, ())) & set(SPACE.dimension_ids())
        if not yd <= varied:
            not_compared.add(y)
            continue
        if own_y >= u_y:
            continue                    # fires always: not compared (as in the full audit)
        on = on_of[y]
        for x in ids:
            s = mine_set.get(x)
            if not s or x not in counts or counts[x] >= universe.get(x, 0) or _related(kb, x, y):
                continue
            own_x, u_x = counts[x], universe[x]
            mine_y = sum(1 for i in on if _dim_of(boards[i]) is None or _dim_of(boards[i]) in yd)
            if s <= on and own_y == own_x and u_y == u_x:
                first = min(s)
                if not _family_only(kb, [x, y]):
                    g = sorted([x, y])
                    rep["redundant"].append({"rules": g, "names": [ents[r].name for r in g],
                                             "valences": [ents[r].valence or "" for r in g], "boards": own_x,
                                             "board": dict(boards[first]),
                                             "command": judge_command(boards[first], kb_dir)})
                continue
            if s <= on:
                a, b, ca, cb, ub, first = x, y, own_x, own_y, u_y, min(s)
            elif own_y == mine_y and mine_y:
                a, b, ca, cb, ub, first = y, x, own_y, own_x, u_x, min(on)
            else:
                continue
            if cb * 2 > ub:
                trivial += 1
                continue
            rep["subsumed"].append({"narrow": a, "broad": b, "narrow_boards": ca, "broad_boards": cb,
                                    "narrow_valence": ents[a].valence or "", "broad_valence": ents[b].valence or "",
                                    "narrow_name": ents[a].name, "broad_name": ents[b].name,
                                    "board": dict(boards[first]), "command": judge_command(boards[first], kb_dir)})
    rep["space"]["trivial_nestings_dropped"] = rep["space"].get("trivial_nestings_dropped", 0) + trivial
    return not_compared


_dim_of = SPACE.dim_of


def _fill_dims(boards, n_main, got, need):
    """Firings judged without the extra boards of some dimensions: on such a board a rule that
    does not read its dimension fires as on the lesson's base board it was made from (the board
    of the same day, plate, month and 晝夜 with no extra input)."""
    got = set(got)
    base_at = {}
    for i, b in enumerate(boards[:n_main]):
        if _dim_of(b) is None:
            base_at[(b["day"], b["jiang"], b["month"][1:], b["night"])] = i
    out = set(got)
    for i, b in enumerate(boards[:n_main]):
        d = _dim_of(b)
        # a year board moves 行年 too (the birth year is kept): it is read by 本命・行年 rules as well
        if d is not None and d not in need and not (d == "year" and "person" in need):
            off = (SPACE.BRANCHES.index(b["jiang"]) - SPACE.BRANCHES.index(b["hour"])) % 12
            # (a year board names its month by that year: 壬寅 for 庚寅; the branch is the month's)
            src = base_at.get((b["day"], SPACE.BRANCHES[off], b["month"][1:], b["night"]))
            if src in got:
                out.add(i)
    return sorted(out)


# --------------------------------------------------------------------------- findings
def findings(kb, rep):
    """Every finding of the report, ranked: by severity (error, warning, note), then by the boards
    it touches (most first).  Each: severity, check, message, entries (with file:line and tone),
    boards, and the board that shows it as a `liuren judge` command when there is one.

    - conflict, undeclared: an error within one book (one seed: the book contradicts itself unless a
      declaration quotes where it says both); a warning across books (two schools' judgments meet
      on a branch).  Declared, or weighed by the book: a note, with the row that covers it.
    - redundant (the same firing set): error when the group mixes 吉 and 凶 and some pair of them
      is not declared by both its ids; else a warning within one book, a note across books.
    - subsumed (one firing set inside another's): a note (nestings under a rule firing on more
      than half the boards are dropped, and counted).
    - never fires: an error when its own example does not fire either; a warning when nothing
      explains it (no example, no question, not declared unreachable); a note when its example
      fires (it fires only on boards the space lacks) or it is declared unreachable.
    - always fires: a note.
    - sources that disagree: a note."""
    out = []
    ref = lambda x: entry_ref(kb, x, rep.get("firing_counts", {}).get(x, 0))  # noqa: E731
    for kind, sev in (("undeclared", "error"), ("declared", "note")):
        for c in rep["conflicts"][kind]:
            if kind == "undeclared" and not same_book(kb, c["a"], c["b"]):
                sev = "warning"         # two books' judgments meeting on a branch (an error within one book)
            elif kind == "undeclared":
                sev = "error"
            f = {"severity": sev, "check": f"conflict ({kind})", "boards": c["boards"],
                 "entries": [ref(c["a"]), ref(c["b"])], "subject": c["subject"],
                 "board": c["board"], "command": c["command"],
                 "message": f"{c['a_name']}（{_val(kb, c['a'])}）與 {c['b_name']}（{_val(kb, c['b'])}）"
                            f"同論 {c['subject']}，吉凶相反，{c['boards']} 盤"}
            if c.get("covered_by"):
                f["covered_by"] = c["covered_by"]
                f["wildcard_only"] = c["wildcard_only"]
            out.append(f)
    weighed = rep["conflicts"].get("weighed") or []
    by_row = {}
    for c in weighed:
        for w in c.get("weighed_by") or ():
            by_row.setdefault((w["id"], w["name"], w["file"], w["line"]), []).append(c)
    for (rid, rname, rfile, rline), cs in sorted(by_row.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        # a row of book-weighing: one counted line, naming the row that quotes the book
        top = max(cs, key=lambda c: (c["boards"], c["a"], c["b"]))
        out.append({"severity": "note", "check": "conflict (weighed)", "boards": sum(c["boards"] for c in cs),
                    "entries": [ref(top["a"]), ref(top["b"])], "subject": top["subject"], "board": top["board"],
                    "command": top["command"],
                    "covered_by": [{"how": "weighing", "id": rid, "file": rfile, "line": rline, "wildcard": False}],
                    "message": f"書中權衡「{rname}」（{rfile}:{rline}）：相反之判 {len(cs):,} 對，書已言其輕重："
                               f"如 {top['a_name']}（{_val(kb, top['a'])}）與 {top['b_name']}（{_val(kb, top['b'])}）"
                               f"同論 {top['subject']}，{top['boards']} 盤"})
    weighed = [c for c in weighed if not c.get("weighed_by")]
    if weighed:
        # the policy as one named, counted line (each pair is in the report's list, not dropped)
        top = max(weighed, key=lambda c: (c["boards"], c["a"], c["b"]))
        out.append({"severity": "note", "check": "conflict (weighed)", "boards": sum(c["boards"] for c in weighed),
                    "entries": [ref(top["a"]), ref(top["b"])], "subject": top["subject"], "board": top["board"],
                    "command": top["command"],
                    "message": f"神煞與吉凶相反之判同臨一支者 {len(weighed):,} 對（書中衡其輕重，非相反；"
                               f"kb/README.md「神煞同臨」）：如 {top['a_name']}（{_val(kb, top['a'])}）與 "
                               f"{top['b_name']}（{_val(kb, top['b'])}）同論 {top['subject']}，{top['boards']} 盤"})
    for g in rep["redundant"]:
        tones = {v for v in g["valences"] if v}
        books = {entry_ref(kb, x)["book"] for x in g["rules"]}
        mixed = {"吉", "凶"} <= tones
        # a group that mixes 吉 and 凶 is an error unless each of its opposite pairs is declared by
        # name (a row naming both, or one entry naming the other: never a glob), which says why
        named = _named_declarations(kb, g["rules"], g["valences"]) if mixed else None
        sev = "error" if mixed and named is None else ("warning" if len(books) == 1 else "note")
        f = {"severity": sev, "check": "redundant", "boards": g["boards"],
             "entries": [ref(x) for x in g["rules"]], "board": g["board"], "command": g["command"],
             "message": "、".join(f"{n}（{v or '—'}）" for n, v in zip(g["names"], g["valences"]))
                        + f" 同起於同 {g['boards']} 盤" + ("，吉凶相反" if mixed else "")
                        + ("（已宣告：" + "、".join(sorted({c["id"] for c in named})) + "）" if named else "")}
        if named:
            f["covered_by"] = named
        out.append(f)
    for x in rep["subsumed"]:
        out.append({"severity": "note", "check": "subsumed", "boards": x["narrow_boards"],
                    "entries": [ref(x["narrow"]), ref(x["broad"])], "board": x["board"], "command": x["command"],
                    "message": f"{x['narrow_name']}（{x['narrow_valence'] or '—'}，{x['narrow_boards']} 盤）"
                               f"皆在 {x['broad_name']}（{x['broad_valence'] or '—'}，{x['broad_boards']} 盤）之內"})
    for x in rep["never_fire"]:
        ex = x.get("examples")
        reason = x.get("reason")
        if ex == "example_fails":
            sev, msg = "error", "never fires in the space, nor on its own example board"
        elif reason == "unreachable":
            sev, msg = "note", "never fires: declared unreachable (" + (x.get("note") or "") + ")"
        elif ex == "example_fires" or reason == "outside the space":
            sev, msg = "note", "never fires in the space; fires on its own example board (inputs the space lacks)"
        elif reason == "question":
            sev, msg = "warning", "never fires, even under its question " + "、".join(x.get("questions", []))
        else:
            sev, msg = "warning", "never fires, and nothing explains it (no example that fires, no question)"
        why = ("example_fails" if ex == "example_fails" else "unreachable" if reason == "unreachable" else
               "example_fires" if ex == "example_fires" or reason == "outside the space" else
               "question" if reason == "question" else "unknown")
        f = {"severity": sev, "check": "never fires", "boards": 0, "entries": [ref(x["id"])], "message": msg,
             "why": why}
        if x.get("example"):
            f["board"] = x["example"]
            f["command"] = judge_command(x["example"], rep.get("kb_dir"))
        if x.get("example_errors"):
            f["detail"] = x["example_errors"]
        out.append(f)
    for x in rep["always_fire"]:
        n = rep.get("firing_counts", {}).get(x["id"], 0)
        out.append({"severity": "note", "check": "always fires", "boards": n, "entries": [ref(x["id"])],
                    "message": f"fires on every board of its space ({n})"})
    for d in rep.get("source_disagreements", []):
        n = d.get("boards_only_a", 0) + d.get("boards_only_b", 0)
        out.append({"severity": "note", "check": "sources disagree", "boards": n,
                    "entries": [ref(d["a"]), ref(d["b"])],
                    "message": f"{d['name']}: {','.join(d['a_seed'])} vs {','.join(d['b_seed'])}"})
    rank = {s: i for i, s in enumerate(SEVERITIES)}
    out.sort(key=lambda f: (rank[f["severity"]], -f["boards"], f["check"], [e["id"] for e in f["entries"]]))
    for f in out:
        f["key"] = finding_key(f)
    return out


def _named_declarations(kb, rules, valences):
    """The declarations naming each 吉–凶 pair of a group by both its ids (never a glob), or None
    when some pair has none."""
    good = [x for x, v in zip(rules, valences) if v == "吉"]
    bad = [x for x, v in zip(rules, valences) if v == "凶"]
    out = []
    for a in good:
        for b in bad:
            got = [c for c in covers(kb, a, b) if not c["wildcard"]]
            if not got:
                return None
            out.extend(c for c in got if c not in out)
    return out


def same_book(kb, a, b):
    """Do entries a and b come from one book (the seed of their first source), as kb check's
    redundancy reads it?"""
    def seed(x):
        e = kb.entries.get(x)
        return ((e.source or [{}])[0] or {}).get("seed") if e is not None else None
    sa = seed(a)
    return sa is not None and sa == seed(b)


def _val(kb, x):
    e = kb.entries.get(x)
    return (e.valence if e else "") or "—"


def finding_key(f):
    """What a finding is, whatever its counts: its check and its entries (for --baseline)."""
    return f["check"] + ":" + ",".join(sorted(e["id"] for e in f["entries"]))


LIMIT = 300            # findings shown in the Markdown (and HTML) unless --all


def _entry_line(e):
    return f"`{e['id']}` {e['name']}（{e.get('valence') or '—'}，{e.get('kind', '')}）{e['file']}:{e['line']}"


def _shown(n, total, what):
    return f"{n} of {total:,} {what} shown" + ("; --all for the rest" if n < total else "")


def markdown(rep, all_=False):
    sp = rep["space"]
    fs = rep.get("findings", [])
    sev = Counter(f["severity"] for f in fs)
    L = [f"# KB audit ({sp['boards']:,} boards)", ""]
    L.append(f"{sev['error']} errors, {sev['warning']} warnings, {sev['note']} notes.")
    if sp.get("rules"):
        L.append(f"Audited only: {', '.join(sp['rules'])} and the {len(rep.get('met', []))} rules they meet.")
    L += ["", "## The space", ""]
    L += space_lines(rep)
    L += ["", f"## Findings ({len(fs):,}), by severity, then boards touched", ""]
    shown = fs if all_ else fs[:LIMIT]
    L.append(_shown(len(shown), len(fs), "findings") + ".")
    L.append("")
    for f in shown:
        L.append(f"- **{f['severity']}** {f['check']}: {f['message']} ({f['boards']:,} boards)")
        for e in f["entries"]:
            L.append(f"  - {_entry_line(e)}")
        for c in f.get("covered_by", [])[:3]:
            L.append(f"  - declared by `{c['id']}` {c['file']}:{c['line']}" + (" (wildcard)" if c["wildcard"] else ""))
        if f.get("command"):
            L.append(f"  - board: `{f['command']}`")
    L += ["", "## Declared pairs and the declarations that cover them", ""]
    L += declared_lines(rep, all_)
    L += ["", f"## Conflicts, undeclared ({len(rep['conflicts']['undeclared'])})", "",
          "(each is an error finding above)", ""]
    allw = sorted(rep["conflicts"].get("weighed") or [], key=lambda c: (-c["boards"], c["a"], c["b"]))
    byrow = [c for c in allw if c.get("weighed_by")]
    L += ["", f"## Weighed by the book: pairs a row of book-weighing answers for ({len(byrow):,} pairs)", "",
          "(kb/common/weighing.yaml: the book states how the one weighs against every judgment of the other "
          "tone on its branch; each pair with the row that quotes it)", ""]
    L += _pair_lines(byrow, all_, lambda c: " — " + "; ".join(f"`{w['id']}` {w['name']} {w['file']}:{w['line']}"
                                                              for w in c["weighed_by"]))
    w = [c for c in allw if not c.get("weighed_by")]
    L += ["", f"## Weighed, not contradictory: a 神煞 and an opposite judgment on one branch ({len(w):,} pairs)", "",
          "(kb/README.md, 神煞同臨: the books weigh a 神煞 against what else the branch carries; "
          "a pair is declared or fixed like any conflict when the text says they exclude each other)", ""]
    L += _pair_lines(w, all_, lambda c: "")
    fc = rep.get("firing_counts", {})
    L += ["", f"## Per-rule firing counts ({len(fc):,} entries that fire; boards of their space)", ""]
    uni = rep.get("firing_universe", {})
    L += [f"- `{k}` {v:,}" + (f" / {uni[k]:,}" if k in uni else "") for k, v in sorted(fc.items(), key=lambda kv: (-kv[1], kv[0]))]
    L += ["", f"## Variants ({len(rep['variants'])})"]
    L += [f"- `{v['entry']}` {v['name']} — {v['label']}「{v['quote']}」: {v['boards_changed']}/{v['of']} boards change"
          for v in rep["variants"]] + [""]
    return "\n".join(L) + "\n"


def space_lines(rep):
    sp = rep["space"]
    d = sp.get("definition") or {}
    L = [f"- boards: {sp['boards']:,} ({sp.get('main_boards', sp['boards']):,} in the widened space, "
         f"{sp.get('question_boards', 0):,} asking a question)"]
    for k, v in (d.get("base") or {}).items():
        L.append(f"- fixed on the base boards — {k}: {v}")
    for k, v in (d.get("fixed") or {}).items():
        L.append(f"- fixed everywhere — {k}: {v}")
    for x in d.get("dimensions", []):
        state = "varied" if x.get("varied") else "not varied (no rule reads it)" if not x.get("rules_reading") else "not varied"
        L.append(f"- {x['label']} ({x['id']}): {state}; read by {x.get('rules_reading', '?')} rules — {x['varies']}")
    if sp.get("question_spaces"):
        qs = sp["question_spaces"]
        L.append(f"- questions asked on their own boards: {len(qs)} "
                 f"({sum(q['boards'] for q in qs.values()):,} boards, {sum(q['entries'] for q in qs.values())} entries)")
    if "trivial_nestings_dropped" in sp:
        L.append(f"- nestings under a rule that fires on more than half the boards, not reported: "
                 f"{sp['trivial_nestings_dropped']:,}")
    return L


def declared_stats(rep):
    dec = rep["conflicts"]["declared"]
    wild = sum(1 for c in dec if c.get("wildcard_only"))
    return {"pairs": len(dec), "wildcard_only": wild, "share": (wild / len(dec)) if dec else 0.0}


def _pair_lines(pairs, all_, tail):
    """A weighed pair a line (its tones, subject and boards, then tail(pair)), cut at LIMIT with a
    line that says so."""
    shown = pairs if all_ else pairs[:LIMIT]
    L = [f"- `{c['a']}` {c['a_name']}（{c.get('a_valence') or '—'}） × `{c['b']}` {c['b_name']}"
         f"（{c.get('b_valence') or '—'}） on {c['subject']}: {c['boards']:,} boards" + tail(c) for c in shown]
    if len(shown) < len(pairs):
        L.append(f"- ({_shown(len(shown), len(pairs), 'pairs')})")
    return L


def declared_lines(rep, all_=False):
    dec = rep["conflicts"]["declared"]
    st = declared_stats(rep)
    L = [f"{st['pairs']:,} declared pairs; {st['wildcard_only']:,} ({st['share']:.0%}) covered only by wildcard rows.", ""]
    shown = dec if all_ else sorted(dec, key=lambda c: -c["boards"])[:LIMIT]
    L.append(_shown(len(shown), len(dec), "declared pairs") + ".")
    L.append("")
    for c in shown:
        cov = c.get("covered_by") or []
        first = cov[0] if cov else {}
        L.append(f"- `{c['a']}` {c['a_name']} × `{c['b']}` {c['b_name']} ({c['boards']:,} boards): "
                 f"`{first.get('id', '')}` {first.get('file', '')}:{first.get('line', '')}"
                 + (" (wildcard only)" if c.get("wildcard_only") else ""))
    return L


def html_report(rep, all_=False):
    """The report as one standalone HTML page (no script, no outside file)."""
    from html import escape as h
    fs = rep.get("findings", [])
    shown = fs if all_ else fs[:LIMIT]
    sev = Counter(f["severity"] for f in fs)
    rows = []
    for f in shown:
        ents = "<br>".join(f"<code>{h(e['id'])}</code> {h(e['name'])}（{h(e.get('valence') or '—')}）"
                           f" <small>{h(e['file'])}:{e['line']}</small>" for e in f["entries"])
        cmd = f"<br><code>{h(f['command'])}</code>" if f.get("command") else ""
        rows.append(f"<tr class='{h(f['severity'])}'><td>{h(f['severity'])}</td><td>{h(f['check'])}</td>"
                    f"<td>{f['boards']:,}</td><td>{h(f['message'])}{cmd}</td><td>{ents}</td></tr>")
    space = "".join(f"<li>{h(x[2:])}</li>" for x in space_lines(rep))
    return ("<!doctype html><html><head><meta charset='utf-8'><title>KB audit</title><style>"
            "body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
            "padding:3px 6px;vertical-align:top}tr.error td:first-child{color:#b00;font-weight:bold}"
            "tr.warning td:first-child{color:#a60}code{font-size:90%}</style></head><body>"
            f"<h1>KB audit ({rep['space']['boards']:,} boards)</h1>"
            f"<p>{sev['error']} errors, {sev['warning']} warnings, {sev['note']} notes. "
            f"{h(_shown(len(shown), len(fs), 'findings'))}.</p><h2>The space</h2><ul>{space}</ul>"
            "<h2>Findings</h2><table><tr><th>severity</th><th>check</th><th>boards</th><th>finding</th>"
            f"<th>entries</th></tr>{''.join(rows)}</table></body></html>\n")


# --------------------------------------------------------------------------- saved runs
def last_run_path():
    """Where the last full run is kept for the web app's /audit page (the cache folder)."""
    import pathlib
    from liuren.knowledge import cache
    return pathlib.Path(cache.cache_dir()) / "audit" / "last.json"


def slim(rep):
    """What a saved run keeps: the findings and the space (not the boards' firing lists)."""
    out = {"format": 1, "space": rep["space"], "findings": rep.get("findings", []),
           "declared": declared_stats(rep), "firing_counts": rep.get("firing_counts", {}),
           "firing_universe": rep.get("firing_universe", {}), "seconds": rep.get("seconds")}
    if rep.get("reuse"):
        out["reuse"] = rep["reuse"]
    return out


def firings_path(path):
    """Where a saved run keeps where each entry fired (beside it: FILE.firings), which a later
    `--rules` reads for the entries whose network is unchanged."""
    import pathlib
    p = pathlib.Path(path)
    return p.with_name(p.name + ".firings")


def save_run(rep, path):
    import pathlib
    p = pathlib.Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    side = firings_path(p)
    if rep.get("firing_sets") and rep.get("reuse"):
        tmp = side.with_name(side.name + ".tmp")
        tmp.write_text(json.dumps({"reuse": rep["reuse"], **rep["firing_sets"]}, ensure_ascii=False),
                       encoding="utf-8")
        os.replace(tmp, side)
    elif side.exists():
        side.unlink()                   # a run without them: an older file beside it is not this run's
    tmp = p.with_suffix(p.suffix + ".tmp")
    tmp.write_text(json.dumps(slim(rep), ensure_ascii=False, indent=0), encoding="utf-8")
    os.replace(tmp, p)


def load_run(path):
    try:
        with open(path, encoding="utf-8") as f:
            run = json.load(f)
    except OSError as e:
        raise InputError(f"{path!r}: {e.strerror}") from None
    except ValueError:
        raise InputError(f"{path!r}: not a saved audit run (JSON)") from None
    if not isinstance(run, dict) or not isinstance(run.get("findings"), list):
        raise InputError(f"{path!r}: not a saved audit run (no findings)")
    try:                                # where each entry fired, when the run kept it (else: counts only)
        with open(firings_path(path), encoding="utf-8") as f:
            side = json.load(f)
        if isinstance(side, dict) and side.get("reuse") == run.get("reuse") and isinstance(side.get("sets"), dict):
            run["firing_sets"] = side
    except (OSError, ValueError):
        pass
    return run


def compare(base, rep):
    """What is new since a saved run, and what is gone (by finding_key)."""
    old = {f["key"]: f for f in base["findings"]}
    now = {f["key"]: f for f in rep.get("findings", [])}
    new = [f for k, f in now.items() if k not in old]
    gone = [f for k, f in old.items() if k not in now]
    return new, gone
