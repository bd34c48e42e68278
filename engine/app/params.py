"""A question as named parameters — the CLI's names, string values — as a page's query string and
the JSON API carry it: read and bounded, turned into cast() arguments, and written back as a
query string for links.

The parameters of cast and judge (and of the pages) are declared once, in the table below
(`PARAMS`: name, type, the values it takes, help in zh and ja); the CLI's options, the web's
parameter lists and the OpenAPI descriptions are made from it."""
from __future__ import annotations

from dataclasses import dataclass

from liuren.casting.cast import OPTIONS
from liuren.casting.symbols import GATES, SHORT_GENERALS
from liuren.errors import InputError

MAX_VALUE = 64           # characters in one parameter value
MAX_REPEAT = 40          # values of one repeatable parameter
MAX_QUERY = 4096         # characters in the whole query string
MAX_EXPR = 1500          # characters in an expression (/find's q and cooccur): expressions are long
LONG = {"q": MAX_EXPR, "cooccur": MAX_EXPR}      # the parameters /find lets be long (read_params' `long`)


# --------------------------------------------------------------------------- the table
@dataclass(frozen=True)
class Param:
    """One parameter, declared once: its name (the web's; the CLI's is --name, _ written -), its type,
    the values it takes where they are a closed list (`check`), and its help in zh and ja.  The CLI's
    argparse options (cli/args.py), the web's parameter lists (below) and /openapi.json's
    descriptions (web/app.py) are all made from this table."""
    name: str
    zh: str
    ja: str
    type: str = "str"            # str | bool (true/false on the web, a flag on the CLI) | multi (repeatable)
    check: tuple = ()            # the values it takes (empty: the casting or the judging checks the value)
    cli: bool = True             # the CLI has it as --name (False: the web only)
    metavar: str = None

    @property
    def flag(self):
        return "--" + self.name.replace("_", "-")

    def help(self, lang="zh"):
        return self.ja if lang == "ja" else self.zh


def _opt(name):
    return OPTIONS[name][0]


_TABLE = (
    # the moment or the board
    Param("moment", "時刻：ISO 日時（2026-11-30T14:05+08:00）或當地時刻 2026-11-30 14:05（讀於 tz）；缺則為此刻",
          "時刻：ISO 日時（2026-11-30T14:05+08:00）または現地時刻 2026-11-30 14:05（tz で読む）。省略すると現在", cli=False),
    Param("tz", "當地時刻之時區（IANA，如 Asia/Taipei；缺則為本機之時區）",
          "現地時刻のタイムゾーン（IANA、例 Asia/Tokyo。省略するとこの機械のゾーン）"),
    Param("day", "直接起課：日之干支，如 丁卯", "直接の起課：日の干支、例 丁卯"),
    Param("jiang", "直接起課：月將之支，如 亥", "直接の起課：月将の支、例 亥"),
    Param("hour", "直接起課：占時之支，如 丑", "直接の起課：占時の支、例 丑"),
    Param("on", "直接起課：月將加占時，如 亥加丑（干代其寄宮：午加辛）",
          "直接の起課：月将を占時に加える、例 亥加丑（干はその寄宮を表す：午加辛）"),
    Param("night", "用夜貴人，不論占時（缺則依占時定晝夜）",
          "時刻にかかわらず夜の貴人を用いる（省略すると占時で昼夜を定める）", type="bool"),
    Param("daytime", "用晝貴人，不論占時", "時刻にかかわらず昼の貴人を用いる", type="bool"),
    Param("year", "直接起課：年（2026 或 丙午），定太歲與行年", "直接の起課：年（2026 または 丙午）。太歳と行年を定める"),
    Param("month", "直接起課：月之干支（己亥），定月建與季節", "直接の起課：月の干支（己亥）。月建と季節を定める"),
    Param("born", "生年（1990）或生日（1990-02-01），定本命與行年", "生年（1990）または生年月日（1990-02-01）。本命と行年を定める"),
    Param("sex", "性別：m 男、f 女（定行年）", "性別：m 男、f 女（行年を定める）"),
    Param("benming", "直接給本命，如書中所載（寅，或 丙寅）；代 born", "本命を書物のように直接与える（寅、または 丙寅）。born の代わり"),
    Param("xingnian", "直接給行年（未，或 乙未）；代 born 與 sex", "行年を直接与える（未、または 乙未）。born と sex の代わり"),
    Param("partner_born", "另一人（夫或妻）之生年或生日", "もう一人（夫または妻）の生年または生年月日"),
    Param("partner_sex", "另一人之性別：m 或 f", "もう一人の性別：m または f"),
    Param("partner_benming", "另一人之本命，直接給出", "もう一人の本命を直接与える"),
    Param("partner_xingnian", "另一人之行年，直接給出", "もう一人の行年を直接与える"),
    Param("term_day", "直接起課：此日交此節氣（立春 … 大寒）", "直接の起課：この日にこの節気（立春 … 大寒）が入る"),
    Param("lunar", "直接起課：此日之農曆，作 月-日（9-3；閏4-10）", "直接の起課：この日の旧暦を 月-日 で（9-3、閏4-10）"),
    Param("rixiu", "直接給日宿，如書中所載：其宮之支（酉）", "日宿を書物のように直接与える：その宮の支（酉）"),
    Param("yuexiu", "直接給月宿，如書中所載：其宮之支（辰）", "月宿を書物のように直接与える：その宮の支（辰）"),
    # casting options (the first value is the default)
    Param("guiren", "貴人之法：甲牛（《六壬大全》，預設）、甲羊（《協紀辨方書》）或 先天（《六壬大全》卷一先天貴神圖，晝順夜逆，書謂「近不用」）",
          "貴人の取り方：甲牛（《六壬大全》、既定）、甲羊（《協紀辨方書》）または 先天（《六壬大全》巻一の先天貴神図、昼は順・夜は逆、書に「近不用」）",
          check=_opt("guiren")),
    Param("shehai", "涉害之取法：count 計涉害之數（預設）；mengzhong 以所臨地盤之孟仲；tianpan 以天盤之支之孟仲；"
                    "biyong 取生日、比日之神，不決則計數",
          "渉害の取り方：count 渉害の数を数える（既定）、mengzhong 臨む地盤の孟仲で、tianpan 天盤の支そのものの孟仲で、"
          "biyong 日を生じ日と比する神を取り、決まらなければ数える", check=_opt("shehai")),
    Param("day_boundary", "換日之時：23（子初換日，預設）或 0", "日が替わる時刻：23（子の初めに替わる、既定）または 0",
          check=_opt("day_boundary")),
    Param("yuejiang", "月將之換：zhongqi 逢中氣而換（預設）或 month 依月", "月将の替わり方：zhongqi 中気ごと（既定）または month 月ごと",
          check=_opt("yuejiang")),
    # the judging
    Param("question", "加一占問之法（其名見 /api/questions、liuren questions）",
          "占う事柄の手順を加える（名は /api/questions、liuren questions に）"),
    Param("variant", "以他說讀一條：ID=VARIANT，可重複（*=diben：全用底本之讀法）",
          "別の説で一条を読む：ID=VARIANT、繰り返し可（*=diben：すべて底本の読み）", type="multi", metavar="ID=VARIANT"),
    # what a page shows of the judgment
    Param("book", "只取引此書之斷：書（六壬大全、六壬經緯、六壬銀河櫂）、書與卷（六壬大全卷七）或書源號（107）；可重複",
          "この書を引く判断だけ：書（六壬大全・六壬經緯・六壬銀河櫂）、書と巻（六壬大全卷七）または典拠番号（107）。繰り返し可",
          type="multi", metavar="BOOK"),
    Param("kind", "只取此類（可重複）", "この種類だけ（繰り返し可）", type="multi", cli=False),
    Param("valence", "只取此吉凶（可重複）", "この吉凶だけ（繰り返し可）", type="multi", cli=False),
    Param("all", "並列起例之布置（網頁：true）", "起例の配置も示す（ウェブでは true）", type="bool"),
    Param("why", "一條之 id 或名：加其所以成立（HOW）或所以不成立（WHY-NOT）",
          "一条の id または名：成立の理由（HOW）または不成立の理由（WHY-NOT）を加える", cli=False),
    Param("lang", "語言：zh（漢文，預設）或 ja（日譯）", "言語：zh（漢文、既定）または ja（日譯）", check=("zh", "ja")),
    Param("trace", "true：並附推理之鏈", "true：推論の鎖も付ける", type="bool", cli=False),
    Param("format", "追跡之格式：json（預設）、graphml、dot、mermaid", "追跡の形式：json（既定）、graphml、dot、mermaid",
          check=("json", "graphml", "dot", "mermaid"), cli=False),
    # the rules and the 類相
    Param("source", "只取此書源之條（000 …）", "この典拠の条だけ（000 …）", cli=False),
    Param("name", "名、id 或標題之一部分", "名前・id・見出しの一部", cli=False),
    Param("page", "第幾頁", "何ページ目か", cli=False),
    Param("rule", "一條之 id 或名", "一条の id または名", cli=False),
    Param("symbol", "一支、一干或一天將", "支・干・天将のいずれか一つ", cli=False),
    Param("category", "一類，如 臟腑", "一つの分類、例 臓腑", cli=False),
    # the drill
    Param("seed", "課之號（同號同課）", "課の番号（同じ番号なら同じ課）", cli=False),
    Param("gate", "發用之門（賊克 比用 涉害 遙克 昴星 別責 八專 伏吟 返吟）",
          "発用の門（賊克 比用 涉害 遙克 昴星 別責 八專 伏吟 返吟）", cli=False),
    Param("k1", "學者所答之第一課（上神/下神）", "学ぶ者が答える第一課（上神/下神）", cli=False),
    Param("k2", "學者所答之第二課", "学ぶ者が答える第二課", cli=False),
    Param("k3", "學者所答之第三課", "学ぶ者が答える第三課", cli=False),
    Param("k4", "學者所答之第四課", "学ぶ者が答える第四課", cli=False),
    Param("chu", "學者所答之初傳", "学ぶ者が答える初伝", cli=False),
    Param("zhong", "學者所答之中傳", "学ぶ者が答える中伝", cli=False),
    Param("mo", "學者所答之末傳", "学ぶ者が答える末伝", cli=False),
    Param("men", "學者所答之發用之門", "学ぶ者が答える発用の門", check=GATES, cli=False),
    Param("ge", "學者所期之格（可重複）", "学ぶ者が見込む格（繰り返し可）", type="multi", cli=False),
    Param("ge_done", "true：所期之格已答完", "true：見込む格を答え終えた", type="bool", cli=False),
    Param("n", "課之數", "課の数", cli=False),
)
PARAMS = {p.name: p for p in _TABLE}

# find's own parameters (the /find page and /api/find; `liuren find` declares its options itself): the
# same names as the board's month and day mean a filter of the whole space there, so they are described apart
FIND_PARAMS = {p.name: p for p in (
    Param("q", "一式：規則之名或 id 與盤上之事（初傳=亥、鬼@初傳、貴人@卯、初傳 空、門=涉害），以 and、or、not 與括號相連；至多 1,500 字",
          "式：規則の名または id と盤の事実（初傳=亥、鬼@初傳、貴人@卯、初傳 空、門=涉害）を and・or・not と括弧でつなぐ。1,500 字まで", cli=False),
    Param("month", "只取此等月：支或干支（寅、丙寅；以逗號分隔）", "この月だけ：支または干支（寅、丙寅。カンマ区切り）", cli=False),
    Param("day", "只取此等日（甲子；以逗號分隔）", "この日だけ（甲子。カンマ区切り）", cli=False),
    Param("gate", "只取此門（涉害 …）或此課（元首、重審 …）", "この門（涉害 …）またはこの課（元首、重審 …）だけ", cli=False),
    Param("daynight", "晝或夜（缺則皆取）", "昼または夜（省略すると両方）", cli=False),
    Param("limit", "所示之盤（或行）數", "示す盤（または行）の数", cli=False),
    Param("offset", "先略過之盤數", "先に飛ばす盤の数", cli=False),
    Param("count_by", "依此計數成表（0 亦示）：month、gate、day、lesson、daynight、dim、ke（課）、一位（初傳：依其支）或一天將（貴人：依其所立之地盤支）；以逗號連二鍵則成交叉表",
          "これで数えた表（0 も示す）：month、gate、day、lesson、daynight、dim、ke（課）、位（初傳：その支で）または天将（貴人：立つ地盤の支で）。二つをカンマでつなぐとクロス表", cli=False),
    Param("cooccur", "與此式同見之規則（數、比例、提升度）", "この式と共に成立する規則（数・割合・リフト）", cli=False),
    Param("sort", "同見之序：lift（提升度，預設）或 count（數）", "共起の順：lift（リフト値、既定）または count（数）", check=("lift", "count"), cli=False),
    Param("min_count", "同見：所共之盤少於此數者不列", "共起：共に成立する盤がこの数より少ないものは示さない", cli=False),
    Param("order", "lessons（先列不同之課，預設）或 space（依全盤之序）", "lessons（異なる課を先に、既定）または space（全盤の順）", check=("lessons", "space"), cli=False),
    Param("dim", "只取此等盤：base（本局之盤）或變 hour、year、person、lunar、term 之盤", "この盤だけ：base（基本の盤）または hour・year・person・lunar・term を変えた盤", cli=False),
    Param("each_lesson", "true：每課只列一盤", "true：課ごとに一盤だけ示す", type="bool", cli=False),
)}


# /audit and /api/audit: their own parameters (the KB audit's findings, filtered)
AUDIT_PARAMS = {p.name: p for p in (
    Param("severity", "只取此等之重：error（誤）、warning（疑）、note（記）", "この重さだけ：error（誤り）・warning（疑い）・note（記録）",
          check=("error", "warning", "note"), cli=False),
    Param("check", "只取此種之審核（相反、重複、包含、不發、恆發、書異 …）", "この種類の検査だけ（相反・重複・包含・不成立・常成立・書の食い違い …）", cli=False),
    Param("kind", "只取此類之條（課體、格、畢法 …）", "この類の条だけ（課體・格・畢法 …）", cli=False),
    Param("book", "只取引此書之條", "この書を引く条だけ", cli=False),
    Param("file", "只取此知識庫文件之條", "この知識ベースのファイルの条だけ", cli=False),
    Param("limit", "所示之條數", "示す件数", cli=False),
    Param("offset", "先略過之條數", "先に飛ばす件数", cli=False),
)}

# which parameters each page takes (the names are the table's)
CAST_KEYS = ("moment", "tz", "day", "jiang", "hour", "on", "night", "daytime", "year", "month", "born", "sex",
             "benming", "xingnian", "partner_born", "partner_sex", "partner_benming", "partner_xingnian",
             "term_day", "lunar", "rixiu", "yuexiu", "guiren", "shehai", "day_boundary", "yuejiang")
CAST_OPTIONS = tuple(OPTIONS)            # guiren shehai day_boundary yuejiang: the casting's named options
JUDGE_KEYS = ("question", "variant")
FILTER_KEYS = ("book", "kind", "valence", "all")
VIEW_KEYS = ("why", "lang", "trace")
MULTI = {p.name for p in _TABLE if p.type == "multi"}
# a parameter may also be written as the CLI writes it (day-boundary for day_boundary)
ALIASES = {p.name.replace("_", "-"): p.name for p in _TABLE if "_" in p.name}

BOARD_KEYS = CAST_KEYS + JUDGE_KEYS + FILTER_KEYS + VIEW_KEYS
# the drill's parameters: the lesson (seed, a gate's curriculum), the answers step by step, the page's language
PRACTICE_KEYS = ("seed", "gate", "shehai", "k1", "k2", "k3", "k4", "chu", "zhong", "mo", "men", "ge", "ge_done", "n", "lang")
SHEET_KEYS = ("seed", "n", "gate", "shehai", "lang")          # a worksheet: its lessons, never an answer
LANG_KEYS = ("lang",)                                           # the pages that take only their language
RULES_KEYS = ("kind", "source", "book", "name", "lang", "page")  # /rules (the page; /api/rules has no page)
API_RULES_KEYS = ("kind", "source", "book", "name", "lang")
WHY_KEYS = CAST_KEYS + JUDGE_KEYS + ("lang",)                   # /api/why/{rule}
TRACE_KEYS = CAST_KEYS + JUDGE_KEYS + ("format", "why")         # /api/trace
LOOKUP_KEYS = ("symbol", "category")                            # /api/lookup
GENERALS = tuple(SHORT_GENERALS.values())
TRUE, FALSE = ("1", "true", "on", "yes"), ("0", "false", "off", "no")



def read_params(items, allowed, query_len=0, multi=None, long=None):
    """A request's query items as {name: value or [values]}: only the names this page takes,
    each value bounded in size and passed on unchanged, empty values dropped (an empty form field
    is no value).  long: {name: characters} for the few values that may be longer than MAX_VALUE
    (an expression); the query string may then be longer by what they take percent-encoded."""
    long = long or {}
    max_query = MAX_QUERY + 9 * sum(long.values())
    if query_len > max_query:
        raise InputError(f"the query is too long ({query_len} characters; at most {max_query})")
    out = {}
    for k, v in items:
        k = ALIASES.get(k, k)
        if k not in allowed:
            raise InputError(f"unknown parameter {_short(k)!r} (this page takes: {', '.join(allowed)})")
        if len(v) > long.get(k, MAX_VALUE):
            raise InputError(f"{k} {_short(v)!r}… is too long ({len(v)} characters; at most {long.get(k, MAX_VALUE)})")
        if v == "":                 # an empty form field is no value; anything else goes on as given
            continue
        if k in (MULTI if multi is None else multi):
            out.setdefault(k, []).append(v)
            if len(out[k]) > MAX_REPEAT:
                raise InputError(f"{k} is given more than {MAX_REPEAT} times")
        elif k in out:
            raise InputError(f"{k} is given twice ({out[k]!r} and {v!r}): give it once")
        else:
            out[k] = v
    return out



def _short(s, n=40):
    return s if len(s) <= n else s[:n]



def flag(p, name):
    v = p.get(name)
    if v is None:
        return None
    if v.lower() in TRUE:
        return True
    if v.lower() in FALSE:
        return False
    raise InputError(f"{name} {v!r}: give true or false")



def cast_kwargs(p):
    """cast() keyword arguments from the parameters (the CLI's names; night=true|false, or the
    CLI's two flags night / daytime)."""
    kw = {k: p[k] for k in CAST_KEYS if k in p and k not in ("night", "daytime")}
    night, daytime = flag(p, "night"), flag(p, "daytime")
    if night is not None and daytime is not None:
        raise InputError("give night or daytime, not both")
    if night is not None:
        kw["night"] = night
    elif daytime is not None:
        kw["night"] = not daytime
    return kw



def query_string(p, drop=(), **extra):
    """The parameters back as a query string (for links), in the order of BOARD_KEYS."""
    from urllib.parse import urlencode
    d = {k: v for k, v in p.items() if k not in drop}
    d.update({k: v for k, v in extra.items() if v is not None})
    order = {k: i for i, k in enumerate(BOARD_KEYS + tuple(k for k in PRACTICE_KEYS if k not in BOARD_KEYS))}
    items = []
    for k in sorted(d, key=lambda k: order.get(k, 99)):
        v = d[k]
        for x in (v if isinstance(v, list) else [v]):
            items.append((k, x))
    return urlencode(items)



def board_query(b):
    """A KB example board (cast arguments) as a /board query string."""
    p = {}
    for k, v in b.items():
        if k == "variants" and isinstance(v, dict):
            p["variant"] = [f"{i}={x}" for i, x in v.items()]
        elif v is True or v is False:
            p[k] = "true" if v else "false"
        else:
            p[k] = str(v)
    return query_string(p)


