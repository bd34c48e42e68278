"""The 類相 (imagery) of a branch, stem or general as the KB's 類相 tables list them, by category,
in the reader's language: what `liuren lookup` prints and what the board's hover text shows."""
from __future__ import annotations

from liuren.errors import InputError
from liuren.i18n import DEFAULT, name_of
from liuren.explain.imagewords import imagery_word
from liuren.explain.words import term


def _category_names(kb, lang):
    """The 類相 categories by their names in both languages: {label or name: 門} and {門: shown}."""
    by_label, shown = {}, {}
    for t in kb.tables.values():
        if t.kind == "類相":
            for r in t.rows:
                if r.name:
                    shown.setdefault(r.name, name_of(r, lang))
                    for v in (r.meta.get("labels") or {}).values():
                        by_label.setdefault(v, r.name)
    return by_label, shown



def lookup_data(kb, symbol, category=None, lang=DEFAULT):
    """`liuren lookup`: (the symbol, {category: [類相 …]}) of a branch, stem or general; a category
    may be named by its label too (臓腑 for 臟腑), and is shown in the reader's language."""
    from liuren.casting.symbols import SHORT_GENERALS, is_branch, is_stem
    by_label, shown = _category_names(kb, lang)
    wanted = by_label.get(category, category) if category else None
    sym = SHORT_GENERALS.get(symbol, symbol)
    known = set(SHORT_GENERALS.values())
    if not (is_branch(sym) or is_stem(sym) or sym in known):
        raise InputError(f"lookup {symbol!r}: give a branch (子…亥), a stem or a general (貴人…天后)")
    out = {}
    cats = set()
    for t in kb.tables.values():
        if t.kind != "類相":
            continue
        for d in t.facts():
            cat = d.get("門") or t.name
            cats.add(cat)
            if wanted and cat != wanted:
                continue
            if sym in (d.get("支"), d.get("干"), d.get("將")) and d.get("象"):
                out.setdefault(cat, [])
                if d["象"] not in out[cat]:
                    out[cat].append(d["象"])
    if wanted and wanted not in cats:
        raise InputError(f"--category {category!r}: categories are {'、'.join(sorted(cats)) or '(none in this KB)'}")
    return sym, {shown.get(c, c): v for c, v in out.items()}




def imagery(kb, lang=DEFAULT):
    """{symbol: {category: [類相 …]}} of every branch and general (kept on the KB, built once)."""
    from liuren.casting.symbols import BRANCHES, SHORT_GENERALS
    cache = kb.__dict__.setdefault("_imagery", {})
    if lang not in cache:
        cache[lang] = {s: lookup_data(kb, s, lang=lang)[1] for s in tuple(BRANCHES) + tuple(SHORT_GENERALS.values())}
    return cache[lang]


def imagery_text(sym, cats, n=6, kb=None, lang="zh"):
    t = (lambda w: imagery_word(term(kb, w, lang), lang)) if kb is not None else (lambda w: imagery_word(w, lang))
    if not cats:
        return f"{t(sym)}" + ("（類相なし）" if lang == "ja" else "（無類相）")
    return f"{t(sym)}　" + "；".join(f"{t(c)}：{'、'.join(imagery_word(x, lang) for x in items[:n])}" for c, items in cats.items())


