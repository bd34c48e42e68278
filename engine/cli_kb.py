"""Commands over the knowledge base: judge, rules, lookup, kb check/facts/examples, questions."""
from __future__ import annotations

import json
import sys

from .errors import InputError, LiurenError
from .i18n import DEFAULT, label_of, lang_of, name_of, word
from .kbload import MANIFEST

POSITIONS = {"日干", "日支", "干上", "干陰", "支上", "支陰", "初傳", "中傳", "末傳", "占時", "月將", "月建",
             "太歲", "本命", "行年", "旬首", "旬尾"}


def _dump(obj):
    return json.dumps(obj, ensure_ascii=False, indent=2)


def add_kb_arg(p):
    p.add_argument("--kb", metavar="DIR", help="load another knowledge-base folder instead of the installed kb/")


def add_lang_arg(p):
    p.add_argument("--lang", help="zh (the classical text, default) or ja (names and headings of 《六壬經緯（日譯）》, "
                                  "the 日譯 quote beside the classical one); default $LIUREN_LANG")


def add_judge_args(p):
    add_kb_arg(p)
    add_lang_arg(p)
    p.add_argument("--variant", action="append", default=[], metavar="ID=VARIANT",
                   help="read an entry by another variant, e.g. sha-diwang=diben ('*=diben': every 底本 reading)")
    p.add_argument("--question", help="add a question's procedure (liuren questions lists them)")


def variants_of(a):
    out = {}
    for v in getattr(a, "variant", []) or []:
        if "=" not in v:
            raise InputError(f"--variant {v!r}: write ID=VARIANT, e.g. sha-diwang=diben")
        k, val = v.split("=", 1)
        out[k.strip()] = val.strip()
    return out


def kb_of(a):
    from .kbload import load_kb
    return load_kb(getattr(a, "kb", None))


def check_kb_arg(a):
    """--kb names a folder: an empty value is an error, not the installed kb/."""
    if getattr(a, "kb", None) is not None and not str(a.kb).strip():
        raise InputError("--kb '': give a knowledge-base folder (or leave --kb out for the installed kb/)")


def _check_variants(kb, variants):
    for k, v in variants.items():
        if k == "*":
            known = sorted({x["id"] for e in kb.entries.values() for x in e.variants})
            if v not in known:
                raise InputError(f"--variant '*={v}': no entry has a variant {v!r} (variants: {', '.join(known) or '(none)'})")
            continue
        ents = kb.entries
        if k not in ents:
            near = kb.suggest(k)
            raise InputError(f"--variant: unknown entry {k!r}" + (f" (did you mean {', '.join(near)}?)" if near else ""))
        ids = [x["id"] for x in ents[k].variants]
        if v not in ids:
            raise InputError(f"--variant {k}={v}: {k} has variants {', '.join(ids) or '(none)'}")


def book_filter(kb, wanted):
    """--book values (a book 六壬大全, a book and volume 六壬大全卷七, or a seed number 107) as
    a test on a firing: does one of its sources come from one of them?  Unknown → InputError."""
    if not wanted:
        return None
    keys = {}
    for seed, b in kb.books.items():
        if not seed:
            continue
        book, vol = b.get("book", ""), b.get("volume", "")
        for k in (book, f"《{book}》", book + vol, f"《{book}》{vol}", seed[:3]):
            keys.setdefault(k, set()).add(seed)
    seeds = set()
    for w in wanted:
        w = w.strip()
        if w not in keys:
            names = sorted({b.get("book", "") for b in kb.books.values() if b.get("book")})
            raise InputError(f"--book {w!r}: not a book of this KB (books: {'、'.join(names)}; "
                             "or a book and volume such as 六壬大全卷七, or a seed number such as 107)")
        seeds |= keys[w]
    return lambda f: any(s.get("seed") in seeds for s in f.sources)


def firing_name(f, kb, lang=DEFAULT):
    """A judgment's name for the reader: its entry's label in the language, else its name."""
    e = kb.entries.get(f.report) if kb is not None else None
    return (label_of(e.meta, lang) if e is not None else None) or f.name


def firing_parts(f, result=None, lang=DEFAULT):
    """What a judgment's line says, piece by piece (the CLI's line and the web page show these):
    name, where (the branches it is about and the positions they are seen at), reading,
    valence, the cited sources, and the names of the judgments that say not to take it as real."""
    kb = result.kb if result is not None else None
    where = []
    pos = [v for v in f.bindings.values() if v in POSITIONS and v != f.name]
    if f.about:
        where.append("、".join(f.about))
    if pos:
        where.append("見於" + "、".join(dict.fromkeys(pos)))
    from .judging import cite
    return {"name": firing_name(f, kb, lang), "where": "，".join(where), "reading": f.reading, "valence": f.valence,
            "refs": list(dict.fromkeys(cite(s) for s in f.sources)),
            "defeated_by": ([firing_name(result.firings[i], kb, lang) for i in f.defeated_by]
                            if f.defeated and result is not None else [])}


def firing_line(f, result=None, lang=DEFAULT):
    p = firing_parts(f, result, lang)
    head = p["name"] + (f"（{p['where']}）" if p["where"] else "")
    line = f"  {head}　{p['reading']}"
    if p["valence"]:
        line += f"〔{p['valence']}〕"
    refs = "；".join(p["refs"])
    if refs:
        line += f"　{refs}"
    if p["defeated_by"]:
        line += f"\n      ※ {word('勿以實論', lang)}（{'、'.join(p['defeated_by'])}）"
    return line


def grounds_line(line, group, kb, lang=DEFAULT):
    """Several firings of one rule that read the same on screen (the same judgment reached on
    different grounds: another branch of an `any:`, another criterion, another rule governed by
    a 總則) are one line, followed by what tells the grounds apart: the bindings that differ,
    rule ids given by name."""
    if len(group) == 1:
        return line
    keys = list(dict.fromkeys(k for f in group for k in f.bindings))
    varying = [k for k in keys if len({repr(f.bindings.get(k)) for f in group}) > 1]

    def shown(v):
        e = (kb.rows.get(v) or kb.rules.get(v)) if isinstance(v, str) else None
        return name_of(e, lang) if e is not None else str(v)
    grounds = "／".join("、".join(shown(f.bindings[k]) for k in varying if k in f.bindings) or "—" for f in group)
    first, nl, rest = line.partition("\n")
    return f"{first}　〔{len(group)} {word('途', lang)}：{grounds}〕{nl}{rest}"


def _order(f):
    s = next((s for s in f.sources if s.get("seed")), {})
    return (s.get("seed", "~"), s.get("para", 0), f.n)


def cmd_judge(a):
    from .cli import cast_kwargs
    from .judging import judge
    from .render import board_text
    kw = cast_kwargs(a)
    variants = variants_of(a)
    if variants:
        _check_variants(kb_of(a), variants)
    keep = book_filter(kb_of(a), a.book)
    lang = lang_of(a.lang)
    r = judge(dict(kw, variants=variants, question=a.question, kb=a.kb))
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
    groups = r.by_kind(include_placements=a.all)
    if keep:
        groups = {k: [f for f in fs if keep(f)] for k, fs in groups.items()}
        groups = {k: fs for k, fs in groups.items() if fs}
    if not groups:
        print(f"（{word('無任何規則成立', lang)}）")
    for kind, fs in groups.items():
        print(f"【{word(kind, lang)}】")
        lines = {}
        for f in sorted(fs, key=_order):
            lines.setdefault(firing_line(f, r, lang), []).append(f)
        for line, group in lines.items():
            print(grounds_line(line, group, r.kb, lang))
    for heading, lines in r.findings(keep).items():
        print(f"【{heading}】")
        for line in lines:
            print(f"  {line}")
    return 0


def rules_rows(kb, kind=None, source=None, lang=DEFAULT):
    """`liuren rules list`: (id, kind, name, sources) of every rule and reported row, filtered by
    kind and by the seed it cites.  An unknown kind or seed is an error (not an empty list)."""
    from .kbload import RULE_KINDS
    if kind and kind not in RULE_KINDS:
        raise InputError(f"--kind {kind!r} is not a kind (kinds: {'、'.join(RULE_KINDS)})")
    if source:
        seeds = sorted({s[:3] for s in kb.books if s} | {(s.get("seed") or "")[:3] for e in _listed(kb) for s in e.source} - {""})
        if source[:3] not in seeds:
            raise InputError(f"--source {source!r}: no entry cites it (seeds: {'、'.join(seeds)})")
    rows = []
    for e in _listed(kb):
        if kind and e.kind != kind:
            continue
        seeds = sorted({(s.get("seed") or "")[:3] for s in e.source})
        if source and not any(x.startswith(source[:3]) for x in seeds):
            continue
        paras = "、".join(dict.fromkeys(f"{(s.get('seed') or '')[:3]}¶{s['para']}" for s in e.source if "para" in s))
        rows.append((e.id, e.kind, name_of(e, lang), paras))
    return rows


def cmd_rules_list(a):
    rows = rules_rows(kb_of(a), a.kind, a.source, lang_of(a.lang))
    if a.json:
        print(_dump([dict(zip(("id", "kind", "name", "sources"), r)) for r in rows]))
    else:
        for r in rows:
            print("\t".join(r))
    return 0


def _listed(kb):
    """Rules, and the named rows of tables whose rows are reported as judgments."""
    out = list(kb.rules.values())
    for t in kb.tables.values():
        if t.meta.get("reported"):
            out += [r for r in t.rows if r.id]
    return out


def resolve_entry(kb, key):
    found = kb.find(key)
    if not found:
        near = kb.suggest(key)
        raise InputError(f"no rule or entry {key!r}" + (f"; nearest: {', '.join(near)}" if near else ""))
    if len(found) > 1:
        raise InputError(f"{key!r} names several entries: " + ", ".join(f"{e.id} ({e.kind})" for e in found)
                         + " — give an id")
    return found[0]


def rule_detail(kb, e, lang=DEFAULT):
    """`liuren rules show`: an entry as a plain dict (its KB meta, file, family links)."""
    label = label_of(e.meta, lang)
    d = {"id": e.id, "name": label or e.name, **({"name_zh": e.name} if label else {}), "kind": e.kind,
         "file": f"{e.file}:{e.line}"}
    for k, v in e.meta.items():
        if k not in d:
            d[k] = v
    if hasattr(e, "table") and e.table:
        d["table"] = e.table
    # a family rule and its rows: which rows it reports by name, which rule reports a row
    from explain.whynot import reporting_rule
    if e.id in kb.rows:
        fam, _ = reporting_rule(kb, e.id)
        if fam is not None:
            d["reported_by"] = fam.id
    elif getattr(e, "as_var", None):
        d["reports"] = [f"{r.id} {r.name}" for r in kb.rows.values() if reporting_rule(kb, r.id)[0] is e]
    return _plain(d)


def cmd_rules_show(a):
    import yaml
    kb = kb_of(a)
    d = rule_detail(kb, resolve_entry(kb, a.rule), lang_of(a.lang))
    if a.json:
        print(_dump(d))
    else:
        print(yaml.safe_dump(d, allow_unicode=True, sort_keys=False, width=100).rstrip())
    return 0


def _plain(x):
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_plain(v) for v in x]
    return x


def _category_names(kb, lang):
    """The 類相 categories by their names in both languages: {label or name: 門} and {門: shown}."""
    by_label, shown = {}, {}
    for t in kb.tables.values():
        if t.kind == "類相":
            for r in t.rows:
                if r.name:
                    shown.setdefault(r.name, name_of(r, lang))
                    for v in (r.meta.get("labels") or {}).values():
                        by_label.setdefault(v, r.name)
    return by_label, shown


def lookup_data(kb, symbol, category=None, lang=DEFAULT):
    """`liuren lookup`: (the symbol, {category: [類相 …]}) of a branch, stem or general; a category
    may be named by its label too (臓腑 for 臟腑), and is shown in the reader's language."""
    from .symbols import SHORT_GENERALS, is_branch, is_stem
    by_label, shown = _category_names(kb, lang)
    wanted = by_label.get(category, category) if category else None
    sym = SHORT_GENERALS.get(symbol, symbol)
    known = set(SHORT_GENERALS.values())
    if not (is_branch(sym) or is_stem(sym) or sym in known):
        raise InputError(f"lookup {symbol!r}: give a branch (子…亥), a stem or a general (貴人…天后)")
    out = {}
    cats = set()
    for t in kb.tables.values():
        if t.kind != "類相":
            continue
        for d in t.facts():
            cat = d.get("門") or t.name
            cats.add(cat)
            if wanted and cat != wanted:
                continue
            if sym in (d.get("支"), d.get("干"), d.get("將")) and d.get("象"):
                out.setdefault(cat, [])
                if d["象"] not in out[cat]:
                    out[cat].append(d["象"])
    if wanted and wanted not in cats:
        raise InputError(f"--category {category!r}: categories are {'、'.join(sorted(cats)) or '(none in this KB)'}")
    return sym, {shown.get(c, c): v for c, v in out.items()}


def cmd_lookup(a):
    lang = lang_of(a.lang)
    sym, out = lookup_data(kb_of(a), a.symbol, a.category, lang)
    if a.json:
        print(_dump(out))
    else:
        if not out:
            print(f"（{sym} {word('無', lang)}{word('類相', lang)}）")
        for cat, items in out.items():
            print(f"{cat}：{'、'.join(items)}")
    return 0


def cmd_kb_check(a):
    from .kbload import load_kb
    # always read the files afresh (not this process's cached KB): they may have just changed
    kb, errors = load_kb.__wrapped__(getattr(a, "kb", None), collect=True)
    for e in errors:
        print(f"liuren: {e}", file=sys.stderr)
    if errors:
        return 2
    if not errors:
        try:
            from .compile import build
            build(kb)
        except LiurenError as e:
            print(f"liuren: {e}", file=sys.stderr)
            return 2
    problems, notes = compare_manifest(kb)
    if getattr(a, "update_manifest", False):
        write_manifest(kb)
        problems, notes = [], [f"manifest written: {kb.root / MANIFEST}"]
    for f in sorted(kb.file_counts):
        print(f"{f}: {_counts_text(kb.file_counts[f])}")
    for n in notes:
        print(f"note: {n}")
    for msg in problems:
        print(f"liuren: {msg}", file=sys.stderr)
    if problems:
        return 2
    nrows = sum(1 for t in kb.tables.values() for r in t.rows if r.id)
    print(f"{kb.root}: {len(kb.files)} files, {len(kb.rules)} rules, {len(kb.tables)} tables "
          f"({nrows} named rows), {len(kb.questions)} questions — ok")
    return 0


_COUNT_ORDER = ("rules", "tables", "named rows", "questions", "facts", "macros", "verses", "books", "options")


def _counts_text(c):
    return ", ".join(f"{c[k]} {k}" for k in _COUNT_ORDER if c.get(k)) or "nothing"


def compare_manifest(kb):
    """What each file holds against kb/manifest.yaml: a file gone or holding fewer entries is a
    problem (a KB that shrinks is not ok without a word); more entries or a new file is a note."""
    if kb.manifest is None:
        return [], [f"no {MANIFEST} in {kb.root}: the counts above are not pinned (kb check --update-manifest)"]
    problems, notes = [], []
    for f, want in sorted(kb.manifest.items()):
        have = kb.file_counts.get(f)
        if have is None:
            problems.append(f"{kb.root.name}/{f}: the manifest lists it ({_counts_text(want)}), but it is gone")
            continue
        for k in _COUNT_ORDER:
            w, h = int(want.get(k, 0) or 0), have.get(k, 0)
            if h < w:
                problems.append(f"{kb.root.name}/{f}: holds {h} {k}, the manifest says {w} — entries were lost "
                                "(after a deliberate change: liuren kb check --update-manifest)")
            elif h > w:
                notes.append(f"{f}: {h} {k} (manifest: {w})")
    for f in sorted(set(kb.file_counts) - set(kb.manifest)):
        notes.append(f"{f}: a new file, not in the manifest")
    return problems, notes


def write_manifest(kb):
    import yaml
    body = {f: {k: c[k] for k in _COUNT_ORDER if c.get(k)} for f, c in sorted(kb.file_counts.items())}
    text = ("# What each file of this knowledge base holds.  `liuren kb check` compares the KB with it:\n"
            "# a file that is gone or holds fewer entries is an error.  After a deliberate change:\n"
            "#   liuren kb check --update-manifest\n")
    (kb.root / MANIFEST).write_text(text + yaml.safe_dump({"manifest": body}, allow_unicode=True, sort_keys=False),
                                    encoding="utf-8")


def cmd_kb_facts(a):
    from .facts import BUILTIN_FACTS
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


def search_boards(extras=None):
    """Candidate example boards, plain ones first."""
    from .symbols import BRANCHES, JIAZI
    months = ["丙寅", "己巳", "壬申", "乙亥", "戊辰"]
    for extra in ([{}] if extras is None else []) + [dict(extras or {}, month=m) for m in months[:1]] + \
            [dict(extras or {}, month=m, year="丙午", born=1990, sex="m") for m in months]:
        for i, day in enumerate(JIAZI):
            for off in range(12):
                for night in (False, True):
                    yield dict(extra, day=day, on=f"{BRANCHES[(off + i) % 12]}加{BRANCHES[i % 12]}", night=night)


def cmd_kb_examples(a):
    from .judging import judge
    if a.max < 1:
        raise InputError(f"--max {a.max}: the number of boards to try must be at least 1")
    kb = kb_of(a)
    e = resolve_entry(kb, a.rule)
    extra = {}
    for w in a.with_ or []:
        if "=" not in w:
            raise InputError(f"--with {w!r}: write key=value, e.g. question=射覆 or guiren=甲羊")
        k, v = w.split("=", 1)
        extra[k.strip()] = v.strip()
    def search(extra):
        n, fires, silent, fire_why, silent_why = 0, None, None, "", ""
        for b in search_boards():
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
        from explain.audit import never_reason
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
            print(f"  {label}:\n    - board: {board_flow(b)}\n      why: {why} — （補足此盤{'成' if label == 'fires' else '不成'}之理）")
    return 0


def board_flow(b):
    """A board as a one-line YAML flow mapping, e.g. {day: 丁卯, on: 亥加丑, night: true}."""
    def val(v):
        return "true" if v is True else "false" if v is False else str(v)
    return "{" + ", ".join(f"{k}: {val(v)}" for k, v in b.items()) + "}"


def questions_data(kb):
    """`liuren questions`: each question's name, ids, reading, cited paragraphs and aliases."""
    return [{"name": q["name"], "ids": list(q["ids"]), "reading": q.get("reading", ""),
             "sources": list(dict.fromkeys(f"{s['seed'][:3]}¶{s['para']}" for s in q["source"] if "para" in s)),
             "aliases": list(q.get("aliases") or [])} for q in kb.questions.values()]


def cmd_questions(a):
    qs = questions_data(kb_of(a))
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
    j.add_argument("--all", action="store_true", help="also list the placements (起例)")
    j.add_argument("--book", action="append", default=[], metavar="BOOK",
                   help="only judgments citing this book (六壬大全, 六壬經緯, 六壬銀河櫂), book and volume "
                        "(六壬大全卷七) or seed number (107); may be repeated")
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
