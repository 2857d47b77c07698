"""A printable score sheet (PDF) for any sheet: every box with its one-line rule in the reader's
language, columns for up to six players, on one A4 or US Letter page (fpdf2).

English and French are set in the core Helvetica (Latin-1, nothing embedded); Hungarian, whose
ő and ű Latin-1 lacks, in DejaVu Sans Condensed, embedded (static/fonts/, cut down to the Latin
letters and signs)."""

from pathlib import Path

from flask_babel import gettext as _
from fpdf import FPDF
from fpdf.fonts import FontFace

from app.web.sheets_view import PAPERS, SheetView

PLAYERS = 6
MARGIN = 12  # mm
FONT = "Helvetica"  # a core PDF font: Latin-1, which English and French texts fit in
FONTS = Path(__file__).resolve().parents[1] / "static" / "fonts"
EMBEDDED_FONT = "DejaVuSansCondensed"
EMBEDDED_LANGUAGES = ("hu",)  # languages whose letters Latin-1 lacks
BOX_WIDTH = 30  # mm
PLAYER_WIDTH = 14  # mm per player on a one-column sheet, shared by its columns otherwise
COLUMN_WIDTH = 9.5  # mm per column of each player on a sheet of several columns
TOTAL_STYLE = FontFace(emphasis="BOLD", fill_color=(235, 235, 235))
NOTES_HEIGHT = 24  # mm kept under the table for the notes
TALLEST_ROW = 10  # mm: room enough to write a score by hand
SHORTEST_ROW = 4  # mm: one line of 8 pt text
# The core font has no narrow no-break space (French puts one before ":"), no curly apostrophe
# and no minus sign: their nearest Latin-1 characters.
LATIN_1 = str.maketrans({"\u202f": "\u00a0", "\u2019": "'", "\u2212": "-"})


def printable(text: str) -> str:
    """``text`` in the core font's Latin-1."""
    return text.translate(LATIN_1)


class SheetPdf(FPDF):
    """A score sheet's PDF, its texts set in the one font its language needs (``text_font``)."""

    def __init__(self, lang: str, **options):
        super().__init__(**options)
        self.text_font = FONT
        if lang in EMBEDDED_LANGUAGES:
            self.add_font(EMBEDDED_FONT, "", FONTS / f"{EMBEDDED_FONT}.ttf")
            self.add_font(EMBEDDED_FONT, "B", FONTS / f"{EMBEDDED_FONT}-Bold.ttf")
            self.text_font = EMBEDDED_FONT

    def printable(self, text: str) -> str:
        """``text`` as the font can set it (the core font's Latin-1)."""
        return text if self.text_font == EMBEDDED_FONT else printable(text)


def sheet_pdf(sheet: SheetView, paper: str, lang: str = "en") -> bytes:
    """The score sheet of ``sheet`` on ``paper`` (``a4`` or ``letter``), as PDF bytes.

    A sheet of several columns (triple Yahtzee) is printed across the page, with one column
    per player and multiplier; the others down the page. The rows share the page's height,
    as tall as room allows (at most 10 mm) while the sheet stays on one page: a rule that
    wraps makes its row taller, so a layout that spills onto a second page is made again
    with shorter rows.
    """
    row_height = TALLEST_ROW
    while True:
        pdf = _layout(sheet, paper, row_height, lang)
        if pdf.page_no() == 1 or row_height <= SHORTEST_ROW:
            return bytes(pdf.output())
        row_height = max(SHORTEST_ROW, row_height - 0.5)


def _layout(sheet: SheetView, paper: str, tallest_row: float, lang: str) -> FPDF:
    """The whole sheet laid out with rows at most ``tallest_row`` mm high."""
    pdf = SheetPdf(lang, orientation="landscape" if sheet.columns > 1 else "portrait", unit="mm",
               format=PAPERS[paper])
    pdf.set_title(f"{sheet.name} - Yacht Daily")
    pdf.set_creator("Yacht Daily")
    pdf.set_margins(MARGIN, MARGIN, MARGIN)
    pdf.set_auto_page_break(True, MARGIN)
    pdf.add_page()
    _heading(pdf, sheet)
    _table(pdf, sheet, tallest_row)
    _notes(pdf, sheet)
    return pdf


def _heading(pdf: FPDF, sheet: SheetView) -> None:
    """The sheet's name, and a line for the date and the place."""
    pdf.set_font(pdf.text_font, "B", 16)
    pdf.cell(0, 8, f"{sheet.name} · Yacht Daily", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(pdf.text_font, "", 9)
    pdf.cell(0, 6, pdf.printable(_("Date: ____________    Place: ____________")), new_x="LMARGIN",
             new_y="NEXT")
    pdf.ln(2)


def _table(pdf: FPDF, sheet: SheetView, tallest_row: float) -> None:
    """Box, rule, then a column (or one per multiplier) for each player, with the totals."""
    columns = sheet.columns
    score_width = COLUMN_WIDTH if columns > 1 else PLAYER_WIDTH
    rule_width = pdf.epw - BOX_WIDTH - PLAYERS * columns * score_width
    heading_rows = 2 if columns > 1 else 1
    total_rows = 3 + bool(sheet.upper_bonus) + bool(sheet.extra_bonus)
    room = pdf.h - pdf.b_margin - pdf.get_y() - NOTES_HEIGHT
    row_height = min(tallest_row, room / (heading_rows + len(sheet.rows) + total_rows))
    pdf.set_font(pdf.text_font, "", 8)
    with pdf.table(
        min_row_height=row_height,
        col_widths=(BOX_WIDTH, rule_width, *(score_width,) * (PLAYERS * columns)),
        width=pdf.epw,
        text_align=("LEFT", "LEFT", *("CENTER",) * (PLAYERS * columns)),
        line_height=4,
        num_heading_rows=heading_rows,
        padding=(0.8, 1),
    ) as table:
        head = table.row()
        head.cell(pdf.printable(_("Box")), rowspan=2 if columns > 1 else 1)
        head.cell(pdf.printable(_("Rule")), rowspan=2 if columns > 1 else 1)
        for player in range(1, PLAYERS + 1):
            head.cell(pdf.printable(_("Player %(number)s", number=player)), colspan=columns)
        if columns > 1:
            multipliers = table.row()
            for _player in range(PLAYERS):
                for column in range(1, columns + 1):
                    multipliers.cell(f"×{column}")
        for box in sheet.upper_rows:
            _row(pdf, table, box.name, box.rule, columns)
        _row(pdf, table, _("Upper total"), _("The six boxes above"), columns, TOTAL_STYLE)
        if sheet.upper_bonus:
            _row(pdf, table, _("Bonus"), _bonus_rule(sheet), columns, TOTAL_STYLE)
        for box in sheet.lower_rows:
            _row(pdf, table, box.name, box.rule, columns)
        if sheet.extra_bonus:
            _row(pdf, table, _("Extra bonus"), _extra_rule(sheet), columns, TOTAL_STYLE)
        _row(pdf, table, _("Total"), _total_rule(sheet), columns, TOTAL_STYLE)


def _row(pdf: SheetPdf, table, name: str, rule: str, columns: int,
         style: FontFace | None = None) -> None:
    """One line of the sheet: its name, its rule and an empty box per player (and column)."""
    row = table.row(style=style)
    row.cell(pdf.printable(name))
    row.cell(pdf.printable(rule))
    for _cell in range(PLAYERS * columns):
        row.cell("")


def _bonus_rule(sheet: SheetView) -> str:
    """The upper bonus in one line."""
    if sheet.columns > 1:
        return _("+%(bonus)s × the column once its upper boxes total %(threshold)s × the column",
                 bonus=sheet.upper_bonus, threshold=sheet.bonus_threshold)
    return _("+%(bonus)s once the upper boxes total %(threshold)s or more",
             bonus=sheet.upper_bonus, threshold=sheet.bonus_threshold)


def _total_rule(sheet: SheetView) -> str:
    """What the total adds up, naming the upper bonus only on a sheet that has one."""
    if sheet.upper_bonus:
        return _("Upper total, bonus and every box below")
    return _("Upper total and every box below")


def _extra_rule(sheet: SheetView) -> str:
    """The extra five-of-a-kind bonus in one line."""
    if sheet.columns > 1:
        return _("+%(points)s × the column for each further Yahtzee, all Yahtzee boxes "
                 "holding their points", points=sheet.extra_bonus)
    return _("+%(points)s for each further Yahtzee while the Yahtzee box holds 50",
             points=sheet.extra_bonus)


def _notes(pdf: FPDF, sheet: SheetView) -> None:
    """The sheet-level rules a box's line cannot say: the turn, the first roll, the Joker."""
    pdf.ln(3)
    pdf.set_font(pdf.text_font, "", 8)
    notes = [_("A turn: up to three rolls, keeping any dice between rolls; then fill one free "
               "box (0 if the dice do not qualify).")]
    if sheet.first_roll_bonus:
        bonuses = ", ".join(f"{name} +{bonus}" for name, bonus in sheet.first_roll_bonus)
        notes.append(_("Made on the turn's first roll (servida): %(bonuses)s.", bonuses=bonuses))
    if sheet.joker:
        notes.append(_("Joker rule: once the Yahtzee boxes are filled, a further Yahtzee goes in "
                       "its number box if free, else in a free lower box at full value, else 0 "
                       "in an upper box."))
    for note in notes:
        pdf.multi_cell(0, 4, pdf.printable(note), new_x="LMARGIN", new_y="NEXT")
