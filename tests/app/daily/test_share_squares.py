"""The ``squares`` share text (``GET /games/<id>/share?style=squares``, what the play page
copies): a first line a friend reads without having played, in each language's number format,
then one mark per turn from the coach's review, the plain text's other lines after it, no dice;
the default ``plain`` text unchanged; while the review is not ready, no skill figure and no
marks' line, never a broken one."""

import random
import re

import pytest
from playkit import PLAY_DATE, app_on, call, play_to_end, start

from app.boards.figures import loss_text
from app.daily.share import TURN_MARKS, turn_mark, turn_marks
from app.services import EXTENSION
from tests.app.coach.test_tables_not_ready import ComputingTables

MARKS = "".join(mark for _, mark in TURN_MARKS)


@pytest.mark.parametrize(("loss", "mark"), [
    (0.0, "🟩"), (0.004, "🟩"), (1e-12, "🟩"), (0.005, "🟡"), (0.5, "🟡"), (0.994, "🟡"),
    (0.995, "🔶"), (1.0, "🔶"), (4.99, "🔶"), (4.995, "❌"), (5.0, "❌"), (42.2, "❌"),
])
def test_a_turns_mark_by_the_points_it_gave_away(loss, mark):
    """To the hundredth, as the review page shows a turn (0.00 is its "best play")."""
    assert turn_mark(loss) == mark


def test_each_mark_is_its_own_shape():
    """Four marks, four different emoji: square, circle, diamond, triangle."""
    assert [mark for _, mark in TURN_MARKS] == ["🟩", "🟡", "🔶", "❌"]
    assert turn_marks([0, 0.3, 2.5, 7.1, 0]) == "🟩🟡🔶❌🟩"


def review_turns(client, game_id: str) -> list[float]:
    """The per-turn losses of the game's review, as the review API gives them."""
    status, review = call(client, "GET", f"/games/{game_id}/review")
    assert status == 200
    return [turn["loss"] for turn in review["turns"]]


@pytest.mark.parametrize("ruleset", ["yahtzee", "yacht"])
def test_the_squares_text_from_a_known_review(client, ruleset):
    final = play_to_end(client, start(client, ruleset, PLAY_DATE), random.Random(3))
    losses = review_turns(client, final["id"])
    status, review = call(client, "GET", f"/games/{final['id']}/review")
    assert len(losses) == final["turns"]
    total, figure = final["totals"]["total"], loss_text(review["loss"])
    english = client.get(f"/api/v1/games/{final['id']}/share?style=squares&lang=en").text
    first, marks, details, link = english.splitlines()
    assert first == f"Yacht Daily {PLAY_DATE} · {review_name(ruleset)}: {total} points, " \
                    f"{figure} points below perfect play"
    assert marks == turn_marks(losses) and len(marks) == final["turns"]
    plain = client.get(f"/api/v1/games/{final['id']}/share?lang=en").text
    plain_details, plain_link = plain.splitlines()[1:]
    assert plain_details == details and link == f"{plain_link}verify?game={final['id']}"
    french = client.get(f"/api/v1/games/{final['id']}/share?style=squares&lang=fr").text
    first_fr, marks_fr, details_fr, _ = french.splitlines()
    assert first_fr == (f"Yacht Daily {PLAY_DATE} · {review_name(ruleset, 'fr')}\u202f: "
                        f"{total} points, à {figure.replace('.', ',')} points du jeu parfait")
    assert marks_fr == marks and details_fr.startswith(f"{final['turns']} cases : ")
    dice = {str(a["dice"]) for a in final["transcript"] if a["action"] == "roll"}
    boxes = set(final["boxes"])
    for text in (english, french):
        assert not any(shown in text for shown in dice)
        assert not any(box in text.lower() for box in boxes - {"yahtzee", "yacht"})


def review_name(ruleset: str, language: str = "en") -> str:
    """The sheet's name as the share text writes it."""
    from fairness import get_ruleset

    return get_ruleset(ruleset).names[language]


def test_the_plain_text_is_the_default_and_stays_as_it_was(client):
    """No style, or ``plain``: the text the API always gave, marks nowhere."""
    final = play_to_end(client, start(client, "yahtzee", PLAY_DATE), random.Random(4))
    default = client.get(f"/api/v1/games/{final['id']}/share").text
    assert client.get(f"/api/v1/games/{final['id']}/share?style=plain").text == default
    assert re.fullmatch(rf"Yacht Daily {PLAY_DATE} - Yahtzee - \d+ points - −\d+\.\d vs perfect "
                        r"play\n13 boxes: .*\nhttps://yacht\.example/\n", default)
    assert not set(default) & set(MARKS)


def test_an_unknown_style_is_refused(client):
    final = play_to_end(client, start(client, "yacht", PLAY_DATE), random.Random(5))
    status, body = call(client, "GET", f"/games/{final['id']}/share?style=emoji")
    assert (status, body["error"]["code"]) == (400, "invalid-field")


def test_singular_points_in_each_language():
    """French puts every figure under 2 in the singular, English only the whole number 1."""
    from app.daily.share import _TEXTS, _points

    assert _points(_TEXTS["en"], "1.0", False) == "1.0 points"
    assert _points(_TEXTS["fr"], "1,5", True) == "1,5 point"


def test_while_the_review_is_not_ready_no_marks_and_no_figure(
        redis_client, redis_url, data_dir, clock, strategy_tables_dir):
    """The sheet's table still loading: the first line stops at the points, no marks' line."""
    app = app_on(redis_url, data_dir, clock, PUBLIC_URL="https://yacht.example/")
    app.extensions[EXTENSION].coach.tables = ComputingTables()
    client = app.test_client()
    final = play_to_end(client, start(client, "yahtzee", PLAY_DATE), random.Random(6))
    text = client.get(f"/api/v1/games/{final['id']}/share?style=squares&lang=en").text
    total = final["totals"]["total"]
    assert text.splitlines()[0] == f"Yacht Daily {PLAY_DATE} · Yahtzee: {total} points"
    assert len(text.splitlines()) == 3 and not set(text) & set(MARKS)
