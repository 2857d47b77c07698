"""A configured witness's valid cosignature is kept only if its time is plausible — not before
the checkpoint it signs, at most ten minutes after the server's clock — and not older than the
one kept for that checkpoint: each refusal is a 4xx in the API's error shape, nothing kept."""

import datetime as dt

import pytest

from fairness.note import parse_note
from tests.app.logplay import Witness, finish_games
from tests.app.playkit import PLAY_DATE, call

PATH = f"/logs/{PLAY_DATE}/yahtzee"
FUTURE_WINDOW = dt.timedelta(minutes=10)  # FAIRNESS.md: at most this after the server's clock


def posix(moment: str | dt.datetime) -> int:
    """POSIX seconds of an ISO UTC time."""
    if isinstance(moment, str):
        moment = dt.datetime.fromisoformat(moment.replace("Z", "+00:00"))
    return int(moment.timestamp())


@pytest.fixture
def cosigning(logged_app, clock):
    """A log with one checkpoint: (player, the checkpoint's body, its note as served, the
    checkpoint's time in POSIX seconds)."""
    finish_games(logged_app, clock, 1, "yahtzee", seed=21)
    player = logged_app.test_client()
    status, latest = call(player, "GET", f"{PATH}/checkpoint")
    assert status == 200, latest
    body = parse_note(latest["note"])[0]
    time_line = next(line for line in body.splitlines() if line.startswith("time "))
    return player, body, latest["note"], posix(time_line[5:])


def post(player, witness: Witness, body: str, timestamp: int):
    """Post the witness's cosignature of ``body`` at ``timestamp``: (status, answer)."""
    return call(player, "POST", f"{PATH}/cosignatures",
                {"body": body, "signature": witness.line(body, timestamp=timestamp)})


def refusal(answer) -> str | None:
    """The error code of an answer (None for a success)."""
    return answer.get("error", {}).get("code")


def served(player) -> str:
    """The latest checkpoint's note as served now."""
    return call(player, "GET", f"{PATH}/checkpoint")[1]["note"]


@pytest.mark.parametrize("when", ["zero", "just before the checkpoint", "largest",
                                  "past the window"])
def test_an_implausible_time_is_refused(cosigning, witness, clock, when):
    """Time 0, a second before the checkpoint's time, 2^63−1 and a second past the window after
    the server's clock: 400 ``implausible-time``, and the note is served as before."""
    player, body, note, checkpoint_time = cosigning
    timestamp = {"zero": 0, "just before the checkpoint": checkpoint_time - 1,
                 "largest": 2**63 - 1,
                 "past the window": posix(clock() + FUTURE_WINDOW) + 1}[when]
    status, answer = post(player, witness, body, timestamp)
    assert (status, refusal(answer)) == (400, "implausible-time"), answer
    assert set(answer) == {"error"} and answer["error"]["message"]
    assert served(player) == note


def test_the_window_is_inclusive_at_both_ends(cosigning, witness, clock):
    """The checkpoint's own time and the window's last second are both kept."""
    player, body, note, checkpoint_time = cosigning
    assert post(player, witness, body, checkpoint_time) == (201, {"ok": True})
    last = posix(clock() + FUTURE_WINDOW)
    assert post(player, witness, body, last) == (201, {"ok": True})
    assert served(player) == note + witness.line(body, timestamp=last)


def test_a_cosignature_only_moves_forward(cosigning, witness, clock):
    """A newer cosignature replaces the kept one; posting it again is an idempotent 201; an
    older one is a 409 ``stale-cosignature`` that changes nothing."""
    player, body, note, checkpoint_time = cosigning
    now = posix(clock())
    older, newer = witness.line(body, timestamp=now - 5), witness.line(body, timestamp=now)
    assert post(player, witness, body, now - 5) == (201, {"ok": True})
    assert post(player, witness, body, now) == (201, {"ok": True})
    assert served(player) == note + newer
    for _ in range(2):
        assert post(player, witness, body, now) == (201, {"ok": True})
    status, answer = post(player, witness, body, now - 5)
    assert (status, refusal(answer)) == (409, "stale-cosignature"), answer
    assert served(player) == note + newer != note + older
    status, answer = post(player, witness, body, checkpoint_time)
    assert (status, refusal(answer)) == (409, "stale-cosignature"), answer
    assert served(player) == note + newer
