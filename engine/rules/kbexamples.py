"""`liuren kb check --examples`: every example board of every rule judged, network by network —
a `fires` board fires it, a `silent` board does not, an `unmet` board still fails as it says."""
from __future__ import annotations

from liuren.knowledge.kblint import dependency_closure, example_boards


def check_examples(kb, err, only=None, progress=None):
    """Judge every example board of every rule and named row (`liuren kb check --examples`):
    a `fires` board fires it, a `silent` board does not, and an `unmet` board (a book's example
    this encoding does not reproduce) still fails as its `says:` states.  Boards are grouped by
    network (question and variants), and each network is compiled once, with only the rules the
    boards' entries depend on (a 判 read through a table column depends on that column's ids
    only) and only the tables those rules read; each distinct board is cast and judged once per
    network, recording only what fired (not the trace).  `only`: entry ids to check (all when
    None).  Returns the number of boards judged."""
    import json
    from liuren.casting.cast import cast
    from liuren.rules.compile import build
    from liuren.knowledge.facts import board_facts
    from liuren.rules.judging import Recorder
    nets = {}
    for e, kind, b in example_boards(kb):
        if only is not None and e.id not in only:
            continue
        if kind == "unmet" and b.get("says") not in ("fires", "silent"):
            continue
        board = b["board"]
        q = board.get("question")
        q = kb.question_aliases.get(q, q)
        vs = board.get("variants") or {}
        key = (q or "", json.dumps(vs, sort_keys=True, ensure_ascii=False) if isinstance(vs, dict) else "")
        nets.setdefault(key, []).append((e, kind, b))
    root = str(kb.root)
    judged = 0
    for (q, vjson), cases in sorted(nets.items(), key=lambda x: -len(x[1])):
        variants = json.loads(vjson) if vjson else {}
        closure = dependency_closure(kb, {e.id for e, _, _ in cases})
        if progress:
            progress(f"{q or '(no question)'} {vjson if variants else ''}: {len(cases)} boards, {len(closure)} rules")
        try:
            eng = build(kb, variants, question=q or None, only=closure if len(closure) < len(kb.rules) else None)
        except Exception as x:  # noqa: BLE001
            e0, _, b0 = cases[0]
            err(e0.file, getattr(b0, "line", e0.line), f"{e0.id}: the network for its example boards cannot be "
                                                        f"compiled ({type(x).__name__}: {x})")
            continue
        eng.kb = kb
        fired = {}
        for e, kind, b in cases:
            board = b["board"]
            bkey = json.dumps({k: v for k, v in board.items() if k not in ("question", "variants")},
                              sort_keys=True, ensure_ascii=False, default=str)
            if bkey not in fired:
                kw = {k: v for k, v in board.items() if k not in ("question", "variants")}
                try:
                    brd = cast(kw.pop("moment", None), kb=root, **kw)
                    rec = Recorder(kb, eng.judged_consumed, eng)
                    ids = set()

                    def on_fire(cr, act, rec=rec, ids=ids):
                        # what fired (the id reported and the rule), and what it asserts: the
                        # firing's record (its trace) is not needed here
                        _b, report, _m, new, _c = rec.conclude(cr, act)
                        ids.add(report)
                        ids.add(cr.rule.id)
                        return new
                    eng.run_board(board_facts(brd, q or None), on_fire, keep=False)
                    eng.reset_board()
                    fired[bkey] = ids
                    judged += 1
                except Exception as x:  # noqa: BLE001 — lint_boards names what cannot be cast
                    try:
                        eng.reset_board()
                    except Exception:  # noqa: BLE001
                        pass
                    fired[bkey] = x
            got = fired[bkey]
            line = getattr(b, "line", e.line)
            if isinstance(got, Exception):
                err(e.file, line, f"{e.id}: example board ({kind}) cannot be judged: {str(got).splitlines()[0] if str(got) else type(got).__name__}")
                continue
            fires = e.id in got
            shown = _board_text(board)
            if kind == "fires" and not fires:
                err(e.file, line, f"{e.id}: does not fire on its example board {shown}")
            elif kind == "silent" and fires:
                err(e.file, line, f"{e.id}: fires on its silent example board {shown}")
            elif kind == "unmet" and fires == (b.get("says") == "fires"):
                err(e.file, line, f"{e.id}: the book's example {shown} is now met ({b.get('says')}): "
                                  f"move it to {b.get('says')}")
        del eng
    return judged


def _board_text(board):
    return "{" + ", ".join(f"{k}: {v}" for k, v in board.items()) + "}"


# --------------------------------------------------------------------------- issue 22: a lost line
