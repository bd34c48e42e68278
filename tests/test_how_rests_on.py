"""Issue 28 §2: a HOW chain lists the casting steps and facts its conclusion's conditions read, and no
others; each quote once; table rows in words."""
import pytest

from liuren.app import queries as Q
from liuren.rules.judging import judge
from liuren.knowledge.kbload import load_kb

KB = load_kb()
CHUAN_KEYS_PREFIX = ("zeike", "biyong", "shehai", "yaoke", "maoxing", "biezhe", "bazhuan", "fuyin-", "fanyin-", "chuanfa")


def _entry(name):
    return next(e for e in KB.entries.values() if e.name == name or e.id == name)


def _cast_parts(rep):
    return [s.get("key", "") for s in rep["steps"] if s["step"] == "cast"]


@pytest.fixture(scope="module")
def r():
    return judge(dict(day="丁卯", on="亥加丑"))


def test_a_chain_that_does_not_read_the_sanchuan_has_no_sanchuan_step(r):
    rep = Q.explain(r, _entry("干上受支生").id)
    assert rep["fired"]
    keys = _cast_parts(rep)
    assert "lessons" in keys and any(k.startswith("plate") for k in keys)       # it reads 干上: the 四課
    assert not [k for k in keys if k.startswith(CHUAN_KEYS_PREFIX) and not k.startswith(("plate",))], keys
    text = " ".join(m for s in rep["steps"] for m in s["matched"])
    assert "涉害" not in text and "初傳" not in text


def test_a_chain_that_reads_the_sanchuan_has_its_casting(r):
    rep = Q.explain(r, "ge-zhanshou")                     # 斬首: the 初傳 is void
    assert rep["fired"]
    keys = _cast_parts(rep)
    assert "chuanfa" in keys and any(k.startswith("shehai") for k in keys) and "lessons" in keys


def test_no_chain_of_the_board_repeats_a_quote_or_dumps_a_row(r):
    names = {t.name + "：" for t in KB.tables.values()}
    fired = sorted({f.report for f in r.fired})
    assert len(fired) > 30
    for key in fired:
        rep = Q.explain(r, key)
        quotes = [src["quote"] for s in rep["steps"] for src in s["sources"] if src.get("quote")]
        assert len(quotes) == len(set(quotes)), (key, quotes)
        for s in rep["steps"]:
            for m in s["matched"]:
                for t in KB.tables.values():
                    cols = t.meta.get("columns") or []
                    assert not (cols and m.startswith(t.name + "：" + str(cols[0]))), (key, m)
