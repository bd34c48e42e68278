"""WHY-NOT: for a rule that did not fire on a board, each of its conditions, held or failed,
with the board facts that come nearest.

The facts are those of the trace graph (the board's facts and everything derived: its fact
nodes, which Judgment.chain_graph keeps as the whole graph has them), plus the KB's table rows
(data, as the trace names the KB it was judged with).  The conditions are matched against them
by a small backtracking search that keeps the assignment satisfying the most conditions;
nothing is fired and the engine is not run again.
"""
from __future__ import annotations

# the words of values and of other rules named in a condition are the rule page's (explain.conditions)
from liuren.explain.conditions import (CALC_WORDS, _Missing, _flat_cond as _flat, _fmt_value,  # noqa: F401
                                       reporting_rule, rule_names)
from liuren.knowledge.conditions import expand_macros
from liuren.rules.compile import TEST_FUNCS
from liuren.rules.judging import _sources
from liuren.knowledge.kbload import VAR_RE, load_kb

BUDGET = 50000


def _is_var(x):
    return isinstance(x, str) and VAR_RE.match(x) is not None


class FactBase:
    def __init__(self, g, kb):
        self.by_type = {}
        for n, d in g.nodes(data=True):
            if d.get("kind") == "fact" and d.get("origin") != "table":
                f = dict(d["fields"])
                self.by_type.setdefault(f["t"], []).append((f, d.get("text", "")))
        self.kb = kb
        self.variants = g.graph.get("variants") or {}
        self._tables = {}
        self.derived_types = {t for t in self.by_type if t not in kb.tables}

    def _row_text(self, tab, f):
        from liuren.explain.factwords import row_words
        row = self.kb.rows.get(f.get("id"))
        tpl = tab.meta.get("text")
        if tpl:
            try:
                return tpl.format(**f)
            except (KeyError, IndexError, ValueError):
                pass
        cells = {k: v for k, v in f.items() if k != "id"}
        if row is not None:                # a named row: its name, then its cells (not the table's name again)
            return f"「{row.name}」：" + "，".join(f"{k}為{v}" for k, v in cells.items())
        return row_words(self.kb, {"t": tab.fact_type, **cells})

    def facts(self, t):
        if t in self.by_type:
            return self.by_type[t]
        if t in self._tables:
            return self._tables[t]
        out = []
        for tab in self.kb.tables.values():
            if tab.fact_type == t:
                for f in tab.facts(self.variants):
                    out.append(({"t": t, **f}, self._row_text(tab, f)))
        self._tables[t] = out
        return out


def _match_fields(fields, fact, b):
    """Extend bindings b so that fact satisfies fields, or None."""
    b2 = dict(b)
    for k, want in fields.items():
        if k not in fact:
            return None
        v = fact[k]
        if _is_var(want):
            if want in b2 and b2[want] != v:
                return None
            b2[want] = v
        elif isinstance(want, list):
            if v not in want:
                return None
        elif isinstance(want, dict):
            inner = want["not"]
            if _is_var(inner):
                if inner in b2 and b2[inner] == v:
                    return None
            elif isinstance(inner, list):
                if v in inner:
                    return None
            elif v == inner:
                return None
        elif v != want:
            return None
    return b2


def solutions(cond, b, fb, budget):
    """All extensions of bindings b satisfying cond (a list of them), within budget."""
    if budget[0] <= 0:
        return []
    budget[0] -= 1
    if isinstance(cond, list):
        out = [b]
        for c in cond:
            out = [x for s in out for x in solutions(c, s, fb, budget)]
            if not out:
                break
        return out
    keys = [k for k in cond if k != "macro"]
    k = keys[0]
    v = cond[k]
    if k == "all":
        return solutions(v, b, fb, budget)
    if k == "any":
        return [x for c in v for x in solutions(c, b, fb, budget)]
    if k == "not":
        return [] if solutions(v, b, fb, budget) else [b]
    if k == "test":
        (op, (x, y)), = v.items()
        vx = b.get(x, None) if _is_var(x) else x
        vy = b.get(y, None) if _is_var(y) else y
        if (_is_var(x) and x not in b) or (_is_var(y) and y not in b):
            return []
        try:
            return [b] if TEST_FUNCS[op](vx, vy) else []
        except TypeError:
            return []
    out = []
    for fact, _ in fb.facts(k):
        b2 = _match_fields(v, fact, b)
        if b2 is not None:
            out.append(b2)
    return out


def anchors(items, fb):
    """The variables a rule reads at a named place of the board (初傳, 干上 …), bound to the branch
    the board puts there: a condition that fails is then said of the board's own value (「初傳亥旺或相」
    ✗), never of a branch found elsewhere to satisfy other items.  Only items every route through
    the rule takes count (not those inside any: or not:)."""
    at = {}
    for item in items:
        for c in ([item] if "all" not in item else [x for x in item["all"] if isinstance(x, dict)]):
            k = next((x for x in c if x != "macro"), None)
            if k in (None, "all", "any", "not", "test") or not isinstance(c.get(k), dict):
                continue
            place, branch = c[k].get("位"), c[k].get("支")
            if isinstance(place, str) and not _is_var(place) and _is_var(branch):
                at.setdefault(branch, set()).add(place)
    board = {f.get("位"): f.get("支") for f, _ in fb.facts("位")}
    return {v: board[ps.pop()] for v, ps in at.items() if len(ps) == 1 and board.get(next(iter(ps)))}


def best_assignment(items, fb, pre):
    """The bindings satisfying the most top-level items (and which ones), by backtracking."""
    budget = [BUDGET]
    best = {"held": set(), "b": dict(pre)}

    def rec(remaining, b, held):
        if len(held) + len(remaining) <= len(best["held"]) or budget[0] <= 0:
            return
        if not remaining:
            best["held"], best["b"] = set(held), dict(b)
            return
        # the most constrained item next: fewest solutions under the current bindings
        scored = []
        for i in remaining:
            sols = solutions(items[i], b, fb, budget)
            scored.append((len(sols) if sols else 10 ** 9, i, sols))
        scored.sort()
        _, i, sols = scored[0]
        rest = [j for j in remaining if j != i]
        for s in sols[:50]:
            rec(rest, s, held | {i})
        rec(rest, b, held)           # or leave this one failed
        if len(held) > len(best["held"]):
            best["held"], best["b"] = set(held), dict(b)

    rec(list(range(len(items))), dict(pre), set())
    return best["held"], best["b"]


# a test between two values, in words (never the engine's operator)
def nearest(cond, b, fb, n=3):
    """Facts of the condition's type that agree with most of its constraints."""
    if isinstance(cond, list) or "macro" in cond:
        parts = cond if isinstance(cond, list) else cond["all"]
        out = []
        for c in parts:
            if not solutions(c, b, fb, [BUDGET]):
                out += nearest(c, b, fb, n)
        return out[:n]
    k = next(x for x in cond if x != "macro")
    v = cond[k]
    if k in ("all", "any"):
        out = []
        for c in v:
            out += nearest(c, b, fb, n)
        return out[:n]
    if k == "not":
        return [t or _plain_text(f) for f, t in _witnesses(v, b, fb)][:n]
    if k == "test":
        return []
    scored = []
    # the condition's anchors: the place it names, the values the board gives its variables; the
    # nearest facts are those at these anchors, and only those (三光's 初傳, never 干上 beside it)
    anchor = {f: (b[x] if _is_var(x) else x) for f, x in v.items()
              if (f == "位" and isinstance(x, str) and not _is_var(x)) or (_is_var(x) and x in b and f != "id")}
    facts = [(fact, text) for fact, text in fb.facts(k) if all(fact.get(f) == want for f, want in anchor.items())]
    if not facts and "位" in anchor:       # nothing there with these values: the place alone
        facts = [(fact, text) for fact, text in fb.facts(k) if fact.get("位") == anchor["位"]]
    elif not facts:                 # none with these values: what the board has of this kind (its 旬空 戌 亥)
        facts = list(fb.facts(k))
    for fact, text in facts:
        score = sum(1 for f, want in v.items() if _match_fields({f: want}, fact, b) is not None)
        scored.append((-score, text or _plain_text(fact)))
    scored.sort()
    return list(dict.fromkeys(t for _, t in scored))[:n]


def _witnesses(cond, b, fb):
    """For a `not`: the facts that make it fail."""
    if isinstance(cond, dict) and len([k for k in cond if k != "macro"]) == 1:
        k = next(x for x in cond if x != "macro")
        if k not in ("all", "any", "not", "test"):
            return [(f, t) for f, t in fb.facts(k) if _match_fields(cond[k], f, b) is not None]
    return []


def _plain_text(f):
    return "，".join(f"{k}為{v}" for k, v in f.items() if k not in ("t", "id"))


def why_not(g, key, kb=None):
    """{rule, name, fired: false, conditions: [{text, held, facts}]} for an entry that did not fire."""
    kb = kb or load_kb(g.graph.get("kb") or None)
    entry = kb.entries.get(key)
    rule, pre = reporting_rule(kb, key)
    if rule is None:
        return {"rule": key, "name": entry.name if entry else key, "fired": False, "conditions": [],
                "note": "此條為表中資料，無規則據之論斷，故無所謂成立與否"}
    variants = g.graph.get("variants") or {}
    when = rule.when
    choice = variants.get(rule.id) or variants.get("*")
    for v in rule.variants:
        if v["id"] == choice and "when" in v:
            when = v["when"]
    import itertools
    items = expand_macros(when if isinstance(when, list) else [when], kb.macros, itertools.count())
    fb = FactBase(g, kb)
    held, b = best_assignment(items, fb, {**anchors(items, fb), **pre})
    # what the rule reads and needs, said with the board's own values (explain.reads; the condition
    # model will take its place)
    from liuren.explain import reads as RD
    from liuren.explain.words import display_name
    variant_when = any(v.get("when") for v in rule.variants if v["id"] == (variants.get(rule.id) or variants.get("*")))
    board_facts = [f for t, lst in fb.by_type.items() for f, _ in lst]
    judged = [f.get("規") for f, _ in fb.by_type.get("判", [])]
    board_lines = None
    if not variant_when:                # the model reads each entry's default reading
        board_lines = {lg: RD.model_lines(kb, key, board_facts, judged, display_name(entry or rule, lg), lg)
                       for lg in ("zh", "ja")}
        if board_lines["zh"] is None:
            board_lines = None
    if board_lines is None:
        board_lines = {lg: RD.entry_lines(kb, entry or rule, rule, pre, fb, variants, lg) for lg in ("zh", "ja")}
    from liuren.explain.words import condition_words
    board_lines["ja"] = [dict(x, text=condition_words(x["text"], "ja")) for x in board_lines["ja"]]
    if any(x["field"] in ("門", "體") for x in board_lines["zh"]):
        # the gate read: how this board came to its gate (元首課 on a board of two 下賊上 …), step by step
        from liuren.explain.steps import step_text
        casts = sorted((d for _, d in g.nodes(data=True) if d.get("kind") == "cast"), key=lambda d: d.get("order", 0))
        why = [d for d in casts if not str(d.get("key", "")).startswith(("plate", "lessons", "chuanfa"))]
        for lg in board_lines:
            if why:
                head = {"zh": "此盤之發用：", "ja": "この盤の発用："}[lg]
                board_lines[lg] = board_lines[lg] + [{"text": head + "；".join(step_text(d, lg) for d in why),
                                                      "field": "由", "has": None, "need": [], "texts": None}]
    fixed = RD.row_bindings(kb, rule, key) if key != rule.id else {}
    pats = list(RD._patterns(items))
    row = kb.rows.get(key)
    if row is not None and row.data and rule.as_var:
        for k, fields in pats:                 # a pattern read through the row's id (見 {源: $r, 煞: $s})
            if fields.get("源") == rule.as_var:
                for f, x in fields.items():
                    vals = {c.get(f) for c in row.data}
                    if _is_var(x) and x not in fixed and len(vals) == 1 and None not in vals:
                        fixed[x] = vals.pop()
    # a failed condition is said with the board's values and the entry's needs only: never a value
    # some other fact supplied to satisfy the rest (三傳 卯戊戊 on a board whose 三傳 is 亥酉未)
    said = {**RD.board_values(pats, fb, RD.place_anchors(pats, fixed)), **fixed}
    if fixed:
        for x, vals in RD.needs_of(pats, kb, fixed, variants).items():
            if x not in fixed and len(vals) > 1 and _own_var(items, rule, x):
                said[x] = "或".join(sorted(vals))
    from liuren.explain import conditions as CW
    i_not = {}                                      # the n-th negated item of the condition: the model's n-th negation
    for i, item in enumerate(items):
        if isinstance(item, dict) and next((x for x in item if x != "macro"), None) == "not":
            i_not[i] = len(i_not)
    conds = []
    for i, item in enumerate(items):
        ok = i in held
        if ok:
            sols = solutions(item, b, fb, [BUDGET])
            facts = _matched_texts(item, b, fb) if sols else []
        else:
            facts = nearest(item, said, fb)
        own_row = bool(fixed) and _is_own_row(item, rule)
        if own_row and not ok:
            facts = []              # the board lines above say what the board has where the row reads
        # the entry's own row says what the entry needs (its cells), never the board's values put in them
        # each condition in the model's words (explain.conditions): a value the board has is said as it,
        # one it lacks by the name the rule page gives it (日干之合所寄), a negation from its own requirement
        text = _own_row_text(kb, key, item, said) if own_row else CW.item_text(
            kb, key, item, {**said, **b} if ok else said, i_not.get(i), fill=_held_fact(item, b, fb) if ok else None)
        gone = lacks(item, said, fb, kb) if not ok and not facts else None
        conds.append({"text": text, "held": ok, "facts": facts, **({"own_row": True} if own_row else {}),
                      **({"lacks": gone} if gone else {})})
    q = rule.meta.get("question")
    note = None
    if q and g.graph.get("question") != q:
        note = f"這條規則只在問「{q}」時適用（--question {q}）"
    elif len(held) == len(items):
        note = "諸條件本盤皆具：或已成立（見 liuren why 之成立鏈），或其所屬之占本盤未問"
    return {"rule": key, "name": entry.name if entry else key, "fired": False, "family": rule.id if rule.id != key else None,
            "board": [dict(x, texts={lg: board_lines[lg][i]["text"] for lg in board_lines})
                      for i, x in enumerate(board_lines["zh"])],
            "conditions": conds, "bindings": {k.lstrip("$"): v for k, v in b.items() if "~" not in k},
            "sources": [{**{k: s[k] for k in ("seed", "para", "quote") if s.get(k) is not None},
                         "book": s["book"], "volume": s["volume"]} for s in _sources(kb, entry or rule)],
            "note": note}


INPUT_FACTS = ("問", "時令", "人", "夫妻行年", "農曆", "節日", "宿")
INPUT_PLACES = ("本命", "行年", "太歲", "月建")


def lacks(item, said, fb, kb):
    """What the board lacks that this failed condition reads, as {zh, ja}, or None: an input the board
    was not given (占類, 月建, 本命 …), a branch no 課傳 holds, a 神煞 the board does not have, a judgment
    not formed.  Read off the patterns the condition names (a negated one is failed by what is there)."""
    from liuren.explain.words import WORDS
    found = None
    for c in _flat(item if isinstance(item, list) else [item]):
        k = next((x for x in c if x != "macro"), None)
        v = c.get(k) if k else None
        if k in (None, "test", "not", "all", "any") or not isinstance(v, dict):
            continue
        have = fb.by_type.get(k) or []

        def value(f):
            x = v.get(f)
            x = said.get(x, x) if _is_var(x) else x
            return x if isinstance(x, str) and x and not _is_var(x) else None
        if k in INPUT_FACTS and not have:
            found = (k, None)
        elif value("位") in INPUT_PLACES and not any(f.get("位") == value("位") for f, _ in fb.by_type.get("位") or []):
            found = (value("位"), None)             # 行年上見亥 on a board given no 行年
        elif k == "判" and value("規") and not any(f.get("規") == value("規") for f, _ in have):
            e = kb.entries.get(value("規"))
            found = ("判", f"「{e.name}」" if e else None)
        elif k in fb.derived_types or (k not in kb.tables and k not in ("位", "盤", "課", "傳", "日", "晝夜", "遁")):
            sha = value("煞")
            if sha and not any(f.get("煞") == sha for f, _ in have):
                found = ("神煞", sha)
            elif "入" in k and value("支") and not any(f.get("支") == value("支") for f, _ in have):
                found = ("課傳", value("支"))
            elif not have and value("支"):
                found = ("fact", value("支"))
        if found:
            break
    if not found or (found[0] in ("課傳", "神煞", "判", "fact") and not found[1]):
        return None
    key, x = found
    return {lg: WORDS[lg]["lacks"][key].format(x=x or "") for lg in ("zh", "ja")}


def _held_fact(item, b, fb):
    """The board's fact a held single pattern matched (its open fields are then said by its values)."""
    k = next((x for x in item if x != "macro"), None) if isinstance(item, dict) else None
    if k in (None, "all", "any", "not", "test", "判") or not isinstance(item.get(k), dict):
        return None
    for fact, _ in fb.facts(k):
        if _match_fields(item[k], fact, b) is not None:
            return fact
    return None


def _own_var(items, rule, x):
    """Is variable x a cell of the entry's own row (its table pattern with id: the rule's as-variable)?"""
    return any(_is_own_row(it, rule) and x in next(v for k, v in it.items() if k != "macro").values()
               for it in items if isinstance(it, dict))


def _own_row_text(kb, key, item, said):
    """「伏吟課」要 門為伏吟，體為伏吟或杜傳或自任或自信: the row's cells as the entry needs them."""
    k = next(x for x in item if x != "macro")
    cells = {f: _fmt_value(x, said) for f, x in item[k].items() if f != "id"}
    row = kb.rows.get(key)
    return f"依「{row.name if row else key}」：" + "，".join(f"{f}為{v}" for f, v in cells.items())


def _is_own_row(item, rule):
    k = next((x for x in item if x != "macro"), None) if isinstance(item, dict) else None
    return k is not None and isinstance(item.get(k), dict) and rule.as_var and item[k].get("id") == rule.as_var


def _matched_texts(cond, b, fb):
    out = []
    for c in _flat(cond if isinstance(cond, list) else [cond]):
        k = next(x for x in c if x != "macro")
        if k == "test":
            continue
        for fact, text in fb.facts(k):
            if _match_fields(c[k], fact, b) is not None and all(
                    fact.get(f) == b.get(x) for f, x in c[k].items() if _is_var(x) and x in b):
                out.append(text or _plain_text(fact))
                break
    return out
