"""Query parameters as the API takes them: whole numbers in ASCII digits within bounds, or a
clear 400. (``str.isdigit`` alone also accepts digits such as ``²`` that ``int`` refuses.)"""

from flask import request

from app.api.errors import ApiError

MAX_DIGITS = 9


def bounded_int(text: str, low: int, high: int) -> int | None:
    """The whole number ``text`` writes in ASCII digits, if it lies from ``low`` to ``high``."""
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_DIGITS:
        return None
    value = int(text)
    return value if low <= value <= high else None


def query_limit(default: int, maximum: int) -> int:
    """The request's ``?limit=``, a whole number from 1 to ``maximum`` (``default`` when it is
    absent); else a 400 ``invalid-limit``."""
    text = request.args.get("limit")
    if text is None:
        return default
    value = bounded_int(text, 1, maximum)
    if value is None:
        raise ApiError(400, "invalid-limit", f"limit must be a whole number from 1 to {maximum}.")
    return value
