"""A table row in words, as a HOW chain, the chain's graph and a WHY-NOT show it.

The engine words a fact by its type's template (kb `text:`); a table without one it words by the
table's name and a dump of its cells (「星煞：煞天怪 據月 鍵寅 支丑」), which a student cannot read.
Here such a row is said as a sentence: by a form for the tables a chain most often reads (「天怪
據月建，寅則在丑」, 「丁之病在卯（長生第六）」), else by its cells each said as 「某為某」 —
and a cell that holds a rule's id by that rule's name.
"""
from __future__ import annotations

# the forms of the tables chains read most; {field} is the cell, in zh and ja
FORMS = {
    "shensha-by-stem": {"zh": "日干{干}之{煞}在{支}（{類}第{序}）", "ja": "日干{干}の{煞}は{支}にある（{類}の第{序}）"},
    "jz-xingsha": {"zh": "星煞{煞}據{據}：{鍵}則在{支}", "ja": "星殺{煞}は{據}による：{鍵}なら{支}にある"},
    "shensha-zhi-relation": {"zh": "{支}{關係}{對}", "ja": "{支}は{對}を{關係}す"},
    "shensha-tianjiang": {"zh": "{將}為十二天將之一", "ja": "{將}は十二天将の一つ"},
    "jzb-changsheng": {"zh": "{主}之{階}在{支}", "ja": "{主}の{階}は{支}にある"},
    "j2b-wuxing-guanxi": {"zh": "五行{主}於{賓}為{係}", "ja": "五行{主}は{賓}に対して{係}"},
    "jzb-rel": {"zh": "{甲}{係}{乙}", "ja": "{甲}は{乙}に{係}"},
    "jzb-dehe": {"zh": "{主}之{類}為{支}", "ja": "{主}の{類}は{支}"},
}
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
    if form:
        try:
            return form.format(**cells)
        except (KeyError, IndexError, ValueError):
            pass
    head, each, sep = GENERIC[lang]
    table = kb.tables[t].name
    return head.format(table=table) + sep.join(each.format(field=k, value=v) for k, v in cells.items())


def is_dump(text, kb, fields):
    """Is this the engine's dump of a table fact (name：fieldvalue fieldvalue …)?"""
    t = fields.get("t")
    if kb is None or t not in kb.tables:
        return False
    dump = kb.tables[t].name + "：" + " ".join(f"{k}{v}" for k, v in fields.items() if k not in ("t", "id"))
    return text == dump
