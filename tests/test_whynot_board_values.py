"""Issue 28 §1: a WHY-NOT of a table-driven rule says, at each thing the rule reads, the board's own
value and what the rule needs there (「發用之門：此盤為 涉害，伏吟課要 伏吟」), never a value the board
does not have; the nearest facts are those at the places the condition reads; and the nearest board
where the rule fires (from the find index) is shown and linked."""
import html
import re

import pytest
from fastapi.testclient import TestClient

from liuren.app import queries as Q
from liuren.rules.judging import judge
from liuren.knowledge.kbload import load_kb

KB = load_kb()


@pytest.fixture(scope="module")
def r():
    return judge(dict(day="丁卯", on="亥加丑"))


def _board(r):
    b = r.board
    t = b.transmissions
    generals = b.to_dict()["generals"]
    return {"門": t.gate, "體": t.subtype or t.gate, "初": t.branches[0], "中": t.branches[1], "末": t.branches[2],
            "初將": generals[t.branches[0]], "干": b.day[0], "支上將": generals[b.lessons[2].upper]}


# (entry, book it is from, the board's own value the WHY-NOT must state, and the subject it is said of)
CASES = [
    ("dq07-fuyin", "107", "門", "發用之門"),               # 《大全》卷七 九宗門: the gate is 涉害, not 伏吟
    ("dq07-yuanshou", "107", "門", "發用之門"),
    ("dq07-jianji", "107", "體", "課體"),
    ("j2c-jiaohe", "001", "初將", "初傳 亥 所乘之將"),      # 《經緯》卷2: the 初傳 carries 朱雀, 交合 needs 六合
    ("j2a-conge", "001", "初", "初傳"),
    ("dq10-sheyi", "110", "初", "初傳"),                   # 《大全》卷十 間傳: 涉疑格 needs 辰寅子
    ("dq10-chongyin", "110", "支上將", "支上 丑 所乘之將"),
    ("dq09-youzi", "109", "初", "初傳"),
    ("dq09-sijiao", "109", "初", "初傳"),
    ("dq08-zhuolun-mu", "108", "干", "干"),                # 《大全》卷八: 日干 is its stem 丁
    ("dq12-liangchang-jiamu", "112", "干", "干"),
    ("jzb-shi-ji-zhong-ji", "004", "初將", "所乘之將"),    # 《銀河櫂》卷中
]


@pytest.mark.parametrize("key,book,field,subject", CASES)
def test_whynot_states_the_boards_own_value(r, key, book, field, subject):
    e = KB.entries[key]
    assert any(str(s.get("seed", "")).startswith(book) for s in e.source), (key, book)
    rep = Q.explain(r, key)
    assert not rep["fired"]
    has = _board(r)[field]
    lines = [x["text"] for x in rep["board"]]
    assert any(subject in x and f"此盤為 {has}" in x and f"{e.name}要" in x for x in lines), lines
    for x in rep["board"]:
        if x["field"] == "由":            # how the board came to its gate: its casting steps
            assert x["text"].startswith("此盤之發用：") and x["texts"]["ja"].startswith("この盤の発用：")
            continue
        assert str(x["has"]) not in x["need"]                      # a line is a difference, never a match
        assert any(w in x["texts"]["ja"] for w in ("この盤は", "この盤にはない", "この盤には月建がない"))


def test_the_books_across(r):
    assert len({b for _, b, _, _ in CASES}) >= 6 and len(CASES) >= 10


def test_yuanshou_says_how_the_board_came_to_its_gate(r):
    rep = Q.explain(r, "dq07-yuanshou")
    how = [x["text"] for x in rep["board"] if x["field"] == "由"]
    assert how and "下賊上：丑加卯、亥加丑" in how[0]              # two 下賊上, not one 上克下


def test_a_row_says_its_own_cells_not_the_boards(r):
    # the row's own cells as the rule page says them (發用之門 為 伏吟), the board's value beside them
    rep = Q.explain(r, "dq07-fuyin")
    row = [c for c in rep["conditions"] if c["text"].startswith("發用之門 為")]
    assert row and row[0]["text"] == "發用之門 為 伏吟" and not row[0]["held"]
    assert row[0]["facts"] == ["發用之門 涉害"]


def test_never_a_value_the_board_does_not_have(r):
    rep = Q.explain(r, "dq09-youzi")
    texts = " ".join(c["text"] + " " + " ".join(c["facts"]) for c in rep["conditions"])
    assert "卯戊戊" not in texts and "卯 屬土" not in texts
    t = r.board.transmissions.branches
    facts = {f for c in rep["conditions"] for f in c["facts"]}
    assert f"中傳 {t[1]}" in facts and f"初傳 {t[0]}" in facts      # the board's own 三傳, never an invented one
    for x in rep["board"]:
        if x["field"] in ("初", "中", "末"):
            assert all(v in "子丑寅卯辰巳午未申酉戌亥" for v in x["need"])   # a 三傳 never needs a stem
    rep = Q.explain(r, "dq08-zhuolun-mu")
    assert all("日干未" not in c["text"] and "日干申" not in c["text"] for c in rep["conditions"])
    assert any(c["facts"] == ["日干 丁"] for c in rep["conditions"])


def test_nearest_lists_only_the_places_read(r):
    rep = Q.explain(r, "dq07-sanguang")
    for c in rep["conditions"]:
        if not c["held"] and "初傳" in c["text"]:
            assert all("干上" not in f and "日干" not in f for f in c["facts"]), c


def test_no_english_or_operator_in_a_whynot(r):
    for key in ("ge-zhanguan", "dq07-fuyin", "j2c-jiaohe", "dq10-sheyi", "jz-tianguai"):
        rep = Q.explain(r, key)
        for c in rep["conditions"]:
            assert not re.search(r"[A-Za-z$]|==|!=", c["text"]), c["text"]


# ---------------------------------------------------------------- the contrast, from a small find index
@pytest.fixture(scope="module")
def client():
    from liuren.app import find as F
    from liuren.explain import index as X
    from liuren.web.app import create_app
    app = create_app(warm=False)
    f = F.Finder(None, days=2)
    f._ix[((), None)] = X.get_index(None, {}, None, 2, progress=False)
    app.state.finder = f
    return TestClient(app)


@pytest.mark.xdist_group("find")
def test_contrast_the_nearest_board_where_it_fires(client):
    r = client.get("/board?day=甲子&on=子加子&why=元首課")
    assert r.status_code == 200
    box = re.search(r'<div class="contrast" id="contrast">(.*?)</div>', r.text, re.S)
    assert box, "no contrast"
    links = re.findall(r'<a href="/board\?([^"]+)">', box.group(1))
    assert links
    q = dict(x.split("=", 1) for x in html.unescape(links[0]).split("&"))
    from urllib.parse import unquote
    q = {k: unquote(v) for k, v in q.items()}
    assert q["day"] == "甲子" and q["on"] != "子加子" and q["on"].endswith("加子")   # same day, another plate
    # it does fire there
    d = client.get(f"/api/why/元首課?day={q['day']}&on={q['on']}&month={q['month']}&night={q.get('night', 'false')}").json()
    assert d["fired"], d
    text = html.unescape(re.sub(r"<[^>]+>", " ", box.group(1)))
    assert "月將加占時" in text and "此盤 子加子" in text
    ja = client.get("/board?day=甲子&on=子加子&why=元首課&lang=ja").text
    assert "月将加占時" in ja.split('id="contrast"')[1][:600]
