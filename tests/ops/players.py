"""Players for the load and fault tests: each plays whole games against a live server over
HTTP, retries every request that got no answer (a reset connection, a 502/503) with the very
same body — the same action number — and records what the server acknowledged."""

import http.client
import json
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

API = "/api/v1"
REQUEST_TIMEOUT = 15.0
RETRY_PAUSE = 0.05
UNAVAILABLE = (502, 503)


class GaveUp(Exception):
    """Raised when a request got no answer before the player's deadline."""


@dataclass
class Acknowledged:
    """One action the server answered 200 to: the game, its number, the entry it recorded, and
    when (monotonic clock)."""

    game: str
    number: int
    intended: dict
    entry: dict
    at: float = field(default_factory=time.monotonic)


@dataclass
class PlayerReport:
    """What one player saw."""

    games: list[str] = field(default_factory=list)
    finished: list[str] = field(default_factory=list)
    acknowledged: list[Acknowledged] = field(default_factory=list)
    unanswered: int = 0
    unavailable: list[tuple[int, str | None, dict]] = field(default_factory=list)
    unexpected: list[tuple[int, object]] = field(default_factory=list)

    def merge(self, other: "PlayerReport") -> None:
        """Add ``other``'s observations to this report."""
        self.games += other.games
        self.finished += other.finished
        self.acknowledged += other.acknowledged
        self.unanswered += other.unanswered
        self.unavailable += other.unavailable
        self.unexpected += other.unexpected


def intended_move(state: dict, rng: random.Random) -> tuple[str, dict]:
    """The next action a simple player takes: (``roll``/``score``, its body without a number)."""
    if state["dice"] is not None and (state["rolls_left"] == 0 or rng.random() < 0.4):
        best = max(state["allowed"], key=lambda box: (state["previews"][box], rng.random()))
        return "score", {"category": best}
    if state["dice"] is None or rng.random() < 0.2:
        return "roll", {"hold": [False] * 5}
    face, _ = Counter(state["dice"]).most_common(1)[0]
    return "roll", {"hold": [die == face for die in state["dice"]]}


def entry_matches(action: str, intended: dict, entry: dict) -> bool:
    """True when a transcript ``entry`` is the intended action."""
    if entry.get("action") != action:
        return False
    if action == "roll":
        return entry.get("hold") == intended["hold"]
    return entry.get("category") == intended["category"]


class RetryingPlayer:
    """One anonymous player (its own cookie) on the server at ``port``."""

    def __init__(self, port: int, rng: random.Random, deadline: float):
        """Bind to the server; give up on any request still unanswered at ``deadline``."""
        self.port = port
        self.rng = rng
        self.deadline = deadline
        self.cookie: str | None = None
        self.report = PlayerReport()

    def send(self, method: str, path: str, body=None, headers=None) -> tuple[int, dict, object]:
        """One API request on a new connection; (status, lower-cased headers, JSON or text)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)
        try:
            headers = {"Connection": "close", **(headers or {})}
            payload = None
            if body is not None:
                payload = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
            if self.cookie:
                headers["Cookie"] = self.cookie
            connection.request(method, API + path, payload, headers)
            response = connection.getresponse()
            raw = response.read()
            answer_headers = {name.lower(): value for name, value in response.getheaders()}
        finally:
            connection.close()
        if "set-cookie" in answer_headers:
            self.cookie = answer_headers["set-cookie"].split(";", 1)[0]
        if answer_headers.get("content-type", "").startswith("application/json"):
            return response.status, answer_headers, json.loads(raw)
        return response.status, answer_headers, raw.decode(errors="replace")

    def call_until_answered(self, method: str, path: str, body=None) -> tuple[int, object]:
        """Send until the server answers something other than unavailable; the same body each
        time. Raises GaveUp at the deadline."""
        while time.monotonic() < self.deadline:
            try:
                status, headers, answer = self.send(method, path, body)
            except (OSError, http.client.HTTPException):
                self.report.unanswered += 1
                time.sleep(RETRY_PAUSE)
                continue
            if status in UNAVAILABLE:
                self.report.unavailable.append((status, headers.get("retry-after"), answer))
                time.sleep(RETRY_PAUSE)
                continue
            return status, answer
        raise GaveUp(f"{method} {path} unanswered at the deadline")

    def play_game(self, ruleset: str, date: str) -> None:
        """Start (or resume) a game and play it to the end, recording every acknowledgement."""
        status, answer = self.call_until_answered(
            "POST", "/games", {"ruleset": ruleset, "date": date})
        if status not in (200, 201):
            self.report.unexpected.append((status, answer))
            return
        state = answer["game"]
        self.report.games.append(state["id"])
        while state["status"] == "playing":
            action, intended = intended_move(state, self.rng)
            number = state["next_action"]
            status, answer = self.call_until_answered(
                "POST", f"/games/{state['id']}/{action}", {**intended, "roll": number})
            if status != 200:
                self.report.unexpected.append((status, answer))
                return
            state = answer["game"]
            self.report.acknowledged.append(Acknowledged(
                state["id"], number, {"action": action, **intended}, state["transcript"][number]))
        self.report.finished.append(state["id"])


def play_until(port: int, stop: threading.Event, seed: int, date: str, deadline: float,
               rulesets: tuple[str, ...]) -> PlayerReport:
    """Play whole games, each as a new player, until ``stop`` is set; finish the game in hand."""
    rng = random.Random(seed)
    report = PlayerReport()
    round_number = 0
    while not stop.is_set():
        player = RetryingPlayer(port, rng, deadline)
        try:
            player.play_game(rulesets[round_number % len(rulesets)], date)
        except GaveUp:
            player.report.unexpected.append((0, "gave up at the deadline"))
        report.merge(player.report)
        round_number += 1
    return report
