"""How a notebook shows a board or a judgment.  The classes of the lower layers (casting.board.Board,
rules.judging.Judgment) call `html(obj)` from their `_repr_html_`; the renderer, which lives in
explain/ above them, registers itself here when it is imported (explain.html), so that no lower
layer imports the one that renders it.  `liuren.cast` and `liuren.judge`, the documented entry
points, import the renderer.  With none registered, `_repr_html_` returns None and a notebook
shows the plain text."""
from __future__ import annotations

_RENDERERS = {}


def register(cls_name, fn):
    """fn(obj) -> HTML for objects whose class is named cls_name."""
    _RENDERERS[cls_name] = fn


def html(obj):
    fn = _RENDERERS.get(type(obj).__name__)
    return fn(obj) if fn is not None else None
