"""Commands over the knowledge base: judge, rules, lookup, kb check/facts/examples, questions."""
from __future__ import annotations

import sys

from liuren.errors import InputError, LiurenError
from liuren.app import queries as Q
from liuren.cli.args import add_judge_args, add_kb_arg, add_lang_arg, add_param, cast_kwargs, dump as _dump, kb_of
from liuren.explain.render import firing_line, firing_order, grounds_line
from liuren.i18n import lang_of, word
from liuren.app.engine import MANIFEST



def cmd_judge(a):
    from liuren.explain.boardtext import board_text
    kw = cast_kwargs(a)
    kw.pop("kb", None)
    variants = Q.parse_variants(a.variant)
    keep = Q.book_filter(kb_of(a), a.book)
    lang = lang_of(a.lang)
    r = Q.judged(kw, variants=variants, question=a.question, kb=a.kb)
    if a.json:
        d = r.to_dict(lang=lang)
        if keep:
            d["fired"] = [x for f, x in zip(r.fired, d["fired"]) if keep(f)]
            d["findings"] = r.findings(keep)
            d["books"] = list(a.book)
        print(_dump(d))
        return 0
    print(board_text(r.board, lang=lang))
    if r.question:
        print(f"{word('所問', lang)}：" + (f"{r.asked}（{word('即', lang)} {r.question}）" if r.asked != r.question else r.question))
    print()
    from liuren.explain.html import gate_note
    groups = r.by_kind(include_placements=a.all)
    if keep:
        groups = {k: [f for f in fs if keep(f)] for k, fs in groups.items()}
        groups = {k: fs for k, fs in groups.items() if fs}
    if not groups:
        print(f"（{word('無任何規則成立', lang)}）")
    for kind, fs in groups.items():
        print(f"【{word(kind, lang)}】")
        lines = {}
        for f in sorted(fs, key=firing_order):
            lines.setdefault(firing_line(f, r, lang), []).append(f)
        for line, group in lines.items():
            print(grounds_line(line, group, r.kb, lang))
            note = gate_note(r.kb, r.board, group[0], lang)
            if note:                    # 比用格 on a 涉害 board: why it is listed, as on the page
                print(f"      ※ {note}")
    for heading, lines in r.findings(keep).items():
        print(f"【{heading}】")
        for line in lines:
            print(f"  {line}")
    return 0


def cmd_rules_list(a):
    rows = Q.rules_rows(kb_of(a), a.kind, a.source, lang_of(a.lang))
    if a.json:
        print(_dump([dict(zip(("id", "kind", "name", "sources"), r)) for r in rows]))
    else:
        for r in rows:
            print("\t".join(r))
    return 0


def cmd_rules_show(a):
    import yaml
    kb = kb_of(a)
    d = Q.rule_detail(kb, Q.resolve_entry(kb, a.rule), lang_of(a.lang))
    if a.json:
        print(_dump(d))
    else:
        print(yaml.safe_dump(d, allow_unicode=True, sort_keys=False, width=100).rstrip())
    return 0


def cmd_lookup(a):
    lang = lang_of(a.lang)
    sym, out = Q.lookup_data(kb_of(a), a.symbol, a.category, lang)
    if a.json:
        print(_dump(out))
    else:
        if not out:
            print(f"（{sym} {word('無', lang)}{word('類相', lang)}）")
        for cat, items in out.items():
            print(f"{cat}：{'、'.join(items)}")
    return 0


def cmd_kb_check(a):
    from liuren.app.engine import load_kb
    # always read the files afresh (not this process's cached KB): they may have just changed
    kb, errors = load_kb.__wrapped__(getattr(a, "kb", None), collect=True)
    for e in errors:
        print(f"liuren: {e}", file=sys.stderr)
    if errors:
        return 2
    if not errors:
        try:
            from liuren.app.engine import build, negation_cycles
            build(kb)
            # build(kb) is the network of no question: a cycle through a rule only a question
            # brings out is seen in that question's network
            cycles = negation_cycles(kb)
        except LiurenError as e:
            print(f"liuren: {e}", file=sys.stderr)
            return 2
        for e in cycles:
            print(f"liuren: {e}", file=sys.stderr)
        if cycles:
            return 2
    problems, notes = Q.compare_manifest(kb)
    if getattr(a, "update_manifest", False):
        Q.write_manifest(kb)
        problems, notes = [], [f"manifest written: {kb.root / MANIFEST}"]
    for f in sorted(kb.file_counts):
        print(f"{f}: {Q.counts_text(kb.file_counts[f])}")
    for n in notes:
        print(f"note: {n}")
    for msg in problems:
        print(f"liuren: {msg}", file=sys.stderr)
    if problems:
        return 2
    nrows = sum(1 for t in kb.tables.values() for r in t.rows if r.id)
    if getattr(a, "examples", None) is not None:
        failed = _check_examples(kb, a.examples)
        if failed:
            return 2
    from liuren.app.engine import duplicate_tables
    from liuren.app.engine import kb_rel
    for group in duplicate_tables(kb):          # a warning, not an error: two books may state one table
        where = "、".join(f"{i} ({kb_rel(f)})" for i, f in group)
        print(f"liuren: warning: the same rows are defined twice: {where}", file=sys.stderr)
    if _static_checks(kb, getattr(a, "notes", False)):
        return 2
    print(f"{kb.root}: {len(kb.files)} files, {len(kb.rules)} rules, {len(kb.tables)} tables "
          f"({nrows} named rows), {len(kb.questions)} questions — ok")
    return 0


def _static_checks(kb, list_all):
    """The checks over what each condition means (knowledge.kbstatic): errors each on a line (the
    number of them returned), warnings and notes counted, listed with --notes."""
    from liuren.app.engine import cache, kb_files, static_findings
    if not getattr(kb, "digest", None):         # the model is kept in the cache under the KB's content
        kb.digest = cache.kb_digest(kb.root, kb_files(kb.root))
    try:
        found = static_findings(kb)
    except Exception as e:  # noqa: BLE001 — one line, never a traceback
        print(f"liuren: {kb.root}: cannot check the conditions' meaning ({type(e).__name__}: {e})", file=sys.stderr)
        return 1
    errors = [f for f in found if f.severity == "error"]
    rest = [f for f in found if f.severity != "error"]
    for f in errors:
        (_, path, line), = f.entries[:1]
        print(f"liuren: {path}:{line}: {f.text()}", file=sys.stderr)
    if list_all:
        for f in rest:
            (_, path, line), = f.entries[:1]
            print(f"{f.severity}: {path}:{line}: {f.text()}")
    elif rest:
        counts = {}
        for f in rest:
            counts[(f.severity, f.code)] = counts.get((f.severity, f.code), 0) + 1
        text = ", ".join(f"{n} {sev} {code}" for (sev, code), n in sorted(counts.items()))
        print(f"meaning: {text} — kb check --notes lists them")
    return len(errors)


def _check_examples(kb, what):
    """kb check --examples [ID|FILE …]: judge the example boards (of these entries, or of the
    entries of these files; of every entry when none is given).  Returns the number of failures."""
    import time
    from liuren.errors import KBError
    from liuren.app.engine import kb_file
    from liuren.app.engine import check_examples
    only = None
    if what:
        only = set()
        for w in what:
            w = w.removeprefix("kb/")
            ids = {e.id for e in kb.entries.values()
                   if kb_file(e.file, kb.root).removeprefix(kb.root.name + "/") in (w, w + ".yaml") or e.id == w}
            if not ids:
                raise InputError(f"--examples {w!r}: neither an entry id nor a KB file (e.g. juan3/ge.yaml)")
            only |= ids
    errors = []
    t0 = time.monotonic()
    n = check_examples(kb, lambda path, line, msg: errors.append(KBError(kb_file(path, kb.root), line, msg)), only=only)
    for e in errors:
        print(f"liuren: {e}", file=sys.stderr)
    print(f"examples: {n} boards judged in {time.monotonic() - t0:.0f} s" + (f", {len(errors)} failed" if errors else ""))
    return len(errors)




def cmd_kb_facts(a):
    from liuren.app.engine import BUILTIN_FACTS
    kb = kb_of(a)
    print("built-in (asserted from the board):")
    for t, d in BUILTIN_FACTS.items():
        print(f"  {t}: {'、'.join(d['fields'])}\n      {d['doc']}")
    print("derived (asserted by rules; kb `facts:`):")
    for t, fields in sorted(kb.derived.items()):
        doc = kb.declared.get(t, {}).get("doc", "")
        print(f"  {t}: {'、'.join(sorted(fields))}" + (f"\n      {doc}" if doc else ""))
    print("tables (one fact per row):")
    for t in kb.tables.values():
        print(f"  {t.id}: {'、'.join(t.columns)}, id　（{t.name}）")
    return 0


def cmd_kb_examples(a):
    from liuren.app.engine import judge
    if a.max < 1:
        raise InputError(f"--max {a.max}: the number of boards to try must be at least 1")
    kb = kb_of(a)
    e = Q.resolve_entry(kb, a.rule)
    extra = {}
    for w in a.with_ or []:
        if "=" not in w:
            raise InputError(f"--with {w!r}: write key=value, e.g. question=射覆 or guiren=甲羊")
        k, v = w.split("=", 1)
        extra[k.strip()] = v.strip()
    def search(extra):
        n, fires, silent, fire_why, silent_why = 0, None, None, "", ""
        for b in Q.search_boards():
            n += 1
            b = {**b, **extra}
            r = judge(dict(b, kb=a.kb))
            got = e.id in r.fired_ids()
            if got and fires is None:
                fires = b
                f = next(f for f in r.firings if e.id in (f.report, f.rule))
                fire_why = "；".join(r.graph.nodes["fact:" + k]["text"] for k in f.premises
                                    if r.graph.nodes["fact:" + k]["origin"] != "table")
            if not got and silent is None:
                silent = b
                t = r.board.transmissions
                silent_why = f"{r.board.day}日 三傳{''.join(t.branches)}（{t.gate}）"
            if fires and silent or n >= a.max:
                break
        return n, fires, silent, fire_why, silent_why

    note = ""
    if "question" not in extra:
        # a rule that only a question brings out (by its condition, its reading table or its
        # examples): search asking that question, and say so
        from liuren.explain.audit import never_reason
        why = never_reason(kb, e.id)
        if why.get("reason") == "question":
            extra = {**extra, "question": why["questions"][0]}
            note = f"; it is asked under {'、'.join(why['questions'])}: searched with question={extra['question']}"
    n, fires, silent, fire_why, silent_why = search(extra)
    print(f"# {e.id} {e.name}: searched {n} boards" + note + ("" if fires else "; never fired (unreachable?)")
          + ("" if silent else "; never silent (always?)"))
    print("examples:")
    for label, b in (("fires", fires), ("silent", silent)):
        if b:
            why = fire_why if label == "fires" else silent_why
            print(f"  {label}:\n    - board: {Q.board_flow(b)}\n      why: {why} — （補足此盤{'成' if label == 'fires' else '不成'}之理）")
    return 0


def cmd_questions(a):
    qs = Q.questions_data(kb_of(a))
    if not qs:
        print("（此知識庫無問題程序）")
    for q in qs:
        aliases = "、".join(q["aliases"])
        print(f"{q['name']}\t{','.join(q['ids'])}\t{q['reading']}\t{'；'.join(q['sources'])}"
              + (f"\t又名 {aliases}" if aliases else ""))
    return 0


def add_commands(sub, cast_args):
    j = sub.add_parser("judge", help="cast and fire the rules; print the judgments grouped by kind")
    cast_args(j)
    add_judge_args(j)
    j.add_argument("--json", action="store_true", help="{board, fired, trace} as JSON")
    add_param(j, "all")                     # what a judgment shows: the one table's (app/params.py), as /api/judge
    add_param(j, "book")
    j.set_defaults(fn=cmd_judge)

    r = sub.add_parser("rules", help="list or show the rules")
    rs = r.add_subparsers(dest="rcmd", required=True, parser_class=sub._parser_class)
    rl = rs.add_parser("list", help="list rules (and reported table rows)")
    rl.add_argument("--kind", help="only this kind (課體 格 畢法 神煞 斷 總則 類相 占驗 起例)")
    rl.add_argument("--source", help="only those citing this seed (000 … 004)")
    rl.add_argument("--json", action="store_true")
    add_kb_arg(rl)
    add_lang_arg(rl)
    rl.set_defaults(fn=cmd_rules_list)
    rsh = rs.add_parser("show", help="show one rule or entry by id or name")
    rsh.add_argument("rule")
    rsh.add_argument("--json", action="store_true")
    add_kb_arg(rsh)
    add_lang_arg(rsh)
    rsh.set_defaults(fn=cmd_rules_show)

    lk = sub.add_parser("lookup", help="類相 of a branch, stem or general")
    lk.add_argument("symbol")
    lk.add_argument("--category", help="one category, e.g. 臟腑")
    lk.add_argument("--json", action="store_true")
    add_kb_arg(lk)
    add_lang_arg(lk)
    lk.set_defaults(fn=cmd_lookup)

    k = sub.add_parser("kb", help="knowledge-base maintenance")
    ks = k.add_subparsers(dest="kcmd", required=True, parser_class=sub._parser_class)
    kc = ks.add_parser("check", help="validate every KB file (errors name file and line)")
    kc.add_argument("--update-manifest", action="store_true",
                    help="write kb/manifest.yaml: what each file holds, which later checks compare with")
    kc.add_argument("--examples", nargs="*", metavar="ID|FILE",
                    help="also judge the example boards (fires, silent, unmet) of every entry, or of these "
                         "entries or files (juan3/ge.yaml): the check to run after an edit")
    kc.add_argument("--notes", action="store_true",
                    help="list every warning and note of the checks on the conditions' meaning "
                         "(subsumed, nested, differing), not only their counts")
    add_kb_arg(kc)
    kc.set_defaults(fn=cmd_kb_check)
    kf = ks.add_parser("facts", help="the fact vocabulary rules can match")
    add_kb_arg(kf)
    kf.set_defaults(fn=cmd_kb_facts)
    ke = ks.add_parser("examples", help="search boards where a rule fires and where it stays silent")
    ke.add_argument("rule")
    ke.add_argument("--max", type=int, default=3000, help="boards to try at most")
    ke.add_argument("--with", dest="with_", action="append", metavar="KEY=VALUE",
                    help="add this to every board tried (question=…, guiren=甲羊, month=…)")
    add_kb_arg(ke)
    ke.set_defaults(fn=cmd_kb_examples)

    q = sub.add_parser("questions", help="the question-specific procedures (--question)")
    add_kb_arg(q)
    q.set_defaults(fn=cmd_questions)
