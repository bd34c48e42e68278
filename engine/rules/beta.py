"""The beta network after the tables are loaded: each join, negation, test and conflict-set node
as a function made for it (engine/rete.py builds and indexes the network; this takes over once
its static part is known, runtime.BoardEngine.load_static).

Once the tables are in, every input of the network is one of two kinds: static (its fact types
are tables: no token reaches it again) or dynamic (board facts, or what rules assert).

* A join with a static side is a lookup: the other side's tokens are matched against the static
  memory and never stored, since nothing will come to look for them.  A join whose static side
  is empty can never match and is cut from the network (`cut`), as is a node none of whose
  successors can be reached.
* The joins that take the same alpha path on their right and join it on the same variables
  share one right memory, and are activated once per token, through their group (`grouped`).
* Each remaining join side is a small function generated for its shape (how many shared
  variables, which memories it reads and writes, how many successors), with its key read
  straight from the token's context and its memories and successors bound in the closure.  A
  board memory maps a key to {facts: token}, so that a withdrawn token is found at once.
* Negations keep their table part indexed once and their board part apart; tests call their
  function with the context's values; a conflict set keeps its memory (each match with its
  activation) and gives each activation its agenda key.

The per-board memories put themselves on a list when first written, and rete.restore empties
exactly those.  Each generated function remembers how it was made (`_make`), so that a cached
network is pickled as recipes (engine/cache.py) and rebuilt by calling them.

Nothing here changes what matches: the same joins on the same shared variables, in the same
order of facts and of contexts (tests/test_engine.py compares every firing with experta's own
network, and incremental runs with fresh ones).  A node of a kind this does not handle (a side
carrying negated bindings, context keys that cannot be worked out from the patterns) is left as
rete.py made it.
"""
from __future__ import annotations

import operator

from experta.matchers.rete.check import FeatureCheck, TypeCheck
from experta.matchers.rete.mixins import ChildNode
from experta.matchers.rete.nodes import ConflictSetNode, FeatureTesterNode, WhereNode
from experta.matchers.rete.token import Token

from liuren.rules.rete import IndexedMatchNode, IndexedNotNode, NetToken, _nodes, _ops, context_key, recount_left

VALID = Token.TagType.VALID


def _remove_keyed(index, key, token):
    """Withdraw a stored token: a board memory's bucket maps each token's facts (a tuple, in
    the order the join made them) to the token; a token remade by a negation node may list
    its facts in another order, and is looked for by their set."""
    bucket = index.get(key)
    if bucket and bucket.pop(token[1], None) is None:
        data, ctx = frozenset(token[1]), token[2]
        for k, e in bucket.items():
            if e[2] == ctx and frozenset(k) == data:
                del bucket[k]
                return


# --------------------------------------------------------------------------- generated sides
_FACTORIES = {}


def _define(shape, src, label):
    """Compile the source of a factory (lines defining `factory`) and keep it for its shape."""
    env = {}
    exec(compile("\n".join(src), f"<{label} {shape}>", "exec"), env)
    fn = _FACTORIES[shape] = env["factory"]
    return fn


def _side_factory(left, store, static, board, nkeys, conv, nchild):
    """A function making one join side's activation (a closure over its memories and
    successors), generated once per shape:

    left     the token comes from the left (its facts and context go first in a joined token)
    store    keep the token in this side's board memory (the other side can still get tokens)
    static   look it up in the other side's static memory (not empty)
    board    look it up in the other side's board memory (the other side is dynamic)
    nkeys    the number of shared variables (the key: one value, a tuple, or () for none)
    conv     the token's facts may come as a set (from a negation node): make them a tuple
    nchild   the number of successors"""
    shape = (left, store, static, board, nkeys, conv, nchild)
    fn = _FACTORIES.get(shape)
    if fn is not None:
        return fn
    ks = [f"k{i}" for i in range(nkeys)]
    cs = [f"c{i}" for i in range(nchild)]
    src = [f"def factory(K, SO, BO, BS, used, C, VALID, new, T, remove):"]
    if ks:
        src.append(f"    {', '.join(ks)}{',' if nkeys == 1 else ''} = K")
    if cs:
        src.append(f"    {', '.join(cs)}{',' if nchild == 1 else ''} = C")
    src.append("    def act(token):")
    src.append("        tag, data, ctx = token")
    if conv:
        src.append("        if type(data) is not tuple:")
        src.append("            data = tuple(data)")
        if store:
            src.append("            token = new(T, (tag, data, ctx))")
    if nkeys == 0:
        src.append("        key = ()")
    elif nkeys == 1:
        src.append("        key = ctx[k0]")
    else:
        src.append(f"        key = ({', '.join(f'ctx[{k}]' for k in ks)})")
    if store:
        src += ["        if tag is VALID:",
                "            b = BS.get(key)",
                "            if b is None:",
                "                if not BS:",
                "                    used.append(BS)",
                "                BS[key] = {data: token}",
                "            else:",
                "                b[data] = token",
                "        else:",
                "            remove(BS, key, token)"]
    joined = "data + od, {**ctx, **oc}" if left else "od + data, {**oc, **ctx}"
    for memory, wanted, values in (("SO", static, ""), ("BO", board, ".values()")):
        if not wanted:
            continue
        src += [f"        b = {memory}.get(key)",
                "        if b is not None:",
                f"            for _, od, oc in b{values}:",
                f"                t = new(T, (tag, {joined}))"]
        src += [f"                {c}(t)" for c in cs]
    src.append("    return act")
    return _define(shape, src, "join side")


def _where_factory(params, nchild):
    """A test node's activation: its function called with the context's values."""
    shape = ("where", tuple(params), nchild)
    fn = _FACTORIES.get(shape)
    if fn is not None:
        return fn
    cs = [f"c{i}" for i in range(nchild)]
    args = ", ".join(f"{p}=get({p!r})" for p in params)
    src = ["def factory(test, C):"]
    if cs:
        src.append(f"    {', '.join(cs)}{',' if nchild == 1 else ''} = C")
    src += ["    def act(token):",
            "        get = token[2].get",
            f"        if test({args}):"]
    src += [f"            {c}(token)" for c in cs] or ["            pass"]
    src.append("    return act")
    return _define(shape, src, "test")


def _group_factory(nkeys, static):
    """The right activation shared by the joins that take the same alpha path on their right
    and join it on the same variables: the token is stored once, in the board memory those
    joins share as their right memory, and then matched against each one's left memory.
    J: for each join, (its static left memory or None, its board left memory, its successors)."""
    shape = ("group", nkeys, static)
    fn = _FACTORIES.get(shape)
    if fn is not None:
        return fn
    ks = [f"k{i}" for i in range(nkeys)]
    src = ["def factory(K, BR, used, J, VALID, new, T, remove):"]
    if ks:
        src.append(f"    {', '.join(ks)}{',' if nkeys == 1 else ''} = K")
    src += ["    def act(token):",
            "        tag, data, ctx = token",
            "        key = " + ("()" if nkeys == 0 else "ctx[k0]" if nkeys == 1
                                else f"({', '.join(f'ctx[{k}]' for k in ks)})"),
            "        if tag is VALID:",
            "            b = BR.get(key)",
            "            if b is None:",
            "                if not BR:",
            "                    used.append(BR)",
            "                BR[key] = {data: token}",
            "            else:",
            "                b[data] = token",
            "        else:",
            "            remove(BR, key, token)",
            "        for SL, BL, cbs in J:"]
    if static:
        src += ["            if SL:",
                "                b = SL.get(key)",
                "                if b is not None:",
                "                    for _, od, oc in b:",
                "                        t = new(T, (tag, od + data, {**oc, **ctx}))",
                "                        for c in cbs:",
                "                            c(t)"]
    src += ["            b = BL.get(key)",
            "            if b is not None:",
            "                for _, od, oc in b.values():",
            "                    t = new(T, (tag, od + data, {**oc, **ctx}))",
            "                    for c in cbs:",
            "                        c(t)",
            "    return act"]
    return _define(shape, src, "join group")


_GROUPED = object()         # a join's right side, activated by its alpha path's group


# Each generated activation remembers how it was made (`_make`): the network is cached as a
# pickle (engine/cache.py), which stores that recipe rather than the closure, and rebuild()
# makes it again on loading — one call each, instead of cloudpickle rebuilding every closure
# cell by cell.
def _new_side(shape, K, SO, BO, BS, used, C):
    fn = _side_factory(*shape)(K, SO, BO, BS, used, C, VALID, tuple.__new__, NetToken, _remove_keyed)
    fn._make = ("side", shape, (K, SO, BO, BS, used, C))
    return fn


def _new_group(shape, K, BR, used, J):
    fn = _group_factory(*shape)(K, BR, used, J, VALID, tuple.__new__, NetToken, _remove_keyed)
    fn._make = ("group", shape, (K, BR, used, J))
    return fn


def _new_where(shape, test, C):
    fn = _where_factory(*shape)(test, C)
    fn._make = ("where", shape, (test, C))
    return fn


def _new_conflict_set(shape, rule, pending, dirty, used, activation_class):
    fn = _conflict_set(rule, pending, dirty, used, activation_class)
    fn._make = ("csn", shape, (rule, pending, dirty, used, activation_class))
    return fn


_NEW = {"side": _new_side, "group": _new_group, "where": _new_where, "csn": _new_conflict_set}


def rebuild(kind, shape, args):
    """A generated activation again, from its recipe (`_make`)."""
    return _NEW[kind](shape, *args)


class Pending:
    """The activations a rule's conflict set has gained and lost since they were last collected
    (experta keeps them on the node; here the node's activation holds them, so that it need
    not refer to its node)."""
    __slots__ = ("added", "removed")

    def __init__(self):
        self.added, self.removed = set(), set()

    def get_activations(self):
        res = (list(self.added), list(self.removed) if self.removed else ())
        self.added.clear()
        self.removed.clear()
        return res


def _conflict_set(rule, node, dirty, used, activation_class):
    """A rule's conflict-set activation when its tokens carry no negated bindings: experta's
    (rete.dirty_conflict_sets), with the memory held here (emptied in place with the board) and
    the context frozen once for both the memory and the activation's hash.  `node` is where the
    activations gained and lost wait to be collected (a Pending).

    The memory maps each match to its activation, so that a match withdrawn gives back the
    very activation it made (the one the agenda holds, or fired: the audit's incremental runs
    know a firing by it) instead of a new, equal one."""
    memory = {}
    rule_hash = hash(rule)
    Act = activation_class
    # the agenda's key (runtime._Depth.get_key), worked out here once
    salience, order = rule.salience, -rule._wrapped.order

    def act(token):
        dirty.append(node)
        tag, data, ctx = token
        data = frozenset(data)
        info = (data, frozenset(ctx.items()))
        if tag is VALID:
            if info not in memory:
                if not memory:
                    used.append(memory)
                activation = memory[info] = Act(
                    rule, data, ctx, hash((rule_hash, *info)),
                    (salience, sorted([f["__factid__"] for f in data], reverse=True), order, context_key(ctx)))
                if activation in node.removed:
                    node.removed.remove(activation)
                else:
                    node.added.add(activation)
        else:
            activation = memory.pop(info, None)
            if activation is not None:
                if activation in node.added:
                    node.added.remove(activation)
                else:
                    node.removed.add(activation)
    return act


# --------------------------------------------------------------------------- negation
class SplitNotNode(IndexedNotNode):
    """A negation node whose right memory is split like a join's: the static part (table
    tokens, indexed once on the shared variables) and the board part, emptied with the board.
    Its left memory (each left token with the number of right tokens that agree with it) is
    kept only when the right side can still get tokens; otherwise a left token passes or not
    by the static part alone."""

    def split(self, lkeys, rkeys, rneg, rdyn, used):
        join = tuple(sorted(k for k in lkeys & rkeys if isinstance(k, str)))
        self.nj = (lambda ctx: ()) if not join else operator.itemgetter(*join)
        self.rneg = rneg
        self.rdyn = rdyn
        self.used = used
        self.SR = {}
        for info in self.right_memory:
            ctx = dict(info.context)
            self.SR.setdefault(self.nj(ctx), []).append(ctx)
        self.BR, self.LM, self.LI = {}, {}, {}
        self.cbs = tuple(c.callback for c in self.children)

    def _count(self, ctx, key):
        if self.rneg:
            m = self.matcher
            return sum(1 for r in self.SR.get(key, ()) if m(ctx, r)) + \
                sum(1 for r in self.BR.get(key, ()) if m(ctx, r))
        return len(self.SR.get(key, ())) + len(self.BR.get(key, ()))

    def _left(self, token):
        ctx = token[2]
        key = self.nj(ctx)
        count = self._count(ctx, key)
        if count == 0:
            for cb in self.cbs:
                cb(token)
        if not self.rdyn:
            return
        info = token.to_info()
        lm, li = self.LM, self.LI
        if token[0] is VALID:
            if not lm:
                self.used.append(lm)
                self.used.append(li)
            lm[info] = count
            li.setdefault(key, []).append(info)
        else:
            del lm[info]
            li[key].remove(info)

    def _right(self, token):
        ctx = token[2]
        key = self.nj(ctx)
        br = self.BR
        if token[0] is VALID:
            if not br:
                self.used.append(br)
            br.setdefault(key, []).append(ctx)
            inc = 1
        else:
            br[key].remove(ctx)
            inc = -1
        recount_left(self.LI.get(key, ()), self.LM, ctx, inc, self.matcher if self.rneg else None, self.cbs)


# --------------------------------------------------------------------------- the pass
def _path_keys(checks):
    """The context keys of the tokens an alpha path makes (None when they cannot be told)."""
    keys = set()
    for kind, _, arg in _ops(tuple(checks)):
        if kind == 1:
            keys.add(arg)
        elif kind == 3:
            if not (isinstance(arg, str) and arg.startswith("__pattern_")):
                keys.add(arg)
        elif kind == 2:
            m = arg
            inner = getattr(m, "expected", None)
            if getattr(getattr(m, "check", None), "__name__", "") == "not_equal" and isinstance(inner, FeatureCheck) \
                    and getattr(inner.check, "__name__", "") == "wildcard_match" and inner.expected.__bind__:
                keys.add((False, inner.expected.__bind__))
            else:
                return None
    return frozenset(keys)


def _side(child, node):
    fn = getattr(child.callback, "__func__", None)
    if fn in (IndexedMatchNode._left, IndexedNotNode._left):
        return "L"
    if fn in (IndexedMatchNode._right, IndexedNotNode._right):
        return "R"
    return "1"


class Plan:
    """What the pass found, for the tests and the benchmark: how many join sides became
    lookups, stores, were cut, or were left as they were."""

    def __init__(self):
        self.lookup = self.store = self.cut = self.generic = self.grouped = self.conflict_sets = 0


def specialize(root, dynamic, used, dirty=None, activation_class=None):
    """Replace the activations of the beta network under `root` by generated ones.
    `dynamic(fact_class)`: can facts of this class still be declared (board, derived)?
    `used`: the list the per-board memories put themselves on when first written.
    `dirty`: the list of conflict sets touched since activations were last collected
    (rete.dirty_conflict_sets), and its activation class."""
    nodes = _nodes(root)
    parents = {}
    for n in nodes:
        for c in n.children:
            parents.setdefault(id(c.node), []).append((n, _side(c, n)))
    # alpha terminals: their fact class and the keys their tokens carry
    term = {}

    def walk(n, ftype, checks):
        for c in n.children:
            m = c.node
            if type(m) is FeatureTesterNode:
                if isinstance(m.matcher, TypeCheck):
                    walk(m, m.matcher.fact_type, [])
                else:
                    walk(m, ftype, checks + [m.matcher])
        if any(type(c.node) is not FeatureTesterNode for c in n.children) and ftype is not None:
            term[id(n)] = (dynamic(ftype), _path_keys(checks))
    walk(root, None, [])

    # top-down: is each node's output dynamic, and what keys do its tokens carry
    order = _topological(root, nodes)
    dyn, keys, info = {}, {}, {}
    for n in order:
        t = type(n)
        if t is FeatureTesterNode:
            if id(n) in term:
                dyn[id(n)], keys[id(n)] = term[id(n)]
            continue
        if t not in (IndexedMatchNode, IndexedNotNode, WhereNode, ConflictSetNode):
            continue
        ps = parents.get(id(n), [])
        if t in (IndexedMatchNode, IndexedNotNode):
            lp = [p for p, s in ps if s == "L"]
            rp = [p for p, s in ps if s == "R"]
            if len(lp) != 1 or len(rp) != 1:
                raise AssertionError("a two-input node with other than one input on each side")
            ld, rd = dyn.get(id(lp[0]), True), dyn.get(id(rp[0]), True)
            lk, rk = keys.get(id(lp[0])), keys.get(id(rp[0]))
            info[id(n)] = (ld, rd, lk, rk)
            if t is IndexedMatchNode:
                plain = lk is not None and rk is not None and \
                    not any(type(k) is tuple for k in lk | rk)
                sl, sr = _static_tokens(n)
                if plain:
                    dyn[id(n)] = (ld and (rd or bool(sr))) or (rd and (ld or bool(sl)))
                    keys[id(n)] = lk | rk
                else:
                    dyn[id(n)] = ld or rd
                    keys[id(n)] = None if lk is None or rk is None else \
                        frozenset(k for k in lk | rk if isinstance(k, str))
            else:
                # a negation passes left tokens: with no left token after the tables, only a
                # right token withdrawing a static left one could still reach its successors
                dyn[id(n)] = ld or (rd and bool(n.left_memory))
                keys[id(n)] = lk
        else:
            dyn[id(n)] = any(dyn.get(id(p), True) for p, _ in ps)
            keys[id(n)] = keys.get(id(ps[0][0])) if len(ps) == 1 else None

    # bottom-up: the activation of each node's inputs, cutting what can never produce
    plan = Plan()
    entry = {}                  # id(node) -> {side: function or None}
    groups = {}                 # (id(alpha terminal), join variables) -> the joins sharing a right memory
    for n in reversed(order):
        t = type(n)
        if t is ConflictSetNode:
            k = keys.get(id(n))
            if dirty is not None and dyn[id(n)] and k is not None and not any(type(x) is tuple for x in k) \
                    and not n.memory and not n.added and not n.removed:
                n.pending = Pending()
                n._activate = _new_conflict_set((), n.rule, n.pending, dirty, used, activation_class)
                n._beta = True              # restored through `used`, not by the snapshot
                plan.conflict_sets += 1
            entry[id(n)] = {"1": n._activate}
            continue
        if t not in (IndexedMatchNode, IndexedNotNode, WhereNode, FeatureTesterNode):
            continue
        # this node's successors, as they will now be called (dead ones dropped; the joins
        # of one group called once, through the group)
        live = []
        for c in n.children:
            fn = entry.get(id(c.node), {}).get(_side(c, n), c.callback) if id(c.node) in entry else c.callback
            if fn is _GROUPED:
                g = groups[(id(n), c.node.specialized[0])]
                if g["done"]:
                    continue
                g["done"] = True
                fn = _make_group(g, used)
                if len(g["members"]) > 1:
                    plan.grouped += len(g["members"])
                    n.grouped = getattr(n, "grouped", []) + [m[3] for m in g["members"]]
            if fn is not None:
                live.append(ChildNode(c.node, fn))
            elif c.node not in n.__dict__.setdefault("cut", []):
                n.cut.append(c.node)        # never activated again, still part of the network
        n.children[:] = live
        if t is FeatureTesterNode:
            continue
        if t is WhereNode:
            if not live:
                entry[id(n)] = {"1": None}
                continue
            test = n.matcher.test
            shape = (tuple(n.matcher.parameters), len(live))
            entry[id(n)] = {"1": _new_where(shape, test, tuple(c.callback for c in live))}
            continue
        ld, rd, lk, rk = info[id(n)]
        if t is IndexedNotNode:
            if not live or not dyn[id(n)]:
                entry[id(n)] = {"L": None, "R": None}
                continue
            if lk is None or rk is None or n.left_memory or any(type(k) is tuple for k in lk):
                entry[id(n)] = {"L": n._left, "R": n._right}       # as rete.py made it
                continue
            n.__class__ = SplitNotNode
            n._beta = True
            n.split(lk, rk, any(type(k) is tuple for k in rk), rd, used)
            entry[id(n)] = {"L": n._left, "R": n._right if rd else None}
            continue
        # a join
        plain = lk is not None and rk is not None and not any(type(k) is tuple for k in lk | rk)
        observed_ok = (n.left_keys is None or n.left_keys == frozenset(k for k in lk if isinstance(k, str))) and \
            (n.right_keys is None or n.right_keys == frozenset(k for k in rk if isinstance(k, str))) \
            if plain else False
        if not live:
            entry[id(n)] = {"L": None, "R": None}
            plan.cut += 2
            continue
        if not plain or not observed_ok:
            n._cbs = tuple(c.callback for c in live)
            entry[id(n)] = {"L": n._left, "R": n._right}
            plan.generic += 2
            continue
        join = tuple(sorted(lk & rk))
        if n.join == join and n.s_lidx is not None:     # indexed while the tables loaded
            SL, SR = n.s_lidx, n.s_ridx
        else:
            sl, sr = _static_tokens(n)
            SL, SR = _index(sl, join), _index(sr, join)
        n.specialized = (join, SL, SR)
        n.b_lidx, n.b_ridx = {}, {}
        cbs = tuple(c.callback for c in live)
        # a side is live when it can still get tokens and find something to join them with;
        # it stores its tokens only when the other side is live (else none will look for them)
        live_l = ld and (rd or bool(SR))
        live_r = rd and (ld or bool(SL))
        sides = {}
        rparent = _parent(parents, n, "R")
        if live_r and live_l and type(rparent) is FeatureTesterNode:
            # the right memory is shared by the joins of this alpha path and these variables
            g = groups.setdefault((id(rparent), join), {"BR": {}, "members": [], "done": False, "join": join})
            n.b_ridx = g["BR"]
            g["members"].append((SL or None, n.b_lidx, cbs, n))
            sides["R"] = _GROUPED
            plan.store += 1
        for side, is_live, other_live, S_other, B_own, B_other in (
                ("L", live_l, live_r, SR, n.b_lidx, n.b_ridx),
                ("R", live_r, live_l, SL, n.b_ridx, n.b_lidx)):
            if side in sides:
                continue
            if not is_live:
                sides[side] = None
                plan.cut += 1
                continue
            parent = _parent(parents, n, side)
            conv = type(parent) is not FeatureTesterNode and not isinstance(parent, IndexedMatchNode)
            shape = (side == "L", other_live, bool(S_other), other_live, len(join), conv, len(cbs))
            sides[side] = _new_side(shape, join, S_other, B_other, B_own, used, cbs)
            if other_live:
                plan.store += 1
            else:
                plan.lookup += 1
        entry[id(n)] = sides
    # the bus's own children (type tests) and anything above the terminals keep their wiring;
    # the terminals' children were rewritten above
    return plan


def _make_group(g, used):
    """The right activation of a group of joins (one join: its own side function)."""
    members, join = g["members"], g["join"]
    if len(members) == 1:
        SL, BL, cbs, _ = members[0]
        return _new_side((False, True, bool(SL), True, len(join), False, len(cbs)), join, SL or {}, BL, g["BR"],
                         used, cbs)
    return _new_group((len(join), any(m[0] for m in members)), join, g["BR"], used,
                      tuple((m[0], m[1], m[2]) for m in members))


def _parent(parents, n, side):
    return next(p for p, s in parents[id(n)] if s == side)


def _static_tokens(n):
    """The tokens a join stored while the tables loaded (left, right)."""
    if n.s_lidx is not None:
        return [e for b in n.s_lidx.values() for e in b], [e for b in n.s_ridx.values() for e in b]
    return list(n.s_left or ()), list(n.s_right or ())


def _index(tokens, join):
    get = (lambda ctx: ()) if not join else operator.itemgetter(*join)
    out = {}
    for e in tokens:
        if type(e[1]) is not tuple:
            e = tuple.__new__(NetToken, (e[0], tuple(e[1]), e[2]))
        out.setdefault(get(e[2]), []).append(e)
    return out


def _topological(root, nodes):
    """The nodes, each after all its inputs."""
    indeg = {id(n): 0 for n in nodes}
    for n in nodes:
        for c in n.children:
            indeg[id(c.node)] += 1
    ready = [root]
    out = []
    while ready:
        n = ready.pop()
        out.append(n)
        for c in n.children:
            indeg[id(c.node)] -= 1
            if indeg[id(c.node)] == 0:
                ready.append(c.node)
    if len(out) != len(nodes):
        raise AssertionError("the network has a cycle")
    return out

