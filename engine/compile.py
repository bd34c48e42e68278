"""Compiling the KB into one experta KnowledgeEngine (once per process and variant choice).

A KB rule's `when` becomes experta patterns: a fact pattern {type: {field: value}} becomes
Fact(t=type, field=…); `$x` a MATCH variable; a list "one of"; {not: v} "not equal";
all/any/not become AND/OR/NOT; relation macros (kb/core/macros.yaml) are expanded first.
Every KB table becomes static facts that stay in working memory across boards; per board the
engine retracts what the previous board declared and derived (see BoardEngine.reset_board).
"""
from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field

from . import _compat  # noqa: F401
from experta import AND, NOT, OR, TEST, Fact, KnowledgeEngine, L, MATCH, P, Rule  # noqa: E402
from experta.agenda import Agenda  # noqa: E402
from experta.factlist import FactList  # noqa: E402

from .errors import KBError, RunawayError  # noqa: E402
from .kbload import VAR_RE, then_facts  # noqa: E402
from .rete import dirty_conflict_sets, fast_tokens, index_joins, restore, route_bus, snapshot  # noqa: E402

JUDGMENT_KINDS = ("格", "神煞", "斷", "總則", "類相", "占驗")
TEST_FUNCS = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
              "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
              "in": lambda a, b: a in b, "notin": lambda a, b: a not in b}


_FACT_CLASSES = {}


def fact_class(t):
    """One experta Fact subclass per fact type: the RETE network's first test is then the
    type, and the bus can hand each fact straight to its type's sub-network (rete.route_bus)."""
    cls = _FACT_CLASSES.get(t)
    if cls is None:
        cls = _FACT_CLASSES[t] = type(f"Fact_{len(_FACT_CLASSES)}", (Fact,), {"fact_type": t})
    return cls


def make_fact(d):
    return fact_class(d["t"])(**d)


@dataclass
class CompiledRule:
    index: int
    rule: object                    # kbload.Rule
    when: object                    # the condition actually used (variant applied)
    then: list                      # [(type, fields)]
    variant: str | None
    varmap: dict = field(default_factory=dict)     # "$x" -> python identifier
    cond: object = None             # the macro-expanded condition tree

    @property
    def id(self):
        return self.rule.id


def expand_macros(cond, macros, counter):
    """Replace macro items by their patterns, with the macro's own variables renamed apart."""
    if isinstance(cond, list):
        return [expand_macros(c, macros, counter) for c in cond]
    (k, v), = cond.items()
    if k in ("all", "any"):
        return {k: [expand_macros(c, macros, counter) for c in v]}
    if k == "not":
        return {"not": expand_macros(v, macros, counter)}
    if k == "test":
        return cond
    if k in macros:
        m = macros[k]
        n = next(counter)
        binding = dict(zip(("$" + p for p in m["params"]), v))
        out = []
        for item in m["expands"]:
            (t, fields), = item.items()
            nf = {}
            for f, val in fields.items():
                if isinstance(val, str) and VAR_RE.match(val):
                    nf[f] = binding.get(val, f"{val}~m{n}")
                else:
                    nf[f] = val
            out.append({t: nf})
        return {"all": out, "macro": {"name": k, "args": v}}
    return cond


class Compiler:
    def __init__(self, kb, variants=None):
        self.kb = kb
        self.variants = dict(variants or {})
        self.counter = itertools.count()

    def variant_of(self, entry):
        ids = {v["id"] for v in entry.variants if isinstance(v, dict)}
        choice = self.variants.get(entry.id) or self.variants.get("*")
        return choice if choice in ids else None

    def compile(self):
        compiled = []
        attrs = {}
        for i, rule in enumerate(r for r in self.kb.rules.values() if r.meta.get("effect") is None or r.when):
            variant = self.variant_of(rule)
            when, then = rule.when, rule.then
            if variant:
                v = next(v for v in rule.variants if v["id"] == variant)
                when = v.get("when", when)
                then = v.get("then", then)
            cr = CompiledRule(index=i, rule=rule, when=when, then=then_facts(then), variant=variant)
            cr.cond = expand_macros(when, self.kb.macros, self.counter)
            ce = self._ce(cr.cond, cr)
            ces = ce if isinstance(ce, list) else [ce]

            def rhs(self, **kw):  # never called: BoardEngine.run_board fires activations itself
                raise AssertionError("rules fire through BoardEngine._fire")
            rhs.compiled = cr
            rhs.__name__ = f"r{i}_{rule.id}"
            attrs[rhs.__name__] = Rule(*ces, salience=int(rule.meta.get("salience", 0) or 0))(rhs)
            compiled.append(cr)
        cls = type("LiurenEngine", (BoardEngine,), attrs)
        static = []
        for t in self.kb.tables.values():
            rowvar = {r.id: self.variant_of(r) for r in t.rows if r.id}
            for f in t.facts({k: v for k, v in rowvar.items() if v}):
                static.append({"t": t.fact_type, **f})
        return cls, compiled, static

    # ---- conditions
    def _var(self, name, cr):
        if name not in cr.varmap:      # unique per rule, so that no two rules share a binding test
            cr.varmap[name] = f"r{cr.index}v{len(cr.varmap)}"
        return getattr(MATCH, cr.varmap[name])

    def _value(self, v, cr):
        if isinstance(v, str) and VAR_RE.match(v):
            return self._var(v, cr)
        if isinstance(v, list):
            s = frozenset(v)
            return P(lambda x, s=s: x in s)
        if isinstance(v, dict):
            inner = v["not"]
            if isinstance(inner, str) and VAR_RE.match(inner):
                return ~self._var(inner, cr)
            if isinstance(inner, list):
                s = frozenset(inner)
                return P(lambda x, s=s: x not in s)
            return ~L(inner)
        return v

    def _test(self, v, cr):
        """{op: [a, b]} -> experta TEST over the bound variables it names."""
        (op, (a, b)), = v.items()
        fn = TEST_FUNCS[op]
        names = []

        def arg(x):
            if isinstance(x, str) and VAR_RE.match(x):
                self._var(x, cr)
                names.append(cr.varmap[x])
                return ("var", cr.varmap[x])
            return ("lit", x)
        ga, gb = arg(a), arg(b)
        params = sorted(set(names))

        def check(**kw):
            va = kw[ga[1]] if ga[0] == "var" else ga[1]
            vb = kw[gb[1]] if gb[0] == "var" else gb[1]
            try:
                return bool(fn(va, vb))
            except TypeError:
                return False
        # experta passes a TEST only the context keys its parameters name
        src = f"lambda {', '.join(params)}: _check({', '.join(p + '=' + p for p in params)})"
        return TEST(eval(src, {"_check": check}))

    def _ce(self, cond, cr):
        if isinstance(cond, list):
            parts = [self._ce(c, cr) for c in cond]
            return [p for part in parts for p in (part if isinstance(part, list) else [part])]
        keys = [k for k in cond if k != "macro"]
        k = keys[0]
        v = cond[k]
        if k == "all":
            parts = self._ce(v, cr)
            return parts if isinstance(parts, list) else [parts]
        if k == "any":
            branches = []
            for c in v:
                p = self._ce(c, cr)
                branches.append(AND(*p) if isinstance(p, list) and len(p) > 1 else (p[0] if isinstance(p, list) else p))
            return OR(*branches)
        if k == "not":
            p = self._ce(v, cr)
            return NOT(AND(*p) if isinstance(p, list) and len(p) > 1 else (p[0] if isinstance(p, list) else p))
        if k == "test":
            return self._test(v, cr)
        fields = {f: self._value(val, cr) for f, val in v.items()}
        return fact_class(k)(**fields)


class BoardEngine(KnowledgeEngine):
    """experta's engine with a per-board reset that keeps the static table facts, and a run loop
    that records every firing (rule, matched facts, bindings, asserted facts) for the trace."""

    compiled: list = []
    limit = 20000

    def load_static(self, static, indexed=True):
        self.reset()
        self.running = True
        if indexed:
            fast_tokens()
            route_bus(self.matcher.root_node)
            index_joins(self.matcher.root_node)
            dirty_conflict_sets(self.matcher)
        facts = [make_fact(d) for d in static]
        self.declare(*facts)
        self.running = False
        added, _ = self.get_activations()   # push the static facts through the network once
        if added:
            names = sorted({a.rule._wrapped.compiled.id for a in added})
            raise KBError(names and self.compiled[0].rule.file or "", 0,
                          f"rule(s) {', '.join(names)} match table facts only: give each a board fact to wait for")
        self.agenda = Agenda()
        self.baseline = self.facts.last_index
        self.static_count = len(static)
        self._static_facts = (dict(self.facts), Counter(self.facts.reference_counter))
        self._snapshot = snapshot(self.matcher.root_node)

    def reset_board(self):
        """Back to the static facts: the working memory and every node's memory as they were
        right after the tables were loaded (the previous board and all it derived are gone)."""
        facts, refs = self._static_facts
        fl = FactList()
        fl.update(facts)
        fl.last_index = self.baseline
        fl.reference_counter = Counter(refs)
        self.facts = fl
        restore(self._snapshot)
        self.agenda = Agenda()

    def run_board(self, board_facts, on_fire):
        """Declare the board's facts, run to quiescence; on_fire(compiled, activation, new_facts)
        records each firing and returns the fact dicts to assert."""
        self.reset_board()
        self.running = True
        try:
            self.declare(*(make_fact(d) for d in board_facts))
            firings = 0
            counts = {}
            while True:
                added, removed = self.get_activations()
                self.strategy.update_agenda(self.agenda, added, removed)
                act = self.agenda.get_next()
                if act is None:
                    break
                firings += 1
                cr = act.rule._wrapped.compiled
                counts[cr.id] = counts.get(cr.id, 0) + 1
                if firings > self.limit:
                    top = sorted(counts.items(), key=lambda kv: -kv[1])[:5]
                    raise RunawayError(
                        f"more than {self.limit} firings on one board: the KB loops; most fired: "
                        + ", ".join(f"{k} ×{n}" for k, n in top))
                new = on_fire(cr, act)
                if new:
                    self.declare(*(make_fact(d) for d in new))
        finally:
            self.running = False

    def board_facts_now(self):
        """Every non-static fact in working memory (board and derived), as dicts."""
        return [dict((k, v) for k, v in f.items() if k != "__factid__")
                for i, f in self.facts.items() if i >= self.baseline]


def build(kb, variants=None, indexed=True):
    try:
        cls, compiled, static = Compiler(kb, variants).compile()
    except (KeyError, TypeError, ValueError) as e:
        raise KBError(kb.root, 0, f"cannot compile the rules: {e}") from None
    eng = cls()
    eng.compiled = compiled
    eng.load_static(static, indexed)
    eng.rule_count = len(compiled)
    return eng
