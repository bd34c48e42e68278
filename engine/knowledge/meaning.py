"""What each condition means: a model of every entry's `when:`, for the static checks of `kb check`
and for the explanations (what a condition reads, what the board has there, what it needs).
One thing, hence one module over 800 lines: the model, how it is built, and its API.

An *entry* is a rule, or a named row that a family rule reports (`as:`).  Its condition is put in
disjunctive normal form (one *way* per path through `any:`; macros expanded), and each way is
reduced to:

* its **atoms**: the board facts it reads (positions 位 at 初傳 / 干上 / 日干 …, the general on a
  branch 盤, the lesson 課, the 三傳 and their gate 傳, the day 日, 時令, 晝夜, 問, 人, derived facts
  such as 空 煞 見, and judgments 判).  Facts the board has one of (one 日, one 傳, one 位 per
  position, one 盤 per 天盤 branch) are merged: two patterns on 初傳 are one atom;
* a **variable** per field read (a literal becomes a variable with that one value), with the
  **values it may take** (its field's domain, narrowed by literals, lists and `not:`);
* the **relations** between variables: every pattern on a table (the KB's static facts, and the
  tables the relation macros 生 克 刑 沖 … expand into) and every `test:` is solved over the
  tables' rows, and the solutions projected on the variables the board gives — so table rows are
  expanded into allowed value sets (a named row of a family restricts its table to its own row),
  and a condition that follows from the others (an extra 日干克三傳) adds nothing;
* its **negations** (`not:`), kept as conditions of their own.

A way whose variables can take no value (初傳 子 and 初傳 午 at once, a value outside its field's
domain, a test no binding passes) is *impossible*.

Two forms are kept per entry: `direct` (a judgment read through `判` stays an atom, as a reader
sees it) and `expanded` (`判: {規: X}` replaced by X's own condition, for comparing meanings).

The API (all on `Meaning`, built once per KB by `meaning_of(kb)` and kept in the cache with it):

* `reads(entry_id)` → [Read]: what the entry reads (fact, position(s), field, sort, needed values);
* `requirement(entry_id)` → [Way]: its ways, each with atoms, domains, relations, negations;
* `check_on(entry_id, facts)` → [[Check]] per way: for each read, the board's value there, the
  values needed, and whether it holds (and one Check per relation and negation);
* `equivalent(a, b)`, `narrower(a, b)`, `impossible(entry_id)`: what the static checks use.

The model is of each entry's default reading; a variant with a `when:` of its own (a 底本, 觀月經 …)
has its model beside it (`Meaning.variants`, `requirement(id, variant=…)`), for its rule page and
its WHY-NOT.
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field

from liuren.knowledge.conditions import VAR_RE, dnf, expand_macros
from liuren.knowledge.facts import BUILTIN_FACTS, PLATE_OF_POSITION

FORMAT = 1

# board facts of which a board has at most one per key: patterns on the same key are one atom
FUNCTIONAL = {"日": (), "傳": (), "時令": (), "晝夜": (), "問": (), "人": (), "農曆": (),
              "位": ("位",), "盤": ("天",), "課": ("課",), "遁": ("支",), "位氣": ("位",)}
MAX_ROWS = 60000            # partial solutions of one relation before it is left unsolved
MAX_WAYS = 64               # ways of one entry after judgments are expanded


def _is_var(v):
    return isinstance(v, str) and VAR_RE.match(v) is not None


@dataclass(frozen=True)
class Read:
    """One thing an entry reads on the board.

    fact:  the fact type (位 盤 課 傳 日 時令 晝夜 問 人 判, or a derived type such as 空 煞 見);
    at:    where: for 位 the position(s) (('初傳',) or several when a table lets it be any of them),
           for 課 the lesson(s), for 盤 the position(s) whose 天盤 branch carries the general
           (the general *at* that position), else ();
    field: the field read (支 天 將 門 干 …; for 判 the id judged);
    sort:  天盤 / 地盤 / 無 for a position (kb/README.md "Words"), 將 for a general, 判 for a
           judgment, 門 for the gate, 體, 煞 for a derived 煞/見/空 fact, 表 …, else the fact type;
    needs: the values it may take (frozenset), or None for any value;
    var:   the variable (shared by the reads a join ties together)."""
    fact: str
    at: tuple
    field: str
    sort: str
    needs: frozenset | None
    var: str
    negated: bool = False


@dataclass(frozen=True)
class Check:
    """A read (or a relation, or a negation) judged on one board: `value` is what the board has
    there (None: the board has no such fact), `needs` what the condition allows (None: any
    value), `ok` whether it holds.  For a relation (what="relation"), `read` is None, `value`
    the tuple of the board's values, `needs` the tables behind it and `reads` the variables it
    ties (Read.var).  For a negation (what="not"), `needs` is the negated condition as text
    and `ok` is None: not judged here."""
    read: Read | None
    value: object
    needs: object
    ok: bool
    what: str = "read"              # read | relation | not | test
    reads: tuple = ()
    chosen: bool = True             # False: the board has several facts the read could be, none of
    #                                 them fitting; `value` is one of them, not the board's value there


@dataclass
class Atom:
    fact: str
    key: tuple                      # literal key values (functional types) or variables
    fields: dict                    # field -> variable
    judged: bool = False            # a 判 kept as an atom


@dataclass
class Way:
    """One way through an entry's condition (a conjunction)."""
    atoms: list = field(default_factory=list)
    dom: dict = field(default_factory=dict)        # variable -> frozenset of values, or None (open)
    excl: dict = field(default_factory=dict)       # variable -> frozenset excluded (open domains)
    rels: list = field(default_factory=list)       # [(vars tuple, frozenset of value tuples, label)]
    negs: list = field(default_factory=list)       # [(text, free vars tuple, condition)]
    open_tests: list = field(default_factory=list)  # tests over open values: [((op, a, b), vars)]
    impossible: str | None = None                  # why no board can satisfy it
    names: dict = field(default_factory=dict)      # variable -> canonical name
    alias: dict = field(default_factory=dict)      # the condition's own variable ($a) -> the way's variable
    free: frozenset = frozenset()                  # variables read once and allowed anything
    sig: frozenset = frozenset()
    labels: frozenset = frozenset()                # literal anchors, for finding candidates
    neg_ways: list = field(default_factory=list)   # per negation (as negs): [Way] of the negated condition, its
    #                                                outer variables kept by the names they have here (bound)
    links: list = field(default_factory=list)      # [(table, {field: variable or literal})]: the table
    #                                                patterns as the condition wrote them (variables unified),
    #                                                internal ones too, for words that name a value by how
    #                                                it is reached (日干之合所寄)


@dataclass
class EntryMeaning:
    id: str
    kind: str
    valence: str
    file: str               # relative to the KB folder
    line: int
    book: str
    family: str | None              # the family rule of a named row
    direct: list                    # [Way]
    expanded: list                  # [Way]
    conclusion: tuple = ()

    @property
    def possible(self):
        return [w for w in self.expanded if not w.impossible]

    @property
    def signature(self):
        return frozenset(w.sig for w in self.possible)


class _UF:
    def __init__(self):
        self.p = {}

    def find(self, x):
        p = self.p
        while p.get(x, x) != x:
            p[x] = p.get(p[x], p[x])
            x = p[x]
        return x

    def union(self, a, b):
        a, b = self.find(a), self.find(b)
        if a != b:
            self.p[b] = a
        return a


class Meaning:
    """The model of every entry's condition (see the module's docstring)."""

    def __init__(self, kb):
        from liuren.knowledge.kbload import JUDGMENT_KINDS
        from liuren.knowledge.kblint import _Domains
        doms = _Domains(kb, JUDGMENT_KINDS)
        self.fdom = {k: (frozenset(v) if v is not None else None) for k, v in doms.d.items()}
        produced = {t for t in kb.derived} | set(BUILTIN_FACTS) | {"判"}
        self.static_types = {t.fact_type for t in kb.tables.values()} - produced
        self.rows_of = {}
        for t in kb.tables.values():
            if t.fact_type in self.static_types:
                self.rows_of.setdefault(t.fact_type, []).extend(t.facts())
        self.macros = kb.macros
        self.counter = itertools.count()
        self.entries: dict[str, EntryMeaning] = {}
        self._raw = {}              # id -> [(pos, tests, nots)] with variables renamed apart
        self._building = set()
        self._memo = {}
        ents = []
        for r in kb.rules.values():
            ents.append((r.id, r, None))
            if r.as_var:
                for t2, fields in _patterns(r.when):
                    if fields.get("id") == r.as_var and t2 in self.static_types:
                        for tab in kb.tables.values():
                            if tab.fact_type == t2:
                                for row in tab.rows:
                                    if row.id and row.id not in kb.rules:
                                        ents.append((row.id, row, r))
        self._src = {}                  # id -> (entry, [the family rules reporting it])
        for eid, e, fam in ents:
            got = self._src.setdefault(eid, (e, []))
            if fam is not None:
                got[1].append(fam)
        books = {}
        for eid, (e, fams) in self._src.items():
            src = (e.source or (fams[0].source if fams else []) or [{}])[0]
            books[eid] = src.get("seed", "") if isinstance(src, dict) else ""
        for eid, (e, fams) in self._src.items():
            fam = fams[0] if fams else None
            rule = fam or e
            direct = [self._way(b) for b in self._branches(eid, expand=False)]
            raw = self._branches(eid, expand=True)
            expanded = direct if raw is self._branches(eid, expand=False) else [self._way(b) for b in raw]
            from liuren.knowledge.conditions import then_facts
            concl = tuple(sorted(repr(x) for x in then_facts(rule.then)))
            # what the conclusion's values are looked up in (the same `then:` over other tables
            # concludes other things)
            tv = {v for _, fs in then_facts(rule.then) for v in fs.values() if _is_var(v)}
            concl += tuple(sorted(repr((t, sorted(f for f, v in fs.items() if _is_var(v) and v in tv)))
                                  for t, fs in _patterns(rule.when) if t in self.static_types
                                  and any(_is_var(v) and v in tv for v in fs.values())))
            if rule.as_var and not fams:        # a family: what it reports is its rows
                concl += tuple(sorted(repr(t) for t, fs in _patterns(rule.when) if fs.get("id") == rule.as_var))
            self.entries[eid] = EntryMeaning(eid, e.kind or rule.kind, e.valence or (rule.valence if fam is None else ""),
                                             _relpath(e.file, kb.root), e.line, books[eid], fam.id if fam else None,
                                             direct, expanded, concl)
        # a variant with a `when:` of its own (三光 under 觀月經, 湊局 …): its model, kept beside the
        # entries, never among them (the static checks compare entries, not the readings of one)
        self.variants = {}
        for r in kb.rules.values():
            for v in r.variants:
                if v.get("when") is None or r.id not in self.entries:
                    continue
                key = (r.id, v["id"])
                self._src[key] = (dataclasses.replace(r, when=v["when"], then=v.get("then", r.then)), [])
                direct = [self._way(b) for b in self._branches(key, expand=False)]
                raw = self._branches(key, expand=True)
                expanded = direct if raw is self._branches(key, expand=False) else [self._way(b) for b in raw]
                self.variants[key] = dataclasses.replace(self.entries[r.id], direct=direct, expanded=expanded)
        del self._memo, self._raw, self._building, self._src, self.counter, self.rows_of

    # ------------------------------------------------------------------ building
    def _branches(self, eid, expand):
        """The ways of an entry as (patterns, tests, negations), variables renamed apart; a named
        row's ways pin the family's row variable to the row's id; with expand, `判: {規: X}`
        is replaced by X's own ways."""
        key = (eid, expand)
        if key in self._raw:
            return self._raw[key]
        if expand:
            ways = self._branches(eid, False)
            if eid not in self._building:
                self._building.add(eid)
                try:
                    ways = self._inline(ways)
                finally:
                    self._building.discard(eid)
            self._raw[key] = ways
            return ways
        e, fams = self._src[eid]
        ways = []
        for fam in (fams or [None]):
            rule = fam or e
            n = next(self.counter)
            cond = expand_macros(rule.when, self.macros, self.counter)
            for pos, tests, nots in dnf(cond):
                ren = _renamer(f"~e{n}")
                pos = [(t, {f: ren(v) for f, v in fs.items()}) for t, fs in pos]
                tests = [{op: [ren(a) for a in args]} for t in tests for op, args in t.items()]
                nots = [_rename_cond(x, ren) for x in nots]
                if fam is not None:
                    pos = pos + [("~row", {"id": ren(rule.as_var), "=": eid})]
                ways.append((pos, tests, nots))
        self._raw[key] = ways
        return ways

    def _inline(self, ways):
        if not any(t == "判" for pos, _, _ in ways for t, _ in pos):
            return ways
        out = []
        for pos, tests, nots in ways:
            alts = [([], list(tests), list(nots))]
            for t, fs in pos:
                ids = fs.get("規") if t == "判" else None
                others = [f for f, v in fs.items() if f != "規" and not (_is_var(v) and v.startswith("$_"))]
                if isinstance(ids, str) and not _is_var(ids):
                    ids = [ids]
                if isinstance(ids, list) and not others and all(i in self._src for i in ids) \
                        and not any(i in self._building for i in ids):
                    subs = []
                    for i in ids:
                        subs += self._branches(i, expand=True)
                    subs = [_fresh(s, f"~j{next(self.counter)}") for s in subs]
                    alts = [(a[0] + s[0], a[1] + s[1], a[2] + s[2]) for a in alts for s in subs]
                else:
                    alts = [(a[0] + [(t, fs)], a[1], a[2]) for a in alts]
                if len(alts) > MAX_WAYS:
                    return ways
            out += alts
            if len(out) > MAX_WAYS:
                return ways
        return out

    def _way(self, branch):
        pos, tests, nots = branch
        w = Way()
        uf = _UF()
        atoms, statics, dom, excl = [], [], {}, {}
        fresh = itertools.count()
        row_pin = {}

        def restrict(v, allowed=None, exclude=None):
            if allowed is not None:
                allowed = frozenset(allowed)
                dom[v] = allowed if dom.get(v) is None else dom[v] & allowed
            if exclude:
                excl[v] = excl.get(v, frozenset()) | frozenset(exclude)

        def var_for(t, f, val):
            if _is_var(val):
                fd = self.fdom.get((t, f))
                if fd is not None:
                    restrict(val, fd)
                return val
            v = f"~c{next(fresh)}"
            fd = self.fdom.get((t, f))
            if fd is not None:
                restrict(v, fd)
            if isinstance(val, dict):
                inner = val.get("not")
                if _is_var(inner):
                    w.open_tests.append(("ne", (v, inner)))
                else:
                    ex = frozenset(inner if isinstance(inner, list) else [inner])
                    if fd is not None:
                        restrict(v, fd - ex)
                    else:
                        restrict(v, exclude=ex)
            elif isinstance(val, list):
                restrict(v, val)
            else:
                restrict(v, [val])
            return v
        for t, fs in pos:
            if t == "~row":
                row_pin[fs["id"]] = fs["="]
                continue
            if t in self.static_types:
                statics.append((t, dict(fs)))
                continue
            keyf = FUNCTIONAL.get(t)
            key = ()
            fields = {}
            for f, val in fs.items():
                if keyf and f in keyf and isinstance(val, str) and not _is_var(val):
                    key += ((f, val),)
                    continue
                fields[f] = var_for(t, f, val)
            atoms.append(Atom(t, key, fields, judged=(t == "判")))
        for v, rid in row_pin.items():
            restrict(v, rid if isinstance(rid, list) else [rid])   # (a list: one of these)
        # tests: over table-bound values they join the relations; else kept open
        test_cons = []
        for tst in tests:
            (op, (a, b)), = tst.items()
            test_cons.append((op, a, b))
        for op, pair in list(w.open_tests):
            test_cons.append((op, pair[0], pair[1]))
        w.open_tests = []
        for _ in range(3):
            atoms = _merge(atoms, uf, dom)
            if _rekey(atoms, uf, dom):
                continue
            break
        # unify variable names through uf
        def R(v):
            return uf.find(v) if _is_var(v) or (isinstance(v, str) and v.startswith("~c")) else v
        # the condition's own variables ($a, not a macro's inner ones), for words that name them
        for x in {x for _, fs in pos for x in fs.values() if _is_var(x)} | {x for t in tests for a in t.values()
                                                                           for x in a if _is_var(x)}:
            if "~m" not in x and "~e" in x:
                w.alias.setdefault(x.rsplit("~e", 1)[0], R(x))
        ndom, nexcl = {}, {}
        for v, d in dom.items():
            r = R(v)
            ndom[r] = d if ndom.get(r) is None else (ndom[r] & d if d is not None else ndom[r])
        for v, d in excl.items():
            r = R(v)
            nexcl[r] = nexcl.get(r, frozenset()) | d
        for a in atoms:
            a.fields = {f: R(v) for f, v in a.fields.items()}
            a.key = tuple((f, R(v)) for f, v in a.key)
        statics = [(t, {f: (R(v) if _is_var(v) else v) for f, v in fs.items()}) for t, fs in statics]
        test_cons = [(op, R(a) if _is_var(a) or str(a).startswith("~c") else a,
                      R(b) if _is_var(b) or str(b).startswith("~c") else b) for op, a, b in test_cons]
        board_vars = {v for a in atoms for v in a.fields.values()} | {v for a in atoms for _, v in a.key if _isv(v)}
        w.atoms, w.dom, w.excl = atoms, ndom, nexcl
        w.links = statics
        for v in board_vars:
            w.dom.setdefault(v, None)
        for v, d in w.dom.items():
            if d is not None and not d:
                w.impossible = f"{_label_of(v, atoms)} has no value it may take"
        if not w.impossible:
            self._relations(w, statics, test_cons, board_vars)
        if not w.impossible:
            # a position read through a table that allows one position only is that position
            for a in atoms:
                if a.fact in ("位", "課", "盤") and not a.key:
                    kf = FUNCTIONAL[a.fact][0]
                    v = a.fields.get(kf)
                    if v is not None and w.dom.get(v) is not None and len(w.dom[v]) == 1:
                        a.key = ((kf, next(iter(w.dom[v]))),)
            w.atoms = _merge_simple(atoms)
        w.negs = [(_cond_text(x, R), tuple(sorted({R(v) for v in _vars(x)} & board_vars)), x) for x in nots]
        # a negation as a requirement of its own: its ways, its outer variables bound (named as here)
        w.neg_ways = [self._nested(x, R) for x in nots]
        _canonical(w, self.fdom)
        return w

    def _nested(self, cond, R):
        """The ways of a negated condition: its outer variables renamed to this way's, so that a Way
        of it reads the same variables the outer way names."""
        def ren(v):
            if _is_var(v):
                return R(v)
            if isinstance(v, dict) and "not" in v and _is_var(v["not"]):
                return {"not": R(v["not"])}
            return v
        cond = _rename_cond(cond, ren)
        return [self._way((pos, [{op: list(a)} for t in tests for op, a in t.items()], nots))
                for pos, tests, nots in dnf(cond if isinstance(cond, list) else [cond])]

    def _relations(self, w, statics, tests, board_vars):
        """Solve the tables and tests over their variables, component by component, and keep
        the projection on the board's variables (the domains narrowed to it)."""
        items = [("s", t, fs) for t, fs in statics] + [("t", op, (a, b)) for op, a, b in tests]
        uf = _UF()
        vs_of = []
        for it in items:
            if it[0] == "s":
                vs = [v for v in it[2].values() if _isv(v)]
            else:
                vs = [x for x in it[2] if _isv(x)]
            vs_of.append(vs)
            for v in vs[1:]:
                uf.union(vs[0], v)
            for v in vs:
                uf.find(v)
        comps = {}
        for it, vs in zip(items, vs_of):
            root = uf.find(vs[0]) if vs else id(it)
            comps.setdefault(root, []).append((it, vs))
        for root, group in comps.items():
            cvars = sorted({v for _, vs in group for v in vs})
            # an open test (over values no table or domain closes) is kept as it stands
            closed = [x for x in group if x[0][0] == "s" or all(w.dom.get(v) is not None for v in x[1]) and x[1]]
            opened = [x for x in group if x not in closed]
            for (it, vs) in opened:
                # (op, its two arguments: a variable or a literal), the variables it reads
                w.open_tests.append(((it[1],) + tuple(x if _isv(x) else repr(x) for x in it[2]), tuple(vs)))
            if not closed:
                continue
            sols = self._solve(closed, w, [v for v in cvars if v in board_vars])
            if sols is None:
                continue                        # too large: left unsolved (never a finding)
            keep = [v for v in cvars if v in board_vars]
            if not sols:
                what = "、".join(sorted({it[1] for it, _ in closed if it[0] == "s"})) or "test"
                w.impossible = f"no values satisfy {what}"
                return
            proj = frozenset(tuple(s.get(v) for v in keep) for s in sols)
            for i, v in enumerate(keep):
                vals = frozenset(p[i] for p in proj)
                w.dom[v] = vals if w.dom.get(v) is None else w.dom[v] & vals
            if len(keep) > 1:
                full = 1
                for v in keep:
                    full *= len(w.dom[v])
                if len(proj) < full:
                    label = "、".join(sorted({it[1] for it, _ in closed}))
                    w.rels.append((tuple(keep), proj, label))

    def _solve(self, group, w, keep_vars):
        """Every assignment of the variables in keep_vars (and those the group's board reads
        need) that the group's table patterns and tests allow: a list of dicts, None when it
        grows past MAX_ROWS.  A hash join, pattern by pattern (the one sharing most bound
        variables first); variables no later pattern, test or read needs are projected away."""
        pats = [(t, fs) for (kind, t, fs), _ in group if kind == "s"]
        tests = [(op, ab) for (kind, op, ab), _ in group if kind == "t"]
        # the key names variables by their order of appearance: entries alike share a solution
        order = {}
        for x in [x for _, fs in pats for x in fs.values()] + [x for _, ab in tests for x in ab]:
            if _isv(x) and x not in order:
                order[x] = f"v{len(order)}"
        memo_key = (repr([(t, sorted((f, order.get(v, v) if isinstance(v, str) else v) for f, v in fs.items()))
                          for t, fs in pats]),
                    repr([(op, [order.get(x, x) if isinstance(x, str) else x for x in ab]) for op, ab in tests]),
                    repr(sorted(order[v] for v in keep_vars if v in order)),
                    repr([(order[v], sorted(map(repr, w.dom[v])) if w.dom.get(v) is not None else None,
                           sorted(map(repr, w.excl.get(v, ())))) for v in order]))
        got = self._memo.get(memo_key, 0)
        if got != 0:
            back = {n: v for v, n in order.items()}
            return None if got is None else [{back[k]: val for k, val in s.items()} for s in got]
        bound = []
        sols = [()]
        pats = list(pats)
        pending = list(tests)
        # tests over variables no pattern binds draw from the domains
        by_pats = {v for _, fs in pats for v in fs.values() if _isv(v)}
        for op, (a, b) in tests:
            for x in (a, b):
                if _isv(x) and x not in by_pats and x not in bound:
                    bound.append(x)
                    sols = [s + (val,) for s in sols for val in sorted(w.dom.get(x), key=repr)]
        sols, pending = _run_tests(sols, pending, bound)
        while pats:
            pats.sort(key=lambda p: (-len({v for v in p[1].values() if _isv(v)} & set(bound)),
                                     len(self.rows_of.get(p[0], ()))))
            t, fs = pats.pop(0)
            lits = {f: v for f, v in fs.items() if not _isv(v)}
            varf = [(f, v) for f, v in fs.items() if _isv(v)]
            joinf = [(f, v) for f, v in varf if v in bound]
            newf = []
            for f, v in varf:
                if v not in bound and v not in [x for _, x in newf]:
                    newf.append((f, v))
            samef = [(f, v) for f, v in varf if v not in bound and (f, v) not in newf]
            index = {}
            for r in self.rows_of.get(t, ()):
                if not _row_admits(r, lits) or any(f not in r for f, _ in varf):
                    continue
                if any(r[f] != r[g] for f, v in samef for g, x in newf if x == v):
                    continue
                okr = True
                for f, v in newf:
                    d = w.dom.get(v)
                    val = r[f]
                    if d is not None and val not in d or val in w.excl.get(v, ()):
                        okr = False
                        break
                if not okr:
                    continue
                index.setdefault(tuple(r[f] for f, _ in joinf), set()).add(tuple(r[f] for f, _ in newf))
            pos = [bound.index(v) for _, v in joinf]
            new = []
            for s in sols:
                for ext in index.get(tuple(s[p] for p in pos), ()):
                    new.append(s + ext)
            bound = bound + [v for _, v in newf]
            sols = new
            sols, pending = _run_tests(sols, pending, bound)
            # project away what nothing later needs
            need = set(keep_vars) | {v for _, fs in pats for v in fs.values() if _isv(v)} \
                | {x for _, ab in pending for x in ab if _isv(x)}
            idx = [i for i, v in enumerate(bound) if v in need]
            if len(idx) < len(bound):
                bound = [bound[i] for i in idx]
                sols = list({tuple(s[i] for i in idx) for s in sols})
            if len(sols) > MAX_ROWS:
                self._memo[memo_key] = None
                return None
        for op, (a, b) in pending:              # (only tests over unbound names: nothing binds them)
            if any(_isv(x) and x not in bound for x in (a, b)):
                continue
        out = [dict(zip(bound, s)) for s in set(sols)]
        self._memo[memo_key] = [{order[k]: val for k, val in s.items()} for s in out]
        return out

    # ------------------------------------------------------------------ API
    def reads(self, entry_id, expanded=False, free=False):
        """What an entry reads on the board, way by way, without repeats: [Read].  The reads of
        `判` are the judgments it reads (expanded=True: what those judgments read instead).  A
        value read only to be named (bound once, any value allowed: the 初傳 a 課 is about) is
        left out unless free=True (its Read then has needs None).  Impossible ways are left out
        when the entry has a possible one."""
        em = self.entries[entry_id]
        out = []
        ways = em.expanded if expanded else em.direct
        ways = [w for w in ways if not w.impossible] or ways
        for w in ways:
            for r in _reads_of(w, free):
                if r not in out:
                    out.append(r)
        return out

    def requirement(self, entry_id, expanded=False, variant=None):
        """The entry's ways (Way objects): atoms, allowed values per variable (`dom`), relations
        (`rels`: the variables, the value tuples allowed, the tables behind them), negations
        and whether a way is impossible (and why).  variant: the ways of that reading of the
        entry, where the variant has a `when:` of its own (else the entry's own)."""
        em = self.of(entry_id, variant)
        return em.expanded if expanded else em.direct

    def of(self, entry_id, variant=None):
        """The EntryMeaning of an entry, or of its variant where that variant has a `when:` of its own."""
        return getattr(self, "variants", {}).get((entry_id, variant)) or self.entries[entry_id]

    def has_variant(self, entry_id, variant):
        """Does this variant of the entry read the board by a `when:` of its own?"""
        return (entry_id, variant) in getattr(self, "variants", {})

    def ways_of(self, kb, branches):
        """The ways of a condition that is no entry's own (explain.conditions composes one for a row
        reached through a derived fact's 源: the reading rule with that fact replaced by the rules that
        make it): [(patterns, tests, negations)] as `dnf` gives them, variables renamed apart with
        `~e`.  Built by a copy of the model: the model itself is left as it is."""
        import copy
        got = kb.__dict__.get("_meaning_ways_of")       # the copy, kept with the KB (as the model is)
        if got is None or got[0] is not self:
            b = copy.copy(self)
            b.rows_of = {}
            for t in kb.tables.values():
                if t.fact_type in self.static_types:
                    b.rows_of.setdefault(t.fact_type, []).extend(t.facts())
            b._memo = {}
            got = kb.__dict__["_meaning_ways_of"] = (self, b)
        b = got[1]
        b.counter = itertools.count()
        return [b._way(x) for x in branches]

    def way_reads(self, way, free=False):
        """The reads of one way (see Read)."""
        return _reads_of(way, free)

    def check_on(self, entry_id, facts, expanded=False, judged=(), variant=None):
        """The entry's condition judged against a board's facts (dicts with key "t" for the
        type: a Judgment's `wm`, i.e. the board's facts and what the rules derived), `judged`
        the ids the board's judgments report (for `判`): per way, a list of Check — at X the
        board has v; it needs one of {…}.  A way holds on the board when every Check of it is
        ok (negations are not judged here: see Way.negs)."""
        by_type = {}
        for f in list(facts) + [{"t": "判", "規": i} for i in judged]:
            by_type.setdefault(f.get("t"), []).append(f)
        em = self.of(entry_id, variant)
        return [_check_way(w, by_type) for w in (em.expanded if expanded else em.direct)]

    def impossible(self, entry_id):
        """Why an entry can never hold (every way impossible), or None."""
        em = self.entries[entry_id]
        if em.expanded and all(w.impossible for w in em.expanded):
            return "; ".join(dict.fromkeys(w.impossible for w in em.expanded))
        if em.direct and all(w.impossible for w in em.direct):
            return "; ".join(dict.fromkeys(w.impossible for w in em.direct))
        return None

    def equivalent(self, a, b):
        """Do two entries hold on exactly the same boards (as far as the model tells)?"""
        ea, eb = self.entries[a], self.entries[b]
        return bool(ea.possible) and ea.signature == eb.signature or (self.narrower(a, b) and self.narrower(b, a))

    def narrower(self, a, b):
        """Does entry a hold only where entry b holds (each way of a implies a way of b)?"""
        wa, wb = self.entries[a].possible, self.entries[b].possible
        return bool(wa) and bool(wb) and all(any(implies(x, y) for y in wb) for x in wa)


# ---------------------------------------------------------------------- helpers
def _relpath(path, root):
    """A file of the KB relative to its folder (the model is cached by content, not by place)."""
    import pathlib
    try:
        return pathlib.Path(path).resolve().relative_to(pathlib.Path(root).resolve()).as_posix()
    except ValueError:
        return str(path)


def _isv(v):
    return isinstance(v, str) and (v.startswith("$") or v.startswith("~c"))


def _patterns(cond):
    if isinstance(cond, list):
        for c in cond:
            yield from _patterns(c)
        return
    if not isinstance(cond, dict):
        return
    for k, v in cond.items():
        if k in ("all", "any") and isinstance(v, list):
            yield from _patterns(v)
        elif k == "not":
            continue
        elif isinstance(v, dict) and k not in ("test", "macro"):
            yield k, v


def _renamer(suffix):
    def ren(v):
        if _is_var(v):
            return v + suffix
        if isinstance(v, dict) and "not" in v and _is_var(v["not"]):
            return {"not": v["not"] + suffix}
        return v
    return ren


def _rename_cond(c, ren):
    if isinstance(c, list):
        return [_rename_cond(x, ren) for x in c]
    if isinstance(c, dict):
        out = {}
        for k, v in c.items():
            if k == "macro":
                continue
            if k in ("all", "any") or k == "not":
                out[k] = _rename_cond(v, ren)
            elif k == "test":
                out[k] = {op: [ren(a) for a in args] for op, args in v.items()}
            elif isinstance(v, dict):
                out[k] = {f: ren(x) for f, x in v.items()}
            elif isinstance(v, list):
                out[k] = [ren(x) for x in v]
            else:
                out[k] = v
        return out
    return ren(c)


def _fresh(branch, suffix):
    pos, tests, nots = branch
    ren = _renamer(suffix)
    return ([(t, {f: ren(v) for f, v in fs.items()}) for t, fs in pos],
            [{op: [ren(a) for a in args]} for t in tests for op, args in t.items()],
            [_rename_cond(x, ren) for x in nots])


def _vars(c):
    if isinstance(c, list):
        for x in c:
            yield from _vars(x)
    elif isinstance(c, dict):
        for v in c.values():
            yield from _vars(v)
    elif _is_var(c):
        yield c


def _cond_text(c, R):
    """A negated condition as text, its outer variables named by R (canonical later)."""
    import json
    inner = {}

    def norm(x):
        if isinstance(x, list):
            return [norm(y) for y in x]
        if isinstance(x, dict):
            return {k: norm(v) for k, v in sorted(x.items()) if k != "macro"}
        if _is_var(x):
            r = R(x)
            if r != x or not x.startswith("$"):
                return ("outer", r)
            return inner.setdefault(x, f"$i{len(inner)}")
        return x
    return json.dumps(norm(c), ensure_ascii=False, sort_keys=True, default=str)


def _row_admits(row, lits):
    for f, v in lits.items():
        if f not in row:
            return False
        x = row[f]
        if isinstance(v, list):
            if x not in v:
                return False
        elif isinstance(v, dict):
            inner = v.get("not")
            if x in (inner if isinstance(inner, list) else [inner]):
                return False
        elif x != v:
            return False
    return True


def _dedupe(sols):
    seen, out = set(), []
    for s in sols:
        k = tuple(sorted(s.items(), key=lambda kv: kv[0]))
        try:
            if k in seen:
                continue
            seen.add(k)
        except TypeError:
            pass
        out.append(s)
    return out


_TEST = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
         "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
         "in": lambda a, b: a in b, "notin": lambda a, b: a not in b}


def _run_tests(sols, pending, bound):
    """Apply the tests whose variables are all bound; the others stay pending."""
    still = []
    for op, (a, b) in pending:
        if all(not _isv(x) or x in bound for x in (a, b)):
            fn = _TEST[op]
            ia = bound.index(a) if _isv(a) else None
            ib = bound.index(b) if _isv(b) else None
            out = []
            for s in sols:
                try:
                    if fn(s[ia] if ia is not None else a, s[ib] if ib is not None else b):
                        out.append(s)
                except TypeError:
                    pass
            sols = out
        else:
            still.append((op, (a, b)))
    return sols, still


def _apply_tests(sols, pending, final=False):
    keep = []
    for t in pending:
        _, op, (a, b) = t
        need = [x for x in (a, b) if _isv(x)]
        if sols and not all(x in sols[0] for x in need) and not final:
            keep.append(t)
            continue
        fn = _TEST[op]

        def val(s, x):
            return s.get(x) if _isv(x) else x
        out = []
        for s in sols:
            try:
                if fn(val(s, a), val(s, b)):
                    out.append(s)
            except TypeError:
                pass
        sols = out
    return sols, keep


def _merge(atoms, uf, dom):
    """Atoms of a functional type on the same literal key are one atom (their fields unified)."""
    out, seen = [], {}
    for a in atoms:
        if a.fact in FUNCTIONAL and (a.key or not FUNCTIONAL[a.fact]):
            k = (a.fact, a.key)
            if k in seen:
                b = seen[k]
                for f, v in a.fields.items():
                    if f in b.fields:
                        uf.union(b.fields[f], v)
                    else:
                        b.fields[f] = v
                continue
            seen[k] = a
        out.append(a)
    return out


def _rekey(atoms, uf, dom):
    """A functional atom keyed by a variable of one value is keyed by that value."""
    changed = False
    for a in atoms:
        keyf = FUNCTIONAL.get(a.fact)
        if keyf and not a.key:
            v = a.fields.get(keyf[0])
            if v is not None:
                d = None
                for x, dx in dom.items():
                    if uf.find(x) == uf.find(v) and dx is not None:
                        d = dx if d is None else d & dx
                if d is not None and len(d) == 1:
                    a.key = ((keyf[0], next(iter(d))),)
                    del a.fields[keyf[0]]
                    changed = True
    return changed


def _merge_simple(atoms):
    out, seen = [], {}
    for a in atoms:
        k = (a.fact, a.key, tuple(sorted(a.fields.items())))
        if k in seen:
            continue
        seen[k] = a
        out.append(a)
    return out


def _label_of(v, atoms):
    for a in atoms:
        for f, x in a.fields.items():
            if x == v:
                at = "".join(str(k[1]) for k in a.key)
                return f"{a.fact}{('（' + at + '）') if at else ''}.{f}"
    return "a value"


def _atom_label(a, names=None):
    key = tuple((f, (names.get(v, "?") if names is not None else "?") if _isv(v) else v) for f, v in a.key)
    return (a.fact, key)


def _canonical(w, fdom):
    """Canonical names for the way's variables (by where they are read) and its signature."""
    occ = {}
    for a in w.atoms:
        for f, v in a.fields.items():
            occ.setdefault(v, []).append((a.fact, repr(a.key), f))
    # variables in an atom keyed by a variable: their label goes through that variable's domain
    names = {}
    for v, os_ in occ.items():
        names[v] = repr(sorted(os_)) + repr(sorted(w.dom.get(v) or ()) if len(os_) == 1 else "")
    # break ties (two variables read alike) by their order
    by = {}
    for v, n in sorted(names.items()):
        by.setdefault(n, []).append(v)
    for n, vs in by.items():
        if len(vs) > 1:
            for i, v in enumerate(vs):
                names[v] = f"{n}#{i}"
    # variables only in relations or negations
    for v in w.dom:
        names.setdefault(v, f"?{v}")
    w.names = names
    sig = set()
    frees = set()
    for a in w.atoms:
        fs = []
        for f, v in sorted(a.fields.items()):
            d = w.dom.get(v)
            full = fdom.get((a.fact, f))
            free = len(occ.get(v, ())) == 1 and (d is None or d == full) and not w.excl.get(v) \
                and not any(v in r[0] for r in w.rels) and not any(v in n[1] for n in w.negs) \
                and not any(v in t[1] for t in w.open_tests)
            if free:
                frees.add(v)
            else:
                fs.append((f, names[v]))
        key = tuple((f, names.get(x, x) if _isv(x) else x) for f, x in a.key)
        sig.add(("atom", a.fact, key, tuple(fs)))
    for v, d in w.dom.items():
        if d is None or v not in occ:
            continue
        full = None
        for a in w.atoms:
            for f, x in a.fields.items():
                if x == v:
                    fd = fdom.get((a.fact, f))
                    full = fd if full is None else (full & fd if fd is not None else full)
        if d != full:
            sig.add(("dom", names[v], tuple(sorted(map(str, d)))))
    for v, ex in w.excl.items():
        if ex:
            sig.add(("excl", names.get(v, v), tuple(sorted(map(str, ex)))))
    for vs, tuples, _ in w.rels:
        order = sorted(range(len(vs)), key=lambda i: names[vs[i]])
        sig.add(("rel", tuple(names[vs[i]] for i in order),
                 frozenset(tuple(str(t[i]) for i in order) for t in tuples)))
    for text, free, _ in w.negs:
        sig.add(("not", _named(text, names), tuple(names.get(v, v) for v in free)))
    for t, vs in w.open_tests:
        sig.add(("test",) + tuple(names.get(x, x) if _isv(x) else x for x in t))
    w.sig = frozenset(sig)
    w.free = frozenset(frees)
    w.labels = frozenset(_atom_label(a) for a in w.atoms if a.key)


def _named(text, names):
    import re
    return re.sub(r'\["outer", "([^"]+)"\]', lambda m: repr(names.get(m.group(1), "?")), text)


def implies(x, y):
    """Does way x imply way y: every board where x holds, y holds?  A map of y's atoms onto x's
    (same fact, same key), under which x's values are within y's, x's relations within y's, and
    y's negations and open tests among x's."""
    if x.impossible:
        return True
    if y.impossible:
        return False
    if not y.labels <= x.labels:
        return False
    ya = list(y.atoms)
    ya.sort(key=lambda a: (not a.key, a.fact))
    xa_by = {}
    for a in x.atoms:
        xa_by.setdefault(a.fact, []).append(a)
    yused = {}
    for a in y.atoms:
        for v in a.fields.values():
            yused[v] = yused.get(v, 0) + 1
    ybound = {v for r in y.rels for v in r[0]} | {v for n in y.negs for v in n[1]} | {v for t in y.open_tests for v in t[1]}

    def free_in_y(v):
        return yused.get(v, 0) == 1 and v not in ybound and y.dom.get(v) is None and not y.excl.get(v)

    def dom_ok(vy, vx):
        dy, dx = y.dom.get(vy), x.dom.get(vx)
        if dy is not None:
            if dx is None or not dx <= dy:
                return False
        ey = y.excl.get(vy)
        if ey:
            if dx is not None:
                if dx & ey:
                    return False
            elif not ey <= x.excl.get(vx, frozenset()):
                return False
        return True

    def key_ok(ay, ax, m):
        if len(ay.key) != len(ax.key):
            return None
        m = dict(m)
        for (f1, v1), (f2, v2) in zip(ay.key, ax.key):
            if f1 != f2:
                return None
            if _isv(v1) or _isv(v2):
                return None
            if v1 != v2:
                return None
        return m

    def extend(i, m):
        if i == len(ya):
            return final(m)
        ay = ya[i]
        for ax in xa_by.get(ay.fact, ()):
            m2 = key_ok(ay, ax, m)
            if m2 is None:
                continue
            ok = True
            for f, vy in ay.fields.items():
                vx = ax.fields.get(f)
                if vx is None:
                    if free_in_y(vy) or (y.dom.get(vy) is not None and y.dom.get(vy) == _full(y, vy)):
                        continue
                    ok = False
                    break
                if vy in m2 and m2[vy] != vx:
                    ok = False
                    break
                if not dom_ok(vy, vx):
                    ok = False
                    break
                m2[vy] = vx
            if ok and extend(i + 1, m2):
                return True
        return False

    def final(m):
        for vs, tuples, _ in y.rels:
            if any(v not in m for v in vs):
                return False
            got = _project(x, [m[v] for v in vs])
            if got is None or not got <= tuples:
                return False
        xneg = {(t, tuple(x.names.get(v, v) for v in fr)) for t, fr, _ in x.negs}
        for t, fr, _ in y.negs:
            if any(v not in m for v in fr):
                return False
            t2 = _rename_outer(t, {v: m[v] for v in fr})
            if (t2, tuple(x.names.get(m[v], m[v]) for v in fr)) not in {(_rename_outer(a, {}), b) for a, b in xneg}:
                return False
        xt = {t for t, _ in x.open_tests}
        for t, vs in y.open_tests:
            if any(v not in m for v in vs):
                return False
            if tuple(m[a] if _isv(a) else a for a in t) not in xt:
                return False
        return True
    return extend(0, {})


def _full(w, v):
    return None


def _rename_outer(text, mapping):
    import re
    return re.sub(r'\["outer", "([^"]+)"\]', lambda m: '["outer", "' + mapping.get(m.group(1), m.group(1)) + '"]', text)


def _project(x, vars_):
    """The value tuples way x allows for these of its variables (None: too many to tell)."""
    comps = []
    rest = list(range(len(vars_)))
    for vs, tuples, _ in x.rels:
        idx = [i for i in rest if vars_[i] in vs]
        if not idx:
            continue
        pos = [vs.index(vars_[i]) for i in idx]
        comps.append((idx, {tuple(t[p] for p in pos) for t in tuples}))
        rest = [i for i in rest if i not in idx]
    for i in rest:
        d = x.dom.get(vars_[i])
        if d is None:
            return None
        comps.append(([i], {(v,) for v in d}))
    size = 1
    for _, s in comps:
        size *= len(s)
    if size > 4096:
        return None
    out = set()
    for combo in itertools.product(*[list(s) for _, s in comps]):
        t = [None] * len(vars_)
        for (idx, _), vals in zip(comps, combo):
            for i, val in zip(idx, vals):
                t[i] = val
        out.add(tuple(t))
    # one variable of x read twice: equal values only
    for i, a in enumerate(vars_):
        for j in range(i + 1, len(vars_)):
            if vars_[j] == a:
                out = {t for t in out if t[i] == t[j]}
    return frozenset(out)


def _sort_of(a, f):
    if a.fact in ("位", "位氣") and f != "氣":
        pos = [k[1] for k in a.key]
        if pos:
            return {"天": "天盤", "地": "地盤", "無": "無"}.get(PLATE_OF_POSITION.get(pos[0], ""), "位")
        return "位"
    if a.fact == "盤":
        return "將" if f == "將" else "盤"
    if a.fact == "傳":
        return {"門": "門", "體": "體"}.get(f, "傳")
    if a.fact == "判":
        return "判"
    if a.fact in ("煞", "見", "空"):
        return "煞"
    return a.fact


def _at(w, a, place=None):
    """Where an atom reads: its position(s), or for a 盤 the position whose branch it is."""
    if place is None:
        # where a 盤 atom's 天 is the 天 (or 支) of a position, the general is the general at it
        place = {}
        for b in w.atoms:
            if "位" in FUNCTIONAL.get(b.fact, ()):
                at = tuple(str(k[1]) for k in b.key) or tuple(sorted(map(str, w.dom.get(b.fields.get("位")) or ())))
                for f in ("天", "支"):
                    if f in b.fields:
                        place.setdefault(b.fields[f], at)
    at = tuple(str(k[1]) for k in a.key)
    if "位" in FUNCTIONAL.get(a.fact, ()) and not at:
        at = tuple(sorted(map(str, w.dom.get(a.fields.get("位")) or ())))
    if a.fact == "遁" and a.fields.get("支") in place:
        at = place[a.fields["支"]]           # the stem a position's branch hides (支上 遁丁)
    if a.fact == "盤" and a.fields.get("天") in place:
        # the general on a position's branch is read at that position, even where the way fixes
        # the branch (牛女相會: 初傳 子 乘 太常 is the general at 初傳, not a 地盤 子)
        at = place[a.fields["天"]]
    return at


def _reads_of(w, free=False):
    out = []
    for a in w.atoms:
        at = _at(w, a)
        if a.fact == "判" and not a.fields and a.key:
            pass
        shown = 0
        for f, v in sorted(a.fields.items()):
            if "位" in FUNCTIONAL.get(a.fact, ()) and f == "位":
                continue
            if v in w.free and not free:
                continue
            shown += 1
            out.append(Read(a.fact, at, f, _sort_of(a, f), None if v in w.free else w.dom.get(v), w.names.get(v, v)))
        if not shown:
            out.append(Read(a.fact, at, "", _sort_of(a, ""), None, ""))
    for text, free, _ in w.negs:
        out.append(Read("not", (), text, "not", None, ",".join(w.names.get(v, v) for v in free), negated=True))
    return out


def _check_way(w, by_type):
    out = []
    env = {}
    pending = list(w.atoms)
    pending.sort(key=lambda a: (not a.key, a.fact != "位"))
    for _ in range(3):
        left = []
        for a in pending:
            cands = list(by_type.get(a.fact, ()))
            # a key through a variable already bound: the fact the board reaches that way, even where
            # the way fixes the key to another value (the mismatch is said where the variable was read)
            keyed = {f for f, v in a.fields.items()
                     if v in env and f in FUNCTIONAL.get(a.fact, ()) + (("天",) if a.fact == "盤" else ())}
            cands = [f for f in cands if all(f.get(k) == v for k, v in a.key if k not in keyed)]
            for f in keyed:
                cands = [c for c in cands if c.get(f) == env[a.fields[f]]]
            gen = a.fields.get("將") if a.fact == "盤" else None
            if gen is not None and not keyed and not a.key and w.dom.get(gen) and len(w.dom[gen]) == 1:
                # a general the way names (貴人所乘): the board's one branch under it
                cands = [c for c in cands if c.get("將") in w.dom[gen]] or cands
            keyvars = [v for f, v in a.fields.items() if f in FUNCTIONAL.get(a.fact, ())]
            if a.fact in FUNCTIONAL and FUNCTIONAL[a.fact] and not a.key and any(v not in env for v in keyvars) \
                    and len(cands) > 1:
                # several facts could be meant: choose the one whose values are all allowed
                good = [c for c in cands if all(_allowed(w, v, c.get(f)) for f, v in a.fields.items())]
                chosen = bool(good)
                cands = good or cands
            else:
                chosen = True
            at = _at(w, a)
            fact = cands[0] if cands else None
            if a.fact not in FUNCTIONAL and len(cands) > 1:
                good = [c for c in cands if all(_allowed(w, v, c.get(f)) and (v not in env or env[v] == c.get(f))
                                                for f, v in a.fields.items())]
                fact = good[0] if good else cands[0]
                chosen = bool(good)
            for f, v in sorted(a.fields.items()):
                val = fact.get(f) if fact is not None else None
                ok = fact is not None and _allowed(w, v, val) and (v not in env or env[v] == val)
                if fact is not None and v not in env and chosen:
                    env[v] = val            # (never a value of a fact picked among several that do not fit)
                needs = None if v in w.free else w.dom.get(v)
                r = Read(a.fact, at, f, _sort_of(a, f), needs, w.names.get(v, v))
                out.append(Check(r, val, needs, ok, chosen=chosen))
            if not a.fields:
                r = Read(a.fact, at, "", _sort_of(a, ""), None, "")
                out.append(Check(r, bool(fact), True, fact is not None))
        pending = left
        if not pending:
            break
    for vs, tuples, label in w.rels:
        if all(v in env for v in vs):
            val = tuple(env[v] for v in vs)
            out.append(Check(None, val, label, val in tuples, "relation", tuple(w.names.get(v, v) for v in vs)))
    for text, free, _cond in w.negs:
        # a negated condition is named, not judged here (ok None): explain/whynot judges it
        out.append(Check(None, tuple(env.get(v) for v in free), text, None, "not",
                         tuple(w.names.get(v, v) for v in free)))
    return out


def _allowed(w, v, val):
    d = w.dom.get(v)
    if d is not None and val not in d:
        return False
    if val in w.excl.get(v, ()):
        return False
    return True


# ---------------------------------------------------------------------- building and caching
def meaning_of(kb):
    """The model of the KB's conditions: built once per KB (kept on the KB object, and in the
    cache beside the KB, keyed by the KB's content and the code)."""
    m = kb.__dict__.get("_meaning")
    if m is not None:
        return m
    from liuren.knowledge import cache
    key = getattr(kb, "digest", None)
    if key:
        m = cache.read("meaning", key)
        if not isinstance(m, Meaning):
            m = None
    if m is None:
        m = Meaning(kb)
        if key:
            cache.write("meaning", key, m)
    kb.__dict__["_meaning"] = m
    return m
