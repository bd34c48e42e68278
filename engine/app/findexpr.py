"""The expression language of `liuren find` and /find: its terms (rules, and facts of the board:
P=X, X@P, G@B, P 空, gate=G …), its tokens and an iterative parser to a tree, and the walks over
a tree (its names, its facts, its value by fold) — without recursion, whatever its depth.  The
queries that answer a tree from the index are in find.py."""
from __future__ import annotations

import re

from liuren.casting.symbols import BRANCHES, GATES, JIAZI
from liuren.errors import InputError
from liuren.explain import index as X


DAYNIGHT = {"day": False, "晝": False, "night": True, "夜": True}
DN_WORD = {False: "晝", True: "夜"}
OPS = {"and", "or", "not"}


class FindError(InputError):
    """A bad expression or filter: one line naming the token."""


DIM_WORDS = {None: "base", "hour": "占時", "year": "太歲", "person": "本命・行年", "lunar": "農曆", "term": "節日"}


def dim_word(v):
    """A dimension as typed (base, hour, 占時 …) → its word in the masks, or None."""
    alias = {"base": "base", "本局": "base", "hour": "占時", "year": "太歲", "person": "本命・行年", "本命": "本命・行年",
             "行年": "本命・行年", "lunar": "農曆", "term": "節日"}
    v = alias.get(v, v)
    return v if v in DIM_WORDS.values() else None


# --------------------------------------------------------------------------- expressions
# An expression's atoms: a rule (its name, alias, label or id), or a fact of the board:
#   P=X      position P's branch is X (初傳=亥, 干上=子; at 日干 its 寄宮)
#   X@P      a 神煞 or 天將 X seen at position P (鬼@初傳, 貴人@日干): the KB's 「X 見於 P」
#   G@B      a 天將 G on 地盤 branch B (貴人@卯): G rides the 天盤 branch over B
#   P 空     P's branch is void (初傳 空, or 初傳空)
#   gate=G   the 三傳's gate (gate=涉害, 門=涉害); 課=元首 its 課; month=寅, day=甲子, daynight=夜
# joined by and, or, not and parentheses (not binds tightest, then and, then or).
MAX_TOKENS = 20000          # a bound on an expression's size; the parser itself is iterative
POSITIONS = ("日干", "日支", "干上", "干陰", "支上", "支陰", "初傳", "中傳", "末傳", "占時", "月將", "旬首", "旬尾",
             "月建", "太歲", "本命", "行年")
_POS_ALIAS = {"初伝": "初傳", "中伝": "中傳", "末伝": "末傳", "月将": "月將", "太歳": "太歲"}
GENERALS = ("貴人", "螣蛇", "朱雀", "六合", "勾陳", "青龍", "天空", "白虎", "太常", "玄武", "太陰", "天后")
_GEN_ALIAS = {"青竜": "青龍", "勾陳": "勾陳", "騰蛇": "螣蛇", "天後": "天后", **{k: v for k, v in zip("貴蛇雀合勾龍空虎常玄陰后", GENERALS)}}
_KEYS = {"gate": "門", "門": "門", "發用": "門", "lesson": "體", "課": "體", "體": "體", "month": "month", "月": "month",
         "day": "day", "日": "day", "daynight": "daynight", "晝夜": "daynight", "昼夜": "daynight", "dim": "dim",
         "所變": "dim"}
GRAMMAR = """\
EXPR joins terms with and, or, not and parentheses (not binds tightest, then and, then or):
  RULE      a rule's name, alias, Japanese label or id        斬首   元首課   ge-zhanshou
  P=X       position P's branch is X                           初傳=亥   干上=子
  X@P       a 神煞 or 天將 X seen at position P                 鬼@初傳   貴人@日干
  G@B       a 天將 G on the 地盤 branch B                        貴人@卯
  P 空      P's branch is void (旬空)                          初傳 空
  gate=G    the gate of the 三傳 (or 課=元首), month=寅, day=甲子, daynight=夜
  dim=D     base: the base boards; hour, year, person, lunar, term: the boards varying one input
positions: 日干 日支 干上 干陰 支上 支陰 初傳 中傳 末傳 占時 月將 本命 行年 太歲 月建 旬首 旬尾
examples:
  liuren find '斬首 and 元首課'
  liuren find '初傳=亥 and 鬼@初傳'
  liuren find '貴人@卯 and not gate=涉害' --count-by month,gate
  liuren find '初傳 空 and (返吟 or 伏吟)' --count-by 初傳
  liuren find --cooccur '初傳 空' --sort count
  liuren find dq09-duchuan --count-by dim
  liuren find '斬首' --export boards.sqlite"""
_TOKEN = re.compile(r'\s*(?:(?P<paren>[()（）])|"(?P<dq>[^"]*)"|\'(?P<sq>[^\']*)\'|(?P<word>[^\s()（）"\']+))')


def tokens(expr):
    if not isinstance(expr, str) or not expr.strip():
        raise FindError("find: give an expression, e.g. '斬首 and 元首課'")
    out, pos = [], 0
    expr = expr.strip()
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if m is None or m.end() == pos:
            raise FindError(f"find: cannot read {expr[pos:pos + 20]!r} (an unclosed quote?)")
        pos = m.end()
        if len(out) >= MAX_TOKENS:
            raise FindError(f"find: the expression has more than {MAX_TOKENS} terms and operators")
        if m.group("paren"):
            out.append(("(" if m.group("paren") in "(（" else ")", m.group("paren")))
        elif m.group("word") is not None and m.group("word").lower() in OPS:
            out.append((m.group("word").lower(), m.group("word")))
        elif m.group("word") is not None and any(c in m.group("word") for c in "=@＝＠"):
            out.append(("fact", m.group("word")))
        else:
            w = m.group("word") if m.group("word") is not None else (m.group("dq") if m.group("dq") is not None
                                                                     else m.group("sq"))
            if not w.strip():
                raise FindError("find: an empty quoted name")
            out.append(("name", w.strip()))
    # 「初傳 空」: a position followed by 空 is one term
    merged = []
    for t in out:
        if t == ("name", "空") and merged and merged[-1][0] == "name" and _position(merged[-1][1]):
            merged[-1] = ("fact", merged[-1][1] + " 空")
        else:
            merged.append(t)
    return merged


def _position(w):
    w = _POS_ALIAS.get(w, w)
    return w if w in POSITIONS else None


def fact_key(text):
    """A fact term's key (see the grammar above); a malformed term is a FindError naming it."""
    t = text.replace("＝", "=").replace("＠", "@").strip()
    if t.endswith("空") and "=" not in t and "@" not in t:
        p = _position(t[:-1].strip())
        if p:
            return ("空", p)
    if t.count("=") + t.count("@") != 1:
        raise FindError(f"find: {text!r}: write one of P=X (初傳=亥), X@P (鬼@初傳), G@B (貴人@卯), gate=G")
    if "=" in t:
        a, b = (x.strip() for x in t.split("="))
        if _position(a):
            if len(b) != 1 or b not in BRANCHES:
                raise FindError(f"find: {text!r}: {b!r} is not a branch (子 … 亥)")
            return ("=", _position(a), b)
        k = _KEYS.get(a.lower() if a.isascii() else a)
        if k is None:
            raise FindError(f"find: {text!r}: {a!r} is neither a position ({'、'.join(POSITIONS[:9])} …) "
                            "nor gate, 課, month, day, daynight")
        if k == "門":
            b = b[:-1] if b.endswith("門") and b[:-1] in GATES else b
            if b not in GATES:
                raise FindError(f"find: {text!r}: {b!r} is not a gate ({' '.join(GATES)})")
        elif k == "month":
            m = next((x for x in X.MONTHS if x == b or x[1] == b), None)
            if m is None:
                raise FindError(f"find: {text!r}: {b!r} is not a month branch (寅 … 丑)")
            b = m
        elif k == "day":
            if b not in JIAZI:
                raise FindError(f"find: {text!r}: {b!r} is not a day 干支 (甲子 … 癸亥)")
        elif k == "daynight":
            if b not in DAYNIGHT and b not in ("昼",):
                raise FindError(f"find: {text!r}: {b!r} is not day or night (晝 or 夜)")
            b = DN_WORD[DAYNIGHT.get(b, False)]
        elif k == "dim":
            if dim_word(b) is None:
                raise FindError(f"find: {text!r}: {b!r} is not base or a dimension (hour, year, person, lunar, term)")
            b = dim_word(b)
        return (k, b)
    a, b = (x.strip() for x in t.split("@"))
    if not a or not b:
        raise FindError(f"find: {text!r}: write X@P, e.g. 鬼@初傳 or 貴人@卯")
    if len(b) == 1 and b in BRANCHES:
        g = _GEN_ALIAS.get(a, a)
        if g not in GENERALS:
            raise FindError(f"find: {text!r}: on a 地盤 branch only a 天將 is placed ({'、'.join(GENERALS)}); "
                            f"a 神煞 is seen at a position (鬼@初傳)")
        return ("將", g, b)
    p = _position(b)
    if p is None:
        raise FindError(f"find: {text!r}: {b!r} is neither a position ({'、'.join(POSITIONS[:9])} …) nor a branch")
    return ("@", _GEN_ALIAS.get(a, a) if _GEN_ALIAS.get(a) in GENERALS else a, p)


_PREC = {"or": 1, "and": 2, "not": 3}


def parse(expr):
    """The expression as a tree: ("name", text) | ("fact", key, text) | ("not", t) | ("and"|"or", a, b).
    Iterative (operator precedence with explicit stacks): any depth of parentheses or nots, any
    number of terms up to MAX_TOKENS, and never Python's recursion limit."""
    toks = tokens(expr)
    ops, vals = [], []              # ops: (op, token index); vals: trees

    def where(k):
        return f"at token {k + 1}" if k < len(toks) else "at the end"

    def apply(op):
        if op == "not":
            vals.append(("not", vals.pop()))
        else:
            b = vals.pop()
            vals.append((op, vals.pop(), b))

    want_term = True
    for k, (kind, text) in enumerate(toks):
        if want_term:
            if kind == "name":
                vals.append(("name", text))
                want_term = False
            elif kind == "fact":
                vals.append(("fact", fact_key(text), text))
                want_term = False
            elif kind in ("(", "not"):
                ops.append((kind, k))
            elif kind == ")":
                if k and toks[k - 1][0] == "(":
                    raise FindError(f"find: '()' {where(k - 1)} is empty")
                raise FindError(f"find: {text!r} {where(k)} closes nothing")
            else:
                prev = toks[k - 1][1] if k else None
                raise FindError(f"find: {text!r} {where(k)} " +
                                (f"follows {prev!r}: a rule name is missing between them" if prev
                                 else "has no rule before it"))
        else:
            if kind in ("and", "or"):
                while ops and ops[-1][0] != "(" and _PREC[ops[-1][0]] >= _PREC[kind]:
                    apply(ops.pop()[0])
                ops.append((kind, k))
                want_term = True
            elif kind == ")":
                while ops and ops[-1][0] != "(":
                    apply(ops.pop()[0])
                if not ops:
                    raise FindError(f"find: {text!r} {where(k)} closes nothing")
                ops.pop()
            else:
                raise FindError(f"find: {text!r} {where(k)}: join it with and / or to what comes before")
    if want_term:
        if not toks:
            raise FindError("find: empty expression")
        if toks[-1][0] == "(":
            raise FindError(f"find: {toks[-1][1]!r} {where(len(toks) - 1)} is never closed")
        raise FindError(f"find: {toks[-1][1]!r} at the end has nothing after it")
    while ops:
        op, k = ops.pop()
        if op == "(":
            raise FindError(f"find: {toks[k][1]!r} {where(k)} is never closed")
        apply(op)
    return vals[0]


def _walk(tree):
    """The nodes of a tree in order (left before right), without recursion: (node, under_not)."""
    stack = [(tree, False)]
    while stack:
        node, neg = stack.pop()
        yield node, neg
        if node[0] == "not":
            stack.append((node[1], True))
        elif node[0] in ("and", "or"):
            stack.append((node[2], neg))
            stack.append((node[1], neg))


def names_in(tree, positive=True, out=None):
    """The names of a tree; positive=True: only those not under a `not`."""
    out = [] if out is None else out
    for node, neg in _walk(tree):
        if node[0] == "name" and not (positive and neg):
            out.append(node[1])
    return out


def facts_in(tree, positive=True):
    return [node for node, neg in _walk(tree) if node[0] == "fact" and not (positive and neg)]


def fold(tree, leaf, all_bits):
    """The bitset of a tree: leaf(node) for its terms, combined without recursion."""
    stack, vals = [(tree, False)], []
    while stack:
        node, done = stack.pop()
        if node[0] in ("name", "fact"):
            vals.append(leaf(node))
        elif not done:
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(node[1:]))
        elif node[0] == "not":
            vals.append(all_bits & ~vals.pop())
        else:
            b, a = vals.pop(), vals.pop()
            vals.append(a & b if node[0] == "and" else a | b)
    return vals[0]
