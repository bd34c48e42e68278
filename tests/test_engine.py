"""The engine: per-board reset, the RETE speed-ups against plain experta, negation and strata,
questions, the runaway bound, the JSON result and the trace."""
import json
import shutil
import textwrap

import pytest

from liuren import cast
from liuren import judge
from liuren.cli.main import main
from liuren.rules.compile import build
from liuren.errors import RunawayError
from liuren.knowledge.facts import board_facts
from liuren.rules.engines import engine_for
from liuren.rules.judging import Recorder
from liuren.knowledge.kbload import load_kb, packaged_kb_dir
from liuren.casting.symbols import BRANCHES, JIAZI


def firings(eng, board, question=None):
    rec = Recorder(eng.kb, eng.judged_consumed)
    eng.run_board(board_facts(board, question), rec.on_fire)
    return sorted((f.report, tuple(sorted(f.bindings.items()))) for f in rec.firings)


def test_speedups_change_nothing():
    # the indexed joins, generated alpha network with its table (semi-join) filters, and O(1)
    # board reset, against experta's own network
    eng = engine_for()
    assert eng.alpha_filters          # the filters exist, so this comparison exercises them
    plain = build(eng.kb, indexed=False)
    plain.kb = eng.kb
    for i, day in enumerate(JIAZI[::7]):
        for off in ((0, 6) if i % 2 else (5, 11)):      # each 月將 offset on every other day (18 boards)
            b = cast(day=day, jiang=BRANCHES[off], hour="子", month="庚寅" if i % 2 else "丙申", year=2026,
                     born=1980 + off, sex="m", night=bool(off % 2))
            assert firings(eng, b) == firings(plain, b), (day, off)


@pytest.mark.parametrize("question", ["射覆", "占病", "占婚"])
def test_speedups_change_nothing_for_a_question(question):
    # a question's network has its own rules (and so its own filters)
    eng = engine_for(question=question)
    plain = build(eng.kb, indexed=False, question=question)
    plain.kb = eng.kb
    for i, day in enumerate(JIAZI[3::11]):
        b = cast(day=day, jiang=BRANCHES[(i * 5) % 12], hour="午", month="辛卯", year=2026, born=1975, sex="f")
        assert firings(eng, b, question) == firings(plain, b, question), day


def test_reset_between_boards():
    a = {"day": "丁卯", "on": "亥加丑", "month": "壬寅"}
    b = {"day": "甲子", "on": "子加子", "month": "甲午", "year": 2026}
    first = sorted(judge(a).fired_ids())
    judge(b)
    assert sorted(judge(a).fired_ids()) == first


def test_judge_lets_go_of_the_board():
    # judge() empties the network before returning (the board's tokens are freed while the
    # collector is paused); an incremental run after it must not diff against that board
    eng = engine_for()
    judge({"day": "丁卯", "on": "亥加丑", "month": "壬寅"})
    assert eng.board_facts_now() == []
    b = cast(day="甲子", on="子加子", month="甲午", year=2026)
    rec = Recorder(eng.kb, eng.judged_consumed)
    eng.run_board(board_facts(b), rec.on_fire, incremental=True)
    got = sorted((f.report, tuple(sorted(f.bindings.items()))) for f in rec.firings)
    plain = build(eng.kb)
    plain.kb = eng.kb
    assert got == firings(plain, b)


@pytest.fixture
def tiny(tmp_path):
    def make(text):
        d = tmp_path / "kb"
        if d.exists():
            shutil.rmtree(d)
        shutil.copytree(packaged_kb_dir() / "core", d / "core")
        (d / "t.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
        return str(d)
    return make


SRC = "source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]"


TIE = """\
rules:
  - id: t-{a}
    name: 甲規
    kind: 格
    {src}
    when: [{{位: {{位: 初傳, 支: $_b}}}}]
  - id: t-{b}
    name: 乙規
    kind: 格
    {src}
    when: [{{位: {{位: 初傳, 支: $_b}}}}]
"""


@pytest.mark.parametrize("first,second", [("one", "two"), ("two", "one")])
def test_rules_matching_the_same_facts_fire_in_kb_order(tmp_path, first, second):
    # same stratum, the very same facts: the rule written first fires first, whatever order
    # the network's tokens reach the two rules in
    d = tmp_path / f"kb-{first}"
    shutil.copytree(packaged_kb_dir() / "core", d / "core")
    (d / "t.yaml").write_text(TIE.format(a=first, b=second, src=SRC), encoding="utf-8")
    r = judge({"day": "甲子", "on": "子加子", "kb": str(d)})
    order = [f.report for f in r.fired if f.report in ("t-one", "t-two")]
    assert order == [f"t-{first}", f"t-{second}"]


def test_runaway_bound_names_the_rule(tiny, capsys):
    kb = tiny(f"""\
    rules:
      - id: t-seed
        name: 起
        kind: 起例
        {SRC}
        when: [{{日: {{干: $_g}}}}]
        then: [{{計: {{值: 1}}}}]
      - id: t-loop
        name: 無窮
        kind: 起例
        {SRC}
        when: [{{計: {{值: $x}}}}]
        then: [{{計: {{值: {{add: [$x, 1]}}}}}}]
    """)
    with pytest.raises(RunawayError) as e:
        judge({"day": "甲子", "on": "子加子", "kb": kb})
    assert "t-loop" in str(e.value)
    assert main(["judge", "--day", "甲子", "--on", "子加子", "--kb", kb]) == 2
    err = capsys.readouterr().err
    assert "t-loop" in err and len(err.strip().splitlines()) == 1


NEG = f"""\
rules:
  - id: t-not-sheng
    name: 初不生干
    kind: 格
    {SRC}
    when:
      - 位: {{位: 初傳, 支: $a}}
      - 位: {{位: 日干, 干: $g}}
      - not: {{生: [$a, $g]}}
  - id: t-sheng
    name: 初生干
    kind: 格
    {SRC}
    when:
      - 位: {{位: 初傳, 支: $a}}
      - 位: {{位: 日干, 干: $g}}
      - 生: [$a, $g]
  - id: t-after
    name: 非初生干
    kind: 斷
    {SRC}
    when:
      - 日: {{干: $_g}}
      - not: {{判: {{規: t-sheng}}}}
  - id: t-any-not
    name: 或
    kind: 斷
    {SRC}
    when:
      - 位: {{位: 初傳, 支: $a}}
      - any:
          - test: {{eq: [$a, 子]}}
          - not: {{all: [{{位: {{位: 中傳, 支: $a}}}}, {{位: {{位: 末傳, 支: $a}}}}]}}
"""


def test_negation_over_a_macro_and_strata(tiny):
    kb = tiny(NEG)
    for day in JIAZI[:24]:
        for off in range(0, 12, 3):
            r = judge({"day": day, "jiang": BRANCHES[off], "hour": "子", "kb": kb})
            ids = r.fired_ids()
            b = r.board
            from liuren.casting.tables import core
            sheng = core().sheng_of(b.transmissions.branches[0], day[0])
            assert ("t-sheng" in ids) == sheng
            assert ("t-not-sheng" in ids) == (not sheng)         # not over a macro (helper rule)
            assert ("t-after" in ids) == (not sheng)             # not over 判 waits for t-sheng
            t = b.transmissions.branches
            want = t[0] == "子" or not (t[1] == t[0] and t[2] == t[0])
            assert ("t-any-not" in ids) == want, (day, off, t)  # not inside any:


def test_question_rules_only_with_their_question():
    kb = load_kb()
    q = next(iter(kb.questions))
    base = engine_for()
    asked = engine_for(question=q)
    assert asked.rule_count >= base.rule_count
    assert main(["judge", "--day", "甲子", "--on", "子加子", "--question", "占不存在之事"]) == 2


def test_judge_json_shape(capsys):
    assert main(["judge", "--day", "丁卯", "--on", "亥加丑", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert set(d) >= {"board", "fired", "trace"}
    assert d["board"]["transmissions"]["branches"] == ["亥", "酉", "未"]
    f = next(x for x in d["fired"] if x["rule"] == "ge-zhanshou")
    assert set(f) >= {"rule", "name", "kind", "reading", "valence", "defeated", "bindings", "sources"}
    assert f["sources"][0] == {"seed": "000_97d20668deca6813.txt", "para": 7, "book": "六壬經緯", "volume": "卷3"}
    nodes = {n["id"]: n for n in d["trace"]["nodes"]}
    assert any(n["kind"] == "cast" for n in nodes.values())
    roles = {l["role"] for l in d["trace"]["links"]}
    assert {"premise", "conclusion", "next", "derives"} <= roles


def test_api_judge_of_a_board_equals_judge_of_its_arguments():
    b = cast(day="丁卯", on="亥加丑")
    assert judge(b).fired_ids() == judge({"day": "丁卯", "on": "亥加丑"}).fired_ids()
    assert judge(b).to_dict()["fired"] == judge({"day": "丁卯", "on": "亥加丑"}).to_dict()["fired"]


def test_aspects_listed_for_judgments():
    r = judge({"day": "丁卯", "on": "亥加丑"})
    f = next(f for f in r.fired if f.report == "ge-zhanshou")
    a = f.aspects[0]
    assert (a["branch"], a["rides"], a["sits_on"]) == ("亥", "朱雀", "丑")
    assert "旬空" in a["belongs"] and "鬼" in a["belongs"]


def test_incremental_judging_equals_fresh_judging():
    # The audit walks boards that differ in a few facts and judges them incrementally (retract
    # what went, declare what came, undo firings that lost their match).  Over a lesson's months
    # and a 晝夜 flip it must give exactly what judging each board afresh gives.
    eng = engine_for()
    fresh = build(eng.kb)
    fresh.kb = eng.kb
    active = {}

    def on_fire(cr, act):
        rec = Recorder(eng.kb, eng.judged_consumed)
        new = rec.on_fire(cr, act)
        f = rec.firings[0]
        active[id(f)] = f
        return f, new

    def on_unfire(f):
        active.pop(id(f), None)

    months = ["庚寅", "癸巳", "丙申", "己亥", "壬辰"]       # months of 丙午 (2026)
    for day, off in (("甲子", 1), ("丁卯", 10), ("辛未", 6), ("癸亥", 0)):
        first = True
        for night in (False, True):
            for m in months:
                b = cast(day=day, jiang=BRANCHES[off], hour="子", month=m, night=night, year=2026, born=1985, sex="f")
                if first:
                    active.clear()
                eng.run_board(board_facts(b), on_fire, on_unfire, incremental=not first)
                first = False
                got = sorted((f.report, tuple(sorted(f.bindings.items()))) for f in active.values())
                assert got == firings(fresh, b), (day, off, night, m)


def test_one_judgment_per_rule_and_bindings():
    # 戊申日 (2026-11-30 14:05, 寅加未): 干上 子 and 日支 申 are both 三合 (申子辰) and 相生 (金生水),
    # so 干支相合相生為親 is reached by two branches of its any: with the same bindings. It is one
    # judgment (listed once, routes 2); the trace keeps both firings, the second pointing back.
    r = judge({"moment": "2026-11-30T14:05+08:00"})
    qin = [f for f in r.fired if f.report == "jzb-ganzhi-qin"]
    assert len(qin) == 1 and len(qin[0].routes) == 1
    d = next(x for x in r.to_dict()["fired"] if x["rule"] == "jzb-ganzhi-qin")
    assert d["routes"] == 2
    nodes = [(n, a) for n, a in r.graph.nodes(data=True) if a.get("report") == "jzb-ganzhi-qin"]
    assert len(nodes) == 2
    assert sorted(a["repeat_of"] for _, a in nodes) == [-1, qin[0].n]
    # and in general: no two entries of `fired` share rule, row and bindings
    for kw in ({"day": "丁卯", "on": "亥加丑", "month": "壬寅"}, {"day": "甲子", "on": "巳加子", "month": "丙午"}):
        seen = [(f.rule, f.report, tuple(sorted(f.bindings.items()))) for f in judge(kw).fired]
        assert len(seen) == len(set(seen))


def test_judge_prints_one_line_per_judgment(capsys):
    # 戊辰日 卯加子: the 三傳 have a void, so 「三將或空一二勿以此名實論」 governs three 懸胎 names;
    # that is one line naming the three, not three identical lines
    argv = ["judge", "--day", "戊辰", "--jiang", "卯", "--hour", "子", "--month", "庚寅", "--year", "2026"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    lines = [x for x in out.splitlines() if x.startswith("  三將或空一二勿以此名實論　懸胎諸名")]
    assert len(lines) == 1 and "〔依 3 途皆成：懸胎／順懸胎／玄胎〕" in lines[0]
    judged = [x for x in out.split("【格】", 1)[1].splitlines() if x.startswith("  ") and not x.startswith("    ")]
    assert len(judged) == len(set(judged))


def test_a_question_by_another_name(capsys):
    # 《銀河櫂》 names the procedure 占狗叫; 占犬吠 is the same question asked in other words
    kw = {"day": "戊戌", "jiang": "亥", "hour": "子"}
    by_alias = judge(dict(kw, question="占犬吠"))
    assert by_alias.question == "占狗叫" and by_alias.asked == "占犬吠"
    assert by_alias.fired_ids() == judge(dict(kw, question="占狗叫")).fired_ids()
    assert "yh-goujiao-chen" in by_alias.fired_ids()        # 干上 辰: 有人持兵器行刺
    d = by_alias.to_dict()
    assert d["question"] == "占狗叫" and d["question_asked"] == "占犬吠"
    assert main(["judge", "--day", "戊戌", "--jiang", "亥", "--hour", "子", "--question", "占犬吠"]) == 0
    assert "所問：占犬吠（即 占狗叫）" in capsys.readouterr().out


def test_kb_examples_asks_the_question_a_rule_needs(capsys):
    # 狗叫日上見辰 only speaks when 占狗叫 is asked: the example finder asks it, and says so
    assert main(["kb", "examples", "yh-goujiao-chen", "--max", "60"]) == 0
    out = capsys.readouterr().out
    assert "it is asked under 占狗叫: searched with question=占狗叫" in out
    fires = out.split("fires:", 1)[1].split("silent:", 1)[0]
    assert "question: 占狗叫" in fires and "never fired" not in out


def test_judge_json_is_the_same_in_every_process():
    # set and dict orders vary with the hash seed; the printed result must not
    import os
    import subprocess
    import sys
    outs = set()
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        outs.add(subprocess.run([sys.executable, "-m", "liuren", "judge", "--day", "丁卯", "--on", "亥加丑", "--json"],
                                capture_output=True, check=True, env=env).stdout)
    assert len(outs) == 1


def test_a_judgment_leaves_no_cycle_and_its_firings_outlive_it():
    # a firing refers to its recorder weakly: judging leaves nothing for the cyclic collector,
    # and a firing kept after its judgment is dropped still knows its premises and conclusions
    import gc
    b = cast(day="丁卯", on="亥加丑")
    r = judge(b)
    expected = [(f.premises, f.conclusions) for f in r.firings]
    gc.collect()
    gc.disable()
    try:
        kept = judge(b).firings            # the judgment itself is dropped at once
        assert gc.collect() == 0
    finally:
        gc.enable()
    assert [(f.premises, f.conclusions) for f in kept] == expected
    assert any(f.premises for f in kept)


def test_rules_that_begin_alike_share_joins():
    # equal leading patterns of different rules end in one alpha path and one join
    from liuren.rules import rete
    from experta.matchers.rete.nodes import ConflictSetNode
    eng = engine_for()
    nodes = rete._nodes(eng.matcher.root_node)
    joins = [n for n in nodes if isinstance(n, rete.IndexedMatchNode)]
    shared = [n for n in joins if len(n.children) > 1]
    assert shared, "no join feeds more than one rule"
    rules = sum(isinstance(n, ConflictSetNode) for n in nodes)
    # experta's own wiring gives each rule its own chain: a join for every pattern after the first
    from experta import Fact
    from experta.conditionalelement import NOT, TEST
    from experta.fact import InitialFact
    own = 0
    for r in eng.get_rules():
        elems = list(r)
        if isinstance(elems[0], NOT) or not any(isinstance(e, (Fact, NOT)) for e in elems):
            elems = [InitialFact()] + elems
        own += sum(1 for e in elems[1:] if isinstance(e, Fact) and not isinstance(e, (NOT, TEST)))
    assert rules == len(eng.get_rules())
    assert len(joins) < 0.8 * own, (len(joins), own)


def test_a_negation_helper_never_overwrites_a_facts_own_keys():
    # the hidden fact a negated condition asserts carries the variables it shares by name; one named
    # $t wrote the field 't', the fact's type, so the fact was never of its type and the negation
    # never held (妾孕格 fired on 己丑 子加卯 正月 though 己 克 子, its 「not 克 [$g, $t]」)
    from liuren.rules.compile import RESERVED_FIELDS
    eng = engine_for()
    helpers = [cr for cr in eng.compiled if cr.internal and "~not" in cr.id]
    assert helpers
    assert all(f not in RESERVED_FIELDS for cr in helpers for _t, fields in cr.then for f in fields)
    assert "dq11-qieyun" not in judge(dict(day="己丑", on="子加卯", month="庚寅")).fired_ids()
    assert "dq11-qieyun" in judge(dict(day="丙子", on="子加巳", month="丙寅")).fired_ids()
