"""liuren — a 大六壬 expert system: cast the board of a moment, fire the classical 課體, 格, 畢法, 神煞
and 斷 as production rules, and explain each conclusion with its source.

    from liuren import cast, judge, why
    b = cast(day="丁卯", on="亥加丑")            # the board (casting)
    r = judge(b)                                 # the judgments (rules)
    why("斬首", day="丁卯", on="亥加丑")          # HOW it fired, or WHY-NOT (explain)

The package is layered (README: Layout): casting → knowledge → rules → explain → app → the front-ends (cli,
web); each imports only downward.  The names above are loaded on first use.
"""
from liuren import _compat  # noqa: F401  -- must come first: makes experta importable on Python >= 3.10
from liuren.errors import InputError, KBError, LiurenError

__all__ = ["cast", "judge", "why", "InputError", "KBError", "LiurenError"]


def cast(moment=None, **kwargs):
    """The board of a moment, or of a day and 月將 over 占時; see liuren.casting.cast.cast."""
    from liuren.casting.cast import cast as _cast
    from liuren.explain import html  # noqa: F401 -- a notebook draws the board
    return _cast(moment, **kwargs)


def judge(x, **kwargs):
    """Judge a board (a Board, or a dict of cast() keyword arguments); see liuren.rules.judging."""
    from liuren.explain import html  # noqa: F401 -- a notebook draws the judgment
    from liuren.rules.judging import judge as _judge
    return _judge(x, **kwargs)


def why(rule, board=None, *, question=None, variants=None, kb=None, **cast_kwargs):
    """HOW `rule` (an id, a name or an alias) fired on a board, or WHY-NOT, as a dict; the board is
    a Board or is cast from the keyword arguments (day=…, on=… or a moment)."""
    from liuren.app.queries import explain_rule
    return explain_rule(rule, board, question=question, variants=variants, kb=kb, **cast_kwargs)
