"""Open event streams are capped per client address and per worker, on ``yacht-daily serve`` as a
self-hoster runs it (two gevent workers): the streams past a cap are refused at once (429
``too-many-streams`` per address, 503 ``streams-busy`` per worker, each with Retry-After), the
ones admitted stay open and streaming, and meanwhile ``/healthz`` and the API answer within a
second (the bound asked of the service; each is given three tries, so one scheduling hiccup of
a loaded test machine does not fail it, and the answers themselves are asserted)."""

import contextlib
import http.client
import json
import time

import pytest
from playkit import call
from serving import ServeProcess

from tests.app.tables.tablekit import create_table
from tests.conftest import JsonClient

PROMPT_SECONDS = 1.0
TRIES = 3
STREAM_TIMEOUT = 30.0


class Stream:
    """One ``GET /api/v1/tables/<id>/events`` on its own connection: its status and headers,
    the connection kept open while it streams."""

    def __init__(self, port: int, table_id: str, forwarded_for: str | None = None):
        """Open the stream and read its status line and headers (and a refusal's body)."""
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=STREAM_TIMEOUT)
        headers = {"Accept": "text/event-stream"}
        if forwarded_for:
            headers["X-Forwarded-For"] = forwarded_for
        self.connection.request("GET", f"/api/v1/tables/{table_id}/events", headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.retry_after = self.response.getheader("Retry-After")
        self.code = None
        if self.status != 200:
            self.code = json.loads(self.response.read())["error"]["code"]
            self.connection.close()

    def first_event(self) -> str:
        """The stream's opening: its ``retry:`` line and the snapshot event."""
        text = b""
        while b"event: snapshot" not in text or not text.endswith(b"\n\n"):
            text += self.response.read1(4096)
        return text.decode()

    def close(self) -> None:
        """Drop the connection."""
        self.connection.close()


def answer_promptly(port: int, path: str) -> tuple[int, dict]:
    """GET ``path`` on a new connection, answered within PROMPT_SECONDS in one of TRIES tries:
    (status, JSON answer)."""
    for attempt in range(TRIES):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PROMPT_SECONDS)
        started = time.monotonic()
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            answer = json.loads(response.read())
            if time.monotonic() - started < PROMPT_SECONDS:
                return response.status, answer
        except TimeoutError:
            if attempt == TRIES - 1:
                raise
        finally:
            connection.close()
    pytest.fail(f"{path} took a second or more {TRIES} times")


def a_table(port: int) -> str:
    """A new table's id (a player waiting for a friend)."""
    return create_table(JsonClient(f"http://127.0.0.1:{port}"), "yacht", [{"kind": "human"}])[
        "id"]


def assert_service_answers(port: int, play_date: str) -> None:
    """/healthz and the API's challenges, each within a second."""
    assert answer_promptly(port, "/healthz") == (200, {"status": "ok"})
    status, answer = answer_promptly(port, "/api/v1/challenges")
    assert status == 200 and answer["date"] == play_date


@pytest.fixture
def serve(ops_dir, serve_data_dir, clock_file, monkeypatch):
    """Start ``yacht-daily serve`` (two workers) with the stream caps given; stopped after."""
    servers = []

    def start(per_address: int, per_worker: int, **environment) -> ServeProcess:
        """A server capping streams at ``per_address`` and ``per_worker``."""
        monkeypatch.setenv("YACHT_DAILY_STREAMS_PER_ADDRESS", str(per_address))
        monkeypatch.setenv("YACHT_DAILY_STREAMS_PER_WORKER", str(per_worker))
        for name, value in environment.items():
            monkeypatch.setenv(name, value)
        servers.append(ServeProcess(ops_dir, serve_data_dir, clock_file, "--workers", "2"))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()
        assert "Traceback" not in server.log()


def test_one_address_past_its_cap_is_refused_with_429_and_the_service_answers(serve, play_date):
    server = serve(per_address=5, per_worker=400)
    table_id = a_table(server.port)
    streams = [Stream(server.port, table_id) for _ in range(40)]
    try:
        held = [stream for stream in streams if stream.status == 200]
        refused = [stream for stream in streams if stream.status != 200]
        assert len(held) == 5
        assert {(stream.status, stream.code) for stream in refused} == {
            (429, "too-many-streams")}
        assert all(0 < int(stream.retry_after) <= 60 for stream in refused)
        assert_service_answers(server.port, play_date)
        for stream in held:
            assert f'"id":"{table_id}"' in stream.first_event()
        held[0].close()  # a place is given back as its reader goes
        deadline = time.monotonic() + 10
        while (again := Stream(server.port, table_id)).status != 200:
            assert again.code == "too-many-streams" and time.monotonic() < deadline
            time.sleep(0.2)
        streams.append(again)
    finally:
        for stream in streams:
            stream.close()


def test_a_worker_past_its_cap_is_refused_with_503_and_the_service_answers(serve, play_date):
    """Behind a proxy (``PROXY_HOPS=1``) 300 clients, each from its own address, ask for a
    stream: each worker holds at most its cap, the others are told to come back."""
    per_worker = 40
    server = serve(per_address=5, per_worker=per_worker, YACHT_DAILY_PROXY_HOPS="1")
    table_id = a_table(server.port)
    streams = [Stream(server.port, table_id, f"198.51.{number // 250}.{number % 250}")
               for number in range(300)]
    try:
        held = [stream for stream in streams if stream.status == 200]
        refused = [stream for stream in streams if stream.status != 200]
        assert per_worker <= len(held) <= 2 * per_worker
        assert {(stream.status, stream.code) for stream in refused} == {(503, "streams-busy")}
        assert all(int(stream.retry_after) > 0 for stream in refused)
        assert_service_answers(server.port, play_date)
        status, answer = call(JsonClient(server.url), "GET", f"/tables/{table_id}")
        assert status == 200 and answer["table"]["id"] == table_id
    finally:
        for stream in streams:
            with contextlib.suppress(OSError):
                stream.close()
