"""A table's event stream through the nginx example (deploy/nginx/yacht-daily.conf, the real
nginx with TLS): events reach a watcher while its response is still open (nginx buffers
nothing on that route), and a reconnection with Last-Event-ID resumes after it."""

import http.client
import ssl

import pytest
from test_behind_nginx import NGINX, TlsClient, running_nginx

from tests.app.playkit import call

READ_TIMEOUT = 20.0  # well below a stream's length: a buffered stream would time out


@pytest.fixture
def nginx_url(make_live_server):
    """nginx with the example site in front of a fresh live server: its https URL."""
    if NGINX is None:
        pytest.skip("nginx is not installed here")
    with pytest.MonkeyPatch.context() as environment:
        environment.setenv("YACHT_DAILY_PROXY_HOPS", "1")
        server = make_live_server()
    try:
        with running_nginx(server.port) as (url, https_port):
            yield url, https_port
    finally:
        server.stop()


def open_stream(port: int, table_id: str, last_event_id: str | None = None):
    """A GET of the table's events through nginx, its response left open."""
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=READ_TIMEOUT,
                                             context=context)
    headers = {"Accept": "text/event-stream"}
    if last_event_id:
        headers["Last-Event-ID"] = last_event_id
    connection.request("GET", f"/api/v1/tables/{table_id}/events", headers=headers)
    return connection, connection.getresponse()


def next_event(response) -> dict:
    """The next SSE message's fields (id, event, data), comment lines skipped."""
    fields = {}
    while True:
        line = response.readline().decode().rstrip("\n")
        if not line:
            if fields:
                return fields
            continue
        if not line.startswith(":"):
            name, _, value = line.partition(": ")
            fields[name] = value


def test_events_pass_through_nginx_as_they_happen_and_resume(nginx_url):
    url, port = nginx_url
    ann, bob = TlsClient(url), TlsClient(url)
    status, created = call(ann, "POST", "/tables", {
        "ruleset": "yacht", "seats": [{"kind": "human"}], "clock": 0, "name": "Ann",
        "client_seed": "ann"})
    assert status == 201, created
    table_id = created["table"]["id"]
    connection, response = open_stream(port, table_id)
    assert response.getheader("Content-Type").startswith("text/event-stream")
    assert next_event(response).get("retry") == "1000"
    snapshot = next_event(response)
    assert snapshot["event"] == "snapshot"
    status, _ = call(bob, "POST", f"/tables/{table_id}/join", {"name": "Bob",
                                                                "client_seed": "bob"})
    assert status == 200
    joined = next_event(response)  # while the response is still open: nothing buffered
    assert joined["event"] == "joined" and '"name":"Bob"' in joined["data"]
    connection.close()
    status, _ = call(ann, "POST", f"/tables/{table_id}/start", {})
    assert status == 200
    connection, response = open_stream(port, table_id, last_event_id=joined["id"])
    next_event(response)  # retry
    resumed = next_event(response)
    assert resumed["event"] == "started" and resumed["id"] > joined["id"]
    connection.close()
