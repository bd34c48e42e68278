"""The practice drill, step by step: a lesson drawn from a seed (reproducible, or from a gate's
curriculum), then the student's 四課, then the 三傳 and the gate, then the 格 — each step checked
before the next and shown with the verses that decide it.  The 格 are asked as a short list of
candidates (some that hold, some that hold on a neighbouring lesson and not on this one), scored by
what was claimed: a correct claim is never wrong, a missed 格 shows its HOW, a false one its WHY-NOT.
A worksheet gives a teacher the same lessons for a class, with the answer key on its own page."""
from __future__ import annotations

import random
import re

from liuren.app.params import GATES, PARAMS, cast_kwargs
from liuren.casting.symbols import BRANCHES, JIAZI, badd
from liuren.errors import InputError
from liuren.explain import words as L

# the curriculum: the gates (and the 賊克/比用 kinds) in the order a student meets them
CURRICULUM = ("元首", "重審", "知一", "涉害", "遙克", "昴星", "別責", "八專", "伏吟", "返吟")
LESSON_KEYS = ("k1", "k2", "k3", "k4")          # the 上神 of 第一 … 第四課
CHUAN_KEYS = ("chu", "zhong", "mo", "men")        # the 三傳 and 發用之門 (gate= names the curriculum)
MAX_CANDIDATES = 8
MAX_SHEET = 30


def practice_seed(p):
    s = p.get("seed")
    if s is None:
        return None
    if not re.fullmatch(r"[0-9]{1,9}", s):
        raise InputError(f"seed {s!r}: give a whole number (0 … 999999999)")
    return int(s)


def check_gate(gate):
    if gate is not None and gate not in CURRICULUM:
        raise InputError(f"gate {gate!r}: one of {' '.join(CURRICULUM)}")
    return gate


def _gate_of(board):
    """The curriculum's name of a board's gate: 元首 重審 知一 only on a board cast by 賊克 or 比用
    (a 返吟 board whose one 克 makes it 重審 is a 返吟 lesson, whose gate is 返吟)."""
    t = board.transmissions
    return t.subtype if t.gate in ("賊克", "比用") and t.subtype in ("元首", "重審", "知一") else t.gate


# the readings of 涉害, as the cast takes them (option shehai, the default first): count, mengzhong,
# tianpan (孟仲季 of the 天盤 branch), biyong (比用)
SCHOOLS = PARAMS["shehai"].check


def check_school(school):
    if school is not None and school not in SCHOOLS:
        raise InputError(f"option shehai={school!r} is not one of {'|'.join(SCHOOLS)}")
    return school


def school_choices(lang="zh"):
    """The schools a teacher may fix for a lesson or a worksheet, named in the page's language
    (value, words): the cast's own options, never a list of our own."""
    return [(s, L.WORDS[lang]["opt"][s]) for s in SCHOOLS]


def _other_school(svc, lesson, school, got, men, t):
    """The first other school (in the cast's order) whose 三傳 and gate are the student's answer and
    differ from this lesson's: (school, its judgment), else (None, None)."""
    for other in SCHOOLS:
        if other == (school or SCHOOLS[0]):
            continue
        r2 = svc.judge(cast_kwargs(dict(lesson, shehai=other)))
        t2 = r2.board.transmissions
        if t2.branches != t.branches and _check_chuan(got, men, t2)["ok"]:
            return other, r2
    return None, None


def practice_lesson(seed, gate=None):
    """The lesson of a seed: a day, 月將 over 占時, 晝/夜 and a month (reproducible); with a gate,
    the first lesson the seed's draws give of that gate (元首 … 返吟)."""
    from liuren.casting.cast import cast
    rng = random.Random(seed)
    for _ in range(20000):
        day = JIAZI[rng.randrange(60)]
        hour = BRANCHES[rng.randrange(12)]
        jiang = badd(hour, rng.randrange(12))
        month = JIAZI[rng.randrange(60)]
        lesson = {"day": day, "on": f"{jiang}加{hour}", "month": month,
                  "night": "true" if rng.random() < 0.5 else "false"}
        if gate is None or _gate_of(cast(day=day, on=f"{jiang}加{hour}")) == gate:
            return lesson
    raise InputError(f"gate {gate!r}: no lesson of it found")       # every gate has lessons: never


def _steps_of(board):
    """The cast's derivation split as the drill asks it: the 四課 (and 月將加時), then the 三傳."""
    steps = list(board.transmissions.steps)
    lessons = [s for s in steps if s.key in ("plate", "plate-fuyin", "plate-fanyin", "lessons")]
    return lessons, [s for s in steps if s not in lessons]


def _candidates(svc, seed, lesson, r):
    """5–8 格 to ask about: up to four that hold on this lesson, the rest near misses — 格 that hold on
    the same day's neighbouring lessons and not here (ids, in a reproducible order)."""
    rng = random.Random(seed * 7 + 1)
    fired = sorted({f.report for f in r.fired if f.kind == "格"})
    holds = rng.sample(fired, min(4, len(fired)))
    jiang, hour = lesson["on"].split("加")
    near = []
    for d in (1, -1, 2, -2, 3, -3):
        other = dict(lesson, on=f"{badd(jiang, d)}加{hour}")
        for f in svc.judge(cast_kwargs(other)).fired:
            if f.kind == "格" and f.report not in fired and f.report not in near:
                near.append(f.report)
        if len(holds) + len(near) >= MAX_CANDIDATES + 4:
            break
    rng.shuffle(near)
    misses = near[:max(MAX_CANDIDATES - len(holds), 5 - len(holds))][:MAX_CANDIDATES - len(holds)]
    return sorted(holds + misses, key=lambda x: svc.kb.entries[x].name), set(fired)


def _verse(step):
    return {"verse": step.verse, "book": step.book, "volume": step.volume} if getattr(step, "verse", None) else {}


def lesson_hint(board, each, lesson_steps, lang="zh"):
    """A hint for a wrong 四課: the step the student missed (the plate when all four are wrong, else the
    first wrong lesson), how that lesson is taken, and the verse — never the answer."""
    w = L.WORDS[lang]
    if not any(each):
        step = next((s for s in lesson_steps if s.key.startswith("plate")), None)
        return {"step": w["hint_plate_step"], "rule": w["hint_plate"], **_verse(step)} if step else None
    i = each.index(False)
    step = next((s for s in lesson_steps if s.key == "lessons"), None)
    from liuren.casting.cast import core
    stem = board.day[0]
    rule = w["hint_lesson"][i].format(stem=stem, palace=core(None).jigong[stem], branch=board.day[1])
    return {"step": w["lesson_n"][i], "rule": rule, **(_verse(step) if step else {})}


def chuan_hint(chuan, chuan_steps, lang="zh"):
    """A hint for a wrong 三傳 or gate: the 發用 (its deciding verse) when the 初傳 or the gate is
    wrong, else how the 中傳 and 末傳 follow (the verse of the last step) — never the answer."""
    w = L.WORDS[lang]
    if not chuan_steps:
        return None
    if not chuan["each"][0] or not chuan["gate_ok"]:
        deciding = [s for s in chuan_steps if s.key != "chuanfa" and "xing" not in s.key and getattr(s, "verse", None)]
        step = deciding[-1] if deciding else chuan_steps[0]
        return {"step": w["hint_fayong_step"], "rule": w["hint_fayong"], **_verse(step)}
    step = chuan_steps[-1]
    return {"step": w["hint_zhongmo_step"], "rule": w["hint_zhongmo"], **_verse(step)}


def practice_check(svc, p, lang="zh"):
    """Where the student is and how each answered step came out.  An empty box is a line in its
    step (the drill goes on); a 三傳 right by another 涉害 school (any the cast takes) is right, and named as such —
    unless the teacher fixed the school (shehai=…), when it is named and marked wrong."""
    from liuren.casting.symbols import parse_branch
    seed = practice_seed(p)
    gate = check_gate(p.get("gate"))
    school = check_school(p.get("shehai"))
    if "n" in p:
        _sheet_n(p)                     # the worksheet link's n: never taken silently when wrong
    lesson = practice_lesson(seed, gate)
    if school:
        lesson = dict(lesson, shehai=school)
    r = svc.judge(cast_kwargs(lesson))
    b = r.board
    t = b.transmissions
    lesson_steps, chuan_steps = _steps_of(b)
    out = {"seed": seed, "gate_of": gate, "school": school, "lesson": lesson, "r": r, "step": 1,
           "lesson_steps": lesson_steps, "chuan_steps": chuan_steps}
    w = L.WORDS[lang]
    # step 1: the 四課
    given = [k for k in LESSON_KEYS if k in p]
    if given:
        if len(given) < 4:
            out["lessons_empty"] = w["empty_boxes"].format(
                boxes="、".join(w["lesson_n"][i] for i, k in enumerate(LESSON_KEYS) if k not in p))
        else:
            got = tuple(parse_branch(p[k], k) for k in LESSON_KEYS)
            want = tuple(l.upper for l in b.lessons)
            out["lessons"] = {"got": got, "want": want, "each": [a == w_ for a, w_ in zip(got, want)]}
            out["lessons"]["ok"] = all(out["lessons"]["each"])
            if out["lessons"]["ok"]:
                out["step"] = 2
            else:
                out["lessons"]["hint"] = lesson_hint(b, out["lessons"]["each"], lesson_steps, lang)
    # step 2: the 三傳 and the gate (once the 四課 are right)
    given = [k for k in CHUAN_KEYS if k in p]
    if given and out["step"] < 2:
        raise InputError(f"{'、'.join(given)}: the answers of step 2 (三傳 and gate) count once the 四課 "
                         "(k1 … k4) are given and right")
    if given and out["step"] >= 2:
        if len(given) < 4:
            out["chuan_empty"] = w["empty_boxes"].format(
                boxes="、".join((w["chuan"] + [w["gate"]])[i] for i, k in enumerate(CHUAN_KEYS) if k not in p))
        else:
            got = tuple(parse_branch(p[k], k) for k in ("chu", "zhong", "mo"))
            if p["men"] not in GATES:
                raise InputError(f"men {p['men']!r}: one of {' '.join(GATES)}")
            out["chuan"] = _check_chuan(got, p["men"], t)
            if not out["chuan"]["ok"] and "涉害" in (t.gate, p["men"]):
                # another school's 三傳: right when no school is fixed, and named either way
                other, r2 = _other_school(svc, lesson, school, got, p["men"], t)
                if other is not None:
                    out["chuan"]["school"] = other
                    out["chuan"]["school_word"] = w["opt"][other]
                    if school is None:
                        out["chuan"].update(_check_chuan(got, p["men"], r2.board.transmissions),
                                            school=other, school_word=w["opt"][other])
                        out["lesson"] = lesson = dict(lesson, shehai=other)
                        out["r"] = r = r2
                        b, t = r2.board, r2.board.transmissions
                        out["lesson_steps"], out["chuan_steps"] = lesson_steps, chuan_steps = _steps_of(b)
            if out["chuan"]["ok"]:
                out["step"] = 3
            else:
                out["chuan"]["hint"] = chuan_hint(out["chuan"], chuan_steps, lang)
    # step 3: the 格, among the candidates
    later = [k for k in ("ge", "ge_done") if p.get(k)]
    if later and out["step"] < 3:
        raise InputError(f"{'、'.join(later)}: the 格 of step 3 count once the 四課 and the 三傳 are right")
    if out["step"] >= 3:
        cands, fired = _candidates(svc, seed, lesson, r)
        out["candidates"] = [candidate(svc.kb, x, lang) for x in cands]
        if "ge_done" in p or p.get("ge"):
            claimed = []
            for g in p.get("ge", []):
                e = svc.entry(g)
                if e.id not in cands:
                    raise InputError(f"ge {g!r} is not one of this lesson's candidates")
                claimed.append(e.id)
            held = [x for x in cands if x in fired]
            out["ge"] = {
                "right": [L.name_of(svc.kb, x, svc.kb.entries[x].name, lang) for x in claimed if x in fired],
                "claimed": [svc.chain_view(r, x, lang) for x in claimed if x not in fired],
                "missed": [svc.chain_view(r, x, lang) for x in held if x not in claimed],
            }
            out["ge"]["ok"] = not out["ge"]["claimed"]          # a correct claim is never wrong
            out["step"] = 4
    return out


def candidate(kb, x, lang="zh"):
    """A 格 offered in the drill: its name as a reader says it (及時（初傳屬此）, never 及時:初傳屬此) and a
    one-line definition — its conditions in words, else its reading — for the link to its page."""
    from liuren.explain.conditions import conditions_in_words
    e = kb.entries[x]
    name = L.display_name(e, lang)
    if ":" in name:
        head, tail = name.split(":", 1)
        name = f"{head}（{tail}）"
    try:
        conds = conditions_in_words(kb, e)[1]
    except Exception:                   # a definition is a help: its absence never stops the drill
        conds = []
    conds = [c for c in conds if "某" not in c and "已成" not in c][:2] if not any("已成" in c for c in conds) else []
    define = "；".join(conds) if conds else L.plain(e.reading or "", kb, lang, e)
    return {"id": x, "name": name, "define": define}


def _check_chuan(got, gate, t):
    c = {"got": got, "gate": gate, "want": t.branches, "want_gate": t.gate,
         "each": [a == w for a, w in zip(got, t.branches)], "gate_ok": gate == t.gate}
    c["ok"] = all(c["each"]) and c["gate_ok"]
    return c


def _public_board(board):
    """The board as the student may see it before answering: no 四課, no 三傳, no derivation."""
    d = board.to_dict()
    for k in ("lessons", "transmissions"):
        d.pop(k, None)
    return d


def practice_json(svc, p):
    seed = practice_seed(p)
    if seed is None:
        raise InputError("seed: give a whole number (the lesson's seed, e.g. seed=7)")
    lang = L.check_lang(p.get("lang"))
    c = practice_check(svc, p, lang)
    b = c["r"].board
    d = {"seed": seed, "lesson": c["lesson"], "step": c["step"], "board": _public_board(b)}
    if c.get("gate_of"):
        d["gate"] = c["gate_of"]
    if c.get("school"):
        d["shehai"] = c["school"]
    # the API keeps bad input a 400: an answer with an empty box is not an answer (the page says it in its step)
    if c.get("lessons_empty"):
        raise InputError("give the 上神 of all four lessons: missing " + "、".join(k for k in LESSON_KEYS if k not in p))
    if c.get("chuan_empty"):
        raise InputError("give the three transmissions and the gate: missing " + "、".join(k for k in CHUAN_KEYS if k not in p))
    if "lessons" in c:
        x = c["lessons"]
        d["lessons"] = {"answer": list(x["got"]), "check": x["each"], "ok": x["ok"]}
        if x.get("hint"):
            d["lessons"]["hint"] = x["hint"]
        if x["ok"]:
            d["lessons"]["correct"] = list(x["want"])
    if "chuan" in c:
        x = c["chuan"]
        d["transmissions"] = {"answer": list(x["got"]), "gate": x["gate"], "check": x["each"],
                              "gate_ok": x["gate_ok"], "ok": x["ok"]}
        if x.get("school"):
            d["transmissions"]["school"] = x["school"]          # the 涉害 school whose 三傳 the answer is
        if x.get("hint"):
            d["transmissions"]["hint"] = x["hint"]
        if x["ok"]:
            d["transmissions"]["steps"] = [s.to_dict() for s in c["chuan_steps"]]
    if "candidates" in c:
        d["candidates"] = c["candidates"]
    if "ge" in c:
        g = c["ge"]
        d["ge"] = {"right": g["right"], "claimed": [x["report"]["rule"] for x in g["claimed"]],
                   "missed": [x["report"]["rule"] for x in g["missed"]], "ok": g["ok"]}
    return d


def sheet_seed(seed):
    """The worksheet a drill lesson links to starts here: past the drill's own seeds (0 … 10⁶), so it
    holds neither the lesson on screen nor the next ones."""
    return 10 ** 6 + (seed * 7919) % (10 ** 8)


def _sheet_n(p):
    """n: the number of lessons of a worksheet (default 10), checked wherever it is given."""
    n = p.get("n", "10")
    if not re.fullmatch(r"[0-9]{1,2}", n) or not 1 <= int(n) <= MAX_SHEET:
        raise InputError(f"n {n!r}: give the number of lessons, 1 … {MAX_SHEET}")
    return n


def worksheet(svc, p, lang="zh"):
    """n lessons from a seed (and a gate), each with the board as the student gets it, and the
    answer key: 四課, 三傳, gate."""
    seed = practice_seed(p)
    if seed is None:
        raise InputError("seed: give a whole number (the worksheet's seed, e.g. seed=7)")
    n = _sheet_n(p)
    gate = check_gate(p.get("gate"))
    school = check_school(p.get("shehai"))
    out = []
    for i in range(int(n)):
        lesson = practice_lesson(seed + i, gate)
        if school:
            lesson = dict(lesson, shehai=school)
        r = svc.judge(cast_kwargs(lesson))
        b = r.board
        out.append({"n": i + 1, "seed": seed + i, "lesson": lesson, "board": b,
                    "key": {"lessons": [l.upper for l in b.lessons], "chuan": b.transmissions.branches,
                            "gate": b.transmissions.gate, "subtype": b.transmissions.subtype}})
    return {"seed": seed, "n": int(n), "gate_of": gate, "school": school, "lessons": out}
