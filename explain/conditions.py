"""A rule's conditions in words, as a rule page shows them: each `when:` item worded as WHY-NOT words
it (whynot.cond_text), with every variable named by what it stands for — never a `$`.

A variable that only picks up the branch at a named place (`位: {位: 初傳, 支: $b}`) is called by
that place (初傳), and the item that did nothing but bind it is left out; so are the 三傳, the day's
stem and branch, the season and the table row of the entry itself.  For a table row reported by a
family rule, the row's own cells are put in first: 斬首 reads 「初傳 為旬空」.  Any other variable is
named by the kind of value it holds — 某支, 某干, 某將, 某位 … — numbered ①②… where several of a
kind stand in one rule.
"""
from __future__ import annotations

import itertools

from liuren.explain.reads import row_bindings as _row_bindings, walk_items as _walk
from liuren.knowledge.conditions import VAR_RE, expand_macros

# what a variable is called by the field it fills, when nothing more is known of it
KIND_NAMES = {"支": "某支", "天": "某支", "地": "某支", "上": "某支", "下": "某支", "對": "某支", "甲": "某支",
              "乙": "某支", "初": "初傳", "中": "中傳", "末": "末傳", "干": "某干", "將": "某將", "位": "某位",
              "行": "某行", "煞": "某煞", "局": "某", "干支": "某干支", "門": "某門", "體": "某體",
              "月": "某", "日": "某", "四時": "某時", "五時": "某時", "旬": "某旬", "問": "所問"}
# patterns whose fields, when they are all variables, only name things the board has
NAMING = {
    "日": {"干": "日干", "支": "日支", "干支": "日干支", "旬": "本旬", "旬首": "旬首", "旬尾": "旬尾", "陰陽": "日之陰陽"},
    "傳": {"初": "初傳", "中": "中傳", "末": "末傳", "門": "發用之門", "體": "課體"},
    "時令": {"月建": "月建", "四時": "時令", "五時": "時令"},
    "晝夜": {"晝夜": "晝夜"},
    "夫妻行年": {"夫": "夫行年", "夫干": "夫行年之干", "妻": "妻行年", "妻干": "妻行年之干"},
}
CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩"


def _is_var(x):
    return isinstance(x, str) and VAR_RE.match(x) is not None and "~" not in x


def _binding_only(k, fields, kb, fixed, rule=None, row_id=None):
    """Does this pattern do nothing but name variables (and so goes unsaid)?"""
    if rule is not None and row_id and rule.as_var and fields.get("id") == rule.as_var:
        return True                                         # the entry's own table row
    if k == "位":
        place = fields.get("位")
        place = fixed.get(place, place) if isinstance(place, str) else place
        rest = {f: x for f, x in fields.items() if f not in ("位",)}
        return isinstance(place, str) and not _is_var(place) and all(_is_var(x) for x in rest.values())
    if k in NAMING:
        return all(_is_var(x) and f in NAMING[k] for f, x in fields.items())
    return False


def names_of(kb, rule, items, fixed):
    """{variable: what it is called}: the row's cells, the places that name branches, then kinds."""
    names = dict(fixed)
    places = {}                             # variable -> the places it is read at
    for k, fields in _walk(items):
        if "位" in fields:                      # 位, 位氣 …: a named place's branch
            place = fields.get("位")
            place = fixed.get(place, place) if isinstance(place, str) else place
            if isinstance(place, str) and not _is_var(place):
                for f, x in fields.items():
                    if _is_var(x) and x not in names:
                        word = {"支": place, "天": f"{place}上神", "地": f"{place}所臨",
                                "干": "日干" if place == "日干" else f"{place}之干", "干支": f"{place}干支"}.get(f)
                        if word:
                            places.setdefault(x, set()).add(word)
        elif k in NAMING:
            for f, x in fields.items():
                if _is_var(x) and x not in names and f in NAMING[k]:
                    places.setdefault(x, set()).add(NAMING[k][f])
    for x, words in places.items():
        if len(words) == 1:                     # read at one place only (not 干上 in one branch, 支上 in another)
            names[x] = next(iter(words))
    # the rest by the kind of value: the first field each fills
    kinds = {}
    for k, fields in _walk(items):
        for f, x in fields.items():
            if _is_var(x) and x not in names and x not in kinds:
                kinds[x] = KIND_NAMES.get(f, "某")
    count = {}
    for v, base in kinds.items():
        count[base] = count.get(base, 0) + 1
    seen = {}
    for v, base in kinds.items():
        if count[base] > 1:
            seen[base] = seen.get(base, 0) + 1
            i = seen[base]
            names[v] = base + (CIRCLED[i - 1] if i <= len(CIRCLED) else str(i))
        else:
            names[v] = base
    return names


REF = "\x01{}\x02"          # another rule named in a condition, where the page links it (see segments)


def segments(text, kb, lang="zh"):
    """A condition worded with links=True as [(text, entry id or None)]: the page links each rule it names."""
    import re
    from liuren.explain.words import display_name
    out = []
    for i, part in enumerate(re.split("\x01([^\x02]*)\x02", text)):
        if i % 2:
            e = kb.entries.get(part)
            out.append((f"「{display_name(e, lang)}」" if e else part, part))
        elif part:
            out.append((part, None))
    return out


def conditions_in_words(kb, entry, links=False):
    """(the family rule when the entry is a row it reports, else None or the rule itself,
    [each condition in words]).  links: another rule named in a condition is marked for segments()."""
    from liuren.explain.whynot import cond_text, reporting_rule
    rule, pre = reporting_rule(kb, entry.id)
    if rule is None:
        return None, []
    when = rule.when if isinstance(rule.when, list) else [rule.when]
    items = expand_macros(when, kb.macros, itertools.count())
    row_id = entry.id if entry.id != rule.id else None
    fixed = _row_bindings(kb, rule, row_id) if row_id else {}
    names = names_of(kb, rule, items, fixed)
    pruned = [x for x in (_prune(it, names, kb, fixed, rule, row_id) for it in items) if x is not None]
    items = pruned or items                 # a rule that only names a place (a placement) says that much
    ref = (lambda e: REF.format(e.id)) if links else None
    return rule, [_no_dollar(cond_text(it, _within(it, names), kb, ref)).strip() for it in items]


def then_in_words(kb, entry):
    """What a rule asserts (its `then:`), in words, its variables named as in its conditions."""
    from liuren.explain.whynot import cond_text, reporting_rule
    from liuren.knowledge.conditions import then_facts
    then = entry.meta.get("then")
    if not then:
        return []
    rule = entry if entry.id in kb.rules else reporting_rule(kb, entry.id)[0] or entry
    when = rule.when if isinstance(getattr(rule, "when", None), list) else [getattr(rule, "when", None) or {}]
    items = expand_macros(when, kb.macros, itertools.count())
    names = names_of(kb, rule, items, {})
    out = []
    for t, fields in then_facts(then):
        item = {t: dict(fields)}
        names_then = {**names, **{x: KIND_NAMES.get(f, "某") for f, x in fields.items() if _is_var(x) and x not in names}}
        out.append(_no_dollar(cond_text(item, names_then, kb)).strip())
    return out


def _named_here(k, fields, names, fixed=()):
    """Does every variable of this pattern take its name from it (so the pattern says nothing more)?"""
    place = fields.get("位")
    if isinstance(place, str) and _is_var(place):
        place = fixed.get(place) if place in fixed else None
    for f, x in fields.items():
        if f == "位" or not _is_var(x) or x in fixed:
            continue
        if k in NAMING and NAMING[k].get(f) == names.get(x):
            continue
        if k == "位" and isinstance(place, str) and names.get(x) in (place, f"{place}上神", f"{place}所臨",
                                                                       f"{place}之干", f"{place}干支", "日干"):
            continue
        return False
    return True


def _prune(item, names, kb, fixed, rule, row_id):
    """The condition without the patterns that only name what other items read (also inside any/all)."""
    if not isinstance(item, dict):
        return item
    if "macro" in item:
        return item
    k = next((x for x in item if x != "macro"), None)
    if k in ("all", "any"):
        kept = [x for x in (_prune(c, names, kb, fixed, rule, row_id) for c in item[k]) if x is not None]
        if not kept:
            return None
        return kept[0] if len(kept) == 1 and k == "all" else {k: kept}
    if k in (None, "not", "test") or not isinstance(item[k], dict):
        return item
    own_row = rule is not None and row_id and rule.as_var and item[k].get("id") == rule.as_var
    if own_row or (_binding_only(k, item[k], kb, fixed, rule, row_id) and _named_here(k, item[k], names, fixed)):
        return None
    return item


def _within(item, names):
    """Inside the pattern that reads a place, the variable it binds is that place already: 「初傳旺或相」,
    not 「初傳初傳旺或相」."""
    if not isinstance(item, dict) or len(item) != 1:
        return names
    (k, fields), = item.items()
    if not isinstance(fields, dict) or not isinstance(fields.get("位"), str) or _is_var(fields.get("位")):
        return names
    place = fields["位"]
    own = {x for f, x in fields.items() if f == "支" and _is_var(x) and names.get(x) == place}
    return {**names, **{x: "" for x in own}} if own else names


def _no_dollar(text):
    """A variable the naming missed still never shows as `$x`."""
    import re
    return re.sub(r"\$[^\s\W]*\w*", "某", text)
