"""The tables the caster needs (干支, 寄宮, 三合, 天將, 貴人, 月將, the 神煞 the board shows, the
casting verses and the books they cite), read from kb/core/*.yaml and indexed for speed.

The tables themselves are data, with their sources; the rules layer loads the same files as
part of the whole KB (knowledge.kbload), with every check.  Casting reads only their rows, by
itself, so that it needs neither the KB loader nor experta.  It always uses the default
(corrected) reading of every row.
"""
from __future__ import annotations

import contextlib
import contextvars
import functools
import itertools
import os
import pathlib
from types import MappingProxyType

from liuren.casting.symbols import BRANCHES, STEMS
from liuren.errors import KBError


def expand_cells(cells, columns):
    """{支: [a, b], 干: 甲} -> [{支: a, 干: 甲}, {支: b, 干: 甲}]: a row whose cells hold lists
    stands for every combination."""
    keys = [c for c in columns if c in cells]
    lists = [cells[k] if isinstance(cells[k], list) else [cells[k]] for k in keys]
    return [dict(zip(keys, combo)) for combo in itertools.product(*lists)]


def row_facts(row, columns):
    """A table row as its facts (default reading): its cells expanded, each `each:` part added to
    them, `symmetric: [a, b]` adding the mirrored facts; a named row's facts carry its id."""
    base = {k: v for k, v in row.items() if k in columns}
    each = row.get("each")
    if each is not None:
        out = [f for part in each for f in expand_cells({**base, **part}, columns)]
    else:
        out = expand_cells(base, columns) if base else []
    sym = row.get("symmetric")
    if sym:
        a, b = sym
        out += [{**c, a: c[b], b: c[a]} for c in out if c[a] != c[b]]
    if row.get("id"):
        out = [dict(f, id=row["id"]) for f in out]
    return out


def core_dir(kb_dir=None):
    """kb/core of a KB folder; by default the installed KB's ($LIUREN_KB names another)."""
    if kb_dir:
        return pathlib.Path(kb_dir) / "core"
    env = os.environ.get("LIUREN_KB")
    if env:
        return pathlib.Path(env) / "core"
    pkg = pathlib.Path(__file__).resolve().parent.parent
    for here in (pkg / "kb", pkg.parent / "kb"):     # installed: liuren/kb; a checkout: ../kb beside engine/
        if here.is_dir():
            return here / "core"
    import importlib.resources as ir
    return pathlib.Path(str(ir.files("liuren.kb"))) / "core"


MAX_FILE = 32 * 1024 * 1024          # a KB file larger than this is refused (the largest is < 1 MB)


def read_regular(path, limit=MAX_FILE):
    """The bytes of a regular file of at most `limit` bytes; OSError for anything else (a FIFO, a
    device, a folder: never opened for a blocking read; an endless or huge file: not read whole)."""
    import errno
    import stat
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        data = f.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit // (1024 * 1024)} MB")
    return data


def read_core(folder):
    """({table id: [facts]}, {verse id: verse}, {seed: book}) from the YAML files of a kb/core folder."""
    import yaml
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    folder = pathlib.Path(folder)
    if not folder.is_dir():
        raise KBError(folder, 0, "the caster needs this folder (kb/core), which is missing")
    tables, verses, books = {}, {}, {}
    for p in sorted(folder.glob("*.yaml")):
        try:
            doc = yaml.load(read_regular(p).decode("utf-8"), Loader=loader) or {}
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
            raise KBError(p, 0, f"cannot read: {e}") from None
        if not isinstance(doc, dict):
            continue
        for t in doc.get("tables") or []:
            if isinstance(t, dict) and "id" in t and isinstance(t.get("columns"), list):
                tables[t["id"]] = [f for r in t.get("rows") or [] if isinstance(r, dict)
                                   for f in row_facts(r, t["columns"])]
        for v in doc.get("verses") or []:
            if isinstance(v, dict) and "id" in v:
                verses[v["id"]] = dict(v)
        for b in doc.get("books") or []:
            if isinstance(b, dict):
                books[b.get("seed")] = dict(b)
    return tables, verses, books


class CoreTables:
    def __init__(self, root, tables, verses, books):
        self.root = pathlib.Path(root)
        self.books = books
        T = tables

        def need(tid):
            if tid not in T:
                raise KBError(self.root, 0, f"the caster needs table {tid!r}, which is missing")
            return T[tid]

        g = need("ganzhi")
        self.element = {f["字"]: f["行"] for f in g}
        self.yinyang = {f["字"]: f["陰陽"] for f in g}
        self.sheng = {(f["生"], f["受"]) for f in need("wuxing-sheng")}
        self.ke_el = {(f["克"], f["受"]) for f in need("wuxing-ke")}
        self.jigong = {f["干"]: f["宮"] for f in need("jigong")}
        self.lodged = {b: tuple(s for s in STEMS if self.jigong[s] == b) for b in BRANCHES}
        self.mzj = {f["支"]: f["位"] for f in need("mengzhongji")}
        sanhe = need("sanhe")
        self.sanhe_group = {f["支"]: f["局"] for f in sanhe}
        self.sanhe_members = {}
        for f in sanhe:
            self.sanhe_members.setdefault(f["局"], []).append(f["支"])
        self.ganhe = {f["干"]: f["合"] for f in need("ganhe")}
        tj = sorted(need("tianjiang"), key=lambda f: f["序"])
        self.generals = tuple(f["將"] for f in tj)
        self.general_home = {f["將"]: f["本家"] for f in tj}
        self.guiren = {}
        # 先天貴神圖 (卷一 ¶1411–1426) is a school of its own table, turning by 晝夜 instead of by the 地盤
        for f in need("guiren") + T.get("guiren-xiantian", []):
            self.guiren.setdefault(f["派"], {})[f["干"]] = (f["晝"], f["夜"])
        self.shunni = {f["地"]: f["行"] for f in need("guiren-shunni")}
        self.shunni_by_zhouye = {}
        for f in T.get("guiren-xiantian-shunni", []):
            self.shunni_by_zhouye.setdefault(f["派"], {})[f["晝夜"]] = f["行"]
        self.zhouye = {f["時"]: f["晝夜"] for f in need("zhouye")}
        self.jiang_name = {f["支"]: f["名"] for f in need("yuejiang-name")}
        self.zhongqi_jiang = {f["中氣"]: f["將"] for f in need("yuejiang-zhongqi")}
        self.season = {f["月"]: (f["四時"], f["五時"]) for f in need("season")}
        self.xingnian = {f["性別"]: (f["起"], f["行"]) for f in need("xingnian")}
        # 神煞 tables (卷3) that the board displays
        self.liuqin = {}
        self.changsheng = {}
        for f in need("shensha-by-stem"):
            if f["類"] == "五行":
                self.liuqin[(f["干"], f["支"])] = (f["煞"], f["六親"])
            elif f["類"] == "長生":
                self.changsheng[(f["干"], f["支"])] = (f["序"], f["煞"])
        rel = need("shensha-zhi-relation")
        self.rel = {}
        for f in rel:
            self.rel.setdefault(f["關係"], set()).add((f["支"], f["對"]))
        self.xing_of = {a: b for a, b in self.rel["刑"]}
        self.chong_of = {a: b for a, b in self.rel["沖"]}
        self.ma = {f["日支"]: f["支"] for f in need("shensha-ma")}
        self.by_season = {}
        for f in need("shensha-by-season"):
            self.by_season[(f["時"], f["支"])] = f["煞"]
        self.month_name = {}
        self.jiang_by_month = {}
        for f in need("shensha-by-month"):
            if f["煞"] == "月建":
                self.month_name[f["支"]] = f["月"]
            elif f["煞"] == "月將":
                self.jiang_by_month[f["月"]] = f["支"]
        self.xunkong = {f["旬"]: [] for f in need("shensha-xunkong")}
        for f in need("shensha-xunkong"):
            self.xunkong[f["旬"]].append(f["支"])
        self.verses = MappingProxyType(dict(verses))
        self._check()

    def _check(self):
        for s in STEMS:
            if s not in self.jigong:
                raise KBError(self.root, 0, f"table jigong lacks stem {s}")
        if len(self.generals) != 12:
            raise KBError(self.root, 0, "table tianjiang must list twelve generals")

    # ---- relations the caster uses
    def ke(self, a, b):
        """Does symbol a 克 symbol b (by element)?"""
        return (self.element[a], self.element[b]) in self.ke_el

    def sheng_of(self, a, b):
        return (self.element[a], self.element[b]) in self.sheng

    def verse(self, vid):
        """{quote, book, volume, seed, para} of a casting verse (empty for an unknown id)."""
        v = self.verses.get(vid)
        if not v:
            return {}
        b = self.books.get(v.get("seed"), {})
        book, volume = b.get("book", v.get("seed", "")), b.get("volume", "")
        return {"quote": v["quote"], "book": book, "volume": volume, "seed": v["seed"], "para": v["para"]}


_READER = contextvars.ContextVar("liuren_core_reader", default=read_core)


@contextlib.contextmanager
def reading_with(read):
    """Meanwhile (this thread or task), core() reads a kb/core folder through read(folder), which
    returns what read_core does: the CLI's entry point gives one that keeps the result in the
    user's cache (knowledge.cache.read_core_cached), so that a judgment does not parse the YAML
    again.  Casting stays free of the rules layer, and importing a module changes no other."""
    token = _READER.set(read)
    try:
        yield
    finally:
        _READER.reset(token)


def core(kb_dir=None):
    """The caster's tables from kb/core of the installed KB, or of another KB folder ($LIUREN_KB
    when none is given, as it is now).  Kept per folder for the life of the process: the files
    of a folder are read once (`liuren kb check` clears the memo, core.cache_clear())."""
    return _core(str(core_dir(kb_dir).resolve()))


@functools.lru_cache(maxsize=4)
def _core(folder):
    return CoreTables(folder, *_READER.get()(pathlib.Path(folder)))


core.cache_clear = _core.cache_clear
