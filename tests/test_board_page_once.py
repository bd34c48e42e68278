"""Issue 28 §4 on the board page: a value paired with its position where a judgment reads several
(干生末末生中中生初 on 庚寅 酉加子: 日干 庚（寄申）、末傳 亥、中傳 寅、初傳 巳, never 2 values for 4
positions); a 書有兩說 pair said once (its own sections point to it); a position never named twice; a
parent and its child one line."""
import html
import re

import pytest
from fastapi.testclient import TestClient

from liuren.web.app import create_app

BOARDS = [("丁卯", "亥加丑"), ("庚寅", "酉加子"), ("己酉", "子加午"), ("戊寅", "子加子"), ("壬申", "午加子")]


@pytest.fixture(scope="module")
def pages():
    c = TestClient(create_app(None, warm=False))
    return {b: c.get(f"/board?day={b[0]}&on={b[1]}").text for b in BOARDS} | \
        {("ja",) + b: c.get(f"/board?day={b[0]}&on={b[1]}&lang=ja").text for b in BOARDS[1:2]}


def items(page):
    out = {}
    for m in re.finditer(r'<li class="judgment[^>]*data-rule="([^"]+)"[^>]*>(.*?)</li>', page, re.S):
        out.setdefault(m.group(1), []).append(" ".join(html.unescape(re.sub(r"<[^>]+>", "", m.group(2))).split()))
    return out


def test_values_paired_with_positions(pages):
    line = items(pages[("庚寅", "酉加子")])["j2b-shangguan-lian-ni"][0]
    assert "（日干 庚（寄申）、末傳 亥、中傳 寅、初傳 巳）" in line, line
    line = items(pages[("ja", "庚寅", "酉加子")])["j2b-shangguan-lian-ni"][0]
    assert "日干 庚（寄申）、末伝 亥、中伝 寅、初伝 巳" in line, line


def test_cli_line_pairs_them_too():
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "liuren.cli.main", "judge", "--day", "庚寅", "--on", "酉加子", "--daytime"],
                         capture_output=True, text=True, timeout=300).stdout
    assert "干生末末生中中生初（日干 庚（寄申）、末傳 亥、中傳 寅、初傳 巳）" in out


@pytest.mark.parametrize("board", BOARDS)
def test_each_judgment_once(pages, board):
    page = pages[board]
    views = re.findall(r'<div class="view" data-rule="([^"]+)"', page)
    listed = items(page)
    for rid in views:                 # in the two views with its reading; in its section only a pointer
        assert all("→" in x for x in listed.get(rid, [])), rid
    for lines in listed.values():
        for x in lines:
            for m in re.finditer(r"見於([^，；）\s]+)", x):
                ps = m.group(1).split("、")
                assert len(ps) == len(set(ps)), x
    names = [x.split("（")[0].split(" ")[0] for lines in listed.values() for x in lines]
    assert not [n for n in names if ":" in n and n.split(":")[0] in names]


def test_the_boards_have_two_views(pages):
    assert sum(len(re.findall(r'class="views"', p)) for p in pages.values()) >= 5
