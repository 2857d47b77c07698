"""The after-request hooks folded into one: an API answer is compressed only from
API_MIN_SIZE bytes, and a page or a static file still gets every page hook."""

import gzip

from playkit import API, PLAY_DATE, start

from app.observability.answer_hooks import API_MIN_SIZE
from app.web.headers import SECURITY_HEADERS

GZIP = {"Accept-Encoding": "gzip"}


def test_an_api_answer_is_compressed_only_when_large(client):
    """A small answer (a 404) goes as it is, varying on the language and the cookie; an
    action's answer past the size is gzipped and varies on the encoding too."""
    small = client.get(f"{API}/games/{'0' * 32}", headers=GZIP)
    assert small.status_code == 404 and "Content-Encoding" not in small.headers
    game = start(client, "yahtzee", PLAY_DATE)
    for number in range(3):
        answer = client.post(f"{API}/games/{game['id']}/roll", json={"roll": number},
                             headers=GZIP)
    plain = client.get(f"{API}/games/{game['id']}").get_data()
    assert answer.status_code == 200 and len(plain) >= API_MIN_SIZE
    assert answer.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(answer.get_data()) == plain
    for response, varies in ((small, {"Accept-Language", "Cookie"}),
                             (answer, {"Accept-Encoding", "Accept-Language", "Cookie"})):
        assert varies <= {part.strip() for part in response.headers["Vary"].split(",")}
        for name, value in SECURITY_HEADERS.items():
            assert response.headers.getlist(name) == [value]


def test_a_large_answer_to_a_client_asking_no_compression_still_varies_on_it(client):
    """Without an encoding Flask-Compress offers (``identity``, or no header), a large answer
    goes as it is, with ``Accept-Encoding`` in its ``Vary`` as Flask-Compress writes it."""
    game = start(client, "yahtzee", PLAY_DATE)
    client.post(f"{API}/games/{game['id']}/roll", json={"roll": 0})
    for number, headers in ((1, {}), (2, {"Accept-Encoding": "identity"})):
        answer = client.post(f"{API}/games/{game['id']}/roll", json={"roll": number},
                             headers=headers)
        assert answer.status_code == 200 and len(answer.get_data()) >= API_MIN_SIZE
        assert "Content-Encoding" not in answer.headers
        assert answer.headers["Vary"] == "Accept-Language, Cookie, Accept-Encoding"
        assert answer.get_json()["game"]["next_action"] == number + 1


def test_pages_and_static_files_keep_their_hooks(app, client):
    """A page: compressed, with the language's Vary and the security headers; a static file:
    cached for a year, immutable."""
    page = client.get("/", headers=GZIP)
    assert page.status_code == 200 and page.headers["Content-Encoding"] == "gzip"
    assert "Accept-Language" in page.headers["Vary"]
    assert page.headers["X-Frame-Options"] == SECURITY_HEADERS["X-Frame-Options"]
    static = client.get(f"{app.static_url_path}/js/api.js")
    assert static.status_code == 200
    assert "immutable" in static.headers["Cache-Control"]
