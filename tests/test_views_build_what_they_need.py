"""Each view builds what it shows: `liuren judge` (without --json or --trace) builds no trace
graph and imports no networkx; `liuren why` builds the part of the trace the rule's chain rests
on (Judgment.chain_graph), and its report is the one the whole graph gives."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from liuren import judge
from liuren.app.queries import explain
from liuren.explain.chain import how
from liuren.explain.whynot import why_not
from liuren.knowledge.kbload import load_kb

BOARD = ["--day", "丁卯", "--on", "亥加丑"]


def _modules_after(argv):
    code = ("import json, sys\nfrom liuren.cli.main import main\nrc = main(%r)\n"
            "print(json.dumps({'rc': rc, 'nx': 'networkx' in sys.modules}))" % (argv,))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("argv", [["judge", *BOARD], ["judge", *BOARD, "--all"], ["why", "斬首", *BOARD],
                                  ["why", "dq10-liuyin", *BOARD, "--format", "json"]])
def test_judge_and_why_import_no_networkx(argv):
    got = _modules_after(argv)
    assert got == {"rc": 0, "nx": False}


def test_judge_builds_no_graph():
    r = judge({"day": "丁卯", "on": "亥加丑"})
    r.fired, r.by_kind(), r.findings()
    assert r._g is None


def _boards():
    return [{"day": "丁卯", "on": "亥加丑"},
            {"day": "甲子", "on": "子加子", "month": "丙寅"},
            {"day": "庚午", "on": "巳加寅", "night": True, "year": "丙午", "born": 1990, "sex": "m"},
            {"day": "癸亥", "on": "申加辰", "question": "占病"}]


@pytest.mark.parametrize("i", range(len(_boards())))
def test_why_from_its_part_of_the_trace_equals_the_whole(i):
    r = judge(_boards()[i])
    kb = load_kb(None)
    g = r.graph
    fired = sorted({f.report for f in r.firings} | {f.rule for f in r.firings})
    rnd = random.Random(i)
    # every entry that fired (placements and the compiler's helpers included), and a sample of
    # those that did not: rules and table rows
    not_fired = rnd.sample(sorted(set(kb.rules) - set(fired)), 12) + rnd.sample(sorted(set(kb.rows) - set(fired)), 4)
    for key in fired:
        sub = r.chain_graph(key)
        assert how(sub, key) == how(g, key), key
    for key in not_fired:
        assert how(g, key) is None
        assert explain(r, key) == why_not(g, key, r.kb), key
    # the whole trace is untouched by the parts built for chains
    assert r.graph is g
