"""Slow clients cannot stall ``yacht-daily serve`` as a self-hoster exposes it (two workers, the
default worker class): 50 connections that send their request a byte at a time and never finish
it (half stop in their headers, half in a JSON body), while /healthz and a game keep answering.

The answers are asserted to arrive while every slow connection is still open, on a client
timeout far below the 30 s the slow connections used to stall the server for. The 1 s bound of
the issue is measured, not asserted (bench/bench_slow_clients.py, docs/performance.md).
"""

import contextlib
import http.client
import json
import select
import socket
import threading

from serving import ServeProcess

SLOW_CONNECTIONS = 50
CLIENT_TIMEOUT = 10.0
DRIP_PAUSE = 0.2
HEADERS_START = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
BODY_START = (b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              b"Content-Type: application/json\r\nContent-Length: 4096\r\n\r\n{\"ruleset\": ")


class SlowClients:
    """Connections that send one more byte of their unfinished request every ``DRIP_PAUSE``."""

    def __init__(self, port: int, count: int):
        """Open ``count`` connections, each with the start of a request."""
        self.connections = []
        for number in range(count):
            connection = socket.create_connection(("127.0.0.1", port), timeout=CLIENT_TIMEOUT)
            connection.sendall(HEADERS_START if number % 2 else BODY_START)
            self.connections.append(connection)
        self._stop = threading.Event()
        self._dripper = threading.Thread(target=self._drip, daemon=True)
        self._dripper.start()

    def _drip(self) -> None:
        """Send one byte on each connection, again and again, never ending a request."""
        while not self._stop.wait(DRIP_PAUSE):
            for connection in self.connections:
                with contextlib.suppress(OSError):  # the server may close it in the end
                    connection.send(b"a")

    def still_open(self) -> int:
        """How many connections the server neither answered nor closed."""
        readable, _, _ = select.select(self.connections, [], [], 0)
        return len(self.connections) - len(readable)

    def close(self) -> None:
        """Stop dripping and close every connection."""
        self._stop.set()
        self._dripper.join()
        for connection in self.connections:
            connection.close()


def request(port: int, method: str, path: str, body=None, cookie=None) -> tuple[int, dict, str]:
    """One request on a new connection; (status, JSON answer, the cookie it set or was sent)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=CLIENT_TIMEOUT)
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = cookie
    try:
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        answer = json.loads(response.read())
        set_cookie = response.getheader("Set-Cookie")
    finally:
        connection.close()
    return response.status, answer, set_cookie.split(";", 1)[0] if set_cookie else cookie


def test_fifty_slow_clients_do_not_stall_health_or_a_game(ops_dir, serve_data_dir, clock_file,
                                                          play_date):
    """With 50 slow connections held open, /healthz answers and a game starts, rolls and
    scores; the slow connections are all still open afterwards."""
    server = ServeProcess(ops_dir, serve_data_dir, clock_file, "--workers", "2")
    slow = SlowClients(server.port, SLOW_CONNECTIONS)
    try:
        assert request(server.port, "GET", "/healthz")[:2] == (200, {"status": "ok"})
        status, answer, cookie = request(server.port, "POST", "/api/v1/games",
                                         {"ruleset": "yahtzee", "date": play_date})
        assert status == 201
        game = answer["game"]["id"]
        status, answer, _ = request(server.port, "POST", f"/api/v1/games/{game}/roll",
                                    {"roll": 0}, cookie)
        assert status == 200 and len(answer["game"]["dice"]) == 5
        status, answer, _ = request(server.port, "POST", f"/api/v1/games/{game}/score",
                                    {"roll": 1, "category": "chance"}, cookie)
        assert status == 200 and answer["game"]["next_action"] == 2
        assert request(server.port, "GET", "/healthz")[0] == 200
        assert slow.still_open() == SLOW_CONNECTIONS
    finally:
        slow.close()
        server.stop()
    assert "Traceback" not in server.log()
