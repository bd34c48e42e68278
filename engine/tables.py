"""Lookups the caster needs, built once from the installed kb/core tables.

The tables themselves are data (kb/core/*.yaml, with their sources); this module only indexes
them for speed.  Casting always uses the default (corrected) reading of every table.
"""
from __future__ import annotations

import functools
from types import MappingProxyType

from .errors import KBError
from .kbload import load_kb, packaged_kb_dir
from .symbols import BRANCHES, STEMS


class CoreTables:
    def __init__(self, kb):
        self.kb = kb
        T = kb.tables

        def need(tid):
            if tid not in T:
                raise KBError(kb.root / "core", 0, f"the caster needs table {tid!r}, which is missing")
            return T[tid].facts()

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
        for f in need("guiren"):
            self.guiren.setdefault(f["派"], {})[f["干"]] = (f["晝"], f["夜"])
        self.shunni = {f["地"]: f["行"] for f in need("guiren-shunni")}
        self.zhouye = {f["時"]: f["晝夜"] for f in need("zhouye")}
        self.jiang_name = {f["支"]: f["名"] for f in need("yuejiang-name")}
        self.zhongqi_jiang = {f["中氣"]: f["將"] for f in need("yuejiang-zhongqi")}
        self.season = {f["月"]: (f["四時"], f["五時"]) for f in need("season")}
        self.xingnian = {f["性別"]: (f["起"], f["行"]) for f in need("xingnian")}
        # 神煞 tables (卷3) that the board displays
        self.liuqin = {}
        self.changsheng = {}
        rows = {r.id: r for r in T["shensha-by-stem"].rows} if "shensha-by-stem" in T else {}
        for f in need("shensha-by-stem"):
            if f["類"] == "五行":
                self.liuqin[(f["干"], f["支"])] = (f["煞"], f["六親"])
            elif f["類"] == "長生":
                self.changsheng[(f["干"], f["支"])] = (f["序"], f["煞"])
        self.sha_rows = rows
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
        self.verses = MappingProxyType(dict(kb.verses))
        self._check()

    def _check(self):
        for s in STEMS:
            if s not in self.jigong:
                raise KBError(self.kb.root, 0, f"table jigong lacks stem {s}")
        if len(self.generals) != 12:
            raise KBError(self.kb.root, 0, "table tianjiang must list twelve generals")

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
        book, volume = self.kb.book_of(v)
        return {"quote": v["quote"], "book": book, "volume": volume, "seed": v["seed"], "para": v["para"]}


@functools.lru_cache(maxsize=4)
def core(kb_dir=None):
    """The caster's tables from kb/core of the installed KB, or of another KB folder."""
    return CoreTables(load_kb(kb_dir or packaged_kb_dir(), only=("core",)))
