"""The application object both front-ends stand on (Datasette's `Datasette` object is the model):
the KB chosen at start-up, its compiled network, the lock that guards it, and the questions a
page or an API call asks of them — judge with filters, explain a rule on a board, list and show
rules, look up 類相 — each answered as plain data that a renderer (Jinja2 page, JSON) shows.

Nothing here judges, chains or explains by itself: it calls rules.judging, app.queries and
explain.  The experta network is not thread-safe: every judgment goes through Service.judge,
which holds a lock for the whole run (the web app serves requests on a thread pool) and gives
the rules a time bound.  The network of the KB chosen at start-up is compiled by Service()
before the first request; a question's or a variant's network is compiled on the first request
that asks for it and kept (rules.engines.engine_for).
"""
from __future__ import annotations

import threading
import time
from types import SimpleNamespace

from liuren.app import queries as Q
from liuren.app.params import cast_kwargs, flag
from liuren.errors import InputError, LiurenError
from liuren.explain import words as L
from liuren.explain.chain import rows_in
from liuren.explain.html import chain_graph, label_report

JUDGE_TIMEOUT = 10.0     # seconds the rules may run on one board
LOCK_TIMEOUT = 30.0      # seconds a request may wait for the network


class Busy(LiurenError):
    """The network stayed busy longer than a request may wait."""


class Service:
    """The KB chosen at start-up, its compiled network, and the lock that guards it."""

    def __init__(self, kb=None, warm=True):
        from liuren.rules.engines import engine_for
        from liuren.knowledge.kbload import load_kb
        self.kb_dir = str(kb) if kb else None
        self.kb = load_kb(self.kb_dir)
        self.lock = threading.Lock()
        self.stats = {"judgments": 0, "judge_seconds": 0.0}
        if warm:
            engine_for(self.kb_dir)
            self.judge({"day": "甲子", "on": "子加子"})       # the first board also warms the casting tables
        self._valences = sorted({e.valence for e in self.kb.entries.values() if e.valence})
        self._names = None

    # ---- judging (the one place the network is used)
    def judge(self, kw, question=None, variants=None):
        from liuren.rules.judging import judge
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
        from liuren.casting.cast import cast
        kw = dict(kw)
        return cast(kw.pop("moment", None), kb=self.kb_dir, **kw)

    def variants(self, p):
        v = Q.parse_variants(p.get("variant", []))
        if v:
            Q.check_variants(self.kb, v)
        return v

    def judged(self, p):
        """Cast and judge the board the parameters name."""
        return self.judge(cast_kwargs(p), p.get("question"), self.variants(p))

    def entry(self, key):
        return Q.resolve_entry(self.kb, key)

    def typed_name(self, e, lang):
        """What the rule box shows for an entry: its name in the page's language when that name
        finds this entry alone, else its id (a name several entries share would not find it)."""
        from liuren.explain.words import display_name
        name = display_name(e, lang)
        found = Q.find_entries(self.kb, name)
        return name if len(found) == 1 and found[0].id == e.id else e.id

    # ---- filters of the judgments (book: the CLI's --book; kind, valence: the page's)
    def item_filter(self, p):
        from liuren.rules.judging import KIND_ORDER
        keep_book = Q.book_filter(self.kb, p.get("book"))
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
        # the JSON lists every firing, the placements (起例) too, as the CLI's; all=false leaves them out
        placements = flag(p, "all") is not False
        if any(k in p for k in ("book", "kind", "valence")) or not placements:
            d["fired"] = [f.to_dict(r) for f in r.fired if keep(f) and (placements or f.kind != "起例")]
            for k in ("book", "kind", "valence", "all"):
                if k in p:
                    d["books" if k == "book" else k] = list(p[k]) if k != "all" else placements
        if not flag(p, "trace"):
            d.pop("trace", None)             # the whole trace (~600 kB) only when asked: trace=1
        if "why" in p:
            d["why"] = rows_in(self.explain(r, self.entry(p["why"]).id), L.check_lang(p.get("lang")))
        lang = L.check_lang(p.get("lang"))
        d.update(self.reading_json(r, keep, lang, placements=flag(p, "all") is True))
        if lang != "zh":
            for f in d["fired"]:
                f["label"] = L.name_of(self.kb, f["rule"], f["name"], lang)
        return d

    def reading_json(self, r, keep=None, lang="zh", placements=False):
        """What the board page adds to the judgments, as data: the books' two views (rule ids, with
        the KB's note), the line saying why a 課體 of another gate is listed, and the findings with
        their sources (a question's only when asked)."""
        from liuren.explain.html import findings, judgment_groups, two_views
        groups = judgment_groups(self.kb, r, keep, lang, placements=placements)
        return {"two_views": [{"a": v["a"]["id"], "b": v["b"]["id"], "note": v["note"]} for v in two_views(self.kb, groups, lang)],
                "gate_notes": {i["id"]: i["gate_note"] for g in groups for i in g["entries"] if i["gate_note"]},
                "findings_cited": {fd["heading"]: {"lines": [{"text": x["text"], "refs": x["refs"]} for x in fd["lines"]],
                                                   "views": fd["views"]} for fd in findings(self.kb, r, lang=lang)}}

    @staticmethod
    def explain(r, key):
        return Q.explain(r, key)

    def why_json(self, rule, p):
        e = self.entry(rule)
        lang = L.check_lang(p.get("lang"))
        rep = self.explain(self.judged(p), e.id)
        if lang != "zh":
            label_report(self.kb, rep, lang)
        else:                           # (the Japanese forms of table rows: only for a page in ja)
            rows_in(rep, lang)
        return rep

    def trace_text(self, p, fmt):
        """The whole trace in a format, or with why=RULE the part of it that rule's chain reads."""
        from liuren.explain.export import FORMATS
        if fmt not in FORMATS:
            raise InputError(f"format {fmt!r}: one of {'|'.join(FORMATS)}")
        r = self.judged(p)
        return FORMATS[fmt](Q.chain_part(r, p["why"]) if p.get("why") else r.graph)

    def rules_json(self, p):
        rows = Q.rules_rows(self.kb, p.get("kind"), p.get("source"))
        rows = self._rules_filter(rows, p)
        out = [dict(zip(("id", "kind", "name", "sources"), r)) for r in rows]
        lang = L.check_lang(p.get("lang"))
        if lang != "zh":
            for d in out:
                d["label"] = L.display_name(self.kb.entries[d["id"]], lang)
        return out

    def _rules_filter(self, rows, p):
        keep = Q.book_filter(self.kb, p.get("book"))
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
        e = self.entry(key)
        d = Q.rule_detail(self.kb, e)
        if L.check_lang(lang) != "zh":
            d["label"] = L.display_name(e, lang)
        return d

    def lookup_json(self, symbol, category=None):
        if not symbol:
            raise InputError("lookup: give a symbol (a branch 子…亥, a stem or a general 貴人…天后)")
        return Q.lookup_data(self.kb, symbol, category)[1]

    def questions_json(self):
        return Q.questions_data(self.kb)

    def names(self, lang="zh"):
        """Every name a user may type in the search box (names, labels, aliases), for a datalist."""
        if self._names is None:
            out = []
            for e in Q.listed(self.kb):
                out.append({"id": e.id, "name": e.name, "kind": e.kind,
                            "ja": (e.meta.get("labels") or {}).get("ja")})
            self._names = out
        return self._names


    def chain_view(self, r, key, lang="zh"):
        """HOW (with the chain's graph) if `key` fired on the board, else WHY-NOT."""
        report = self.explain(r, key)
        label_report(self.kb, report, lang)
        graph = chain_graph(r.graph, key, lang) if report.get("fired") else None
        return {"report": report, "graph": graph}
