"""Load shedding (app/observability/admission.py): a request that waited past the queue budget is
refused with ``503 overloaded`` and ``Retry-After`` before the app sees it, while /healthz and
/readyz are always served.

Functional, not timed: the burst is made to wait by construction. Two connections that send
half a request hold the two ``sync`` workers (each blocks reading its request), the burst waits
in the listen queue well past the budget, then the held requests are finished. The latencies
this buys are measured in bench/bench_shedding.py (docs/performance.md), never asserted.
"""

import http.client
import json
import socket
import struct
import threading
import time
from pathlib import Path

import pytest
from test_observability import metric_value

from app.observability.admission import (
    LAST_DATA_RECEIVED_OFFSET,
    OVERLOADED_CODE,
    TCP_INFO_LENGTH,
    AdmissionControl,
    refused_at_accept,
    seconds_since_request_arrived,
)

CLIENT_TIMEOUT = 20.0
BUDGET_MS = 200
QUEUED_PAST_BUDGET = 1.0  # seconds the burst waits in the listen queue, far past the budget
HELD_REQUEST = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
BURST_ACTIONS = 12
BURST_HEALTH_CHECKS = ("/healthz", "/readyz", "/healthz")


class FakeConnection:
    """A connection whose TCP state says its last data arrived ``waited_ms`` ago."""

    def __init__(self, waited_ms: int):
        """Remember the wait."""
        self.waited_ms = waited_ms

    def getsockopt(self, level, option, length):
        """struct tcp_info with only ``tcpi_last_data_recv`` set."""
        info = bytearray(length)
        struct.pack_into("=I", info, LAST_DATA_RECEIVED_OFFSET, self.waited_ms)
        return bytes(info)


def served(environ, start_response):
    """The app behind the guard: 200 ``served``."""
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"served"]


def call(guard, path: str, waited_ms: int | None) -> tuple[str, dict, bytes]:
    """One request through ``guard``; (status line, headers, body)."""
    answer = {}

    def start_response(status, headers):
        """Keep the status and headers."""
        answer.update(status=status, headers=dict(headers))

    environ = {"PATH_INFO": path}
    if waited_ms is not None:
        environ["gunicorn.socket"] = FakeConnection(waited_ms)
    body = b"".join(guard(environ, start_response))
    return answer["status"], answer["headers"], body


def test_a_request_that_waited_past_the_budget_is_refused():
    """Past the budget an API request gets JSON ``overloaded``, a page plain text, both 503 with
    Retry-After; within it, or with no TCP state to read, the app serves."""
    refusals = []
    guard = AdmissionControl(served, budget=0.05, in_flight=None, refused=refusals.append)
    status, headers, body = call(guard, "/api/v1/games", waited_ms=60)
    assert status.startswith("503") and headers["Retry-After"] == "1"
    assert json.loads(body)["error"]["code"] == OVERLOADED_CODE
    status, headers, body = call(guard, "/play", waited_ms=60)
    assert status.startswith("503") and headers["Content-Type"].startswith("text/plain")
    assert call(guard, "/api/v1/games", waited_ms=48)[2] == b"served"
    assert call(guard, "/api/v1/games", waited_ms=None)[2] == b"served"
    assert refusals == ["waited", "waited"]


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/metrics", "/api/v1/tables/abc/events"])
def test_health_checks_metrics_and_streams_are_never_refused(path):
    """However long they waited."""
    guard = AdmissionControl(served, budget=0.001, in_flight=1)
    guard.slots.acquire()
    assert call(guard, path, waited_ms=10_000)[2] == b"served"


def test_a_request_that_waited_is_served_while_a_slot_is_free():
    """With slots, a wait alone refuses nothing: a worker with a free slot was slow for some
    other reason (loading its tables), and refusing would free nothing."""
    guard = AdmissionControl(served, budget=0.05, in_flight=2)
    assert call(guard, "/api/v1/games", waited_ms=500)[2] == b"served"
    guard.slots.acquire()
    guard.serving = 2  # every slot taken: the wait now counts
    assert call(guard, "/api/v1/games", waited_ms=500)[0].startswith("503")


def test_a_request_that_finds_no_slot_within_the_budget_is_refused():
    """With every slot taken for longer than the budget, a request is refused (``no-slot``);
    once a slot is free it is served."""
    refusals = []
    guard = AdmissionControl(served, budget=0.02, in_flight=1, refused=refusals.append)
    guard.slots.acquire()
    status, headers, _ = call(guard, "/api/v1/games", waited_ms=0)
    assert status.startswith("503") and refusals == ["no-slot"]
    guard.slots.release()
    assert call(guard, "/api/v1/games", waited_ms=0)[2] == b"served"
    assert guard.slots.acquire(blocking=False)  # the served request gave its slot back


def test_a_request_body_is_read_before_the_request_takes_a_slot():
    """A client sending its body slowly holds no slot while it does: the body is read first,
    and the app reads it from memory."""
    guard = AdmissionControl(None, budget=1.0, in_flight=1)
    seen = {}

    class SlowBody:
        """A request body whose read notes whether the slot is free meanwhile."""

        def read(self, size=-1):
            """The body, noting the slot's state."""
            seen["slot free while reading"] = guard.slots.acquire(blocking=False)
            guard.slots.release()
            return b'{"ruleset": "yacht"}'

    def app(environ, start_response):
        """Note the body the app reads and whether the slot is taken."""
        seen["body"] = environ["wsgi.input"].read()
        seen["slot taken while serving"] = not guard.slots.acquire(blocking=False)
        start_response("200 OK", [])
        return [b""]

    guard.app = app
    guard({"PATH_INFO": "/api/v1/games", "CONTENT_LENGTH": "20", "wsgi.input": SlowBody()},
          lambda status, headers: None)
    assert seen == {"slot free while reading": True, "body": b'{"ruleset": "yacht"}',
                    "slot taken while serving": True}


def test_the_kernel_says_how_long_a_request_has_waited():
    """On a real loopback connection, the wait read from TCP_INFO covers the time the request
    sat unread (at the kernel tick's resolution), and a unix socket gives none."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        client.sendall(b"GET / HTTP/1.1\r\n\r\n")
        time.sleep(0.2)
        connection, _ = listener.accept()
        with client, connection:
            waited = seconds_since_request_arrived({"gunicorn.socket": connection})
            assert len(connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO,
                                             TCP_INFO_LENGTH)) == TCP_INFO_LENGTH
    assert waited is not None and waited >= 0.19
    left, right = socket.socketpair()
    with left, right:
        assert seconds_since_request_arrived({"gunicorn.socket": left}) is None


def accepted_after(request: bytes, seconds: float):
    """(client, accepted connection) on loopback, ``request`` sent ``seconds`` before the
    accept."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        client.sendall(request)
        time.sleep(seconds)
        connection, _ = listener.accept()
    return client, connection


def test_a_connection_whose_request_waited_is_answered_and_closed_as_it_is_accepted():
    """Past the budget an API request is answered 503 ``overloaded`` with Retry-After and its
    connection closed, before anything parses it; a health check, a request within the budget,
    or one with nothing waiting behind it, is left unread for gunicorn."""
    refusals = []
    request = (b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
    client, connection = accepted_after(request, 0.1)
    with client:
        assert refused_at_accept(connection, 0.02, refusals.append, lambda: True)
        client.settimeout(CLIENT_TIMEOUT)
        answer = b""
        while chunk := client.recv(4096):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503 ") and b"\r\nRetry-After: 1\r\n" in head
    assert json.loads(body)["error"]["code"] == OVERLOADED_CODE
    assert refusals == ["waited"]
    days = b"GET /api/v1/days HTTP/1.1\r\nHost: x\r\n\r\n"
    for request, waited, budget, loaded in (
            (b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 0.1, 0.02, True),
            (days, 0, 5, True),
            (days, 0.1, 0.02, False)):  # nothing waits behind it: refusing would free nothing
        client, connection = accepted_after(request, waited)
        with client, connection:
            assert not refused_at_accept(connection, budget, refusals.append,
                                         lambda loaded=loaded: loaded)
            assert connection.gettimeout() is None and connection.recv(4096) == request
    assert refusals == ["waited"]


def listen_queue_length(port: int) -> int:
    """Connections waiting in the accept queue of the loopback listener on ``port``."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, state = fields[1], fields[3]
        if state == "0A" and int(local.split(":")[1], 16) == port:  # TCP_LISTEN
            return int(fields[4].split(":")[1], 16)
    raise AssertionError(f"nothing listens on port {port}")


def wait_until(condition, timeout: float = CLIENT_TIMEOUT) -> None:
    """Poll ``condition`` until it holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def send(port: int, method: str, path: str, body=None, answers=None):
    """One request on a new connection; appends (path, status, Retry-After, body) to
    ``answers``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=CLIENT_TIMEOUT)
    try:
        connection.request(method, path, json.dumps(body) if body is not None else None,
                           {"Content-Type": "application/json"})
        response = connection.getresponse()
        raw = response.read()
        answers.append((path, response.status, response.getheader("Retry-After"),
                        json.loads(raw) if raw.startswith(b"{") else raw))
    finally:
        connection.close()


def test_a_burst_past_the_budget_is_refused_while_health_checks_answer(deploy_server,
                                                                      killable_redis, play_date):
    """Both sync workers held, a burst of game creations and health checks waits in the listen
    queue past the budget: every creation is refused with 503 ``overloaded`` and Retry-After,
    every health check answers 200; then the next creation is served, and the metrics count
    the refusals."""
    server = deploy_server(killable_redis.url,
                           extra_env={"YACHT_DAILY_QUEUE_BUDGET_MS": str(BUDGET_MS)})
    holders = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(2)]
    answers, threads = [], []
    try:
        for holder in holders:
            holder.sendall(HELD_REQUEST)
        wait_until(lambda: listen_queue_length(server.port) == 0)  # each worker took one
        # The health checks queue last: every creation has requests waiting behind it, so a
        # worker that reaches it is loaded, not merely slow.
        creation_requests = [("POST", "/api/v1/games", {"ruleset": "yacht", "date": play_date})
                             ] * BURST_ACTIONS
        check_requests = [("GET", path, None) for path in BURST_HEALTH_CHECKS]
        for part in (creation_requests, check_requests):
            for method, path, body in part:
                threads.append(threading.Thread(
                    target=send, args=(server.port, method, path, body, answers)))
                threads[-1].start()
            wait_until(lambda: listen_queue_length(server.port) == len(threads))
        time.sleep(QUEUED_PAST_BUDGET)
        for holder in holders:
            holder.sendall(b"\r\n")
            holder.settimeout(CLIENT_TIMEOUT)
            assert holder.recv(64).startswith(b"HTTP/1.1 200")
        for thread in threads:
            thread.join(CLIENT_TIMEOUT)
    finally:
        for holder in holders:
            holder.close()
    creations = [answer for answer in answers if answer[0] == "/api/v1/games"]
    checks = [answer for answer in answers if answer[0] != "/api/v1/games"]
    assert len(creations) == BURST_ACTIONS and len(checks) == len(BURST_HEALTH_CHECKS)
    for _, status, retry_after, body in creations:
        assert (status, retry_after) == (503, "1")
        assert body["error"]["code"] == OVERLOADED_CODE
    assert all(status == 200 for _, status, _, _ in checks)
    fresh = []
    send(server.port, "POST", "/api/v1/games", {"ruleset": "yacht", "date": play_date}, fresh)
    assert fresh[0][1] == 201
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=CLIENT_TIMEOUT)
    connection.request("GET", "/metrics")
    metrics = connection.getresponse().read().decode()
    connection.close()
    assert metric_value(metrics, "yacht_daily_requests_shed_total", reason="waited") == \
        BURST_ACTIONS
    assert "Traceback" not in server.log()
