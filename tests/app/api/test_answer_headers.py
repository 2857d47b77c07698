"""What every JSON answer of an action carries, however cheaply it is added: a request id, the
security headers, Vary on the language and the cookie, its count in the metrics."""

import re

from playkit import API, PLAY_DATE, start

from app.web.headers import SECURITY_HEADERS

ROLLS_ANSWERED = re.compile(r'yacht_daily_http_requests_total\{method="POST",'
                            r'route="/api/v1/games/<game_id>/roll",status="200"\} ([0-9.]+)')


def rolls_answered(client) -> float:
    """How many rolls /metrics says were answered 200 (this process's registry: all tests')."""
    found = ROLLS_ANSWERED.search(client.get("/metrics").get_data(as_text=True))
    return float(found.group(1)) if found else 0.0


def test_an_action_answer_carries_its_headers_and_is_counted(client):
    """A roll's answer: request id, every security header once, Vary, metrics counted."""
    game = start(client, "yahtzee", PLAY_DATE)
    counted = rolls_answered(client)
    answer = client.post(f"{API}/games/{game['id']}/roll", json={"roll": 0},
                         headers={"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.8"})
    assert answer.status_code == 200
    assert re.fullmatch(r"[0-9a-f]{32}", answer.headers["X-Request-ID"])
    for name, value in SECURITY_HEADERS.items():
        assert answer.headers.getlist(name) == [value]
    assert {"Accept-Language", "Cookie"} <= {part.strip() for part in
                                             answer.headers["Vary"].split(",")}
    assert rolls_answered(client) == counted + 1


def test_lang_in_the_query_sticks_and_the_answer_no_longer_varies_on_the_browser(client):
    """``?lang=`` on an action sets the language cookie, and that answer does not vary on
    Accept-Language; the security headers are there once each."""
    game = start(client, "yacht", PLAY_DATE)
    answer = client.post(f"{API}/games/{game['id']}/roll?lang=fr", json={"roll": 0},
                         headers={"Accept-Language": "en"})
    assert answer.status_code == 200
    assert any(value.startswith("yd_lang=fr;") for value in answer.headers.getlist("Set-Cookie"))
    assert "Accept-Language" not in answer.headers.get("Vary", "")
    assert len(answer.headers.getlist("Content-Security-Policy")) == 1
