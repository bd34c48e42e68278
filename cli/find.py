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
    modes = sum(bool(x) for x in (a.expr, a.cooccur, a.diff))
    if a.build and modes == 0:
        ix = _finder(a, a.kb)
        print(f"index: {ix.n} boards, {len(ix.bits)} entries that fire (built in {ix.seconds:.0f} s)")
        return 0
    if modes != 1:
        raise InputError("find: give an expression (liuren find '斬首 and 元首課'), or --cooccur NAME, or --diff --kb DIR")
    if a.expr is not None:
        F.parse(a.expr)                     # a bad expression is an error before any index is built
    if a.cooccur is not None:
        F.parse(a.cooccur)
    if a.count_by and a.count_by not in F.COUNT_BY:
        raise InputError(f"--count-by {a.count_by!r}: one of {'|'.join(F.COUNT_BY)}")
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
    filters = dict(month=a.month, day=a.day, gate=a.gate, daynight=a.daynight)
    if a.cooccur is not None:
        rep = F.cooccur(ix, a.cooccur, a.limit, lang=lang, **filters)
        if a.json:
            print(dump(rep))
            return 0
        print(f"{a.cooccur}: {rep['count']} boards of {rep['of']}; what fires most with it")
        if rep["cooccur"]:
            print(f"  {'boards':>6}  {'share':>6}  {'lift':>6}  name")
        for r in rep["cooccur"]:
            print(f"  {r['count']:>6}  {r['share']:>6.1%}  {r['lift']:>6.2f}  {r['name']}〔{r['kind']}〕")
        return 0
    rep = F.find(ix, a.expr, limit=0 if a.count_by else a.limit, offset=a.offset, count_by_key=a.count_by,
                 lang=lang, kb_arg=a.kb, each_lesson=a.each_lesson, **filters)
    if a.json:
        if a.count_by:
            rep = {"query": rep["query"], "count": rep["count"], "of": rep["of"], "filters": rep["filters"],
                   "counts": rep["counts"]}
        print(dump(rep))
        return 0
    print(f"{a.expr}: {rep['count']} board{'s' if rep['count'] != 1 else ''} of {rep['of']}"
          + (f", in {rep['lessons']} lesson{'s' if rep['lessons'] != 1 else ''}" if a.each_lesson else ""))
    if a.count_by:
        width = max([_width(k) for k in rep["counts"]] + [4])
        for k, n in rep["counts"].items():
            print(f"  {k}{' ' * (width - _width(k))}  {n:>6}")
        print(f"  合計{' ' * (width - 4)}  {sum(rep['counts'].values()):>6}")
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


def _width(s):
    return sum(2 if ord(c) > 0x2E80 else 1 for c in s)


def add_command(sub):
    from liuren.cli.args import add_param
    p = sub.add_parser("find", help="where does it fire? boards of the whole space where an expression holds")
    p.add_argument("expr", nargs="?", metavar="EXPR",
                   help="rule names or ids joined with and, or, not and parentheses, e.g. '斬首 and 元首課'")
    p.add_argument("--month", help="only these months: a branch or 干支 (寅, 丙寅; a comma list)")
    p.add_argument("--day", help="only these days (甲子; a comma list)")
    p.add_argument("--gate", help="only this gate (涉害 …) or 課 (元首, 重審 …)")
    p.add_argument("--daynight", help="day or night (default: both)")
    p.add_argument("--limit", type=int, default=20, help="boards (or rows) shown (default 20)")
    p.add_argument("--offset", type=int, default=0, help="skip this many boards first")
    p.add_argument("--each-lesson", dest="each_lesson", action="store_true",
                   help="list one board of each lesson (the first of its months and 晝夜): boards that differ")
    p.add_argument("--count-by", dest="count_by", help="month|gate|day|lesson|daynight: a table of counts")
    p.add_argument("--cooccur", metavar="NAME", help="the rules that fire most with NAME (count, share, lift)")
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
