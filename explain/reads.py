"""What a rule reads on the board and what it needs there — a minimal derivation for WHY-NOT, kept
apart so that the condition model (branch `model`) can replace it.

A rule's condition is a set of patterns.  Some read the board (位, 盤, 傳, 日 … and derived facts),
some read tables (a family's rows, or tables a rule joins through).  For an entry that did not fire,
this works out, for each thing the rule reads:

* where on the board it reads (初傳, 干上, the 發用之門 …) and the board's own value there, by following
  the condition's variables from the places it names (位 {位: 初傳, 支: $a} gives $a the board's
  初傳; 盤 {天: $a, 將: $j} then gives $j the general the 初傳 carries);
* what the rule needs there: a constant of the pattern, or a value the entry's own table row fixes
  (伏吟課's row of the 九宗門 table has 門 伏吟), or the values of a table the variable is looked up in
  (交合 needs one of the generals of its row).

and says each as 「門：此盤為涉害，伏吟課要伏吟」 — the board's value first, never a value the board
does not have (a stem is never read as a branch: 日干 is its stem, 丁（寄未）).
"""
from __future__ import annotations

import itertools

from liuren.knowledge.conditions import VAR_RE, expand_macros

# fields of the board's facts in words, for the line's subject (zh, ja)
FIELD_WORDS = {
    "zh": {"門": "發用之門", "體": "課體", "將": "所乘之將", "初": "初傳", "中": "中傳", "末": "末傳", "干": "干",
           "支": "支", "天": "上神", "地": "所臨", "晝夜": "晝夜", "陰陽": "日之陰陽", "旬": "旬", "氣": "旺衰",
           "四時": "時令", "五時": "時令", "月建": "月建", "干支": "日干支", "課": "課", "上": "上神", "下": "下神",
           "問": "所問", "性別": "占者之性別"},
    "ja": {"門": "発用の門", "體": "課体", "將": "乗る天将", "初": "初伝", "中": "中伝", "末": "末伝", "干": "干",
           "支": "支", "天": "上神", "地": "臨む所", "晝夜": "昼夜", "陰陽": "日の陰陽", "旬": "旬", "氣": "旺衰",
           "四時": "時令", "五時": "時令", "月建": "月建", "干支": "日の干支", "課": "課", "上": "上神", "下": "下神",
           "問": "問う事", "性別": "占う人の性別"},
}
LINE = {"zh": "{what}：此盤為 {has}，{name}要 {need}", "ja": "{what}：この盤は {has}、{name}は {need} を要する"}
NONE = {"zh": "{what}：此盤無之，{name}要 {need}", "ja": "{what}：この盤にはない、{name}は {need} を要する"}
OR = {"zh": "或", "ja": "か"}
# a read of a fact the board derives from the month (位氣's 旺衰, 時氣 …) on a board cast without one:
# the board has no such value because no month was given, not because the board lacks it
NO_MONTH = {"zh": "{what}：依月建而定，此盤未給月建，{name}要 {need}",
            "ja": "{what}：月建によって定まるが、この盤には月建がない、{name}は {need} を要する"}
NO_MONTH_ITSELF = {"zh": "{what}：此盤未給月建，{name}要 {need}",          # a read of the month itself
                   "ja": "{what}：この盤には月建がない、{name}は {need} を要する"}
MONTH_FACT = "時令"        # the board's month: its 月建 and season; every month-derived fact reads it
BOARD_TYPES = ("位", "盤", "傳", "日", "課", "晝夜", "時令", "遁", "人", "問")
BRANCH_FIELDS = ("支", "初", "中", "末", "天", "地", "上")
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
STEMS = "甲乙丙丁戊己庚辛壬癸"
MAX_NEED = 6            # a need of more values than this is said as the table's name


def _is_var(x):
    return isinstance(x, str) and VAR_RE.match(x) is not None


def month_types(kb):
    """The fact types the board has only when a month is given: 時令 itself, and whatever only rules
    that read a month-derived fact on every route produce (時氣, 位氣, 時態 …).  Worked out once per
    KB object."""
    got = kb.__dict__.get("_month_types")
    if got is None:
        got = kb.__dict__["_month_types"] = frozenset(_month_types(kb))
    return got


def _month_types(kb):
    producers = {}
    for rule in kb.rules.values():
        reads = {k for k, _ in _patterns(rule.when if isinstance(rule.when, list) else [rule.when])}
        for it in rule.then if isinstance(rule.then, list) else [rule.then]:
            if isinstance(it, dict):
                for t in it:
                    producers.setdefault(t, []).append(reads)
    out = {MONTH_FACT}
    changed = True
    while changed:
        changed = False
        for t, prods in producers.items():
            if t not in out and t not in kb.tables and all(r & out for r in prods):
                out.add(t)
                changed = True
    return out


def _none_line(fact_type, kb, has_month, lang):
    """The line for a read the board has no value at: the month it needs, where that is why."""
    if not has_month and fact_type == MONTH_FACT:
        return NO_MONTH_ITSELF[lang]
    if not has_month and fact_type in month_types(kb):
        return NO_MONTH[lang]
    return NONE[lang]


def walk_items(items):
    """Every fact pattern (type, fields) of a condition, macro expansions included."""
    for it in items if isinstance(items, list) else [items]:
        if not isinstance(it, dict):
            continue
        if "macro" in it and "all" in it:
            yield from walk_items(it["all"])
            continue
        k = next((x for x in it if x != "macro"), None)
        if k in ("all", "any"):
            yield from walk_items(it[k])
        elif k == "not":
            yield from walk_items(it[k])
        elif k not in (None, "test") and isinstance(it[k], dict):
            yield k, it[k]


def row_bindings(kb, rule, row_id):
    """The variables a row's own cells fix, where the family rule reads the row's table."""
    row = kb.rows.get(row_id)
    if row is None or not row.data:
        return {}
    ftype = kb.tables[row.table].fact_type
    out = {}
    for k, fields in walk_items(rule.when):
        if k != ftype or fields.get("id") != rule.as_var:
            continue
        for f, x in fields.items():
            if _is_var(x) and "~" not in x and f != "id":
                vals = {cells.get(f) for cells in row.data}
                if len(vals) == 1 and None not in vals:
                    out[x] = next(iter(vals))
    return out


def _patterns(items):
    """The top-level patterns every route through the rule takes (not inside any:/not:)."""
    for it in items:
        if not isinstance(it, dict):
            continue
        k = next((x for x in it if x != "macro"), None)
        if k == "all":
            yield from _patterns(it["all"])
        elif k not in (None, "any", "not", "test") and isinstance(it.get(k), dict):
            yield k, it[k]


def _facts(fb, t):
    return [f for f, _ in fb.facts(t)]


def board_values(pats, fb, pre):
    """{variable: the board's value}, by following the patterns from the places they name: a pattern
    whose constants and known variables pick out exactly one fact binds its other variables."""
    b = dict(pre)
    places = {f.get("位"): f for f in _facts(fb, "位")}
    for k, fields in pats:            # a place's branch, whatever the pattern (位氣 {位: 初傳, 支: $a})
        place, x = fields.get("位"), fields.get("支")
        if isinstance(place, str) and not _is_var(place) and _is_var(x) and place in places and x not in b:
            b[x] = places[place].get("支")
    board = [(k, f) for k, f in pats if k in BOARD_TYPES or k in fb.derived_types]
    changed = True
    while changed:
        changed = False
        for k, fields in board:
            if all(not _is_var(x) or x in b for x in fields.values()):
                continue
            known = {f: (b[x] if _is_var(x) else x) for f, x in fields.items()
                     if (not _is_var(x) or x in b) and not isinstance(x, (list, dict))}
            facts = _facts(fb, k)
            if not known and len(facts) != 1:          # a type the board has once (傳, 日) needs no anchor
                continue
            hits = [f for f in facts if all(f.get(a) == v for a, v in known.items())]
            if not hits and len(facts) == 1:          # the board's one 日 or 傳: its other values are still its own
                hits = facts
            if len(hits) != 1:
                continue
            for f, x in fields.items():
                if _is_var(x) and x not in b and f in hits[0]:
                    b[x] = hits[0][f]
                    changed = True
    return b


def place_anchors(pats, fixed):
    """The row's cells that name a place the rule reads at (斬首's 位 初傳): anchors, not needs."""
    return {x: v for x, v in fixed.items() if any(fields.get("位") == x for _, fields in pats)}


def needs_of(pats, kb, fixed, variants):
    """{variable: the values the rule admits}: fixed by the entry's row, else by the table the
    variable is looked up in (its column's values, the table's other columns as the row fixes them)."""
    need = {x: {v} for x, v in fixed.items()}
    for k, fields in pats:
        if k not in kb.tables:
            continue
        consts = {f: x for f, x in fields.items() if not _is_var(x)}
        known = {f: fixed[x] for f, x in fields.items() if _is_var(x) and x in fixed}
        for f, x in fields.items():
            if not _is_var(x) or x in fixed or f == "id":
                continue
            vals = set()
            for tab in kb.tables.values():
                if tab.fact_type != k:
                    continue
                for row in tab.facts(variants):
                    if all(row.get(a) == v for a, v in {**consts, **known}.items()) and f in row:
                        vals.add(row[f])
            if f in BRANCH_FIELDS:
                vals = {v for v in vals if v in BRANCHES}
            if vals and len(vals) <= MAX_NEED:
                need.setdefault(x, set())
                need[x] = need[x] & vals if need[x] else vals
    return need


def _what(k, fields, field, b, lang, placed=None):
    """The subject of a line: where the rule reads (初傳 寅 所乘之將; 發用之門)."""
    placed = placed or {}
    words = FIELD_WORDS[lang]
    place = fields.get("位")
    if k == "位" and isinstance(place, str) and not _is_var(place):
        from liuren.explain.words import position
        return f"{position(place, lang)}{words.get(field, field) if field != '支' else ''}"
    if k == "盤":
        sky = fields.get("天")
        at = b.get(sky) if _is_var(sky) else sky
        from liuren.explain.words import position
        where = position(placed.get(sky), lang) + " " if _is_var(sky) and placed.get(sky) else ""
        return f"{where}{at} {words.get(field, field)}" if at else words.get(field, field)
    return words.get(field, field)


def _value_text(v, field, fb):
    """A value as the board has it: 日干 is its stem (丁（寄未）), never the branch it lodges in."""
    return str(v)


def lines(kb, rule, items, fb, fixed, name, variants=None, lang="zh"):
    """[{text, field, has, need}] for each thing the rule reads whose board value is not what it needs."""
    pats = list(_patterns(items))
    b = board_values(pats, fb, place_anchors(pats, fixed))
    need = needs_of(pats, kb, {x: v for x, v in fixed.items() if x not in place_anchors(pats, fixed)}, variants or {})
    placed = {fields["支"]: fields["位"] for k, fields in pats
              if isinstance(fields.get("位"), str) and not _is_var(fields["位"]) and _is_var(fields.get("支"))}
    out, seen = [], set()
    for k, fields in pats:
        if k not in BOARD_TYPES:
            continue
        for field, x in fields.items():
            if field in ("位",):
                continue
            if _is_var(x):
                if x not in need:
                    continue
                want = need[x]
                has = b.get(x)
                if has is None:
                    has = _anchored(k, fields, field, fb, b)
            elif isinstance(x, (str, int)):
                want = {x}
                has = _anchored(k, fields, field, fb, b)
            elif isinstance(x, list):
                want = set(x)
                has = _anchored(k, fields, field, fb, b)
            else:
                continue
            if has in want or (k, field, str(sorted(map(str, want)))) in seen:
                continue
            seen.add((k, field, str(sorted(map(str, want)))))
            if field in BRANCH_FIELDS:                  # a branch's place is never read as a stem
                want = {v for v in want if str(v) in BRANCHES} or want
            elif field == "干":                          # nor a stem's as a branch
                want = {v for v in want if str(v) in STEMS} or want
            if has in want:
                continue
            what = _what(k, fields, field, b, lang, placed)
            need_text = OR[lang].join(sorted(map(str, want)))
            tpl = LINE[lang] if has is not None else _none_line(k, kb, bool(_facts(fb, MONTH_FACT)), lang)
            out.append({"text": tpl.format(what=what, has=_value_text(has, field, fb), name=name, need=need_text),
                        "field": field, "has": has, "need": sorted(map(str, want))})
    return out


def _anchored(k, fields, field, fb, b):
    """The board's value of `field` in the one fact the pattern's place picks out, or None."""
    anchor = {f: (b[x] if _is_var(x) else x) for f, x in fields.items()
              if f != field and not isinstance(x, (list, dict)) and (not _is_var(x) or x in b)}
    place_fields = {f: v for f, v in anchor.items() if f in ("位", "天", "地", "課")}
    facts = [f for f in _facts(fb, k) if all(f.get(a) == v for a, v in (place_fields or {}).items())]
    if len(facts) == 1 and field in facts[0]:
        return facts[0][field]
    return None


def entry_lines(kb, entry, rule, pre, fb, variants=None, lang="zh"):
    """The board-value lines of an entry's WHY-NOT that the model has no way for (a row reported by a
    family rule; a rule, and a variant with a `when:` of its own, are read by model_lines)."""
    from liuren.explain.words import display_name
    items = expand_macros(rule.when if isinstance(rule.when, list) else [rule.when], kb.macros, itertools.count())
    fixed = row_bindings(kb, rule, entry.id) if entry.id != rule.id else {}
    return lines(kb, rule, items, fb, fixed, display_name(entry, lang), variants, lang)


# ------------------------------------------------------------------ on the condition model
# Since the condition model (liuren.knowledge.meaning) exists, a WHY-NOT's board lines are read off it:
# check_on(entry, the board's facts) gives, way by way, each read with the board's value there and
# the values needed (a variant's own `when:` has its model too).  The derivation above stays for what
# the model does not cover (an entry the model has no way for).
MAX_SHOWN = 8


def _at_words(read, checks, lang):
    """Where a read is, in words: 初傳; 初傳 亥 所乘之將 (the general on 初傳's 天盤 branch); 發用之門."""
    from liuren.explain.words import position
    words = FIELD_WORDS[lang]
    at = "、".join(position(p, lang) for p in read.at)
    if read.fact in ("盤", "遁"):
        if read.fact == "遁":
            words = dict(words, 干={"zh": "遁干", "ja": "遁干"}[lang])
        branch = next((c.value for c in checks if c.read and c.read.fact == "位" and c.read.at == read.at
                       and c.read.field == "支" and c.value), None)
        if read.fact == "盤" and not read.at and read.field != "將":
            # read by the general alone (貴人所乘 所臨): named by the one general the way fixes
            gens = {next(iter(c.read.needs)) for c in checks if c.read and c.read.fact == "盤" and not c.read.at
                    and c.read.field == "將" and c.read.needs and len(c.read.needs) == 1}
            if len(gens) == 1:
                rides = {"zh": "{g}所乘", "ja": "{g}の乗る支"}[lang].format(g=position(gens.pop(), lang))
                sep = {"zh": " ", "ja": " の"}[lang]
                return rides if read.field == "天" else f"{rides}{sep}{words.get(read.field, read.field)}"
        return f"{at} {branch} {words.get(read.field, read.field)}" if branch else f"{at}{words.get(read.field, read.field)}"
    if read.fact == "位":
        return at + ("" if read.field == "支" else words.get(read.field, read.field))
    if read.fact == "日" and read.field in ("干", "支"):
        return position("日" + read.field, lang)        # the day's own stem or branch: 日干, 日支
    if at:
        return f"{at}{words.get(read.field, read.field)}"
    return words.get(read.field, read.field)


def _needs_words(needs, lang):
    vals = sorted(map(str, needs))
    if len(vals) > MAX_SHOWN:
        more = {"zh": "等 {n} 者之一", "ja": "など {n} のいずれか"}[lang].format(n=len(vals))
        return OR[lang].join(vals[:MAX_SHOWN]) + more
    return OR[lang].join(vals)


# the values of a kind, all of them: a need of every one asks nothing of the board
DOMAINS = (frozenset(BRANCHES), frozenset(STEMS), frozenset("金木水火土"))
INPUT_FACTS = ("問", "人", "夫妻行年", "農曆", "節日", "宿")      # (時令: NO_MONTH above)
INPUT_PLACES = ("本命", "行年", "太歲", "月建")


def _whole_domain(needs):
    vals = frozenset(map(str, needs))
    return any(d <= vals for d in DOMAINS)


def _input_line(read, facts, lang):
    """The line for a read of an input the board was not given (占類, 行年, 太歲 …), or None."""
    from liuren.explain.words import WORDS
    lacks = WORDS[lang]["lacks"]
    if read.fact in INPUT_FACTS and not any(f.get("t") == read.fact for f in facts):
        key = read.fact
    else:
        key = next((p for p in read.at if p in INPUT_PLACES), None)
        if key is None or any(f.get("t") == "位" and f.get("位") == key for f in facts):
            return None
    sep = {"zh": "，", "ja": "、"}[lang]
    return "{what}：" + lacks[key] + sep + NEEDS_TAIL[lang]


NEEDS_TAIL = {"zh": "{name}要 {need}", "ja": "{name}は {need} を要する"}


def model_lines(kb, entry_id, facts, judged, name, lang="zh", variant=None):
    """The board-value lines of the way that comes nearest (fewest reads failed), from the model (of
    the variant's own `when:`, where one is given that has it); None when the model has no way for
    the entry."""
    from liuren.knowledge.meaning import meaning_of
    m = meaning_of(kb)
    if entry_id not in m.entries:
        return None
    ways = m.check_on(entry_id, facts, judged=judged, variant=variant)
    if not ways:
        return None
    best = min(ways, key=lambda cs: sum(1 for c in cs if c.what == "read" and not c.ok))
    has_month = any(f.get("t") == MONTH_FACT for f in facts)
    from liuren.knowledge.meaning import FUNCTIONAL
    many = {}
    for f in facts:
        many[f.get("t")] = many.get(f.get("t"), 0) + 1
    out, seen = [], set()
    # a 盤's 天 that is a position's own branch is said once, at the position (初傳 亥), not again as
    # the 上神 of that branch
    said_at = {c.read.var for c in best if c.what == "read" and c.read is not None and c.read.fact == "位"
               and c.read.field in ("支", "天") and c.read.var}
    for c in best:
        if c.what != "read" or c.ok or c.read is None or c.needs is None or c.read.fact == "判" or not c.chosen \
                or len(c.read.at) > 1:      # (a choice of places: the condition lines say the board's each)
            continue
        if c.read.fact not in FUNCTIONAL and many.get(c.read.fact, 0) > 1:
            continue            # one of several facts of its kind (本命上見辰 among the 位上): no value of the board's
        if len(c.read.at) > 1:
            continue            # at one of several places (干上或支上): the lines below give the board's at each
        if len(c.needs) >= 12 or c.value in c.needs:      # any branch at all, or a join that failed, not a value:
            continue                                      # the conditions below say it
        if (c.read.fact not in BOARD_TYPES and c.read.fact not in month_types(kb)) or _whole_domain(c.needs):
            # a derived fact (局, 方, a 神煞's …; not the 旺衰 the month gives) is said by the
            # condition lines below in the rule page's words; a need of every value of its kind (any 五行) asks nothing of the board
            continue
        key = (c.read.fact, c.read.at, c.read.field)
        if key in seen or (c.read.fact == "盤" and c.read.field == "天" and c.read.var in said_at) \
                or (c.read.fact == "遁" and c.read.field == "支"):
            continue                # (a 遁's branch is said where it is reached; its stem is the read)
        seen.add(key)
        what = _at_words(c.read, best, lang)
        need = _needs_words(c.needs, lang)
        tpl = LINE[lang] if c.value is not None else _input_line(c.read, facts, lang) \
            or _none_line(c.read.fact, kb, has_month, lang)
        out.append({"text": tpl.format(what=what, has=c.value, name=name, need=need), "field": c.read.field,
                    "has": c.value, "need": sorted(map(str, c.needs)), "at": list(c.read.at), "fact": c.read.fact})
    order = ("初傳", "中傳", "末傳", "干上", "干陰", "支上", "支陰", "日干", "日支")
    out.sort(key=lambda x: min((order.index(p) for p in x["at"] if p in order), default=len(order)))
    return out
