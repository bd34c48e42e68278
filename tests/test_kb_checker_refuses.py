"""Issue 29 §6: what `liuren kb check` accepted and now refuses, each in one line naming the file:
a ¶ past the end of its seed, a seed file that does not exist, two questions that include each
other, a misspelled position inside `test: {in: [...]}`, a negation cycle through a rule only a
question brings out; and a KB file that is not a regular file
(a FIFO, a link to an endless device) is refused at once, never read forever."""
import os
import subprocess
import sys

import pytest

from helpers import edit

SOURCE = "{seed: 000_97d20668deca6813.txt, para: 7, quote: '斬首 初傳空曰斬首，凡占人占事以無始論。'}"


def check(kbcopy, timeout=600):
    p = subprocess.run([sys.executable, "-m", "liuren", "kb", "check", "--kb", str(kbcopy)],
                       capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in p.stderr and "MemoryError" not in p.stderr, p.stderr[-2000:]
    return p.returncode, p.stderr


@pytest.mark.parametrize("new, words", [
    (SOURCE.replace("para: 7", "para: 99999999999999999999"), "¶99999999999999999999"),
    (SOURCE.replace("para: 7", "para: 83"), "¶83"),
    (SOURCE.replace(".txt", ".tx"), "000_97d20668deca6813.tx"),
    (SOURCE.replace("000_97d20668deca6813", "999_97d20668deca6813"), "999_97d20668deca6813.txt"),
    (SOURCE.replace("000_97d20668deca6813.txt", "../109_liuren_daquan_juan09.txt"), "../109_liuren_daquan_juan09.txt"),
], ids=["huge-para", "para-past-end", "tx", "999", "dotdot"])
def test_a_source_outside_its_seed(kbcopy, new, words):
    edit(kbcopy, "juan3/ge.yaml", SOURCE, new)
    code, err = check(kbcopy)
    assert code == 2 and words in err and "juan3/ge.yaml" in err, err[-2000:]


def test_the_installed_books_give_their_paragraph_counts():
    from liuren.knowledge.kbload import load_kb
    books = load_kb().books
    assert books and all(isinstance(b.get("paras"), int) and b["paras"] > 1 for b in books.values())


def test_two_questions_that_include_each_other(kbcopy):
    edit(kbcopy, "yinhe/base.yaml", "  name: 占病\n  source:\n", "  name: 占病\n  includes: [占妻病]\n  source:\n")
    code, err = check(kbcopy)
    assert code == 2 and "占病" in err and "占妻病" in err and "include" in err, err[-2000:]


def test_a_negation_cycle_through_a_question_only_rule(kbcopy):
    # 天醫作虎鬼格 is brought out only by 占病; made to wait for 制鬼之位乃良醫 not to be judged,
    # which waits in turn for it not to be: a cycle in 占病's network alone, not in the network
    # of no question that kb check compiles first
    rel = "daquan/juan12-d-068-076.yaml"
    edit(kbcopy, rel, "      - 問: {問: 占病}\n      - 日: {干: $g}\n      - 時令: {月建: $y}\n",
         "      - 問: {問: 占病}\n      - not: {判: {規: dq12-fa068}}\n      - 日: {干: $g}\n      - 時令: {月建: $y}\n")
    edit(kbcopy, rel, "      - 克: [$k, $g]\n      - not: {空: {支: $k}}\n",
         "      - 克: [$k, $g]\n      - not: {空: {支: $k}}\n      - not: {判: {規: dq12-tianyi-hugui}}\n")
    code, err = check(kbcopy)
    assert code == 2 and "asking 占病" in err and "negate each other in a cycle" in err, err[-2000:]
    assert "dq12-fa068" in err and "dq12-tianyi-hugui" in err and rel in err, err[-2000:]


def test_a_question_only_rule_negating_without_a_cycle_is_accepted(kbcopy):
    # the same question-only rule waiting for the other not to be judged, with no way back: stratified
    rel = "daquan/juan12-d-068-076.yaml"
    edit(kbcopy, rel, "      - 問: {問: 占病}\n      - 日: {干: $g}\n      - 時令: {月建: $y}\n",
         "      - 問: {問: 占病}\n      - not: {判: {規: dq12-fa068}}\n      - 日: {干: $g}\n      - 時令: {月建: $y}\n")
    code, err = check(kbcopy)
    assert "negate each other" not in err, err[-2000:]


def test_a_misspelled_position_inside_a_test(kbcopy):
    edit(kbcopy, "juan3/ge.yaml", "test: {in: [$p, [干上, 支上]]}", "test: {in: [$p, [干上, 支尚]]}")
    code, err = check(kbcopy)
    assert code == 2 and "'支尚'" in err and "juan3/ge.yaml" in err, err[-2000:]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_place_of_a_core_file(kbcopy):
    p = kbcopy / "core" / "books.yaml"
    p.unlink()
    os.mkfifo(p)
    code, err = check(kbcopy, timeout=300)               # a hang would time out
    assert code == 2 and "books.yaml" in err and "regular" in err, err[-2000:]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_a_link_to_an_endless_device(kbcopy):
    p = kbcopy / "juan3" / "ge.yaml"
    p.unlink()
    p.symlink_to("/dev/zero")
    code, err = check(kbcopy, timeout=300)
    assert code == 2 and "ge.yaml" in err, err[-2000:]


@pytest.mark.parametrize("value", ["--2", "'高'", "1.5", "true"])
def test_a_salience_that_is_not_a_whole_number(kbcopy, value):
    # a slip of a digit or a sign (salience: --2) read as a string reached the compiler's int() as a traceback
    text = (kbcopy / "yinhe/shefu.yaml").read_text(encoding="utf-8")
    assert "  salience: -1\n" in text
    (kbcopy / "yinhe/shefu.yaml").write_text(text.replace("  salience: -1\n", f"  salience: {value}\n", 1), encoding="utf-8")
    code, err = check(kbcopy)
    assert code == 2 and "salience" in err and "yinhe/shefu.yaml" in err and "whole number" in err, err[-2000:]


@pytest.mark.parametrize("old, new, words", [
    ("- {項: 干支相距, 鍵: 6, 值: 極遠}", "- {項: 干支相距, 鍵: -7, 值: 極遠}", "鍵 -7"),
    ("- {項: 干支相距, 鍵: [1, 2], 值: 遠}", "- {項: 干支相距, 鍵: [1, 12], 值: 遠}", "鍵 12"),
], ids=["negative", "in-a-list"])
def test_a_distance_out_of_the_tables_own_domain(kbcopy, old, new, words):
    # 遠近之別 declares what its 鍵 may be (0–11 places apart, or a lesson): a slip out of it is refused,
    # a cell of several values (鍵: [1, 2]) each checked
    edit(kbcopy, "juanzhong/b-base.yaml", old, new)
    code, err = check(kbcopy)
    assert code == 2 and words in err and "juanzhong/b-base.yaml" in err, err[-2000:]
