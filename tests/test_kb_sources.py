"""Every classical quote in kb/ (and every casting verse, so every derivation step) is verbatim
from the seed paragraph it cites.

The seeds are not part of the product: they are looked for in $LIUREN_SEEDS, else in
../shared/seeds next to the checkout (.ci/run sets LIUREN_SEEDS for its fresh copy); when
neither is there these tests are skipped — except in CI ($CI=true), where they fail: the 4,000
quote checks must run there.  A quote is compared exactly, whitespace included; it
may leave text out only with an explicit "…" (spaces around it are not part of the quote): its
pieces must then appear in order.
"""
import os
import pathlib

import pytest

from liuren.knowledge.kbload import load_kb
from helpers import in_ci

SEEDS = pathlib.Path(os.environ.get("LIUREN_SEEDS")
                     or pathlib.Path(__file__).resolve().parents[1].parent / "shared" / "seeds")
KB = load_kb()

pytestmark = pytest.mark.skipif(not SEEDS.is_dir() and not in_ci(),
                                reason="the seeds are not available ($LIUREN_SEEDS or ../shared/seeds)")


def test_the_seeds_are_there():
    """In CI the seeds must be found (the other tests of this file would fail on them anyway;
    this one says why in one line)."""
    assert SEEDS.is_dir(), f"the seeds are not at {SEEDS}: set LIUREN_SEEDS"


def paragraphs(seed):
    return (SEEDS / seed).read_text(encoding="utf-8").split("\n\n")


def all_sources():
    items = []
    for e in KB.entries.values():
        items.append((e.id, e.source, e.variants))
    for t in KB.tables.values():
        items.append((t.id, t.meta.get("source") or [], []))
    for q in KB.questions.values():
        items.append((q["id"], q.get("source") or [], []))
    for v in KB.verses.values():              # a casting verse's `source:` (the book's names of its method)
        items.append((v["id"], v.get("source") or [], []))
    for e in KB.entries.values():             # the worked examples of a book cite it too
        for kind, boards in (e.meta.get("examples") or {}).items():
            for i, b in enumerate(boards or []):
                if b.get("source"):
                    items.append((f"{e.id}-{kind}{i}", [b["source"]] if isinstance(b["source"], dict) else b["source"], []))
    for tid, src, variants in items:
        for s in src:
            if "seed" in s:
                yield pytest.param(tid, s, id=f"{tid}-{s['seed'][:3]}-{s['para']}")


def contains_in_order(text, quote):
    pos = 0
    for piece in [p.strip() for p in quote.split("…") if p.strip()]:
        i = text.find(piece, pos)
        if i < 0:
            return False
        pos = i + len(piece)
    return True


@pytest.mark.parametrize("entry, src", list(all_sources()))
def test_quote_is_verbatim(entry, src):
    assert (SEEDS / src["seed"]).is_file(), f"{entry}: no seed file {src['seed']}"
    ps = paragraphs(src["seed"])
    assert 0 <= src["para"] < len(ps), f"{entry}: ¶{src['para']} is past the end of {src['seed']}"
    assert contains_in_order(ps[src["para"]], src["quote"]), \
        f"{entry}: quote not found in {src['seed']} ¶{src['para']}: {src['quote']}"


def variant_cases():
    for e in KB.entries.values():
        for v in e.variants:
            yield pytest.param(e.id, v, id=f"{e.id}-{v['id']}")


@pytest.mark.parametrize("entry, variant", list(variant_cases()))
def test_variant_quote_is_in_a_cited_paragraph(entry, variant):
    # the 底本 text a variant records must stand in one of the paragraphs the entry cites
    e = KB.entries[entry]
    texts = [paragraphs(s["seed"])[s["para"]] for s in e.source if "seed" in s]
    assert any(contains_in_order(t, str(variant["quote"])) for t in texts), \
        f"{entry}: variant {variant['id']} quotes {variant['quote']!r}, which no cited paragraph has"


# --------------------------------------------------------------------------- the casting verses
@pytest.mark.parametrize("vid", sorted(KB.verses))
def test_verse_is_verbatim(vid):
    v = KB.verses[vid]
    ps = paragraphs(v["seed"])
    assert contains_in_order(ps[v["para"]], v["quote"]), f"verse {vid}: not in {v['seed']} ¶{v['para']}: {v['quote']}"


def test_every_cast_step_quotes_its_paragraph():
    # every step of every one of the 720 lessons, under both 涉害 options (伏吟 and 返吟 included),
    # cites a seed and ¶ whose paragraph holds its quote verbatim
    from liuren.casting.cast import structure
    from liuren.casting.symbols import JIAZI
    checked = set()
    for day in JIAZI:
        for offset in range(12):
            for shehai in ("count", "mengzhong"):
                for s in structure(day, offset, shehai)[4]:
                    assert s.seed and isinstance(s.para, int), (day, offset, s.text)
                    if (s.seed, s.para, s.verse) not in checked:
                        assert contains_in_order(paragraphs(s.seed)[s.para], s.verse), (day, offset, s.text, s.verse)
                        checked.add((s.seed, s.para, s.verse))
    assert len(checked) >= 20
