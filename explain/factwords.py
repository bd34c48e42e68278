"""A table row in words, as a HOW chain, the chain's graph and a WHY-NOT show it.

The engine words a fact by its type's template (kb `text:`); a table without one it words by the
table's name and a dump of its cells (「星煞：煞天怪 據月 鍵寅 支丑」), which a student cannot read.
Here such a row is said as a sentence: by a form for the tables chains read (「天怪 據月建，寅則在丑」,
「丁之病在卯（長生第六）」, 「據孟仲季，仲為半新」), a row of a one-column table as one of its list
(「末傳在「入占之位」之列」), a table of a common shape by a form made from its columns (SHAPES:
「三傳亥卯未合「…」」), else by its cells each said as 「某為某」 (GENERIC: tests/test_how_table_words.py
bounds the tables left to it) — and a cell that holds a rule's id by that rule's name.
"""
from __future__ import annotations

# the forms of the tables chains read; {field} is the cell, in zh and ja (a list: the first whose cells the row has)
FORMS = {
    "shensha-by-stem": {"zh": ["日干{干}之{煞}在{支}（{類}第{序}）", "日干{干}之{煞}在{支}（{六親}）"],
                        "ja": ["日干{干}の{煞}は{支}にある（{類}の第{序}）", "日干{干}の{煞}は{支}にある（{六親}）"]},
    "jz-xingsha": {"zh": ["星煞{煞}據{據}：{鍵}則在{支}", "星煞{煞}據{據}"],
                   "ja": ["星殺{煞}は{據}による：{鍵}なら{支}にある", "星殺{煞}は{據}による"]},
    "dq12-jiamu": {"zh": "{干}日墓神{天}加{地}，乘{將}", "ja": "{干}の日の墓神{天}が{地}に加わり{將}が乗る"},
    "dq10-taishen": {"zh": "{月}月{干}日胎神用{支}", "ja": "{月}月{干}の日の胎神は{支}を用いる"},
    "shensha-zhi-relation": {"zh": "{支}{關係}{對}", "ja": "{支}は{對}を{關係}す"},
    "shensha-tianjiang": {"zh": "{將}為十二天將之一", "ja": "{將}は十二天将の一つ"},
    "jzb-changsheng": {"zh": "{主}之{階}在{支}", "ja": "{主}の{階}は{支}にある"},
    "j2b-wuxing-guanxi": {"zh": "五行{主}於{賓}為{係}", "ja": "五行{主}は{賓}に対して{係}"},
    "jzb-rel": {"zh": "{甲}{係}{乙}", "ja": "{甲}は{乙}に{係}"},
    "jzb-dehe": {"zh": "{主}之{類}為{支}", "ja": "{主}の{類}は{支}"},
    # the tables HOW chains read (issue 28 §2: a row in words, never 「表」：X為Y)
    "dq01-shensha": {"zh": "{煞}據{據}：{鍵}則在{支}", "ja": "{煞}は{據}による：{鍵}なら{支}にある"},
    "jz-xingsha-lun": {"zh": "{源}（{關}，所乘之將{將}，{類}）論為{報}",
                       "ja": "{源}（{關}、乗る将{將}、{類}）は{報}と論ずる"},
    "shensha-by-season": {"zh": "{時}之{煞}在{支}", "ja": "{時}の{煞}は{支}"},
    "jzb-wangxiang": {"zh": "{時}令{行}為{氣}", "ja": "{時}には{行}は{氣}"},
    "jzb-xinjiu-map": {"zh": "據{據}，{鍵}為{值}", "ja": "{據}によれば{鍵}は{值}"},
    "shensha-xunkong": {"zh": "{旬}旬空{支}", "ja": "{旬}旬は{支}が空亡"},
    "j2c-shiqi-xing": {"zh": "{五時}令{格}取{行}", "ja": "{五時}には{格}は{行}を取る"},
    "j2c-shiqi-pos": {"zh": "{位}屬{處}", "ja": "{位}は{處}に属する"},
    "shensha-ma": {"zh": "日支{日支}之驛馬在{支}", "ja": "日支{日支}の駅馬は{支}"},
    "jz-jiazi": {"zh": "{干支}之干為{干}，支為{支}", "ja": "{干支}は干{干}・支{支}"},
    "jzb-yinshen": {"zh": "{據}{主}之印神有{支}", "ja": "{據}{主}の印神に{支}がある"},
    "dq08-de-name": {"zh": "{德}據{據}", "ja": "{德}は{據}による"},
    "j2c-ju-pos": {"zh": "論合局，{位}屬{方}", "ja": "合局を論ずるに{位}は{方}に属する"},
    "jzb-dehe-xingsha": {"zh": "{類}取星煞之{煞}", "ja": "{類}は星殺の{煞}を取る"},
    "dq07-jiang-jixiong": {"zh": "{將}為{吉凶}將", "ja": "{將}は{吉凶}将"},
    "jzb-jiang-jixiong": {"zh": "{將}為{吉凶}將", "ja": "{將}は{吉凶}将"},
    "yh-jiang-jixiong": {"zh": "{將}為{吉凶}將", "ja": "{將}は{吉凶}将"},
    "dq08-jiang": {"zh": "{將}為{類}將", "ja": "{將}は{類}将"},
    "shensha-by-month": {"zh": "{月}之{煞}在{支}", "ja": "{月}の{煞}は{支}"},
    "jzb-gui-lei": {"zh": "{類}據{據}", "ja": "{類}は{據}による"},
    "jzb-juli": {"zh": "自{支}順數至{對}為{順}位，相距{距}", "ja": "{支}から{對}まで順に{順}位、相距{距}"},
    "jzb-yuanjin-map": {"zh": "{項}{鍵}為{值}", "ja": "{項}{鍵}は{值}"},
    "jzb-shitai-map": {"zh": "{項}{鍵}為{值}", "ja": "{項}{鍵}は{值}"},
    "tianjiang": {"zh": "{將}之本家在{本家}", "ja": "{將}の本家は{本家}"},
    "guiren": {"zh": "依{派}，{干}日貴人晝在{晝}，夜在{夜}", "ja": "{派}によれば{干}の日の貴人は昼{晝}・夜{夜}"},
    "jz-renlei": {"zh": "{性別}為{類}", "ja": "{性別}は{類}"},
    "dq12-liuqin": {"zh": "{我}見{彼}為{親}", "ja": "{我}に対して{彼}は{親}"},
    "jzb-xing-zu": {"zh": "{支}屬{組}之{門}（{象}）", "ja": "{支}は{組}の{門}（{象}）"},
    "dq07-xunqi": {"zh": "{旬}旬之旬奇在{支}", "ja": "{旬}旬の旬奇は{支}"},
    "j2b-sides": {"zh": "{方}之一方：{本}、{上}、{陰}", "ja": "{方}の側：{本}・{上}・{陰}"},
    "dq08-tiande": {"zh": "{月}月天德在{支}", "ja": "{月}月の天徳は{支}"},
    "dq08-yuede": {"zh": "{月}月月德在{支}", "ja": "{月}月の月徳は{支}"},
    "dq07-riqi": {"zh": "{干}日日奇在{支}", "ja": "{干}の日の日奇は{支}"},
    "dq07-zhiyi-map": {"zh": "{日支}日支儀在{支}", "ja": "{日支}の日の支儀は{支}"},
    "yh-lu-ren": {"zh": "{干}祿在{祿}，羊刃在{刃}", "ja": "{干}の祿は{祿}、羊刃は{刃}"},
    "guiren-shunni": {"zh": "貴人臨{地}則{行}行", "ja": "貴人が{地}に臨めば{行}行"},
    "yh-zhi-move": {"zh": "自{從}順數至{到}為{距}位", "ja": "{從}から{到}まで順に{距}位"},
    "jzb-next": {"zh": "{支}之次為{次}", "ja": "{支}の次は{次}"},
    "dq12-wx": {"zh": "{行}之{階}在{支}", "ja": "{行}の{階}は{支}"},
    "dq11-qi": {"zh": "{行}之{階}在{支}", "ja": "{行}の{階}は{支}"},
    "dq07-wuxing-shengmu": {"zh": "{行}之{階}在{支}", "ja": "{行}の{階}は{支}"},
    "jzb-chisu-map": {"zh": "{氣}而{位}，為{值}", "ja": "{氣}で{位}なら{值}"},
    "jzb-guiren-qianhou": {"zh": "{將}在貴人之{前後}，主{值}", "ja": "{將}は貴人の{前後}にあり、{值}"},
    "zhouye": {"zh": "占時{時}為{晝夜}", "ja": "占時{時}は{晝夜}"},
    "j2c-gan-relation": {"zh": "{煞}（據{據}）為{類}", "ja": "{煞}（{據}による）は{類}"},
    "dq01-posui": {"zh": "日支{日支}之破碎在{支}", "ja": "日支{日支}の破砕は{支}"},
    "dq11-fang": {"zh": "{支}屬{行}方", "ja": "{支}は{行}の方"},
    "jzb-cs-liwai": {"zh": "{干}之{階}為其{類}", "ja": "{干}の{階}はその{類}"},
    "jzb-zhouye-mu": {"zh": "{支}為{類}（{象}）", "ja": "{支}は{類}（{象}）"},
    "jz-sangdiao-pair": {"zh": "{煞}與{對}相配", "ja": "{煞}は{對}と相配す"},
    "dq01-ganmu": {"zh": "{干}之墓在{墓}", "ja": "{干}の墓は{墓}"},
    "dq01-zhimu": {"zh": "{支}之墓在{墓}", "ja": "{支}の墓は{墓}"},
    "dq11-lin": {"zh": "{支}前為{前}，後為{後}", "ja": "{支}の前は{前}、後は{後}"},
    "j2a-ju-xing": {"zh": "{格}屬{行}（以{代}代之）", "ja": "{格}は{行}（{代}で代える）"},
    "dq11-shengsi": {"zh": "月建{月建}，生氣在{生氣}，死氣在{死氣}", "ja": "月建{月建}なら生気は{生氣}、死気は{死氣}"},
    "dq12-sanzi-xing": {"zh": "三傳{初}{中}{末}為三字刑", "ja": "三伝{初}{中}{末}は三字刑"},
    "jzb-yinju": {"zh": "{行}日之印局為{局}局", "ja": "{行}の日の印局は{局}局"},
    "dq08-zhi-wang": {"zh": "{支}之旺神為{旺}", "ja": "{支}の旺神は{旺}"},
    "yh-wuxing-mujue": {"zh": "{行}之墓在{墓}，絕在{絕}", "ja": "{行}の墓は{墓}、絶は{絕}"},
    "dq08-ni4": {"zh": "{陽}之陰神為{陰}", "ja": "{陽}の陰神は{陰}"},
    "dq10-lide-rows": {"zh": "陽神在貴人{陽}，陰神在貴人{陰}", "ja": "陽神は貴人の{陽}、陰神は貴人の{陰}"},
    "dq08-xingde-de": {"zh": "{干}之德在{德}", "ja": "{干}の徳は{德}"},
    "dq12-suihou5": {"zh": "太歲{歲}之後五辰為{支}", "ja": "太歳{歲}の後五辰は{支}"},
    "duan-qishi": {"zh": "{問}，所取之支{氣}", "ja": "{問}で取る支が{氣}"},
    "jzb-qi-bei": {"zh": "{氣}則以本數之{倍}倍論", "ja": "{氣}なら本数の{倍}倍とする"},
    "dq07-dunqi": {"zh": "三傳遁{一}{二}{三}", "ja": "三伝の遁干{一}{二}{三}"},
    "dq07-fanyin-jiang": {"zh": "返吟初傳{初}乘{將}", "ja": "返吟の初伝{初}に{將}が乗る"},
    "dq07-fuyin-quan": {"zh": "伏吟三傳{甲}{乙}全", "ja": "伏吟の三伝に{甲}{乙}が全し"},
    "dq07-lianmu-days": {"zh": "{干支}日{晝夜}占", "ja": "{干支}の日の{晝夜}占"},
    "dq07-rumu": {"zh": "末傳為初傳之{階}，乘{將類}將", "ja": "末伝が初伝の{階}で{將類}将が乗る"},
    "dq07-yaoke-zu": {"zh": "{體}傳見{行}", "ja": "{體}の伝に{行}を見る"},
    "dq07-zongmen": {"zh": "門{門}，體{體}", "ja": "門{門}・体{體}"},
    "dq08-ke-wen": {"zh": "{課}，{問}", "ja": "{課}、{問}"},
    "dq09-linjia-ming": {"zh": "{方}而{係}", "ja": "{方}で{係}"},
    "dq10-jiuchou-chong-rows": {"zh": "{陰陽}日干支上神俱在貴人{前後}", "ja": "{陰陽}の日に干支上神がともに貴人の{前後}"},
    "dq10-mumen-sang": {"zh": "{墓}墓加{地}", "ja": "{墓}墓が{地}に加わる"},
    "dq10-shizhong-rows": {"zh": "始{始}，終{終}", "ja": "始め{始}・終わり{終}"},
    "dq01-jialin": {"zh": "{干}日{天}加{地}", "ja": "{干}の日に{天}が{地}に加わる"},
    "dq01-jiang-lin": {"zh": "{將}{法}{支}", "ja": "{將}が{支}に{法}"},
    "dq01-jiang-yue": {"zh": "{月}月{將}乘{支}", "ja": "{月}月に{將}が{支}に乗る"},
    "dq01-jiangcheng": {"zh": "{干}日{將}乘{天}", "ja": "{干}の日に{將}が{天}に乗る"},
    "dq01-wuhe-jiang": {"zh": "{干}日之合乘{將}臨{地}", "ja": "{干}の日の合に{將}が乗り{地}に臨む"},
    "j2b-changsheng-jiang": {"zh": "{煞}乘{將}", "ja": "{煞}に{將}が乗る"},
    "j2b-hehe-sanhe": {"zh": "{格}：{方}成三合", "ja": "{格}：{方}が三合を成す"},
    "j2b-xingchong-pair": {"zh": "{格}：{主}{關係}{賓}", "ja": "{格}：{主}が{賓}を{關係}す"},
    "j2b-xingchong-lian": {"zh": "{格}：{甲}{關係}{乙}，{乙}{關係}{丙}", "ja": "{格}：{甲}が{乙}を、{乙}が{丙}を{關係}す"},
    "j2b-yongshen-ju": {"zh": "{格}：{方}之局之於日干為{係}", "ja": "{格}：{方}の局は日干に対して{係}"},
    "j2b-yongshen-pair": {"zh": "{格}：{主}之於{賓}為{係}", "ja": "{格}：{主}は{賓}に対して{係}"},
    "j2b-yongshen-lian": {"zh": "{格}：{甲}、{乙}、{丙}、{丁}依次相{係}",
                          "ja": "{格}：{甲}・{乙}・{丙}・{丁}が順に{係}"},
    "j2c-chuan-shi": {"zh": "初傳即{位}，{類}", "ja": "初伝が{位}、{類}"},
    "j2c-jiang-lin": {"zh": "初傳乘{將}臨{臨}", "ja": "初伝に{將}が乗り{臨}に臨む"},
    "j2c-shiqi-sub": {"zh": "{格}取{處}", "ja": "{格}は{處}を取る"},
    "j2c-yskong-sub": {"zh": "{處}屬{煞}而空", "ja": "{處}が{煞}に属して空"},
    "jz-wuxing-rel": {"zh": "{字}{關}{對}", "ja": "{字}は{對}を{關}す"},
    "jzb-color": {"zh": ["{門}：{干}色{象}", "{門}：{支}色{象}"], "ja": ["{門}：{干}の色は{象}", "{門}：{支}の色は{象}"]},
    "jzb-cou-shen-rows": {"zh": "所湊之神為{值}（{類}）", "ja": "湊う神は{值}（{類}）"},
    "jzb-leishen": {"zh": "{問}之類神取{值}（{類}）", "ja": "{問}の類神は{值}（{類}）"},
    "shensha-relation-reading": {"zh": "{關係}及於{據}", "ja": "{關係}が{據}に及ぶ"},
    "yh-shefu-keti": {"zh": "{鍵}{值}，{項}為{象}", "ja": "{鍵}{值}なら{項}は{象}"},
    "jzb-stage-reading": {"zh": "日干之{階}入占（所問：{問}；除外：{非}）", "ja": "日干の{階}が入占（問う事：{問}；除外：{非}）"},
    "lx-leixiang": {"zh": ["{門}：{將}乘{支}為{象}", "{門}：{支}為{象}", "{門}：{干}為{象}", "{門}：{將}為{象}",
                           "{門}：{位}為{象}", "{門}：{煞}為{象}"],
                    "ja": ["{門}：{將}が{支}に乗れば{象}", "{門}：{支}は{象}", "{門}：{干}は{象}", "{門}：{將}は{象}",
                           "{門}：{位}は{象}", "{門}：{煞}は{象}"]},
}
# forms derived from a table's declared columns, for the tables of one shape (卷一 神煞 by 據 and 鍵,
# 三傳 of a named sequence, a 天盤 branch over a 地盤 one …); {table} is the table's name
SHAPES = {
    ("煞", "據", "鍵", "支"): {"zh": ["{煞}據{據}：{鍵}則在{支}", "{煞}據{據}"], "ja": ["{煞}は{據}による：{鍵}なら{支}にある", "{煞}は{據}による"]},
    ("煞", "據", "鍵", "干", "支"): {"zh": ["{煞}據{據}：{鍵}則在{支}", "{煞}據{據}"],
                                 "ja": ["{煞}は{據}による：{鍵}なら{支}にある", "{煞}は{據}による"]},
    ("初", "中", "末"): {"zh": "三傳{初}{中}{末}合「{table}」", "ja": "三伝{初}{中}{末}は「{table}」に合う"},
    ("天", "地"): {"zh": "{天}加{地}合「{table}」", "ja": "{天}が{地}に加わり「{table}」に合う"},
    ("時", "支"): {"zh": "{時}之「{table}」在{支}", "ja": "{時}の「{table}」は{支}"},
    ("支", "對"): {"zh": "{支}與{對}合「{table}」", "ja": "{支}と{對}は「{table}」に合う"},
    ("甲", "乙"): {"zh": "{甲}與{乙}合「{table}」", "ja": "{甲}と{乙}は「{table}」に合う"},
    ("日支", "支"): {"zh": "日支{日支}之「{table}」在{支}", "ja": "日支{日支}の「{table}」は{支}"},
    ("干", "支"): {"zh": "{干}日之「{table}」在{支}", "ja": "{干}の日の「{table}」は{支}"},
    ("局", "支"): {"zh": "{支}屬{局}局（「{table}」）", "ja": "{支}は{局}局（「{table}」）"},
    ("支", "行"): {"zh": "{支}屬{行}（「{table}」）", "ja": "{支}は{行}（「{table}」）"},
    ("規", "位"): {"zh": "{規}之{位}落空，勿以實論", "ja": "{規}の{位}が空亡なら実とは論じない"},
    ("格", "時"): {"zh": "{格}於{時}另有其名", "ja": "{格}は{時}に別の名がある"},
    ("將", "類"): {"zh": "{將}為{類}將", "ja": "{將}は{類}将"},
    ("煞", "據"): {"zh": "{煞}據{據}", "ja": "{煞}は{據}による"},
    ("字", "數"): {"zh": "{字}之數為{數}", "ja": "{字}の数は{數}"},
    ("煞", "時", "支"): {"zh": "{時}之{煞}在{支}", "ja": "{時}の{煞}は{支}"},
    ("門", "支", "象"): {"zh": "{支}之{門}為{象}", "ja": "{支}の{門}は{象}"},
    ("行", "色"): {"zh": "{行}色{色}", "ja": "{行}の色は{色}"},
    ("陰陽", "象"): {"zh": "{陰陽}之象：{象}", "ja": "{陰陽}の象：{象}"},
    ("距", "象"): {"zh": "距{距}為{象}", "ja": "距{距}は{象}"},
    ("行", "氣", "象"): {"zh": "{行}而{氣}，為{象}", "ja": "{行}が{氣}なら{象}"},
    ("支", "氣", "象"): {"zh": "{支}而{氣}，為{象}", "ja": "{支}が{氣}なら{象}"},
    ("下", "上", "象"): {"zh": "{上}加{下}，為{象}", "ja": "{上}が{下}に加われば{象}"},
    ("四時", "行", "氣"): {"zh": "{四時}令{行}為{氣}", "ja": "{四時}には{行}は{氣}"},
    ("初", "末"): {"zh": "初傳{初}，末傳{末}", "ja": "初伝{初}、末伝{末}"},
}
# a table of one column lists values (入占之位, 見處): its row says the value is one of them
ONE_COLUMN = {"zh": "{value}在「{table}」之列", "ja": "{value}は「{table}」の一つ"}
# the words of a generic row: 「表」中，某為某
GENERIC = {"zh": ("「{table}」：", "{field}為{value}", "，"), "ja": ("「{table}」：", "{field}は{value}", "、")}
# numbers of an ordinal cell (序) in words
NUM = "〇一二三四五六七八九十"


def _cell(kb, field, value, lang):
    if isinstance(value, bool) or value is None:
        return "無" if value is None else ("是" if value else "否")
    if isinstance(value, int) and field == "序" and 0 <= value <= 12:
        return NUM[value] if value <= 10 else "十" + NUM[value - 10]
    if isinstance(value, str) and kb is not None:
        e = kb.entries.get(value)
        if e is not None and value != e.name:
            from liuren.explain.words import display_name
            return f"「{display_name(e, lang)}」"
    return str(value)


def row_words(kb, fields, lang="zh"):
    """A table fact (its fields with `t`, the table's id) as a sentence; None if `t` is not a table."""
    t = fields.get("t")
    if kb is None or t not in kb.tables:
        return None
    lang = lang if lang in GENERIC else "zh"
    words = kb.tables[t].meta.get("words") or {}     # a cell a reader is told in other words (將 任: 不拘)
    cells = {k: words.get(k, {}).get(v) or _cell(kb, k, v, lang) if isinstance(v, str) else _cell(kb, k, v, lang)
             for k, v in fields.items() if k not in ("t", "id")}
    table = kb.tables[t].name
    form = FORMS.get(t, {}).get(lang) or SHAPES.get(tuple(kb.tables[t].columns), {}).get(lang)
    for f in [form] if isinstance(form, str) else form or []:
        try:
            return f.format(table=table, **cells)
        except (KeyError, IndexError, ValueError):
            pass
    if len(cells) == 1:
        return ONE_COLUMN[lang].format(value=next(iter(cells.values())), table=table)
    head, each, sep = GENERIC[lang]
    return head.format(table=table) + sep.join(each.format(field=k, value=v) for k, v in cells.items())


def is_dump(text, kb, fields):
    """Is this the engine's dump of a table fact (name：fieldvalue fieldvalue …)?"""
    t = fields.get("t")
    if kb is None or t not in kb.tables:
        return False
    dump = kb.tables[t].name + "：" + " ".join(f"{k}{v}" for k, v in fields.items() if k not in ("t", "id"))
    return text == dump
