"""The teaching web app (`liuren serve`): FastAPI on uvicorn, pages rendered by Jinja2.

Every page has a JSON twin with the same parameters (/board ↔ /api/judge …); both are built by
web.service from the project's own functions.  Bad input: HTTP 400 with the CLI's one-line
message (JSON for /api, a visible message on a page); nothing the user passed is dropped, and
everything echoed is escaped (Jinja2 autoescape; JSON in pages via service.json_script).
"""
from __future__ import annotations

import datetime as dt
import functools
import os
import pathlib
import re
from urllib.parse import quote, urlencode

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from uvicorn.protocols.http.h11_impl import H11Protocol

from liuren.errors import JudgmentTimeout, LiurenError

from liuren.app import auditview as AV
from liuren.app import find as FIND
from liuren.app import findweb as FINDWEB
from liuren.app import params as P
from liuren.app import queries as Q
from liuren.app import practice as drill
from liuren.app import service as S
from liuren.app.engine import BRANCHES, JIAZI
from liuren.explain import html as H
from liuren.explain import words as L
from liuren.web import views as V

HERE = pathlib.Path(__file__).resolve().parent
KB_ENV = "LIUREN_WEB_KB"      # how `liuren serve --kb DIR` reaches worker processes

templates = Jinja2Templates(directory=[str(HERE / "templates"), str(H.HERE / "templates")])   # pages, then the fragments
def _globals():
    from liuren.app.engine import cite
    from liuren.explain.render import aspect_lines, imagery_line
    from liuren.i18n import is_rendering
    from liuren.explain.steps import step_text

    def aspect_lines_in(a, lang="zh"):
        return aspect_lines(a, lang=lang)     # the language passed down: no state shared by threads
    return dict(WORDS=L.WORDS, HTML_LANG=L.HTML_LANG, kind_word=L.kind_word, valence_word=L.valence_word, json_script=V.json_script, cite=cite,
                aspect_lines=aspect_lines_in, imagery_line=imagery_line, is_rendering=is_rendering,
                step_text=step_text)


templates.env.globals.update(_globals())
templates.env.trim_blocks = True
templates.env.lstrip_blocks = True


class SafeJSON(JSONResponse):
    """JSON whose < > & are written as \\u escapes: the same data, inert if a browser sniffs it."""

    def render(self, content):
        return V.json_script(content).encode("utf-8")


def _status(e):
    return 503 if isinstance(e, (JudgmentTimeout, S.Busy)) else 400


IDLE_SECONDS = 5.0       # a connection that sends nothing, or nothing more, for this long is closed


class IdleClosingH11(H11Protocol):
    """uvicorn's h11 protocol, whose idle timer also runs from the moment a connection opens:
    uvicorn by itself closes a kept-alive connection between requests, never one that sends nothing."""

    def connection_made(self, transport):
        super().connection_made(transport)
        if self.timeout_keep_alive_task is None:
            self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive, self.timeout_keep_alive_handler)


def server_config():
    """uvicorn's settings for `liuren serve`: quiet logs, idle connections closed."""
    return dict(log_level="warning", access_log=False, http=IdleClosingH11, timeout_keep_alive=IDLE_SECONDS)


# ====================================================================== helpers of every view
def _svc(request):
    """The application object of the app serving this request (app.state.svc, built by create_app)."""
    return request.app.state.svc


def params(request, allowed, multi=None, long=None):
    """The request's parameters, read through the one table (app/params.py): only `allowed`, bounded."""
    return P.read_params(request.query_params.multi_items(), allowed, len(request.url.query), multi, long)


def lang_of(request):
    """The page's language before its parameters are read (an error page speaks it too)."""
    try:
        return L.check_lang(request.query_params.get("lang"))
    except LiurenError:
        return "zh"


def _lang_links(request):
    items = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"]
    path = quote(request.url.path)
    out = {}
    for lg in L.LANGS:
        q = urlencode(items + ([("lang", lg)] if lg != "zh" else []))
        out[lg] = path + ("?" + q if q else "")
    return out


def page(request, name, ctx, status=200):
    """A template rendered in the page's language, with the links to the same page in the other."""
    lang = ctx.get("lang", "zh")
    ctx.setdefault("w", L.WORDS[lang])
    ctx.setdefault("qs_lang", _lang_links(request))
    return templates.TemplateResponse(request, name, ctx, status_code=status)


def api_error(e, status=400):
    return SafeJSON({"error": str(e)}, status_code=status)


def api(fn):
    """A JSON twin: its data, or its one-line error (400, or 503 when the network stayed busy)."""
    try:
        return fn()
    except LiurenError as e:
        return api_error(e, _status(e))


def _named(svc, message, lang):
    """A message naming entries by id (the nearest names to a typo) names them by their names."""
    return re.sub(r"(?<![\w-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])",
                  lambda m: L.display_name(svc.kb.entries[m.group(0)], lang) if m.group(0) in svc.kb.entries
                  else m.group(0), message)


def _choices(request, e, lang):
    """For a name several entries share (斬關, 蕪淫): each of them, linked (the rule page, or the
    board's chain of each)."""
    m = re.match(r"""^(['"])(.*?)\1 names several entries""", str(e))
    if not m:
        return None
    svc = _svc(request)
    out = []
    for x in Q.find_entries(svc.kb, m.group(2)):
        if request.url.path.startswith("/board"):
            items = [(k, v) for k, v in request.query_params.multi_items() if k != "why"] + [("why", x.id)]
            href = "/board?" + urlencode(items) + "#chain"
        else:
            href = "/rules/" + quote(x.id) + ("?lang=ja" if lang == "ja" else "")
        out.append({"href": href, "name": L.display_name(x, lang), "kind": L.kind_word(x.kind, lang),
                    "book": V.cited_sources(svc.kb, x), "reading": x.reading or ""})
    return out


def page_error(request, e, status=400, lang="zh"):
    """An error page: the message in the page's language, the language switch, the way back."""
    ctx = {"message": _named(_svc(request), L.error_text(e, lang), lang),
           "params": list(request.query_params.multi_items()), "path": request.url.path,
           "lang": lang, "w": L.WORDS[lang], "fields": L.FIELDS[lang], "qs_lang": _lang_links(request),
           "back": V.back_link(request.url.path, request.query_params.multi_items(), request.headers.get("referer"),
                               str(request.base_url), lang),
           "choices": _choices(request, e, lang), "status": status}
    return templates.TemplateResponse(request, "error.html", ctx, status_code=status)


def _lang_only(request):
    """The language of a page that takes no other parameter (raises on anything else)."""
    return L.check_lang(params(request, P.LANG_KEYS).get("lang"))


# ====================================================================== errors and headers
async def on_validation(request, exc):
    msg = "; ".join(f"{'.'.join(str(x) for x in err.get('loc', ()))}: {err.get('msg')}" for err in exc.errors())
    if request.url.path.startswith("/api/"):
        return api_error(msg)
    return page_error(request, msg, lang=lang_of(request))


async def on_http(request, exc):
    msg = f"{exc.status_code}: {request.url.path!r} {exc.detail}" if exc.status_code == 404 else str(exc.detail)
    if request.url.path.startswith("/api/"):
        return api_error(msg, exc.status_code)
    return page_error(request, msg, exc.status_code, lang_of(request))


async def on_bug(request, exc):       # a bug: one line, never a traceback
    msg = f"internal error ({type(exc).__name__}); the server log has the details"
    if request.url.path.startswith("/api/"):
        return api_error(msg, 500)
    return page_error(request, msg, 500, lang_of(request))


async def nosniff(request, call_next):
    resp = await call_next(request)
    resp.headers["X-Content-Type-Options"] = "nosniff"
    return resp


# ====================================================================== pages
def stylesheet():
    """The stylesheet of the board and judgment fragments, which explain/ owns (notebooks inline it)."""
    return Response(H.stylesheet(), media_type="text/css")


def index(request: Request):
    lang = lang_of(request)
    try:
        lang = _lang_only(request)
    except LiurenError as e:
        return page_error(request, e, lang=lang)
    svc = _svc(request)
    now = dt.datetime.now().astimezone()
    return page(request, "index.html", {
        "lang": lang, "now": now.strftime("%Y-%m-%dT%H:%M"), "zone": str(now.tzinfo),
        "questions": svc.questions_json(), "options": _options(),
        "jiazi": JIAZI, "branches": BRANCHES, "variant_entries": _variant_entries(svc),
        "name_of": lambda key, fallback: L.name_of(svc.kb, key, fallback, lang)})


def _board_moment(p):
    """The board's parameters as the page means them: (p, which one it used, or a redirect's query).
    The form fills in the moment by itself: a student who typed a day and 月將加占時 means that board,
    and the page says which it used; no moment nor board at all is "now", made a moment in the URL
    so the link shows this board tomorrow too."""
    used = None
    if "moment" in p and any(k in p for k in ("day", "jiang", "hour", "on")):
        p = {k: v for k, v in p.items() if k not in ("moment", "tz")}
        used = "board"
    if not any(k in p for k in ("moment", "day", "jiang", "hour", "on")):
        from liuren.app.engine import now
        return p, used, P.query_string(p, moment=now(p.get("tz")).isoformat(timespec="minutes"))
    return p, used, None


def board(request: Request):
    lang = lang_of(request)
    svc = _svc(request)
    try:
        p = params(request, P.BOARD_KEYS)
        lang = L.check_lang(p.get("lang"))
        P.flag(p, "trace")          # trace=x: refused here as /api/judge refuses it
        p, used, redirect = _board_moment(p)
        if redirect is not None:
            return RedirectResponse("/board?" + redirect, status_code=303)
        r = svc.judged(p)
        groups = H.judgment_groups(svc.kb, r, svc.item_filter(p), lang, placements=bool(P.flag(p, "all")))
    except LiurenError as e:
        return page_error(request, e, _status(e), lang)
    ctx = _board_ctx(request, svc, p, r, groups, lang)
    ctx["used"] = used
    status = 200
    if "why" in p:
        try:
            ctx.update(_why_ctx(request, svc, p, r, lang))
        except LiurenError as err:
            ctx["chain_error"] = _named(svc, L.error_text(err, lang), lang)
            ctx["chain_choices"] = _choices(request, err, lang)
            status = 400
    return page(request, "board.html", ctx, status)


def _why_ctx(request, svc, p, r, lang):
    """The chain asked for with why=: HOW if it fired, else WHY-NOT with the nearest boards where it does."""
    e = svc.entry(p["why"])
    chain = svc.chain_view(r, e.id, lang)
    if not chain["report"].get("fired"):
        from liuren.app.contrast import contrast
        chain["report"]["contrast"] = contrast(request.app.state.finder, p, r.board, e.id, lang)
        q = (chain["report"].get("note_of") or {}).get("question")
        if q:               # a rule only a question brings out: the same board asked that question
            chain["report"]["question_query"] = P.query_string(p, question=q)
    return {"chain": chain, "why": svc.typed_name(e, lang)}


def _board_ctx(request, svc, p, r, groups, lang):
    books = sorted({b for g in groups for i in g["entries"] for b in i["books"]})
    return {"lang": lang, "p": p, "r": r, "b": H.board_parts(svc.kb, r.board, lang), "groups": groups,
            "findings": H.findings(svc.kb, r, lang=lang), "views": H.two_views(svc.kb, groups, lang), "books": books,
            "valences": svc._valences, "summary": H.summary(groups, lang),
            "kinds": [g["kind"] for g in groups],
            "qs": P.query_string(p, drop=("why",)), "qs_all": P.query_string(p),
            "qs_cast": P.query_string({k: v for k, v in p.items() if k in P.CAST_KEYS}),
            "qs_judge": P.query_string({k: v for k, v in p.items() if k in P.CAST_KEYS + P.JUDGE_KEYS}),
            "why": p.get("why", ""), "params": list(request.query_params.multi_items())}


def rules(request: Request):
    lang = lang_of(request)
    try:
        p = params(request, P.RULES_KEYS, multi={"book"})
        lang = L.check_lang(p.get("lang"))
        view = V.rules_view(_svc(request), p, lang)
    except LiurenError as e:
        return page_error(request, e, lang=lang)
    from liuren.app.engine import RULE_KINDS
    return page(request, "rules.html", {"lang": lang, "p": p, "kinds": RULE_KINDS, **view})


def _rule_key(rule):
    if len(rule) > P.MAX_VALUE:
        raise LiurenError(f"rule {rule[:40]!r}… is too long ({len(rule)} characters; at most {P.MAX_VALUE})")
    return rule


def rule(request: Request, rule: str):
    lang = lang_of(request)
    try:
        lang = _lang_only(request)
        v = V.rule_view(_svc(request), _rule_key(rule), lang)
    except LiurenError as e:
        choices = _choices(request, e, lang)
        if choices:             # a name several entries share: a page that lists them
            return page(request, "rules_shared.html", {"lang": lang, "name": rule, "choices": choices})
        return page_error(request, e, lang=lang)
    return page(request, "rule.html", {"lang": lang, "v": v,
                                       "where": FINDWEB.rule_block(request.app.state.finder, v["e"].id, lang)})


def practice(request: Request):
    lang = lang_of(request)
    svc = _svc(request)
    try:
        p = params(request, P.PRACTICE_KEYS, multi={"ge"})
        lang = L.check_lang(p.get("lang"))
        if drill.practice_seed(p) is None:
            import secrets
            return RedirectResponse("/practice?" + P.query_string(p, seed=str(secrets.randbelow(10 ** 6))), status_code=303)
        c = drill.practice_check(svc, p, lang)
    except LiurenError as e:
        return page_error(request, e, _status(e), lang)
    keep = {k: v for k, v in p.items() if k in ("seed", "gate", "shehai", "lang")}
    # the worksheet starts at another seed: it never prints the lesson on screen with its answer
    sheet = {**{k: v for k, v in keep.items() if k != "seed"}, "seed": str(drill.sheet_seed(c["seed"])), "n": "12"}
    return page(request, "practice.html", {
        "lang": lang, "p": p, "c": c,
        "b": H.board_parts(svc.kb, c["r"].board, lang, show_chuan=c["step"] >= 3),
        "gates": P.GATES, "branches": BRANCHES, "curriculum": drill.CURRICULUM,
        "schools": drill.school_choices(lang),
        "ticked": set(p.get("ge", [])), "hidden": keep,
        "board_qs": P.query_string(dict(c["lesson"], lang=lang) if lang != "zh" else c["lesson"]),
        "next_qs": P.query_string({**keep, "seed": str((c["seed"] + 1) % 10 ** 9)}),
        "sheet_qs": P.query_string(sheet)})


def practice_sheet(request: Request):
    lang = lang_of(request)
    svc = _svc(request)
    try:
        p = params(request, P.SHEET_KEYS)
        lang = L.check_lang(p.get("lang"))
        sheet = drill.worksheet(svc, p, lang)
    except LiurenError as e:
        return page_error(request, e, _status(e), lang)
    for x in sheet["lessons"]:
        x["b"] = H.board_parts(svc.kb, x["board"], lang, show_chuan=False)
    return page(request, "practice_sheet.html", {"lang": lang, "p": p, "sheet": sheet})


def _find_status(e):
    return 503 if isinstance(e, FIND.NotBuilt) else _status(e)


def find_page(request: Request):
    lang = lang_of(request)
    ctx, status = {"lang": lang, "p": {}}, 200
    try:
        p = params(request, FINDWEB.FIND_KEYS, long=P.LONG)
        lang = L.check_lang(p.get("lang"))
        ctx = dict(FINDWEB.page_find(request.app.state.finder, p, lang), lang=lang)
    except LiurenError as e:
        if isinstance(e, FINDWEB.WhichOne):
            ctx = dict(e.ctx, lang=lang)        # a name several entries share: the choices, as links
        if "p" not in ctx or not isinstance(ctx.get("months"), list):
            ctx = {"lang": lang, "p": dict(request.query_params), "r": None, "months": list(FIND.X.MONTHS),
                   "gates": FIND.GATES, "examples": FINDWEB.EXAMPLES, "space": 17280, "days": 60, "facets": {},
                   "charts": {}, "by_keys": FIND.COUNT_BY + (FIND.KE_KEY,)}
        ctx["error"] = L.error_text(e, lang)
        status = _find_status(e)
    return page(request, "find.html", ctx, status)


def audit_page(request: Request):
    lang = lang_of(request)
    ctx, status = {"lang": lang, "p": {}}, 200
    try:
        p = params(request, AV.AUDIT_KEYS, multi=set())
        lang = L.check_lang(p.get("lang"))
        ctx = dict(AV.page_audit(request.app.state.audit_runs, p, lang), lang=lang)
    except AV.NoRun:
        ctx, status = {"lang": lang, "missing": True}, 503
    except LiurenError as e:
        ctx = {"lang": lang, "error": L.error_text(e, lang)}
        status = _status(e)
    return page(request, "audit.html", ctx, status)


def docs(request: Request):
    """The JSON API in the page's language: each endpoint, what it gives, its parameters in words
    (the interactive Swagger UI, whose own interface is English, is linked)."""
    lang = lang_of(request)
    try:
        lang = _lang_only(request)
    except LiurenError as e:
        return page_error(request, e, lang=lang)
    w, fields = L.WORDS[lang], L.FIELDS[lang]
    eps = []
    for path, ops in request.app.openapi()["paths"].items():
        if path in w["endpoints"] and "get" in ops:
            names = [x["name"] for x in ops["get"].get("parameters", [])]
            eps.append({"path": path, "anchor": path.strip("/").replace("/", "-").replace("{", "").replace("}", ""),
                        "text": w["endpoints"][path],
                        "params": [(k, fields.get(k.replace("_", "-"), k)) for k in names]})
    return page(request, "docs.html", {"lang": lang, "endpoints": eps})


def swagger(request: Request):
    from fastapi.openapi.docs import get_swagger_ui_html
    return get_swagger_ui_html(openapi_url=request.app.openapi_url, title="liuren API",
                               swagger_js_url="/static/vendor/swagger-ui/swagger-ui-bundle.js",
                               swagger_css_url="/static/vendor/swagger-ui/swagger-ui.css",
                               swagger_favicon_url="/static/favicon.svg")


def licences(request: Request):
    """The vendored scripts and their licences, in the page's language (from static/vendor/VENDOR.md's table)."""
    lang = lang_of(request)
    try:
        lang = _lang_only(request)
    except LiurenError as e:
        return page_error(request, e, lang=lang)
    rows = []
    for line in (HERE / "static" / "vendor" / "VENDOR.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and line.startswith("|") and "/" in cells[0] and not cells[0].startswith("---"):
            rows.append({"file": cells[0], "package": cells[1], "version": cells[2], "licence": cells[3].split(" (")[0]})
    return page(request, "licences.html", {"lang": lang, "rows": rows})


def healthz():
    return PlainTextResponse("ok")


# ====================================================================== the JSON twins
def api_cast(request: Request):
    return api(lambda: SafeJSON(_svc(request).cast(P.cast_kwargs(params(request, P.CAST_KEYS))).to_dict()))


def api_judge(request: Request):
    return api(lambda: SafeJSON(_svc(request).judge_json(params(request, P.BOARD_KEYS))))


def api_why(request: Request, rule: str):
    return api(lambda: SafeJSON(_svc(request).why_json(rule, params(request, P.WHY_KEYS))))


def api_trace(request: Request):
    def go():
        p = params(request, P.TRACE_KEYS)
        fmt = p.pop("format", "json")
        text = _svc(request).trace_text(p, fmt)
        media = {"json": "application/json", "graphml": "application/xml"}.get(fmt, "text/plain")
        return Response(text, media_type=media + "; charset=utf-8")
    return api(go)


def api_rules(request: Request):
    return api(lambda: SafeJSON(_svc(request).rules_json(params(request, P.API_RULES_KEYS, multi={"book"}))))


def api_rule(request: Request, rule: str):
    def go():
        p = params(request, P.LANG_KEYS)
        return SafeJSON(_svc(request).rule_json(_rule_key(rule), p.get("lang")))
    return api(go)


def api_lookup(request: Request):
    def go():
        p = params(request, P.LOOKUP_KEYS)
        return SafeJSON(_svc(request).lookup_json(p.get("symbol"), p.get("category")))
    return api(go)


def api_questions(request: Request):
    return api(lambda: (params(request, ()), SafeJSON(_svc(request).questions_json()))[1])


def api_practice(request: Request):
    return api(lambda: SafeJSON(drill.practice_json(_svc(request), params(request, P.PRACTICE_KEYS, multi={"ge"}))))


def api_names(request: Request):
    return api(lambda: (params(request, ()), SafeJSON(_svc(request).names()))[1])


def api_find(request: Request):
    try:
        p = params(request, FINDWEB.FIND_KEYS, long=P.LONG)
        return SafeJSON(FINDWEB.api_find(request.app.state.finder, p, L.check_lang(p.get("lang"))))
    except LiurenError as e:
        return api_error(e, _find_status(e))


def api_audit(request: Request):
    try:
        p = params(request, AV.AUDIT_KEYS, multi=set())
        return SafeJSON(AV.api_audit(request.app.state.audit_runs, p, L.check_lang(p.get("lang"))))
    except LiurenError as e:
        return api_error(e, 503 if isinstance(e, AV.NoRun) else _status(e))


# ====================================================================== the routes
HTML, NOSCHEMA = dict(response_class=HTMLResponse), dict(include_in_schema=False)
ROUTES = (
    # path, view, what OpenAPI says of it
    ("/", index, dict(HTML, summary="the form: a moment or an explicit board")),
    ("/board", board, dict(HTML, summary="the board, its judgments, a chain (why=…)")),
    ("/rules", rules, dict(HTML, summary="browse the KB by book, kind, name")),
    ("/rules/{rule:path}", rule, dict(HTML, summary="one rule: quote, conditions, examples")),
    ("/practice", practice, dict(HTML, summary="a drill: the 四課, then the 三傳 and the gate, then the 格")),
    ("/practice/sheet", practice_sheet, dict(HTML, summary="a printable worksheet: n lessons and their answer key")),
    ("/api/cast", api_cast, dict(summary="the board (liuren cast --json)", keys=P.CAST_KEYS)),
    ("/api/judge", api_judge, dict(summary="the judgment (liuren judge --json); why=RULE adds its chain", keys=P.BOARD_KEYS)),
    ("/api/why/{rule:path}", api_why, dict(summary="HOW or WHY-NOT (liuren why RULE --format json)", keys=P.WHY_KEYS)),
    ("/api/trace", api_trace, dict(summary="the whole trace (liuren trace --format graphml|json|dot|mermaid); why=RULE: that rule's chain only",
                                   keys=P.TRACE_KEYS)),
    ("/api/rules", api_rules, dict(summary="the rules (liuren rules list --json; also book=, name=)", keys=P.API_RULES_KEYS)),
    ("/api/rules/{rule:path}", api_rule, dict(summary="one rule (liuren rules show RULE --json)", keys=P.LANG_KEYS)),
    ("/api/lookup", api_lookup, dict(summary="類相 of a branch, stem or general (liuren lookup SYMBOL --json)", keys=P.LOOKUP_KEYS)),
    ("/api/questions", api_questions, dict(summary="the question procedures (liuren questions)")),
    ("/api/practice", api_practice, dict(summary="a practice lesson (without its answer) and, with an answer, its check, step by step",
                                         keys=P.PRACTICE_KEYS)),
    ("/api/names", api_names, dict(summary="every rule and entry name (for the search box)")),
    ("/find", find_page, dict(HTML, summary="where does it fire? boards of the whole space")),
    ("/api/find", api_find, dict(summary="where does it fire? (liuren find --json)", keys=FINDWEB.FIND_KEYS, own=P.FIND_PARAMS)),
    ("/audit", audit_page, dict(HTML, summary="the KB audit: the findings of the last saved run")),
    ("/api/audit", api_audit, dict(summary="the KB audit's findings (liuren audit --json)", keys=AV.AUDIT_KEYS, own=P.AUDIT_PARAMS)),
    ("/docs", docs, NOSCHEMA),
    ("/docs/swagger", swagger, NOSCHEMA),
    ("/licences", licences, dict(HTML, **NOSCHEMA)),
    ("/healthz", healthz, NOSCHEMA),
)


def create_app(kb=None, warm=True):
    """The app for one KB (None: the installed kb/), its network compiled now.  Only wiring: the
    state the views share (the application object, whose lock lets one judgment at a time use the
    experta network; the finder's index; the audit's saved runs), the middleware, the error
    handlers and the routes of ROUTES."""
    app = FastAPI(title="liuren", version="0.1.0", docs_url=None, redoc_url=None,
                  description="大六壬: the board, the judgments and their chains (the JSON the CLI prints).")
    app.state.svc = svc = S.Service(kb, warm=warm)
    app.state.finder = FIND.Finder(svc.kb_dir)
    app.state.audit_runs = AV.Runs()
    # responses over 1 kB go compressed to a client that accepts gzip (a judgment's JSON is ~1 MB)
    app.add_middleware(GZipMiddleware, minimum_size=1000)
    app.middleware("http")(nosniff)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(Exception, on_bug)
    app.add_api_route("/static/app.css", stylesheet, methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    for path, view, how in ROUTES:
        how = dict(how)
        keys, own = how.pop("keys", None), how.pop("own", None)
        if keys is not None:
            how["openapi_extra"] = _doc(keys, own)
        app.add_api_route(path, view, methods=["GET"], **how)
    app.openapi = functools.partial(_openapi, app)
    return app


def _openapi(app):
    """FastAPI's schema, with the path's own parameters ({rule}) described from the table too."""
    if app.openapi_schema is None:
        schema = FastAPI.openapi(app)
        for ops in schema["paths"].values():
            for op in ops.values():
                for prm in op.get("parameters", []):
                    if not prm.get("description") and prm["name"] in P.PARAMS:
                        prm["description"] = P.PARAMS[prm["name"]].help("zh")
    return app.openapi_schema


def _doc(keys, own=None):
    """The query parameters of an endpoint for OpenAPI (read by the handler itself, unvalidated by
    FastAPI), each described from the one table of parameters (app/params.py) in zh, the default;
    `own`: a page's own table (find's), read first."""
    out = []
    for k in keys:
        p = (own or {}).get(k) or P.PARAMS[k]
        schema = {"type": "string", **({"enum": list(p.check)} if p.check else {})}
        if p.type == "multi":
            schema = {"type": "array", "items": schema}
        out.append({"name": k, "in": "query", "required": False, "description": p.help("zh"), "schema": schema,
                    **({"explode": True} if p.type == "multi" else {})})
    return {"parameters": out}


def _options():
    from liuren.app.engine import OPTIONS
    return {k: v[0] for k, v in OPTIONS.items()}


def _variant_entries(svc):
    return [{"id": e.id, "name": e.name, "variants": [{"id": v["id"], "label": v.get("label") or v["id"]} for v in e.variants]}
            for e in svc.kb.entries.values() if e.variants][:200]


def app_from_env():
    """The app of a `liuren serve` worker process (the KB comes from the parent's --kb)."""
    return create_app(os.environ.get(KB_ENV) or None)
