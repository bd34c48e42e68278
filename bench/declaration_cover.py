"""Which declarations cover the conflicts an audit found.

    liuren audit --json --no-variants --quiet > audit.json
    python3 bench/declaration_cover.py audit.json [--pairs]

For every pair of opposite-tone judgments the audit lists (declared or not), the rows of
kb/common/conflicts.yaml that cover it (by name, or by a glob) and whether an entry's own
`conflicts:` / `defeats:` / `defeated_by:` does.  It prints the pairs per row, the share of pairs
covered only by glob cells, and the pairs no declaration covers; `--pairs` lists every pair with
its rows.  Not a benchmark: a maintainer's look at the declarations after an audit."""
import argparse
import collections
import fnmatch
import json
import re

from liuren.knowledge.kbload import load_kb

GLOB = re.compile(r"[*?\[]")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("audit_json")
    ap.add_argument("--pairs", action="store_true", help="list every pair with the rows covering it")
    ap.add_argument("--kb", help="another KB folder")
    a = ap.parse_args()
    kb = load_kb(a.kb)
    rep = json.load(open(a.audit_json, encoding="utf-8"))
    pairs = [(c["a"], c["b"]) for c in rep["conflicts"]["declared"] + rep["conflicts"]["undeclared"]]
    t = kb.tables.get("declared-conflicts")
    named, globs = collections.defaultdict(set), []
    for row in (t.rows if t is not None else ()):
        for c in row.data:
            x, y = c["甲"], c["乙"]
            if GLOB.search(x + y):
                globs.append((row.id, x, y))
            else:
                named[frozenset((x, y))].add(row.id)

    def on_entry(p, q):
        e = kb.entries.get(p)
        pats = [] if e is None else (list(e.meta.get("conflicts") or []) + list(e.meta.get("defeats") or [])
                                     + list(e.meta.get("defeated_by") or []))
        return any(fnmatch.fnmatchcase(q, x) for x in pats)

    per_row, glob_only, none = collections.Counter(), [], []
    for p, q in pairs:
        by_name = named.get(frozenset((p, q)), set())
        by_glob = {rid for rid, x, y in globs
                   if (fnmatch.fnmatchcase(p, x) and fnmatch.fnmatchcase(q, y)) or
                   (fnmatch.fnmatchcase(q, x) and fnmatch.fnmatchcase(p, y))}
        entry = on_entry(p, q) or on_entry(q, p)
        for rid in by_name | by_glob:
            per_row[rid] += 1
        if not by_name and not entry and by_glob:
            glob_only.append((p, q))
        if not by_name and not by_glob and not entry:
            none.append((p, q))
        if a.pairs:
            print(f"{p} × {q}: {', '.join(sorted(by_name)) or '-'}"
                  f"{' (glob: ' + ', '.join(sorted(by_glob)) + ')' if by_glob else ''}{' (on the entry)' if entry else ''}")
    n = len(pairs) or 1
    print(f"pairs: {len(pairs)}; covered only by glob cells: {len(glob_only)} ({100 * len(glob_only) / n:.1f}%); "
          f"not declared: {len(none)}")
    for rid, k in per_row.most_common():
        print(f"  {k:6d}  {rid}")
    for p, q in none[:50]:
        print(f"  not declared: {p} × {q}")


if __name__ == "__main__":
    main()
