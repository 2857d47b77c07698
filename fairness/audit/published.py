"""A day's published pages read with each transcript's own text kept, for the whole-day audit.

The service publishes a page of a day's games as JSON whose transcripts are, byte for byte, their
canonical JSON (keys sorted, no whitespace, nothing escaped that need not be). Kept as text, a
transcript need not be encoded again: its entries' texts are the fast replay's lookup keys, and
the text itself is what its receipt hashes. ``PageReader.read`` gives exactly what
``json.loads`` gives, except that a game's transcript it could cut exactly is a
``PublishedTranscript``; anything it cannot cut exactly is parsed as ``json.loads`` parses it.
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


class PublishedTranscript:
    """A transcript as published: its exact text ``[{...},...,{...}]`` and its entries' pieces
    (each entry's text after its opening ``{"action":"``, ``entry_text`` puts it back), each
    checked to give a JSON object (so the whole text is a JSON array of objects, parsed entry by
    entry exactly as it parses whole)."""

    __slots__ = ("text", "pieces")

    def __init__(self, text: str, pieces: tuple[str, ...]):
        """Keep the transcript's text and its entries' pieces."""
        self.text = text
        self.pieces = pieces

    def parsed(self) -> list:
        """The transcript as ``json.loads`` reads it."""
        return json.loads(self.text)


class PageReader:
    """Reads a day's pages (``GET /days/<date>/<sheet>/games``), one reader for the day: the
    entries' texts seen on one page are known valid on the next."""

    def __init__(self):
        """Nothing read yet."""
        # pieces known to give a JSON object, each kept once: a transcript's pieces are the kept
        # ones (equal pieces one object, looked up by the replay at once)
        self._objects: dict[str, str] = {}

    def read(self, text: str):
        """``json.loads(text)``, each game's transcript a ``PublishedTranscript`` where it could
        be cut exactly.

        A transcript is cut at ``"transcript":[`` (its second quote ends a string, so the
        ``:`` after it makes it a key in a valid page) when its first entry opens with
        ``{"action":"``, up to the last ``}]`` before the next transcript's mark (after the
        last mark, up to the first ``}]``), its entries where ``},{"action":"`` opens the next;
        every entry must parse as a JSON object, so the cut text is a whole JSON array, in a
        value's place. The page is then parsed with a placeholder in each cut
        transcript's place, and each placeholder must be found as a game's ``transcript``:
        anything else (a cut not at a game's transcript, a key given twice, the page no longer
        valid) and the page is parsed whole instead. A transcript's pieces are the reader's
        kept copies of their texts.
        """
        if _holds_nul_escape(text):
            return json.loads(text)
        segments, transcripts, copied, find, rfind = [], [], 0, text.find, text.rfind
        add_segment, add_transcript, known = segments.append, transcripts.append, \
            self._objects.__getitem__
        start = find(_MARK)
        while start >= 0:
            opening = start + len(_MARK) - 1
            following = find(_MARK, opening)  # the next transcript's mark, -1 after the last
            if text.startswith(_ENTRIES_START, opening):
                end = (rfind(_ENTRIES_END, opening, following) if following >= 0
                       else find(_ENTRIES_END, opening)) + len(_ENTRIES_END)
                if end < len(_ENTRIES_END):
                    break
                cut = text[opening:end]
                entries = cut.split(_BETWEEN_ENTRIES)  # the first opens the array, the last ends it
                entries[0] = entries[0][len(_ENTRIES_START):]
                entries[-1] = entries[-1][:-len(_ENTRIES_END)]  # the same one when it is alone
                try:
                    pieces = tuple(map(known, entries))
                except KeyError:  # a piece not seen yet
                    pieces = self._known_objects(entries)
                    if pieces is None:
                        return json.loads(text)
            elif text.startswith(_NO_ENTRIES, opening):
                end, cut, pieces = opening + 2, _NO_ENTRIES, ()
            else:
                start = following
                continue
            add_segment(text[copied:opening])
            add_segment(f'"{_NUL_ESCAPE}{len(transcripts)}"')
            add_transcript(PublishedTranscript(cut, pieces))
            copied, start = end, following
        if not transcripts:
            return json.loads(text)
        segments.append(text[copied:])
        try:
            page = json.loads("".join(segments))
        except (ValueError, RecursionError):
            return json.loads(text)
        return page if _placed(page, transcripts) else json.loads(text)

    def _known_objects(self, pieces: list[str]) -> tuple[str, ...] | None:
        """The kept copies of ``pieces`` when every piece gives a JSON object (``entry_text``
        parses: an entry's canonical text does), each then known; None at the first that does
        not."""
        known = self._objects
        for piece in pieces:
            if piece not in known:
                if not is_canonical_entry(piece):
                    try:
                        json.loads(entry_text(piece))
                    except (ValueError, RecursionError):
                        return None
                known[piece] = piece
        return tuple(map(known.__getitem__, pieces))


def _holds_nul_escape(text: str) -> bool:
    """``_NUL_ESCAPE in text``, looked for at the text's backslashes alone (a page has few,
    and searching for them is quicker than for the escape itself)."""
    backslash = text.find("\\")
    while backslash >= 0:
        if text.startswith(_NUL_ESCAPE, backslash):
            return True
        backslash = text.find("\\", backslash + 1)
    return False


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
