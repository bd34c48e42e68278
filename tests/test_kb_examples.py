"""Every rule (and every row of a table whose rows are reported as judgments) fires on each of
its `fires` boards and stays silent on each of its `silent` boards.  A rule that can occur on no
board states `unreachable:` instead of `fires`; one that fires on every board states `always:`
instead of `silent`; both claims are checked over the 720 lessons."""
import functools
import json
import zlib

import pytest

from liuren import cast
from liuren.knowledge.kbload import load_kb
from liuren.knowledge.validate import entries_needing_examples
from liuren.casting.symbols import BRANCHES, JIAZI
import helpers

KB = load_kb()


ENTRIES = entries_needing_examples(KB)


fired = functools.lru_cache(maxsize=None)(helpers.fired)     # by the board's JSON: judged once


@pytest.fixture(autouse=True)
def _no_cache_writes(monkeypatch):
    """These tests judge in this process, where each network is compiled once and kept in
    memory (rules.judging keeps the last twelve, and the cases come network by network): writing
    each of the 64 networks to the cache too (some 1.5 s of CPU each) would serve no one."""
    monkeypatch.setenv("LIUREN_NO_CACHE", "1")


def _key(board):
    return json.dumps(board, ensure_ascii=False, sort_keys=True)


def _network(board):
    """The network a board is judged with (its question and variants): cases are run network by
    network, so that each is compiled (or read from the cache) once per worker."""
    return (board.get("question") or "", json.dumps(board.get("variants") or {}, sort_keys=True, ensure_ascii=False))


# the boards of the default network (most of them) are spread over this many groups, so that the
# workers share them; each board stays in one group (judged once, by one worker)
SPREAD = 4


def _group(net, board):
    part = f"|{zlib.crc32(_key(board).encode()) % SPREAD}" if net == ("", "{}") else ""
    return "net:" + "|".join(net) + part


def cases(kinds=("fires", "silent")):
    out = []
    for e in ENTRIES:
        ex = e.meta.get("examples") or {}
        for kind in kinds:
            for i, item in enumerate(ex.get(kind) or []):
                net = _network(item["board"])
                out.append((net, pytest.param(e.id, kind, item, id=f"{e.id}-{kind}-{i}",
                                              marks=pytest.mark.xdist_group(_group(net, item["board"])))))
    out.sort(key=lambda x: x[0])
    return [p for _, p in out]


@pytest.mark.parametrize("entry, kind, item", list(cases()))
def test_example(entry, kind, item):
    board = item["board"]
    got = entry in fired(_key(board))
    assert got == (kind == "fires"), f"{entry} should {'fire' if kind == 'fires' else 'stay silent'} on {board}"
    if item.get("chuan"):
        # a worked example of a book: the cast gives the 三傳 the book prints
        assert "".join(cast_of(_key(board))) == item["chuan"], \
            f"{entry}: the book's example {board} has 三傳 {item['chuan']}, the cast gives {''.join(cast_of(_key(board)))}"


@functools.lru_cache(maxsize=None)
def cast_of(board_json):
    kw = {k: v for k, v in json.loads(board_json).items() if k not in ("question", "variants")}
    return cast(**kw).transmissions.branches


@pytest.mark.parametrize("entry, kind, item", list(cases(("unmet",))))
def test_unmet_book_examples_are_still_unmet(entry, kind, item):
    # a worked example of a book that this encoding does not reproduce is listed with its reason
    # (and in the README); when the encoding changes so that it is met, it must move to fires/silent
    board, says = item["board"], item["says"]
    if says == "chuan":
        got = "".join(cast_of(_key(board)))
        assert got != item["chuan"], f"{entry}: the cast now gives the book's 三傳 {got}: move the example to fires/silent"
    else:
        got = entry in fired(_key(board))
        assert got != (says == "fires"), f"{entry}: the book's example {board} is now met: move it to {says}"


@pytest.mark.parametrize("entry", [e.id for e in ENTRIES])
def test_every_entry_has_both_examples(entry):
    e = KB.entries[entry]
    ex = e.meta.get("examples") or {}
    assert ex.get("fires") or e.meta.get("unreachable"), f"{entry}: no fires example and no unreachable: claim"
    assert ex.get("silent") or e.meta.get("always"), f"{entry}: no silent example and no always: claim"
    for kind in ("fires", "silent"):
        for item in ex.get(kind) or []:
            assert str(item.get("why", "")).strip(), f"{entry}: an example without its reason"


def lesson_boards():
    """The 720 lessons, each with a month (cycling the twelve), a year, a birth and 晝/夜 alternating,
    so that every position and season exists somewhere."""
    months = ["庚寅", "辛卯", "壬辰", "癸巳", "甲午", "乙未", "丙申", "丁酉", "戊戌", "己亥", "庚子", "辛丑"]   # 丙午's own
    for i, day in enumerate(JIAZI):
        for off in range(12):
            yield {"day": day, "jiang": BRANCHES[off], "hour": "子", "month": months[(i + off) % 12],
                   "year": 2026, "born": 1990 + off, "sex": "m" if i % 2 else "f", "night": bool((i + off) % 2)}


def lesson_space():
    return [fired(_key(b)) for b in lesson_boards()]


CLAIMS = [e for e in ENTRIES if e.meta.get("unreachable") or e.meta.get("always")]


def test_unreachable_and_always_claims_over_the_720_lessons():
    # one test, not one per claim: the 720 lessons are judged once (xdist may hand the first
    # cases of a group to the other worker, which would judge them all again)
    space = lesson_space()
    assert len(CLAIMS) > 100 and len(space) == 720
    wrong = []
    for e in CLAIMS:
        if e.meta.get("unreachable"):
            hits = sum(e.id in s for s in space)
            if hits:
                wrong.append(f"{e.id} claims unreachable ({e.meta['unreachable']['why']}) but fires on {hits} lessons")
        if e.meta.get("always"):
            misses = sum(e.id not in s for s in space)
            if misses:
                wrong.append(f"{e.id} claims always ({e.meta['always']['why']}) but is silent on {misses} lessons")
    assert not wrong, "\n".join(wrong)


def test_reported_ids_are_entries():
    # whatever a firing reports must be a rule or a named row the user can look up
    seen = 0
    for b in list(lesson_boards())[::37]:
        for rid in fired(_key(b)):
            assert rid in KB.entries, rid
            seen += 1
    assert seen > 100                               # firings were looked at
