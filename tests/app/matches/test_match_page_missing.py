"""A match page for a match that does not exist (or was removed after its retention) is the
site's own 404 page, not the API's JSON."""


def test_an_unknown_match_page_is_the_sites_404_page(client):
    answer = client.get("/practice/" + "0" * 32, headers={"Accept-Language": "fr"})
    assert answer.status_code == 404
    assert answer.mimetype == "text/html"
    assert "<html" in answer.get_data(as_text=True)


def test_a_malformed_match_id_is_the_sites_404_page(client):
    answer = client.get("/practice/not-an-id")
    assert answer.status_code == 404
    assert answer.mimetype == "text/html"
