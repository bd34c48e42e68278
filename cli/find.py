"""`liuren find`: where does a rule fire?  Queries over the whole board space, answered from its
index (engine/app/find.py, explain/index.py); the index is built on first use (a few minutes,
with a progress bar) and kept in the cache."""
from __future__ import annotations

import sys

from liuren.errors import InputError


def _options(a):
    return {k: getattr(a, k) for k in ("guiren", "shehai") if getattr(a, k, None)}


def _finder(a, kb_dir, check=()):
    from liuren.app import find as F
    opts = F.check_options(_options(a))
    question = F.normalize_question(kb_dir, a.question)
    if not 1 <= a.days <= 60:
        raise InputError(f"--days {a.days}: between 1 and 60")
    return F.Finder(kb_dir, days=a.days).index(opts, question, build=True, progress=not a.quiet, check=check)


def cmd_find(a):
    from liuren.app import find as F
    from liuren.cli.args import dump
    from liuren.i18n import lang_of
    lang = lang_of(a.lang)
    modes = sum(bool(x) for x in (a.expr is not None or a.export, a.cooccur is not None, a.diff))
    if a.build and modes == 0:
        ix = _finder(a, a.kb)
        print(f"index: {ix.size} boards, {len(ix.bits)} entries that fire (built in {ix.seconds:.0f} s)")
        return 0
    if modes != 1:
        raise InputError("find: give an expression (liuren find '斬首 and 元首課'), or --cooccur NAME, or --diff --kb DIR")
    if a.expr is not None:
        F.parse(a.expr)                     # a bad expression is an error before any index is built
    if a.cooccur is not None:
        F.parse(a.cooccur)
    if a.count_by:
        F.parse_by(a.count_by)
    if a.export and (a.cooccur is not None or a.diff or a.count_by):
        raise InputError("--export: give it an expression (or none: every board), not --cooccur, --diff or --count-by")
    if a.diff:
        if not a.kb:
            raise InputError("--diff: give the working copy of the KB with --kb DIR (it is compared with the installed kb/)")
        new = _finder(a, a.kb)
        old = _finder(a, None)
        rep = F.diff(old, new, lang, new_kb=a.kb)
        if a.json:
            print(dump(rep))
            return 0
        print(f"{a.kb} against the installed kb/: {rep['changed']} entr{'y' if rep['changed'] == 1 else 'ies'} "
              f"fire on other boards (of {rep['boards']})")
        for r in rep["entries"][:a.limit]:
            what = {"new": "（新）", "removed": "（刪）"}.get(r["status"], "")
            print(f"  +{r['gained']:<6} −{r['lost']:<6} {r['before']:>6} → {r['after']:<6} {r['name']}{what}")
            for k, word in (("gained_example", "gained"), ("lost_example", "lost")):
                if r[k]:
                    print(f"      {word}: {r[k]}")
        return 0
    ix = _finder(a, a.kb, [x for x in (a.expr, a.cooccur) if x is not None])
    filters = dict(month=a.month, day=a.day, gate=a.gate, daynight=a.daynight, dim=a.dim)
    if a.export:
        from liuren.app import export as E
        rep = E.export(ix, a.export, a.expr, lang=lang, **filters)
        print(f"{a.export}: {rep['boards']} boards, {rep['rows']} board × rule rows"
              + (f" ({', '.join(rep['files'])})" if len(rep["files"]) > 1 else ""))
        return 0
    if a.cooccur is not None:
        rep = F.cooccur(ix, a.cooccur, a.limit, lang=lang, sort=a.sort, min_count=a.min_count, **filters)
        if a.json:
            print(dump(rep))
            return 0
        print(f"{_short(a.cooccur)}: {rep['count']} boards of {rep['of']}; what fires with it, by "
              + ("lift (what is specific to it)" if a.sort == "lift" else "count (what fires most with it)"))
        print(f"  ({F.space_line(ix)})")
        for line in F.notes_lines(ix, F.notes(ix, [i for t in F.names_in(F.parse(a.cooccur)) for i in F.resolve(ix, t)]), lang):
            print(f"  {line}")
        if rep["cooccur"]:
            print(f"  {'boards':>6}  {'share':>6}  {'lift':>6}  name")
        for r in rep["cooccur"]:
            print(f"  {r['count']:>6}  {r['share']:>6.1%}  {r['lift']:>6.2f}  {r['name']}〔{r['kind']}〕")
        return 0
    rep = F.find(ix, a.expr, limit=0 if a.count_by else a.limit, offset=a.offset, count_by_key=a.count_by,
                 lang=lang, kb_arg=a.kb, each_lesson=a.each_lesson, order=a.order, **filters)
    if a.json:
        if a.count_by:
            rep = {k: rep[k] for k in ("query", "count", "of", "space", "notes", "filters", "counts", "table") if k in rep}
        print(dump(rep))
        return 0
    print(f"{_short(a.expr)}: {rep['count']} board{'s' if rep['count'] != 1 else ''} of {rep['of']}"
          + (f", in {rep['lessons']} lesson{'s' if rep['lessons'] != 1 else ''}" if a.each_lesson else ""))
    print(f"  ({F.space_line(ix)})")
    for line in F.notes_lines(ix, rep["notes"], lang):
        print(f"  {line}")
    if "counts" in rep:
        width = max([_width(k) for k in rep["counts"]] + [4])
        for k, n in rep["counts"].items():
            print(f"  {k}{' ' * (width - _width(k))}  {n:>6}")
        print(f"  合計{' ' * (width - 4)}  {sum(rep['counts'].values()):>6}")
        return 0
    if "table" in rep:
        print(table_text(rep["table"]))
        return 0
    for b in rep["boards"]:
        about = "　".join(f"{n}（{'；'.join(ps)}）" for n, ps in b.get("about", {}).items() if ps)
        print(f"  {b['day']} {b['on']} {b['month']}月 {'夜' if b['night'] else '晝'} "
              f"{''.join(b['transmissions'])}（{b['gate']}{'・' + b['lesson'] if b['lesson'] else ''}）"
              + (f"　{about}" if about else ""))
        print(f"      {b['command']}")
    shown = a.offset + len(rep["boards"])
    total = rep["lessons"] if a.each_lesson else rep["count"]
    if shown < total:
        print(f"  … {total - shown} more {'lessons' if a.each_lesson else 'boards'} (--offset {shown}, --limit N)")
    return 0


def table_text(t):
    """A cross-table as aligned text: rows of the first key, columns of the second, totals."""
    cols = [str(c) for c in t["cols"]] + ["合計"]
    w = max([_width(str(r)) for r in t["rows"]] + [_width(f"{t['by'][0]}＼{t['by'][1]}"), 4])
    cw = [max(_width(c), len(str(max([t["total"]] + t["col_totals"])))) for c in cols]
    head = f"{t['by'][0]}＼{t['by'][1]}"
    lines = ["  " + head + " " * (w - _width(head)) + "".join(" " * (cw[j] - _width(c) + 2) + c for j, c in enumerate(cols))]
    for r, cells, tot in zip(t["rows"], t["cells"], t["row_totals"]):
        vals = [str(v) for v in cells] + [str(tot)]
        lines.append("  " + str(r) + " " * (w - _width(str(r))) + "".join(f"  {v:>{cw[j]}}" for j, v in enumerate(vals)))
    vals = [str(v) for v in t["col_totals"]] + [str(t["total"])]
    lines.append("  合計" + " " * (w - 4) + "".join(f"  {v:>{cw[j]}}" for j, v in enumerate(vals)))
    return "\n".join(lines)


def _short(expr, n=120):
    """An expression as a heading: a long one cut, with the count of its characters."""
    return expr if len(expr) <= n else f"{expr[:n]}… ({len(expr)} characters)"


def _width(s):
    return sum(2 if ord(c) > 0x2E80 else 1 for c in s)


def add_command(sub):
    from liuren.cli.args import add_param
    import argparse
    from liuren.app.find import GRAMMAR
    p = sub.add_parser("find", help="where does it fire? boards of the whole space where an expression holds",
                       description="Where does it fire? The boards of the whole space where an expression holds, "
                                   "from an index kept in the cache: 60 days × 12 月將 over 占時 子 × 12 months × 晝夜 "
                                   "(the base boards), and boards that vary one input the base boards fix (占時, the "
                                   "year, 本命/行年, a lunar date, a 節) for the rules that read it.",
                       epilog=GRAMMAR, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("expr", nargs="?", metavar="EXPR",
                   help="rules and facts of the board joined with and, or, not and parentheses (see below)")
    p.add_argument("--month", help="only these months: a branch or 干支 (寅, 丙寅; a comma list)")
    p.add_argument("--day", help="only these days (甲子; a comma list)")
    p.add_argument("--gate", help="only this gate (涉害 …) or 課 (元首, 重審 …)")
    p.add_argument("--daynight", help="day or night (default: both)")
    p.add_argument("--dim", help="base (the base boards only) or the extra boards of a dimension: hour, year, "
                                 "person, lunar, term (a comma list)")
    p.add_argument("--limit", type=int, default=20, help="boards (or rows) shown (default 20)")
    p.add_argument("--offset", type=int, default=0, help="skip this many boards first")
    p.add_argument("--each-lesson", dest="each_lesson", action="store_true",
                   help="list one board of each lesson (the first of its months and 晝夜): boards that differ")
    p.add_argument("--count-by", dest="count_by", metavar="KEY[,KEY]",
                   help="month|gate|day|lesson|daynight|ke (課), a position (初傳: its branch) or a 天將 (貴人: the "
                        "地盤 branch it stands on): counts, 0 included; two keys (month,gate): a cross-table")
    p.add_argument("--order", default="lessons", choices=("lessons", "space"),
                   help="lessons (default): distinct lessons first; space: the space's order")
    p.add_argument("--cooccur", metavar="EXPR", help="the rules that fire with EXPR (count, share, lift)")
    p.add_argument("--sort", default="lift", choices=("lift", "count"),
                   help="--cooccur sorted by lift (default: what is specific to it) or by count")
    p.add_argument("--min-count", dest="min_count", type=int, default=1,
                   help="--cooccur: leave out rules on fewer of its boards (default 1)")
    p.add_argument("--export", metavar="FILE",
                   help="FILE.csv, FILE.sqlite or FILE.parquet: board × rule rows (with the places each judgment is "
                        "about) and a boards table (every cast input and its 三傳), of the boards where EXPR holds "
                        "(no EXPR: every board)")
    p.add_argument("--diff", action="store_true", help="with --kb DIR: which rules gained or lost boards against the installed kb/")
    add_param(p, "question")                # the parameters find shares with cast and judge: the one table's
    p.add_argument("--days", type=int, default=60, help="only the first N days of the sixty (a quicker index of a "
                                                        "sample: an editor's --diff before the whole space)")
    add_param(p, "guiren")
    add_param(p, "shehai")
    p.add_argument("--build", action="store_true", help="build the index now (if it is not in the cache)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar while the index is built")
    p.add_argument("--kb", metavar="DIR", help="another knowledge-base folder (with --diff: the working copy)")
    p.add_argument("--lang", help="zh (default) or ja: the names shown")
    p.set_defaults(fn=cmd_find)
    return p


if __name__ == "__main__":          # pragma: no cover
    sys.exit("run: liuren find")
