"""The arguments the commands share: the moment or board (cast_args → cast_kwargs), --kb, --lang,
the judging options, and argparse's usage errors as one line with exit status 2."""
from __future__ import annotations

import argparse
import json

from liuren.errors import InputError

EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message):
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _help_lang():
    """The language of --help: $LIUREN_LANG's (ja), else zh."""
    import os
    return "ja" if os.environ.get("LIUREN_LANG", "").strip() == "ja" else "zh"


def add_param(p, name, **extra):
    """The option --name of the table's parameter (app/params.py): its help in the help's language; a
    true/false parameter is a flag, a repeatable one is given once per value."""
    from liuren.app.params import PARAMS
    t = PARAMS[name]
    kw = {"help": t.help(_help_lang())}
    if t.type == "bool":
        kw["action"] = "store_true"
    elif t.type == "multi":
        kw.update(action="append", default=[])
    if t.metavar:
        kw["metavar"] = t.metavar
    kw.update(extra)
    return p.add_argument(t.flag, dest=name, **kw)


def cast_args(p):
    from liuren.app.params import CAST_KEYS, CAST_OPTIONS, PARAMS
    g = p.add_argument_group("the moment or the board")
    g.add_argument("moment", nargs="*", metavar="MOMENT", help=PARAMS["moment"].help(_help_lang()))
    dn = g.add_mutually_exclusive_group()
    for k in CAST_KEYS:
        if k == "moment" or k in CAST_OPTIONS:
            continue
        add_param(dn if k in ("night", "daytime") else g, k)
    o = p.add_argument_group("casting options (default first)")
    for k in CAST_OPTIONS:
        add_param(o, k)


def cast_kwargs(a):
    from liuren.app.params import CAST_KEYS
    kw = {}
    for k in CAST_KEYS + ("kb",):
        if k in ("moment", "night", "daytime"):
            continue
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


def dump(obj):
    return json.dumps(obj, ensure_ascii=False, indent=2)


def add_kb_arg(p):
    p.add_argument("--kb", metavar="DIR", help="load another knowledge-base folder instead of the installed kb/")


def add_lang_arg(p):
    add_param(p, "lang")


def add_judge_args(p):
    add_kb_arg(p)
    add_lang_arg(p)
    add_param(p, "variant")
    add_param(p, "question")


def kb_of(a):
    from liuren.app.engine import load_kb
    return load_kb(getattr(a, "kb", None))


def check_kb_arg(a):
    """--kb names a folder: an empty value is an error, not the installed kb/."""
    if getattr(a, "kb", None) is not None and not str(a.kb).strip():
        raise InputError("--kb '': give a knowledge-base folder (or leave --kb out for the installed kb/)")


def check_no_empty(a):
    """An empty value is no value: `--kind ''`, `--day ''`, `rules show ''` or `--output ''` is an
    error naming the option, never "everything" or a default."""
    for k, v in vars(a).items():
        if k in ("fn", "moment") or k.startswith("_"):
            continue
        values = v if isinstance(v, list) else [v]
        for x in values:
            if isinstance(x, str) and not x.strip():
                name = k if k in ("rule", "symbol") else "--" + k.rstrip("_").replace("_", "-")
                raise InputError(f"{name} {x!r}: give a value (an empty one means nothing)")
