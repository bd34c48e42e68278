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


# --------------------------------------------------------------------------- errors on a page
# The CLI's messages name options (--day); a page names the form's fields in words, in its language.
FIELDS = {
    "zh": {"moment": "時刻", "tz": "時區", "day": "日", "on": "月將加占時", "jiang": "月將", "hour": "占時",
           "year": "年", "month": "月", "born": "生年", "sex": "性別", "benming": "本命", "xingnian": "行年",
           "partner-born": "另一人之生年", "partner-sex": "另一人之性別", "partner-benming": "另一人之本命",
           "partner-xingnian": "另一人之行年", "term-day": "節日", "lunar": "農曆", "variant": "底本",
           "question": "所問", "book": "書", "kind": "類", "valence": "吉凶", "guiren": "貴人", "shehai": "涉害",
           "day-boundary": "換日", "yuejiang": "月將之法", "seed": "課號", "page": "頁", "night": "晝夜",
           "daytime": "晝夜", "gate": "發用之門", "chu": "初傳", "zhong": "中傳", "mo": "末傳", "ge": "格",
           "lang": "語言", "name": "名", "source": "出處", "why": "所問之規則"},
    "ja": {"moment": "時刻", "tz": "タイムゾーン", "day": "日", "on": "月将加占時", "jiang": "月将", "hour": "占時",
           "year": "年", "month": "月", "born": "生年", "sex": "性別", "benming": "本命", "xingnian": "行年",
           "partner-born": "相手の生年", "partner-sex": "相手の性別", "partner-benming": "相手の本命",
           "partner-xingnian": "相手の行年", "term-day": "節日", "lunar": "旧暦", "variant": "底本",
           "question": "問う事", "book": "書", "kind": "類", "valence": "吉凶", "guiren": "貴人", "shehai": "渉害",
           "day-boundary": "日の変わり目", "yuejiang": "月将の取り方", "seed": "課の番号", "page": "頁",
           "night": "昼夜", "daytime": "昼夜", "gate": "発用の門", "chu": "初伝", "zhong": "中伝", "mo": "末伝",
           "ge": "格", "lang": "言語", "name": "名", "source": "出典", "why": "問う規則"},
}

# (the CLI's message, as a pattern) -> the page's sentence; {f} the field, {v} the value, {x} the rest
_ERRORS = [
    (r"^--(?P<f>[\w-]+) '(?P<v>[^']*)' is not one of the sixty 干支",
     {"zh": "{f}「{v}」不是六十干支之一（如丁卯）", "ja": "{f}「{v}」は六十干支のいずれでもない（例：丁卯）"}),
    (r"^--(?P<f>[\w-]+) '(?P<v>[^']*)' is not a branch",
     {"zh": "{f}「{v}」不是地支（子丑寅卯辰巳午未申酉戌亥）", "ja": "{f}「{v}」は地支ではない（子丑寅卯辰巳午未申酉戌亥）"}),
    (r"^--on '(?P<v>[^']*)'",
     {"zh": "月將加占時「{v}」：請寫如「亥加丑」（地支加地支，或加日干）", "ja": "月将加占時「{v}」：「亥加丑」のように書く"}),
    (r"^give either a moment or --day",
     {"zh": "填時刻，或填日與月將加占時，二者擇一", "ja": "時刻か、日と月将加占時か、どちらか一方を入れる"}),
    (r"^--jiang/--hour/--on need --day",
     {"zh": "月將加占時須與日（日干支，如丁卯）同填", "ja": "月将加占時には日（日干支、例：丁卯）も要る"}),
    (r"^an explicit cast needs --jiang and --hour",
     {"zh": "直接起盤須填月將與占時（或月將加占時，如亥加丑）", "ja": "直接起盤には月将と占時（または月将加占時、例：亥加丑）が要る"}),
    (r"^give --on \(亥加丑\) or --jiang with --hour",
     {"zh": "填月將加占時，或分填月將與占時，二者擇一", "ja": "月将加占時か、月将と占時か、どちらか一方を入れる"}),
    (r"^cannot read the moment '(?P<v>[^']*)'",
     {"zh": "時刻「{v}」無法讀取：請填日期與時刻，如 2026-11-30 14:05", "ja": "時刻「{v}」が読めない：2026-11-30 14:05 のように入れる"}),
    (r"^the moment '(?P<v>[^']*)' is outside the calendar's range \((?P<x>[^)]*)\)",
     {"zh": "時刻「{v}」出乎曆法之範圍（{x}）", "ja": "時刻「{v}」は暦の範囲（{x}）の外"}),
    (r"^unknown time zone '(?P<v>[^']*)'",
     {"zh": "時區「{v}」不明：請用如 Asia/Shanghai 之名", "ja": "タイムゾーン「{v}」は不明：Asia/Tokyo のような名を使う"}),
    (r"^--tz '(?P<v>[^']*)': a time zone belongs to a moment",
     {"zh": "時區「{v}」只用於時刻；以日與月將加占時起盤則無時區", "ja": "タイムゾーン「{v}」は時刻にのみ用いる；日と月将加占時の盤にはない"}),
    (r"^--(?P<f>year) '(?P<v>[^']*)': give a year number",
     {"zh": "{f}「{v}」：請填年數（2026）或其干支（丙午）", "ja": "{f}「{v}」：年の数（2026）かその干支（丙午）を入れる"}),
    (r"^--(?P<f>[\w-]+) '(?P<v>[^']*)': the year must be between (?P<x>\S+ and \S+)",
     {"zh": "{f}「{v}」：年須在 {x} 之間", "ja": "{f}「{v}」：年は {x} の間"}),
    (r"^--(?P<f>[\w-]+) '(?P<v>[^']*)': give a year \(1990\) or a date",
     {"zh": "{f}「{v}」：請填年（1990）或日期（1990-02-01）", "ja": "{f}「{v}」：年（1990）か日付（1990-02-01）を入れる"}),
    (r"^--(?P<f>[\w-]+) '(?P<v>[^']*)' is after the (?:moment|cast year)",
     {"zh": "{f}「{v}」在所占之時之後", "ja": "{f}「{v}」は占う時より後"}),
    (r"^--(?P<f>[\w-]+) '(?P<v>[^']*)': use m or f",
     {"zh": "{f}「{v}」：請選男或女", "ja": "{f}「{v}」：男か女を選ぶ"}),
    (r"^--(?P<f>[\w-]+) '(?P<v>[^']*)': give a branch \(寅\) or a 干支",
     {"zh": "{f}「{v}」：請填地支（寅）或干支（丙寅）", "ja": "{f}「{v}」：地支（寅）か干支（丙寅）を入れる"}),
    (r"^--(?P<f>term-day) '(?P<v>[^']*)'",
     {"zh": "{f}「{v}」：請填二十四節氣之一（立春……大寒）", "ja": "{f}「{v}」：二十四節気の一つ（立春……大寒）を入れる"}),
    (r"^--(?P<f>lunar) '(?P<v>[^']*)'",
     {"zh": "{f}「{v}」：請以「月-日」填之，如 9-3（閏月作 閏4-10）", "ja": "{f}「{v}」：「月-日」で入れる（例：9-3、閏月は 閏4-10）"}),
    (r"^no rule or entry '(?P<v>[^']*)'(?:; nearest: (?P<x>.*))?",
     {"zh": "無名為「{v}」之規則{x}", "ja": "「{v}」という規則はない{x}"}),
    (r"^unknown question '(?P<v>[^']*)'",
     {"zh": "所問「{v}」不在所知之問中", "ja": "問う事「{v}」は知られた問いにない"}),
    (r"^seed '(?P<v>[^']*)': give a whole number",
     {"zh": "課號「{v}」：請填整數", "ja": "課の番号「{v}」：整数を入れる"}),
    (r"^page '?(?P<v>[^':]*)'?: ",
     {"zh": "頁「{v}」不在範圍之內", "ja": "頁「{v}」は範囲の外"}),
    (r"^(?P<f>[\w-]+) '(?P<v>[^']*)': give true or false",
     {"zh": "{f}「{v}」：請填是或否", "ja": "{f}「{v}」：はいかいいえ"}),
    (r"^unknown parameter '(?P<v>[^']*)'",
     {"zh": "此頁不收「{v}」一項", "ja": "このページは「{v}」を受けない"}),
]
_NEAREST = {"zh": "；相近者：{}", "ja": "；近いもの：{}"}


def error_text(message, lang="zh"):
    """A one-line error as a page shows it: in the page's language, naming the form's fields in words,
    never an option (--day).  A message without a sentence of its own keeps its wording, the options
    in it given as fields."""
    import re
    lang = lang if lang in FIELDS else "zh"
    fields = FIELDS[lang]
    msg = str(message)
    for pat, texts in _ERRORS:
        m = re.match(pat, msg)
        if m:
            g = m.groupdict()
            f = fields.get((g.get("f") or "").replace("_", "-"), g.get("f") or "")
            x = (g.get("x") or "").replace(" and ", "–")
            if pat.startswith("^no rule"):
                x = _NEAREST[lang].format(x) if x else ""
            return texts[lang].format(f=f, v=g.get("v", ""), x=x)
    return re.sub(r"--([a-z][\w-]*)", lambda m: fields.get(m.group(1), m.group(1)), msg)
