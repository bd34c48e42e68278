"""`liuren find`, /find and /api/find: the index of the board space against brute-force judging
(boards a query returns and random boards of the space), bad expressions as one line naming the
token, counts that sum to the count, and the editor's diff on a tiny KB.

The indexes here cover a small space (the first day or two of the sixty: 288 or 576 boards), so
the tests stay quick; the full space is the same walk, 60 times longer."""
import json
import random
import re
import shutil
import textwrap

import pytest

from liuren.app import find as F
from liuren.cli.main import main
from liuren.explain import audit as A
from liuren.explain import index as X
from liuren.rules.judging import judge
from liuren.rules.kbload import packaged_kb_dir

pytestmark = pytest.mark.xdist_group("find")
DAYS = 1


@pytest.fixture(scope="module")
def ix():
    return X.get_index(None, {}, None, DAYS, progress=False)


@pytest.fixture(scope="module")
def finder(ix):
    f = F.Finder(None, days=DAYS)
    f._ix[((), None)] = ix
    return f


_JUDGED = {}


def fired(ix, i):
    """Brute force: judge board i of the space afresh (the whole judgment, with its trace)."""
    if i not in _JUDGED:
        b = ix.board(i)
        _JUDGED[i] = judge(b).fired_ids()
    return _JUDGED[i]


def holds(tree, ids_of, got):
    if tree[0] == "name":
        return bool(set(ids_of(tree[1])) & got)
    if tree[0] == "not":
        return not holds(tree[1], ids_of, got)
    a, b = holds(tree[1], ids_of, got), holds(tree[2], ids_of, got)
    return a and b if tree[0] == "and" else a or b


def test_the_space_is_the_audits(ix):
    space = A.board_space("all", "both", {}, DAYS)
    assert ix.n == len(space) == 288
    for i in (0, 1, 13, 24, 100, 287):
        assert ix.board(i) == space[i]


def test_index_agrees_with_brute_force_on_random_boards(ix):
    rng = random.Random(23)
    for i in rng.sample(range(ix.n), 6):
        got = fired(ix, i)
        indexed = {e for e, x in ix.bits.items() if x >> i & 1}
        assert indexed == got, (ix.board(i), sorted(indexed ^ got)[:10])


EXPRS = ["斬首 and 元首課", "斬首 or 返吟", "not (斬首 or 元首課) and 重審課", "ge-zhanshou and not 元首課"]


@pytest.mark.parametrize("expr", EXPRS)
def test_find_agrees_with_brute_force(ix, expr):
    tree = F.parse(expr)
    r = F.find(ix, expr, limit=1000)
    returned = [ix.board(i) for i in range(ix.n)]
    idx = {json.dumps(returned[i], sort_keys=True, ensure_ascii=False): i for i in range(ix.n)}
    got = []
    for b in r["boards"]:
        kw = dict(day=b["day"], jiang=b["on"][0], hour=b["on"][-1], month=b["month"], night=b["night"], year=b["year"],
                  born=b["born"], sex=b["sex"])
        got.append(idx[json.dumps(kw, sort_keys=True, ensure_ascii=False)])
    assert len(got) == r["count"]
    rng = random.Random(expr)
    ids_of = lambda n: F.resolve(ix, n)      # noqa: E731
    for i in rng.sample(got, min(3, len(got))):           # boards it returns hold
        assert holds(tree, ids_of, fired(ix, i)), ix.board(i)
    others = [i for i in range(ix.n) if i not in set(got)]
    for i in rng.sample(others, 3):                       # random boards it leaves out do not
        assert not holds(tree, ids_of, fired(ix, i)), ix.board(i)


def test_count_by_sums_to_the_count(ix):
    for by in F.COUNT_BY:
        r = F.find(ix, "斬首 or 元首課", count_by_key=by, limit=0)
        assert sum(r["counts"].values()) == r["count"] > 0, by
    r = F.find(ix, "斬首", month="寅,卯", daynight="night", limit=0, count_by_key="month")
    assert {k for k, n in r["counts"].items() if n} <= {"丙寅", "丁卯"}
    assert len(r["counts"]) == 12 and r["counts"]["戊辰"] == 0       # a count of 0 is shown
    assert r["of"] == ix.n // 12 * 2 // 2


def test_filters_keep_only_their_boards(ix):
    r = F.find(ix, "斬首 or 返吟", gate="賊克", month="丙寅", daynight="day", limit=50)
    for b in r["boards"]:
        assert b["gate"] == "賊克" and b["month"] == "丙寅" and b["night"] is False
    r2 = F.find(ix, "斬首", gate="重審", limit=50)
    assert all(b["lesson"] == "重審" for b in r2["boards"])


@pytest.mark.parametrize("expr, token", [
    ("斬首 and", "'and'"), ("(斬首 and 元首課", "'('"), ("斬首)", "')'"), ("and 斬首", "'and'"),
    ("斬首 元首課", "'元首課'"), ("斬首 or or 元首課", "'or'"), ("()", "'()'"), ("", "expression")])
def test_bad_expressions_name_the_token(expr, token):
    with pytest.raises(F.FindError) as e:
        F.parse(expr)
    assert token in str(e.value) and "\n" not in str(e.value)


def test_unknown_rule_says_did_you_mean(ix, capsys):
    with pytest.raises(F.FindError, match="did you mean.*斬首"):
        F.find(ix, "斬手 and 元首課")
    assert main(["find", "斬手 and 元首課"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("liuren: find: unknown rule '斬手'") and "斬首" in err and "\n" not in err
    assert main(["find", "(斬首"]) == 2
    assert "'('" in capsys.readouterr().err
    for bad in (["find", "斬首", "--count-by", "year"], ["find"], ["find", "斬首", "--diff"]):
        assert main(bad) == 2
        assert "\n" not in capsys.readouterr().err.strip()


def test_filter_errors_name_the_value(ix):
    for kw, word in ((dict(month="子月"), "子月"), (dict(day="甲丑"), "甲丑"), (dict(gate="賊"), "賊"),
                     (dict(daynight="dusk"), "dusk"), (dict(limit="x"), "'x'")):
        with pytest.raises(F.FindError, match=word):
            F.find(ix, "斬首", **kw)


def test_names_in_either_language_and_aliases(ix):
    # a name, its id and its Japanese label find the same boards
    base = F.find(ix, "斬首", limit=0)["count"]
    assert F.find(ix, "ge-zhanshou", limit=0)["count"] == base > 0
    ja = [v for (name, kind, al, labels) in [ix.names["ge-zhanshou"]] for v in labels.values()]
    for x in ja:
        assert F.find(ix, x, limit=0)["count"] == base


def test_same_input_same_bytes(ix):
    a = json.dumps(F.find(ix, "斬首 or 元首課", facets=True), ensure_ascii=False)
    b = json.dumps(F.find(ix, "斬首 or 元首課", facets=True), ensure_ascii=False)
    assert a == b


def test_cooccur_counts_and_lift(ix):
    r = F.cooccur(ix, "返吟", limit=5)
    base = F.find(ix, "返吟", limit=0)["count"]
    assert r["count"] == base and r["cooccur"]
    for row in r["cooccur"]:
        both = F.find(ix, f"返吟 and {row['id']}", limit=0)["count"]
        assert both == row["count"]
        assert abs(row["lift"] - both * ix.n / (base * F.find(ix, row["id"], limit=0)["count"])) < 1e-2


def test_where_it_fires_block(ix):
    w = F.where_it_fires(ix, "ge-zhanshou")
    assert w["count"] == ix.bits["ge-zhanshou"].bit_count()
    assert sum(w["by_gate"].values()) == w["count"]
    assert 0 < len(w["boards"]) <= 10
    for b in w["boards"]:
        assert "斬首" in b["about"]


def test_cli_find_json_and_count_by(ix, monkeypatch, capsys):
    monkeypatch.setattr(F.Finder, "__init__", lambda self, kb_dir=None, days=60: (
        setattr(self, "kb_dir", None), setattr(self, "days", DAYS), setattr(self, "_ix", {((), None): ix}),
        setattr(self, "_missed", {}))[0])
    assert main(["find", "斬首 and 元首課", "--json", "--limit", "3"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert set(d) >= {"query", "count", "boards"} and len(d["boards"]) == min(3, d["count"])
    assert set(d["boards"][0]) >= {"day", "on", "month", "night", "transmissions"}
    assert main(["find", "斬首 and 元首課", "--count-by", "gate", "--json"]) == 0
    c = json.loads(capsys.readouterr().out)
    assert sum(c["counts"].values()) == c["count"] == d["count"]
    assert main(["find", "斬首 and 元首課", "--limit", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"斬首 and 元首課: {d['count']} boards") and "liuren judge --day" in out
    assert "ge-zhanshou" not in out             # names, not ids, for a reader
    assert main(["find", "--cooccur", "返吟", "--limit", "3"]) == 0
    assert "lift" in capsys.readouterr().out


# --------------------------------------------------------------------------- the editor's diff, on a tiny KB
TINY = """\
questions:
  - id: t-q
    name: 試問
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]

rules:
  - id: t-asked
    name: 問而後論
    kind: 占驗
    valence: 平
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 問: {問: 試問}
      - 位: {位: 末傳, 支: 寅}
  - id: t-chu-zi
    name: 初子
    kind: 格
    valence: 平
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: 子}
  - id: t-mo-yin
    name: 末寅
    kind: 格
    valence: 平
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 末傳, 支: 寅}
"""


def test_diff_of_a_working_copy(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    for d, text in ((old, TINY), (new, TINY.replace("支: 子}", "支: 午}"))):
        shutil.copytree(packaged_kb_dir() / "core", d / "core")
        (d / "tiny.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    a = X.get_index(str(old), {}, None, DAYS, progress=False)
    b = X.get_index(str(new), {}, None, DAYS, progress=False)
    rep = F.diff(a, b)
    rows = {r["id"]: r for r in rep["entries"]}
    assert set(rows) == {"t-chu-zi"}                  # 末寅 fires where it fired
    r = rows["t-chu-zi"]
    assert r["after"] == r["before"] + r["gained"] - r["lost"]
    assert r["gained"] == (b.bits["t-chu-zi"] & ~a.bits["t-chu-zi"]).bit_count()
    assert r["lost"] > 0 and r["gained"] > 0


# --------------------------------------------------------------------------- the web: /find and /api/find
@pytest.fixture(scope="module")
def client(finder):
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient
    from liuren.web.app import create_app
    app = create_app(warm=False)
    app.state.finder = finder
    return TestClient(app, raise_server_exceptions=False)


def test_api_find_is_the_clis_json(client, ix):
    r = client.get("/api/find", params={"q": "斬首 and 元首課", "limit": "5"})
    assert r.status_code == 200
    d = r.json()
    assert d["count"] == F.find(ix, "斬首 and 元首課", limit=0)["count"]
    assert sum(d["facets"]["gate"].values()) == d["count"] == sum(d["facets"]["daynight"].values())
    assert len(d["boards"]) == min(5, d["count"])


def test_api_find_bad_input_is_400_with_one_line(client):
    for q, word in (("(斬首", "'('"), ("斬手", "did you mean")):
        r = client.get("/api/find", params={"q": q})
        assert r.status_code == 400 and word in r.json()["error"]
    r = client.get("/api/find", params={"q": "斬首", "month": "<script>"})
    assert r.status_code == 400 and "<script>" not in r.text


def test_find_page_facets_and_links(client, ix):
    r = client.get("/find", params={"q": "斬首", "daynight": "night"})
    assert r.status_code == 200
    t = r.text
    n = F.find(ix, "斬首", daynight="night", limit=0)["count"]
    assert f'id="find-count">斬首：{n}' in t
    assert 'id="facet-gate"' in t and 'id="facet-month"' in t and 'id="facet-daynight"' in t
    assert "/board?day=" in t and "why=ge-zhanshou" in t
    bad = client.get("/find", params={"q": "斬首 and"})
    assert bad.status_code == 400 and "&#39;and&#39; at the end" in bad.text


def test_rule_page_shows_where_it_fires(client, ix):
    r = client.get("/rules/ge-zhanshou")
    assert r.status_code == 200 and 'id="where-it-fires"' in r.text
    assert f"{ix.bits['ge-zhanshou'].bit_count()} / {ix.n}" in r.text


def test_a_questions_rules_get_an_index_of_their_own(tmp_path):
    d = tmp_path / "kb"
    shutil.copytree(packaged_kb_dir() / "core", d / "core")
    (d / "tiny.yaml").write_text(textwrap.dedent(TINY), encoding="utf-8")
    plain = X.get_index(str(d), {}, None, DAYS, progress=False)
    asked = X.get_index(str(d), {}, "試問", DAYS, progress=False)
    assert F.find(plain, "問而後論", limit=0)["count"] == 0
    n = F.find(asked, "問而後論", limit=3)
    assert n["count"] == F.find(asked, "末寅", limit=0)["count"] > 0
    assert all("--question 試問" in b["command"] for b in n["boards"])
    assert X.index_key(str(d), {}, "試問", DAYS) != X.index_key(str(d), {}, None, DAYS)


def test_an_index_not_built_is_503_with_the_command(client, tmp_path, monkeypatch):
    """An index nobody built: the API's one line names the command that builds it; the page says
    so in the page's words, with no command line."""
    monkeypatch.setenv("LIUREN_CACHE_DIR", str(tmp_path / "empty-cache"))
    from liuren.app.find import Finder
    client.app.state.finder, kept = Finder(client.app.state.finder.kb_dir), client.app.state.finder
    try:
        r = client.get("/api/find", params={"q": "斬首", "guiren": "甲羊", "shehai": "mengzhong"})
        assert r.status_code == 503 and "liuren find --build --guiren 甲羊 --shehai mengzhong" in r.json()["error"]
        from liuren.explain.words import WORDS
        for lang in ("zh", "ja"):
            page = client.get("/find", params={"q": "斬首", "guiren": "甲羊", "shehai": "mengzhong", "lang": lang})
            assert page.status_code == 503
            error = re.search(r'<p class="error"[^>]*>(.*?)</p>', page.text, re.S).group(1)
            assert error and "--" not in error and "liuren" not in error
            assert ("索引" in error) and (re.search(r"[ぁ-ん]", error) is not None) == (lang == "ja")
    finally:
        client.app.state.finder = kept


def test_each_lesson_lists_boards_of_different_lessons(ix):
    r = F.find(ix, "斬首 or 元首課", limit=100, each_lesson=True)
    lessons = [(b["day"], b["on"]) for b in r["boards"]]
    assert len(lessons) == len(set(lessons)) == r["lessons"] == len(F.count_by(ix, F.evaluate(ix, F.parse("斬首 or 元首課")), "lesson"))


def test_find_page_shows_what_fires_most_with_it(client, ix):
    r = client.get("/find", params={"q": "返吟"})
    assert r.status_code == 200 and 'id="find-cooccur"' in r.text
    top = F.cooccur(ix, "返吟", 10)["cooccur"][0]
    assert f">{top['name']}</a>" in r.text
    import re
    table = r.text.split('id="find-cooccur"')[1].split("</table>")[0]
    shown = re.sub(r"<[^>]+>", " ", table)          # what a reader sees: names, never ids
    assert top["id"] not in shown
