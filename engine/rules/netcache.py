"""A compiled network in the cache: experta's network (dynamic classes, generated functions) is
pickled with cloudpickle, without the KB it was compiled from — its rules, rows and tables are
referred to by id and taken from the KB loaded at the other end.  knowledge.cache stores the bytes."""
from __future__ import annotations

import copyreg
import pickle
from collections import OrderedDict

def engine_pickler(kb):
    """A pickler for a compiled network: experta's network (dynamic classes, generated
    functions: cloudpickle) without the KB it was compiled from (its entries are referred to by
    id and taken from the KB loaded at the other end)."""
    from types import FunctionType

    import cloudpickle
    from experta.fact import Fact

    from liuren.rules.beta import rebuild
    from liuren.rules.rete import NetToken

    from liuren.rules.runtime import fact_class
    from liuren.knowledge.model import KB, Row, Rule, Table

    class Pickler(cloudpickle.Pickler):
        def persistent_id(self, obj):
            if obj is kb:
                return ("kb",)
            t = type(obj)
            if t is Rule and kb.rules.get(obj.id) is obj:
                return ("rule", obj.id)
            if t is Row and obj.id and kb.rows.get(obj.id) is obj:
                return ("row", obj.id)
            if t is Table and kb.tables.get(obj.id) is obj:
                return ("table", obj.id)
            if t is KB:
                raise pickle.PicklingError("another KB inside the network")
            return None

        def reducer_override(self, obj):
            if type(obj) is FunctionType:
                make = obj.__dict__.get("_make")
                if make is not None:
                    # a generated activation of the beta network: its recipe (beta.rebuild)
                    return rebuild, make
            if type(obj).__dict__.get("fact_type") is not None and isinstance(obj, Fact):
                # a fact of the network (a table row in a memory): its items without experta's
                # per-item __setitem__ (freeze) on the way back
                return _rebuild_fact, (type(obj), dict(obj), getattr(obj, "__dict__", None) or None)
            if isinstance(obj, type) and issubclass(obj, Fact) and "fact_type" in obj.__dict__:
                # a fact type's class is the one runtime.fact_class makes for it in this process:
                # the alpha network dispatches on it, and board facts are made with it
                return fact_class, (obj.fact_type,)
            t = type(obj)
            # experta's tuple-based classes (patterns, constraints, tokens, and rete.NetToken)
            # take their items as separate arguments, not as one tuple: rebuild them as tuples
            # with their state
            if isinstance(obj, tuple) and t is not tuple and (t.__module__.startswith("experta") or t is NetToken):
                state = getattr(obj, "__dict__", None)
                if not state:
                    # (most: the tokens of the table memories) tuple.__new__ itself, which the
                    # unpickler calls without a Python frame
                    return tuple.__new__, (t, tuple(obj))
                return _rebuild_tuple, (t, tuple(obj), state)
            if t.__module__.startswith("experta.") and t.__reduce_ex__ is object.__reduce_ex__ \
                    and t.__reduce__ is object.__reduce__ and t.__getstate__ is object.__getstate__ \
                    and not isinstance(obj, type):
                # an instance of one of experta's own classes (a node, the agenda …): what
                # object.__reduce_ex__ would give, without its copyreg.__slotnames__ cache,
                # which it would write into experta's class (experta is left as found)
                return (copyreg.__newobj__, (t,), getattr(obj, "__dict__", None) or None,
                        iter(obj) if isinstance(obj, list) else None,
                        iter(obj.items()) if isinstance(obj, dict) else None)
            if t.__module__.startswith("experta.") and isinstance(obj, OrderedDict) \
                    and t.__reduce__ is OrderedDict.__reduce__ and t.__getstate__ is object.__getstate__:
                # experta's FactList: OrderedDict.__reduce__, without the same cache
                return (t, (), getattr(obj, "__dict__", None) or None, None, iter(obj.items()))
            return super().reducer_override(obj)

    return Pickler


def engine_loader(kb):
    def persistent_load(pid):
        kind = pid[0]
        if kind == "kb":
            return kb
        if kind == "rule":
            return kb.rules[pid[1]]
        if kind == "row":
            return kb.rows[pid[1]]
        if kind == "table":
            return kb.tables[pid[1]]
        raise pickle.UnpicklingError(f"unknown reference {pid!r}")
    return persistent_load


def _rebuild_fact(cls, items, state):
    f = dict.__new__(cls)
    dict.update(f, items)
    if state:
        f.__dict__.update(state)
    return f


def _rebuild_tuple(cls, items, state):
    obj = tuple.__new__(cls, items)
    if state:
        obj.__dict__.update(state)
    return obj
