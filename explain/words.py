"""The words of what a reader sees in a language: names by the KB's `labels: {ja: …}`, the board's
terms (a general, a 類相 category), the kinds as headings, and the pages' own words (headings,
labels of the board).  `display_name(entry, lang)` is the one place a name is chosen for a
language.  It is one thing, over 800 lines: the two languages' word tables side by side (every key
in both), with the few functions that choose among them; split, a word added to one language would
be missed in the other."""
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


# a condition's own words in Japanese (the classical terms inside it stay as the books write them)
_JA_VERB = {"生": "生ずる", "克": "克する", "刑": "刑する", "沖": "沖する", "破": "破る", "害": "害する"}
_COND_JA = [
    # names made from other names (explain/conditions.py): 日干之合所寄, 玄武所乘, 一支 … 另一支
    # 克日干者 日干を克する者, 日干所克 日干の克する者, 與日干同類者 日干と同類の者 (a value named by its relation)
    (r"(?<![^\s（；｜、])([生克刑沖破害])([^\s（）；｜、者]+)者", lambda m: f"{m.group(2)}を{_JA_VERB[m.group(1)]}者"),
    (r"所合之局", "の合する局"), (r"(?<![^\s（；｜、])([^\s（）；｜、]+?)所([生克刑沖破害])(?![^「」]*」)",
     lambda m: f"{m.group(1)}の{_JA_VERB[m.group(2)]}者"),
    (r"與([^\s（）；｜、]+)同類者", r"\1と同類の者"), (r"與([^\s（）；｜、]+)三合者", r"\1と三合する者"),
    (r"所屬之(?![^「」]*」)", "の五行の"), (r"所屬(?![^「」]*」)", "の五行"), (r"所寄(?![^「」]*」)", "の寄宮"), (r"所遁", "の遁干"), (r"所乘(?!之將)(?![^「」]*」)", "の乗る支"),
    (r"其所臨", "その臨む所"), (r"其所乘之將", "それに乗る天将"), (r"其", "その"),
    (r"之另一", "のうちもう一つ"), (r"之又一", "のうちさらに一つ"), (r"(?<!\d 者)之一(?!條)", "のうち一つ"),
    (r"(?<![第同])另一(支|干|將|行|煞|位|時)", r"もう一つの\1"), (r"(?<![第同])又一(支|干|將|行|煞|位|時)", r"さらに別の\1"),
    (r"第(四|五|六|七|八)(支|干|將|行|煞|位|時)", r"\1つ目の\2"), (r"(?<![第同之])一(支|干|將|行|煞|位|時)", r"ある\1"),
    (r"寄宮(?![^「」]*」)", "の寄宮"),
    (r"([^\s（）；｜]+) 與 (\S+) 不同", r"\1 と \2 が異なる"), (r"([^\s（）；｜]+) 即 ([^\s（）；｜]+)", r"\1 は \2 に同じ"),
    (r"([^\s（）；｜]+) 少於 ([^\s（）；｜]+)", r"\1 は \2 より少ない"), (r"([^\s（）；｜]+) 多於 ([^\s（）；｜]+)", r"\1 は \2 より多い"),
    (r"([^\s（）；｜]+) 不多於 ([^\s（）；｜]+)", r"\1 は \2 以下"), (r"([^\s（）；｜]+) 不少於 ([^\s（）；｜]+)", r"\1 は \2 以上"),
    (r"([^\s（）；｜]+) 在 (\S+) 之中", r"\1 は \2 のうち"), (r"([^\s（）；｜]+) 不在 (\S+) 之中", r"\1 は \2 のうちにない"),
    (r"之一條已成", "の一条が成立済み"), (r"等 (\d+) 者之一", r"など \1 のいずれか"), (r"已成之條", "成立済みの条"), (r"農曆", "旧暦"), (r"已成 ", "成立済み："), (r"或（", "いずれか（"), (r"無（", "ない（"), (r"依「([^」]+)」：", r"「\1」の行："),
    (r"([^\s（）；｜]+) 乘 (\S+) 臨 ([^\s（）；｜]+)", r"\1 が \2 に乗り \3 に臨む"),
    (r"([^\s（）；｜]+) 乘 ([^\s（）；｜]+)", r"\1 が \2 に乗る"), (r"([^\s（）；｜]+) 臨 ([^\s（）；｜]+)", r"\1 が \2 に臨む"),
    (r"之日本在([^；｜）]+)", r"の日本は \1 に在る"), (r"依「([^」]+)」讀 ([^；｜）]+)", r"「\1」により \2 を読む"), (r"(月建|太歲|日干)某煞在([^｜）；]+)", r"\1の神煞が \2 に在る"), (r"（此條不載）", "（この条に載せず）"),
    (r" 合於「([^」]+)」", r" は「\1」に合う"), (r" 非 (\S+)", r" は \1 でない"), (r" 為 ", " は "), (r"所乘之將", "に乗る天将"),
    (r"所臨", "の臨む所"), (r"發用之門", "発用の門"), (r"課體", "課体"), (r"之干", "の干"), (r" 入課傳", " が課伝に入る"),
    (r"此占屬(\S+)", r"この占は\1に属す"), (r" 為旬空", " は旬空"), (r"涉害", "渉害"), (r" 為(\S)", r" は\1"), (r"（[據依]([^）]+)）", r"（\1による）"),
    (r"屬(\S+?)(（|$|；|｜|）| )", r"は\1に属す\2"), (r" 入占", " が占に入る"), (r"[，、]乘(\S+)", r"、\1に乗る"), (r"乘", "乗"),
    (r"將", "将"), (r"([^\s（）；｜]+) 即 ([^\s（）；｜]+)", r"\1 は \2 に同じ"),
    # 兩支相距: 「初傳 與 日干，相距 1 位」, 「日干 與 辰 所臨，自日干順數至辰 所臨 若干 位」
    (r"([^\s（）；｜]+) 與 ([^，；｜）]+)，相距 若干 位", r"\1 と \2 の間の位数"),
    (r"([^\s（）；｜]+) 與 ([^，；｜）]+)，相距 (\S+) 位", r"\1 と \2 は \3 位離れる"),
    (r"([^\s（）；｜]+) 與 ([^，；｜）]+)，自\S+?順數至[^；｜）]+? 若干 位", r"\1 から順に数えて \2 までの位数"),
    (r"([^\s（）；｜]+) 與 ([^，；｜）]+)，自\S+?順數至[^；｜）]+? (\S+) 位", r"\1 から順に数えて \2 まで \3 位"),
    (r" 與 ", " と "), (r"傳", "伝"), (r"體", "体"), (r"，", "、"), (r"旺衰", "の旺衰"), (r"(\S)為(\S)", r"\1が\2"), (r"或", "か"), (r"某行", "ある五行"), (r"某煞", "ある神煞"), (r"某支", "ある支"), (r"某", "何か"), (r" 見於 ([^\s；｜）]+)", r" が \1 に見える"), (r"見於", "が見える："), (r" 則 ", " なら "), (r"初傳", "初伝"),
    (r"中傳", "中伝"), (r"末傳", "末伝"), (r"三傳", "三伝"), (r"のの", "の"), (r"之(?=\S)", "の"),
]


def condition_words(text, lang="zh"):
    """A condition line (WHY-NOT, a rule page) in the page's language."""
    import re
    if lang != "ja" or not text:
        return text
    for pat, rep in _COND_JA:
        text = re.sub(pat, rep, text)
    return text


def ja_reading(entry):
    """The 日譯's own words for an entry's 斷, where its rendering states them, else None.  The rendering
    phrases a judgment in a few ways, each read here (never a judgment it does not state):

    * the quoted phrase it reads the board by: 斬首 「事ありて開頭なし」と論ずる; 斫輪 「官印を接受し、
      車軒に乗坐す」または「舟車器物を営造す」に按じて論ずる;
    * what a relation does where it arrives: 刑 「刑が日干に到るは、傷は「我」なり。また問う所の人を傷す」
      (刑干 the one sentence's judgment, 刑 both of its sentences);
    * what follows where the branch is so: 旺相多 「現る所の支がもし当旺得令または相位に処れば、数を取るに
      多きに往きて算し」 (a quote cut at a clause keeps the rendering's words, its verb closed: 算す);
    * how a 類相 is taken on the board: 「…を占問すれば、便ち盤上の支に据えて之を取る」.

    A definition, a list of images or a condition with no consequence (逢空／臨空, 宮室, 「…これらの字を
    見れば」) states no judgment and gives none."""
    import re
    from liuren.i18n import is_rendering
    quotes = [s.get("quote", "") for s in (entry.source if entry is not None else []) if is_rendering(s)]
    for q in quotes:
        m = _JA_READING.search(q)
        if m:
            return re.sub(r"」\s*(または|あるいは|また)\s*「", r"、\1", m.group(1))[1:-1]
    for q in quotes:
        arrives = _JA_ARRIVES.findall(q)
        if len(arrives) == 1:
            return _closed(arrives[0][1])
        if arrives:
            return _closed("".join(whole for whole, _ in arrives))
    for q in quotes:
        m = _JA_IF.search(q)
        if m:
            whole, then = m.group(0), m.group(1)
            # a quote that is one condition and its consequence gives the consequence; a passage that
            # says several (旺相 then 休囚) gives its whole sentence
            return _closed(then if m.start() == 0 and whole.count("もし") == 1 else whole)
    for q in quotes:
        m = _JA_TAKEN.search(q)
        if m:
            taken = m.group(0)
            return _closed(taken[taken.index("およそ"):] if "およそ" in taken else taken)
    return None


def _closed(text):
    """A reading as a sentence of its own: a quote cut at a clause (算し, ごとく) has its verb closed
    (算す, ごとし); the last 。 is the page's to add."""
    text = text.strip().rstrip("。、")
    if text.endswith("ごとく"):
        return text[:-1] + "し"
    if __import__("re").search(r"[\u4e00-\u9fff]し$", text):          # a サ変 verb cut at its 連用形
        return text[:-1] + "す"
    return text


# 「…」と論ずる, 「…」に按じて論ずる (論じ得る, 断ずる …), several phrases joined by または
_JA_READING = __import__("re").compile(
    r"(「[^」]{2,60}」(?:\s*(?:または|あるいは|また)\s*「[^」]{2,60}」)*)\s*(?:と|に按じて|を以て)(?:論ずる|論ず|論じ得る|断ずる|断ず)")
# 刑が日干に到るは、傷は「我」なり。また問う所の人を傷す。 (the whole sentence, and its judgment)
_JA_ARRIVES = __import__("re").compile(r"([^。：、「」]{1,4}が日[干支]に到るは、((?:[^。]+)(?:。また[^。]+)?)(?:。|$))")
# 現る所の支がもし…に処れば、数を取るに多きに往きて算し (a quote that is the condition and its consequence)
_JA_IF = __import__("re").compile(r"[^。：]*?もし[^。]*?ば、([^。]*)")
# how a 類相 is taken: 「…を占問すれば、便ち盤上の…に据えて…」, 「…を見て、此に据えて其の部位を定める」
_JA_TAKEN = __import__("re").compile(r"[^。]*盤上の[^。]*(?:に据えて|を取りて)[^。]*")


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
        "valence": "吉凶", "held": "具", "failed": "缺", "nearest": "盤上最近者", "absent": "盤上無此", "board_has": "此盤",
        "only_question": "此條只在問「{q}」時論之", "ask_question": "以此問再看此盤",
        "all_held_note": "諸條件本盤皆具：或已成立（見其成立鏈），或其所屬之占本盤未問", "alt_way": "或其一",
        # what a board lacks that a condition reads (WHY-NOT, where nothing close is on the board)
        "lacks": {"問": "此盤未問占類", "時令": "此盤未給月建", "本命": "此盤未給本命", "行年": "此盤未給行年",
                  "太歲": "此盤未給太歲", "月建": "此盤未給月建", "人": "此盤未給問者之性別",
                  "夫妻行年": "此盤未給夫妻之行年", "農曆": "此盤未給時刻（農曆日）", "節日": "此盤之日不交節氣",
                  "宿": "此盤未給日宿月宿", "課傳": "課傳無 {x}", "神煞": "此盤無 神煞 {x}", "判": "此盤未成 {x}",
                  "fact": "此盤無 {x}", "row": "此條不載 {x}，盤上無從成立"},
        "contrast_intro": "最近之成立盤（只一事不同）：", "summary_chuan": "三傳所見", "summary_ge": "格", "found_by": "（依{methods}）", "contrast_plate": "月將加占時 {on}（此盤 {here}）",
        "contrast_day": "日 {day}（此盤 {here}）", "contrast_also": "；{fields}依索引之盤",
        "ja_label": "日譯", "reports": "所報表行", "reported_by": "所屬規則", "then": "推出",
        "needs": "要", "variant_reading": "{name}依「{label}」之讀", "variant_reading_all": "諸條皆依「{label}」之讀",
        "fires": "成立之盤", "silent": "不成立之盤", "unmet": "未能重現之書例", "table": "表",
        "unreachable": "無盤可成", "always": "每盤皆成", "says": "書云",
        "says_words": {"fires": "成立", "silent": "不成立", "chuan": "三傳不同"},
        "related": {"defeats": "令其勿以實論", "defeated_by": "為其所令勿以實論", "conflicts": "已聲明之相牴"},

        # the board's judgments (explain/templates/_judgments.html)
        "routes": "依 {n} 途皆成：{ways}", "route_other": "他途", "seen_at": "見於{at}",
        "two_views": "書有兩說", "two_views_note": "下列判斷，知識庫聲明其相牴：書各有其說，並列於此，各附出處。",
        "views_line": "{subject} 有兩說：{views}",
        "gate_note": "列此格者：其條件屬{gates}之課，本課三傳依{gate}而起（初傳{chu}）；名中之{named}，乃書於此另取之用神，非本課發用之門。",
        "count_of": "{n} 條", "open_all": "全部展開", "first_kinds": "先看課體與格",
        # valences
        "valences": {"吉": "吉", "凶": "凶", "吉凶兩見": "吉凶兩見", "平": "平", "視所乘": "視所乘"},
        # positions
        "positions": {},
        # the pages' frame
        "nav_cast": "起課", "nav_rules": "規則", "nav_practice": "習課", "nav_find": "何處發", "nav_api": "API 文件",
        "lang_zh": "中文", "lang_ja": "日本語",
        "footer": "大六壬專家系統 · 出處皆標《書》卷 ¶", "footer_vendor": "所附腳本之授權",
        "footer_classical": "",
        "error_title": "錯誤", "error_heading": "輸入有誤", "error_params": "所傳參數", "error_back": "回到表單",
        "error_back_where": "回到上一頁", "error_back_drill": "回到此課", "error_back_rules": "回到規則一覽", "error_back_find": "回到何處發",
        "shared_name": "「{name}」為以下數條之名", "licences": "所附腳本之授權", "licences_intro": "網頁所用之腳本皆隨本系統附送（不取自網上），各依其授權：",
        "lic_file": "檔案", "lic_package": "套件", "lic_version": "版本", "lic_licence": "授權", "lic_note": "網頁不附字型，用電腦本有之中日文字型。",
        # the form (/)
        "intro_sub": "起課 · 判斷 · 推理之鏈",
        "intro": "填一個時刻，或填日干支與月將加占時，按「起課」：得盤與判斷；點判斷之名，即開其推理之鏈。",
        "f_moment": "時刻", "f_datetime": "日時", "f_now": "空：此刻", "f_tz": "時區", "f_or": "或",
        "f_explicit": "直接起盤", "f_day": "日（干支）", "f_on": "月將加占時", "f_or_jiang": "或 月將", "f_hour": "占時",
        "f_year": "年", "f_month": "月（干支）", "f_term_day": "節日", "f_lunar": "農曆（月-日）", "f_rixiu": "日宿（宮）", "f_yuexiu": "月宿（宮）",
        "f_person": "晝夜 · 年命", "f_night": "晝夜", "f_by_hour": "依占時", "f_day_g": "晝", "f_night_g": "夜",
        "f_born": "生年", "f_sex": "性別", "f_male": "男", "f_female": "女", "f_benming": "本命", "f_xingnian": "行年",
        "f_partner": "另一人（夫妻）", "f_options": "起課之法", "f_default": "（預設）", "f_guiren": "貴人",
        "f_shehai": "涉害", "f_boundary": "換日", "f_yuejiang": "月將", "f_q": "所問 · 底本", "f_question": "所問",
        "f_variant": "底本", "f_all_diben": "全部依底本", "f_go": "起課",
        "examples_h": "例", "ex_practice": "習課",
        "opt": {"甲牛": "甲牛", "甲羊": "甲羊", "先天": "先天貴神", "count": "計涉害之數", "mengzhong": "先孟仲", "tianpan": "先孟仲（天盤之支）", "biyong": "比用", "zhongqi": "依中氣",
                "month": "依月", "23": "子正前（二十三時）", "0": "子正（零時）"},
        # the board page
        "used_board": "已依所填之日與月將加占時起盤（未用時刻）。",
        "exports": "資料", "trace": "推理圖", "rule_search": "規則（名或代號）", "why": "為何",
        "graph_help": "點節點看其內容 · 拖曳以移動 · 滾輪以縮放", "close": "關閉",
        "placements": "起例", "placements_all": "並列起例", "filter": "篩選",
        # /rules
        "name": "名", "filter_rules": "篩選", "no_rules": "無合此篩選之規則。", "same_elsewhere": "同書同名者見於：",
        "aliases": "又名", "where_fires": "何處發", "boards_unit": "局", "space_words": "六十日 × 月將加子 × 晝夜 × 十二月",
        "list_all": "盡列", "count": "數",
        # /practice
        "curriculum": "課程", "any_gate": "不拘", "sheet_link": "習題紙（十二課）", "check": "核對",
        "lessons_intro": "由天地盤求四課之上神（第一課為日干寄宮之上神，第三課為日支之上神）。",
        "lessons_fix": "改正有誤之課，方進下一步。",
        "empty_boxes": "尚未填：{boxes}。填滿方能核對。",
        "hint": "提示", "hint_plate_step": "月將加占時", "hint_plate": "四課皆誤：先覆天盤，以月將加於占時之上，餘支順布。",
        "hint_lesson": ["日干 {stem} 寄 {palace}，看地盤 {palace} 上之天盤神。", "以第一課之上神為下，看其上之神。",
                        "看地盤日支 {branch} 上之天盤神。", "以第三課之上神為下，看其上之神。"],
        "hint_fayong_step": "發用（初傳與門）", "hint_fayong": "先查四課上下之克，依此訣定初傳與其門：",
        "hint_zhongmo_step": "中傳、末傳", "hint_zhongmo": "初傳已是；中末依此訣遞取：",
        "other_school": "此為另一取法（{school}）之三傳，依此說亦是。本系統以計涉害之數為主說，諸說並存。",
        "school_fixed": "此為另一取法（{school}）之三傳；本課定依{fixed}，故不取。",
        "school_of_lesson": "涉害依：{school}",
        "candidate_def": "{name}：{reading}",
        "ge_intro": "下列諸格，何者本課成之？（有成者，亦有只成於鄰課者）",
        "ge_all_right": "所認皆是", "ge_some_wrong": "有誤認之格", "whole_board": "全盤與判斷", "next_lesson": "下一課",
        "sheet": "習題紙", "sheet_intro": "每課由天地盤推四課、三傳與發用之門。答案在末頁。", "lesson_unit": "課",
        "day_g": "晝", "night_g": "夜", "month_unit": "月",
        # /audit
        "nav_audit": "審核",
        "audit_title": "知識庫審核", "audit_severity": "輕重", "audit_check": "所查", "audit_kind": "類",
        "audit_book": "書", "audit_file": "檔", "audit_boards": "局", "audit_entries": "所涉之條",
        "audit_board": "見於此盤", "audit_declared_by": "宣告於", "audit_subject": "所論",
        "audit_shown": "列 {n} 條，共 {total} 條", "audit_of": "全部所得 {of} 條",
        "audit_space": "審核之局：{boards} 局（其中問事之局 {q}）",
        "audit_declared": "宣告之相反 {pairs} 對，其中只由通配之行所蓋者 {wild} 對（{share}）",
        "audit_sev": {"error": "誤", "warning": "疑", "note": "記"},
        "audit_checks": {"conflict (undeclared)": "吉凶相反而未宣告", "conflict (declared)": "吉凶相反（已宣告）",
                         "conflict (weighed)": "神煞與相反之判同臨（衡之，非相反）",
                         "redundant": "重出（同起於同局）", "subsumed": "包含（此之局皆在彼之內）",
                         "never fires": "從不成立", "always fires": "每局皆成立", "sources disagree": "同名而異書不合"},
        "audit_why": {"example_fails": "連其自身之例亦不成立", "unreachable": "已宣告不能成立",
                      "example_fires": "其例成立：只成於審核之局所無之盤", "question": "雖問其事亦不成立",
                      "unknown": "無例亦無所問，不知其故"},
        "audit_none": "尚無審核之記錄。於本機之命令列執行一次審核（以全部處理器，需數分鐘），此頁即讀其結果。",
        # /find
        "find_title": "何處發", "find_q": "式", "find_month": "月", "find_day": "日", "find_gate": "門",
        "find_daynight": "晝夜", "find_each": "每課一局", "find_go": "查",
        "find_note": "以 and、or、not 及括號連規則之名（亦可日譯名、別名、代號）。於全 {space} 局中查之（其所定所變見下）。",
        "find_cooccur": "常與之同發", "find_where": "所在", "find_share": "比", "find_lift": "提升度",
        "find_grammar_h": "式之寫法", "find_grammar": [
            ["斬首　元首課", "規則之名（或日譯名、別名、代號）"], ["初傳=亥", "某位之支為某支"],
            ["鬼@初傳", "某神煞或天將見於某位"], ["貴人@卯", "某天將在地盤某支上（乘其上之天盤支）"],
            ["初傳 空", "某位之支旬空"], ["門=涉害　課=元首", "三傳之門、課；亦可 月=寅、日=甲子、晝夜=夜、所變=本局"],
            ["and　or　not　( )", "且、或、非、括號（not 先於 and，and 先於 or）"]],
        "find_space": "全 {n} 局：{days} 日 × 月將十二（皆加占時子）× 十二月 × 晝夜。固定者：占時子；年 2026 丙午；本命隨課而轉（生年 1960–2019），行年由之；性別隨月將交替；不設農曆日。凡讀此數者之局數，皆依此而定。",
        "find_count_by": "計數", "find_total": "合計", "find_chart": "局數（依{key}）", "find_sort": "排序",
        "find_sort_lift": "依提升度", "find_sort_count": "依局數", "find_which": "「{name}」為 {n} 條之名，請擇其一：",
        "find_by_keys": {"month": "月", "gate": "門", "day": "日", "lesson": "課（日與月將）", "daynight": "晝夜", "ke": "課體",
                         "dim": "所變"},
        "find_extra": "另有變一項之局：{items}（每局只變一項，其餘同其課之本局）。",
        "find_extra_item": "變{dim}者 {n} 局", "find_dim": "所變", "find_base": "本局",
        "find_note_changes": "「{name}」於變{dims}之局所發不同", "find_note_reads": "「{name}」之條件讀{dims}",
        "find_note_tail": "：本局固定此數，其局數依此而定。",
        # tooltips
        "earth_tip": "地盤 {b}",
        "origins": {"board": "盤上所見", "derived": "推得", "table": "表行"},
        "fact_kinds": {"位": "盤上之位", "盤": "天地盤", "課": "四課", "傳": "三傳", "日": "日干支", "晝夜": "晝夜", "遁": "遁干",
                       "時令": "時令", "人": "占者", "問": "所問", "判": "已成之判", "空": "旬空", "煞": "神煞", "見": "神煞所見"},
        # /docs: the JSON API
        "docs_title": "資料介面（API）", "docs_intro": "每頁皆有其 JSON 之對應，參數同頁面；以網址取之，答以 JSON（推理圖另有 GraphML、DOT、Mermaid）。參數名為程式所用之代號，列於左，其義列於右。",
        "docs_try": "互動試用（Swagger UI，其介面為英文）", "docs_spec": "OpenAPI 規格（JSON）", "docs_params": "參數",
        "endpoints": {"/api/cast": "盤：天地盤、四課、三傳", "/api/judge": "判斷：成立之規則、所得、書之兩說；附所問之規則，則並其推理之鏈",
                      "/api/why/{rule}": "一規則之成立之由或未成立之由", "/api/trace": "推理圖（GraphML、JSON、DOT、Mermaid）；附所問之規則，則只取其鏈",
                      "/api/rules": "規則之列（依類、書、名篩選）", "/api/rules/{rule}": "一規則：原文、條件、例",
                      "/api/lookup": "一支、一干或一天將之類相", "/api/questions": "所問之法", "/api/practice": "習課：一課（答前不附答案）及其核對",
                      "/api/names": "規則與條目之名（供搜尋框）", "/api/find": "何處發：全盤中成立之局",
                      "/api/audit": "知識庫審核之所得（依輕重、所查、類、書、檔篩選）"},
        "family_of": "經", "rule_id": "代號",
        "board_notes": {"taisui": "未填年，太歲不明：請填年（2026 或 丙午）", "month": "未填月，月建與季節不明：請填月（如 己亥）",
                        "sex": "未填性別，行年不明", "yearno": "行年須以數字之年起：請填年（如 2026）",
                        "born": "未填生年，本命與行年不明：請填生年，或本命、行年"},
        # the drill: a teacher fixes the 涉害 school of a lesson or a worksheet
        "school_pick": "涉害之取法", "school_any": "諸說皆可", "school_set": "定之",
        # the error page's heading when the page is missing, or the server failed (not the student's input)
        "error_heading_404": "找不到此頁", "error_heading_500": "伺服器出錯",
        "see_views": "見「書有兩說」",
        # the board's 旺相 line: its label, and each element's 氣 of the month as the board names it
        "wangxiang": "旺相", "qi": {"旺": "旺", "相": "相", "休": "休", "囚": "囚", "死氣": "死氣"},
    },
    "ja": {
        "title": "大六壬", "board": "課盤", "plate": "天地盤", "plate_note": "枡の中は天盤の支とその乗る天将、枡の位置が地盤",
        "lessons": "四課", "lesson_n": ["第一課", "第二課", "第三課", "第四課"], "upper": "上神", "lower": "下神",
        "general": "天将", "transmissions": "三伝", "chuan": ["初伝", "中伝", "末伝"], "liuqin": "六親",
        "dungan": "遁干", "void": "旬空", "steps": "発用の由来", "judgments": "判断", "findings": "所得",
        "chain": "成立の由来", "whynot": "不成立の理由", "fired": "成立", "notfired": "不成立", "reading": "断",
        "aspects": "乗る神・属する殺・臨む殺", "imagery": "類相", "defeated": "実論するなかれ",
        "defeated_because": "この名は実論するなかれ、その理由：", "graph": "推論図", "none": "（成立した規則なし）",
        "question": "問う事", "rules": "規則", "practice": "練習", "sources": "出典", "conditions": "条件",
        "examples": "例", "variants": "底本の異文", "conflicts": "関連", "derive": "推得", "conclude": "結論",
        "cast": "起課", "interpretation": "取義", "alternative": "別説", "matched": "根拠",
        "answer": "解答", "correct": "正解", "wrong": "不正解", "expected": "正しくは", "missed": "見落とした格",
        "claimed": "誤って挙げた格", "formed": "この課で成立する格", "got": "正しく挙げた格", "gate": "発用の門", "kind": "類", "book": "書",
        "valence": "吉凶", "held": "具", "failed": "欠", "nearest": "盤上で最も近いもの", "absent": "盤上になし", "board_has": "この盤では",
        "only_question": "この条は「{q}」を問うときにのみ論じる", "ask_question": "この問いでこの盤を見直す",
        "all_held_note": "条件はこの盤にすべて具わる：成立している（その成立の鎖を見よ）か、その属する占いをこの盤が問うていない", "alt_way": "またはその一",
        "lacks": {"問": "この盤は占う事柄を問うていない", "時令": "この盤は月建を与えていない", "本命": "この盤は本命を与えていない",
                  "行年": "この盤は行年を与えていない", "太歲": "この盤は太歳を与えていない", "月建": "この盤は月建を与えていない",
                  "人": "この盤は問う者の性別を与えていない", "夫妻行年": "この盤は夫婦の行年を与えていない",
                  "農曆": "この盤は時刻（農暦の日）を与えていない", "節日": "この盤の日は節気に交わらない",
                  "宿": "この盤は日宿・月宿を与えていない", "課傳": "課伝に {x} なし",
                  "神煞": "この盤に 神煞 {x} なし", "判": "この盤は {x} を成していない", "fact": "この盤に {x} なし",
                  "row": "この条は {x} を載せず、盤上に成立しようがない"},
        "contrast_intro": "成立する最も近い盤（違いは一つだけ）：", "summary_chuan": "三伝に見えるもの", "summary_ge": "格", "found_by": "（{methods}による）", "contrast_plate": "月将加占時 {on}（この盤は {here}）",
        "contrast_day": "日 {day}（この盤は {here}）", "contrast_also": "；{fields}は索引の盤による",
        "ja_label": "日訳", "reports": "報ずる表行", "reported_by": "属する規則", "then": "推出",
        "needs": "要件", "variant_reading": "{name}は「{label}」の読み", "variant_reading_all": "すべて「{label}」の読み",
        "fires": "成立する盤", "silent": "成立しない盤", "unmet": "再現できない書例", "table": "表",
        "unreachable": "成立する盤なし", "always": "どの盤でも成立", "says": "書に曰く",
        "says_words": {"fires": "成立", "silent": "不成立", "chuan": "三伝が異なる"},
        "related": {"defeats": "実論するなかれとするもの", "defeated_by": "実論するなかれとされる理由", "conflicts": "宣言された衝突"},

        # the board's judgments (explain/templates/_judgments.html)
        "routes": "{n} 通りの根拠で成立：{ways}", "route_other": "別の条件", "seen_at": "{at}に見る",
        "two_views": "書の両説", "two_views_note": "次の判断は知識ベースが相反すると宣言するもの。書にそれぞれの説があり、出典を添えて並べる。",
        "views_line": "{subject} には両説あり：{views}",
        "gate_note": "この格を挙げるのは、その条件が{gates}の課に属するため。本課の三伝は{gate}で起こし（初伝{chu}）、名にある{named}は書がここで別に取る用神であって、本課の発用の門ではない。",
        "count_of": "{n} 件", "open_all": "すべて開く", "first_kinds": "まず課体と格を見る",
        "valences": {"吉": "吉", "凶": "凶", "吉凶兩見": "吉凶両見", "平": "平", "視所乘": "乗る所による"},
        "positions": {"日干": "日干", "日支": "日支", "干上": "干上", "干陰": "干陰", "支上": "支上", "支陰": "支陰",
                      "初傳": "初伝", "中傳": "中伝", "末傳": "末伝", "占時": "占時", "月將": "月将", "月建": "月建",
                      "太歲": "太歳", "本命": "本命", "行年": "行年", "旬首": "旬首", "旬尾": "旬尾"},
        "nav_cast": "起課", "nav_rules": "規則", "nav_practice": "練習", "nav_find": "どこで発するか", "nav_api": "API 文書",
        "lang_zh": "中文", "lang_ja": "日本語",
        "footer": "大六壬エキスパートシステム · 出典はすべて《書》巻 ¶ で示す", "footer_vendor": "同梱スクリプトのライセンス",
        "footer_classical": "規則の名・読み・引用は、日訳に訳語のあるものを除き、原書の漢文のままとする。",
        "error_title": "エラー", "error_heading": "入力に誤りがある", "error_params": "受け取った項目", "error_back": "入力欄に戻る",
        "error_back_where": "前のページに戻る", "error_back_drill": "この課に戻る", "error_back_rules": "規則の一覧に戻る", "error_back_find": "どこで発するかに戻る",
        "shared_name": "「{name}」は次の複数の条の名", "licences": "同梱スクリプトのライセンス", "licences_intro": "ページが使うスクリプトはすべてこのシステムに同梱され（ネットからは読まない）、それぞれのライセンスに従う：",
        "lic_file": "ファイル", "lic_package": "パッケージ", "lic_version": "版", "lic_licence": "ライセンス", "lic_note": "フォントは同梱せず、端末にある日中のフォントを使う。",
        "intro_sub": "起課 · 判断 · 推論の鎖",
        "intro": "時刻を入れるか、日干支と月将加占時を入れて「起課」を押す。盤と判断が出る。判断の名を押すとその推論の鎖が開く。",
        "f_moment": "時刻", "f_datetime": "日時", "f_now": "空欄なら今", "f_tz": "タイムゾーン", "f_or": "または",
        "f_explicit": "盤を直接起こす", "f_day": "日（干支）", "f_on": "月将加占時", "f_or_jiang": "または 月将", "f_hour": "占時",
        "f_year": "年", "f_month": "月（干支）", "f_term_day": "節入りの日", "f_lunar": "旧暦（月-日）", "f_rixiu": "日宿（宮）", "f_yuexiu": "月宿（宮）",
        "f_person": "昼夜 · 年命", "f_night": "昼夜", "f_by_hour": "占時による", "f_day_g": "昼", "f_night_g": "夜",
        "f_born": "生年", "f_sex": "性別", "f_male": "男", "f_female": "女", "f_benming": "本命", "f_xingnian": "行年",
        "f_partner": "もう一人（夫婦）", "f_options": "起課の法", "f_default": "（既定）", "f_guiren": "貴人",
        "f_shehai": "渉害", "f_boundary": "日の変わり目", "f_yuejiang": "月将", "f_q": "問う事 · 底本", "f_question": "問う事",
        "f_variant": "底本", "f_all_diben": "すべて底本による", "f_go": "起課",
        "examples_h": "例", "ex_practice": "練習",
        "opt": {"甲牛": "甲牛", "甲羊": "甲羊", "先天": "先天貴神", "count": "渉害の数を数える", "mengzhong": "孟仲を先とする", "tianpan": "孟仲を先とする（天盤の支）", "biyong": "比用", "zhongqi": "中気による",
                "month": "月による", "23": "子正の前（二十三時）", "0": "子正（零時）"},
        "used_board": "入れた日と月将加占時で起盤した（時刻は用いない）。",
        "exports": "データ", "trace": "推論図", "rule_search": "規則（名または記号）", "why": "なぜ",
        "graph_help": "節点を押すと内容 · ドラッグで移動 · ホイールで拡大縮小", "close": "閉じる",
        "placements": "起例", "placements_all": "起例も並べる", "filter": "絞り込む",
        "name": "名", "filter_rules": "絞り込む", "no_rules": "この条件に合う規則はない。", "same_elsewhere": "同じ書・名で見つかる類：",
        "aliases": "別名", "where_fires": "どこで発するか", "boards_unit": "盤", "space_words": "六十日 × 月将加子 × 昼夜 × 十二月",
        "list_all": "すべて", "count": "数",
        "curriculum": "課程", "any_gate": "問わず", "sheet_link": "練習プリント（十二課）", "check": "確かめる",
        "lessons_intro": "天地盤から四課の上神を求めよ（第一課は日干の寄宮の上、第三課は日支の上）。",
        "lessons_fix": "誤りのある課を見直してから次へ。",
        "empty_boxes": "まだ空欄がある：{boxes}。すべて埋めてから確かめる。",
        "hint": "ヒント", "hint_plate_step": "月将を占時に加える", "hint_plate": "四課がすべて違う：まず天盤を見直す。月将を占時の上に加え、残りの支を順に並べる。",
        "hint_lesson": ["日干 {stem} は {palace} に寄る。地盤 {palace} の上の天盤の神を見る。", "第一課の上神を下とし、その上の神を見る。",
                        "地盤の日支 {branch} の上の天盤の神を見る。", "第三課の上神を下とし、その上の神を見る。"],
        "hint_fayong_step": "発用（初伝と門）", "hint_fayong": "まず四課の上下の剋を調べ、この訣で初伝とその門を定める：",
        "hint_zhongmo_step": "中伝・末伝", "hint_zhongmo": "初伝は正しい。中伝・末伝はこの訣で順に取る：",
        "other_school": "これはもう一つの取り方（{school}）の三伝で、その説でも正しい。本システムは渉害の数を数える説を主とし、諸説を並べる。",
        "school_fixed": "これはもう一つの取り方（{school}）の三伝。この課は{fixed}と定めてあるので取らない。",
        "school_of_lesson": "渉害は：{school}",
        "candidate_def": "{name}：{reading}",
        "ge_intro": "次のうち、この課で成立する格に印をつけよ（成立するものも、隣の課でだけ成立するものもある）。",
        "ge_all_right": "挙げたものはすべて正しい", "ge_some_wrong": "誤って挙げた格がある", "whole_board": "盤と判断の全体", "next_lesson": "次の課",
        "sheet": "練習プリント", "sheet_intro": "各課について、天地盤から四課・三伝・発用の門を求めよ。解答は最後の頁。", "lesson_unit": "課",
        "day_g": "昼", "night_g": "夜", "month_unit": "月",
        # /audit
        "nav_audit": "監査",
        "audit_title": "知識ベースの監査", "audit_severity": "重さ", "audit_check": "検査", "audit_kind": "類",
        "audit_book": "書", "audit_file": "ファイル", "audit_boards": "盤", "audit_entries": "関わる項目",
        "audit_board": "この盤に見える", "audit_declared_by": "宣言の場所", "audit_subject": "論じる所",
        "audit_shown": "{total} 件のうち {n} 件を表示", "audit_of": "所見は全部で {of} 件",
        "audit_space": "監査した盤：{boards} 盤（うち問う事のある盤 {q}）",
        "audit_declared": "宣言された相反 {pairs} 組、うちワイルドカードの行だけで覆われるもの {wild} 組（{share}）",
        "audit_sev": {"error": "誤り", "warning": "疑い", "note": "記録"},
        "audit_checks": {"conflict (undeclared)": "吉凶が逆で宣言がない", "conflict (declared)": "吉凶が逆（宣言済み）",
                         "conflict (weighed)": "神煞と逆の判断が同じ支に（軽重を量る。相反ではない）",
                         "redundant": "重複（同じ盤でともに成立）", "subsumed": "包含（こちらの盤がすべてあちらの内）",
                         "never fires": "一度も成立しない", "always fires": "どの盤でも成立する",
                         "sources disagree": "同じ名で書によって食い違う"},
        "audit_why": {"example_fails": "自身の例の盤でも成立しない", "unreachable": "成立しないと宣言済み",
                      "example_fires": "例の盤では成立する：監査の盤にない盤でのみ成立する",
                      "question": "その事を問うても成立しない", "unknown": "例も問う事もなく、理由が分からない"},
        "audit_none": "まだ監査の記録がない。この機械のコマンドラインで一度監査を実行すると（全プロセッサで数分）、このページがその結果を読む。",
        "find_title": "どこで発するか", "find_q": "式", "find_month": "月", "find_day": "日", "find_gate": "門",
        "find_daynight": "昼夜", "find_each": "一課一盤", "find_go": "検索",
        "find_note": "規則の名（日訳名・別名・記号も可）を and・or・not・括弧で結ぶ。全 {space} 盤から探す（何を固定し何を変えたかは下に）。",
        "find_cooccur": "よく共に発するもの", "find_where": "見える所", "find_share": "割合", "find_lift": "リフト値",
        "find_grammar_h": "式の書き方", "find_grammar": [
            ["斬首　元首課", "規則の名（日訳名・別名・記号も可）"], ["初傳=亥", "ある位の支がある支である"],
            ["鬼@初傳", "ある神煞・天将がある位に見える"], ["貴人@卯", "ある天将が地盤のある支の上にいる（その上の天盤の支に乗る）"],
            ["初傳 空", "ある位の支が旬空"], ["門=涉害　課=元首", "三伝の門・課；月=寅・日=甲子・晝夜=夜・所變=本局 も可"],
            ["and　or　not　( )", "かつ・または・否定・括弧（not は and より、and は or より先）"]],
        "find_space": "全 {n} 盤：{days} 日 × 十二月将（すべて占時子に加える）× 十二月 × 昼夜。固定したもの：占時は子；年は 2026 丙午；本命は課とともに巡る（生年 1960–2019）、行年はそこから；性別は月将ごとに交互；旧暦の日は入れない。これらを読む規則の盤数はこの固定による。",
        "find_count_by": "数える", "find_total": "合計", "find_chart": "盤の数（{key}ごと）", "find_sort": "並べ方",
        "find_sort_lift": "リフト値順", "find_sort_count": "盤数順", "find_which": "「{name}」は {n} 項目の名：どれか一つを選ぶ：",
        "find_by_keys": {"month": "月", "gate": "門", "day": "日", "lesson": "課（日と月将）", "daynight": "昼夜", "ke": "課体",
                         "dim": "変えたもの"},
        "find_extra": "ほかに一つだけ変えた盤：{items}（一盤に一つだけ変え、他はその課の基本の盤と同じ）。",
        "find_extra_item": "{dim}を変えた盤 {n}", "find_dim": "変えたもの", "find_base": "基本の盤",
        "find_note_changes": "「{name}」は{dims}を変えた盤で発し方が変わる", "find_note_reads": "「{name}」の条件は{dims}を読む",
        "find_note_tail": "：基本の盤はこれを固定しており、盤数はその選択による。",
        "earth_tip": "地盤 {b}",
        "origins": {"board": "盤上の事実", "derived": "推得", "table": "表の行"},
        "fact_kinds": {"位": "盤上の位", "盤": "天地盤", "課": "四課", "傳": "三伝", "日": "日の干支", "晝夜": "昼夜", "遁": "遁干",
                       "時令": "時令", "人": "占う人", "問": "問う事", "判": "成立した判断", "空": "旬空", "煞": "神殺", "見": "神殺の見える所"},
        "docs_title": "データ窓口（API）", "docs_intro": "どのページにも同じ項目の JSON 版がある。URL で求め、JSON で答える（推論図は GraphML・DOT・Mermaid も）。項目名はプログラムの記号で左に、意味は右に示す。",
        "docs_try": "対話的に試す（Swagger UI、画面は英語）", "docs_spec": "OpenAPI 仕様（JSON）", "docs_params": "項目",
        "endpoints": {"/api/cast": "盤：天地盤・四課・三伝", "/api/judge": "判断：成立した規則・所得・書の両説。問う規則を付ければその推論の鎖も",
                      "/api/why/{rule}": "一つの規則の成立の由来、または不成立の理由", "/api/trace": "推論図（GraphML・JSON・DOT・Mermaid）。問う規則を付ければその鎖のみ",
                      "/api/rules": "規則の一覧（類・書・名で絞り込む）", "/api/rules/{rule}": "一つの規則：原文・条件・例",
                      "/api/lookup": "支・干・天将の類相", "/api/questions": "問う事の法", "/api/practice": "練習：一課（解答前は答えなし）とその確かめ",
                      "/api/names": "規則と項目の名（検索欄用）", "/api/find": "どこで発するか：全盤面で成立する盤",
                      "/api/audit": "知識ベース監査の所見（重さ・検査・類・書・ファイルで絞り込む）"},
        "family_of": "経由", "rule_id": "記号",
        "board_notes": {"taisui": "年の指定がなく、太歳が分からない：年（2026 または 丙午）を入れる", "month": "月の指定がなく、月建と季節が分からない：月（例：己亥）を入れる",
                        "sex": "性別の指定がなく、行年が分からない", "yearno": "行年には数字の年が要る：年（例：2026）を入れる",
                        "born": "生年の指定がなく、本命と行年が分からない：生年か、本命・行年を入れる"},
        "school_pick": "渉害の取り方", "school_any": "どの説でもよい", "school_set": "定める",
        "error_heading_404": "ページが見つからない", "error_heading_500": "サーバーの誤り",
        "see_views": "「書の両説」を見よ",
        # the 日譯's words (《經緯》卷3 目錄: 「旺・相・死・囚・休は、四時の五等の気勢である」; its 「死」 is the
        # KB's 死氣, named so apart from 長生's 死)
        "wangxiang": "四時の気勢（旺・相・死・囚・休）", "qi": {"旺": "旺", "相": "相", "休": "休", "囚": "囚", "死氣": "死"},
    },
}

# kinds as headings: the CLI prints them as they are; the 日譯 in its own characters
KIND_WORDS = {"ja": {"課體": "課体", "神煞": "神殺", "斷": "断", "總則": "総則", "占驗": "占験", "類相": "類象"}}


def kind_word(kind, lang="zh"):
    return KIND_WORDS.get(lang, {}).get(kind, kind)


# --------------------------------------------------------------------------- errors on a page
# The CLI's messages name options (--day); a page names the form's fields in words, in its language.
FIELDS = {
    "zh": {"moment": "時刻", "tz": "時區", "day": "日", "on": "月將加占時", "jiang": "月將", "hour": "占時",
           "year": "年", "month": "月", "born": "生年", "sex": "性別", "benming": "本命", "xingnian": "行年",
           "partner-born": "另一人之生年", "partner-sex": "另一人之性別", "partner-benming": "另一人之本命",
           "partner-xingnian": "另一人之行年", "term-day": "節日", "lunar": "農曆", "rixiu": "日宿", "yuexiu": "月宿", "variant": "底本",
           "question": "所問", "book": "書", "kind": "類", "valence": "吉凶", "guiren": "貴人", "shehai": "涉害",
           "day-boundary": "換日", "yuejiang": "月將之法", "seed": "課號", "page": "頁", "night": "晝夜",
           "daytime": "晝夜", "gate": "發用之門", "chu": "初傳", "zhong": "中傳", "mo": "末傳", "ge": "格",
           "lang": "語言", "name": "名", "source": "出處", "why": "所問之規則",
           "trace": "附推理圖", "format": "格式", "all": "並列起例", "symbol": "符號（支、干、天將）", "category": "類相之門",
           "k1": "第一課", "k2": "第二課", "k3": "第三課", "k4": "第四課", "men": "發用之門（答）", "ge-done": "已答格",
           "n": "課數", "q": "式", "limit": "上限", "offset": "起點", "count-by": "計數之依", "cooccur": "同發",
           "each-lesson": "每課一局", "daynight": "晝夜", "rule": "規則",
           "sort": "排序", "order": "次序", "min-count": "最少局數", "dim": "所變",
           "severity": "輕重", "check": "所查", "file": "檔"},
    "ja": {"moment": "時刻", "tz": "タイムゾーン", "day": "日", "on": "月将加占時", "jiang": "月将", "hour": "占時",
           "year": "年", "month": "月", "born": "生年", "sex": "性別", "benming": "本命", "xingnian": "行年",
           "partner-born": "相手の生年", "partner-sex": "相手の性別", "partner-benming": "相手の本命",
           "partner-xingnian": "相手の行年", "term-day": "節入りの日", "lunar": "旧暦", "rixiu": "日宿", "yuexiu": "月宿", "variant": "底本",
           "question": "問う事", "book": "書", "kind": "類", "valence": "吉凶", "guiren": "貴人", "shehai": "渉害",
           "day-boundary": "日の変わり目", "yuejiang": "月将の取り方", "seed": "課の番号", "page": "頁",
           "night": "昼夜", "daytime": "昼夜", "gate": "発用の門", "chu": "初伝", "zhong": "中伝", "mo": "末伝",
           "ge": "格", "lang": "言語", "name": "名", "source": "出典", "why": "問う規則",
           "trace": "推論図を付ける", "format": "形式", "all": "起例も並べる", "symbol": "記号（支・干・天将）", "category": "類相の門",
           "k1": "第一課", "k2": "第二課", "k3": "第三課", "k4": "第四課", "men": "発用の門（解答）", "ge-done": "格の解答済み",
           "n": "課の数", "q": "式", "limit": "上限", "offset": "開始位置", "count-by": "数える基準", "cooccur": "共に発する",
           "each-lesson": "一課一盤", "daynight": "昼夜", "rule": "規則",
           "sort": "並べ方", "order": "順序", "min-count": "最少の盤数", "dim": "変えたもの",
           "severity": "重さ", "check": "検査", "file": "ファイル"},
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
    (r"^no saved audit run",
     {"zh": "尚無審核之記錄（須於本機執行一次審核，約數分鐘）", "ja": "まだ監査の記録がない（この機械で一度監査を実行する。数分かかる）"}),
    (r"^the index of this space is not built yet",
     {"zh": "全盤之索引尚未建立（須由管理者建立一次，約數分鐘）", "ja": "全盤の索引はまだ作られていない（管理者が一度作る。数分かかる）"}),
    (r"^404: '(?P<v>[^']*)'",
     {"zh": "無此頁：{v}", "ja": "このページはない：{v}"}),
    (r"^unknown parameter '(?P<v>[^']*)'",
     {"zh": "此頁不收「{v}」一項", "ja": "このページは「{v}」を受けない"}),
]
# issue 28 §6: the rest of the messages a student can reach from a page, in the page's language
_ERRORS += [
    (r"^--variant: unknown entry '(?P<v>[^']*)'",
     {"zh": "變體：無名為「{v}」之條", "ja": "変体：「{v}」という条はない"}),
    (r"^--variant (?P<v>[^:]*): (?P<e>[^ ]+) has variants (?P<x>.*)",
     {"zh": "變體「{v}」：此條無此讀法", "ja": "変体「{v}」：この条にその読みはない"}),
    (r"^--variant '(?P<v>[^']*)': write ID=VARIANT",
     {"zh": "變體「{v}」：請寫作「條=讀法」", "ja": "変体「{v}」：「条=読み」の形で書く"}),
    (r"^--book '(?P<v>[^']*)': not a book of this KB \(books: (?P<x>[^;]*)",
     {"zh": "書「{v}」不在本系統所收之書（{x}）", "ja": "書「{v}」はこのシステムの収める書にない（{x}）"}),
    (r"^(?:--)?kind '(?P<v>[^']*)'(?: is not a kind \(kinds: |: kinds are )(?P<x>[^)]*)",
     {"zh": "類「{v}」不在所知之類（{x}）", "ja": "類「{v}」は知られた類にない（{x}）"}),
    (r"^(?:--)?valence '(?P<v>[^']*)': valences are (?P<x>.*)",
     {"zh": "吉凶「{v}」不在所知之吉凶（{x}）", "ja": "吉凶「{v}」は知られた吉凶にない（{x}）"}),
    (r"^gate '(?P<v>[^']*)': one of (?P<x>.*)",
     {"zh": "門「{v}」：請擇其一：{x}", "ja": "門「{v}」：次のいずれか：{x}"}),
    (r"^men '(?P<v>[^']*)': one of (?P<x>.*)",
     {"zh": "發用之門「{v}」：請擇其一：{x}", "ja": "発用の門「{v}」：次のいずれか：{x}"}),
    (r"^lang '(?P<v>[^']*)': one of",
     {"zh": "語言「{v}」：請擇中文（zh）或日本語（ja）", "ja": "言語「{v}」：中文（zh）か日本語（ja）を選ぶ"}),
    (r"^option (?P<f>[\w_]+)='(?P<v>[^']*)' is not one of (?P<x>.*)",
     {"zh": "{f}「{v}」：請擇其一：{x}", "ja": "{f}「{v}」：次のいずれか：{x}"}),
    (r"^'(?P<v>[^']*)' names several entries",
     {"zh": "「{v}」為數條之名，請擇其一", "ja": "「{v}」は複数の条の名。一つを選ぶ"}),
    (r"^(?P<f>k[1-4]|chu|zhong|mo) '(?P<v>[^']*)' is not a branch",
     {"zh": "{f}「{v}」不是地支（子丑寅卯辰巳午未申酉戌亥）", "ja": "{f}「{v}」は地支ではない（子丑寅卯辰巳午未申酉戌亥）"}),
    (r"^--partner-born needs --partner-sex",
     {"zh": "填另一人之生年，須並填其性別（男或女）：行年依性別而數", "ja": "相手の生年には性別（男か女）も要る：行年は性別によって数える"}),
    (r"^n '(?P<v>[^']*)': give the number of lessons, 1 … (?P<x>\d+)",
     {"zh": "課數「{v}」：請填 1 至 {x}", "ja": "課の数「{v}」：1 から {x} まで"}),
    (r"^ge '(?P<v>[^']*)' is not one of this lesson's candidates",
     {"zh": "格「{v}」不在本課所問之列", "ja": "格「{v}」はこの課の候補にない"}),
    (r"^internal error",
     {"zh": "系統內部出錯（已記於伺服器之記錄）", "ja": "システム内部の誤り（サーバーの記録に残した）"}),
]
# /find's expressions and tables (engine/app/find.py's messages), in the page's language
_ERRORS += [
    (r"^find: give an expression",
     {"zh": "請填一式，如「斬首 and 元首課」", "ja": "式を入れる（例：斬首 and 元首課）"}),
    (r"^find: cannot read '(?P<v>[^']*)'",
     {"zh": "式中「{v}」無法讀取（引號未閉？）", "ja": "式の「{v}」が読めない（引用符が閉じていない？）"}),
    (r"^find: the expression has more than (?P<x>\d+) terms",
     {"zh": "式太長：項與連詞逾 {x} 個", "ja": "式が長すぎる：項と演算子が {x} を超える"}),
    (r"^find: an empty quoted name",
     {"zh": "引號之中無名", "ja": "引用符の中に名がない"}),
    (r"^find: '(?P<v>[^']*)' at token (?P<x>\d+) is never closed",
     {"zh": "第 {x} 項之「{v}」未閉", "ja": "{x} 番目の「{v}」が閉じていない"}),
    (r"^find: '\(\)' at token (?P<x>\d+) is empty",
     {"zh": "第 {x} 項之括號中無物", "ja": "{x} 番目の括弧の中が空"}),
    (r"^find: '(?P<v>[^']*)' at token (?P<x>\d+) closes nothing",
     {"zh": "第 {x} 項之「{v}」無可閉之括號", "ja": "{x} 番目の「{v}」が閉じる括弧がない"}),
    (r"^find: '(?P<v>[^']*)' at token (?P<x>\d+) follows '[^']*': a rule name is missing",
     {"zh": "第 {x} 項之「{v}」前缺規則之名", "ja": "{x} 番目の「{v}」の前に規則の名が欠けている"}),
    (r"^find: '(?P<v>[^']*)' at token (?P<x>\d+) has no rule before it",
     {"zh": "第 {x} 項之「{v}」前無規則", "ja": "{x} 番目の「{v}」の前に規則がない"}),
    (r"^find: '(?P<v>[^']*)' at token (?P<x>\d+): join it",
     {"zh": "第 {x} 項之「{v}」：請以 and 或 or 連於其前", "ja": "{x} 番目の「{v}」：前と and か or で結ぶ"}),
    (r"^find: '(?P<v>[^']*)' at the end has nothing after it",
     {"zh": "式末之「{v}」後無物", "ja": "式の末の「{v}」の後に何もない"}),
    (r"^find: empty expression",
     {"zh": "式為空", "ja": "式が空"}),
    (r"^find: unknown rule '(?P<v>[^']*)'(?: \(did you mean (?P<x>[^?]*)\?\))?",
     {"zh": "無名為「{v}」之規則{x}", "ja": "「{v}」という規則はない{x}"}),
    (r"^find: '(?P<v>[^']*)' names (?P<x>\d+) entries",
     {"zh": "「{v}」為 {x} 條之名：請擇其一", "ja": "「{v}」は {x} 項目の名：どれか一つを選ぶ"}),
    (r"^find: '(?P<v>[^']*)': '(?P<x>[^']*)' is not a 神煞 seen anywhere",
     {"zh": "「{v}」：「{x}」不是此空間中見於任何處之神煞", "ja": "「{v}」：「{x}」はこの空間のどこにも見える神煞ではない"}),
    (r"^find: '(?P<v>[^']*)': '(?P<x>[^']*)' is not a branch",
     {"zh": "「{v}」：「{x}」不是地支（子……亥）", "ja": "「{v}」：「{x}」は地支ではない（子……亥）"}),
    (r"^find: '(?P<v>[^']*)': on a 地盤 branch only a 天將",
     {"zh": "「{v}」：地盤之支上只論天將（貴人@卯）；神煞論見於何位（鬼@初傳）",
      "ja": "「{v}」：地盤の支には天将のみを置く（貴人@卯）；神煞はどの位に見えるかを問う（鬼@初傳）"}),
    (r"^find: '(?P<v>[^']*)': ",
     {"zh": "「{v}」無法讀為盤上之事：寫如 初傳=亥、鬼@初傳、貴人@卯、初傳 空、門=涉害",
      "ja": "「{v}」は盤の事として読めない：初傳=亥・鬼@初傳・貴人@卯・初傳 空・門=涉害 のように書く"}),
    (r"^(?P<f>[\w-]+) '(?P<v>[^']*)'… is too long \(\d+ characters; at most (?P<x>\d+)\)",
     {"zh": "{f}「{v}……」太長（至多 {x} 字）", "ja": "{f}「{v}……」が長すぎる（{x} 字まで）"}),
    (r"^--(?P<f>count-by) '(?P<v>[^']*)'",
     {"zh": "{f}「{v}」：月、門、日、課、晝夜、位（初傳……）或天將（貴人……）；二者以逗號相連則為交叉表",
      "ja": "{f}「{v}」：月・門・日・課・昼夜・位（初傳……）か天将（貴人……）；二つをコンマで結べばクロス表"}),
    (r"^--(?P<f>[\w-]+) '(?P<v>[^']*)': between (?P<x>\d+ and \d+)",
     {"zh": "{f}「{v}」：須在 {x} 之間", "ja": "{f}「{v}」：{x} の間"}),
    (r"^--(?P<f>[\w-]+) '(?P<v>[^']*)': a whole number",
     {"zh": "{f}「{v}」：請填整數", "ja": "{f}「{v}」：整数を入れる"}),
    (r"^--(?P<f>month) '(?P<v>[^']*)': a month branch",
     {"zh": "{f}「{v}」：請填月支（寅……丑）或干支", "ja": "{f}「{v}」：月の支（寅……丑）か干支を入れる"}),
    (r"^--(?P<f>day) '(?P<v>[^']*)': not in this index",
     {"zh": "{f}「{v}」不在此索引之中", "ja": "{f}「{v}」はこの索引にない"}),
    (r"^--(?P<f>day) '(?P<v>[^']*)': a day 干支",
     {"zh": "{f}「{v}」：請填日之干支（甲子……癸亥）", "ja": "{f}「{v}」：日の干支（甲子……癸亥）を入れる"}),
    (r"^--(?P<f>gate) '(?P<v>[^']*)'",
     {"zh": "{f}「{v}」：請填門（賊克……返吟）或課（元首、重審……）", "ja": "{f}「{v}」：門（賊克……返吟）か課（元首・重審……）を入れる"}),
    (r"^--(?P<f>daynight) '(?P<v>[^']*)'",
     {"zh": "{f}「{v}」：晝或夜", "ja": "{f}「{v}」：昼か夜"}),
    (r"^--(?P<f>sort) '(?P<v>[^']*)'",
     {"zh": "{f}「{v}」：依提升度或依局數", "ja": "{f}「{v}」：リフト値か盤の数"}),
    (r"^--(?P<f>dim) '(?P<v>[^']*)'",
     {"zh": "{f}「{v}」：本局（base），或所變之一（hour 占時、year 太歲、person 本命行年、lunar 農曆、term 節日）",
      "ja": "{f}「{v}」：基本の盤（base）か、変えたものの一つ（hour 占時・year 太歲・person 本命行年・lunar 農曆・term 節日）"}),
    (r"^--(?P<f>order) '(?P<v>[^']*)'",
     {"zh": "{f}「{v}」：先列不同之課，或依全盤之序", "ja": "{f}「{v}」：異なる課を先に、または全盤の順"}),
    # a board's inputs that do not go together (engine/casting/cast.py)
    (r"^--year (?P<v>\S+) and --month (?P<m>\S+): the (?P<y>\S+) year's (?P<b>\S+) month is (?P<w>\S+), not",
     {"zh": "年 {v} 與月 {m} 不合：{y}年之{b}月為 {w}", "ja": "年 {v} と月 {m} が合わない：{y}年の{b}月は {w}"}),
    (r"^--month (?P<v>\S+) and --term-day (?P<t>\S+): a day of (?P<n>\S+) is in a (?P<c>.+) month, not (?P<b>\S+)",
     {"zh": "月 {v} 與節日 {t} 不合：{n}之日在{c}月，非{b}月", "ja": "月 {v} と節入りの日 {t} が合わない：{n}の日は{c}月にあり、{b}月ではない"}),
    (r"^--month (?P<v>\S+) and --lunar (?P<t>\S+): a day of lunar month (?P<n>\S+) is in a (?P<c>.+) month, not (?P<b>\S+)",
     {"zh": "月 {v} 與農曆 {t} 不合：農曆{n}月之日在{c}月，非{b}月", "ja": "月 {v} と旧暦 {t} が合わない：旧暦{n}月の日は{c}月にあり、{b}月ではない"}),
    (r"^--term-day and --lunar are for a board given by its day",
     {"zh": "節日與農曆只用於以日起盤；時刻自知其節氣與農曆", "ja": "節入りの日と旧暦は日で起こす盤にのみ用いる；時刻はその節気と旧暦を自ら知る"}),
    (r"^--year/--month are for explicit casts",
     {"zh": "年與月只用於以日起盤；時刻自定其年月", "ja": "年と月は日で起こす盤にのみ用いる；時刻は年月を自ら定める"}),
    (r"^--partner-sex (?P<v>\S+) alone says nothing",
     {"zh": "只填另一人之性別（{v}）無以知其人：請填其生年（並填年），或其本命、行年",
      "ja": "相手の性別（{v}）だけでは相手がわからない：その生年（年も）か、本命・行年を入れる"}),
    (r"^--partner-born needs the year",
     {"zh": "填另一人之生年，須並填年：行年由年而數", "ja": "相手の生年には年も要る：行年は年から数える"}),
    (r"^the second person is read by its 行年",
     {"zh": "另一人依其行年而讀：請填另一人之行年（午或甲午），或其生年、性別與年",
      "ja": "相手はその行年で読む：相手の行年（午か甲午）か、その生年・性別と年を入れる"}),
    (r"^the second person is the other of a couple",
     {"zh": "另一人乃夫妻之另一方（夫行年、妻行年）：請填兩人之性別，一男一女",
      "ja": "相手は夫婦のもう一方（夫行年・妻行年）：二人の性別を、男と女一人ずつ入れる"}),
    (r"^the second person's 行年 is read beside the asker's",
     {"zh": "另一人之行年須與問者之行年並讀：請填問者之行年（未或乙未），或其生年、性別與年",
      "ja": "相手の行年は問う人の行年と並べて読む：問う人の行年（未か乙未）か、その生年・性別と年を入れる"}),
    (r"^give --(?P<f>(?:partner-)?born) \(with",
     {"zh": "{f}與本命、行年，二者擇一填之", "ja": "{f}か本命・行年か、どちらか一方を入れる"}),
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
        # a value holding ' is quoted "…" by Python's repr: both quotes are read alike
        pat = pat.replace("'(?P<v>[^']*)'", "(?P<q>['\"])(?P<v>.*?)(?P=q)")
        m = re.match(pat, msg)
        if m:
            g = m.groupdict()
            f = fields.get((g.get("f") or "").replace("_", "-"), g.get("f") or "")
            x = (g.get("x") or "").replace(" and ", "–")
            if pat.startswith("^no rule") or pat.startswith("^find: unknown rule"):
                x = _NEAREST[lang].format(x) if x else ""
            if pat.startswith("^option"):            # the option's choices in words (計涉害之數、先孟仲)
                x = "、".join(WORDS[lang]["opt"].get(c, c) for c in x.split("|"))
            rest = {k: (v or "").replace(" or ", {"zh": "或", "ja": "か"}[lang]) for k, v in g.items()}
            return texts[lang].format(**{**rest, "f": f, "v": g.get("v", ""), "x": x})
    return re.sub(r"--([a-z][\w-]*)", lambda m: fields.get(m.group(1), m.group(1)), msg)


def position(pos, lang="zh"):
    """A position of the board (初傳, 干上 …) as the page's language writes it (初伝)."""
    return WORDS[lang]["positions"].get(pos, pos)


def valence_word(v, lang="zh"):
    return WORDS[lang]["valences"].get(v, v) if v else v


def places_text(places, lang="zh"):
    """A judgment's places as plain text: 未，見於末傳、日干；丑，見於占時 (ja: 未、末伝・日干に見る …)."""
    w = WORDS[lang]
    out = []
    for p in places:
        bs = "、".join([x["b"] for x in p["branches"]] + [f"{x['at']} {x['b']}" for x in p.get("pairs") or []])
        at = w["seen_at"].format(at="、".join(p["at"])) if p["at"] else ""
        out.append("，".join(x for x in (bs, at) if x) if lang == "zh" else "、".join(x for x in (bs, at) if x))
    return "；".join(out)


def board_note(note, lang="zh"):
    """A cast board's note (a missing input) in the page's words: the form's fields, never an option."""
    from liuren.i18n import NOTES
    for key, texts in NOTES.items():
        if note in texts.values():
            return WORDS[lang]["board_notes"][key]
    return error_text(note, lang)


def board_text(b, lang="zh"):
    """A board's parameters as a reader reads them: 日 丁卯　月將加占時 亥加丑　夜 (never day=丁卯)."""
    w = WORDS[lang]
    fields = FIELDS[lang]
    out = []
    for k, v in b.items():
        k = k.replace("_", "-")
        if k in ("night", "daytime"):
            night = (str(v).lower() in ("true", "1")) == (k == "night")
            out.append(w["f_night_g"] if night else w["f_day_g"])
        elif k in ("sex", "partner-sex"):
            out.append(f"{fields[k]} {w['f_male'] if v == 'm' else w['f_female']}")
        else:
            out.append(f"{fields.get(k, k)} {w['opt'].get(str(v), v)}")
    return "　".join(out)


# --------------------------------------------------------------------------- notes in plain words
# The KB's notes (取義, 另說) and the casting steps were written for the KB's authors: they name
# rule ids, options (shehai=mengzhong), command-line flags and files.  A page says the same in words.
TERMS = {
    "zh": {"diben": "底本", "variants": "變體", "variant": "變體", "unmet": "未能重現之書例", "aspects": "所乘所屬所臨",
           "about": "所論之支", "valence": "吉凶", "reading": "斷", "sex": "性別", "question": "所問",
           "guiren": "貴人", "shehai": "涉害", "yuejiang": "月將", "place": "起例", "sha": "煞", "core": "核心"},
    "ja": {"diben": "底本", "variants": "変体", "variant": "変体", "unmet": "再現できない書例", "aspects": "乗る所・属する所・臨む所",
           "about": "論ずる支", "valence": "吉凶", "reading": "断", "sex": "性別", "question": "問う事",
           "guiren": "貴人", "shehai": "渉害", "yuejiang": "月将", "place": "起例", "sha": "殺", "core": "核心"},
}
OPTION_KEYS = {"shehai", "guiren", "yuejiang", "day_boundary", "day-boundary"}


def plain(text, kb=None, lang="zh", entry=None):
    """A note as a reader reads it: an option as its field and choice (涉害：先孟仲), a rule or table
    id as its name, a variant by its label, a flag as its field; files left out."""
    import re
    if not text:
        return text
    lang = lang if lang in WORDS else "zh"
    w, fields, terms = WORDS[lang], FIELDS[lang], TERMS[lang]
    variants = {v["id"]: v.get("label") or v["id"] for v in (entry.variants if entry is not None else [])}

    def name(x):
        if kb is None:
            return None
        e = kb.entries.get(x)
        if e is not None:
            return display_name(e, lang)
        t = kb.tables.get(x)
        return t.name if t is not None else None

    def pair(m):
        k, v = m.group(1), m.group(2)
        if k in OPTION_KEYS:
            return f"{fields.get(k.replace('_', '-'), k)}：{w['opt'].get(v, v)}"
        n = name(k)
        if n is not None:
            e = kb.entries.get(k)
            lab = next((x.get("label") for x in (e.variants if e is not None else []) if x["id"] == v), None)
            return f"{n}（{terms['variant']}：{lab or terms.get(v, v)}）"
        return m.group(0)
    s = re.sub(r"（[^（）]*(?:\.py|\.yaml)[^（）]*）", "", text)          # (tests/test_cast.py …)
    s = re.sub(r"\S*\.(?:py|yaml)\b", "", s)
    s = s.replace("`", "")
    s = re.sub(r"--variant\s+", "", s)
    s = re.sub(r"([A-Za-z][\w-]*)=([\w*-]+)", pair, s)
    s = re.sub(r"--([a-z][\w-]*)", lambda m: fields.get(m.group(1), m.group(1)), s)

    def word(m):
        x = m.group(0)
        n = name(x)
        if n is not None:
            return n
        if x in variants:
            return f"{terms['variant']}「{variants[x]}」"
        return terms.get(x, x)
    s = re.sub(r"[A-Za-z][\w]*(?:-[\w]+)*", word, s)
    if lang == "ja":                # the board's terms as the Japanese reader writes them (初伝, 月将)
        for zh, ja in JA_TERMS:
            s = s.replace(zh, ja)
    return s


JA_TERMS = (("初傳", "初伝"), ("中傳", "中伝"), ("末傳", "末伝"), ("三傳", "三伝"), ("月將", "月将"), ("太歲", "太歳"),
            ("發用", "発用"), ("天將", "天将"), ("歸本家", "帰本家"))
