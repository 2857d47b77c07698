"""The player cookie: signed once, verified once per process, re-signed only when it changes or
is a day old; a forged, expired or foreign cookie is no player's."""

import time

from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from playkit import API, PLAY_DATE, start

COOKIE = "yd_player"
DAY = 24 * 3600


def player_cookies(response) -> list[str]:
    """The Set-Cookie headers of the player cookie in an answer."""
    return [value for value in response.headers.getlist("Set-Cookie")
            if value.startswith(COOKIE + "=")]


def cookie_signed_at(app, data: dict, signed_at: float) -> str:
    """A genuine player cookie with ``data``, signed with the app's key at ``signed_at``."""

    class SignerAt(TimestampSigner):
        """Flask's signer with the signing time chosen."""

        def get_timestamp(self) -> int:
            """The chosen signing time."""
            return int(signed_at)

    interface = app.session_interface
    serializer = URLSafeTimedSerializer(
        app.secret_key, salt=interface.salt, serializer=interface.serializer, signer=SignerAt,
        signer_kwargs={"key_derivation": interface.key_derivation,
                       "digest_method": interface.digest_method})
    return serializer.dumps(data)


def roll(client, game: dict, number: int):
    """Roll everything as action ``number``."""
    return client.post(f"{API}/games/{game['id']}/roll", json={"roll": number})


def test_a_fresh_cookie_is_signed_once_and_not_again_on_each_action(client):
    """Starting sets the cookie; the actions after it answer without a new one, as its player."""
    started = client.post(f"{API}/games", json={"ruleset": "yacht", "date": PLAY_DATE})
    assert started.status_code == 201 and len(player_cookies(started)) == 1
    game = started.get_json()["game"]
    for number in range(3):
        answer = roll(client, game, number)
        assert answer.status_code == 200, answer.get_json()
        assert player_cookies(answer) == []
        named = [name.strip() for name in answer.headers["Vary"].split(",")]
        assert named.count("Cookie") == 1 and len(set(named)) == len(named)
    assert start(client, "yacht", PLAY_DATE)["id"] == game["id"]


def test_a_day_old_cookie_is_signed_again_with_the_same_player(app, client):
    """A cookie signed more than a day ago comes back re-signed, for the same player."""
    game = start(client, "yacht", PLAY_DATE)
    player = client.get_cookie(COOKIE).value
    data = app.session_interface.get_signing_serializer(app).loads(player)
    client.set_cookie(COOKIE, cookie_signed_at(app, data, time.time() - DAY - 60))
    answer = roll(client, game, 0)
    assert answer.status_code == 200
    assert len(player_cookies(answer)) == 1
    assert roll(client, game, 1).status_code == 200


def test_forged_and_expired_cookies_are_no_players(app, client):
    """A cookie with a wrong signature, or signed beyond its lifetime, even for a player this
    process has verified, is no one's: the game answers 403."""
    game = start(client, "yacht", PLAY_DATE)
    genuine = client.get_cookie(COOKIE).value
    data = app.session_interface.get_signing_serializer(app).loads(genuine)
    lifetime = app.permanent_session_lifetime.total_seconds()
    for cookie in (genuine[:-2] + ("AA" if not genuine.endswith("AA") else "BB"),
                   cookie_signed_at(app, data, time.time() - lifetime - 60)):
        client.set_cookie(COOKIE, cookie)
        assert roll(client, game, 0).status_code == 403
    client.set_cookie(COOKIE, genuine)
    assert roll(client, game, 0).status_code == 200
