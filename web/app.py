"""The teaching web app (`liuren serve`): FastAPI on uvicorn, pages rendered by Jinja2.

Every page has a JSON twin with the same parameters (/board ↔ /api/judge …); both are built by
web.service from the project's own functions.  Bad input: HTTP 400 with the CLI's one-line
message (JSON for /api, a visible message on a page); nothing the user passed is dropped, and
everything echoed is escaped (Jinja2 autoescape; JSON in pages via service.json_script).
"""
from __future__ import annotations

import datetime as dt
import os
import pathlib
from urllib.parse import quote, urlencode

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from uvicorn.protocols.http.h11_impl import H11Protocol

from liuren.errors import JudgmentTimeout, LiurenError

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


def create_app(kb=None, warm=True):
    """The app for one KB (None: the installed kb/), its network compiled now."""
    svc = S.Service(kb, warm=warm)
    app = FastAPI(title="liuren", version="0.1.0", docs_url=None, redoc_url=None,
                  description="大六壬: the board, the judgments and their chains (the JSON the CLI prints).")
    app.state.svc = svc
    # responses over 1 kB go compressed to a client that accepts gzip (a judgment's JSON is ~1 MB)
    from starlette.middleware.gzip import GZipMiddleware
    app.add_middleware(GZipMiddleware, minimum_size=1000)

    @app.get("/static/app.css", include_in_schema=False)
    def stylesheet():
        # the stylesheet of the board and judgment fragments, which explain/ owns (notebooks inline it)
        return Response(H.stylesheet(), media_type="text/css")

    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.middleware("http")
    async def _headers(request, call_next):
        resp = await call_next(request)
        resp.headers["X-Content-Type-Options"] = "nosniff"
        return resp

    # ------------------------------------------------------------------ errors
    def api_error(e, status=400):
        return SafeJSON({"error": str(e)}, status_code=status)

    def page_error(request, e, status=400, lang="zh"):
        ctx = {"message": _named(L.error_text(e, lang), lang), "params": list(request.query_params.multi_items()), "path": request.url.path,
               "lang": lang, "w": L.WORDS[lang], "fields": L.FIELDS[lang], "qs_lang": _lang_links(request),
               "back": V.back_link(request.url.path, request.query_params.multi_items(), request.headers.get("referer"),
                                   str(request.base_url), lang),
               "choices": _choices(request, e, lang)}
        return templates.TemplateResponse(request, "error.html", ctx, status_code=status)

    def _named(message, lang):
        """A message naming entries by id (the nearest names to a typo) names them by their names."""
        import re as _re
        return _re.sub(r"(?<![\w-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])",
                       lambda m: L.display_name(svc.kb.entries[m.group(0)], lang) if m.group(0) in svc.kb.entries
                       else m.group(0), message)

    def _choices(request, e, lang):
        """For a name several entries share (斬關, 蕪淫): each of them, linked (the rule page, or the
        board's chain of each)."""
        import re as _re
        m = _re.match(r"""^(['"])(.*?)\1 names several entries""", str(e))
        if not m:
            return None
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

    @app.exception_handler(RequestValidationError)
    async def _validation(request, exc):
        msg = "; ".join(f"{'.'.join(str(x) for x in err.get('loc', ()))}: {err.get('msg')}" for err in exc.errors())
        if request.url.path.startswith("/api/"):
            return api_error(msg)
        return page_error(request, msg)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request, exc):
        msg = f"{exc.status_code}: {request.url.path!r} {exc.detail}" if exc.status_code == 404 else str(exc.detail)
        if request.url.path.startswith("/api/"):
            return api_error(msg, exc.status_code)
        return page_error(request, msg, exc.status_code, lang_of(request))

    @app.exception_handler(Exception)
    async def _any(request, exc):       # a bug: one line, never a traceback
        msg = f"internal error ({type(exc).__name__}); the server log has the details"
        if request.url.path.startswith("/api/"):
            return api_error(msg, 500)
        return page_error(request, msg, 500)

    def params(request, allowed, multi=None, long=None):
        return P.read_params(request.query_params.multi_items(), allowed, len(request.url.query), multi, long)

    def lang_of(request):
        v = request.query_params.get("lang")
        try:
            return L.check_lang(v)
        except LiurenError:
            return "zh"

    def page(request, name, ctx, status=200):
        lang = ctx.get("lang", "zh")
        ctx.setdefault("w", L.WORDS[lang])
        ctx.setdefault("qs_lang", _lang_links(request))
        return templates.TemplateResponse(request, name, ctx, status_code=status)

    def _lang_links(request):
        out = {}
        items = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"]
        from urllib.parse import urlencode, quote
        path = quote(request.url.path)
        for lg in L.LANGS:
            q = urlencode(items + ([("lang", lg)] if lg != "zh" else []))
            out[lg] = path + ("?" + q if q else "")
        return out

    # ------------------------------------------------------------------ pages
    @app.get("/", response_class=HTMLResponse, summary="the form: a moment or an explicit board")
    def index(request: Request):
        lang = lang_of(request)
        try:
            p = params(request, ("lang",))
            L.check_lang(p.get("lang"))
        except LiurenError as e:
            return page_error(request, e, lang=lang)
        now = dt.datetime.now().astimezone()
        return page(request, "index.html", {
            "lang": lang, "now": now.strftime("%Y-%m-%dT%H:%M"), "zone": str(now.tzinfo),
            "questions": svc.questions_json(), "options": _options(),
            "jiazi": JIAZI, "branches": BRANCHES, "variant_entries": _variant_entries(svc),
            "name_of": lambda key, fallback: L.name_of(svc.kb, key, fallback, lang)})

    @app.get("/board", response_class=HTMLResponse, summary="the board, its judgments, a chain (why=…)")
    def board(request: Request):
        lang = lang_of(request)
        try:
            p = params(request, P.BOARD_KEYS)
            lang = L.check_lang(p.get("lang"))
            P.flag(p, "trace")          # trace=x: refused here as /api/judge refuses it
            used = None
            if "moment" in p and any(k in p for k in ("day", "jiang", "hour", "on")):
                # the form fills in the moment by itself: a student who typed a day and 月將加占時
                # means that board, and the page says which it used
                p = {k: v for k, v in p.items() if k not in ("moment", "tz")}
                used = "board"
            if not any(k in p for k in ("moment", "day", "jiang", "hour", "on")):
                # "now" becomes a moment in the URL, so the link shows this board tomorrow too
                from liuren.app.engine import now
                q = P.query_string(p, moment=now(p.get("tz")).isoformat(timespec="minutes"))
                return RedirectResponse("/board?" + q, status_code=303)
            r = svc.judged(p)
            groups = H.judgment_groups(svc.kb, r, svc.item_filter(p), lang, placements=bool(P.flag(p, "all")))
        except LiurenError as e:
            return page_error(request, e, _status(e), lang)
        ctx = _board_ctx(request, p, r, groups, lang)
        ctx["used"] = used
        status = 200
        if "why" in p:
            try:
                e = svc.entry(p["why"])
                ctx["chain"] = svc.chain_view(r, e.id, lang)
                if not ctx["chain"]["report"].get("fired"):
                    from liuren.app.contrast import contrast
                    ctx["chain"]["report"]["contrast"] = contrast(app.state.finder, p, r.board, e.id, lang)
                ctx["why"] = svc.typed_name(e, lang)
            except LiurenError as err:
                ctx["chain_error"] = _named(L.error_text(err, lang), lang)
                ctx["chain_choices"] = _choices(request, err, lang)
                status = 400
        return page(request, "board.html", ctx, status)

    def _board_ctx(request, p, r, groups, lang):
        books = sorted({b for g in groups for i in g["entries"] for b in i["books"]})
        return {"lang": lang, "p": p, "r": r, "b": H.board_parts(svc.kb, r.board, lang), "groups": groups,
                "findings": H.findings(svc.kb, r, lang=lang), "views": H.two_views(svc.kb, groups, lang), "books": books, "valences": svc._valences,
                "summary": H.summary(groups, lang),
                "kinds": [g["kind"] for g in groups],
                "qs": P.query_string(p, drop=("why",)), "qs_all": P.query_string(p),
                "qs_cast": P.query_string({k: v for k, v in p.items() if k in P.CAST_KEYS}),
                "qs_judge": P.query_string({k: v for k, v in p.items() if k in P.CAST_KEYS + P.JUDGE_KEYS}),
                "why": p.get("why", ""), "params": list(request.query_params.multi_items())}

    @app.get("/rules", response_class=HTMLResponse, summary="browse the KB by book, kind, name")
    def rules(request: Request):
        lang = lang_of(request)
        try:
            p = params(request, ("kind", "source", "book", "name", "lang", "page"), multi={"book"})
            lang = L.check_lang(p.get("lang"))
            view = V.rules_view(svc, p, lang)
        except LiurenError as e:
            return page_error(request, e, lang=lang)
        from liuren.app.engine import RULE_KINDS
        return page(request, "rules.html", {"lang": lang, "p": p, "kinds": RULE_KINDS, **view})

    @app.get("/rules/{rule:path}", response_class=HTMLResponse, summary="one rule: quote, conditions, examples")
    def rule(request: Request, rule: str):
        lang = lang_of(request)
        try:
            p = params(request, ("lang",))
            lang = L.check_lang(p.get("lang"))
            if len(rule) > P.MAX_VALUE:
                raise LiurenError(f"rule {rule[:40]!r}… is too long ({len(rule)} characters; at most {P.MAX_VALUE})")
            v = V.rule_view(svc, rule, lang)
        except LiurenError as e:
            choices = _choices(request, e, lang)
            if choices:             # a name several entries share: a page that lists them
                return page(request, "rules_shared.html", {"lang": lang, "name": rule, "choices": choices})
            return page_error(request, e, lang=lang)
        return page(request, "rule.html", {"lang": lang, "v": v,
                                           "where": FINDWEB.rule_block(app.state.finder, v["e"].id, lang)})

    @app.get("/practice", response_class=HTMLResponse, summary="a drill: the 四課, then the 三傳 and the gate, then the 格")
    def practice(request: Request):
        lang = lang_of(request)
        try:
            p = params(request, P.PRACTICE_KEYS, multi={"ge"})
            lang = L.check_lang(p.get("lang"))
            if drill.practice_seed(p) is None:
                import secrets
                q = P.query_string(p, seed=str(secrets.randbelow(10 ** 6)))
                return RedirectResponse("/practice?" + q, status_code=303)
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
            "ticked": set(p.get("ge", [])), "hidden": keep,
            "board_qs": P.query_string(dict(c["lesson"], lang=lang) if lang != "zh" else c["lesson"]),
            "next_qs": P.query_string({**keep, "seed": str((c["seed"] + 1) % 10 ** 9)}),
            "sheet_qs": P.query_string(sheet)})

    @app.get("/practice/sheet", response_class=HTMLResponse, summary="a printable worksheet: n lessons and their answer key")
    def practice_sheet(request: Request):
        lang = lang_of(request)
        try:
            p = params(request, ("seed", "n", "gate", "shehai", "lang"))
            lang = L.check_lang(p.get("lang"))
            sheet = drill.worksheet(svc, p, lang)
        except LiurenError as e:
            return page_error(request, e, _status(e), lang)
        for x in sheet["lessons"]:
            x["b"] = H.board_parts(svc.kb, x["board"], lang, show_chuan=False)
        return page(request, "practice_sheet.html", {"lang": lang, "p": p, "sheet": sheet})

    # ------------------------------------------------------------------ JSON API
    def api(fn):
        try:
            return fn()
        except LiurenError as e:
            return api_error(e, _status(e))

    @app.get("/api/cast", openapi_extra=_doc(P.CAST_KEYS), summary="the board (liuren cast --json)")
    def api_cast(request: Request):
        return api(lambda: SafeJSON(svc.cast(P.cast_kwargs(params(request, P.CAST_KEYS))).to_dict()))

    @app.get("/api/judge", openapi_extra=_doc(P.BOARD_KEYS), summary="the judgment (liuren judge --json); why=RULE adds its chain")
    def api_judge(request: Request):
        return api(lambda: SafeJSON(svc.judge_json(params(request, P.BOARD_KEYS))))

    @app.get("/api/why/{rule:path}", openapi_extra=_doc(P.CAST_KEYS + P.JUDGE_KEYS + ("lang",)), summary="HOW or WHY-NOT (liuren why RULE --format json)")
    def api_why(request: Request, rule: str):
        return api(lambda: SafeJSON(svc.why_json(rule, params(request, P.CAST_KEYS + P.JUDGE_KEYS + ("lang",)))))

    @app.get("/api/trace", openapi_extra=_doc(P.CAST_KEYS + P.JUDGE_KEYS + ("format", "why")), summary="the whole trace (liuren trace --format graphml|json|dot|mermaid); why=RULE: that rule's chain only")
    def api_trace(request: Request):
        def go():
            p = params(request, P.CAST_KEYS + P.JUDGE_KEYS + ("format", "why"))
            fmt = p.pop("format", "json")
            text = svc.trace_text(p, fmt)
            media = {"json": "application/json", "graphml": "application/xml"}.get(fmt, "text/plain")
            return Response(text, media_type=media + "; charset=utf-8")
        return api(go)

    @app.get("/api/rules", openapi_extra=_doc(("kind", "source", "book", "name", "lang")), summary="the rules (liuren rules list --json; also book=, name=)")
    def api_rules(request: Request):
        return api(lambda: SafeJSON(svc.rules_json(params(request, ("kind", "source", "book", "name", "lang"), multi={"book"}))))

    @app.get("/api/rules/{rule:path}", openapi_extra=_doc(("lang",)), summary="one rule (liuren rules show RULE --json)")
    def api_rule(request: Request, rule: str):
        def go():
            p = params(request, ("lang",))
            if len(rule) > P.MAX_VALUE:
                raise LiurenError(f"rule {rule[:40]!r}… is too long ({len(rule)} characters; at most {P.MAX_VALUE})")
            return SafeJSON(svc.rule_json(rule, p.get("lang")))
        return api(go)

    @app.get("/api/lookup", openapi_extra=_doc(("symbol", "category")), summary="類相 of a branch, stem or general (liuren lookup SYMBOL --json)")
    def api_lookup(request: Request):
        def go():
            p = params(request, ("symbol", "category"))
            return SafeJSON(svc.lookup_json(p.get("symbol"), p.get("category")))
        return api(go)

    @app.get("/api/questions", summary="the question procedures (liuren questions)")
    def api_questions(request: Request):
        return api(lambda: (params(request, ()), SafeJSON(svc.questions_json()))[1])

    @app.get("/api/practice", openapi_extra=_doc(P.PRACTICE_KEYS), summary="a practice lesson (without its answer) and, with an answer, its check, step by step")
    def api_practice(request: Request):
        return api(lambda: SafeJSON(drill.practice_json(svc, params(request, P.PRACTICE_KEYS, multi={"ge"}))))

    @app.get("/api/names", summary="every rule and entry name (for the search box)")
    def api_names(request: Request):
        return api(lambda: (params(request, ()), SafeJSON(svc.names()))[1])

    # ------------------------------------------------------------------ where does it fire? (find)
    from liuren.app import find as FIND
    from liuren.app import findweb as FINDWEB
    if getattr(app.state, "finder", None) is None:
        app.state.finder = FIND.Finder(svc.kb_dir)

    def _find_status(e):
        return 503 if isinstance(e, FIND.NotBuilt) else _status(e)

    @app.get("/find", response_class=HTMLResponse, summary="where does it fire? boards of the whole space")
    def find_page(request: Request):
        lang = lang_of(request)
        ctx, status = {"lang": lang, "p": {}}, 200
        try:
            p = params(request, FINDWEB.FIND_KEYS, long=P.LONG)
            lang = L.check_lang(p.get("lang"))
            ctx = dict(FINDWEB.page_find(app.state.finder, p, lang), lang=lang)
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

    @app.get("/api/find", openapi_extra=_doc(FINDWEB.FIND_KEYS, P.FIND_PARAMS), summary="where does it fire? (liuren find --json)")
    def api_find(request: Request):
        try:
            p = params(request, FINDWEB.FIND_KEYS, long=P.LONG)
            return SafeJSON(FINDWEB.api_find(app.state.finder, p, L.check_lang(p.get("lang"))))
        except LiurenError as e:
            return api_error(e, _find_status(e))

    # ------------------------------------------------------------------ the KB audit (a saved run)
    from liuren.app import auditview as AV
    if getattr(app.state, "audit_runs", None) is None:
        app.state.audit_runs = AV.Runs()

    @app.get("/audit", response_class=HTMLResponse, summary="the KB audit: the findings of the last saved run")
    def audit_page(request: Request):
        lang = lang_of(request)
        ctx, status = {"lang": lang, "p": {}}, 200
        try:
            p = params(request, AV.AUDIT_KEYS, multi=set())
            lang = L.check_lang(p.get("lang"))
            ctx = dict(AV.page_audit(app.state.audit_runs, p, lang), lang=lang)
        except AV.NoRun:
            ctx, status = {"lang": lang, "missing": True}, 503
        except LiurenError as e:
            ctx = {"lang": lang, "error": L.error_text(e, lang)}
            status = _status(e)
        return page(request, "audit.html", ctx, status)

    @app.get("/api/audit", openapi_extra=_doc(AV.AUDIT_KEYS, P.AUDIT_PARAMS), summary="the KB audit's findings (liuren audit --json)")
    def api_audit(request: Request):
        try:
            p = params(request, AV.AUDIT_KEYS, multi=set())
            return SafeJSON(AV.api_audit(app.state.audit_runs, p, L.check_lang(p.get("lang"))))
        except LiurenError as e:
            return api_error(e, 503 if isinstance(e, AV.NoRun) else _status(e))

    @app.get("/docs", include_in_schema=False)
    def docs(request: Request):
        """The JSON API in the page's language: each endpoint, what it gives, its parameters in words
        (the interactive Swagger UI, whose own interface is English, is linked)."""
        lang = lang_of(request)
        try:
            lang = L.check_lang(params(request, ("lang",)).get("lang"))
        except LiurenError as e:
            return page_error(request, e, lang=lang)
        w, fields = L.WORDS[lang], L.FIELDS[lang]
        eps = []
        for path, ops in app.openapi()["paths"].items():
            if path in w["endpoints"] and "get" in ops:
                names = [x["name"] for x in ops["get"].get("parameters", [])]
                eps.append({"path": path, "anchor": path.strip("/").replace("/", "-").replace("{", "").replace("}", ""),
                            "text": w["endpoints"][path],
                            "params": [(k, fields.get(k.replace("_", "-"), k)) for k in names]})
        return page(request, "docs.html", {"lang": lang, "endpoints": eps})

    @app.get("/docs/swagger", include_in_schema=False)
    def swagger():
        from fastapi.openapi.docs import get_swagger_ui_html
        return get_swagger_ui_html(openapi_url=app.openapi_url, title="liuren API",
                                   swagger_js_url="/static/vendor/swagger-ui/swagger-ui-bundle.js",
                                   swagger_css_url="/static/vendor/swagger-ui/swagger-ui.css",
                                   swagger_favicon_url="/static/favicon.svg")

    @app.get("/licences", response_class=HTMLResponse, include_in_schema=False)
    def licences(request: Request):
        """The vendored scripts and their licences, in the page's language (from static/vendor/VENDOR.md's table)."""
        lang = lang_of(request)
        try:
            lang = L.check_lang(params(request, ("lang",)).get("lang"))
        except LiurenError as e:
            return page_error(request, e, lang=lang)
        rows = []
        for line in (HERE / "static" / "vendor" / "VENDOR.md").read_text(encoding="utf-8").splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) >= 4 and line.startswith("|") and "/" in cells[0] and not cells[0].startswith("---"):
                rows.append({"file": cells[0], "package": cells[1], "version": cells[2], "licence": cells[3].split(" (")[0]})
        return page(request, "licences.html", {"lang": lang, "rows": rows})

    @app.get("/healthz", include_in_schema=False)
    def healthz():
        return PlainTextResponse("ok")

    def openapi():
        """FastAPI's schema, with the path's own parameters ({rule}) described from the table too."""
        if app.openapi_schema is None:
            schema = FastAPI.openapi(app)
            for ops in schema["paths"].values():
                for op in ops.values():
                    for prm in op.get("parameters", []):
                        if not prm.get("description") and prm["name"] in P.PARAMS:
                            prm["description"] = P.PARAMS[prm["name"]].help("zh")
        return app.openapi_schema
    app.openapi = openapi
    return app


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
