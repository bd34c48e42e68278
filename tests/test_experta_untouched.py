"""experta is left as found: liuren's speed-ups live in its own subclasses (nodes, tokens, the
matcher), which its engine chooses.  After importing liuren and judging (a network compiled or
read from the cache), no attribute of any experta module or class has changed, and a stock
experta KnowledgeEngine in the same process fires exactly as it does in a process without
liuren.  (tests/test_engine.py compares liuren's network with experta's own.)"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.xdist_group("experta-untouched")

# experta 1.9.4 needs collections.Mapping (liuren._compat restores it); the stock process does
# the same by hand, so that it imports nothing of liuren
_COMPAT = "import collections, collections.abc\ncollections.Mapping = collections.abc.Mapping\n"

# a stock engine: field constraints (literal, variable, predicate, ~L, | and &), NOT, TEST, AS
# (a captured fact), salience, a retraction and a rule that declares
_STOCK = textwrap.dedent('''
    from experta import AS, NOT, TEST, Fact, Field, KnowledgeEngine, L, MATCH, P, Rule, W, DefFacts

    class Animal(Fact):
        name = Field(str, mandatory=True)

    class Zoo(KnowledgeEngine):
        @DefFacts()
        def start(self):
            yield Animal(name="cat", legs=4, sound="meow")
            yield Animal(name="bird", legs=2, sound="tweet")
            yield Animal(name="fish", legs=0)
            yield Fact(kind="pet", name="cat")
            yield Fact(kind="pet", name="fish")
            yield Fact(kind="wild", name="bird")

        @Rule(Animal(name=MATCH.n, legs=P(lambda x: x > 0)), Fact(kind="pet", name=MATCH.n))
        def walking_pet(self, n):
            LOG.append(("walking_pet", n))

        @Rule(Animal(name=MATCH.n), NOT(Fact(kind="pet", name=MATCH.n)))
        def not_a_pet(self, n):
            LOG.append(("not_a_pet", n))

        @Rule(Animal(name=MATCH.a, legs=MATCH.la), Animal(name=MATCH.b, legs=MATCH.lb), TEST(lambda la, lb: la > lb))
        def more_legs(self, a, b):
            LOG.append(("more_legs", a, b))

        @Rule(Animal(sound=~L("meow") & W(), name=MATCH.n))
        def not_meowing(self, n):
            LOG.append(("not_meowing", n))

        @Rule(Animal(legs=L(0) | L(2), name=MATCH.n), salience=5)
        def few_legs(self, n):
            LOG.append(("few_legs", n))

        @Rule(AS.f << Fact(kind="wild", name=MATCH.n), salience=-1)
        def release(self, f, n):
            LOG.append(("release", n))
            self.retract(f)
            self.declare(Fact(kind="released", name=n))

        @Rule(Fact(kind="released", name=MATCH.n), NOT(Fact(kind="wild", name=MATCH.n)))
        def gone(self, n):
            LOG.append(("gone", n))

    def fire():
        for _ in range(2):              # twice: after a reset as well
            e = Zoo()
            e.reset()
            e.run()
            LOG.append(("facts", sorted(repr(dict(f)) for f in e.facts.values())))
''')


_SNAPSHOT = textwrap.dedent('''
    import importlib, pkgutil, sys, types

    def load_all():
        import experta
        for info in pkgutil.walk_packages(experta.__path__, "experta."):
            importlib.import_module(info.name)

    def _mine(name):
        return name == "experta" or name.startswith("experta.")

    def snapshot():
        """(owner, attribute) -> (the value, a shallow copy of a container's content)."""
        out, seen = {}, set()

        def record(owner, ns):
            for k, v in list(ns.items()):
                if isinstance(v, dict):
                    content = dict(v)
                elif isinstance(v, (list, set)):
                    content = list(v)
                else:
                    content = None
                out[(owner, k)] = (v, content)
                if isinstance(v, type) and _mine(getattr(v, "__module__", "")) and id(v) not in seen:
                    seen.add(id(v))
                    record(f"{v.__module__}.{v.__qualname__}", vars(v))

        for name, mod in sorted(sys.modules.items()):
            if _mine(name) and isinstance(mod, types.ModuleType):
                record(name, vars(mod))
        return out

    # experta's memo tables of interned checks: any engine adds to them (a stock one too)
    INTERNED = ("_instances",)

    def _same(content, v):
        if isinstance(v, dict):
            return len(content) == len(v) and all(k in v and v[k] is x for k, x in content.items())
        items = list(v)
        return len(content) == len(items) and all(a is b for a, b in zip(content, items))

    def changes(before, after):
        out = []
        for key in sorted(set(before) | set(after), key=repr):
            if key not in before or key not in after:
                out.append(f"{key}: {'added' if key not in before else 'removed'}")
                continue
            (v0, c0), (v1, c1) = before[key], after[key]
            if v0 is not v1:
                out.append(f"{key}: replaced")
            elif key[1] in INTERNED and isinstance(v1, dict):
                # entries may be added (by any engine), never replaced, and only experta's own
                for k, x in c0.items():
                    if v1.get(k) is not x:
                        out.append(f"{key}: entry {k!r} replaced")
                out += [f"{key}: an entry of class {type(x)!r}" for k, x in v1.items()
                        if k not in c0 and not _mine(type(x).__module__)]
            elif c0 is not None and not _same(c0, v1):
                out.append(f"{key}: content changed")
        return out
''')


def _run(code, env=None):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                         env=dict(os.environ, **(env or {})))
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_experta_unchanged_and_a_stock_engine_fires_the_same(tmp_path):
    # without liuren
    alone = json.loads(_run(_COMPAT + _STOCK + "LOG = []\nfire()\nimport json; print(json.dumps(LOG))"))
    assert ("more_legs", "cat", "bird") in [tuple(x) for x in alone]
    # with liuren: the snapshot before importing it, judging (a network compiled and written to
    # an empty cache, then read back from it), the snapshot after, and the stock engine
    code = _COMPAT + _SNAPSHOT + _STOCK + textwrap.dedent('''
        load_all()
        before = snapshot()
        from liuren import judge
        from liuren.rules import engines
        boards = [dict(day="丁卯", on="亥加丑"), dict(day="甲子", on="子加子", month="丙寅"),
                  dict(day="庚午", on="巳加寅", night=True, year="丙午", born=1990, sex="m")]
        fired = [len(judge(b).fired) for b in boards]
        engines._engine.cache_clear()           # the network again, from the cache this time
        again = [len(judge(b).fired) for b in boards]
        assert fired == again, (fired, again)
        load_all()
        after = snapshot()
        LOG = []
        fire()
        import json
        print(json.dumps({"changes": changes(before, after), "log": LOG}))
    ''')
    got = json.loads(_run(code, {"LIUREN_CACHE_DIR": str(tmp_path)}))
    assert got["changes"] == [], "\n".join(got["changes"])
    assert got["log"] == alone
