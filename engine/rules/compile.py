"""Compiling the KB into one experta KnowledgeEngine (once per process and variant choice).

A KB rule's `when` becomes experta patterns: a fact pattern {type: {field: value}} becomes
Fact(t=type, field=…); `$x` a MATCH variable; a list "one of"; {not: v} "not equal";
all/any/not become AND/OR/NOT; relation macros (kb/core/macros.yaml) are expanded first.
Every KB table becomes static facts that stay in working memory across boards; per board the
engine retracts what the previous board declared and derived (see BoardEngine.reset_board).
The engine a board runs in (BoardEngine) is rules/runtime.py.
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field

from liuren import _compat  # noqa: F401
from experta import NOT, TEST, L, MATCH, P, Rule, W  # noqa: E402,F401

from liuren.errors import KBError  # noqa: E402
from liuren.knowledge.facts import BUILTIN_FACTS  # noqa: E402
from liuren.knowledge.conditions import VAR_RE, dnf, expand_macros, gating_questions, then_facts  # noqa: E402,F401
from liuren.knowledge.kbload import JUDGMENT_KINDS  # noqa: E402
from liuren.rules.runtime import BoardEngine, fact_class  # noqa: E402

TEST_FUNCS = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
              "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
              "in": lambda a, b: a in b, "notin": lambda a, b: a not in b}


@dataclass
class CompiledRule:
    index: int
    rule: object                    # kbload.Rule
    when: object                    # the condition actually used (variant applied)
    then: list                      # [(type, fields)]
    variant: str | None
    varmap: dict = field(default_factory=dict)     # "$x" -> python identifier
    cond: object = None             # the macro-expanded condition tree
    internal: bool = False          # a helper for a negation, not a KB rule
    helpers: list = field(default_factory=list)
    experta: list = field(default_factory=list)    # names of its experta rules (one per branch)
    negated: set = field(default_factory=set)      # fact types it negates
    positive: set = field(default_factory=set)     # fact types it matches
    stratum: int = 0

    @property
    def id(self):
        return self.rule.id


class Compiler:
    every_question = False          # keep the rules of every question (negation_cycles' union network)

    def __init__(self, kb, variants=None, question=None, only=None, declared=(), rows=None):
        self.kb = kb
        # {table id: the keys of the rows loaded (a row's id, "#i" for the i-th row without one)}:
        # a network judged only for entries the other rows' facts cannot reach (the audit works
        # out which); a table not named is loaded whole (None: every table whole)
        self.rows = {k: frozenset(v) for k, v in rows.items()} if rows else None
        self.variants = dict(variants or {})
        self.question = question
        self.only = only            # the ids of the KB rules to compile (None: all of them)
        self.declared = frozenset(declared)     # fact types declared with the board's, besides its own
        self.counter = itertools.count()

    def variant_of(self, entry):
        ids = {v["id"] for v in entry.variants if isinstance(v, dict)}
        choice = self.variants.get(entry.id) or self.variants.get("*")
        return choice if choice in ids else None

    def compile(self):
        """Every KB rule becomes one experta rule per branch of its condition in disjunctive
        form (any: splits it); each branch lists its patterns, then its tests, then its
        negations.  A negation of more than one pattern (or of a macro, or of an any:) becomes a
        helper rule asserting a hidden fact, negated as a single pattern.  Salience follows
        the strata of negation, so that a rule waits until everything it negates is settled."""
        compiled, attrs = self._rules()
        deps = self._salience(compiled, attrs)
        cls = type("LiurenEngine", (BoardEngine,), attrs)
        cls.judged_consumed = self._judged_consumers(compiled)
        # who reads what (by rule id, the compiler's helpers included): a rule's dependents
        # read what it can assert or judge (positively or under not:), a fact type's readers
        # have a pattern on it — what a change to one rule or table can reach (the audit's
        # variants are judged on that part of the network only)
        by_index = {cr.index: cr.id for cr in compiled}
        dependents, readers = {}, {}
        for cr in compiled:
            neg, pos = deps[cr.index]
            for p in set(neg) | set(pos):
                dependents.setdefault(by_index[p], set()).add(cr.id)
            for t, _ in cr.positive | cr.negated:
                readers.setdefault(t, set()).add(cr.id)
        cls.declared = self.declared
        cls.dependents = {k: sorted(v) for k, v in dependents.items()}
        cls.readers = {k: sorted(v) for k, v in readers.items()}
        static = []
        for t in self.kb.tables.values():
            if self.only is not None and t.fact_type not in readers:
                continue        # a network of some rules (kb check --examples): only the tables they read
            if self.rows is not None and t.id in self.rows:
                keep = self.rows[t.id]
                t = dataclasses.replace(t, rows=[r for i, r in enumerate(t.rows) if (r.id or f"#{i}") in keep])
            rowvar = {r.id: self.variant_of(r) for r in t.rows if r.id}
            for f in t.facts({k: v for k, v in rowvar.items() if v}):
                static.append({"t": t.fact_type, **f})
        cls.alpha_filters = self._semijoin_filters(compiled, static)
        return cls, compiled, static

    def _rules(self):
        """The KB's rules of this network compiled (CompiledRule, helpers included), and the
        experta rules made of them (attrs)."""
        compiled, attrs = [], {}
        self._n = 0
        self._branches = []                 # (pattern Facts, their (type, fields)) per experta rule
        for rule in self.kb.rules.values():
            variant = self.variant_of(rule)
            when, then = rule.when, rule.then
            if variant:
                v = next(v for v in rule.variants if v["id"] == variant)
                when = v.get("when", when)
                then = v.get("then", then)
            gate = gating_questions(when)
            if gate is not None and self.question not in gate and not self.every_question:
                continue          # this rule only speaks to other questions: not in this network
            if self.only is not None and rule.id not in self.only:
                continue
            cr = CompiledRule(index=len(compiled), rule=rule, when=when, then=then_facts(then), variant=variant)
            cr.cond = expand_macros(when, self.kb.macros, self.counter)
            compiled.append(cr)
            self._emit(cr, dnf(cr.cond), compiled, attrs)
        return compiled, attrs

    def _semijoin_filters(self, compiled, static):
        """Values a board pattern's field can take and still complete its rule: where a rule
        joins a variable of a board pattern with a column of a table (a fact type no rule asserts
        and the board never has), only the values in that column (among the rows the table
        pattern's literals admit) can ever match.  {pattern signature: [(field, values)]}; the
        alpha network (rete.route_bus) drops other facts before they reach the joins.  Sound
        whatever the board: a superset of what can join, from facts that never change.

        A pattern is known by its signature (type, its literal fields, its variable fields):
        experta rebuilds the pattern objects when it prepares a rule.  Two patterns with one
        signature (one rule's `any:` branches) get the union of their filters."""
        produced = {t for cr in compiled for t, _ in cr.then} | {"判"} | set(BUILTIN_FACTS) | self.declared
        by_type = {}
        for d in static:
            by_type.setdefault(d["t"], []).append(d)
        static_types = {t for t in by_type if t not in produced}
        column = {}                         # (type, fields, column) -> values (many rules share one)
        admitted = {}                       # (type, its literal fields) -> the rows they admit

        def values(t2, fields2, g):
            lits = repr(sorted((f, v) for f, v in fields2.items() if not _is_var(v)))
            key = (t2, lits, g)
            vals = column.get(key)
            if vals is None:
                rows = admitted.get((t2, lits))
                if rows is None:
                    rows = admitted[(t2, lits)] = [row for row in by_type[t2] if _admits(row, fields2)]
                vals = column[key] = frozenset(row[g] for row in rows if g in row)
            return vals
        filters = {}
        for facts, pos in self._branches:
            for fact, (t, fields) in zip(facts, pos):
                if t in static_types:
                    continue
                out = []
                for f, v in fields.items():
                    if not _is_var(v):
                        continue
                    allowed = None
                    for t2, fields2 in pos:
                        if t2 not in static_types:
                            continue
                        for g, w in fields2.items():
                            if w != v:
                                continue
                            vals = values(t2, fields2, g)
                            allowed = vals if allowed is None else allowed & vals
                    if allowed is not None:
                        out.append((f, frozenset(allowed)))
                sig = pattern_signature(t, fact)
                if sig in filters:            # the same pattern in another branch: the union
                    prev = dict(filters[sig])
                    out = [(f, prev[f] | vals) for f, vals in out if f in prev]
                filters[sig] = out
        return {k: v for k, v in filters.items() if v}

    def _emit(self, cr, branches, compiled, attrs):
        """One experta rule per branch, all firing as `cr`."""
        for pos, tests, nots in branches:
            ces = [fact_class(t)(**{f: self._value(v, cr) for f, v in fields.items()}) for t, fields in pos]
            self._branches.append((list(ces), pos))
            ces += [self._test(t, cr) for t in tests]
            bound = set()
            for _, fields in pos:
                bound |= {v for v in fields.values() if isinstance(v, str) and VAR_RE.match(v)}
            for x in nots:
                ces += self._negation(cr, x, pos, bound, compiled, attrs)
            cr.positive |= {_dep_key(t, fields) for t, fields in pos}

            def rhs(self, **kw):  # never called: BoardEngine.run_board fires activations itself
                raise AssertionError("rules fire through BoardEngine.run_board")
            rhs.compiled = cr
            rhs.order = self._n + 1            # its place in the KB: the agenda's last tie-break
            self._n += 1
            rhs.__name__ = f"r{self._n}_{cr.id}"
            cr.experta.append(rhs.__name__)
            attrs[rhs.__name__] = Rule(*ces)(rhs)

    def _negation(self, cr, x, outer_pos, outer_bound, compiled, attrs):
        """CEs for `not: x` inside a branch of cr."""
        xb = dnf(x)
        if len(xb) == 1 and len(xb[0][0]) == 1 and not xb[0][1] and not xb[0][2]:
            (t, fields), = xb[0][0]
            cr.negated.add(_dep_key(t, fields))
            return [NOT(fact_class(t)(**{f: self._value(v, cr) for f, v in fields.items()}))]
        if all(not b[0] and not b[2] for b in xb):
            # only tests: not (t1 and t2 …) or (t3 …) — one test per branch, negated
            return [self._test_group(b[1], cr, negate=True) for b in xb]
        # a helper rule: x's branches assert a hidden fact carrying the variables x shares with
        # the outside; the branch negates that single fact
        used = set(_vars_of(x))
        shared = sorted(used & outer_bound)
        k = len(cr.helpers)
        hid = f"{cr.id}~not{k}"
        htype = f"~{hid}"
        # the hidden fact's fields by the shared variables' names, never a key a fact already has for
        # itself (a variable $t named a field 't', which overwrote the fact's type: the helper fact of
        # 妾孕格's 「not 克 [$g, $t]」 was never one, so the negation never held)
        fields = {(v.lstrip("$") if v.lstrip("$") not in RESERVED_FIELDS else v.lstrip("$") + "_"): v
                  for v in shared}
        from liuren.knowledge.model import Rule as KBRule
        hrule = KBRule(id=hid, name=f"{cr.rule.name}（所否之條件）", kind="起例", meta={
            "source": cr.rule.source, "reading": f"「{cr.rule.name}」之否定條件在盤上成立，故彼不成。"},
            file=cr.rule.file, line=cr.rule.line, when=x, then=[{htype: fields}])
        hcr = CompiledRule(index=len(compiled), rule=hrule, when=x, then=[(htype, fields)], variant=None,
                           internal=True)
        hcr.cond = x
        compiled.append(hcr)
        cr.helpers.append(hcr)
        self.kb.fact_text.setdefault(htype, f"「{cr.rule.name}」所否之條件成立")
        hbranches = []
        for pos, tests, nots in xb:
            bound = set()
            for _, f in pos:
                bound |= {v for v in f.values() if isinstance(v, str) and VAR_RE.match(v)}
            missing = (set(_vars_of({"all": [{"test": t} for t in tests]})) | set(shared)) - bound
            extra = [p for p in outer_pos if missing & set(_vars_of({p[0]: p[1]}))]
            hbranches.append((extra + pos, tests, nots))
        self._emit(hcr, hbranches, compiled, attrs)
        cr.negated.add((htype, frozenset()))
        return [NOT(fact_class(htype)(**{f: self._value(v, cr) for f, v in fields.items()}))]

    def _negation_cycle(self, compiled, deps):
        """The error for rules that negate each other in a cycle: the cycle, rule by rule, with
        each rule's file and line."""
        import networkx as nx
        g = nx.DiGraph()
        for cr in compiled:
            neg, posd = deps[cr.index]
            for p in posd:
                if not g.has_edge(p, cr.index):
                    g.add_edge(p, cr.index, neg=False)
            for p in neg:
                g.add_edge(p, cr.index, neg=True)
        by_index = {cr.index: cr for cr in compiled}
        for scc in nx.strongly_connected_components(g):
            sub = g.subgraph(scc)
            bad = [(a, b) for a, b, d in sub.edges(data=True) if d["neg"]]
            if not bad:
                continue
            a, b = bad[0]
            path = nx.shortest_path(sub, b, a) + [b]
            steps = []
            for x, y in zip(path, path[1:]):
                r = by_index[x].rule
                steps.append(f"{r.id} ({_rel_to(self.kb.root, r.file)}:{r.line})" + (" → not " if sub.edges[x, y]["neg"] else " → "))
            last = by_index[path[-1]].rule
            return KBError(self.kb.root, 0, "the rules negate each other in a cycle (no stratification): "
                           + "".join(steps) + f"{last.id} (X → Y: Y reads what X asserts; → not: under not:)")
        return KBError(self.kb.root, 0, "the rules negate each other in a cycle (no stratification)")

    def _salience(self, compiled, attrs):
        """Strata: a rule that negates a pattern fires after every rule whose conclusions could
        match that pattern (same fact type, and no literal field that contradicts it)."""
        outputs = []          # (type, {field: literal or None}, producer)
        for cr in compiled:
            for t, fields in cr.then:
                outputs.append((t, {f: (None if _is_var(v) or isinstance(v, dict) else v)
                                    for f, v in fields.items()}, cr))
            for rid in self._reports(cr):
                outputs.append(("判", {"規": rid}, cr))
        by_type = {}
        for t, f, cr in outputs:
            by_type.setdefault(t, []).append((f, cr))

        # the judgments (判) by the id they report, for the rules that read one judgment
        judged_by = {}
        for f, cr in by_type.get("判", ()):
            judged_by.setdefault(f.get("規"), []).append((f, cr))
        memo = {}

        def sources(key):
            out = memo.get(key)
            if out is not None:
                return out
            t, cons = key
            candidates = by_type.get(t, ())
            if t == "判":
                ids = dict(cons).get("規")
                if ids is not None:         # only those reporting one of these ids (or any: None)
                    candidates = [x for i in ids for x in judged_by.get(i, ())] + judged_by.get(None, [])
            out = memo[key] = []
            for f, cr in candidates:
                if all(k in f and (f[k] is None or f[k] in allowed) for k, allowed in cons):
                    out.append(cr.index)
            out.sort()
            return out

        deps = {cr.index: ([p for k in cr.negated for p in sources(k)],
                           [p for k in cr.positive for p in sources(k)]) for cr in compiled}
        stratum = {cr.index: 0 for cr in compiled}
        for _ in range(len(compiled) + 2):
            changed = False
            for cr in compiled:
                neg, posd = deps[cr.index]
                s = max([stratum[cr.index]] + [stratum[p] + 1 for p in neg] + [stratum[p] for p in posd])
                if s != stratum[cr.index]:
                    stratum[cr.index], changed = s, True
            if not changed:
                break
        else:
            raise self._negation_cycle(compiled, deps)
        for cr in compiled:
            cr.stratum = stratum[cr.index]
            sal = -1000 * cr.stratum + int(cr.rule.meta.get("salience", 0) or 0)
            for name in cr.experta:
                attrs[name].salience = sal
        return deps

    def _reports(self, cr):
        """The ids a compiled rule can report as judgments (None: cannot be told)."""
        if cr.internal or cr.rule.kind not in JUDGMENT_KINDS and not cr.rule.as_var:
            return []
        if not cr.rule.as_var:
            return [cr.id]
        ids = set()
        for t, fields in _patterns(cr.cond):
            if fields.get("id") == cr.rule.as_var:
                ids |= {r.id for tab in self.kb.tables.values() if tab.fact_type == t for r in tab.rows if r.id}
        return sorted(ids) if ids else [None]

    def _judged_consumers(self, compiled):
        """Which ids' `判` facts some rule can match: None when any can (a pattern on 判 whose
        規 is not pinned to literals or to a table column).  The engine asserts 判 only for
        these, which spares the network a fact per judgment that nothing reads."""
        out = set()
        for cr in compiled:
            pats = list(_patterns(cr.cond))
            for t, fields in pats:
                if t != "判":
                    continue
                v = fields.get("規")
                if isinstance(v, str) and not VAR_RE.match(v):
                    out.add(v)
                elif isinstance(v, list):
                    out.update(v)
                elif isinstance(v, str):
                    cols = [(t2, f2) for t2, f2s in pats if t2 != "判" for f2, x in f2s.items() if x == v]
                    if not cols or any(t2 not in self.kb.tables for t2, _ in cols):
                        return None
                    for t2, f2 in cols:
                        for tab in self.kb.tables.values():
                            if tab.fact_type == t2:
                                out.update(f.get(f2) for f in tab.facts())
                else:
                    return None
        return frozenset(out)

    # ---- conditions
    def _var(self, name, cr):
        if name not in cr.varmap:      # named by order of first use: rules that begin alike share
            cr.varmap[name] = f"v{len(cr.varmap)}"      # those patterns and joins (rete: wire)
        return getattr(MATCH, cr.varmap[name])

    def _value(self, v, cr):
        if isinstance(v, str) and VAR_RE.match(v):
            return self._var(v, cr)
        if isinstance(v, list):
            return P(_one_of(frozenset(v), True))
        if isinstance(v, dict):
            inner = v["not"]
            if isinstance(inner, str) and VAR_RE.match(inner):
                return ~self._var(inner, cr)
            if isinstance(inner, list):
                return P(_one_of(frozenset(inner), False))
            return ~L(inner)
        return v

    def _test(self, v, cr):
        return self._test_group([v], cr)

    def _test_fn(self, v, cr):
        """{op: [a, b]} -> a function of the bound variables it names (.params)."""
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
        check.params = params      # experta passes a TEST only the context keys its parameters name
        return check

    def _test_group(self, tests, cr, negate=False):
        """One experta TEST for a conjunction of tests (negated: true unless all hold)."""
        fns = [self._test_fn(t, cr) for t in tests]
        params = sorted({p for f in fns for p in f.params})

        def check(**kw):
            ok = all(f(**kw) for f in fns)
            return not ok if negate else ok
        src = f"lambda {', '.join(params)}: _check({', '.join(p + '=' + p for p in params)})"
        return TEST(eval(src, {"_check": check}))


RESERVED_FIELDS = ("t", "id")         # a fact's own keys: its type, its row id


def _rel_to(root, path):
    import pathlib
    try:
        return str(pathlib.Path(path).relative_to(pathlib.Path(root).parent))
    except ValueError:
        return str(path)


def pattern_signature(t, fact):
    """(type, {(field, ("l", literal)) or (field, ("v", variable))}) of a compiled pattern;
    rete.route_bus computes the same from an alpha path's tests."""
    items = []
    for f, v in fact.items():
        if isinstance(v, W) and v.__bind__ is not None:
            items.append((f, ("v", v.__bind__)))
        elif isinstance(v, L) and v.__bind__ is None:
            items.append((f, ("l", v.value)))
        elif isinstance(v, (str, int, float, bool)):
            items.append((f, ("l", v)))
    return (t, frozenset(items))


_ONE_OF = {}


def _one_of(values, inside):
    """The predicate of a list constraint (inside: the value is one of them; else: none of
    them).  It says what it tests (.members, .inside), so the alpha network can inline it.
    One function per constraint, so that equal patterns of different rules are equal."""
    fn = _ONE_OF.get((values, inside))
    if fn is None:
        fn = (lambda x: x in values) if inside else (lambda x: x not in values)
        fn.members, fn.inside = values, inside
        _ONE_OF[values, inside] = fn
    return fn


def _admits(row, fields):
    """Does a table row satisfy a pattern's literal constraints (variables admit anything)?"""
    for f, v in fields.items():
        if _is_var(v):
            continue
        if f not in row:
            return False
        x = row[f]
        if isinstance(v, list):
            if x not in v:
                return False
        elif isinstance(v, dict):
            inner = v.get("not")
            if isinstance(inner, list):
                if x in inner:
                    return False
            elif not _is_var(inner) and x == inner:
                return False
        elif x != v:
            return False
    return True


def _is_var(v):
    return isinstance(v, str) and VAR_RE.match(v) is not None


def _dep_key(t, fields):
    """What a pattern depends on, for stratification: its type and its literal constraints."""
    cons = []
    for f, v in fields.items():
        if isinstance(v, list):
            cons.append((f, frozenset(v)))
        elif not isinstance(v, dict) and not _is_var(v):
            cons.append((f, frozenset([v])))
    return (t, frozenset(cons))


def _vars_of(cond):
    """Every $variable a condition mentions."""
    if isinstance(cond, list):
        for c in cond:
            yield from _vars_of(c)
    elif isinstance(cond, dict):
        for k, v in cond.items():
            if k == "macro":
                continue
            yield from _vars_of(v)
    elif isinstance(cond, str) and VAR_RE.match(cond):
        yield cond


def _patterns(cond):
    """Every (type, fields) pattern in a condition, negated ones included."""
    if isinstance(cond, list):
        for c in cond:
            yield from _patterns(c)
        return
    k = next(x for x in cond if x != "macro")
    if k in ("all", "any"):
        yield from _patterns(cond[k])
    elif k == "not":
        yield from _patterns(cond[k])
    elif k != "test":
        yield k, cond[k]


class _Dependencies(Exception):
    def __init__(self, deps):
        self.deps = deps


class _EveryQuestion(Compiler):
    """The compiler's rules and their dependencies with every question's rules kept (gates
    ignored): the dependency of one rule on another does not depend on which others are in."""
    every_question = True

    def _negation_cycle(self, compiled, deps):
        return _Dependencies(deps)          # the dependencies, cycles and all: sorted out per question

    def dependencies(self):
        compiled, attrs = self._rules()
        try:
            deps = self._salience(compiled, attrs)
        except _Dependencies as d:
            deps = d.deps
        return compiled, deps


def negation_cycles(kb, variants=None):
    """The negation cycles of the networks a question brings out (`liuren kb check`): build(kb)
    compiles the network of no question, which leaves out the rules only a question brings out
    (a `問` pattern every way through their condition), so a cycle through one of those is
    seen only when that question is asked.  Every rule is compiled once, gates ignored; each
    question's network is then the rules it keeps (those of no question and its own), and a
    cycle of rules that negate each other in it is a KBError naming the question and the
    cycle, rule by rule.  [] when every question's network can be stratified."""
    import networkx as nx
    c = _EveryQuestion(kb, variants)
    compiled, deps = c.dependencies()
    # a cycle with a negation in the network of every question at once, else none anywhere
    g = nx.DiGraph()
    for cr in compiled:
        neg, posd = deps[cr.index]
        g.add_edges_from((p, cr.index) for p in posd)
        g.add_edges_from((p, cr.index) for p in neg)
    negs = {(p, cr.index) for cr in compiled for p in deps[cr.index][0]}
    suspects = set()
    for scc in nx.strongly_connected_components(g):
        if any((a, b) in negs for a in scc for b in g.successors(a) if b in scc):
            suspects |= scc
    if not suspects:
        return []
    # the questions a compiled rule is kept under (a helper rule: those of the rule it serves)
    gates = {cr.id: gating_questions(cr.when) for cr in compiled if not cr.internal}
    gate_of = {cr.index: gates.get(cr.id.split("~not")[0]) for cr in compiled}
    questions = sorted({q for i in suspects if gate_of[i] is not None for q in gate_of[i]})
    out = []
    for q in questions:
        kept = {cr.index for cr in compiled if gate_of[cr.index] is None or q in gate_of[cr.index]}
        sub = [cr for cr in compiled if cr.index in kept]
        subdeps = {cr.index: ([p for p in deps[cr.index][0] if p in kept], [p for p in deps[cr.index][1] if p in kept])
                   for cr in sub}
        h = nx.DiGraph((p, i) for i, (neg, posd) in subdeps.items() for p in neg + posd)
        if any(any((a, b) in negs for a in scc for b in h.successors(a) if b in scc)
               for scc in nx.strongly_connected_components(h)):
            e = Compiler._negation_cycle(c, sub, subdeps)
            out.append(KBError(kb.root, 0, f"asking {q}: {e.message}"))
    return out


def build(kb, variants=None, indexed=True, question=None, only=None, declared=(), rows=None):
    """One network per (KB, variants, question): rules that can only fire for another question
    are left out, so a board judged without a question does not carry their joins.  `only`:
    the ids of the KB rules to compile (all when None); `declared`: fact types that will be
    declared with the board's own facts (what other rules derived), which the network must not
    take for tables; `rows`: {table id: keys of the rows loaded} (see Compiler: only for entries
    the other rows cannot reach — such a network is never the whole one, and is never cached as
    one: engines.engine_for never passes it)."""
    from liuren.knowledge.cache import lasting
    with lasting():      # the network and the table facts live as long as the process
        try:
            cls, compiled, static = Compiler(kb, variants, question, only, declared, rows).compile()
        except KBError:
            raise
        except Exception as e:  # noqa: BLE001 — one line, never a traceback
            raise KBError(kb.root, 0, f"cannot compile the rules: {type(e).__name__}: {e}") from None
        if not indexed:
            # experta's own network, as it builds it: what the speed-ups are compared with (its
            # plain field tests read fields named 一 二 三 as fields: rete.FieldCheck)
            from liuren.rules.rete import ExpertaMatcher
            cls = type(cls.__name__, (cls,), {"__matcher__": ExpertaMatcher})
        eng = cls()
        eng.compiled = compiled
        eng.load_static(static, indexed)
    eng.rule_count = len(compiled)
    return eng
