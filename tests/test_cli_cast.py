"""The cast and table commands: layout, JSON keys, errors as one line with exit status 2."""
import json
import subprocess
import sys

import pytest

from liuren import cast
from liuren.cli.main import main


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_cast_text_layout(capsys):
    rc, out, _ = run(capsys, "cast", "--day", "丁卯", "--on", "亥加丑")
    assert rc == 0
    assert "三傳（涉害）" in out
    # 四課 right to left: lesson 4 first; the lower row ends with the day stem
    lower = next(l for l in out.splitlines() if l.strip().startswith("下神"))
    assert lower.split()[1:] == ["丑", "卯", "巳", "丁"]
    assert "初傳  官鬼  　 亥  朱雀" in out
    assert "空卯" in out.splitlines()[out.splitlines().index("天地盤（格中為天盤支與所乘天將，格之位置即地盤）") + 1]


def test_cast_json_keys(capsys):
    rc, out, _ = run(capsys, "cast", "--day", "丁卯", "--on", "亥加丑", "--json")
    d = json.loads(out)
    for k in ("pillars", "jieqi", "yue_jiang", "zhan_shi", "daytime", "plate", "lessons", "transmissions",
              "generals", "noble", "xun", "void", "options"):
        assert k in d
    assert set(d["pillars"]) == {"year", "month", "day", "hour"}
    assert len(d["plate"]) == 12 and d["plate"]["丑"] == "亥"
    assert d["lessons"][0] == {"upper": "巳", "lower": "丁", "general": "太常"}
    assert d["transmissions"]["branches"] == ["亥", "酉", "未"] and d["transmissions"]["gate"] == "涉害"
    assert d["transmissions"]["steps"] and all("text" in s and "verse" in s for s in d["transmissions"]["steps"])
    assert d["generals"]["亥"] == "朱雀"
    assert d["noble"] == {"branch": "酉", "direction": "順"}
    assert d["xun"]["head"] == "子" and d["xun"]["tail"] == "酉"
    assert d["void"] == ["戌", "亥"]
    assert d == cast(day="丁卯", on="亥加丑").to_dict()


def test_cast_moment_json(capsys):
    rc, out, _ = run(capsys, "cast", "2026-11-22T15:24+08:00", "--json")
    d = json.loads(out)
    assert d["pillars"] == {"year": "丙午", "month": "己亥", "day": "庚子", "hour": "甲申"}
    assert d["jieqi"] == "小雪" and d["yue_jiang"] == "寅" and d["zhan_shi"] == "申" and d["daytime"] is True


def test_a_local_moment_in_two_words(capsys):
    # `liuren cast 2026-11-30 14:05 --tz Asia/Shanghai` is the same moment as the ISO form
    assert main(["cast", "2026-11-30", "14:05", "--tz", "Asia/Shanghai", "--json"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert main(["cast", "2026-11-30T14:05+08:00", "--json"]) == 0
    assert two == json.loads(capsys.readouterr().out)
    assert main(["cast", "2026-11-30", "14:05", "later"]) == 2
    assert "'2026-11-30 14:05 later'" in capsys.readouterr().err


def test_table(capsys):
    rc, out, _ = run(capsys, "table", "--day", "甲子")
    assert rc == 0 and len(out.strip().splitlines()) == 12
    rc, out, _ = run(capsys, "table", "--json")
    d = json.loads(out)
    assert len(d) == 720 and {x["offset"] for x in d} == set(range(12))
    assert d[0]["transmissions"]["gate"] == "伏吟" and d[0]["zhan_shi"] == "子"


@pytest.mark.parametrize("argv, needle", [
    (["cast", "--day", "甲丑", "--on", "亥加丑"], "甲丑"),
    (["cast", "--day", "丁卯", "--jiang", "Q", "--hour", "丑"], "'Q'"),
    (["cast", "--day", "丁卯", "--jiang", "亥", "--hour", "13"], "'13'"),
    (["cast", "--day", "丁卯", "--on", "子加Q"], "'Q'"),
    (["cast", "not-a-moment"], "not-a-moment"),
    (["cast", "2150-01-01T10:00+08:00"], "range"),
    (["cast", "2026-01-01 10:00", "--tz", "Nowhere/City"], "Nowhere/City"),
    (["cast", "--day", "丁卯", "--on", "亥加丑", "--born", "1990", "--sex", "x"], "'x'"),
    (["cast", "--frobnicate"], "--frobnicate"),
    (["table", "--day", "乙子"], "乙子"),
])
def test_bad_input_one_line_exit_2(capsys, argv, needle):
    try:
        rc = main(argv)
    except SystemExit as e:      # argparse's own usage errors
        rc = e.code
    out, err = capsys.readouterr()
    assert rc == 2
    assert len(err.strip().splitlines()) == 1 and needle in err
    assert "Traceback" not in err


def test_python_dash_m_engine_is_the_same_cli():
    r = subprocess.run([sys.executable, "-m", "liuren", "cast", "--day", "甲丑", "--on", "亥加丑"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "甲丑" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "liuren", "cast", "--day", "丁卯", "--on", "亥加丑", "--json"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and json.loads(r.stdout)["transmissions"]["branches"] == ["亥", "酉", "未"]
