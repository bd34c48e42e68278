"""Issue 28 §5: the drill knows the schools, keeps a gate's lessons to that gate, takes an empty box
as a line in its step, hints at the step and the rule the student missed, and links a worksheet that
never holds the lesson on screen."""
import html
import re
from urllib.parse import parse_qsl

import pytest
from fastapi.testclient import TestClient

from liuren import cast
from liuren.app.practice import CURRICULUM, _gate_of, practice_lesson
from liuren.web.app import create_app


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(warm=False))


def text(r):
    t = re.sub(r"<script.*?</script>|<option.*?</option>", "", r.text, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", t)))


def _board(les, **kw):
    return cast(day=les["day"], on=les["on"], night=les["night"] == "true", **kw)


def _q1(b):
    return "&".join(f"k{i + 1}={l.upper}" for i, l in enumerate(b.lessons))


def test_mengzhong_answer_is_right_and_named(client):
    les = practice_lesson(12, "涉害")
    count, meng = _board(les), _board(les, shehai="mengzhong")
    assert count.transmissions.branches != meng.transmissions.branches      # the two schools differ here
    assert "".join(meng.transmissions.branches) == "戌申午"
    q = _q1(count) + "&chu={}&zhong={}&mo={}&men=涉害".format(*meng.transmissions.branches)
    d = client.get("/api/practice?seed=12&gate=涉害&" + q).json()
    assert d["step"] == 3 and d["transmissions"]["ok"] and d["transmissions"]["school"] == "mengzhong"
    for lang, word in (("zh", "另一取法（先孟仲）"), ("ja", "孟仲を先とする")):
        page = text(client.get(f"/practice?seed=12&gate=涉害&lang={lang}&" + q))
        assert word in page and "✗" not in page.split("三、")[0].split("二、")[1], page
    # the 計涉害之數 answer is right too, and not called the other school
    q0 = _q1(count) + "&chu={}&zhong={}&mo={}&men=涉害".format(*count.transmissions.branches)
    d = client.get("/api/practice?seed=12&gate=涉害&" + q0).json()
    assert d["step"] == 3 and "school" not in d["transmissions"]
    # a teacher who fixes the school: the other school's answer is named, and not taken
    d = client.get("/api/practice?seed=12&gate=涉害&shehai=count&" + q).json()
    assert d["step"] == 2 and not d["transmissions"]["ok"] and d["transmissions"]["school"] == "mengzhong"
    page = text(client.get("/practice?seed=12&gate=涉害&shehai=count&" + q))
    assert "另一取法（先孟仲）" in page and "故不取" in page
    d = client.get("/api/practice?seed=12&gate=涉害&shehai=mengzhong&" + q).json()
    assert d["step"] == 3 and "school" not in d["transmissions"]
    # the worksheet takes the school too: its key is that school's
    sheet = client.get("/practice/sheet?seed=12&gate=涉害&n=3&shehai=mengzhong").text.split('id="key"')[1]
    assert "戌申午" in sheet
    assert client.get("/practice?seed=12&shehai=both").status_code == 400


@pytest.mark.parametrize("gate", CURRICULUM)
def test_a_gate_lesson_is_of_that_gate(gate):
    for seed in range(50):
        les = practice_lesson(seed, gate)
        b = _board(les)
        assert _gate_of(b) == gate, (seed, les, b.transmissions.gate, b.transmissions.subtype)
        if gate in ("元首", "重審", "知一"):
            assert b.transmissions.gate in ("賊克", "比用") and b.transmissions.subtype == gate


def test_zhongshen_lesson_3_is_a_zeike_board_and_zeike_is_right(client):
    les = practice_lesson(3, "重審")
    b = _board(les)
    assert (les["day"], les["on"]) != ("己酉", "子加午")
    assert b.transmissions.gate == "賊克"
    q = _q1(b) + "&chu={}&zhong={}&mo={}&men=賊克".format(*b.transmissions.branches)
    assert client.get("/api/practice?seed=3&gate=重審&" + q).json()["step"] == 3


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_an_empty_box_is_a_line_in_its_step(client, lang):
    les = practice_lesson(7)
    b = _board(les)
    r = client.get(f"/practice?seed=7&lang={lang}&k1={b.lessons[0].upper}&k3=子")
    assert r.status_code == 200
    page = text(r)
    line = re.search(r'id="empty-lessons">([^<]+)<', r.text).group(1)
    assert ("第二課" in line and "第四課" in line) and "第一課" not in line
    assert not re.search(r"[A-Za-z]", line), line
    assert ("尚未填" if lang == "zh" else "空欄") in line
    assert 'id="form-lessons"' in r.text and "二、" not in page          # still on step 1, the form kept
    # step 2: the gate box left empty
    q = _q1(b) + "&chu={}&zhong={}&mo={}".format(*b.transmissions.branches)
    r = client.get(f"/practice?seed=7&lang={lang}&" + q)
    assert r.status_code == 200
    line = re.search(r'id="empty-chuan">([^<]+)<', r.text).group(1)
    assert ("發用之門" if lang == "zh" else "門") in line and not re.search(r"[A-Za-z]", line)
    r = client.get("/api/practice?seed=7&" + q)                      # the API: an incomplete answer is bad input
    assert r.status_code == 400 and "missing men" in r.json()["error"]


def test_hints_name_the_step_and_rule_never_the_answer(client):
    les = practice_lesson(7)
    b = _board(les)
    ups = [l.upper for l in b.lessons]
    # one wrong lesson: the hint names that lesson and how it is taken, with the verse
    wrong = [x for x in "子丑寅卯辰巳午未申酉戌亥" if x != ups[2]][0]
    q = "&".join(f"k{i + 1}={wrong if i == 2 else u}" for i, u in enumerate(ups))
    r = client.get("/practice?seed=7&" + q)
    hint = text(r).split("提示", 1)[1].split("下一課")[0]
    assert "第三課" in hint and "日支" in hint and "「" in hint and "《六壬大全》" in hint
    # all four wrong: the plate
    q = "&".join(f"k{i + 1}={[x for x in '子丑寅卯辰巳午未申酉戌亥' if x != u][0]}" for i, u in enumerate(ups))
    hint = text(client.get("/practice?seed=7&" + q)).split("提示", 1)[1]
    plate = next(s for s in b.transmissions.steps if s.key.startswith("plate"))
    assert "月將加占時" in hint and plate.verse in hint
    # a wrong 初傳: the 發用 and its deciding verse; the answer is not in the hint
    t = b.transmissions.branches
    bad = [x for x in "子丑寅卯辰巳午未申酉戌亥" if x != t[0]][0]
    q = _q1(b) + f"&chu={bad}&zhong={t[1]}&mo={t[2]}&men={b.transmissions.gate}"
    r = client.get("/practice?seed=7&" + q)
    hint = re.search(r'<div class="hint" id="hint">(.*?)</div>\s*</div>|<div class="hint" id="hint">(.*?)</section>', r.text, re.S)
    hint = html.unescape(re.sub(r"<[^>]+>", " ", hint.group(0)))
    assert "發用" in hint and "「" in hint and "".join(t) not in hint
    # the 初傳 right, the 末傳 wrong: how 中 and 末 follow
    bad = [x for x in "子丑寅卯辰巳午未申酉戌亥" if x != t[2]][0]
    q = _q1(b) + f"&chu={t[0]}&zhong={t[1]}&mo={bad}&men={b.transmissions.gate}"
    hint = text(client.get("/practice?seed=7&" + q)).split("提示", 1)[1]
    assert "中傳、末傳" in hint and "「" in hint


def test_worksheet_link_never_holds_the_lesson_on_screen(client):
    for seed in (3, 7, 12):
        r = client.get(f"/practice?seed={seed}")
        les = practice_lesson(seed)
        href = html.unescape(re.search(r'href="/practice/sheet\?([^"]+)" id="sheet"', r.text).group(1))
        q = dict(parse_qsl(href))
        assert q["seed"] != str(seed)
        sheet = client.get("/practice/sheet?" + href).text
        heads = re.findall(r"<h2>\d+\. (\S+)日 (\S+) · (\S+)月", sheet)
        assert len(heads) == int(q["n"]) >= 3
        assert (les["day"], les["on"], les["month"]) not in heads


def test_candidates_carry_a_definition_and_no_internal_names(client):
    les = practice_lesson(12, "涉害")
    meng = _board(les, shehai="mengzhong")
    q = _q1(meng) + "&chu={}&zhong={}&mo={}&men=涉害".format(*meng.transmissions.branches)
    r = client.get("/practice?seed=12&gate=涉害&" + q)
    items = re.findall(r'<li><label><input type="checkbox" name="ge" value="([^"]+)"[^>]*>([^<]+)</label> '
                       r'<a class="define" href="/rules/([^"]+)"[^>]*>([^<]*)</a></li>', r.text)
    assert len(items) >= 5
    for rid, name, href, define in items:
        assert ":" not in name and define.strip() and "$" not in define, (rid, name, define)


# ------------------------------------------------------------------ every school the cast takes
def _answer(b, t):
    return _q1(b) + "&chu={}&zhong={}&mo={}&men={}".format(*t.branches, t.gate)


@pytest.mark.parametrize("seed,school", [(0, "tianpan"), (1, "biyong")])
def test_tianpan_and_biyong_answers_are_right_and_named(client, seed, school):
    """A 涉害 lesson whose 三傳 only the 天盤 孟仲 reading (seed 0) or only 比用 (seed 1) gives: that
    answer is right, named in the page's words (never the option's value), and not taken once a
    teacher fixes another school."""
    les = practice_lesson(seed, "涉害")
    count, other = _board(les), _board(les, shehai=school)
    assert count.transmissions.branches != other.transmissions.branches
    assert all(_board(les, shehai=s).transmissions.branches != other.transmissions.branches
               for s in ("count", "mengzhong", "tianpan", "biyong") if s != school)
    q = _answer(count, other.transmissions)
    d = client.get(f"/api/practice?seed={seed}&gate=涉害&" + q).json()
    assert d["step"] == 3 and d["transmissions"]["ok"] and d["transmissions"]["school"] == school
    words = {"zh": {"tianpan": "先孟仲（天盤之支）", "biyong": "比用"},
             "ja": {"tianpan": "孟仲を先とする（天盤の支）", "biyong": "比用"}}
    for lang in ("zh", "ja"):
        r = client.get(f"/practice?seed={seed}&gate=涉害&lang={lang}&" + q)
        line = re.search(r'id="school">([^<]+)<', r.text).group(1)
        assert words[lang][school] in line and school not in line, line
        assert "✗" not in text(r).split("三、")[0].split("二、")[1]
    # the teacher fixes the default school: named, and not taken
    d = client.get(f"/api/practice?seed={seed}&gate=涉害&shehai=count&" + q).json()
    assert d["step"] == 2 and not d["transmissions"]["ok"] and d["transmissions"]["school"] == school
    # fixing that school: the answer is simply right
    d = client.get(f"/api/practice?seed={seed}&gate=涉害&shehai={school}&" + q).json()
    assert d["step"] == 3 and d["shehai"] == school and "school" not in d["transmissions"]
    # and the default school's answer, under that school, is named as the count's
    d = client.get(f"/api/practice?seed={seed}&gate=涉害&shehai={school}&" + _answer(count, count.transmissions)).json()
    assert d["step"] == 2 and d["transmissions"]["school"] == "count"


@pytest.mark.parametrize("school", ["count", "mengzhong", "tianpan", "biyong"])
def test_a_teacher_fixes_every_school_the_cast_takes(client, school):
    les = practice_lesson(0, "涉害")
    want = "".join(_board(les, shehai=school).transmissions.branches)
    for lang in ("zh", "ja"):
        r = client.get(f"/practice?seed=0&gate=涉害&shehai={school}&lang={lang}")
        assert r.status_code == 200
        from liuren.explain.words import WORDS
        word = WORDS[lang]["opt"][school]
        assert word in re.search(r"<h1>(.*?)</h1>", r.text, re.S).group(1)
        # the picker: every option in words, this one chosen; the links of the curriculum keep it
        opts = re.findall(r'<option value="(\w*)"( selected)?>([^<]+)</option>',
                          r.text.split('id="school-pick"')[1].split("</form>")[0])
        assert [o[0] for o in opts] == ["", "count", "mengzhong", "tianpan", "biyong"]
        assert [o[0] for o in opts if o[1]] == [school]
        assert all(not re.search(r"[a-z]", o[2]) for o in opts)
        assert f"shehai={school}" in re.search(r'<nav class="curriculum".*?</nav>', r.text, re.S).group(0)
        sheet = client.get(f"/practice/sheet?seed=50&gate=涉害&n=3&shehai={school}&lang={lang}")
        assert sheet.status_code == 200 and word in re.search(r"<h1.*?</h1>", sheet.text, re.S).group(0)
    key = client.get(f"/practice/sheet?seed=0&gate=涉害&n=1&shehai={school}").text.split('id="key"')[1]
    assert want in key


def test_a_wrong_school_is_refused_in_the_page_language(client):
    r = client.get("/practice?seed=0&shehai=tian&lang=ja")
    assert r.status_code == 400
    assert "count|mengzhong|tianpan|biyong" in r.text or "天盤" in r.text
