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
              "月": "某", "日": "某", "四時": "某時", "五時": "某時", "旬": "某旬", "問": "所問",
              "規": "已成之條", "距": "若干", "順": "若干"}
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
APART = ["一{}", "另一{}", "又一{}", "第四{}", "第五{}", "第六{}", "第七{}", "第八{}"]   # 一支 … 另一支
APART_PLACE = ["{}之一", "{}之另一", "{}之又一", "{}之第四", "{}之第五", "{}之第六"]
GENERIC_COLUMNS = {"支", "干", "字", "天", "地", "干支", "id", "對", "甲", "乙", "丙", "丁", "上", "下", "本", "初", "中",
                   "末", "一", "二", "三"}
LITERAL_COLUMNS = ("煞", "階", "關係", "名", "德", "親")     # the literal cell that names what a row gives
# facts that say a branch is of a class the day (or a key) makes, the class a literal field: a branch no
# place names is named by it (日德 入課傳, never 某支 為日德；某支 入課傳)
CLASS_NAMING = {"德合": "類", "卷中鬼": "類", "煞": "煞"}
# facts that name one of their fields by the others (each one value): (field, name, the atom says more)
# 三傳所合之局 (and the line 「三傳合局」), 日干所屬 (the stem's 行: nothing more to say)
# 螣蛇所乘 (a branch no place names, ridden by one general), its line 「螣蛇所乘 入占」
SELF_NAMING = {"方合局": ("局", "{方}所合之局", True), "位五行": ("行", "{位}所屬", False),
               "星煞乘": ("支", "{將}所乘", "{將}所乘 入占")}
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
PLACED = "{n}（據{k}）：{p}"     # a 神煞 row's own placement: 財（據日干）：甲乙 則 辰戌丑未，丙丁 則 申酉
SEEN = "{a} 見於 {p}"        # kb/README.md: X 見於 P
SEEN_FACT = "見"              # kb/README.md: 「X 見於 P」, the fact a 神煞 seen at a place is (made from a 煞)
PLACE_ORDER = ["日干", "日支", "干上", "干陰", "支上", "支陰", "初傳", "中傳", "末傳", "占時", "本命", "行年"]


def _place_order(p):
    return (PLACE_ORDER.index(p) if p in PLACE_ORDER else len(PLACE_ORDER), p)


def places_first(ww, v):
    return (ww.places.get(v) or ["某"])[0]
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

    def __init__(self, kb, m, w, ref, items=(), outer=None, own=None, outer_said=()):
        self.kb, self.m, self.w, self.ref = kb, m, w, ref
        self.outer_said = set(outer_said)           # outer variables that are a value (a row's cell), not a place
        self.own = own                  # a row reached through its 源 (sourced): its cells give a value
        self.rule_items = list(items)
        self.outer = outer or {}                    # a negated body's outer variables: their names outside
        self.names = {}
        self.said = set()               # variables whose naming is the line itself (not restated)
        self._name()

    # ---------------------------------------------------------------- names
    def _positions(self, v):
        return sorted(map(str, self.w.dom.get(v) or ()))

    def _name(self):
        w = self.w
        self.rowmulti = {}                          # a row's cell of a few values (臨官帝旺's 階)
        self.rowvals = self._row_values()
        places = {v: [n] for v, n in self.outer.items() if v not in self.outer_said}   # variable -> its places
        for v in self.outer_said:
            if v in self.outer:
                self.names[v] = self.outer[v]
                self.said.add(v)

        fields_of = {}

        def add(v, word, f=None):
            if f is not None:
                fields_of.setdefault(v, f)
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
                            add(v, _place_word(place, f), f)
            elif a.fact in NAMING:
                for f, v in a.fields.items():
                    if f in NAMING[a.fact]:
                        add(v, NAMING[a.fact][f])
            elif isinstance(key.get("位") or self._one(a.fields.get("位")), str) and "支" in a.fields \
                    and re.search(r"\{位\} ?\{支\}", _fact_words(a.fact, self.kb) or ""):
                add(a.fields["支"], key.get("位") or self._one(a.fields.get("位")))   # 日支屬某行
        self.self_named = {}
        for a in w.atoms:                           # 三傳所合之局, 日干所屬
            if a.fact not in SELF_NAMING:
                continue
            f, tpl, _more = SELF_NAMING[a.fact]
            v = a.fields.get(f)
            vals = {**{g: self._one(x) or self._few(x) for g, x in a.fields.items() if g != f}, **dict(a.key)}
            try:
                word = tpl.format(**vals)
            except (KeyError, IndexError):
                continue
            if a.fact == "星煞乘" and (self.own or vals.get("將") == "任"):
                continue                            # 任: any general; a 神煞 row says its own placement
            if _is_var(v) and v not in places and "None" not in word:
                add(v, word)
                self.self_named[id(a)] = f
        self.class_named = set()
        # (a row's own page: the rows it is names its own value; another 神煞 it reads, 弔客 beside
        # 喪門, is named by its class like any other)
        own_names = {x for r in (self.own or ()) if r in self.kb.rows
                     for x in (self.kb.rows[r].name, self.kb.rows[r].meta.get("煞")) if x}
        taken = {x for ws in places.values() for x in ws} | own_names
        for a in w.atoms:
            got = self._class_name(a, places, taken)
            if got and (not self.own or a.fact == "煞"):
                add(got[0], got[1])
                taken.add(got[1])
                self.class_named.add(id(a))
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
        self.places = places
        self.base_places = set(places)              # named by where they are read (not reached from another)
        self.derived = {}                           # variable -> (the variable it is reached from, link)
        self.by_gen = set()                         # 盤 atoms whose branch is named by its general
        self._derive(places)
        self._own_names(places)
        # two variables read at the same choice of places (占時或日干或日支) are told apart in words
        firsts = {}
        for v, words in places.items():
            firsts.setdefault(words[0], []).append(v)
        for word, vs in firsts.items():
            if len(vs) > 1 and len({fields_of.get(v) for v in vs}) == len(vs) and word == "日干":
                for v in vs:                        # 日干 its stem, 日干寄宮 its branch
                    if fields_of.get(v) == "支":
                        places[v] = ["日干寄宮"] + places[v][1:]
            elif len(vs) > 1:
                for i, v in enumerate(vs):
                    places[v] = [APART_PLACE[min(i, len(APART_PLACE) - 1)].format(word)] + places[v][1:]
        for v, words in places.items():
            self.names[v] = words[0]
        for v, x in self.rowvals.items():          # a cell of the entry's own row, read by no place: said as it
            if v not in self.names:
                self.names[v] = x
                self.said.add(v)
        kinds, self.glued = {}, set()
        for fact, fields in [(a.fact, a.fields) for a in w.atoms] + list(w.links):
            tpl = _fact_words(fact, self.kb) or ""
            for f, v in fields.items():             # one of a run {一}{二}{三}: never said by its values
                if _is_var(v) and "}{" in tpl:    # (and the others of its words: 某某某三課，餘某課)
                    self.glued.add(v)
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
            if count[base] > 1 and base.startswith("某") and len(base) > 1:
                # nothing names them: 一支 … 另一支 (never numbered)
                i = seen.get(base, 0)
                seen[base] = i + 1
                self.names[v] = APART[min(i, len(APART) - 1)].format(base[1:])
            else:                               # the only one of its kind, of a few values: said as them (三傳或初傳)
                self.names[v] = self._few(v) if base.startswith("某") and self._few(v) and v not in self.glued \
                    else base

    def _class_name(self, a, places, taken):
        """(variable, name) for a branch no place names that the atom says is of a class (德合 類 日德):
        named by its class, the atom's other fields each one value; else None."""
        cf = CLASS_NAMING.get(a.fact)
        if cf is None:
            return None
        key = dict(a.key)
        cls = key.get(cf) if cf in key else self._one(a.fields.get(cf))
        opens = [(f, v) for f, v in a.fields.items() if f != cf and not self._one(v)]
        if not isinstance(cls, str) or len(opens) != 1 or opens[0][0] != "支":
            return None
        v = opens[0][1]
        if not _is_var(v) or v in places or v in self.outer or cls in taken:
            return None
        return v, cls

    def _row_values(self):
        """{variable: value} for the cells of a row the way is pinned to (its id one value) that are the
        same in all its cells: 長生's 階 長生, its 非 無 (what no place reads, said by the row's value)."""
        out = {}
        for t, fs in self.w.links:
            rid = fs.get("id")
            if _is_var(rid):
                d = self.w.dom.get(rid)
                rid = next(iter(d)) if d is not None and len(d) == 1 else None
            row = self.kb.rows.get(rid) if isinstance(rid, str) else None
            if row is None or not row.data:
                continue
            for f, v in fs.items():
                if f == "id" or not _is_var(v):
                    continue
                vals = {str(c.get(f)) for c in row.data}
                if len(vals) == 1 and None not in {c.get(f) for c in row.data}:
                    out.setdefault(v, vals.pop())
                elif 1 < len(vals) <= 4 and None not in {c.get(f) for c in row.data}:
                    self.rowmulti.setdefault(v, sorted(vals, key=lambda x: [str(c.get(f)) for c in row.data].index(x)))
        return out

    def _own_names(self, places):
        """A row reached through its 源 (a 神煞 row): the value its cells give is named by the row (財,
        天怪); what they are looked up by keeps the name of its place (日干, 月建); a choice of places the
        value is read at is kept for the line that says where it is seen."""
        self.own_link, self.own_keys, self.own_outs, self.seen_at, self.seen_name = None, [], [], {}, {}
        self.own_said = set()
        if not self.own:
            return
        board = {v for a in self.w.atoms for v in a.fields.values()}
        for i, (t, fs) in enumerate(self.w.links):
            rid = fs.get("id")
            if (_is_var(rid) or str(rid).startswith("~c")) and self.w.dom.get(rid) and len(self.w.dom[rid]) == 1:
                rid = next(iter(self.w.dom[rid]))
            if rid in self.own:                     # the row, or the 煞 row it reads (天喜官占: 天喜)
                break
        else:
            return
        row = self.kb.rows[rid]
        self.own_row = rid
        self.own_link = i
        self.seen_name = {}
        for f, v in fs.items():
            if f == "id" or not (_is_var(v) or str(v).startswith("~c")):
                continue
            d = self.w.dom.get(v)
            if d is not None and len(d) == 1:
                for a in self.w.atoms:              # a general the row is: 貴人 見於 … is where it rides
                    if a.fact == "盤" and a.fields.get("將") == v and a.fields.get("天") in places:
                        self.seen_name[a.fields["天"]] = row.name
                        self.own_said.add(v)
                continue
            ws = places.get(v)
            got = self.derived.get(v)
            if ws and ONE_OF not in ws[0] and (v in self.base_places or got and got[1] != i):
                self.own_keys.append((f, v))
            elif v in board:
                self.own_outs.append((f, v))
        main = [x for x in self.own_outs if x[0] == "支"] or self.own_outs[:1]
        for f, v in self.own_outs:
            if v in places:
                self.seen_at[v] = places[v][0]
            places[v] = [row.name if (f, v) in main else f"{row.name}之{f}"]
            self.derived.pop(v, None)
        for v in self.seen_name:
            self.seen_at.setdefault(v, places[v][0])

    def placement(self):
        """「財：日干 甲乙 則 辰戌丑未，丙丁 則 申酉，…」: the row's own cells, what each value of its key
        gives (the key named by its place, as the rule reads it), keys giving the same values together."""
        if self.own_link is None or not self.own_keys or not self.own_outs:
            return None
        t, fs = self.w.links[self.own_link]
        row = self.kb.rows[self.own_row]
        lits = {f: x for f, x in fs.items() if f != "id" and not _is_var(x) and not str(x).startswith("~c")}
        keyf = [f for f, _ in self.own_keys]
        outf = [f for f, _ in self.own_outs]
        pairs = {}
        for cells in row.data:
            if any(f not in cells or _cell_ne(cells[f], x) for f, x in lits.items()):
                continue
            if any(f not in cells for f in keyf + outf):
                continue
            k = "".join(str(cells[f]) for f in keyf)
            o = "".join(str(cells[f]) for f in outf)
            got = pairs.setdefault(k, [])
            if o not in got:
                got.append(o)
        if not pairs:
            return None
        groups = {}
        for k, os in pairs.items():
            groups.setdefault(tuple(os), []).append(k)
        parts = []
        for os, ks in groups.items():
            sep = "、" if any(len(x) > 1 for x in ks) else ""
            osep = "、" if any(len(x) > 1 for x in os) else ""
            parts.append(f"{sep.join(ks)} 則 {osep.join(os)}")
        key = "、".join(self.names.get(v, places_first(self, v)) for _, v in self.own_keys)
        return PLACED.format(n=row.name, k=key, p="，".join(parts))

    def _placed_rel(self, vs):
        """Is this relation the one the row's own cells make (its key, or what its key is reached from,
        and the value they give)?"""
        if self.own_link is None or not self.own_keys:
            return False
        keys = {v for _, v in self.own_keys}
        for v in list(keys):
            while v in self.derived and self.derived[v][1] is not None:
                v = self.derived[v][0]
                keys.add(v)
        return bool(set(vs) & keys) and bool(set(vs) & {v for _, v in self.own_outs})

    def _seen_same(self, v, other, name=None):
        """「太歲 見於 日干、日支、…」 for a 神煞 row's value read at a choice of places (never 「太歲 即 A或B」)."""
        if self.own is None or ONE_OF not in other or name is not None and ONE_OF in name:
            return None
        for a in self.w.atoms:
            if a.fact == "位" and a.fields.get("支") == v and _is_var(a.fields.get("位")) or \
                    a.fact == "位" and a.fields.get("支") == v and str(a.fields.get("位")).startswith("~c"):
                ps = sorted(self._positions(a.fields.get("位")), key=_place_order)
                if ps and ONE_OF.join(sorted(ps)) == ONE_OF.join(sorted(other.split(ONE_OF))):
                    return SEEN.format(a=name or self.names.get(v, other), p="、".join(ps)), ("seen", a)
        return None

    def _any_general(self, a):
        """「天怪 入占，乘任」: a general 任 (any: asserted for every branch that is there) says nothing."""
        return any(self._one(v) == "任" for f, v in a.fields.items() if f == "將") and all(
            v in self.places or self._one(v) for v in a.fields.values())

    def _seen(self, a):
        """「財 見於 日干、日支、初傳…」: a value the row gives, read at one of several places."""
        if a.fact != "位" or not self.seen_at:
            return None
        for f, v in a.fields.items():
            if f in ("支", "天") and v in self.seen_at:
                ps = sorted(self._positions(a.fields.get("位")), key=_place_order)
                if ps:
                    return SEEN.format(a=self.seen_name.get(v) or self.name(v), p="、".join(ps))
        return None

    # a value reached from a named one through a table (or the plate) that gives one value for each:
    # named from it, in the table's own words (日干之合, 日干之合所寄, 其所臨)
    def _derive(self, places):
        w, kb = self.w, self.kb
        origin = {v: {v} for v in places}           # what a name was made from (never from itself)
        plate = [a for a in w.atoms if a.fact == "盤"]
        by_general, by_gen = False, self.by_gen
        self.gen_few = set()
        self.related = {}                           # variable -> (the named one, the item): 克日干者
        for _ in range(12):
            grew = False
            for a in plate:
                key = dict(a.key)
                sky = a.fields.get("天")
                sky_name = places[sky][0] if sky in places else key.get("天")
                if sky_name is None:
                    gen = a.fields.get("將")
                    d = w.dom.get(gen) if gen is not None else None
                    if by_general and sky is not None and d is not None and len(d) <= 2 and gen not in places:
                        places[sky] = [f"{self._values(d)}所乘"]        # 玄武所乘: a general rides one branch
                        self.gen_few.add(gen)                           # (白虎或螣蛇所乘: one of two)
                        origin[sky] = {sky}
                        by_gen.add(id(a))
                        grew = True
                        sky_name = places[sky][0]
                    else:
                        continue
                if sky in places and ONE_OF in sky_name:
                    continue
                for f, suffix in (("將", " 所乘之將"), ("地", " 所臨")):
                    v = a.fields.get(f)
                    if f == "將" and id(a) in by_gen:
                        continue
                    if v is not None and v not in places and v not in self.outer_said:
                        places[v] = [f"{sky_name}{suffix}"]
                        self.derived[v] = (sky, None, suffix)
                        origin[v] = {v} | origin.get(sky, set())
                        grew = True
            for i, (t, fs) in enumerate(w.links):
                for s, src in fs.items():
                    if not _is_var(src) or src not in places or s == "id" or ONE_OF in places[src][0]:
                        continue
                    for g, dst in fs.items():
                        if g in (s, "id") or not _is_var(dst) or dst in origin.get(src, ()) or dst in self.derived \
                                or dst in self.outer_said or dst in self.rowvals:
                            continue
                        d = w.dom.get(dst)
                        if d is not None and len(d) == 1:
                            continue                        # one value: said as it
                        if _keys(kb, t) == {g} and g in GENERIC_COLUMNS or not self._functional(t, fs, s, g):
                            continue                # the key is what one looks up by (a named one is a value: 之本家)
                        word = _derived_word(kb, t, {f: self.rowvals.get(x, x) for f, x in fs.items()}, s, g,
                                             places[src][0])
                        if word is None:
                            continue
                        if dst in places:                   # named already: the name says the tie (初傳 即 日干之合)
                            if self._worded(src, dst):
                                continue                    # unless the rule says it in its own words (夫行年 合 妻行年)
                            if word not in places[dst]:
                                places[dst].append(word)
                        else:
                            places[dst] = [word]
                        self.derived[dst] = (src, i, (t, fs, s, g))
                        origin[dst] = {dst} | origin.get(src, set())
                        grew = True
            if not grew:
                if not by_general:
                    by_general = True
                elif not self._dun(places, origin) and not self._relate(places, origin):
                    break

    def _dun(self, places, origin):
        """The stem a named branch hides in the 旬, where nothing else names it: 干上所遁."""
        for a in self.w.atoms:
            sky, stem = a.fields.get("支"), a.fields.get("干")
            if a.fact == "遁" and sky in places and _is_var(stem) and stem not in places and not self._one(stem) \
                    and stem not in self.outer_said and stem not in self.outer and stem not in self.rowvals:
                places[stem] = [f"{places[sky][0]}所遁"]
                self.derived[stem] = (sky, None, "所遁")
                origin[stem] = {stem} | origin.get(sky, set())
                return True
        return False

    def _relate(self, places, origin):
        """A value no place names and no table gives one of, tied to a named one by a relation the rule
        writes (a macro 生 克 刑 …, or a worded table): named by it, 「克日干者」 「日干所生」 「與初傳同類者」;
        the relation is then said by the name.  True where a name was made."""
        alias = self.w.alias
        for item in self.rule_items:
            k = next(iter(item))
            if "macro" not in item and not (k in self.m.static_types and self._has_words(k)):
                continue
            used = [x for x in dict.fromkeys(_vars(item)) if x in alias]
            roots = list(dict.fromkeys(alias[x] for x in used))
            open_ = [r for r in roots if not self._one(r)]
            if len(open_) != 2:
                continue
            named = [r for r in open_ if r in places]
            bare = [r for r in open_ if r not in places and r not in self.outer and r not in self.outer_said
                    and r not in self.rowvals and not r.startswith("~c")]
            if len(named) != 1 or len(bare) != 1:
                continue
            src, u = named[0], bare[0]
            stem = places[src][0] == "日干" and any(a.fields.get("干") == src for a in self.w.atoms)
            if not self._in_way(item) or not stem and any(w2[0] == places[src][0] for v2, w2 in places.items()
                                                          if v2 != src):
                continue                    # another way's relation; a name the page tells apart later (日干寄宮)
            if sum(1 for it in self.rule_items if it is not item and self._in_way(it)
                   and {src, u} <= {alias.get(x) for x in _vars(it)}) or any(
                    a.fact == "遁" and u in a.fields.values() for a in self.w.atoms):
                continue                    # tied to it twice (克日干 and 日干克), or the stem a branch hides
            words = _item_words(item, {x: (places[src][0] if alias[x] == src else "\x03") for x in used}, self.kb)
            if "某" in words or words.count("\x03") != 1:
                continue
            name = _related_word(words, places[src][0])
            if name is None:
                continue
            places[u] = [name]
            self.derived[u] = (src, None, "rel")
            self.related[u] = (src, id(item))
            origin[u] = {u} | origin.get(src, set())
            return True
        return self._of_table(places, origin)

    def _of_table(self, places, origin):
        """A value no place names, one of several a table gives a named one: named by the row's cell of the
        table's literal column (日干之臨官或帝旺), else by the table (日干之長生十二神)."""
        board = {v for a in self.w.atoms for v in a.fields.values()}
        for i, (t, fs) in enumerate(self.w.links):
            if t not in self.m.static_types:
                continue
            opens = [(f, v) for f, v in fs.items() if f != "id" and _is_var(v) and not self._one(v)
                     and v not in self.rowvals]
            named = [(f, v) for f, v in opens if v in places and ONE_OF not in places[v][0]]
            bare = [(f, v) for f, v in opens if v not in places and v in board and v not in self.outer
                    and v not in self.outer_said]
            rest = [(f, v) for f, v in opens if (f, v) not in named and (f, v) not in bare]
            if len(named) != 1 or len(bare) != 1 or any(v in board for _, v in rest):
                continue
            (s, src), (g, u) = named[0], bare[0]
            if self._functional(t, fs, s, g):
                continue
            cells = [self.rowmulti[v] for f, v in rest if f in LITERAL_COLUMNS and v in self.rowmulti]
            if cells:
                name = f"{places[src][0]}之{ONE_OF.join(cells[0])}"
            elif all(f in LITERAL_COLUMNS for f, _ in rest) and rest and not re.search(r"[（(、]", self._table_name(t)):
                name = f"{places[src][0]}之{self._table_name(t)}"          # the book's own word for them
            else:
                continue
            places[u] = [name]
            self.derived[u] = (src, None, "rel")
            self.related[u] = (src, ("link", t))
            origin[u] = {u} | origin.get(src, set())
            return True
        return False

    def _worded(self, a, b):
        """Does the rule say a tie between a and b with a macro or a worded table of its own?"""
        alias = self.w.alias
        for item in self.rule_items:
            k = next(iter(item))
            if "macro" in item or (k in self.m.static_types and self._has_words(k)):
                roots = {alias[x] for x in _vars(item) if x in alias}
                if {a, b} <= roots:
                    return True
        return False

    def _effective(self, v, depth=0):
        """The values a variable can take as its name gives them: its source's, looked up in the table."""
        d = self.w.dom.get(v)
        got = self.derived.get(v)
        if depth > 8 or not got or not isinstance(got[2], tuple):
            return d
        src, _, (t, fs, s, g) = got
        sd = self._effective(src, depth + 1)
        out = set()
        for tab in self.kb.tables.values():
            if tab.fact_type != t:
                continue
            for r in tab.facts():
                if s in r and g in r and (sd is None or r[s] in sd) and not any(
                        _cell_ne(r.get(f), x) for f, x in fs.items() if not _is_var(x)):
                    out.add(r[g])
        return frozenset(out) if d is None else frozenset(out) & d

    def _functional(self, t, fs, s, g):
        """Does the table give one value of g for each value of s (its rows as this pattern narrows them)?"""
        lits = {}
        for f, x in fs.items():
            if not _is_var(x):
                lits[f] = x
            elif x in getattr(self, "rowvals", {}) and f != "id":
                lits[f] = self.rowvals[x]           # a cell of the entry's own row
            else:
                d = self.w.dom.get(x)
                if d is not None and len(d) == 1:
                    lits[f] = next(iter(d))
        memo = self.kb.__dict__.setdefault("_words_fd", {})
        key = (t, repr(sorted(lits.items(), key=repr)), s, g)
        if key not in memo:
            seen, ok, n = {}, True, 0
            for tab in self.kb.tables.values():
                if tab.fact_type != t:
                    continue
                for r in tab.facts():
                    if s not in r or g not in r or any(_cell_ne(r.get(f), x) for f, x in lits.items()):
                        continue
                    n += 1
                    if seen.setdefault(r[s], r[g]) != r[g]:
                        ok = False
                        break
                if not ok:
                    break
            memo[key] = ok and n > 0
        return memo[key]

    def _one(self, v):
        d = self.w.dom.get(v) if v is not None else None
        return str(next(iter(d))) if d is not None and len(d) == 1 else None

    def _few(self, v, most=4):
        """A value of a few (三傳或三傳干支或干或支, the sides a 局 may be of) said as them, else None."""
        d = self.w.dom.get(v) if v is not None else None
        return ONE_OF.join(self._values(d).split(ONE_OF)) if d is not None and 1 < len(d) <= most else None

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
        out = list(dict.fromkeys(out))
        if len(out) > MAX_LISTED:                  # 將空勿實論's 231 課 and 格: the first, and how many
            return ONE_OF.join(out[:MAX_LISTED]) + MORE.format(n=len(out))
        return ONE_OF.join(out)

    # ---------------------------------------------------------------- lines
    def lines(self):
        return [x for x, _ in self.judged_lines()]

    def judged_lines(self):
        """[(line, what it says)]: each line with the part of the model it words, for WHY-NOT to judge on
        a board — ("same", v) a variable read at several places, ("judged", atom), ("dom", v) a narrowed
        value, ("atom", atom), ("rel", i), ("item", (i, the rule's own test or pattern that says the line
        of relation i)), ("test", t), ("neg", i)."""
        w, out = self.w, []
        rel_lines, self.kept_tied, self.rel_items = [], set(), {}
        placed = False
        for i, (vs, tuples, label) in enumerate(w.rels):
            if not placed and self._placed_rel(vs) and self.placement():
                rel_lines.append((self.placement(), ("placed", i)))
                placed = True
                continue
            rel_lines += [(x, ("rel", i) if x not in self.rel_items else ("item", (i, self.rel_items[x])))
                          for x in self._relation(vs, tuples, label)]
        # a variable read at two places: one value
        for v, words in self.places.items():
            for other in words[1:]:
                seen = self._seen_same(v, other) or self._seen_same(v, words[0], other)
                out.append(seen or (SAME.format(a=words[0], b=other), ("same", v)))
        judged_vars = set()
        for a in w.atoms:
            if a.fact == "判":
                out.append((self._judgment(a), ("judged", a)))
                judged_vars |= set(a.fields.values())
        # narrowed values at a named place
        outs = ({v for _, v in self.own_outs} if placed else set()) | self.own_said
        for v, words in self.places.items():
            if v in judged_vars or v in self.kept_tied or v in outs or v in self.related:
                continue                            # (克日干者: what the relation allows, said by the name)
            d, full = w.dom.get(v), self._full(v)
            if d is not None and v in self.derived and isinstance(self.derived[v][2], tuple) and d == self._effective(v):
                d = full                            # what its name gives of itself: not said again
            if d is not None and d != full:
                if full is not None and len(d) > 4 and len(full - d) * 2 <= len(d):
                    out.append((NOT_IS.format(a=words[0], v=self._values(full - d, "、")), ("dom", v)))
                else:
                    out.append((IS.format(a=words[0], v=self._values(d)), ("dom", v)))
            ex = w.excl.get(v)
            if ex:
                out.append((NOT_IS.format(a=words[0], v=self._values(ex, "、")), ("dom", v)))
        # facts said by their own words (derived facts, a general on a branch no place names …)
        for a in w.atoms:
            seen = self._seen(a)
            if seen:
                out.append((seen, ("seen", a)))
                continue
            if a.fact == "判" or self._names_only(a) or self._any_general(a):
                continue
            if a.fact == "盤" and a.fields.get("天") in self.seen_name:
                continue                            # 貴人 見於 … says where the general rides
            out.append((self._atom(a), ("atom", a)))
        out += rel_lines
        for t, vs in w.open_tests:
            op, x, y = t
            if self._test_known(t) is not None:
                continue                            # a row's own cells decide it (丁 末傳, never 「末傳 即 無」)
            out.append((TEST_WORDS.get(op, "{x} {y}").format(x=self._arg(x), y=self._arg(y)), ("test", t)))
        for i, (_text, _free, cond) in enumerate(w.negs):
            said = self._negation(i, cond)
            if said is not None:
                out.append((NEG.format(said), ("neg", i)))
        out = [x for x in out if x[1][0] == "placed"] + [x for x in out if x[1][0] != "placed"]
        got = {}
        for x, what in out:
            if x:                                   # 「{干}日之日本」 of 日干: 日干之日本 (月建月 → 月建)
                got.setdefault(re.sub(r"(日干|日支|月建|太歲)[日月歲](?=\w)", r"\1", self._pronoun(x)), what)
        return list(got.items())

    def _test_known(self, t):
        """A test whose sides the entry's own row (or one value) decides: its outcome, else None."""
        from liuren.rules.compile import TEST_FUNCS
        op, x, y = t

        def val(z):
            if isinstance(z, str) and z.startswith("'") and z.endswith("'"):
                return z[1:-1]
            if _is_var(z) or str(z).startswith("~c"):
                return self.rowvals.get(z) or self._one(z)
            return z
        vx, vy = val(x), val(y)
        if vx is None or vy is None or op not in TEST_FUNCS:
            return None
        try:
            return bool(TEST_FUNCS[op](str(vx), str(vy)))
        except TypeError:
            return None

    def refuted(self):
        """Does the entry's own row rule this way out (a test its cells fail: 丁 末傳 against 無)?"""
        return any(self._test_known(t) is False for t, _ in self.w.open_tests)

    def _pronoun(self, line):
        """A name made from another already said in the line says 其 for it: 「貴人 乘 日干之合所寄 臨 其所臨」."""
        for v, (src, _, _) in self.derived.items():
            if v in self.related:
                continue                            # 日干所克之一 … 日干所克之另一: no 其
            n, p = self.names.get(v), self.names.get(src)
            if not n or not p or not n.startswith(p) or n == p or ONE_OF in p:
                continue                            # (never 「其或行年上神」 for a choice of places)
            i = line.find(n)
            j = line.find(p)
            while j != -1 and (line.startswith(n, j) or line[j + len(p):j + len(p) + 1] in ("之", "所")):
                j = line.find(p, j + 1)                 # p's own occurrence, not inside n (nor 日干之鬼)
            if i > 0 and j != -1 and j < i:
                rest = n[len(p):].lstrip()
                line = line[:i] + "其" + (rest[1:] if rest.startswith("之") else rest) + line[i + len(n):]
        return line

    def _arg(self, x):
        if isinstance(x, str) and x.startswith("'") and x.endswith("'"):
            return x[1:-1]
        if isinstance(x, str) and x.startswith("[") and x.endswith("]"):       # a list the test reads: 寅或戌或辰
            import ast
            try:
                return ONE_OF.join(map(str, ast.literal_eval(x)))
            except (ValueError, SyntaxError):
                pass
        if isinstance(x, (list, tuple)):
            return ONE_OF.join(map(str, x))
        return self.name(x) if _is_var(x) else str(x)

    def _names_only(self, a):
        """Does this atom do nothing but name what its fields hold (said by the lines of its values)?"""
        if id(a) in getattr(self, "class_named", ()):       # 日德: the class is the branch's name
            return True
        if id(a) in getattr(self, "self_named", {}) and not SELF_NAMING[a.fact][2]:
            return True                                     # 日干所屬: the name says it
        if a.fact in ("位", "位氣") or a.fact in NAMING:
            return all(v in self.places for f, v in a.fields.items() if f != "位") or not a.fields
        if a.fact == "盤" and id(a) in self.by_gen:         # 青龍所乘: the general is in the name
            return all(v in self.places or self._one(v) or v in self.gen_few for f, v in a.fields.items())
        if a.fact == "遁" and a.fields.get("干") in self.derived and self.derived[a.fields["干"]][2] == "所遁":
            return True                                     # 干上所遁: the name says it
        if a.fact == "盤" and set(a.fields.values()) & set(self.related):
            return False                                    # 克日干之墓者 臨 本命: a tie of two names
        if a.fact == "盤":
            for f, v in a.fields.items():                   # 日干之長生 臨 其所屬之墓: a name reached
                if f != "天" and v in self.derived and not self.places.get(v, [""])[0].endswith((" 所臨", " 所乘之將")):
                    return False                            # from elsewhere first, tied here to the sky
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
        if d is not None and (d != self._full(v) or v.startswith("$_")) and len(d) <= MAX_LISTED:
            return self._values(d)          # 為日德或支德或天德或月德: what the condition allows, named
        if self.name(v).startswith("某") and self._few(v):
            return self._few(v)             # 三傳或初傳空: a value of a few, said as them
        return self.name(v)

    def _free(self, v):
        """Is v read here once and allowed anything (a field the condition does not constrain)?"""
        if v in self.places or v in self.said or self._tied(v) or self.w.excl.get(v):
            return False
        n = sum(1 for a in self.w.atoms for x in a.fields.values() if x == v)
        return (v in self.w.free or v.startswith("$_")) and n == 1 and not any(v in vs for _, vs, _ in self.w.negs) \
            and not any(v in vs for _, vs in self.w.open_tests)

    def _atom(self, a):
        vals = {f: str(x) for f, x in a.key}
        vals.update({f: self._value_of(v) for f, v in a.fields.items() if not (f in ("將", "地") and self._free(v))})
        if a.fact == "盤" and "將" not in vals and "地" not in vals:
            return None                             # a plate read for nothing the condition constrains
        if a.fact in ("位", "位氣") and "位" not in vals:
            ps = self._positions(a.fields.get("位"))
            vals["位"] = ONE_OF.join(ps) if ps else "某位"
        if vals.get("支") and vals.get("支") == vals.get("位"):
            vals["支"] = ""                         # 「日支屬某行」, not 「日支日支屬某行」
            if set(vals) <= {"支", "位"}:
                return None                         # the place itself: nothing to say
        if id(a) in getattr(self, "self_named", {}):       # 三傳合局: its named field, its free ones not said
            line = SELF_NAMING[a.fact][2]
            if isinstance(line, str):
                return _fill(line, vals)
            vals.pop(self.self_named[id(a)], None)
            for f, v in a.fields.items():
                if f in vals and _is_var(v) and self._free(v):
                    vals[f] = self._few(v) or ""          # 三傳或三傳干支或干或支合局
        if a.fact in self.kb.tables or a.fact in self.m.static_types:
            from liuren.explain.factwords import row_words
            return row_words(self.kb, {"t": a.fact, **vals})
        tpl = _fact_words(a.fact, self.kb)
        if tpl and a.fact == "盤" and ("將" not in vals or "地" not in vals):   # what the plate is read for
            tpl = "{天} 臨 {地}" if "將" not in vals else "{將} 乘 {天}"
        elif tpl and a.fact == "盤" and "天" not in vals:         # a general over a place: 貴人 臨 巳或午…
            tpl = "{將} 臨 {地}"
        if a.fact == "課":
            return self._lesson(vals)
        tpl0 = _fact_words(a.fact, self.kb) or ""
        if all("{" + f + "}" in tpl0 for f in ("課", "上", "下")) and any(      # a lesson read by its parts
                f not in a.fields and f not in dict(a.key) or f in a.fields and self._free(a.fields[f]) for f in ("課", "下")):
            free = {f for f in ("課", "下") if f not in vals or f in a.fields and self._free(a.fields[f])}
            rest = [vals[f] for f in sorted(vals) if f not in ("課", "上", "下") and vals[f]]
            return " ".join([self._lesson({**{f: ("某" if f in free else x) for f, x in vals.items()},
                                           **{f: "某" for f in free}})] + rest)
        if tpl:                                     # a clause of a field the condition leaves open: not said
            tpl = re.sub(r"（[^（）{]*\{(\w+)\}[^（）]*）|，[^，{]*\{(\w+)\}[^，]*$",
                         lambda mm: "" if vals.get(mm.group(1) or mm.group(2), "某") == "某" else mm.group(0), tpl)
            for f, v in a.fields.items():           # a don't-care field ($_): not said (三傳合局, never 三傳某某某合)
                d = self.w.dom.get(v)
                if f in vals and v.startswith("$_") and self._free(v) and (d is None or d == self._full(v)) \
                        and re.search(r"\}\{" + f + r"\}|\{" + f + r"\}\{", tpl):      # one of a run {甲}{乙}{丙}
                    vals[f] = ""
            # a field the pattern leaves open, named by the word after it (合{局}局): that word alone
            tpl = re.sub(r"(?<=[合屬])\{(\w)\}(?=\1)", lambda mm: "" if mm.group(1) not in vals else mm.group(0), tpl)
            # a field the pattern does not read at all: not said (「初傳 逢空」, never 「初傳 某 逢空」)
            if a.fact != "盤":
                tpl = re.sub(r"\{(\w+)\} (?=\S)", lambda mm: "" if mm.group(1) not in vals and mm.group(1) not in a.fields
                             and mm.group(1) not in dict(a.key) else mm.group(0), tpl)
            for f, v in a.fields.items():           # a field read for nothing (any value): not said (旬奇 入傳)
                d = self.w.dom.get(v)
                if str(vals.get(f, "")).startswith("某") and self._free(v) and (d is None or d == self._full(v)):
                    tpl = "{將} 臨 {地}" if a.fact == "盤" and f == "天" and "{地}" in tpl and "{將}" in tpl \
                        and "將" in vals else \
                        re.sub(r" \{" + f + r"\}(?= )", "", tpl) if a.fact != "盤" else tpl
            # the branch over a place read for nothing but being there: 「行年上神」, never 「行年上見某支」
            v = a.fields.get("支")
            if "上見{支}" in tpl and v is not None and str(vals.get("支", "")).startswith("某") and self._free(v) \
                    and (self.w.dom.get(v) is None or self.w.dom.get(v) == self._full(v)):
                tpl = tpl.replace("上見{支}", "上神")
            # a field the pattern does not read, its unit after it (農曆{月}月): neither said (農曆15日, never 某月)
            tpl = re.sub(r"\{(\w)\}\1", lambda mm: "" if mm.group(1) not in vals else mm.group(0), tpl)
            for f, v in sorted(a.fields.items()):    # a yes-field the words have no place for: its name (農曆晦)
                if "{" + f + "}" not in tpl and vals.get(f) == "是":
                    tpl += f
            try:
                return re.sub(r"之(\w)\1", r"之\1", _fill(tpl, vals))        # 日干所屬之局 局 → 之局
            except (IndexError, ValueError):
                pass
        return f"{a.fact}：" + "，".join(f"{f}為{x}" for f, x in vals.items())

    def _lesson(self, vals):
        """A lesson: 「第一課 子/甲」, 「四課之一 上神 初傳」 (one of the four, where the condition says not which)."""
        k = vals.get("課", "")
        lesson = f"第{k}課" if k and not k.startswith("某") and ONE_OF not in k else "四課之一"
        up, down = vals.get("上"), vals.get("下")
        known = [x for x in (up, down) if x and not x.startswith("某")]
        if up and down and (len(known) == 2 or not known):
            return f"{lesson} {up}/{down}"
        if up and (up in known or not down):
            return f"{lesson} 上神 {up}"
        if down:
            return f"{lesson} 下 {down}"
        return lesson

    def _relation(self, vs, tuples, label):
        """A relation in the words the rule wrote it with: its macros and tests over these variables,
        else the table it joins through.  What the derived names already say (日干之合所寄 is reached
        through 干合 and 寄宮) is not said again; what is left of the relation, when each variable may
        take its values whatever the others take, is said by those values alone."""
        said, out = set(), []
        alias = self.w.alias
        tables = [t for t in label.split("、") if t not in TEST_WORDS]
        direct, said_tables = set(), set()     # tables the rule reads by a pattern of its own here; those said
        used_links = {self.derived[v][1] for v in self.derived if self.derived[v][1] is not None}
        by_link = {t for i, (t, _) in enumerate(self.w.links) if i in used_links}
        derived_here = {v for v in vs if v in self.derived and self.derived[v][1] is not None
                        and self.w.links[self.derived[v][1]][0] in tables or v in self.related}
        for item in self.rule_items:
            k = next(iter(item))
            if k not in ("test", "macro", "all") and not (k in self.m.static_types and self._has_words(k)):
                continue
            if ("macro" in item or k in self.m.static_types) and not self._in_way(item):
                continue                            # another way's relation (日干所生 or 克日干者)
            if k in self.m.static_types:
                direct.add(k)
            if k == "test":
                (op, args), = item["test"].items()
                if isinstance(args, list) and len(args) == 2 and all(isinstance(a, str) for a in args) and \
                        self._test_known((op,) + tuple(alias.get(a, a) for a in args)) is not None:
                    continue                        # the row's own cells decide it
            used = set(_vars(item))
            roots = {alias[x] for x in used if x in alias}
            if not roots & set(vs):
                continue
            if self._says_derivation(item, k, roots):
                said |= roots
                continue
            names = {x: self.name(alias[x]) for x in used if x in alias}
            pat = item.get(k) if isinstance(item.get(k), dict) else {}
            for f, x in pat.items():                # a value nothing names, by the table's column (某煞)
                if _is_var(x) and names.get(x, "某") == "某" and KIND_NAMES.get(f, "某") != "某" \
                        and alias.get(x) not in self.glued and "}{" not in (_fact_words(k, self.kb) or ""):
                    names[x] = KIND_NAMES[f]
            out.append(_item_words(item, names, self.kb))
            self.rel_items.setdefault(out[-1], item)        # the line's own test or pattern, judged alone
            said |= roots
            self.kept_tied |= roots
            said_tables.add(k)
        unsaid = [t for t in tables if t in direct and t not in said_tables and t not in by_link]
        reached = set(said)
        for v in list(said):                        # a name reached from another (日干之祿 from 日干) says it
            while v in self.derived and self.derived[v][1] is not None:
                v = self.derived[v][0]
                reached.add(v)
        if out and set(vs) <= reached and not unsaid:
            return out
        free = [i for i, v in enumerate(vs) if v not in derived_here]
        proj = {tuple(t[i] for i in free) for t in tuples}
        size = 1
        for i in free:
            size *= len({t[i] for t in tuples})
        if len(proj) == size:                       # the names and each one's values say it all
            return out
        left = unsaid if out and set(vs) <= reached else [t for t in tables if t not in by_link] or tables
        names = [self._table_name(t) for t in left]
        if not names:
            return out
        self.kept_tied |= {vs[i] for i in free}
        return out + [VIA.format(a="、".join(self.name(vs[i]) for i in free), t="、".join(dict.fromkeys(names)))]

    def _in_way(self, item):
        """Is this item of the rule (a macro's or a table's patterns) part of this way: its patterns among
        the way's links, a macro's own inner variables each one variable there?"""
        alias = self.w.alias
        pats = item.get("all") if "macro" in item else [item]
        if not isinstance(pats, list) or not all(isinstance(p, dict) and len(p) == 1 and
                                                 isinstance(next(iter(p.values())), dict) for p in pats):
            return False
        pats = [next(iter(p.items())) for p in pats]

        def fits(i, inner):
            if i == len(pats):
                return True
            t, fs = pats[i]
            for t2, lfs in self.w.links:
                if t2 != t or set(lfs) != set(fs):
                    continue
                got, ok = dict(inner), True
                for f, x in fs.items():
                    y = lfs[f]
                    if _is_var(x) and x in alias:
                        ok = y == alias[x]
                    elif _is_var(x):                    # the macro's own (~m): one variable throughout
                        ok = got.setdefault(x, y) == y
                    else:
                        ok = y == x or self._one(y) == str(x)
                    if not ok:
                        break
                if ok and fits(i + 1, got):
                    return True
            return False
        return fits(0, {})

    def _says_derivation(self, item, k, roots):
        """Does this item only say how a derived name is reached (日干 合 日干之合, 克日干者)?"""
        if any(self.related.get(r, (None, None))[1] in (id(item), ("link", k)) for r in roots):
            return True
        if len(roots) != 2:
            return False
        a, b = sorted(roots)
        for x, y in ((a, b), (b, a)):
            got = self.derived.get(y)
            if got and got[0] == x and got[1] is not None:
                t = self.w.links[got[1]][0]
                if k == t or "macro" in item:
                    return True
        return False

    def _has_words(self, k):
        return any(t.fact_type == k and t.meta.get("text") for t in self.kb.tables.values()) or k in self.kb.fact_text

    def _table_name(self, t):
        for tab in self.kb.tables.values():
            if tab.fact_type == t or tab.id == t:
                return tab.name
        return t

    def _negation(self, i, cond, outer=None):
        """A negated condition worded by the same code, from its own requirement (the model's nested ways),
        its outer variables named as here."""
        ways = self.w.neg_ways[i] if i < len(getattr(self.w, "neg_ways", [])) else []
        if not ways:
            return self._cond(cond)
        outer = outer or {v: self.names[v] for v in self.names if not v.startswith("~c")}
        values = {v: outer[v] for v in self.said if v in outer and not v.startswith("~c")}
        ways = [nw for nw in ways if not self._vacuous(nw, {**values, **self.rowmulti})]
        if not ways:
            return None                 # it reads a value its field never has (所問 無): nothing to negate
        items = list(_flat_items(cond if isinstance(cond, list) else [cond]))
        said = []
        for nw in ways:
            ww = _Way(self.kb, self.m, nw, self.ref, items, outer, outer_said=values)
            lines = [x for x in ww.lines() if x]
            said.append("；".join(lines))
        said = list(dict.fromkeys(x for x in said if x))
        if not said:
            return self._cond(cond)
        return said[0] if len(said) == 1 else WAYS.format("｜".join(said))

    def _vacuous(self, nw, values):
        """Does a negated way read one of these values where it never is: in a field that never has it
        (所問 為 無), or in a table no row of which has it (臨官 among 長生之為官鬼脫氣者)?"""
        for a in nw.atoms:
            for f, v in a.fields.items():
                fd = self.m.fdom.get((a.fact, f))
                if v in values and fd is not None and not isinstance(values[v], list) and \
                        values[v] not in {str(x) for x in fd}:
                    return True
        for t, fs in nw.links:
            lits = {f: values[v] for f, v in fs.items() if v in values}
            if not lits or t not in self.m.static_types:
                continue
            lits.update({f: x for f, x in fs.items() if not _is_var(x) and not str(x).startswith("~c")})
            if not any(all(str(r.get(f)) == str(x) if not isinstance(x, list) else r.get(f) in x
                           for f, x in lits.items())
                       for tab in self.kb.tables.values() if tab.fact_type == t for r in tab.facts()):
                return True
        return False

    def _cond(self, cond):
        alias = self.w.alias
        cond = self._macro_of(cond) or cond         # 無（第七支 克 第八支）, never the tables the macro reads
        names = {x: self.name(alias[x.rsplit("~e", 1)[0]]) for x in set(_vars(cond)) if x.rsplit("~e", 1)[0] in alias}
        return _item_words(cond, names, self.kb)

    def _macro_of(self, cond):
        """The rule's own macro use a negated condition was expanded from (its patterns the same, variables
        aside), else None."""
        import json
        if not isinstance(cond, dict) or "macro" in cond:
            return None

        def norm(c):
            return json.dumps(_ren(c, lambda x: re.sub(r"~[em]\d+", "", x)), sort_keys=True, ensure_ascii=False)
        want = norm(cond)
        for item in self.rule_items:
            y = item.get("not") if isinstance(item, dict) else None
            if isinstance(y, dict) and "macro" in y and norm({k: v for k, v in y.items() if k != "macro"}) == want:
                return y
        return None


def _keys(kb, t):
    out = set()
    for tab in kb.tables.values():
        if tab.fact_type == t and isinstance(tab.meta.get("keys"), dict):
            out |= set(tab.meta["keys"])
    return out


# ---------------------------------------------------------------- values and rules named in a condition
def _is_cvar(x):
    return isinstance(x, str) and VAR_RE.match(x) is not None


class _Missing(dict):
    def __missing__(self, key):
        return "某"


CALC_WORDS = {"add": "加", "sub": "減", "mul": "乘", "div": "除以"}


def _fmt_value(v, b):
    if _is_cvar(v):
        return str(b[v]) if v in b else "某"
    if isinstance(v, list):
        return "或".join(str(x) for x in v)
    if isinstance(v, dict) and "not" not in v:          # a calculation: 某 乘 某
        (op, args), = v.items()
        args = args if isinstance(args, list) else [args]
        if op == "neg":
            return "負" + _fmt_value(args[0], b)
        return f"{CALC_WORDS.get(op, op)}".join(_fmt_value(a, b) for a in args) if len(args) > 1 else _fmt_value(args[0], b)
    if isinstance(v, dict):
        inner = v["not"]
        return "非" + (_fmt_value(inner, b) if not isinstance(inner, list) else "、".join(map(str, inner)))
    return str(v)


def rule_names(kb, v, b, ref=None):
    """The rules a 判 pattern names (an id, a list of ids, or a variable), by their names: 「重審墓絕生旺」."""
    ids = v if isinstance(v, list) else [v]
    out = []
    for x in ids:
        if _is_cvar(x):
            x = b.get(x)
        e = kb.entries.get(x) if isinstance(x, str) else None
        if e is None:
            out.append("某")
        else:
            out.append(ref(e) if ref else f"「{e.name}」")
    return "或".join(out)


def _flat_cond(cond):
    if isinstance(cond, list):
        for c in cond:
            yield from _flat_cond(c)
    elif isinstance(cond, dict):
        k = next(iter(cond))
        if k in ("all", "any"):
            yield from _flat_cond(cond[k])
        elif k == "not":
            yield from _flat_cond(cond[k])
        else:
            yield cond


def reporting_rule(kb, key):
    """The rule whose firings report `key`, and the bindings that pin it to that entry (kept on the
    KB object, as the meaning is: a family's page asks it of every row)."""
    memo = kb.__dict__.setdefault("_reporting_rule", {})
    if key not in memo:
        memo[key] = _reporting_rule(kb, key)
    rule, b = memo[key]
    return rule, dict(b)


def reported_rows(kb, rule):
    """The table rows a family rule reports by name (its `as:`), in the KB's order."""
    return [r for r in kb.rows.values() if reporting_rule(kb, r.id)[0] is rule]


def _reporting_rule(kb, key):
    if key in kb.rules:
        return kb.rules[key], {}
    row = kb.rows.get(key)
    if row is None:
        return None, {}
    ftype = kb.tables[row.table].fact_type
    by_type = kb.__dict__.get("_reporting_by_type")
    if by_type is None:                 # the first family rule (in the KB's order) reading each fact type by its id
        by_type = {}
        for r in kb.rules.values():
            if not r.as_var:
                continue
            for item in _flat_cond(r.when):
                if isinstance(item, dict):
                    for t, pat in item.items():
                        if isinstance(pat, dict) and pat.get("id") == r.as_var:
                            by_type.setdefault(t, r)
        kb.__dict__["_reporting_by_type"] = by_type
    if ftype in by_type:
        r = by_type[ftype]
        return r, {r.as_var: key}
    got = sourced(kb, key)              # a row reached through a derived fact's 源 (a 神煞 row)
    if got is not None:
        return got[0], {got[0].as_var: key}
    for r in kb.rules.values():
        if r.as_var and r.kind == row.kind and any(
                isinstance(item, dict) and any(isinstance(f, dict) and f.get("源") == r.as_var for f in item.values())
                for item in _flat_cond(r.when)):
            return r, {r.as_var: key}
    return None, {}


# ---------------------------------------------------------------- a row reached through a derived fact's 源
def _ren(c, f):
    """A condition (pattern list, test, negation) with each variable x replaced by f(x)."""
    if isinstance(c, list):
        return [_ren(x, f) for x in c]
    if isinstance(c, tuple):
        return tuple(_ren(x, f) for x in c)
    if isinstance(c, dict):
        return {k: (v if k == "macro" else _ren(v, f)) for k, v in c.items()}
    return f(c) if _is_cvar(c) else c


def _producers(kb):
    """derived fact type -> [(rule, the fields of the fact its `then:` makes)], for facts that carry a 源."""
    memo = kb.__dict__.get("_words_producers")
    if memo is None:
        from liuren.knowledge.conditions import then_facts
        memo = {}
        for r in kb.rules.values():
            for t, fs in then_facts(r.then):
                if t in kb.derived and "源" in fs:
                    memo.setdefault(t, []).append((r, dict(fs)))
        kb.__dict__["_words_producers"] = memo
    return memo


def _rows_by_id(kb):
    memo = kb.__dict__.get("_words_rowtype")
    if memo is None:
        memo = {rid: (kb.tables[r.table].fact_type, r) for rid, r in kb.rows.items() if r.table in kb.tables}
        kb.__dict__["_words_rowtype"] = memo
    return memo


def _row_fits(kb, rid, t, fs):
    """Can the row rid be the row a pattern on table type t reads (its literal cells admit it)?"""
    got = _rows_by_id(kb).get(rid)
    if got is None or got[0] != t:
        return False
    lits = {f: x for f, x in fs.items() if f != "id" and not _is_cvar(x)}
    return any(all(f in cells and not _cell_ne(cells[f], x) for f, x in lits.items()) for cells in got[1].data)


def _make(kb, t, fs, src, counter, depth=0):
    """The ways (patterns, tests, negations, the consumer's variables a producer fixes) by which the
    rules that make a fact of type t with fields fs (a consumer's pattern, its 源 the row src) make
    it: each producer's condition, its 源 the row, its `then:` fields the consumer's.  [] when no
    rule can make it for that row."""
    from liuren.knowledge.conditions import dnf
    if depth > 4:
        return []
    out = []
    for r, tfs in _producers(kb).get(t, ()):
        if any(not _is_cvar(x) and not _is_cvar(fs[f]) and _cell_ne(x, fs[f])
               for f, x in tfs.items() if f != "源" and f in fs):
            continue
        s = tfs["源"]
        if not _is_cvar(s) and src is not None and s != src:
            continue
        n = next(counter)
        sub, pins, fixed = {}, [], {}
        for f, x in tfs.items():
            y = fs.get(f)
            if not _is_cvar(x):
                if _is_cvar(y):
                    fixed[y] = x                    # the producer makes it this value: the consumer's too
                continue
            if f == "源":
                sub[x] = src if src is not None else (fs["源"] if _is_cvar(fs.get("源")) else f"{x}~e{n}")
            elif y is None or isinstance(y, (list, dict)):
                sub[x] = f"{x}~e{n}"
                if y is not None:
                    pins.append(("~row", {"id": sub[x], "=": y if isinstance(y, list) else None}))
            else:
                sub[x] = y
        pins = [p for p in pins if p[1]["="] is not None]
        cond = expand_macros(r.when if isinstance(r.when, list) else [r.when], kb.macros, counter)
        for pos, tests, nots in dnf(cond):
            f_ = (lambda x: sub.get(x, f"{x}~e{n}"))
            pos, tests, nots = _ren(pos, f_), _ren(tests, f_), _ren(nots, f_)
            alts, ok = [(list(pins), list(tests), list(nots), dict(fixed))], not _is_cvar(s) or src is None
            mark = src if src is not None else sub.get(s)
            for pt, pfs in pos:
                if mark is not None and pfs.get("源") == mark and pt in kb.derived:
                    subs = _make(kb, pt, pfs, src, counter, depth + 1)
                    alts = [x for x in (_join(a, b) for a in alts for b in subs) if x is not None]
                    ok = ok or bool(subs)
                    continue
                if src is not None and pfs.get("id") == src:
                    if not _row_fits(kb, src, pt, pfs):
                        alts = []
                        break
                    ok = True
                alts = [(a[0] + [(pt, pfs)], a[1], a[2], a[3]) for a in alts]
            if ok:
                out += [_fix(a) for a in alts]
    return out


def _join(a, b):
    """Two partial ways as one (None where they fix a variable to two values)."""
    fixed = dict(a[3])
    for v, x in b[3].items():
        if fixed.setdefault(v, x) != x:
            return None
    return a[0] + b[0], a[1] + b[1], a[2] + b[2], fixed


def _fix(a):
    """A partial way with the values its producers fix put in (kept, for the consumer above)."""
    f = (lambda x: a[3].get(x, x))
    return _ren(a[0], f), _ren(a[1], f), _ren(a[2], f), a[3]


def sourced(kb, key):
    """(the rule that reports the row key, [its ways]) for a row reached through a derived fact's 源
    (read-shensha reads 見 {源: $r}; the 見 is made by shensha-seen from a 煞 that place-stem-sha makes
    from the row): the reporting rule's condition, each such fact replaced by the condition of the
    rules that make it from this row.  None for any other entry."""
    memo = kb.__dict__.setdefault("_words_sourced", {})
    if key in memo:
        return memo[key]
    memo[key] = None
    row = kb.rows.get(key)
    if row is None or key in kb.rules:
        return None
    from liuren.knowledge.conditions import dnf
    from liuren.knowledge.meaning import meaning_of
    counter = itertools.count()
    readers = kb.__dict__.get("_words_readers")
    if readers is None:                     # rules that read a derived fact's 源 (or a table) by their as: variable
        readers = kb.__dict__["_words_readers"] = [
            r for r in kb.rules.values() if r.as_var and any(
                isinstance(p, dict) and any(isinstance(v, dict) and r.as_var in v.values() and (
                    k in kb.derived and v.get("源") == r.as_var or k in kb.tables and v.get("id") != r.as_var)
                    for k, v in p.items()) for p in _flat_cond(r.when))]
    facts_of = kb.__dict__.setdefault("_words_facts", {})
    for r in readers:
        if r.kind != row.kind:
            continue
        n = next(counter)
        cond = expand_macros(r.when if isinstance(r.when, list) else [r.when], kb.macros, counter)
        branches, srcs = [], {key}
        for pos, tests, nots in dnf(cond):
            f_ = (lambda x: key if x == r.as_var else f"{x}~e{n}")
            pos, tests, nots = _ren(pos, f_), _ren(tests, f_), _ren(nots, f_)
            # the 源 of a derived fact read through a table keyed by the row (星煞分論 {源: $r, 報: $q})
            choices = [{}]
            for pt, pfs in pos:
                if pt in kb.tables and key in pfs.values():
                    f0 = next(f for f, y in pfs.items() if y == key)
                    for g, x in pfs.items():
                        if _is_cvar(x) and any(d.get("源") == x for dt, d in pos if dt in kb.derived):
                            if pt not in facts_of:
                                facts_of[pt] = [c for tab in kb.tables.values() if tab.fact_type == pt
                                                for c in tab.facts()]
                            vals = sorted({c[g] for c in facts_of[pt] if c.get(f0) == key and g in c})
                            choices = [{**c, x: v} for c in choices for v in vals]
            for ch in choices:
                srcs.update(v for v in ch.values() if v in kb.rows)
                g_ = (lambda x: ch.get(x, x))
                alts, ok = [([], _ren(tests, g_), _ren(nots, g_), {})], False
                for pt, pfs in _ren(pos, g_):
                    src = pfs.get("源")
                    if pt in kb.derived and src is not None and not _is_cvar(src) and src in kb.rows:
                        subs = _make(kb, pt, pfs, src, counter)
                        alts = [x for x in (_join(a, b) for a in alts for b in subs) if x is not None]
                        ok = True
                        continue
                    alts = [(a[0] + [(pt, pfs)], a[1], a[2], a[3]) for a in alts]
                if ok:
                    branches += [_fix(a)[:3] for a in alts]
        if branches:
            m = meaning_of(kb)
            ways = m.ways_of(kb, branches[:64])
            if all(w.impossible for w in ways):
                continue                    # a rule that reads such facts, never this row's
            memo[key] = (r, ways, sorted(srcs))
            return memo[key]
    return None


def composed(kb, key):
    """[ways] of an entry its family rule reports by its own row (id) but reads through a derived
    fact with no 源 of its own (刑干: 見 {煞: 刑, 據: 干}): that fact replaced by the rules that make it,
    the row's own cells put in so that only the rules that can make it for this row are read.  None
    where nothing is replaced."""
    memo = kb.__dict__.setdefault("_words_composed", {})
    if key in memo:
        return memo[key]
    memo[key] = None
    row = kb.rows.get(key)
    rule = reporting_rule(kb, key)[0] if row is not None else None
    if rule is None or not rule.as_var:
        return None
    from liuren.knowledge.conditions import dnf
    from liuren.knowledge.meaning import meaning_of
    counter = itertools.count()
    n = next(counter)
    cond = expand_macros(rule.when if isinstance(rule.when, list) else [rule.when], kb.macros, counter)
    branches, replaced = [], False
    for pos, tests, nots in dnf(cond):
        f_ = (lambda x: key if x == rule.as_var else f"{x}~e{n}")
        pos, tests, nots = _ren(pos, f_), _ren(tests, f_), _ren(nots, f_)
        cells = {}                          # the row's own cells, where they are one value
        for pt, pfs in pos:
            if pt in kb.tables and pfs.get("id") == key:
                for f, x in pfs.items():
                    vals = {c.get(f) for c in row.data}
                    if _is_cvar(x) and len(vals) == 1 and None not in vals:
                        cells[x] = vals.pop()
        g_ = (lambda x: cells.get(x, x))
        alts = [([], _ren(tests, g_), _ren(nots, g_), {})]
        for pt, pfs in _ren(pos, g_):
            if pt == SEEN_FACT and pt in _producers(kb) and "源" not in pfs:
                subs = _make(kb, pt, pfs, None, counter)
                alts = [x for x in (_join(a, b) for a in alts for b in subs) if x is not None]
                replaced = True
                continue
            alts = [(a[0] + [(pt, pfs)], a[1], a[2], a[3]) for a in alts]
        branches += [_fix(a)[:3] for a in alts]
    if not replaced or not branches:
        return None
    ways = meaning_of(kb).ways_of(kb, branches[:64])
    if all(w.impossible for w in ways):
        return None
    memo[key] = ways
    return ways


def _cell_ne(cell, x):
    if isinstance(x, list):
        return cell not in x
    if isinstance(x, dict):
        inner = x.get("not")
        return cell in (inner if isinstance(inner, list) else [inner])
    return cell != x


RELATED_VERBS = "生克刑沖破害"


def _related_word(words, src):
    """The name of a value by the relation that ties it to a named one (words: the relation in words, the
    value marked \\x03): 「\\x03 克 日干」 → 克日干者, 「日干 生 \\x03」 → 日干所生, 「\\x03 與 初傳 同類」 →
    與初傳同類者; else None."""
    e = re.escape(src)
    got = re.fullmatch("\x03 ?([" + RELATED_VERBS + "]) ?" + e, words)
    if got:
        return f"{got.group(1)}{src}者"
    got = re.fullmatch(e + " ?([" + RELATED_VERBS + "]) ?\x03", words)
    if got:
        return f"{src}所{got.group(1)}"
    got = re.fullmatch("(?:\x03 與 " + e + "|" + e + " 與 \x03) (同類|三合)", words)
    if got:
        return f"與{src}{got.group(1)}者"
    got = re.fullmatch("\x03 為(\\S*" + e + "\\S*之\\S{1,3})", words)
    if got:                                     # 「\x03 為日干日之鬼」 → 日干之鬼
        return re.sub(r"(日干|日支|月建|太歲)[日月歲](?=\w)", r"\1", got.group(1))
    return None


def _derived_word(kb, t, fs, s, g, src):
    """The name of the value a table gives in column g for the named value src (column s), in the
    table's words: its text's verb (「{干} 寄 {宮}」: 日干之合所寄), its column (之合, 之墓), or the
    literal cell the pattern picks (月建之天馬), else the table's name (日支之破碎)."""
    tpl = _fact_words(t, kb) or ""
    a, b = "{" + s + "}", "{" + g + "}"
    if a in tpl and b in tpl:
        i, j = tpl.index(a), tpl.index(b)
        between = (tpl[i + len(a):j] if i < j else tpl[j + len(b):i]).strip()
        if between and "{" not in between and "}" not in between and len(between) <= 4:
            if between == g:
                return f"{src}之{g}"
            if i < j and between.startswith("之"):
                return src + between.rstrip("在為是 ")
            if len(between) == 1 and between not in "為在是即":
                return f"{src}所{between}" if i < j else f"{between}{src}者"

    if a in tpl and b in tpl and tpl.index(a) < tpl.index(b):
        got = re.fullmatch(r"日?(之\w{1,3}?)[在為是]", tpl[tpl.index(a) + len(a):tpl.index(b)].strip())
        if got:                                 # 「{干}日之日本在{支}」: 日干之日本
            return src + got.group(1)
    lits = {f: x for f, x in fs.items() if f not in (s, g) and isinstance(x, str) and not _is_var(x) and x}
    rel = lits.get("係")                        # 主 係 賓 (五行生克比): 三傳所合之局所生, 生日干所屬者
    if rel and {s, g} == {"主", "賓"}:
        fwd = {"生": "{}所生", "克": "{}所克", "受生": "生{}者", "受克": "克{}者", "比": "{}之同類"}
        back = {"生": "生{}者", "克": "克{}者", "受生": "{}所生", "受克": "{}所克", "比": "{}之同類"}
        got = (fwd if s == "主" else back).get(rel)
        if got:
            return got.format(src)
    for col in LITERAL_COLUMNS:
        x = lits.get(col)
        if x and len(x) > 1 or (x and x not in BRANCHES + STEMS):
            return f"{src}之{x}"
    if s == "干支" and g in ("干", "支") and src.endswith("干支") and len(src) > 2:
        return f"{src[:-2]}之{g}"             # 太歲干支 → 太歲之干
    if g not in GENERIC_COLUMNS:
        subject = _table_subject(kb, t)
        if len(g) == 1 and subject:            # a column that only qualifies what the table gives: 日干之晝貴人
            return f"{src}之{g}{subject}"
        return f"{src}之{g}"
    return None


def _table_subject(kb, t):
    """What a 起例 table gives, by its name (「貴人起例」 gives 貴人), else None."""
    for tab in kb.tables.values():
        if tab.fact_type == t and tab.name.endswith("起例") and len(tab.name) > 2:
            return tab.name[:-2]
    return None


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
    return re.sub(r"\$[^\s\W]*\w*", "某", _pattern_words(item, names, kb)).strip()


def _pattern_words(cond, b, kb, ref=None, fill=None):
    """One item of a condition as the rule wrote it (a macro by its template, a test by TEST_WORDS, a
    pattern by its fact's or table's words), its variables named by b (a name or the board's value).
    ref(entry): how another rule is named (default 「name」); fill: the board's values of the fields the pattern leaves open (a held 三傳 says 亥酉未, never 亥某某)."""
    import string
    from liuren.knowledge.facts import BUILTIN_FACTS
    if isinstance(cond, list):
        return "；".join(_pattern_words(c, b, kb, ref) for c in cond)
    if "macro" in cond:
        m = cond["macro"]
        params = kb.macros[m["name"]]["params"]
        vals = {p: _fmt_value(a, b) for p, a in zip(params, m["args"])}
        return kb.macros[m["name"]]["text"].format_map(_Missing(vals))
    k = next(x for x in cond if x != "macro")
    v = cond[k]
    if k == "all":
        return "；".join(_pattern_words(c, b, kb, ref) for c in v)
    if k == "any":
        return "或（" + "｜".join(_pattern_words(c, b, kb, ref) for c in v) + "）"
    if k == "not":
        return "無（" + _pattern_words(v, b, kb, ref) + "）"
    if k == "test":
        (op, (x, y)), = v.items()
        if isinstance(y, list) and op in ("in", "notin"):      # 日干 不在 初傳、中傳、末傳 之中
            return TEST_WORDS[op].format(x=_fmt_value(x, b), y="、".join(_fmt_value(e, b) for e in y))
        return TEST_WORDS[op].format(x=_fmt_value(x, b), y=_fmt_value(y, b))
    if k == "判" and "規" in v:                 # another rule's judgment, by its name
        names = rule_names(kb, v["規"], b, ref)
        if names != "某":
            return f"已成 {names}"
    tpl = BUILTIN_FACTS.get(k, {}).get("text") or kb.fact_text.get(k)
    if k in kb.tables:
        tpl = kb.tables[k].meta.get("text") or tpl
    vals = {**{f: str(x) for f, x in (fill or {}).items() if f not in ("t", "id")},
            **{f: _fmt_value(x, b) for f, x in v.items()}}
    if k == "位" and v.get("位") == "日干":       # 日干 is its stem: 日干 丁（寄未）, never 日干未
        stem = f" {vals['干']}" if "干" in v else ""
        return f"日干{stem}（寄{vals['支']}）" if "支" in v else f"日干{stem}"
    row = kb.rows.get(vals.get("id"))
    if row is not None:               # the table row of the entry itself
        from liuren.explain.factwords import row_words
        cells = {f: x for f, x in vals.items() if f != "id"}
        return f"依「{row.name}」" + ("：" + row_words(kb, {"t": k, **cells}) if cells and k in kb.tables else "")
    for f, x in v.items():                      # a don't-care field of a run {甲}{乙}{丙}: not said (三傳合局)
        if _is_cvar(x) and x.startswith("$_") and x not in b and tpl and \
                re.search(r"\}\{" + f + r"\}|\{" + f + r"\}\{", tpl):
            vals[f] = ""
    if tpl:                                     # a clause of a field the pattern does not read: not said
        tpl = re.sub(r"（[^（）{]*\{(\w+)\}[^（）]*）", lambda mm: "" if mm.group(1) not in vals else mm.group(0), tpl)
        tpl = re.sub(r"，[^，（）]*\{\w+\}[^，（）]*", lambda mm: "" if any(
            f not in vals for f in re.findall(r"\{(\w+)\}", mm.group(0))) else mm.group(0), tpl)
        try:
            return string.Formatter().vformat(tpl, (), _Missing(vals))
        except (IndexError, ValueError):
            pass
    if k in kb.tables:
        from liuren.explain.factwords import row_words
        return row_words(kb, {"t": k, **{f: x for f, x in vals.items() if f != "id"}})
    return f"{k}：" + "，".join(f"{f}為{x}" for f, x in vals.items())



def _rule_of(kb, entry):
    return reporting_rule(kb, entry.id)


def _when_of(kb, rule, variant=None):
    """The condition a rule reads under a variant (its own `when:` where it has one), as items."""
    when = next((v["when"] for v in rule.variants if v["id"] == variant and v.get("when") is not None), rule.when)
    return list(_flat_items(expand_macros(when if isinstance(when, list) else [when], kb.macros, itertools.count())))


def _entry_ways(kb, m, entry, rule, variant=None):
    """The model's ways of an entry (its possible ones): its own (a variant's, where it has a `when:`
    of its own); for a row read through a derived fact's 源, those composed from the rules that make
    the fact from the row (sourced); else None."""
    if variant is not None and m.has_variant(entry.id, variant):
        ways = m.requirement(entry.id, variant=variant)
        return [w for w in ways if not w.impossible] or ways
    if entry.id in m.entries:
        ways = composed(kb, entry.id) or m.requirement(entry.id)     # 刑干: the 見 it reads, made from the 煞
    else:
        got = sourced(kb, entry.id)
        if got is not None and got[0] is rule:
            ways = got[1]
        elif rule.id in m.entries:
            ways = m.requirement(rule.id)
        else:
            return None
    return [w for w in ways if not w.impossible] or ways


def way_lines(kb, entry, ref=None, variant=None):
    """[[line] per way] of an entry from the model (its direct form: another rule read as 已成)."""
    from liuren.knowledge.meaning import meaning_of
    m = meaning_of(kb)
    rule, _ = _rule_of(kb, entry)
    if rule is None:
        return rule, []
    ways = _entry_ways(kb, m, entry, rule, variant)
    if ways is None:
        return rule, []
    items = _when_of(kb, rule, variant)
    own = sourced(kb, entry.id)[2] if entry.id not in m.entries and sourced(kb, entry.id) is not None else \
        [] if entry.id in m.entries and composed(kb, entry.id) else None
    wws = [_Way(kb, m, w, ref, items, own=own) for w in ways]
    wws = [ww for ww in wws if not ww.refuted()] or wws
    return rule, [ww.lines() for ww in wws]


def judged_ways(kb, entry, variant=None):
    """[(way, its named form, [(line, what it says)])] per way of an entry: the rule page's lines with
    the model's parts behind each, for WHY-NOT to judge on a board (the same lines as way_lines)."""
    from liuren.knowledge.meaning import meaning_of
    m = meaning_of(kb)
    rule, _ = _rule_of(kb, entry)
    if rule is None:
        return []
    ways = _entry_ways(kb, m, entry, rule, variant)
    if ways is None:
        return []
    items = _when_of(kb, rule, variant)
    own = sourced(kb, entry.id)[2] if entry.id not in m.entries and sourced(kb, entry.id) is not None else \
        [] if entry.id in m.entries and composed(kb, entry.id) else None
    wws = [_Way(kb, m, w, None, items, own=own) for w in ways]
    wws = [ww for ww in wws if not ww.refuted()] or wws
    return [(ww.w, ww, ww.judged_lines()) for ww in wws]


def conditions_in_words(kb, entry, links=False, variant=None):
    """(the family rule when the entry is a row it reports, else None or the rule itself,
    [each condition in words]).  links: another rule named in a condition is marked for segments().
    variant: the lines of that reading, where the variant has a `when:` of its own."""
    ref = (lambda e: REF.format(e.id)) if links else None
    rule, ways = way_lines(kb, entry, ref, variant)
    if rule is None:
        return None, []
    if not ways:
        return rule, []
    common = [x for x in ways[0] if all(x in w for w in ways[1:])]
    lines = list(common)
    rest = [[x for x in w if x not in common] for w in ways]
    if not all(rest):
        rest = []                   # a way that needs only the common lines: the others add nothing
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
    own = own_row_line(kb, rule, entry, _Way(kb, m, ways[0], None)) if ways else None
    if not tables:
        return ["、".join(places)] if places else []
    return [READS.format(t="、".join(tables), a="、".join(places) or "某")] + ([own[0]] if own else [])


OWN_ROW_LACKS = "{a}（此條不載）"     # a row that gives no value where its table reads one (朱雀臨, 脫支)


def own_row_line(kb, rule, entry, ww, data=None):
    """A family row the model gives no lines for (its cells cannot meet the board: 朱雀臨 of ¶73, whose
    branch the book lost): its cells said at the places its table reads, 「初傳 所乘之將 為 朱雀，初傳 所臨
    （此條不載）」, with {column: the way's variable} and the places it gives nothing for — or None for
    any other entry.  data: the row's cells as a board reads them (under a variant: 朱雀臨巳)."""
    row = kb.rows.get(entry.id)
    if row is None or not rule.as_var or rule.id == entry.id:
        return None
    pat = next(((k, f) for k, f in _patterns(rule.when) if isinstance(f, dict) and f.get("id") == rule.as_var), None)
    if pat is None:
        return None
    cols = {c: x for c, x in pat[1].items() if c != "id" and _is_var(x)}
    var_of = {c: next((v for v in ww.places if v.split("~")[0] == x), None) for c, x in cols.items()}
    if not cols or None in var_of.values():
        return None
    data = (row.data if data is None else data) or [{}]
    parts, missing = [], []
    for c, v in var_of.items():
        name = ww.places[v][0]
        vals = list(dict.fromkeys(str(d[c]) for d in data if d.get(c) is not None))
        parts.append(IS.format(a=name, v=ONE_OF.join(vals)) if vals else OWN_ROW_LACKS.format(a=name))
        if not vals:
            missing.append(name)
    return "，".join(parts), var_of, missing


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
