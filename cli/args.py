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


def cast_args(p):
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
    g.add_argument("--partner-born", dest="partner_born", help="a second person (夫 or 妻): birth year or date")
    g.add_argument("--partner-sex", dest="partner_sex", help="the second person's sex, m or f")
    g.add_argument("--partner-benming", dest="partner_benming", help="the second person's 本命 given directly")
    g.add_argument("--partner-xingnian", dest="partner_xingnian", help="the second person's 行年 given directly")
    g.add_argument("--term-day", dest="term_day", help="explicit cast: the day holds this 節氣 (立春 … 大寒)")
    g.add_argument("--lunar", help="explicit cast: the day's lunar date as M-D (9-3; 閏4-10)")
    g.add_argument("--rixiu", help="the 日宿 given directly, as the books state it: the branch of its 宮 (酉)")
    g.add_argument("--yuexiu", help="the 月宿 given directly, as the books state it: the branch of its 宮 (辰)")
    o = p.add_argument_group("casting options (default first)")
    o.add_argument("--guiren", help="甲牛|甲羊: 貴人 school")
    o.add_argument("--shehai", help="count|mengzhong|tianpan|biyong: how 涉害 decides")
    o.add_argument("--day-boundary", dest="day_boundary", help="23|0: hour at which the day turns")
    o.add_argument("--yuejiang", help="zhongqi|month: when 月將 changes")


def cast_kwargs(a):
    kw = {}
    for k in ("tz", "day", "jiang", "hour", "on", "year", "month", "born", "sex", "benming", "xingnian",
              "partner_born", "partner_sex", "partner_benming", "partner_xingnian", "term_day", "lunar", "rixiu", "yuexiu",
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


def dump(obj):
    return json.dumps(obj, ensure_ascii=False, indent=2)


def add_kb_arg(p):
    p.add_argument("--kb", metavar="DIR", help="load another knowledge-base folder instead of the installed kb/")


def add_lang_arg(p):
    p.add_argument("--lang", help="zh (the classical text, default) or ja (names and headings of 《六壬經緯（日譯）》, "
                                  "the 日譯 quote beside the classical one); default $LIUREN_LANG")


def add_judge_args(p):
    add_kb_arg(p)
    add_lang_arg(p)
    p.add_argument("--variant", action="append", default=[], metavar="ID=VARIANT",
                   help="read an entry by another variant, e.g. sha-diwang=diben ('*=diben': every 底本 reading)")
    p.add_argument("--question", help="add a question's procedure (liuren questions lists them)")


def kb_of(a):
    from liuren.rules.kbload import load_kb
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
