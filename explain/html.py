"""HTML fragments of a board and of a judgment — the square of 天地盤, 四課, 三傳, the judgments by
kind, a chain's graph — as the web pages and a notebook (`_repr_html_`) show them.  The fragments
are this package's own templates (explain/templates); the web app's pages include them.

`board_parts` and `judgment_groups` give what the templates draw, as plain data;
`board_html` / `judgment_html` render them with the stylesheet inline for a notebook cell.
"""
from __future__ import annotations

import functools
import pathlib

from liuren import display
from liuren.casting.symbols import bi
from liuren.i18n import is_rendering
from liuren.explain import words as L
from liuren.explain.imagery import imagery, imagery_text
from liuren.explain.steps import step_name, step_text
from liuren.knowledge.kbload import cite

HERE = pathlib.Path(__file__).resolve().parent


@functools.lru_cache(maxsize=1)
def env():
    """The Jinja2 environment of the fragments (the web app adds its own pages' folder)."""
    import jinja2
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")), autoescape=True,
                              trim_blocks=True, lstrip_blocks=True)


@functools.lru_cache(maxsize=1)
def stylesheet():
    """The pages' stylesheet (explain/static/liuren.css), which the web app serves too."""
    return (HERE / "static" / "liuren.css").read_text(encoding="utf-8")


def board_parts(kb, board, lang="zh", show_chuan=True):
    """The board as the templates draw it: header lines (the CLI's), the square, 四課, 三傳."""
    from liuren.explain.boardtext import SHORT, SQUARE, header
    raw = imagery(kb)
    img = {k: imagery_text(k, v, kb=kb, lang=lang) for k, v in raw.items()}
    T = lambda w: L.term(kb, w, lang)          # noqa: E731 -- a general by its label in lang (青竜)
    chuan = set(board.transmissions.branches)
    cells = []
    for row in SQUARE:
        r = []
        for earth in row:
            if earth is None:
                r.append(None)
                continue
            heaven = board.over(earth)
            g = board.generals[heaven]
            r.append({"earth": earth, "heaven": heaven, "general": T(g), "short": SHORT[g],
                      "void": heaven in board.void, "chuan": show_chuan and heaven in chuan,
                      "noble": g == "貴人", "liuqin": board.liuqin_t[bi(heaven)][1],
                      "dungan": board.dungan_t[bi(heaven)],
                      "img_heaven": img.get(heaven, heaven), "img_general": img.get(g, g)})
        cells.append(r)
    lessons = []
    for i, l in reversed(list(enumerate(board.lessons))):
        lessons.append({"n": i, "upper": l.upper, "lower": l.lower, "general": T(l.general), "short": SHORT[l.general],
                        "void": l.upper in board.void, "img_upper": img.get(l.upper, l.upper),
                        "img_general": img.get(l.general, l.general)})
    t = board.transmissions
    chuan_rows = []
    for i, b in enumerate(t.branches):
        k = bi(b)
        g = board.generals[b]
        chuan_rows.append({"n": i, "branch": b, "liuqin": board.liuqin_t[k][1], "dungan": board.dungan_t[k],
                           "general": T(g), "void": b in board.void,
                           "img": img.get(b, b), "img_general": img.get(g, g)})
    steps = [{"text": step_text(s, lang, kb), "verse": s.verse if s.verse and s.book != "起課 (casting.md)" else "", "book": s.book,
              "rule": s.rule} for s in t.steps]
    gate = t.gate + (f"・{t.subtype}" if t.subtype and t.subtype != t.gate else "")
    return {"header": header(board, lang), "day": board.day, "square": cells, "lessons": lessons, "chuan": chuan_rows, "steps": steps,
            "gate": gate, "notes": [L.board_note(n, lang) for n in board.notes], "void": "".join(board.void)}



FIRST_KINDS = ("課體", "格")        # open at the top of the board: the lesson's 課體 and its 格; the rest folded


def _places(group, lang, board=None):
    """The places of a judgment's firings, each once: [(branches, positions, pairs)], branches repeated
    in one firing (亥、亥) given once, firings at the same branches merged with their positions; where
    a firing's positions hold different values, each position with its own value (pairs: 日干 丁（寄未）、
    末傳 酉 …), never two values for four positions."""
    from liuren.explain.render import POSITIONS, place_pairs
    out = {}
    for f in group:
        paired = place_pairs(f, board)
        if paired is not None:
            extras, pairs = paired
            key = ("pairs", tuple(extras), tuple(pairs))
            out.setdefault(key, [])
            continue
        key = tuple(dict.fromkeys(f.about))
        pos = list(dict.fromkeys(v for v in f.bindings.values() if v in POSITIONS and v != f.name))
        at = out.setdefault(key, [])
        at += [L.position(x, lang) for x in pos if L.position(x, lang) not in at]
    res = []
    for k, v in out.items():
        if k and k[0] == "pairs":
            res.append((list(k[1]), [], [(L.position(p, lang), b) for p, b in k[2]]))
        elif k or v:
            res.append((list(k), v, []))
    return res


def _routes(group, kb, lang):
    """Several firings of a judgment at one place (an `any:` met two ways, two criteria, a 總則 over two
    judgments): what tells them apart, in words (a name for a rule id), or None for one firing."""
    from liuren.i18n import name_of
    if len(group) < 2:
        return None
    keys = list(dict.fromkeys(k for f in group for k in f.bindings))
    from liuren.explain.render import POSITIONS
    # the positions it is seen at are its places (shown with them), not other routes
    varying = [k for k in keys if len({repr(f.bindings.get(k)) for f in group}) > 1
               and not all(f.bindings.get(k) in POSITIONS for f in group if k in f.bindings)]

    def shown(v):
        e = (kb.rows.get(v) or kb.rules.get(v)) if isinstance(v, str) else None
        return (name_of(e, lang) if e is not None else str(v))
    ways = ["、".join(shown(f.bindings[k]) for k in varying if k in f.bindings) or L.WORDS[lang]["route_other"]
            for f in group]
    ways = list(dict.fromkeys(ways))
    if len(ways) < 2:
        return None
    return L.WORDS[lang]["routes"].format(n=len(ways), ways="／".join(ways))


def declared_conflict(kb, a, b):
    """Does the KB declare that the judgments a and b contradict each other (the books' two views)?
    By `conflicts:` on either entry or on its table.  The table declared-conflicts is not read here:
    its rows name whole families by globs (神煞合參 …) to be read together, not two views."""
    return _conflicts(a, b, _declared_patterns(kb, a), _declared_patterns(kb, b))


def _declared_patterns(kb, x):
    """The `conflicts:` patterns of entry x and of its table."""
    e = kb.entries.get(x)
    if e is None:
        return []
    out = list(e.meta.get("conflicts") or [])
    t = kb.tables.get(getattr(e, "table", None) or "")
    if t is not None:
        out += list(t.meta.get("conflicts") or [])
    return out


def _conflicts(a, b, pa, pb):
    import fnmatch
    return (any(fnmatch.fnmatchcase(b, pat) for pat in pa) or
            any(fnmatch.fnmatchcase(a, pat) for pat in pb))


def judgment_groups(kb, r, keep, lang="zh", placements=False):
    """The judgments grouped by kind, the 課體 and 格 first (open), the others after them (folded,
    with their counts).  One item per judgment: its places each once, its reading, valence and
    sources, the ways it was reached told in words; with what the filters need (kind, valence,
    books: `keep` tells which are shown); `placements` adds the 起例."""
    from liuren.explain.render import firing_order, firing_parts
    # a short 類相 per branch for the judgment lines (the square has the full one)
    img = {k: imagery_text(k, dict(list(v.items())[:8]), n=3, kb=kb, lang=lang) for k, v in imagery(kb).items()}
    by_kind = r.by_kind(include_placements=placements)
    order = [k for k in FIRST_KINDS if k in by_kind] + [k for k in by_kind if k not in FIRST_KINDS]
    groups = []
    for kind in order:
        fs = by_kind[kind]
        lines = {}
        for f in sorted(fs, key=firing_order):
            key = (f.report, f.reading, f.valence, tuple(f.defeated_by) if f.defeated else ())
            lines.setdefault(key, []).append(f)
        items = []
        for group in lines.values():
            f = group[0]
            parts = firing_parts(f, r)
            books = sorted({s.get("book") for x in group for s in x.sources if s.get("book")})
            refs = list(dict.fromkeys(c for x in group for c in firing_parts(x, r)["refs"]))
            places = [{"branches": [{"b": b, "img": img.get(b, b)} for b in bs], "at": at,
                       "pairs": [{"at": p, "b": b, "img": img.get(b[-2] if b.endswith("）") else b, b)} for p, b in pairs]}
                      for bs, at, pairs in _places(group, lang, r.board)]
            by_place = {}
            for x in group:
                by_place.setdefault(tuple(dict.fromkeys(x.about)), []).append(x)
            routes = [w for w in (_routes(g, kb, lang) for g in by_place.values()) if w]
            items.append({
                "places": places, "place_text": L.places_text(places, lang),
                "id": f.report, "family": f.rule if f.rule != f.report else None, "kind": f.kind,
                "name": L.name_of(kb, f.report, f.name, lang), "name_zh": f.name,
                "reading": parts["reading"], "valence": parts["valence"],
                "valence_word": L.valence_word(parts["valence"], lang),
                "refs": refs, "books": books, "routes": routes, "shown": keep is None or keep(f),
                "defeated_by": [L.name_of(kb, r.firings[i].report, r.firings[i].name, lang)
                                for i in f.defeated_by] if f.defeated else [],
                "gate_note": gate_note(kb, r.board, f, lang),
            })
        items = _merge_children(items, lang)
        groups.append({"kind": kind, "word": L.kind_word(kind, lang), "entries": items,
                       "open": kind in FIRST_KINDS, "count": sum(1 for i in items if i["shown"])})
    if not any(g["open"] and g["count"] for g in groups):
        for g in groups:                    # filtered to other kinds: those the reader chose are open
            g["open"] = g["count"] > 0
    return groups


def _merge_children(items, lang="zh"):
    """Each judgment once: a child named 「失時:干支上乘此」 beside its parent 「失時」 is one line, the
    parent's, which says by which of its ways it was reached (失時（干支上乘此）) and where."""
    by_name = {i["name_zh"]: i for i in items}
    out = []
    for i in items:
        head, sep, tail = i["name_zh"].partition(":")
        parent = by_name.get(head) if sep else None
        if parent is None or parent is i:
            out.append(i)
            continue
        parent.setdefault("ways", []).append(tail)
        for p in i["places"]:
            if p not in parent["places"]:
                parent["places"].append(p)
        parent["place_text"] = L.places_text(parent["places"], lang)
        parent["refs"] = list(dict.fromkeys(parent["refs"] + i["refs"]))
        parent["books"] = sorted(set(parent["books"]) | set(i["books"]))
    for i in out:
        if i.get("ways"):
            i["name"] = f"{i['name']}（{'、'.join(i['ways'])}）"
    return out


def summary(groups, lang="zh"):
    """The board in the order a reader takes it: the 課體, what the 三傳 say (the 格 seen at a 傳), then
    the other 格 by tone — names only; the full list follows."""
    chuan = {L.position(x, lang) for x in ("初傳", "中傳", "末傳")}
    out = {"keti": [], "chuan": [], "tones": {}}
    for g in groups:
        for i in g["entries"]:
            if not i["shown"] or i["defeated_by"]:
                continue
            if g["kind"] == "課體":
                out["keti"].append(i)
            elif g["kind"] == "格":
                at = {a for p in i["places"] for a in p["at"]} | {x["at"] for p in i["places"] for x in p.get("pairs") or []}
                if at & chuan:
                    out["chuan"].append(i)
                else:
                    out["tones"].setdefault(i["valence_word"] or "", []).append(i)
    return out if (out["keti"] or out["chuan"] or out["tones"]) else None


def two_views(kb, groups, lang="zh"):
    """Pairs of judgments on the board that the KB declares contradict each other (`conflicts:`):
    the books' two views, to be shown side by side, each with its sources."""
    items = [i for g in groups for i in g["entries"] if i["shown"]]
    pats = {i["id"]: _declared_patterns(kb, i["id"]) for i in items}     # once per entry, not per pair
    pairs, seen = [], set()
    for i, a in enumerate(items):
        pa = pats[a["id"]]
        for b in items[i + 1:]:
            pb = pats[b["id"]]
            if (pa or pb) and a["id"] != b["id"] and (a["id"], b["id"]) not in seen and \
                    _conflicts(a["id"], b["id"], pa, pb):
                seen.add((a["id"], b["id"]))
                note = next((x.interpretation.get("chosen") for x in (kb.entries.get(a["id"]), kb.entries.get(b["id"]))
                             if x is not None and x.interpretation and x.interpretation.get("chosen")), "")
                e = kb.entries.get(a["id"]) if note else None
                pairs.append({"a": a, "b": b, "note": L.plain(note, kb, lang, e)})
                a["in_views"] = b["in_views"] = True      # said once, beside each other: its section points there
    return pairs


def _gates_of(e):
    """The gates (課體 of the 三傳: 涉害, 見機 …) a rule's conditions accept, from its `傳: {體: …}`."""
    out = []

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "傳" and isinstance(v, dict) and v.get("體"):
                    out.extend(v["體"] if isinstance(v["體"], list) else [v["體"]])
                else:
                    walk(v)
        elif isinstance(x, list):
            for y in x:
                walk(y)
    walk(getattr(e, "when", None) or e.meta.get("when"))
    return list(dict.fromkeys(out))


def gate_note(kb, board, f, lang="zh"):
    """A 課體 named after a gate the cast did not take (比用格 on a board whose 三傳 came by 涉害):
    one line saying why it is listed — its conditions are those of the gate the cast took, and the
    gate in its name is the book's other choice of the 用神, not how this 三傳 was cast."""
    from liuren.knowledge.kblint import GATES
    if f.kind != "課體":
        return None
    t = board.transmissions
    taken = {t.gate, t.subtype or ""}
    named = [g for g in GATES if g in f.name and not any(g in x for x in taken)]
    e = kb.entries.get(f.report)
    gates = _gates_of(e) if e is not None else []
    if not named or not gates or not (taken & set(gates)):
        return None
    return L.WORDS[lang]["gate_note"].format(named=named[0], gate=t.gate, gates="、".join(gates),
                                             chu=t.branches[0])


def findings(kb, r, keep=None, lang="zh"):
    """The values the rules computed (fact types with `show:`), by heading, each line with the
    sources of the judgments that gave it.  A finding of a rule that belongs to a question (its
    `question:`, or a question's `methods:`) is shown only when that question is asked.  Where a
    type is read by several criteria (`group_by`) and they give one subject different values,
    the line says so: the books' two views."""
    from liuren.rules.trace import FactText
    texts = FactText(kb)
    asked = r.question
    method_rules = {}
    for q in (kb.questions or {}).values():
        qm = q.meta if hasattr(q, "meta") else q
        for m in (qm.get("methods") or []):
            for rid in m.get("rules") or []:
                method_rules[rid] = qm.get("name")
    out = {}
    for f in r.firings:
        if keep is not None and not keep(f):
            continue
        e = kb.entries.get(f.report) or kb.entries.get(f.rule)
        q = (e.meta.get("question") if e is not None else None) or method_rules.get(f.report) or method_rules.get(f.rule)
        if q and q != asked:
            continue
        for d in f.new:
            decl = kb.declared.get(d["t"])
            if not (decl and decl.get("show")):
                continue
            h = out.setdefault(decl["show"], {"lines": {}, "decl": decl, "facts": []})
            by = decl.get("group_by")
            if by and by in d:
                # one line per subject and value, its criteria joined: 所臨 丑 為舊（依旺衰、長生墓）
                key = tuple((k, str(v)) for k, v in sorted(d.items()) if k not in (by, "t"))
                x = h["lines"].setdefault(key, {"fact": d, "bys": [], "refs": []})
                if d[by] not in x["bys"]:
                    x["bys"].append(d[by])
            else:
                line = texts(d)
                x = h["lines"].setdefault(line, {"text": line, "refs": [], "d": d, "methods": []})
                # the judgment that gave it (寅之類象 at 寅): said where findings on one item disagree
                m = L.name_of(kb, f.report, f.name, lang) + (f"（{'、'.join(dict.fromkeys(f.about))}）" if f.about else "")
                if m not in x["methods"]:
                    x["methods"].append(m)
            for s in f.sources:
                c = cite(s) if s.get("seed") else None
                if c and c not in x["refs"]:
                    x["refs"].append(c)
            h["facts"].append(d)
    result = []
    for heading, h in out.items():
        decl = h["decl"]
        views = []
        by = decl.get("group_by")
        fields = [k for k in (decl.get("fields") or []) if k not in ("值", by)]
        if by and "值" in (decl.get("fields") or []):
            vals = {}
            for d in h["facts"]:
                vals.setdefault(tuple(d.get(k) for k in fields), {}).setdefault(d.get("值"), []).append(d.get(by))
            for subject, vs in vals.items():
                if len(vs) > 1:
                    views.append(L.WORDS[lang]["views_line"].format(
                        subject=" ".join(str(x) for x in subject),
                        views="；".join(f"{v}（{'、'.join(dict.fromkeys(map(str, bys)))}）" for v, bys in vs.items())))
        # findings that contradict each other (味 酸 and 苦): each says which method gave it
        item = {}
        for x in h["lines"].values():
            d = x.get("d")
            if d is not None and "項" in d and "值" in d:
                item.setdefault(d["項"], set()).add(str(d["值"]))
        for x in h["lines"].values():
            d = x.get("d")
            if d is not None and len(item.get(d.get("項"), ())) > 1 and x.get("methods"):
                x["text"] = x["text"] + L.WORDS[lang]["found_by"].format(methods="、".join(x["methods"]))
        lines = []
        for x in h["lines"].values():
            x = {k: v for k, v in x.items() if k not in ("d", "methods")}
            if "fact" in x:
                x = {"text": texts({**x["fact"], by: "、".join(map(str, x["bys"]))}), "refs": x["refs"]}
            lines.append(x)
        result.append({"heading": heading, "lines": lines, "views": views})
    return result


def chain_graph(g, key, lang="zh"):
    """The chain's sub-graph of the trace (the firings of `key`, those they rest on, those that
    defeat it, their premises and conclusions, the casting steps when the 三傳 is used) as
    cytoscape elements.  Read off the trace with explain.chain's own walks."""
    from liuren.knowledge.kbload import cite
    from liuren.explain.chain import ancestors, firing_nodes
    targets = firing_nodes(g, key)
    if not targets:
        return None
    firings = list(dict.fromkeys(ancestors(g, targets) + targets))
    defeaters = [p for n in targets for p in g.predecessors(n) if g.edges[p, n].get("role") == "defeats"]
    firings += [d for d in dict.fromkeys(defeaters) if d not in firings]
    keep = set(firings)
    for n in firings:
        for p in g.predecessors(n):
            if g.edges[p, n].get("role") == "premise":
                keep.add(p)
        for c in g.successors(n):
            if g.edges[n, c].get("role") == "conclusion" and g.nodes[c].get("type") != "判":
                keep.add(c)
    from liuren.explain.chain import _step_part, needed_steps, reads_of
    casts = [{"key": d.get("key") or "", "n": n} for n, d in g.nodes(data=True) if d.get("kind") == "cast"]
    keep |= {x["n"] for x in needed_steps(casts, reads_of(g, firings))}
    from liuren.explain.factwords import is_dump, row_words
    kb = _kb_of(g)
    nodes, edges = [], []
    tset = set(targets)
    for n in keep:
        d = g.nodes[n]
        kind = d.get("kind")
        if kind == "firing":
            srcs = d.get("sources") or []
            nodes.append({"data": {"id": n, "kind": "firing", "label": d["name"], "rule": d["report"],
                                   "target": n in tset, "defeats": n in defeaters and n not in tset,
                                   "defeated": bool(d.get("defeated")), "reading": d.get("reading", ""),
                                   "valence": d.get("valence", ""),
                                   "quotes": [{"quote": s.get("quote", ""), "cite": cite(s)} for s in srcs
                                              if lang == "ja" or not is_rendering(s)],
                                   "calc": d.get("calc") or []}})
        elif kind == "cast":
            nodes.append({"data": {"id": n, "kind": "cast", "label": step_name(d.get("name"), lang) or L.WORDS[lang]["cast"],
                                   "text": step_text(d, lang, kb=None),
                                   "verse": d.get("verse", ""),
                                   "book": "" if "casting.md" in (d.get("book") or "") else d.get("book", "")}})
        else:
            fields = d.get("fields") or {}
            label = d.get("text", n)
            if d.get("origin") == "table" and is_dump(label, kb, fields):
                label = row_words(kb, fields, lang) or label
            t = fields.get("t") or d.get("type", "")
            # the panel names the fact's kind in words (the table's name), never its id or a dump of its cells
            type_word = kb.tables[t].name if kb is not None and t in kb.tables else L.WORDS[lang]["fact_kinds"].get(t, "")
            nodes.append({"data": {"id": n, "kind": "fact", "origin": d.get("origin", ""), "label": L.plain(label, kb, lang),
                                   "origin_word": L.WORDS[lang]["origins"].get(d.get("origin", ""), ""),
                                   "type_word": type_word}})
    for a, b, d in g.edges(data=True):
        if a in keep and b in keep:
            edges.append({"data": {"id": f"{a}->{b}", "source": a, "target": b, "role": d.get("role", "")}})
    nodes.sort(key=lambda x: x["data"]["id"])
    return {"nodes": nodes, "edges": edges}



def _kb_of(g):
    from liuren.knowledge.kbload import load_kb
    try:
        return load_kb(g.graph.get("kb") or None)
    except Exception:               # words for the panel only: the graph is drawn without them
        return None


def label_report(kb, rep, lang):
    """Display names on a HOW / WHY-NOT report (a copy of each name under `label`)."""
    rep["label"] = L.name_of(kb, rep["rule"], rep["name"], lang)
    from liuren.explain.chain import rows_in
    rows_in(rep, lang)                          # a table row by its form in the page's language (factwords)
    for c in rep.get("conditions") or []:          # a WHY-NOT's conditions in the page's language
        c["text"] = L.condition_words(c["text"], lang)
        c["facts"] = [L.condition_words(x, lang) for x in c.get("facts") or []]
    jr = L.ja_reading(kb.entries.get(rep["rule"])) if lang == "ja" else None
    if jr and rep.get("reading") and jr not in rep["reading"]:
        rep["reading"] = f"{jr}（{rep['reading']}）"          # the 日譯's words, the classical 斷 beside them
    if rep.get("family"):
        fam = kb.entries.get(rep["family"])
        rep["family_label"] = L.display_name(fam, lang) if fam is not None else rep["family"]
    for s in rep.get("steps") or []:
        if s["step"] == "cast" and s.get("key"):          # the step said in the reader's language
            s["matched"] = [step_text(s, lang, kb)]
        s["matched"] = [L.plain(m, kb, lang) for m in s.get("matched") or []]
        s["produced"] = [L.plain(m, kb, lang) for m in s.get("produced") or []]
        if s.get("interpretation"):
            e = kb.entries.get(s.get("rule") or "")
            s["interpretation"] = {k: L.plain(v, kb, lang, e) if isinstance(v, str) else v
                                   for k, v in s["interpretation"].items()}
        s["label"] = L.name_of(kb, s["rule"], s["name"], lang) if s["step"] != "cast" else step_name(s["name"], lang)
    for d in rep.get("defeated_by") or []:
        label_report(kb, d, lang)




@functools.lru_cache(maxsize=1)
def _css(root=".liuren-nb"):
    """The page's stylesheet scoped to the notebook cell (the page's body, :root and @media rules
    would otherwise restyle the whole notebook)."""
    import re
    css = stylesheet()
    css = re.sub(r"@media[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", "", css)
    out = []
    for sel, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        sels = []
        for x in sel.split(","):
            x = x.strip()
            if x.startswith(("header", "footer", "main", "*")):
                continue
            sels.append(root if x in (":root", "body") else f"{root} {x}")
        if sels:
            out.append(f"{', '.join(sels)} {{{body}}}")
    return "\n".join(out)


def _render(name, **ctx):
    html = env().get_template(name).render(**ctx)
    return f'<div class="liuren-nb"><style>{_css()}</style>{html}</div>'


def board_html(board, lang="zh"):
    """A cast board as HTML (Board._repr_html_), read with the installed KB's 類相 and names."""
    from liuren.knowledge.kbload import load_kb
    return _render("_square.html", b=board_parts(load_kb(None), board, lang), w=L.WORDS[lang], lang=lang)


def judgment_html(r, lang="zh"):
    """A judgment as HTML (Judgment._repr_html_): the board beside the judgments by kind."""
    from liuren.knowledge.kbload import load_kb
    kb = r.kb if r.kb is not None else load_kb(None)
    w = L.WORDS[lang]
    board = env().get_template("_square.html").render(b=board_parts(kb, r.board, lang), w=w, lang=lang)
    groups = judgment_groups(kb, r, None, lang)
    judg = env().get_template("_judgments.html").render(
        r=r, groups=groups, views=two_views(kb, groups, lang), findings=findings(kb, r, lang=lang), w=w, lang=lang, qs="",
        notebook=True)
    return (f'<div class="liuren-nb"><style>{_css()}</style><div class="boardpage"><div class="left">{board}</div>'
            f'<div class="right">{judg}</div></div></div>')


display.register("Board", board_html)
display.register("Judgment", judgment_html)
