"""A day's published pages read with each transcript's own text kept, for the whole-day audit.

The service publishes a page of a day's games as JSON whose transcripts are, byte for byte, their
canonical JSON (keys sorted, no whitespace, nothing escaped that need not be). Kept as text, a
transcript need not be encoded again: its entries' texts are the fast replay's lookup keys, and
the text itself is what its receipt hashes. ``PageReader.read`` gives exactly what
``json.loads`` gives, except that a game's transcript it could cut exactly is a
``PublishedTranscript``; anything it cannot cut exactly is parsed as ``json.loads`` parses it.
A reader given the day's replay replays each transcript as soon as it has cut it, on its pieces
fresh from the page.
"""

import json

from .entry_text import ENTRY_OPENING, entry_text, is_canonical_entry

_MARK = '"transcript":['
_ENTRIES_START, _BETWEEN_ENTRIES = "[" + ENTRY_OPENING, "}," + ENTRY_OPENING
_ENTRIES_END, _NO_ENTRIES = "}]", "[]"
# A placeholder is a string starting with U+0000, which a page can only hold as the escape
# \u0000: a page holding that escape anywhere is parsed whole, so every placeholder parsed is one
# the reader wrote
_NUL_ESCAPE = "\\u0000"
_NUL = "\0"
# Canonical transcript text never holds a "_" (no key, box id or value has one) and every receipt
# does (its transcript_sha256): the next transcript's mark is looked for from the next "_"
# rather than through the text of the transcript before it
_LANDMARK = "_"


class PublishedTranscript:
    """A transcript as published: its exact text ``[{...},...,{...}]``, checked to be a JSON
    array of objects (parsed entry by entry exactly as it parses whole), and its entries'
    pieces (each entry's text after its opening ``{"action":"``, ``entry_text`` puts it back).

    ``replay`` is the reader's replay when it replayed the transcript as it was cut, and
    ``sheet`` what it made of it (else both None); the pieces are then cut again from the text
    only if they are asked for."""

    __slots__ = ("text", "_pieces", "replay", "sheet")

    def __init__(self, text: str, pieces: tuple[str, ...] | None, replay=None,
                 sheet: tuple | None = None):
        """Keep the transcript's text and its entries' pieces (None: cut when needed), and
        what ``replay`` made of it."""
        self.text = text
        self._pieces = pieces
        self.replay = replay
        self.sheet = sheet

    @property
    def pieces(self) -> tuple[str, ...]:
        """The entries' pieces."""
        if self._pieces is None:
            self._pieces = tuple(_entry_pieces(self.text))
        return self._pieces

    def parsed(self) -> list:
        """The transcript as ``json.loads`` reads it."""
        return json.loads(self.text)


class PageReader:
    """Reads a day's pages (``GET /days/<date>/<sheet>/games``), one reader for the day: the
    entries' texts seen on one page are known valid on the next."""

    def __init__(self):
        """Nothing read yet. Once ``replay`` is the day's ``PublishedReplay`` (``audit_day``
        sets it), each transcript is replayed as soon as it is cut, on its pieces fresh from
        the page."""
        # pieces known to give a JSON object, each kept once: a transcript's pieces are the kept
        # ones (equal pieces one object, looked up by the replay at once)
        self._objects: dict[str, str] = {}
        self.replay = None

    def read(self, text: str):
        """``json.loads(text)``, each game's transcript a ``PublishedTranscript`` where it could
        be cut exactly.

        A transcript is cut at ``"transcript":[`` (its second quote ends a string, so the
        ``:`` after it makes it a key in a valid page) when its first entry opens with
        ``{"action":"``, up to the last ``}]`` before the next transcript's mark (after the
        last mark, up to the first ``}]``), its entries where ``},{"action":"`` opens the next;
        every entry must parse as a JSON object, so the cut text is a whole JSON array, in a
        value's place. A transcript that cannot be cut so stays in the page's text. The page
        is then parsed with a placeholder in each cut transcript's place, and each placeholder
        must be found as a game's ``transcript``: anything else (a cut not at a game's
        transcript, a key given twice, the page no longer valid) and the page is parsed whole
        instead. A transcript's pieces are the reader's kept copies of their texts; with a
        replay, a transcript it replays to the end keeps what the replay made of it instead
        (each of its pieces, one the replay has learnt a step from, gives a JSON object).
        """
        if _holds_nul_escape(text):
            return json.loads(text)
        segments, transcripts, copied = [], [], 0
        start = text.find(_MARK)
        while start >= 0:
            opening = start + len(_MARK) - 1
            start, end, transcript = self._cut(text, opening)
            if transcript is not None:
                segments.append(text[copied:opening])
                segments.append(f'"{_NUL_ESCAPE}{len(transcripts)}"')
                transcripts.append(transcript)
                copied = end
        if not transcripts:
            return json.loads(text)
        segments.append(text[copied:])
        try:
            page = json.loads("".join(segments))
        except (ValueError, RecursionError):
            return json.loads(text)
        return page if _placed(page, transcripts) else json.loads(text)

    def _cut(self, text: str, opening: int) -> tuple[int, int, "PublishedTranscript | None"]:
        """(the next transcript's mark or -1, the end of the cut, the transcript) of the
        transcript whose ``[`` is at ``opening``; the transcript None when it is not cut.

        The next mark is first looked for past the next ``_`` (``_next_mark``); when the cut
        up to it fails, past ``opening`` itself."""
        if text.startswith(_NO_ENTRIES, opening):
            return text.find(_MARK, opening), opening + 2, PublishedTranscript(_NO_ENTRIES, ())
        if not text.startswith(_ENTRIES_START, opening):
            return text.find(_MARK, opening), opening, None
        following = _next_mark(text, opening)
        end, transcript = self._cut_before(text, opening, following)
        if transcript is None:
            nearest = text.find(_MARK, opening)
            if nearest != following:
                following = nearest
                end, transcript = self._cut_before(text, opening, following)
        return following, end, transcript

    def _cut_before(self, text: str, opening: int,
                    following: int) -> tuple[int, "PublishedTranscript | None"]:
        """(the end, the transcript) of the array of entries opening at ``opening`` and ending
        at the last ``}]`` before ``following`` (when -1, at the first ``}]``); the transcript
        None when there is no such end or an entry between does not parse as a JSON object."""
        end = (text.rfind(_ENTRIES_END, opening, following) if following >= 0
               else text.find(_ENTRIES_END, opening)) + len(_ENTRIES_END)
        if end < len(_ENTRIES_END):
            return opening, None
        cut = text[opening:end]
        entries = _entry_pieces(cut)
        if self.replay is not None:
            sheet = self.replay.sheet_of_pieces(cut, entries)
            if sheet is not None:  # each piece one the replay has read: it gives a JSON object
                return end, PublishedTranscript(cut, None, self.replay, sheet)
        try:
            pieces = tuple(map(self._objects.__getitem__, entries))
        except KeyError:  # a piece not seen yet
            pieces = self._known_objects(entries)
            if pieces is None:
                return opening, None
        return end, PublishedTranscript(cut, pieces)

    def _known_objects(self, pieces: list[str]) -> tuple[str, ...] | None:
        """The kept copies of ``pieces`` when every piece gives a JSON object (``entry_text``
        parses: an entry's canonical text does), each then known; None at the first that does
        not."""
        known = self._objects
        for piece in set(pieces).difference(known):
            if not is_canonical_entry(piece):
                try:
                    json.loads(entry_text(piece))
                except (ValueError, RecursionError):
                    return None
            known[piece] = piece
        return tuple(map(known.__getitem__, pieces))


def _entry_pieces(cut: str) -> list[str]:
    """The pieces of the entries of ``cut``, a text ``[{"action":"...},...,{"action":"...}]``:
    cut where ``},{"action":"`` opens the next, without the array's opening and end."""
    entries = cut.split(_BETWEEN_ENTRIES)  # the first opens the array, the last ends it
    entries[0] = entries[0][len(_ENTRIES_START):]
    entries[-1] = entries[-1][:-len(_ENTRIES_END)]  # the same one when it is alone
    return entries


def _holds_nul_escape(text: str) -> bool:
    """``_NUL_ESCAPE in text``, looked for at the text's backslashes alone (a page has few,
    and searching for them is quicker than for the escape itself)."""
    backslash = text.find("\\")
    while backslash >= 0:
        if text.startswith(_NUL_ESCAPE, backslash):
            return True
        backslash = text.find("\\", backslash + 1)
    return False


def _next_mark(text: str, opening: int) -> int:
    """The mark of a transcript after the one whose ``[`` is at ``opening``, -1 when there is
    none: the first after the next ``_`` (the next transcript's when the game before it has a
    receipt, a later one when not: a cut up to it then fails), else the next."""
    landmark = text.find(_LANDMARK, opening)
    return text.find(_MARK, landmark if landmark >= 0 else opening)


def _placed(page, transcripts: list[PublishedTranscript]) -> bool:
    """Put each cut transcript in its placeholder's place; True when every placeholder was a
    game's ``transcript`` (each placeholder is parsed once at most: then each was placed)."""
    games = page.get("games") if type(page) is dict else None
    placed = 0
    for game in games if type(games) is list else ():
        transcript = game.get("transcript") if type(game) is dict else None
        if type(transcript) is str and transcript[:1] == _NUL:
            game["transcript"] = transcripts[int(transcript[1:])]
            placed += 1
    return placed == len(transcripts)
