"""Issue 29 §6: the web answers 400 to bad input it used to take silently — /board?trace=x, and
/api/practice's n=x, ge=zzzz, and answers given before their step."""
import pytest
from fastapi.testclient import TestClient

from liuren.app.practice import practice_lesson
from liuren.casting.cast import cast


@pytest.fixture(scope="module")
def client():
    from liuren.web.app import create_app
    return TestClient(create_app(warm=False), raise_server_exceptions=False)


def test_board_trace_x(client):
    assert client.get("/api/judge?day=丁卯&on=亥加丑&trace=x").status_code == 400
    r = client.get("/board?day=丁卯&on=亥加丑&trace=x")
    assert r.status_code == 400
    assert client.get("/board?day=丁卯&on=亥加丑&trace=1").status_code == 200


def _answers(seed):
    les = practice_lesson(seed)
    b = cast(day=les["day"], on=les["on"], night=les["night"] == "true")
    k = {f"k{i + 1}": l.upper for i, l in enumerate(b.lessons)}
    t = b.transmissions
    c = dict(zip(("chu", "zhong", "mo"), t.branches), men=t.gate)
    return k, c


@pytest.mark.parametrize("path", ["/api/practice", "/practice"])
def test_practice_refuses_what_it_used_to_ignore(client, path):
    k, c = _answers(11)
    good = client.get(path, params={"seed": 11, **k, **c})
    assert good.status_code == 200
    assert path != "/api/practice" or good.json()["step"] == 3
    for extra in [{"n": "x"}, {"n": "0"}]:
        r = client.get(path, params={"seed": 11, **extra})
        assert r.status_code == 400, (extra, r.text[:300])
    # answers of a later step, before the step: refused (not taken silently)
    assert client.get(path, params={"seed": 11, **c}).status_code == 400
    assert client.get(path, params={"seed": 11, "ge": "ge-zhanshou"}).status_code == 400
    assert client.get(path, params={"seed": 11, **k, "ge_done": "1"}).status_code == 400
    # a 格 that is not a candidate, at step 3
    assert client.get(path, params={"seed": 11, **k, **c, "ge": "zzzz"}).status_code == 400
