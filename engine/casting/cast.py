"""起課: a pure function from the inputs to one frozen Board.

The rules are those of 《六壬大全》 (卷一 起例, restated in 卷七); every table comes from kb/core,
every 三傳 derivation step cites its verse from kb/core/casting.yaml (seed, ¶, verbatim quote).

Everything structural (四課, 三傳 and how they were found) depends only on the day and on the
offset of 月將 over 占時; the generals depend on that, the day stem and 晝/夜.  Both parts are
memoised, so a cast costs a few dictionary lookups once warm.
"""
from __future__ import annotations

import dataclasses
import functools
import re

from liuren.casting.board import Board, Lesson, Step, Transmissions, Xun
from liuren.errors import InputError
from liuren.i18n import note_text
from liuren.casting.symbols import BRANCHES, JIAZI, STEMS, badd, bi, is_branch, is_stem, jiazi_index, parse_branch, parse_ganzhi
from liuren.casting.steps import sentence
from liuren.casting.tables import core

# name -> (accepted values, default first, what it means)
OPTIONS = {
    "guiren": (("甲牛", "甲羊", "先天"), "貴人 school: 甲牛 《六壬大全》 (default), 甲羊 《協紀辨方書》, or 先天 (卷一 ¶1411–1426 "
                                      "先天貴神圖, 晝順夜逆; the book says 「近不用」)"),
    "shehai": (("count", "mengzhong", "tianpan", "biyong"),
               "涉害: count the 克 on the way home (default); decide by 孟/仲 directly, of the 地盤 position the "
               "candidate sits on (mengzhong) or of the 天盤 branch itself (tianpan, 卷七 ¶203); or take the one "
               "candidate that 生s or 比s the day stem (biyong, 比用 of 卷七 ¶180), else count"),
    "day_boundary": (("23", "0"), "the day turns at 23:00 (子初換日, default) or at 00:00"),
    "yuejiang": (("zhongqi", "month"), "月將 changes at each 中氣 (default) or by the month (卷3 月將 table)"),
}


def default_options():
    return {k: v[0][0] for k, v in OPTIONS.items()}


def check_options(options):
    out = default_options()
    for k, v in options.items():
        if k not in OPTIONS:
            raise InputError(f"unknown option {k!r} (options: {', '.join(OPTIONS)})")
        v = str(v)
        if v not in OPTIONS[k][0]:
            raise InputError(f"option {k}={v!r} is not one of {'|'.join(OPTIONS[k][0])}")
        out[k] = v
    return out


# --------------------------------------------------------------------------- structure
def _step_kb(vid, kb=None, key="", **args):
    """A step: its Chinese sentence (`text`, as the JSON has it), the key and values the pages render
    it from in the reader's language (the zh sentence is casting/steps.py's, the ja explain/steps.py's),
    and its verse."""
    v = core(kb).verse(vid)
    args = tuple((k, tuple(x) if isinstance(x, list) else x) for k, x in args.items())
    return Step(text=sentence(key, args), verse=v.get("quote", ""), book=v.get("book", ""), rule=vid,
                seed=v.get("seed", ""), para=v.get("para"), volume=v.get("volume", ""), key=key, args=args)


@functools.lru_cache(maxsize=None)
def structure(day, offset, shehai="count", kb=None):
    """(lessons ((upper, lower, lower_branch) ×4), (初, 中, 末), gate, subtype, steps)."""
    T = core(kb)
    _step = functools.partial(_step_kb, kb=kb)
    stem, zhi = day[0], day[1]
    yy = T.yinyang[stem]
    tian = lambda p: badd(p, offset)            # 天盤 over 地盤 p
    under = lambda b: badd(b, -offset)          # 地盤 under 天盤 b
    gong = T.jigong[stem]
    u1 = tian(gong); u2 = tian(u1); u3 = tian(zhi); u4 = tian(u3)
    lessons = ((u1, stem, gong), (u2, u1, u1), (u3, zhi, zhi), (u4, u3, u3))
    steps = [_step("plate-fuyin" if offset == 0 else "plate-fanyin" if offset == 6 else "plate",
                   key="plate-fuyin" if offset == 0 else "plate-fanyin" if offset == 6 else "plate", offset=offset),
             _step("lessons",
                   key="lessons", **{f"{k}{n}": x for n, (u, l, _) in enumerate(lessons, 1) for k, x in (("u", u), ("l", l))})]

    def mid_last(first):
        return first, tian(first), tian(tian(first))

    # 伏吟 --------------------------------------------------------------
    if offset == 0:
        ke_lessons = [u for (u, l, _) in lessons if T.ke(l, u) or T.ke(u, l)]
        gan_up, zhi_up = u1, u3
        if ke_lessons:
            first = ke_lessons[0]
            steps.append(_step("fuyin", key="fuyin-ke", first=first))
            origin = "干" if first == gan_up else "支"
        elif yy == "陽":
            first, origin = gan_up, "干"
            steps.append(_step("fuyin", key="fuyin-ziren", first=first))
        else:
            first, origin = zhi_up, "支"
            steps.append(_step("fuyin", key="fuyin-zixin", first=first))
        # 自任 / 自信 are 伏吟 without 克 (卷七 ¶447, ¶460, ¶489, ¶492); with 克 it is 伏吟 itself (¶434, 六癸)
        subtype = "伏吟" if ke_lessons else "自任" if yy == "陽" else "自信"
        if T.xing_of[first] == first:
            # 「凡伏吟用起自刑之神，傳行杜塞，為杜傳格」 (卷七)
            subtype = "杜傳"
            mid = zhi_up if origin == "干" else gan_up
            steps.append(_step("fuyin-zixing",
                               key="fuyin-zixing", first=first, side="支" if origin == "干" else "干", mid=mid))
        else:
            mid = T.xing_of[first]
            steps.append(_step("fuyin-xing", key="fuyin-xing-mid", first=first, mid=mid))
        if T.xing_of[mid] == mid:
            last = T.chong_of[mid]
            subtype = "杜傳"
            steps.append(_step("fuyin-zixing-last",
                               key="fuyin-zixing-last", mid=mid, last=last))
        elif T.xing_of[mid] == first:
            # 子卯 刑 each other: the transmission does not go back to 初, 末 is 中's 沖
            last = T.chong_of[mid]
            subtype = "杜傳"
            steps.append(_step("fuyin-dufu",
                               key="fuyin-dufu", first=first, mid=mid, last=last))
        else:
            last = T.xing_of[mid]
            steps.append(_step("fuyin-xing", key="fuyin-xing-last", mid=mid, last=last))
        return lessons, (first, mid, last), "伏吟", subtype, tuple(steps)

    # 賊克 -------------------------------------------------------------
    zei = [(u, l, lb) for (u, l, lb) in lessons if T.ke(l, u)]
    ke = [(u, l, lb) for (u, l, lb) in lessons if T.ke(u, l)]
    fan = offset == 6
    gate_prefix = "返吟" if fan else None

    def desc(ls, rel):
        return "、".join(f"{u}加{lb}" for (u, l, lb) in ls) + f"（{rel}）"

    def on(ls):
        return tuple(f"{u}加{lb}" for (u, l, lb) in ls)

    if zei or ke:
        kind = "賊" if zei else "克"
        cands = zei or ke
        uppers = list(dict.fromkeys(u for (u, _, _) in cands))
        if zei:
            steps.append(_step("zeike", key="zeike-zei", on=on(zei)))
        else:
            steps.append(_step("zeike", key="zeike-ke", on=on(ke)))
        if len(uppers) == 1:
            first = uppers[0]
            subtype = "重審" if kind == "賊" else "元首"
            steps.append(_step("zeike-one", key="zeike-one", first=first, subtype=subtype))
            return lessons, mid_last(first), gate_prefix or "賊克", subtype, tuple(steps) + (_chuan_step(mid_last(first), kb),)
        same = [u for u in uppers if T.yinyang[u] == yy]
        if len(same) == 1:
            first = same[0]
            steps.append(_step("biyong",
                               key="biyong", uppers=uppers, kind=kind, yy=yy, first=first))
            return lessons, mid_last(first), gate_prefix or "比用", "知一", tuple(steps) + (_chuan_step(mid_last(first), kb),)
        pool = same if same else uppers
        steps.append(_step("biyong-shehai",
                           key="biyong-shehai-bi" if same else "biyong-shehai-bubi", uppers=uppers, kind=kind))
        first, subtype, more = _shehai(T, pool, kind, offset, stem, yy, u1, u3, shehai, _step)
        steps += more
        # the book is of two minds on 涉害: the deciding step says what the other option takes, when it differs
        other = "mengzhong" if shehai == "count" else "count"
        alt, alt_sub, _ = _shehai(T, pool, kind, offset, stem, yy, u1, u3, other, _step)
        if alt != first:
            # the other option said by its name on the form, never by its id
            alt_chuan = "".join(mid_last(alt))
            key, args = f"{steps[-1].key}+alt-{other}", steps[-1].args + (("alt", alt), ("alt_chuan", alt_chuan), ("alt_sub", alt_sub))
            steps[-1] = dataclasses.replace(steps[-1], text=sentence(key, args), key=key, args=args)
        return lessons, mid_last(first), gate_prefix or "涉害", subtype, tuple(steps) + (_chuan_step(mid_last(first), kb),)

    # 返吟 without 克: 井欄射 ---------------------------------------------
    if fan:
        first = T.ma[zhi]
        steps.append(_step("fanyin",
                           key="fanyin", zhi=zhi, first=first, u3=u3, u1=u1))
        return lessons, (first, u3, u1), "返吟", "井欄射", tuple(steps)

    bazhuan = gong == zhi
    distinct = list(dict.fromkeys((u, lb) for (u, _, lb) in lessons))

    # 八專 (論克不論遙) ---------------------------------------------------
    if bazhuan:
        if yy == "陽":
            first = badd(u1, 2)
            steps.append(_step("bazhuan",
                               key="bazhuan-yang", u1=u1, first=first))
        else:
            first = badd(u4, -2)
            steps.append(_step("bazhuan",
                               key="bazhuan-yin", u4=u4, first=first))
        subtype = "獨足" if first == u1 else "八專"
        return lessons, (first, u1, u1), "八專", subtype, tuple(steps)

    # 遙克 -------------------------------------------------------------
    uppers = list(dict.fromkeys(u for (u, _, _) in lessons[1:]))
    hao = [u for u in uppers if T.ke(u, stem)]
    tan = [u for u in uppers if T.ke(stem, u)]
    if hao or tan:
        group, subtype = (hao, "蒿矢") if hao else (tan, "彈射")
        what = "神遙克日" if hao else "日遙克神"
        same = [u for u in group if T.yinyang[u] == yy]
        pick = same if same else group
        # Over the 720 lessons the day's yin/yang always leaves exactly one (tests/test_cast.py).
        assert len(pick) == 1, (day, offset, pick)
        first = pick[0]
        note = "" if len(group) == 1 else f"，{'、'.join(group)} 中取與日同陰陽者"
        steps.append(_step("yaoke",
                           key=("yaoke-hao" if hao else "yaoke-tan") + ("" if len(group) == 1 else "-pick"),
                           group=group, first=first))
        return lessons, mid_last(first), "遙克", subtype, tuple(steps) + (_chuan_step(mid_last(first), kb),)

    # 昴星 / 別責 --------------------------------------------------------
    if len(distinct) == 4:
        if yy == "陽":
            first = tian("酉")
            steps.append(_step("maoxing",
                               key="maoxing-yang", first=first))
            steps.append(_step("maoxing-order",
                               key="maoxing-order-yang", u3=u3, u1=u1))
            return lessons, (first, u3, u1), "昴星", "虎視", tuple(steps)
        first = under("酉")
        steps.append(_step("maoxing",
                           key="maoxing-yin", first=first))
        steps.append(_step("maoxing-order",
                           key="maoxing-order-yin", u1=u1, u3=u3))
        return lessons, (first, u1, u3), "昴星", "冬蛇掩目", tuple(steps)
    if yy == "陽":
        partner = T.ganhe[stem]
        first = tian(T.jigong[partner])
        steps.append(_step("biezhe",
                           key="biezhe-yang", partner=partner, gong=T.jigong[partner], first=first, u1=u1))
    else:
        members = T.sanhe_members[T.sanhe_group[zhi]]
        first = members[(members.index(zhi) + 1) % 3]
        steps.append(_step("biezhe",
                           key="biezhe-yin", first=first, u1=u1))
    return lessons, (first, u1, u1), "別責", "別責", tuple(steps)


def _chuan_step(chuan, kb=None):
    a, b, c = chuan
    return _step_kb("chuanfa", kb,
                    key="chuanfa", a=a, b=b, c=c)


def _shehai(T, pool, kind, offset, stem, yy, gan_up, zhi_up, method, _step):
    """Choose among several candidates by 涉害; returns (first, subtype, steps)."""
    steps = []
    under = lambda b: badd(b, -offset)
    if method == "biyong":
        # 卷七 ¶180 「用神畏日乾所勝，以比和者為用」: the one candidate that 生s the day stem or is of its 行
        kin = [u for u in pool if T.sheng_of(u, stem) or T.element[u] == T.element[stem]]
        if len(kin) == 1 and len(pool) > 1:
            steps.append(_step("shehai-tie",
                               key="shehai-biyong", tied=pool, first=kin[0]))
            return kin[0], "比用", steps
        steps.append(_step("shehai-tie",
                           key="shehai-biyong-none" if not kin else "shehai-biyong-many", tied=pool))
        first, subtype, more = _shehai(T, pool, kind, offset, stem, yy, gan_up, zhi_up, "count", _step)
        return first, subtype, steps + more
    if method == "count":
        depth = {}
        for u in pool:
            start = under(u)
            n, seen = 0, []
            for k in range(1, (bi(u) - bi(start)) % 12):
                q = badd(start, k)
                hits = [x for x in (q,) + T.lodged[q]
                        if (T.ke(x, u) if kind.endswith("賊") else T.ke(u, x))]
                n += len(hits)
                seen += hits
            depth[u] = n
            steps.append(_step("shehai",
                               key="shehai-count" if seen else "shehai-count-none", u=u, start=start, seen=seen, n=n))
        best = max(depth.values())
        tied = [u for u in pool if depth[u] == best]
        if len(tied) == 1:
            steps.append(_step("shehai", key="shehai-deepest", first=tied[0]))
            return tied[0], "涉害", steps
        steps.append(_step("shehai-tie", key="shehai-tie", tied=tied, best=best))
    elif method == "tianpan":
        # 卷七 ¶203 「神後為仲，河魁為季，孟深仲淺季無取」: 孟仲季 of the 天盤 branch itself
        tied = list(pool)
        steps.append(_step("shehai-tie",
                           key="shehai-tianpan", tied=tied))
        meng = [u for u in tied if T.mzj[u] == "孟"]
        if len(meng) == 1:
            steps.append(_step("shehai-tie", key="shehai-tian-meng", first=meng[0]))
            return meng[0], "見機", steps
        if not meng:
            zhong = [u for u in tied if T.mzj[u] == "仲"]
            if len(zhong) == 1:
                steps.append(_step("shehai-tie", key="shehai-tian-zhong", first=zhong[0]))
                return zhong[0], "察微", steps
        first = gan_up if yy == "陽" else zhi_up
        steps.append(_step("shehai-tie",
                           key="shehai-fudeng-yang" if yy == "陽" else "shehai-fudeng-yin", first=first))
        return first, "復等", steps
    else:
        tied = list(pool)
        steps.append(_step("shehai-tie",
                           key="shehai-mengzhong", tied=tied))
    meng = [u for u in tied if T.mzj[under(u)] == "孟"]
    if len(meng) == 1:
        steps.append(_step("shehai-tie",
                           key="shehai-meng", first=meng[0], under=under(meng[0])))
        return meng[0], "見機", steps
    if not meng:
        zhong = [u for u in tied if T.mzj[under(u)] == "仲"]
        if len(zhong) == 1:
            steps.append(_step("shehai-tie",
                               key="shehai-zhong", first=zhong[0], under=under(zhong[0])))
            return zhong[0], "察微", steps
    first = gan_up if yy == "陽" else zhi_up
    steps.append(_step("shehai-tie",
                       key="shehai-fudeng-yang" if yy == "陽" else "shehai-fudeng-yin", first=first))
    return first, "復等", steps


@functools.lru_cache(maxsize=None)
def generals(stem, offset, daytime, school, kb=None):
    """(generals on 天盤 子..亥, noble branch, direction)."""
    T = core(kb)
    if school not in T.guiren:
        raise InputError(f"貴人 school {school!r}: this KB has no table for it")
    g = T.guiren[school][stem][0 if daytime else 1]
    earth = badd(g, -offset)
    turn = T.shunni_by_zhouye.get(school)
    direction = turn["晝" if daytime else "夜"] if turn else T.shunni[earth]
    sign = 1 if direction == "順" else -1
    gens = tuple(T.generals[(sign * (bi(b) - bi(g))) % 12] for b in BRANCHES)
    return gens, g, direction


@functools.lru_cache(maxsize=None)
def day_tables(day, kb=None):
    """xun, void, 遁干, 六親 and 長生 of every branch for a day."""
    T = core(kb)
    i = jiazi_index(day)
    head = JIAZI[i - i % 10]
    tail = JIAZI[i - i % 10 + 9]
    xun = Xun(name=head, head=head[1], tail=tail[1])
    void = tuple(T.xunkong[head])
    dungan = tuple(STEMS[k] if k < 10 else "" for k in ((bi(b) - bi(head[1])) % 12 for b in BRANCHES))
    stem = day[0]
    liuqin = tuple(T.liuqin[(stem, b)] for b in BRANCHES)
    changsheng = tuple(T.changsheng[(stem, b)][1] for b in BRANCHES)
    return xun, void, dungan, liuqin, changsheng


# --------------------------------------------------------------------------- inputs
_ON = re.compile(r"^(.)加(.)$")


def parse_on(on, kb=None):
    """'亥加丑' -> (亥, 丑); a stem stands for its 寄宮 ('午加辛' -> (午, 戌))."""
    m = _ON.match(str(on).strip())
    if not m:
        raise InputError(f"--on {on!r}: write 月將加占時 such as 亥加丑 (a branch 加 a branch or a stem)")
    j, h = m.groups()
    if not is_branch(j):
        raise InputError(f"--on {on!r}: {j!r} is not a branch (one of 子丑寅卯辰巳午未申酉戌亥)")
    if is_stem(h):
        return j, core(kb).jigong[h]
    if not is_branch(h):
        raise InputError(f"--on {on!r}: {h!r} is neither a branch nor a stem")
    return j, h


def _bool_or_none(v, what):
    if v is None or isinstance(v, bool):
        return v
    raise InputError(f"{what} must be true, false or absent")


def _branch_or_ganzhi(value, what):
    """本命 / 行年 given directly, as the books state them (「寅命，行年在未」): a branch or a 干支."""
    v = str(value).strip()
    if is_branch(v):
        return v, None
    if len(v) == 2 and is_stem(v[0]) and is_branch(v[1]):
        return parse_ganzhi(v, what)[1], v
    raise InputError(f"{what} {value!r}: give a branch (寅) or a 干支 (丙寅)")


def cast(moment=None, *, day=None, jiang=None, hour=None, on=None, night=None, tz=None,
         born=None, sex=None, year=None, month=None, benming=None, xingnian=None, kb=None,
         partner_born=None, partner_sex=None, partner_benming=None, partner_xingnian=None,
         term_day=None, lunar=None, rixiu=None, yuexiu=None, **options):
    """Cast the board.  Either a moment (ISO string or aware datetime; None = now), or
    explicit `day` with `jiang` + `hour` or `on` ('亥加丑').  `born` + `sex` give 本命 and
    行年; or give them directly as the books do (`benming='寅', xingnian='未'`).  See OPTIONS
    for **options; `kb` is another KB folder whose kb/core tables to cast with.

    A second person (the other of a couple, 夫行年 beside 妻行年) is given in the same forms:
    `partner_born` + `partner_sex`, or `partner_benming` / `partner_xingnian`.  A board given by its
    day knows no calendar: `term_day='立春'` says the day holds that 節氣, `lunar='9-3'` gives its
    lunar date (a moment knows both itself).  `rixiu` / `yuexiu` give the 日宿 / 月宿 directly as the books
    state them (「日宿酉」「月宿在辰」): the branch of its 宮."""
    from liuren.casting import calendar as cal
    opts = check_options(options)
    kb = str(kb) if kb else None
    T = core(kb)
    night = _bool_or_none(night, "night")
    notes = []
    explicit = any(x is not None for x in (day, jiang, hour, on))
    pillars = [None, None, None, None]
    jieqi = zhongqi = moment_iso = None
    year_no = None
    month_branch = None
    taisui = None
    lunar_given, lunar = lunar, None
    term = None

    if explicit:
        if moment is not None:
            raise InputError("give either a moment or --day with --jiang/--hour (or --on), not both")
        if day is None:
            raise InputError("--jiang/--hour/--on need --day (the day 干支, e.g. 丁卯)")
        if tz is not None:
            raise InputError(f"--tz {str(tz)[:40]!r}: a time zone belongs to a moment; a board given by its day "
                             "and 月將加占時 has none")
        day = parse_ganzhi(day, "--day")
        if on is not None:
            if jiang is not None or hour is not None:
                raise InputError("give --on (亥加丑) or --jiang with --hour, not both")
            jiang, hour = parse_on(on, kb)
        else:
            if jiang is None or hour is None:
                raise InputError("an explicit cast needs --jiang and --hour (or --on 亥加丑)")
            jiang = parse_branch(jiang, "--jiang")
            hour = parse_branch(hour, "--hour")
        pillars[2] = day
        if year is not None:
            year_no, ygz = cal.year_ganzhi(year)
            pillars[0] = ygz
            taisui = ygz[1]
        else:
            notes.append(note_text("taisui"))
        if month is not None:
            mgz = parse_ganzhi(month, "--month")
            pillars[1] = mgz
            month_branch = mgz[1]
        else:
            notes.append(note_text("month"))
        if term_day is not None:
            term = cal.parse_term(term_day)
        if lunar_given is not None:
            lunar = cal.parse_lunar(lunar_given)
        _check_calendar(pillars[0], pillars[1], term, lunar, year, month, term_day, lunar_given)
    else:
        if term_day is not None or lunar_given is not None:
            raise InputError("--term-day and --lunar are for a board given by its day; a moment knows its "
                             "節氣 and lunar date itself")
        m = cal.now(tz) if moment is None else cal.parse_moment(moment, tz)
        if year is not None or month is not None:
            raise InputError("--year/--month are for explicit casts; a moment fixes them itself")
        inp = cal.moment_inputs(m, int(opts["day_boundary"]))
        moment_iso = m.isoformat(timespec="minutes")
        pillars = [inp["year"], inp["month"], inp["day"], inp["hour"]]
        day = inp["day"]
        hour = inp["hour"][1]
        month_branch = inp["month"][1]
        taisui = inp["year"][1]
        year_no = inp["year_no"]
        jieqi, zhongqi = inp["jieqi"], inp["zhongqi"]
        lunar = inp["lunar"]
        term = inp["term_day"]
        if opts["yuejiang"] == "month":
            jiang = T.jiang_by_month[T.month_name[month_branch]]
        else:
            jiang = T.zhongqi_jiang[zhongqi]

    daytime = T.zhouye[hour] == "晝" if night is None else not night
    offset = (bi(jiang) - bi(hour)) % 12
    ls, chuan, gate, subtype, steps = structure(day, offset, opts["shehai"], kb)
    gens, noble, direction = generals(day[0], offset, daytime, opts["guiren"], kb)
    genmap = dict(zip(BRANCHES, gens))
    lessons = tuple(Lesson(u, l, lb, genmap[u]) for (u, l, lb) in ls)
    xun, void, dungan, liuqin, changsheng = day_tables(day, kb)

    season = T.season[month_branch] if month_branch else None
    wangxiang = ()
    if season:
        by_el = {}
        for b in BRANCHES:
            by_el.setdefault(T.element[b], T.by_season[(season[1], b)])
        wangxiang = tuple(sorted(by_el.items(), key=lambda kv: "木火土金水".index(kv[0])))

    sexname, benming, benming_gz, xn, xn_gz = _person(born, sex, benming, xingnian, year_no, moment_iso, T, notes)
    partner = None
    if any(x is not None for x in (partner_born, partner_sex, partner_benming, partner_xingnian)):
        if partner_sex is not None and partner_born is None and partner_benming is None and partner_xingnian is None:
            raise InputError(f"--partner-sex {partner_sex!s} alone says nothing of the other person: give "
                             "--partner-born (with the year), or --partner-benming/--partner-xingnian")
        if partner_born is not None and partner_sex is None:
            raise InputError("--partner-born needs --partner-sex (m or f): the other person's 行年 counts by sex")
        if partner_born is not None and year_no is None:
            raise InputError("--partner-born needs the year (--year 2026): 行年 counts from it")
        partner = _person(partner_born, partner_sex, partner_benming, partner_xingnian, year_no, moment_iso, T,
                          None, "--partner-")
        # the books read a second person only as the other of a couple, by the two 行年 (夫行年, 妻行年:
        # 卷八 ¶196–249, 卷九 ¶281): what cannot be read so is refused, never dropped
        if partner[3] is None:
            raise InputError("the second person is read by its 行年: give --partner-xingnian (午 or 甲午), or "
                             "--partner-born with --partner-sex and the year")
        if sexname is None or partner[0] is None or sexname == partner[0]:
            raise InputError("the second person is the other of a couple (夫行年, 妻行年): give --sex and "
                             "--partner-sex, one m and one f")
        if xn is None:
            raise InputError("the second person's 行年 is read beside the asker's: give --xingnian (未 or 乙未), or "
                             "--born with --sex and the year")
    xiu = tuple((name, parse_branch(v, flag)) for name, v, flag in (("日宿", rixiu, "--rixiu"), ("月宿", yuexiu, "--yuexiu"))
                if v is not None)
    return Board(
        day=day, day_yinyang=T.yinyang[day[0]], jiang=jiang, jiang_name=T.jiang_name[jiang], hour=hour,
        offset=offset, daytime=daytime, plate_t=tuple(badd(b, offset) for b in BRANCHES),
        generals_t=gens, noble_branch=noble, noble_dir=direction, lessons=lessons,
        transmissions=Transmissions(chuan, gate, subtype, steps), xun=xun, void=void,
        dungan_t=dungan, liuqin_t=liuqin, changsheng_t=changsheng,
        options=tuple(sorted(opts.items())), pillars=tuple(pillars), jieqi=jieqi, zhongqi=zhongqi,
        moment=moment_iso, month_branch=month_branch, season=season, wangxiang=wangxiang,
        taisui=taisui, benming=benming, benming_gz=benming_gz, xingnian=xn, xingnian_gz=xn_gz,
        born=str(born) if born is not None else None, sex=sexname, lunar=lunar, notes=tuple(notes),
        partner=partner, term_day=term, xiu=xiu)


def _check_calendar(year_gz, month_gz, term, lunar, year, month, term_day, lunar_given):
    """Refuse what one calendar cannot hold, naming both values: a month 干支 the year does not
    have, a 節氣 or a lunar date outside the month given."""
    from liuren.casting import calendar as cal
    if year_gz and month_gz:
        want = cal.month_of_year(year_gz, month_gz[1])
        if want != month_gz:
            raise InputError(f"--year {year!s} and --month {month!s}: the {year_gz} year's {month_gz[1]} month is "
                             f"{want}, not {month_gz}")
    if month_gz and term:
        can = cal.months_of_term(term)
        if month_gz[1] not in can:
            raise InputError(f"--month {month!s} and --term-day {term_day!s}: a day of {term} is in a "
                             f"{' or '.join(can)} month, not {month_gz[1]}")
    if month_gz and lunar:
        can = cal.months_of_lunar(lunar[0], lunar[3])
        if month_gz[1] not in can:
            raise InputError(f"--month {month!s} and --lunar {lunar_given!s}: a day of lunar month "
                             f"{'閏' if lunar[3] else ''}{lunar[0]} is in a {' or '.join(can)} month, not {month_gz[1]}")


def _person(born, sex, benming, xingnian, year_no, moment_iso, T, notes, flag="--"):
    """(sex, 本命, 本命干支, 行年, 行年干支) of a person, from a birth and a sex or given directly.
    `notes` collects what is missing (the asker's); None: the caller has made sure it is whole."""
    from liuren.casting import calendar as cal
    given_benming, given_xingnian = benming, xingnian
    benming = benming_gz = xn = xn_gz = None
    if sex is not None and str(sex) not in ("m", "f", "男", "女"):
        raise InputError(f"{flag}sex {sex!r}: use m or f")
    sexname = {"m": "男", "f": "女"}.get(str(sex), sex) if sex is not None else None
    if born is not None:
        by, benming_gz = cal.year_of_birth(born, f"{flag}born")
        born_date = str(born).strip()
        if moment_iso and len(born_date) == 10 and born_date > moment_iso[:10]:
            raise InputError(f"{flag}born {born!r} is after the moment ({moment_iso[:10]})")
        benming = benming_gz[1]
        if sexname is None:
            notes.append(note_text("sex"))
        elif year_no is None:
            notes.append(note_text("yearno"))
        elif year_no < by:
            raise InputError(f"{flag}born {born!r} is after the cast year {year_no}")
        else:
            start, direction_ = T.xingnian[sexname]
            _, xn_gz = cal.xingnian(year_no, by, sexname, start, direction_)
            xn = xn_gz[1]
    elif sexname and given_benming is None and given_xingnian is None and notes is not None:
        notes.append(note_text("born"))
    if given_benming is not None or given_xingnian is not None:
        if born is not None:
            raise InputError(f"give {flag}born (with {flag}sex) or {flag}benming/{flag}xingnian, not both")
        if given_benming is not None:
            benming, benming_gz = _branch_or_ganzhi(given_benming, f"{flag}benming")
        if given_xingnian is not None:
            xn, xn_gz = _branch_or_ganzhi(given_xingnian, f"{flag}xingnian")
    return sexname, benming, benming_gz, xn, xn_gz


def lesson_table(day=None, **options):
    """The 720 lessons (or one day's 12): each day × offset, 占時 子, 月將 = the offset's branch."""
    days = [parse_ganzhi(day, "--day")] if day else list(JIAZI)
    for d in days:
        for off in range(12):
            yield off, cast(day=d, jiang=BRANCHES[off], hour="子", **options)
