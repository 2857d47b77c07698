"""Health, readiness, metrics, request ids in JSON logs and rate limits, through the app on a
real Redis (the Flask test client; tests/ops/test_deployed.py checks them under gunicorn)."""

import datetime as dt
import json
import logging
import re

import pytest
from flask import url_for
from playkit import app_on

from app.ledger import secrets as keys
from app.observability.logs import JsonFormatter
from fairness import DAILY_RULESETS

API = "/api/v1"


def metric_value(text: str, name: str, **labels) -> float:
    """The value of one sample in a Prometheus text exposition (0 when absent)."""
    for line in text.splitlines():
        match = re.fullmatch(r"([a-z_]+)(?:\{(.*)\})? (\S+)", line)
        if not match or match[1] != name:
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', match[2] or ""))
        if found == {key: str(value) for key, value in labels.items()}:
            return float(match[3])
    return 0.0


def play_whole_game(client, ruleset: str, date: str) -> dict:
    """Play one game to its end with the test client; returns the final state."""
    state = client.post(f"{API}/games", json={"ruleset": ruleset, "date": date}).get_json()["game"]
    while state["status"] == "playing":
        if state["dice"] is not None and state["rolls_left"] == 0:
            body, action = {"category": state["allowed"][0]}, "score"
        else:
            body, action = {"hold": [False] * 5}, "roll"
        answer = client.post(f"{API}/games/{state['id']}/{action}",
                             json={**body, "roll": state["next_action"]})
        assert answer.status_code == 200, answer.get_json()
        state = answer.get_json()["game"]
    return state


def test_healthz_and_readyz_when_all_is_well(client):
    """Both green, and readiness says what it checked."""
    assert client.get("/healthz").get_json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.get_json()["status"] == "ready"
    assert {name: check["ok"] for name, check in ready.get_json()["checks"].items()} == {
        "redis": True, "secrets": True, "epoch": True}


def test_readyz_red_when_the_secrets_are_not_the_ledgers(client, redis_url, clock, tmp_path):
    """A replica started on another data directory than the one that published the ledger
    must not take traffic: it would deal other dice and sign with another key."""
    assert client.get(f"{API}/ledger").status_code == 200
    other = tmp_path / "other"
    keys.initialise(other, dt.date(2026, 3, 1), 400)
    stranger = app_on(redis_url, other, clock).test_client()
    ready = stranger.get("/readyz")
    assert ready.status_code == 503 and ready.headers["Retry-After"].isdigit()
    assert ready.get_json()["checks"]["secrets"]["ok"] is False
    assert ready.get_json()["checks"]["redis"]["ok"] is True


def test_readyz_red_once_the_epoch_is_over(client, clock):
    """After the epoch's last day no game can start: not ready until a new epoch."""
    clock.set("2027-12-01T12:00:00Z")
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert ready.get_json()["checks"]["epoch"]["ok"] is False


def test_redis_unreachable_answers_503_json_never_500(data_dir, clock, tmp_path):
    """Every API call answers 503 + Retry-After + a JSON error; health stays green, readiness
    red, and the errors are counted."""
    app = app_on(f"unix://{tmp_path}/nothing-here.sock", data_dir, clock)
    client = app.test_client()
    before = metric_value(client.get("/metrics").get_data(as_text=True),
                          "yacht_daily_redis_errors_total", error="ConnectionError")
    for method, path, body in [("GET", "/challenges", None), ("GET", "/ledger", None),
                               ("POST", "/games", {"ruleset": "yacht", "date": "2026-03-10"})]:
        answer = client.open(f"{API}{path}", method=method, json=body)
        assert answer.status_code == 503, path
        assert answer.headers["Retry-After"].isdigit()
        assert answer.get_json()["error"]["code"] == "storage-unavailable"
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 503
    metrics = client.get("/metrics").get_data(as_text=True)
    assert metric_value(metrics, "yacht_daily_redis_errors_total",
                        error="ConnectionError") == before + 3
    assert metric_value(metrics, "yacht_daily_redis_up") == 0


class CollectedLines(logging.Handler):
    """Keeps every record of the ``app`` logger formatted as the service writes it."""

    def __init__(self):
        """Start empty, formatting as JSON."""
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record):
        """Keep the formatted line."""
        self.lines.append(self.format(record))


@pytest.fixture
def app_log_lines():
    """The JSON lines the ``app`` logger writes during the test."""
    handler = CollectedLines()
    logger = logging.getLogger("app")
    logger.addHandler(handler)
    yield handler.lines
    logger.removeHandler(handler)


def test_request_id_is_echoed_or_made_and_stamped_on_log_lines(data_dir, clock, tmp_path,
                                                               app_log_lines):
    """A sane X-Request-ID from the proxy is kept, anything else replaced; the log lines the
    request writes carry it, as JSON."""
    client = app_on(f"unix://{tmp_path}/nothing-here.sock", data_dir, clock).test_client()
    kept = client.get(f"{API}/ledger", headers={"X-Request-ID": "edge-42.a:b"})
    assert kept.headers["X-Request-ID"] == "edge-42.a:b"
    replaced = client.get(f"{API}/ledger", headers={"X-Request-ID": "bad id <script>"})
    assert re.fullmatch(r"[0-9a-f]{32}", replaced.headers["X-Request-ID"])
    made = client.get("/healthz")
    assert re.fullmatch(r"[0-9a-f]{32}", made.headers["X-Request-ID"])

    lines = [json.loads(line) for line in app_log_lines]
    warnings = [line for line in lines if line["level"] == "warning"]
    assert [line["request_id"] for line in warnings] == [
        "edge-42.a:b", replaced.headers["X-Request-ID"]]
    assert all({"ts", "logger", "message", "pid"} <= set(line) for line in lines)


def test_metrics_count_routes_latency_and_games(client, play_date, reveal):
    """Requests by route template and status, a latency histogram, and the day's games started
    and finished as Redis holds them."""
    reveal()  # the earlier dates of the epoch, as the reveal thread would have
    before = client.get("/metrics").get_data(as_text=True)
    final = play_whole_game(client, "yacht", play_date)
    client.get(f"{API}/games/{'0' * 32}")
    after = client.get("/metrics").get_data(as_text=True)

    roll = {"method": "POST", "route": f"{API}/games/<game_id>/roll"}
    rolls = sum(1 for entry in final["transcript"] if entry["action"] == "roll")
    assert (metric_value(after, "yacht_daily_http_requests_total", status="200", **roll)
            - metric_value(before, "yacht_daily_http_requests_total", status="200", **roll)
            ) == rolls
    assert (metric_value(after, "yacht_daily_http_request_duration_seconds_count", **roll)
            - metric_value(before, "yacht_daily_http_request_duration_seconds_count", **roll)
            ) == rolls
    assert metric_value(after, "yacht_daily_http_requests_total", method="GET",
                        route=f"{API}/games/<game_id>", status="404") >= 1
    for ruleset in DAILY_RULESETS:
        expected = 1 if ruleset == "yacht" else 0
        for state in ("started", "finished"):
            assert metric_value(after, "yacht_daily_games", date=play_date, ruleset=ruleset,
                                state=state) == expected
    assert metric_value(after, "yacht_daily_redis_up") == 1
    assert metric_value(after, "yacht_daily_ledger_entries") >= 1
    assert metric_value(after, "yacht_daily_reveal_overdue_seconds") == 0
    assert metric_value(after, "yacht_daily_epoch_days_left") == (
        dt.date(2026, 3, 1) + dt.timedelta(days=399) - dt.date.fromisoformat(play_date)).days


def test_reveal_gauges_follow_the_ledger(client, clock, reveal):
    """The last revealed date moves with the reveals; nothing is reported overdue."""
    reveal()
    first = client.get("/metrics").get_data(as_text=True)
    clock.advance(days=2)
    assert len(reveal()) == 2
    later = client.get("/metrics").get_data(as_text=True)
    moved = (metric_value(later, "yacht_daily_last_revealed_date_seconds")
             - metric_value(first, "yacht_daily_last_revealed_date_seconds"))
    assert moved == 2 * 86400
    assert metric_value(later, "yacht_daily_reveal_overdue_seconds") == 0


def test_overdue_reveal_is_reported_until_the_reveal_runs(client, clock, reveal):
    """Neither a scrape nor a request reveals: a due date nobody revealed shows as overdue
    (what an alert watches) until the reveal runs."""
    reveal()
    clock.advance(days=1)
    client.get(f"{API}/challenges")
    overdue = metric_value(client.get("/metrics").get_data(as_text=True),
                           "yacht_daily_reveal_overdue_seconds")
    assert overdue > 0
    reveal()
    assert metric_value(client.get("/metrics").get_data(as_text=True),
                        "yacht_daily_reveal_overdue_seconds") == 0


@pytest.fixture
def limited_app(redis_url, redis_client, data_dir, clock):
    """The app with small rate limits turned on, behind one trusted proxy."""
    return app_on(redis_url, data_dir, clock, RATE_LIMITS="on", PROXY_HOPS=1,
                  RATE_LIMIT_CREATE="3/minute", RATE_LIMIT_GAME_ACTIONS="4/minute",
                  RATE_LIMIT_VERIFY="2/minute")


def test_game_creation_is_limited_per_client_with_429_and_retry_after(limited_app, play_date):
    """The fourth creation from one address within the minute is refused; another address
    (as the proxy reports it) has its own budget."""
    client = limited_app.test_client()
    first = {"X-Forwarded-For": "203.0.113.7"}
    for ruleset in [*DAILY_RULESETS]:
        answer = client.post(f"{API}/games", json={"ruleset": ruleset, "date": play_date},
                             headers=first)
        assert answer.status_code == 201
    refused = client.post(f"{API}/games", json={"ruleset": "yacht", "date": play_date},
                          headers=first)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert refused.get_json()["error"]["code"] == "too-many-requests"
    other = limited_app.test_client().post(
        f"{API}/games", json={"ruleset": "yacht", "date": play_date},
        headers={"X-Forwarded-For": "198.51.100.9"})
    assert other.status_code == 201
    metrics = client.get("/metrics").get_data(as_text=True)
    assert metric_value(metrics, "yacht_daily_rate_limited_total", route=f"{API}/games") >= 1


def test_a_games_actions_share_one_budget_and_a_refused_one_changes_nothing(limited_app,
                                                                            play_date):
    """A game's rolls and scorings count together (per game, in its compare-and-set);
    past the budget an action is refused with 429 and the game is unchanged, while another
    game still plays."""
    client = limited_app.test_client()
    state = client.post(f"{API}/games", json={"ruleset": "yahtzee", "date": play_date}
                        ).get_json()["game"]
    for action in ["roll", "roll", "score", "roll"]:
        body = ({"category": state["allowed"][0]} if action == "score"
                else {"hold": [False] * 5})
        answer = client.post(f"{API}/games/{state['id']}/{action}",
                             json={**body, "roll": state["next_action"]})
        assert answer.status_code == 200
        state = answer.get_json()["game"]
    refused = client.post(f"{API}/games/{state['id']}/roll",
                          json={"hold": [False] * 5, "roll": state["next_action"]})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert client.get(f"{API}/games/{state['id']}").get_json()["game"] == state

    elsewhere = {"X-Forwarded-For": "198.51.100.9"}
    other = limited_app.test_client()
    game = other.post(f"{API}/games", json={"ruleset": "yacht", "date": play_date},
                      headers=elsewhere).get_json()["game"]
    assert other.post(f"{API}/games/{game['id']}/roll", json={"roll": 0},
                      headers=elsewhere).status_code == 200


def test_static_files_count_under_one_route_whatever_the_release_digest(client):
    """A static file's series is labelled without the content digest in its URL, so a deploy
    (a new digest) continues the same series instead of starting new ones."""
    with client.application.test_request_context():
        css = url_for("static", filename="css/site.css")
    assert client.get(css).status_code == 200
    metrics = client.get("/metrics").get_data(as_text=True)
    assert metric_value(metrics, "yacht_daily_http_requests_total", method="GET",
                        route="/static/<path:filename>", status="200") >= 1
    assert css.split("/")[2] not in metrics
