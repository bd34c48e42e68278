"""HOW: the cited chain of judgments behind a conclusion, read off the trace graph.

The trace (rules.judging.Judgment.graph, a networkx DiGraph; or Judgment.chain_graph(key), the
part of it a chain reads, without networkx) has fact nodes, firing nodes and the casting steps;
edges premise (fact → firing), conclusion (firing → fact), defeats (firing → firing), next and
derives (the 三傳 derivation).  Nothing here re-runs the rules.
"""
from __future__ import annotations


def firing_nodes(g, key):
    """Firing nodes reporting `key` (a rule id or a table-row id), in firing order."""
    out = [n for n, d in g.nodes(data=True) if d.get("kind") == "firing" and key in (d["report"], d["rule"])]
    return sorted(out, key=lambda n: g.nodes[n]["n"])


def _asserting_firing(g, fact):
    """The firing that first asserted a derived fact (later firings re-derived a duplicate)."""
    cands = [p for p in g.predecessors(fact) if g.edges[p, fact].get("role") == "conclusion"]
    return min(cands, key=lambda n: g.nodes[n]["n"]) if cands else None


def ancestors(g, targets):
    """Every firing whose conclusions the targets depend on (not the targets), in firing order."""
    seen, stack = set(), list(targets)
    while stack:
        node = stack.pop()
        for fact in g.predecessors(node):
            if g.edges[fact, node].get("role") != "premise":
                continue
            src = _asserting_firing(g, fact)
            if src is not None and src not in seen and src not in targets:
                seen.add(src)
                stack.append(src)
    return sorted(seen, key=lambda n: g.nodes[n]["n"])


def premises(g, node, skip_rows=(), kb=None, lang="zh"):
    """Words for the facts a firing matched: board and derived facts first, table rows after (a row
    the engine could only dump said as a sentence in `lang`, explain.factwords; the rest as the
    trace words them)."""
    from liuren.explain.factwords import is_dump, row_words
    facts = [p for p in g.predecessors(node) if g.edges[p, node].get("role") == "premise"]
    order = {"board": 0, "derived": 1, "table": 2}
    facts.sort(key=lambda f: (order.get(g.nodes[f].get("origin"), 3), g.nodes[f].get("text", "")))
    out = []
    for f in facts:
        d = g.nodes[f]
        if d.get("origin") == "table" and d.get("fields", {}).get("id") in skip_rows:
            continue                  # the row being reported is the conclusion, not a premise
        text = d.get("text", f)
        if d.get("origin") == "table" and kb is not None and is_dump(text, kb, d.get("fields") or {}):
            text = row_words(kb, d["fields"], lang) or text
        if text not in out:
            out.append(text)
    return out


def rows_in(rep, lang):
    """A HOW report with its table rows in `lang` (each step's Japanese forms, `matched_ja`, taken for
    ja and dropped from the report for every language)."""
    for r in [rep, *(rep.get("defeated_by") or [])]:
        for s in r.get("steps") or []:
            ja = s.pop("matched_ja", None)
            if lang == "ja" and ja and s.get("step") != "cast" and len(ja) == len(s.get("matched") or []):
                s["matched"] = ja
    return rep


def conclusions(g, node):
    return [g.nodes[c].get("text", c) for c in g.successors(node)
            if g.edges[node, c].get("role") == "conclusion" and g.nodes[c].get("type") != "判"]


def source_list(sources):
    return [{k: s.get(k) for k in ("book", "volume", "seed", "para", "quote") if s.get(k) is not None}
            for s in sources]


def cast_steps(g):
    nodes = sorted((n for n, d in g.nodes(data=True) if d.get("kind") == "cast"), key=lambda n: g.nodes[n]["order"])
    out = []
    for n in nodes:
        d = g.nodes[n]
        src = ([{"book": d.get("book", ""), "volume": d.get("volume", ""), "seed": d.get("seed"), "para": d.get("para"),
                 "quote": d["verse"]}] if d.get("verse") else [])
        out.append({"step": "cast", "rule": d.get("rule", ""), "name": d.get("name") or "起課", "matched": [d["text"]],
                    "key": d.get("key", ""), "args": d.get("args") or {},
                    "sources": src, "interpretation": None})
    return out


CHUAN_PLACES = ("初傳", "中傳", "末傳", "三傳")
LESSON_PLACES = ("干上", "支上", "干陰", "支陰")


def reads_of(g, firings):
    """What of the casting the firings' board facts read: 'chuan' (the 三傳), 'lessons' (the 四課),
    'plate' (the 天地盤 and its generals).  A position's fact is read as that position."""
    reads = set()
    for node in firings:
        for f in g.predecessors(node):
            if g.edges[f, node].get("role") != "premise":
                continue
            d = g.nodes[f]
            if d.get("origin") != "board":
                continue
            fields = d.get("fields") or {}
            t = fields.get("t")
            place = fields.get("位")
            if t == "傳" or place in CHUAN_PLACES:
                reads.add("chuan")
            elif t == "課" or place in LESSON_PLACES:
                reads.add("lessons")
            elif t in ("盤", "遁") or (t == "位" and "天" in fields):
                reads.add("plate")
    return reads


def _step_part(step):
    key = step.get("key") or ""
    return "plate" if key.startswith("plate") else "lessons" if key == "lessons" else "chuan"


def needed_steps(steps, reads):
    """The casting steps a chain rests on: the 三傳's derivation only if it reads the 三傳; the 四課
    if it reads them or the 三傳 (cast from them); the plate if it reads anything of the board."""
    need = set(reads)
    if "chuan" in need:
        need |= {"lessons", "plate"}
    if "lessons" in need:
        need.add("plate")
    return [s for s in steps if _step_part(s) in need]


def _once(steps):
    """Each quote once per chain: a step citing a passage already cited keeps its citation, not the quote."""
    seen = set()
    for s in steps:
        for src in s.get("sources") or []:
            q = src.get("quote")
            if not q:
                continue
            if q in seen:
                src.pop("quote")
                src["again"] = True
            else:
                seen.add(q)
    return steps


def firing_step(g, node, final=False, kb=None):
    d = g.nodes[node]
    interp = d.get("interpretation") or None
    return {"step": "conclusion" if final else "derive", "n": d["n"], "rule": d["report"], "family": d["rule"],
            "name": d["name"], "kind": d.get("rule_kind"), "matched": premises(g, node, skip_rows=(d["report"],), kb=kb),
            # a table row said in Japanese by its own form (explain.factwords), not the Chinese one rendered
            "matched_ja": premises(g, node, skip_rows=(d["report"],), kb=kb, lang="ja"),
            "produced": conclusions(g, node), "bindings": d.get("bindings", {}),
            "sources": source_list(d.get("sources", [])), "interpretation": interp or None,
            "calc": d.get("calc") or [], "defeated": d.get("defeated", False)}


def how(g, key, _depth=0, _targets=None, kb=None):
    """The chain for `key` (rule or row id) on the board of trace g, or None if it did not fire.
    (_targets: only these firings of it, as for the firing that defeats a given judgment.)
    kb: the KB judged with, to say its table rows in words (default: the one the trace names)."""
    targets = _targets or firing_nodes(g, key)
    if not targets:
        return None
    if kb is None:
        from liuren.knowledge.kbload import load_kb
        kb = load_kb(g.graph.get("kb") or None)
    first = g.nodes[targets[0]]
    before = ancestors(g, targets)
    steps = needed_steps(cast_steps(g), reads_of(g, before + list(targets))) if _depth == 0 else []
    steps += [firing_step(g, n, kb=kb) for n in before]
    steps += [firing_step(g, n, final=True, kb=kb) for n in targets]
    _once(steps)
    aspects, seen = [], set()
    for n in targets:
        for a in g.nodes[n].get("aspects") or []:
            k = (a["branch"], a.get("plate"), a.get("at"))
            if k not in seen:
                seen.add(k)
                aspects.append(a)
    imagery_all = g.graph.get("imagery") or {}
    symbols = []
    for a in aspects:
        symbols += [a["branch"], a["rides"]]
    imagery = {s: imagery_all[s] for s in dict.fromkeys(symbols) if s in imagery_all}
    # each defeat with its own chain: only the firings that defeat this judgment, not every
    # firing of the defeating rule (a 總則 governs several names)
    by_report = {}
    for n in targets:
        for p in g.predecessors(n):
            if g.edges[p, n].get("role") == "defeats":
                by_report.setdefault(g.nodes[p]["report"], []).append(p)
    defeaters = []
    for report, nodes in by_report.items():
        sub = how(g, report, _depth + 1, list(dict.fromkeys(nodes)), kb=kb)
        if sub:
            defeaters.append(sub)
    return {"rule": key, "name": first["name"], "kind": first.get("rule_kind"), "fired": True,
            "instances": len(targets), "steps": steps, "reading": first.get("reading", ""),
            "valence": first.get("valence", ""), "aspects": aspects, "imagery": imagery,
            "defeated": any(g.nodes[n].get("defeated") for n in targets), "defeated_by": defeaters,
            "board": _board_line(g)}


def _board_line(g):
    b = g.graph.get("board") or {}
    t = b.get("transmissions", {})
    return {"day": g.graph.get("day"), "jiang": g.graph.get("jiang"), "hour": g.graph.get("hour"),
            "transmissions": t.get("branches"), "gate": t.get("gate"), "subtype": t.get("subtype"),
            "void": b.get("void")}
