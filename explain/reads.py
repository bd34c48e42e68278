"""What a rule reads on the board and what it needs there, the first lines of a WHY-NOT, read off the
condition model (liuren.knowledge.meaning: Meaning.check_on gives, way by way, each read with the
board's value there and what the rule needs):

* where on the board it reads (初傳, 干上, the 發用之門 …) and the board's own value there;
* what the rule needs there: a constant of the condition, a value the entry's own table row fixes
  (伏吟課's row of the 九宗門 table has 門 伏吟), or the values of a table the value is looked up in
  (交合 needs one of the generals of its row);

said as 「門：此盤為涉害，伏吟課要伏吟」 — the board's value first, never a value the board does not
have (a stem is never read as a branch: 日干 is its stem, 丁（寄未）).  An entry the model has no way
for (a 神煞 row read through a reading rule) has no such lines: its condition lines say it all.
"""
from __future__ import annotations


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
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
STEMS = "甲乙丙丁戊己庚辛壬癸"


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
