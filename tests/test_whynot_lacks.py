"""Issue 28: where nothing close is on the board, a WHY-NOT names what the board lacks, read off what
the condition reads — the 占類 never asked, the month (月建) or the 行年 never given — in zh and in
ja, in the CLI's lines and on the board page; never the bare 「盤上無此」 for those."""
import pytest

from liuren.app import queries as Q
from liuren.explain.render import in_lang, whynot_lines
from liuren.rules.judging import judge

BOARD = dict(day="丁卯", on="亥加丑")


def _failed(lines):
    return [x for x in lines if x.startswith("  ✗ 要")]


@pytest.fixture(scope="module")
def bare():
    return judge(dict(BOARD))


def test_the_question_not_asked_and_the_xingnian_not_given(bare):
    lines = _failed(whynot_lines(Q.explain(bare, "yh-nishi-dengming")))
    assert "  ✗ 要 所問 為 占溺屍；此盤未問占類" in lines
    assert any(x.endswith("；此盤未給行年") and "行年上見亥" in x for x in lines), lines
    assert not any(x.endswith("盤上無此") for x in lines), lines


def test_the_month_not_given(bare):
    lines = _failed(whynot_lines(Q.explain(bare, "dq11-youmu")))
    assert any(x.endswith("；此盤未給月建") for x in lines), lines
    with in_lang("ja"):
        ja = _failed(whynot_lines(Q.explain(bare, "dq11-youmu")))
    assert any(x.endswith("この盤は月建を与えていない") for x in ja), ja


def test_with_the_month_given_it_is_not_said_missing():
    r = judge(dict(BOARD, month="甲午"))
    rep = Q.explain(r, "dq11-youmu")
    assert not any("此盤未給月建" in x for x in whynot_lines(rep))


def test_the_board_page_names_what_it_lacks():
    from fastapi.testclient import TestClient
    from liuren.web.app import create_app
    c = TestClient(create_app(None, warm=False))
    t = c.get("/board?day=丁卯&on=亥加丑&why=yh-nishi-dengming").text
    assert "此盤未問占類" in t and "此盤未給行年" in t
    t = c.get("/board?day=丁卯&on=亥加丑&why=yh-nishi-dengming&lang=ja").text
    assert "この盤は占う事柄を問うていない" in t and "この盤は行年を与えていない" in t


# 「課傳無 X」 and 「此盤無 神煞 X」: what they say must be so on the board, and never an internal name
SAMPLE = dict(day="丁卯", on="亥加丑", month="壬寅")
NOT_IN_KECHUAN = ["dq01-changsheng-chengmu", "dq01-tianshang-changsheng-zuomu", "jz-tiancheng", "jz-tianli"]
NO_SHA = ["jz-diaoke", "jz-sangmen"]
# rules reading a 神煞 the board does have (印, 財 … not 空), or a list of 休・囚・死氣
HAS_SHA = ["j2c-gu-ai", "j2c-guanju", "j2c-mingling", "dq08-zhuolun-guanguo"]


@pytest.fixture(scope="module")
def sample():
    return judge(dict(SAMPLE))


def _kechuan(r):
    d = r.board.to_dict()
    return {x for le in d["lessons"] for x in (le["upper"], le["lower"])} | set(d["transmissions"]["branches"])


def _sha_on_board(r, name):
    from liuren.explain.whynot import FactBase
    fb = FactBase(r.graph, r.kb)
    return any(f.get("煞") == name for fs in fb.by_type.values() for f, _ in fs)


@pytest.mark.parametrize("key", NOT_IN_KECHUAN)
def test_kechuan_lacks_a_branch_it_does_lack(sample, key):
    lines = [x for x in whynot_lines(Q.explain(sample, key)) if "；課傳無 " in x]
    assert lines, key
    for x in lines:
        b = x.rsplit("；課傳無 ", 1)[1].strip()
        assert len(b) == 1 and b not in _kechuan(sample), (key, x, _kechuan(sample))
    with in_lang("ja"):
        assert any("課伝に " in x and " なし" in x for x in whynot_lines(Q.explain(sample, key)))


@pytest.mark.parametrize("key", NO_SHA)
def test_no_shensha_the_board_does_not_have(sample, key):
    lines = [x for x in whynot_lines(Q.explain(sample, key)) if "；此盤無 神煞 " in x]
    assert lines, key
    for x in lines:
        name = x.rsplit("；此盤無 神煞 ", 1)[1].strip()
        assert name and not _sha_on_board(sample, name), (key, x)


@pytest.mark.parametrize("key", HAS_SHA)
def test_never_says_a_shensha_is_missing_that_the_board_has(sample, key):
    for x in whynot_lines(Q.explain(sample, key)):
        assert "~" not in x and "$" not in x, (key, x)
        if "此盤無 神煞 " in x:
            name = x.rsplit("此盤無 神煞 ", 1)[1].strip()
            assert not _sha_on_board(sample, name), (key, x)
