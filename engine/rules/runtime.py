"""The runtime engine a compiled network runs in: BoardEngine (experta's KnowledgeEngine with a
per-board reset that keeps the static table facts, and a run loop that records every firing),
its agenda's order (_Depth), and the fact classes of the KB's fact types (one per type, made
once)."""
from __future__ import annotations

import bisect
import gc
import operator

from liuren import _compat  # noqa: F401
from experta import Fact, KnowledgeEngine  # noqa: E402
from experta.agenda import Agenda  # noqa: E402
from experta.factlist import FactList  # noqa: E402
from experta.strategies import DepthStrategy  # noqa: E402

from liuren.errors import KBError, RunawayError  # noqa: E402
from liuren.knowledge.facts import BUILTIN_FACTS  # noqa: E402
from liuren.rules.beta import specialize  # noqa: E402
from liuren.rules.rete import (LiurenMatcher, _KeyedActivation, context_key, dirty_conflict_sets, index_joins,  # noqa: E402
                   restore, route_bus, snapshot)


_FACT_CLASSES = {}


def fact_class(t):
    """One experta Fact subclass per fact type: the RETE network's first test is then the
    type, and the bus can hand each fact straight to its type's sub-network (rete.route_bus).

    Its instances hash by identity (experta's Fact hashes its content, in Python, on every set
    and context operation of the network).  That is safe because working memory holds one
    object per content: the FactList refuses a second fact equal to one it has."""
    cls = _FACT_CLASSES.get(t)
    if cls is None:
        cls = _FACT_CLASSES[t] = type(f"Fact_{len(_FACT_CLASSES)}", (Fact,),
                                      {"fact_type": t, "__hash__": object.__hash__})
    return cls


_Hashable = (str, int, float, bool, type(None))


def make_fact(d):
    """A Fact of d's type with d's fields.  Plain values (all a board or table ever has) skip
    experta's per-field freeze(); anything else goes through Fact's own constructor."""
    cls = fact_class(d["t"])
    for v in d.values():
        if type(v) not in _Hashable:
            return cls(**d)
    f = dict.__new__(cls)
    dict.update(f, d)
    # (experta's Fact.__init__ also gives each fact an empty dict of field defaults, read only
    # for fields a Fact class declares — these classes declare none)
    return f


class _Depth(DepthStrategy):
    """experta's depth strategy (salience first, then the most recent facts), without the
    lru_cache keyed on whole activations, whose hashing cost more than the key itself.  Where
    two activations tie on both (rules of one stratum matching the very same facts), the rule
    that comes first in the KB fires first — experta would leave that to the order in which
    tokens happen to reach the rules, which any change to the network can alter — and one rule's
    matches of the same facts go by their bindings (rete.context_key), so that the trace numbers
    its firings alike in every process."""

    def get_key(self, activation):
        return (activation.rule.salience, sorted([f["__factid__"] for f in activation.facts], reverse=True),
                -activation.rule._wrapped.order, context_key(activation.context))

    def _update_agenda(self, agenda, added, removed):
        """experta's DepthStrategy._update_agenda, with the sorted agenda searched on the keys
        directly (bisect's key=) rather than through Activation.__lt__ (a Python call per
        comparison).  The same positions, so the same order of firing."""
        acts = agenda.activations
        for act in removed:
            if act.key is None:             # (beta.py's conflict sets give it at creation)
                act.key = self.get_key(act)
            idx = bisect.bisect_left(acts, act.key, key=_KEY)
            for o in (0, 1, -1):
                try:
                    if acts[idx + o] == act:
                        del acts[idx + o]
                        break
                except IndexError:
                    pass
        insort = bisect.insort
        for act in added:
            if act.key is None:
                act.key = self.get_key(act)
            insort(acts, act, key=_KEY)


_KEY = operator.attrgetter("key")


class BoardEngine(KnowledgeEngine):
    """experta's engine with a per-board reset that keeps the static table facts, and a run loop
    that records every firing (rule, matched facts, bindings, asserted facts) for the trace."""

    __matcher__ = LiurenMatcher
    __strategy__ = _Depth
    compiled: list = []
    limit = 20000
    _fids: dict = None

    def load_static(self, static, indexed=True):
        self._fids = {}                     # board fact index -> its FactList id (content key)
        self.reset()
        self.running = True
        if indexed:
            index_joins(self.matcher.root_node)
            dirty_conflict_sets(self.matcher)
            route_bus(self.matcher.root_node, getattr(self, "alpha_filters", None))
        facts = [make_fact(d) for d in static]
        self.declare(*facts)
        # Rules that match table facts only fire now, once: allowed for the compiler's negation
        # helpers (e.g. "not 生" over the 五行 tables), whose conclusions join the static facts.
        while True:
            added, removed = self.get_activations()
            bad = sorted({a.rule._wrapped.compiled.id for a in added if not a.rule._wrapped.compiled.internal})
            if bad:
                self.running = False
                raise KBError(self.compiled[0].rule.file if self.compiled else "", 0,
                              f"rule(s) {', '.join(bad)} match table facts only: give each a board fact to wait for")
            self.strategy.update_agenda(self.agenda, added, removed)
            act = self.agenda.get_next()
            if act is None:
                break
            cr = act.rule._wrapped.compiled
            ctx = act.context
            b = {name: ctx[py] for name, py in cr.varmap.items() if py in ctx}
            self.declare(*(make_fact({"t": t, **{f: (b.get(v) if isinstance(v, str) and v in b else v)
                                                 for f, v in fields.items()}}) for t, fields in cr.then))
        self.running = False
        self.agenda = Agenda()
        self.baseline = self.facts.last_index
        self.static_count = len(static)
        used = []
        if indexed:
            # the tables are in: each join side becomes a lookup, a store or nothing (beta.py),
            # and the alpha network is generated again to call the new activations
            dynamic = self._dynamic_types()
            self.beta_plan = specialize(self.matcher.root_node,
                                        lambda cls: getattr(cls, "fact_type", None) in dynamic, used,
                                        self.matcher.dirty, _KeyedActivation)
            route_bus(self.matcher.root_node, getattr(self, "alpha_filters", None))
        self._snapshot = snapshot(self.matcher.root_node)
        self._snapshot.used = used
        self._snapshot.dirty = getattr(self.matcher, "dirty", None)

    def _dynamic_types(self):
        """The fact types that can be declared after the tables: the board's and every type a
        rule asserts (the 判 of judgments included)."""
        return {t for cr in self.compiled for t, _ in cr.then} | {"判"} | set(BUILTIN_FACTS) | self.declared

    def reset_board(self):
        """Back to the static facts: the working memory and every node's memory as they were
        right after the tables were loaded (the previous board and all it derived are gone)."""
        fl = self.facts
        refs = fl.reference_counter
        fids = self._fids
        pop = fl.pop
        for idx in range(self.baseline, fl.last_index):
            fact = pop(idx, None)
            if fact is None:                # retracted already (an incremental run)
                continue
            fid = fids.get(idx) or FactList._get_fact_id(fact)
            refs[fid] -= 1
            if refs[fid] <= 0:
                del refs[fid]
        fids.clear()
        fl.last_index = self.baseline
        fl.added, fl.removed = [], []
        restore(self._snapshot)
        self.agenda = Agenda()
        self._inc = None                # nothing left for an incremental run to diff against

    def assert_fact(self, d):
        """Declare a plain fact dict: experta's FactList.declare (one fact per content, ids in
        order, the change queued for the matcher) without its per-fact checks, which only
        concern facts built from user classes (declared fields, conditional elements, nested
        keys) and never apply to the engine's own facts.  Returns the Fact, or None when an
        equal fact is already in working memory."""
        cls = fact_class(d["t"])
        try:
            fid = frozenset([cls, *d.items()])
        except TypeError:                       # an unhashable value: experta's own path
            return self.declare(make_fact(d))
        fl = self.facts
        refs = fl.reference_counter
        if fid in refs:
            return None
        f = make_fact(d)
        idx = fl.last_index
        dict.__setitem__(f, "__factid__", idx)
        fl[idx] = f
        fl.last_index = idx + 1
        fl.added.append(f)
        refs[fid] = 1
        self._fids[idx] = fid               # for reset_board
        return f

    def run_board(self, board_facts, on_fire, on_unfire=None, incremental=False, keep=True):
        """Declare the board's facts and run to quiescence.  on_fire(compiled, activation) records
        a firing and returns the fact dicts it asserts (or (record, facts): the record is what
        on_unfire gets back if the firing is undone).

        incremental=True (used by the audit, which walks boards that differ in a few facts):
        instead of starting from the tables, retract the previous board's facts that this board
        does not have and declare the new ones; every derived fact keeps the firings that support
        it, and when a firing's match is withdrawn (a premise retracted, or a negated fact now
        present) it is undone: on_unfire(record) is told, and its conclusions that nothing else
        supports are retracted in turn.  The outcome equals a fresh run (tests/test_engine.py).

        keep=False (judge(), which resets the network right after): no incremental run will
        follow, so the support of each fact is not recorded.

        The cyclic garbage collector is paused meanwhile: a board allocates tens of thousands of
        short-lived tokens, and collections triggered by them cost more than the board."""
        self.running = True
        gc_on = gc.isenabled()
        gc.disable()
        try:
            if not keep and not incremental:
                self.reset_board()
                self._run_plain(board_facts, on_fire)
                return
            keyed = {_content(d): d for d in board_facts}
            state = getattr(self, "_inc", None)
            if not incremental or state is None:
                self.reset_board()
                state = self._inc = {"board": {}, "fired": {}, "support": {}, "by_content": {}, "content_of": {}}
                gone, fresh = [], list(keyed)
            else:
                gone = [k for k in state["board"] if k not in keyed]
                fresh = [k for k in keyed if k not in state["board"]]
            for k in gone:
                self._retract(state["board"].pop(k), state)
            for k in fresh:
                f = self.assert_fact(keyed[k])
                if f is not None:
                    state["board"][k] = f.__factid__
            firings = 0
            counts = {}
            fired, support, by_content = state["fired"], state["support"], state["by_content"]
            content_of = state.setdefault("content_of", {})
            update = self.strategy._update_agenda     # experta's update_agenda, without its logging
            keyed = _KeyedActivation
            while True:
                added, removed = self.get_activations()
                for act in removed:
                    rec = fired.pop(act if type(act) is keyed else _act_key(act), None)
                    if rec is not None:
                        self._unfire(rec, state, on_unfire)
                if added or removed:
                    update(self.agenda, added, removed)
                if self.facts.added or self.facts.removed:
                    continue            # retractions pending: settle them before firing
                act = self.agenda.get_next()
                if act is None:
                    break
                firings += 1
                cr = act.rule._wrapped.compiled
                counts[cr.id] = counts.get(cr.id, 0) + 1
                if firings > self.limit:
                    self._runaway(counts)
                key = act if type(act) is keyed else _act_key(act)
                out = on_fire(cr, act)          # the facts to assert, or (record, facts)
                record, new = out if isinstance(out, tuple) else (None, out)
                concl = []
                for d in new or ():
                    ck = tuple(sorted(d.items()))       # _content (a new fact has no id yet)
                    idx = by_content.get(ck)
                    if idx is None:
                        f = self.assert_fact(d)
                        if f is None:          # identical to a board or table fact: nothing to support
                            continue
                        idx = by_content[ck] = f.__factid__
                        content_of[idx] = ck
                    sup = support.get(idx)
                    if sup is None:
                        support[idx] = {key}
                    else:
                        sup.add(key)
                    concl.append(idx)
                fired[key] = (record, concl, key)
        finally:
            self.running = False
            if gc_on:
                gc.enable()

    def _run_plain(self, board_facts, on_fire):
        """run_board's loop when nothing is kept for an incremental run: declare, then fire the
        agenda to quiescence, asserting what each firing concludes."""
        for d in board_facts:
            self.assert_fact(d)
        fired = []
        agenda, limit = self.agenda, self.limit
        update = self.strategy._update_agenda     # experta's update_agenda, without its logging
        fl, changes = self.facts, self.matcher.changes
        assert_fact = self.assert_fact
        while True:
            # experta's get_activations: the facts declared since, through the network
            declared = fl.added
            if declared or fl.removed:
                fl.added, removed_facts, fl.removed = [], fl.removed, []
                added, removed = changes(declared, removed_facts)
            else:
                added, removed = changes()
            if added or removed:
                update(agenda, added, removed)
            act = agenda.get_next()
            if act is None:
                break
            cr = act.rule._wrapped.compiled
            fired.append(cr)
            if len(fired) > limit:
                self._runaway(fired)
            out = on_fire(cr, act)
            for d in (out[1] if isinstance(out, tuple) else out) or ():
                assert_fact(d)

    def _runaway(self, fired):
        """The error for a run past the firing limit: its most fired rules.  fired: rule id ->
        count, or the compiled rules in the order they fired."""
        counts = fired if isinstance(fired, dict) else {}
        for x in (() if isinstance(fired, dict) else fired):
            counts[x.id] = counts.get(x.id, 0) + 1
        top = sorted(counts.items(), key=lambda kv: -kv[1])[:5]
        raise RunawayError(f"more than {self.limit} firings on one board: the KB loops; most fired: "
                           + ", ".join(f"{k} ×{n}" for k, n in top))

    def _retract(self, idx, state):
        """experta's FactList.retract, with the fact's content key kept since it was declared."""
        fl = self.facts
        fact = fl.get(idx)
        if fact is None:
            return
        fid = self._fids.pop(idx, None) or FactList._get_fact_id(fact)
        refs = fl.reference_counter
        refs[fid] -= 1
        if refs[fid] == 0:
            del refs[fid]
        fl.removed.append(fact)
        del fl[idx]
        ck = state.get("content_of", {}).pop(idx, None)
        if ck is not None:
            state["by_content"].pop(ck, None)

    def _unfire(self, rec, state, on_unfire):
        record, concl, key = rec
        if on_unfire is not None:
            on_unfire(record)
        for idx in concl:
            sup = state["support"].get(idx)
            if sup is None:
                continue
            sup.discard(key)
            if not sup:
                del state["support"][idx]
                self._retract(idx, state)

    def board_fact_objects(self):
        """Every non-static fact in working memory (board and derived): the Fact objects, in
        order (they outlive reset_board)."""
        out = []
        for i in reversed(self.facts):          # the newest first: stop at the static facts
            if i < self.baseline:
                break
            out.append(self.facts[i])
        out.reverse()
        return out

    def board_facts_now(self):
        """Every non-static fact in working memory (board and derived), as dicts."""
        out = []
        for i in reversed(self.facts):          # the newest first: stop at the static facts
            if i < self.baseline:
                break
            out.append({k: v for k, v in self.facts[i].items() if k != "__factid__"})
        out.reverse()
        return out


def _content(d):
    """A fact's identity by value (what experta's FactList dedupes on)."""
    return tuple(sorted((k, v) for k, v in d.items() if k != "__factid__"))


def _act_key(act):
    """An activation's identity: its rule, the facts it matched (the objects: a fact retracted
    and declared again is another object) and its bindings (an activation's context holds
    only named variables)."""
    facts = act.facts
    return (act.rule._wrapped.__name__, facts if type(facts) is frozenset else frozenset(facts),
            frozenset(act.context.items()))
