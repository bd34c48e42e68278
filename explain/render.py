"""Renderers of what the rules concluded: a judgment's line as the CLI and the pages show it (name,
places, reading, valence, sources), and HOW chains and WHY-NOT reports as text, markdown, html
and json."""
from __future__ import annotations

import contextlib
import contextvars
import html
import json

from liuren.i18n import DEFAULT, is_rendering, label_of, name_of, word
from liuren.knowledge.kbload import cite
from liuren.explain.words import WORDS

# the language of the report being rendered (set by the RENDER functions, and by in_lang): a
# context variable, not a module global, so that two pages rendered at once on two threads of a
# server (each in its own context) never see each other's language
_LANG = contextvars.ContextVar("liuren_render_lang", default=DEFAULT)


@contextlib.contextmanager
def in_lang(lang):
    """Render in `lang` meanwhile (this thread / task only)."""
    token = _LANG.set(lang or DEFAULT)
    try:
        yield
    finally:
        _LANG.reset(token)


def w(s):
    return word(s, _LANG.get())


def _shown_sources(sources):
    """A source list as the reader sees it: under ja the 日譯's sentence stands beside the
    classical one; under zh the rendering is cited without its Japanese text."""
    for src in sources:
        if is_rendering(src) and _LANG.get() == DEFAULT:
            src = {k: v for k, v in src.items() if k != "quote"}
        yield src


def localize(report, kb, lang):
    """The report for a reader of `lang`: names of entries by their label where they have one
    (the step names of the chain and its defeats too); the report remembers its language."""
    from liuren.i18n import label_of
    from liuren.explain.steps import step_name, step_text

    def name(rule, default):
        e = kb.entries.get(rule) if rule else None
        return (label_of(e.meta, lang) if e is not None else None) or default

    def walk(r):
        r = dict(r, lang=lang) if lang != DEFAULT else dict(r)
        if lang != DEFAULT:
            if r.get("name") and r.get("rule"):
                r["name_zh"], r["name"] = r["name"], name(r["rule"], r["name"])
            r["steps"] = [dict(st, name=name(st.get("rule"), st.get("name"))) if st.get("step") != "cast" else
                          dict(st, name=step_name(st.get("name"), lang), matched=[step_text(st, lang, kb)])
                          for st in r.get("steps") or []]
        if r.get("steps"):              # a table row by its form in the reader's language (explain.factwords)
            from liuren.explain.chain import rows_in
            r["steps"] = rows_in({"steps": [dict(st) for st in r["steps"]]}, lang)["steps"]
        if r.get("defeated_by"):
            r["defeated_by"] = [walk(d) for d in r["defeated_by"]]
        return r
    return walk(report)


def aspect_lines(a, lang=None):
    if lang is not None:
        with in_lang(lang):
            return aspect_lines(a)
    belongs = "、".join(a["belongs"]) or f"（{w('無')}）"
    if a.get("plate") == "地":          # a 地盤 place (日干 寄宮, 日支, 占時 …): the general over it
        return [f"{a['branch']}（{a['at']}，{w('地盤')}）：{w('上神')} {a['over']} 乘 {a['rides']}；{w('所屬')} {belongs}"]
    sits = "、".join(a["sits_on_sha"]) or f"（{w('無')}）"
    where = f"（{a['at']}）" if a.get("at") else ""
    return [f"{a['branch']}{where}：{w('所乘')} {a['rides']}；{w('所屬')} {belongs}；{w('所臨')} {a['sits_on']}（{sits}）"]


def _board_head(c):
    b = c.get("board") or {}
    t = "".join(b.get("transmissions") or [])
    return f"{b.get('day')}日 月將{b.get('jiang')}加{b.get('hour')} 三傳{t}（{b.get('gate')}）"


def _step_head(s):
    return w("起課") if s["step"] == "cast" else (w("結論") if s["step"] == "conclusion" else w("推得"))


def _step_details(s, dash):
    """The lines under a step, the same in every format: what it matched (marked ·), what it
    produced (⇒), its arithmetic (＝), its sources and its interpretation.  `dash` separates a
    quote from its citation."""
    for m in s["matched"]:
        yield "· ", m
    for p in s.get("produced") or []:
        yield "", f"⇒ {p}"
    for x in s.get("calc") or []:
        yield "", f"＝ {x}"
    for src in _shown_sources(s["sources"]):
        q = src.get("quote")
        yield "", f"「{q}」{dash}{cite(src)}" if q else cite(src)
    it = s.get("interpretation")
    if it:
        yield "", f"{w('取義')}：{it.get('chosen', '')}（{w('另說')}：{it.get('alternative', '')}）"


def _condition(c):
    from liuren.explain.words import condition_words
    lang = _LANG.get() if _LANG.get() in ("zh", "ja") else "zh"
    c = dict(c, text=condition_words(c["text"], lang), facts=[condition_words(x, lang) for x in c["facts"]])
    facts = "、".join(c["facts"])
    need = f"{w('要')} " + (f"{w('或其一')}：" if c.get("alt") else "")   # a line of one way of several
    if c["held"]:
        return f"✓ {need}{c['text']}" + (f"：{facts}" if facts else "")
    gone = (c.get("lacks") or {}).get(lang)          # what the board lacks, named: 此盤未給月建, 課傳無 寅
    more = f"；{gone}" if gone and facts else ""  # values read, and an input not given (本命 beside 日干 丁)
    if c.get("on_board") and facts:             # the board's own values at the places the line names
        return f"✗ {need}{c['text']}；{w('此盤')}：{facts}{more}"
    return f"✗ {need}{c['text']}；" + (f"{w('盤上最近者')}：{facts}{more}" if facts else gone or w("盤上無此"))


def imagery_line(sym, items):
    return f"{sym}：" + "；".join(f"{x['門']} {x['象']}" for x in items[:8])


def how_lines(c, indent=""):
    out = [f"{indent}{c['name']}（{c['rule']}）{w('成立')}：{_board_head(c)}" if not indent else f"{indent}{c['name']}（{c['rule']}）"]
    for i, s in enumerate(c["steps"], 1):
        out.append(f"{indent}{i}. 〔{_step_head(s)}〕{s['name']}（{s['rule']}）")
        out += [f"{indent}     {mark}{text}" for mark, text in _step_details(s, " ")]
    out.append(f"{indent}{w('斷')}：{c['reading']}" + (f"〔{c['valence']}〕" if c.get("valence") else ""))
    if c["aspects"]:
        out.append(f"{indent}{w('視所乘何神、所屬何煞、所臨何煞')}：")
        for a in c["aspects"]:
            out += [f"{indent}  " + x for x in aspect_lines(a)]
    if c["imagery"]:
        out.append(f"{indent}{w('類相')}：")
        out += [f"{indent}  " + imagery_line(sym, items) for sym, items in c["imagery"].items()]
    if c["defeated_by"]:
        out.append(f"{indent}※ {w('此名勿以實論，因：')}")
        for d in c["defeated_by"]:
            out += how_lines(d, indent + "    ")
    return out


def whynot_lines(w_):
    r = w_
    out = [f"{r['name']}（{r['rule']}）{w('未成立')}" + (f"（{w('經')} {r['family']}）" if r.get("family") else "")]
    for s in _shown_sources(r.get("sources") or []):
        out.append(f"  「{s['quote']}」 {cite(s)}" if s.get("quote") else f"  {cite(s)}")
    lang = _LANG.get() if _LANG.get() in ("zh", "ja") else "zh"
    out += [("  · " if x.get("field") == "由" else "  ✗ ") + ((x.get("texts") or {}).get(lang) or x["text"])
            for x in r.get("board") or []]
    out += ["  " + _condition(c) for c in r["conditions"]]
    q = (r.get("note_of") or {}).get("question")
    if q and lang == "ja":          # the command line's note, in the page's language, with its flag
        out.append(f"  （この条は「{q}」を問うときにのみ論じる（--question {q}））")
    elif r.get("note_of", {}) and r["note_of"].get("all_held") and lang == "ja":
        out.append("  （条件はこの盤にすべて具わる：成立している（liuren why の成立の鎖を見よ）か、その属する占いをこの盤が問うていない）")
    elif r.get("note"):
        out.append(f"  （{r['note']}）")
    return out


def _in_lang(fn):
    """Render a report in its language (report["lang"], default zh)."""
    def wrapped(report, *a, **k):
        with in_lang(report.get("lang") or DEFAULT):
            return fn(report, *a, **k)
    wrapped.__name__ = fn.__name__
    wrapped.__doc__ = fn.__doc__
    return wrapped


@_in_lang
def to_text(report):
    return "\n".join(how_lines(report) if report.get("fired") else whynot_lines(report))


@_in_lang
def to_markdown(report, level=3):
    h = "#" * level
    if not report.get("fired"):
        L = [f"{h} {report['name']}（`{report['rule']}`）{w('未成立')}", ""]
        for src in _shown_sources(report.get("sources") or []):
            L.append(f"> 「{src['quote']}」 — {cite(src)}" if src.get("quote") else f"> {cite(src)}")
        L.append("")
        L += ["- " + _condition(c) for c in report["conditions"]]
        if report.get("note"):
            L += ["", f"*{report['note']}*"]
        return "\n".join(L) + "\n"
    L = [f"{h} {report['name']}（`{report['rule']}`）{w('成立')}", "", f"*{_board_head(report)}*", ""]
    for i, s in enumerate(report["steps"], 1):
        L.append(f"{i}. **{s['name']}**（{_step_head(s)}，`{s['rule']}`）")
        L += [f"   - {text}" for _, text in _step_details(s, " — ")]
    L += ["", f"**{w('斷')}**：{report['reading']}" + (f"〔{report['valence']}〕" if report.get("valence") else "")]
    if report["aspects"]:
        L += ["", f"**{w('視所乘何神、所屬何煞、所臨何煞')}**", ""]
        L += [f"- {x}" for a in report["aspects"] for x in aspect_lines(a)]
    if report["imagery"]:
        L += ["", f"**{w('類相')}**", ""]
        L += ["- " + imagery_line(sym, items) for sym, items in report["imagery"].items()]
    if report["defeated_by"]:
        L += ["", f"**{w('此名勿以實論，因：')}**", ""]
        for d in report["defeated_by"]:
            L.append(to_markdown(dict(d, lang=_LANG.get()), level + 1))
    return "\n".join(L) + "\n"


@_in_lang
def to_html(report):
    import re
    md = to_markdown(report)
    body = []
    in_list = None
    for line in md.splitlines():
        esc = html.escape(line)
        esc = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", esc)
        esc = re.sub(r"`(.+?)`", r"<code>\1</code>", esc)
        esc = re.sub(r"(?<![*\w])\*(.+?)\*", r"<em>\1</em>", esc)
        m = re.match(r"^(#+) (.*)$", esc)
        if m:
            body.append(f"<h{len(m.group(1))}>{m.group(2)}</h{len(m.group(1))}>")
        elif re.match(r"^\d+\. ", esc):
            body.append(f"<p class=\"step\">{esc}</p>")
        elif esc.lstrip().startswith("- "):
            depth = len(esc) - len(esc.lstrip())
            body.append(f'<div class="item" style="margin-left:{1 + depth * 0.6}em">{esc.lstrip()[2:]}</div>')
        elif esc.startswith("&gt; "):
            body.append(f"<blockquote>{esc[5:]}</blockquote>")
        elif esc.strip():
            body.append(f"<p>{esc}</p>")
    return (f"<!DOCTYPE html>\n<html lang=\"{'ja' if _LANG.get() == 'ja' else 'zh-Hant'}\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(report['name'])}</title>"
            "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
            ".step{margin:.8em 0 .2em}blockquote{color:#555}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def to_json(report):
    return json.dumps(report, ensure_ascii=False, indent=2)


RENDER = {"text": to_text, "markdown": to_markdown, "html": to_html, "json": to_json}


# ---------------------------------------------------------------- a judgment's line (CLI and web)
POSITIONS = {"日干", "日支", "干上", "干陰", "支上", "支陰", "初傳", "中傳", "末傳", "占時", "月將", "月建",
             "太歲", "本命", "行年", "旬首", "旬尾"}


def place_pairs(f, board):
    """A judgment's branches paired with the positions it read them at, where they can be read off the
    board: (the branches no position accounts for, [(position, its value)]) — 日干 as its stem (丁（寄未）).
    None where the plain form says it without doubt (one branch at every position named: 亥，見於干上、初傳)
    or the board is not at hand."""
    if board is None:
        return None
    pos = list(dict.fromkeys(v for v in f.bindings.values() if v in POSITIONS and v != f.name))
    if not pos:
        return None
    try:
        at = board.positions()
    except Exception:       # noqa: BLE001 — a board without 三傳 (a partial cast): the plain form
        return None
    if any(p not in at for p in pos):
        return None
    about = list(dict.fromkeys(f.about))
    vals = [at[p] for p in pos]
    if len(set(vals)) == 1 and about == [vals[0]]:
        return None
    pairs = [(p, f"{board.day[0]}（寄{at[p]}）" if p == "日干" else at[p]) for p in pos]
    extras = [b for b in about if b not in vals]
    return extras, pairs


def firing_name(f, kb, lang=DEFAULT):
    """A judgment's name for the reader: its entry's label in the language, else its name."""
    e = kb.entries.get(f.report) if kb is not None else None
    return (label_of(e.meta, lang) if e is not None else None) or f.name



def firing_parts(f, result=None, lang=DEFAULT):
    """What a judgment's line says, piece by piece (the CLI's line and the web page show these):
    name, where (the branches it is about and the positions they are seen at), reading,
    valence, the cited sources, and the names of the judgments that say not to take it as real."""
    kb = result.kb if result is not None else None
    where = []
    pos = [v for v in f.bindings.values() if v in POSITIONS and v != f.name]
    paired = place_pairs(f, getattr(result, "board", None))
    if paired is not None:
        extras, pairs = paired
        where.append("、".join(list(extras) + [f"{p} {v}" for p, v in pairs]))
    else:
        if f.about:
            where.append("、".join(dict.fromkeys(f.about)))
        if pos:
            where.append("見於" + "、".join(dict.fromkeys(pos)))
    return {"name": firing_name(f, kb, lang), "where": "，".join(where), "reading": f.reading, "valence": f.valence,
            "refs": list(dict.fromkeys(cite(s) for s in f.sources)),
            "defeated_by": ([firing_name(result.firings[i], kb, lang) for i in f.defeated_by]
                            if f.defeated and result is not None else [])}



def firing_line(f, result=None, lang=DEFAULT):
    p = firing_parts(f, result, lang)
    head = p["name"] + (f"（{p['where']}）" if p["where"] else "")
    line = f"  {head}　{p['reading']}"
    if p["valence"]:
        line += f"〔{p['valence']}〕"
    refs = "；".join(p["refs"])
    if refs:
        line += f"　{refs}"
    if p["defeated_by"]:
        line += f"\n      ※ {word('勿以實論', lang)}（{'、'.join(p['defeated_by'])}）"
    return line



def grounds_line(line, group, kb, lang=DEFAULT):
    """Several firings of one rule that read the same on screen (the same judgment reached on
    different grounds: another branch of an `any:`, another criterion, another rule governed by
    a 總則) are one line, followed by what tells the grounds apart: the bindings that differ,
    rule ids given by name."""
    if len(group) == 1:
        return line
    keys = list(dict.fromkeys(k for f in group for k in f.bindings))
    varying = [k for k in keys if len({repr(f.bindings.get(k)) for f in group}) > 1]

    def shown(v):
        e = (kb.rows.get(v) or kb.rules.get(v)) if isinstance(v, str) else None
        return name_of(e, lang) if e is not None else str(v)
    w = WORDS[lang]
    grounds = "／".join("、".join(shown(f.bindings[k]) for k in varying if k in f.bindings) or w["route_other"]
                       for f in group)
    first, nl, rest = line.partition("\n")
    return f"{first}　〔{w['routes'].format(n=len(group), ways=grounds)}〕{nl}{rest}"



def firing_order(f):
    s = next((s for s in f.sources if s.get("seed")), {})
    return (s.get("seed", "~"), s.get("para", 0), f.n)


