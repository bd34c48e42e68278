"""Issue 28 §3: every entry page (~2,250 rules and table rows, zh and ja) is in words — no rule or table
id, no `$variable`, no engine operator (== !=), no Python dict ({'…': …}), no dump of a table row's
cells (「表名：欄值 欄值」 as the engine writes a fact it has no words for).

Rendered in process through the app (no server); the entries are split in chunks so that pytest-xdist
can share them out (each chunk renders its own pages with one app)."""
import html
import re

import pytest
from fastapi.testclient import TestClient

from liuren.knowledge.kbload import load_kb
from liuren.web.app import create_app

KB = load_kb()
IDS = sorted(KB.entries)
CHUNKS = 8
NAMES = {x for x in IDS} | set(KB.tables)
HYPHEN_ID = re.compile(r"(?<![A-Za-z0-9_/.-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![A-Za-z0-9_/.-])")
TOKEN = re.compile(r"(?<![A-Za-z0-9_/.-])[A-Za-z][A-Za-z0-9_-]*")
# the engine's words for a table fact it has no template for: the table's name, then 欄值 欄值
DUMPS = re.compile("|".join(sorted({re.escape(t.name) + "：" + re.escape(str(t.meta.get("columns", [""])[0]))
                                    for t in KB.tables.values() if t.meta.get("columns")}, key=len, reverse=True)))
BAD = {"dollar": re.compile(r"\$"), "operator": re.compile(r"==|!=|<=|>="), "dict": re.compile(r"\{'|'\s*:\s*'|\}\]"),
       "row-cells": re.compile(r"之表行（"), "assignment": re.compile(r"\b[a-z_]+=[\w*-]+")}


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(warm=False))


def visible(page):
    """The text a reader sees: tags, scripts, styles and attribute values gone."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def problems(text):
    out = []
    for m in HYPHEN_ID.finditer(text):
        out.append(("id", m.group(0)))
    for m in TOKEN.finditer(text):
        if m.group(0) in NAMES:
            out.append(("id", m.group(0)))
    for name, pat in BAD.items():
        for m in pat.finditer(text):
            out.append((name, text[max(0, m.start() - 20):m.end() + 20]))
    for m in DUMPS.finditer(text):
        out.append(("dump", text[m.start():m.end() + 30]))
    return out


@pytest.mark.parametrize("lang", ["zh", "ja"])
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_entry_page_is_in_words(client, lang, chunk):
    bad = {}
    for i in IDS[chunk::CHUNKS]:
        r = client.get(f"/rules/{i}" + ("?lang=ja" if lang == "ja" else ""))
        assert r.status_code == 200, (i, r.status_code)
        found = problems(visible(r.text))
        if found:
            bad[i] = found[:4]
    assert not bad, f"{len(bad)} pages: " + "; ".join(f"{k}: {v}" for k, v in list(bad.items())[:25])


def test_the_check_can_fail():
    """The checks find what the issue found (so a pass means something)."""
    assert problems("已成 某（dq07-longde或…）")
    assert problems("初傳 == 子") and problems("夫行年 != 妻行年")
    assert problems("variants {'dq07-sanguang': 'guanyue'}") and problems("要 $x 為旬空")
    name = KB.tables["jz-xingsha"].name
    assert problems(f"{name}：煞天怪 據月 鍵寅 支丑")
    assert not problems("初傳 與 中傳 不同；三光課依「觀月經」之讀；已成「重審課」")
