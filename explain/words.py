"""The words of what a reader sees in a language: names by the KB's `labels: {ja: …}`, the board's
terms (a general, a 類相 category), the kinds as headings, and the pages' own words (headings,
labels of the board).  `display_name(entry, lang)` is the one place a name is chosen for a
language."""
from __future__ import annotations

from liuren.errors import InputError

LANGS = ("zh", "ja")
HTML_LANG = {"zh": "zh-Hant", "ja": "ja"}


def check_lang(lang):
    if lang in (None, ""):
        return "zh"
    if lang not in LANGS:
        raise InputError(f"lang {lang!r}: one of {'|'.join(LANGS)}")
    return lang


def display_name(entry, lang="zh"):
    """An entry's name in a language: its label there where the KB gives one, else its name."""
    if entry is None:
        return None
    if lang != "zh":
        label = (entry.meta.get("labels") or {}).get(lang)
        if label:
            return label
    return entry.name


def name_of(kb, key, fallback, lang="zh"):
    """The display name of the entry with id `key` (fallback: the name the engine recorded)."""
    if lang == "zh":
        return fallback
    e = kb.entries.get(key)
    return display_name(e, lang) if e is not None else fallback


def term(kb, word, lang="zh"):
    """A word of the board (a general 青龍, a 類相 category 臟腑) by the label the KB gives the entry of
    that name in `lang` (青竜, 臓腑), where every entry of that name agrees; else the word."""
    if lang == "zh" or not word:
        return word
    cache = kb.__dict__.setdefault("_web_terms", {})
    m = cache.get(lang)
    if m is None:
        labels = {}
        for e in kb.entries.values():
            labels.setdefault(e.name, set()).add((e.meta.get("labels") or {}).get(lang))
        for t in kb.tables.values():
            lab = (t.meta.get("labels") or {}).get(lang)
            labels.setdefault(t.name, set()).add(lab)
        m = cache[lang] = {k: next(iter(v)) for k, v in labels.items() if len(v) == 1 and next(iter(v))}
    return m.get(word, word)


# the page's own words (headings, labels of the board): Chinese as the CLI prints them, and the
# Japanese headings of the 日譯 rendering
WORDS = {
    "zh": {
        "title": "大六壬", "board": "課盤", "plate": "天地盤", "plate_note": "格中為天盤支與所乘天將，格之位置即地盤",
        "lessons": "四課", "lesson_n": ["第一課", "第二課", "第三課", "第四課"], "upper": "上神", "lower": "下神",
        "general": "天將", "transmissions": "三傳", "chuan": ["初傳", "中傳", "末傳"], "liuqin": "六親",
        "dungan": "遁干", "void": "旬空", "steps": "發用之由", "judgments": "判斷", "findings": "所得",
        "chain": "成立之由", "whynot": "未成立之由", "fired": "成立", "notfired": "未成立", "reading": "斷",
        "aspects": "視所乘何神、所屬何煞、所臨何煞", "imagery": "類相", "defeated": "勿以實論",
        "defeated_because": "此名勿以實論，因：", "graph": "推理圖", "none": "（無任何規則成立）",
        "question": "所問", "rules": "規則", "practice": "習課", "sources": "出處", "conditions": "條件",
        "examples": "例", "variants": "底本異文", "conflicts": "相關", "derive": "推得", "conclude": "結論",
        "cast": "起課", "interpretation": "取義", "alternative": "另說", "matched": "所據",
        "answer": "答案", "correct": "正確", "wrong": "不對", "expected": "應為", "missed": "漏看之格",
        "claimed": "誤認之格", "formed": "本課所成之格", "got": "看對之格", "gate": "發用之門", "kind": "類", "book": "書",
        "valence": "吉凶", "held": "具", "failed": "缺", "nearest": "盤上最近者", "absent": "盤上無此",
        "ja_label": "日譯", "reports": "所報表行", "reported_by": "所屬規則", "then": "推出",
        "fires": "成立之盤", "silent": "不成立之盤", "unmet": "未能重現之書例", "table": "表",
        "unreachable": "無盤可成", "always": "每盤皆成", "says": "書云",
        "says_words": {"fires": "成立", "silent": "不成立", "chuan": "三傳不同"},
        "related": {"defeats": "令其勿以實論", "defeated_by": "為其所令勿以實論", "conflicts": "已聲明之相牴"},
    },
    "ja": {
        "title": "大六壬", "board": "課盤", "plate": "天地盤", "plate_note": "枡の中は天盤の支とその乗る天将、枡の位置が地盤",
        "lessons": "四課", "lesson_n": ["第一課", "第二課", "第三課", "第四課"], "upper": "上神", "lower": "下神",
        "general": "天将", "transmissions": "三伝", "chuan": ["初伝", "中伝", "末伝"], "liuqin": "六親",
        "dungan": "遁干", "void": "旬空", "steps": "発用の由来", "judgments": "判断", "findings": "所得",
        "chain": "成立の由来", "whynot": "不成立の理由", "fired": "成立", "notfired": "不成立", "reading": "断",
        "aspects": "乗る神・属する殺・臨む殺", "imagery": "類相", "defeated": "実論するなかれ",
        "defeated_because": "この名は実論するなかれ、その理由：", "graph": "推論図", "none": "（成立した規則なし）",
        "question": "所問", "rules": "規則", "practice": "練習", "sources": "出典", "conditions": "条件",
        "examples": "例", "variants": "底本の異文", "conflicts": "関連", "derive": "推得", "conclude": "結論",
        "cast": "起課", "interpretation": "取義", "alternative": "別説", "matched": "根拠",
        "answer": "解答", "correct": "正解", "wrong": "不正解", "expected": "正しくは", "missed": "見落とした格",
        "claimed": "誤って挙げた格", "formed": "この課で成立する格", "got": "正しく挙げた格", "gate": "発用の門", "kind": "類", "book": "書",
        "valence": "吉凶", "held": "具", "failed": "欠", "nearest": "盤上で最も近いもの", "absent": "盤上になし",
        "ja_label": "日訳", "reports": "報ずる表行", "reported_by": "属する規則", "then": "推出",
        "fires": "成立する盤", "silent": "成立しない盤", "unmet": "再現できない書例", "table": "表",
        "unreachable": "成立する盤なし", "always": "どの盤でも成立", "says": "書に曰く",
        "says_words": {"fires": "成立", "silent": "不成立", "chuan": "三伝が異なる"},
        "related": {"defeats": "実論するなかれとするもの", "defeated_by": "実論するなかれとされる理由", "conflicts": "宣言された衝突"},
    },
}

# kinds as headings: the CLI prints them as they are; the 日譯 in its own characters
KIND_WORDS = {"ja": {"課體": "課体", "神煞": "神殺", "斷": "断", "總則": "総則", "占驗": "占験"}}


def kind_word(kind, lang="zh"):
    return KIND_WORDS.get(lang, {}).get(kind, kind)
