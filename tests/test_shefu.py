"""射覆 (《六壬銀河櫂》卷10 ¶47–88) end to end: cast a board, judge it with the question 射覆,
and check the findings (覆 {項, 值}) the text's rules give for it.

The board: 甲午日, 月將辰加占時子, 寅月 (庚寅, 春), 2026 (丙午年), by night.

Worked by hand
--------------
Plate: 辰 over 子, so every 天盤 branch sits four places behind itself (寅 on 戌, 午 on 寅, 戌 on 午).
Lessons: 甲 lodges on 寅 → 一課 午/甲(寅); 二課 戌/午; 三課 (日支午) 戌/午; 四課 寅/戌.
三傳: only 寅加戌 is 上克下 (木克土) → 初傳 寅 (元首), 中 午, 末 戌: 寅午戌.
Season: 寅月 春 → 木旺 火相 水休 金囚 土死.

¶47 甲 is a 剛日, so the 神 of the 日 is 干上神 午; with the 發用 寅 the two 覆神 are 午 and 寅.
    「更詳五行之類」: 午 火, 寅 木 → 五行 火, 五行 木.
    「日為陽，為天，為尊長…剛日視干上之神」: 剛日 → 所視 干上之神（日：陽、天、尊長） (the text says which
    god to read and what 日 stands for — not that the covered thing belongs to an elder).
    「月起月建為正發」: 發用 寅 = 月建 寅 → 時 正發.
¶49 「日辰入傳，主物有表裡。如甲午日三傳寅午戌…其物外青內赤」: this is the text's own example —
    寄宮 寅 and 日支 午 are both in the 三傳 → 表裡 有表裡, 外色 青 (甲 木), 內色 赤 (午 火).
    「用神旺相加臨本方」: 寅 is 旺 but sits on 戌 (土), not a 木 place → no 近貴堪食.
¶55 四課之下 寅 午 午 戌: 二課 and 三課 are the same (午) → not 俱備 → no 完好.
¶59 數目 上下相乘 (先天數): 支上 戌(5) over 日支 午(9) → 45; 發用 寅(7) over 戌(5) → 35.
¶61 「火神臨日辰為虛」: 干上 午 is 火 → 虛實 虛.
¶63 「火土木神，自相加臨發用，臨日辰，其物出陸地」: 發用 寅(木) on 戌(土); 干上 午(火) on 寅(木) →
    水陸 出陸地.
¶65 三傳寅午戌 合火局 = 炎上 → 物 煙火虛心之物，或尖銳器; 發用 寅 is 孟 → 形 物方，有稜角，亦為題;
    寅 is a 陽支 → 器 碗.
¶67 木之類象 (寅): 色 青, 味 酸; 木 旺 → 物 林木. 土上見木 (寅 on 戌) → 物 堅牢物.
¶75 火之類象 (午): 色 赤, 味 苦. 木上見火 (午 on 寅) → 物 焦枯物. (火 has no 旺衰 list.)
¶79 寅之類象: 器 碗, 味 酸; 寅 旺 → 物 花果、文書、羽族.
¶83 午之類象: 質 太陽純火, 味 苦.
Not given: 新舊 (發用 寅 is 旺 but not from 日辰; not 辰/丑), 有無 (甲午旬 空 辰巳: none of 發用/日辰上 void),
死活 (支上 戌 死 and 發用 寅 旺: neither both 旺相 nor both 衰).
"""
from liuren import judge

BOARD = {"day": "甲午", "jiang": "辰", "hour": "子", "month": "庚寅", "year": 2026, "night": True,
         "question": "射覆"}


def findings(r):
    return {(d["項"], d["值"]) for d in r.wm if d["t"] == "覆"}


def test_shefu_end_to_end():
    r = judge(dict(BOARD))
    b = r.board
    assert b.transmissions.branches == ("寅", "午", "戌")
    assert [l.upper for l in b.lessons] == ["午", "戌", "戌", "寅"]
    assert {(d["支"], d["由"]) for d in r.wm if d["t"] == "覆神"} == {("午", "日辰"), ("寅", "發用")}

    got = findings(r)
    expected = {
        ("五行", "火"), ("五行", "木"),
        ("所視", "干上之神（日：陽、天、尊長）"),
        ("時", "正發"),
        ("表裡", "有表裡"), ("外色", "青"), ("內色", "赤"),
        ("數（辰上）", 45), ("數（發用）", 35),
        ("虛實", "虛"),
        ("水陸", "出陸地"),
        ("物", "煙火虛心之物，或尖銳器"), ("形", "物方，有稜角，亦為題"), ("器", "碗"),
        ("色", "青"), ("味", "酸"), ("物", "林木"), ("物", "堅牢物"),
        ("色", "赤"), ("味", "苦"), ("物", "焦枯物"),
        ("物", "花果、文書、羽族"),
        ("質", "太陽純火"),
    }
    missing = expected - got
    assert not missing, f"missing findings: {sorted(missing, key=str)}"
    items = {k for k, _ in got}
    for absent in ("新舊", "有無", "死活", "完缺", "屬"):
        assert absent not in items, f"{absent} should not be given on this board: {sorted(v for k, v in got if k == absent)}"
    assert ("物", "近貴堪食之物") not in got

    fired = r.to_dict()["fired"]
    names = {f["name"] for f in fired}
    for n in ("射覆取象法", "日辰入傳物有表裡", "月建正發、已過、未來", "火神臨日辰為虛", "火土木神相加出陸地",
              "課體斷物·炎上", "課體斷物·用孟", "課體斷物·陽為碗", "木之類象", "火之類象", "寅之類象", "午之類象",
              "木旺相休囚死", "木上見五行", "土上見五行", "寅旺為花果文書羽族"):
        assert n in names, n
    for f in fired:
        if f["name"] == "日辰入傳物有表裡":
            assert f["sources"][0]["para"] == 49
    calc = [c for f in fired if f.get("calc") for c in f["calc"]]
    assert "5 × 9 = 45" in calc and "7 × 5 = 35" in calc


def test_shefu_needs_the_question():
    r = judge({k: v for k, v in BOARD.items() if k != "question"})
    assert not findings(r)
