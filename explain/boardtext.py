"""The board in the traditional text layout: the header lines, the square of 天地盤, 四課 and 三傳
with the derivation's verses (`liuren cast`), and the one-line lesson of `liuren table`."""
from __future__ import annotations

from liuren.i18n import DEFAULT, NOTES, word
from liuren.knowledge.kbload import cite
from liuren.casting.symbols import BRANCHES, bi
from liuren.explain.steps import step_text

SHORT = {"貴人": "貴", "螣蛇": "蛇", "朱雀": "雀", "六合": "合", "勾陳": "勾", "青龍": "龍", "天空": "空",
         "白虎": "虎", "太常": "常", "玄武": "玄", "太陰": "陰", "天后": "后"}
# 地盤 positions of the square, row by row (巳午未申 / 辰 . . 酉 / 卯 . . 戌 / 寅丑子亥)
SQUARE = [["巳", "午", "未", "申"], ["辰", None, None, "酉"], ["卯", None, None, "戌"], ["寅", "丑", "子", "亥"]]


def header(board, lang=DEFAULT):
    w = lambda s: word(s, lang)            # noqa: E731 — the program's words in the language
    y, m, d, h = board.pillars
    parts = []
    if y or m or h:
        parts.append(" ".join(f"{v}{k}" for v, k in ((y, "年"), (m, "月"), (d, "日"), (h, "時")) if v))
    else:
        parts.append(f"{board.day}日")
    if board.jieqi:
        parts.append(f"{w('節氣')} {board.jieqi}")
    parts.append(f"{w('月將')} {board.jiang}（{board.jiang_name}）加 {board.hour} {w('時')}")
    parts.append(w("晝") if board.daytime else w("夜"))
    lines = ["　".join(parts)]
    if board.moment:
        lines.append(f"{w('時刻')} {board.moment}")
    extra = [f"{board.xun.name}{w('旬')}　{w('空亡')} {''.join(board.void)}　{w('旬首')} {board.xun.head} "
             f"{w('旬尾')} {board.xun.tail}",
             f"{w('貴人')} {board.noble_branch}（{w(board.noble_dir + '行')}）"]
    if board.month_branch:
        extra.append(f"{w('月建')} {board.month_branch}（{board.season[0]}{'・' + w('季月') if board.season[1] == '季' else ''}）")
    if board.taisui:
        extra.append(f"{w('太歲')} {board.taisui}")
    if board.benming:
        extra.append(f"{w('本命')} {board.benming_gz or board.benming}")
    if board.xingnian:
        extra.append(f"{w('行年')} {board.xingnian_gz or board.xingnian}")
    lines.append("　".join(extra))
    if board.wangxiang:
        from liuren.explain.words import WORDS
        ww = WORDS.get(lang, WORDS[DEFAULT])
        lines.append(f"{ww['wangxiang']}：" + " ".join(f"{e}{ww['qi'].get(s, s)}" for e, s in board.wangxiang))
    return lines


def square(board, lang=DEFAULT):
    lines = [word("天地盤（格中為天盤支與所乘天將，格之位置即地盤）", lang)]
    for row in SQUARE:
        cells = []
        for earth in row:
            if earth is None:
                cells.append("　　　")
            else:
                heaven = board.over(earth)
                cells.append(f"{SHORT[board.generals[heaven]]}{heaven}　")
        lines.append("  " + " ".join(cells))
    return lines


def lessons(board, lang=DEFAULT):
    ls = list(reversed(board.lessons))
    return [word("四課（右起第一課）", lang),
            f"  {word('天將', lang)}  " + "　".join(SHORT[l.general] for l in ls),
            f"  {word('上神', lang)}  " + "　".join(l.upper for l in ls),
            f"  {word('下神', lang)}  " + "　".join(l.lower for l in ls)]


def transmissions(board, steps=True, lang=DEFAULT):
    t = board.transmissions
    head = f"{word('三傳', lang)}（{t.gate}" + (f"・{t.subtype}" if t.subtype and t.subtype != t.gate else "") + "）"
    lines = [head]
    for name, b in zip((word("初傳", lang), word("中傳", lang), word("末傳", lang)), t.branches):
        i = bi(b)
        dg = board.dungan_t[i] or "　"
        void = "　空" if b in board.void else ""
        lines.append(f"  {name}  {board.liuqin_t[i][1]}  {dg} {b}  {board.generals[b]}{void}")
    if steps:
        lines.append(f"  {word('發用之由', lang)}：")
        for s in t.steps:
            lines.append(f"    · {step_text(s, lang)}" + (f"　「{s.verse}」{cite(s.source())}" if s.verse else ""))
    return lines


def board_text(board, steps=True, lang=DEFAULT):
    out = header(board, lang) + [""] + square(board, lang) + [""] + lessons(board, lang) + [""] + \
        transmissions(board, steps, lang)
    notes = {v[DEFAULT]: v.get(lang, v[DEFAULT]) for v in NOTES.values()}
    for n in board.notes:
        out.append(f"（{notes.get(n, n)}）")
    return "\n".join(out)


def table_line(offset, board):
    t = board.transmissions
    ls = " ".join(f"{l.upper}{l.lower}" for l in reversed(board.lessons))
    return f"{board.day} {BRANCHES[offset]}加子 {ls}  {''.join(t.branches)}  {t.gate}" + \
        (f"・{t.subtype}" if t.subtype != t.gate else "")
