"""One table of parameters (engine/app/params.py): the CLI's options, the web's parameter lists and
/openapi.json's descriptions are all made from it, so they cannot drift apart."""
from __future__ import annotations

import pytest

from fastapi.testclient import TestClient  # noqa: E402

from liuren.app import params as P  # noqa: E402
from liuren.cli.main import build_parser  # noqa: E402

# what one front-end has and the other has not, each for a reason
CLI_ONLY = {
    "kb",            # the CLI reads another KB folder; the server's KB is fixed when it starts (liuren serve --kb)
    "json",          # the CLI prints text or JSON; the API is JSON (its page twin is the HTML)
}
API_ONLY_JUDGE = {
    "kind", "valence",                   # what the page shows of a judgment; the CLI's judge prints every kind
    "why",           # the CLI asks `liuren why RULE`, a command of its own
    "trace",         # the CLI asks `liuren trace`, a command of its own
}


@pytest.fixture(scope="module")
def spec():
    from liuren.web.app import create_app
    return TestClient(create_app(warm=False)).get("/openapi.json").json()


def _dests(cmd):
    parser = build_parser(cmd)
    sub = next(a for a in parser._actions if a.dest == "cmd").choices[cmd]
    return {a.dest for a in sub._actions if a.dest != "help"}


def _api_names(spec, path):
    return {p["name"] for p in spec["paths"][path]["get"]["parameters"]}


def test_every_parameter_of_every_endpoint_has_a_description(spec):
    seen = 0
    for path, ops in spec["paths"].items():
        for op in ops.values():
            for p in op.get("parameters", []):
                seen += 1
                assert p.get("description", "").strip(), (path, p["name"])
    assert seen > 100                           # the loop ran over the endpoints' parameters


def test_the_descriptions_are_the_tables_in_zh_and_ja_stays_available(spec):
    for p in spec["paths"]["/api/judge"]["get"]["parameters"]:
        t = P.PARAMS[p["name"]]
        assert p["description"] == t.zh and t.ja and t.ja != t.zh
    shehai = next(p for p in spec["paths"]["/api/cast"]["get"]["parameters"] if p["name"] == "shehai")
    assert shehai["schema"]["enum"] == ["count", "mengzhong", "tianpan", "biyong"]


def test_cli_and_api_take_the_same_names():
    from liuren.web.app import create_app
    spec = TestClient(create_app(warm=False)).get("/openapi.json").json()
    # cast: the same names but for the CLI's own, and its --lang, the language of the printed board
    # (/api/cast's JSON has no words to translate)
    assert _dests("cast") - CLI_ONLY - {"lang"} == _api_names(spec, "/api/cast") == set(P.CAST_KEYS)
    # judge: the CLI's options are the API's, and the API's are the CLI's but for the page's own
    assert _dests("judge") - CLI_ONLY == _api_names(spec, "/api/judge") - API_ONLY_JUDGE


def test_every_name_a_page_takes_is_in_the_table():
    from liuren.app import auditview as AV
    from liuren.app import findweb as FW
    for k in P.BOARD_KEYS + P.PRACTICE_KEYS:
        assert k in P.PARAMS, k
    for k in FW.FIND_KEYS:
        assert k in P.FIND_PARAMS or k in P.PARAMS, k
    for k in AV.AUDIT_KEYS:
        assert k in P.AUDIT_PARAMS or k in P.PARAMS, k
    for name, p in P.PARAMS.items():
        assert p.name == name and p.zh and p.ja and p.type in ("str", "bool", "multi"), name


def test_gates_are_one_list():
    from liuren.app import find as F
    from liuren.app import findexpr as FE
    from liuren.casting.symbols import GATES
    from liuren.knowledge import kblint
    assert FE.GATES is GATES and F.GATES is GATES and kblint.GATES is GATES and P.GATES is GATES
    assert len(GATES) == 9
