"""The checks of `liuren kb check` that read a rule's meaning, not only its shape.

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
import re

from .facts import PLATE_OF_POSITION
from .symbols import BRANCHES, JIAZI, POSITIONS_OF_GENERALS, STEMS

MAX_NAME = 100          # characters in a name, alias or label
MAX_TEXT = 4000         # characters in any other string (a quote of a whole ¶ fits)

GATES = ("賊克", "比用", "涉害", "遙克", "昴星", "別責", "八專", "伏吟", "返吟")
SUBTYPES = ("元首", "重審", "知一", "涉害", "見機", "察微", "復等", "蒿矢", "彈射", "虎視", "冬蛇掩目",
            "別責", "八專", "獨足", "自任", "自信", "杜傳", "井欄射")

_BR, _ST, _GEN = set(BRANCHES), set(STEMS), set(POSITIONS_OF_GENERALS)
_XUN = {JIAZI[i] for i in range(0, 60, 10)}
SYMBOLS = {"branch": _BR, "stem": _ST, "general": _GEN, "position": set(PLATE_OF_POSITION),
           "干支": set(JIAZI), "element": set("木火土金水")}


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
        from .compile import dnf, expand_macros
        from .kbload import then_facts
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
    from .kbload import then_facts
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
    from .compile import dnf
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


# ---- notes that declare missing what the KB has
MISSING = re.compile(r"本庫未立|本庫無|未立|待他卷|無定義|無表|未收|未編")
_CLAUSE_END = re.compile(r"[，。；;,（）()：:]")
# notes in files another change rewrites (issue 21: kb/daquan/juan12*): known, fixed there
PENDING = {"dq12-fa099"}


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
    seen, out = set(), []
    for g in groups.values():
        ids = tuple(sorted(g.values()))
        if len(g) > 1 and ids not in seen:
            seen.add(ids)
            out.append(list(ids))
    return out
