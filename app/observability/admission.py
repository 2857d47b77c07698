"""Admission control: a request that has already waited longer than the queue budget is refused
at once with ``503 overloaded`` and ``Retry-After`` instead of joining a queue that grows
without bound past what the workers can serve.

How long a request has waited is read from the kernel: ``TCP_INFO``'s ``tcpi_last_data_recv``
is the time since the connection's last data segment arrived (the request itself: a client
sends nothing more until it has its answer), in milliseconds at the kernel clock's tick (4 ms
at 250 Hz). It counts every wait on this machine, whatever the worker class: the listen
socket's accept queue (where a ``sync`` worker's requests queue), gunicorn's own queues
(``gthread``'s pool), a gevent loop slow to reach a new greenlet; it needs no clock shared with
a proxy and no header a client could forge. A socket that is not TCP (a unix socket behind
nginx) gives no such time: its requests are then only bounded by the slots below.

``sync`` and ``gevent`` workers check each connection as they accept it, before gunicorn
parses the request: a refusal then costs a few system calls and no access-log line (refusals
are counted in ``yacht_daily_requests_shed_total``), so that refusing keeps up with far more
requests than serving does. Were refusing as costly as a small request, a load past saturation
would spend the workers on refusals, every request would wait past the budget, and none would
be served (a gevent worker refusing in front of the app did just that at 150 %).

Workers that serve several requests at once (``gevent``, ``gthread``) share one CPU among
them: every admitted request slows the others down, so their wait only shows after they are
admitted. Those check again in a WSGI middleware in front of the app, and run at most
``in_flight`` requests at a time per worker; a request waits for a slot until its budget is
spent, then is refused. A request's body is read before it takes a slot: a client sending its
body a byte at a time (slowloris) holds a greenlet, never a slot.

Never refused: ``/healthz`` and ``/readyz`` (an orchestrator must see a busy worker as alive
and ready, else it restarts the very workers serving), ``/metrics`` (the refusals must be
seen) and tables' event streams (a browser gives up on an event stream answered 503; their
number has caps of its own, app/tables/stream_caps.py).

A refused request never reached the app: it did nothing, so a client may send it again as it
was (the pages do, after ``Retry-After``).
"""

import io
import json
import re
import socket
import struct
import threading

from app.config import MAX_REQUEST_BYTES, settings_from_env

OVERLOADED_CODE = "overloaded"
OVERLOADED_MESSAGE = "The server is busy; try again in a moment."
RETRY_AFTER_SECONDS = "1"
NEVER_REFUSED = frozenset({"/healthz", "/readyz", "/metrics"})
EVENT_STREAM = re.compile(r"/api/v1/tables/[^/]+/events\Z")
# struct tcp_info (linux/tcp.h): __u32 tcpi_last_data_recv, in ms, at byte 52 of 104 or more.
TCP_INFO_LENGTH = 104
LAST_DATA_RECEIVED = struct.Struct("=I")
LAST_DATA_RECEIVED_OFFSET = 52
# On a listening socket, __u32 tcpi_unacked is the count of connections in its accept queue.
ACCEPT_QUEUE_OFFSET = 24
# The request line's start, enough to tell a never-refused path from the others.
REQUEST_LINE_PEEK = 256
# What a refused connection's request may hold (the app's limit is 16 KiB of body), read so
# that closing the connection sends a FIN after the answer, not a reset that could lose it.
REFUSED_REQUEST_MAX_BYTES = 64 * 1024
REFUSED_WAITED = "waited"  # waited past the budget before the app was reached
REFUSED_NO_SLOT = "no-slot"  # no slot freed up within the budget


def seconds_since_request_arrived(environ) -> float | None:
    """How long ago the request's last bytes reached this machine, from the connection's TCP
    state; None when the kernel does not say (not TCP, not Linux)."""
    connection = environ.get("gunicorn.socket")
    try:
        info = connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_LENGTH)
    except (AttributeError, OSError):
        return None
    if len(info) < LAST_DATA_RECEIVED_OFFSET + LAST_DATA_RECEIVED.size:
        return None
    return LAST_DATA_RECEIVED.unpack_from(info, LAST_DATA_RECEIVED_OFFSET)[0] / 1000


def accept_queue_length(listener) -> int:
    """Connections waiting in ``listener``'s accept queue (0 when the kernel does not say)."""
    try:
        info = listener.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_LENGTH)
    except (AttributeError, OSError):
        return 0
    return LAST_DATA_RECEIVED.unpack_from(info, ACCEPT_QUEUE_OFFSET)[0]


def never_refused(path: str) -> bool:
    """Whether a request for ``path`` is served whatever the load."""
    return path in NEVER_REFUSED or EVENT_STREAM.match(path) is not None


def overloaded_answer(path: str) -> tuple[list[tuple[str, str]], bytes]:
    """The headers and body of ``503 overloaded`` for ``path``: JSON for the API, text else."""
    if path.startswith("/api/"):
        body = json.dumps({"error": {"code": OVERLOADED_CODE,
                                     "message": OVERLOADED_MESSAGE}}).encode()
        content_type = "application/json"
    else:
        body = OVERLOADED_MESSAGE.encode()
        content_type = "text/plain; charset=utf-8"
    return [("Content-Type", content_type), ("Content-Length", str(len(body))),
            ("Retry-After", RETRY_AFTER_SECONDS), ("Cache-Control", "no-store")], body


def request_path(request_start: bytes) -> str | None:
    """The path of an HTTP/1 request line (without its query), or None if it is not one."""
    line = request_start.split(b"\r\n", 1)[0].split(b" ")
    if len(line) != 3 or not line[2].startswith(b"HTTP/"):
        return None
    return line[1].split(b"?", 1)[0].decode("latin-1")


def refused_at_accept(connection: socket.socket, budget: float, refused, loaded) -> bool:
    """Answer ``503 overloaded`` on a just-accepted connection and close it when its request
    waited past ``budget`` seconds while the worker is ``loaded()`` (other requests wait
    behind it or hold every slot: a lone request that waited because the worker was slow, say
    loading its strategy tables, is served, since refusing it frees nothing) and is not for a
    never-refused path; whether it did. A connection whose request has not arrived, or is not
    HTTP/1, is left to gunicorn as it was. Nothing here waits: the connection is read and
    written without blocking (a gevent socket would otherwise wait for more data)."""
    waited = seconds_since_request_arrived({"gunicorn.socket": connection})
    if waited is None or waited <= budget or not loaded():
        return False
    timeout = connection.gettimeout()
    connection.settimeout(0.0)
    try:
        path = request_path(connection.recv(REQUEST_LINE_PEEK, socket.MSG_PEEK))
    except OSError:
        path = None
    if path is None or never_refused(path):
        connection.settimeout(timeout)
        return False
    refused(REFUSED_WAITED)
    headers, body = overloaded_answer(path)
    head = "".join(f"{name}: {value}\r\n" for name, value in headers)
    try:
        received = 0
        while received < REFUSED_REQUEST_MAX_BYTES:
            chunk = connection.recv(REFUSED_REQUEST_MAX_BYTES)
            if not chunk:
                break
            received += len(chunk)
    except BlockingIOError:
        pass  # all of the request that has arrived is read
    except OSError:
        connection.close()
        return True
    try:  # a few hundred bytes: the socket's send buffer takes them at once
        connection.sendall(f"HTTP/1.1 503 Service Unavailable\r\n{head}Connection: close\r\n"
                           f"\r\n".encode("latin-1") + body)
    except OSError:
        pass  # the client has gone
    finally:
        connection.close()
    return True


def guard_sync_accept(worker, budget: float, refused) -> None:
    """Make a gunicorn ``sync`` worker refuse, as it accepts them, the connections whose
    request waited past ``budget`` (``SyncWorker.run_for_one`` and ``run_for_multiple`` call
    ``self.accept(listener)`` once per ready connection; this is that method, the check
    first)."""
    from gunicorn import util

    def accept(listener) -> None:
        """Accept one connection, then refuse it or serve it as gunicorn does."""
        client, address = listener.accept()
        if refused_at_accept(client, budget, refused, lambda: accept_queue_length(listener)):
            return
        client.setblocking(1)
        util.close_on_exec(client)
        worker.handle(listener, client, address)

    worker.accept = accept


def guard_async_handle(worker, guard: "AdmissionControl", refused) -> None:
    """Make a gunicorn ``gevent`` worker refuse, before it parses them, the connections whose
    request waited past the budget while ``guard``'s slots are all taken (its server calls
    ``self.handle(listener, client, address)`` in a new greenlet for each connection it
    accepts; this is that method, the check first)."""
    handle = worker.handle

    def handle_unless_refused(listener, client, address) -> None:
        """Refuse the connection, or handle it as gunicorn does."""
        if not refused_at_accept(client, guard.budget, refused, guard.full):
            handle(listener, client, address)

    worker.handle = handle_unless_refused


def read_body_first(environ, limit: int = MAX_REQUEST_BYTES) -> None:
    """Read the request's body (up to ``limit``, the app's own, plus one byte to show it is
    over) into memory before the request takes a slot, so that a client sending its body
    slowly waits without a slot and never holds one. A body declared over the limit is left
    unread: the app refuses it without reading it."""
    length = environ.get("CONTENT_LENGTH")
    if length:
        try:
            size = int(length)
        except ValueError:
            return
        if not 0 < size <= limit:
            return
    elif environ.get("HTTP_TRANSFER_ENCODING", "").lower() == "chunked":
        size = limit + 1
    else:
        return
    environ["wsgi.input"] = io.BytesIO(environ["wsgi.input"].read(size))


class AdmissionControl:
    """WSGI middleware refusing, with ``503 overloaded``, the requests that waited longer than
    ``budget`` seconds in all (in the kernel's queues, then for a slot); with ``in_flight``,
    at most that many requests of this process are in the app at once."""

    def __init__(self, app, budget: float, in_flight: int | None, slot_type=threading.Semaphore,
                 refused=None):
        """Guard ``app``; ``slot_type`` makes the slots' semaphore (gevent's in a gevent
        worker); ``refused(reason)`` counts a refusal."""
        self.app = app
        self.budget = budget
        self.capacity = in_flight
        self.slots = slot_type(in_flight) if in_flight else None
        self.serving = 0  # requests holding a slot
        self.refused = refused or (lambda reason: None)

    def full(self) -> bool:
        """Whether every slot is taken (always, without slots: the wait alone decides)."""
        return self.slots is None or self.serving >= self.capacity

    def __call__(self, environ, start_response):
        """Serve the request, or refuse it when it has waited past the budget."""
        if never_refused(environ.get("PATH_INFO", "")):
            return self.app(environ, start_response)
        waited = seconds_since_request_arrived(environ) or 0.0
        if waited > self.budget and self.full():
            return self.refuse(REFUSED_WAITED, environ, start_response)
        if self.slots is None:
            return self.app(environ, start_response)
        read_body_first(environ)
        waited = seconds_since_request_arrived(environ) or 0.0  # now since the body's end
        if waited > self.budget and self.full():
            return self.refuse(REFUSED_WAITED, environ, start_response)
        if not self.slots.acquire(timeout=max(0.0, self.budget - waited)):
            return self.refuse(REFUSED_NO_SLOT, environ, start_response)
        self.serving += 1
        try:  # the slot covers building the answer; a streamed body is sent after it is freed
            return self.app(environ, start_response)
        finally:
            self.serving -= 1
            self.slots.release()

    def refuse(self, reason: str, environ, start_response):
        """Answer ``503 overloaded`` with ``Retry-After`` (JSON for the API, text otherwise)."""
        self.refused(reason)
        headers, body = overloaded_answer(environ.get("PATH_INFO", ""))
        start_response("503 Service Unavailable", headers)
        return [body]


def refusal_counter():
    """``refused(reason)`` for the metrics: ``yacht_daily_requests_shed_total{reason}``."""
    from prometheus_client import Counter

    shed = Counter("yacht_daily_requests_shed_total",
                   "Requests refused with 503 overloaded before the app, by reason: waited "
                   "past the queue budget, or no slot freed up within it.", ["reason"])
    children = {reason: shed.labels(reason) for reason in (REFUSED_WAITED, REFUSED_NO_SLOT)}
    return lambda reason: children[reason].inc()


def gevent_worker(worker) -> bool:
    """Whether ``worker`` is one of gunicorn's gevent workers."""
    return type(worker).__module__ == "gunicorn.workers.ggevent"


def slot_type_for(worker):
    """The semaphore that makes a worker's slots: gevent's in a gevent worker (its greenlets
    wait on the loop), the threads' otherwise."""
    if gevent_worker(worker):
        from gevent.lock import Semaphore

        return Semaphore
    return threading.Semaphore


def install_in(worker) -> None:
    """Put admission control in front of a gunicorn worker's app, as the environment sets it
    (``YACHT_DAILY_QUEUE_BUDGET_MS``, 0 for none; ``YACHT_DAILY_IN_FLIGHT_PER_WORKER``): a
    sync worker checks as it accepts; a gevent worker as it accepts and again in front of the
    app, with slots (gevent's semaphore); a gthread worker in front of the app, with slots."""
    from gunicorn.workers.sync import SyncWorker

    settings = settings_from_env()
    budget = settings["QUEUE_BUDGET_MS"] / 1000
    if budget <= 0:
        return
    refused = refusal_counter()
    if isinstance(worker, SyncWorker):
        guard_sync_accept(worker, budget, refused)
        return
    app = worker.wsgi
    guard = AdmissionControl(getattr(app, "wsgi_app", app), budget,
                             settings["IN_FLIGHT_PER_WORKER"], slot_type_for(worker), refused)
    if gevent_worker(worker):
        guard_async_handle(worker, guard, refused)
    if hasattr(app, "wsgi_app"):  # a Flask app keeps its own object (the reveal thread uses it)
        app.wsgi_app = guard
    else:
        worker.wsgi = guard
