"""What the HTTP benchmarks (bench_api.py, bench_load.py, bench_overhead.py) share: a bare Flask
endpoint and the floor (the bare endpoint plus one EVALSHA on Redis) to set the service beside,
the service without its request hooks (a lower bound of cutting its plumbing),
a server subprocess on a loopback port, one request per connection, players who play whole
games while every latency is recorded by kind of request, and quantiles.
"""

import gzip
import http.client
import json
import random
import socket
import subprocess
import threading
import time
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import brotli
from backports import zstd

REQUEST_TIMEOUT = 10.0
START_TIMEOUT = 30.0
BARE_PATH = "/api/v1/bare"
BARE_KIND = "bare"
FLOOR_KIND = "floor"
FLOOR_LIST_LENGTH = 64
# The shape of an action's compare-and-set (compare a list's length, append one entry), on a
# list of bounded length: one EVALSHA, one write, one fsync.
FLOOR_SCRIPT = """
local length = redis.call('LLEN', KEYS[1])
if length >= tonumber(ARGV[2]) then redis.call('DEL', KEYS[1]) end
redis.call('RPUSH', KEYS[1], ARGV[1])
return length
"""
ACTION_KINDS = ("roll", "score")
# What the play page asks of an action's answer: what the action changed (docs/api.md).
MINIMAL = {"Prefer": "return=minimal"}


def next_move(state: dict, rng) -> tuple[str, dict]:
    """A simple player's next action on ``state``: after the last roll (or 40 % of the time once
    rolled) score the box that previews best, else roll holding the most common face."""
    if state["dice"] is not None and (state["rolls_left"] == 0 or rng.random() < 0.4):
        box = max(state["allowed"], key=lambda b: (state["previews"][b], rng.random()))
        return "score", {"category": box}
    hold = [False] * 5
    if state["dice"] is not None:
        face = Counter(state["dice"]).most_common(1)[0][0]
        hold = [die == face for die in state["dice"]]
    return "roll", {"hold": hold}


def after_action(state: dict, answer: dict) -> dict:
    """The game a player holds after an action's answer: a minimal answer's fields over the
    game held (a player choosing moves needs no transcript), a whole game as it is."""
    game = answer["game"]
    return game if "transcript" in game else {**state, **game}


def bare_app():
    """A Flask app with one JSON endpoint: the floor any Flask route under gunicorn pays."""
    from flask import Flask, jsonify, request

    bare = Flask("bare")

    @bare.post(BARE_PATH)
    def echo():
        """Parse a small JSON body and answer a small JSON object, without Redis or a game."""
        body = request.get_json()
        return jsonify({"ok": True, "roll": body.get("roll")})

    return bare


def floor_app():
    """The floor of an action: the bare endpoint plus one EVALSHA (a compare-and-set-shaped
    write) on the Redis of ``REDIS_URL``, what an action would cost with nothing else to do."""
    import os

    import redis
    from flask import Flask, jsonify, request

    floor = Flask("floor")
    client = redis.Redis.from_url(os.environ["REDIS_URL"], decode_responses=True)
    append = client.register_script(FLOOR_SCRIPT)

    @floor.post(BARE_PATH)
    def compare_and_set():
        """Parse the body, append it to a list in one script, answer a small JSON object."""
        body = request.get_json()
        length = append(keys=[f"{{floor}}:{body.get('roll', 0) % 100}"],
                        args=[json.dumps(body), FLOOR_LIST_LENGTH])
        return jsonify({"ok": True, "roll": body.get("roll"), "length": length})

    return floor


def hookless_app():
    """The service's own app (``app.create_app``) with every request hook removed: no request
    id (gunicorn still writes its access line), no metrics, no security, language or
    compression headers, no ledger check, no rate-limit refunds around the routes (the routes,
    their per-game and per-address limits and everything they call stay). What the service
    would cost if all its plumbing cost nothing: the lower bound of any cut to the plumbing
    (bench_overhead's ``--hookless``)."""
    from app import create_app

    service = create_app()
    strip_hooks(service)
    return service


def strip_hooks(app) -> None:
    """Remove every before-, after- and teardown-request hook of ``app`` and its blueprints."""
    for hooks in (app.before_request_funcs, app.after_request_funcs,
                  app.teardown_request_funcs):
        hooks.clear()


def bare_request(number: int) -> dict:
    """The body sent to the bare endpoint: about the size of a roll's."""
    return {"roll": number, "hold": [False] * 5}


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def decompressed(data: bytes, encoding: str | None) -> bytes:
    """An answer's body as sent before its ``Content-Encoding`` (one the service offers)."""
    if encoding == "gzip":
        return gzip.decompress(data)
    if encoding == "deflate":
        return zlib.decompress(data)
    if encoding == "br":
        return brotli.decompress(data)
    if encoding == "zstd":
        return zstd.decompress(data)
    return data


def send(port: int, method: str, path: str, body=None, cookie: str | None = None,
         headers: dict | None = None):
    """One request on a new connection; (status, JSON body or raw bytes, Set-Cookie)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    try:
        return exchange(connection, method, path, body, cookie, headers)
    finally:
        connection.close()


def exchange(connection: http.client.HTTPConnection, method: str, path: str, body=None,
             cookie: str | None = None, extra_headers: dict | None = None):
    """One request on ``connection`` (with ``extra_headers``), its whole answer read; (status,
    JSON body or raw bytes, Set-Cookie)."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    headers.update(extra_headers or {})
    if cookie:
        headers["Cookie"] = cookie
    connection.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = connection.getresponse()
    raw = decompressed(response.read(), response.getheader("Content-Encoding"))
    answer = json.loads(raw) if raw and response.getheader("Content-Type", "").startswith(
        "application/json") else raw
    return response.status, answer, response.getheader("Set-Cookie")


class ServerProcess:
    """A server subprocess on a loopback port, its output in a log file, stopped with SIGTERM."""

    def __init__(self, command: list[str], port: int, env: dict, log: Path, probe: tuple,
                 cwd: Path | None = None, ports: list[int] | None = None):
        """Start it and wait until ``probe`` (method, path, body) answers 200 on each of its
        ``ports`` (by default ``port`` alone; one port per worker, say)."""
        self.port = port
        self.ports = ports or [port]
        self.log = log
        with log.open("wb") as out:
            self.process = subprocess.Popen(command, env=env, stdout=out,
                                            stderr=subprocess.STDOUT, cwd=cwd)
        for each in self.ports:
            self._wait_until_answering(each, probe, command[0])

    def _wait_until_answering(self, port: int, probe: tuple, name: str) -> None:
        """Wait until ``probe`` answers 200 on ``port``; stopped, with its log, if it exits or
        never does."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{name} exited:\n{self.log.read_text()}")
            try:
                if send(port, *probe)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not start on port {port}:\n{self.log.read_text()}")

    def stop(self) -> None:
        """SIGTERM, then wait."""
        self.process.terminate()
        self.process.wait(30)


@dataclass
class Measures:
    """Latencies (seconds) by kind of request, games finished and errors, from every thread."""

    latencies: dict = field(default_factory=lambda: defaultdict(list))
    games: int = 0
    errors: Counter = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def timed(self, kind: str, port: int, method: str, path: str, body=None, cookie=None,
              headers=None):
        """Send a request and record its latency under ``kind``; errors count by status (or by
        exception when no answer came)."""
        started = time.perf_counter()
        try:
            status, answer, set_cookie = send(port, method, path, body, cookie, headers)
        except OSError as error:
            with self.lock:
                self.errors[type(error).__name__] += 1
            return 0, None, None
        elapsed = time.perf_counter() - started
        with self.lock:
            self.latencies[kind].append(elapsed)
            if status not in (200, 201):
                self.errors[status] += 1
        return status, answer, set_cookie

    @property
    def requests(self) -> int:
        """Requests answered."""
        return sum(len(values) for values in self.latencies.values())

    @property
    def actions(self) -> int:
        """Rolls and scorings answered."""
        return sum(len(self.latencies[kind]) for kind in ACTION_KINDS)

    def every_latency(self) -> list[float]:
        """The latencies of every request, whatever its kind."""
        return [value for values in self.latencies.values() for value in values]


def play_game(port: int, date: str, ruleset: str, rng: random.Random, measures: Measures):
    """A new player plays one whole game as the play page does (minimal action answers): one
    to three rolls a turn, then the best box."""
    status, answer, set_cookie = measures.timed(
        "create", port, "POST", "/api/v1/games", {"ruleset": ruleset, "date": date})
    if status not in (200, 201):
        return
    cookie = set_cookie.split(";", 1)[0]
    state = answer["game"]
    while state["status"] == "playing":
        kind, body = next_move(state, rng)
        status, answer, _ = measures.timed(
            kind, port, "POST", f"/api/v1/games/{state['id']}/{kind}",
            {**body, "roll": state["next_action"], "token": state["token"]}, cookie, MINIMAL)
        if status != 200:
            return
        state = after_action(state, answer)
    with measures.lock:
        measures.games += 1


def run_players(players: int, jobs: list, work) -> float:
    """Run ``work(job)`` for every job on ``players`` threads; the wall time in seconds."""
    pending = list(reversed(jobs))
    lock = threading.Lock()

    def player():
        """Take jobs until none is left."""
        while True:
            with lock:
                if not pending:
                    return
                job = pending.pop()
            work(job)

    threads = [threading.Thread(target=player) for _ in range(players)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started


def quantile_ms(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile (nearest rank) of latencies in seconds, in milliseconds."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]
