"""《六壬大全》卷一 德煞 (¶1203–1336): the book's own boards for 四德, 合 and its kinds, 同心格, the ten 交車
kinds (¶1243–1253), 家鬼弄家神, 借益格 / 暗鬼 and the 年命 墓 of ¶1290–1291, each beside a near miss; and the
inventory's names of these paragraphs, each carried by an entry citing the paragraph."""
import pathlib

import pytest
import yaml

from liuren.rules.judging import judge

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEED = "101_liuren_daquan_juan01.txt"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
STEMS = "甲乙丙丁戊己庚辛壬癸"
JIGONG = dict(zip(STEMS, "寅辰巳未巳未申戌亥丑"))
LIUHE = dict(zip(BRANCHES, "丑子亥戌酉申未午巳辰卯寅"))


def fired(**board):
    return judge(board).fired_ids()


def jiaoche_lessons():
    """The 55 交車 lessons (¶1243「一日一課」): 干上 is the 六合 of the day branch, so the plate is fixed;
    the five days whose stem lodges on the day branch have none."""
    for i in range(60):
        day = STEMS[i % 10] + BRANCHES[i % 12]
        j, z = JIGONG[day[0]], day[1]
        if j != z:
            yield day, f"{LIUHE[z]}加{j}"


@pytest.fixture(scope="module")
def jiaoche_fired():
    return {day: fired(day=day, on=on) for day, on in jiaoche_lessons()}


def test_jiaoche_is_one_lesson_a_day_on_55_days(jiaoche_fired):
    assert len(jiaoche_fired) == 55
    assert all("dq01-jiaoche-ge" in ids for ids in jiaoche_fired.values())
    # the five 八專 days of ¶1243 「支乾同處，交車不合」 are not in the list
    assert not {"甲寅", "庚申", "丁未", "己未", "癸丑"} & set(jiaoche_fired)


@pytest.mark.parametrize("rule,day,on", [
    ("dq11-jiaoche-changsheng", "甲申", "巳加寅"),   # ¶1244 長生合
    ("dq01-jiaoche-caihe", "辛丑", "子加戌"),        # ¶1245 財合
    ("dq01-jiaoche-tuohe", "戊辰", "酉加巳"),        # ¶1246 脫合
    ("dq01-jiaoche-chonghe", "丁丑", "子加未"),      # ¶1247 害合 (干上子: the 交車 lesson of 丁丑)
    ("dq11-jiaoche-kong", "辛亥", "寅加戌"),         # ¶1248 空合
    ("dq01-jiaoche-xinghe", "癸卯", "戌加丑"),       # ¶1249 刑合
    ("dq01-jiaoche-chonghe", "甲申", "巳加寅"),      # ¶1250 衝合
    ("dq01-jiaoche-kehe", "庚子", "丑加申"),         # ¶1251 克合
    ("dq01-jiaoche-sanjiaohe", "己酉", "辰加未"),    # ¶1252 三交合
    ("dq01-jiaoche-sanjiaohe", "丁卯", "戌加未"),
    ("dq11-jiaoche-sanhe", "乙丑", "子加辰"),        # ¶1253 交會合
])
def test_the_ten_jiaoche_kinds_on_the_books_boards(rule, day, on):
    ids = fired(day=day, on=on)
    assert "dq01-jiaoche-ge" in ids and rule in ids


@pytest.mark.parametrize("rule,day,on", [
    ("dq01-jiaoche-tuohe", "戊辰", "子加子"),    # 伏吟: no 交車 on these days
    ("dq01-jiaoche-kehe", "庚子", "子加子"),
    ("dq01-jiaoche-caihe", "辛丑", "子加子"),
    ("dq01-jiaoche-xinghe", "癸卯", "子加子"),
    ("dq01-jiaoche-chonghe", "丁丑", "子加子"),  # 伏吟: 干上未 衝 丑, but no 交車 (卷十一's 交車衝 fires)
])
def test_the_jiaoche_kinds_need_the_jiaoche(rule, day, on):
    ids = fired(day=day, on=on)
    assert "dq01-jiaoche-ge" not in ids and rule not in ids


def test_chonghe_and_haihe_fall_on_the_same_lessons(jiaoche_fired):
    """In a 交車 lesson 干上 is the 六合 of 日支; it harms the 寄宮 exactly when 寄宮 and 日支 clash (a 六害 is the
    六合 of the clash): 衝合 and 害合 are one rule, on the days whose 寄宮 clashes with the day branch."""
    clash = {d for d in jiaoche_fired
             if (BRANCHES.index(JIGONG[d[0]]) - BRANCHES.index(d[1])) % 12 == 6}
    assert clash == {d for d, ids in jiaoche_fired.items() if "dq01-jiaoche-chonghe" in ids}
    assert {"甲申", "丁丑"} <= clash          # the examples of ¶1250 and ¶1247


def test_sanjiao_is_the_four_days_of_juan11(jiaoche_fired):
    """¶1252 names 己酉 and 丁卯; 卷十一 ¶186 adds 丁酉 and 己卯. 甲申 (孟 over 孟, 三傳 申亥寅) is not 三交."""
    assert {d for d, ids in jiaoche_fired.items() if "dq01-jiaoche-sanjiaohe" in ids} == {"己酉", "丁卯", "丁酉", "己卯"}


def test_tongxin_ge_on_the_books_boards():
    for day, on in [("甲申", "亥加寅"), ("乙亥", "卯加辰"), ("壬午", "未加亥"), ("乙酉", "酉加辰")]:
        assert "dq01-tongxin-ge" in fired(day=day, on=on), (day, on)
    assert "dq01-tongxin-ge" not in fired(day="甲子", on="子加子")


def test_wuhe_by_the_general_riding_it():
    """¶1221: 甲己之合 (未 on a 甲 day) riding 貴人 is 中正合; the same plate by day (白虎) is not."""
    assert "dq01-wuhe-zhongzheng" in fired(day="甲子", on="巳加子", night=True)
    assert "dq01-wuhe-zhongzheng" not in fired(day="甲子", on="巳加子", night=False)
    # ¶1224: 丁壬之合 亥 on 地盤 酉 riding 太陰 is the 淫泆 reading; by day 貴人 rides it: the 吉 reading
    night, day = fired(day="丁卯", on="巳加卯", night=True), fired(day="丁卯", on="巳加卯", night=False)
    assert "dq01-wuhe-yinyi-xie" in night and "dq01-wuhe-yinyi" not in night
    assert "dq01-wuhe-yinyi" in day and "dq01-wuhe-yinyi-xie" not in day


def test_jiagui_nong_jiashen_1266():
    """己丑日支上寅發用作鬼，三傳寅卯辰皆歸木鄉; 支上 寅 on a 丙 day is no 鬼."""
    assert "dq01-jiagui-nong-jiashen" in fired(day="己丑", on="寅加丑")
    assert "dq01-jiagui-nong-jiashen" not in fired(day="丙子", on="寅加子")


def test_jieyi_ge_and_angui_1272():
    """壬子日未加卯 by night: 三傳未亥卯木局脫干, 貴人 勾陳 太常 (土) are 暗鬼 and the 木 restrains them."""
    ids = fired(day="壬子", on="未加卯", night=True)
    assert {"dq01-angui", "dq01-jieyi-ge"} <= ids
    assert "dq01-jieyi-ge" not in fired(day="丙子", on="未加卯", night=True)   # 木 does not drain 丙 (火)


def test_nianming_mu_1291():
    """年命在子：辰加子為乘墓，天上子臨辰為坐墓."""
    assert "jzb-nianming-daimu" in fired(day="甲子", on="辰加子", benming="子")
    assert "jzb-nianming-rumu" in fired(day="甲子", on="子加辰", benming="子")
    assert "jzb-nianming-daimu" not in fired(day="甲子", on="辰加子", benming="寅")


def test_xingnian_huaqi_rumu_1290():
    assert "dq01-xingnian-huaqi-rumu" in fired(day="甲子", on="午加戌", xingnian="午")
    assert "dq01-xingnian-huaqi-rumu" in fired(day="甲子", on="寅加戌", xingnian="寅")
    assert "dq01-xingnian-huaqi-rumu" not in fired(day="甲子", on="午加戌", xingnian="寅")


# the inventory's names of ¶1205–1301 this part of the KB covers: (¶, name)
COVERED = [(1205, "徳"), (1206, "四徳"), (1215, "合"), (1221, "中正合"), (1222, "仁義合"), (1223, "威權合"),
           (1224, "淫泆合"), (1225, "無情合"), (1229, "破合"), (1229, "刑合"), (1238, "同心格"), (1244, "長生合"),
           (1245, "財合"), (1246, "脫合"), (1247, "害合"), (1248, "空合"), (1249, "刑合"), (1250, "衝合"),
           (1251, "克合"), (1252, "三交合"), (1253, "交會合"), (1266, "家鬼弄家神"), (1272, "借益格"),
           (1272, "暗鬼"), (1290, "行年化氣入墓"), (1291, "年命乘墓"), (1291, "坐墓"), (1301, "破")]


def _named_citations():
    found = set()

    def walk(node):
        if isinstance(node, dict):
            names = [node["name"]] if isinstance(node.get("name"), str) else []
            names += [a for a in node.get("aliases") or [] if isinstance(a, str)]
            for s in node.get("source") or []:
                if isinstance(s, dict) and s.get("seed") == SEED:
                    found.update((s["para"], n) for n in names)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for path in (ROOT / "kb").rglob("*.yaml"):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return found


def test_every_deshao_name_is_carried_by_an_entry_citing_its_paragraph():
    found = _named_citations()
    assert [c for c in COVERED if c not in found] == []
