"""The `liuren` command line.  Any user error prints one line on stderr and exits 2."""
from __future__ import annotations

import sys

from liuren import _compat  # noqa: F401
from liuren.cli.args import EXIT_USAGE, Parser, cast_args, cast_kwargs, dump
from liuren.errors import LiurenError



def _board(a):
    from liuren.app.engine import cast
    kw = cast_kwargs(a)
    return cast(kw.pop("moment", None), **kw)


# --------------------------------------------------------------------------- commands
def cmd_cast(a):
    from liuren.i18n import lang_of
    from liuren.explain.boardtext import board_text
    lang = lang_of(a.lang)
    b = _board(a)
    print(dump(b.to_dict()) if a.json else board_text(b, lang=lang))


def cmd_table(a):
    from liuren.app.engine import lesson_table
    from liuren.explain.boardtext import table_line
    opts = {k: v for k, v in cast_kwargs(a).items() if k in ("guiren", "shehai", "kb")}
    rows = list(lesson_table(a.day, **opts))
    if a.json:
        print(dump([dict(b.to_dict(), offset=off) for off, b in rows]))
    else:
        for off, b in rows:
            print(table_line(off, b))


# the commands, in the order --help lists them, by the module that adds them ("main": here)
COMMANDS = {"cast": "main", "table": "main", "cache": "main",
            "judge": "kb", "rules": "kb", "lookup": "kb", "kb": "kb", "questions": "kb",
            "why": "explain", "trace": "explain", "audit": "audit", "serve": "serve",
            "find": "find"}


def build_parser(cmd=None):
    """The parser of every command, or (cmd, a command named in COMMANDS) of that one only: a
    command then imports only its own module, not every other command's (the audit's
    multiprocessing, the web app's …).  Its parsing and its messages are the same: a command's
    arguments are its own sub-parser's."""
    if cmd not in COMMANDS:
        cmd = None

    def want(*names):
        return cmd is None or cmd in names

    p = Parser(prog="liuren", description="大六壬: cast a board, fire the classical rules, explain them.",
                epilog="--no-cache (anywhere): load the KB and compile the network afresh, without the cache")
    sub = p.add_subparsers(dest="cmd", parser_class=Parser, required=True)
    from liuren.cli.args import add_judge_args, add_kb_arg, add_lang_arg, add_param

    if want("cast"):
        c = sub.add_parser("cast", help="cast the board for a moment or for explicit inputs")
        cast_args(c)
        c.add_argument("--json", action="store_true", help="print the board as JSON")
        c.set_defaults(fn=cmd_cast)
        add_lang_arg(c)

    if want("table"):
        t = sub.add_parser("table", help="the 720 lessons (60 days × 12 offsets, 占時 子)")
        t.add_argument("--day", help="only this day, e.g. 甲子")
        add_param(t, "guiren")                  # the casting options: the one table's (app/params.py)
        add_param(t, "shehai")
        t.add_argument("--json", action="store_true")
        t.set_defaults(fn=cmd_table)

    if want("cache"):
        k = sub.add_parser("cache", help="the cache of loaded KBs and compiled networks (--no-cache bypasses it)")
        ks = k.add_subparsers(dest="ccmd", required=True, parser_class=Parser)
        ks.add_parser("show", help="where the cache is and what it holds").set_defaults(fn=cmd_cache)
        ks.add_parser("clear", help="remove every cache file").set_defaults(fn=cmd_cache)

    if want("cast"):
        add_kb_arg(c)
    if want("table"):
        add_kb_arg(t)
    if want(*(n for n, m in COMMANDS.items() if m == "kb")):
        from liuren.cli import kb as cli_kb
        cli_kb.add_commands(sub, cast_args)
    if want(*(n for n, m in COMMANDS.items() if m == "explain")):
        from liuren.cli import explain as explain_cli
        explain_cli.add_commands(sub, cast_args, add_judge_args, only=cmd)
    if want("audit"):
        from liuren.cli import audit as audit_cli
        audit_cli.add_command(sub)
    if want("serve"):
        from liuren.cli import serve as web_cli
        web_cli.add_command(sub)
    if want("find"):
        from liuren.cli import find as find_cli
        find_cli.add_command(sub)

    return p


def cmd_cache(a):
    from liuren.app.engine import cache
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
    """The command line.  The process-wide choices are made here, for this call only (contexts,
    undone on return): --no-cache, the caster reading kb/core through the cache, and moving what
    lasts (the KB, the network) out of the garbage collector's way.  A library call makes none."""
    import contextlib
    argv = list(sys.argv[1:] if argv is None else argv)
    no_cache = "--no-cache" in argv     # anywhere on the line: build the KB and network afresh
    while "--no-cache" in argv:
        argv.remove("--no-cache")
    p = build_parser(argv[0] if argv else None)
    a = p.parse_args(argv)
    a.no_cache = no_cache
    try:
        from liuren.app.engine import reading_with
        from liuren.cli.args import check_kb_arg, check_no_empty
        from liuren.app.engine import cache
        cache.enabled()         # LIUREN_NO_CACHE read on every command, not only when a cache is first used
        with contextlib.ExitStack() as ctx:
            if no_cache:
                ctx.enter_context(cache.disabled())
            ctx.enter_context(cache.freezing())
            ctx.enter_context(reading_with(cache.read_core_cached))
            check_kb_arg(a)
            check_no_empty(a)
            rc = a.fn(a)
    except LiurenError as e:
        print(f"liuren: {e}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:           # Ctrl-C: stopped, without a traceback
        print(file=sys.stderr)
        return 130
    return rc or 0


if __name__ == "__main__":
    sys.exit(main())
