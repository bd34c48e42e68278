"""Issue 28 §6: every error page a student can reach speaks the page's language, keeps the language
switch, and leads back to where the student was (the drill, not /); a name several entries share opens
a page that lists them; the footer links the licences page, not a raw file."""
import html
import re

import pytest
from fastapi.testclient import TestClient

from liuren.web.app import create_app


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(warm=False))


# (url, what the message quotes back); the issue-29 list: bad variant, book, kind, gate, lang, option,
# a name several entries share, values holding '
BAD = [
    ("/board?day=甲子&on=子加子&variant=foo=bar", "foo"),
    ("/board?day=甲子&on=子加子&variant=dq07-sanguang", "三光課"),         # the id typed is said by its name
    ("/board?day=甲子&on=子加子&book=無書", "無書"),
    ("/board?day=甲子&on=子加子&kind=無類", "無類"),
    ("/rules?kind=無類", "無類"),
    ("/board?day=甲子&on=子加子&valence=大吉", "大吉"),
    ("/practice?seed=3&gate=飛門", "飛門"),
    ("/board?day=甲子&on=子加子&shehai=both", "both"),
    ("/board?day=甲子&on=子加子&guiren=x", "x"),
    ("/rules/無此'規", "無此'規"),
    ("/board?day=甲'子&on=子加子", "甲'子"),
    ("/practice?seed=3&k1=X&k2=子&k3=子&k4=子", "X"),
    ("/practice/sheet?seed=1&n=99", "99"),
    ("/board?day=甲子&on=子加子&partner_born=1990", ""),
]


def message(r):
    return html.unescape(re.search(r'id="error">([^<]*)<', r.text).group(1))


@pytest.mark.parametrize("lang", ["zh", "ja"])
@pytest.mark.parametrize("url,value", BAD)
def test_error_page_in_the_pages_language(client, url, value, lang):
    r = client.get(url + (("&" if "?" in url else "?") + "lang=ja" if lang == "ja" else ""))
    assert r.status_code == 400
    msg = message(r)
    assert value in msg
    rest = msg.replace(value, "")
    assert not re.search(r"[A-Za-z]{2,}|--|[a-z]+-[a-z]+", rest), msg       # no English, flag or id beyond the value
    if lang == "ja":
        assert re.search(r"[ぁ-んァ-ン]", msg), msg
    assert 'id="lang-ja"' in r.text                                          # the language switch
    back = html.unescape(re.search(r'<a href="([^"]*)" id="back">', r.text).group(1))
    if url.startswith("/practice"):
        assert back.startswith("/practice") and "k1" not in back and "n=99" not in back
    if url.startswith("/practice?seed=3"):
        assert "seed=3" in back
    if lang == "ja":
        assert "lang=ja" in back


def test_back_to_where_the_student_came_from(client):
    r = client.get("/practice?seed=3&k1=X&k2=子&k3=子&k4=子", headers={"referer": "http://testserver/practice?seed=3&gate=%E9%87%8D%E5%AF%A9"})
    back = html.unescape(re.search(r'<a href="([^"]*)" id="back">', r.text).group(1))
    assert back == "/practice?seed=3&gate=%E9%87%8D%E5%AF%A9"
    r = client.get("/practice?seed=3&k1=X&k2=子&k3=子&k4=子", headers={"referer": "http://elsewhere.example/x"})
    back = html.unescape(re.search(r'<a href="([^"]*)" id="back">', r.text).group(1))
    assert back == "/practice?seed=3"


@pytest.mark.parametrize("name", ["斬關", "蕪淫", "六陰", "三奇"])
@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_a_shared_name_lists_its_entries(client, name, lang):
    r = client.get(f"/rules/{name}" + ("?lang=ja" if lang == "ja" else ""))
    assert r.status_code == 200
    items = re.findall(r'<li><a href="/rules/([^"]+)">([^<]+)</a>', r.text.split('id="choices"')[1])
    assert len(items) >= 2
    text = html.unescape(re.sub(r"<[^>]+>", " ", r.text.split('id="choices"')[1].split("</ul>")[0]))
    assert not re.search(r"[a-z]+-[a-z0-9-]+", text)
    # the board's chain box lists them too, each a link to its chain
    r = client.get(f"/board?day=甲子&on=子加子&why={name}" + ("&lang=ja" if lang == "ja" else ""))
    assert r.status_code == 400 and 'id="choices"' in r.text and "why=" in r.text.split('id="choices"')[1]


def test_footer_links_the_licences_page(client):
    for lang in ("zh", "ja"):
        r = client.get("/" + ("?lang=ja" if lang == "ja" else ""))
        assert "VENDOR.md" not in r.text and 'id="licences-link"' in r.text
        page = client.get("/licences" + ("?lang=ja" if lang == "ja" else ""))
        assert page.status_code == 200 and "cytoscape" in page.text and "MIT" in page.text
        assert 'href="/static/vendor/' not in page.text
