"""Issue 28 §4–§6, what a walk through the pages in a browser found still failing: a position named
twice on a judgment's line (既往（初傳屬此）「見於初傳、初傳」), the summary's 課體 heading in zh under ja,
and a missing page headed 「輸入有誤」 as if the student's input were wrong."""
import html
import re

import pytest
from fastapi.testclient import TestClient

from liuren.web.app import create_app


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(warm=False))


def text(r):
    t = re.sub(r"<script.*?</script>|<style.*?</style>", "", r.text, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", t))


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_a_position_is_named_once_on_a_line(client, lang):
    page = text(client.get(f"/board?day=丁卯&on=亥加丑&month=壬寅&lang={lang}"))
    seen = re.findall(r"見於([^，。）;；]+)" if lang == "zh" else r"、([^（）；]+?)に見る", page)
    assert seen, page[:500]
    for s in seen:
        xs = [x for x in re.split(r"[、・]", s) if x]
        assert len(xs) == len(set(xs)), s


def test_the_summary_speaks_the_pages_language(client):
    r = client.get("/board?day=丁卯&on=亥加丑&month=壬寅&lang=ja")
    top = re.search(r'id="summary">(.*?)</div>', r.text, re.S).group(1)
    assert "<b>課体</b>" in top and "<b>課體</b>" not in top
    r = client.get("/board?day=丁卯&on=亥加丑&month=壬寅")
    assert "<b>課體</b>" in re.search(r'id="summary">(.*?)</div>', r.text, re.S).group(1)


@pytest.mark.parametrize("lang,heading", [("zh", "找不到此頁"), ("ja", "ページが見つからない")])
def test_a_missing_page_says_so_keeps_the_switch_and_leads_back(client, lang, heading):
    r = client.get(f"/nope?lang={lang}")
    assert r.status_code == 404
    h1 = html.unescape(re.search(r"<h1>(.*?)</h1>", r.text, re.S).group(1))
    assert h1 == heading
    assert 'href="/nope?lang=ja"' in r.text and 'href="/nope"' in r.text          # the language switch
    assert re.search(r'<a href="/(\?lang=ja)?" id="back">', r.text)
    # a wrong input is still "輸入有誤"
    r = client.get(f"/practice?seed=abc&lang={lang}")
    assert r.status_code == 400 and heading not in r.text


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_values_paired_with_positions_where_the_branches_cannot_be(client, lang):
    """干生末末生中中生初 reads four positions and binds two branches (未、酉): the line gives each
    position with what the board has there, and stays among what the 三傳 say."""
    r = client.get(f"/board?day=丁卯&on=亥加丑&month=壬寅&lang={lang}")
    page = text(r)
    line = re.search(r"干生末末生中中生初\s*（(.*?)）\s*(?:\S*干|$)", page, re.M).group(1)
    line = re.sub(r"\s*、\s*", "、", re.sub(r"\s+", " ", line))
    want = ("日干 丁（寄未）、末傳 未、中傳 酉、初傳 亥" if lang == "zh" else "日干 丁（寄未）、末伝 未、中伝 酉、初伝 亥")
    assert want in line and "未、酉" not in line, line
    top = re.search(r'id="summary">(.*?)</div>', r.text, re.S).group(1)
    chuan = [x for x in top.split("</p>") if "干生末末生中中生初" in x]
    assert chuan and ("三傳所見" in chuan[0] or "三伝に見える" in chuan[0]), top
    # a line over two positions pairs each with its value too (支生干: 日干 丁（寄未）、日支 卯)
    assert re.search(r"支生干\s*（\s*日干\s*丁（寄未）\s*、\s*日支\s*卯\s*）", page)
