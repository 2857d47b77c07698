"""Whatever text a route's path and query parameters hold, no answer is a 5xx.

The routes come from the app's own URL map, so a route added later is driven too. Each route gets
its path parameters and a few query parameters from one strategy of hostile text: any Unicode,
digits that ``str.isdigit`` accepts and ``int`` refuses (``²``, ``٣``), dates at the edges of the
calendar, huge numbers, and the values that reach deep into a route (a revealed date, a sheet,
a real game id). POST routes also get those values in a JSON body. On a real Redis, with one
revealed day holding a finished game.
"""

import random
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playkit import PLAY_DATE, play_to_end, start

from fairness import DAILY_RULESETS

EXAMPLES_PER_ROUTE = 12
REVEALED_AT = "2026-03-11T13:05:00Z"  # PLAY_DATE's reveal time (grace 3600 s) has passed
QUERY_NAMES = ["limit", "after", "date", "lang"]
BODY_NAMES = ["ruleset", "date", "name", "game", "roll", "hold", "category", "receipt", "code"]
EDGE_DATES = ["9999-12-31", "0001-01-01", "0000-01-01", "1969-12-31", "1970-01-01",
              "9998-12-31", "2026-02-29", "2024-02-29", "2026-3-10", "２０２６-03-10", PLAY_DATE]
EDGE_NUMBERS = ["0", "-1", "1000", "1001", "5000", "0" * 12, "9" * 5000, "1e3", " 5", "5 "]


def hostile_values(known: list[str]) -> st.SearchStrategy[str]:
    """Text a parameter may hold: anything, odd digits and numbers, edge dates, and ``known``
    values that get a request past its first checks."""
    return st.one_of(
        st.text(max_size=40),
        st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=5),
        st.sampled_from(EDGE_DATES + EDGE_NUMBERS + known),
        st.dates().map(str),
        st.integers(min_value=-10**6, max_value=10**12).map(str),
    )


def path_for(rule, values: dict[str, str]) -> str:
    """The rule's path with each parameter replaced by its value, percent-encoded."""
    path = rule.rule
    for name in rule.arguments:
        for placeholder in [f"<{name}>", *(f"<{conv}:{name}>" for conv in ("string", "path",
                                                                          "int", "any"))]:
            path = path.replace(placeholder, quote(values[name], safe=""))
    return path


def driven_routes(app) -> list:
    """Every route of the app with a GET or POST method (HEAD and OPTIONS come with them)."""
    return [rule for rule in app.url_map.iter_rules()
            if {"GET", "POST"} & set(rule.methods or ())]


@pytest.fixture
def revealed_game(app, client, clock, reveal) -> str:
    """A finished yacht game on PLAY_DATE, which the clock then moves past the reveal of."""
    state = play_to_end(client, start(client, "yacht", PLAY_DATE), random.Random(9))
    clock.set(REVEALED_AT)
    reveal()
    assert client.get(f"/api/v1/ledger/{PLAY_DATE}").status_code == 200
    return state["id"]


def drive(client, rule, values: st.SearchStrategy[str]) -> int:
    """Send generated requests to one route and check none is a 5xx; how many were sent."""
    methods = sorted({"GET", "POST"} & set(rule.methods))
    sent = 0

    @settings(max_examples=EXAMPLES_PER_ROUTE, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(method=st.sampled_from(methods),
           path_values=st.fixed_dictionaries({name: values for name in sorted(rule.arguments)}),
           query=st.dictionaries(st.sampled_from(QUERY_NAMES) | st.text(max_size=6), values,
                                 max_size=3),
           body=st.dictionaries(st.sampled_from(BODY_NAMES), values, max_size=4))
    def check(method, path_values, query, body):
        """One request with generated parameters; its answer must not be a server error."""
        nonlocal sent
        sent += 1
        url = path_for(rule, path_values)
        if query:
            url += "?" + urlencode(query, quote_via=quote)
        response = client.open(url, method=method, json=body if method == "POST" else None)
        assert response.status_code < 500, (method, url, body, response.get_data(as_text=True))

    check()
    return sent


def test_no_route_answers_a_server_error_whatever_its_parameters(app, client, revealed_game):
    """Every route, path and query parameters (and POST bodies) generated: never a 5xx."""
    routes = driven_routes(app)
    endpoints = {rule.endpoint for rule in routes}
    assert {"api.leaderboard", "api.day_games", "api.start_game", "web.results"} <= endpoints
    known = [*DAILY_RULESETS, revealed_game, "static", "verify.py"]
    sent = {rule.rule: drive(client, rule, hostile_values(known)) for rule in routes}
    assert all(count == EXAMPLES_PER_ROUTE for count in sent.values()), sent


@pytest.mark.parametrize("path", [
    "/api/v1/leaderboard/2026-03-10/yacht?limit=%C2%B2",
    "/api/v1/leaderboard/2026-03-10/yacht?limit=%D9%A3",
    "/api/v1/leaderboard/2026-03-10/yacht?limit=" + "0" * 5000,
    "/api/v1/days/2026-03-10/yacht/games?limit=%C2%B2",
    "/api/v1/days/2026-03-10/yacht/games?limit=1001",
    "/results/2026-03-10/yacht?limit=%C2%B2",
])
def test_unicode_digits_and_long_numbers_are_an_invalid_limit(client, revealed_game, path):
    """Digits ``int`` refuses, or a number past the bound, are a 400 ``invalid-limit``."""
    response = client.get(path)
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid-limit"


@pytest.mark.parametrize("date", ["9999-12-31", "0001-01-01", "1969-12-31"])
def test_dates_at_the_edges_of_the_calendar_are_an_invalid_date(client, date):
    """Past the dates the service knows: a 400 ``invalid-date`` in the API (starting a game,
    the challenges, the leaderboard, a day's games), a 404 page for the results."""
    answers = [
        client.post("/api/v1/games", json={"ruleset": "yacht", "date": date}),
        client.get(f"/api/v1/challenges?date={date}"),
        client.get(f"/api/v1/leaderboard/{date}/yacht"),
        client.get(f"/api/v1/days/{date}/yacht/games"),
        client.get(f"/api/v1/ledger/{date}"),
    ]
    for answer in answers:
        assert answer.status_code == 400, answer.get_json()
        assert answer.get_json()["error"]["code"] == "invalid-date"
    assert client.get(f"/results/{date}/yacht").status_code == 404


def test_the_last_and_first_dates_the_service_knows_are_served(client):
    """9998-12-31 and 1970-01-01 (the bounds) are ordinary dates: no game can start; the
    results page renders the last, and is a plain 404 for the first (before the first epoch no
    dice were ever dealt)."""
    for date, page in (("9998-12-31", 200), ("1970-01-01", 404)):
        answer = client.post("/api/v1/games", json={"ruleset": "yacht", "date": date})
        assert answer.status_code == 409 and answer.get_json()["error"]["code"] == "date-not-today"
        assert client.get(f"/results/{date}/yacht").status_code == page
