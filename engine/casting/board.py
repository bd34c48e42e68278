"""The cast board: one frozen value (hashable, comparable) and its JSON form."""
from __future__ import annotations

from dataclasses import dataclass, field

from liuren.casting.symbols import BRANCHES, bi


@dataclass(frozen=True)
class Step:
    """One step of the 三傳 derivation, with the verse it applies and where that verse stands
    (seed paragraph, book and 卷), cited like every other source."""
    text: str
    verse: str = ""
    book: str = ""
    rule: str = ""          # verse id in kb/core/casting.yaml
    seed: str = ""          # the seed text of the verse (kb/core/books.yaml)
    para: int | None = None # its ¶ (blank-line blocks, ¶0 = title)
    volume: str = ""        # 卷一 …
    key: str = ""           # the sentence's key in explain/steps.py (zeike-zei …); "a+b": two sentences
    args: tuple = ()        # its values, ((name, value), …): a branch, a number, or a tuple of them

    @property
    def values(self):
        """The step's values as a dict (args is a tuple so that the board stays hashable)."""
        return dict(self.args)

    def source(self):
        """The verse as a source {book, volume, seed, para, quote} (knowledge.kbload.cite prints it)."""
        return {"book": self.book, "volume": self.volume, "seed": self.seed, "para": self.para, "quote": self.verse}

    def to_dict(self):
        return {"text": self.text, "verse": self.verse, "book": self.book, "volume": self.volume,
                "seed": self.seed, "para": self.para, "rule": self.rule, "key": self.key,
                "args": {k: list(v) if isinstance(v, tuple) else v for k, v in self.args}}


@dataclass(frozen=True)
class Lesson:
    upper: str
    lower: str              # lesson 一: the day stem
    lower_branch: str       # lesson 一: the stem's 寄宮
    general: str


@dataclass(frozen=True)
class Transmissions:
    branches: tuple
    gate: str
    subtype: str
    steps: tuple


@dataclass(frozen=True)
class Xun:
    name: str               # 甲子 …
    head: str               # 旬首 branch
    tail: str               # 旬尾 branch


@dataclass(frozen=True)
class Board:
    day: str
    day_yinyang: str                 # 陽 (剛日) / 陰 (柔日)
    jiang: str                       # 月將
    jiang_name: str
    hour: str                        # 占時
    offset: int                      # 月將 − 占時
    daytime: bool
    plate_t: tuple                   # 天盤 over 地盤 子..亥
    generals_t: tuple                # general on 天盤 子..亥
    noble_branch: str
    noble_dir: str
    lessons: tuple
    transmissions: Transmissions
    xun: Xun
    void: tuple
    dungan_t: tuple                  # stem carried by 子..亥 ('' for none)
    liuqin_t: tuple                  # (煞, 六親) of 子..亥 for the day stem
    changsheng_t: tuple              # 十二長生 stage of 子..亥 for the day stem
    options: tuple                   # ((name, value), …)
    pillars: tuple = (None, None, None, None)   # year, month, day, hour 干支
    jieqi: str | None = None
    zhongqi: str | None = None
    moment: str | None = None
    month_branch: str | None = None  # 月建
    season: tuple | None = None      # (四時, 五時)
    wangxiang: tuple = ()            # ((element, 旺/相/休/囚/死), …)
    taisui: str | None = None
    benming: str | None = None
    benming_gz: str | None = None
    xingnian: str | None = None
    xingnian_gz: str | None = None
    born: str | None = None
    sex: str | None = None
    lunar: tuple | None = None       # (lunar month, day, last day of the month?, leap?) — moments only
    notes: tuple = field(default=())
    partner: tuple | None = None     # the second person: (sex, 本命, 本命干支, 行年, 行年干支)
    term_day: str | None = None      # the 節氣 the day holds (立春 …), if any
    xiu: tuple = ()                  # the 日宿 / 月宿 given directly: (("日宿", 宮支), ("月宿", 宮支))

    # ---- views
    @property
    def plate(self):
        """{地盤支: 天盤支}"""
        return dict(zip(BRANCHES, self.plate_t))

    def plate_items(self):
        return zip(BRANCHES, self.plate_t)

    @property
    def generals(self):
        """{天盤支: 天將}"""
        return dict(zip(BRANCHES, self.generals_t))

    def over(self, earth):
        return self.plate_t[bi(earth)]

    def under(self, heaven):
        return BRANCHES[(bi(heaven) - self.offset) % 12]

    @property
    def dungan(self):
        return dict(zip(BRANCHES, self.dungan_t))

    @property
    def option(self):
        return dict(self.options)

    def ganzhi_of(self, pos):
        return {"本命": self.benming_gz, "行年": self.xingnian_gz,
                "太歲": self.pillars[0], "月建": self.pillars[1]}.get(pos)

    def positions(self):
        """{position: branch} of every board position that is known."""
        t = self.transmissions.branches
        ls = self.lessons
        p = {"日干": ls[0].lower_branch, "日支": self.day[1], "干上": ls[0].upper, "干陰": ls[1].upper,
             "支上": ls[2].upper, "支陰": ls[3].upper, "初傳": t[0], "中傳": t[1], "末傳": t[2],
             "占時": self.hour, "月將": self.jiang, "旬首": self.xun.head, "旬尾": self.xun.tail}
        for k, v in (("月建", self.month_branch), ("太歲", self.taisui), ("本命", self.benming),
                     ("行年", self.xingnian)):
            if v:
                p[k] = v
        return p

    def _repr_html_(self):
        """A notebook shows the board as the web page draws it (explain/templates/_square.html)."""
        from liuren.display import html
        return html(self)

    def to_dict(self):
        t = self.transmissions
        return {
            "moment": self.moment,
            "pillars": dict(zip(("year", "month", "day", "hour"), self.pillars)),
            "jieqi": self.jieqi,
            "zhongqi": self.zhongqi,
            "yue_jiang": self.jiang,
            "yue_jiang_name": self.jiang_name,
            "zhan_shi": self.hour,
            "daytime": self.daytime,
            "day": self.day,
            "plate": self.plate,
            "lessons": [{"upper": l.upper, "lower": l.lower, "general": l.general} for l in self.lessons],
            "transmissions": {
                "branches": list(t.branches),
                "gate": t.gate,
                "subtype": t.subtype,
                "generals": [self.generals[b] for b in t.branches],
                "liuqin": [self.liuqin_t[bi(b)][1] for b in t.branches],
                "dungan": [self.dungan_t[bi(b)] or None for b in t.branches],
                "steps": [s.to_dict() for s in t.steps],
            },
            "generals": self.generals,
            "noble": {"branch": self.noble_branch, "direction": self.noble_dir},
            "xun": {"name": self.xun.name + "旬", "head": self.xun.head, "tail": self.xun.tail},
            "void": list(self.void),
            "dungan": {b: (s or None) for b, s in self.dungan.items()},
            "liuqin": {b: lq[1] for b, lq in zip(BRANCHES, self.liuqin_t)},
            "changsheng": dict(zip(BRANCHES, self.changsheng_t)),
            "season": ({"four": self.season[0], "five": self.season[1]} if self.season else None),
            "wangxiang": dict(self.wangxiang) or None,
            "taisui": self.taisui,
            "yuejian": self.month_branch,
            "benming": self.benming_gz or self.benming,
            "xingnian": self.xingnian_gz or self.xingnian,
            "sex": self.sex,
            "lunar": ({"month": self.lunar[0], "day": self.lunar[1], "last_day": self.lunar[2],
                       "leap": self.lunar[3]} if self.lunar else None),
            "options": dict(self.options),
            "notes": list(self.notes),
            **({"partner": {"sex": self.partner[0], "benming": self.partner[2] or self.partner[1],
                            "xingnian": self.partner[4] or self.partner[3]}} if self.partner else {}),
            **({"term_day": self.term_day} if self.term_day else {}),
            **({"xiu": dict(self.xiu)} if self.xiu else {}),
        }
