"""The rules page of every sheet, in French and English: each box with its one-line rule, the
sheet-level rules, its printable sheets, and a play button only on the daily sheets."""

import html

import pytest

from app.web.sheets_view import typeset
from fairness import DAILY_RULESETS, RULESETS


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_each_sheet_has_its_rules_page(client, ruleset, language):
    answer = client.get(f"/rules/{ruleset}?lang={language}")
    assert answer.status_code == 200
    page = html.unescape(answer.get_data(as_text=True))
    sheet = RULESETS[ruleset]
    assert sheet.names[language] in page
    for box in sheet.column_boxes or sheet.categories:
        name, rule = typeset(box.names[language], language), typeset(box.rule[language], language)
        assert f"<th scope=\"row\">{name}</th><td>{rule}</td>" in page
    assert f"/sheets/{ruleset}.pdf?paper=a4" in page
    assert (f'href="/play/{ruleset}"' in page) == (ruleset in DAILY_RULESETS)


@pytest.mark.parametrize(("ruleset", "language", "text"), [
    ("generala", "en", "A Generala servida is worth 100."),
    ("generala", "fr", "Une générala servie vaut 100."),
    ("yahtzee-triple", "en", "Each column has its own bonus"),
    ("yahtzee-triple", "fr", "Chaque colonne a son propre bonus"),
    ("yahtzee-no-joker", "en", "There is no Joker rule"),
    ("yahtzee-no-joker-no-bonus", "fr", "Pas de bonus pour un Yahtzee de plus"),
    ("yatzy", "en", "+50 bonus for 63 or more"),
])
def test_sheet_level_rules(client, ruleset, language, text):
    page = html.unescape(client.get(f"/rules/{ruleset}?lang={language}").get_data(as_text=True))
    assert text in page


def test_the_index_lists_every_sheet_and_marks_the_daily_ones(client):
    page = html.unescape(client.get("/rules?lang=en").get_data(as_text=True))
    for sheet in RULESETS.values():
        assert f'href="/rules/{sheet.id}"' in page and sheet.names["en"] in page
    assert page.count('<span class="chip">daily</span>') == len(DAILY_RULESETS)


def test_an_unknown_sheet_is_the_404_page(client):
    assert client.get("/rules/kniffel").status_code == 404
