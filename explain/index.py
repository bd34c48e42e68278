"""The index behind `liuren find` and /find: which entries fire on which board of the audit's
space, and about which places.

The space is the audit's (explain.audit.board_space): 60 days × 12 月將 over 占時 子 × 晝/夜 ×
12 months = 17,280 boards, in the audit's order, so board i is

    i = ((day × 12 + offset) × 2 + night) × 12 + month

Boards are judged by the audit's workers (its engine per worker, judged incrementally a lesson
at a time); what an index keeps of a board is only which entries fired there.  An entry's
boards are one Python int used as a bitset (bit i: board i), some 2 kB each; the places an
entry was about are kept as runs of boards per place.  The index is kept in the cache beside
the compiled networks, keyed by the KB's content and the code that decides what fires (see
firing_digest), its folder, the casting options, the question and the number of days, so that
any process finds it.
"""
from __future__ import annotations

import hashlib
import multiprocessing as mp
import os
import pathlib
import sys
import time

from liuren.casting.symbols import BRANCHES, JIAZI
from liuren.errors import InputError
from liuren.explain import audit as A

try:                             # the shared board space (knowledge/space.py): what it fixes and varies
    from liuren.knowledge import space as SPACE
except ImportError:              # pragma: no cover — before it exists, the base boards alone
    SPACE = None

KIND = "find-index"
FORMAT = 3                       # 2: the board's facts beside the entries; 3: the widened space (extra boards)
MONTHS = A.MONTHS
BASE_PER_LESSON = 24             # a lesson's base boards: 晝/夜 × 12 months
PER_LESSON = BASE_PER_LESSON     # of an index of the base boards alone (Index.per_lesson says it for each)
# modules of rules/ that do not change what fires: the caches and the KB's lint
NOT_FIRING = {"cache.py", "netcache.py", "kblint.py"}


class Index:
    """Which entries fire on which board of a space (see the module's doc)."""

    def __init__(self, days, options, question, bits, places, lessons, names, seconds=0.0, facts=None, layout=None):
        self.days = days                    # the first `days` of the sixty
        self.options = dict(options or {})  # casting options of every board (guiren …)
        self.question = question
        self.bits = bits                    # entry id -> int (bit i: fires on board i)
        self.places = places                # entry id -> ((place, ((first, after last), …)), …)
        self.lessons = lessons              # lesson l -> (gate, subtype, 三傳 branches)
        self.names = names                  # entry id -> (name, kind, aliases, labels)
        self.seconds = seconds              # how long the build took
        self.facts = facts or {}            # fact key -> int (bit i: holds on board i); see _PlaceWalk
        layout = layout or {}
        # a lesson's block of boards: its 24 base boards, then its extra boards (one input changed:
        # slot_dims[k] names the dimension), padded to a whole number of bytes
        self.per_lesson = layout.get("per_lesson", BASE_PER_LESSON)
        self.slot_dims = tuple(layout.get("slot_dims", (None,) * BASE_PER_LESSON))
        self.extras = layout.get("extras", ())          # lesson -> (the extra boards' changes from its base, …)
        self.dims = tuple(layout.get("dims", ()))       # the dimensions varied (knowledge/space.py)
        self.reads = layout.get("reads", {})            # rule id -> the dimensions it reads (its conditions)
        self.changes_with = layout.get("changes_with", {})   # entry -> dimensions its firings change with
        self.layout_masks = layout.get("masks", {})     # month / daynight masks (extra boards included)
        self.n = days * 12 * self.per_lesson            # bits (padding included)
        self.real = layout.get("real")                  # the bits of real boards (None: all of them)

    def __getstate__(self):
        # what a process works out on demand (lookups, masks, places by board) is not kept
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    # ---- the boards
    def board(self, i):
        """The cast() arguments of board i: a base board (as explain.audit.board_space gives it)
        or an extra board (its lesson's base board with the one input its dimension varies)."""
        lesson, k = divmod(i, self.per_lesson)
        d, off = divmod(lesson, 12)
        if k < BASE_PER_LESSON:
            night, m = divmod(k, 12)
            b = dict(self.options, day=JIAZI[d], jiang=BRANCHES[off], hour="子", month=MONTHS[m], night=bool(night),
                     year=2026, born=1960 + (d + off) % 60, sex="m" if off % 2 else "f")
        else:
            b = dict(self.options, day=JIAZI[d], jiang=BRANCHES[off], hour="子", month=MONTHS[0], night=False,
                     year=2026, born=1960 + (d + off) % 60, sex="m" if off % 2 else "f")
            for key, v in self.extras[lesson][k - BASE_PER_LESSON]:
                if v is None:
                    b.pop(key, None)
                else:
                    b[key] = v
        if self.question:
            b["question"] = self.question
        return b

    def dim_of(self, i):
        """The dimension board i varies (None: a base board)."""
        return self.slot_dims[i % self.per_lesson]

    def lesson_of(self, i):
        return self.lessons[i // self.per_lesson]

    def places_of(self, entry, i):
        """The places `entry` was about on board i (several firings: several places).  The runs
        are turned, once per entry and process, into a table by board (a lookup, not a scan)."""
        by_board = self.__dict__.setdefault("_places_by", {})
        t = by_board.get(entry)
        if t is None:
            t = {}
            for place, runs in self.places.get(entry, ()):
                for a, b in runs:
                    for k in range(a, b):
                        t.setdefault(k, []).append(place)
            by_board[entry] = t
        return list(t.get(i, ()))

    @property
    def all(self):
        return (1 << self.n) - 1 if self.real is None else self.real

    @property
    def size(self):
        """The number of boards of the space."""
        return self.all.bit_count()


def kb_root(kb_dir=None):
    from liuren.knowledge.kbload import packaged_kb_dir
    return pathlib.Path(kb_dir) if kb_dir else packaged_kb_dir()


def firing_digest(root):
    """What decides which rules fire on a board of the space: the KB's files (paths and bytes), the
    code of casting and rules (and of this walk), Python's and experta's versions.  Like the
    networks' key (knowledge.cache.kb_digest), but without the code above the rules (the queries, the
    front-ends), which changes what is shown, never what fires."""
    import importlib.util
    from liuren.knowledge.kbload import kb_files
    h = hashlib.sha256(f"{KIND}|{FORMAT}|{sys.version}".encode())
    try:
        h.update(pathlib.Path(importlib.util.find_spec("experta").origin).read_bytes())
    except Exception:  # noqa: BLE001 — not found: the rest says enough
        pass
    code = []
    for pkg in ("liuren.casting", "liuren.knowledge", "liuren.rules"):
        folder = pathlib.Path(importlib.util.find_spec(pkg).origin).resolve().parent
        code += sorted(p for p in folder.rglob("*.py") if p.name not in NOT_FIRING)
    code += [pathlib.Path(A.__file__).resolve(), pathlib.Path(__file__).resolve()]
    for p in code:
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    root = pathlib.Path(root)
    for p in kb_files(root):
        h.update(str(pathlib.Path(p).relative_to(root)).encode() + b"\0" + pathlib.Path(p).read_bytes() + b"\0")
    return h.hexdigest()


def index_key(kb_dir=None, options=None, question=None, days=60):
    """The cache key of an index: what decides the firings (firing_digest), the KB's folder, and
    what shapes the space.  Worked out without loading the KB."""
    root = kb_root(kb_dir)
    if not root.is_dir():
        raise InputError(f"--kb {str(kb_dir)!r}: not a folder")
    spec = (KIND, FORMAT, firing_digest(root), str(root.resolve()), tuple(sorted((options or {}).items())),
            question, days)
    return hashlib.sha256(repr(spec).encode()).hexdigest()


def cached_index(kb_dir=None, options=None, question=None, days=60):
    """The index from the cache, or None."""
    from liuren.knowledge import cache
    ix = cache.read(KIND, index_key(kb_dir, options, question, days))
    return ix if isinstance(ix, Index) else None


def get_index(kb_dir=None, options=None, question=None, days=60, progress=True, procs=None):
    """The index from the cache, else built now (in parallel, with a progress bar) and cached."""
    from liuren.knowledge import cache
    key = index_key(kb_dir, options, question, days)
    ix = cache.read(KIND, key)
    if isinstance(ix, Index):
        return ix
    ix = build_index(kb_dir, options, question, days, progress, procs)
    cache.write(KIND, key, ix)
    return ix


# --------------------------------------------------------------------------- building
class _PlaceWalk(A._Walk):
    """The audit's walk, which also follows each entry's places: (entry, place) is counted as an
    entry of its own, so its runs of boards come out beside the entry's.  It also records the
    board's facts that a query may name (see board_fact_keys), as runs of boards per fact."""

    def __init__(self):
        super().__init__()
        self.seen = {}                  # (煞, 位) -> active 見 facts (the KB's sightings)
        self.void = {}                  # 支 -> active 空 facts (the day's 旬空)
        self.prev_facts = set()
        self.fopen = {}
        self.franges = {}

    def _fire(self, f, sign):
        super()._fire(f, sign)
        if not f.internal and f.about and f.kind != "起例":
            k = (f.report, "、".join(dict.fromkeys(f.about)))
            self.count[k] += sign
            self.changed.add(k)
        for d in f.new:
            if d["t"] == "見":
                k = (d.get("煞"), d.get("位"))
                self.seen[k] = self.seen.get(k, 0) + sign
            elif d["t"] == "空":
                self.void[d.get("支")] = self.void.get(d.get("支"), 0) + sign

    def judge(self, i, board, incremental):
        from liuren.casting.cast import cast
        from liuren.knowledge.facts import board_facts
        question = board.get("question")
        eng = A._W["eng"] if question is None else A._question_engine(question)
        if not incremental or eng is not A._W.get("last_engine"):
            self.seen.clear()           # the engine starts afresh (as the audit's walk decides)
            self.void.clear()
        super().judge(i, board, incremental)
        kw = {k: v for k, v in board.items() if k != "question"}
        now = board_fact_keys(board_facts(cast(**kw), question),
                              {k for k, n in self.seen.items() if n > 0}, {b for b, n in self.void.items() if n > 0})
        for k in now - self.prev_facts:
            self.fopen[k] = i
        for k in self.prev_facts - now:
            self.franges.setdefault(k, []).append((self.fopen.pop(k), i))
        self.prev_facts = now

    def close(self, end):
        super().close(end)
        for k, began in self.fopen.items():
            self.franges.setdefault(k, []).append((began, end))
        self.fopen.clear()


def board_fact_keys(facts, seen, void):
    """The facts of a board a query may name, as keys:
    ("=", P, 支)   position P's branch (位.支: at 日干 its 寄宮);
    ("@", X, P)    a 煞 or 天將 X seen at P (the KB's 見: 「X 見於 P」);
    ("將", G, 地)  the general G rides the 天盤 branch over 地盤 position 地;
    ("空", P)      P's branch is void (空, the day's 旬空);
    ("門", g), ("體", s)   the 三傳's gate and its 課."""
    out = set()
    for f in facts:
        t = f["t"]
        if t == "位" and f.get("支"):
            out.add(("=", f["位"], f["支"]))
            if f["支"] in void:
                out.add(("空", f["位"]))
        elif t == "盤":
            out.add(("將", f["將"], f["地"]))
        elif t == "傳":
            out.add(("門", f["門"]))
            if f.get("體"):
                out.add(("體", f["體"]))
    out.update(("@", x, p) for x, p in seen)
    return out


def _index_work(args):
    if "error" in A._W:
        raise A._W["error"]
    items = args
    import gc
    gc.collect()
    walk = _PlaceWalk()
    prev = None
    i = 0
    for i, b in items:
        lesson = _plate(b)
        walk.judge(i, b, incremental=(lesson == prev))
        prev = lesson
    walk.close(i + 1)
    return dict(walk.ranges), walk.franges


def _plate(b):
    """What a lesson's boards share (base and extra): consecutive boards of one plate are judged
    one from the other."""
    if SPACE is not None:
        return SPACE.plate_key(b)
    return b.get("day"), b.get("jiang"), b.get("hour"), b.get("question")


def _bitmap(n, indices):
    ba = bytearray((n + 7) // 8)
    for i in indices:
        ba[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(ba, "little")


def space_layout(kb, days, options, question):
    """The boards of the index in order, as (bit, cast() arguments), and its layout: the base
    boards of each lesson, then an extra board per varied value of each dimension some rule reads
    (knowledge/space.py), each lesson's block padded to whole bytes."""
    if SPACE is None:
        boards = A.board_space("all", "both", options, days, question)
        return list(enumerate(boards)), {}
    read = SPACE.reads(kb)
    readers = SPACE.readers(kb, read)
    dims = [d["id"] for d in SPACE.DIMENSIONS if readers.get(d["id"])]
    pairs = SPACE.space_boards(days, "all", (False, True), options, dims)
    per = len(pairs) // (days * 12)
    P = (per + 7) // 8 * 8
    out, extras, months, nights = [], [], {}, {}
    slot_dims = [None] * BASE_PER_LESSON + [d for _, d in pairs[BASE_PER_LESSON:per]] + [""] * (P - per)
    for lesson in range(days * 12):
        d, off = divmod(lesson, 12)
        ref = SPACE.base_board(d, off, 0, 0, options)
        mine = []
        for k, (b, dim) in enumerate(pairs[lesson * per:(lesson + 1) * per]):
            if question:
                b = dict(b, question=question)
            i = lesson * P + k
            out.append((i, b))
            # by the month's branch: a board of another year names its month with that year's stem
            months.setdefault(next(m for m in MONTHS if m[1] == b["month"][1]), []).append(i)
            nights.setdefault(bool(b.get("night")), []).append(i)
            if k >= BASE_PER_LESSON:
                mine.append(tuple(sorted([(key, v) for key, v in b.items() if key != "question" and ref.get(key) != v]
                                         + [(key, None) for key in ref if key not in b])))
        extras.append(tuple(mine))
    n = days * 12 * P
    layout = {"per_lesson": P, "slot_dims": tuple(slot_dims), "extras": tuple(extras), "dims": tuple(dims),
              "reads": {r: tuple(sorted(ds)) for r, ds in read.items() if ds},
              "real": _bitmap(n, (i for i, _ in out)),
              "masks": {"month": {m: _bitmap(n, ix) for m, ix in months.items()},
                        "daynight": {"夜" if k else "晝": _bitmap(n, ix) for k, ix in nights.items()}}}
    return out, layout


def build_index(kb_dir=None, options=None, question=None, days=60, progress=True, procs=None):
    from liuren.casting.cast import cast, check_options
    from liuren.knowledge.kbload import load_kb
    options = dict(options or {})
    check_options(options)
    kb = load_kb(str(kb_dir) if kb_dir else None)
    if question is not None:
        question = kb.question_aliases.get(question, question)
        if question not in kb.questions:
            raise InputError(f"--question {question!r}: not a question of this KB (liuren questions lists them)")
    t0 = time.time()
    boards, layout = space_layout(kb, days, options, question)
    per = len(boards) // (days * 12)
    procs = procs or min(os.cpu_count() or 1, 2)
    lessons_per_chunk = max(1, days * 12 // (procs * 30))
    chunk = per * lessons_per_chunk
    tasks = [boards[i:i + chunk] for i in range(0, len(boards), chunk)]
    bits, runs_of, facts = {}, {}, {}
    done = 0
    ctx = mp.get_context("fork") if sys.platform != "win32" else mp.get_context()
    with ctx.Pool(procs, initializer=A._init, initargs=(str(kb_dir) if kb_dir else None, ())) as pool:
        for ranges, franges in pool.imap_unordered(_index_work, tasks):
            for k, runs in franges.items():
                x = 0
                for a, b in runs:
                    x |= ((1 << (b - a)) - 1) << a
                facts[k] = facts.get(k, 0) | x
            for k, runs in ranges.items():
                if isinstance(k, tuple):
                    runs_of.setdefault(k, []).extend(runs)
                    continue
                x = 0
                for a, b in runs:
                    x |= ((1 << (b - a)) - 1) << a
                bits[k] = bits.get(k, 0) | x
            done += 1
            if progress:
                n = min(done * chunk, len(boards))
                bar = "#" * int(30 * n / len(boards))
                sys.stderr.write(f"\rindex: [{bar:<30}] {n}/{len(boards)} boards {time.time() - t0:5.0f}s")
                sys.stderr.flush()
    if progress:
        sys.stderr.write("\n")
    real = layout.get("real")
    if real is not None:                # a run may span a lesson's padding: boards only
        bits = {k: x & real for k, x in bits.items()}
        facts = {k: x & real for k, x in facts.items()}
        layout["changes_with"] = changes_with(bits, layout, days)
    places = {}
    for (entry, place), runs in sorted(runs_of.items()):
        places.setdefault(entry, []).append((place, tuple(sorted(runs))))
    places = {k: tuple(v) for k, v in places.items()}
    lessons = []
    for d in JIAZI[:days]:
        for off in range(12):
            t = cast(day=d, jiang=BRANCHES[off], hour="子", **options).transmissions
            lessons.append((t.gate, t.subtype, tuple(t.branches)))
    return Index(days, options, question, bits, places, lessons, entry_names(kb), time.time() - t0, facts, layout)


def changes_with(bits, layout, days):
    """{entry: dimensions} whose extra boards fire otherwise than their lesson's base board (the
    one they were made from: month and 晝夜 cycling with the lesson, knowledge/space.py): what the
    base boards fix changes where the entry fires — observed, beside what its conditions read."""
    P, slot_dims = layout["per_lesson"], layout["slot_dims"]
    spans = {}
    for k, d in enumerate(slot_dims):
        if d:
            lo, hi = spans.get(d, (k, k))
            spans[d] = (min(lo, k), max(hi, k))
    per = P // 8
    out = {}
    for e, x in bits.items():
        raw = x.to_bytes(days * 12 * per, "little")
        got = set()
        for lesson in range(days * 12):
            c = int.from_bytes(raw[lesson * per:(lesson + 1) * per], "little")
            if not c:
                continue
            k0 = (lesson % 2) * 12 + lesson % 12          # the base board the extras were made from
            on = c >> k0 & 1
            for d, (lo, hi) in spans.items():
                if d in got:
                    continue
                width = hi - lo + 1
                v = c >> lo & ((1 << width) - 1)
                if v != (((1 << width) - 1) if on else 0):
                    got.add(d)
            if len(got) == len(spans):
                break
        if got:
            out[e] = tuple(d for d in spans if d in got)
    return out


def entry_names(kb):
    """What a query may call an entry: id -> (name, kind, aliases, labels by language)."""
    return {e.id: (e.name, e.kind, tuple(e.aliases), dict(e.meta.get("labels") or {})) for e in kb.entries.values()}
