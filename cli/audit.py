"""`liuren audit`: the command line of the KB audit (explain/audit.py is the audit itself: the
walk over the board space, the analysis and the report).  Options, the baseline, the files
written, what the terminal shows and the exit status."""
from __future__ import annotations

import json
from collections import Counter

from liuren.errors import InputError
from liuren.explain.audit import (audit, compare, declared_stats, html_report, last_run_path, load_run, markdown,
                                  save_run, _shown)

CLI_LIMIT = 20         # findings printed on the terminal unless --all


def cmd_audit(a):
    opts = {}
    for part in (a.options or "").replace("，", ",").split(","):
        if part.strip():
            if "=" not in part:
                raise InputError(f"--options {a.options!r}: write name=value,… e.g. guiren=甲羊")
            k, v = part.split("=", 1)
            opts[k.strip()] = v.strip()
    if a.variants not in ("sample", "full"):
        raise InputError(f"--variants {a.variants!r}: sample or full")
    if a.space not in ("wide", "base"):
        raise InputError(f"--space {a.space!r}: wide or base")
    base = None
    if a.baseline:
        import pathlib
        if pathlib.Path(a.baseline).exists():
            base = load_run(a.baseline)
    rules = None
    if a.rules:
        rules = [x for r in a.rules for x in r.replace("，", ",").split(",") if x.strip()]
    rep = audit(a.kb, a.months, a.daynight, opts, progress=not a.quiet,
                variants=not a.no_variants and rules is None, days=a.days,
                variant_space=a.variants, question=a.question, wide=a.space == "wide", rules=rules,
                questions=a.space == "wide", prior=base if rules is not None else None)
    if a.markdown:
        _write(a.markdown, markdown(rep, a.all), "--markdown")
    if a.html:
        _write(a.html, html_report(rep, a.all), "--html")
    if rules is None and not a.kb and a.question is None:
        try:
            save_run(rep, last_run_path())        # for the web app's /audit page
        except OSError:
            pass
    fs = rep["findings"]
    if a.baseline and base is None:
        try:
            save_run(rep, a.baseline)
        except OSError as e:
            raise InputError(f"--baseline {a.baseline!r}: {e.strerror}") from None
    if a.json:
        # (where each entry fired is kept beside the saved run for --rules, not printed)
        print(json.dumps({k: v for k, v in rep.items() if k != "firing_sets"}, ensure_ascii=False, indent=1))
    elif base is not None:
        new, gone = compare(base, rep)
        ne = sum(1 for f in new if f["severity"] == "error")
        print(f"since {a.baseline}: {len(new)} new ({ne} errors), {len(gone)} gone")
        for tag, xs in (("new", new), ("gone", gone)):
            for f in (xs if a.all else xs[:CLI_LIMIT]):
                print(f"  {tag} {f['severity']} {f['check']}: {f['message']}")
                for e in f["entries"]:
                    print(f"      {e['id']} {e['file']}:{e['line']}")
                if f.get("command") and tag == "new":
                    print(f"      {f['command']}")
            if len(xs) > CLI_LIMIT and not a.all:
                print(f"  ({_shown(CLI_LIMIT, len(xs), tag)})")
        return 1 if ne else 0
    else:
        sev = Counter(f["severity"] for f in fs)
        st = declared_stats(rep)
        print(f"boards: {rep['space']['boards']:,}; findings: {sev['error']} errors, {sev['warning']} warnings, "
              f"{sev['note']:,} notes; declared pairs: {st['pairs']:,} ({st['share']:.0%} only by wildcard rows); "
              f"variants: {len(rep['variants'])}; {rep.get('seconds')} s")
        if a.baseline:
            print(f"baseline saved: {a.baseline} (later runs report what is new or gone since this one)")
        shown = fs if a.all else [f for f in fs if f["severity"] != "note"][:CLI_LIMIT] or fs[:CLI_LIMIT]
        for f in shown:
            print(f"  {f['severity']} {f['check']} ({f['boards']:,} boards): {f['message']}")
            for e in f["entries"]:
                print(f"      {e['id']} {e['name']}（{e.get('valence') or '—'}）{e['file']}:{e['line']}")
            if f.get("command"):
                print(f"      {f['command']}")
        if len(shown) < len(fs):
            print(f"({_shown(len(shown), len(fs), 'findings')}; or --markdown / --html FILE)")
    if a.baseline:
        return 0                # the run just saved is the baseline: what it has is acknowledged
    return 1 if any(f["severity"] == "error" for f in fs) else 0


def _write(path, text, flag):
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise InputError(f"{flag} {path!r}: {e.strerror}") from None


def add_command(sub):
    p = sub.add_parser("audit", help="judge the whole board space and audit the KB (exit 1 on an error finding)")
    p.add_argument("--months", default="all", help="all (default), a number 1–12, or month branches like 寅,申")
    p.add_argument("--daynight", default="both", help="both (default), day or night")
    p.add_argument("--days", type=int, default=60, help="only the first N days of the sixty (default 60: all)")
    p.add_argument("--space", default="wide", help="wide (default: vary what the rules read — 占時, 太歲, 本命・行年, "
                                                   "農曆, 節日, the question) or base (占時 子, 丙午 only)")
    p.add_argument("--options", help="casting options for every board, e.g. guiren=甲羊,shehai=mengzhong")
    p.add_argument("--rules", nargs="+", metavar="ID", help="audit only these rules (or named rows) and the rules "
                                                            "they meet")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--markdown", metavar="FILE", help="also write the report as Markdown")
    p.add_argument("--html", metavar="FILE", help="also write the report as an HTML page")
    p.add_argument("--all", action="store_true", help="show every finding (not only the first ones)")
    p.add_argument("--baseline", metavar="FILE", help="compare with the run saved in FILE (saved there when it does "
                                                      "not exist): report what is new or gone; exit 1 on a new error")
    p.add_argument("--no-variants", action="store_true", help="skip measuring the 底本 variants")
    p.add_argument("--variants", default="sample", help="sample (default: one lesson of each day, 60 boards) or "
                                                       "full (the 720 lessons): where each variant's effect is measured")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--question", help="ask this question on every board (its procedure's rules are then audited)")
    p.add_argument("--kb", metavar="DIR", help="audit another knowledge-base folder")
    p.set_defaults(fn=cmd_audit)
