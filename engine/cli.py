"""The `liuren` command line.  Any user error prints one line on stderr and exits 2."""
from __future__ import annotations

import argparse
import json
import sys

from . import _compat  # noqa: F401
from .errors import LiurenError

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message):
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _cast_args(p):
    g = p.add_argument_group("the moment or the board")
    g.add_argument("moment", nargs="*", metavar="MOMENT",
                   help="ISO date-time (2026-11-30T14:05+08:00) or local 2026-11-30 14:05 (one or two words); "
                        "default: now")
    g.add_argument("--tz", help="IANA zone for a local moment (default: this machine's zone)")
    g.add_argument("--day", help="explicit cast: the day 干支, e.g. 丁卯")
    g.add_argument("--jiang", help="explicit cast: 月將 branch, e.g. 亥")
    g.add_argument("--hour", help="explicit cast: 占時 branch, e.g. 丑")
    g.add_argument("--on", help="explicit cast: 月將加占時, e.g. 亥加丑 (a stem stands for its 寄宮: 午加辛)")
    dn = g.add_mutually_exclusive_group()
    dn.add_argument("--night", action="store_true", help="use the night 貴人 whatever the hour")
    dn.add_argument("--daytime", action="store_true", help="use the day 貴人 whatever the hour")
    g.add_argument("--year", help="explicit cast: the year (2026 or 丙午) for 太歲 and 行年")
    g.add_argument("--month", help="explicit cast: the month 干支 (己亥) for 月建 and the season")
    g.add_argument("--born", help="birth year (1990) or date (1990-02-01) for 本命 and 行年")
    g.add_argument("--sex", help="m or f (行年)")
    g.add_argument("--benming", help="本命 given directly, as the books do (寅, or 丙寅); instead of --born")
    g.add_argument("--xingnian", help="行年 given directly (未, or 乙未); instead of --born/--sex")
    o = p.add_argument_group("casting options (default first)")
    o.add_argument("--guiren", help="甲牛|甲羊: 貴人 school")
    o.add_argument("--shehai", help="count|mengzhong: how 涉害 decides")
    o.add_argument("--day-boundary", dest="day_boundary", help="23|0: hour at which the day turns")
    o.add_argument("--yuejiang", help="zhongqi|month: when 月將 changes")


def cast_kwargs(a):
    kw = {}
    for k in ("tz", "day", "jiang", "hour", "on", "year", "month", "born", "sex", "benming", "xingnian",
              "guiren", "shehai", "day_boundary", "yuejiang", "kb"):
        v = getattr(a, k, None)
        if v is not None:
            kw[k] = v
    if getattr(a, "night", False):
        kw["night"] = True
    elif getattr(a, "daytime", False):
        kw["night"] = False
    if getattr(a, "moment", None):
        kw["moment"] = " ".join(a.moment)      # a date and a time may come as two words
    return kw


def _dump(obj):
    return json.dumps(obj, ensure_ascii=False, indent=2)


def _board(a):
    from .cast import cast
    kw = cast_kwargs(a)
    return cast(kw.pop("moment", None), **kw)


# --------------------------------------------------------------------------- commands
def cmd_cast(a):
    from .i18n import lang_of
    from .render import board_text
    lang = lang_of(a.lang)
    b = _board(a)
    print(_dump(b.to_dict()) if a.json else board_text(b, lang=lang))


def cmd_table(a):
    from .cast import lesson_table
    from .render import table_line
    opts = {k: v for k, v in cast_kwargs(a).items() if k in ("guiren", "shehai", "kb")}
    rows = list(lesson_table(a.day, **opts))
    if a.json:
        print(_dump([dict(b.to_dict(), offset=off) for off, b in rows]))
    else:
        for off, b in rows:
            print(table_line(off, b))


def build_parser():
    p = _Parser(prog="liuren", description="大六壬: cast a board, fire the classical rules, explain them.",
                epilog="--no-cache (anywhere): load the KB and compile the network afresh, without the cache")
    sub = p.add_subparsers(dest="cmd", parser_class=_Parser, required=True)

    c = sub.add_parser("cast", help="cast the board for a moment or for explicit inputs")
    _cast_args(c)
    c.add_argument("--json", action="store_true", help="print the board as JSON")
    c.set_defaults(fn=cmd_cast)
    from .cli_kb import add_lang_arg
    add_lang_arg(c)

    t = sub.add_parser("table", help="the 720 lessons (60 days × 12 offsets, 占時 子)")
    t.add_argument("--day", help="only this day, e.g. 甲子")
    t.add_argument("--guiren", help="甲牛|甲羊")
    t.add_argument("--shehai", help="count|mengzhong")
    t.add_argument("--json", action="store_true")
    t.set_defaults(fn=cmd_table)

    k = sub.add_parser("cache", help="the cache of loaded KBs and compiled networks (--no-cache bypasses it)")
    ks = k.add_subparsers(dest="ccmd", required=True, parser_class=_Parser)
    ks.add_parser("show", help="where the cache is and what it holds").set_defaults(fn=cmd_cache)
    ks.add_parser("clear", help="remove every cache file").set_defaults(fn=cmd_cache)

    from . import cli_kb
    cli_kb.add_kb_arg(c)
    cli_kb.add_kb_arg(t)
    cli_kb.add_commands(sub, _cast_args)
    from explain import cli as explain_cli
    explain_cli.add_commands(sub, _cast_args, cli_kb.add_judge_args)
    from web import cli as web_cli
    web_cli.add_command(sub)

    return p


def cmd_cache(a):
    from . import cache
    d = cache.cache_dir()
    if a.ccmd == "clear":
        n = cache.clear()
        print(f"{d}: {n} cache file{'s' if n != 1 else ''} removed")
        return 0
    files = cache.files()
    print(f"{d}: {len(files)} cache file{'s' if len(files) != 1 else ''}"
          + (f", {sum(f.stat().st_size for f in files) / 1e6:.1f} MB" if files else "")
          + ("" if cache.enabled() else "（caching is off: LIUREN_NO_CACHE）"))
    for f in files:
        print(f"  {f.name}\t{f.stat().st_size / 1e6:.1f} MB")
    return 0


def main(argv=None):
    import os
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--no-cache" in argv:            # anywhere on the line: build the KB and network afresh
        argv.remove("--no-cache")
        os.environ["LIUREN_NO_CACHE"] = "1"
    p = build_parser()
    a = p.parse_args(argv)
    try:
        from .cli_kb import check_kb_arg
        check_kb_arg(a)
        rc = a.fn(a)
    except LiurenError as e:
        print(f"liuren: {e}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return 0
    return rc or 0


if __name__ == "__main__":
    sys.exit(main())
