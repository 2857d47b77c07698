"""The player cookie is known by the whole Cookie header it came in: the same cookie beside
other cookies is the same player, and a long header (other cookies beside ours) is verified
each time without being kept."""

from playkit import API, PLAY_DATE, start

from app.players.service import MAX_KEPT_HEADER

COOKIE = "yd_player"


def roll(client, game: dict, number: int):
    """Roll everything as action ``number``."""
    return client.post(f"{API}/games/{game['id']}/roll", json={"roll": number})


def test_the_same_cookie_beside_other_cookies_is_the_same_player(app, client):
    """Each header the cookie comes in is verified once, then kept; a long one is not kept."""
    game = start(client, "yacht", PLAY_DATE)
    kept = app.session_interface._verified
    assert roll(client, game, 0).status_code == 200
    client.set_cookie("yd_lang", "fr")
    assert roll(client, game, 1).status_code == 200
    assert len(kept) == 2
    client.set_cookie("other", "x" * MAX_KEPT_HEADER)
    assert roll(client, game, 2).status_code == 200
    assert client.get(f"{API}/games/{game['id']}").status_code == 200  # still its player
    assert len(kept) == 2


def test_a_forged_cookie_beside_a_kept_header_is_no_player(app, client):
    """A header whose player cookie differs from a kept header's is verified on its own."""
    game = start(client, "yacht", PLAY_DATE)
    assert roll(client, game, 0).status_code == 200
    genuine = client.get_cookie(COOKIE).value
    client.set_cookie(COOKIE, genuine[:-2] + ("AA" if not genuine.endswith("AA") else "BB"))
    assert roll(client, game, 1).status_code == 403
