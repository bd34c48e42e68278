"""The commands that explain: why (HOW / WHY-NOT of one rule on a board), trace (the whole trace\nexported).  The audit's command is cli/audit.py."""
from __future__ import annotations

import sys

from liuren.errors import InputError


def _judge(a):
    from liuren.cli.args import cast_kwargs, kb_of
    from liuren.app import queries as Q
    from liuren.app.engine import judge
    variants = Q.parse_variants(a.variant)
    if variants:
        Q.check_variants(kb_of(a), variants)
    return judge(dict(cast_kwargs(a), variants=variants, question=a.question, kb=a.kb))



def cmd_why(a):
    from liuren.app.queries import explain, resolve_entry
    from liuren.cli.args import kb_of
    from liuren.i18n import lang_of
    from liuren.explain.render import RENDER, localize
    kb = kb_of(a)
    lang = lang_of(a.lang)
    entry = resolve_entry(kb, a.rule)          # unknown → nearest names; ambiguous → candidates
    r = _judge(a)
    report = localize(explain(r, entry.id), r.kb, lang)
    text = RENDER[a.format](report)
    _write(a, text)
    return 0


def cmd_trace(a):
    from liuren.i18n import lang_of
    from liuren.explain.export import FORMATS, localized
    lang = lang_of(a.lang)
    r = _judge(a)
    if a.why is not None:
        from liuren.app.queries import chain_part
        g = chain_part(r, a.why)
    else:
        g = r.graph
    _write(a, FORMATS[a.format](localized(g, lang)))
    return 0


def _write(a, text):
    if getattr(a, "output", None):
        try:
            with open(a.output, "w", encoding="utf-8") as f:
                f.write(text if text.endswith("\n") else text + "\n")
        except OSError as e:
            raise InputError(f"--output {a.output!r}: {e.strerror}") from None
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")


def add_commands(sub, cast_args, add_judge_args, only=None):
    """why and trace (only: the one of them, for a parser built for one command)."""
    if only in (None, "why"):
        w = sub.add_parser("why", help="why a rule fired on a board (HOW), or why it did not (WHY-NOT)")
        w.add_argument("rule", help="a rule or entry id, or its name")
        cast_args(w)
        add_judge_args(w)
        w.add_argument("--format", choices=("text", "markdown", "json", "html"), default="text")
        w.add_argument("--output", "-o", help="write to this file")
        w.set_defaults(fn=cmd_why)

    if only in (None, "trace"):
        t = sub.add_parser("trace", help="export the whole trace of a judgment")
        cast_args(t)
        add_judge_args(t)
        t.add_argument("--format", choices=("graphml", "json", "dot", "mermaid"), default="json")
        t.add_argument("--why", metavar="RULE", help="only the part of the trace this rule's chain reads "
                                                     "(a whole board is past Mermaid's limits)")
        t.add_argument("--output", "-o", help="write to this file")
        t.set_defaults(fn=cmd_trace)
