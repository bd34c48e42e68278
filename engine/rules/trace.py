"""The trace of a judgment as a graph: TraceGraph (the little of networkx's DiGraph that a chain
and a WHY-NOT read, built without importing networkx), its export as node-link data, and the
words of a fact in it (FactText)."""
from __future__ import annotations

from liuren.knowledge.facts import BUILTIN_FACTS


def _node_link(g):
    import networkx as nx
    return nx.node_link_data(g, edges="links")


def _plain(d):
    return {k: (v if isinstance(v, (str, int, float, bool)) or v is None else _plain(v) if isinstance(v, dict)
                else [(_plain(x) if isinstance(x, dict) else x) for x in v])
            for k, v in (d or {}).items()}


class TraceGraph:
    """The little of networkx's DiGraph that explain.chain and explain.whynot read (nodes with
    their attributes, edges with theirs, predecessors and successors in the order the edges were
    added, the graph's attributes), for a part of the trace built without importing networkx
    (Judgment.chain_graph).  Nodes and edges are added as DiGraph adds them."""

    def __init__(self, **attrs):
        self.graph = dict(attrs)
        self._node, self._succ, self._pred = {}, {}, {}
        self.nodes = _NodeView(self._node)
        self.edges = _EdgeView(self._succ)

    def __contains__(self, n):
        return n in self._node

    def add_node(self, n, /, **attrs):
        d = self._node.get(n)
        if d is None:
            self._node[n] = d = {}
            self._succ[n], self._pred[n] = {}, {}
        d.update(attrs)

    def add_edge(self, u, v, /, **attrs):
        for n in (u, v):
            if n not in self._node:
                self.add_node(n)
        d = self._succ[u].get(v, {})
        d.update(attrs)
        self._succ[u][v] = d
        self._pred[v][u] = d

    def predecessors(self, n):
        return iter(self._pred[n])

    def successors(self, n):
        return iter(self._succ[n])


class _NodeView:
    def __init__(self, nodes):
        self._nodes = nodes

    def __call__(self, data=False):
        return iter(self._nodes.items()) if data else iter(self._nodes)

    def __getitem__(self, n):
        return self._nodes[n]

    def __iter__(self):
        return iter(self._nodes)

    def __len__(self):
        return len(self._nodes)


class _EdgeView:
    def __init__(self, succ):
        self._succ = succ

    def __getitem__(self, uv):
        u, v = uv
        return self._succ[u][v]


class FactText:
    """Words for a fact: built-in templates, the KB's `facts:` templates, or the table's name."""

    def __init__(self, kb):
        self.kb = kb

    def __call__(self, d):
        t = d["t"]
        tpl = BUILTIN_FACTS.get(t, {}).get("text") or self.kb.fact_text.get(t)
        if t in self.kb.tables:
            tpl = self.kb.tables[t].meta.get("text") or tpl
        if t == "位" and d.get("位") == "日干":
            tpl = "日干 {干}（寄{支}）"
        # a value a reader is told in other words (星煞乘's 將 任: 任一天將), as the KB declares them
        words = (self.kb.tables[t].meta.get("words") if t in self.kb.tables
                 else (self.kb.declared.get(t) or {}).get("words")) or {}
        if tpl:
            try:
                return tpl.format(**{k: words.get(k, {}).get(v, v) if isinstance(v, str) else v
                                     for k, v in d.items()})
            except (KeyError, IndexError, ValueError):
                pass
        name = self.kb.tables[t].name if t in self.kb.tables else t
        return name + "：" + " ".join(f"{k}{v}" for k, v in d.items() if k not in ("t", "id"))
