"""A rule's condition as data: the `when:` of a KB rule is a list of fact patterns, `all:` / `any:` /
`not:` groups, `test:` comparisons and macro calls.  These functions walk it, expand its macros
(each call's variables renamed apart), and put it in disjunctive normal form; `then_facts` reads
a `then:` clause.  They know no KB file and no network: the loader (kbload), the checks (kblint)
and the compiler (compile) all stand on them."""
from __future__ import annotations

import re

VAR_RE = re.compile(r"^\$[^\s$]+$")
TEST_OPS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "in": "in", "notin": "not in"}
CALC_OPS = {"add": "+", "sub": "−", "mul": "×", "div": "÷", "neg": "−"}


def then_facts(then):
    """Normalise a `then` clause into a list of (fact type, fields mapping)."""
    if then is None:
        return []
    items = then if isinstance(then, list) else [then]
    out = []
    for it in items:
        if isinstance(it, dict):
            for t, fields in it.items():
                out.append((t, fields if isinstance(fields, dict) else {}))
    return out


def walk_patterns(cond, macros):
    """Yield (kind, payload, line) for every atom of a condition: ('pattern', (type, fields)),
    ('macro', (name, args)).  Raises ValueError on malformed structure."""
    if isinstance(cond, list):
        for c in cond:
            yield from walk_patterns(c, macros)
        return
    if not isinstance(cond, dict) or len(cond) != 1:
        raise ValueError(f"a condition must be a one-key mapping (a fact pattern, all/any/not, or a macro), got {cond!r}")
    (k, v), = cond.items()
    line = getattr(cond, "line", 0)
    if k in ("all", "any"):
        if not isinstance(v, list) or not v:
            raise ValueError(f"{k}: needs a non-empty list")
        yield from walk_patterns(v, macros)
    elif k == "test":
        if not isinstance(v, dict) or len(v) != 1 or next(iter(v)) not in TEST_OPS \
                or not isinstance(next(iter(v.values())), list) or len(next(iter(v.values()))) != 2:
            raise ValueError(f"test: write {{op: [a, b]}} with op one of {', '.join(TEST_OPS)}")
        yield ("test", v, line)
    elif k == "not":
        yield from walk_patterns(v, macros)
    elif k in macros:
        if not isinstance(v, list) or len(v) != len(macros[k]["params"]):
            raise ValueError(f"macro {k}: needs a list of {len(macros[k]['params'])} arguments")
        yield ("macro", (k, v), line)
    else:
        if not isinstance(v, dict):
            raise ValueError(f"pattern {k}: fields must be a mapping")
        yield ("pattern", (k, v), line)


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


def dnf(cond):
    """A condition as a list of branches (patterns, tests, negated conditions); any: splits."""
    if isinstance(cond, list):
        out = [([], [], [])]
        for c in cond:
            sub = dnf(c)
            out = [(a[0] + b[0], a[1] + b[1], a[2] + b[2]) for a in out for b in sub]
        return out
    k = next(x for x in cond if x != "macro")
    v = cond[k]
    if k == "all":
        return dnf(v)
    if k == "any":
        return [b for c in v for b in dnf(c)]
    if k == "not":
        return [([], [], [v])]
    if k == "test":
        return [([], [v], [])]
    return [([(k, v)], [], [])]


def gating_questions(cond):
    """The questions a condition can only hold under (a `問` pattern every way through it),
    or None when it does not depend on the question asked."""
    if isinstance(cond, list):
        sets = [q for q in (gating_questions(c) for c in cond) if q is not None]
        if not sets:
            return None
        out = sets[0]
        for q in sets[1:]:
            out = out & q
        return out
    keys = [k for k in cond if k != "macro"]
    k = keys[0]
    v = cond[k]
    if k == "all":
        return gating_questions(v)
    if k == "any":
        parts = [gating_questions(c) for c in v]
        if any(p is None for p in parts):
            return None
        return frozenset().union(*parts)
    if k == "問":
        q = v.get("問")
        if isinstance(q, str) and not q.startswith("$"):
            return frozenset([q])
        if isinstance(q, list):
            return frozenset(q)
    return None
