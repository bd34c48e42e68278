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
    steps = [{"text": s.text, "verse": s.verse if s.verse and s.book != "起課 (casting.md)" else "", "book": s.book,
              "rule": s.rule} for s in t.steps]
    gate = t.gate + (f"・{t.subtype}" if t.subtype and t.subtype != t.gate else "")
    return {"header": header(board), "day": board.day, "square": cells, "lessons": lessons, "chuan": chuan_rows, "steps": steps,
            "gate": gate, "notes": list(board.notes), "void": "".join(board.void)}



def judgment_groups(kb, r, keep, lang="zh", placements=False):
    """The judgments grouped by kind, each item as the CLI's line gives it (firing_parts), with
    what the filters need (kind, valence, books: `keep` tells which are shown) and the routes told
    apart (grounds_line); `placements` adds the 起例."""
    from liuren.explain.render import firing_line, firing_order, firing_parts, grounds_line
    # a short 類相 per branch for the judgment lines (the square has the full one)
    img = {k: imagery_text(k, dict(list(v.items())[:8]), n=3, kb=kb, lang=lang) for k, v in imagery(kb).items()}
    groups = []
    for kind, fs in r.by_kind(include_placements=placements).items():
        lines = {}
        for f in sorted(fs, key=firing_order):
            lines.setdefault(firing_line(f, r), []).append(f)
        items = []
        for _, group in lines.items():
            f = group[0]
            parts = firing_parts(f, r)
            books = sorted({s.get("book") for x in group for s in x.sources if s.get("book")})
            grounds = grounds_line("", group, r.kb).strip() if len(group) > 1 else ""
            # the branches it is about, each with its 類相 on hover, then the positions (見於 …)
            about_s = "、".join(f.about)
            rest = parts["where"][len(about_s):].lstrip("，") if f.about and parts["where"].startswith(about_s) else None
            about = ([{"b": x, "img": img.get(x, x)} for x in f.about]
                     if rest is not None else [])
            items.append({
                "about": about, "where_rest": rest,
                "id": f.report, "family": f.rule if f.rule != f.report else None, "kind": f.kind,
                "name": L.name_of(kb, f.report, f.name, lang), "name_zh": f.name,
                "where": parts["where"], "reading": parts["reading"], "valence": parts["valence"],
                "refs": parts["refs"], "books": books, "grounds": grounds, "shown": keep is None or keep(f),
                "defeated_by": [L.name_of(kb, r.firings[i].report, r.firings[i].name, lang)
                                for i in f.defeated_by] if f.defeated else [],
            })
        groups.append({"kind": kind, "word": L.kind_word(kind, lang), "entries": items})
    return groups



def chain_graph(g, key, lang="zh"):
    """The chain's sub-graph of the trace (the firings of `key`, those they rest on, those that
    defeat it, their premises and conclusions, the casting steps when the 三傳 is used) as
    cytoscape elements.  Read off the trace with explain.chain's own walks."""
    from liuren.rules.judging import cite
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
    chuan = [n for n in keep if g.nodes[n].get("type") == "傳"]
    if chuan:
        keep |= {n for n, d in g.nodes(data=True) if d.get("kind") == "cast"}
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
            nodes.append({"data": {"id": n, "kind": "cast", "label": d.get("name") or "起課", "text": d.get("text", ""),
                                   "verse": d.get("verse", ""), "book": d.get("book", "")}})
        else:
            nodes.append({"data": {"id": n, "kind": "fact", "origin": d.get("origin", ""), "label": d.get("text", n),
                                   "type": d.get("type", ""), "fields": {k: v for k, v in (d.get("fields") or {}).items()
                                                                         if k != "t"}}})
    for a, b, d in g.edges(data=True):
        if a in keep and b in keep:
            edges.append({"data": {"id": f"{a}->{b}", "source": a, "target": b, "role": d.get("role", "")}})
    nodes.sort(key=lambda x: x["data"]["id"])
    return {"nodes": nodes, "edges": edges}



def label_report(kb, rep, lang):
    """Display names on a HOW / WHY-NOT report (a copy of each name under `label`)."""
    rep["label"] = L.name_of(kb, rep["rule"], rep["name"], lang)
    for s in rep.get("steps") or []:
        s["label"] = L.name_of(kb, s["rule"], s["name"], lang) if s["step"] != "cast" else s["name"]
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
    from liuren.rules.kbload import load_kb
    return _render("_square.html", b=board_parts(load_kb(None), board, lang), w=L.WORDS[lang], lang=lang)


def judgment_html(r, lang="zh"):
    """A judgment as HTML (Judgment._repr_html_): the board beside the judgments by kind."""
    from liuren.rules.kbload import load_kb
    kb = r.kb if r.kb is not None else load_kb(None)
    w = L.WORDS[lang]
    board = env().get_template("_square.html").render(b=board_parts(kb, r.board, lang), w=w, lang=lang)
    judg = env().get_template("_judgments.html").render(
        r=r, groups=judgment_groups(kb, r, None, lang), findings=r.findings(), w=w, lang=lang, qs="", notebook=True)
    return (f'<div class="liuren-nb"><style>{_css()}</style><div class="boardpage"><div class="left">{board}</div>'
            f'<div class="right">{judg}</div></div></div>')


display.register("Board", board_html)
display.register("Judgment", judgment_html)
