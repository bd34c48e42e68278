"""A table row in words, as a HOW chain, the chain's graph and a WHY-NOT show it.

The engine words a fact by its type's template (kb `text:`); a table without one it words by the
table's name and a dump of its cells (「星煞：煞天怪 據月 鍵寅 支丑」), which a student cannot read.
Here such a row is said as a sentence: by a form for the tables chains read (「天怪 據月建，寅則在丑」,
「丁之病在卯（長生第六）」, 「據孟仲季，仲為半新」), a row of a one-column table as one of its list
(「末傳在「入占之位」之列」), else by its cells each said as 「某為某」 (GENERIC: tests/test_how_table_words.py
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
    cells = {k: _cell(kb, k, v, lang) for k, v in fields.items() if k not in ("t", "id")}
    form = FORMS.get(t, {}).get(lang)
    for f in [form] if isinstance(form, str) else form or []:
        try:
            return f.format(**cells)
        except (KeyError, IndexError, ValueError):
            pass
    table = kb.tables[t].name
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
