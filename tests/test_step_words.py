"""Issue 20: the sentences of 發用之由 (how the 三傳 was cast) speak the reader's language.  Each
step carries a key and its values; explain/steps.py says it in zh (word for word the casting's own
sentence, which the JSON keeps) and in ja.  Checked on every step of the 720 lessons under every 涉害
options, and on a board of each (gate, subtype) through the board page, a chain, the drill and the
CLI.  (晝/夜 does not touch the derivation: the steps depend on the day and 月將加占時 only.)"""
import contextlib
import html
import io
import re
import string

import pytest

from liuren.casting.cast import structure
from liuren.casting.symbols import BRANCHES, JIAZI
from liuren.explain.steps import STEPS, step_name, step_text

SHEHAI = ("count", "mengzhong", "tianpan", "biyong")
HIRAGANA = re.compile(r"[\u3041-\u309f]")
# characters a Japanese sentence never uses (their Japanese forms are 伝 専 渉 駅 弾 倶 …, or kana)
ZH_ONLY = set("傳專涉驛彈俱為與無歷數歸淺複逕於其之皆只另遙")
LEAK = re.compile(r"[{}$=]|[A-Za-z]")


def _all():
    for day in JIAZI:
        for off in range(12):
            for sh in SHEHAI:
                yield day, off, sh, structure(day, off, sh)


@pytest.fixture(scope="module")
def boards():
    """One board per (gate, subtype), and one per step key not yet met: (day, offset, shehai)."""
    out, keys = {}, set()
    for day, off, sh, (_, _, gate, sub, steps) in _all():
        new = {p for s in steps for p in s.key.split("+")} - keys
        if (gate, sub) not in out or new:
            out.setdefault((gate, sub), (day, off, sh))
            if new:
                out[("key",) + tuple(sorted(new))] = (day, off, sh)
                keys |= new
    return out


def test_every_step_has_a_key_and_its_zh_sentence_is_the_casting_own():
    seen = set()
    for day, off, sh, st in _all():
        for s in st[4]:
            assert s.key and all(p in STEPS for p in s.key.split("+")), (day, off, s.text)
            seen.update(s.key.split("+"))
    # every sentence is said by some lesson (復等 on a 柔日 only under 孟仲 of the 天盤: the 720 lessons reach it
    # under no other option)
    assert set(STEPS) - seen == set()


def test_one_zh_sentence_per_key_the_castings():
    # the casting writes a step's text from engine/casting/steps.py; explain says the same key in ja, and
    # its zh is that very table, not a copy
    from liuren.casting.steps import STEPS as ZH
    from liuren.explain.steps import STEPS_JA
    assert set(STEPS_JA) == set(ZH) == set(STEPS)
    assert all(STEPS[k]["zh"] is ZH[k] and STEPS[k]["ja"] is STEPS_JA[k] for k in ZH)


def test_zh_and_ja_sentences_side_by_side_with_the_same_values():
    fields = lambda t: {f for _, f, _, _ in string.Formatter().parse(t) if f}       # noqa: E731
    for key, t in STEPS.items():
        assert set(t) == {"zh", "ja"}, key
        assert fields(t["zh"]) == fields(t["ja"]), key
        assert t["zh"] != t["ja"], key


def _check_ja(ja, zh, where):
    assert ja != zh, where
    assert HIRAGANA.search(ja), (where, ja)                      # a Japanese sentence, not a Chinese one
    assert not ZH_ONLY & set(ja), (where, ja, ZH_ONLY & set(ja))
    for t in (ja, zh):
        assert not LEAK.search(t), (where, t)                    # no {, $, =, option id or English word


def test_every_step_of_the_720_lessons_reads_in_japanese():
    for day, off, sh, st in _all():
        for s in st[4]:
            _check_ja(step_text(s, "ja"), step_text(s, "zh"), (day, off, sh, s.key))


def test_the_one_unreached_sentence_reads_in_japanese_too():
    args = {"first": "子"}
    _check_ja(step_text({"key": "shehai-fudeng-yin", "args": args}, "ja"),
              step_text({"key": "shehai-fudeng-yin", "args": args}, "zh"), "shehai-fudeng-yin")


def test_the_other_shehai_option_is_said_by_its_name():
    # 丁卯 亥加丑: counting takes 亥, 先孟仲 takes 丑 — the deciding step says the other, by name
    s = structure("丁卯", 10, "count")[4][-2]
    assert s.key == "shehai-deepest+alt-mengzhong"
    assert "先孟仲" in step_text(s, "zh") and "孟仲を先とする" in step_text(s, "ja")
    s = structure("丁卯", 10, "mengzhong")[4][-2]
    assert s.key.endswith("+alt-count")
    assert "計涉害之數" in step_text(s, "zh") and "渉害の数を数える" in step_text(s, "ja")
    assert "三伝は 亥酉未（渉害）" in step_text(s, "ja")
    for day, off, sh, st in _all():
        assert not any("shehai" in s.text or "=" in s.text for s in st[4]), (day, off)


def test_the_json_keeps_the_zh_sentence_with_the_key_and_values():
    from liuren import cast
    d = cast(day="丁卯", on="亥加丑").to_dict()["transmissions"]["steps"]
    assert d[2] == {**d[2], "text": "下賊上：丑加卯、亥加丑（下克上）", "key": "zeike-zei",
                    "args": {"on": ["丑加卯", "亥加丑"]}}


def test_verse_names_in_japanese_forms():
    assert step_name("中末傳", "ja") == "中末伝" and step_name("八專不論遙", "ja") == "八専不論遥"
    assert step_name("中末傳", "zh") == "中末傳"


# --------------------------------------------------------------------------- where a step is shown
def _query(day, off, sh):
    q = f"day={day}&on={BRANCHES[off]}加子"
    return q + (f"&shehai={sh}" if sh != "count" else "")


def _visible(r):
    return html.unescape(re.sub(r"<[^>]+>", "", r.text))


@pytest.fixture(scope="module")
def client():
    from fastapi.testclient import TestClient
    from liuren.web.app import create_app
    return TestClient(create_app(), raise_server_exceptions=False)


def test_the_board_page_shows_each_gate_steps_in_the_page_language(client, boards):
    for (g, *_), (day, off, sh) in boards.items():
        steps = structure(day, off, sh)[4]
        for lang in ("zh", "ja"):
            r = client.get(f"/board?{_query(day, off, sh)}&lang={lang}")
            assert r.status_code == 200, (day, off, sh)
            box = _visible(r)
            for s in steps:
                assert step_text(s, lang) in box, (g, day, off, sh, lang, step_text(s, lang))
            if lang == "ja":
                assert not any(s.text in box for s in steps), (day, off, sh)


def test_a_chain_says_its_casting_steps_in_the_page_language(client):
    steps = structure("丁卯", 10, "count")[4]
    page = client.get("/board?day=丁卯&on=亥加丑&month=壬寅&why=ge-zhanshou&lang=ja").text
    chain = _visible(type("Page", (), {"text": page.split('<ol class="chain-steps">')[1].split("</ol>")[0]}))
    assert all(step_text(s, "ja") in chain for s in steps) and not any(s.text in chain for s in steps)
    assert "中末伝" in chain and "中末傳" not in chain               # the verse's name in its Japanese form
    import json                     # the chain's graph of a judgment read off the 三傳 carries the steps too
    page = client.get("/board?day=丁卯&on=亥加丑&month=壬寅&why=dq07-shehai&lang=ja").text
    graph = json.loads(re.search(r'<script type="application/json" id="chain-graph">(.*?)</script>', page, re.S).group(1))
    cast = sorted((n["data"] for n in graph["nodes"] if n["data"]["kind"] == "cast"), key=lambda d: int(d["id"][5:]))
    assert [d["text"] for d in cast] == [step_text(s, "ja") for s in steps]
    assert not any("傳" in d["label"] for d in cast)


def test_the_drill_shows_the_steps_in_the_page_language(client):
    from liuren import cast
    from liuren.app.practice import practice_lesson
    les = practice_lesson(7, None)
    b = cast(day=les["day"], on=les["on"], night=les["night"] == "true")
    t = b.transmissions
    q = "&".join(f"k{i + 1}={l.upper}" for i, l in enumerate(b.lessons))
    # step 2: the 四課 answered, the plate and the 四課 said (月將加占時 with them), no 三傳 yet
    page = _visible(client.get(f"/practice?seed=7&lang=ja&{q}"))
    assert all(step_text(s, "ja") in page for s in t.steps[:2])
    assert not any(step_text(s, "ja") in page for s in t.steps[2:])
    q += "&chu={}&zhong={}&mo={}&men={}".format(*t.branches, t.gate)
    page = _visible(client.get(f"/practice?seed=7&lang=ja&{q}"))
    assert all(step_text(s, "ja") in page for s in t.steps)
    assert not any(s.text in page for s in t.steps)


def test_the_cli_says_the_steps_in_its_language(boards):
    from liuren.cli.main import main
    for (g, *_), (day, off, sh) in list(boards.items())[:12]:
        steps = structure(day, off, sh)[4]
        for lang in ("zh", "ja"):
            argv = ["cast", "--day", day, "--on", f"{BRANCHES[off]}加子", "--lang", lang]
            argv += ["--shehai", "mengzhong"] if sh == "mengzhong" else []
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                assert main(argv) == 0
            out = buf.getvalue()
            assert all(f"· {step_text(s, lang)}" in out for s in steps), (day, off, sh, lang)


def test_the_chain_text_on_the_cli_says_the_steps_in_japanese():
    from liuren import judge
    from liuren.app.queries import explain
    from liuren.explain.render import localize, to_text
    r = judge({"day": "丁卯", "on": "亥加丑", "month": "壬寅"})
    out = to_text(localize(explain(r, "ge-zhanshou"), r.kb, "ja"))
    steps = r.board.transmissions.steps
    assert all(step_text(s, "ja") in out for s in steps) and not any(s.text in out for s in steps)
    zh = to_text(localize(explain(r, "ge-zhanshou"), r.kb, "zh"))
    assert all(s.text in zh for s in steps)


def test_the_trace_export_in_japanese_says_the_steps_in_japanese():
    from liuren import judge
    from liuren.explain.export import dot, localized
    r = judge({"day": "丁卯", "on": "亥加丑", "month": "壬寅"})
    g = localized(r.graph, "ja")
    out = dot(g)
    steps = r.board.transmissions.steps
    assert all(step_text(s, "ja") in out for s in steps)
    assert g.nodes["cast:0"]["text_zh"] == steps[0].text and r.graph.nodes["cast:0"]["text"] == steps[0].text
