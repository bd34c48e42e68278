"""A question as named parameters — the CLI's names, string values — as a page's query string and
the JSON API carry it: read and bounded, turned into cast() arguments, and written back as a
query string for links."""
from __future__ import annotations

from liuren.casting.symbols import SHORT_GENERALS
from liuren.errors import InputError

MAX_VALUE = 64           # characters in one parameter value
MAX_REPEAT = 40          # values of one repeatable parameter
MAX_QUERY = 4096         # characters in the whole query string

CAST_KEYS = ("moment", "tz", "day", "jiang", "hour", "on", "night", "daytime", "year", "month", "born", "sex",
             "benming", "xingnian", "partner_born", "partner_sex", "partner_benming", "partner_xingnian",
             "term_day", "lunar", "rixiu", "yuexiu", "guiren", "shehai", "day_boundary", "yuejiang")
JUDGE_KEYS = ("question", "variant")
FILTER_KEYS = ("book", "kind", "valence", "all")
VIEW_KEYS = ("why", "lang", "trace")
MULTI = {"variant", "book", "kind", "valence", "ge"}
ALIASES = {"day-boundary": "day_boundary", "partner-born": "partner_born", "partner-sex": "partner_sex",
           "partner-benming": "partner_benming", "partner-xingnian": "partner_xingnian", "term-day": "term_day"}

BOARD_KEYS = CAST_KEYS + JUDGE_KEYS + FILTER_KEYS + VIEW_KEYS
# the drill's parameters: the lesson (seed, a gate's curriculum), the answers step by step, the page's language
PRACTICE_KEYS = ("seed", "gate", "k1", "k2", "k3", "k4", "chu", "zhong", "mo", "men", "ge", "ge_done", "n", "lang")
GATES = ("賊克", "比用", "涉害", "遙克", "昴星", "別責", "八專", "伏吟", "返吟")
GENERALS = tuple(SHORT_GENERALS.values())
TRUE, FALSE = ("1", "true", "on", "yes"), ("0", "false", "off", "no")



def read_params(items, allowed, query_len=0, multi=None):
    """A request's query items as {name: value or [values]}: only the names this page takes,
    each value bounded in size and passed on unchanged, empty values dropped (an empty form field
    is no value)."""
    if query_len > MAX_QUERY:
        raise InputError(f"the query is too long ({query_len} characters; at most {MAX_QUERY})")
    out = {}
    for k, v in items:
        k = ALIASES.get(k, k)
        if k not in allowed:
            raise InputError(f"unknown parameter {_short(k)!r} (this page takes: {', '.join(allowed)})")
        if len(v) > MAX_VALUE:
            raise InputError(f"{k} {_short(v)!r}… is too long ({len(v)} characters; at most {MAX_VALUE})")
        if v == "":                 # an empty form field is no value; anything else goes on as given
            continue
        if k in (MULTI if multi is None else multi):
            out.setdefault(k, []).append(v)
            if len(out[k]) > MAX_REPEAT:
                raise InputError(f"{k} is given more than {MAX_REPEAT} times")
        elif k in out:
            raise InputError(f"{k} is given twice ({out[k]!r} and {v!r}): give it once")
        else:
            out[k] = v
    return out



def _short(s, n=40):
    return s if len(s) <= n else s[:n]



def flag(p, name):
    v = p.get(name)
    if v is None:
        return None
    if v.lower() in TRUE:
        return True
    if v.lower() in FALSE:
        return False
    raise InputError(f"{name} {v!r}: give true or false")



def cast_kwargs(p):
    """cast() keyword arguments from the parameters (the CLI's names; night=true|false, or the
    CLI's two flags night / daytime)."""
    kw = {k: p[k] for k in CAST_KEYS if k in p and k not in ("night", "daytime")}
    night, daytime = flag(p, "night"), flag(p, "daytime")
    if night is not None and daytime is not None:
        raise InputError("give night or daytime, not both")
    if night is not None:
        kw["night"] = night
    elif daytime is not None:
        kw["night"] = not daytime
    return kw



def query_string(p, drop=(), **extra):
    """The parameters back as a query string (for links), in the order of BOARD_KEYS."""
    from urllib.parse import urlencode
    d = {k: v for k, v in p.items() if k not in drop}
    d.update({k: v for k, v in extra.items() if v is not None})
    order = {k: i for i, k in enumerate(BOARD_KEYS + tuple(k for k in PRACTICE_KEYS if k not in BOARD_KEYS))}
    items = []
    for k in sorted(d, key=lambda k: order.get(k, 99)):
        v = d[k]
        for x in (v if isinstance(v, list) else [v]):
            items.append((k, x))
    return urlencode(items)



def board_query(b):
    """A KB example board (cast arguments) as a /board query string."""
    p = {}
    for k, v in b.items():
        if k == "variants" and isinstance(v, dict):
            p["variant"] = [f"{i}={x}" for i, x in v.items()]
        elif v is True or v is False:
            p[k] = "true" if v else "false"
        else:
            p[k] = str(v)
    return query_string(p)


