"""The web app in-process (ASGI test client): pages server-rendered, JSON twins equal to the CLI's
JSON, bad input as 400 with the CLI's own message, everything echoed escaped, ?lang=ja."""
import html
import json
import re

import pytest


from fastapi.testclient import TestClient  # noqa: E402

from liuren.cli.main import main  # noqa: E402

BOARD = "day=丁卯&on=亥加丑&month=壬寅"
XSS = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def app():
    from liuren.web.app import create_app
    return create_app()


@pytest.fixture(scope="module")
def client(app):
    return TestClient(app, raise_server_exceptions=False)


def cli_json(capsys, *argv):
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def cli_error(capsys, *argv):
    """The CLI's one-line message for bad input (without the `liuren: ` prefix)."""
    assert main(list(argv)) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("liuren: ") and "\n" not in err
    return err[len("liuren: "):]


def text(r):
    """A page's visible text, roughly (tags dropped, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", "", r.text))


# --------------------------------------------------------------------------- pages
def test_index_has_the_form(client):
    r = client.get("/")
    assert r.status_code == 200
    for name in ("moment", "tz", "day", "on", "night", "month", "year", "born", "sex", "guiren", "shehai",
                 "day_boundary", "yuejiang", "question", "variant"):
        assert f'name="{name}"' in r.text, name
    assert 'action="/board"' in r.text


def test_board_is_rendered_on_the_server(client):
    r = client.get("/board?" + BOARD)
    assert r.status_code == 200
    t = text(r)
    assert '<html lang="zh-Hant">' in r.text
    for s in ("天地盤", "四課", "三傳（涉害）", "發用之由", "【格】", "【神煞】", "斬首", "以無始論。", "〔凶〕",
              "《六壬經緯》卷3 ¶7", "「渉害行來本家止，路逢多克為用取。」"):
        assert s in t, s
    # the 天將 on each palace of the square, the 旬空 marked
    assert t.count("貴人") >= 2 and "官鬼・空" in t
    # a judgment links to its chain, and hovering a branch gives its 類相 (title, without JS)
    assert 'href="/board?day=%E4%B8%81%E5%8D%AF' in r.text and "why=ge-zhanshou#chain" in r.text
    assert re.search(r'title="午　[^"]*臟腑：心', r.text)
    # and so does a branch a judgment is about
    line = re.search(r'data-rule="ge-zhanshou">(.*?)</li>', r.text, re.S).group(1)
    assert re.search(r'<span class="sym" title="亥　[^"]*">亥</span>', line)
    assert "斬首（亥，見於初傳）" in t


def test_judgments_and_findings_as_the_cli_prints_them(client, capsys):
    assert main(["judge", "--day", "丁卯", "--on", "亥加丑", "--month", "壬寅"]) == 0
    out = capsys.readouterr().out
    out = out[out.index("【"):]                 # the judgments and findings, after the board
    t = text(client.get("/board?" + BOARD))
    for heading in re.findall(r"^【(.+)】$", out, flags=re.M):
        assert f"【{heading}】" in t
    lines = re.findall(r"^  (\S.*)$", out, flags=re.M)
    assert len(lines) > 20
    for line in lines:
        name = line.split("（")[0].split("　")[0]
        head, sep, tail = name.partition(":")
        if sep:                 # a child beside its parent is one line on the page: 失時（干支上乘此）
            assert tail in t and (head in t), line
        else:
            assert name in t, line


def test_defeated_judgments_are_marked(client):
    q = "day=甲子&on=申加子&month=丙寅"
    defeated = [f for f in client.get("/api/judge?" + q).json()["fired"] if f["defeated"]]
    assert defeated
    r = client.get("/board?" + q)
    item = re.search(r'<li class="judgment[^"]* defeated"[^>]*data-rule="%s">(.*?)</li>' % defeated[0]["rule"], r.text, re.S)
    assert item and "勿以實論" in item.group(1)
    chain = text(client.get("/board?" + q + "&why=" + defeated[0]["rule"]))
    assert "此名勿以實論，因：" in chain


def test_how_chain_in_the_html(client):
    r = client.get("/board?" + BOARD + "&why=ge-zhanshou")
    assert r.status_code == 200
    t = text(r)
    assert 'data-rule="ge-zhanshou">斬首 <span class="ok">成立' in r.text      # its id only in the markup
    assert "「斬首 初傳空曰斬首，凡占人占事以無始論。」" in t
    assert "《六壬經緯》卷3 ¶7" in t and "旬空起例" in t
    assert "視所乘何神、所屬何煞、所臨何煞" in t
    graph = json.loads(re.search(r'<script type="application/json" id="chain-graph">(.*?)</script>', r.text, re.S).group(1))
    targets = [n["data"] for n in graph["nodes"] if n["data"].get("target")]
    assert [d["rule"] for d in targets] == ["ge-zhanshou"]
    ids = {n["data"]["id"] for n in graph["nodes"]}
    assert all(e["data"]["source"] in ids and e["data"]["target"] in ids for e in graph["edges"])
    assert any(n["data"]["kind"] == "fact" for n in graph["nodes"])


def test_chain_by_name_and_by_japanese_label(client):
    a = client.get("/api/judge?day=丁卯&on=巳加子&why=ge-zhuyin").json()["why"]
    b = client.get("/api/judge?day=丁卯&on=巳加子&why=鋳印").json()["why"]        # its 日譯 label
    assert a == b and a["rule"] == "ge-zhuyin" and a["fired"]
    assert client.get("/api/judge?day=丁卯&on=巳加子&why=斬首").json()["why"]["rule"] == "ge-zhanshou"
    r = client.get("/api/judge?day=丁卯&on=巳加子&why=鑄印")          # two entries of that name: the CLI's message
    assert r.status_code == 400 and "names several entries" in r.json()["error"] and "ge-zhuyin" in r.json()["error"]


def test_whynot_in_the_html(client):
    r = client.get("/board?" + BOARD + "&why=ge-shizhong")
    assert r.status_code == 200
    t = text(r)
    assert 'data-rule="ge-shizhong">始終 <span class="no">未成立' in r.text and "ge-shizhong" not in t and "✗ 要" in t \
        and "初傳 即 旬首；此盤：初傳 亥、旬首 子" in t


def test_filters_by_kind_valence_book(client):
    t = client.get("/board?" + BOARD + "&kind=格").text
    hidden = re.findall(r'<li class="judgment[^"]*" data-kind="([^"]+)"[^>]*hidden', t)
    shown = re.findall(r'<li class="judgment[^"]*" data-kind="([^"]+)"[^>]*data-rule="[^"]+">', t)
    assert shown and set(shown) == {"格"} and hidden and "格" not in hidden
    d = client.get("/api/judge?" + BOARD + "&valence=凶").json()
    assert d["fired"] and {f["valence"] for f in d["fired"]} == {"凶"}
    d = client.get("/api/judge?" + BOARD + "&book=六壬經緯").json()
    assert d["fired"] and all(any(s.get("book") == "六壬經緯" for s in f["sources"]) for f in d["fired"])


def test_placements_with_all(client):
    assert "【起例】" not in text(client.get("/board?" + BOARD))
    assert "【起例】" in text(client.get("/board?" + BOARD + "&all=true"))
    d = client.get("/api/judge?" + BOARD + "&all=true&kind=起例").json()
    assert d["fired"] and {f["kind"] for f in d["fired"]} == {"起例"}


def test_board_without_a_moment_becomes_a_link_with_one(client):
    r = client.get("/board", follow_redirects=False)
    assert r.status_code == 303 and re.search(r"moment=\d{4}-\d\d-\d\dT\d\d%3A\d\d", r.headers["location"])
    assert client.get(r.headers["location"]).status_code == 200


def test_rules_pages(client):
    r = client.get("/rules?kind=格&name=斬首")    # a page holds 100 rows (issue 20)
    assert r.status_code == 200 and "斬首" in r.text and "/rules/ge-zhanshou" in r.text
    assert "ge-shizhong" in client.get("/rules?name=始終").text
    r = client.get("/rules/ge-zhanshou")
    t = text(r)
    assert r.status_code == 200
    assert "「斬首 初傳空曰斬首，凡占人占事以無始論。」" in t and "《六壬經緯》卷3 ¶7" in t
    assert 'href="/rules/ge-chuan-kong"' in r.text     # the family rule that reports it, by name, with its conditions
    assert "要 初傳 為旬空" in t and "要 $" not in t      # conditions in words, the row's values put in (issue 20)
    assert "/board?day=%E4%B8%81%E5%8D%AF&amp;on=%E4%BA%A5%E5%8A%A0%E4%B8%91&amp;why=ge-zhanshou" in r.text
    r = client.get("/rules/ge-chuan-kong")
    assert "斷橋" in text(r)                           # the rows it reports
    assert client.get("/rules/鋳印").status_code == 200


def _answers(seed, gate=None):
    """The right 四課 and 三傳 of a drill lesson, from the cast (the API never gives them away)."""
    from liuren import cast
    from liuren.app.practice import practice_lesson
    les = practice_lesson(seed, gate)
    b = cast(day=les["day"], on=les["on"], night=les["night"] == "true")
    t = b.transmissions
    q1 = "&".join(f"k{i + 1}={l.upper}" for i, l in enumerate(b.lessons))
    q2 = q1 + "&chu={}&zhong={}&mo={}&men={}".format(*t.branches, t.gate)
    return les, b, q1, q2


def test_practice_round(client):
    """Issue 20's drill: step by step, each checked before the next, with the verses that decide it."""
    r = client.get("/practice", follow_redirects=False)
    assert r.status_code == 303 and "seed=" in r.headers["location"]
    a = client.get("/api/practice?seed=7").json()
    assert a == client.get("/api/practice?seed=7").json()           # reproducible
    assert a["step"] == 1 and "transmissions" not in a["board"] and "lessons" not in a["board"]   # no answer
    les, b, q1, q2 = _answers(7)
    assert a["lesson"] == les
    raw = client.get("/practice?seed=7").text
    page = text(client.get("/practice?seed=7"))
    hidden = re.sub(r"<option.*?</option>|<nav class=\"curriculum\".*?</nav>", "", raw, flags=re.S)
    assert "四課" in page and b.transmissions.gate not in hidden and "".join(b.transmissions.branches) not in hidden
    # step 1: a wrong lesson stays on step 1
    wrong = [x for x in "子丑寅卯辰巳午未申酉戌亥" if x != b.lessons[0].upper][0]
    d = client.get(f"/api/practice?seed=7&k1={wrong}&" + q1.split("&", 1)[1]).json()
    assert d["step"] == 1 and d["lessons"]["check"][0] is False and "correct" not in d["lessons"]
    # right: step 2, with the verses of the 四課
    d = client.get("/api/practice?seed=7&" + q1).json()
    assert d["step"] == 2 and d["lessons"]["ok"]
    page = text(client.get("/practice?seed=7&" + q1))
    assert "二、" in page and "四課" in page
    # step 2 right: step 3, the 格 as 5–8 candidates
    d = client.get("/api/practice?seed=7&" + q2).json()
    assert d["step"] == 3 and d["transmissions"]["ok"] and d["transmissions"]["steps"]
    cands = [x["id"] for x in d["candidates"]]
    assert 5 <= len(cands) <= 8
    fired = {f["rule"] for f in client.get("/api/judge?" + "&".join(f"{k}={v}" for k, v in les.items())).json()["fired"]}
    holds = [x for x in cands if x in fired]
    misses = [x for x in cands if x not in fired]
    assert misses                                                     # near misses are asked too
    # a correct partial claim scores right; the 格 not claimed are shown with their HOW
    if holds:
        d = client.get(f"/api/practice?seed=7&{q2}&ge_done=1&ge={holds[0]}").json()
        assert d["ge"]["ok"] and d["ge"]["claimed"] == [] and sorted(d["ge"]["missed"]) == sorted(holds[1:])
    # a false claim is wrong, with its WHY-NOT on the page
    d = client.get(f"/api/practice?seed=7&{q2}&ge_done=1&ge={misses[0]}").json()
    assert not d["ge"]["ok"] and d["ge"]["claimed"] == [misses[0]]
    page = text(client.get(f"/practice?seed=7&{q2}&ge_done=1&ge={misses[0]}"))
    assert "誤認之格" in page and "未成立" in page
    # claiming nothing is not wrong either; the 格 that hold are listed as missed
    d = client.get(f"/api/practice?seed=7&{q2}&ge_done=1").json()
    assert d["ge"]["ok"] and sorted(d["ge"]["missed"]) == sorted(holds)


def test_practice_curriculum_and_worksheet(client):
    from liuren.app.practice import CURRICULUM
    for g in CURRICULUM:
        les, b, _, _ = _answers(5, g)
        assert g in (b.transmissions.gate, b.transmissions.subtype)
        assert client.get(f"/api/practice?seed=5&gate={g}").json()["lesson"] == les
    assert client.get("/api/practice?seed=5&gate=飛門").status_code == 400
    page = client.get("/practice/sheet?seed=3&n=10").text
    assert page.count('class="sheet-lesson"') == 10 and 'id="key"' in page
    key = page.split('id="key"')[1]
    for i in range(10):
        _, b, _, _ = _answers(3 + i)
        assert "".join(b.transmissions.branches) in key
    assert client.get("/practice/sheet?seed=3&n=99").status_code == 400


def test_lang_ja(client):
    r = client.get("/board?day=丁卯&on=巳加子&lang=ja")
    assert r.status_code == 200 and '<html lang="ja">' in r.text
    t = text(r)
    assert "鋳印" in t and "三伝" in t and "判断" in t
    # a judgment is named by its label (readings are the KB's own words and may name it otherwise)
    names = re.findall(r'class="name"[^>]*>([^<]+)<', r.text.split('id="judgments"')[1])
    assert "鋳印" in names and "鑄印" not in names
    assert "lang=ja" in re.search(r'class="name" href="([^"]+)"', r.text).group(1)
    square = r.text.split('class="square"')[1].split("</section>")[0]
    assert "青竜" in square and "青龍" not in square              # a general by the label of its entry
    assert "臓腑：" in r.text and "臟腑：" not in r.text           # a 類相 category likewise
    r = client.get("/board?day=丁卯&on=巳加子&lang=ja&why=ge-zhuyin")
    assert 'data-rule="ge-zhuyin">鋳印 ' in r.text
    assert client.get("/rules?lang=ja&kind=格&name=鑄印").text.count("鋳印") >= 1
    assert '<html lang="ja">' in client.get("/practice?seed=3&lang=ja").text
    # the JSON twins take lang too, adding the labels beside the CLI's names
    d = client.get("/api/judge?day=丁卯&on=巳加子&lang=ja").json()
    assert {f["label"] for f in d["fired"] if f["rule"] == "ge-zhuyin"} == {"鋳印"}
    assert client.get("/api/why/ge-zhuyin?day=丁卯&on=巳加子&lang=ja").json()["label"] == "鋳印"
    assert client.get("/api/rules/ge-zhuyin?lang=ja").json()["label"] == "鋳印"
    assert any(r.get("label") == "鋳印" for r in client.get("/api/rules?kind=格&lang=ja").json())


# --------------------------------------------------------------------------- JSON twins = the CLI's JSON
def test_api_judge_is_the_cli_json(client, capsys):
    want = cli_json(capsys, "judge", "--day", "丁卯", "--on", "亥加丑", "--month", "壬寅", "--json")
    got = client.get("/api/judge?" + BOARD + "&trace=1").json()
    assert got["board"] == want["board"] and got["fired"] == want["fired"] and got["findings"] == want["findings"]
    assert len(got["trace"]["nodes"]) == len(want["trace"]["nodes"])
    assert "trace" not in client.get("/api/judge?" + BOARD).json()          # only when asked (issue 20)
    want = cli_json(capsys, "judge", "--day", "丁卯", "--on", "亥加丑", "--book", "六壬經緯", "--json")
    assert client.get("/api/judge?day=丁卯&on=亥加丑&book=六壬經緯").json()["fired"] == want["fired"]


def test_api_moment_as_the_cli(client, capsys):
    want = cli_json(capsys, "judge", "2026-11-22T15:24+08:00", "--json")
    got = client.get("/api/judge?moment=2026-11-22T15:24%2B08:00").json()
    assert got["board"] == want["board"] and got["fired"] == want["fired"]
    want = cli_json(capsys, "cast", "2026-11-22", "15:24", "--tz", "Asia/Shanghai", "--json")
    assert client.get("/api/cast?moment=2026-11-22 15:24&tz=Asia/Shanghai").json() == want
    assert client.get("/api/cast?day=乙丑&on=卯加卯&night=false").json() == \
        cli_json(capsys, "cast", "--day", "乙丑", "--on", "卯加卯", "--daytime", "--json")
    assert client.get("/api/cast?day=乙丑&on=卯加卯&daytime=true").json()["daytime"] is True
    assert client.get("/api/cast?day=乙丑&on=卯加卯&night=true").json()["daytime"] is False


def test_api_question_and_variant_as_the_cli(client, capsys):
    want = cli_json(capsys, "judge", "--day", "甲午", "--on", "辰加子", "--month", "丙寅", "--question", "射覆", "--json")
    got = client.get("/api/judge?day=甲午&on=辰加子&month=丙寅&question=射覆").json()
    assert got["fired"] == want["fired"] and got["findings"] == want["findings"] and got["question"] == "射覆"
    want = cli_json(capsys, "judge", "--day", "丁卯", "--on", "亥加丑", "--variant", "*=diben", "--json")
    assert client.get("/api/judge?day=丁卯&on=亥加丑&variant=*%3Ddiben").json()["fired"] == want["fired"]


def test_api_why_is_the_cli_json(client, capsys):
    for rule, board in (("斬首", ("--day", "丁卯", "--on", "亥加丑")), ("ge-shizhong", ("--day", "丁卯", "--on", "亥加丑")),
                        ("ge-shizhong", ("--day", "庚寅", "--on", "子加子"))):
        want = cli_json(capsys, "why", rule, *board, "--format", "json")
        q = "&".join(f"{k.lstrip('-')}={v}" for k, v in zip(board[::2], board[1::2]))
        assert client.get(f"/api/why/{rule}?{q}").json() == want


@pytest.mark.parametrize("fmt", ["graphml", "json", "dot", "mermaid"])
def test_api_trace_is_the_cli_export(client, capsys, fmt):
    why = ["--why", "斬首"] if fmt == "mermaid" else []       # a whole board is past Mermaid's limits
    assert main(["trace", "--day", "丁卯", "--on", "亥加丑", "--format", fmt, *why]) == 0
    want = capsys.readouterr().out
    got = client.get(f"/api/trace?day=丁卯&on=亥加丑&format={fmt}" + ("&why=斬首" if why else ""))
    assert got.status_code == 200
    assert got.text.rstrip("\n") == want.rstrip("\n")


def test_api_cast_rules_lookup_questions_are_the_cli(client, capsys):
    assert client.get("/api/cast?day=丁卯&on=亥加丑").json() == cli_json(capsys, "cast", "--day", "丁卯", "--on", "亥加丑", "--json")
    assert client.get("/api/rules?kind=格&source=000").json() == cli_json(capsys, "rules", "list", "--kind", "格", "--source", "000", "--json")
    assert client.get("/api/rules/斬首").json() == cli_json(capsys, "rules", "show", "斬首", "--json")
    assert client.get("/api/lookup?symbol=午&category=臟腑").json() == cli_json(capsys, "lookup", "午", "--category", "臟腑", "--json")
    assert main(["questions"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    qs = client.get("/api/questions").json()
    assert [q["name"] for q in qs] == [line.split("\t")[0] for line in lines]


def test_openapi_and_docs_offline(client):
    spec = client.get("/openapi.json").json()
    for path in ("/api/cast", "/api/judge", "/api/why/{rule}", "/api/trace", "/api/rules", "/api/rules/{rule}",
                 "/api/lookup", "/api/questions"):
        assert path in spec["paths"], path
    names = {p["name"] for p in spec["paths"]["/api/judge"]["get"]["parameters"]}
    assert {"day", "on", "month", "question", "variant", "book", "why"} <= names
    docs = client.get("/docs/swagger").text
    assert "/static/vendor/swagger-ui/swagger-ui-bundle.js" in docs
    page = client.get("/docs?lang=ja").text           # the API in the page's language, the Swagger UI linked
    assert 'href="/docs/swagger"' in page and "判断：成立した規則" in page and "月将加占時" in page
    assert client.get("/static/vendor/swagger-ui/swagger-ui-bundle.js").status_code == 200


def test_pages_load_nothing_from_outside(client):
    for url in ("/", "/board?" + BOARD + "&why=斬首", "/rules", "/rules/ge-zhanshou", "/practice?seed=1", "/docs"):
        page = client.get(url).text
        for src in re.findall(r'(?:src|href)="([^"]+)"', page):
            assert not re.match(r"(https?:)?//", src), (url, src)
            if src.startswith("/static/"):
                assert client.get(src).status_code == 200, src
    for lic in ("cytoscape/LICENSE", "cytoscape-dagre/LICENSE", "swagger-ui/LICENSE", "VENDOR.md"):
        assert client.get("/static/vendor/" + lic).status_code == 200


# --------------------------------------------------------------------------- bad input
CLI_BAD = [
    # (query, the CLI's argv giving the same message)
    ("day=丁子&on=亥加丑", ["cast", "--day", "丁子", "--on", "亥加丑"]),
    ("day=丁卯&on=亥加x", ["cast", "--day", "丁卯", "--on", "亥加x"]),
    ("day=%20丁卯&on=亥加丑", ["cast", "--day", " 丁卯", "--on", "亥加丑"]),      # passed on as given
    ("day=丁卯&jiang=Q&hour=丑", ["cast", "--day", "丁卯", "--jiang", "Q", "--hour", "丑"]),
    ("moment=yesterday", ["cast", "yesterday"]),
    ("moment=2026-02-30T10:00%2B08:00", ["cast", "2026-02-30T10:00+08:00"]),
    ("moment=2026-11-30T10:00&tz=Mars/Base", ["cast", "2026-11-30T10:00", "--tz", "Mars/Base"]),
    ("day=丁卯&on=亥加丑&guiren=甲鼠", ["cast", "--day", "丁卯", "--on", "亥加丑", "--guiren", "甲鼠"]),
    ("day=丁卯&on=亥加丑&shehai=dice", ["cast", "--day", "丁卯", "--on", "亥加丑", "--shehai", "dice"]),
    ("day=丁卯&on=亥加丑&day_boundary=5", ["cast", "--day", "丁卯", "--on", "亥加丑", "--day-boundary", "5"]),
    ("day=丁卯&on=亥加丑&sex=x&born=1990", ["cast", "--day", "丁卯", "--on", "亥加丑", "--sex", "x", "--born", "1990"]),
    ("day=丁卯&on=亥加丑&month=壬子午", ["cast", "--day", "丁卯", "--on", "亥加丑", "--month", "壬子午"]),
    ("day=丁卯&on=亥加丑&question=占星", ["judge", "--day", "丁卯", "--on", "亥加丑", "--question", "占星"]),
    ("day=丁卯&on=亥加丑&variant=nosuch%3Ddiben", ["judge", "--day", "丁卯", "--on", "亥加丑", "--variant", "nosuch=diben"]),
    ("day=丁卯&on=亥加丑&variant=novalue", ["judge", "--day", "丁卯", "--on", "亥加丑", "--variant", "novalue"]),
    ("day=丁卯&on=亥加丑&book=莊子", ["judge", "--day", "丁卯", "--on", "亥加丑", "--book", "莊子"]),
    ("day=丁卯&on=亥加丑&why=nosuchrule", ["why", "nosuchrule", "--day", "丁卯", "--on", "亥加丑"]),
]


@pytest.mark.parametrize("query, argv", CLI_BAD, ids=[q for q, _ in CLI_BAD])
def test_bad_input_gets_the_cli_message(client, capsys, query, argv):
    msg = cli_error(capsys, *argv)
    r = client.get("/api/judge?" + query)
    assert r.status_code == 400 and r.json() == {"error": msg}
    page = client.get("/board?" + query)
    assert page.status_code == 400
    from liuren.explain.words import error_text        # a page says it in its language, fields in words
    from liuren.knowledge.kbload import load_kb
    kb = load_kb()                                      # and the entries it suggests by their names
    said = re.sub(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+", lambda m: kb.entries[m.group(0)].name if m.group(0) in kb.entries
                  else m.group(0), error_text(msg, "zh"))
    assert said in text(page), msg


# inputs that do not go together: the page says why in its language, never the command line's English
MISMATCHED = [
    ("day=丁卯&on=亥加丑&year=2026&month=壬寅", "年 2026 與月 壬寅 不合：丙午年之寅月為 庚寅"),
    ("day=丁卯&on=亥加丑&partner-sex=m", "只填另一人之性別（m）無以知其人"),
    ("day=丁卯&on=亥加丑&partner-born=1980&partner-sex=m", "填另一人之生年，須並填年"),
    ("day=丁卯&on=亥加丑&born=1980&benming=午", "生年與本命、行年，二者擇一填之"),
    ("moment=2026-01-01T10:00&year=2026", "年與月只用於以日起盤"),
    ("moment=2026-01-01T10:00&term-day=3", "節日與農曆只用於以日起盤"),
    ("day=丁卯&on=亥加丑&partner-xingnian=午", "另一人乃夫妻之另一方（夫行年、妻行年）"),
]


@pytest.mark.parametrize("query, says", MISMATCHED, ids=[q for q, _ in MISMATCHED])
def test_inputs_that_do_not_go_together_are_said_in_the_pages_language(client, query, says):
    zh, ja = client.get("/board?" + query), client.get("/board?" + query + "&lang=ja")
    assert zh.status_code == ja.status_code == 400
    assert says in text(zh), text(zh)[:600]
    for page in (zh, ja):
        said = text(page).split("輸入有誤" if page is zh else "入力に誤り", 1)[1].split("所傳參數" if page is zh else "受け取った", 1)[0]
        assert not re.search(r"[A-Za-z]{3,}", said), said


@pytest.mark.parametrize("url, says", [
    ("/api/judge?day=丁卯&on=亥加丑&foo=1", "unknown parameter 'foo'"),
    ("/api/judge?day=丁卯&day=甲子&on=亥加丑", "day is given twice"),
    ("/api/judge?day=" + "丁" * 500, "is too long"),
    ("/api/judge?day=丁卯&on=亥加丑&kind=格子", "kind '格子'"),
    ("/api/judge?day=丁卯&on=亥加丑&valence=大吉", "valence '大吉'"),
    ("/api/judge?day=丁卯&on=亥加丑&lang=fr", "lang 'fr'"),
    ("/api/judge?day=丁卯&on=亥加丑&night=maybe", "night 'maybe'"),
    ("/api/judge?day=丁卯&on=亥加丑&night=true&daytime=true", "not both"),
    ("/api/trace?day=丁卯&on=亥加丑&format=png", "format 'png'"),
    ("/api/rules?kind=xx", "--kind 'xx'"),
    ("/api/rules?book=莊子", "--book '莊子'"),
    ("/api/rules/nosuch", "no rule or entry 'nosuch'"),
    ("/api/why/nosuch?day=丁卯&on=亥加丑", "no rule or entry 'nosuch'"),
    ("/api/lookup?symbol=X", "lookup 'X'"),
    ("/api/lookup?symbol=午&category=nope", "--category 'nope'"),
    ("/api/practice?seed=abc", "seed 'abc'"),
    ("/api/practice?seed=3&k1=子", "missing"),
    ("/api/practice?seed=3&k1=X&k2=子&k3=子&k4=子", "k1 'X'"),
    ("/api/practice?seed=3&gate=飛門", "gate '飛門'"),
])
def test_bad_input_api_one_line(client, url, says):
    r = client.get(url)
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert says in err and "\n" not in err and "Traceback" not in err


def test_unknown_rule_in_the_search_box_keeps_the_board(client):
    r = client.get("/board?" + BOARD + "&why=斬手")
    assert r.status_code == 400
    t = text(r)
    assert "無名為「斬手」之規則" in t and "相近者" in t and "天地盤" in t


def test_bad_page_echoes_every_parameter_escaped(client):
    r = client.get("/board?day=丁子&on=亥加丑&note=x")
    assert r.status_code == 400 and "此頁不收「note」一項" in text(r)
    r = client.get("/board?day=丁子&on=亥加丑")
    assert "丁子" in text(r) and "亥加丑" in text(r)        # what was passed is shown back


PAGES = ["/board?" + BOARD, "/api/judge?" + BOARD, "/rules", "/api/rules", "/practice?seed=3", "/api/practice?seed=3",
         "/api/why/斬首?" + BOARD, "/api/trace?" + BOARD, "/api/lookup?symbol=午", "/"]


@pytest.mark.parametrize("base", PAGES)
def test_script_in_every_parameter_is_escaped(client, base):
    from urllib.parse import quote
    path, _, q = base.partition("?")
    names = [kv.split("=")[0] for kv in q.split("&") if kv] + ["why", "lang", "kind", "book", "moment", "tz", "name",
                                                             "question", "variant", "seed", "chu", "gate", XSS]
    for name in names:
        items = [kv for kv in q.split("&") if kv and kv.split("=")[0] != name]
        url = path + "?" + "&".join(items + [f"{quote(name)}={quote(XSS)}"])
        r = client.get(url)
        assert r.status_code in (200, 400), (url, r.status_code)
        assert XSS not in r.text and "<script>alert" not in r.text, url
        if r.status_code == 400 and r.headers["content-type"].startswith("application/json"):
            assert "\n" not in r.json()["error"]


def test_rule_path_is_escaped(client):
    from urllib.parse import quote
    for url in ("/rules/" + quote(XSS, safe=""), "/api/rules/" + quote(XSS), "/api/why/" + quote(XSS) + "?" + BOARD):
        r = client.get(url)
        assert r.status_code == 400 and XSS not in r.text


def test_no_server_error_for_odd_values(client):
    odd = ["", " ", "0", "-1", "99999999999", "子", "甲", "加", "亥加", "加丑", "null", "%00", "\u202e", "丁卯丁卯", "true"]
    for k in ("day", "on", "jiang", "hour", "month", "year", "born", "sex", "benming", "xingnian", "moment", "night", "why"):
        for v in odd:
            q = f"day=丁卯&on=亥加丑&{k}={v}" if k not in ("day", "on") else f"{'on=亥加丑' if k == 'day' else 'day=丁卯'}&{k}={v}"
            r = client.get("/api/judge?" + q)
            assert r.status_code in (200, 400), (q, r.status_code, r.text[:200])


# --------------------------------------------------------------------------- the engine and the lock
def test_engine_is_built_once(app, client):
    from liuren.rules.engines import _engine
    client.get("/board?" + BOARD)
    before = _engine.cache_info().misses
    for q in ("day=甲子&on=子加子", "day=乙丑&on=寅加卯&month=丙寅", BOARD):
        assert client.get("/api/judge?" + q).status_code == 200
        assert client.get("/board?" + q + "&why=斬首").status_code == 200
    assert _engine.cache_info().misses == before


def test_a_judgment_is_bounded_in_time(app, client, monkeypatch):
    from liuren.app import service
    monkeypatch.setattr(service, "JUDGE_TIMEOUT", 1e-6)
    r = client.get("/api/judge?day=丙寅&on=子加丑")
    assert r.status_code == 503 and "ran longer than" in r.json()["error"]
    assert client.get("/board?day=丙寅&on=子加丑").status_code == 503
    monkeypatch.undo()
    from liuren.rules.judging import judge
    r = judge({"day": "丙寅", "on": "子加丑"})
    assert client.get("/api/judge?day=丙寅&on=子加丑").json()["fired"] == [f.to_dict(r) for f in r.fired]


def test_busy_lock_is_a_clear_503(app, client, monkeypatch):
    from liuren.app import service
    monkeypatch.setattr(service, "LOCK_TIMEOUT", 0.01)
    svc = app.state.svc
    svc.lock.acquire()
    try:
        r = client.get("/api/judge?" + BOARD)
    finally:
        svc.lock.release()
    assert r.status_code == 503 and "busy" in r.json()["error"]


# --------------------------------------------------------------------------- notebooks
def test_repr_html_of_board_and_judgment():
    from liuren import cast
    from liuren import judge
    b = cast(day="丁卯", on="亥加丑")
    h = b._repr_html_()
    assert "天地盤" in h and "四課" in h and "三傳" in h and "<style>" in h
    r = judge({"day": "丁卯", "on": "亥加丑"})
    h = r._repr_html_()
    assert "天地盤" in h and "【格】" in h and "斬首" in h and "以無始論。" in h
    assert 'href="/board' not in h                  # a notebook has no server to link to
    css = re.search(r"<style>(.*?)</style>", h, re.S).group(1)
    rules = re.findall(r"([^{}]+)\{", css)
    assert rules and all(s.strip().startswith(".liuren-nb") for r in rules for s in r.split(","))   # scoped to the cell


# --------------------------------------------------------------------------- sweeps
def test_every_chain_of_a_board_renders(app):
    """HOW of every judgment fired on a board (and WHY-NOT of a sample of the rest) through the
    page's own macro: no template error hides behind a rarely clicked name."""
    from liuren.explain import words as L
    from liuren.app import service as S
    from liuren.web.app import templates
    svc = app.state.svc
    r = svc.judged({"day": "甲子", "on": "申加子", "month": "丙寅"})
    macros = templates.env.get_template("_report.html").make_module({"w": L.WORDS["zh"], "lang": "zh"})
    fired = sorted({f.report for f in r.fired})
    rest = [i for i in list(svc.kb.entries)[::37] if i not in r.fired_ids()]
    assert len(fired) > 50 and rest
    for key in fired + rest:
        v = svc.chain_view(r, key)
        out = str(macros.report(v["report"]))
        assert f'class="chain-title" data-rule="{key}">' in out, key
        assert ("成立" in out) if key in fired else ("未成立" in out), key
        if key in fired:
            assert v["graph"] and any(n["data"].get("target") for n in v["graph"]["nodes"]), key


def test_a_sample_of_rule_pages_renders(client, app):
    from urllib.parse import quote
    kb = app.state.svc.kb
    by_kind = {}
    for e in kb.entries.values():
        by_kind.setdefault(e.kind, []).append(e.id)
    sample = [i for ids in by_kind.values() for i in ids[:3]] + list(kb.entries)[::60]
    for key in sample:
        r = client.get("/rules/" + quote(key))
        assert r.status_code == 200 and key in r.text, key


def test_the_rule_box_shows_a_name_not_an_id(client):
    """A chain opened by id (a link's why=ge-zhanshou) shows the rule's name in the box, so the
    student reads 斬首; a name several entries share stays an id, which finds it alone."""
    page = client.get("/board?" + BOARD + "&why=ge-zhanshou").text
    box = re.search(r'<input id="why" name="why" value="([^"]*)"', page).group(1)
    assert box == "斬首"
    # submitting what the box shows opens the same chain
    again = client.get("/board?" + BOARD + "&why=" + box)
    assert again.status_code == 200 and 'class="chain' in again.text
    from liuren.app.queries import find_entries
    from liuren.knowledge.kbload import load_kb
    kb = load_kb(None)
    shared = next(e for e in kb.rules.values() if len(find_entries(kb, e.name)) > 1)
    page = client.get("/board?" + BOARD + "&why=" + shared.id).text
    assert re.search(r'<input id="why" name="why" value="([^"]*)"', page).group(1) == shared.id


def test_a_worksheet_carries_no_form_notes(client):
    """The worksheet is paper: no note asks the student to fill in a year or a month."""
    from liuren.explain.words import WORDS
    page = client.get("/practice/sheet?seed=11&n=3").text
    assert page.count('class="sheet-lesson"') == 3
    for note in WORDS["zh"]["board_notes"].values():
        assert note not in page
