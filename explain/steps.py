"""The sentences of 發用之由 — how the 三傳 was cast — in each language, side by side.

The casting (engine/casting/cast.py) records each step by a key and its values (Step.key,
Step.args) besides its Chinese sentence (Step.text, as the JSON carries it); a page, a chain, the
drill and the CLI say the step in the reader's language from here.  The zh sentence of a key is
the casting's own (engine/casting/steps.py holds it; this module holds the ja of the same keys).  The
verses a step cites are quotes and stay as the book has them.

    step_text(step, "ja")      # a Step, or a dict with key/args/text (a chain's step, a trace node)
"""
from __future__ import annotations

from liuren.casting.steps import STEPS as ZH

# key -> the Japanese sentence of the casting's step of that key (engine/casting/steps.py holds the
# Chinese one: the casting's own text); {name} is one of the step's values
STEPS_JA = {
    # 天地盤 and 四課
    "plate": "月将を占時に加える：天盤を {offset} 位移す（各支がそれぞれの位に加わる）",
    "plate-fuyin": "月将を占時に加える：天盤は {offset} 位で動かず、各支が本位に居る（伏吟）",
    "plate-fanyin": "月将を占時に加える：天盤を {offset} 位移し、各支が衝の位に加わる（返吟）",
    "lessons": "四課を立てる：第一課 {u1}/{l1}\u3000第二課 {u2}/{l2}\u3000第三課 {u3}/{l3}\u3000第四課 {u4}/{l4}",
    # 伏吟
    "fuyin-ke": "伏吟で剋あり：{first} がその下と相剋するので、これを用とする",
    "fuyin-ziren": "伏吟で剋なし。剛日は干上神 {first} を用とする（自任）",
    "fuyin-zixin": "伏吟で剋なし。柔日は支上神 {first} を用とする（自信）",
    "fuyin-zixing": "初伝 {first} は自刑なので、次伝は{side}上神 {mid} を取る（杜伝）",
    "fuyin-xing-mid": "中伝は初伝が刑するものを取る：{first} は {mid} を刑す",
    "fuyin-zixing-last": "中伝 {mid} もまた自刑なので、末伝はその沖 {last} を取る（杜伝）",
    "fuyin-dufu": "中伝 {mid} は初伝 {first} を刑し返す（{first}{mid}の相刑）。再びは伝えず、末伝はその沖 {last} を取る（杜伝）",
    "fuyin-xing-last": "末伝は中伝が刑するものを取る：{mid} は {last} を刑す",
    # 賊克 and 比用
    "zeike-zei": "下賊上（下が上を剋す）：{on}",
    "zeike-ke": "下賊上はなく、上剋下（上が下を剋す）を取る：{on}",
    "zeike-one": "ただ一課なので、{first} を初伝とする（{subtype}）",
    "biyong": "{uppers} はいずれも{kind}。{yy}日なので{yy}神 {first} を取る（知一）",
    "biyong-shehai-bi": "{uppers} はいずれも{kind}で、いずれも日と陰陽が同じ（倶比）なので、渉害に入る",
    "biyong-shehai-bubi": "{uppers} はいずれも{kind}で、いずれも日と陰陽が異なる（倶不比）ので、渉害に入る",
    # 涉害
    "shehai-count": "{u}加{start}：本家 {u} に帰るまでに {seen} で剋に遭い、{n} 重",
    "shehai-count-none": "{u}加{start}：本家 {u} に帰るまで剋に遭わず、{n} 重",
    "shehai-deepest": "{first} は渉害が最も深いので、初伝とする",
    "shehai-tie": "{tied} は渉害がいずれも {best} 重で、深浅が等しい",
    "shehai-mengzhong": "{tied}：孟仲を先とする取り方により、渉害の数を数えず、ただちに孟仲で定める",
    "shehai-tianpan": "{tied}：天盤の孟仲による取り方により、渉害の数を数えず、ただちに天盤の支そのものの孟仲で定める",
    "shehai-tian-meng": "{first} は孟神なので、初伝とする（見機）",
    "shehai-tian-zhong": "{first} は仲神なので、初伝とする（察微）",
    "shehai-biyong": "{tied}：比用の取り方により、日を生じ、または日と同じ五行の神 {first} を初伝とする（比用）",
    "shehai-biyong-none": "{tied}：日を生じ日と比する神がなく、比用では決まらないので、渉害の数を数える",
    "shehai-biyong-many": "{tied}：日を生じ日と比する神が一つでなく、比用では決まらないので、渉害の数を数える",
    "shehai-meng": "{first} は孟（{under}）に臨むので、初伝とする（見機）",
    "shehai-zhong": "{first} は仲（{under}）に臨むので、初伝とする（察微）",
    "shehai-fudeng-yang": "孟仲もまた等しい。剛日は干上神 {first} を初伝とする（復等）",
    "shehai-fudeng-yin": "孟仲もまた等しい。柔日は支上神 {first} を初伝とする（復等）",
    # the other 涉害 option, named as the form names it, where it gives another 初傳
    "alt-mengzhong": "。別の取り方（孟仲を先とする：渉害の数を数えず、孟仲季で取る）では、初伝は {alt}、三伝は {alt_chuan}（{alt_sub}）",
    "alt-count": "。別の取り方（渉害の数を数える：本家に帰るまでに遭う剋を数え、深いものを取る）では、初伝は {alt}、三伝は {alt_chuan}（{alt_sub}）",
    # 返吟 without 克
    "fanyin": "返吟で剋なし：日支 {zhi} の駅馬 {first} を初伝とし、中伝は支上神 {u3}、末伝は干上神 {u1}（井欄射）",
    # 八專
    "bazhuan-yang": "八専で剋なし（剋を論じて遥を論じない）：剛日は干上神 {u1} から順に三位数えて {first} を初伝とし、中伝・末伝はともに干上神",
    "bazhuan-yin": "八専で剋なし（剋を論じて遥を論じない）：柔日は第四課の上神 {u4} から逆に三位数えて {first} を初伝とし、中伝・末伝はともに干上神",
    # 遙克
    "yaoke-hao": "四課に剋なし。神が日を遥剋する：{group}。{first} を初伝とする（蒿矢）",
    "yaoke-hao-pick": "四課に剋なし。神が日を遥剋する：{group}。そのうち日と陰陽を同じくする {first} を初伝とする（蒿矢）",
    "yaoke-tan": "四課に剋なし。日が神を遥剋する：{group}。{first} を初伝とする（弾射）",
    "yaoke-tan-pick": "四課に剋なし。日が神を遥剋する：{group}。そのうち日と陰陽を同じくする {first} を初伝とする（弾射）",
    # 昴星
    "maoxing-yang": "剋も遥剋もなく、四課がそろう：剛日は仰いで酉の上神 {first} を見て初伝とする",
    "maoxing-order-yang": "剛日は辰を先に日を後にする：中伝は支上神 {u3}、末伝は干上神 {u1}（虎視）",
    "maoxing-yin": "剋も遥剋もなく、四課がそろう：柔日は俯して天盤の酉の下の地盤 {first} を見て初伝とする",
    "maoxing-order-yin": "柔日は日を先に辰を後にする：中伝は干上神 {u1}、末伝は支上神 {u3}（冬蛇掩目）",
    # 別責
    "biezhe-yang": "剋も遥剋もなく、四課がそろわない：剛日は干合 {partner}（{gong}に寄す）の上神 {first} を初伝とし、中伝・末伝はともに干上神 {u1}",
    "biezhe-yin": "剋も遥剋もなく、四課がそろわない：柔日は支の前の三合 {first} を初伝とし、中伝・末伝はともに干上神 {u1}",
    # 中末傳
    "chuanfa": "初伝 {a}、{a} の上に見る {b} を中伝、{b} の上に見る {c} を末伝とする",
}

# key -> {lang: sentence}: the casting's zh beside the ja here.  A key "a+b" says a's sentence, then b's.
STEPS = {k: {"zh": ZH[k], "ja": STEPS_JA[k]} for k in ZH}

# values that are words, as each language says them (a branch, a number are the same everywhere)
VALUE_WORDS = {
    "ja": {"kind": {"賊": "下賊上", "克": "上剋下"},
           "subtype": {"涉害": "渉害"}, "alt_sub": {"涉害": "渉害"}},
}
LIST_SEP = {"zh": "、", "ja": "・"}


def _value(name, v, lang):
    if isinstance(v, (tuple, list)):
        return LIST_SEP[lang].join(str(x) for x in v)
    return VALUE_WORDS.get(lang, {}).get(name, {}).get(v, str(v))


def sentence(key, args, lang="zh"):
    """The sentence of a step's key with its values in a language (None: an unknown key)."""
    lang = lang if lang in LIST_SEP else "zh"
    parts = key.split("+") if key else []
    if not parts or any(p not in STEPS for p in parts):
        return None
    vals = {k: _value(k, v, lang) for k, v in dict(args or {}).items()}
    return "".join(STEPS[p][lang].format(**vals) for p in parts)


def step_text(step, lang="zh", kb=None):
    """A casting step in the reader's language: a Step, or a dict with key/args/text (a chain's
    step, a node of the trace).  A step without a known key is its text in plain words."""
    if isinstance(step, dict):
        key, args, text = step.get("key"), step.get("args"), step.get("text", "")
    else:
        key, args, text = step.key, step.args, step.text
    s = sentence(key, args, lang)
    if s is not None:
        return s
    from liuren.explain.words import plain
    return plain(text, kb, lang)


# the names of the verses a step applies (kb/core/casting.yaml), as the Japanese reader writes them
_JA_CHARS = str.maketrans({"傳": "伝", "專": "専", "涉": "渉", "將": "将", "晝": "昼", "俱": "倶", "遙": "遥"})


def step_name(name, lang="zh"):
    """A casting step's name (the verse's: 中末傳, 八專不論遙) in the reader's language."""
    if lang != "ja" or not name:
        return name
    return name.translate(_JA_CHARS)
