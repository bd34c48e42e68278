"""The sentences of 發用之由 — how the 三傳 was cast — in Chinese: the casting's own words.

A step (casting/cast.py's Step) carries a key and its values; its `text` is the sentence of its key
here with those values.  The Japanese of the same keys is explain/steps.py's (casting never
imports explain): one table of keys, the zh sentence here, the ja one there, and a test that
each has the same keys and the same values.

    sentence("biyong", {"uppers": ("子", "午"), ...})   # a key "a+b" says a's sentence, then b's
"""
from __future__ import annotations

# key -> sentence; {name} is one of the step's values
STEPS = {
    # 天地盤 and 四課
    "plate": "月將加占時：天盤移 {offset} 位（各支加其位）",
    "plate-fuyin": "月將加占時：天盤移 {offset} 位（伏吟）",
    "plate-fanyin": "月將加占時：天盤移 {offset} 位（返吟）",
    "lessons": "四課：一課 {u1}/{l1}\u3000二課 {u2}/{l2}\u3000三課 {u3}/{l3}\u3000四課 {u4}/{l4}",
    # 伏吟
    "fuyin-ke": "伏吟有克：{first} 與其下相克，為用",
    "fuyin-ziren": "伏吟無克，剛日取干上神 {first} 為用（自任）",
    "fuyin-zixin": "伏吟無克，柔日取支上神 {first} 為用（自信）",
    "fuyin-zixing": "初傳 {first} 自刑，次傳取{side}上神 {mid}（杜傳）",
    "fuyin-xing-mid": "中傳取初傳所刑：{first} 刑 {mid}",
    "fuyin-zixing-last": "中傳 {mid} 又自刑，末傳取其沖 {last}（杜傳）",
    "fuyin-dufu": "中傳 {mid} 刑回初傳 {first}（{first}{mid}兩刑），不複再傳，末傳取其沖 {last}（杜傳）",
    "fuyin-xing-last": "末傳取中傳所刑：{mid} 刑 {last}",
    # 賊克 and 比用
    "zeike-zei": "下賊上：{on}（下克上）",
    "zeike-ke": "無下賊，取上克下：{on}（上克下）",
    "zeike-one": "只一課，{first} 為初傳（{subtype}）",
    "biyong": "{uppers} 俱{kind}；{yy}日取{yy}神 {first}（知一）",
    "biyong-shehai-bi": "{uppers} 俱{kind}，俱比，入涉害",
    "biyong-shehai-bubi": "{uppers} 俱{kind}，俱不比，入涉害",
    # 涉害
    "shehai-count": "{u}加{start}，歸本家 {u}，歷 {seen}，{n} 重",
    "shehai-count-none": "{u}加{start}，歸本家 {u}，歷 無，{n} 重",
    "shehai-deepest": "{first} 涉害最深，為初傳",
    "shehai-tie": "{tied} 涉害俱 {best} 重，深淺相等",
    "shehai-mengzhong": "{tied}：依先孟仲之取法，不計涉害之數，逕以孟仲定之",
    "shehai-tianpan": "{tied}：依天盤孟仲之取法，不計涉害之數，逕以天盤之支之孟仲定之",
    "shehai-tian-meng": "{first} 為孟神，為初傳（見機）",
    "shehai-tian-zhong": "{first} 為仲神，為初傳（察微）",
    "shehai-biyong": "{tied}：依比用之取法，取生日、比日之神 {first} 為初傳（比用）",
    "shehai-biyong-none": "{tied}：生日、比日之神無，比用不決，計涉害之數",
    "shehai-biyong-many": "{tied}：生日、比日之神不止一，比用不決，計涉害之數",
    "shehai-meng": "{first} 臨孟（{under}），為初傳（見機）",
    "shehai-zhong": "{first} 臨仲（{under}），為初傳（察微）",
    "shehai-fudeng-yang": "孟仲亦等，剛日取干上神 {first} 為初傳（復等）",
    "shehai-fudeng-yin": "孟仲亦等，柔日取支上神 {first} 為初傳（復等）",
    # the other 涉害 option, named as the form names it, where it gives another 初傳
    "alt-mengzhong": "；另一取法（先孟仲：不計涉害之數，逕以孟仲季取之），初傳為 {alt}，三傳 {alt_chuan}（{alt_sub}）",
    "alt-count": "；另一取法（計涉害之數：數歸本家所歷之克，取其深者），初傳為 {alt}，三傳 {alt_chuan}（{alt_sub}）",
    # 返吟 without 克
    "fanyin": "返吟無克：取日支 {zhi} 之驛馬 {first} 為初傳，中傳支上神 {u3}，末傳干上神 {u1}（井欄射）",
    # 八專
    "bazhuan-yang": "八專無克（論克不論遙）：剛日自干上神 {u1} 順數三位得 {first} 為初傳，中末皆干上神",
    "bazhuan-yin": "八專無克（論克不論遙）：柔日自第四課上神 {u4} 逆數三位得 {first} 為初傳，中末皆干上神",
    # 遙克
    "yaoke-hao": "四課無克，神遙克日：{group}，{first} 為初傳（蒿矢）",
    "yaoke-hao-pick": "四課無克，神遙克日：{group}，{group} 中取與日同陰陽者，{first} 為初傳（蒿矢）",
    "yaoke-tan": "四課無克，日遙克神：{group}，{first} 為初傳（彈射）",
    "yaoke-tan-pick": "四課無克，日遙克神：{group}，{group} 中取與日同陰陽者，{first} 為初傳（彈射）",
    # 昴星
    "maoxing-yang": "無克無遙，四課俱全：剛日仰視酉上神 {first} 為初傳",
    "maoxing-order-yang": "剛日先辰後日：中傳支上神 {u3}，末傳干上神 {u1}（虎視）",
    "maoxing-yin": "無克無遙，四課俱全：柔日俯察天盤酉下之地盤 {first} 為初傳",
    "maoxing-order-yin": "柔日先日後辰：中傳干上神 {u1}，末傳支上神 {u3}（冬蛇掩目）",
    # 別責
    "biezhe-yang": "無克無遙，四課不全：剛日取干合 {partner}（寄{gong}）上神 {first} 為初傳，中末皆干上神 {u1}",
    "biezhe-yin": "無克無遙，四課不全：柔日取支前三合 {first} 為初傳，中末皆干上神 {u1}",
    # 中末傳
    "chuanfa": "初傳 {a}，{a} 上見 {b} 為中傳，{b} 上見 {c} 為末傳",
}

LIST_SEP = "、"


def sentence(key, args):
    """The Chinese sentence of a step's key with its values (a list of values joined by 、)."""
    vals = {k: (LIST_SEP.join(str(x) for x in v) if isinstance(v, (tuple, list)) else str(v))
            for k, v in dict(args or {}).items()}
    return "".join(STEPS[p].format(**vals) for p in key.split("+"))
