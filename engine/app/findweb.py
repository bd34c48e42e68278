"""/find and /api/find: the page's context (facets as links, counts and cross-tables, charts,
co-occurrence, the pager, a shared name's choices as links) and the API's JSON, from find.py's
queries; and the rule page's block of where a rule fires."""
from __future__ import annotations

from liuren.app.find import (COUNT_BY, GATES, KE_KEY, MAX_LIMIT, PAGE, SORTS, X, Ambiguous, FindError, NotBuilt,
                             _bounded, check_options, cooccur, display_name, find, names_in, normalize_question,
                             parse, parse_by, space, tokens, where_it_fires, OPS)


# --------------------------------------------------------------------------- the web's /find and /api/find
FIND_KEYS = ("q", "month", "day", "gate", "daynight", "dim", "limit", "offset", "count_by", "cooccur", "each_lesson",
             "sort", "order", "min_count", "guiren", "shehai", "question", "lang")
EXAMPLES = ("斬首 and 元首課", "三光課 and 魁度天門", "返吟 and not 涉害課", "初傳=亥 and 鬼@初傳", "貴人@卯 and not 門=涉害",
            "初傳 空 and (返吟 or 伏吟)")
CHART_KEYS = ("gate", "month")


def _space_args(finder, p):
    opts = check_options({k: p[k] for k in ("guiren", "shehai") if k in p})
    question = normalize_question(finder.kb_dir, p.get("question"))
    return opts, question


def api_find(finder, p, lang="zh"):
    """/api/find: the CLI's JSON (find --json), with the facets; cooccur=NAME: find --cooccur."""
    opts, question = _space_args(finder, p)
    for k in ("q", "cooccur"):
        if k in p:
            parse(p[k])
    if "q" not in p and "cooccur" not in p:
        raise FindError("find: give q=EXPR (e.g. q=斬首 and 元首課) or cooccur=NAME")
    if p.get("count_by"):
        parse_by(p["count_by"])
    ix = finder.index(opts, question, build=False)
    filters = {k: p.get(k) for k in ("month", "day", "gate", "daynight", "dim")}
    if "cooccur" in p:
        return cooccur(ix, p["cooccur"], p.get("limit", 20), lang=lang, sort=p.get("sort", "lift"),
                       min_count=p.get("min_count", 1), **filters)
    return find(ix, p["q"], limit=p.get("limit", PAGE), offset=p.get("offset", 0), count_by_key=p.get("count_by"),
                facets=True, lang=lang, each_lesson=_flag(p, "each_lesson"), order=p.get("order", "lessons"), **filters)


def _flag(p, name):
    from liuren.app.params import flag
    return bool(flag(p, name))


def chart(counts, width=360, bar=18, gap=4):
    """A horizontal bar chart's geometry (the page draws it as SVG): one bar per value, 0 included."""
    top = max(counts.values() or [0]) or 1
    rows = []
    for k, (value, n) in enumerate(counts.items()):
        rows.append({"value": value, "count": n, "y": k * (bar + gap), "w": round(width * n / top, 1)})
    return {"rows": rows, "height": len(rows) * (bar + gap), "width": width, "bar": bar}


def page_find(finder, p, lang="zh"):
    """/find: the result with its facets as links (a value adds its filter; the chosen one removes
    it), counts (a cross-table for two keys), charts by facet, co-occurrence, and the pager's
    query strings."""
    from urllib.parse import urlencode
    ctx = {"p": p, "r": None, "facets": {}, "prev": None, "next": None, "why": None, "cooccur": [],
           "months": list(X.MONTHS), "gates": GATES, "examples": EXAMPLES, "space": 60 * 12 * X.PER_LESSON,
           "days": 60, "charts": {}, "which": None, "sort": p.get("sort", "lift"), "by_keys": COUNT_BY + (KE_KEY,)}
    opts, question = _space_args(finder, p)
    # what the page does not show it still checks, as /api/find does: never a silent 200
    if p.get("count_by"):
        parse_by(p["count_by"])
    if "cooccur" in p:
        parse(p["cooccur"])
        cooccur(finder.index(opts, question, build=False), p["cooccur"], 1,
                **{k: p.get(k) for k in ("month", "day", "gate", "daynight")})
    if "q" not in p:
        return ctx
    parse(p["q"])
    by = parse_by(p["count_by"]) if p.get("count_by") else None
    ix = finder.index(opts, question, build=False)
    ctx["space"], ctx["days"] = ix.size, ix.days
    sp = space(ix)
    ctx["base_boards"] = sp["base_boards"]
    ctx["extra_raw"] = sp["extra"]
    filters = {k: p.get(k) for k in ("month", "day", "gate", "daynight", "dim")}
    limit = _bounded("limit", p.get("limit", PAGE), 1, MAX_LIMIT)
    items = [(k, v) for k, v in p.items() if k != "offset"]

    def qs(**change):
        d = dict(items)
        for k, v in change.items():
            if v is None:
                d.pop(k, None)
            else:
                d[k] = v
        return urlencode(list(d.items()))
    try:
        r = find(ix, p["q"], limit=limit, offset=p.get("offset", 0), facets=True, lang=lang,
                 each_lesson=_flag(p, "each_lesson"), count_by_key=p.get("count_by"),
                 order=p.get("order", "lessons"), **filters)
    except Ambiguous as e:
        ctx["which"] = {"name": e.name, "choices": [
            {"id": i, "name": display_name(ix, i, lang), "kind": kind, "count": n,
             "qs": qs(q=_replace_name(p["q"], e.name, i), offset=None)} for i, _, kind, n in e.choices]}
        raise WhichOne(e, ctx) from None
    r["offset"] = int(p.get("offset", 0))
    ctx["r"] = r
    ctx["note_names"] = {i: display_name(ix, i, lang) for i in r["notes"]}
    from liuren.explain.words import WORDS
    ctx["extra"] = [WORDS[lang]["find_extra_item"].format(dim=k, n=e["boards"]) for k, e in ctx.pop("extra_raw").items()]
    words = {"daynight": {"晝": "day", "夜": "night"}, "dim": {"base": "base", "占時": "hour", "太歲": "year",
                                                             "本命・行年": "person", "農曆": "lunar", "節日": "term"}}
    from liuren.explain.words import WORDS
    base_word = WORDS[lang]["find_base"]

    def shown(v):                       # the base boards, in the page's words
        return base_word if v == "base" else v
    for key, counts in r["facets"].items():
        out = []
        for value, count in counts.items():
            param = words.get(key, {}).get(value, value)
            on = p.get(key) in (param, value)
            out.append({"value": shown(value), "count": count, "on": on, "qs": qs(**{key: None if on else param})})
        ctx["facets"][key] = out
    if "table" in r:
        r["table"] = dict(r["table"], rows=[shown(v) for v in r["table"]["rows"]],
                          cols=[shown(v) for v in r["table"]["cols"]])
    if "counts" in r:
        r["counts"] = {shown(k): v for k, v in r["counts"].items()}
        ctx["charts"][by[0]] = chart(r["counts"])
    else:
        ctx["charts"] = {k: chart(r["facets"][k]) for k in CHART_KEYS}
    off = r["offset"]
    if off > 0:
        ctx["prev"] = qs(offset=str(max(0, off - limit)) if off - limit > 0 else None)
    r["total"] = r.get("lessons", r["count"])
    if off + limit < r["total"]:
        ctx["next"] = qs(offset=str(off + limit))
    if r["count"]:
        sort = p.get("sort", "lift")
        co = cooccur(ix, p["q"], 10, lang=lang, sort=sort, min_count=p.get("min_count", 1), **filters)["cooccur"]
        for row in co:
            row["qs"] = urlencode([("q", f"({p['q']}) and {row['id']}")] + [(k, v) for k, v in items
                                                                          if k not in ("q", "sort", "min_count")])
        ctx["cooccur"] = co
        ctx["sort_qs"] = {s: qs(sort=s, offset=None) for s in SORTS}
    pos = [n for n in names_in(parse(p["q"])) if n in r["terms"]]
    if pos and r["terms"][pos[0]]:
        ctx["why"] = r["terms"][pos[0]][0]["id"]
    return ctx


class WhichOne(FindError):
    """A name several entries share, on the page: the error with the choices to link."""

    def __init__(self, e, ctx):
        super().__init__(str(e))
        self.ctx = ctx


def _replace_name(expr, name, entry_id):
    """The expression with the name `name` (a whole token) written as the id of one entry."""
    out = []
    for kind, text in tokens(expr):
        out.append(entry_id if kind == "name" and text == name else
                   f"'{text}'" if kind == "name" and (" " in text or text.lower() in OPS) else text)
    return " ".join(out).replace("( ", "(").replace(" )", ")")


def rule_block(finder, entry_id, lang="zh"):
    """A rule page's "where it fires", or None when the index is not built (a note says how)."""
    try:
        ix = finder.index(build=False)
    except NotBuilt as e:
        from liuren.explain.words import error_text
        return {"missing": error_text(e, lang)}
    return where_it_fires(ix, entry_id, 10, lang)
