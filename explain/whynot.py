"""WHY-NOT: for a rule that did not fire on a board, each of its conditions, held or failed,
with the board facts that come nearest.

The facts are those of the trace graph (the board's facts and everything derived: its fact
nodes, which Judgment.chain_graph keeps as the whole graph has them), plus the KB's table rows
(data, as the trace names the KB it was judged with).  The conditions are the rule page's lines,
from the condition model (liuren.knowledge.meaning; a variant with a `when:` of its own has its
own model), each judged on the board on the binding the board meets the way by
(model_conditions); for the entries the model gives no lines (a placement, a rule that reads only
an input, a row whose cells cannot meet the board), the rule page's one line, held where the board
meets the whole way, with the board's value at each place it reads (placement_conditions).  Every
line is the model's: none is read off the engine's patterns.  Nothing is fired and the engine is
not run again.

It is one thing, the answer to "why did this rule not fire here": the rule page's lines judged on
the board (model_conditions, placement_conditions) and what the board lacks (lacks) are kept
together so that each failed line is said with the board's own values by one piece of code.
"""
from __future__ import annotations

# the words of values and of other rules named in a condition are the rule page's (explain.conditions)
from liuren.explain.conditions import CLASS_NAMING, _flat_cond as _flat, reporting_rule  # noqa: F401 (reporting_rule: for the views)
from liuren.knowledge.meaning import FUNCTIONAL
from liuren.rules.compile import TEST_FUNCS
from liuren.rules.judging import _sources
from liuren.knowledge.kbload import VAR_RE, load_kb
from liuren.explain.reads import month_types

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
        said = row_words(self.kb, {"t": tab.id, **cells})
        if row is not None:                # a named row: its name, then its cells in words
            return f"「{row.name}」：{said}"
        return said

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
    rule, _pin = reporting_rule(kb, key)
    if rule is None:
        return {"rule": key, "name": entry.name if entry else key, "fired": False, "conditions": [],
                "note": "此條為表中資料，無規則據之論斷，故無所謂成立與否"}
    variants = g.graph.get("variants") or {}
    choice = variants.get(rule.id) or variants.get("*")
    fb = FactBase(g, kb)
    # what the rule reads and needs, said with the board's own values (explain.reads, off the model)
    from liuren.explain import reads as RD
    from liuren.explain.words import display_name
    from liuren.knowledge.meaning import meaning_of
    # a variant with a `when:` of its own is read by its own model (its rule page shows its lines)
    reading = choice if key == rule.id and meaning_of(kb).has_variant(key, choice) else None
    board_facts = [f for t, lst in fb.by_type.items() for f, _ in lst]
    judged = [f.get("規") for f, _ in fb.by_type.get("判", [])]
    board_lines = {lg: RD.model_lines(kb, key, board_facts, judged, display_name(entry or rule, lg), lg, reading)
                   for lg in ("zh", "ja")}
    if board_lines["zh"] is None:   # (a 神煞 row read through a reading rule: its lines say it all)
        board_lines = {lg: [] for lg in ("zh", "ja")}
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
    conds = model_conditions(kb, entry or rule, fb, variant=reading)   # the rule page's lines, judged on the board
    if conds is None:               # an entry the model gives no lines: the places it reads, judged
        conds = placement_conditions(kb, entry or rule, rule, fb, variants) or []
    q = rule.meta.get("question")
    note = note_of = None           # note: the command line's words; note_of: what a page words itself
    if q and g.graph.get("question") != q:
        note = f"這條規則只在問「{q}」時適用（--question {q}）"
        note_of = {"question": q}
    elif conds and all(c["held"] for c in conds):
        note = "諸條件本盤皆具：或已成立（見 liuren why 之成立鏈），或其所屬之占本盤未問"
        note_of = {"all_held": True}
    return {"rule": key, "name": entry.name if entry else key, "fired": False, "family": rule.id if rule.id != key else None,
            "board": [dict(x, texts={lg: board_lines[lg][i]["text"] for lg in board_lines})
                      for i, x in enumerate(board_lines["zh"])],
            "conditions": conds,
            "sources": [{**{k: s[k] for k in ("seed", "para", "quote") if s.get(k) is not None},
                         "book": s["book"], "volume": s["volume"]} for s in _sources(kb, entry or rule)],
            "note": note, "note_of": note_of}


def placement_conditions(kb, entry, rule, fb, variants=None):
    """The WHY-NOT of an entry the model gives no lines for (a placement, a rule that reads an input, a
    family row whose cells cannot meet the board): its rule page's line (「依「太歲」讀 太歲」, 「所問」),
    held where the board meets the whole way, with the board's value at each place it reads, or what
    the board lacks there (此盤未給太歲); and a row's own cells (「初傳 所乘之將 為 朱雀，初傳 所臨（此條
    不載）」) beside the board's values where its table reads them.  None where the page has no line."""
    from liuren.explain.conditions import _Way, _placement, own_row_line
    from liuren.knowledge.meaning import meaning_of
    m = meaning_of(kb)
    page = _placement(kb, rule, entry)
    ways = m.requirement(entry.id if entry.id in m.entries else rule.id)
    if not page or not ways:
        return None
    best = None
    for w in ways:
        ww = _Way(kb, m, w, None)
        env = _board_env(w, fb, named=getattr(ww, "class_named", set()), names=ww.names)
        sol = _solve([a for a in w.atoms if a.fact != "判"], w, fb, env, None, w.rels)
        got = env if sol is None else {**env, **sol}
        facts, gone = [], None
        for v, words in ww.places.items():
            # a branch read at one of several places (本命或行年) is the board's at each of them, never
            # one reached another way (where 日干之長生 sits)
            choice = any(a.fact == "位" and v in a.fields.values() and "位" in a.fields for a in w.atoms)
            if v in got and not choice:
                facts.append(f"{words[0]} {got[v]}")
                continue
            vals = _choice_values(v, w, fb)
            facts += vals
            if not vals and gone is None:
                one = {x: next(iter(d)) for x, d in w.dom.items() if d is not None and len(d) == 1}
                pats = [{a.fact: {**dict(a.key), **{f: one.get(x, x) for f, x in a.fields.items()}}}
                        for a in w.atoms if v in a.fields.values() and a.fact != "判"]
                gone = lacks(pats, got, fb, kb) if pats else None
                if gone is None and choice:         # 本命或行年, neither given: each input named
                    gone = _inputs_not_given(v, w, fb)
        line = {"text": page[0], "held": sol is not None, "facts": facts, "on_board": True,
                **({"lacks": gone} if gone and sol is None else {})}   # (本命 not given, beside 日干 丁)
        conds = [line]
        k = next((k for k, f in _patterns_of(rule) if isinstance(f, dict) and rule.as_var
                  and f.get("id") == rule.as_var), None)
        mine = [f for f, _ in fb.facts(k) if f.get("id") == entry.id] if k else []   # (under the variants read)
        own = own_row_line(kb, rule, entry, ww, mine if (variants or {}).get(entry.id) else None)
        if own is not None:             # the row's own cells beside the board's values where its table reads
            from liuren.explain.words import WORDS, condition_words
            text, var_of, missing = own
            fits = sol is not None and any(all(f.get(c) == got.get(v) for c, v in var_of.items()) for f in mine)
            said = [f"{ww.places[v][0]} {got[v]}" for v in var_of.values() if v in got]
            row = {"text": text, "held": fits, "facts": said, "on_board": True}
            if missing and not fits and not any(all(c in f for c in var_of) for f in mine):
                x = "、".join(missing)              # a cell the book lost: nothing on a board can meet it
                row["lacks"] = {lg: WORDS[lg]["lacks"]["row"].format(x=condition_words(x, lg)) for lg in ("zh", "ja")}
            conds.append(row)
        if best is None or sum(c["held"] for c in conds) > sum(c["held"] for c in best):
            best = conds
    return best


def _inputs_not_given(v, w, fb):
    """{zh, ja} naming the inputs the board was not given among the places a branch is read at (此盤未給
    本命；此盤未給行年), or None."""
    from liuren.explain.words import WORDS
    from liuren.explain.conditions import _place_order
    on = {f.get("位") for f, _ in fb.facts("位")}
    places = {p for a in w.atoms if a.fact == "位" and v in a.fields.values() and "位" in a.fields
              for p in (w.dom.get(a.fields["位"]) or ())}
    missing = sorted((p for p in places if p in INPUT_PLACES and p not in on), key=_place_order)
    if not missing:
        return None
    return {lg: "；".join(WORDS[lg]["lacks"][p] for p in missing) for lg in ("zh", "ja")}


def _patterns_of(rule):
    from liuren.explain.reads import walk_items
    return walk_items(rule.when)


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
            # (a name the compiler gave a list of values, 「~c2」, is no value of the board's)
            return x if isinstance(x, str) and x and not _is_var(x) and not x.startswith("~") else None
        if k in INPUT_FACTS and not have:
            found = (k, None)
        elif k == "占類" and value("類") and not any(f.get("類") == value("類") for f, _ in have):
            # 此占屬占兵 / 此占屬陽人: a kind of 占 the board has not been given (the question asked, or
            # the asker's sex, where a table of the KB gives the kind by 性別)
            by_sex = any(value("類") in {c.get("類") for r in t.rows for c in (r.data or ())}
                         for t in kb.tables.values() if "性別" in (t.columns or ()))
            if by_sex and not fb.by_type.get("人"):
                found = ("人", None)
            elif not by_sex and not fb.by_type.get("問"):
                found = ("問", None)
        elif not fb.by_type.get("時令") and k in month_types(kb):
            found = ("時令", None)                  # 初傳旺衰 on a board given no month
        elif value("位") in INPUT_PLACES and not any(f.get("位") == value("位") for f, _ in fb.by_type.get("位") or []):
            found = (value("位"), None)             # 行年上見亥 on a board given no 行年
        elif k == "判" and value("規") and not any(f.get("規") == value("規") for f, _ in have):
            e = kb.entries.get(value("規"))
            found = ("判", f"「{e.name}」" if e else None)
        elif k in fb.derived_types or (k not in kb.tables and k not in ("位", "盤", "課", "傳", "日", "晝夜", "遁")):
            sha = value("煞")
            if sha and not any(f.get("煞") == sha for fs in fb.by_type.values() for f, _ in fs):
                found = ("神煞", sha)             # the board has no 神煞 of that name at all
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


# ---------------------------------------------------------------- the rule page's lines judged on the board
def _allowed(w, v, val):
    d = w.dom.get(v)
    return (d is None or val in d) and val not in (w.excl.get(v) or ())


ONE_A_BOARD = ("傳", "日", "時令", "晝夜", "問", "人", "夫妻行年", "農曆")     # facts a board has one of


def _board_env(w, fb, pre=None, named=(), names=None):
    """The board's value of each variable of a way that the board gives one value: read at a named
    place (初傳, 干上 …), on the plate from a branch already read, in a fact the board has one of (its
    發用之門), or the one value a table gives for values already read (日干之合所寄).  Never a value
    chosen among several to satisfy the condition."""
    env = dict(pre or {})
    _read_board(w, fb, env, named)
    for _ in range(4):              # then what a general's branch or a table's one value reaches
        if not (_by_general(w, fb, env, names or {}) | _by_links(w, fb, env)):
            break
        _read_board(w, fb, env, named)
    return env


def _by_links(w, fb, env):
    """The board's values the way's tables give (日干之合所寄: 庚 → 乙 → 辰) put into env; True if any."""
    got = _table_values(w, fb, env, needs=False)
    env.update(got)
    return bool(got)


def _table_values(w, fb, env, needs):
    """The one value the way's tables give each variable not yet read, from the values read (and the
    pattern's own), followed table to table (日干之合所寄: 庚 → 乙 → 辰; the third 支 of a 局 from the two
    read).  needs=False: the board's value whatever the way allows there, for a line to be said with
    it (an entry's own row is left out: it is what the board is judged against); needs=True: only the
    values the way allows, its open tests applied (c ≠ a), for a test over them to be judged.  The
    tables are read as the board's trace has them (fb.facts: under the variants it was judged with)."""
    cur, got = dict(env), {}

    def free(x):
        return isinstance(x, str) and (_is_var(x) or x.startswith("~")) and x not in cur
    for _ in range(4):
        grew = False
        for t, fs in getattr(w, "links", ()):
            if not needs and "id" in fs:
                continue
            known = {}
            for fl, x in fs.items():
                if isinstance(x, (dict, list, tuple, set, frozenset)) or free(x) and not (
                        not needs and w.dom.get(x) is not None and len(w.dom[x]) == 1):
                    continue
                known[fl] = cur[x] if x in cur else (next(iter(w.dom[x])) if free(x) else x)
            open_ = [fl for fl, x in fs.items() if free(x) and fl not in known]
            if not open_ or (not known and not needs):
                continue
            rows = []
            for f, _text in fb.facts(t):
                if not all(f.get(fl) == v for fl, v in known.items()):
                    continue
                if not all(f.get(fl) in x for fl, x in fs.items() if isinstance(x, (list, tuple, set, frozenset))):
                    continue
                if needs and not all(_allowed(w, fs[fl], f.get(fl)) for fl in open_):
                    continue
                rows.append(f)
            for fl in open_:
                v = fs[fl]
                vals = {r.get(fl) for r in rows} - {None}
                if needs:
                    for (op, a, b), _vs in w.open_tests:          # c ≠ a, c ≠ b
                        if op == "ne" and v in (a, b):
                            other = b if v == a else a
                            if other in cur:
                                vals.discard(cur[other])
                if len(vals) == 1 and v not in cur:
                    cur[v] = got[v] = vals.pop()
                    grew = True
        if not grew:
            break
    return got


def _by_general(w, fb, env, names):
    """The branch a named general rides, where a way reads it by the general alone (貴人所乘,
    六合所乘 入占) and nothing else has read it: the board's one branch under that general.  And a
    position's branch where the way reads it through a fact the board lacks (位氣 with no month
    given: 初傳 is still the board's 初傳).  True if anything was read."""
    grew = False
    for a in w.atoms:
        br = next((f for f in ("天", "支") if f in a.fields), None)
        gen = a.fields.get("將")
        if br is None or a.fields[br] in env or gen is None:
            continue
        if a.key or any(v in env for f, v in a.fields.items() if f in ("位", "地", "課")):
            continue
        d = w.dom.get(gen)
        if gen in env:
            d = {env[gen]}
        if not d or len(d) != 1:
            continue
        one = next(iter(d))
        if not str(names.get(a.fields[br], "")).startswith(one + "所乘"):
            continue                # the general is what the line needs there, not what names the branch
        got = [f for f, _ in fb.facts("盤") if f.get("將") == one]
        if len(got) == 1:
            env[a.fields[br]] = got[0]["天"]
            env.setdefault(gen, one)
            grew = True
    for a in w.atoms:
        if a.fact == "位氣" and not fb.facts("位氣") and "支" in a.fields and a.fields["支"] not in env:
            at = dict(a.key).get("位")
            got = [f for f, _ in fb.facts("位") if at is not None and f.get("位") == at]
            if len(got) == 1 and "支" in got[0]:
                env[a.fields["支"]] = got[0]["支"]
                grew = True
    return grew


def _read_board(w, fb, env, named):
    for _ in range(8):
        grew = False
        for a in w.atoms:
            if a.fact == "判" or all(v in env for v in a.fields.values()):
                continue
            keyed = bool(a.key) or any(v in env for f, v in a.fields.items() if f in ("位", "天", "課")) or \
                a.fact in CLASS_NAMING and id(a) in named       # 日德 (so named): the one branch the board makes
            cands = _cands(a, fb, env)
            if a.fact in CLASS_NAMING and id(a) in named:      # of its class (日德), not any 德合
                cands = [f for f in cands if all(fl in f and _allowed(w, v, f[fl]) for fl, v in a.fields.items())]
            kf = (FUNCTIONAL.get(a.fact) or (None,))[0]
            if not a.key and kf in a.fields and a.fields[kf] not in env and w.dom.get(a.fields[kf]) is not None \
                    and len(cands) > 1:         # one of several places (干上或本命或行年): only those it may be
                cands = [f for f in cands if _allowed(w, a.fields[kf], f.get(kf))]
            if (a.fact in ONE_A_BOARD and len(fb.facts(a.fact)) == 1) or (keyed and cands and (
                    len(cands) == 1 or a.fact in ("位", "位氣", "盤", "傳", "日", "時令", "晝夜", "課"))):
                if not cands:
                    continue
                for fl, v in a.fields.items():
                    if v not in env and fl in cands[0]:
                        env[v] = cands[0][fl]
                        grew = True
        for vs, tuples, _label in w.rels:
            if all(v in env for v in vs) or not any(v in env for v in vs):
                continue
            fit = [t for t in tuples if all(env[v] == x for v, x in zip(vs, t) if v in env)]
            for i, v in enumerate(vs):
                if v not in env and fit and len({t[i] for t in fit}) == 1:
                    env[v] = fit[0][i]
                    grew = True
        if not grew:
            break


def _cands(a, fb, env):
    """The board's facts an atom may be, given the values already read (a variable read overrides the
    literal the way keeps for it: 初傳 所乘之將 is read at the board's 初傳, whatever the way wants there)."""
    return [f for f, _ in fb.facts(a.fact)
            if all(f.get(k) == x for k, x in a.key if not (k in a.fields and a.fields[k] in env))
            and all(f.get(fl) == env[v] for fl, v in a.fields.items() if v in env)]


def _sat(atoms, w, fb, env, budget=None):
    """Can the board's facts meet these atoms together, their values allowed, those read kept?"""
    return _solve(atoms, w, fb, env, budget) is not None


def _solve(atoms, w, fb, env, budget=None, rels=()):
    """The values (env extended) with which the board's facts meet these atoms together, and the
    relations given, or None."""
    budget = budget if budget is not None else [5000]
    if not atoms:
        for vs, tuples, _ in rels:
            if all(v in env for v in vs) and tuple(env[v] for v in vs) not in tuples:
                return None
        return env
    a, rest = atoms[0], atoms[1:]
    for f, _ in fb.facts(a.fact):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        e2 = _extend(a, f, w, env)
        if e2 is not None:
            got = _solve(rest, w, fb, e2, budget, rels)
            if got is not None:
                return got
    return None


def _tied(w, seed, env=()):
    """The atoms of a way tied to these atoms through variables the board does not fix (a value
    env holds ties nothing: 弔客 酉 入占（課傳） is judged apart from whether 酉 克干支)."""
    got, vs = list(seed), set()
    for a in seed:
        vs |= set(a.fields.values()) - set(env)
    grew = True
    while grew:
        grew = False
        for a in w.atoms:
            if a.fact != "判" and all(a is not x for x in got) and set(a.fields.values()) & vs:
                got.append(a)
                vs |= set(a.fields.values()) - set(env)
                grew = True
    return got


def _atom_holds(a, w, fb, env):
    return _sat(_tied(w, [a], env), w, fb, env)


def _derived_holds(a, w, ww, fb, env, seed=None):
    """An atom whose value is named from another (日德所屬 旺或相): held with what its name is made
    from (日德 on this board, and the table that gives its 行), not by any value at all.  (seed: the
    atoms of a variable read at two places, 日德 所臨 即 其所屬之墓.)"""
    seed = list(seed or [a])
    vs = set()
    for b in seed:
        vs |= set(b.fields.values())
    todo = [v for v in vs if v in getattr(ww, "derived", {})]
    n0 = bool(todo)
    while todo:
        src = ww.derived[todo.pop()][0]
        if src in vs:
            continue
        vs.add(src)
        seed += [b for b in w.atoms if b.fact != "判" and src in b.fields.values() and all(b is not c for c in seed)]
        if src in ww.derived:
            todo.append(src)
    if not n0:
        return _sat(_tied(w, seed, env), w, fb, env)
    tied = _tied(w, seed, env)
    got = set()
    for b in tied:
        got |= set(b.fields.values())
    rels = []
    for rvs, tuples, label in w.rels:               # each relation on the values this line reads
        keep = [i for i, v in enumerate(rvs) if v in got | vs]
        if len(keep) > 1:
            rels.append((tuple(rvs[i] for i in keep), {tuple(t[i] for i in keep) for t in tuples}, label))
    return _solve(tied, w, fb, env, None, rels) is not None


def _same_values(v, w, fb, env):
    """「初傳 亥、旬首 子」: the board's value at each place a variable is read at, each read alone."""
    from liuren.explain.conditions import NAMING, _place_word
    out = []
    for a in w.atoms:
        fl = next((f for f, x in a.fields.items() if x == v), None)
        if fl is None or a.fact == "判":
            continue
        key = dict(a.key)
        if a.fact in ("位", "位氣") and isinstance(key.get("位"), str):
            name = _place_word(key["位"], fl)
        elif a.fact in NAMING and fl in NAMING[a.fact]:
            name = NAMING[a.fact][fl]
        else:
            continue
        cands = _cands(a, fb, {})                   # the place read alone
        if len(cands) == 1 and fl in cands[0]:
            out.append(f"{name} {cands[0][fl]}")
    return list(dict.fromkeys(out)) if len(out) > 1 else []


def _choice_values(v, w, fb, raw=False, pairs=False):
    """A branch read at one of several places (初傳或中傳或末傳): the board's branch at each of them
    (日干 its stem and the branch it lodges in: 日干 丁（寄未）; a 天盤 branch read over a place: 干上
    神 …, said 日干上 子)."""
    from liuren.explain.conditions import _place_order
    out = []
    gen_of = next((a.fields["天"] for a in w.atoms if a.fact == "盤" and a.fields.get("將") == v
                   and a.fields.get("天") and a.fields.get("天") != v), None)
    if gen_of is not None:
        # the general a branch read at one of several places carries: at each place, its branch and general
        rides = {f.get("天"): f.get("將") for f, _ in fb.facts("盤")}
        got = _choice_values(gen_of, w, fb, pairs=True)
        if raw:
            return list(dict.fromkeys(rides.get(b) for _, b in got if rides.get(b)))
        return list(dict.fromkeys(f"{x} 所乘之將 {rides[b]}" for x, b in got if rides.get(b)))
    for a in w.atoms:
        fl = next((f for f in ("支", "天", "地") if a.fields.get(f) == v), None)
        if a.fact == "位" and fl and "位" in a.fields:
            places = sorted(w.dom.get(a.fields["位"]) or (), key=_place_order)
            board = {f.get("位"): f for f, _ in fb.facts("位")}
            for p in places:
                f = board.get(p) or {}
                if not f.get(fl):
                    continue
                if pairs:
                    out.append((_choice_label(p, fl, f), f[fl]))
                else:
                    out.append(f[fl] if raw else _choice_label(p, fl, f))
    return out if pairs else list(dict.fromkeys(out))


def _choice_label(p, fl, f):
    """A place and its branch as _choice_values says it (干上 巳, 本命上 辰, 日干 丁（寄未）)."""
    if fl == "天" and p not in ("初傳", "中傳", "末傳") and f.get("盤") != "天":
        return f"{ {'日干': '干上', '日支': '支上'}.get(p, p + '上')} {f['天']}"
    if fl == "天":
        return f"{p} {f['天']}"
    if fl == "地":                      # where a 天盤 place sits (初傳所臨)
        return f"{p}所臨 {f['地']}"
    if p == "日干" and f.get("干"):
        return f"日干 {f['干']}（寄{f['支']}）"
    return f"{p} {f['支']}"


def _placed_known(a, w, ww, env):
    """A line reading the value a 神煞 row gives (財, 天怪): the board must give what it is looked up by."""
    outs = {v for _, v in getattr(ww, "own_outs", ())}
    mine = set(a.fields.values()) & outs
    if not mine:
        return True
    for vs, _t, _l in w.rels:
        if set(vs) & mine and any(v not in env for v in vs if v not in outs):
            return False
    return True


def _made(v, w, env):
    """The values a 神煞 row's cells give v for the board's key (進神 子、午 on a 丁 day)."""
    out = set()
    for vs, tuples, _ in w.rels:
        if v not in vs:
            continue
        keys = [i for i, u in enumerate(vs) if u in env]
        if not keys:
            continue
        i = vs.index(v)
        got = {t[i] for t in tuples if all(t[k] == env[vs[k]] for k in keys)}
        out = got if not out else out & got
    return out


def _board_values_of(a, w, ww, fb, env):
    """「子、寅、巳、申 入占（課傳）」: the values the board has of the one field a failed derived fact
    leaves to the board (the others as the line needs them), in the fact's own words; or None."""
    from liuren.explain.conditions import _fact_words, _fill
    open_ = [f for f, v in a.fields.items() if not (w.dom.get(v) is not None and len(w.dom[v]) == 1)]
    if len(open_) != 1:
        return None
    lits = {f: next(iter(w.dom[v])) for f, v in a.fields.items() if f not in open_}
    lits.update(dict(a.key))
    vals = [f.get(open_[0]) for f, _ in fb.facts(a.fact) if all(f.get(k) == x for k, x in lits.items())]
    vals = [x for x in vals if x is not None]
    tpl = _fact_words(a.fact, fb.kb)
    if not vals or not tpl:
        return None
    vals = _ordered(set(vals))                  # 子寅巳申 (as the books write branches), never 子、寅 beside other facts
    return _fill(tpl, {**{k: str(x) for k, x in lits.items()}, open_[0]: ("" if all(len(x) == 1 for x in vals)
                                                                         else "、").join(vals)})


def _ordered(vals):
    from liuren.explain.conditions import BRANCHES, STEMS
    order = BRANCHES + STEMS
    return sorted(map(str, vals), key=lambda x: (order.index(x) if x in order else len(order), x))


def _test_holds(t, env):
    op, x, y = t

    def val(z):
        if isinstance(z, str) and z.startswith("'") and z.endswith("'"):
            return z[1:-1]
        return env.get(z) if isinstance(z, str) and (z in env or _is_var(z) or z.startswith("~")) else z
    vx, vy = val(x), val(y)
    if vx is None or vy is None:
        return False
    try:
        return bool(TEST_FUNCS[op](vx, vy))
    except TypeError:
        return False


def _item_vars(item):
    """The variables an item of the rule (a test, a table's pattern) reads."""
    def walk(c):
        if isinstance(c, dict):
            for v in c.values():
                yield from walk(v)
        elif isinstance(c, list):
            for v in c:
                yield from walk(v)
        elif _is_var(c):
            yield c
    return list(walk(item))


def _item_holds(item, w, fb, env, own=None):
    """Does the board hold this one test or table pattern of the rule (日干 不在 初傳、中傳、末傳 之中;
    初傳 與 日干，相距 1 位), its variables read as the way reads them?  None where a value it reads is
    not on the board (or the item is a macro's): the relation it is part of decides."""
    k = next(iter(item))
    alias, own = w.alias, own or {}

    def val(z):
        if _is_var(z):
            v = alias.get(z, z)
            return own[v] if v in own else env[v] if v in env else None      # the entry's own row's cell first
        return z
    if k == "test":
        (op, args), = item["test"].items()
        if op not in TEST_FUNCS or not isinstance(args, list) or len(args) != 2:
            return None
        a, b = args
        va = val(a)
        vb = [val(e) for e in b] if isinstance(b, list) else val(b)
        if va is None or vb is None or isinstance(vb, list) and None in vb:
            return None
        try:
            return bool(TEST_FUNCS[op](va, vb))
        except TypeError:
            return None
    pat = item.get(k)
    if k == "macro" or not isinstance(pat, dict) or not fb.facts(k):
        return None
    want = {f: val(z) for f, z in pat.items()}
    if any(z is None for z in want.values()) or any(isinstance(z, (dict, list)) for z in want.values()):
        return None
    return any(all(str(f.get(fl)) == str(z) for fl, z in want.items()) for f, _t in fb.facts(k))


def _place_values(vars_, w, ww, fb, env):
    """The board's values at the named places of these variables (日干 甲（寄寅）, never 日干 寅)."""
    has = []
    for v in dict.fromkeys(vars_):
        name = ww.names.get(v)
        if name and not name.startswith("某") and v not in ww.said:
            if v in env:                            # a place the board has no value at: said by lacks, or 盤上無此
                lodge = next((f for f, _ in fb.facts("位") if f.get("位") == "日干"), None) if name == "日干" else None
                if lodge and lodge.get("干") and lodge.get("支") == env[v]:
                    has.append(_choice_label("日干", "支", lodge))
                else:
                    has.append(f"{name} {env[v]}")
            else:                                   # one of several places: the board's value at each
                has += _choice_values(v, w, fb) or _class_values(v, w, ww, fb, name)
    return has


def judge_line(what, w, ww, fb, env, judged_ids, neg_held):
    """Does the board hold this line (what: the model's part the line says)?  And the board's values
    at the places the line names: [「初傳 所乘之將 青龍」]."""
    kind, x = what
    vars_, has, tail = [], [], []
    if kind == "same":
        ok = _derived_holds(None, w, ww, fb, env, [a for a in w.atoms if x in a.fields.values() and a.fact != "判"])
        vars_ = [x]
    elif kind == "judged":
        ids = [i for f, i in x.key if f == "規"]
        v = x.fields.get("規")
        if v is not None and w.dom.get(v):
            ids = list(w.dom[v])
        ok = any(i in judged_ids for i in ids)
    elif kind == "dom":
        ok = _allowed(w, x, env[x]) if x in env else _sat(_tied(w, [a for a in w.atoms if x in a.fields.values()
                                                                  and a.fact != "判"], env), w, fb, env)
        vars_ = [x]
    elif kind == "seen":                            # 財 見於 日干、…: where the branch the board makes it is
        ok = _placed_known(x, w, ww, env) and _solve(_tied(w, [x], env), w, fb, env, None, w.rels) is not None
        v = next((v for f, v in x.fields.items() if f in ("支", "天") and v in ww.places), None)
        has = _choice_values(v, w, fb) if v is not None else []
        if v is not None and v in env:              # named by what it is (日支之合), not by the places
            name = next((p for p in ww.places.get(v, []) if "或" not in p), ww.names.get(v))
            has.insert(0, f"{name} {env[v]}")
        gen = ww.seen_name.get(v) if v is not None else None
        if gen:                                     # the general: what it rides on this board
            has += [f"{gen} 乘 {f.get('天')}" for f, _ in fb.facts("盤") if f.get("將") == gen]
        return bool(ok), has
    elif kind == "atom":
        outs = set(x.fields.values()) & {v for _, v in getattr(ww, "own_outs", ())}
        if outs:                                    # 進神 入占: the branch the board's key makes, not any branch
            ok = _placed_known(x, w, ww, env) and _solve(_tied(w, [x], env), w, fb, env, None, w.rels) is not None
            has = [f"{ww.names.get(v)} {'或'.join(_ordered(vals))}" for v in outs if v not in env
                   for vals in [_made(v, w, env)] if vals]
        else:
            ok = _derived_holds(x, w, ww, fb, env) and _placed_known(x, w, ww, env)
        vars_ = [v for v in x.fields.values() if v in ww.places]
        if not ok and ww.own and x.fact in fb.derived_types:   # 天怪 丑 入占（課傳）: the board's branches that are
            got = _board_values_of(x, w, ww, fb, env)
            if got:
                tail = [got]
        if not ok and not tail and not has and x.fact in fb.derived_types:
            tail = _derived_at(x, w, fb)
    elif kind == "rel":
        vs, tuples, _ = w.rels[x]
        if all(v in env for v in vs):
            ok = tuple(env[v] for v in vs) in tuples
        elif any(a.fact == "判" and set(a.fields.values()) & set(vs) for a in w.atoms):
            # a value read from a judgment the board formed (將空勿實論 of the 判 it governs): the board's
            # judgments and facts meet the relation together, or not
            ok = _solve([a for a in w.atoms if set(a.fields.values()) & set(vs)], w, fb, env, None, [w.rels[x]]) \
                is not None
        else:
            ok = False                              # a value the board does not give: not held
        vars_ = [v for v in vs if v in ww.places]
    elif kind == "item":                            # the rule's own test or pattern, judged on its own values
        i, item = x
        vs = w.rels[i][0]
        # held where the relation is (it holds each of its own items, or one of an any's) or the item
        # is on its own values (日干 不在 三傳 while 初傳 is not next to 日干)
        ok = all(v in env for v in vs) and tuple(env[v] for v in vs) in w.rels[i][1] or \
            _item_holds(item, w, fb, env, getattr(ww, "rowvals", None)) is True
        vars_ = list(dict.fromkeys(w.alias[u] for u in _item_vars(item) if w.alias.get(u) in ww.places))
        wider = [v for v in vs if v in ww.places]   # where the item's own places say nothing: the relation's
    elif kind == "test":                            # over values a table gives (日干所屬局): looked up
        ok = _test_holds(x, env if all(v in env for v in x[1:] if _is_var(v)) else _link_env(w, fb, env))
        vars_ = [v for v in x[1:] if isinstance(v, str) and v in ww.places]
    elif kind == "placed":                          # a 神煞 row's own cells: the board's key, what it gives
        vs, tuples, _ = w.rels[x]
        keys = [v for v in vs if v in env and v not in {o for _, o in ww.own_outs}]
        outs = [i for i, v in enumerate(vs) if v in {o for _, o in ww.own_outs}]
        fit = [t for t in tuples if all(env[v] == t[i] for i, v in enumerate(vs) if v in keys)]
        ok = bool(keys) and bool(fit)
        # (a value that is its own name, 弔客 read as the 神煞 弔客, says nothing)
        has = [f"{ww.names.get(v)} {env[v]}" for v in keys if ww.names.get(v) and ww.names.get(v) != env[v]]
        for i in outs:
            got = list(dict.fromkeys(t[i] for t in fit))
            if keys and got:
                has.append(f"{ww.names.get(vs[i])} {'或'.join(_ordered(got))}")
        return ok, has
    else:                                           # a negation: the board has none of it
        _t, free, _c = w.negs[x]
        # read at a place the board gives no value for (the rest failing before it): nothing fails it
        open_ = [v for v in free if _is_var(v) and v not in env]
        ok = neg_held(x) if not open_ else all(      # at a choice of places: none of the board's values there
            neg_held(x, {**env, open_[0]: val}) for val in _choice_values(open_[0], w, fb, raw=True))
        vars_ = [v for v in free if v in ww.places]
    if kind == "same":                              # one value read at several places: the board's at each
        has = _same_values(x, w, fb, env)
        vars_ = [] if has else vars_
    has += _place_values(vars_, w, ww, fb, env)
    if kind == "item" and not has:
        has += _place_values(wider, w, ww, fb, env)
    if kind == "atom" and x.fact == "盤" and not ok and "地" in x.fields:
        sky = x.fields.get("天")                    # 日干之長生 亥 臨 其所屬之墓 辰: where 亥 is on this board
        if _is_var(sky) and sky in env:
            at = next((f.get("地") for f, _ in fb.facts("盤") if f.get("天") == env[sky]), None)
            if at:
                has.append(f"{env[sky]} 所臨 {at}")
    return ok, has + tail


AT_FIELDS = ("位", "方", "課")          # the fields of a derived fact that say where it is (月建上見 …, 傳有 …)


def _derived_at(a, w, fb, n=4):
    """「月建上見子（乘六合）」: the board's derived facts of a failed line's kind at the places the line
    reads (its 位 or 方), in their own words; [] where the line names no place or the board has none."""
    at = {}
    for f, v in a.fields.items():
        if f in AT_FIELDS and w.dom.get(v):
            at[f] = w.dom[v]
    at.update({f: {x} for f, x in a.key if f in AT_FIELDS and not _is_var(x)})
    if not at:
        return []
    got = [t or _plain_text(f) for f, t in fb.facts(a.fact) if all(f.get(k) in vals for k, vals in at.items())]
    return list(dict.fromkeys(got))[:n]


def _class_values(v, w, ww, fb, name):
    """「日鬼 辰或戌」: the branches the board makes of the class a branch is named by."""
    for a in w.atoms:
        if id(a) in getattr(ww, "class_named", ()) and a.fields.get("支") == v:
            vals = {f["支"] for f in _cands(a, fb, {}) if "支" in f and all(
                fl in f and _allowed(w, x, f[fl]) for fl, x in a.fields.items())}
            return [f"{name} {'或'.join(_ordered(vals))}"] if vals else []
    return []


def model_conditions(kb, target, fb, pre=None, variant=None):
    """The conditions of a WHY-NOT: the rule page's lines (explain.conditions.judged_ways; a variant's
    own where it has a `when:`), each judged on the board, with the board's values at the places it
    names.  Of several ways, the lines all share, then those of the way the board comes nearest
    (marked alt).  None where the model has no lines."""
    from liuren.explain.conditions import judged_ways
    ways = judged_ways(kb, target, variant)
    if not ways or not any(lines for _, _, lines in ways):
        return None
    judged_ids = {f.get("規") for f, _ in fb.by_type.get("判", [])}
    per_way = []
    for w, ww, lines in ways:
        named = getattr(ww, "class_named", set())
        env0 = _board_env(w, fb, named=named, names=ww.names)
        # where the board meets every positive part of the way, its values there (a choice of places,
        # 初傳或中傳或末傳, read where it holds): what is left to fail is a negation or a test.  The board
        # may meet them in several ways (用神 辰 and 陰神 申 both read as 用位): each is judged, and the
        # one where most lines hold is said, so that a line is never judged on another binding than
        # the one where the rule holds (新舊起例 fires through 陰神 申; 辰 fails its 剛日 way)
        envs = [_board_env(w, fb, s, named, ww.names) for s in
                _solves([a for a in w.atoms if a.fact != "判"], w, fb, env0, [5000], w.rels, MAX_BINDINGS)]
        best_got = None
        for env in envs or [env0]:
            got = _judged_lines(kb, w, ww, lines, fb, env, judged_ids)
            if best_got is None or sum(c["held"] for c in got) > sum(c["held"] for c in best_got):
                best_got = got
            if all(c["held"] for c in got):
                break
        per_way.append(best_got)
    if len(per_way) == 1:
        return per_way[0]
    common = [x["text"] for x in per_way[0] if all(any(y["text"] == x["text"] for y in o) for o in per_way[1:])]
    # the way the board meets whole, where one does (the way the rule fired by), else the nearest
    best = max(range(len(per_way)), key=lambda i: (all(c["held"] for c in per_way[i]),
                                                   sum(c["held"] for c in per_way[i]), -i))
    out = [c for c in per_way[best] if c["text"] in common]
    out += [dict(c, alt=True) for c in per_way[best] if c["text"] not in common]
    return out


def _cond_vars(c):
    from liuren.knowledge.meaning import _vars
    return [v for v in _vars(c) if _is_var(v)]


def _link_env(w, fb, env):
    """env with the values the way's tables give for variables the board does not read, where one
    value only and the way allows it (日干所屬局 from 日干; the third 支 of a 局 from the two read)."""
    return {**env, **_table_values(w, fb, env, needs=True)}


MAX_BINDINGS = 16           # the board's ways of meeting a way's atoms that a WHY-NOT judges its lines on


def _extend(a, f, w, env):
    """env with the atom's variables read off the board's fact f, or None where f is not the atom's
    (its key, a value already read, or a value the way does not allow)."""
    if not all(f.get(k) == x for k, x in a.key if not (k in a.fields and a.fields[k] in env)):
        return None
    e2 = dict(env)
    for fl, v in a.fields.items():
        val = f.get(fl)
        if fl not in f or (v in e2 and e2[v] != val) or not _allowed(w, v, val):
            return None
        e2[v] = val
    return e2


def _solves(atoms, w, fb, env, budget, rels=(), limit=MAX_BINDINGS):
    """Up to `limit` of the values (env extended) with which the board's facts meet these atoms and
    relations together (as _solve, every solution rather than the first)."""
    out = []

    def rec(atoms, env):
        if len(out) >= limit or budget[0] < 0:
            return
        if not atoms:
            if all(not all(v in env for v in vs) or tuple(env[v] for v in vs) in tuples for vs, tuples, _ in rels):
                out.append(env)
            return
        a, rest = atoms[0], atoms[1:]
        for f, _ in fb.facts(a.fact):
            budget[0] -= 1
            if budget[0] < 0 or len(out) >= limit:
                return
            e2 = _extend(a, f, w, env)
            if e2 is not None:
                rec(rest, e2)
    rec(list(atoms), dict(env))
    return out


def _one_value(w, x):
    """The one value a field holds: a literal, or a variable the condition allows one value of."""
    if isinstance(x, str) and not _is_var(x) and not x.startswith("~"):
        return x
    d = w.dom.get(x) if x is not None else None
    return next(iter(d)) if d is not None and len(d) == 1 else None


def _judged_lines(kb, w, ww, lines, fb, env, judged_ids):
    """The way's lines judged on the board with these values: [{text, held, facts, on_board, lacks?}]."""
    lenv = None

    def neg_held(i, at=None, w=w, env=env):
        nonlocal lenv
        _text, free, cond = w.negs[i]
        b = {v: (at or env)[v] for v in free if v in (at or env) and _is_var(v)}
        inner = [v for v in _cond_vars(cond) if v not in b]
        if inner:                                   # a value a table gives from the board's (虛一待用's third 支)
            lenv = _link_env(w, fb, env) if lenv is None else lenv
            b.update({v: lenv[v] for v in inner if v in lenv})     # (env's own, or what the tables give)
        return not solutions(cond, b, fb, [BUDGET])
    if True:
        got = []
        for text, what in lines:
            ok, has = judge_line(what, w, ww, fb, env, judged_ids, neg_held)
            got.append({"text": text, "held": bool(ok), "facts": has, "on_board": True})
            if not ok and what[0] == "neg":
                _t, free, cond = w.negs[what[1]]
                at = env
                for v in [v for v in free if _is_var(v) and v not in env][:1]:
                    for val in _choice_values(v, w, fb, raw=True):      # the board's value there that fails it
                        if not neg_held(what[1], {**env, v: val}):
                            at = {**env, v: val}
                            break
                b = {v: at[v] for v in free if v in at and _is_var(v)}
                got[-1]["facts"] = [t or _plain_text(f) for f, t in _witnesses(cond, b, fb)][:3]
                got[-1]["on_board"] = False
            if not ok and what[0] == "atom":       # 弔客 入占: a 神煞 named by its class the board has none of
                from liuren.explain.words import WORDS
                for v in what[1].fields.values():
                    cls = next((_one_value(w, a.fields.get("煞")) for a in w.atoms
                                if a.fact == "煞" and id(a) in getattr(ww, "class_named", ()) and a.fields.get("支") == v),
                               None)
                    if cls and v not in env and not any(f.get("煞") == cls for fs in fb.by_type.values() for f, _ in fs):
                        got[-1]["facts"] = []
                        got[-1]["lacks"] = {lg: WORDS[lg]["lacks"]["神煞"].format(x=cls) for lg in ("zh", "ja")}
                        break
            if not ok and what[0] == "judged":     # another rule's judgment the board has not formed
                from liuren.explain.words import WORDS
                v = what[1].fields.get("規")
                ids = sorted(w.dom[v]) if v is not None and w.dom.get(v) else [i for f, i in what[1].key if f == "規"]
                names = "或".join(f"「{kb.entries[i].name}」" for i in ids if i in kb.entries)
                if names:
                    got[-1]["lacks"] = {lg: WORDS[lg]["lacks"]["判"].format(x=names) for lg in ("zh", "ja")}
            elif not ok and not got[-1]["facts"]:
                keys = {v for v in w.rels[what[1] if what[0] != "item" else what[1][0]][0]
                        if v not in {o for _, o in ww.own_outs}} if what[0] in ("placed", "rel", "item") else set()
                atoms = [what[1]] if what[0] in ("atom", "judged", "seen") else \
                    [a for a in w.atoms if what[0] in ("dom", "same") and what[1] in a.fields.values()
                     or set(a.fields.values()) & keys]
                one = {v: next(iter(d)) for v, d in w.dom.items() if d is not None and len(d) == 1}
                pats = [{a.fact: {**dict(a.key), **{f: one.get(v, v) if v not in env else v
                                                    for f, v in a.fields.items()}}} for a in atoms]
                gone = lacks(pats, env, fb, kb) if pats else None
                if not gone and what[0] == "atom" and what[1].fact in fb.derived_types | set(kb.derived) \
                        and not fb.facts(what[1].fact):           # 四課缺一: the board makes none of it
                    from liuren.explain.words import WORDS, condition_words
                    gone = {lg: WORDS[lg]["lacks"]["fact"].format(x=f"「{condition_words(text, lg)}」")
                            for lg in ("zh", "ja")}
                if gone:
                    got[-1]["lacks"] = gone
    return got
