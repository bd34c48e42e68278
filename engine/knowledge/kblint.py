"""The checks of `liuren kb check` that read a rule's meaning, not only its shape.  One thing, hence
one module over 800 lines: every check that reads the whole KB after its files are loaded.

* Every literal in a condition (and every cell of a table column of symbols) is a value its
  field can hold: a branch 子…亥, a stem, a position, a general, a question, a kind, a gate, or a
  value the table column (or the rules asserting a derived fact) holds elsewhere — with the
  nearest values as "did you mean".
* A variable used once in a way through a rule (a typo such as $gx for $g) is an error unless
  its name starts with $_ (a deliberate "anything").
* A 地盤 position's branch is never read as a 天盤 branch to find a general (kb/README.md,
  "Positions and places"): use the position's 天 (the 天盤 branch at its place).
* Strings have sane sizes, and names, readings and quotes are strings.
* A note that declares something missing (「本庫未立」「未立」「待他卷」「無定義」「無表」…) may not
  name a rule or table the KB has: such a note is stale, and the rule under it is narrower than
  its text (`_lint_missing_notes`).

`lint(kb, err)` reports through err(path, line, message) like the loader does.
"""
from __future__ import annotations

import difflib
import itertools
import pathlib
import re

from liuren.knowledge.conditions import dnf, expand_macros, then_facts
from liuren.knowledge.facts import PLATE_OF_POSITION
from liuren.casting.symbols import BRANCHES, GATES, JIAZI, POSITIONS_OF_GENERALS, STEMS

MAX_NAME = 100          # characters in a name, alias or label
MAX_TEXT = 4000         # characters in any other string (a quote of a whole ¶ fits)

SUBTYPES = ("元首", "重審", "知一", "涉害", "見機", "察微", "復等", "比用", "蒿矢", "彈射", "虎視", "冬蛇掩目",
            "別責", "八專", "獨足", "自任", "自信", "杜傳", "伏吟", "井欄射")

_BR, _ST, _GEN = set(BRANCHES), set(STEMS), set(POSITIONS_OF_GENERALS)
_XUN = {JIAZI[i] for i in range(0, 60, 10)}
SYMBOLS = {"branch": _BR, "stem": _ST, "general": _GEN, "position": set(PLATE_OF_POSITION),
           "干支": set(JIAZI), "element": set("木火土金水"),
           "month": {"正月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月"}}


def builtin_domains(kb, judgment_kinds):
    """(fact type, field) -> the values it can hold, for the board's own facts."""
    questions = set(kb.questions)   # a rule names a question by its name: the 問 fact holds the name, never an alias
    return {
        ("位", "位"): set(PLATE_OF_POSITION), ("位", "支"): _BR, ("位", "天"): _BR, ("位", "地"): _BR,
        ("位", "干"): _ST, ("位", "干支"): set(JIAZI), ("位", "盤"): {"天", "地", "無"},
        ("盤", "天"): _BR, ("盤", "地"): _BR, ("盤", "將"): _GEN,
        ("課", "課"): set("一二三四"), ("課", "上"): _BR, ("課", "下"): _BR | _ST, ("課", "下支"): _BR,
        ("傳", "初"): _BR, ("傳", "中"): _BR, ("傳", "末"): _BR, ("傳", "門"): set(GATES),
        ("傳", "體"): set(SUBTYPES),
        ("日", "干"): _ST, ("日", "支"): _BR, ("日", "干支"): set(JIAZI), ("日", "陰陽"): {"陰", "陽"},
        ("日", "旬"): _XUN, ("日", "旬首"): _BR, ("日", "旬尾"): _BR,
        ("時令", "月建"): _BR, ("時令", "四時"): set("春夏秋冬"), ("時令", "五時"): set("春夏秋冬季"),
        ("晝夜", "晝夜"): {"晝", "夜"}, ("遁", "支"): _BR, ("遁", "干"): _ST,
        ("農曆", "晦"): {"是", "否"}, ("農曆", "月"): set(range(1, 13)), ("農曆", "日"): set(range(1, 31)),
        ("人", "性別"): {"男", "女"}, ("問", "問"): questions,
        ("判", "規"): set(kb.rules) | set(kb.rows), ("判", "類"): set(judgment_kinds),
        ("判", "名"): {e.name for e in kb.entries.values()} | {a for e in kb.entries.values() for a in e.aliases},
    }


def _is_var(v):
    return isinstance(v, str) and v.startswith("$")


def _literals(v):
    """The literal values a field constraint names (a value, a list, {not: …})."""
    if isinstance(v, dict):
        v = v.get("not")
    for x in (v if isinstance(v, list) else [v]):
        if x is not None and not _is_var(x) and not isinstance(x, (dict, list)):
            yield x


class _Domains:
    """Closed value sets per (type, field), None when open (a calculation, an unbounded input)."""

    def __init__(self, kb, judgment_kinds):
        self.kb = kb
        self.d = builtin_domains(kb, judgment_kinds)
        for t in kb.tables.values():
            ft = t.fact_type
            for c in list(t.columns) + ["id"]:
                vals = self.d.setdefault((ft, c), set())
                for row in t.rows:
                    for data in [row.data] + list(row.variant_data.values()):
                        for cells in data:
                            if c == "id":
                                if row.id:
                                    vals.add(row.id)
                            elif c in cells:
                                vals.add(cells[c])
        counter = itertools.count()
        self.ways = {}
        for r in kb.rules.values():
            whens = [r.when] + [v["when"] for v in r.variants if isinstance(v, dict) and "when" in v]
            self.ways[r.id] = [dnf(expand_macros(w, kb.macros, counter)) for w in whens]
        derived = {t for t in kb.derived}
        for t in derived:
            for f in kb.derived[t]:
                self.d.setdefault((t, f), set())
        for _ in range(10):                             # grow the derived domains to a fixpoint
            changed = False
            for r in kb.rules.values():
                tf = then_facts(r.then)
                if not tf:
                    continue
                for ways in self.ways[r.id]:
                    for pats, _tests, _negs in ways:
                        vd = self.var_domains(pats)
                        for t, fields in tf:
                            for f, val in fields.items():
                                cur = self.d.get((t, f), set())
                                if cur is None:
                                    continue
                                if _is_var(val):
                                    add = vd.get(val)
                                elif isinstance(val, (dict, list)):
                                    add = None
                                else:
                                    add = {val}
                                if add is None:
                                    self.d[(t, f)] = None
                                    changed = True
                                elif not add <= cur:
                                    cur |= add
                                    changed = True
            if not changed:
                break

    def get(self, t, f):
        return self.d.get((t, f))

    def var_domains(self, pats):
        vd = {}
        for t, fields in pats:
            if not isinstance(fields, dict):
                continue
            for f, v in fields.items():
                if _is_var(v):
                    dom = self.d.get((t, f))
                    if dom is None:
                        vd.setdefault(v, None)
                    else:
                        vd[v] = set(dom) if vd.get(v) is None else vd[v] & dom
        return vd


# characters a scholar types for another: variant forms, simplified forms, look-alikes
LOOKALIKE = {"夘": "卯", "戍": "戌", "戊": "戌", "已": "巳", "己": "巳", "末": "未", "醜": "丑", "甴": "申",
             "传": "傳", "阴": "陰", "阳": "陽", "贵": "貴", "龙": "龍", "陈": "陳", "钩": "勾", "岁": "歲",
             "时": "時", "将": "將", "课": "課", "乾": "干", "幹": "干", "後": "后", "刘": "劉",
             "马": "馬", "财": "財", "禄": "祿", "冲": "沖"}


def _near(x, values):
    x = str(x)
    vals = sorted(str(v) for v in values)
    fixed = "".join(LOOKALIKE.get(c, c) for c in x)
    near = [v for v in vals if v == fixed and v != x]
    near += [v for v in difflib.get_close_matches(x, vals, n=3, cutoff=0.4) if v not in near]
    near = near[:3]
    return f" (did you mean {'、'.join(near)}?)" if near else ""


def _words(dom):
    if dom <= _BR:
        return "a branch 子…亥"
    if dom <= _ST:
        return "a stem 甲…癸"
    if dom <= _GEN:
        return "a general"
    if dom <= set(PLATE_OF_POSITION):
        return "a position"
    return "one of " + "、".join(sorted(str(v) for v in dom)[:12]) + ("…" if len(dom) > 12 else "")


def lint(kb, err, judgment_kinds):
    doms = _Domains(kb, judgment_kinds)
    for r in kb.rules.values():
        _lint_rule(kb, r, doms, err)
    for t in kb.tables.values():
        _lint_table(t, err)
    _lint_strings(kb, err)
    _lint_missing_notes(kb, err)


def _field_line(fields, f, default):
    kl = getattr(fields, "kline", None)
    return kl(f) if kl else getattr(fields, "line", 0) or default


def _lint_rule(kb, r, doms, err):
    line0 = r.line
    seen_msgs = set()

    def report(line, msg):
        if msg not in seen_msgs:
            seen_msgs.add(msg)
            err(r.file, line, f"rule {r.id}: {msg}")

    outputs = []
    for _t, fields in then_facts(r.then):
        for val in fields.values():
            outputs += _vars(val)
    if r.as_var:
        outputs.append(r.as_var)
    for a in r.about:
        outputs += _vars(a)
    whens = [r.when] + [v["when"] for v in r.variants if isinstance(v, dict) and "when" in v]
    for when, ways in zip(whens, doms.ways[r.id]):
        # a variable written once in the whole rule (its condition, then, as, about) is a typo
        # or a deliberate "anything" ($_x)
        count = {}
        for v in _vars(when) + outputs:
            count[v] = count.get(v, 0) + 1
        for v, c in count.items():
            if c == 1 and not v.startswith("$_"):
                report(_var_line(when, v) or r.meta.kline("when"),
                       f"variable {v} is used only once (a typo for another? name it ${'_' + v[1:]} "
                       "if it is meant to match anything)")
        for pats, tests, negs in ways:
            for t, fields in pats:
                _check_literals(t, fields, doms, report, line0)
            _check_test_literals(pats, tests, doms, report, r.meta.kline("when"))
            for n in negs:
                for t, fields in _neg_patterns(n, kb):
                    _check_literals(t, fields, doms, report, line0)
            _check_places(pats, report, r.meta.kline("when"))


def _var_line(cond, v):
    """The line of the condition item that mentions variable v."""
    if isinstance(cond, list):
        for c in cond:
            ln = _var_line(c, v)
            if ln:
                return ln
    elif isinstance(cond, dict):
        if v in _vars(cond):
            for val in cond.values():
                if isinstance(val, (list, dict)) and v in _vars(val):
                    inner = _var_line(val, v)
                    if inner:
                        return inner
            return getattr(cond, "line", 0)
    return 0


def _neg_patterns(n, kb):
    for pats, _t, negs in dnf(n):
        yield from pats
        for m in negs:
            yield from _neg_patterns(m, kb)


def _vars(x):
    if _is_var(x):
        return [x]
    if isinstance(x, dict):
        return [v for val in x.values() for v in _vars(val)]
    if isinstance(x, list):
        return [v for val in x for v in _vars(val)]
    return []


def _check_literals(t, fields, doms, report, line0):
    if not isinstance(fields, dict):
        return
    for f, v in fields.items():
        dom = doms.get(t, f)
        if not dom:
            continue
        for x in _literals(v):
            if x not in dom:
                report(_field_line(fields, f, line0), f"{t}.{f} {x!r} is not a value this field holds "
                                                      f"({_words(dom)}){_near(x, dom)}")


def _check_test_literals(pats, tests, doms, report, line):
    """A test comparing a variable with values (in, notin, eq, ne: `test: {in: [$p, [干上, 支上]]}`)
    names values the variable's field can hold: a misspelled position or branch there would make
    the test never (or always) hold."""
    where = {}
    for t, fields in pats:
        if isinstance(fields, dict):
            for f, v in fields.items():
                if _is_var(v):
                    where.setdefault(v, (t, f))
    for test in tests:
        if not isinstance(test, dict) or len(test) != 1:
            continue
        (op, args), = test.items()
        if op not in ("in", "notin", "eq", "ne") or not isinstance(args, list) or len(args) != 2:
            continue
        for var, vals in (args, args[::-1]):
            if not _is_var(var) or var not in where or _is_var(vals):
                continue
            t, f = where[var]
            dom = doms.get(t, f)
            if not dom:
                continue
            for x in vals if isinstance(vals, list) else [vals]:
                if isinstance(x, str) and not _is_var(x) and x not in dom:
                    report(getattr(test, "line", 0) or line,
                           f"test {op}: {x!r} is not a value {var} ({t}.{f}) holds ({_words(dom)}){_near(x, dom)}")


def _check_places(pats, report, line):
    """A 地盤 position's 支 used as the 天盤 branch that carries a general."""
    earth, other = {}, set()
    for t, fields in pats:
        if not isinstance(fields, dict):
            continue
        if t == "位" and _is_var(fields.get("支")):
            p = fields.get("位")
            ps = set(p) if isinstance(p, list) else {p} if isinstance(p, str) and not _is_var(p) else set()
            if ps and all(PLATE_OF_POSITION.get(x) == "地" for x in ps):
                earth.setdefault(fields["支"], set()).update(ps)
                continue
        for f, v in fields.items():
            if _is_var(v) and not (t == "盤" and f == "天"):
                other.add(v)
    for t, fields in pats:
        if t == "盤" and isinstance(fields, dict) and "將" in fields and "地" not in fields:
            v = fields.get("天")
            if _is_var(v) and v in earth and v not in other:
                report(line, f"盤.天 {v} is the branch of {'、'.join(sorted(earth[v]))}, a 地盤 position: the general "
                             f"there rides the 天盤 branch over it — bind it with 位: {{…, 天: $t}} "
                             "(kb/README.md, Positions and places)")


def _lint_table(t, err):
    """A column whose cells are symbols (branches, stems, generals, positions …) holds only symbols."""
    for c in t.columns:
        vals = {}
        for row in t.rows:                  # the default reading (a 底本 variant may keep a misprint)
            for cells in row.data:
                if c in cells:
                    vals.setdefault(cells[c], row)
        strs = [v for v in vals if isinstance(v, str)]
        if len(strs) < 2:
            continue
        known = set().union(*SYMBOLS.values())
        good = [v for v in strs if v in known]
        if len(good) < 0.6 * len(strs) or len(good) == len(strs):
            continue
        classes = set().union(*(s for s in SYMBOLS.values() if any(v in s for v in good)))
        lengths = {len(x) for x in classes}
        for v in strs:
            if v not in known and len(v) in lengths:
                row = vals[v]
                err(t.file, getattr(row, "line", t.line),
                    f"table {t.id}: column {c} holds symbols, but {v!r} is none{_near(v, classes)}")


_NAME_KEYS = ("name",)
_TEXT_KEYS = ("reading", "quote", "why", "chosen", "alternative", "note", "doc", "label")


def _lint_strings(kb, err):
    def walk(x, path, line, key=None):
        if isinstance(x, dict):
            ln = getattr(x, "line", line)
            for k, v in x.items():
                kl = x.kline(k) if hasattr(x, "kline") else ln
                if k in _NAME_KEYS + _TEXT_KEYS and v is not None and not isinstance(v, str):
                    err(path, kl, f"{k} must be text, got {type(v).__name__} {_short(v)}")
                    continue
                walk(v, path, kl, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, path, getattr(x, "line", line), key)
        elif isinstance(x, str):
            limit = MAX_NAME if key in ("name", "aliases", "ja") else MAX_TEXT
            if len(x) > limit:
                err(path, line, f"{key or 'a string'} is {len(x):,} characters long (at most {limit:,})")

    for e in list(kb.rules.values()) + list(kb.rows.values()):
        walk(e.meta, e.file, e.line)
    for t in kb.tables.values():
        walk({k: v for k, v in t.meta.items() if k != "rows"}, t.file, t.line)
    for q in kb.questions.values():
        walk({k: v for k, v in q.items() if k not in ("files", "ids", "file")}, q.get("file", ""), 0)


def _short(v):
    s = repr(v)
    return s if len(s) < 40 else s[:37] + "…"


# --------------------------------------------------------------------------- issue 22: what a slip changes
def lint_more(kb, err):
    """The checks that follow a value through the KB: fact types concluded and read, table
    columns in their range, example boards that can be cast."""
    lint_fact_flow(kb, err)
    lint_table_domains(kb, err)
    lint_table_words(kb, err)
    lint_lost_lines(kb, err)
    lint_table_keys(kb, err)
    lint_part_ids(kb, err)
    lint_cited_paragraphs(kb, err)
    lint_seeds(kb, err)
    lint_question_keys(kb, err)
    lint_valence(kb, err)
    lint_reported_parts(kb, err)
    lint_column_kinds(kb, err)
    lint_lone_sha(kb, err)
    lint_variant_ids(kb, err)
    lint_boards(kb, err)


def _whens(r):
    return [r.when] + [v["when"] for v in r.variants if isinstance(v, dict) and "when" in v]


def _thens(r):
    out = [r.then] + [v["then"] for v in r.variants if isinstance(v, dict) and "then" in v]
    return [t for t in out if t is not None]


def _pattern_types(cond, macros):
    """(fact type, line) of every pattern of a condition (macros expanded to their patterns)."""
    from liuren.knowledge.conditions import walk_patterns
    try:
        atoms = list(walk_patterns(cond, macros))
    except ValueError:
        return []
    out = []
    for kind, payload, line in atoms:
        if kind == "pattern":
            out.append((payload[0], line))
        elif kind == "macro":
            for item in macros[payload[0]].get("expands") or []:
                if isinstance(item, dict):
                    out += [(t, line) for t in item]
    return out


def lint_fact_flow(kb, err):
    """A derived fact type is concluded by some rule and read by some rule (or declared under
    `facts:`, whose `text` shows it in the trace and whose `show:` lists it as findings); a type
    a rule reads that no rule concludes (and the board does not give, and no table holds) never
    matches.  A renamed `then:` type (傳局 → 傳局置) is both."""
    from liuren.knowledge.facts import BUILTIN_FACTS
    concluded, read = {}, {}
    for r in kb.rules.values():
        for then in _thens(r):
            items = then if isinstance(then, list) else [then]
            for it in items:
                if isinstance(it, dict):
                    for t in it:
                        concluded.setdefault(t, []).append((r, getattr(it, "line", 0) or r.meta.kline("then")))
        for w in _whens(r):
            for t, line in _pattern_types(w, kb.macros):
                read.setdefault(t, []).append((r, line or r.meta.kline("when")))
    static = set(BUILTIN_FACTS) | {t.fact_type for t in kb.tables.values()}
    for t, where in concluded.items():
        if t in read or t in kb.declared or t in static:
            continue
        near = _near(t, set(read) | set(kb.declared))
        for r, line in {(r.id, line): (r, line) for r, line in where}.values():
            err(r.file, line, f"rule {r.id}: then asserts {t!r}, which no rule reads and no `facts:` "
                              f"declaration shows (a renamed fact type?){near}")
    for t, where in read.items():
        if t in concluded or t in static:
            continue
        if t not in kb.declared and t not in kb.derived:
            continue                    # an unknown fact type: the loader says so
        near = _near(t, set(concluded))
        seen = set()
        for r, line in where:
            if r.id not in seen:
                seen.add(r.id)
                err(r.file, line, f"rule {r.id}: reads {t!r}, which no rule concludes (then:) and "
                                  f"neither the board nor a table gives: it never matches{near}")
    for t, decl in kb.declared.items():
        if t not in concluded and t not in read:
            err(decl["file"], getattr(decl.get("_item"), "line", 0) or decl.get("line", 0),
                f"fact type {t!r} is declared (facts:) but no rule concludes or reads it")


# Table columns whose name fixes what they hold: (low, high) for integers, or a set of values.
# A table may give its own (`domains: {column: [low, high]}` or `{column: [v1, v2, …]}`).
COLUMN_DOMAINS = {
    "月": (1, 12),          # a lunar month
    "日": (1, 30),          # a day of the lunar month
    "序": (0, 11),          # a place in a cycle of twelve, from 0
    "順": (0, 11),          # steps forward round the twelve branches
    "距": (0, 11),          # a distance round the twelve branches
    "數": (1, 9),           # the numbers of 先天數 / 本數
    "倍": (0.1, 10),        # a factor
}


def _domain_of(t, c):
    own = t.meta.get("domains")
    if isinstance(own, dict) and c in own:
        d = own[c]
        if isinstance(d, list) and len(d) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in d):
            return tuple(d)
        return set(d) if isinstance(d, list) else None
    return COLUMN_DOMAINS.get(c)


def _in_domain(v, dom):
    if isinstance(v, list):                 # a cell of several values (鍵: [1, 2]): each in the domain
        return bool(v) and all(_in_domain(x, dom) for x in v)
    if isinstance(dom, tuple):
        lo, hi = dom
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return False
        if isinstance(lo, int) and isinstance(hi, int) and not isinstance(v, int):
            return False
        return lo <= v <= hi
    return v in dom


def _dom_words(dom):
    if isinstance(dom, tuple):
        kind = "an integer" if all(isinstance(x, int) for x in dom) else "a number"
        return f"{kind} {dom[0]}–{dom[1]}"
    vals = sorted(dom, key=lambda x: (not isinstance(x, int), x if isinstance(x, int) else 0, str(x)))
    return "one of " + "、".join(map(str, vals[:16])) + ("…" if len(vals) > 16 else "")


def lint_table_words(kb, err):
    """A table's `words:` maps a column's value to what a reader sees for it (星煞分論's 將 任 → 不拘)."""
    from liuren.knowledge.facts import value_words_ok
    for t in kb.tables.values():
        words = t.meta.get("words")
        if words is not None and not value_words_ok(words, t.columns):
            err(t.file, t.meta.kline("words"), f"table {t.id}: words is {{column: {{value: its words}}}} for "
                                               f"columns of the table {t.columns}")


def lint_table_domains(kb, err):
    """Every cell of a column with a domain (by its name, or the table's `domains:`) is in it;
    every cell of a column of counts (integers, none negative elsewhere) is a count too."""
    for t in kb.tables.values():
        own = t.meta.get("domains")
        if own is not None:
            ok = isinstance(own, dict) and all(c in t.columns for c in own) and all(
                isinstance(d, list) and d for d in own.values())
            if not ok:
                err(t.file, t.meta.kline("domains"), f"table {t.id}: domains is {{column: [low, high]}} or "
                                                     f"{{column: [value, …]}} for columns of the table {t.columns}")
                continue
        for c in t.columns:
            dom = _domain_of(t, c)
            cells = [(row, x, cells[c]) for row in t.rows
                     for x, data in [(None, row.data)] + list(row.variant_data.items())
                     for cells in data if c in cells]
            nums = [v for _, _, v in cells if isinstance(v, (int, float)) and not isinstance(v, bool)]
            numeric = len(nums) > 1 and len(nums) >= 0.8 * len(cells)
            if isinstance(dom, tuple) and not numeric and not (isinstance(own, dict) and c in own):
                continue                # a column of that name holding words (月: 正月, 寅 …)
            if dom is None:
                if len(nums) == len(cells) > 1 and all(isinstance(v, int) for v in nums) and min(nums) >= 0:
                    dom = (0, 10 ** 6)            # a column of counts
                else:
                    continue
            seen = set()
            for row, variant, v in cells:
                if _in_domain(v, dom) or (row.id, v) in seen:
                    continue
                seen.add((row.id, v))
                m = row.meta
                line = m.kline(c) if hasattr(m, "kline") and c in m else row.line
                where = f" (variant {variant})" if variant else ""
                err(t.file, line, f"table {t.id}: {c} {v!r}{where} is out of the column's range "
                                  f"({_dom_words(dom) if dom != (0, 10 ** 6) else 'a count: an integer ≥ 0'})")


def _rel_path(path, root):
    try:
        return str(pathlib.Path(path).relative_to(root.parent))
    except ValueError:
        return str(path)


def _board_line(b, key=None):
    bd = b.get("board") if isinstance(b, dict) else None
    if key and hasattr(bd, "kline") and key in bd:
        return bd.kline(key)
    if hasattr(b, "kline"):
        return b.kline("board")
    return getattr(b, "line", 0)


def _offending_key(board, msg):
    """The key of a board an InputError is about: the one whose value the message quotes."""
    keys = [k for k, v in board.items() if v is not None and repr(v) in msg or (isinstance(v, str) and f"{v}" in msg and len(str(v)) > 1)]
    if len(keys) == 1:
        return keys[0]
    flags = [k for k in board if f"--{k.replace('_', '-')}" in msg]
    return flags[0] if len(flags) == 1 else (keys[0] if keys else None)


def example_boards(kb):
    """(entry, kind, example item) for every example board of every rule and named row."""
    for e in list(kb.rules.values()) + list(kb.rows.values()):
        ex = e.meta.get("examples")
        if not isinstance(ex, dict):
            continue
        for kind, items in ex.items():
            for b in items if isinstance(items, list) else []:
                if isinstance(b, dict) and isinstance(b.get("board"), dict):
                    yield e, kind, b


def lint_boards(kb, err):
    """Every example board is one the CLI would judge: it casts (liuren.casting.cast.cast with
    the board's keys and this KB's core tables), its question is a question of the KB, and its
    variants are variants of the entries they name.  A 三傳 the book prints (`chuan:`) is the
    cast's (an `unmet` example that says chuan: differs from it)."""
    import json
    from liuren.casting import tables
    from liuren.casting.cast import cast
    from liuren.errors import InputError, KBError
    tables.core.cache_clear()           # the core tables as the files now are
    variants_of = {e.id: {v["id"] for v in e.variants if isinstance(v, dict) and "id" in v}
                   for e in kb.entries.values()}
    every_variant = set().union(*variants_of.values()) if variants_of else set()
    questions = set(kb.questions) | set(kb.question_aliases)
    casts = {}
    root = str(kb.root)
    for e, kind, b in example_boards(kb):
        board = b["board"]
        what = f"{e.id}: example board ({kind})"
        q = board.get("question")
        if q is not None and q not in questions:
            err(e.file, _board_line(b, "question"), f"{what}: question {q!r} is not a question of the KB{_near(q, questions)}")
        vs = board.get("variants")
        if vs is not None:
            if not isinstance(vs, dict):
                err(e.file, _board_line(b, "variants"), f"{what}: variants is {{entry id: variant id}}")
            else:
                for k, v in vs.items():
                    if k == "*":
                        bad = v not in every_variant
                    elif k not in variants_of:
                        err(e.file, _board_line(b, "variants"), f"{what}: variants names unknown entry {k!r}"
                                                                f"{_near(k, variants_of)}")
                        continue
                    else:
                        bad = v not in variants_of[k]
                    if bad:
                        known = every_variant if k == "*" else variants_of[k]
                        err(e.file, _board_line(b, "variants"), f"{what}: {k} has no variant {v!r} "
                                                                f"(variants: {', '.join(sorted(known)) or 'none'}){_near(v, known)}")
        kw = {k: v for k, v in board.items() if k not in ("question", "variants")}
        try:
            key = json.dumps(kw, sort_keys=True, ensure_ascii=False, default=str)
        except (TypeError, ValueError):
            key = repr(sorted(kw.items(), key=repr))
        if key not in casts:
            try:
                moment = kw.pop("moment", None)
                casts[key] = cast(moment, kb=root, **kw)
            except KBError as x:
                err(x.path, x.line, f"the core tables cannot cast the example boards: {x.message}")
                return
            except (InputError, TypeError) as x:
                casts[key] = x
            except Exception as x:      # noqa: BLE001 — the caster itself fails: its tables are broken
                err(kb.root / "core", 0, f"the core tables cannot cast the example boards ({type(x).__name__}: "
                                         f"{str(x)[:80]}), the first at {_rel_path(e.file, kb.root)}:{_board_line(b)}: "
                                         "a lost or changed row of kb/core?")
                return
        got = casts[key]
        if not isinstance(got, Exception):
            late = _born_in_the_future(board)
            if late:
                err(e.file, _board_line(b, "born"), f"{what}: {late}")
                continue
        if isinstance(got, Exception):
            msg = str(got).splitlines()[0] if str(got) else type(got).__name__
            if isinstance(got, TypeError) and "unexpected keyword" in msg:
                msg = f"unknown board key ({msg.split('argument')[-1].strip()})"
            err(e.file, _board_line(b, _offending_key(board, msg)), f"{what} cannot be cast: {msg}")
            continue
        c = b.get("chuan")
        if isinstance(c, str) and len(c) == 3:
            have = "".join(got.transmissions.branches)
            if kind == "unmet" and b.get("says") == "chuan":
                if have == c:
                    err(e.file, b.kline("chuan"), f"{what}: the cast now gives the book's 三傳 {c}: move the "
                                                  "example to fires or silent")
            elif have != c:
                err(e.file, b.kline("chuan"), f"{what}: the book's 三傳 {c!r} is not the cast's {have}")


def _born_in_the_future(board):
    """A board's asker is born before its year.  The cast checks it against a year given by its
    number; a year given by its 干支 (甲寅) does not say which 甲寅, so the birth is held to the
    present: an example's asker was born by now.  The reason why not, or None."""
    import datetime
    import re
    from liuren.casting.calendar import year_ganzhi
    out = []
    for flag in ("born", "partner_born"):
        b = board.get(flag)
        m = re.match(r"\s*([0-9]{4})\b", str(b)) if b is not None else None
        if not m:
            continue
        try:
            year_no = year_ganzhi(board["year"])[0] if board.get("year") is not None else None
        except Exception:  # noqa: BLE001 — the cast names a bad year
            return None
        now = datetime.date.today().year
        if year_no is None and int(m.group(1)) > now:
            given = f"year {board['year']} (a 干支: which cycle it is, it does not say)" if board.get("year") else "no year"
            out.append(f"{flag} {b} is after this year ({now}), with {given}: an asker not yet born")
    return "; ".join(out) or None


# --------------------------------------------------------------------------- kb check --examples
def _reads(kb, r):
    """(fact types a rule reads, 判 ids it reads — None for any judgment).  A 判 whose 規 is a
    variable the same way through the conditions joins to a table column (`判: {規: $k}` with
    `dq08-ke-wen: {課: $k}`) reads only the ids that column holds."""
    from liuren.knowledge.conditions import walk_patterns
    types, judged = set(), set()
    for w in _whens(r):
        try:
            atoms = list(walk_patterns(w, kb.macros))
        except ValueError:
            continue
        for kind, payload, _line in atoms:
            if kind == "macro":
                for item in kb.macros[payload[0]].get("expands") or []:
                    if isinstance(item, dict):
                        types |= set(item)
            elif kind == "pattern":
                t, fields = payload
                types.add(t)
                if t == "判" and judged is not None:
                    ids = fields.get("規") if isinstance(fields, dict) else None
                    lits = [x for x in (ids if isinstance(ids, list) else [ids]) if isinstance(x, str) and not _is_var(x)]
                    if lits and not isinstance(ids, dict):
                        judged |= set(lits)
                    else:
                        bound = _judged_through_tables(kb, w)
                        judged = None if bound is None else judged | bound
    return types, judged


def _judged_through_tables(kb, when):
    """The ids a variable 規 of the 判 patterns of `when` can take, where on every way through
    it each such 判 is a positive pattern whose variable a table pattern of the same way binds
    (the values of that column); None when one is not so bound."""
    try:
        branches = dnf(when)
    except Exception:  # noqa: BLE001 — a malformed condition: the loader says so
        return None
    tables = {}
    for t in kb.tables.values():
        tables.setdefault(t.fact_type, []).append(t)
    out = set()
    for pats, _tests, negs in branches:
        if any("判" in str(n) for n in negs):
            if any(_negated_var_judgment(n) for n in negs):
                return None
        for t, fields in pats:
            if t != "判" or not isinstance(fields, dict):
                continue
            v = fields.get("規")
            if not (isinstance(v, str) and _is_var(v)):
                continue
            values = None
            for t2, f2 in pats:
                if t2 in tables and isinstance(f2, dict):
                    for col, x in f2.items():
                        if x == v:
                            vals = {cells.get(col) for tab in tables[t2] for row in tab.rows
                                    for data in [row.data, *row.variant_data.values()] for cells in data}
                            values = vals if values is None else values & vals
            if values is None:
                return None
            out |= {x for x in values if isinstance(x, str)}
    return out


def _negated_var_judgment(n):
    """Does a negated condition hold a 判 pattern whose 規 is not literal?"""
    if isinstance(n, dict):
        for k, v in n.items():
            if k == "判" and isinstance(v, dict):
                g = v.get("規")
                if not (isinstance(g, str) and not _is_var(g)) and not (isinstance(g, list) and all(
                        isinstance(x, str) and not _is_var(x) for x in g)):
                    return True
            elif isinstance(v, (dict, list)) and _negated_var_judgment(v):
                return True
    elif isinstance(n, list):
        return any(_negated_var_judgment(x) for x in n)
    return False


def dependency_closure(kb, ids):
    """The rules a network must hold for the rules and rows `ids` to fire as in the whole KB:
    each, the family rules that report a row, and, transitively, every rule concluding a fact
    type (or a judgment) one of them reads."""
    return dependency_graph(kb)(ids)


def dependency_graph(kb):
    """dependency_closure for many sets of ids over one KB: the producers, readers and reporters
    worked out once, and a function closure(ids) that walks them (a few ms a call)."""
    from liuren.knowledge.facts import JUDGMENT_KINDS
    producers = {}
    for r in kb.rules.values():
        for then in _thens(r):
            for it in (then if isinstance(then, list) else [then]):
                if isinstance(it, dict):
                    for t in it:
                        producers.setdefault(t, set()).add(r.id)
    reads = {r.id: _reads(kb, r) for r in kb.rules.values()}
    table_of_type = {}
    for t in kb.tables.values():
        table_of_type.setdefault(t.fact_type, []).append(t)
    reporters = {}                          # row id -> the family rules that report it
    for r in kb.rules.values():
        if r.as_var:
            for t in reads[r.id][0]:
                for tab in table_of_type.get(t, ()):
                    for row in tab.rows:
                        if row.id:
                            reporters.setdefault(row.id, set()).add(r.id)
    judges = {r.id for r in kb.rules.values() if r.kind in JUDGMENT_KINDS}
    families = sorted(r.id for r in kb.rules.values() if r.as_var)

    def closure(ids):
        todo = []
        for i in ids:
            if i in kb.rules:
                todo.append(i)
            elif i in kb.rows:
                # a row is reported by a family rule joining its table, or through a derived fact
                # that carries its id (煞.源): then by any family rule
                todo += sorted(reporters.get(i, ())) or families
        out = set()
        while todo:
            i = todo.pop()
            if i in out or i not in kb.rules:
                continue
            out.add(i)
            types, judged = reads[i]
            for t in types:
                todo += producers.get(t, ())
            if "判" in types:
                if judged is None:
                    todo += judges
                else:
                    for j in judged:
                        todo.append(j)
                        if j in kb.rows:
                            todo += sorted(reporters.get(j, ())) or families
        return out
    closure.reads = reads
    return closure


def lint_lost_lines(kb, err):
    """What a deleted line leaves behind, where the rest of the KB shows it: a table that
    keys each branch (stem, 干支, season) once but one, an anonymous row without a cell every other
    row of its table gives (a named row may leave one out on purpose), a `defeats:` without its `defeated_by:` (or the reverse)."""
    _lint_table_gaps(kb, err)
    _lint_group_gaps(kb, err)
    _lint_missing_cells(kb, err)
    _lint_defeat_pairs(kb, err)


_CLASSES = (("branch", frozenset(BRANCHES)), ("stem", frozenset(STEMS)), ("干支", frozenset(JIAZI)),
            ("season", frozenset("春夏秋冬")))


# The domains a table's `keys:` may name: a table keyed by them gives each value (each
# combination, for several columns) exactly once.  `*`: the values the table itself gives (the
# 煞 of a table of 煞 by month: every 煞 it names, for every month).
KEY_DOMAINS = {"地支": BRANCHES, "天干": STEMS, "干支": JIAZI, "四時": tuple("春夏秋冬"), "*": None}


def lint_table_keys(kb, err):
    """A table whose book gives it whole declares its keys (`keys: {支: 地支}`, or several
    columns, `keys: {煞: '*', 月: 地支}`): each value of the keys' domains — each combination —
    is the key of exactly one row (of its expanded rows, in the default reading).  A lost row,
    a row keyed twice, or a key out of the domain is named."""
    for t in kb.tables.values():
        keys = t.meta.get("keys")
        if keys is None:
            continue
        line = t.meta.kline("keys") if hasattr(t.meta, "kline") else t.line
        if not (isinstance(keys, dict) and keys and all(c in t.columns for c in keys)
                and all(isinstance(d, str) and d in KEY_DOMAINS for d in keys.values())):
            err(t.file, line, f"table {t.id}: keys is {{column: domain}} for columns of the table {t.columns}, "
                              f"a domain one of {'、'.join(KEY_DOMAINS)}")
            continue
        cols = list(keys)
        seen = {}
        for row in t.rows:
            for cells in row.data:
                if not all(c in cells for c in cols):
                    err(t.file, row.line, f"table {t.id}: a row without its key ({'、'.join(c for c in cols if c not in cells)})")
                    continue
                k = tuple(cells[c] for c in cols)
                if k in seen and seen[k] is not row:
                    err(t.file, row.line, f"table {t.id}: {_key_text(cols, k)} is the key of two rows "
                                          f"(also line {seen[k].line}): the table is keyed by {'、'.join(cols)}")
                seen.setdefault(k, row)
        domains = []
        for i, c in enumerate(cols):
            d = KEY_DOMAINS[keys[c]]
            if d is None:
                d = tuple(dict.fromkeys(k[i] for k in seen))
            else:
                for k in seen:
                    if k[i] not in d:
                        err(t.file, seen[k].line, f"table {t.id}: {c} {k[i]!r} is no {keys[c]} (keys: {c}: {keys[c]})")
            domains.append(d)
        missing = [k for k in itertools.product(*domains) if k not in seen]
        if missing:
            shown = "、".join(_key_text(cols, k) for k in missing[:6]) + ("…" if len(missing) > 6 else "")
            err(t.file, line, f"table {t.id}: no row for {shown} — the table is keyed by every "
                              f"{'、'.join(keys[c] for c in cols)} ({len(missing)} missing): a lost row?")


def _key_text(cols, k):
    return "、".join(f"{c} {v}" for c, v in zip(cols, k))


def lint_part_ids(kb, err):
    """An entry named as a part of another (「將來:初傳屬此」 is a part of 「將來」) has an id that
    extends the other's (j2c-jianglai-chuchuan of j2c-jianglai): a renamed id leaves its parts
    naming the old one."""
    names = {}
    for e in kb.entries.values():
        names.setdefault(e.name, []).append(e)
    strays = {}
    for e in kb.entries.values():
        if not isinstance(e.name, str) or ":" not in e.name:
            continue
        whole = names.get(e.name.split(":")[0], [])
        if len(whole) == 1 and not e.id.startswith(whole[0].id + "-"):
            strays.setdefault(whole[0].id, []).append(e)
    for wid, parts in strays.items():
        w = kb.entries[wid]
        line = w.meta.kline("id") if hasattr(w.meta, "kline") else w.line
        shown = "、".join(e.id for e in parts[:3]) + ("…" if len(parts) > 3 else "")
        err(w.file, line, f"{w.id}: {shown} (「{parts[0].name}」{' …' if len(parts) > 1 else ''}) "
                          f"{'are parts' if len(parts) > 1 else 'is a part'} of 「{w.name}」, but "
                          f"{'their ids do' if len(parts) > 1 else 'its id does'} not begin with {w.id}-: an id renamed?")


def _paras(meta):
    return {s.get("para") for s in (meta.get("source") or []) if isinstance(s, dict)} if isinstance(meta, dict) else set()


def lint_seeds(kb, err):
    """Every {seed, para} cited (sources, verses, examples' sources) names a seed listed in
    kb/core/books.yaml, and a ¶ that seed has (books.yaml gives each seed's number of paragraphs)."""
    def check(d, file, line):
        seed, para = d.get("seed"), d.get("para")
        line = getattr(d, "line", None) or line
        if not kb.books:
            return
        if not isinstance(seed, str) or seed not in kb.books:
            near = difflib.get_close_matches(str(seed), [k for k in kb.books if isinstance(k, str)], n=1)
            err(file, line, f"source: seed {seed!r} is not a seed of kb/core/books.yaml"
                            + (f" (did you mean {near[0]}?)" if near else ""))
            return
        n = kb.books[seed].get("paras")
        if isinstance(para, int) and not isinstance(para, bool) and isinstance(n, int) and not 0 <= para < n:
            err(file, line, f"source: ¶{para} of {seed}: that seed has ¶0 … ¶{n - 1}")

    def walk(x, file, line):
        if isinstance(x, dict):
            line = getattr(x, "line", None) or line
            if "seed" in x and "para" in x:
                check(x, file, line)
            for v in x.values():
                walk(v, file, line)
        elif isinstance(x, list):
            for v in x:
                walk(v, file, getattr(v, "line", None) or line)

    for r in kb.rules.values():
        walk(r.meta, r.file, r.line)
        walk(r.variants, r.file, r.line)
    for t in kb.tables.values():
        walk({k: v for k, v in t.meta.items()}, t.file, t.line)
        for row in t.rows:
            walk(row.meta, t.file, row.line)
    for v in getattr(kb, "verses", {}).values():
        walk(v, getattr(v, "file", "kb/core/casting.yaml"), getattr(v, "line", 0))


def lint_cited_paragraphs(kb, err):
    """A value that cites a paragraph (a finding's 出: 卷中¶318, a cell 「¶845」) cites one its
    entry gives as a source: the finding rests on the paragraphs its rule quotes."""
    cite = re.compile(r"¶(\d+)")
    for r in kb.rules.values():
        paras = _paras(r.meta)
        for part in [r.meta] + [v for v in r.variants if isinstance(v, dict)]:
            for t, fields in then_facts(part.get("then")):
                for f, v in fields.items():
                    for n in cite.findall(v) if isinstance(v, str) else ():
                        if int(n) not in paras:
                            line = part.kline("then") if hasattr(part, "kline") else r.line
                            err(r.file, line, f"rule {r.id}: then {t}.{f} {v!r} cites ¶{n}, which its source: does "
                                              f"not give (¶{'、¶'.join(str(p) for p in sorted(x for x in paras if isinstance(x, int)))})")
    for t in kb.tables.values():
        tparas = _paras(t.meta)
        for row in t.rows:
            paras = tparas | _paras(row.meta)
            for cells in row.data:
                for c, v in cells.items():
                    for n in cite.findall(v) if isinstance(v, str) else ():
                        if int(n) not in paras:
                            err(t.file, row.line, f"table {t.id}: {c} {v!r} cites ¶{n}, which the table's and the "
                                                  f"row's source: do not give")


def _lint_table_gaps(kb, err):
    for t in kb.tables.values():
        if t.meta.get("extends") or any(x.meta.get("extends") == t.id for x in kb.tables.values()):
            continue                    # a table spread over several: its parts are not whole
        for c in t.columns:
            count = {}
            for row in t.rows:
                for cells in row.data:
                    if c in cells:
                        v = cells[c]
                        count[v] = count.get(v, 0) + 1
            if not count:
                continue
            for name, cls in _CLASSES:
                if not set(count) <= cls or len(cls) - len(count) != 1 or len(set(count.values())) != 1:
                    continue
                missing, = cls - set(count)
                err(t.file, t.meta.kline("rows") if hasattr(t.meta, "kline") else t.line,
                    f"table {t.id}: column {c} gives every {name} {next(iter(set(count.values())))} time(s) "
                    f"but {missing}: a lost row?")


def _lint_group_gaps(kb, err):
    """Rows grouped by one column (each 煞 of a table of 煞 by month): where some group keys every
    branch (stem, season) and another all but one, the other lost a row."""
    for t in kb.tables.values():
        if t.kind == "類相":
            continue                    # the images are what the books give, some branches none
        for g in t.columns:
            for c in t.columns:
                if c == g:
                    continue
                groups, gapped = {}, set()
                for row in t.rows:
                    for cells in row.data:
                        if g in cells and not isinstance(cells[g], (list, dict)):
                            if c in cells:
                                groups.setdefault(cells[g], {}).setdefault(cells[c], row)
                            else:
                                gapped.add(cells[g])        # a row that leaves it out on purpose
                if len(groups) < 2:
                    continue
                for name, cls in _CLASSES:
                    if not all(set(v) <= cls for v in groups.values()):
                        continue
                    full = [k for k, v in groups.items() if len(v) == len(cls)]
                    short = [k for k, v in groups.items() if len(cls) - len(v) == 1 and k not in gapped]
                    if len(short) != 1 or len(full) != len(groups) - 1:
                        continue
                    for k, v in groups.items():
                        if k in short:
                            missing, = cls - set(v)
                            row = next(iter(v.values()))
                            err(t.file, row.line, f"table {t.id}: {g} {k} gives {c} for every {name} but {missing} "
                                                  f"(as {full[0]} gives all): a lost row?")


def _lint_missing_cells(kb, err):
    for t in kb.tables.values():
        rows = [r for r in t.rows if r.data]
        if len(rows) < 3:
            continue
        for c in t.columns:
            lacking = [r for r in rows if any(c not in cells for cells in r.data)]
            if len(lacking) == 1 and not lacking[0].id and not lacking[0].meta.get("each"):
                r = lacking[0]
                err(t.file, r.line, f"table {t.id}: this row gives no {c}, which every other row of the "
                                    f"table gives: a lost cell?")


def _lint_defeat_pairs(kb, err):
    ents = kb.entries
    for e in ents.values():
        for key, back in (("defeats", "defeated_by"), ("defeated_by", "defeats")):
            for target in e.meta.get(key) or []:
                other = ents.get(target)
                if other is not None and e.id not in (other.meta.get(back) or []):
                    line = e.meta.kline(key) if hasattr(e.meta, "kline") else e.line
                    err(e.file, line, f"{e.id}: {key} {target}, whose {back} does not name {e.id} "
                                      f"(declare both sides, or neither)")


def lint_question_keys(kb, err):
    """A rule's `question: Q` says it speaks only under Q: its conditions ask Q (a `問` pattern
    every way through them) — a deleted `- 問: {問: Q}` line makes it speak on every board.  In a
    file whose rules that ask Q all say so (question: Q), one that does not lost it."""
    from liuren.knowledge.conditions import gating_questions
    per_file = {}
    for r in kb.rules.values():
        q = r.meta.get("question")
        try:
            gate = gating_questions(r.when)
        except Exception:  # noqa: BLE001 — a malformed condition: the loader says so
            continue
        if q and (gate is None or q not in gate):
            err(r.file, r.meta.kline("question"), f"rule {r.id}: question {q} — but its conditions do not ask it "
                                                  f"(no `問: {{問: {q}}}` on every way through them): a lost line?")
        if gate is not None and len(gate) == 1 and r.kind != "起例":
            per_file.setdefault((r.file, next(iter(gate))), []).append((r, q))
    for f, rules in per_file.items():
        without = [r for r, q in rules if not q]
        if len(without) == 1 and len(rules) >= 3:
            r = without[0]
            err(r.file, r.line, f"rule {r.id}: asks {next(iter(gating_questions(r.when)))} in its conditions but "
                                f"gives no question: (every other rule of this file that asks it does): a lost line?")


def lint_valence(kb, err):
    """A judgment says whether it is good or bad: a rule of a judgment kind (unless it reports
    table rows, `as:`, or gives findings, a `then:` fact declared with `show:`) and a row of a
    table whose rows are reported (unless the table gives one for all) have a valence."""
    from liuren.knowledge.facts import JUDGMENT_KINDS
    for r in kb.rules.values():
        if r.kind not in JUDGMENT_KINDS or "valence" in r.meta or r.as_var or r.meta.get("effect"):
            continue
        if any(kb.declared.get(t, {}).get("show") for th in _thens(r) for t, _ in then_facts(th)):
            continue
        err(r.file, r.line, f"rule {r.id}: no valence (吉 凶 平 吉凶兩見 視所乘): a lost line?")
    for t in kb.tables.values():
        if not t.meta.get("reported") or "valence" in t.meta:
            continue
        for row in t.rows:
            if row.id and "valence" not in row.meta:
                err(t.file, row.line, f"row {row.id}: no valence (吉 凶 平 吉凶兩見 視所乘): a lost line?")


def lint_reported_parts(kb, err):
    """A table that adds rows to a table whose rows are reported as judgments (`extends`) reports
    its rows too (`reported: <kind>`): without it they would be reported without being checked."""
    for t in kb.tables.values():
        base = kb.tables.get(t.meta.get("extends") or "")
        if base is not None and base.meta.get("reported") and not t.meta.get("reported"):
            err(t.file, t.line, f"table {t.id}: extends {base.id}, whose rows are reported as "
                                f"{base.meta['reported']}, but gives no reported: (a lost line?)")
# a column whose header names a kind of symbol holds only symbols of that kind
COLUMN_KINDS = {"支": ("a branch 子…亥", _BR), "干": ("a stem 甲…癸", _ST), "干支": ("one of the sixty 干支", set(JIAZI))}


def _cell_line(meta, c, v, default):
    """The line of the mapping under meta (a row, its `each:` items, its variants) whose cell c
    holds v."""
    stack = [meta]
    while stack:
        m = stack.pop()
        if isinstance(m, dict):
            x = m.get(c)
            if x == v or (isinstance(x, list) and v in x):
                return m.kline(c) if hasattr(m, "kline") else getattr(m, "line", default)
            stack.extend(y for k, y in m.items() if isinstance(y, (dict, list)) and k not in ("examples", "source"))
        elif isinstance(m, list):
            stack.extend(y for y in m if isinstance(y, (dict, list)))
    return default


def _row_cells(row):
    """(variant or None, cells) of a row: its default reading and each variant's."""
    for x, data in [(None, row.data)] + list(row.variant_data.items()):
        for cells in data:
            yield x, cells


def lint_column_kinds(kb, err):
    """A column named 支, 干 or 干支 holds branches, stems or 干支 (a list of them too) in every
    reading, its variants' included: a value the engine can never match is a slip (牛 for 午)."""
    seen = set()
    for t in kb.tables.values():
        for c, (words, dom) in COLUMN_KINDS.items():
            if c not in t.columns:
                continue
            own = t.meta.get("domains")
            if isinstance(own, dict) and c in own:
                continue                    # the table says what the column holds
            for row in t.rows:
                for variant, cells in _row_cells(row):
                    if c not in cells:
                        continue
                    for v in cells[c] if isinstance(cells[c], list) else [cells[c]]:
                        if (isinstance(v, str) and v in dom) or (t.id, row.id, variant, str(v)) in seen:
                            continue
                        seen.add((t.id, row.id, variant, str(v)))
                        where = f" (variant {variant})" if variant else ""
                        err(t.file, _cell_line(row.meta, c, v, row.line),
                            f"table {t.id}: {c} {v!r}{where} is not {words}{_near(v, dom)}")


def lint_lone_sha(kb, err):
    """A 煞 a table row raises is named somewhere else: it is the row's own name (or an alias, a
    label) or another entry's, another row gives it too, or a rule reads it.  A 煞 that only its
    own row mentions, under another name than the row's, is a slip in the 煞 cell (生車 for 天車)."""
    def strings(x, out):
        if isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            for k, y in x.items():
                strings(k, out)
                strings(y, out)
        elif isinstance(x, (list, tuple)):
            for y in x:
                strings(y, out)
        return out
    read = set()
    for r in kb.rules.values():
        strings([r.when, r.then] + [{k: v.get(k) for k in ("when", "then")} for v in r.variants if isinstance(v, dict)],
                read)
    names = _entry_names(kb)
    rows_of = {}
    for t in kb.tables.values():
        for row in t.rows:
            for _x, cells in _row_cells(row):
                for v in cells.values():
                    for y in v if isinstance(v, list) else [v]:
                        if isinstance(y, str):
                            rows_of.setdefault(y, set()).add(row.id or id(row))
    seen = set()
    for t in kb.tables.values():
        # a table no rule of this KB reads (a partial KB: kb/core alone) has nothing to read its 煞
        if "煞" not in t.columns or t.fact_type not in read:
            continue
        for row in t.rows:
            for variant, cells in _row_cells(row):
                v = cells.get("煞")
                mine = {row.meta.get("name")} | set(row.meta.get("aliases") or []) \
                    | set((row.meta.get("labels") or {}).values() if isinstance(row.meta.get("labels"), dict) else ())
                if not isinstance(v, str) or v in mine or v in read or v in names or len(rows_of.get(v, ())) > 1 \
                        or v in seen:
                    continue
                seen.add(v)
                own = row.meta.get("name") or ""
                err(t.file, _cell_line(row.meta, "煞", v, row.line),
                    f"table {t.id}: 煞 {v!r} is named nowhere else (not the row's name {own!r}, no other row "
                    f"gives it, no rule reads it): a slip?")


def lint_variant_ids(kb, err):
    """Variants under one label share one id across the KB (底本 is diben everywhere): a
    variant is chosen by its id, for one entry or for all at once (`*=diben`), so a variant whose
    label is another id's, under an id of its own, is left out of that choice (a renamed id)."""
    by_label = {}
    for e in kb.entries.values():
        for v in e.variants:
            if isinstance(v, dict) and isinstance(v.get("label"), str) and isinstance(v.get("id"), str):
                by_label.setdefault(v["label"], {}).setdefault(v["id"], []).append((e, v))
    for label, ids in by_label.items():
        if len(ids) < 2:
            continue
        common = max(ids, key=lambda i: len(ids[i]))
        if len(ids[common]) < 2:
            continue
        for vid, uses in ids.items():
            if vid == common or len(uses) > 1:
                continue
            e, v = uses[0]
            err(e.file, v.kline("id") if hasattr(v, "kline") else getattr(v, "line", e.line),
                f"{e.id}: variant {vid!r} is labelled {label}, which is the variant {common!r} of "
                f"{len(ids[common])} other entries (did you mean {common}?)")


# ---- notes that declare missing what the KB has
MISSING = re.compile(r"本庫未立|本庫無|未立|待他卷|無定義|無表|未收|未編")
_CLAUSE_END = re.compile(r"[，。；;,（）()：:]")
# notes in files another change rewrites (issue 21: kb/daquan/juan12*): known, fixed there
PENDING = set()


def _entry_names(kb):
    """name -> ids: every name, alias and label of a rule, table or named row, with its base
    form (without 「（…）」 and without the 「:…」 of a sub-condition)."""
    out = {}

    def add(n, i):
        if not isinstance(n, str):
            return
        forms = {n, re.sub(r"（[^）]*）", "", n), n.split("（")[0], n.split(":")[0]}
        for f in forms:
            f = f.strip()
            if len(f) >= 2:
                out.setdefault(f, set()).add(i)

    for e in kb.entries.values():
        for n in [e.name] + e.aliases + list((e.meta.get("labels") or {}).values()):
            add(n, e.id)
    for t in kb.tables.values():
        add(t.name, t.id)
        for n in t.meta.get("aliases") or []:
            add(n, t.id)
    return out


def _notes(meta):
    """(key, text) of the notes of an entry: its interpretation, note and reading, and those of
    its variants."""
    interp = meta.get("interpretation")
    for it in (interp if isinstance(interp, list) else [interp]):
        if isinstance(it, dict):
            for k in ("chosen", "alternative"):
                if isinstance(it.get(k), str):
                    yield f"interpretation.{k}", it[k]
    for k in ("note", "reading"):
        if isinstance(meta.get(k), str):
            yield k, meta[k]
    for v in meta.get("variants") or []:
        if isinstance(v, dict) and isinstance(v.get("reading"), str):
            yield "variants.reading", v["reading"]


def stale_missing_notes(kb):
    """(entry, key, clause, {name: ids}) for each note that says a thing named in the KB is
    missing.  The clause is the text from the last 「，。；（」 before the word that says missing."""
    names = _entry_names(kb)
    by_len = sorted(names, key=len, reverse=True)
    items = [(e.id, e.meta, e.file, e.line) for e in kb.entries.values()]
    items += [(t.id, t.meta, t.file, t.line) for t in kb.tables.values()]
    out = []
    for eid, meta, path, line in items:
        own = {eid}
        if eid in kb.tables:
            own |= {r.id for r in kb.tables[eid].rows if r.id}
        if eid in kb.rows:
            own.add(kb.rows[eid].table)
        for key, text in _notes(meta):
            for m in MISSING.finditer(text):
                start = max((x.end() for x in _CLAUSE_END.finditer(text, 0, m.start())), default=0)
                clause = text[start:m.start()]
                hit, rest = {}, clause
                for n in by_len:
                    if n in rest and not (names[n] & own):
                        hit[n] = sorted(names[n])
                        rest = rest.replace(n, "＿")
                if hit:
                    out.append((eid, path, line, key, text[start:m.end()], hit))
    return out


def _lint_missing_notes(kb, err):
    for eid, path, line, key, clause, hit in stale_missing_notes(kb):
        if eid in PENDING:
            continue
        found = "；".join(f"{n}（{'、'.join(ids[:3])}{'…' if len(ids) > 3 else ''}）" for n, ids in hit.items())
        err(path, line, f"{eid}: {key} says 「{clause}」, but the KB has {found}: "
                        f"use them, or say what this rule leaves out and why")


# ---- two tables with the same rows
def _row_key(facts):
    """The rows as a set of value tuples, without the cells every row shares (a named row of a
    神煞 table carries its 煞 and 據 on each fact) and without column names (a copy may rename
    them); None when too small to tell a copy from a coincidence."""
    facts = [{k: v for k, v in f.items() if k != "id"} for f in facts]
    if len(facts) < 4:
        return None
    cols = {k for f in facts for k in f}
    varying = sorted(k for k in cols if len({str(f.get(k)) for f in facts}) > 1)
    if len(varying) < 2:
        return None
    key = frozenset(tuple(sorted(str(f.get(k)) for k in varying)) for f in facts)
    return key if len(key) >= 4 else None


def _base_names(names):
    out = set()
    for n in names:
        if isinstance(n, str):
            b = re.sub(r"（[^）]*）", "", n).strip()
            if len(b) >= 2:
                out.add(b)
    return out


def duplicate_tables(kb):
    """Groups of tables that hold the same named thing twice: a table, a named row of a table,
    or the rows of one 煞 of a table with a 煞 column, by the same name (without 「（…）」) and
    the same rows.  [[(id, file), …], …].  A term is defined once: a second copy drifts (a
    variant of one does not reach the other)."""
    groups = {}
    for t in kb.tables.values():
        units = []
        if not t.meta.get("extends"):
            facts = t.facts()
            units.append((t.id, _base_names([t.name] + list(t.meta.get("aliases") or [])), facts))
            if "煞" in t.columns:
                for sha in {f.get("煞") for f in facts}:
                    units.append((t.id, _base_names([sha]), [f for f in facts if f.get("煞") == sha]))
        for r in t.rows:
            if r.id:
                units.append((r.id, _base_names([r.name] + r.aliases), [dict(c) for c in r.data]))
        for uid, names, facts in units:
            key = _row_key(facts)
            if key is None:
                continue
            for n in names:
                groups.setdefault((n, key), {}).setdefault(t.id, (uid, t.file))
    # a table or row that says `restates: [id]` is another book's statement of the same rows,
    # kept beside it on purpose: such a group is declared (every member linked to another)
    link = {}
    for x in list(kb.tables.values()) + list(kb.rows.values()):
        for y in x.meta.get("restates") or []:
            link.setdefault(x.id, set()).add(y)
            link.setdefault(y, set()).add(x.id)

    def declared(ids):
        ids = [i for i, _ in ids]
        reach, todo = {ids[0]}, [ids[0]]
        while todo:
            for y in link.get(todo.pop(), ()):
                if y in ids and y not in reach:
                    reach.add(y)
                    todo.append(y)
        return len(reach) == len(ids)
    seen, out = set(), []
    for g in groups.values():
        ids = tuple(sorted(g.values()))
        if len(g) > 1 and ids not in seen and not declared(ids):
            seen.add(ids)
            out.append(list(ids))
    return out
