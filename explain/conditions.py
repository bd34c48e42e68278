"""A rule's conditions in words, as a rule page shows them, read off the condition model
(liuren.knowledge.meaning) — the same model WHY-NOT reads its board lines from, so a page, its words and
its WHY-NOT say one thing.

For each way through the entry's condition (one per path through `any:`), the model gives the facts
it reads (atoms), the values each variable may take, the tables and tests that tie variables
together (relations) and what must not be on the board (negations).  Here:

* a variable is named by the place it is read at (初傳, 干上 所乘之將, 發用之門, 日干 …, as WHY-NOT names
  them), else by the one value it may take, else by its kind (某支, 某干 …, numbered ①② where several);
* a place whose value is narrowed says so: 「初傳旺衰 為 旺或相」, 「發用之門 為 伏吟」 (a named row of a
  family narrows by its own cells, so 伏吟課's page says its own gate);
* a variable read at two places is one value: 「初傳 即 日支」;
* a derived fact is said by its template over those names: 斬首 is 「初傳 為旬空」;
* a relation is said by the macro or test the rule wrote it with (「夫行年 合 妻行年（六合）」), or by
  the table it joins through; a negation as 「無（…）」; another rule read as 「已成「重審課」」.
A condition of several ways gives the lines common to all, then 「或（…｜…）」.
"""
from __future__ import annotations

import itertools
import re

from liuren.knowledge.conditions import VAR_RE, expand_macros

# what a variable is called by the field it fills, when nothing more is known of it
KIND_NAMES = {"支": "某支", "天": "某支", "地": "某支", "上": "某支", "下": "某支", "對": "某支", "甲": "某支",
              "乙": "某支", "初": "初傳", "中": "中傳", "末": "末傳", "干": "某干", "將": "某將", "位": "某位",
              "行": "某行", "煞": "某煞", "局": "某", "干支": "某干支", "門": "某門", "體": "某體",
              "月": "某", "日": "某", "四時": "某時", "五時": "某時", "旬": "某旬", "問": "所問"}
# facts whose fields, when they hold variables, only name things the board has
NAMING = {
    "日": {"干": "日干", "支": "日支", "干支": "日干支", "旬": "本旬", "旬首": "旬首", "旬尾": "旬尾", "陰陽": "日之陰陽"},
    "傳": {"初": "初傳", "中": "中傳", "末": "末傳", "門": "發用之門", "體": "課體"},
    "時令": {"月建": "月建", "四時": "時令", "五時": "時令"},
    "晝夜": {"晝夜": "晝夜"},
    "夫妻行年": {"夫": "夫行年", "夫干": "夫行年之干", "妻": "妻行年", "妻干": "妻行年之干"},
    "人": {"性別": "占者之性別"},
    "問": {"問": "所問"},
}
CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩"
MAX_LISTED = 8              # a narrowed value listed in full up to this many values

# the words a line is made of (zh; the page's ja goes through words.condition_words)
SAME = "{a} 即 {b}"
IS = "{a} 為 {v}"
NOT_IS = "{a} 非 {v}"
JUDGED = "已成 {v}"
ONE_OF = "或"
WAYS = "或（{}）"
NEG = "無（{}）"
VIA = "{a} 合於「{t}」"
MORE = "等 {n} 者之一"
TEST_WORDS = {"eq": "{x} 即 {y}", "ne": "{x} 與 {y} 不同", "lt": "{x} 少於 {y}", "le": "{x} 不多於 {y}",
              "gt": "{x} 多於 {y}", "ge": "{x} 不少於 {y}", "in": "{x} 在 {y} 之中", "notin": "{x} 不在 {y} 之中"}

READS = "依「{t}」讀 {a}"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
STEMS = "甲乙丙丁戊己庚辛壬癸"

REF = "\x01{}\x02"          # another rule named in a condition, where the page links it (see segments)


def _is_var(x):
    return isinstance(x, str) and (VAR_RE.match(x) is not None or x.startswith("~c"))


def _fact_words(k, kb):
    from liuren.knowledge.facts import BUILTIN_FACTS
    tpl = BUILTIN_FACTS.get(k, {}).get("text") or kb.fact_text.get(k)
    if k in kb.tables:
        tpl = kb.tables[k].meta.get("text") or tpl
    return tpl


def _place_word(place, f):
    """A field of a position, named by the position (as WHY-NOT's lines say it)."""
    from liuren.explain.reads import FIELD_WORDS
    return {"支": place, "天": f"{place}上神", "地": f"{place}所臨", "干": "日干" if place == "日干" else f"{place}之干",
            "干支": f"{place}干支"}.get(f, f"{place}{FIELD_WORDS['zh'].get(f, f)}")


class _Way:
    """One way of the model worded: its variables named, its lines."""

    def __init__(self, kb, m, w, ref):
        self.kb, self.m, self.w, self.ref = kb, m, w, ref
        self.names = {}
        self.said = set()               # variables whose naming is the line itself (not restated)
        self._name()

    # ---------------------------------------------------------------- names
    def _positions(self, v):
        return sorted(map(str, self.w.dom.get(v) or ()))

    def _name(self):
        w = self.w
        places = {}                                 # variable -> the places it is read at (in order)

        def add(v, word):
            places.setdefault(v, [])
            if word not in places[v]:
                places[v].append(word)
        for a in w.atoms:
            key = dict(a.key)
            if a.fact in ("位", "位氣"):
                place = key.get("位")
                if place is None:
                    ps = self._positions(a.fields.get("位"))
                    place = ONE_OF.join(ps) if ps else None
                if place:
                    for f, v in a.fields.items():
                        if f != "位":
                            add(v, _place_word(place, f))
            elif a.fact in NAMING:
                for f, v in a.fields.items():
                    if f in NAMING[a.fact]:
                        add(v, NAMING[a.fact][f])
        for a in w.atoms:                           # a general on a named branch: 初傳 所乘之將
            if a.fact != "盤":
                continue
            sky = a.fields.get("天") if a.fields.get("天") in places else (dict(a.key).get("天") or a.fields.get("天"))
            sky_name = (places.get(sky) or [None])[0] if _is_var(sky) else sky
            if sky_name:
                for f, v in a.fields.items():
                    if f == "將":
                        add(v, f"{sky_name} 所乘之將")
                    elif f == "地":
                        add(v, f"{sky_name} 所臨")
        # two variables read at the same choice of places (占時或日干或日支) are numbered apart
        firsts = {}
        for v, words in places.items():
            firsts.setdefault(words[0], []).append(v)
        for word, vs in firsts.items():
            if len(vs) > 1:
                for i, v in enumerate(vs):
                    places[v] = [f"{word}{CIRCLED[i] if i < len(CIRCLED) else i + 1}"] + places[v][1:]
        self.places = places
        for v, words in places.items():
            self.names[v] = words[0]
        kinds = {}
        for a in w.atoms:
            for f, v in sorted(a.fields.items()):
                if v in self.names or v in kinds:
                    continue
                d = w.dom.get(v)
                if d is not None and len(d) == 1:          # one value (a row's own cell): said as it
                    self.names[v] = str(next(iter(d)))
                    self.said.add(v)
                else:
                    kinds[v] = KIND_NAMES.get(f, "某")
        for v in [v for vs, _, _ in w.rels for v in vs] + [v for _, vs, _ in w.negs for v in vs]:
            if v not in self.names and v not in kinds:
                d = {str(x) for x in (w.dom.get(v) or ())}
                kinds[v] = "某支" if d and d <= set(BRANCHES) else "某干" if d and d <= set(STEMS) else "某"
        count = {}
        for base in kinds.values():
            count[base] = count.get(base, 0) + 1
        seen = {}
        for v, base in kinds.items():
            if count[base] > 1:
                seen[base] = seen.get(base, 0) + 1
                i = seen[base]
                self.names[v] = base + (CIRCLED[i - 1] if i <= len(CIRCLED) else str(i))
            else:
                self.names[v] = base

    def _tied(self, v):
        return any(v in vs for vs, _, _ in self.w.rels)

    def name(self, v):
        return self.names.get(v, "某")

    # ---------------------------------------------------------------- values
    def _full(self, v):
        """The values v's fields allow of themselves (the board's whole range there)."""
        full = None
        for a in self.w.atoms:
            for f, x in a.fields.items():
                if x == v:
                    fd = self.m.fdom.get((a.fact, f))
                    if fd is not None:
                        full = fd if full is None else full & fd
        return full

    def _values(self, vals, sep=ONE_OF):
        order = BRANCHES + STEMS
        vals = sorted(map(str, vals), key=lambda x: (order.index(x) if x in order else len(order), x))
        if len(vals) > MAX_LISTED:              # as WHY-NOT says a long need: the first, and how many
            return sep.join(vals[:MAX_LISTED]) + MORE.format(n=len(vals))
        return sep.join(vals)

    def _judged(self, ids):
        out = []
        for i in sorted(ids, key=str):
            e = self.kb.entries.get(i)
            out.append((self.ref(e) if self.ref else f"「{e.name}」") if e is not None else "某")
        return ONE_OF.join(out)

    # ---------------------------------------------------------------- lines
    def lines(self):
        w, out = self.w, []
        # a variable read at two places: one value
        for v, words in self.places.items():
            for other in words[1:]:
                out.append(SAME.format(a=words[0], b=other))
        judged_vars = set()
        for a in w.atoms:
            if a.fact == "判":
                out.append(self._judgment(a))
                judged_vars |= set(a.fields.values())
        # narrowed values at a named place
        for v, words in self.places.items():
            if v in judged_vars or self._tied(v):
                continue
            d, full = w.dom.get(v), self._full(v)
            if d is not None and d != full:
                if full is not None and len(d) > 4 and len(full - d) * 2 <= len(d):
                    out.append(NOT_IS.format(a=words[0], v=self._values(full - d, "、")))   # all but a few: those few
                else:
                    out.append(IS.format(a=words[0], v=self._values(d)))
            ex = w.excl.get(v)
            if ex:
                out.append(NOT_IS.format(a=words[0], v=self._values(ex, "、")))
        # facts said by their own words (derived facts, a general on a branch no place names …)
        for a in w.atoms:
            if a.fact == "判" or self._names_only(a):
                continue
            out.append(self._atom(a))
        for vs, tuples, label in w.rels:
            out += self._relation(vs, tuples, label)
        for t, vs in w.open_tests:
            op, x, y = t
            out.append(TEST_WORDS.get(op, "{x} {y}").format(x=self._arg(x), y=self._arg(y)))
        for _text, _free, cond in w.negs:
            out.append(NEG.format(self._cond(cond)))
        return list(dict.fromkeys(x for x in out if x))

    def _arg(self, x):
        if isinstance(x, str) and x.startswith("'") and x.endswith("'"):
            return x[1:-1]
        return self.name(x) if _is_var(x) else str(x)

    def _names_only(self, a):
        """Does this atom do nothing but name what its fields hold (said by the lines of its values)?"""
        if a.fact in ("位", "位氣") or a.fact in NAMING:
            return all(v in self.places for f, v in a.fields.items() if f != "位") or not a.fields
        if a.fact == "盤":
            sky = dict(a.key).get("天") or a.fields.get("天")
            named = (_is_var(sky) and sky in self.places) or (not _is_var(sky) and sky is not None)
            return named and all(v in self.places for f, v in a.fields.items() if f != "天")
        return False

    def _judgment(self, a):
        v = a.fields.get("規")
        d = self.w.dom.get(v) if v is not None else None
        ids = d if d is not None else [x for f, x in a.key if f == "規"]
        text = JUDGED.format(v=self._judged(ids)) if ids else JUDGED.format(v="某")
        rest = [f"{f}為{self.name(x)}" for f, x in sorted(a.fields.items()) if f not in ("規", "名", "類")
                and not x.startswith("$_")]
        return text + (f"（{'，'.join(rest)}）" if rest else "")

    def _value_of(self, v):
        """A field's value in an atom's words: its one value, its few values, or its name."""
        d = self.w.dom.get(v)
        if d is not None and len(d) == 1 and v not in self.places:
            return str(next(iter(d)))
        if v in self.names and (v in self.places or v in self.said or self._tied(v)):
            return self.name(v)
        if d is not None and d != self._full(v) and len(d) <= MAX_LISTED:
            return self._values(d)
        return self.name(v)

    def _atom(self, a):
        vals = {f: str(x) for f, x in a.key}
        vals.update({f: self._value_of(v) for f, v in a.fields.items()})
        if a.fact in ("位", "位氣") and "位" not in vals:
            ps = self._positions(a.fields.get("位"))
            vals["位"] = ONE_OF.join(ps) if ps else "某位"
        if a.fact in self.kb.tables or a.fact in self.m.static_types:
            from liuren.explain.factwords import row_words
            return row_words(self.kb, {"t": a.fact, **vals})
        tpl = _fact_words(a.fact, self.kb)
        if tpl:
            try:
                return _fill(tpl, vals)
            except (IndexError, ValueError):
                pass
        return f"{a.fact}：" + "，".join(f"{f}為{x}" for f, x in vals.items())

    def _relation(self, vs, tuples, label):
        """A relation in the words the rule wrote it with: its macros and tests over these variables,
        else the table it joins through."""
        said, out = set(), []
        alias = self.w.alias
        for item in self.rule_items:
            k = next(iter(item))
            if k not in ("test", "macro", "all") and not (k in self.m.static_types and self._has_words(k)):
                continue
            used = set(_vars(item))
            roots = {alias[x] for x in used if x in alias}
            if roots & set(vs):
                names = {x: self.name(alias[x]) for x in used if x in alias}
                out.append(_item_words(item, names, self.kb))
                said |= roots
        if out and set(vs) <= said:
            return out
        tables = [self._table_name(t) for t in label.split("、") if t not in TEST_WORDS]
        if not tables:
            return out
        return out + [VIA.format(a="、".join(self.name(v) for v in vs),
                                 t="、".join(dict.fromkeys(tables)))]

    def _has_words(self, k):
        return any(t.fact_type == k and t.meta.get("text") for t in self.kb.tables.values()) or k in self.kb.fact_text

    def _table_name(self, t):
        for tab in self.kb.tables.values():
            if tab.fact_type == t or tab.id == t:
                return tab.name
        return t

    def _cond(self, cond):
        alias = self.w.alias
        names = {x: self.name(alias[x.rsplit("~e", 1)[0]]) for x in set(_vars(cond)) if x.rsplit("~e", 1)[0] in alias}
        return _item_words(cond, names, self.kb)


def _fill(tpl, vals):
    import string

    class Missing(dict):
        def __missing__(self, key):
            return "某"
    return string.Formatter().vformat(tpl, (), Missing(vals))


def _vars(c):
    if isinstance(c, list):
        for x in c:
            yield from _vars(x)
    elif isinstance(c, dict):
        for k, v in c.items():
            if k == "macro":
                yield from _vars(v.get("args") if isinstance(v, dict) else v)
            else:
                yield from _vars(v)
    elif isinstance(c, str) and VAR_RE.match(c) and "~m" not in c:
        yield c


def _flat_items(cond):
    """The macro uses and tests of a condition (inside all/any/not too)."""
    if isinstance(cond, list):
        for c in cond:
            yield from _flat_items(c)
        return
    if not isinstance(cond, dict):
        return
    if "macro" in cond:
        yield cond
        return
    k = next(iter(cond))
    if k in ("all", "any"):
        yield from _flat_items(cond[k])
    elif k == "test":
        yield cond
    elif isinstance(cond.get(k), dict) and "id" not in cond[k]:
        yield cond                          # a table pattern (said by the table's own words, where it has them)


def _item_words(item, names, kb):
    """One item of a condition (a macro use, a test, a pattern) in words, its variables named."""
    from liuren.explain.whynot import cond_text
    return re.sub(r"\$[^\s\W]*\w*", "某", cond_text(item, names, kb)).strip()


def _rule_of(kb, entry):
    from liuren.explain.whynot import reporting_rule
    return reporting_rule(kb, entry.id)


def way_lines(kb, entry, ref=None):
    """[[line] per way] of an entry from the model (its direct form: another rule read as 已成)."""
    from liuren.knowledge.meaning import meaning_of
    m = meaning_of(kb)
    rule, _ = _rule_of(kb, entry)
    if rule is None:
        return rule, []
    eid = entry.id if entry.id in m.entries else rule.id     # a row read through its 源, not its id: the rule's
    if eid not in m.entries:
        return rule, []
    items = list(_flat_items(expand_macros(rule.when if isinstance(rule.when, list) else [rule.when],
                                           kb.macros, itertools.count())))
    ways = [w for w in m.requirement(eid) if not w.impossible] or m.requirement(eid)
    out = []
    for w in ways:
        ww = _Way(kb, m, w, ref)
        ww.rule_items = items
        out.append(ww.lines())
    return rule, out


def conditions_in_words(kb, entry, links=False):
    """(the family rule when the entry is a row it reports, else None or the rule itself,
    [each condition in words]).  links: another rule named in a condition is marked for segments()."""
    ref = (lambda e: REF.format(e.id)) if links else None
    rule, ways = way_lines(kb, entry, ref)
    if rule is None:
        return None, []
    if not ways:
        return rule, []
    common = [x for x in ways[0] if all(x in w for w in ways[1:])]
    lines = list(common)
    rest = [[x for x in w if x not in common] for w in ways]
    rest = [r for r in rest if r]
    if len(rest) == 1 and len(ways) == 1:
        lines += rest[0]
    elif rest:
        lines.append(WAYS.format("｜".join("；".join(r) for r in dict.fromkeys(tuple(r) for r in rest))))
    if not lines:                   # a rule that only names places to look a table up (a placement)
        lines = _placement(kb, rule, entry)
    return rule, lines


def _placement(kb, rule, entry):
    """「依「刑沖破害合」讀 日干」: the places a placement reads and the tables it reads them in."""
    from liuren.knowledge.meaning import meaning_of
    m = meaning_of(kb)
    ways = m.requirement(entry.id if entry.id in m.entries else rule.id)
    places = []
    for w in ways:
        ww = _Way(kb, m, w, None)
        places += [words[0] for words in ww.places.values()]
    tables = []
    for k, _ in _patterns(rule.when):
        if k in m.static_types:
            tables.append(next((t.name for t in kb.tables.values() if t.fact_type == k), k))
    places, tables = list(dict.fromkeys(places)), list(dict.fromkeys(tables))
    if not tables:
        return ["、".join(places)] if places else []
    return [READS.format(t="、".join(tables), a="、".join(places) or "某")]


def _patterns(cond):
    from liuren.explain.reads import walk_items
    return walk_items(cond)


def segments(text, kb, lang="zh"):
    """A condition worded with links=True as [(text, entry id or None)]: the page links each rule it names."""
    from liuren.explain.words import display_name
    out = []
    for i, part in enumerate(re.split("\x01([^\x02]*)\x02", text)):
        if i % 2:
            e = kb.entries.get(part)
            out.append((f"「{display_name(e, lang)}」" if e else part, part))
        elif part:
            out.append((part, None))
    return out


def then_in_words(kb, entry):
    """What a rule asserts (its `then:`), in words, its variables named as its conditions name them."""
    from liuren.knowledge.conditions import then_facts
    from liuren.knowledge.meaning import meaning_of
    then = entry.meta.get("then")
    if not then:
        return []
    m = meaning_of(kb)
    names = {}
    if entry.id in m.entries and m.requirement(entry.id):
        w = m.requirement(entry.id)[0]
        ww = _Way(kb, m, w, None)
        names = {x: ww.names[root] for x, root in w.alias.items() if root in ww.names}
    out = []
    for t, fields in then_facts(then):
        item = {t: dict(fields)}
        own = {**names, **{x: KIND_NAMES.get(f, "某") for f, x in fields.items()
                           if isinstance(x, str) and VAR_RE.match(x) and x not in names}}
        out.append(_item_words(item, own, kb))
    return out
