"""The queries both front-ends ask: variants and books parsed and checked, the rules listed and
shown, an entry found by a typed name, a rule explained on a judged board (HOW or WHY-NOT), the
KB's manifest compared, example boards searched.  The CLI prints what these return; the web
app renders it."""
from __future__ import annotations

from liuren.errors import InputError
from liuren.i18n import DEFAULT, label_of, name_of
from liuren.explain.imagery import lookup_data  # noqa: F401 -- a query of both front-ends

from liuren.knowledge.kbload import MANIFEST

_COUNT_ORDER = ("rules", "tables", "named rows", "questions", "facts", "macros", "verses", "books", "options")


def parse_variants(values):
    """ID=VARIANT strings as {id: variant}."""
    out = {}
    for v in values or []:
        if "=" not in v:
            raise InputError(f"--variant {v!r}: write ID=VARIANT, e.g. sha-diwang=diben")
        k, val = v.split("=", 1)
        out[k.strip()] = val.strip()
    return out



def check_variants(kb, variants):
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



def rules_rows(kb, kind=None, source=None, lang=DEFAULT):
    """`liuren rules list`: (id, kind, name, sources) of every rule and reported row, filtered by
    kind and by the seed it cites.  An unknown kind or seed is an error (not an empty list)."""
    from liuren.knowledge.kbload import RULE_KINDS
    if kind and kind not in RULE_KINDS:
        raise InputError(f"--kind {kind!r} is not a kind (kinds: {'、'.join(RULE_KINDS)})")
    if source:
        seeds = sorted({s[:3] for s in kb.books if s} | {(s.get("seed") or "")[:3] for e in listed(kb) for s in e.source} - {""})
        full = {s for s in kb.books if s} | {s.get("seed") for e in listed(kb) for s in e.source if s.get("seed")}
        if source not in seeds and source not in full:
            raise InputError(f"--source {source!r}: no entry cites it (seeds: {'、'.join(seeds)})")
    rows = []
    for e in listed(kb):
        if kind and e.kind != kind:
            continue
        seeds = sorted({(s.get("seed") or "")[:3] for s in e.source})
        if source and not any(x.startswith(source[:3]) for x in seeds):
            continue
        paras = "、".join(dict.fromkeys(f"{(s.get('seed') or '')[:3]}¶{s['para']}" for s in e.source if "para" in s))
        rows.append((e.id, e.kind, name_of(e, lang), paras))
    return rows



def listed(kb):
    """Rules, and the named rows of tables whose rows are reported as judgments."""
    out = list(kb.rules.values())
    for t in kb.tables.values():
        if t.meta.get("reported"):
            out += [r for r in t.rows if r.id]
    return out



def find_entries(kb, key):
    """Entries named `key` by id, name, alias or a label in any language."""
    found = kb.find(key)
    if found:
        return found
    return [e for e in kb.entries.values() if key in ((e.meta.get("labels") or {}).values())]


def resolve_entry(kb, key):
    """One entry for a typed name (an id, a name or alias, or a label in either language); an
    unknown name names the nearest, an ambiguous one its candidates."""
    if not isinstance(key, str) or not key.strip():
        raise InputError(f"{key!r}: give a rule's id or name")
    found = find_entries(kb, key)
    if not found:
        near = kb.suggest(key)
        raise InputError(f"no rule or entry {key!r}" + (f"; nearest: {', '.join(near)}" if near else ""))
    if len(found) > 1:
        raise InputError(f"{key!r} names several entries: " + ", ".join(f"{e.id} ({e.kind})" for e in found)
                         + " — give an id")
    return found[0]


def _kb_relative(kb, path):
    """A KB file as the reader knows it: kb/juan3/ge.yaml, never the server's absolute path."""
    import pathlib
    p = pathlib.Path(path)
    try:
        return "kb/" + p.resolve().relative_to(kb.root.resolve()).as_posix()
    except ValueError:
        return p.name


def rule_detail(kb, e, lang=DEFAULT):
    """`liuren rules show`: an entry as a plain dict (its KB meta, file, family links)."""
    label = label_of(e.meta, lang)
    d = {"id": e.id, "name": label or e.name, **({"name_zh": e.name} if label else {}), "kind": e.kind,
         "file": f"{_kb_relative(kb, e.file)}:{e.line}"}
    for k, v in e.meta.items():
        if k not in d:
            d[k] = v
    if hasattr(e, "table") and e.table:
        d["table"] = e.table
    # a family rule and its rows: which rows it reports by name, which rule reports a row
    from liuren.explain.conditions import reported_rows, reporting_rule
    if e.id in kb.rows:
        fam, _ = reporting_rule(kb, e.id)
        if fam is not None:
            d["reported_by"] = fam.id
    elif getattr(e, "as_var", None):
        d["reports"] = [f"{r.id} {r.name}" for r in reported_rows(kb, e)]
    return _plain(d)



def _plain(x):
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_plain(v) for v in x]
    return x



def counts_text(c):
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
            problems.append(f"{kb.root.name}/{f}: the manifest lists it ({counts_text(want)}), but it is gone")
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
    for f, want in sorted(kb.manifest.items()):
        if f in kb.file_counts:
            problems += _compare_sizes(kb, f, want.get("sizes"))
    return problems, notes


_AFTER = "(after a deliberate change: liuren kb check --update-manifest)"


def _compare_sizes(kb, f, want):
    """Each rule and table of a file against the manifest's sizes: fewer conditions and
    conclusions, or fewer rows, is a lost line; an id gone from the file is renamed or lost."""
    if not isinstance(want, dict):
        return []
    have = kb.sizes.get(f, {})
    where = f"{kb.root.name}/{f}"
    out = []
    new = [i for i in have if i not in want]
    for i, w in want.items():
        if i not in have:
            guess = f" — renamed {new[0]} (line {have[new[0]][1]})?" if len(new) == 1 else ""
            out.append(f"{where}: the manifest lists {i} in this file, which no longer has it{guess}: ids are what "
                       f"tests and users refer to {_AFTER}")
            continue
        n, line = have[i]
        if isinstance(w, int) and n < w:
            what = "rows and cells" if i in kb.tables else "conditions and conclusions"
            out.append(f"{where}:{line}: {i} holds {n} {what}, the manifest says {w} — a lost line? {_AFTER}")
    return out



def write_manifest(kb):
    import yaml
    body = {f: {**{k: c[k] for k in _COUNT_ORDER if c.get(k)},
                **({"sizes": {i: n for i, (n, _line) in kb.sizes[f].items()}} if kb.sizes.get(f) else {})}
            for f, c in sorted(kb.file_counts.items())}
    text = ("# What each file of this knowledge base holds.  `liuren kb check` compares the KB with it:\n"
            "# a file that is gone or holds fewer entries is an error, and so is a rule with fewer\n"
            "# conditions and conclusions or a table with fewer rows and cells (sizes:) than it says, or an id gone.\n"
            "# After a deliberate change:\n"
            "#   liuren kb check --update-manifest\n")
    (kb.root / MANIFEST).write_text(text + yaml.safe_dump({"manifest": body}, allow_unicode=True, sort_keys=False),
                                    encoding="utf-8")



def search_boards(extras=None):
    """Candidate example boards, plain ones first."""
    from liuren.casting.symbols import BRANCHES, JIAZI
    from liuren.casting.calendar import month_of_year
    months = [month_of_year("丙午", b) for b in "寅巳申亥辰"]      # months the year 丙午 has
    for extra in ([{}] if extras is None else []) + [dict(extras or {}, month=m) for m in months[:1]] + \
            [dict(extras or {}, month=m, year="丙午", born=1990, sex="m") for m in months]:
        for i, day in enumerate(JIAZI):
            for off in range(12):
                for night in (False, True):
                    yield dict(extra, day=day, on=f"{BRANCHES[(off + i) % 12]}加{BRANCHES[i % 12]}", night=night)



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




def explain(r, key):
    """HOW if the entry fired on the judged board, else WHY-NOT (a dict).  Both read the part of
    the trace the entry's chain rests on (Judgment.chain_graph), not the whole graph."""
    from liuren.explain.chain import how
    from liuren.explain.whynot import why_not
    g = r.chain_graph(key)
    return how(g, key, kb=r.kb) or why_not(g, key, r.kb)


def judged(kw, *, variants=None, question=None, kb=None, timeout=None):
    """Cast and judge a board (cast() keyword arguments, or a Board), the variants checked first."""
    from liuren.rules.judging import judge
    from liuren.knowledge.kbload import load_kb
    if variants:
        check_variants(load_kb(kb), variants)
    return judge(kw, kb=kb, variants=variants or {}, question=question, timeout=timeout)


def explain_rule(rule, board=None, *, question=None, variants=None, kb=None, **cast_kwargs):
    """HOW or WHY-NOT of `rule` (an id, a name, an alias or a label) on a board (a Board, or cast
    from the keyword arguments)."""
    from liuren.knowledge.kbload import load_kb
    entry = resolve_entry(load_kb(kb), rule)
    r = judged(board if board is not None else cast_kwargs, variants=variants, question=question, kb=kb)
    return explain(r, entry.id)


def chain_part(r, rule):
    """The part of a judgment's trace that `rule`'s chain reads (a networkx graph): its firings, those
    they rest on and those that defeat them, their premises and conclusions, the casting steps when
    the 三傳 is read — what the chain's graph on a page shows, as an export takes it."""
    from liuren.explain.html import chain_graph
    e = resolve_entry(r.kb, rule)
    g = r.graph
    part = chain_graph(g, e.id)
    if part is None:
        raise InputError(f"{rule!r}: {e.id} did not fire on this board, so it has no chain to export "
                         "(liuren why gives its WHY-NOT)")
    return g.subgraph([n["data"]["id"] for n in part["nodes"]]).copy()
