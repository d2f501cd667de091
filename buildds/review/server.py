"""Serving the review app with uvicorn on 127.0.0.1 only.

:func:`bind` opens the listening socket first (port 0: any free port), so the URL printed
names the real port and a port in use is a clear error before anything starts;
:func:`serve` runs uvicorn on it until Ctrl-C; :func:`running` runs it in a thread (tests,
notebooks) and yields the base URL.
"""

from __future__ import annotations

import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["HOST", "bind", "running", "serve"]

#: the only address the app listens on
HOST = "127.0.0.1"


def bind(port: int) -> socket.socket:
    """A listening TCP socket on 127.0.0.1:``port``; OSError when the port is taken."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def _server(app: Any) -> Any:
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False)
    return uvicorn.Server(config)


def serve(app: Any, sock: socket.socket) -> None:
    """Serve ``app`` on ``sock`` until interrupted: a Ctrl-C is a KeyboardInterrupt (exit
    130). uvicorn catches the signal, shuts down and raises it again; should that raise be
    lost on the way out of its event loop (seen on a loaded machine: exit 0), the signal it
    recorded is raised here."""
    server = _server(app)
    server.run(sockets=[sock])
    if signal.SIGINT in getattr(server, "_captured_signals", ()):
        raise KeyboardInterrupt


@contextmanager
def running(app: Any, port: int = 0) -> Iterator[str]:
    """Serve ``app`` from a thread while the block runs; yields ``http://127.0.0.1:<port>``."""
    sock = bind(port)
    server = _server(app)
    server.install_signal_handlers = lambda: None  # older uvicorn; newer skips off the main thread
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the review server did not start")
        time.sleep(0.02)
    try:
        yield f"http://{HOST}:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
