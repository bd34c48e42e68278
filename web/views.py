"""What the web pages show beyond the application's data: a rule's page (its conditions in words,
sources, examples as links), and JSON safe inside a page."""
from __future__ import annotations

import json
import re

from liuren.app.params import board_query
from liuren.explain import words as L


def json_script(obj):
    """JSON safe inside <script type="application/json">."""
    return (json.dumps(obj, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("&", "\\u0026"))



def rule_view(svc, key, lang="zh"):
    from liuren.app.engine import cite, entry_sources
    e = svc.entry(key)
    detail = svc.rule_json(e.id)
    from liuren.explain.conditions import conditions_in_words, segments, then_in_words
    family, conds = conditions_in_words(svc.kb, e, links=True)
    conds = [[(L.condition_words(t, lang), ref) if ref is None else (t, ref) for t, ref in segments(c, svc.kb, lang)]
             for c in conds]
    variants = []
    for x in e.variants:                # a reading with a `when:` of its own: its lines, as the entry's
        lines = conditions_in_words(svc.kb, e, links=True, variant=x["id"])[1] if x.get("when") is not None else []
        variants.append({**x, "conditions": [[(L.condition_words(t, lang), ref) if ref is None else (t, ref)
                                              for t, ref in segments(c, svc.kb, lang)] for c in lines]})
    from liuren.i18n import is_rendering
    sources = [{"quote": s.get("quote", ""), "cite": cite(s)} for s in entry_sources(svc.kb, e)
               if lang == "ja" or not is_rendering(s)]          # the 日譯's paragraphs only under ja
    ex = e.meta.get("examples") or {}
    examples = {}
    for k in ("fires", "silent", "unmet"):
        out = []
        for x in ex.get(k) or []:
            b = x.get("board") or {}
            src = x.get("source")
            text = L.board_text({k: v for k, v in b.items() if k != "variants"}, lang)
            if b.get("variants"):
                text += "　" + variants_text(svc.kb, b["variants"], lang)
            out.append({"board": b, "text": text, "why": L.plain(x.get("why", ""), svc.kb, lang, e),
                        "query": board_query(dict(b)) + f"&why={e.id}", "says": x.get("says"), "chuan": x.get("chuan"),
                        "cite": (cite({**src, "book": svc.kb.book_of(src)[0], "volume": svc.kb.book_of(src)[1]})
                                 if isinstance(src, dict) and src.get("seed") else None),
                        "quote": src.get("quote") if isinstance(src, dict) else None})
        examples[k] = out
    related = {k: [{"id": i, "name": L.name_of(svc.kb, i, svc.kb.entries[i].name if i in svc.kb.entries else i, lang)}
                   for i in (e.meta.get(k) or [])] for k in ("defeats", "defeated_by", "conflicts")}
    reports = []
    if getattr(e, "as_var", None):
        from liuren.explain.conditions import reported_rows
        reports = [{"id": r.id, "name": L.display_name(r, lang)} for r in reported_rows(svc.kb, e)]
    reading = L.plain(e.reading, svc.kb, lang, e)
    if lang == "ja" and L.ja_reading(e):          # the 日譯's words, the classical 斷 beside them
        reading = f"{L.ja_reading(e)}（{reading}）"
    return {"e": e, "label": L.display_name(e, lang), "reading": reading, "ja": (e.meta.get("labels") or {}).get("ja"),
            "detail": detail, "family": ({"id": family.id, "label": L.display_name(family, lang)}
                                         if family is not None and family.id != e.id else None),
            "conditions": conds, "sources": sources, "examples": examples, "related": related,
            "variants": variants, "reports": reports,
            "interpretation": ({k: L.plain(v, svc.kb, lang, e) if isinstance(v, str) else v
                                for k, v in e.interpretation.items()} if e.interpretation else None),
            "then": then_in_words(svc.kb, e), "unreachable": e.meta.get("unreachable"), "always": e.meta.get("always")}



def variants_text(kb, variants, lang="zh"):
    """An example's readings in words: 三光課依「觀月經」之讀 (never {'dq07-sanguang': 'guanyue'})."""
    out = []
    for rid, vid in (variants.items() if isinstance(variants, dict) else []):
        e = kb.entries.get(rid)
        name = L.display_name(e, lang) if e is not None else ("" if rid == "*" else rid)
        lab = next((v.get("label") for v in (e.variants if e is not None else []) if v["id"] == vid), None)
        lab = lab or L.TERMS[lang].get(vid, vid)
        out.append(L.WORDS[lang]["variant_reading"].format(name=name, label=lab) if name
                   else L.WORDS[lang]["variant_reading_all"].format(label=lab))
    return "、".join(out)


def back_link(path, items, referer, base, lang="zh"):
    """Where an error page leads back to: the page the student came from (same site), else the page
    itself with only what it was sure of — the drill's lesson (seed, gate, school), the rules, the
    form — never / when the student was in the drill."""
    from urllib.parse import urlencode, urlsplit
    import re as _re
    items = list(items)
    if referer and referer.startswith(base):
        ref = urlsplit(referer)
        here = path + ("?" + urlencode(items) if items else "")
        back = ref.path + ("?" + ref.query if ref.query else "")
        if back != here and not ref.path.startswith("/api"):
            return {"href": back, "word": "error_back_where"}
    keep = {}
    if path.startswith("/practice"):
        for k, v in items:
            if (k == "seed" and _re.fullmatch(r"[0-9]{1,9}", v)) or k in ("gate", "shehai"):
                keep[k] = v
        if "gate" in keep and keep["gate"] not in __import__("liuren.app.practice", fromlist=["CURRICULUM"]).CURRICULUM:
            keep.pop("gate")
        if keep.get("shehai") not in __import__("liuren.app.practice", fromlist=["SCHOOLS"]).SCHOOLS:
            keep.pop("shehai", None)
        target, word = "/practice", "error_back_drill"
    elif path.startswith("/rules"):
        target, word = "/rules", "error_back_rules"
    elif path.startswith("/find"):
        target, word = "/find", "error_back_find"
    else:
        target, word = "/", "error_back"
    if lang == "ja":
        keep["lang"] = "ja"
    return {"href": target + ("?" + urlencode(keep) if keep else ""), "word": word}


PAGE_ROWS = 100          # rows of /rules on one page


def cited_sources(kb, e):
    """An entry's sources as a reader cites them, grouped by book and volume:
    《六壬大全》卷七 ¶605、¶606；《六壬經緯》卷3 ¶7."""
    groups = {}
    for s in e.source:
        if not s.get("seed") or "para" not in s:
            continue
        book, volume = kb.book_of(s)
        groups.setdefault((book, volume), [])
        if s["para"] not in groups[(book, volume)]:
            groups[(book, volume)].append(s["para"])
    return "；".join(f"《{b}》{v} " + "、".join(f"¶{n}" for n in ns) for (b, v), ns in groups.items())


def _books_of(kb, e):
    return {kb.book_of(s)[0] for s in e.source if s.get("seed")}


def rules_view(svc, p, lang="zh"):
    """/rules as Datasette shows a table: the rows that pass the filters, a page of them at a time,
    and facets — the counts by kind and by book of what the other filters leave — each a link that
    adds or removes that filter."""
    from liuren.app.params import query_string
    from liuren.errors import InputError
    from liuren.app.engine import RULE_KINDS
    page_no = p.get("page", "1")
    if not re.fullmatch(r"[0-9]{1,6}", page_no) or int(page_no) < 1:
        raise InputError(f"page {page_no!r}: give a page number (1, 2 …)")
    page_no = int(page_no)
    rows = svc.rules_json({k: v for k, v in p.items() if k != "page"})
    kb = svc.kb
    # facets: kinds among the rows the book and name filters leave, books among those the kind and name leave
    by_kind = svc.rules_json({k: v for k, v in p.items() if k not in ("kind", "page")})
    by_book = svc.rules_json({k: v for k, v in p.items() if k not in ("book", "page")})
    kinds = {}
    for r in by_kind:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    books = {}
    for r in by_book:
        for b in _books_of(kb, kb.entries[r["id"]]):
            books[b] = books.get(b, 0) + 1
    chosen_books = list(p.get("book") or [])

    def qs(**change):
        d = {x: v for x, v in {**p, **change}.items() if x != "page" and v not in (None, [])}
        return query_string(d)
    kind_facet = [{"value": k, "word": L.kind_word(k, lang), "count": kinds[k], "on": p.get("kind") == k,
                   "qs": qs(kind=None if p.get("kind") == k else k)}
                  for k in RULE_KINDS if k in kinds]
    book_facet = [{"value": b, "count": n, "on": b in chosen_books,
                   "qs": qs(book=[x for x in chosen_books if x != b] if b in chosen_books else chosen_books + [b])}
                  for b, n in sorted(books.items(), key=lambda kv: -kv[1])]
    pages = max(1, -(-len(rows) // PAGE_ROWS))
    if page_no > pages:
        raise InputError(f"page {page_no}: there are {pages} pages of {len(rows)} rows")
    shown = rows[(page_no - 1) * PAGE_ROWS:page_no * PAGE_ROWS]
    for row in shown:
        e = kb.entries[row["id"]]
        row["label"] = L.display_name(e, lang)
        row["ja"] = (e.meta.get("labels") or {}).get("ja")
        row["cited"] = cited_sources(kb, e)
    base = {x: v for x, v in p.items() if x != "page"}
    return {"rows": shown, "total": len(rows), "page": page_no, "pages": pages,
            "prev": query_string(base, page=str(page_no - 1)) if page_no > 1 else None,
            "next": query_string(base, page=str(page_no + 1)) if page_no < pages else None,
            "kind_facet": kind_facet, "book_facet": book_facet,
            "book_names": sorted({b.get("book", "") for b in kb.books.values() if b.get("book")})}
