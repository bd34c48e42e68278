"""HOW chains (golden: step order and citations), WHY-NOT on a near miss, the export formats,
and the CLI of `why` / `trace`."""
import json
import re

import networkx as nx
import pytest

from liuren import judge
from liuren.cli.main import main
from liuren.explain.chain import how
from liuren.explain.export import FORMATS
from liuren.explain.whynot import why_not
from liuren.explain import render

ZHANSHOU = {"day": "丁卯", "on": "亥加丑"}


def test_how_zhanshou_golden_chain():
    # 丁卯日 亥加丑: the cast (涉害, 三傳 亥酉未), then 丁卯 is in 甲子旬 whose void is 戌亥 (卷3 ¶37),
    # then 初傳 亥 is void: 斬首 (卷3 ¶7).
    c = how(judge(ZHANSHOU).graph, "ge-zhanshou")
    kinds = [s["step"] for s in c["steps"]]
    rules = [s["rule"] for s in c["steps"]]
    assert rules == ["plate", "lessons", "zeike", "biyong-shehai", "shehai", "shehai", "shehai", "chuanfa",
                     "place-xunkong", "ge-zhanshou"]
    assert kinds == ["cast"] * 8 + ["derive", "conclusion"]
    # every casting step cites 《六壬大全》 by 卷 and ¶, like every other source
    zk = c["steps"][2]["sources"][0]
    assert zk["quote"] == "取課先從下賊呼，如無下賊上克初。"
    assert (zk["book"], zk["volume"], zk["seed"], zk["para"]) == ("六壬大全", "卷一", "101_liuren_daquan_juan01.txt", 5)
    assert [(s["sources"][0]["volume"], s["sources"][0]["para"]) for s in c["steps"][:8]] == \
        [("卷七", 434), ("卷九", 248), ("卷一", 5), ("卷一", 7), ("卷一", 9), ("卷一", 9), ("卷一", 9), ("卷一", 5)]
    assert c["steps"][7]["sources"][0]["quote"] == "初傳之上名中次，中上加臨是末居。"
    assert c["steps"][5]["matched"] == ["亥加丑，歸本家 亥，歷 辰、戊、未、己、戌，5 重"]
    xk = c["steps"][8]
    assert (xk["sources"][0]["seed"], xk["sources"][0]["para"]) == ("000_97d20668deca6813.txt", 37)
    assert "亥 為旬空" in xk["produced"]
    last = c["steps"][-1]
    assert last["name"] == "斬首" and last["matched"] == ["初傳 亥", "亥 為旬空"]
    assert (last["sources"][0]["book"], last["sources"][0]["volume"], last["sources"][0]["para"]) == ("六壬經緯", "卷3", 7)
    assert "初傳空曰斬首" in last["sources"][0]["quote"]
    assert last["interpretation"]["chosen"].startswith("「某傳空」指該傳之支本身為本旬旬空")
    assert c["reading"] == "以無始論。" and c["valence"] == "凶"
    assert c["aspects"][0]["branch"] == "亥" and c["aspects"][0]["rides"] == "朱雀" and c["aspects"][0]["sits_on"] == "丑"


def test_how_yin_chain_through_placement_and_seen():
    # 甲子日 伏吟: 子 is 甲's 印 (卷3 ¶11 table, placed by 日干), seen at 日支 and 占時 (¶11 見處).
    c = how(judge({"day": "甲子", "on": "子加子"}).graph, "sha-yin")
    order = [s["rule"] for s in c["steps"] if s["step"] != "cast"]
    assert order[0] == "place-stem-sha"
    assert set(order[1:-2]) == {"shensha-seen"} and order[-2:] == ["sha-yin", "sha-yin"]
    assert c["instances"] == 2
    assert {m for s in c["steps"] if s["rule"] == "sha-yin" for m in s["matched"]} == {"印（子）見於日支", "印（子）見於占時"}
    # it reads 日支 and 占時 (their 位 facts carry the plate), never the 三傳: the plate, no 伏吟 三傳 steps
    casts = [s["rule"] for s in c["steps"] if s["step"] == "cast"]
    assert casts[0] == "plate-fuyin" and "fuyin" not in casts
    assert c["reading"] == "以扶助論。"


def test_how_shizhong():
    # 庚寅日 伏吟 (寅加寅): 庚 lodges on 申; 三傳 申寅巳; 庚寅 is in 甲申旬 whose head is 申 and tail 巳
    # (癸巳): 初傳 is 旬首, 末傳 旬尾 → 始終 (卷3 ¶7).
    r = judge({"day": "庚寅", "on": "寅加寅"})
    assert r.board.transmissions.branches == ("申", "寅", "巳")
    c = how(r.graph, "ge-shizhong")
    last = c["steps"][-1]
    assert last["rule"] == "ge-shizhong" and "三傳 申寅巳（伏吟・自任）" in last["matched"][0]
    assert any("甲申旬" in m for m in last["matched"])


def test_why_not_near_miss():
    # 甲子日 伏吟: 三傳 寅巳申; 甲子旬 void 戌亥; 初傳 寅 is not void → no 斬首.
    w = why_not(judge({"day": "甲子", "on": "子加子"}).graph, "ge-zhanshou")
    assert w["fired"] is False and w["family"] == "ge-chuan-kong"
    # the rule page's line, judged on the board, with the board's own 初傳
    texts = [(c["text"], c["held"]) for c in w["conditions"]]
    assert texts == [("初傳 為旬空", False)]
    assert w["conditions"][0]["facts"] == ["初傳 寅"]


def test_why_not_question_rule_note():
    """A rule of one question (入占), asked about a board judged without that question: its WHY-NOT
    says which question it belongs to; judged under that question, it does not."""
    from liuren.knowledge.kbload import load_kb
    rule = next(r for r in load_kb().rules.values() if r.meta.get("question"))
    q = rule.meta["question"]
    w = why_not(judge({"day": "甲子", "on": "子加子"}).graph, rule.id)
    assert w["fired"] is False and f"「{q}」" in w["note"]
    w = why_not(judge({"day": "甲子", "on": "子加子", "question": q}).graph, rule.id)
    assert w["fired"] is False and f"「{q}」" not in (w["note"] or "")


@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "json"])
def test_why_formats(fmt, capsys):
    assert main(["why", "斬首", "--day", "丁卯", "--on", "亥加丑", "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert "斬首" in out
    if fmt == "json":
        d = json.loads(out)
        assert d["fired"] is True and d["rule"] == "ge-zhanshou"
        for k in ("steps", "reading", "valence", "aspects", "imagery", "defeated_by"):
            assert k in d
        assert all({"rule", "name", "matched", "sources", "interpretation"} <= set(s) for s in d["steps"])
    if fmt == "html":
        assert out.startswith("<!DOCTYPE html>") and "</html>" in out


def test_why_not_json(capsys):
    assert main(["why", "ge-zhanshou", "--day", "甲子", "--on", "子加子", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["fired"] is False and all({"text", "held", "facts"} <= set(c) for c in d["conditions"])


def test_why_unknown_and_ambiguous(capsys):
    assert main(["why", "斬手", "--day", "丁卯", "--on", "亥加丑"]) == 2
    err = capsys.readouterr().err
    assert "斬手" in err and "nearest" in err and len(err.strip().splitlines()) == 1
    assert main(["why", "死", "--day", "丁卯", "--on", "亥加丑"]) == 2
    err = capsys.readouterr().err
    assert "sha-changsheng-si" in err and "sha-siji-si" in err


# --------------------------------------------------------------------------- exports
@pytest.fixture(scope="module")
def graph():
    return judge({"day": "丁卯", "on": "亥加丑", "month": "壬寅"}).graph


def test_graphml_round_trip(graph, tmp_path):
    p = tmp_path / "t.graphml"
    p.write_text(FORMATS["graphml"](graph), encoding="utf-8")
    h = nx.read_graphml(p)
    assert set(h.nodes) == set(graph.nodes) and h.number_of_edges() == graph.number_of_edges()
    n = next(x for x, d in graph.nodes(data=True) if d.get("kind") == "firing")
    assert h.nodes[n]["name"] == graph.nodes[n]["name"]
    assert json.loads(h.nodes[n]["sources"]) == graph.nodes[n]["sources"]


def test_node_link_json_round_trip(graph):
    h = nx.node_link_graph(json.loads(FORMATS["json"](graph)), edges="links")
    assert set(h.nodes) == set(graph.nodes) and set(h.edges) == set(graph.edges)
    assert h.nodes["fact:位|位=初傳|地=丑|天=亥|支=亥|盤=天"]["text"] == "初傳 亥"


def test_dot_parses(graph):
    import pydot  # a test dependency: never skipped
    (d,) = pydot.graph_from_dot_data(FORMATS["dot"](graph))
    assert len(d.get_nodes()) >= graph.number_of_nodes() and len(d.get_edges()) == graph.number_of_edges()


MERMAID_LINE = re.compile(r'^  (n\d+(\["[^"]*"\]|\("[^"]*"\)|\[/"[^"]*"/\])|n\d+ (-->|-\.->)\|[a-z]+\| n\d+)$')


def test_mermaid_is_well_formed(graph):
    from liuren.app.queries import chain_part
    from liuren.errors import InputError
    with pytest.raises(InputError, match="dot or graphml"):          # a whole board: past Mermaid's limits
        FORMATS["mermaid"](graph)
    graph = chain_part(judge({"day": "丁卯", "on": "亥加丑", "month": "壬寅"}), "斬首")   # one chain
    lines = FORMATS["mermaid"](graph).splitlines()
    assert lines[0] == "flowchart LR"
    bad = [l for l in lines[1:] if not MERMAID_LINE.match(l)]
    assert not bad, bad[:3]
    assert sum("-->" in l or "-.->" in l for l in lines) == graph.number_of_edges()


@pytest.mark.parametrize("fmt", ["graphml", "json", "dot", "mermaid"])
def test_trace_command(fmt, tmp_path, capsys):
    out = tmp_path / f"t.{fmt}"
    if fmt == "mermaid":                    # a whole board is past Mermaid's limits: refused, one line
        assert main(["trace", "--day", "丁卯", "--on", "亥加丑", "--format", fmt, "-o", str(out)]) == 2
        assert "dot or graphml" in capsys.readouterr().err
        assert main(["trace", "--day", "丁卯", "--on", "亥加丑", "--format", fmt, "--why", "斬首", "-o", str(out)]) == 0
        assert 100 < out.stat().st_size < 5000
        return
    assert main(["trace", "--day", "丁卯", "--on", "亥加丑", "--format", fmt, "-o", str(out)]) == 0
    assert out.stat().st_size > 1000


def test_render_text_mentions_quote_and_aspects():
    c = how(judge(ZHANSHOU).graph, "ge-zhanshou")
    t = render.to_text(c)
    assert "「斬首 初傳空曰斬首，凡占人占事以無始論。」 《六壬經緯》卷3 ¶7" in t
    assert "亥：所乘 朱雀" in t


def test_how_with_a_defeat_has_the_defeaters_own_chain():
    # 甲子日 申加子: 三傳 戌午寅 form the fire 局 (火局, 卷2 ¶23); 戌 is void in 甲子旬, so 「三將或空一二，
    # 勿以此名與合局實論」 (¶25) defeats it.  The chain of 火局 ends with that 總則 and its own chain:
    # 戌 void (place-xunkong) → 傳空 (place-chuan-kong) → the 總則.
    c = how(judge({"day": "甲子", "on": "申加子"}).graph, "j2a-huoju")
    assert c["defeated"] is True
    d = c["defeated_by"][0]
    assert d["kind"] == "總則" and d["name"].startswith("三將或空一二")
    rules = [s["rule"] for s in d["steps"]]
    assert "place-xunkong" in rules and "place-chuan-kong" in rules and rules[-1] == d["rule"]
    assert any(s["sources"] and s["sources"][0].get("para") == 25 for s in d["steps"] if s["rule"] == d["rule"])
    assert "勿以實論" in render.to_text(c) or "此名勿以實論" in render.to_text(c)


def test_why_not_cites_book_and_volume(capsys):
    # the WHY-NOT report cites its sources as the HOW chain does: book, 卷 and ¶, one line each
    # (斬首 cites 卷3 ¶7 and its Japanese rendering, the next ¶)
    assert main(["why", "斬首", "--day", "甲子", "--on", "子加子"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].endswith("《六壬經緯》卷3 ¶7") and out[2].endswith("《六壬經緯（日譯）》卷3 ¶8")
    assert main(["why", "ge-zhanshou", "--day", "甲子", "--on", "子加子", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert {(s["book"], s["volume"], s["para"]) for s in d["sources"]} == {
        ("六壬經緯", "卷3", 7), ("六壬經緯（日譯）", "卷3", 8)}


def test_a_defeat_chain_shows_only_the_defeat_of_this_judgment():
    # 丁卯日 亥加丑: 初傳 亥 rides 朱雀 and is void, so 「朱雀空勿實論」 defeats both 文書 and its palace
    # reading 掩目 (朱雀 臨丑).  The chain of 掩目's defeat ends with the 總則 firing that names 掩目,
    # and does not drag in the firing that defeats 文書.
    c = how(judge({"day": "丁卯", "on": "亥加丑"}).graph, "j2c-wenshu-yanmu")
    d = c["defeated_by"][0]
    assert d["rule"] == "j2c-wenshu-kong"
    finals = [s for s in d["steps"] if s["rule"] == "j2c-wenshu-kong"]
    assert len(finals) == 1 and any("j2c-wenshu-yanmu" in p for p in finals[0]["produced"])
    assert not any(s["rule"] == "j2c-wenshu" for s in d["steps"])
