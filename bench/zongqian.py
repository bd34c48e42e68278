#!/usr/bin/env python3
"""Parse 總鈐 (《六壬大全》卷一 ¶488–1202), the book's table of the 720 lessons, into rows
(day, 月將加時, 三傳), and write tests/data/zongqian.yaml.

    python3 bench/zongqian.py /work/shared/seeds/101_liuren_daquan_juan01.txt > tests/data/zongqian.yaml

The product never reads this script nor the seed; tests/test_zongqian.py reads the data file (and, when
LIUREN_SEEDS is set, re-runs this parse and checks the file is what it gives).

How the printed table became the text file, and how it is read back
--------------------------------------------------------------------
The book prints one page per day stem (甲 ¶489–546, 乙 ¶547–621 … 癸 ¶1137–1202).  A page is laid
out like the plate: four cells across the top (巳 午 未 申), 辰 and 酉 on the sides, then 卯 and 戌,
and four across the bottom (寅 丑 子 亥); the title 「六甲日」 is printed in the middle, between the 辰
and 酉 headings, and the text file splits it into 「六」「甲」「日」.  A cell heading 「甲　　巳」 means
巳加甲: 天盤 巳 over the stem's 寄宮 (寅 for 甲), which fixes the plate for the stem's six days.

A cell holds its 三傳 as columns of three lines (初 above 中 above 末).  Where the six days of the stem
differ, the cell holds several columns side by side, over a label line that says which days each column
serves: day branches (「酉　　亥　　丑」, 「辰午 申戌 子寅」: one label per column; a label of several
branches serves each of them), or the stem and a count (「甲五」「甲四」「甲三」: the days no other label
of the cell names).

The text file read the page row by row across, so a line of the file may hold the end of one cell and
the start of the next, joined by a TAB.  The parse therefore:
  1. splits each paragraph on TAB into segments and reads the segments in order as lines;
  2. drops the headings (「甲　　巳」), and the title characters 「六」, the lone stem, 「日」;
  3. reads groups: a line of one branch starts a bare column (that line and the next two); any other line
     is a label line, and the next three lines are the rows of its columns (the first row says how many
     columns).  Labels are split into one per column: as printed when their count is the column count,
     else at the wider gaps (two spaces or more);
  4. gives the groups to the cells in the page's order 巳 午 未 申 辰 酉 卯 戌 寅 丑 子 亥, a cell
     taking groups until its labels name all six days once.
The OCR writes 己 for 巳 in places (and 夘 for 卯); a branch position reads them as 巳, 卯.

The parse repairs nothing: a column or label line that the text file (or the print) has wrong is read as it
stands, and tests/data/zongqian-differences.yaml lists each with the fault named.  Every row keeps the ¶ of
its three lines, so a row can be checked against the text (tests/test_zongqian.py does).
"""
import itertools
import re
import sys

STEMS = "甲乙丙丁戊己庚辛壬癸"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
JIGONG = dict(zip(STEMS, "寅辰巳未巳未申戌亥丑"))
CELL_ORDER = "巳午未申辰酉卯戌寅丑子亥"
FIRST, LAST = 489, 1202


def paragraphs(text):
    return re.split(r"\n\s*\n", text)


def days_of(stem):
    i = STEMS.index(stem)
    return [BRANCHES[j] for j in range(12) if j % 2 == i % 2]


def norm_branch(ch):
    return {"己": "巳", "夘": "卯"}.get(ch, ch)


SP = "[\u3000 ]"


def tokens(seg):
    """Tokens of a line: stem+numeral labels merged (「甲　四」 -> 甲四)."""
    seg = re.sub(f"([{STEMS}]){SP}*([三四五])", r"\1\2", seg)
    return [t for t in re.split(f"{SP}+", seg.strip()) if t]


def is_branch_token(t):
    return len(t) == 1 and norm_branch(t) in BRANCHES


def split_labels(seg, n):
    seg = re.sub(f"([{STEMS}]){SP}*([三四五])", r"\1\2", seg.strip())
    toks = tokens(seg)
    if len(toks) == n:
        return toks
    parts = [p for p in re.split(f"{SP}{{2,}}", seg) if p.strip()]
    if len(parts) == n:
        return [re.sub(SP, "", p) for p in parts]
    # 「申 辰　甲 四」 over two columns: 申辰 and 甲四 (the one way to group the tokens in which a
    # stem-and-count label stands alone)
    ways = []
    for cuts in itertools.combinations(range(1, len(toks)), n - 1):
        gs = [toks[a:b] for a, b in zip((0,) + cuts, cuts + (len(toks),))]
        if all(len(g) == 1 or all(is_branch_token(x) for x in g) for g in gs):
            if all(len(g) == 1 or not any(x[0] in STEMS for x in g) for g in gs):
                ways.append(["".join(g) for g in gs])
    ways = [w for w in ways if sum(1 for lab in w if lab[0] in STEMS) <= 1
            and all(lab[0] in STEMS or len(lab) < 3 for lab in w)]
    if len(ways) == 1:
        return ways[0]
    raise ValueError(f"label line {seg!r}: cannot split into {n} labels")


def parse_block(stem, paras, first_para):
    """paras: the block's paragraphs (text), first_para: the ¶ of the first.  Returns rows."""
    lines = []  # (para, segment)
    for k, p in enumerate(paras):
        para = first_para + k
        for seg in p.split("\t"):
            if not seg.strip():
                continue
            t = tokens(seg)
            if len(t) == 2 and t[0] == stem and is_branch_token(t[1]):
                continue                     # a cell heading
            if len(t) == 1 and t[0] in ("六", "日", stem):
                continue                     # the page title 六X日
            lines.append((para, seg))
    groups = []
    i = 0
    while i < len(lines):
        para, seg = lines[i]
        t = tokens(seg)
        if len(t) == 1 and is_branch_token(t[0]):
            col = []
            for j in range(3):
                pj, sj = lines[i + j]
                tj = tokens(sj)
                if len(tj) != 1 or not is_branch_token(tj[0]):
                    raise ValueError(f"¶{pj} {sj!r}: a bare column needs one branch a line")
                col.append((pj, norm_branch(tj[0])))
            groups.append(([None], [col]))
            i += 3
            continue
        rows = []
        for j in range(1, 4):
            pj, sj = lines[i + j]
            tj = tokens(sj)
            if not all(is_branch_token(x) for x in tj):
                raise ValueError(f"¶{pj} {sj!r}: a row of branches expected (label ¶{para} {seg!r})")
            rows.append((pj, [norm_branch(x) for x in tj]))
        n = len(rows[0][1])
        if any(len(r[1]) != n for r in rows):
            raise ValueError(f"¶{para}: rows of unequal width under {seg!r}: {rows}")
        labels = split_labels(seg, n)
        cols = [[(pj, r[c]) for pj, r in rows] for c in range(n)]
        groups.append((labels, cols))
        i += 4
    # give groups to cells
    days = days_of(stem)
    out = []
    gi = 0
    for cell in CELL_ORDER:
        taken = {}
        pending = []
        while len(taken) < 6:
            if gi >= len(groups):
                raise ValueError(f"{stem} {cell}加{stem}: the page ends with the cell incomplete ({sorted(taken)})")
            labels, cols = groups[gi]
            gi += 1
            for lab, col in zip(labels, cols):
                if lab is None:
                    ds = [d for d in days if d not in taken]
                elif lab[0] == stem:
                    pending.append((int("三四五".index(lab[1]) + 3), col, lab))
                    continue
                else:
                    ds = [norm_branch(c) for c in lab]
                for d in ds:
                    if d not in days or d in taken:
                        raise ValueError(f"{stem} {cell}: label {lab!r} names {d} (twice or not a {stem} day)")
                    taken[d] = (col, lab)
            for cnt, col, lab in pending:
                rest = [d for d in days if d not in taken]
                if len(rest) == cnt and len(pending) == 1:
                    for d in rest:
                        taken[d] = (col, lab)
                    pending = []
                    break
        for d in days:
            col, lab = taken[d]
            out.append({"day": stem + d, "plate": f"{cell}加{JIGONG[stem]}", "加": f"{cell}加{stem}",
                        "chuan": "".join(b for _, b in col), "para": [p for p, _ in col],
                        "label": lab or ""})
    if gi != len(groups):
        raise ValueError(f"{stem}: {len(groups) - gi} groups left over after the twelve cells")
    return out


def parse(text):
    ps = paragraphs(text)
    starts = [k for k in range(FIRST, LAST + 1)
              if ps[k].split("\t")[0].strip()[:1] in STEMS and "巳" in ps[k].split("\t")[0]
              and len(ps[k].split("\t")) == 4]
    rows = []
    for n, s in enumerate(starts):
        e = starts[n + 1] if n + 1 < len(starts) else LAST + 1
        stem = ps[s][0]
        rows += parse_block(stem, ps[s:e], s)
    return rows


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    rows = parse(text)
    print("# 總鈐 (《六壬大全》卷一 ¶488–1202) parsed by bench/zongqian.py: do not edit by hand.")
    print("# day, plate (天盤 branch over the stem's 寄宮, the same as 月將加占時 over the 寄宮), 三傳 as printed,")
    print("# the ¶ of its three lines, and the label the column is printed under.")
    print("rows:")
    for r in rows:
        print(f"  - {{day: {r['day']}, plate: {r['plate']}, chuan: {r['chuan']}, para: [{', '.join(map(str, r['para']))}],"
              f" label: '{r['label']}'}}")


if __name__ == "__main__":
    main()
