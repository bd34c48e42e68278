"""What the pages and the API compute: one function each, two renderers (Jinja2 pages and JSON).

Everything is read off the project's own functions: engine.cast / engine.judging.judge,
Judgment.to_dict(), explain.chain.how, explain.whynot.why_not (through explain.cli.explain),
the trace exports, and the data behind `liuren rules | lookup | questions` (engine.cli_kb).
Nothing here judges, chains or explains by itself.

The experta network is not thread-safe: every judgment goes through Service.judge, which holds
a lock for the whole run (requests are served on a thread pool), and gives the rules a time
bound.  The network of the KB chosen at start-up is compiled by Service() before the first
request; a question's or a variant's network is compiled on the first request that asks for it
and kept (engine.judging.engine_for).
"""
from __future__ import annotations

import json
import random
import re
import threading
import time
from types import SimpleNamespace

from engine.errors import InputError, LiurenError
from engine.symbols import BRANCHES, JIAZI, SHORT_GENERALS, badd, bi, is_branch

from . import lang as L

MAX_VALUE = 64           # characters in one parameter value
MAX_REPEAT = 40          # values of one repeatable parameter
MAX_QUERY = 4096         # characters in the whole query string
JUDGE_TIMEOUT = 10.0     # seconds the rules may run on one board
LOCK_TIMEOUT = 30.0      # seconds a request may wait for the network

CAST_KEYS = ("moment", "tz", "day", "jiang", "hour", "on", "night", "daytime", "year", "month", "born", "sex",
             "benming", "xingnian", "guiren", "shehai", "day_boundary", "yuejiang")
JUDGE_KEYS = ("question", "variant")
FILTER_KEYS = ("book", "kind", "valence", "all")
VIEW_KEYS = ("why", "lang")
MULTI = {"variant", "book", "kind", "valence", "ge"}
ALIASES = {"day-boundary": "day_boundary"}

BOARD_KEYS = CAST_KEYS + JUDGE_KEYS + FILTER_KEYS + VIEW_KEYS
GATES = ("賊克", "比用", "涉害", "遙克", "昴星", "別責", "八專", "伏吟", "返吟")
GENERALS = tuple(SHORT_GENERALS.values())
TRUE, FALSE = ("1", "true", "on", "yes"), ("0", "false", "off", "no")


class Busy(LiurenError):
    """The network stayed busy longer than a request may wait."""


# --------------------------------------------------------------------------- parameters
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
    order = {k: i for i, k in enumerate(BOARD_KEYS + ("seed", "chu", "zhong", "mo", "gate", "ge"))}
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


# --------------------------------------------------------------------------- the service
class Service:
    """The KB chosen at start-up, its compiled network, and the lock that guards it."""

    def __init__(self, kb=None, warm=True):
        from engine.judging import engine_for
        from engine.kbload import load_kb
        self.kb_dir = str(kb) if kb else None
        self.kb = load_kb(self.kb_dir)
        self.lock = threading.Lock()
        self.stats = {"judgments": 0, "judge_seconds": 0.0}
        if warm:
            engine_for(self.kb_dir)
            self.judge({"day": "甲子", "on": "子加子"})       # the first board also warms the casting tables
        self._imagery = None
        self._valences = sorted({e.valence for e in self.kb.entries.values() if e.valence})
        self._names = None

    # ---- judging (the one place the network is used)
    def judge(self, kw, question=None, variants=None):
        from engine.judging import judge
        if not self.lock.acquire(timeout=LOCK_TIMEOUT):
            raise Busy(f"the server is busy: no judgment could start within {LOCK_TIMEOUT:g} s; try again")
        try:
            t = time.perf_counter()
            r = judge(dict(kw, variants=variants or {}, question=question, kb=self.kb_dir), timeout=JUDGE_TIMEOUT)
            self.stats["judgments"] += 1
            self.stats["judge_seconds"] += time.perf_counter() - t
            return r
        finally:
            self.lock.release()

    def cast(self, kw):
        from engine.cast import cast
        kw = dict(kw)
        return cast(kw.pop("moment", None), kb=self.kb_dir, **kw)

    def variants(self, p):
        from engine.cli_kb import _check_variants, variants_of
        v = variants_of(SimpleNamespace(variant=p.get("variant", [])))
        if v:
            _check_variants(self.kb, v)
        return v

    def judged(self, p):
        """Cast and judge the board the parameters name."""
        return self.judge(cast_kwargs(p), p.get("question"), self.variants(p))

    def entry(self, key):
        return L.resolve(self.kb, key)

    # ---- filters of the judgments (book: the CLI's --book; kind, valence: the page's)
    def item_filter(self, p):
        from engine.cli_kb import book_filter
        from engine.judging import KIND_ORDER
        keep_book = book_filter(self.kb, p.get("book"))
        kinds = p.get("kind") or []
        for k in kinds:
            if k not in KIND_ORDER:
                raise InputError(f"kind {k!r}: kinds are {' '.join(KIND_ORDER)}")
        vals = p.get("valence") or []
        for v in vals:
            if v not in self._valences:
                raise InputError(f"valence {v!r}: valences are {' '.join(self._valences)}")

        def keep(f):
            return ((keep_book is None or keep_book(f)) and (not kinds or f.kind in kinds)
                    and (not vals or f.valence in vals))
        return keep

    # ---- JSON twins (the CLI's JSON)
    def judge_json(self, p):
        r = self.judged(p)
        keep = self.item_filter(p)
        d = r.to_dict()
        if any(k in p for k in ("book", "kind", "valence")):
            d["fired"] = [f.to_dict(r) for f in r.fired if keep(f)]
            for k in ("book", "kind", "valence"):
                if k in p:
                    d["books" if k == "book" else k] = list(p[k])
        if "why" in p:
            d["why"] = self.explain(r, self.entry(p["why"]).id)
        lang = L.check_lang(p.get("lang"))
        if lang != "zh":
            for f in d["fired"]:
                f["label"] = L.name_of(self.kb, f["rule"], f["name"], lang)
        return d

    @staticmethod
    def explain(r, key):
        from explain.cli import explain
        return explain(r, key)

    def why_json(self, rule, p):
        e = self.entry(rule)
        lang = L.check_lang(p.get("lang"))
        rep = self.explain(self.judged(p), e.id)
        if lang != "zh":
            _label_report(self, rep, lang)
        return rep

    def trace_text(self, p, fmt):
        from explain.export import FORMATS
        if fmt not in FORMATS:
            raise InputError(f"format {fmt!r}: one of {'|'.join(FORMATS)}")
        return FORMATS[fmt](self.judged(p).graph)

    def rules_json(self, p):
        from engine.cli_kb import rules_rows
        rows = rules_rows(self.kb, p.get("kind"), p.get("source"))
        rows = self._rules_filter(rows, p)
        out = [dict(zip(("id", "kind", "name", "sources"), r)) for r in rows]
        lang = L.check_lang(p.get("lang"))
        if lang != "zh":
            for d in out:
                d["label"] = L.display_name(self.kb.entries[d["id"]], lang)
        return out

    def _rules_filter(self, rows, p):
        from engine.cli_kb import book_filter
        keep = book_filter(self.kb, p.get("book"))
        q = p.get("name")
        out = []
        for r in rows:
            e = self.kb.entries[r[0]]
            if keep is not None and not keep(SimpleNamespace(sources=e.source)):
                continue
            if q and not (q in e.id or q in e.name or any(q in a for a in e.aliases)
                          or any(q in x for x in (e.meta.get("labels") or {}).values())):
                continue
            out.append(r)
        return out

    def rule_json(self, key, lang="zh"):
        from engine.cli_kb import rule_detail
        e = self.entry(key)
        d = rule_detail(self.kb, e)
        if L.check_lang(lang) != "zh":
            d["label"] = L.display_name(e, lang)
        return d

    def lookup_json(self, symbol, category=None):
        from engine.cli_kb import lookup_data
        if not symbol:
            raise InputError("lookup: give a symbol (a branch 子…亥, a stem or a general 貴人…天后)")
        return lookup_data(self.kb, symbol, category)[1]

    def questions_json(self):
        from engine.cli_kb import questions_data
        return questions_data(self.kb)

    # ---- 類相 of every branch and general (for the hover text), once
    def imagery(self):
        if self._imagery is None:
            from engine.cli_kb import lookup_data
            self._imagery = {s: lookup_data(self.kb, s)[1] for s in tuple(BRANCHES) + GENERALS}
        return self._imagery

    def names(self, lang="zh"):
        """Every name a user may type in the search box (names, labels, aliases), for a datalist."""
        if self._names is None:
            from engine.cli_kb import _listed
            out = []
            for e in _listed(self.kb):
                out.append({"id": e.id, "name": e.name, "kind": e.kind,
                            "ja": (e.meta.get("labels") or {}).get("ja")})
            self._names = out
        return self._names


# --------------------------------------------------------------------------- views
def imagery_text(sym, cats, n=6, kb=None, lang="zh"):
    t = (lambda w: L.term(kb, w, lang)) if kb is not None else (lambda w: w)
    if not cats:
        return f"{t(sym)}（無類相）"
    return f"{t(sym)}　" + "；".join(f"{t(c)}：{'、'.join(items[:n])}" for c, items in cats.items())


def board_parts(svc, board, lang="zh", show_chuan=True):
    """The board as the templates draw it: header lines (the CLI's), the square, 四課, 三傳."""
    from engine.render import SHORT, SQUARE, header
    raw = svc.imagery()
    kb = svc.kb
    img = {k: imagery_text(k, v, kb=kb, lang=lang) for k, v in raw.items()}
    T = lambda w: L.term(kb, w, lang)          # noqa: E731 -- a general by its label in lang (青竜)
    chuan = set(board.transmissions.branches)
    cells = []
    for row in SQUARE:
        r = []
        for earth in row:
            if earth is None:
                r.append(None)
                continue
            heaven = board.over(earth)
            g = board.generals[heaven]
            r.append({"earth": earth, "heaven": heaven, "general": T(g), "short": SHORT[g],
                      "void": heaven in board.void, "chuan": show_chuan and heaven in chuan,
                      "noble": g == "貴人", "liuqin": board.liuqin_t[bi(heaven)][1],
                      "dungan": board.dungan_t[bi(heaven)],
                      "img_heaven": img.get(heaven, heaven), "img_general": img.get(g, g)})
        cells.append(r)
    lessons = []
    for i, l in reversed(list(enumerate(board.lessons))):
        lessons.append({"n": i, "upper": l.upper, "lower": l.lower, "general": T(l.general), "short": SHORT[l.general],
                        "void": l.upper in board.void, "img_upper": img.get(l.upper, l.upper),
                        "img_general": img.get(l.general, l.general)})
    t = board.transmissions
    chuan_rows = []
    for i, b in enumerate(t.branches):
        k = bi(b)
        g = board.generals[b]
        chuan_rows.append({"n": i, "branch": b, "liuqin": board.liuqin_t[k][1], "dungan": board.dungan_t[k],
                           "general": T(g), "void": b in board.void,
                           "img": img.get(b, b), "img_general": img.get(g, g)})
    steps = [{"text": s.text, "verse": s.verse if s.verse and s.book != "起課 (casting.md)" else "", "book": s.book,
              "rule": s.rule} for s in t.steps]
    gate = t.gate + (f"・{t.subtype}" if t.subtype and t.subtype != t.gate else "")
    return {"header": header(board), "day": board.day, "square": cells, "lessons": lessons, "chuan": chuan_rows, "steps": steps,
            "gate": gate, "notes": list(board.notes), "void": "".join(board.void)}


def judgment_groups(svc, r, p, lang="zh"):
    """The judgments grouped by kind, each item as the CLI's line gives it (firing_parts), with
    what the filters need (kind, valence, books) and the routes told apart (grounds_line)."""
    from engine.cli_kb import _order, firing_line, firing_parts, grounds_line
    keep = svc.item_filter(p)
    # a short 類相 per branch for the judgment lines (the square has the full one)
    img = {k: imagery_text(k, dict(list(v.items())[:8]), n=3, kb=svc.kb, lang=lang) for k, v in svc.imagery().items()}
    groups = []
    for kind, fs in r.by_kind(include_placements=bool(flag(p, "all"))).items():
        lines = {}
        for f in sorted(fs, key=_order):
            lines.setdefault(firing_line(f, r), []).append(f)
        items = []
        for _, group in lines.items():
            f = group[0]
            parts = firing_parts(f, r)
            books = sorted({s.get("book") for x in group for s in x.sources if s.get("book")})
            grounds = grounds_line("", group, r.kb).strip() if len(group) > 1 else ""
            # the branches it is about, each with its 類相 on hover, then the positions (見於 …)
            about_s = "、".join(f.about)
            rest = parts["where"][len(about_s):].lstrip("，") if f.about and parts["where"].startswith(about_s) else None
            about = ([{"b": x, "img": img.get(x, x)} for x in f.about]
                     if rest is not None else [])
            items.append({
                "about": about, "where_rest": rest,
                "id": f.report, "family": f.rule if f.rule != f.report else None, "kind": f.kind,
                "name": L.name_of(svc.kb, f.report, f.name, lang), "name_zh": f.name,
                "where": parts["where"], "reading": parts["reading"], "valence": parts["valence"],
                "refs": parts["refs"], "books": books, "grounds": grounds, "shown": keep(f),
                "defeated_by": [L.name_of(svc.kb, r.firings[i].report, r.firings[i].name, lang)
                                for i in f.defeated_by] if f.defeated else [],
            })
        groups.append({"kind": kind, "word": L.kind_word(kind, lang), "entries": items})
    return groups


def chain_graph(g, key):
    """The chain's sub-graph of the trace (the firings of `key`, those they rest on, those that
    defeat it, their premises and conclusions, the casting steps when the 三傳 is used) as
    cytoscape elements.  Read off the trace with explain.chain's own walks."""
    from engine.judging import cite
    from explain.chain import ancestors, firing_nodes
    targets = firing_nodes(g, key)
    if not targets:
        return None
    firings = list(dict.fromkeys(ancestors(g, targets) + targets))
    defeaters = [p for n in targets for p in g.predecessors(n) if g.edges[p, n].get("role") == "defeats"]
    firings += [d for d in dict.fromkeys(defeaters) if d not in firings]
    keep = set(firings)
    for n in firings:
        for p in g.predecessors(n):
            if g.edges[p, n].get("role") == "premise":
                keep.add(p)
        for c in g.successors(n):
            if g.edges[n, c].get("role") == "conclusion" and g.nodes[c].get("type") != "判":
                keep.add(c)
    chuan = [n for n in keep if g.nodes[n].get("type") == "傳"]
    if chuan:
        keep |= {n for n, d in g.nodes(data=True) if d.get("kind") == "cast"}
    nodes, edges = [], []
    tset = set(targets)
    for n in keep:
        d = g.nodes[n]
        kind = d.get("kind")
        if kind == "firing":
            srcs = d.get("sources") or []
            nodes.append({"data": {"id": n, "kind": "firing", "label": d["name"], "rule": d["report"],
                                   "target": n in tset, "defeats": n in defeaters and n not in tset,
                                   "defeated": bool(d.get("defeated")), "reading": d.get("reading", ""),
                                   "valence": d.get("valence", ""),
                                   "quotes": [{"quote": s.get("quote", ""), "cite": cite(s)} for s in srcs],
                                   "calc": d.get("calc") or []}})
        elif kind == "cast":
            nodes.append({"data": {"id": n, "kind": "cast", "label": d.get("name") or "起課", "text": d.get("text", ""),
                                   "verse": d.get("verse", ""), "book": d.get("book", "")}})
        else:
            nodes.append({"data": {"id": n, "kind": "fact", "origin": d.get("origin", ""), "label": d.get("text", n),
                                   "type": d.get("type", ""), "fields": {k: v for k, v in (d.get("fields") or {}).items()
                                                                         if k != "t"}}})
    for a, b, d in g.edges(data=True):
        if a in keep and b in keep:
            edges.append({"data": {"id": f"{a}->{b}", "source": a, "target": b, "role": d.get("role", "")}})
    nodes.sort(key=lambda x: x["data"]["id"])
    return {"nodes": nodes, "edges": edges}


def chain_view(svc, r, key, lang="zh"):
    """HOW (with its graph) if `key` fired on the board, else WHY-NOT: explain.cli.explain."""
    report = svc.explain(r, key)
    _label_report(svc, report, lang)
    graph = chain_graph(r.graph, key) if report.get("fired") else None
    return {"report": report, "graph": graph}


def _label_report(svc, rep, lang):
    """Display names on a HOW / WHY-NOT report (a copy of each name under `label`)."""
    rep["label"] = L.name_of(svc.kb, rep["rule"], rep["name"], lang)
    for s in rep.get("steps") or []:
        s["label"] = L.name_of(svc.kb, s["rule"], s["name"], lang) if s["step"] != "cast" else s["name"]
    for d in rep.get("defeated_by") or []:
        _label_report(svc, d, lang)


def json_script(obj):
    """JSON safe inside <script type="application/json">."""
    return (json.dumps(obj, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("&", "\\u0026"))


# --------------------------------------------------------------------------- rules pages
def conditions_in_words(svc, e):
    """A rule's conditions as WHY-NOT words them (explain.whynot.cond_text), unbound."""
    import itertools
    from engine.compile import expand_macros
    from explain.whynot import cond_text, reporting_rule
    rule, pre = reporting_rule(svc.kb, e.id)
    if rule is None:
        return None, []
    when = rule.when if isinstance(rule.when, list) else [rule.when]
    items = expand_macros(when, svc.kb.macros, itertools.count())
    # unbound variables are shown by name ($p), so that the joins between conditions can be read
    names = set(re.findall(r"\$[^\W\d]\w*", json.dumps(items, ensure_ascii=False)))
    shown = {v: v for v in names if "~" not in v}
    shown.update(pre)
    return rule, [cond_text(i, shown, svc.kb) for i in items]


def rule_view(svc, key, lang="zh"):
    from engine.judging import _sources, cite
    e = svc.entry(key)
    detail = svc.rule_json(e.id)
    family, conds = conditions_in_words(svc, e)
    sources = [{"quote": s.get("quote", ""), "cite": cite(s)} for s in _sources(svc.kb, e)]
    ex = e.meta.get("examples") or {}
    examples = {}
    for k in ("fires", "silent", "unmet"):
        out = []
        for x in ex.get(k) or []:
            b = x.get("board") or {}
            src = x.get("source")
            out.append({"board": b, "text": " ".join(f"{a}={v}" for a, v in b.items()), "why": x.get("why", ""),
                        "query": board_query(dict(b)) + f"&why={e.id}", "says": x.get("says"), "chuan": x.get("chuan"),
                        "cite": (cite({**src, "book": svc.kb.book_of(src)[0], "volume": svc.kb.book_of(src)[1]})
                                 if isinstance(src, dict) and src.get("seed") else None),
                        "quote": src.get("quote") if isinstance(src, dict) else None})
        examples[k] = out
    related = {k: [{"id": i, "name": L.name_of(svc.kb, i, svc.kb.entries[i].name if i in svc.kb.entries else i, lang)}
                   for i in (e.meta.get(k) or [])] for k in ("defeats", "defeated_by", "conflicts")}
    reports = []
    if getattr(e, "as_var", None):
        from explain.whynot import reporting_rule
        reports = [{"id": r.id, "name": L.display_name(r, lang)} for r in svc.kb.rows.values()
                   if reporting_rule(svc.kb, r.id)[0] is e]
    return {"e": e, "label": L.display_name(e, lang), "ja": (e.meta.get("labels") or {}).get("ja"),
            "detail": detail, "family": family if family is not None and family.id != e.id else None,
            "conditions": conds, "sources": sources, "examples": examples, "related": related,
            "variants": e.variants, "reports": reports, "interpretation": e.interpretation,
            "then": e.meta.get("then"), "unreachable": e.meta.get("unreachable"), "always": e.meta.get("always")}


# --------------------------------------------------------------------------- practice
def practice_seed(p):
    s = p.get("seed")
    if s is None:
        return None
    if not s.isdigit() or len(s) > 9:
        raise InputError(f"seed {s!r}: give a whole number (0 … 999999999)")
    return int(s)


def practice_lesson(seed):
    """The lesson of a seed: a day, 月將 over 占時, 晝/夜 and a month (reproducible)."""
    rng = random.Random(seed)
    day = JIAZI[rng.randrange(60)]
    hour = BRANCHES[rng.randrange(12)]
    jiang = badd(hour, rng.randrange(12))
    month = JIAZI[rng.randrange(60)]
    return {"day": day, "on": f"{jiang}加{hour}", "month": month, "night": "true" if rng.random() < 0.5 else "false"}


def practice_check(svc, p, lang="zh"):
    """The student's answer against the cast, and each 格 ticked or not against the judgment."""
    from engine.symbols import parse_branch
    seed = practice_seed(p)
    lesson = practice_lesson(seed)
    r = svc.judge(cast_kwargs(lesson))
    t = r.board.transmissions
    answer_keys = ("chu", "zhong", "mo", "gate")
    given = [k for k in answer_keys if k in p]
    out = {"seed": seed, "lesson": lesson, "r": r, "answered": bool(given or p.get("ge"))}
    if not out["answered"]:
        return out
    if len(given) < 4:
        missing = [w for k, w in zip(answer_keys, ("chu 初傳", "zhong 中傳", "mo 末傳", "gate 發用之門")) if k not in p]
        raise InputError("give the three transmissions and the gate: missing " + "、".join(missing))
    names = ("chu", "zhong", "mo")
    got = tuple(parse_branch(p[k], k) for k in names)
    if p["gate"] not in GATES:
        raise InputError(f"gate {p['gate']!r}: one of {' '.join(GATES)}")
    ticked = []
    for g in p.get("ge", []):
        e = svc.entry(g)
        if e.kind != "格":
            raise InputError(f"ge {g!r} is a {e.kind}, not a 格")
        ticked.append(e.id)
    fired = {f.report for f in r.fired if f.kind == "格"}
    out.update({
        "got": got, "gate": p["gate"], "want": t.branches, "want_gate": t.gate,
        "each": [a == b for a, b in zip(got, t.branches)], "gate_ok": p["gate"] == t.gate,
        "right": [L.name_of(svc.kb, x, svc.kb.entries[x].name, lang) for x in ticked if x in fired],
        "missed": [chain_view(svc, r, x, lang) for x in sorted(fired - set(ticked))] if ticked else [],
        "formed": [] if ticked else [chain_view(svc, r, x, lang) for x in sorted(fired)],
        "claimed": [chain_view(svc, r, x, lang) for x in ticked if x not in fired],
    })
    out["all_ok"] = all(out["each"]) and out["gate_ok"] and not out["missed"] and not out["claimed"]
    return out


def practice_json(svc, p):
    seed = practice_seed(p)
    if seed is None:
        raise InputError("seed: give a whole number (the lesson's seed, e.g. seed=7)")
    lang = L.check_lang(p.get("lang"))
    c = practice_check(svc, p, lang)
    d = {"seed": seed, "lesson": c["lesson"], "board": c["r"].board.to_dict()}
    if c["answered"]:
        d["answer"] = {"transmissions": list(c["got"]), "gate": c["gate"]}
        d["correct"] = {"transmissions": list(c["want"]), "gate": c["want_gate"],
                        "steps": [s.to_dict() for s in c["r"].board.transmissions.steps]}
        d["check"] = {"transmissions": c["each"], "gate": c["gate_ok"], "ge_right": [x for x in c["right"]],
                      "ge_missed": [x["report"]["rule"] for x in c["missed"]],
                      "ge_claimed": [x["report"]["rule"] for x in c["claimed"]],
                      "ge_formed": [x["report"]["rule"] for x in c["formed"]], "all": c["all_ok"]}
        if lang != "zh":
            ids = {x["report"]["rule"] for k in ("missed", "claimed", "formed") for x in c[k]}
            d["labels"] = {i: L.name_of(svc.kb, i, svc.kb.entries[i].name, lang) for i in sorted(ids)}
    return d


def ge_choices(svc, lang="zh"):
    """The 格 a student may tick: every 格 rule and reported 格 row, by name."""
    from engine.cli_kb import _listed
    out = []
    seen = set()
    for e in _listed(svc.kb):
        if e.kind == "格" and not getattr(e, "as_var", None) and e.name not in seen:
            seen.add(e.name)
            out.append({"id": e.id, "name": L.display_name(e, lang)})
    return out


def is_branch_value(x):
    return is_branch(x)
