"""A day's published pages read with each transcript's own text kept, for the whole-day audit.

The service publishes a page of a day's games as JSON whose transcripts are, byte for byte, their
canonical JSON (keys sorted, no whitespace, nothing escaped that need not be). Kept as text, a
transcript need not be encoded again: its entries' texts are the fast replay's lookup keys, and
the text itself is what its receipt hashes. ``PageReader.read`` gives exactly what
``json.loads`` gives, except that a game's transcript it could cut exactly is a
``PublishedTranscript``; anything it cannot cut exactly is parsed as ``json.loads`` parses it.
"""

import json

_MARK = '"transcript":['
_ENTRIES_START, _BETWEEN_ENTRIES, _ENTRIES_END = "[{", "},{", "}]"
# A placeholder is a string starting with U+0000, which a page can only hold as the escape
# \u0000: a page holding that escape anywhere is parsed whole, so every placeholder parsed is one
# the reader wrote
_NUL_ESCAPE = "\\u0000"
_NUL = "\0"


class PublishedTranscript:
    """A transcript as published: its exact text ``[{...},...,{...}]`` and its entries' texts
    between their braces, each checked to be a JSON object's members (so the whole text is a
    JSON array of objects, parsed entry by entry exactly as it parses whole)."""

    __slots__ = ("text", "pieces")

    def __init__(self, text: str, pieces: list[str]):
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
        self._objects: set[str] = set()  # pieces known to be a JSON object's members

    def read(self, text: str):
        """``json.loads(text)``, each game's transcript a ``PublishedTranscript`` where it could
        be cut exactly.

        A transcript is cut at ``"transcript":[`` (its second quote ends a string, so the
        ``:`` after it makes it a key in a valid page), up to the first ``}]`` after it, its
        entries at ``},{``; every entry must parse as a JSON object, so the cut text is a whole
        JSON array, in a value's place. The page is then parsed with a placeholder in each cut
        transcript's place, and each placeholder must be found as a game's ``transcript``:
        anything else (a cut not at a game's transcript, a key given twice, the page no longer
        valid) and the page is parsed whole instead.
        """
        if _NUL_ESCAPE in text:
            return json.loads(text)
        segments, transcripts, copied, position, find = [], [], 0, 0, text.find
        while (start := find(_MARK, position)) >= 0:
            opening = position = start + len(_MARK) - 1
            if text.startswith("[]", opening):
                end, pieces = opening + 2, []
            elif text.startswith(_ENTRIES_START, opening):
                end = find(_ENTRIES_END, opening) + len(_ENTRIES_END)
                if end < len(_ENTRIES_END):
                    break
                pieces = text[opening + 2:end - 2].split(_BETWEEN_ENTRIES)
                if not self._objects.issuperset(pieces) and not self._known_objects(pieces):
                    return json.loads(text)
            else:
                continue
            segments += (text[copied:opening], f'"{_NUL_ESCAPE}{len(transcripts)}"')
            transcripts.append(PublishedTranscript(text[opening:end], pieces))
            copied = position = end
        if not transcripts:
            return json.loads(text)
        segments.append(text[copied:])
        try:
            page = json.loads("".join(segments))
        except (ValueError, RecursionError):
            return json.loads(text)
        return page if _placed(page, transcripts) else json.loads(text)

    def _known_objects(self, pieces: list[str]) -> bool:
        """True when every piece is a JSON object's members (``{piece}`` parses), each then
        known; False at the first that is not."""
        for piece in pieces:
            if piece not in self._objects:
                try:
                    json.loads("{" + piece + "}")
                except (ValueError, RecursionError):
                    return False
                self._objects.add(piece)
        return True


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
