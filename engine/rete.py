"""Two speed-ups of experta's RETE network, applied after the network is built.

experta (pure Python) scans every child of the bus for every fact, and every join node scans
the whole opposite memory for every token.  With a few hundred rules and a few hundred facts
per board that is most of the judging time.  Two changes, neither altering what matches:

* the bus hands a fact only to the sub-network of its own fact class (one class per fact type,
  see compile.fact_class), instead of testing it against every type;
* join nodes (OrdinaryMatchNode) index both memories on the variables the two sides share,
  so a token meets only the tokens that agree with it; the full SameContextCheck still runs
  on those candidates (it also handles negated bindings).

`index_joins(root)` rewires an existing network; tests/test_engine.py checks that judging
the 720 lessons gives the same firings with and without it.

A third, smaller one: experta validates the types of a token's facts every time a token is
copied (several times per fact per node); `fast_tokens()` skips that check, since the engine
only ever puts experta Facts into tokens.
"""
from __future__ import annotations

from contextlib import suppress

from experta.matchers.rete.check import TypeCheck
from experta.matchers.rete.nodes import OrdinaryMatchNode
from experta.matchers.rete.token import Token


def fast_tokens():
    """Token(tag, data, context) without re-validating every fact on each copy."""
    if getattr(Token, "_liuren_fast", False):
        return
    from experta.fact import Fact

    def __new__(cls, tag, data, context=None):
        if context is None:
            context = {}
        if isinstance(data, Fact):
            data = {data}
        return tuple.__new__(cls, (tag, set(data), context))

    Token.__new__ = __new__
    Token._liuren_fast = True


def route_bus(root):
    """Replace the bus's linear scan of its children by a lookup on the fact's class."""
    by_type, other = {}, []
    for child in root.children:
        m = getattr(child.node, "matcher", None)
        if isinstance(m, TypeCheck):
            by_type.setdefault(m.fact_type, []).append(child)
        else:
            other.append(child)

    def add(fact):
        token = Token.valid(fact)
        for child in by_type.get(type(fact), other):
            child.callback(token)

    def remove(fact):
        token = Token.invalid(fact)
        for child in by_type.get(type(fact), other):
            child.callback(token)

    root.add, root.remove = add, remove


class IndexedMatchNode(OrdinaryMatchNode):
    """An OrdinaryMatchNode whose memories are hashed on the shared variables."""

    def _reset(self):
        self.left_memory = []          # kept as lists until both sides' variables are known
        self.right_memory = []
        self.left_keys = None          # variable names of left / right tokens
        self.right_keys = None
        self.join = None               # shared variables, once known
        self.left_index = None
        self.right_index = None

    @staticmethod
    def _keys(context):
        return frozenset(k for k in context if isinstance(k, str))

    def _project(self, context):
        return tuple(context.get(k) for k in self.join)

    def _build(self):
        self.join = tuple(sorted(self.left_keys & self.right_keys))
        self.left_index, self.right_index = {}, {}
        for info in self.left_memory:
            self.left_index.setdefault(self._project(dict(info.context)), []).append(info)
        for info in self.right_memory:
            self.right_index.setdefault(self._project(dict(info.context)), []).append(info)
        self.left_memory = self.right_memory = None

    def _activation(self, token, is_left):
        ctx = token.context
        if is_left:
            if self.left_keys is None:
                self.left_keys = self._keys(ctx)
        elif self.right_keys is None:
            self.right_keys = self._keys(ctx)
        if self.join is None and self.left_keys is not None and self.right_keys is not None:
            self._build()
        info = token.to_info()
        if self.join is None:
            mem = self.left_memory if is_left else self.right_memory
            if token.is_valid():
                mem.append(info)
            else:
                with suppress(ValueError):
                    mem.remove(info)
            return                      # the other side has never had a token: nothing to join
        key = self._project(ctx)
        own = self.left_index if is_left else self.right_index
        other = self.right_index if is_left else self.left_index
        if token.is_valid():
            own.setdefault(key, []).append(info)
        else:
            bucket = own.get(key)
            if bucket:
                with suppress(ValueError):
                    bucket.remove(info)
        for other_data, other_context in other.get(key, ()):
            other_context = dict(other_context)
            left, right = (ctx, other_context) if is_left else (other_context, ctx)
            if not self.matcher(left, right):
                continue
            newcontext = {k: v for k, v in ctx.items() if isinstance(k, str)}
            for k, v in other_context.items():
                if not isinstance(k, tuple):
                    newcontext[k] = v
            newtoken = Token(token.tag, token.data | other_data, newcontext)
            for child in self.children:
                child.callback(newtoken)

    def _activate_left(self, token):
        self._activation(token, True)

    def _activate_right(self, token):
        self._activation(token, False)


def index_joins(root):
    """Turn every OrdinaryMatchNode reachable from root into an IndexedMatchNode."""
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
        stack.extend(c.node for c in node.children)
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
    return out


def _copy(v):
    if isinstance(v, list):
        return list(v)
    if isinstance(v, set):
        return set(v)
    if isinstance(v, dict):
        return {k: (list(x) if isinstance(x, list) else x) for k, x in v.items()}
    return v


_STATE = ("left_memory", "right_memory", "memory", "added", "removed", "left_keys", "right_keys",
          "join", "left_index", "right_index")


def snapshot(root):
    """The memories of every node, to be restored before each board (instead of retracting
    the previous board's facts one by one).  Only nodes with memory are recorded."""
    snap = []
    for node in _nodes(root):
        state = {k: _copy(getattr(node, k)) for k in _STATE if k in node.__dict__}
        if state:
            snap.append((node, state))
    return snap


def restore(snap):
    for node, state in snap:
        for k, v in state.items():
            setattr(node, k, _copy(v))


# --------------------------------------------------------------------------- activations
def dirty_conflict_sets(matcher):
    """experta collects new activations by asking every rule's conflict-set node after every
    change; with hundreds of rules that dominates a firing.  Here each conflict-set node marks
    itself when a token reaches it, and `changes` asks only the marked ones."""
    from experta.matchers.rete.nodes import ConflictSetNode
    dirty = []
    for node in _nodes(matcher.root_node):
        if isinstance(node, ConflictSetNode):
            original = node._activate

            def _activate(token, node=node, original=original):
                dirty.append(node)
                return original(token)
            node._activate = _activate

    def changes(adding=None, deleting=None):
        if deleting is not None:
            for deleted in deleting:
                matcher.root_node.remove(deleted)
        if adding is not None:
            for added in adding:
                matcher.root_node.add(added)
        added, removed = [], []
        for csn in dict.fromkeys(dirty):
            a, r = csn.get_activations()
            added.extend(a)
            removed.extend(r)
        dirty.clear()
        return added, removed

    matcher.changes = changes
