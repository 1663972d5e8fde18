"""Serve the review page on 127.0.0.1 until Ctrl-C or SIGTERM, then rebuild the run's files.

The socket is bound and listening before the URL is printed, so a script (or a test) that
reads the URL can open it at once; ``port`` 0 takes a free one.
"""

from __future__ import annotations

import signal
import socket
import webbrowser
from collections.abc import Callable

import uvicorn

from extractor.page.app import make_app
from extractor.page.session import ReviewSession

HOST = "127.0.0.1"


def listen(port: int) -> socket.socket:
    """The page's socket on 127.0.0.1, listening (an OSError when the port is taken)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, port))
    sock.listen(128)
    return sock


def serve(
    session: ReviewSession,
    sock: socket.socket,
    announce: Callable[[str], None],
    open_browser: bool = False,
) -> list[str]:
    """Run the page on ``sock`` (:func:`listen`) until interrupted; returns what the final
    rebuild wrote."""
    bound = sock.getsockname()[1]
    app, token = make_app(session, bound)
    url = f"http://{HOST}:{bound}/?token={token}"
    # Set before the URL is printed (a script that reads it may stop the page at once), and for
    # SIGINT too (a command started in the background inherits it ignored).
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    stop = _Stop(uvicorn.Server(config))
    previous = {number: signal.signal(number, stop) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        try:
            announce(url)
            if open_browser:
                webbrowser.open(url)
            stop.server.run(sockets=[sock])
        finally:
            sock.close()
        stop.serving = False
        return session.rebuild()
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


class _Stop:
    """What Ctrl-C or SIGTERM does: ends the page while it starts or serves, interrupts the
    rebuild after.

    While uvicorn serves, its own handler stops it (finishing the request in flight) and then
    raises the signal again for the handler it found: this one. Before uvicorn has installed its
    handler, a stop only asks the server to end: an exception raised there could land anywhere
    in the event loop's start-up. During the rebuild a stop is an exception, not a kill: each
    file being written is removed, not left as a temporary, and the next rebuild writes it.
    """

    def __init__(self, server: uvicorn.Server) -> None:
        self.server = server
        self.serving = True

    def __call__(self, signum: int, frame: object) -> None:
        if self.serving:
            self.server.should_exit = True
        else:
            raise KeyboardInterrupt
