"""A value the KB writes for a machine is said to a reader in the words its fact declaration or its
table gives it (`words:`, kb/README.md): 卷中's 星煞 write 將 任 for "whatever general it carries",
and a chain says 「丑 入占，乘任一天將」 and 「所乘之將不拘」, never 「乘任」 or 「所乘之將任」."""
import json

from liuren.app import queries as Q
from liuren.rules.judging import judge


def test_a_chain_says_any_general_in_words():
    r = judge(dict(day="丁卯", on="亥加丑", month="庚寅", year=2026))
    rep = Q.explain(r, "jz-tianguai")
    assert rep["fired"]
    text = json.dumps(rep, ensure_ascii=False)
    assert "丑 入占，乘任一天將" in text and "所乘之將不拘" in text, text[:3000]
    assert not any(x in text for x in ("乘任」", "乘任\"", "所乘之將任")), text[:3000]
    # the general the branch carries is still said where it is one: 丑 carries 勾陳
    assert "丑 入占，乘勾陳" in text


def test_a_table_row_in_words_and_in_japanese():
    from liuren.explain.factwords import row_words
    from liuren.knowledge.kbload import load_kb
    kb = load_kb()
    row = {"t": "jz-xingsha-lun", "源": "jz-tianguai", "關": "課傳", "將": "任", "類": "凡占", "報": "jz-tianguai"}
    assert "所乘之將不拘" in row_words(kb, row)
    assert "不拘" in row_words(kb, row, "ja") and "将任" not in row_words(kb, row, "ja")
