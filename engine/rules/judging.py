"""Judging a board: run the compiled KB on the board's facts and keep a trace of every firing.

    from liuren import judge
    r = judge({"day": "丁卯", "on": "亥加丑"})
    r.fired        # list of Firing (rule id, name, kind, reading, valence, bindings, …)
    r.graph        # networkx DiGraph: fact -> firing -> fact, plus the 三傳 derivation steps
    r.chain_graph(key)   # the part of it a rule's chain (why) reads, without networkx
    r.to_dict()    # what `liuren judge --json` prints

It is one thing, a judgment: the run, the firings as recorded, and the trace built from them on
demand (the whole graph for an export, the part a chain reads for `why`, none for `judge`).
"""
from __future__ import annotations

import difflib
import gc
import weakref
from dataclasses import dataclass, field


from liuren.casting.board import Board
from liuren.casting.cast import cast
from liuren.errors import InputError
from liuren.knowledge.facts import PLATE_OF_POSITION, board_facts
from liuren.i18n import label_of
from liuren.knowledge.kbload import CALC_OPS, JUDGMENT_KINDS, RULE_KINDS, VAR_RE, load_kb  # noqa: F401
from liuren.rules.engines import engine_for
from liuren.rules.trace import FactText, TraceGraph, _node_link, _plain
from liuren.casting.symbols import BRANCHES, is_branch

KIND_ORDER = RULE_KINDS


_KEYS = {}


def fact_key(d):
    """A fact's key in the trace: type|field=value|… (fields sorted).  Remembered by content
    (facts recur from board to board)."""
    for v in d.values():
        if type(v) is not str:               # 1, 1.0 and True are one dict key: not cached
            return d["t"] + "|" + "|".join(f"{k}={d[k]}" for k in sorted(d) if k != "t")
    c = tuple(d.items())
    key = _KEYS.get(c)
    if key is not None:
        return key
    if len(_KEYS) > 200_000:
        _KEYS.clear()
    key = _KEYS[c] = d["t"] + "|" + "|".join(f"{k}={d[k]}" for k in sorted(d) if k != "t")
    return key


def _fact_dict(fact):
    """A matched experta fact as a fact dict (None for experta's InitialFact)."""
    d = {k: v for k, v in fact.items() if k != "__factid__"}
    return d if "t" in d else None


@dataclass(slots=True)
class Firing:
    n: int
    rule: str                 # the KB rule that fired (a family rule for table rows)
    report: str               # what is reported: the rule itself or the table row it matched
    name: str
    kind: str
    reading: str
    valence: str
    bindings: dict
    _pf: object               # the facts the firing matched (fact keys: `premises`, worked out on use)
    new: list                 # the facts it asserted, as dicts (fact keys: `conclusions`)
    sources: list
    variant: str | None = None
    about: list = field(default_factory=list)
    # the sequences below are an empty tuple until something is put in them (most firings have
    # none): a few hundred firings a board then make fewer objects for the collector to scan
    aspects: list | tuple = ()
    defeated_by: list | tuple = ()   # firing numbers
    interpretation: dict | None = None
    calc: list | tuple = ()          # arithmetic done by `then`, e.g. "9 × 4 = 36"
    internal: bool = False     # a helper the compiler made for a negation (in the trace, not in `fired`)
    routes: list | tuple = ()        # other firings reaching this same judgment
    repeat_of: int | None = None   # set on those others: the firing that stands for them in `fired`
    about_at: list | None = None   # for each branch of `about`, the position it stands at (or None)
    slot: int = -1                 # where the judgment stands in `fired`: its first route's number

    _keys: tuple | None = None     # (premises, conclusions), worked out by the recorder on first use
    # the recorder, by a weak reference: a strong one would make each board's firings a cycle,
    # left for the garbage collector (whose collections then cost more than judging)
    _rec: object = None

    @property
    def defeated(self):
        return bool(self.defeated_by)

    @property
    def premises(self):
        """Keys of the facts the firing matched (sorted)."""
        if self._keys is None:
            self._materialize()
        return self._keys[0]

    @property
    def conclusions(self):
        """Keys of the facts it asserted (the 判 of a judgment included)."""
        if self._keys is None:
            self._materialize()
        return self._keys[1]

    def _materialize(self):
        rec = self._rec() if self._rec is not None else None
        if rec is not None:
            rec.materialize()
        if self._keys is None:              # kept after its judgment was dropped: on its own
            premises = [fact_key(d) for d in map(_fact_dict, self._pf) if d is not None]
            self._keys = (sorted(premises), [fact_key(d) for d in self.new])

    def to_dict(self, result=None, lang="zh"):
        label = None
        if lang != "zh" and result is not None:
            e = result.kb.entries.get(self.report)
            label = label_of(e.meta, lang) if e is not None else None
        d = {"rule": self.report, "name": label or self.name, **({"name_zh": self.name} if label else {}),
             "kind": self.kind, "reading": self.reading,
             "valence": self.valence, "defeated": self.defeated,
             "bindings": {k.lstrip("$"): v for k, v in self.bindings.items()},
             "sources": [{k: s[k] for k in ("seed", "para", "book", "volume") if s.get(k) is not None}
                         for s in self.sources],
             "about": self.about, "aspects": list(self.aspects), "routes": 1 + len(self.routes)}
        if self.calc:
            d["calc"] = list(self.calc)
        if self.rule != self.report:
            d["family"] = self.rule
        if self.variant:
            d["variant"] = self.variant
        if self.defeated_by and result is not None:
            d["defeated_by"] = [result.firings[i].report for i in self.defeated_by]
        return d




def _route_key(f):
    """A firing's bindings as a canonical key (variables by name, values by their text)."""
    return tuple((k, v if type(v) is str else repr(v)) for k, v in f.bindings.items())


def _kb_name(kb):
    """The KB as a trace names it: "kb" for the installed one, else its folder's name (never a path
    on the machine that judged)."""
    from liuren.knowledge.kbload import packaged_kb_dir
    return "kb" if kb.root.resolve() == packaged_kb_dir().resolve() else kb.root.name


def _sources(kb, entry):
    """An entry's sources with book and volume (cached per KB and entry)."""
    cache = kb.__dict__.setdefault("_sources_cache", {})
    out = cache.get(entry.id)
    if out is None:
        out = cache[entry.id] = []
        for s in entry.source:
            book, vol = kb.book_of(s)
            out.append({**dict(s), "book": book, "volume": vol})
    return out


class Recorder:
    """Collects firings while the engine runs (BoardEngine.run_board calls on_fire)."""

    def __init__(self, kb, consumed=None, engine=None):
        self.kb = kb
        self.consumed = consumed            # ids whose 判 some rule reads (None: all)
        # the table facts stay in the engine from board to board: their keys are kept there
        self._static = engine.__dict__.setdefault("_static_keys", {}) if engine is not None else {}
        self._baseline = engine.baseline if engine is not None else -1
        self.firings: list[Firing] = []
        self.facts: dict[str, dict] = {}       # key -> fact dict (premises and conclusions)
        self.origin: dict[str, int] = {}       # derived fact key -> first firing that asserted it
        self._by_id: dict[int, str] = {}       # experta fact id -> key (ids are not reused within a run)
        self._done = True
        self._ref = weakref.ref(self)

    def on_fire(self, cr, act):
        bindings, report, meta, new, calc = self.conclude(cr, act)
        rule = cr.rule
        n = len(self.firings)
        self._done = False
        about_at = None
        if rule.about:
            about, about_at = [], []
            for a in rule.about:
                if isinstance(a, dict):             # {支: $b, 位: $p}: the branch as it stands at $p
                    x, at = _resolve(a.get("支"), bindings), _resolve(a.get("位"), bindings)
                else:
                    x, at = _resolve(a, bindings), None
                if is_branch(x):
                    about.append(x)
                    about_at.append(at if at in PLATE_OF_POSITION else None)
            if not any(about_at):
                about_at = None
        else:
            about = list(dict.fromkeys(v for v in bindings.values() if type(v) is str and v in _BRANCHES))
        self.firings.append(Firing(
            n, rule.id, report, meta.name, meta.kind, meta.reading, meta.valence, bindings, act.facts,
            new, meta.sources, cr.variant, about, (), (), meta.interpretation, calc, cr.internal,
            about_at=about_at, _rec=self._ref))
        return new

    def conclude(self, cr, act):
        """What a firing binds, reports and asserts: (bindings, the id reported, its _Meta, the
        fact dicts to assert, the calculations made)."""
        ctx = act.context
        order = cr.__dict__.get("order")
        if order is None:                   # the rule's variables by name: a stable order in JSON
            order = cr.order = sorted(((name, py) for name, py in cr.varmap.items() if "~" not in name))
            cr.then_plan = _then_plan(cr.then)
            cr.calculates = any(how == 2 for _, fields in cr.then_plan for _, how, _ in fields)
        bindings = {name: ctx[py] for name, py in order if py in ctx}
        rule = cr.rule
        report = bindings.get(rule.as_var) if rule.as_var else rule.id
        meta = self._meta(cr, report)
        calc = [] if cr.calculates else ()
        plan = cr.then_plan
        new = []
        for t, fields in plan:
            d = {"t": t}
            for f, how, v in fields:
                if how == 0:                    # a literal
                    d[f] = v
                elif how == 1:                  # a $variable
                    d[f] = bindings.get(v)
                else:                           # a calculation
                    d[f] = _resolve(v, bindings, calc)
            new.append(d)
        if meta.judged:
            new.append(dict(meta.judged))
        return bindings, report, meta, new, calc

    def materialize(self):
        """The fact keys of every firing's premises and conclusions, and the facts behind them
        (`facts`, `origin`): worked out when the trace or a chain needs them, not while the
        rules fire."""
        if self._done:
            return
        seen, static, baseline = self._by_id, self._static, self._baseline
        facts, origin = self.facts, self.origin
        for f in self.firings:
            if f._keys is not None:
                continue
            premises = []
            for x in f._pf:
                fid = x["__factid__"]
                key = seen.get(fid)
                if key is None:
                    if fid < baseline and fid in static:
                        key, d = static[fid]
                    else:
                        d = _fact_dict(x)
                        if d is None:
                            continue
                        key = fact_key(d)
                        if fid < baseline:
                            static[fid] = (key, d)
                    seen[fid] = key
                    facts.setdefault(key, d)
                premises.append(key)
            premises.sort()
            conclusions = []
            for d in f.new:
                key = fact_key(d)
                facts.setdefault(key, d)
                origin.setdefault(key, f.n)
                conclusions.append(key)
            f._keys = (premises, conclusions)
        self._done = True

    def _meta(self, cr, report):
        """What a firing of cr reporting `report` says that does not depend on the board (its
        name, kind, reading, valence, sources, interpretation, and the 判 fact it asserts):
        worked out once per (rule, report)."""
        mine = cr.__dict__.get("metas")
        if mine is None:
            mine = cr.metas = {}
        m = mine.get((report, self.consumed))
        if m is not None:
            return m
        cache = self.kb.__dict__.setdefault("_firing_meta", {})
        key = (cr.index, cr.variant, report, self.consumed)
        m = cache.get(key)
        if m is None:
            rule, entry = cr.rule, cr.rule
            if rule.as_var:
                entry = self.kb.rows.get(report) or self.kb.rules.get(report) or rule
            kind = entry.kind if entry is not rule and entry.kind in JUDGMENT_KINDS else rule.kind
            judged = None
            if kind in JUDGMENT_KINDS and (self.consumed is None or report in self.consumed):
                judged = {"t": "判", "規": report, "名": entry.name, "類": kind}
            m = cache[key] = _Meta(
                name=entry.name, kind=kind, reading=entry.reading or rule.reading,
                valence=entry.valence or rule.valence,
                sources=_sources(self.kb, entry) or _sources(self.kb, rule),
                interpretation=entry.interpretation or _table_meta(self.kb, entry, "interpretation")
                or rule.interpretation, judged=judged)
        mine[(report, self.consumed)] = m
        return m


@dataclass
class _Meta:
    name: str
    kind: str
    reading: str
    valence: str
    sources: list
    interpretation: dict | None
    judged: dict | None


_BRANCHES = frozenset(BRANCHES)


def _then_plan(then):
    """A rule's `then` as (type, [(field, how, value)]): how 0 a literal, 1 a $variable, 2 a
    calculation (left to _resolve)."""
    out = []
    for t, fields in then:
        plan = []
        for f, v in fields.items():
            if isinstance(v, str) and VAR_RE.match(v):
                plan.append((f, 1, v))
            elif isinstance(v, dict):
                plan.append((f, 2, v))
            else:
                plan.append((f, 0, v))
        out.append((t, plan))
    return out


def _table_meta(kb, entry, key):
    """A table row inherits what its table says (e.g. an interpretation common to all rows)."""
    t = kb.tables.get(getattr(entry, "table", None) or "")
    return t.meta.get(key) if t is not None else None


def _resolve(v, bindings, calc=None):
    """A `then` value: a literal, a bound $variable, or a calculation {op: [args]} whose
    arithmetic is written down in `calc` (shown in the trace)."""
    if isinstance(v, str) and VAR_RE.match(v):
        return bindings.get(v)
    if isinstance(v, dict):
        (op, args), = v.items()
        vals = [_resolve(a, bindings, calc) for a in args]
        if op == "neg":
            out = -vals[0]
        elif op == "add":
            out = sum(vals)
        elif op == "sub":
            out = vals[0] - sum(vals[1:])
        elif op == "mul":
            out = 1
            for x in vals:
                out *= x
        else:  # div
            out = vals[0]
            for x in vals[1:]:
                out = out / x
        if isinstance(out, float) and out.is_integer():
            out = int(out)                  # 9 × 4 × 0.5 = 18, not 18.0
        if calc is not None:
            sym = CALC_OPS[op]
            calc.append((f"{sym}{vals[0]}" if op == "neg" else f" {sym} ".join(str(x) for x in vals)) + f" = {out}")
        return out
    return v


class Judgment:
    """The result of judging one board."""

    def __init__(self, board, kb, recorder, wm, question=None, variants=None):
        self.board = board
        self.kb = kb
        self.question = question
        self.asked = question           # the question as the user named it (an alias, maybe)
        self.variants = dict(variants or {})
        self.firings = recorder.firings
        self._wm_facts = wm                 # board and derived facts at the end (dicts or Facts)
        self._wm = None
        self._recorder = recorder
        self._defeats(recorder)
        self._routes()
        self._aspects()
        self._g = None

    @property
    def wm(self):
        """The board's facts and every fact derived from them, as dicts (in order)."""
        if self._wm is None:
            self._wm = [{k: v for k, v in f.items() if k != "__factid__"} for f in self._wm_facts]
        return self._wm

    @property
    def facts(self):
        """key -> fact dict of every premise and conclusion of the firings."""
        self._recorder.materialize()
        return self._recorder.facts

    @property
    def graph(self):
        """The trace (networkx DiGraph), built on first use."""
        if self._g is None:
            self._g = self._graph(self._recorder)
        return self._g

    # ---- assembly
    def _defeats(self, rec):
        """Each 不實 a 總則 asserted defeats the judgments it names (the first firing that
        asserted it stands as the defeater)."""
        by_report = {}
        for f in self.firings:
            by_report.setdefault(f.report, []).append(f)
        first = {}
        for f in self.firings:
            for d in f.new:
                if d["t"] == "不實":
                    first.setdefault(tuple(sorted(d.items())), (f.n, d))
        for src, d in first.values():
            for f in by_report.get(d.get("規"), []):
                if src not in f.defeated_by:
                    f.defeated_by = [*f.defeated_by, src]

    def _routes(self):
        """A rule can reach the same judgment twice: two branches of an `any:` both hold (the
        same bindings), or a symmetric pair is matched from both ends (子 at 干上 刑 卯 at 支上,
        and 卯 刑 子: the same values in swapped roles).  That is one judgment with two routes:
        the first firing stands for it in `fired`, the others are listed in its `routes` (all
        stay in the trace, each with its own premises)."""
        groups = {}
        for f in self.firings:
            if f.internal:
                continue
            vals = f.bindings.values()
            if all(type(v) is str for v in vals):      # the common case: the values themselves
                key = (f.rule, f.report, 0, tuple(sorted(vals)))
            else:
                key = (f.rule, f.report, 1, tuple(sorted(repr(v) for v in vals)))
            groups.setdefault(key, []).append(f)
        # The route that stands for the judgment is chosen by its bindings, not by which fired first:
        # the agenda's order of equal activations may differ with what the process judged before
        # (and with the hash seed), and the same board must give the same bytes.
        for fs in groups.values():
            rep = fs[0] if len(fs) == 1 else min(fs, key=_route_key)
            rep.slot = fs[0].n
            for f in fs:
                if f is not rep:
                    f.repeat_of = rep.n
                    rep.routes = [*rep.routes, f.n]

    def _aspects(self):
        # the 煞 of each branch; a 天將 (據 將) belongs to the 天盤 branch it rides, so it is left
        # out where the branch is a 地盤 place (所臨, or a branch seen at 日干 日支 占時 …)
        sha, earth = {}, {}
        for d in self._wm_facts:
            if d["t"] == "煞" and d.get("支") in _BRANCHES:
                for m in (sha, earth) if d.get("據") != "將" else (sha,):
                    m.setdefault(d["支"], [])
                    if d["煞"] not in m[d["支"]]:
                        m[d["支"]].append(d["煞"])
        b = self.board
        generals = b.generals
        seen = {}                           # (branch, position) -> its aspects: many firings share them
        for f in self.firings:
            if f.kind == "起例" or not f.about:
                continue
            out = []
            for x, at in zip(f.about, f.about_at or (None,) * len(f.about)):
                a = seen.get((x, at))
                if a is None:
                    a = seen[(x, at)] = _aspect(b, x, at, sha, earth, generals)
                out.append(a)
            f.aspects = out

    @property
    def fired(self):
        """Every judgment a KB rule made, once each (placements included; the compiler's helpers
        left out; a second route to the same judgment is in the first one's `routes`)."""
        return sorted((f for f in self.firings if not f.internal and f.repeat_of is None),
                      key=lambda f: f.slot if f.slot >= 0 else f.n)

    def judgments(self, include_placements=False):
        return [f for f in self.fired if include_placements or f.kind != "起例"]

    def fired_ids(self):
        """Ids of every rule that fired and every table row reported by a family rule."""
        return {f.report for f in self.fired} | {f.rule for f in self.fired}

    def by_kind(self, include_placements=False):
        out = {}
        for f in self.judgments(include_placements):
            out.setdefault(f.kind, []).append(f)
        return {k: out[k] for k in KIND_ORDER if k in out}

    # ---- trace
    def _graph(self, rec):
        import networkx as nx               # only when a trace is asked for (it is slow to import)
        return self._build(nx.DiGraph(**self._graph_attrs()), rec)

    def chain_graph(self, key):
        """The part of the trace that explain.chain.how(g, key) and explain.whynot.why_not read,
        without networkx (a TraceGraph): the firings reporting `key`, the firings that first
        asserted their premises (and so on back), the firings that defeat them (with theirs),
        every fact node (in the order the whole trace has them: why_not reads them all) and
        the casting steps.  how() and why_not() give the same report from it as from `graph`
        (tests/test_views_build_what_they_need.py)."""
        rec = self._recorder
        rec.materialize()
        firings, origin = self.firings, rec.origin
        keep, stack = set(), [f for f in firings if key in (f.report, f.rule)]
        while stack:
            f = stack.pop()
            if f.n in keep:
                continue
            keep.add(f.n)
            for p in f.premises:
                o = origin.get(p)
                if o is not None and o not in keep:
                    stack.append(firings[o])
            stack.extend(firings[d] for d in f.defeated_by if d not in keep)
        return self._build(TraceGraph(**self._graph_attrs()), rec, keep)

    def _graph_attrs(self):
        return dict(kind="liuren-trace", day=self.board.day, jiang=self.board.jiang, hour=self.board.hour,
                    daytime=self.board.daytime, kb=_kb_name(self.kb), question=self.question or "",
                    variants=dict(self.variants), board=self.board.to_dict())

    def _build(self, g, rec, keep=None):
        """The trace into graph g: every fact node and casting step, and the firings numbered in
        `keep` (None: all) with their edges."""
        rec.materialize()
        texts = FactText(self.kb)
        board_keys = set()
        for d in board_facts(self.board, self.question):
            key = fact_key(d)
            board_keys.add(key)
            g.add_node("fact:" + key, kind="fact", type=d["t"], fields=_plain(d), origin="board", text=texts(d))
        prev = None
        for i, s in enumerate(self.board.transmissions.steps):
            node = f"cast:{i}"
            g.add_node(node, kind="cast", order=i, text=s.text, key=s.key, args=s.to_dict()["args"], verse=s.verse, book=s.book, volume=s.volume,
                       seed=s.seed, para=s.para, rule=s.rule,
                       name=(self.kb.verses.get(s.rule) or {}).get("name", "起課"))
            if prev:
                g.add_edge(prev, node, role="next")
            prev = node
        t = self.board.transmissions
        chuan = fact_key({"t": "傳", "初": t.branches[0], "中": t.branches[1], "末": t.branches[2],
                          "門": t.gate, "體": t.subtype})
        if prev:
            g.add_edge(prev, "fact:" + chuan, role="derives")
        for f in self.firings:
            node = f"firing:{f.n}"
            kept = keep is None or f.n in keep
            if kept:
                g.add_node(node, kind="firing", n=f.n, rule=f.rule, report=f.report, name=f.name, rule_kind=f.kind,
                           reading=f.reading, valence=f.valence,
                           bindings={k.lstrip("$"): v for k, v in f.bindings.items()},
                           sources=[_plain(s) for s in f.sources], interpretation=_plain(f.interpretation or {}),
                           variant=f.variant or "", about=list(f.about), aspects=list(f.aspects),
                           defeated=f.defeated, calc=list(f.calc), labels=_labels(self.kb, f.report),
                           repeat_of=-1 if f.repeat_of is None else f.repeat_of)
            for key in f.premises:
                fn = "fact:" + key
                if fn not in g:
                    d = rec.facts[key]
                    origin = "table" if d["t"] in self.kb.tables else "derived"
                    g.add_node(fn, kind="fact", type=d["t"], fields=_plain(d), origin=origin, text=texts(d))
                if kept:
                    g.add_edge(fn, node, role="premise")
            for key in f.conclusions:
                fn = "fact:" + key
                if fn not in g:
                    d = rec.facts[key]
                    g.add_node(fn, kind="fact", type=d["t"], fields=_plain(d), origin="derived", text=texts(d))
                if kept:
                    g.add_edge(node, fn, role="conclusion")
        for f in self.firings:
            if keep is None or f.n in keep:
                for src in f.defeated_by:
                    g.add_edge(f"firing:{src}", f"firing:{f.n}", role="defeats")
        g.graph["imagery"] = self._imagery()
        return g

    def _imagery(self):
        """類相 of the branches and generals the judgments are about (from the KB's 類相 tables)."""
        wanted = set()
        for f in self.firings:
            if f.kind != "起例":
                for a in f.aspects:
                    wanted.add(a["branch"])
                    wanted.add(a["rides"])
        out = {}
        for t in self.kb.tables.values():
            if t.kind != "類相":
                continue
            for d in t.facts():
                if not d.get("象"):
                    continue
                for key in {d.get("支"), d.get("干"), d.get("將")} & wanted:
                    item = {"門": d.get("門", t.name), "象": d["象"], "table": t.id}
                    if item not in out.setdefault(key, []):
                        out[key].append(item)
        return out

    def findings(self, keep=None):
        """Values the rules computed (fact types declared with `show:`), by heading: e.g.
        射覆所得 {五行: 金 …}, 數目, 顏色.  keep(firing): only values asserted by such firings
        (judge --book: the values of rules citing that book)."""
        texts = FactText(self.kb)
        out = {}
        for f in self.firings:
            if keep is not None and not keep(f):
                continue
            for d in f.new:
                decl = self.kb.declared.get(d["t"])
                if decl and decl.get("show"):
                    line = texts(d)
                    if line not in out.setdefault(decl["show"], []):
                        out[decl["show"]].append(line)
        return {k: v for k, v in out.items() if v}

    # ---- output
    def _repr_html_(self):
        """A notebook shows the board and the judgments as the web page does (explain/templates)."""
        from liuren.display import html
        return html(self)

    def to_dict(self, lang="zh"):
        return {"board": self.board.to_dict(),
                "question": self.question,
                **({"question_asked": self.asked} if self.asked != self.question else {}),
                **({"lang": lang} if lang != "zh" else {}),
                "findings": self.findings(),
                "fired": [f.to_dict(self, lang) for f in self.fired],
                "trace": _node_link(self.graph)}


def _labels(kb, report):
    """The names in other languages of what a firing reports (labels: {ja: …})."""
    e = kb.entries.get(report)
    return dict(e.meta.get("labels") or {}) if e is not None else {}


def _aspect(board, x, at, sha, earth, generals=None):
    """所乘 / 所屬 / 所臨 of a branch a judgment is about.  A 天盤 branch (the default, and any
    branch seen at a 天盤 position): the general riding it, its 煞, the 地盤 position it sits on
    and that position's 煞.  A branch seen at a 地盤 position (日干's 寄宮, 日支, 占時, 本命 …) is
    that place itself: the general there is the one riding the 天盤 branch over it (`over`), and
    it sits on nothing.  (A general seen at a 地盤 position is about the 天盤 branch over it.)"""
    generals = generals or board.generals
    if at is not None and PLATE_OF_POSITION.get(at) == "地" and board.positions().get(at) == x:
        t = board.over(x)
        return {"branch": x, "at": at, "plate": "地", "over": t, "rides": generals[t],
                "belongs": earth.get(x, []), "sits_on": None, "sits_on_sha": []}
    d = {"branch": x, "rides": generals[x], "belongs": sha.get(x, []),
         "sits_on": board.under(x), "sits_on_sha": earth.get(board.under(x), [])}
    if at is not None:
        d.update(at=at, plate="天")
    return d


def judge(x, *, kb=None, variants=None, question=None, timeout=None):
    """Judge a Board, or a dict of cast() keyword arguments (which may also carry question,
    variants and kb).  timeout: seconds the rules may run (JudgmentTimeout past them; the
    network is reset by the next board as after any run)."""
    if isinstance(x, Board):
        board = x
    elif isinstance(x, dict):
        kw = dict(x)
        question = kw.pop("question", question)
        variants = kw.pop("variants", variants)
        kb = kw.pop("kb", kb)
        moment = kw.pop("moment", None)
        board = cast(moment, kb=kb, **kw)
    else:
        raise InputError("judge() takes a Board or a dict of cast() keyword arguments")
    kbobj = load_kb(str(kb) if kb else None)
    asked = question
    question = kbobj.question_aliases.get(question, question)     # 占犬吠 is asked as 占狗叫
    if question is not None and question not in kbobj.questions:
        names = sorted(set(kbobj.questions) | set(kbobj.question_aliases))
        near = difflib.get_close_matches(question, names, n=3, cutoff=0.3)
        raise InputError(f"unknown question {question!r}" + (f" (did you mean {'、'.join(near)}?)" if near else "")
                         + " — liuren questions lists them")
    eng = engine_for(kb, variants, question)
    rec = Recorder(eng.kb, eng.judged_consumed, eng)
    on_fire = rec.on_fire if timeout is None else _bounded(rec.on_fire, timeout)
    # The cyclic collector stays paused until the network has let go of this board: its
    # thousands of tokens are then freed by reference counting, instead of being scanned by the
    # collection that their allocation would otherwise trigger on the way out.
    gc_on = gc.isenabled()
    gc.disable()
    try:
        eng.run_board(board_facts(board, question), on_fire, keep=False)
        wm = eng.board_fact_objects()
        eng.reset_board()
    finally:
        if gc_on:
            gc.enable()
    out = Judgment(board, eng.kb, rec, wm, question=question, variants=variants)
    out.asked = asked
    return out


def _bounded(on_fire, timeout):
    """on_fire, refusing to go on once `timeout` seconds have passed since the run began."""
    import time
    from liuren.errors import JudgmentTimeout
    deadline = time.monotonic() + timeout

    def bounded(cr, act):
        if time.monotonic() > deadline:
            raise JudgmentTimeout(f"the judgment ran longer than {timeout:g} s and was stopped")
        return on_fire(cr, act)
    return bounded
