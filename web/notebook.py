"""_repr_html_ of a Board and of a Judgment: the page's own templates, with the stylesheet inline."""
from __future__ import annotations

import functools
import pathlib

HERE = pathlib.Path(__file__).resolve().parent


@functools.lru_cache(maxsize=4)
def _service(kb_dir):
    from .service import Service
    return Service(kb_dir, warm=False)


def _env():
    from .app import templates
    return templates.env


@functools.lru_cache(maxsize=1)
def _css(root=".liuren-nb"):
    """The page's stylesheet scoped to the notebook cell (the page's body, :root and @media rules
    would otherwise restyle the whole notebook)."""
    import re
    css = (HERE / "static" / "app.css").read_text(encoding="utf-8")
    css = re.sub(r"@media[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", "", css)
    out = []
    for sel, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        sels = []
        for x in sel.split(","):
            x = x.strip()
            if x.startswith(("header", "footer", "main", "*")):
                continue
            sels.append(root if x in (":root", "body") else f"{root} {x}")
        if sels:
            out.append(f"{', '.join(sels)} {{{body}}}")
    return "\n".join(out)


def _render(name, **ctx):
    html = _env().get_template(name).render(**ctx)
    return f'<div class="liuren-nb"><style>{_css()}</style>{html}</div>'


def board_html(board, lang="zh"):
    from . import lang as L
    from .service import board_parts
    svc = _service(None)
    return _render("_square.html", b=board_parts(svc, board, lang), w=L.WORDS[lang], lang=lang)


def judgment_html(r, lang="zh"):
    from . import lang as L
    from .service import board_parts, judgment_groups
    svc = _service(str(r.kb.root) if r.kb is not None else None)
    w = L.WORDS[lang]
    board = _env().get_template("_square.html").render(b=board_parts(svc, r.board, lang), w=w, lang=lang)
    judg = _env().get_template("_judgments.html").render(
        r=r, groups=judgment_groups(svc, r, {}, lang), findings=r.findings(), w=w, lang=lang, qs="", notebook=True)
    return (f'<div class="liuren-nb"><style>{_css()}</style><div class="boardpage"><div class="left">{board}</div>'
            f'<div class="right">{judg}</div></div></div>')
