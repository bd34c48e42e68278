"""The /audit page and /api/audit: a saved audit run (the last `liuren audit` of the packaged KB,
kept in the cache, or a file), its findings filtered by severity, check, kind, book and file,
each with its entries (linked to their rule pages) and the board that shows it (linked to /board).

The page never runs the audit (minutes on all cores): without a saved run it says in words how
to make one."""
from __future__ import annotations

import json
import pathlib
from urllib.parse import urlencode

from liuren.errors import InputError

AUDIT_KEYS = ("severity", "check", "kind", "book", "file", "limit", "offset", "lang")
LIMIT = 100
SEVERITIES = ("error", "warning", "note")
CHECKS = ("conflict (undeclared)", "redundant", "never fires", "conflict (declared)", "conflict (weighed)", "subsumed",
          "always fires", "sources disagree")
# the board's inputs a finding carries, as /board takes them
BOARD_PARAMS = ("day", "jiang", "hour", "on", "month", "year", "born", "sex", "benming", "xingnian", "term_day",
                "lunar", "partner_born", "partner_sex", "partner_benming", "partner_xingnian", "question",
                "guiren", "shehai", "day_boundary", "yuejiang")


class NoRun(InputError):
    """No saved audit run: the API names the command, the page says it in words."""

    def __init__(self):
        super().__init__("no saved audit run: run `liuren audit` once (a few minutes on all cores); "
                         "this page then reads its findings")


def run_path(path=None):
    if path:
        return pathlib.Path(path)
    from liuren.explain.audit import last_run_path
    return last_run_path()


class Runs:
    """The saved run, read again only when its file changed."""

    def __init__(self, path=None):
        self.path = path
        self._key, self._run = None, None

    def get(self):
        p = run_path(self.path)
        try:
            st = p.stat()
        except OSError:
            raise NoRun() from None
        key = (str(p), st.st_mtime_ns, st.st_size)
        if key != self._key:
            try:
                run = json.loads(p.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                raise NoRun() from None
            if not isinstance(run, dict) or not isinstance(run.get("findings"), list):
                raise NoRun()
            self._key, self._run = key, run
        return self._run


def _choice(p, k, allowed=None):
    v = p.get(k)
    if v in (None, ""):
        return None
    if allowed is not None and v not in allowed:
        raise InputError(f"--{k} {v!r}: one of {', '.join(allowed)}")
    return v


def _int(p, k, default, lo, hi):
    v = p.get(k)
    if v in (None, ""):
        return default
    try:
        n = int(v)
    except (TypeError, ValueError):
        raise InputError(f"--{k} {v!r}: a whole number") from None
    if not lo <= n <= hi:
        raise InputError(f"--{k} {v!r}: between {lo} and {hi}")
    return n


def board_query(board, lang="zh", why=None):
    q = [(k, str(board[k])) for k in BOARD_PARAMS if board.get(k) is not None]
    if "night" in board:
        q.append(("night", "true" if board["night"] else "false"))
    if why:
        q.append(("why", why))
    if lang != "zh":
        q.append(("lang", lang))
    return urlencode(q)


def select(run, p):
    """The findings of a run that pass the filters, and the facets (value -> count) of each filter
    over the findings that pass the others."""
    sev = _choice(p, "severity", SEVERITIES)
    check = _choice(p, "check")
    kind, book, file = _choice(p, "kind"), _choice(p, "book"), _choice(p, "file")
    tests = {
        "severity": lambda f: sev is None or f["severity"] == sev,
        "check": lambda f: check is None or f["check"] == check,
        "kind": lambda f: kind is None or any(e.get("kind") == kind for e in f["entries"]),
        "book": lambda f: book is None or any(e.get("book") == book for e in f["entries"]),
        "file": lambda f: file is None or any(e.get("file") == file for e in f["entries"]),
    }
    fs = run["findings"]
    out = [f for f in fs if all(t(f) for t in tests.values())]
    facets = {}
    for key in tests:
        others = [f for f in fs if all(t(f) for k, t in tests.items() if k != key)]
        c = {}
        for f in others:
            vals = {f[key]} if key in ("severity", "check") else {e.get(key) for e in f["entries"] if e.get(key)}
            for v in vals:
                c[v] = c.get(v, 0) + 1
        order = SEVERITIES if key == "severity" else CHECKS if key == "check" else sorted(c)
        facets[key] = [(v, c[v]) for v in order if v in c] + [(v, n) for v, n in sorted(c.items()) if v not in order]
    return out, facets


def api_audit(runs, p, lang="zh"):
    run = runs.get()
    fs, facets = select(run, p)
    limit = _int(p, "limit", LIMIT, 1, 100000)
    offset = _int(p, "offset", 0, 0, 10 ** 9)
    shown = fs[offset:offset + limit]
    return {"space": run.get("space", {}), "declared": run.get("declared", {}), "count": len(fs),
            "of": len(run["findings"]), "offset": offset, "shown": len(shown),
            "facets": {k: [{"value": v, "count": n} for v, n in xs] for k, xs in facets.items()},
            "findings": [dict(f, board_query=board_query(f["board"], lang, f["entries"][0]["id"]))
                         if f.get("board") else f for f in shown]}


def page_audit(runs, p, lang="zh"):
    """The page's context: the findings shown (with their links), the facets as links that add
    or drop a filter, the pager, and the space in words."""
    from liuren.explain.words import WORDS
    w = WORDS[lang]
    r = api_audit(runs, p, lang)
    base = {k: v for k, v in p.items() if k in AUDIT_KEYS and v not in (None, "") and k not in ("offset",)}

    def qs(**kw):
        d = dict(base)
        for k, v in kw.items():
            if v is None:
                d.pop(k, None)
            else:
                d[k] = v
        return urlencode(d)
    facets = {}
    for key, xs in r["facets"].items():
        facets[key] = [{"value": x["value"], "count": x["count"], "on": p.get(key) == x["value"],
                        "word": _facet_word(w, key, x["value"]),
                        "qs": qs(**{key: None if p.get(key) == x["value"] else x["value"]})} for x in xs]
    items = []
    for f in r["findings"]:
        items.append({"severity": f["severity"], "sev_word": w["audit_sev"].get(f["severity"], f["severity"]),
                      "check_word": w["audit_checks"].get(f["check"], f["check"]),
                      "why_word": w["audit_why"].get(f.get("why"), "") if f.get("why") else "",
                      "boards": f["boards"], "subject": f.get("subject"), "entries": f["entries"],
                      "board_query": f.get("board_query"), "covered_by": f.get("covered_by") or []})
    limit = _int(p, "limit", LIMIT, 1, 100000)
    nxt = r["offset"] + limit if r["offset"] + limit < r["count"] else None
    prev = max(0, r["offset"] - limit) if r["offset"] > 0 else None
    return {"r": r, "items": items, "facets": facets, "p": base,
            "next": qs(offset=str(nxt)) if nxt is not None else None,
            "prev": qs(offset=str(prev)) if prev is not None else None}


def _facet_word(w, key, value):
    if key == "severity":
        return w["audit_sev"].get(value, value)
    if key == "check":
        return w["audit_checks"].get(value, value)
    return value
