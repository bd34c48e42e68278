"""The board as facts: the built-in fact vocabulary and Board -> fact dicts.

A fact is a dict whose key "t" is its type.  Built-in types are asserted from the cast board;
every KB table is a fact type of its own (one fact per expanded row, with "id" = the row id); rules
assert derived types (空, 煞, 見, 格 …) declared by their `then`.
"""

# type -> fields and what they mean (also printed by `liuren kb facts`)
BUILTIN_FACTS = {
    "位": {"fields": ["位", "支", "干", "干支", "盤", "天", "地"], "text": "{位} {支}",
          "doc": "a board position and its branch: 日干 (支 = its 寄宮, 干 = the stem), 日支, 干上, 干陰, 支上, "
                 "支陰, 初傳, 中傳, 末傳, 占時, 月將, 旬首, 旬尾; when known 月建, 太歲, 本命, 行年 (干支 too).  "
                 "盤 says which plate the position's branch is on (天: a 天盤 branch, 地: a 地盤 position, 無: no "
                 "place, as 旬首 旬尾); 天 and 地 are the place: the 天盤 branch there and the 地盤 position under "
                 "it (for 日干 寄未 on 巳加子: 天 子, 地 未 — the place of 干上 too)"},
    "盤": {"fields": ["天", "地", "將"], "text": "{將} 乘 {天} 臨 {地}",
          "doc": "the plate: 天盤 branch 天 sits on 地盤 position 地 and carries the general 將 (所乘 / 所臨)"},
    "課": {"fields": ["課", "上", "下", "下支"], "text": "第{課}課 {上}/{下}",
          "doc": "the four lessons 一二三四: 上 over 下 (lesson 一's 下 is the day stem, 下支 its 寄宮)"},
    "傳": {"fields": ["初", "中", "末", "門", "體"], "text": "三傳 {初}{中}{末}（{門}・{體}）",
          "doc": "the three transmissions, with the gate (門) and subtype (體) that produced them"},
    "日": {"fields": ["干", "支", "干支", "陰陽", "旬", "旬首", "旬尾"], "text": "{干支}日（{陰陽}日，{旬}旬）",
          "doc": "the day: stem, branch, 陰陽 (陽 = 剛日, 陰 = 柔日), its 旬 (甲子 …) with 旬首/旬尾 branches"},
    "時令": {"fields": ["月建", "四時", "五時"], "text": "{月建}月，{四時}令（五時 {五時}）",
            "doc": "the season (only when the month is known): 四時 春夏秋冬; 五時 also has 季 for 辰未戌丑 months"},
    "晝夜": {"fields": ["晝夜"], "text": "{晝夜}占", "doc": "晝 or 夜, as used for 貴人"},
    "遁": {"fields": ["支", "干"], "text": "{支} 遁{干}", "doc": "遁干: within the day's 旬 the branch 支 carries the stem 干"},
    "農曆": {"fields": ["月", "日", "晦"], "text": "農曆{月}月{日}日",
             "doc": "the lunar date of the day (moment casts only): month, day, 晦 是 on the month's last day"},
    "節日": {"fields": ["節"], "text": "今日交{節}",
             "doc": "the day holds the 節氣 節 (立春 … 大寒): from a moment's calendar, or --term-day on a board given "
                    "by its day (卷九 ¶625 天禍, ¶723 天寇)"},
    "夫妻行年": {"fields": ["夫", "夫干", "妻", "妻干"], "text": "夫行年 {夫干}{夫}，妻行年 {妻干}{妻}",
               "doc": "the 行年 of husband and wife (branch and stem), when the asker and the second person "
                      "(--partner-…) are a man and a woman and both 行年 are known (卷八 ¶196–249 繁昌, 旺孕; ¶281 解離); "
                      "a 行年 given as a bare branch has an empty 干"},
    "宿": {"fields": ["類", "支"], "text": "所給{類}在{支}宮",
          "doc": "the 日宿 or 月宿 given directly (--rixiu, --yuexiu), as the books state it: 類 日宿|月宿, 支 its 宮"},
    "問": {"fields": ["問"], "text": "所問：{問}", "doc": "the question being asked (liuren judge --question)"},
    "人": {"fields": ["性別"], "text": "問者 {性別}", "doc": "the asker's sex when given (男/女)"},
    # asserted by the engine itself for every firing of a judgment rule (kinds 格 神煞 斷 總則 類相 占驗)
    "判": {"fields": ["規", "名", "類"], "text": "已成 {名}（{規}）",
          "doc": "a judgment has fired: 規 = the rule or table-row id reported, 名 its name, 類 its kind"},
}
RESERVED_FIELDS = {"t", "id"}
# the kinds of what a rule reports: judgments, and the placements (起例) they rest on
JUDGMENT_KINDS = ("課體", "格", "畢法", "神煞", "斷", "總則", "類相", "占驗")
RULE_KINDS = JUDGMENT_KINDS + ("起例",)

# Which plate each position's branch stands on (kb/README.md, "Positions and places"): the 四課
# 上神, the 三傳 and 月將 are 天盤 branches; 日干 (its 寄宮), 日支, 占時, 本命, 行年, 太歲 and 月建
# are 地盤 positions, whose 上神 is the 天盤 branch over them; 旬首 and 旬尾 name branches, not places.
PLATE_OF_POSITION = {
    **dict.fromkeys(("干上", "干陰", "支上", "支陰", "初傳", "中傳", "末傳", "月將"), "天"),
    **dict.fromkeys(("日干", "日支", "占時", "本命", "行年", "太歲", "月建"), "地"),
    **dict.fromkeys(("旬首", "旬尾"), "無"),
}


def place(board, pos, branch):
    """(盤, 天, 地) of a position: its plate, the 天盤 branch at its place and the 地盤 position
    under it ((無, None, None) for a branch that is no place)."""
    plate = PLATE_OF_POSITION[pos]
    if plate == "天":
        return plate, branch, board.under(branch)
    if plate == "地":
        return plate, board.over(branch), branch
    return plate, None, None


def board_facts(board, question=None):
    """All built-in facts of a cast board, as dicts (deterministic order)."""
    out = []

    def add(t, **kw):
        out.append({"t": t, **{k: v for k, v in kw.items() if v is not None}})

    d = board.day
    add("日", 干=d[0], 支=d[1], 干支=d, 陰陽=board.day_yinyang, 旬=board.xun.name,
        旬首=board.xun.head, 旬尾=board.xun.tail)
    for pos, branch in board.positions().items():
        plate, heaven, earth = place(board, pos, branch)
        add("位", 位=pos, 支=branch, 干=d[0] if pos == "日干" else None,
            干支=board.ganzhi_of(pos) if pos in ("本命", "行年", "太歲", "月建") else None,
            盤=plate, 天=heaven, 地=earth)
    for earth, heaven in board.plate_items():
        add("盤", 天=heaven, 地=earth, 將=board.generals[heaven])
    for n, l in zip("一二三四", board.lessons):
        add("課", 課=n, 上=l.upper, 下=l.lower, 下支=l.lower_branch)
    t = board.transmissions
    add("傳", 初=t.branches[0], 中=t.branches[1], 末=t.branches[2], 門=t.gate, 體=t.subtype)
    if board.season:
        add("時令", 月建=board.month_branch, 四時=board.season[0], 五時=board.season[1])
    add("晝夜", 晝夜="晝" if board.daytime else "夜")
    for b, s in board.dungan.items():
        if s:
            add("遁", 支=b, 干=s)
    if board.sex:
        add("人", 性別=board.sex)
    if board.lunar:
        add("農曆", 月=board.lunar[0], 日=board.lunar[1], 晦="是" if board.lunar[2] else "否")
    if board.term_day:
        add("節日", 節=board.term_day)
    for kind, branch in board.xiu:
        add("宿", 類=kind, 支=branch)
    if board.partner and board.sex and board.xingnian and board.partner[3] and {board.sex, board.partner[0]} == {"男", "女"}:
        # a 行年 given as a bare branch (the books' 「行年在午」) has no stem: 干 is empty, and no 干合 holds on it
        mine = (board.xingnian_gz or " " + board.xingnian)
        theirs = (board.partner[4] or " " + board.partner[3])
        husband, wife = (mine, theirs) if board.sex == "男" else (theirs, mine)
        add("夫妻行年", 夫=husband[1], 夫干=husband[0].strip(), 妻=wife[1], 妻干=wife[0].strip())
    if question:
        add("問", 問=question)
    return out


def value_words_ok(words, fields):
    """`words:` of a fact declaration or a table: {field: {value: the words a reader sees for it}}."""
    return isinstance(words, dict) and all(f in fields and isinstance(m, dict) and m and all(
        isinstance(v, str) and v for v in m.values()) for f, m in words.items())
