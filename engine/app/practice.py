"""The practice drill: a lesson drawn from a seed (reproducible), the student's 三傳, gate and 格
checked against the cast and the judgment, each missed or wrongly claimed 格 with its chain."""
from __future__ import annotations

import random
import re

from liuren.app import queries as Q
from liuren.app.params import GATES, cast_kwargs
from liuren.casting.symbols import BRANCHES, JIAZI, badd
from liuren.errors import InputError
from liuren.explain import words as L


def practice_seed(p):
    s = p.get("seed")
    if s is None:
        return None
    if not re.fullmatch(r"[0-9]{1,9}", s):
        raise InputError(f"seed {s!r}: give a whole number (0 … 999999999)")
    return int(s)



def practice_lesson(seed):
    """The lesson of a seed: a day, 月將 over 占時, 晝/夜 and a month (reproducible)."""
    rng = random.Random(seed)
    day = JIAZI[rng.randrange(60)]
    hour = BRANCHES[rng.randrange(12)]
    jiang = badd(hour, rng.randrange(12))
    month = JIAZI[rng.randrange(60)]
    return {"day": day, "on": f"{jiang}加{hour}", "month": month, "night": "true" if rng.random() < 0.5 else "false"}



def practice_check(svc, p, lang="zh"):
    """The student's answer against the cast, and each 格 ticked or not against the judgment."""
    from liuren.casting.symbols import parse_branch
    seed = practice_seed(p)
    lesson = practice_lesson(seed)
    r = svc.judge(cast_kwargs(lesson))
    t = r.board.transmissions
    answer_keys = ("chu", "zhong", "mo", "gate")
    given = [k for k in answer_keys if k in p]
    out = {"seed": seed, "lesson": lesson, "r": r, "answered": bool(given or p.get("ge"))}
    if not out["answered"]:
        return out
    if len(given) < 4:
        missing = [w for k, w in zip(answer_keys, ("chu 初傳", "zhong 中傳", "mo 末傳", "gate 發用之門")) if k not in p]
        raise InputError("give the three transmissions and the gate: missing " + "、".join(missing))
    names = ("chu", "zhong", "mo")
    got = tuple(parse_branch(p[k], k) for k in names)
    if p["gate"] not in GATES:
        raise InputError(f"gate {p['gate']!r}: one of {' '.join(GATES)}")
    ticked = []
    for g in p.get("ge", []):
        e = svc.entry(g)
        if e.kind != "格":
            raise InputError(f"ge {g!r} is a {e.kind}, not a 格")
        ticked.append(e.id)
    fired = {f.report for f in r.fired if f.kind == "格"}
    out.update({
        "got": got, "gate": p["gate"], "want": t.branches, "want_gate": t.gate,
        "each": [a == b for a, b in zip(got, t.branches)], "gate_ok": p["gate"] == t.gate,
        "right": [L.name_of(svc.kb, x, svc.kb.entries[x].name, lang) for x in ticked if x in fired],
        "missed": [svc.chain_view(r, x, lang) for x in sorted(fired - set(ticked))] if ticked else [],
        "formed": [] if ticked else [svc.chain_view(r, x, lang) for x in sorted(fired)],
        "claimed": [svc.chain_view(r, x, lang) for x in ticked if x not in fired],
    })
    out["all_ok"] = all(out["each"]) and out["gate_ok"] and not out["missed"] and not out["claimed"]
    return out



def practice_json(svc, p):
    seed = practice_seed(p)
    if seed is None:
        raise InputError("seed: give a whole number (the lesson's seed, e.g. seed=7)")
    lang = L.check_lang(p.get("lang"))
    c = practice_check(svc, p, lang)
    d = {"seed": seed, "lesson": c["lesson"], "board": c["r"].board.to_dict()}
    if c["answered"]:
        d["answer"] = {"transmissions": list(c["got"]), "gate": c["gate"]}
        d["correct"] = {"transmissions": list(c["want"]), "gate": c["want_gate"],
                        "steps": [s.to_dict() for s in c["r"].board.transmissions.steps]}
        d["check"] = {"transmissions": c["each"], "gate": c["gate_ok"], "ge_right": [x for x in c["right"]],
                      "ge_missed": [x["report"]["rule"] for x in c["missed"]],
                      "ge_claimed": [x["report"]["rule"] for x in c["claimed"]],
                      "ge_formed": [x["report"]["rule"] for x in c["formed"]], "all": c["all_ok"]}
        if lang != "zh":
            ids = {x["report"]["rule"] for k in ("missed", "claimed", "formed") for x in c[k]}
            d["labels"] = {i: L.name_of(svc.kb, i, svc.kb.entries[i].name, lang) for i in sorted(ids)}
    return d



def ge_choices(svc, lang="zh"):
    """The 格 a student may tick: every 格 rule and reported 格 row, by name."""
    out = []
    seen = set()
    for e in Q.listed(svc.kb):
        if e.kind == "格" and not getattr(e, "as_var", None) and e.name not in seen:
            seen.add(e.name)
            out.append({"id": e.id, "name": L.display_name(e, lang)})
    return out


