"""Validation of the knowledge base as it is loaded: the fields every entry shares (name,
sources, valence, examples and their boards), the questions (what each includes, how it is
asked), every rule's conditions against the fact types the KB knows, and the checks over the
whole KB once read (`_post`, which runs the lint of kblint)."""
from __future__ import annotations

import difflib

from liuren.knowledge.conditions import CALC_OPS, VAR_RE, then_facts, walk_patterns
from liuren.knowledge.facts import BUILTIN_FACTS, JUDGMENT_KINDS
from liuren.knowledge.kbyaml import LMap


VALENCES = ("吉", "凶", "平", "吉凶兩見", "視所乘")
SOURCE_KEYS_SEED = {"seed", "para", "quote", "note"}


def _check_name(path, item, err, what):
    """A name is the words a judgment is shown by: an empty one is a slip (a deleted name)."""
    if "name" in item and (item["name"] is None or (isinstance(item["name"], str) and not item["name"].strip())):
        err(path, item.kline("name"), f"{what}: empty name (give the name the source calls it by)")
        return False
    return True


def _check_source(kb, path, item, err, required=True):
    src = item.get("source")
    if src is None:
        if required:
            err(path, item.line, f"{item.get('id', item.get('name', '?'))}: missing source")
        return
    if not isinstance(src, list) or not src:
        return err(path, item.kline("source"), "source must be a non-empty list of {seed, para, quote}")
    for s in src:
        line = getattr(s, "line", item.kline("source"))
        if not isinstance(s, dict):
            err(path, line, "each source must be a mapping {seed, para, quote}")
            continue
        if "seed" in s:
            extra = set(s) - SOURCE_KEYS_SEED
            if extra:
                err(path, line, f"source: unknown key(s) {sorted(extra)}")
            if not isinstance(s.get("para"), int) or isinstance(s.get("para"), bool):
                err(path, line, "source: para must be an integer ¶ number")
        elif "doc" in s:
            err(path, line, f"source: doc {s.get('doc')!r} is a project document, not a source: cite the book "
                "(seed, para, quote), or, where the books do not state it, say so in the entry's note")
            continue
        else:
            err(path, line, "source needs seed (a seed file), para and quote")
            continue
        if not isinstance(s.get("quote"), str) or not s["quote"].strip():
            err(path, line, "source: quote (the verbatim classical text) is missing")


EXAMPLE_KINDS = {"fires", "silent", "unmet"}
EXAMPLE_KEYS = {"board", "why", "source", "chuan", "says", "note"}


def _check_example(kb, path, b, kind, err, what, line):
    """An example board: `board` (cast arguments) and `why`; a worked example of a book also
    cites it (`source`, one {seed, para, quote}) and may give the 三傳 the book prints (`chuan`,
    checked against the cast).  `unmet` lists the book's examples this encoding does not
    reproduce: `says` is what the book says (fires, silent, or chuan: the cast differs)."""
    if not isinstance(b, dict) or "board" not in b or "why" not in b:
        return err(path, line, f"{what}: each example needs board (cast arguments) and why (one line)")
    extra = set(b) - EXAMPLE_KEYS
    if extra:
        err(path, b.kline(sorted(extra)[0]), f"{what}: example has unknown key(s) {sorted(extra)} "
                                             f"(keys: {', '.join(sorted(EXAMPLE_KEYS))})")
    if not isinstance(b["board"], dict):
        err(path, b.kline("board"), f"{what}: an example's board is a mapping of cast arguments")
    if "source" in b:
        holder = LMap(source=[b["source"]] if isinstance(b["source"], dict) else b["source"], id=what)
        holder.line = b.kline("source")
        _check_source(kb, path, holder, err)
    if "chuan" in b:
        c = b["chuan"]
        if not (isinstance(c, str) and len(c) == 3 and all(x in "子丑寅卯辰巳午未申酉戌亥" for x in c)):
            err(path, b.kline("chuan"), f"{what}: chuan is the book's 三傳 as three branches, e.g. 午卯子 (got {c!r})")
    if kind == "unmet":
        if "source" not in b:
            err(path, b.line, f"{what}: an unmet example is a book's worked example: it needs its source")
        if b.get("says") not in ("fires", "silent", "chuan"):
            err(path, b.kline("says") if "says" in b else b.line,
                f"{what}: an unmet example says what the book says: says: fires | silent | chuan")
    elif "says" in b:
        err(path, b.kline("says"), f"{what}: says: belongs to unmet examples only")


def _text_fields(path, item, err, what):
    """name and reading are text: a number, a boolean or a mapping there is a slip."""
    for k in ("name", "reading"):
        if k in item and item[k] is not None and not isinstance(item[k], str):
            err(path, item.kline(k), f"{what}: {k} must be text, got {type(item[k]).__name__} {item[k]!r:.40}")
            item[k] = str(item[k])


def _check_common(kb, path, item, err, what):
    _text_fields(path, item, err, what)
    if "valence" in item and item["valence"] not in VALENCES:
        err(path, item.kline("valence"), f"{what}: valence {item['valence']!r} is not one of {'、'.join(VALENCES)}")
    if "salience" in item and (isinstance(item["salience"], bool) or not isinstance(item["salience"], int)):
        err(path, item.kline("salience"), f"{what}: salience {item['salience']!r} is not a whole number")
    interp = item.get("interpretation")
    if interp is not None and not (isinstance(interp, dict) and "chosen" in interp and "alternative" in interp):
        err(path, item.kline("interpretation"), f"{what}: interpretation needs chosen and alternative")
    for k in ("aliases",):
        if k in item and not (isinstance(item[k], list) and all(isinstance(a, str) for a in item[k])):
            err(path, item.kline(k), f"{what}: {k} must be a list of names")
    if "labels" in item and not isinstance(item["labels"], dict):
        err(path, item.kline("labels"), f"{what}: labels must be a mapping like {{ja: …}}")
    ex = item.get("examples")
    if ex is not None:
        if not isinstance(ex, dict) or set(ex) - EXAMPLE_KINDS:
            err(path, item.kline("examples"), f"{what}: examples must be {{fires: [...], silent: [...], unmet: [...]}}")
        else:
            for k, boards in ex.items():
                if not isinstance(boards, list):
                    err(path, ex.kline(k), f"{what}: examples.{k} must be a list")
                    continue
                for b in boards:
                    _check_example(kb, path, b, k, err, what, getattr(b, "line", ex.kline(k)))
    for k in ("unreachable", "always"):
        un = item.get(k)
        if un is not None and not (isinstance(un, dict) and "why" in un
                                   and un.get("over", "lessons") in ("lessons", "boards")):
            err(path, item.kline(k), f"{what}: {k} needs why, and optionally over: lessons|boards")
    for v in item.get("variants") or []:
        if not isinstance(v, dict) or "id" not in v or "quote" not in v:
            err(path, getattr(v, "line", item.kline("variants")), f"{what}: a variant needs id and quote (the 底本 text)")


def _question_includes(kb, err):
    """A question that `includes:` another is asked as both (占妻病 is also 占病, 「如上更驗」):
    every condition on the question (`問: {問: 占病}`, under not: too) also holds for the one
    that includes it.  Written into the rules' conditions here, so the compiler's network of a
    question holds the rules of what it includes."""
    inc = {}
    for name, q in kb.questions.items():
        for other in q.get("includes") or []:
            if other not in kb.questions:
                err(q["file"], 0, f"question {name}: includes {other!r}, which is not a question")
                continue
            inc.setdefault(other, []).append(name)
    if not inc:
        return
    # two questions that include each other (directly or through others) are one question asked
    # twice: refused, naming the circle
    def includes_of(name):
        return [o for o in kb.questions.get(name, {}).get("includes") or [] if o in kb.questions]
    for start in sorted(kb.questions):
        path_, seen = [start], set()
        stack = [(start, iter(includes_of(start)))]
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                path_.pop()
                continue
            if nxt == start:
                circle = " → ".join(path_ + [start])
                err(kb.questions[start]["file"], 0, f"question {start}: includes itself through {circle}; "
                                                    "questions that include each other are one question")
                return
            if nxt not in seen:
                seen.add(nxt)
                path_.append(nxt)
                stack.append((nxt, iter(includes_of(nxt))))
    # transitively: a question that includes one that includes X also includes X
    changed = True
    while changed:
        changed = False
        for x, qs in inc.items():
            for q in list(qs):
                for y in inc.get(q, ()):
                    if y not in qs and y != x:
                        qs.append(y)
                        changed = True

    def widen(v):
        vals = v if isinstance(v, list) else [v] if isinstance(v, str) and not v.startswith("$") else None
        if vals is None:
            return v
        out = list(vals)
        for x in vals:
            out += [q for q in inc.get(x, ()) if q not in out]
        return out if len(out) > len(vals) else v

    def walk(c):
        if isinstance(c, list):
            for x in c:
                walk(x)
        elif isinstance(c, dict):
            for k, v in c.items():
                if k == "問" and isinstance(v, dict) and "問" in v:
                    if isinstance(v["問"], dict) and "not" in v["問"]:
                        v["問"]["not"] = widen(v["問"]["not"])
                    else:
                        v["問"] = widen(v["問"])
                else:
                    walk(v)

    for rule in kb.rules.values():
        walk(rule.when)
        for v in rule.variants:
            if isinstance(v, dict) and "when" in v:
                walk(v["when"])

    # a table row for a question (a cell naming it: 問 占病, 類 占病) holds for what includes it
    def rows(data):
        out = []
        for cells in data:
            out.append(cells)
            for k, x in cells.items():
                if isinstance(x, str) and x in inc:
                    out += [dict(cells, **{k: q}) for q in inc[x]]
        return out

    for t in kb.tables.values():
        for r in t.rows:
            r.data = rows(r.data)
            r.variant_data = {k: rows(d) for k, d in r.variant_data.items()}


def _question_methods(kb, err):
    """A question's `methods:` name the ways the text answers it, as data: [{name, 答, rules,
    source}].  Methods with the same 答 (what they answer: 新舊, 有無 …) are alternatives of one
    another; each lists the rules (or table rows) whose judgments it gives."""
    for name, q in kb.questions.items():
        ms = q.get("methods")
        if ms is None:
            continue
        if not isinstance(ms, list):
            err(q["file"], 0, f"question {name}: methods must be a list")
            continue
        for m in ms:
            if not isinstance(m, dict) or not {"name", "答", "rules"} <= set(m):
                err(q["file"], getattr(m, "line", 0), f"question {name}: a method needs name, 答 and rules")
                continue
            for r in m["rules"]:
                if r not in kb.rules and r not in kb.rows:
                    err(q["file"], getattr(m, "line", 0), f"question {name}: method {m['name']}: no rule or row {r!r}")
            if m.get("source"):
                _check_source(kb, q["file"], m, err)


def _post(kb, err, strict=False):
    """Second pass: derived fact types, then every rule's conditions against the vocabulary."""
    _question_includes(kb, err)
    _question_methods(kb, err)
    for rule in kb.rules.values():
        for t, fields in then_facts(rule.then):
            if t in BUILTIN_FACTS or t in kb.tables:
                err(rule.file, rule.line, f"rule {rule.id}: then asserts {t!r}, which is a built-in or table fact type")
                continue
            kb.derived.setdefault(t, set()).update(fields)
            decl = kb.declared.get(t)
            if decl is not None:
                extra = set(fields) - set(decl["fields"])
                if extra:
                    err(rule.file, rule.meta.kline("then"),
                        f"rule {rule.id}: then gives {t!r} field(s) {sorted(extra)} not in its declaration {decl['fields']}")
        if rule.then is not None and not then_facts(rule.then):
            err(rule.file, rule.meta.kline("then"), f"rule {rule.id}: then must be {{fact type: {{field: value}}}} or a list of them")
    for t, decl in kb.declared.items():
        kb.derived.setdefault(t, set()).update(decl["fields"])
    for t in kb.tables.values():
        base = t.meta.get("extends")
        if base is None:
            continue
        if base not in kb.tables or kb.tables[base].meta.get("extends"):
            err(t.file, t.meta.kline("extends"), f"table {t.id}: extends {base!r}, which is not a table (of its own)")
        elif list(t.columns) != list(kb.tables[base].columns):
            err(t.file, t.meta.kline("columns"), f"table {t.id}: columns {t.columns} differ from {base}'s "
                                                 f"{kb.tables[base].columns}")
    known_types = set(BUILTIN_FACTS) | {t.id for t in kb.tables.values() if not t.meta.get("extends")} | set(kb.derived)
    for m in kb.macros.values():
        for item in m["expands"]:
            (t, _), = item.items()
            if t not in known_types:
                err(m["file"], m["line"], f"macro {m['name']}: unknown fact type {t!r}")
    for rule in kb.rules.values():
        _check_rule_conditions(kb, rule, known_types, err)
    for x in list(kb.tables.values()) + list(kb.rows.values()):
        rs = x.meta.get("restates")
        if rs is not None and (not isinstance(rs, list) or not all(isinstance(i, str) for i in rs)):
            err(x.file, x.meta.kline("restates"), f"{x.id}: restates: must be a list of table or row ids")
            continue
        for target in rs or []:
            if target not in kb.tables and target not in kb.rows:
                err(x.file, x.meta.kline("restates"), f"{x.id}: restates names unknown table or row {target!r}")
    for e in list(kb.rules.values()) + list(kb.rows.values()):
        for k in ("defeats", "defeated_by", "governs"):
            for target in e.meta.get(k) or []:
                if target not in kb.rules and target not in kb.rows:
                    err(e.file, e.meta.kline(k), f"{e.id}: {k} names unknown id {target!r}")
    for rule in kb.rules.values():
        if rule.meta.get("question") and rule.meta["question"] not in kb.questions:
            err(rule.file, rule.meta.kline("question"), f"rule {rule.id}: unknown question {rule.meta['question']!r}")
    for alias in kb.question_aliases:
        if alias in kb.questions:
            err(*kb.alias_lines[alias], f"question alias {alias!r} is itself the name of a question")
    for e in (entries_needing_examples(kb) if strict else ()):     # `kb check` (collect): every entry has boards
        ex = e.meta.get("examples") or {}
        if not (ex.get("fires") or e.meta.get("unreachable")):
            err(e.file, e.line, f"{e.id}: no example board where it fires (examples: fires:, or unreachable: with why)")
        if not (ex.get("silent") or e.meta.get("always")):
            err(e.file, e.line, f"{e.id}: no example board where it stays silent (examples: silent:, or always: with why)")
    from liuren.knowledge.kblint import lint, lint_more
    lint(kb, err, JUDGMENT_KINDS)
    if strict:
        lint_more(kb, err)


def entries_needing_examples(kb):
    """Every rule, and every named row of a table whose rows are reported as judgments (a rule
    marked `effect` only changes others and has no board of its own)."""
    out = list(kb.rules.values())
    for t in kb.tables.values():
        if t.meta.get("reported"):
            out += [r for r in t.rows if r.id]
    return [e for e in out if not e.meta.get("effect")]


def _check_rule_conditions(kb, rule, known_types, err):
    def check(cond, line_hint):
        bound = set()
        try:
            atoms = list(walk_patterns(cond, kb.macros))
        except ValueError as e:
            err(rule.file, line_hint, f"rule {rule.id}: {e}")
            return bound
        for kind, payload, line in atoms:
            line = line or line_hint
            if kind == "macro":
                for a in payload[1]:
                    if isinstance(a, str) and VAR_RE.match(a):
                        bound.add(a)
                continue
            if kind == "test":
                continue
            t, fields = payload
            if t not in known_types:
                near = difflib.get_close_matches(t, sorted(known_types), n=3)
                hint = f" (did you mean {'、'.join(near)}?)" if near else ""
                err(rule.file, line, f"rule {rule.id}: unknown fact type {t!r}{hint}")
                continue
            allowed = kb.fact_fields(t)
            for f, v in fields.items():
                if f not in allowed:
                    err(rule.file, getattr(fields, "kline", lambda k: line)(f),
                        f"rule {rule.id}: fact type {t!r} has no field {f!r} (fields: {'、'.join(sorted(allowed))})")
                for x in (v if isinstance(v, list) else [v]):
                    if isinstance(x, dict):
                        if set(x) != {"not"}:
                            err(rule.file, line, f"rule {rule.id}: field {f}: only {{not: value}} is allowed as a mapping")
                    elif isinstance(x, str) and x.startswith("$"):
                        if not VAR_RE.match(x):
                            err(rule.file, line, f"rule {rule.id}: bad variable {x!r}")
                        elif isinstance(v, list):
                            err(rule.file, line, f"rule {rule.id}: field {f}: a variable cannot be one of a list")
                        bound.add(x)
        return bound

    bound = check(rule.when, rule.meta.kline("when"))
    for v in rule.variants:
        if isinstance(v, dict) and "when" in v:
            check(v["when"], getattr(v, "line", rule.line))
    for t, fields in then_facts(rule.then):
        for f, val in fields.items():
            for x in _vars_in(val):
                if x not in bound:
                    err(rule.file, rule.meta.kline("then"), f"rule {rule.id}: then uses {x}, which no condition binds")
            if isinstance(val, dict):
                bad = _bad_calc(val)
                if bad:
                    err(rule.file, rule.meta.kline("then"), f"rule {rule.id}: then {t}.{f}: {bad}")
    if rule.as_var and rule.as_var not in bound:
        err(rule.file, rule.meta.kline("as"), f"rule {rule.id}: as {rule.as_var} is not bound by a condition")
    for a in rule.about:
        if isinstance(a, dict):
            if set(a) - {"支", "位"} or "支" not in a:
                err(rule.file, rule.meta.kline("about"), f"rule {rule.id}: an about item is a branch, or "
                                                         "{支: $b, 位: $p} (the branch as it stands at position $p)")
                continue
            parts = list(a.values())
        else:
            parts = [a]
        for x in parts:
            if isinstance(x, str) and x.startswith("$") and x not in bound:
                err(rule.file, rule.meta.kline("about"), f"rule {rule.id}: about uses {x}, which no condition binds")


def _bad_calc(val):
    """A `then` value may be a calculation {op: [args]}; say what is wrong with one, if anything."""
    if not isinstance(val, dict):
        return None
    if len(val) != 1 or next(iter(val)) not in CALC_OPS:
        return f"a calculation is {{op: [a, b]}} with op one of {', '.join(CALC_OPS)}"
    args = next(iter(val.values()))
    if not isinstance(args, list) or not args:
        return "a calculation needs a list of arguments"
    for a in args:
        bad = _bad_calc(a)
        if bad:
            return bad
    return None


def _vars_in(val):
    if isinstance(val, str) and val.startswith("$"):
        yield val
    elif isinstance(val, list):
        for v in val:
            yield from _vars_in(v)
    elif isinstance(val, dict):
        for v in val.values():
            yield from _vars_in(v)
