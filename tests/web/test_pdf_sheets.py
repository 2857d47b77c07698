"""The printable score sheets: one PDF page per sheet, A4 or US Letter, whose text (read back
with pypdf) holds every box's name and one-line rule in the reader's language and a column for
each of six players."""

import io
import re

import pytest
from pypdf import PdfReader

from fairness import RULESETS

POINTS_PER_MM = 72 / 25.4
PAPER_MM = {"a4": (210, 297), "letter": (215.9, 279.4)}


def words(text: str) -> str:
    """Text with every run of whitespace as one space (a rule may wrap inside its cell)."""
    return re.sub(r"\s+", " ", text).strip()


def fetch_pdf(client, ruleset: str, paper: str, language: str) -> PdfReader:
    """The PDF the server answers for this sheet, paper and language."""
    answer = client.get(f"/sheets/{ruleset}.pdf?paper={paper}&lang={language}")
    assert answer.status_code == 200, answer.data[:200]
    assert answer.mimetype == "application/pdf"
    assert answer.data.startswith(b"%PDF-")
    return PdfReader(io.BytesIO(answer.data))


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_one_page_with_every_box_and_rule(client, ruleset, paper, language):
    reader = fetch_pdf(client, ruleset, paper, language)
    assert len(reader.pages) == 1
    page = reader.pages[0]
    width, height = (float(page.mediabox.width), float(page.mediabox.height))
    short, long = PAPER_MM[paper]
    expected = (long, short) if RULESETS[ruleset].columns > 1 else (short, long)
    assert (width, height) == pytest.approx(tuple(mm * POINTS_PER_MM for mm in expected), abs=1)
    text = words(page.extract_text())
    sheet = RULESETS[ruleset]
    assert sheet.names[language] in text
    for box in sheet.column_boxes or sheet.categories:
        assert words(box.names[language]) in text, box.id
        assert words(box.rule[language]) in text, box.id
    player = "Joueur" if language == "fr" else "Player"
    assert all(f"{player} {number}" in text for number in range(1, 7))
    assert ("Total" in text) and (("×3" in text) == (sheet.columns > 1))


def test_the_generala_sheet_says_the_first_roll_bonus(client):
    text = words(fetch_pdf(client, "generala", "a4", "en").pages[0].extract_text())
    assert "first roll" in text and "+50" in text


@pytest.mark.parametrize(("query", "status", "code"), [
    ("/sheets/yatzy.pdf?paper=a5", 400, "invalid-paper"),
    ("/sheets/kniffel.pdf", 404, "unknown-ruleset"),
])
def test_bad_requests_are_refused_with_a_code(client, query, status, code):
    answer = client.get(query)
    assert answer.status_code == status
    assert answer.get_json()["error"]["code"] == code


def test_the_rules_page_links_both_papers(client):
    page = client.get("/rules/yahtzee-triple?lang=en").get_data(as_text=True)
    assert 'href="/sheets/yahtzee-triple.pdf?paper=a4"' in page
    assert 'href="/sheets/yahtzee-triple.pdf?paper=letter"' in page
