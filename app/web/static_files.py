"""Static files under a content-hashed address, cached for a year, and compressed responses.

Every static file is served at ``/static/<digest>/<path>``, where ``digest`` is a SHA-256 of the
whole static folder (paths and bytes). A digest of the folder rather than of each file keeps the
pages' ES modules cacheable too: their relative imports (``./api.js``) resolve under the same
digest, so a new release changes every address at once and an old address is never reused for
new bytes. Flask serves them (its own static route, with ETag and range support); this module
only names the address and marks the answers immutable. Compression is Flask-Compress's. The
installable app's root files (``pwa``: manifest, service worker) are added with them.
"""

import hashlib
from pathlib import Path

from flask import Flask, request
from flask_compress import Compress

STATIC_FOLDER = Path(__file__).resolve().parents[1] / "static"
DIGEST_LENGTH = 16
ONE_YEAR = 365 * 24 * 3600
# Brotli and gzip, which every browser and HTTP library decodes; not zstd, which some clients
# (requests without the zstandard package) ask for implicitly yet cannot read.
ALGORITHMS = ["br", "gzip", "deflate"]
STREAMING_ALGORITHMS = ["br", "deflate"]
# The fastest levels: a mid-game answer (2.3 KB, ~40 a game, compressed for every browser) takes
# 51 µs at Brotli quality 1 against 208 µs at Flask-Compress's default 4 (732 bytes against 642),
# 74 µs at gzip level 1 against 124 µs at 6 (711 bytes against 651).
BROTLI_QUALITY = 1
GZIP_LEVEL = 1
COMPRESSED_TYPES = [
    "text/html",
    "text/css",
    "text/plain",
    "text/markdown",
    "text/x-python",
    "text/javascript",
    "application/javascript",
    "application/json",
    "image/svg+xml",
]


def folder_digest(folder: Path = STATIC_FOLDER) -> str:
    """A short SHA-256 of every file of ``folder``: its relative path and its bytes."""
    digest = hashlib.sha256()
    for path in sorted(item for item in folder.rglob("*") if item.is_file()):
        if "__pycache__" in path.parts:
            continue
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:DIGEST_LENGTH]


def static_url_path() -> str:
    """The address the static folder is served under: ``/static/<digest>``."""
    return f"/static/{folder_digest()}"


def cache_forever(response):
    """A static file's answer may be kept a year, unchanged: its address names its content."""
    if request.endpoint == "static" and response.status_code in (200, 206, 304):
        response.cache_control.public = True
        response.cache_control.max_age = ONE_YEAR
        response.cache_control.immutable = True
        response.cache_control.no_cache = None
    return response


def init_static(app: Flask) -> None:
    """Mark static answers immutable and compress what is worth compressing."""
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED_TYPES)
    app.config.setdefault("COMPRESS_ALGORITHM", ALGORITHMS)
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", STREAMING_ALGORITHMS)
    app.config.setdefault("COMPRESS_BR_LEVEL", BROTLI_QUALITY)
    app.config.setdefault("COMPRESS_LEVEL", GZIP_LEVEL)
    app.after_request(cache_forever)
    Compress(app)
