"""Exports of the whole trace: GraphML, node-link JSON, Graphviz DOT, Mermaid."""
from __future__ import annotations

import io
import json

import networkx as nx

from liuren.explain.steps import step_name, step_text


def _scalar(v):
    if v is None:
        return ""
    if isinstance(v, (str, int, float, bool)):
        return v
    return json.dumps(v, ensure_ascii=False)


def localized(g, lang):
    """The trace for a reader of `lang`: firing nodes named by their label where one exists
    (the other name kept as name_zh); the graph says its language."""
    if lang == "zh":
        return g
    h = g.copy()
    h.graph["lang"] = lang
    for n, d in h.nodes(data=True):
        lab = (d.get("labels") or {}).get(lang) if d.get("kind") == "firing" else None
        if lab:
            d["name_zh"], d["name"] = d["name"], lab
        if d.get("kind") == "cast":         # a casting step said in the language, its name likewise
            d["text_zh"], d["text"] = d.get("text", ""), step_text(d, lang)
            d["name"] = step_name(d.get("name"), lang)
    return h


def graphml(g):
    """GraphML: structured attributes (fields, sources, aspects …) are stored as JSON strings."""
    h = nx.DiGraph()
    h.graph.update({k: _scalar(v) for k, v in g.graph.items()})
    for n, d in g.nodes(data=True):
        h.add_node(n, **{k: _scalar(v) for k, v in d.items()})
    for a, b, d in g.edges(data=True):
        h.add_edge(a, b, **{k: _scalar(v) for k, v in d.items()})
    buf = io.BytesIO()
    nx.write_graphml(h, buf, encoding="utf-8")
    return buf.getvalue().decode("utf-8")


def node_link(g):
    return json.dumps(nx.node_link_data(g, edges="links"), ensure_ascii=False, indent=1)


def _label(g, n):
    d = g.nodes[n]
    if d.get("kind") == "firing":
        return f"{d['name']}\n{d['report']}"
    if d.get("kind") == "cast":
        return d.get("text", n)
    return d.get("text", n)


def _dot_escape(s):
    return str(s).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


SHAPES = {"firing": "box", "cast": "note", "fact": "ellipse"}


def dot(g):
    ids = {n: f"n{i}" for i, n in enumerate(g.nodes)}
    out = ["digraph trace {", "  rankdir=LR;", '  node [fontname="sans-serif"];']
    for n, d in g.nodes(data=True):
        kind = d.get("kind", "fact")
        style = ' style=filled fillcolor="#f4d7d7"' if d.get("defeated") else ""
        if kind == "fact" and d.get("origin") == "board":
            style += ' color="#2b6cb0"'
        out.append(f'  {ids[n]} [label="{_dot_escape(_label(g, n))}" shape={SHAPES.get(kind, "ellipse")}{style}];')
    for a, b, d in g.edges(data=True):
        out.append(f'  {ids[a]} -> {ids[b]} [label="{_dot_escape(d.get("role", ""))}"];')
    out.append("}")
    return "\n".join(out) + "\n"


def _mm_escape(s):
    return str(s).replace('"', "#quot;").replace("\n", "<br/>")


# Mermaid's default limits (mermaid.initialize: maxEdges 500, maxTextSize 50,000): a diagram past them
# does not render, so it is refused with a pointer to the formats that hold a whole trace
MERMAID_MAX_EDGES = 500
MERMAID_MAX_TEXT = 50_000


def mermaid(g):
    from liuren.errors import InputError
    n_edges = g.number_of_edges()
    if n_edges > MERMAID_MAX_EDGES:
        raise InputError(f"mermaid: the trace has {n_edges} edges, past Mermaid's default limit of "
                         f"{MERMAID_MAX_EDGES}: export it as dot or graphml, or one chain with why=RULE")
    ids = {n: f"n{i}" for i, n in enumerate(g.nodes)}
    out = ["flowchart LR"]
    for n, d in g.nodes(data=True):
        kind = d.get("kind", "fact")
        label = _mm_escape(_label(g, n))
        if kind == "firing":
            out.append(f'  {ids[n]}["{label}"]')
        elif kind == "cast":
            out.append(f'  {ids[n]}[/"{label}"/]')
        else:
            out.append(f'  {ids[n]}("{label}")')
    for a, b, d in g.edges(data=True):
        role = d.get("role", "")
        arrow = "-.->" if role == "defeats" else "-->"
        out.append(f"  {ids[a]} {arrow}|{role}| {ids[b]}")
    text = "\n".join(out) + "\n"
    if len(text) > MERMAID_MAX_TEXT:
        raise InputError(f"mermaid: the diagram is {len(text):,} characters, past Mermaid's default limit of "
                         f"{MERMAID_MAX_TEXT:,}: export it as dot or graphml, or one chain with why=RULE")
    return text


FORMATS = {"graphml": graphml, "json": node_link, "dot": dot, "mermaid": mermaid}
