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
from liuren.knowledge.kbload import packaged_kb_dir

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


def judged_afresh(ix, i):
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
    """The index's boards are the shared space's (knowledge/space.py): each lesson's 24 base boards (the
    audit's board_space) and then its extra boards, one input changed, for each dimension some rule reads."""
    from liuren.knowledge import space as SPACE
    base = A.board_space("all", "both", {}, DAYS)
    assert len(base) == 288
    P = ix.per_lesson
    for j in (0, 1, 13, 23, 24, 100, 287):
        lesson, k = divmod(j, 24)
        assert ix.board(lesson * P + k) == base[j] and ix.dim_of(lesson * P + k) is None
    wide = SPACE.space_boards(DAYS, "all", (False, True), {}, list(ix.dims))
    real = F.bits_of(ix.all)
    assert ix.size == len(wide) == len(real) > 288
    for n, (b, dim) in enumerate(wide):
        assert ix.board(real[n]) == b and ix.dim_of(real[n]) == dim


def test_index_agrees_with_brute_force_on_random_boards(ix):
    rng = random.Random(23)
    for i in rng.sample(range(ix.n), 6):
        got = judged_afresh(ix, i)
        indexed = {e for e, x in ix.bits.items() if x >> i & 1}
        assert indexed == got, (ix.board(i), sorted(indexed ^ got)[:10])


EXPRS = ["斬首 and 元首課", "斬首 or 返吟", "not (斬首 or 元首課) and 重審課", "ge-zhanshou and not 元首課"]


@pytest.mark.parametrize("expr", EXPRS)
def test_find_agrees_with_brute_force(ix, expr):
    tree = F.parse(expr)
    r = F.find(ix, expr, limit=1000)
    reals = F.bits_of(ix.all)
    idx = {json.dumps(ix.board(i), sort_keys=True, ensure_ascii=False): i for i in reals}
    got = []
    for b in r["boards"]:
        kw = dict(day=b["day"], jiang=b["on"][0], hour=b["on"][-1], month=b["month"], night=b["night"], year=b["year"],
                  sex=b["sex"], **{k: b[k] for k in ("born", "benming", "xingnian", "lunar", "term_day")
                                   if b.get(k) is not None})
        got.append(idx[json.dumps(kw, sort_keys=True, ensure_ascii=False)])
    assert len(got) == r["count"]
    rng = random.Random(expr)
    ids_of = lambda n: F.resolve(ix, n)      # noqa: E731
    for i in rng.sample(got, min(3, len(got))):           # boards it returns hold
        assert holds(tree, ids_of, judged_afresh(ix, i)), ix.board(i)
    others = [i for i in reals if i not in set(got)]
    for i in rng.sample(others, 3):                       # random boards it leaves out do not
        assert not holds(tree, ids_of, judged_afresh(ix, i)), ix.board(i)


def test_count_by_sums_to_the_count(ix):
    for by in F.COUNT_BY:
        r = F.find(ix, "斬首 or 元首課", count_by_key=by, limit=0)
        assert sum(r["counts"].values()) == r["count"] > 0, by
    r = F.find(ix, "斬首", month="寅,卯", daynight="night", limit=0, count_by_key="month")
    assert {k for k, n in r["counts"].items() if n} <= {"庚寅", "辛卯"}
    assert len(r["counts"]) == 12 and r["counts"]["壬辰"] == 0       # a count of 0 is shown
    assert r["of"] == F.filter_mask(ix, month="寅,卯", daynight="night").bit_count() >= 24


def test_filters_keep_only_their_boards(ix):
    r = F.find(ix, "斬首 or 返吟", gate="賊克", month="庚寅", daynight="day", limit=50)
    assert r["boards"]                              # the checks below look at boards, not at none
    for b in r["boards"]:
        assert b["gate"] == "賊克" and b["month"] == "庚寅" and b["night"] is False
    r2 = F.find(ix, "斬首", gate="重審", limit=50)
    assert r2["boards"] and all(b["lesson"] == "重審" for b in r2["boards"])


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
        assert abs(row["lift"] - both * ix.size / (base * F.find(ix, row["id"], limit=0)["count"])) < 1e-2


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
    assert bad.status_code == 400 and "式末之「and」後無物" in bad.text     # in the page's language


def test_rule_page_shows_where_it_fires(client, ix):
    r = client.get("/rules/ge-zhanshou")
    assert r.status_code == 200 and 'id="where-it-fires"' in r.text
    assert f"{ix.bits['ge-zhanshou'].bit_count()} / {ix.size}" in r.text


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


@pytest.mark.parametrize("qs, words", [("q=斬首&count_by=year", "year"), ("q=斬首&cooccur=zzzz", "zzzz"),
                                       ("cooccur=zzzz", "zzzz")])
def test_the_page_refuses_what_the_api_refuses(client, qs, words):
    """Issue 29 §6: /find checks count_by and cooccur as /api/find does (a 400, never a silent 200)."""
    api = client.get("/api/find?" + qs)
    page = client.get("/find?" + qs)
    assert api.status_code == 400 and page.status_code == 400, (api.text[:300], page.text[:300])
    assert words in page.text


# --------------------------------------------------------------------------- issue 31: the atlas for research
@pytest.fixture
def cli_ix(ix, monkeypatch):
    """`liuren find` in this process, answering from the small index."""
    monkeypatch.setattr(F.Finder, "__init__", lambda self, kb_dir=None, days=60: (
        setattr(self, "kb_dir", None), setattr(self, "days", DAYS), setattr(self, "_ix", {((), None): ix}),
        setattr(self, "_missed", {}))[0])
    return ix


def _judged_facts(ix, i):
    """Brute force: board i judged afresh; the facts a query may name, from its own 位/盤/傳 facts
    and the 見 and 空 facts its rules derived."""
    from liuren.casting.cast import cast
    from liuren.knowledge.facts import board_facts
    b = ix.board(i)
    j = judge(b)
    seen = {(d.get("煞"), d.get("位")) for f in j.firings for d in f.new if d["t"] == "見"}
    void = {d.get("支") for f in j.firings for d in f.new if d["t"] == "空"}
    return X.board_fact_keys(board_facts(cast(**b), None), seen, void)


def test_board_facts_in_the_index_agree_with_brute_force(ix):
    rng = random.Random(31)
    for i in rng.sample(F.bits_of(ix.all), 6):
        want = _judged_facts(ix, i)
        got = {k for k, x in ix.facts.items() if x >> i & 1}
        assert got == want, (ix.board(i), sorted(got ^ want)[:10])
    assert any(k[0] == "@" and k[1] == "旬空" for k in ix.facts)      # the KB's sightings are there


def test_position_and_fact_terms(ix):
    def count(e):
        return F.find(ix, e, limit=0)["count"]
    per = ix.size // (ix.days * 12)                     # a lesson's boards, base and extra
    chu = {b: sum(per for g, s, t in ix.lessons if t[0] == b) for b in "子丑寅卯辰巳午未申酉戌亥"}
    for b, n in chu.items():
        assert count(f"初傳={b}") == n
    assert sum(chu.values()) == ix.size
    assert count("gate=賊克") == F.masks(ix)["gate"]["賊克"].bit_count() == count("門=賊克")
    assert count("初傳 空") == count("初傳空") == count("初傳 空 or 初傳空") > 0
    assert count("not 初傳 空") == ix.size - count("初傳 空")
    # 「初傳 空」 is 旬空 seen at 初傳 (the KB's sighting) wherever 初傳 is a place of 見
    assert count("初傳 空") == count("旬空@初傳")
    # a general on a 地盤 branch: one general per branch on every board
    assert sum(count(f"貴人@{b}") for b in "子丑寅卯辰巳午未申酉戌亥") == ix.size
    assert count("貴人@卯") == count("貴@卯")
    # combined with rules
    x = F.evaluate(ix, F.parse("斬首")) & F.evaluate(ix, F.parse("初傳 空"))
    assert count("斬首 and 初傳 空") == x.bit_count()
    assert count("month=寅 and daynight=夜 and dim=base") == ix.days * 12
    assert F.find(ix, "初傳=亥 and 鬼@初傳", limit=5)["facts"] == ["初傳=亥", "鬼@初傳"]


@pytest.mark.parametrize("expr, word", [
    ("初傳=甲", "'甲' is not a branch"), ("鬼@卯", "only a 天將"), ("鬼@天上", "neither a position"),
    ("gate=門", "not a gate"), ("初傳=亥=子", "write one of"), ("年=午", "neither a position")])
def test_bad_fact_terms_are_one_line(expr, word):
    with pytest.raises(F.FindError, match=word) as e:
        F.parse(expr)
    assert "\n" not in str(e.value)


def test_an_unknown_shensha_names_the_nearest(ix):
    with pytest.raises(F.FindError, match="not a 神煞 seen anywhere"):
        F.find(ix, "鬼鬼鬼@初傳")


@pytest.mark.parametrize("expr", [" or ".join(["斬首"] * 1000), "(" * 260 + "斬首" + ")" * 260,
                                  "not " * 1000 + "斬首", " and ".join(["斬首 or 元首課"] * 3000)])
def test_long_and_deep_expressions_are_answered(ix, expr):
    tree = F.parse(expr)
    n = F.find(ix, expr, limit=0)["count"]
    assert n == F.evaluate(ix, tree).bit_count()
    assert n in (F.find(ix, "斬首", limit=0)["count"], F.find(ix, "斬首 or 元首課", limit=0)["count"])
    assert F.names_in(tree)[:1] in (["斬首"], [])


def test_too_big_or_unbalanced_expressions_are_one_line_exit_2(cli_ix, capsys):
    for expr in ("(" * 5000 + "斬首" + ")" * 4999, " or ".join(["斬首"] * (F.MAX_TOKENS // 2 + 1)),
                 "not " * 3000, "斬首 " + ")" * 300):
        assert main(["find", expr, "--limit", "1"]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("liuren: find:") and "\n" not in err and "Recursion" not in err
    assert main(["find", " or ".join(["斬首"] * 1000), "--count-by", "gate"]) == 0
    out = capsys.readouterr().out
    assert "… (" in out.splitlines()[0] and len(out.splitlines()[0]) < 200     # a long heading is cut


def test_a_shared_name_asks_which(ix, cli_ix, capsys, client):
    shared = next(k for k, v in F._lookup(ix).items() if len(v) > 1 and k == "杜傳")
    with pytest.raises(F.Ambiguous) as e:
        F.find(ix, shared)
    ids = [c[0] for c in e.value.choices]
    assert len(ids) >= 2 and all(i in str(e.value) for i in ids)
    assert main(["find", shared]) == 2
    err = capsys.readouterr().err
    assert all(i in err for i in ids) and "give an id" in err
    for i in ids:                               # each alone is a query of its own
        assert F.find(ix, i, limit=0)["count"] == ix.bits.get(i, 0).bit_count()
    r = client.get("/find", params={"q": f"{shared} and not 返吟"})
    assert r.status_code == 400
    links = re.findall(r'<li><a href="/find\?([^"]+)">', r.text)
    from urllib.parse import parse_qs
    qs = [parse_qs(x)["q"][0] for x in links]
    assert qs == [f"{i} and not 返吟" for i in ids]
    assert "為 2 條之名" in r.text or f"為 {len(ids)} 條之名" in r.text


def test_q_takes_a_long_expression_and_other_parameters_stay_short(client):
    q = " or ".join(["斬首", "元首課"] * 120)[:1000].rsplit(" or ", 1)[0]
    assert 900 < len(q) <= 1000
    r = client.get("/api/find", params={"q": q, "limit": "1"})
    assert r.status_code == 200, r.text[:300]
    r = client.get("/find", params={"q": "斬首 or " * 260 + "斬首"})
    assert r.status_code == 400 and "太長" in r.text and "characters" not in r.text
    assert client.get("/api/find", params={"q": "斬首", "day": "甲" * 65}).status_code == 400
    # the page's own co-occurrence links, for a 44-character query, all answer
    q = "(斬首 or 元首課 or 重審課) and not (返吟 or 伏吟) and not 涉害課"
    page = client.get("/find", params={"q": q})
    assert page.status_code == 200
    links = re.findall(r'<a href="/find\?(q=[^"]+)">', page.text)
    assert links
    for href in links:
        assert client.get("/find?" + href.replace("&amp;", "&")).status_code == 200


@pytest.mark.parametrize("lang, want, english", [("zh", "未閉", "never closed"), ("ja", "閉じていない", "never closed")])
def test_parse_errors_in_the_pages_language(client, lang, want, english):
    r = client.get("/find", params={"q": "((斬首", "lang": lang})
    assert r.status_code == 400
    err = re.search(r'id="find-error">([^<]*)<', r.text).group(1)
    assert want in err and english not in err
    for q in ("斬首 and", "and 斬首", "斬首 元首課", "斬手", "初傳=甲", "鬼@卯", "()"):
        r = client.get("/find", params={"q": q, "lang": lang})
        err = re.search(r'id="find-error">([^<]*)<', r.text).group(1)
        assert r.status_code == 400 and not re.search(r"[a-z]{4,}", err.replace("and", "")), (q, err)


def test_cross_table_text_json_and_page(ix, cli_ix, capsys, client):
    r = F.find(ix, "斬首 or 返吟", count_by_key="month,gate", limit=0)
    t = r["table"]
    assert len(t["rows"]) == 12 and t["cols"] == list(F.GATES)          # every value, 0 included
    assert sum(t["row_totals"]) == sum(t["col_totals"]) == t["total"] == r["count"]
    assert any(0 in row for row in t["cells"])
    for k, row in zip(t["rows"], t["cells"]):
        for g, n in zip(t["cols"], row):
            assert n == F.find(ix, "斬首 or 返吟", month=k, gate=g, limit=0)["count"]
    assert main(["find", "斬首 or 返吟", "--count-by", "month,gate", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["table"] == t
    assert main(["find", "斬首 or 返吟", "--count-by", "month,gate"]) == 0
    out = capsys.readouterr().out
    assert "month＼gate" in out and "合計" in out and " 0 " in out
    page = client.get("/find", params={"q": "斬首 or 返吟", "count_by": "month,gate"})
    cells = re.findall(r'<td class="num">([\d,]+)</td>', page.text.split('id="find-table"')[1].split("</table>")[0])
    assert len(cells) == 13 * 10 and cells[-1] == f"{r['count']:,}"
    c1 = F.find(ix, "斬首", count_by_key="初傳", limit=0)["counts"]
    assert list(c1) == list("子丑寅卯辰巳午未申酉戌亥") and sum(c1.values()) == F.find(ix, "斬首", limit=0)["count"]


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_the_page_offers_count_by_keys_in_its_own_words(ix, client, lang):
    """The count box offers each key by the word the page says it with (never month, gate …), and each
    word it offers counts as the key does."""
    from liuren.explain.words import WORDS
    page = client.get("/find", params={"lang": lang}).text
    box = page.split('id="count_by"')[1].split("</datalist>")[0]
    offered = re.findall(r'(?:value|placeholder)="([^"]*)"', box)
    assert len(offered) >= 9 and not any(re.search(r"[A-Za-z]", x) for x in offered), offered
    words = WORDS[lang]["find_by_keys"]
    assert f'placeholder="{words["month"]},{words["gate"]}"' in box
    for key, word in words.items():
        assert f'<option value="{word}">' in box
        assert F.find(ix, "斬首", count_by_key=word, limit=0)["counts"] == \
            F.find(ix, "斬首", count_by_key=key, limit=0)["counts"], (key, word)


def test_cooccur_sorted_by_lift_or_count(ix, client):
    by_lift = F.cooccur(ix, "返吟", limit=50)["cooccur"]
    by_count = F.cooccur(ix, "返吟", limit=50, sort="count")["cooccur"]
    assert [r["lift"] for r in by_lift] == sorted((r["lift"] for r in by_lift), reverse=True)
    assert [r["count"] for r in by_count] == sorted((r["count"] for r in by_count), reverse=True)
    few = F.cooccur(ix, "返吟", limit=1000, min_count=20)["cooccur"]
    assert few and all(r["count"] >= 20 for r in few)
    with pytest.raises(F.FindError, match="--sort"):
        F.cooccur(ix, "返吟", sort="share")
    page = client.get("/find", params={"q": "返吟", "sort": "count"}).text
    assert "<strong>依局數</strong>" in page


def test_the_pages_numbers_are_cells_of_their_own(client):
    page = client.get("/find", params={"q": "返吟"}).text
    table = page.split('id="find-cooccur"')[1].split("</table>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]
    assert rows
    for row in rows:
        nums = re.findall(r'<td class="num">([^<]*)</td>', row)
        assert len(nums) == 3 and nums[1].endswith("%") and re.fullmatch(r"[\d.]+", nums[2])
        text = re.sub(r"<[^>]+>", "", row)          # the row's text: its numbers apart
        assert not re.search(r"\d%\d|%\d", text.replace("\n", " ").replace(" ", "|"))


def test_a_chart_drawn_on_the_server(ix, client):
    page = client.get("/find", params={"q": "斬首 or 返吟"}).text
    for key, values in (("gate", F.GATES), ("month", F.X.MONTHS)):
        fig = page.split(f'id="chart-{key}"')[1].split("</figure>")[0]
        assert "<svg" in fig and fig.count("<rect") == len(values)
    assert "<script src=\"http" not in page and "cdn" not in page.lower()
    one = client.get("/find", params={"q": "斬首", "count_by": "初傳"}).text
    assert one.split('id="chart-初傳"')[1].split("</figure>")[0].count("<rect") == 12


def test_the_first_page_shows_distinct_lessons(ix):
    x = F.evaluate(ix, F.parse("斬首 or 返吟"))
    r = F.find(ix, "斬首 or 返吟", limit=20)
    lessons = {(b["day"], b["on"]) for b in r["boards"]}
    assert len(lessons) == min(20, F.count_lessons(x, ix))
    whole = F.ordered(x, ix=ix)
    assert sorted(whole) == F.bits_of(x) and len(whole) == x.bit_count()
    for flt in (dict(daynight="night"), dict(month="丑"), dict(dim="base")):     # the last lesson's boards too
        y = x & F.filter_mask(ix, **flt)
        assert sorted(F.ordered(y, ix=ix)) == F.bits_of(y)
        assert len(F.find(ix, "斬首 or 返吟", limit=1000, **flt)["boards"]) == y.bit_count()
    pages = [i for off in range(0, len(whole), 7) for i in F.ordered(x, off, 7, ix)]
    assert pages == whole
    assert [ix.board(i) for i in F.bits_of(x, 0, 5)] == \
        [dict(ix.board(i)) for i in F.bits_of(x, 0, 5)]
    space = F.find(ix, "斬首 or 返吟", limit=5, order="space")["boards"]
    assert [b["month"] for b in space[:2]] == ["庚寅", "辛卯"]


def test_places_by_board_are_the_runs(ix):
    rng = random.Random(5)
    for e in rng.sample(sorted(ix.places), 20):
        for i in rng.sample(F.bits_of(ix.all), 30):
            scan = [p for p, runs in ix.places[e] if any(a <= i < b for a, b in runs)]
            assert ix.places_of(e, i) == scan == F.places_at(ix, e, i)


def test_the_space_says_what_it_fixed(ix, cli_ix, capsys, client):
    r = F.find(ix, "斬首", limit=0)
    assert r["space"]["fixed"]["占時"] == "子" and r["space"]["fixed"]["year"] == "2026 丙午"
    assert main(["find", "斬首", "--count-by", "gate"]) == 0
    assert "fixed: 占時 子, year 2026 丙午, 本命 cycling with the lesson" in capsys.readouterr().out
    assert main(["find", "斬首", "--count-by", "gate", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["space"]["fixed"]["占時"] == "子"
    page = client.get("/find", params={"q": "斬首", "lang": "ja"}).text
    assert "占時は子" in page.split('id="find-space"')[1].split("</p>")[0]


def test_help_gives_the_grammar_with_examples(capsys):
    with pytest.raises(SystemExit):
        main(["find", "--help"])
    out = capsys.readouterr().out
    for x in ("初傳=亥", "鬼@初傳", "貴人@卯", "初傳 空", "gate=涉害", "examples:", "--count-by month,gate", "--export"):
        assert x in out, x


def test_the_page_gives_the_grammar(client):
    page = client.get("/find", params={"lang": "ja"}).text
    g = page.split('id="find-grammar"')[1].split("</details>")[0]
    for x in ("初傳=亥", "鬼@初傳", "貴人@卯", "初傳 空"):
        assert x in g


# --------------------------------------------------------------------------- export
@pytest.mark.parametrize("fmt", ["csv", "sqlite", "parquet"])
def test_export_counts_equal_finds(ix, tmp_path, fmt):
    from liuren.app import export as E
    if fmt == "parquet":
        pytest.importorskip("duckdb")
    expr = "斬首 or 初傳 空"
    rep = E.export(ix, tmp_path / f"x.{fmt}", expr)
    n = F.find(ix, expr, limit=0)["count"]
    assert rep["boards"] == n
    if fmt == "csv":
        import csv
        with open(tmp_path / "x.csv", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        with open(tmp_path / "x.boards.csv", encoding="utf-8") as f:
            boards = list(csv.DictReader(f))
    elif fmt == "sqlite":
        import sqlite3
        con = sqlite3.connect(tmp_path / "x.sqlite")
        con.row_factory = sqlite3.Row
        rows = [dict(r) for r in con.execute("SELECT * FROM firings")]
        boards = [dict(r) for r in con.execute("SELECT * FROM boards")]
    else:
        import duckdb
        con = duckdb.connect()
        cur = con.execute(f"SELECT * FROM '{tmp_path / 'x.parquet'}'")
        cols = [d[0] for d in cur.description]
        rows = [dict(zip(cols, r)) for r in cur.fetchall()]
        cur = con.execute(f"SELECT * FROM '{tmp_path / 'x.boards.parquet'}'")
        cols = [d[0] for d in cur.description]
        boards = [dict(zip(cols, r)) for r in cur.fetchall()]
    assert len(boards) == n == len({int(r["board"]) for r in rows}) and len(rows) == rep["rows"]
    per_rule = {}
    for r in rows:
        per_rule[r["rule"]] = per_rule.get(r["rule"], 0) + 1
    for rule in ("ge-zhanshou", "dq07-yuanshou", sorted(per_rule)[0], sorted(per_rule)[-1]):
        if rule in per_rule:
            assert per_rule[rule] == F.find(ix, f"({expr}) and {rule}", limit=0)["count"], rule
    assert sum(per_rule.values()) == sum((x & F.evaluate(ix, F.parse(expr))).bit_count() for x in ix.bits.values())
    b0 = min(boards, key=lambda b: int(b["board"]))
    cast_in = ix.board(int(b0["board"]))
    assert b0["day"] == cast_in["day"] and b0["jiang"] == cast_in["jiang"] and int(b0["born"]) == cast_in["born"]
    assert [b0["chu"], b0["zhong"], b0["mo"]] == list(ix.lesson_of(int(b0["board"]))[2])
    z = [r for r in rows if r["rule"] == "ge-zhanshou"]
    assert z and all(r["places"] for r in z)       # the places each judgment is about


def test_the_readme_sql_runs_on_the_sqlite_export(ix, tmp_path):
    """The README's SQL over an export (sqlite3 from the standard library)."""
    import sqlite3
    from liuren.app import export as E
    E.export(ix, tmp_path / "atlas.sqlite")
    con = sqlite3.connect(tmp_path / "atlas.sqlite")
    sql = ("SELECT b.gate, count(*) AS boards FROM firings f JOIN boards b USING (board) "
           "WHERE f.name = '斬首' GROUP BY b.gate ORDER BY boards DESC")
    got = dict(con.execute(sql).fetchall())
    assert got == {k: v for k, v in F.find(ix, "斬首", count_by_key="gate", limit=0)["counts"].items() if v}


def test_export_needs_a_known_suffix_and_says_what_parquet_needs(ix, tmp_path, monkeypatch, cli_ix, capsys):
    from liuren.app import export as E
    with pytest.raises(F.InputError, match=r"\.csv, \.sqlite or \.parquet"):
        E.export(ix, tmp_path / "x.xlsx")
    import sys
    monkeypatch.setitem(sys.modules, "duckdb", None)
    assert main(["find", "斬首", "--export", str(tmp_path / "x.parquet")]) == 2
    err = capsys.readouterr().err.strip()
    assert "pip install 'liuren[parquet]'" in err and "\n" not in err
    assert not (tmp_path / "x.parquet").exists()


# --------------------------------------------------------------------------- the widened space (§2)
def test_the_space_varies_what_rules_read_and_says_so(ix, cli_ix, capsys, client):
    assert set(ix.dims) >= {"hour", "year", "person"}
    by = F.find(ix, "dq09-duchuan", count_by_key="dim", limit=0)
    assert sum(by["counts"].values()) == by["count"] and by["counts"]["base"] > by["counts"]["占時"]
    assert F.find(ix, "dq09-duchuan", dim="base", limit=0)["count"] == by["counts"]["base"]
    assert F.find(ix, "dq09-duchuan and dim=base", limit=0)["count"] == by["counts"]["base"]
    assert F.find(ix, "dq09-duchuan and 所變=本局", limit=0)["count"] == by["counts"]["base"]
    assert F.find(ix, "門=涉害 and 月=寅 and 晝夜=夜", limit=0)["count"] == \
        F.find(ix, "gate=涉害 and month=寅 and daynight=夜", limit=0)["count"]
    # 杜傳 (dq09) fires where the 月將 sits on 子: on the boards that vary 占時 it mostly does not
    note = by["notes"]["dq09-duchuan"]
    assert "占時" in note["changes_with"]
    # the observed note: a rule whose extra boards fire as their base board has no 'changes_with'
    steady = [e for e in ix.bits if e not in ix.changes_with and ix.bits[e]]
    assert steady and not F.find(ix, steady[0], limit=0)["notes"].get(steady[0], {}).get("changes_with")
    # every extra board differs from its base board in the input of its dimension only
    P = ix.per_lesson
    for i in F.bits_of(ix.all)[:P]:
        d = ix.dim_of(i)
        if d == "hour":
            b, base = ix.board(i), ix.board(i - i % P)
            assert b["hour"] != "子" and ix.lesson_of(i) == ix.lesson_of(i - i % P)
            assert {k for k in b if b[k] != base.get(k)} <= {"hour", "jiang", "month", "night"}
    assert main(["find", "dq09-duchuan", "--count-by", "dim"]) == 0
    out = capsys.readouterr().out
    note_line = next(l for l in out.splitlines() if l.strip().startswith("note: ") and "(dq09-duchuan) fires otherwise when " in l)
    assert "占時" in note_line.split(" varies")[0] and "boards varying 占時" in out
    assert main(["find", "dq09-duchuan", "--count-by", "dim", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert "占時" in d["notes"]["dq09-duchuan"]["changes_with"] and "占時" in d["space"]["extra"]
    page = client.get("/find", params={"q": "dq09-duchuan", "lang": "ja"}).text
    ja_notes = page.split('id="find-notes"')[1].split("</ul>")[0]
    assert "を変えた盤で発し方が変わる" in ja_notes and "占時" in ja_notes.split("を変えた盤")[0]
    assert 'id="facet-dim"' in page and "占時を変えた盤" in page.split('id="find-space"')[1].split("</p>")[0]
    facet = page.split('id="facet-dim"')[1].split("</div>")[0]
    assert "基本の盤" in facet and "base" not in re.sub(r"<[^>]+>", "", facet)     # words, not the parameter
    with pytest.raises(F.FindError, match="--dim"):
        F.find(ix, "斬首", dim="weather")


def test_cli_export_without_an_expression_is_every_board(ix, cli_ix, capsys, tmp_path):
    import csv
    out = tmp_path / "all.csv"
    assert main(["find", "--export", str(out)]) == 0
    line = capsys.readouterr().out.strip()
    with open(tmp_path / "all.boards.csv", encoding="utf-8") as f:
        boards = list(csv.DictReader(f))
    assert len(boards) == ix.size and line.startswith(f"{out}: {ix.size} boards")
    dims = {b["dim"] for b in boards}
    assert "base" in dims and "占時" in dims
    with open(out, encoding="utf-8") as f:
        n = sum(1 for _ in f) - 1
    assert n == sum(x.bit_count() for x in ix.bits.values())
    assert main(["find", "斬首", "--export", str(tmp_path / "x.csv"), "--count-by", "gate"]) == 2
