"""The published objects, fetched from a server's API or read from downloaded files."""

import json
import re
import time
import urllib.error
import urllib.request

API_PREFIX = "/api/v1"
FETCH_TIMEOUT = 120
RETRIES, MAX_WAIT = 10, 120  # on a 429: wait as Retry-After says (seconds, at most MAX_WAIT)
HEX_KEY = re.compile(r"[0-9a-f]{64}")


def fetch(base, path, read=json.loads):
    """GET a JSON document from the server's API, read from its text by ``read``; a 429 (rate
    limited) is waited out and asked again, up to RETRIES times."""
    url = base.rstrip("/") + API_PREFIX + path
    request = urllib.request.Request(url, headers={"Accept": "application/json",
                                                   "User-Agent": "yacht-daily-verify/1"})
    for attempt in range(RETRIES + 1):
        try:
            with urllib.request.urlopen(request, timeout=FETCH_TIMEOUT) as response:
                return read(response.read().decode("utf-8"))
        except urllib.error.HTTPError as error:
            if error.code != 429 or attempt == RETRIES:
                raise OSError(f"{url}: HTTP {error.code}: {error_message(error)}") from None
            time.sleep(retry_after(error))
        except OSError as error:
            raise OSError(f"{url}: {error}") from None


def retry_after(error) -> int:
    """The seconds a 429 asks to wait (its Retry-After), from 1 to MAX_WAIT."""
    text = error.headers.get("Retry-After", "")
    seconds = int(text) if text.isascii() and text.isdigit() and len(text) < 6 else 1
    return min(max(seconds, 1), MAX_WAIT)


def error_message(error) -> str:
    """The API's own explanation of an HTTP error (its JSON error message), or the reason."""
    try:
        return json.loads(error.read().decode("utf-8"))["error"]["message"]
    except (ValueError, KeyError, TypeError, OSError):
        return str(error.reason)


def unwrapped(value, wrappers):
    """``value`` taken out of the API answers' wrapper keys (``{"game": …}``…) when present."""
    for key in wrappers:
        if isinstance(value, dict) and key in value and "type" not in value:
            value = value[key]
    return value


def load(path, *wrappers):
    """A local JSON file, unwrapped from the API answers' wrapper keys when present."""
    with open(path, encoding="utf-8") as handle:
        return unwrapped(json.load(handle), wrappers)


def read_source(source, *wrappers):
    """A JSON document from a URL (http or https, under /api/v1) or a local file."""
    if not source.startswith(("http://", "https://")):
        return load(source, *wrappers)
    base, _, path = source.partition(API_PREFIX)
    return unwrapped(fetch(base, path), wrappers)


def read_text(path) -> str:
    """A text file's content (a saved checkpoint, a friend's share text)."""
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def read_keys(values) -> set:
    """The Ed25519 public keys given to --expect-key: each a 64-digit hex key, or a file of
    such keys (whitespace-separated)."""
    keys = set()
    for value in values:
        words = [value] if HEX_KEY.fullmatch(value.lower()) else read_text(value).split()
        for word in words:
            if not HEX_KEY.fullmatch(word.lower()):
                raise ValueError(f"--expect-key: {word!r} is no 64-digit hex Ed25519 public key")
            keys.add(word.lower())
    return keys


def day_page_path(date, sheet, limit, after=None) -> str:
    """The API path of the page of a day's games after game id ``after`` (None: the first)."""
    path = f"/days/{date}/{sheet}/games?limit={limit}"
    return path if after is None else f"{path}&after={after}"


def day_games(base, date, sheet, limit, page, read=json.loads, progress=None):
    """Every game of the day, page by page from ``page`` (the first, already fetched) on, each
    page read by ``read``: only one page is held. ``progress(done, total)`` is told each game."""
    done, total = 0, page.get("total")
    while True:
        for game in page["games"]:
            done += 1
            if progress is not None:
                progress(done, total)
            yield game
        if page.get("next") is None:
            return
        page = fetch(base, day_page_path(date, sheet, limit, page["next"]), read)
