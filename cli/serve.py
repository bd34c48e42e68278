"""`liuren serve`: the web app on uvicorn."""
from __future__ import annotations

import os


def add_command(sub):
    s = sub.add_parser("serve", help="the teaching web app: the board, the judgments and their chains in a browser")
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    s.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port)")
    s.add_argument("--kb", metavar="DIR", help="serve another knowledge-base folder instead of the installed kb/")
    s.add_argument("--workers", type=int, default=1,
                   help="worker processes (default 1); each compiles its own network at start-up")
    s.set_defaults(fn=cmd_serve)


def cmd_serve(a):
    import socket

    import uvicorn

    from liuren.errors import InputError
    from liuren.app.engine import load_kb

    from liuren.web.app import KB_ENV, create_app, server_config
    if a.workers < 1:
        raise InputError(f"--workers {a.workers}: give 1 or more")
    if not 0 <= a.port <= 65535:
        raise InputError(f"--port {a.port}: give 0 … 65535")
    load_kb(a.kb)                                   # a malformed KB: one line, exit 2, before binding
    sock = socket.socket(socket.AF_INET6 if ":" in a.host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((a.host, a.port))
    except OSError as e:
        raise InputError(f"--host {a.host} --port {a.port}: cannot bind ({e.strerror})") from None
    sock.listen(2048)                               # connections wait in the backlog from now on
    port = sock.getsockname()[1]
    host = f"[{a.host}]" if ":" in a.host else a.host
    url = f"http://{host}:{port}/"
    config = server_config()
    if a.workers == 1:
        app = create_app(a.kb)                     # the network is compiled here, before the URL is printed
        print(f"liuren serve: {url}  (KB {app.state.svc.kb.root}; Ctrl-C stops)", flush=True)
        server = uvicorn.Server(uvicorn.Config(app, **config))
        try:
            server.run(sockets=[sock])
        except KeyboardInterrupt:               # Ctrl-C: stopped, not a traceback
            pass
    else:
        # the worker processes are new interpreters: what they must know goes by their environment
        if a.kb:
            os.environ[KB_ENV] = os.path.abspath(a.kb)
        if getattr(a, "no_cache", False):
            os.environ["LIUREN_NO_CACHE"] = "1"
        print(f"liuren serve: {url}  ({a.workers} workers, each compiling the network at start-up; Ctrl-C stops)",
              flush=True)
        # the workers share the bound socket (uvicorn's fd=): the printed port is theirs
        try:
            uvicorn.run("liuren.web.app:app_from_env", factory=True, fd=sock.fileno(), workers=a.workers, **config)
        except KeyboardInterrupt:
            pass
    return 0
