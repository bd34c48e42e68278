"""Issue 22 §3, the real server: a connection that sends nothing is closed, an over-long request
line is answered (400/414) rather than reset, and Ctrl-C stops `liuren serve` without a traceback."""
import signal
import subprocess
import socket
import time
import urllib.parse

import pytest

from helpers import start_server, stop_server


@pytest.fixture(scope="module")
def server():
    proc, url = start_server()
    yield proc, urllib.parse.urlparse(url)
    stop_server(proc)


def _connect(u):
    s = socket.create_connection((u.hostname, u.port))
    s.settimeout(30)
    return s


def test_an_idle_connection_is_closed(server):
    _, u = server
    s = _connect(u)
    t = time.monotonic()
    assert s.recv(100) == b""                     # closed by the server, not left open
    assert time.monotonic() - t < 20
    s.close()


@pytest.mark.parametrize("n", [100_000, 128 * 1024 + 1, 200_000, 1_000_000])
def test_an_over_long_request_line_is_answered(server, n):
    _, u = server
    s = _connect(u)
    try:
        s.sendall(b"GET /?q=" + b"a" * n + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass                                      # the server may stop reading once it has answered
    head = s.recv(64)
    s.close()
    assert head.startswith((b"HTTP/1.1 400", b"HTTP/1.1 414")), head


def test_ctrl_c_stops_the_server_quietly():
    proc, _ = start_server()
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()                 # never left running after the test
        raise
    err = proc.stderr.read()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
