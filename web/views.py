"""What the web pages show beyond the application's data: a rule's page (its conditions in words,
sources, examples as links), and JSON safe inside a page."""
from __future__ import annotations

import json
import re

from liuren.app.params import board_query
from liuren.casting.symbols import is_branch
from liuren.explain import words as L


def json_script(obj):
    """JSON safe inside <script type="application/json">."""
    return (json.dumps(obj, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("&", "\\u0026"))



def conditions_in_words(kb, e):
    """A rule's conditions as WHY-NOT words them (explain.whynot.cond_text), unbound."""
    import itertools
    from liuren.rules.compile import expand_macros
    from liuren.explain.whynot import cond_text, reporting_rule
    rule, pre = reporting_rule(kb, e.id)
    if rule is None:
        return None, []
    when = rule.when if isinstance(rule.when, list) else [rule.when]
    items = expand_macros(when, kb.macros, itertools.count())
    # unbound variables are shown by name ($p), so that the joins between conditions can be read
    names = set(re.findall(r"\$[^\W\d]\w*", json.dumps(items, ensure_ascii=False)))
    shown = {v: v for v in names if "~" not in v}
    shown.update(pre)
    return rule, [cond_text(i, shown, kb) for i in items]



def rule_view(svc, key, lang="zh"):
    from liuren.rules.judging import _sources, cite
    e = svc.entry(key)
    detail = svc.rule_json(e.id)
    family, conds = conditions_in_words(svc.kb, e)
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
        from liuren.explain.whynot import reporting_rule
        reports = [{"id": r.id, "name": L.display_name(r, lang)} for r in svc.kb.rows.values()
                   if reporting_rule(svc.kb, r.id)[0] is e]
    return {"e": e, "label": L.display_name(e, lang), "ja": (e.meta.get("labels") or {}).get("ja"),
            "detail": detail, "family": family if family is not None and family.id != e.id else None,
            "conditions": conds, "sources": sources, "examples": examples, "related": related,
            "variants": e.variants, "reports": reports, "interpretation": e.interpretation,
            "then": e.meta.get("then"), "unreachable": e.meta.get("unreachable"), "always": e.meta.get("always")}



def is_branch_value(x):
    return is_branch(x)
