"""Speed-ups of experta's RETE network, applied after experta has built it.  None changes what
matches or what fires: tests/test_engine.py judges boards with and without them (questions
included) and compares every firing.

experta (pure Python) walks a tree of one-test nodes for every fact, scans the whole opposite
memory of a join for every token, and hashes facts and activations in Python on every set
operation.  With a few hundred rules and a few hundred facts per board that was most of the
judging time.  Here:

* route_bus: the alpha network of each fact type becomes one generated Python function (each
  field read once, plain tests inlined, paths with a leading literal looked up by value); it
  also applies the compiler's semi-join filters (a board pattern joined to a table column only
  lets through that column's values) and leaves out experta's anonymous per-pattern captures,
  which no rule reads and no join shares;
* index_joins: join nodes (IndexedMatchNode) and negation nodes (IndexedNotNode) hash their
  memories on the variables the two sides share, and keep the table part of each memory
  (built once) apart from the board part (emptied in O(1) by restore); their parents call
  them directly, without experta's token copies;
* dirty_conflict_sets: only the conflict sets a token reached are asked for activations, and
  each activation's hash is worked out once;
* NetToken: the network's tokens skip experta's type validation and carry their facts as a
  tuple;
* snapshot / restore: the memories after the tables are loaded, put back before each board
  (only the nodes the board touched).

It is one thing, the network experta builds made fast (each speed-up written out in full, as the
hot code of judging); experta itself is left as found (tests/test_experta_untouched.py).

Once the tables are loaded, engine/beta.py replaces the beta network's activations by functions
made for each node (lookups, shared memories, cut branches); what it does not handle stays as
here.
"""
from __future__ import annotations

import operator

from experta.activation import Activation
from experta.fact import Fact
from experta.matchers.rete.check import FactCapture, FeatureCheck, TypeCheck
from experta.matchers.rete.nodes import NotNode, OrdinaryMatchNode
from experta.matchers.rete.token import Token

VALID, INVALID = Token.TagType.VALID, Token.TagType.INVALID


class NetToken(Token):
    """experta's Token as our network makes it: its facts as a tuple (cheaper to build by
    concatenation and to free; whatever needs a set — conflict sets, negation memories — makes
    a frozenset of it, as experta does anyway), made without experta's validation of every fact
    on each copy.  experta's own Token class is left as it is (tests/test_experta_untouched.py):
    the network makes these, and experta's nodes treat them as Tokens."""

    def __new__(cls, tag, data, context=None):
        if context is None:
            context = {}
        if isinstance(data, Fact):
            data = {data}
        return tuple.__new__(cls, (tag, set(data), context))

    def is_valid(self):
        return self.tag is VALID

    def copy(self):
        data = self.data
        return tuple.__new__(type(self), (self.tag, data if type(data) is tuple else set(data), self.context.copy()))


def _feature_test(check):
    """An alpha test that route_bus cannot inline (kind 2 of _ops), as a function of the fact:
    for a FeatureCheck of a plain field, its check on the field's value without experta's
    per-test debug logging (experta formats a log call for every test of every fact, even with
    logging off) and nested-key walk; any other test, the check itself."""
    what = getattr(check, "what", None)
    if not (isinstance(check, FeatureCheck) and isinstance(what, str) and "__" not in what):
        return check
    fn, expected = check.check, check.expected

    def test(fact):
        try:
            record = fact[what]
        except (IndexError, KeyError, TypeError):
            return False
        return fn(record, expected)
    return test


class FieldCheck(FeatureCheck):
    """experta's FeatureCheck for the network experta builds itself (ExpertaMatcher), with one
    fix: a plain field is read as data[field].  experta walks the name split on '__', taking a
    part that str.isnumeric() accepts for a list index — and the KB has fields named 一 二 三,
    which it accepts and int() then refuses.  (Our own network reads fields in route_bus.)"""

    _instances = {}                 # its own: FeatureCheck.__new__ interns in cls._instances

    def __call__(self, data, is_fact=True):
        what = self.what
        if is_fact and isinstance(what, str) and "__" not in what:
            try:
                record = data[what]
            except (IndexError, KeyError, TypeError):
                return False
            return self.check(record, self.expected)
        return FeatureCheck.__call__(self, data, is_fact)


def _experta_matcher():
    from experta.matchers.rete import ReteMatcher
    from experta.matchers.rete.nodes import FeatureTesterNode

    class ExpertaMatcher(ReteMatcher):
        """experta's own ReteMatcher, the network the speed-ups are compared with
        (tests/test_engine.py), its plain field tests made FieldChecks."""

        @staticmethod
        def build_alpha_part(ruleset, root_node):
            terminals = ReteMatcher.build_alpha_part(ruleset, root_node)
            mine, stack = {}, [root_node]
            while stack:
                node = stack.pop()
                stack.extend(c.node for c in node.children)
                m = getattr(node, "matcher", None)
                if type(node) is FeatureTesterNode and type(m) is FeatureCheck and isinstance(m.what, str) \
                        and "__" not in m.what:
                    c = mine.get(id(m))
                    if c is None:
                        c = mine[id(m)] = tuple.__new__(FieldCheck, tuple(m))
                    node.matcher = c
            return terminals

    return ExpertaMatcher


def route_bus(root, filters=None):
    """Replace experta's alpha network walk by compiled paths.

    experta passes every fact through a tree of one-test nodes, copying the token at each node.
    Here each path from the bus to a node that feeds the beta network is flattened into its list
    of tests; a fact is tried only against the paths of its own class (one class per fact
    type), first narrowed by the path's leading literal test (field == value, looked up in a
    dict), and a token is made once per path that passes.  The tests and their bindings are
    exactly those of the tree.  `filters` (compile.Compiler._semijoin_filters) adds, per
    pattern, the values a field must have to join the tables its rule joins it with."""
    from experta.matchers.rete.nodes import FeatureTesterNode

    by_type = {}

    def walk(node, checks, ftype):
        outputs = []
        for child in node.children:
            n = child.node
            if type(n) is FeatureTesterNode:
                m = n.matcher
                if isinstance(m, TypeCheck):
                    walk(n, [], m.fact_type)
                else:
                    walk(n, checks + [m], ftype)
            else:
                outputs.append(child.callback)
        if outputs and ftype is not None:
            by_type.setdefault(ftype, []).append((tuple(checks), tuple(outputs)))

    for child in root.children:
        n = child.node
        if type(n) is FeatureTesterNode and isinstance(n.matcher, TypeCheck):
            walk(n, [], n.matcher.fact_type)
    other = [c for c in root.children
             if not (type(c.node) is FeatureTesterNode and isinstance(c.node.matcher, TypeCheck))]

    table = {}
    filters = filters or {}
    for ftype, paths in by_type.items():
        keyed, free = {}, []
        for checks, outs in paths:
            flt = filters.get(_signature(ftype, checks), ())
            lit = _literal_check(checks[0]) if checks else None
            if lit is None:
                free.append((_ops(checks), outs, flt))
            else:
                keyed.setdefault(lit[0], {}).setdefault(lit[1], []).append((_ops(checks[1:]), outs, flt))
        table[ftype] = _compile_type(ftype, keyed, free)

    def run(fact, tag):
        fn = table.get(type(fact))
        if fn is None:
            token = NetToken(tag, fact)
            for child in other:
                child.callback(token)
            return
        fn(fact, tag)

    valid, invalid = Token.TagType.VALID, Token.TagType.INVALID
    root.add = lambda fact: run(fact, valid)
    root.remove = lambda fact: run(fact, invalid)
    root.alpha_table = table            # fact class -> its alpha function (for dirty_conflict_sets)


_MISSING = object()


def _run_path(ops, outs, fact, tag):
    """One flattened alpha path, interpreted: its tests in order, then a token to its outputs.
    (The compiled code of _compile_type does the same inline for paths of plain tests.)"""
    from collections.abc import Mapping
    missing = _MISSING
    ctx = {}
    for kind, what, arg in ops:
        if kind == 0:                       # field == literal
            if fact.get(what, missing) != arg:
                return
            continue
        if kind == 1:                       # bind a variable to the field's value
            v = fact.get(what, missing)
            if v is missing or ctx.get(arg, v) != v or ctx.get((False, arg), missing) == v:
                return
            ctx[arg] = v
            continue
        if kind == 3:                       # capture the fact itself (FactCapture)
            if isinstance(arg, str) and arg.startswith("__pattern_"):
                continue                    # experta's anonymous capture: see _compile_type
            if ctx.get(arg, fact) != fact:
                return
            ctx[arg] = fact
            continue
        if kind == 4:                       # P(fn)
            v = fact.get(what, missing)
            if v is missing or not arg(v):
                return
            continue
        if kind == 5:                       # ~L(literal)
            v = fact.get(what, missing)
            if v is missing or v == arg:
                return
            continue
        m = (what or arg)(fact)             # any other experta test, as experta runs it (_feature_test)
        if not m:
            return
        if isinstance(m, Mapping):
            for key, value in m.items():
                if isinstance(key, tuple):
                    if key[1] in ctx and ctx[key[1]] == value:
                        return
                elif ctx.get(key, value) != value or ((False, key) in ctx and ctx[(False, key)] == value):
                    return
            ctx.update(m)
    token = tuple.__new__(NetToken, (tag, (fact,), ctx))
    for cb in outs:
        cb(token)


def _signature(ftype, checks):
    """compile.pattern_signature of the pattern an alpha path tests."""
    items = []
    for m in checks:
        lit = _literal_check(m)
        if lit is not None:
            items.append((lit[0], ("l", lit[1])))
            continue
        check = getattr(m, "check", None)
        what = getattr(m, "what", None)
        if getattr(check, "__name__", "") == "wildcard_match" and isinstance(what, str) \
                and m.expected.__bind__ is not None:
            items.append((what, ("v", m.expected.__bind__)))
    return (getattr(ftype, "fact_type", None), frozenset(items))


def _compile_type(ftype, keyed, free):
    """The alpha network of one fact type as one generated Python function f(fact, tag).

    It reads each field the paths test once, then runs the paths in the order experta's tree
    would hand them the fact: the paths without a leading literal first, then those keyed on a
    literal (field == value), looked up in a dict by the fact's value.  A path of plain tests
    (literal equality or inequality, predicate, variable binding, fact capture) is inlined as
    one `if`; a path with any other experta test is run by _run_path."""
    env = {"M": _MISSING, "T": NetToken, "new": tuple.__new__, "run_path": _run_path}
    counter = [0]

    def const(v, prefix):
        counter[0] += 1
        name = f"{prefix}{counter[0]}"
        env[name] = v
        return name

    def body(paths, fields, indent):
        lines = []
        for ops, outs, flt in paths:
            # the values a field must have to join the tables its rule joins it with
            pre = [f"{fields[field]} in {const(values, 'V')}" for field, values in flt]
            if any(kind == 2 for kind, _, _ in ops):
                if pre:
                    lines.append(f"{indent}if {' and '.join(pre)}:")
                    lines.append(f"{indent}    run_path({const(ops, 'O')}, {const(outs, 'C')}, fact, tag)")
                else:
                    lines.append(f"{indent}run_path({const(ops, 'O')}, {const(outs, 'C')}, fact, tag)")
                continue
            conds, items, bound = [], [], {}
            for kind, what, arg in ops:
                if kind == 0:
                    conds.append(f"{fields[what]} == {const(arg, 'L')}")
                elif kind == 4 and isinstance(getattr(arg, "members", None), frozenset):
                    # a list constraint (compile._one_of): the membership test itself
                    op = "in" if arg.inside else "not in"
                    conds.append(f"{fields[what]} is not M and {fields[what]} {op} {const(arg.members, 'S')}")
                elif kind == 4:
                    conds.append(f"{fields[what]} is not M and {const(arg, 'P')}({fields[what]})")
                elif kind == 5:
                    conds.append(f"{fields[what]} is not M and {fields[what]} != {const(arg, 'L')}")
                elif kind == 1:
                    v = fields[what]
                    conds.append(f"{v} is not M")
                    if arg in bound:
                        conds.append(f"{v} == {bound[arg]}")
                    else:
                        bound[arg] = v
                        items.append(f"{arg!r}: {v}")
                elif isinstance(arg, str) and arg.startswith("__pattern_"):
                    # experta's anonymous capture of the pattern's fact: no rule reads it and no
                    # join shares it (each pattern has its own), so the token goes without it
                    pass
                else:                           # kind 3: a named capture
                    if arg in bound:
                        conds.append(f"{bound[arg]} == fact")
                    else:
                        bound[arg] = "fact"
                        items.append(f"{arg!r}: fact")
            conds += pre
            pad = indent
            if conds:
                lines.append(f"{indent}if {' and '.join(dict.fromkeys(conds))}:")
                pad = indent + "    "
            lines.append(f"{pad}token = new(T, (tag, (fact,), {{{', '.join(items)}}}))")
            for cb in outs:
                lines.append(f"{pad}{const(cb, 'C')}(token)")
        return lines

    def fields_of(paths):
        return {what for ops, _, _ in paths for kind, what, _ in ops if kind in (0, 1, 4, 5)} | \
            {field for _, _, flt in paths for field, _ in flt}

    names = {}
    allfields = fields_of(free) | {f for groups in keyed.values() for ps in groups.values() for f in fields_of(ps)}
    allfields |= set(keyed)
    for f in sorted(allfields, key=str):
        names[f] = f"f{len(names)}"
    head = [f"    {names[f]} = get({f!r}, M)" for f in sorted(allfields, key=str)]
    src = ["def alpha(fact, tag):", "    get = fact.get"] + head + body(free, names, "    ")
    for field, groups in keyed.items():
        table = {}
        for value, paths in groups.items():
            sub = [f"def alpha_{len(env)}(fact, tag):", "    get = fact.get"]
            used = sorted(fields_of(paths), key=str)
            sub += [f"    {names[f]} = get({f!r}, M)" for f in used]
            sub += body(paths, names, "    ") or ["    pass"]
            table[value] = _define("\n".join(sub), env)
        src.append(f"    fn = {const(table, 'K')}.get({names[field]})")
        src.append("    if fn is not None:")
        src.append("        fn(fact, tag)")
    return _define("\n".join(src), env, name="alpha")


def _define(src, env, name=None):
    """The function a generated source defines (named `name`, or its first def)."""
    name = name or src.split("(", 1)[0][4:]
    code = compile(src, f"<alpha network: {name}>", "exec")
    exec(code, env)
    return env[name]


def _ops(checks):
    """A path's tests as (kind, field, arg): 0 literal equality, 1 plain variable binding,
    3 capture of the fact itself, 4 a predicate P(fn) without binding, 5 inequality to a
    literal (~L), 2 any other test (called as experta would).  Bindings of a negated variable
    stay kind 2.  A test of a field the fact lacks fails, as in experta."""
    out = []
    for m in checks:
        lit = _literal_check(m)
        if lit is not None:
            out.append((0, lit[0], lit[1]))
            continue
        check = getattr(m, "check", None)
        what = getattr(m, "what", None)
        if check is not None and getattr(check, "__name__", "") == "wildcard_match" and isinstance(what, str) \
                and "__" not in what and m.expected.__bind__ is not None:
            out.append((1, what, m.expected.__bind__))
            continue
        if isinstance(m, FactCapture):
            out.append((3, None, m.bind))
            continue
        plain = isinstance(what, str) and "__" not in what
        name = getattr(check, "__name__", "")
        if plain and name == "match_predicate" and m.expected.__bind__ is None:
            out.append((4, what, m.expected.match))       # P(fn): fn(value) holds
            continue
        if plain and name == "not_equal":
            lit = _literal_check(m.expected)
            if lit is not None and lit[0] == what:
                out.append((5, what, lit[1]))              # ~L(v): value != v
                continue
        out.append((2, _feature_test(m), m))
    return tuple(out)


def _literal_check(m):
    """(field, value) when a test is field == literal without binding, else None."""
    check = getattr(m, "check", None)
    if check is None or getattr(check, "__name__", "") != "equal_literal":
        return None
    what, expected = m.what, m.expected
    if not isinstance(what, str) or "__" in what or expected.__bind__ is not None:
        return None
    return what, expected.value


# A network's board count (Snapshot.epoch[0], one list per network): restore() moves it on, and a
# join node that meets its first token of a new board forgets the last board's tokens then
# (instead of every node being emptied after every board); the nodes a board reached are listed
# (Snapshot.epoch[1]) so that restore() can drop their tokens at once.


class IndexedMatchNode(OrdinaryMatchNode):
    """An OrdinaryMatchNode whose memories are hashed on the variables the two sides share,
    and split in two: the static part (tokens made of table facts, stored while the tables are
    loaded and never changed afterwards) and the board part (emptied before each board, in O(1),
    by `clear_board`).  The entries are the tokens themselves (their facts as a tuple); a
    side's tokens either all carry negated bindings or none do (left_neg, right_neg)."""

    def _reset(self):
        self.left_keys = self.right_keys = self.join = self._get = None
        self.loading = True            # tokens are static until freeze()
        self.s_left, self.s_right = [], []       # static entries, as lists until indexed
        self.s_lidx = self.s_ridx = None
        self.clear_board()

    def clear_board(self):
        if self.__dict__.get("b_left") or self.__dict__.get("b_right") or "b_left" not in self.__dict__:
            self.b_left, self.b_right = [], []   # board entries before the join is known
        self.b_lidx, self.b_ridx = {}, {}

    def freeze(self, epoch):
        self.loading = False
        self._ep = epoch                    # the network's board count
        self._epoch = -1                    # the first board starts with empty board memories
        self._cbs = tuple(child.callback for child in self.children)    # wired for good by now

    def _fresh(self):
        """The first token of a board: the node is listed for restore() to empty its board
        part once the board is judged (every board begins with restore())."""
        self._epoch = self._ep[0]
        self._ep[1].append(self)

    @staticmethod
    def _keys(context):
        return frozenset(k for k in context if isinstance(k, str))

    def _build(self):
        join = tuple(sorted(self.left_keys & self.right_keys))
        self.join = join
        get = (lambda ctx: ()) if not join else operator.itemgetter(*join)
        self._get = get
        self.s_lidx, self.s_ridx = {}, {}
        for entry in self.s_left:
            self.s_lidx.setdefault(get(entry[2]), []).append(entry)
        for entry in self.s_right:
            self.s_ridx.setdefault(get(entry[2]), []).append(entry)
        self.s_left = self.s_right = None
        for entry in self.b_left:
            self.b_lidx.setdefault(get(entry[2]), []).append(entry)
        for entry in self.b_right:
            self.b_ridx.setdefault(get(entry[2]), []).append(entry)
        self.b_left, self.b_right = [], []

    def _setup_activation(self, is_left, token):
        """An activation while the tables load, or before both sides have had a token."""
        if not self.loading and self._epoch != self._ep[0]:
            self._fresh()
        ctx = token.context
        if is_left:
            if self.left_keys is None:
                self.left_keys = self._keys(ctx)
        elif self.right_keys is None:
            self.right_keys = self._keys(ctx)
        if self.join is None and self.left_keys is not None and self.right_keys is not None:
            self._build()
        valid = token.tag is VALID
        data = token.data
        if type(data) is not tuple:      # a token remade by a NotNode carries a frozenset
            data = tuple(data)
        # negated bindings (from ~$x) need experta's full context check; a side's tokens all have
        # the same kind of context, so look once per side
        if is_left:
            neg = self.__dict__.get("left_neg")
            if neg is None:
                neg = self.left_neg = any(type(k) is tuple for k in ctx)
        else:
            neg = self.__dict__.get("right_neg")
            if neg is None:
                neg = self.right_neg = any(type(k) is tuple for k in ctx)
        entry = token if data is token.data else tuple.__new__(NetToken, (token.tag, data, ctx))
        if self.join is None:
            if self.loading:
                mem = self.s_left if is_left else self.s_right
            else:
                mem = self.b_left if is_left else self.b_right
            if valid:
                mem.append(entry)
            else:
                _remove(mem, entry)
            return                      # the other side has never had a token: nothing to join
        key = self._get(ctx)
        if self.loading:
            own = self.s_lidx if is_left else self.s_ridx
        else:
            own = self.b_lidx if is_left else self.b_ridx
        if valid:
            own.setdefault(key, []).append(entry)
        else:
            _remove(own.get(key, []), entry)
        if is_left:
            others = (self.s_ridx.get(key, ()), self.b_ridx.get(key, ()))
        else:
            others = (self.s_lidx.get(key, ()), self.b_lidx.get(key, ()))
        tag, children = token.tag, self.children
        other_neg = self.right_neg if is_left else self.left_neg
        for bucket in others:
            for _, other_data, other_context in bucket:
                # the bucket already agrees on every shared variable; only negated bindings
                # (from ~$x tests) still need experta's full check
                if neg or other_neg:
                    left, right = (ctx, other_context) if is_left else (other_context, ctx)
                    if not self.matcher(left, right):
                        continue
                    newcontext = {k: v for k, v in ctx.items() if isinstance(k, str)}
                    for k, v in other_context.items():
                        if not isinstance(k, tuple):
                            newcontext[k] = v
                else:                   # no negated bindings on either side: a plain merge
                    newcontext = {**ctx, **other_context}
                # a fresh tuple of facts (left side first) and a fresh context: build the token
                # without copying
                newtoken = tuple.__new__(NetToken, (tag, data + other_data if is_left else other_data + data,
                                                 newcontext))
                for child in children:
                    child.callback(newtoken)

    def _activation(self, is_left, token):
        """A token from the left (is_left) or from the right: store it, and pass on its join
        with every stored token of the other side that agrees on the shared variables."""
        if is_left:
            self._left(token)
        else:
            self._right(token)

    def _left(self, token):
        """A token from the left.  _right is its mirror image; the two are kept apart rather
        than sharing a helper because they are the hottest code of judging (one call each per
        token a join receives)."""
        if self.join is None or self.loading:
            self._setup_activation(True, token)
            return
        if self._epoch != self._ep[0]:
            self._fresh()
        ctx = token.context
        data = token.data
        if type(data) is not tuple:
            data = tuple(data)
            token = tuple.__new__(NetToken, (token.tag, data, ctx))
        key = self._get(ctx)
        tag = token.tag
        own = self.b_lidx
        if tag is VALID:
            bucket = own.get(key)
            if bucket is None:
                own[key] = [token]
            else:
                bucket.append(token)
        else:
            _remove(own.get(key, []), token)
        a, b = self.s_ridx.get(key), self.b_ridx.get(key)
        if not a and not b:
            return
        plain = not (self.left_neg or self.right_neg)
        callbacks = self._cbs
        for bucket in (a, b):
            if not bucket:
                continue
            for _, other_data, other_context in bucket:
                if plain:
                    newcontext = {**ctx, **other_context}
                else:
                    newcontext = self._merge_negated(ctx, other_context)
                    if newcontext is None:
                        continue
                newtoken = tuple.__new__(NetToken, (tag, data + other_data, newcontext))
                for cb in callbacks:
                    cb(newtoken)

    def _right(self, token):
        if self.join is None or self.loading:
            self._setup_activation(False, token)
            return
        if self._epoch != self._ep[0]:
            self._fresh()
        ctx = token.context
        data = token.data
        if type(data) is not tuple:
            data = tuple(data)
            token = tuple.__new__(NetToken, (token.tag, data, ctx))
        key = self._get(ctx)
        tag = token.tag
        own = self.b_ridx
        if tag is VALID:
            bucket = own.get(key)
            if bucket is None:
                own[key] = [token]
            else:
                bucket.append(token)
        else:
            _remove(own.get(key, []), token)
        a, b = self.s_lidx.get(key), self.b_lidx.get(key)
        if not a and not b:
            return
        plain = not (self.left_neg or self.right_neg)
        callbacks = self._cbs
        for bucket in (a, b):
            if not bucket:
                continue
            for _, other_data, other_context in bucket:
                if plain:
                    newcontext = {**other_context, **ctx}
                else:
                    newcontext = self._merge_negated(other_context, ctx)
                    if newcontext is None:
                        continue
                newtoken = tuple.__new__(NetToken, (tag, other_data + data, newcontext))
                for cb in callbacks:
                    cb(newtoken)

    def _merge_negated(self, left, right):
        """The joined context when a side carries negated bindings (from ~$x tests): experta's
        full check, then its merge without the negated entries; None when they disagree."""
        if not self.matcher(left, right):
            return None
        out = {k: v for k, v in left.items() if isinstance(k, str)}
        for k, v in right.items():
            if not isinstance(k, tuple):
                out[k] = v
        return out

    def _activate_left(self, token):
        self._activation(True, token)

    def _activate_right(self, token):
        self._activation(False, token)


def _remove(mem, entry):
    """Drop the stored entry an INVALID token withdraws (its facts compared as a set: a token
    remade by a NotNode lists them in another order)."""
    data, ctx = entry[1], entry[2]
    n = len(data)
    for i, e in enumerate(mem):
        # the very same facts in the same order: the usual case (facts by identity, as below)
        if e[2] == ctx and len(e[1]) == n and all(map(operator.is_, e[1], data)):
            del mem[i]
            return
    data = frozenset(data)
    for i, e in enumerate(mem):
        if e[2] == ctx and frozenset(e[1]) == data:
            del mem[i]
            return


def recount_left(lefts, left_memory, ctx, inc, check, callbacks):
    """A negation's right token ctx came (inc 1) or went (inc -1): each left token it joins
    (check: the full test where the right side has negated bindings) counts one match more or
    fewer; one that goes from 0 to 1 is withdrawn below, one that goes back to 0 let through."""
    for left in lefts:
        if check is not None and not check(dict(left.context), ctx):
            continue
        count = left_memory[left] = left_memory[left] + inc
        # TokenInfo.to_valid_token / to_invalid_token, made as the network's tokens
        if count == 0 and inc == -1:
            newtoken = tuple.__new__(NetToken, (VALID, set(left.data), dict(left.context)))
        elif count == 1 and inc == 1:
            newtoken = tuple.__new__(NetToken, (INVALID, set(left.data), dict(left.context)))
        else:
            continue
        for cb in callbacks:
            cb(newtoken)


class IndexedNotNode(NotNode):
    """experta's NotNode (a left token passes while no right token agrees with it), with both
    memories also hashed on the variables the two sides share, so that a token meets only the
    tokens of the other side that agree with it, instead of all of them.  Until both sides have
    had a token (the shared variables are not known yet) it runs as experta's NotNode."""

    def _reset(self):
        super()._reset()
        self.n_lkeys = self.n_rkeys = self.n_join = None
        self.n_rneg = False
        self.l_idx = self.r_idx = None

    def _touch(self):
        if not self.__dict__.get("_touched"):
            self._touched = True
            touched = self.__dict__.get("_touch_list")
            if touched is not None:
                touched.append(self)

    def _index(self):
        join = tuple(sorted(self.n_lkeys & self.n_rkeys))
        get = (lambda ctx: ()) if not join else operator.itemgetter(*join)
        self.n_join = get
        self.r_idx, self.l_idx = {}, {}
        for info in self.right_memory:
            ctx = dict(info.context)
            self.r_idx.setdefault(get(ctx), []).append(ctx)
        for info in self.left_memory:
            self.l_idx.setdefault(get(dict(info.context)), []).append(info)

    def _left(self, token):
        self._touch()
        ctx = token.context
        if self.n_lkeys is None:
            self.n_lkeys = frozenset(k for k in ctx if isinstance(k, str))
            if self.n_rkeys is not None:
                self._index()
        get = self.n_join
        if get is None:
            NotNode._activate_left(self, token)
            return
        key = get(ctx)
        bucket = self.r_idx.get(key, ())
        if self.n_rneg:                     # negated bindings on the right: experta's full check
            count = sum(1 for r in bucket if self.matcher(ctx, r))
        else:
            count = len(bucket)
        info = token.to_info()
        if count == 0:
            for child in self.children:
                child.callback(token)
        if token.tag is VALID:
            self.left_memory[info] = count
            self.l_idx.setdefault(key, []).append(info)
        else:
            del self.left_memory[info]
            self.l_idx[key].remove(info)

    def _right(self, token):
        self._touch()
        ctx = token.context
        if self.n_rkeys is None:
            self.n_rkeys = frozenset(k for k in ctx if isinstance(k, str))
            self.n_rneg = any(type(k) is tuple for k in ctx)
            if self.n_lkeys is not None:
                self._index()
        get = self.n_join
        if get is None:
            NotNode._activate_right(self, token)
            return
        key = get(ctx)
        info = token.to_info()
        if token.tag is VALID:
            self.right_memory.append(info)
            self.r_idx.setdefault(key, []).append(ctx)
            inc = 1
        else:
            self.right_memory.remove(info)
            self.r_idx[key].remove(ctx)
            inc = -1
        lefts = self.l_idx.get(key, ())
        if lefts:
            recount_left(lefts, self.left_memory, ctx, inc, self.matcher if self.n_rneg else None,
                         [c.callback for c in self.children])


def index_joins(root):
    """Turn every OrdinaryMatchNode reachable from root into an IndexedMatchNode, and let its
    parents call it without copying the token (nothing downstream mutates a token's facts or
    context: the alpha tests run in route_bus, the joins build new contexts)."""
    seen = set()
    stack = [root]
    n = 0
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if type(node) is OrdinaryMatchNode:
            node.__class__ = IndexedMatchNode
            node._reset()
            n += 1
        elif type(node) is NotNode:
            node.__class__ = IndexedNotNode
            node._reset()
        stack.extend(c.node for c in node.children)
    from experta.matchers.rete.abstract import TwoInputNode
    from experta.matchers.rete.mixins import ChildNode
    for node in _nodes(root):
        for i, child in enumerate(node.children):
            if type(child.node) is IndexedMatchNode:
                fn = getattr(child.callback, "__func__", None)
                if fn is TwoInputNode.activate_left:
                    node.children[i] = ChildNode(child.node, child.node._left)
                elif fn is TwoInputNode.activate_right:
                    node.children[i] = ChildNode(child.node, child.node._right)
            elif type(child.node) is IndexedNotNode:
                fn = getattr(child.callback, "__func__", None)
                if fn is TwoInputNode.activate_left:
                    node.children[i] = ChildNode(child.node, child.node._left)
                elif fn is TwoInputNode.activate_right:
                    node.children[i] = ChildNode(child.node, child.node._right)
    return n


# --------------------------------------------------------------------------- snapshots
def _nodes(root):
    seen, stack, out = set(), [root], []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        out.append(node)
        stack.extend(c.node for c in node.children)
        stack.extend(node.__dict__.get("grouped", ()))      # joins called through a group (beta.py)
        stack.extend(node.__dict__.get("cut", ()))          # successors that can never be reached (beta.py)
    return out


def _copy(v):
    if isinstance(v, list):
        return list(v)
    if isinstance(v, set):
        return set(v)
    if isinstance(v, dict):
        return {k: (list(x) if isinstance(x, list) else x) for k, x in v.items()}
    return v


_STATE = ("left_memory", "right_memory", "memory", "added", "removed",
          "n_lkeys", "n_rkeys", "n_join", "n_rneg", "l_idx", "r_idx")     # the last six: IndexedNotNode


class Snapshot(dict):
    """id(node) -> (node, memory state) for every node with memory, and the nodes touched since
    the last restore (they record themselves on their first activation)."""

    def __init__(self):
        super().__init__()
        self.used = []                      # per-board memories written since (beta.py)
        self.touched = []
        self.epoch = [0, []]                # the board count, the join nodes the board reached


def snapshot(root):
    """The memories of every node, to be restored before each board (instead of retracting
    the previous board's facts one by one).  Only the nodes touched since are restored."""
    from experta.matchers.rete.nodes import ConflictSetNode, NotNode
    snap = Snapshot()
    tracked = (NotNode, ConflictSetNode, OrdinaryMatchNode)
    for node in _nodes(root):
        if isinstance(node, IndexedMatchNode):
            node.freeze(snap.epoch)
            continue
        if node.__dict__.get("_beta"):      # its board memories put themselves on snap.used (beta.py)
            continue
        state = {k: _copy(getattr(node, k)) for k in _STATE if k in node.__dict__}
        if not state:
            continue
        snap[id(node)] = (node, state)
        node._snap_state = state            # restore reads it from the node (ids change when unpickled)
        node._touch_list = snap.touched
        node._touched = False
        if isinstance(node, tracked) and not isinstance(node, IndexedMatchNode):
            _track(node)
    return snap


def _track(node):
    """Make a node register itself on its first activation after a restore."""
    for name in ("_activate", "_activate_left", "_activate_right"):
        original = getattr(node, name, None)
        if original is None:
            continue

        def wrapped(token, node=node, original=original):
            if not node.__dict__.get("_touched"):
                node._touched = True
                node._touch_list.append(node)
            return original(token)
        setattr(node, name, wrapped)


def restore(snap):
    used = getattr(snap, "used", None)
    if used:                                # the per-board memories of beta.py's nodes
        for m in used:
            m.clear()
        used.clear()
    dirty = getattr(snap, "dirty", None)
    if dirty:                               # a run stopped before its activations were collected
        for csn in dirty:
            csn.added, csn.removed = set(), set()
        dirty.clear()
    snap.epoch[0] += 1                      # the join nodes forget the board on their next token
    # … and the ones the board reached let go of its tokens now, while the judgment still holds
    # the collector off: freed by reference counting then, they are not left for the next
    # collection to scan (and promote) as live objects
    used = snap.epoch[1]
    for node in used:
        if node.b_lidx:
            node.b_lidx = {}
        if node.b_ridx:
            node.b_ridx = {}
        if node.b_left:
            node.b_left = []
        if node.b_right:
            node.b_right = []
    used.clear()
    for node in snap.touched:
        for k, v in node._snap_state.items():
            setattr(node, k, _copy(v))
        node._touched = False
    snap.touched.clear()


# --------------------------------------------------------------------------- activations
def dirty_conflict_sets(matcher):
    """experta collects new activations by asking every rule's conflict-set node after every
    change; with hundreds of rules that dominates a firing.  Here each conflict-set node marks
    itself when a token reaches it, and `changes` asks only the marked ones.  Its parents call
    it directly (experta copies the token first, and nothing here changes a token)."""
    from experta.matchers.rete.mixins import ChildNode
    from experta.matchers.rete.nodes import ConflictSetNode
    dirty = []
    valid = Token.TagType.VALID
    nodes = _nodes(matcher.root_node)
    direct = {}
    for node in nodes:
        if isinstance(node, ConflictSetNode):
            def _activate(token, node=node, rule=node.rule, rule_hash=hash(node.rule)):
                # experta's ConflictSetNode._activate, the same memory and the same activations,
                # with each activation's hash worked out once (experta's Activation hashes its
                # facts and context again on every set operation)
                if not node._touched:
                    node._touched = True
                    node._touch_list.append(node)
                dirty.append(node)
                data = frozenset(token.data)
                items = token.context.items()
                info = (data, frozenset(items))
                context = {k: v for k, v in items if type(k) is str}
                activation = _Activation(rule, data, context, hash((rule_hash, data, frozenset(context.items()))))
                if token.tag is valid:
                    if info not in node.memory:
                        node.memory.add(info)
                        if activation in node.removed:
                            node.removed.remove(activation)
                        else:
                            node.added.add(activation)
                elif info in node.memory:
                    node.memory.remove(info)
                    if activation in node.added:
                        node.added.remove(activation)
                    else:
                        node.removed.add(activation)
            node._activate = _activate
            node._touched, node._touch_list = True, []     # snapshot() starts the tracking
            direct[id(node)] = _activate
    for node in nodes:
        for i, child in enumerate(node.children):
            fn = direct.get(id(child.node))
            if fn is not None:
                node.children[i] = ChildNode(child.node, fn)

    def changes(adding=None, deleting=None):
        root = matcher.root_node
        if deleting is not None:
            for deleted in deleting:
                root.remove(deleted)
        if adding is not None:
            table = root.__dict__.get("alpha_table") or {}
            for added in adding:
                fn = table.get(type(added))     # the fact's own alpha function (route_bus)
                if fn is None:
                    root.add(added)
                else:
                    fn(added, valid)
        added, removed = [], []
        for csn in dict.fromkeys(dirty):
            a, r = csn.get_activations()
            added.extend(a)
            removed.extend(r)
        dirty.clear()
        return added, removed

    matcher.changes = changes
    matcher.dirty = dirty


class context_key:
    """A match's bindings in one canonical order: the agenda's last tie-break.  Two activations
    of one rule on the very same facts differ only in how they bind them (a symmetric pair
    matched from both ends: 子 刑 卯 and 卯 刑 子); without it their order would be the order in
    which the network happened to yield them, which differs with the hash seed and with what
    was judged before.  The sorted bindings are worked out only when two keys tie on everything
    before them (an agenda key compares this last), which is rare: computing them for every
    activation cost some 6 % of judging."""
    __slots__ = ("ctx", "_k")

    def __init__(self, ctx):
        self.ctx = ctx
        self._k = None

    def key(self):
        k = self._k
        if k is None:
            k = self._k = tuple(sorted((a, v) if type(v) is str else (a, repr(v)) for a, v in self.ctx.items()))
        return k

    def __eq__(self, other):
        return self.key() == other.key()

    def __lt__(self, other):
        return self.key() < other.key()

    def __le__(self, other):
        return self.key() <= other.key()

    def __gt__(self, other):
        return self.key() > other.key()

    def __ge__(self, other):
        return self.key() >= other.key()

    __hash__ = None


class _Activation(Activation):
    """experta's Activation with its hash given at creation."""

    def __init__(self, rule, facts, context, h, key=None):
        self.rule = rule
        self.facts = facts
        self.key = key
        self.context = context
        self._h = h

    def __hash__(self):
        return self._h


class _KeyedActivation(_Activation):
    """An activation made by one of beta.py's conflict sets: its agenda key is given at
    creation, and when its match is withdrawn the conflict set gives back this same object —
    so the object itself identifies the firing (runtime.BoardEngine.run_board)."""


# --------------------------------------------------------------------------- alpha order
def _make_matcher():
    """experta's ReteMatcher, but building each pattern's alpha chain with its literal tests
    (field == value) first and its variable bindings after, so that index_alpha can dispatch
    on the literals and a fact never walks the chains of patterns it cannot match."""
    from itertools import chain
    from collections import Counter
    from experta.conditionalelement import NOT, OR, TEST
    from experta.fact import Fact, InitialFact
    from experta.fieldconstraint import ANDFC, NOTFC, ORFC
    from experta.matchers.rete import ReteMatcher
    from experta.matchers.rete.check import FactCapture, FeatureCheck, SameContextCheck, TypeCheck, WhereCheck
    from experta.matchers.rete.nodes import ConflictSetNode, FeatureTesterNode, WhereNode
    from experta.matchers.rete.utils import extract_facts, generate_checks, prepare_rule, wire_rule
    from experta.rule import Rule

    def plain(v):
        # a field constraint experta's DNF leaves as it is
        if isinstance(v, NOTFC):
            return not isinstance(v[0], (ORFC, ANDFC, NOTFC))
        return not isinstance(v, (ORFC, ANDFC))

    def flat(rule):
        """Is the rule a conjunction of patterns, negated patterns and tests, with no OR of
        patterns or of field constraints — already in the form experta's DNF would give it?
        (All the compiler makes: it expands ORs itself, compile.dnf.)"""
        for e in rule:
            if isinstance(e, TEST):
                continue
            if isinstance(e, NOT) and len(e) == 1:
                e = e[0]
            if not isinstance(e, Fact) or not all(plain(v) for v in e.values()):
                return False
        return True

    def prepare(rule):
        """experta's prepare_rule (DNF, then an InitialFact before a leading NOT or where the
        rule has no pattern), without rebuilding a rule that is in DNF already: experta rewrites
        it until it stops changing, comparing whole rules, and dispatches every element through
        singledispatch."""
        if not flat(rule):
            return prepare_rule(rule)
        if not len(rule):
            return rule.new_conditions(InitialFact())
        if isinstance(rule[0], NOT) or not any(isinstance(e, (Fact, NOT)) for e in rule):
            return rule.new_conditions(InitialFact(), *rule)
        # a rule of its own, as experta's would be: the engine class's rule is bound to the
        # engine (rule.ke), which the network must not point back to (a cached network's
        # pickle would rebuild a rule before its state)
        return rule.new_conditions(*rule)

    def wire(rule, alpha_terminals, shared):
        """experta's wire_rule for a flat rule (Fact, NOT, TEST in a row), without the fresh
        singledispatch function experta makes for every rule (whose empty cache then computes
        the MRO of each fact class it meets).  A join (or negation) of the same two inputs is
        made once and shared by every rule that has it (`shared`): rules of one family begin
        with the same patterns, and experta gives each its own chain, which then stores and
        joins the same tokens once per rule.  (Equal patterns share their alpha terminal, see
        build_alpha_part; a join's output depends on nothing but its two inputs.)"""
        def node_of(e):
            if isinstance(e, TEST):
                return WhereNode(WhereCheck(e[0]))
            if isinstance(e, NOT):
                return alpha_terminals[e[0]]
            return alpha_terminals[e]
        elems = list(rule)
        if len(elems) == 1:
            last = node_of(elems[0])
        else:
            current = None
            for f, s in zip(elems, elems[1:]):
                if isinstance(s, TEST):
                    if current is None:
                        current = node_of(f)
                    new = node_of(s)
                    current.add_child(new, new.activate)
                    current = new
                else:
                    node_cls = NotNode if isinstance(s, NOT) else OrdinaryMatchNode
                    if current is None:
                        left, right = node_of(f), node_of(s)
                    else:
                        left, right = current, node_of(s)
                    key = (id(left), id(right), node_cls)
                    current = shared.get(key)
                    if current is None:
                        current = shared[key] = node_cls(SameContextCheck())
                        left.add_child(current, current.activate_left)
                        right.add_child(current, current.activate_right)
            last = current
        csn = ConflictSetNode(rule)
        last.add_child(csn, csn.activate)

    def _wiring_order(rule):
        """Rules are wired in the order of their names (r<n>_<id>), which does not depend on the
        hash seed and costs no rule's text; experta's own rule without a function (the
        InitialFact one) goes last, by its text."""
        fn = getattr(rule, "_wrapped", None)
        return (0, fn.__name__, "") if fn is not None else (1, "", str(rule))

    class LiurenMatcher(ReteMatcher):
        @staticmethod
        def prepare_ruleset(engine):
            return {prepare(rule) for rule in engine.get_rules()}

        @staticmethod
        def build_beta_part(ruleset, alpha_terminals):
            shared = {}
            for rule in sorted(ruleset, key=_wiring_order):     # an order to wire in (a set has none)
                if flat(rule):
                    wire(rule, alpha_terminals, shared)
                elif isinstance(rule[0], OR):
                    for sub in rule[0]:
                        wire_rule(rule, alpha_terminals, lhs=sub)
                else:
                    wire_rule(rule, alpha_terminals, lhs=rule)

        @staticmethod
        def build_alpha_part(ruleset, root_node):
            ruleset = ruleset.copy()
            ruleset.add(Rule(InitialFact()))
            rule_facts = {rule: extract_facts(rule) for rule in ruleset}
            # the engine's patterns hash by identity (runtime.fact_class): patterns of equal
            # content (in different rules) are made one alpha path here, so that they end in
            # one terminal node, and the joins behind it can be shared (wire)
            fact_checks, first = {}, {}
            for fact in chain.from_iterable(rule_facts.values()):
                if fact in fact_checks:
                    continue
                try:
                    key = (type(fact), frozenset(fact.items()))
                    rep = first.setdefault(key, fact)
                except TypeError:               # an unhashable constraint: a path of its own
                    rep = fact
                fact_checks[fact] = fact_checks[rep] if rep is not fact else set(generate_checks(fact))
            check_rank = Counter(chain.from_iterable(fact_checks.values()))

            def order(check):
                if isinstance(check, TypeCheck):
                    return (0, 0, "")
                if isinstance(check, FactCapture):
                    return (3, 0, str(check))
                if isinstance(check, FeatureCheck) and getattr(check.check, "__name__", "") == "equal_literal" \
                        and check.expected.__bind__ is None:
                    return (1, -check_rank[check], str(check))
                return (2, -check_rank[check], str(check))

            fact_terminal_nodes = {}
            for rule in sorted(ruleset, key=_wiring_order):
                for fact in rule_facts[rule]:
                    current = root_node
                    for check in sorted(fact_checks[fact], key=order):
                        for child in current.children:
                            if child.node.matcher is check:
                                current = child.node
                                break
                        else:
                            new = FeatureTesterNode(check)
                            current.add_child(new, new.activate)
                            current = new
                    fact_terminal_nodes[fact] = current
            return fact_terminal_nodes

    return LiurenMatcher


LiurenMatcher = _make_matcher()
ExpertaMatcher = _experta_matcher()
