"""/find in a real headless Chromium (Playwright with executable_path, as tests/test_web_browser.py):
type a query, read the count, follow a facet and a board.  The app is served in-process on a
one-day index (288 boards), so the test does not wait for the whole space to be indexed."""
import socket
import threading
import time

import pytest

from helpers import CHROMIUM, need

pytestmark = pytest.mark.xdist_group("find")


@pytest.fixture(scope="module")
def ix():
    from liuren.explain import index as X
    return X.get_index(None, {}, None, 1, progress=False)


@pytest.fixture(scope="module")
def server(ix):
    import uvicorn
    from liuren.app import find as F
    from liuren.web.app import create_app
    app = create_app(warm=False)
    f = F.Finder(None, days=1)
    f._ix[((), None)] = ix
    app.state.finder = f
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    t = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    t.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    t.join(10)
    sock.close()


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need(False, "playwright is not installed (pip install '.[test]')")
    need(CHROMIUM is not None, "no chromium on PATH (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("request", lambda r: None if r.url.startswith(("http://127.0.0.1", "data:", "blob:"))
          else errors.append("outside request: " + r.url))
    yield pg
    ctx.close()
    assert not errors, errors


def test_type_a_query_follow_a_facet_and_open_a_board(page, server, ix):
    from liuren.app import find as F
    n = F.find(ix, "斬首 and 元首課", limit=0)["count"]
    assert n > 0
    page.goto(f"{server}/find")
    page.fill("#q", "斬首 and 元首課")
    page.click("#find-go")
    page.wait_for_selector("#find-count")
    assert page.inner_text("#find-count").startswith(f"斬首 and 元首課：{n}")
    rows = page.locator("#find-boards tbody tr")
    assert rows.count() == min(n, F.PAGE)
    # a facet: 夜 keeps the night boards, and says how many
    night = page.locator("#facet-daynight li", has_text="夜")
    want = int(night.locator("small").inner_text())
    night.locator("a").click()
    page.wait_for_url("**daynight=night**")
    assert page.inner_text("#find-count").startswith(f"斬首 and 元首課：{want}")
    assert all(t == "夜" for t in page.locator("#find-boards tbody tr td:nth-child(4)").all_inner_texts())
    # a board opens with the chain of the first rule of the query
    page.locator("#find-boards tbody tr td a").first.click()
    page.wait_for_url("**/board?**")
    assert "why=ge-zhanshou" in page.url
    assert page.locator("#chain").count() == 1


def test_a_bad_query_says_which_token(page, server):
    page.goto(f"{server}/find")
    page.fill("#q", "斬首 and (元首課")
    page.click("#find-go")
    page.wait_for_selector("#find-error")
    assert "第 3 項之「(」未閉" in page.inner_text("#find-error")      # the token, in the page's language
    assert page.input_value("#q") == "斬首 and (元首課"


def test_a_researchers_position_query_cross_table_and_chart(page, server, ix):
    """A position query with a cross-table: the table's cells read apart, the chart is the
    server's SVG (no script drew it), and a co-occurrence link opens a query that answers."""
    from liuren.app import find as F
    q = "初傳 空 and not gate=涉害"
    r = F.find(ix, q, count_by_key="daynight,gate", limit=0)
    page.goto(f"{server}/find?lang=ja")
    page.fill("#q", q)
    page.fill("#count_by", "daynight,gate")
    page.click("#find-go")
    page.wait_for_selector("#find-table")
    rows = page.locator("#find-table tbody tr")
    assert rows.count() == len(r["table"]["rows"]) + 1
    cells = rows.first.locator("td").all_inner_texts()
    assert [int(c.replace(",", "")) for c in cells] == r["table"]["cells"][0] + [r["table"]["row_totals"][0]]
    chart = page.locator("#chart-gate svg")
    assert chart.count() == 1 and page.locator("#chart-gate svg rect").count() == len(F.GATES)
    box = page.locator("#chart-gate svg rect").first.bounding_box()
    assert box and box["height"] > 5
    assert "占時は子" in page.inner_text("#find-space")
    link = page.locator("#find-cooccur tbody tr td a").first
    link.click()
    page.wait_for_selector("#find-count")
    assert "and" in page.inner_text("#find-count")
