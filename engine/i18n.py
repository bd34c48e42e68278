"""Languages of what a reader sees: the classical Chinese of the sources (zh, the default) and
the Japanese of 《六壬經緯（日譯）》 (ja: seed 002).

Only the words of the program change with the language — headings, the labels of the board,
the names of entries that have a Japanese label (`labels: {ja: …}` in kb/).  Quotes are never
translated: under ja the 日譯's own sentence is shown beside the classical line it renders.
Readings are the KB's own words and stay as written.

    lang_of(None)          # from $LIUREN_LANG, else zh; an unknown language is an InputError
    name_of(entry, "ja")   # 鋳印 for 鑄印
    word("三傳", "ja")     # 三伝
"""
from __future__ import annotations

import os

from liuren.errors import InputError

LANGS = {"zh": "漢文（原典）", "ja": "日本語（日譯）"}
DEFAULT = "zh"
JA_SEED = "002_230da35133231224.txt"       # 《六壬經緯（日譯）》, the Japanese rendering of seed 000

# the program's own words in Japanese (headings, board labels, kinds, the chain's labels)
JA = {
    # kinds
    "課體": "課体", "格": "格", "畢法": "畢法", "神煞": "神煞", "斷": "断", "總則": "総則", "類相": "類象",
    "占驗": "占験", "起例": "起例",
    # the board
    "節氣": "節気", "月將": "月将", "時": "時", "晝": "昼", "夜": "夜", "旬": "旬", "空亡": "空亡", "旬首": "旬首",
    "旬尾": "旬尾", "貴人": "貴人", "順行": "順行", "逆行": "逆行", "月建": "月建", "太歲": "太歳", "本命": "本命",
    "行年": "行年", "旺相": "旺相", "季月": "季月", "時刻": "時刻",
    "天地盤（格中為天盤支與所乘天將，格之位置即地盤）": "天地盤（枡の中は天盤の支と乗る天将、枡の位置が地盤）",
    "四課（右起第一課）": "四課（右から第一課）", "天將": "天将", "上神": "上神", "下神": "下神",
    "三傳": "三伝", "初傳": "初伝", "中傳": "中伝", "末傳": "末伝", "發用之由": "発用の由来",
    "所問": "問う所", "即": "すなわち", "無任何規則成立": "成立する規則なし", "勿以實論": "実として論ずる勿れ",
    "途": "途",
    # the chain
    "成立": "成立", "未成立": "不成立", "經": "経由", "起課": "起課", "推得": "推得", "結論": "結論",
    "視所乘何神、所屬何煞、所臨何煞": "乗る所の何の神、属する何の煞、臨む何の煞を視る",
    "所乘": "乗る所", "所屬": "属する", "所臨": "臨む", "地盤": "地盤", "上神乘": "上神が乗る",
    "取義": "解釈", "另說": "別説", "此名勿以實論，因：": "この名は実として論ずる勿れ、その故：",
    "要": "要件", "盤上最近者": "盤上の最も近いもの", "盤上無此": "盤上になし", "無": "なし",
    "此盤": "この盤では", "或其一": "またはその一",
    "日譯": "日訳",
}

# the notes a cast board carries when an input is missing, in each language
NOTES = {
    "taisui": {"zh": "未給年，太歲不明：--year 2026 或 丙午", "ja": "年の指定なく、太歳不明：--year 2026 または 丙午"},
    "month": {"zh": "未給月，月建與季節不明：--month 己亥", "ja": "月の指定なく、月建と季節不明：--month 己亥"},
    "sex": {"zh": "未給性別，行年不明：--sex m|f", "ja": "性別の指定なく、行年不明：--sex m|f"},
    "yearno": {"zh": "行年須以數字之年起：--year 2026", "ja": "行年には数字の年が要る：--year 2026"},
    "born": {"zh": "未給生年，本命與行年不明：--born，或 --benming/--xingnian",
             "ja": "生年の指定なく、本命と行年不明：--born、または --benming/--xingnian"},
}


def lang_of(value=None):
    """The language asked for (--lang, else $LIUREN_LANG, else zh)."""
    v = value if value is not None else os.environ.get("LIUREN_LANG") or DEFAULT
    v = str(v).strip()
    if v not in LANGS:
        where = "--lang" if value is not None else "LIUREN_LANG"
        raise InputError(f"{where} {v!r} is not a language of this program "
                         f"({', '.join(f'{k} {n}' for k, n in LANGS.items())})")
    return v


def word(s, lang):
    """The program's word s in the language (unchanged when there is no translation)."""
    if lang == "ja":
        return JA.get(s, s)
    return s


def label_of(meta, lang):
    """An entry's name in the language from its metadata (labels: {ja: …}), or None."""
    if lang == DEFAULT or not isinstance(meta, dict):
        return None
    return (meta.get("labels") or {}).get(lang)


def name_of(entry, lang):
    """An entry's name as the reader of `lang` knows it."""
    return label_of(getattr(entry, "meta", None), lang) or entry.name


def note_text(key, lang=DEFAULT):
    return NOTES[key].get(lang) or NOTES[key][DEFAULT]


def is_rendering(src):
    """Is this source the Japanese rendering (shown beside the classical line under ja only)?"""
    return src.get("seed") == JA_SEED
