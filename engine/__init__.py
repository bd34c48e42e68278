"""大六壬 expert system: casting (engine.cast) and judging (engine.judging)."""
from . import _compat  # noqa: F401  -- must come first: makes experta importable on Python >= 3.10

from .cast import cast  # noqa: E402
from .errors import InputError, KBError, LiurenError  # noqa: E402

__all__ = ["cast", "judge", "InputError", "KBError", "LiurenError"]


def judge(x, **kwargs):
    """Judge a board (a Board, or a dict of cast() keyword arguments); see engine.judging."""
    from .judging import judge as _judge
    return _judge(x, **kwargs)
