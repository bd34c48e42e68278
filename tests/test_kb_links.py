"""Issue 24: the links between rules — one definition of each term, no stale notes or dead
pointers, readings with their conditions, question names that meet, findings a reader can use."""
import functools
import json

import pytest

from liuren import judge
from liuren.knowledge.kbload import load_kb

KB = load_kb()


@functools.lru_cache(maxsize=None)
def _judge(board_json):
    return judge(json.loads(board_json))


def J(**board):
    return _judge(json.dumps(board, ensure_ascii=False, sort_keys=True))


COUJU = {"j2b-place-ju-ganzhi": "couju"}


# ---------------------------------------------------------------- 1. wrong

@pytest.mark.parametrize("variants", [{}, COUJU])
def test_guanju_not_on_bingyin_xu_over_zi(variants):
    """丙寅 戌加子: 三傳 丑亥酉, the void 亥 is 丙's 官鬼, not in the 財局 巳酉丑: no 鰥居."""
    j = J(day="丙寅", on="戌加子", month="丙寅", variants=variants)
    ids = j.fired_ids()
    assert not any(i.startswith("j2c-guanju") for i in ids), sorted(i for i in ids if "guanju" in i)
    assert "鰥居" not in {f.name.split(":")[0] for f in j.judgments()}


@pytest.mark.parametrize("variants", [{}, COUJU])
def test_gu_ai_needs_the_void_inside_the_ju(variants):
    """乙丑 寅加子: 三傳 申戌子; the void 戌 is outside the 水局 申子辰: no 孤哀."""
    ids = J(day="乙丑", on="寅加子", month="癸酉", year="己巳", variants=variants).fired_ids()
    assert not any(i.startswith("j2c-gu-ai") for i in ids)


def _ju(j, kind):
    if kind == "b":
        return {f["局"] for f in j.wm if f["t"] == "方合局" and f["方"] == "三傳干支"}
    return {f["局"] for f in j.wm if f["t"] == "合局處" and f["處"] == "三傳干支合局"}


@pytest.mark.parametrize("variants", [{}, COUJU])
@pytest.mark.parametrize("day, on", [("乙丑", "寅加子"), ("丙寅", "戌加子"), ("丁卯", "辰加子"),
                                     ("甲子", "申加子"), ("辛未", "辰加子"), ("丁卯", "寅加子")])
def test_one_definition_of_sanchuan_ganzhi_heju(day, on, variants):
    """卷2 ¶27–37 (印綬…劫財) and ¶57–67 (及時…失群) read 三傳干支合局 from one rule."""
    j = J(day=day, on=on, month="丙寅", year="甲子", variants=variants)
    assert _ju(j, "b") == _ju(j, "c")


def test_sanchuan_ganzhi_heju_has_one_defining_rule():
    rule = KB.rules["j2c-place-heju-ganzhi"]
    assert [list(w.keys())[0] for w in rule.meta["when"]] == ["方合局"]
    assert "couju" in {v["id"] for v in KB.rules["j2b-place-ju-ganzhi"].variants}


# ---------------------------------------------------------------- 2. stale notes, pointers, copies
import pathlib
import re
import shutil
import textwrap

from liuren.cli.main import main
from liuren.errors import KBError
from liuren.knowledge.kblint import PENDING, duplicate_tables, stale_missing_notes
from liuren.knowledge.kbload import packaged_kb_dir

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_no_note_declares_missing_what_the_kb_has():
    stale = [(e, clause) for e, _p, _l, _k, clause, _h in stale_missing_notes(KB) if e not in PENDING]
    assert not stale, stale


def test_the_once_stale_notes_are_gone():
    assert "dq08-tiande" in str(KB.rules["dq07-chongshen-mojiang"].meta["when"])
    assert "dq09-yuexiu" in str(KB.rows["jz-bayao"].meta["源"])
    assert "yh-eryu" in str(KB.rules["yh-xintiao-eryu"].meta["when"])
    paras = {(s["seed"], s["para"]) for s in KB.rules["yh-xintiao-eryu"].source}
    assert {("101_liuren_daquan_juan01.txt", 123), ("101_liuren_daquan_juan01.txt", 133)} <= paras


RULE = """\
  - id: {id}
    name: {name}
    kind: 格
    reading: 試。
    source: [{{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}}]
    interpretation: {{chosen: {note}, alternative: 無。}}
    when:
      - 位: {{位: 初傳, 支: $_a}}
    examples:
      fires:
        - board: {{day: 丁卯, on: 亥加丑}}
          why: 初傳亥。
      silent:
        - board: {{day: 丁卯, on: 亥加丑}}
          why: 不試。
"""


@pytest.fixture
def kbdir(tmp_path):
    d = tmp_path / "kb"
    shutil.copytree(packaged_kb_dir() / "core", d / "core")
    return d


@pytest.mark.parametrize("note", ["試；天德本庫未立，待他卷。", "天德之表書中無定義。", "生氣、天德諸吉神未立（本卷不給其起例）。"])
def test_kb_check_refuses_a_note_that_says_missing_what_exists(kbdir, note, capsys):
    (kbdir / "t.yaml").write_text("rules:\n" + RULE.format(id="t-tiande", name="天德", note="有。")
                                  + RULE.format(id="t-other", name="試", note=note), encoding="utf-8")
    with pytest.raises(KBError) as e:
        load_kb(str(kbdir))
    assert "t-other" in str(e.value) and "天德" in str(e.value)
    assert main(["kb", "check", "--kb", str(kbdir)]) == 2


@pytest.mark.parametrize("note", ["火煞書中無定義，未編。", "本引擎無其遁干，未立。", "試（未立）。"])
def test_a_missing_note_about_what_the_kb_lacks_is_fine(kbdir, note):
    (kbdir / "t.yaml").write_text("rules:\n" + RULE.format(id="t-tiande", name="天德", note="有。")
                                  + RULE.format(id="t-other", name="試", note=note), encoding="utf-8")
    assert "t-other" in load_kb(str(kbdir)).rules


TABLE = """\
  - id: {id}
    name: {name}
    kind: 基礎
    columns: [{a}, 支]
    rows:
      - {{{a}: 春, 支: 戌}}
      - {{{a}: 夏, 支: 丑}}
      - {{{a}: 秋, 支: 辰}}
      - {{{a}: 冬, 支: 未}}
"""


def test_kb_check_warns_on_two_tables_with_the_same_rows(kbdir, capsys):
    (kbdir / "t.yaml").write_text("tables:\n" + TABLE.format(id="t-xi", name="天喜", a="時")
                                  + TABLE.format(id="t-xi2", name="天喜（他卷所定）", a="季"), encoding="utf-8")
    kb = load_kb(str(kbdir))
    assert [sorted(i for i, _ in g) for g in duplicate_tables(kb)] == [["t-xi", "t-xi2"]]
    main(["kb", "check", "--kb", str(kbdir)])
    assert "warning: the same rows are defined twice: t-xi" in capsys.readouterr().err


# tables each book states for itself (the same rows under one name in two books): the warning
# lists them; none is a copy of another book's table made for convenience
CROSS_BOOK = {("dq07-jiang-jixiong", "dq08-jiang"), ("dq09-yuesha", "jz-siqi"), ("dq09-yuesha", "jz-sishen"),
              ("dq09-yuesha", "jz-tianma"), ("dq09-suisha", "jz-sangmen"), ("dq09-suisha", "jz-bingfu"),
              ("dq10-tiangui", "jz-tiangui"), ("dq10-guanshen", "dq12-guanshen"),
              ("jz-posui-ri", "jz-posui-sui")}

# 《六壬大全》卷一 (kb/daquan/juan01-*.yaml) states many 神煞 whose cells another book (or another of its own
# tables, by year and by month, by 年支 and by 日支) also gives: each stays under its own book and ¶.
CROSS_BOOK_JUAN01 = {
    ("dq01-baowei", "dq01-m160"),
    ("dq01-bingfu", "dq09-suisha", "jz-bingfu"),
    ("dq01-diaoke", "dq09-suisha"),
    ("dq01-diaoke", "jz-diaoke"),
    ("dq01-huagai", "jz-huagai"),
    ("dq01-huangfan", "dq01-m159"),
    ("dq01-jinshen-sui", "dq01-jinshen-zhi"),
    ("dq01-m079", "dq08-tiande"),
    ("dq01-m080", "dq08-yuede"),
    ("dq01-m082", "dq09-yuesha", "jz-tianma"),
    ("dq01-m084b", "dq09-yuesha"),
    ("dq01-m086", "jz-tianyi"),
    ("dq01-m089", "jz-shengxin"),
    ("dq01-m093", "jz-huishen"),
    ("dq01-m102", "jz-chengshen"),
    ("dq01-m106", "jz-shengqi"),
    ("dq01-m108b", "jz-zaisha"),
    ("dq01-m114", "dq10-tiangui", "jz-tiangui"),
    ("dq01-m126", "jz-yuexing"),
    ("dq01-m131", "dq10-dashi"),
    ("dq01-m137", "dq09-yuesha", "jz-siqi"),
    ("dq01-m138", "dq09-yuesha", "jz-sishen"),
    ("dq01-m155", "jz-chansha"),
    ("dq01-m161", "jz-xuezhi"),
    ("dq01-m164b", "jz-xianchi"),
    ("dq01-m168", "jz-leisha"),
    ("dq01-m169", "jz-huozhu"),
    ("dq01-m172", "dq09-yuesha"),
    ("dq01-posui", "jz-posui-ri", "jz-posui-sui"),
    ("dq01-ride", "jz-ride"),
    ("dq01-rilu", "jz-rilu"),
    ("dq01-riyi", "jz-riyi"),
    ("dq01-sangmen", "dq09-suisha", "jz-sangmen"),
    ("dq01-suihu", "dq09-suisha"),
    ("dq01-suipo", "jz-suipo"),
    ("dq01-suisha", "jz-suisha"),
    ("dq01-suixing", "jz-suixing"),
    ("dq01-yima", "shensha-ma"),
    ("dq01-youdu", "jz-youdu"),
    ("dq01-zhide", "jz-zhide"),
    ("dq01-zhifu", "jz-zhifu"),
    ("dq01-zhiyi", "dq07-zhiyi-map"),
}

def test_no_table_is_a_copy():
    """銀河櫂 reads 卷中's 歲煞, 月煞, 天喜, 日德 (no yh- copies); 卷中 has one 日德 and one 五合."""
    groups = {tuple(i for i, _ in g) for g in duplicate_tables(KB)}
    assert groups <= CROSS_BOOK | CROSS_BOOK_JUAN01, groups - CROSS_BOOK - CROSS_BOOK_JUAN01
    for tid in ("yh-nian-sha", "yh-yue-sha", "yh-tianxi", "yh-ride"):
        assert tid not in KB.tables
    assert "jzb-ri-de" not in KB.rows and "jzb-ri-he" not in KB.rows


def test_the_jiesha_diben_variant_reaches_yinhe():
    """yinhe's 大煞/劫煞 rule reads jz-xingsha, so jz-jiesha's 底本 row reaches it."""
    text = (ROOT / "kb/yinhe/omens.yaml").read_text(encoding="utf-8")
    assert "jz-xingsha: {煞: [大煞, 劫煞, 災煞, 歲煞], 據: 歲支" in text


ABSOLUTE = re.compile(r"(?<![\w.:/~-])/(home|work|Users|tmp|opt|usr|root|mnt|srv|var|etc|private|nix|data)/"
                      r"|\b[A-Z]:\\")
PRODUCT = ["kb", "engine", "explain", "web", "cli"]


def test_no_absolute_path_in_the_product():
    hits = []
    for d in PRODUCT:
        for f in (ROOT / d).rglob("*") if (ROOT / d).is_dir() else ():
            if f.is_file() and f.suffix in (".py", ".yaml", ".yml", ".md", ".html", ".js", ".css", ".txt", ".json"):
                for n, line in enumerate(f.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                    if ABSOLUTE.search(line):
                        hits.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()[:80]}")
    assert not hits, hits


def test_no_pointer_to_a_file_that_is_not_there():
    """A KB file that names another file of the repository names one that exists."""
    ref = re.compile(r"\b((?:kb|tests|engine|tools|juanzhong-[ab])/[\w./-]+\.(?:yaml|py|md))|\bNOTES(?:\.md)?\b")
    bad = []
    for f in (ROOT / "kb").rglob("*.yaml"):
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            for m in ref.finditer(line):
                path = m.group(1)
                if path is None or not (ROOT / path).exists():
                    bad.append(f"{f.relative_to(ROOT)}:{n}: {m.group(0)}")
    assert not bad, bad


# ---------------------------------------------------------------- 3. readings with their conditions

def test_bayao_is_not_xiong_without_ke():
    row = KB.rows["jz-bayao"]
    assert row.valence != "凶" and "不克無害" in row.reading
    j = J(day="庚戌", on="戌加丑", night=True, month="乙未", year=1996, sex="m", guiren="甲羊", question="占宅")
    f = {x.report: x for x in j.judgments()}
    assert "jz-bayao" in f and f["jz-bayao"].valence != "凶"


BING = dict(day="乙丑", on="酉加未", month="辛巳", year="乙卯", born=1987, sex="m", guiren="甲羊")


@pytest.mark.parametrize("question", ["占病", "占訟"])
def test_ride_rihe_gui_not_ji_for_illness_and_lawsuits(question):
    ids = J(**BING, question=question).fired_ids()
    assert "jzb-de-fayong-he-gui" not in ids and "jzb-de-fayong-he-gui-bingsong" in ids
    ids = J(**BING).fired_ids()
    assert "jzb-de-fayong-he-gui" in ids and "jzb-de-fayong-he-gui-bingsong" not in ids


def test_changsheng_of_the_six_stems_is_not_shengfu():
    """卷中 ¶191: 戊庚's 長生 is 官鬼, 乙己辛癸's is 脫氣: not 「生扶日干」."""
    ids = J(day="乙丑", on="丑加子", month="戊辰", year="甲寅", born=1984, sex="f", guiren="甲羊").fired_ids()
    assert "jzb-changsheng-liwai" in ids and "jzb-cs-changsheng" not in ids
    ids = J(day="甲子", on="子加酉", month="己巳", year="己酉", born=1989, sex="m", guiren="甲羊").fired_ids()
    assert "jzb-cs-changsheng" in ids


def test_meng_worry_is_inside_or_outside_not_both():
    ids = J(day="甲子", on="寅加子", month="己亥", year=2026, question="占夢").fired_ids()
    assert "yh-meng-yangshen" in ids and "yh-meng-yinshen" not in ids


def test_qiaomen_xiaojilong_records_the_other_reading():
    rule = KB.rules["yh-qiaomen-xiaojilong"]
    assert rule.interpretation["alternative"] and "tongjian" in {v["id"] for v in rule.variants}
    b = dict(day="甲子", on="巳加子", month="辛卯", year=2026, born=1990, sex="m", night=False, question="占有人敲門")
    assert "yh-qiaomen-xiaojilong" not in J(**b).fired_ids()
    assert "yh-qiaomen-xiaojilong" in J(**b, variants={"yh-qiaomen-xiaojilong": "tongjian"}).fired_ids()


def test_yantiao_shows_the_generals_leixiang():
    j = J(day="戊戌", jiang="丑", hour="子", month="辛丑", year=2026, born=1991, sex="f", night=True,
          question="占眼跳耳熱")
    assert any("玄武" in x and "盜賊逃人" in x for x in j.findings().get("天將類神", []))


# ---------------------------------------------------------------- 4. questions whose names meet

QB = dict(day="辛未", jiang="辰", hour="子", month="辛丑", year=2026, born=1994, sex="m", night=True)


@pytest.mark.parametrize("alias, name", [("占婚姻", "占婚"), ("占試", "占科舉"), ("占科目", "占科舉")])
def test_two_names_of_one_question_are_one_question(alias, name):
    assert KB.question_aliases[alias] == name and alias not in KB.questions
    assert J(**QB, question=alias).fired_ids() == J(**QB, question=name).fired_ids()


def test_hunyin_brings_the_hun_rules_of_juanzhong_and_yinhe():
    ids = J(**QB, question="占婚姻").fired_ids()
    assert "yh-tianhou-baihu-hunyin" in ids
    assert {"dq08-hehuan-hun", "dq08-hemei-hun"} <= set(ids)


def test_qibing_includes_bing():
    """銀河櫂 ¶43 「若占妻病，如上更驗」: 占妻病 is also 占病."""
    assert KB.questions["占妻病"]["includes"] == ["占病"]
    bing, qibing = set(J(**QB, question="占病").fired_ids()), set(J(**QB, question="占妻病").fired_ids())
    none = set(J(**QB).fired_ids())
    assert bing - none and bing <= qibing
    assert qibing - bing == {"yh-tianhou-baihu-qibing"}


def test_no_rule_names_a_question_by_an_alias():
    aliases = set(KB.question_aliases)

    def walk(c):
        if isinstance(c, list):
            for x in c:
                yield from walk(x)
        elif isinstance(c, dict):
            for k, v in c.items():
                if k == "問" and isinstance(v, dict):
                    q = v.get("問")
                    yield from (q if isinstance(q, list) else [q])
                else:
                    yield from walk(v)

    bad = [(r.id, q) for r in KB.rules.values() for q in walk(r.when) if q in aliases]
    bad += [(r.id, r.meta["question"]) for r in KB.rules.values() if r.meta.get("question") in aliases]
    assert not bad, bad


def test_kb_check_refuses_a_rule_that_asks_by_an_alias(kbdir):
    (kbdir / "t.yaml").write_text(textwrap.dedent("""\
        questions:
          - {id: t-q, name: 占婚, aliases: [占婚姻], source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]}
        rules:
          - id: t-hun
            name: 試
            kind: 格
            reading: 試。
            source: [{seed: 000_97d20668deca6813.txt, para: 7, quote: 初傳空曰斬首}]
            when:
              - 問: {問: 占婚姻}
            examples:
              fires:
                - board: {day: 丁卯, on: 亥加丑, question: 占婚}
                  why: 試。
              silent:
                - board: {day: 丁卯, on: 亥加丑}
                  why: 試。
        """), encoding="utf-8")
    with pytest.raises(KBError) as e:
        load_kb(str(kbdir))
    assert "占婚姻" in str(e.value)


# ---------------------------------------------------------------- 4. findings a reader can use

ZAI = dict(day="甲子", on="子加子", month="庚寅", year="丙午", born=1980, sex="f", guiren="甲羊")


def test_zaihuan_time_is_shown_with_its_method_and_paragraph():
    f = J(**ZAI, question="占災患").findings()
    lines = f.get("已往未來", [])
    assert any(x.startswith("天罡臨干：") and "卷中¶356" in x for x in lines), lines
    assert KB.declared["時態"]["group_by"] == "項"


def test_daoli_number_shows_its_scale():
    lines = J(day="乙酉", on="酉加戌", month="辛巳", guiren="甲羊", question="占道里").findings()["數目"]
    assert any(x.startswith("二馬相乘：18") and "百里" in x and "本法" in x for x in lines), lines
    assert any(x.startswith("二馬相併") and "又法" in x for x in lines), lines


def test_every_number_says_its_method_unit_and_paragraph():
    lines = J(**ZAI, question="占財").findings()["數目"]
    assert lines and all(re.search(r"（.+；單位 .+；(本法|又法|並列|中分|別法).*，卷中¶3\d\d）$", x) for x in lines), lines
    assert any("上下相乘" in x and "本法" in x for x in lines)


def test_xinjiu_says_yongshen_yinshen_or_suolin():
    lines = J(**ZAI, question="占災患").findings()["新舊"]
    assert {x.split(" ")[0] for x in lines} == {"用神", "陰神", "所臨"}, lines


def test_gujiu_methods_are_alternatives_as_data():
    q = KB.questions["占沽酒"]
    by_answer = {}
    for m in q["methods"]:
        by_answer.setdefault(m["答"], []).append(m)
        for r in m["rules"]:
            assert r in KB.rules or r in KB.rows
    assert len(by_answer["酒之新舊有無"]) == 3          # 從魁所臨, 大吉加時, 小吉旺衰: three ways
    for m in by_answer["酒之新舊有無"]:
        head = m["name"].split("：")[0]
        for r in m["rules"]:
            entry = KB.rules.get(r) or KB.rows.get(r)
            rows = [x for x in KB.rows.values() if x.table == "yh-gujiu-congkui"] if r == "yh-gujiu-lin" else [entry]
            assert all(x.reading.startswith(f"〔{head}") for x in rows), (r, head)


def test_void_ju_yongshen_readings_are_marked_not_real():
    """丁卯 辰加子: 三傳 未亥卯 木局 (丁's 印) with 亥 void: 三傳合局生干 is 勿以實論 beside 孤哀."""
    j = J(day="丁卯", on="辰加子", month="丙寅")
    f = {x.report: x for x in j.fired}
    assert f["j2b-yinshou-sanchuan-heju"].defeated_by and f["j2b-yinshou-sanchuan-ganzhi-heju"].defeated_by
    assert "j2c-gu-ai-sanchuan-heju" in f and not f["j2c-gu-ai-sanchuan-heju"].defeated_by


def test_the_juan2_declaration_is_narrow():
    rows = {r.id: r for r in KB.tables["declared-conflicts"].rows if r.id}
    cells = {str(c.get("甲")) for c in rows["zongze-gan-wo-zhi-bi"].data} | {str(c.get("乙")) for c in rows["zongze-gan-wo-zhi-bi"].data}
    assert not any("j2c" in c for c in cells), cells


def test_the_void_ju_pairs_are_declared_by_id():
    rows = {r.id: r for r in KB.tables["declared-conflicts"].rows if r.id}
    for rid in ("zongze-j2-ju-kong", "zongze-j2-yongshen-kong-tawei", "zongze-j2-changsheng-kong"):
        cells = [x for c in rows[rid].data for x in (c["甲"], c["乙"])]
        assert cells and not any("*" in x for x in cells), (rid, cells)
    assert "j2b-hehe-sanchuan-sanhe" in KB.rows["j2b-kong-heju"].meta["defeats"]
