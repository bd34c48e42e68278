"""The sentences of 發用之由 — how the 三傳 was cast — in each language, side by side.

The casting (engine/casting/cast.py) records each step by a key and its values (Step.key,
Step.args) besides its Chinese sentence (Step.text, as the JSON carries it); a page, a chain, the
drill and the CLI say the step in the reader's language from here.  The zh sentence of a key is
the casting's own, word for word (tests/test_step_words.py checks it over the 720 lessons).  The
verses a step cites are quotes and stay as the book has them.

    step_text(step, "ja")      # a Step, or a dict with key/args/text (a chain's step, a trace node)
"""
from __future__ import annotations

# key -> {lang: sentence}; {name} is one of the step's values.  A key "a+b" says a's sentence, then b's.
STEPS = {
    # 天地盤 and 四課
    "plate": {"zh": "月將加占時：天盤移 {offset} 位（各支加其位）",
              "ja": "月将を占時に加える：天盤を {offset} 位移す（各支がそれぞれの位に加わる）"},
    "plate-fuyin": {"zh": "月將加占時：天盤移 {offset} 位（伏吟）",
                    "ja": "月将を占時に加える：天盤は {offset} 位で動かず、各支が本位に居る（伏吟）"},
    "plate-fanyin": {"zh": "月將加占時：天盤移 {offset} 位（返吟）",
                     "ja": "月将を占時に加える：天盤を {offset} 位移し、各支が衝の位に加わる（返吟）"},
    "lessons": {"zh": "四課：一課 {u1}/{l1}　二課 {u2}/{l2}　三課 {u3}/{l3}　四課 {u4}/{l4}",
                "ja": "四課を立てる：第一課 {u1}/{l1}　第二課 {u2}/{l2}　第三課 {u3}/{l3}　第四課 {u4}/{l4}"},
    # 伏吟
    "fuyin-ke": {"zh": "伏吟有克：{first} 與其下相克，為用",
                 "ja": "伏吟で剋あり：{first} がその下と相剋するので、これを用とする"},
    "fuyin-ziren": {"zh": "伏吟無克，剛日取干上神 {first} 為用（自任）",
                    "ja": "伏吟で剋なし。剛日は干上神 {first} を用とする（自任）"},
    "fuyin-zixin": {"zh": "伏吟無克，柔日取支上神 {first} 為用（自信）",
                    "ja": "伏吟で剋なし。柔日は支上神 {first} を用とする（自信）"},
    "fuyin-zixing": {"zh": "初傳 {first} 自刑，次傳取{side}上神 {mid}（杜傳）",
                     "ja": "初伝 {first} は自刑なので、次伝は{side}上神 {mid} を取る（杜伝）"},
    "fuyin-xing-mid": {"zh": "中傳取初傳所刑：{first} 刑 {mid}",
                       "ja": "中伝は初伝が刑するものを取る：{first} は {mid} を刑す"},
    "fuyin-zixing-last": {"zh": "中傳 {mid} 又自刑，末傳取其沖 {last}（杜傳）",
                          "ja": "中伝 {mid} もまた自刑なので、末伝はその沖 {last} を取る（杜伝）"},
    "fuyin-dufu": {"zh": "中傳 {mid} 刑回初傳 {first}（{first}{mid}兩刑），不複再傳，末傳取其沖 {last}（杜傳）",
                   "ja": "中伝 {mid} は初伝 {first} を刑し返す（{first}{mid}の相刑）。再びは伝えず、末伝はその沖 {last} を取る（杜伝）"},
    "fuyin-xing-last": {"zh": "末傳取中傳所刑：{mid} 刑 {last}",
                        "ja": "末伝は中伝が刑するものを取る：{mid} は {last} を刑す"},
    # 賊克 and 比用
    "zeike-zei": {"zh": "下賊上：{on}（下克上）",
                  "ja": "下賊上（下が上を剋す）：{on}"},
    "zeike-ke": {"zh": "無下賊，取上克下：{on}（上克下）",
                 "ja": "下賊上はなく、上剋下（上が下を剋す）を取る：{on}"},
    "zeike-one": {"zh": "只一課，{first} 為初傳（{subtype}）",
                  "ja": "ただ一課なので、{first} を初伝とする（{subtype}）"},
    "biyong": {"zh": "{uppers} 俱{kind}；{yy}日取{yy}神 {first}（知一）",
               "ja": "{uppers} はいずれも{kind}。{yy}日なので{yy}神 {first} を取る（知一）"},
    "biyong-shehai-bi": {"zh": "{uppers} 俱{kind}，俱比，入涉害",
                         "ja": "{uppers} はいずれも{kind}で、いずれも日と陰陽が同じ（倶比）なので、渉害に入る"},
    "biyong-shehai-bubi": {"zh": "{uppers} 俱{kind}，俱不比，入涉害",
                           "ja": "{uppers} はいずれも{kind}で、いずれも日と陰陽が異なる（倶不比）ので、渉害に入る"},
    # 涉害
    "shehai-count": {"zh": "{u}加{start}，歸本家 {u}，歷 {seen}，{n} 重",
                     "ja": "{u}加{start}：本家 {u} に帰るまでに {seen} で剋に遭い、{n} 重"},
    "shehai-count-none": {"zh": "{u}加{start}，歸本家 {u}，歷 無，{n} 重",
                          "ja": "{u}加{start}：本家 {u} に帰るまで剋に遭わず、{n} 重"},
    "shehai-deepest": {"zh": "{first} 涉害最深，為初傳",
                       "ja": "{first} は渉害が最も深いので、初伝とする"},
    "shehai-tie": {"zh": "{tied} 涉害俱 {best} 重，深淺相等",
                   "ja": "{tied} は渉害がいずれも {best} 重で、深浅が等しい"},
    "shehai-mengzhong": {"zh": "{tied}：依先孟仲之取法，不計涉害之數，逕以孟仲定之",
                         "ja": "{tied}：孟仲を先とする取り方により、渉害の数を数えず、ただちに孟仲で定める"},
    "shehai-tianpan": {"zh": "{tied}：依天盤孟仲之取法，不計涉害之數，逕以天盤之支之孟仲定之",
                       "ja": "{tied}：天盤の孟仲による取り方により、渉害の数を数えず、ただちに天盤の支そのものの孟仲で定める"},
    "shehai-tian-meng": {"zh": "{first} 為孟神，為初傳（見機）",
                         "ja": "{first} は孟神なので、初伝とする（見機）"},
    "shehai-tian-zhong": {"zh": "{first} 為仲神，為初傳（察微）",
                          "ja": "{first} は仲神なので、初伝とする（察微）"},
    "shehai-biyong": {"zh": "{tied}：依比用之取法，取生日、比日之神 {first} 為初傳（比用）",
                      "ja": "{tied}：比用の取り方により、日を生じ、または日と同じ五行の神 {first} を初伝とする（比用）"},
    "shehai-biyong-none": {"zh": "{tied}：生日、比日之神無，比用不決，計涉害之數",
                           "ja": "{tied}：日を生じ日と比する神がなく、比用では決まらないので、渉害の数を数える"},
    "shehai-biyong-many": {"zh": "{tied}：生日、比日之神不止一，比用不決，計涉害之數",
                           "ja": "{tied}：日を生じ日と比する神が一つでなく、比用では決まらないので、渉害の数を数える"},
    "shehai-meng": {"zh": "{first} 臨孟（{under}），為初傳（見機）",
                    "ja": "{first} は孟（{under}）に臨むので、初伝とする（見機）"},
    "shehai-zhong": {"zh": "{first} 臨仲（{under}），為初傳（察微）",
                     "ja": "{first} は仲（{under}）に臨むので、初伝とする（察微）"},
    "shehai-fudeng-yang": {"zh": "孟仲亦等，剛日取干上神 {first} 為初傳（復等）",
                           "ja": "孟仲もまた等しい。剛日は干上神 {first} を初伝とする（復等）"},
    "shehai-fudeng-yin": {"zh": "孟仲亦等，柔日取支上神 {first} 為初傳（復等）",
                          "ja": "孟仲もまた等しい。柔日は支上神 {first} を初伝とする（復等）"},
    # the other 涉害 option, named as the form names it, where it gives another 初傳
    "alt-mengzhong": {"zh": "；另一取法（先孟仲：不計涉害之數，逕以孟仲季取之），初傳為 {alt}，三傳 {alt_chuan}（{alt_sub}）",
                      "ja": "。別の取り方（孟仲を先とする：渉害の数を数えず、孟仲季で取る）では、初伝は {alt}、三伝は {alt_chuan}（{alt_sub}）"},
    "alt-count": {"zh": "；另一取法（計涉害之數：數歸本家所歷之克，取其深者），初傳為 {alt}，三傳 {alt_chuan}（{alt_sub}）",
                  "ja": "。別の取り方（渉害の数を数える：本家に帰るまでに遭う剋を数え、深いものを取る）では、初伝は {alt}、三伝は {alt_chuan}（{alt_sub}）"},
    # 返吟 without 克
    "fanyin": {"zh": "返吟無克：取日支 {zhi} 之驛馬 {first} 為初傳，中傳支上神 {u3}，末傳干上神 {u1}（井欄射）",
               "ja": "返吟で剋なし：日支 {zhi} の駅馬 {first} を初伝とし、中伝は支上神 {u3}、末伝は干上神 {u1}（井欄射）"},
    # 八專
    "bazhuan-yang": {"zh": "八專無克（論克不論遙）：剛日自干上神 {u1} 順數三位得 {first} 為初傳，中末皆干上神",
                     "ja": "八専で剋なし（剋を論じて遥を論じない）：剛日は干上神 {u1} から順に三位数えて {first} を初伝とし、中伝・末伝はともに干上神"},
    "bazhuan-yin": {"zh": "八專無克（論克不論遙）：柔日自第四課上神 {u4} 逆數三位得 {first} 為初傳，中末皆干上神",
                    "ja": "八専で剋なし（剋を論じて遥を論じない）：柔日は第四課の上神 {u4} から逆に三位数えて {first} を初伝とし、中伝・末伝はともに干上神"},
    # 遙克
    "yaoke-hao": {"zh": "四課無克，神遙克日：{group}，{first} 為初傳（蒿矢）",
                  "ja": "四課に剋なし。神が日を遥剋する：{group}。{first} を初伝とする（蒿矢）"},
    "yaoke-hao-pick": {"zh": "四課無克，神遙克日：{group}，{group} 中取與日同陰陽者，{first} 為初傳（蒿矢）",
                       "ja": "四課に剋なし。神が日を遥剋する：{group}。そのうち日と陰陽を同じくする {first} を初伝とする（蒿矢）"},
    "yaoke-tan": {"zh": "四課無克，日遙克神：{group}，{first} 為初傳（彈射）",
                  "ja": "四課に剋なし。日が神を遥剋する：{group}。{first} を初伝とする（弾射）"},
    "yaoke-tan-pick": {"zh": "四課無克，日遙克神：{group}，{group} 中取與日同陰陽者，{first} 為初傳（彈射）",
                       "ja": "四課に剋なし。日が神を遥剋する：{group}。そのうち日と陰陽を同じくする {first} を初伝とする（弾射）"},
    # 昴星
    "maoxing-yang": {"zh": "無克無遙，四課俱全：剛日仰視酉上神 {first} 為初傳",
                     "ja": "剋も遥剋もなく、四課がそろう：剛日は仰いで酉の上神 {first} を見て初伝とする"},
    "maoxing-order-yang": {"zh": "剛日先辰後日：中傳支上神 {u3}，末傳干上神 {u1}（虎視）",
                           "ja": "剛日は辰を先に日を後にする：中伝は支上神 {u3}、末伝は干上神 {u1}（虎視）"},
    "maoxing-yin": {"zh": "無克無遙，四課俱全：柔日俯察天盤酉下之地盤 {first} 為初傳",
                    "ja": "剋も遥剋もなく、四課がそろう：柔日は俯して天盤の酉の下の地盤 {first} を見て初伝とする"},
    "maoxing-order-yin": {"zh": "柔日先日後辰：中傳干上神 {u1}，末傳支上神 {u3}（冬蛇掩目）",
                          "ja": "柔日は日を先に辰を後にする：中伝は干上神 {u1}、末伝は支上神 {u3}（冬蛇掩目）"},
    # 別責
    "biezhe-yang": {"zh": "無克無遙，四課不全：剛日取干合 {partner}（寄{gong}）上神 {first} 為初傳，中末皆干上神 {u1}",
                    "ja": "剋も遥剋もなく、四課がそろわない：剛日は干合 {partner}（{gong}に寄す）の上神 {first} を初伝とし、中伝・末伝はともに干上神 {u1}"},
    "biezhe-yin": {"zh": "無克無遙，四課不全：柔日取支前三合 {first} 為初傳，中末皆干上神 {u1}",
                   "ja": "剋も遥剋もなく、四課がそろわない：柔日は支の前の三合 {first} を初伝とし、中伝・末伝はともに干上神 {u1}"},
    # 中末傳
    "chuanfa": {"zh": "初傳 {a}，{a} 上見 {b} 為中傳，{b} 上見 {c} 為末傳",
                "ja": "初伝 {a}、{a} の上に見る {b} を中伝、{b} の上に見る {c} を末伝とする"},
}

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
