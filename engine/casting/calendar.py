"""From a moment to the casting inputs: 四柱, 節氣, 中氣 and 月將, 占時.

lunar-python is the calendar.  Its 節氣 instants are in China time (UTC+8), so the year and
month pillars and the 節氣/中氣 are taken at the moment's absolute instant seen in UTC+8,
while the day pillar, the hour and 占時 follow the moment's own local clock.
"""
from __future__ import annotations

import bisect
import datetime as dt
import functools
import os
import re
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from liuren.errors import InputError
from liuren.casting.symbols import BRANCHES, JIAZI, STEMS, jiazi_index

CHINA = dt.timezone(dt.timedelta(hours=8))
YEAR_RANGE = (1901, 2099)

# lunar-python names some 節氣 in simplified characters, and those of the neighbouring years
# by pinyin keys; the board shows traditional names.
JIEQI_NAMES = {
    "立春": "立春", "雨水": "雨水", "惊蛰": "驚蟄", "驚蟄": "驚蟄", "春分": "春分", "清明": "清明",
    "谷雨": "穀雨", "穀雨": "穀雨", "立夏": "立夏", "小满": "小滿", "小滿": "小滿", "芒种": "芒種",
    "芒種": "芒種", "夏至": "夏至", "小暑": "小暑", "大暑": "大暑", "立秋": "立秋", "处暑": "處暑",
    "處暑": "處暑", "白露": "白露", "秋分": "秋分", "寒露": "寒露", "霜降": "霜降", "立冬": "立冬",
    "小雪": "小雪", "大雪": "大雪", "冬至": "冬至", "小寒": "小寒", "大寒": "大寒",
    "DONG_ZHI": "冬至", "XIAO_HAN": "小寒", "DA_HAN": "大寒", "LI_CHUN": "立春", "YU_SHUI": "雨水",
    "JING_ZHE": "驚蟄", "DA_XUE": "大雪",
}

_ISO = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}[T ]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?"
                  r"(Z|[+-]\d{2}:?\d{2}(:\d{2}(\.\d+)?)?)?$")
# an offset's hours, minutes and seconds (a local mean time, as cast prints it, has seconds)
_OFFSET = re.compile(r"([+-])(\d{2}):?(\d{2})(?::(\d{2})(?:\.\d+)?)?$")


_POSIX_TZ = re.compile(r"^[A-Za-z]{3,}[+-]?\d{1,2}(:\d{2}){0,2}([A-Za-z]{3,}([+-]?\d{1,2}(:\d{2}){0,2})?(,.*)?)?$")


def zone(tz):
    """A tzinfo for an IANA name, or the machine's zone for None.  The machine's zone is read
    from the environment's TZ when it is set: an unknown name there is an error too (the C
    library would silently read it as UTC)."""
    if tz is None:
        env = os.environ.get("TZ")
        if not env:
            return None
        name = env[1:] if env.startswith(":") else env
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, TypeError):
            if _POSIX_TZ.match(name):
                return None                 # a POSIX rule such as CET-1CEST: the C library reads it
            raise InputError(f"the environment's TZ={env!r} is not a known time zone "
                             "(use an IANA name such as Asia/Shanghai, or --tz)") from None
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise InputError(f"unknown time zone {tz!r} (use an IANA name such as Asia/Shanghai or Europe/Paris)") from None


def parse_moment(moment, tz=None):
    """ISO date-time with an offset, or a local date-time read in `tz` (default: this machine's zone)."""
    if isinstance(moment, dt.datetime):
        m = moment
    else:
        s = str(moment).strip()
        if not _ISO.match(s):
            raise InputError(
                f"cannot read the moment {moment!r}: give a date and a time, e.g. 2026-11-30T14:05+08:00 "
                "or '2026-11-30 14:05' with --tz Asia/Shanghai")
        off = _OFFSET.search(s) if not s.endswith("Z") else None
        if off and (int(off.group(2)) > 23 or int(off.group(3)) > 59 or int(off.group(4) or 0) > 59):
            raise InputError(f"cannot read the moment {moment!r}: the offset {off.group(0)} is not a time offset "
                             "(hours up to 23, minutes and seconds up to 59)")
        try:
            m = dt.datetime.fromisoformat(s.replace("Z", "+00:00"))
        except ValueError:
            raise InputError(f"cannot read the moment {moment!r}: not a real date or time") from None
    if m.tzinfo is None:
        z = zone(tz)                # a local moment: in --tz, else in this machine's zone (TZ included)
        wall = m
        m = m.replace(tzinfo=z) if z else m.astimezone()
        # a time the clocks skip (the spring-forward gap of daylight saving) names no instant:
        # refused, rather than silently read as another hour
        back = m.astimezone(dt.timezone.utc).astimezone(z) if z else m.astimezone(dt.timezone.utc).astimezone()
        if back.replace(tzinfo=None) != wall:
            where = tz if tz is not None else "this machine's time zone"
            raise InputError(f"the local time {wall.isoformat(sep=' ', timespec='minutes')} does not exist in {where} "
                             "(the clocks skip it at the change to summer time): give a time outside the gap, "
                             "or an offset (e.g. 2026-03-08T02:30-05:00)")
    elif tz is not None:
        m = m.astimezone(zone(tz))  # an explicit --tz converts the instant to that zone's clock
    if not YEAR_RANGE[0] <= m.year <= YEAR_RANGE[1] or not YEAR_RANGE[0] <= m.astimezone(CHINA).year <= YEAR_RANGE[1]:
        raise InputError(f"the moment {moment!r} is outside the calendar's range "
                         f"({YEAR_RANGE[0]}–{YEAR_RANGE[1]})")
    return m


def now(tz=None):
    z = zone(tz)
    return dt.datetime.now(z) if z else dt.datetime.now().astimezone()


def _solar(m):
    from lunar_python import Solar
    return Solar.fromYmdHms(m.year, m.month, m.day, m.hour, m.minute, m.second)


ZHONGQI = frozenset("雨水 春分 穀雨 小滿 夏至 大暑 處暑 秋分 霜降 小雪 冬至 大寒".split())


@functools.lru_cache(maxsize=16)
def _terms(year):
    """All 節氣 instants lunar-python gives around a year, as sorted (naive China time, name)."""
    from lunar_python import Solar
    table = Solar.fromYmd(year, 6, 1).getLunar().getJieQiTable()
    out = set()
    for name, sol in table.items():
        out.add((dt.datetime(sol.getYear(), sol.getMonth(), sol.getDay(), sol.getHour(), sol.getMinute(),
                             sol.getSecond()), JIEQI_NAMES[name]))
    return sorted(out)


@functools.lru_cache(maxsize=16)
def _terms_around(year):
    return sorted(set(_terms(year - 1) + _terms(year) + _terms(year + 1)))


def _prev_terms(cn):
    """(previous term, previous 節, previous 中氣) at a naive China-time instant."""
    terms = _terms_around(cn.year)
    i = bisect.bisect_right(terms, (cn, "\uffff")) - 1
    prev = terms[i]
    jie = next(t for t in reversed(terms[:i + 1]) if t[1] not in ZHONGQI)
    qi = next(t for t in reversed(terms[:i + 1]) if t[1] in ZHONGQI)
    return prev, jie, qi


_YEAR_MONTH = {}


def _year_month(jie, cn):
    """Year and month pillars: constant between two 節, so computed once per 節 (at `cn`)."""
    if jie not in _YEAR_MONTH:
        ec = _solar(cn).getLunar().getEightChar()
        _YEAR_MONTH[jie] = (ec.getYear(), ec.getMonth())
    return _YEAR_MONTH[jie]


@functools.lru_cache(maxsize=4096)
def lunar_date(y, m, d):
    """(lunar month, lunar day, last day of the month?, leap month?) of a civil date."""
    from lunar_python import LunarMonth, Solar
    lu = Solar.fromYmd(y, m, d).getLunar()
    month = lu.getMonth()
    last = LunarMonth.fromYm(lu.getYear(), month).getDayCount() == lu.getDay()
    return abs(month), lu.getDay(), last, month < 0


@functools.lru_cache(maxsize=4096)
def _day_gz(y, m, d):
    from lunar_python import Solar
    return Solar.fromYmd(y, m, d).getLunar().getDayInGanZhi()


def moment_inputs(m, day_boundary=23):
    """Everything the caster needs from an aware datetime.

    Year and month pillars, 節氣 and 中氣 come from lunar-python at the absolute instant in China
    time; the day pillar from lunar-python for the local date; the hour pillar by 五鼠遁 from the
    day of its 子 hour (23:00 already belongs to the next day's 子 hour, as lunar-python has it)."""
    cn = m.astimezone(CHINA).replace(tzinfo=None)
    (_, term), jie, qi = _prev_terms(cn)
    year_gz, month_gz = _year_month(jie, cn)

    local = m.replace(tzinfo=None)
    date = local.date()
    late = local.hour == 23
    next_date = date + dt.timedelta(days=1)
    day_date = next_date if (late and day_boundary == 23) else date
    day_gz = _day_gz(*day_date.timetuple()[:3])
    zi_day = _day_gz(*(next_date if late else date).timetuple()[:3])
    hb = ((local.hour + 1) // 2) % 12
    hour_gz = STEMS[(STEMS.index(zi_day[0]) % 5 * 2 + hb) % 10] + BRANCHES[hb]

    # the year number by 立春 (for 行年): the Gregorian year whose 干支 is the year pillar
    y = cn.year
    year_no = next(c for c in (y, y - 1, y + 1) if JIAZI[(c - 4) % 60] == year_gz)
    return {
        "year": year_gz, "month": month_gz, "day": day_gz, "hour": hour_gz,
        "jieqi": term, "jie": jie[1], "jie_at": jie[0].isoformat(),
        "zhongqi": qi[1], "zhongqi_at": qi[0].isoformat(),
        "year_no": year_no,
        "lunar": lunar_date(*day_date.timetuple()[:3]),
        "term_day": term_on(day_date, m.tzinfo),
    }


def term_on(day_date, tzinfo):
    """The 節氣 whose instant falls on a civil date (in the moment's zone), or None: 立春日, 冬至日 …"""
    for at, name in _terms_around(day_date.year):
        if at.date() in (day_date - dt.timedelta(days=1), day_date, day_date + dt.timedelta(days=1)):
            if at.replace(tzinfo=CHINA).astimezone(tzinfo).date() == day_date:
                return name
    return None


TERMS = ("立春 雨水 驚蟄 春分 清明 穀雨 立夏 小滿 芒種 夏至 小暑 大暑 "
         "立秋 處暑 白露 秋分 寒露 霜降 立冬 小雪 大雪 冬至 小寒 大寒").split()


def parse_term(term):
    """--term-day: one of the 24 節氣 (立春 … 大寒), in traditional or simplified characters."""
    s = str(term).strip()
    name = JIEQI_NAMES.get(s, s)
    if name not in TERMS:
        raise InputError(f"--term-day {term!r}: give one of the 24 節氣 ({'、'.join(TERMS)})")
    return name


def parse_lunar(text):
    """--lunar M-D (閏M-D for a leap month): (month, day, last day of the month?, leap?).  A month
    has 29 or 30 days: day 30 is its last; day 29 is taken as not the last (give 30 for a 晦 of 30)."""
    s = str(text).strip()
    m = re.fullmatch(r"(閏)?([0-9]{1,2})-([0-9]{1,2})", s)
    if not m or not 1 <= int(m.group(2)) <= 12 or not 1 <= int(m.group(3)) <= 30:
        raise InputError(f"--lunar {text!r}: give the lunar month and day as M-D (9-3; 閏4-10 in a leap month), "
                         "month 1–12, day 1–30")
    day = int(m.group(3))
    return int(m.group(2)), day, day == 30, bool(m.group(1))


def year_of_birth(born, flag="--born"):
    """(year number by 立春, year 干支) from 1990 or 1990-02-01 (a date: 立春 decides the year)."""
    s = str(born).strip()
    if re.fullmatch(r"[0-9]{4}", s):
        y = int(s)
        if not YEAR_RANGE[0] - 100 <= y <= YEAR_RANGE[1]:
            raise InputError(f"{flag} {born!r}: the year must be between {YEAR_RANGE[0] - 100} and {YEAR_RANGE[1]}")
        return y, JIAZI[(y - 4) % 60]
    try:
        d = dt.date.fromisoformat(s) if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", s) else None
    except ValueError:
        d = None
    if d is None:
        raise InputError(f"{flag} {born!r}: give a year (1990) or a date (1990-02-01)")
    if not YEAR_RANGE[0] - 100 <= d.year <= YEAR_RANGE[1]:
        raise InputError(f"{flag} {born!r}: the year must be between {YEAR_RANGE[0] - 100} and {YEAR_RANGE[1]}")
    from lunar_python import Solar
    gz = Solar.fromYmdHms(d.year, d.month, d.day, 12, 0, 0).getLunar().getEightChar().getYear()
    y = next(c for c in (d.year, d.year - 1) if JIAZI[(c - 4) % 60] == gz)
    return y, gz


def year_ganzhi(year):
    """A year given as a number (2026) or as a 干支 (丙午) -> (number or None, 干支)."""
    s = str(year).strip()
    if re.fullmatch(r"[0-9]{4}", s):
        y = int(s)
        if not YEAR_RANGE[0] - 100 <= y <= YEAR_RANGE[1]:
            raise InputError(f"--year {year!r}: the year must be between {YEAR_RANGE[0] - 100} and {YEAR_RANGE[1]}")
        return y, JIAZI[(y - 4) % 60]
    if s in JIAZI:
        return None, s
    raise InputError(f"--year {year!r}: give a year number (2026) or its 干支 (丙午)")


def xingnian(year_no, birth_year, sex, start, direction):
    """行年 干支 by 虛歲 age (1 at birth)."""
    age = year_no - birth_year + 1
    step = age - 1 if direction == "順" else -(age - 1)
    return age, JIAZI[(jiazi_index(start) + step) % 60]


# ---- what the calendar can hold together (a board given by its day: its --year, --month,
# --term-day and --lunar must be of one calendar)
def month_of_year(year_gz, month_branch):
    """The month 干支 a year's month of `month_branch` has (the year's stem decides the 寅 month's:
    甲己 丙寅, 乙庚 戊寅, 丙辛 庚寅, 丁壬 壬寅, 戊癸 甲寅; the months follow in order to 丑)."""
    ys = STEMS.index(year_gz[0])
    k = (BRANCHES.index(month_branch) - 2) % 12
    return STEMS[(ys * 2 + 2 + k) % 10] + month_branch


def months_of_term(term):
    """The month branches a day holding this 節氣 can be in: a 中氣 (雨水 …) lies inside its month; a
    節 (立春 …) begins its month at its instant, so its day may still be in the month before."""
    i = TERMS.index(term)
    month = BRANCHES[(2 + i // 2) % 12]
    return (month,) if i % 2 else (BRANCHES[(1 + i // 2) % 12], month)


def months_of_lunar(month, leap=False):
    """The month branches (節 to 節) the days of a lunar month can be in: lunar month m holds its
    中氣, in the month branch of m (1: 寅), and spans at most a month around it; a leap month lies
    between the 中氣 of m and of m + 1."""
    own = (month + 1) % 12
    span = (own, own + 1) if leap else (own - 1, own, own + 1)
    return tuple(BRANCHES[b % 12] for b in span)
