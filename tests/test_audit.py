"""The audit on a tiny KB with planted defects: a conflict, a dead rule, a duplicate, a variant
and two same-named entries from different seeds that disagree — each must be found."""
import json
import shutil
import textwrap

import pytest

from liuren.cli.main import main
from liuren.knowledge.kbload import packaged_kb_dir
from liuren.explain.audit import audit

PLANTED = """\
tables:
  - id: t-names
    name: 試表
    kind: 格表
    reported: 格
    columns: [支]
    rows:
      - id: t-row
        name: 試行
        支: [子, 午]
        reading: 試。
        valence: 吉
        source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
        variants:
          - id: diben
            label: 底本
            quote: 初傳空
            each: [{支: [子, 午, 卯]}]
  - id: t-same-a
    name: 同名表
    kind: 格表
    columns: [支]
    source: [{seed: 000_97d20668deca6813.txt, para: 29, quote: 馬 亥卯未日巳}]
    rows:
      - {支: [巳, 申]}
  - id: t-same-b
    name: 同名表
    kind: 格表
    columns: [支]
    source: [{seed: 004_aca81fbd294816a3.txt, para: 320, quote: 子天馬}]
    rows:
      - {支: [巳, 亥]}

questions:
  - id: t-q
    name: 試問
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]

rules:
  - id: t-good
    name: 吉象
    kind: 格
    valence: 吉
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: $a}
      - test: {in: [$a, [子, 午]]}
  - id: t-bad
    name: 凶象
    kind: 格
    valence: 凶
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: $a}
      - test: {in: [$a, [子, 卯]]}
  - id: t-declared
    name: 知其相反
    kind: 格
    valence: 凶
    conflicts: [t-good]
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: $a}
      - test: {eq: [$a, 午]}
  - id: t-dead
    name: 死規
    kind: 格
    valence: 平
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: 子}
      - 位: {位: 初傳, 支: 丑}
  - id: t-dup-1
    name: 重一
    kind: 格
    valence: 平
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 末傳, 支: 寅}
  - id: t-dup-2
    name: 重二
    kind: 格
    valence: 平
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 末傳, 支: 寅}
  - id: t-asked
    name: 問而後論
    kind: 占驗
    valence: 平
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 問: {問: 試問}
      - 位: {位: 初傳, 支: $_a}
  - id: t-never
    name: 不可能
    kind: 格
    valence: 平
    unreachable: {why: 初傳不能既子又丑。}
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 初傳, 支: 子}
      - 位: {位: 初傳, 支: 丑}
  - id: t-mao-hour
    name: 卯時
    kind: 格
    valence: 平
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 占時, 支: 卯}
    examples:
      fires:
        - board: {day: 甲子, on: 子加卯}
          why: 占時卯。
  - id: t-family
    name: 試表規
    kind: 格
    as: $r
    source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
    when:
      - 位: {位: 中傳, 支: $b}
      - t-names: {支: $b, id: $r}
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    d = tmp_path_factory.mktemp("audit") / "kb"
    shutil.copytree(packaged_kb_dir() / "core", d / "core")
    (d / "planted.yaml").write_text(textwrap.dedent(PLANTED), encoding="utf-8")
    return d


@pytest.fixture(scope="module")
def report(tiny):
    # a small space (10 days × 12 offsets, one month, by day) keeps the test quick
    return audit(str(tiny), months="1", daynight="day", progress=False, days=10, variant_space="full")


def test_planted_dead_rule(report):
    assert "t-dead" in {x["id"] for x in report["never_fire"]}
    assert "t-good" not in {x["id"] for x in report["never_fire"]}


@pytest.fixture(scope="module")
def narrow(tiny):
    # the space of before issue 27: 占時 子 only, no question asked
    return audit(str(tiny), months="1", daynight="day", progress=False, days=10, variants=False, wide=False,
                 questions=False)


def test_never_fire_says_why(narrow, tiny):
    # a rule nothing explains (look at it), one asked only under a question, one declared unreachable
    why = {x["id"]: x for x in narrow["never_fire"]}
    assert why["t-dead"]["reason"] == "not seen"
    assert why["t-asked"]["reason"] == "question" and why["t-asked"]["questions"] == ["試問"]
    assert why["t-never"]["reason"] == "unreachable" and why["t-never"]["note"] == "初傳不能既子又丑。"
    # the narrow space casts at 占時 子: a rule for 占時 卯 is outside it, shown with its example board,
    # and judging that example shows that it fires there
    assert why["t-mao-hour"]["reason"] == "outside the space" and why["t-mao-hour"]["example"]["on"] == "子加卯"
    assert why["t-mao-hour"]["examples"] == "example_fires"
    assert why["t-dead"]["examples"] == "no_examples"
    # asking the question on every board audits its rules
    asked = audit(str(tiny), months="1", daynight="day", progress=False, days=2, variants=False, question="試問")
    assert asked["space"]["question"] == "試問"
    assert "t-asked" not in {x["id"] for x in asked["never_fire"]}


def test_wide_space_varies_what_rules_read(report, narrow):
    # the widened space varies 占時 (the rule for 占時 卯 fires) and asks each question on its own
    # boards (the rule only 試問 brings out fires), and says what it fixed and varied
    never = {x["id"] for x in report["never_fire"]}
    assert "t-mao-hour" not in never and "t-asked" not in never and "t-dead" in never
    sp = report["space"]
    assert "hour" in sp["varied"] and "question" in sp["varied"] and sp["question_spaces"]["試問"]["entries"] == 1
    assert "year" not in sp["varied"]                  # no rule of the tiny KB reads 太歲
    dims = {d["id"]: d for d in sp["definition"]["dimensions"]}
    assert dims["hour"]["rules_reading"] == 1 and dims["year"]["rules_reading"] == 0
    assert sp["definition"]["base"]["hour"] == "子" and "second person" in sp["definition"]["fixed"]
    assert sp["main_boards"] > narrow["space"]["boards"]
    assert report["firing_counts"]["t-mao-hour"] > 0


def test_planted_conflict_undeclared_and_declared(report):
    und = {(c["a"], c["b"]) for c in report["conflicts"]["undeclared"]}
    dec = {(c["a"], c["b"]) for c in report["conflicts"]["declared"]}
    assert ("t-bad", "t-good") in und          # 初傳 子: 吉 and 凶 on the same branch
    assert ("t-declared", "t-good") in dec     # 初傳 午: declared with conflicts:
    assert ("t-declared", "t-good") not in und


def test_conflict_example_is_the_first_board_of_the_space(report):
    # the workers finish in any order; the example shown is still the first board (in the
    # space's order) where the pair co-fires, so two audits print the same report
    from liuren import cast
    from liuren.explain.audit import board_space
    space = board_space(months="1", daynight="day", days=10)
    first = next(b for b in space if cast(**b).transmissions.branches[0] == "子")   # t-bad × t-good
    ex = next(c["example"] for c in report["conflicts"]["undeclared"] if (c["a"], c["b"]) == ("t-bad", "t-good"))
    assert ex == {k: first[k] for k in ("day", "jiang", "hour", "month", "night")} | {"branch": "子"}


def test_conflict_examples_do_not_depend_on_worker_order():
    from liuren.explain.audit import merge_pairs
    late, early = {("a", "b"): (3, (40, "子"))}, {("a", "b"): (2, (7, "午")), ("a", "c"): (1, (9, "卯"))}
    one = merge_pairs(merge_pairs({}, late), early)
    other = merge_pairs(merge_pairs({}, early), late)
    assert one == other == {("a", "b"): (5, (7, "午")), ("a", "c"): (1, (9, "卯"))}


def test_planted_duplicate(report):
    assert any(set(g["rules"]) == {"t-dup-1", "t-dup-2"} for g in report["redundant"])


def test_subsumed(report):
    # 初傳 午 (t-declared) is within 初傳 子 or 午 (t-good)
    assert any(x["narrow"] == "t-declared" and x["broad"] == "t-good" for x in report["subsumed"])


def test_planted_variant(report):
    v = next(v for v in report["variants"] if v["entry"] == "t-row")
    assert v["variant"] == "diben" and v["boards_changed"] > 0


def test_source_disagreement(report):
    d = next(d for d in report["source_disagreements"] if d["name"] == "同名表")
    assert d["cells_differ"] and d["only_a"] == [{"支": "申"}] and d["only_b"] == [{"支": "亥"}]


def test_json_keys_and_exit_status(tiny, capsys, tmp_path):
    md = tmp_path / "audit.md"
    rc = main(["audit", "--kb", str(tiny), "--months", "1", "--daynight", "day", "--days", "5", "--quiet", "--json",
               "--no-variants", "--markdown", str(md)])
    out = json.loads(capsys.readouterr().out)
    for k in ("never_fire", "always_fire", "conflicts", "redundant", "subsumed", "variants", "source_disagreements"):
        assert k in out
    assert set(out["conflicts"]) == {"declared", "undeclared", "weighed"}   # weighed: a 神煞 beside an opposite judgment
    assert rc == 1                              # an undeclared conflict gates CI
    text = md.read_text(encoding="utf-8")
    assert "## Conflicts, undeclared" in text and "## Findings" in text and "## The space" in text


def test_bad_audit_options(capsys):
    assert main(["audit", "--months", "13"]) == 2
    assert "--months" in capsys.readouterr().err
    assert main(["audit", "--options", "guiren=甲狗"]) == 2


def test_variant_cones_give_what_whole_networks_give():
    # A variant is judged on the rules it can reach (its cone), given what the base network's
    # other rules derived; that must give the very firing sets a whole network compiled with the
    # variant gives.  A rule variant, table-row variants with small and large cones, and one
    # that no rule of this network reads.
    from liuren.knowledge.kbload import load_kb
    from liuren.explain.audit import _cone, variant_effects
    from liuren.rules.engines import engine_for
    kb = load_kb(None)
    picked = {"dq09-sanjiao", "j2c-shiqi-xing-shishi", "jz-tianer", "sha-xing", "lx-tianwen"}
    eng = engine_for()
    sizes = {e: _cone(eng, kb, kb.entries[e], kb.entries[e].variants[0]["id"]) for e in picked}
    assert sizes["lx-tianwen"][0] == set()                                    # read by no rule here
    assert all(0 < len(sizes[e][0]) < len(kb.rules) / 3 for e in picked - {"lx-tianwen"})
    cones = variant_effects(kb, None, None, False, days=12, entries=picked)
    whole = variant_effects(kb, None, None, False, days=12, entries=picked, whole_networks=True)
    assert cones == whole
    assert sum(v["boards_changed"] for v in cones) > 0                      # the comparison has teeth
