"""The /audit page and /api/audit (issue 27 §6): a saved audit run's findings, filtered by
severity, check, kind, book and file, each linked to its rule pages and to the board that shows
it; without a saved run the page says in words how to make one (no command line), the API names
the command."""
import re
import shutil
import sys
import textwrap
import pathlib

import pytest
from fastapi.testclient import TestClient

from liuren.explain.audit import audit, save_run
from liuren.knowledge.kbload import packaged_kb_dir

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from test_audit import PLANTED  # noqa: E402


@pytest.fixture(scope="module")
def run_file(tmp_path_factory):
    root = tmp_path_factory.mktemp("webaudit")
    d = root / "kb"
    shutil.copytree(packaged_kb_dir() / "core", d / "core")
    (d / "planted.yaml").write_text(textwrap.dedent(PLANTED), encoding="utf-8")
    rep = audit(str(d), months="1", daynight="day", progress=False, days=3, variants=False)
    p = root / "run.json"
    save_run(rep, p)
    return p, rep


@pytest.fixture(scope="module")
def client(run_file):
    from liuren.app.auditview import Runs
    from liuren.web.app import create_app
    app = create_app(None)
    app.state.audit_runs = Runs(run_file[0])
    return TestClient(app, raise_server_exceptions=False)


def test_audit_page_lists_findings_ranked_with_links(client, run_file):
    _, rep = run_file
    r = client.get("/audit")
    assert r.status_code == 200
    assert 'href="/rules/t-bad"' in r.text and 'href="/rules/t-good"' in r.text
    boards = re.findall(r'href="/board\?([^"#]+)#chain"', r.text)
    assert boards
    q = boards[0].replace("&amp;", "&")
    assert "why=" in q and "day=" in q and "night=" in q
    # the app's KB is the packaged one (the run is of a planted copy): the board without the why
    assert client.get("/board?" + re.sub(r"&why=[^&]*", "", q)).status_code == 200
    api = client.get("/api/audit").json()
    assert api["of"] == len(rep["findings"]) and api["findings"][0]["severity"] == "error"
    assert [f["key"] for f in api["findings"]] == [f["key"] for f in rep["findings"]][:api["shown"]]


@pytest.mark.parametrize("key,value", [("severity", "error"), ("check", "redundant"), ("kind", "格"),
                                       ("book", "core"), ("file", "kb/planted.yaml")])
def test_filters(client, key, value):
    api = client.get("/api/audit", params={key: value}).json()
    assert 0 < api["count"] < api["of"]
    for f in api["findings"]:
        if key in ("severity", "check"):
            assert f[key] == value
        else:
            assert any(e[key] == value for e in f["entries"])
    page = client.get("/audit", params={key: value})
    assert page.status_code == 200 and 'class="on"' in page.text


def test_bad_filter_is_400(client):
    assert client.get("/api/audit", params={"severity": "fatal"}).status_code == 400
    assert client.get("/api/audit", params={"nonsense": "1"}).status_code == 400


def test_japanese_page(client):
    from liuren.explain.words import WORDS
    t = client.get("/audit", params={"lang": "ja"}).text
    assert WORDS["ja"]["audit_title"] in t and WORDS["ja"]["audit_checks"]["conflict (undeclared)"] in t


def test_no_saved_run_says_how_in_words(client, tmp_path):
    from liuren.app.auditview import Runs
    from liuren.explain.words import WORDS
    kept = client.app.state.audit_runs
    client.app.state.audit_runs = Runs(tmp_path / "none.json")
    try:
        api = client.get("/api/audit")
        assert api.status_code == 503 and "liuren audit" in api.json()["error"]
        for lang in ("zh", "ja"):
            page = client.get("/audit", params={"lang": lang})
            assert page.status_code == 503
            text = re.search(r'<p class="note" id="audit-none">(.*?)</p>', page.text, re.S).group(1)
            assert text == WORDS[lang]["audit_none"] and "--" not in text and "liuren" not in text
    finally:
        client.app.state.audit_runs = kept
