"""Settings read from the environment, each with the default a fresh clone runs on.

``REDIS_URL``: the Redis (or Valkey) to use; unset, ``serve`` starts an embedded redis-server.
``YACHT_DAILY_DATA_DIR``: where the secrets (and the embedded Redis's files) live, ``./var``.
``YACHT_DAILY_REVEAL_GRACE``: seconds a day stays playable for games in progress after it has
ended everywhere, 3600.
``YACHT_DAILY_REVEAL_IN_WORKERS``: ``0`` leaves reveals to ``yacht-daily reveal`` alone (by
default each web worker runs a reveal thread; one at a time reveals, under a Redis lease).
``YACHT_DAILY_EPOCH_CHECK_SECONDS``: how often each process looks in the data directory for an
epoch ``new-epoch`` added, at most, ``1`` (``0``: on every request).
``YACHT_DAILY_DAY_FORMAT``: the format dates start in from now on, ``2`` (the day's log,
FAIRNESS.md) by default; ``1`` keeps new dates unlogged. A date keeps the format of its first game.
``YACHT_DAILY_WITNESSES``: the witness keys (C2SP vkeys, comma or space separated) whose
cosignatures of the day's checkpoints the service keeps and serves; also read from
``<data dir>/witnesses.txt``, one a line.
``YACHT_DAILY_LOG_ORIGIN``: the service log's origin when no public URL is set (with one, the
origin is ``<its host and path>/log``), else ``localhost/log``. The origin is recorded at the log's
first checkpoint: a process configured with another one refuses to start.
``YACHT_DAILY_LOG_WITNESSES``: the service log's witnesses, comma separated, each
``<witness vkey> <submission URL prefix>`` (the service POSTs ``<prefix>/add-checkpoint``, C2SP
tlog-witness); also read from ``<data dir>/log-witnesses.txt``, one a line.
``YACHT_DAILY_PUBLIC_URL``: the site's address in the links the API gives (share texts, tables'
join and watch links); an https one also marks the player cookie Secure (as does a request that
came over https).
``YACHT_DAILY_ALLOWED_HOSTS``: without a public URL, the hosts (``host`` for any port, or
``host:port``; comma or space separated) a request may be answered with links to, the first one
for any other request; unset, the loopback names (``localhost``, ``127.0.0.1``, ``[::1]``), any
other host getting links relative to the site. A request's ``Host`` never puts another site in a
link.
``YACHT_DAILY_PROXY_HOPS``: how many reverse proxies in front set X-Forwarded-For/-Proto, 0.
``YACHT_DAILY_STREAMS_PER_ADDRESS``: tables' event streams one client address may hold open at
once, across every worker and replica (counted in Redis), ``20``; past it a 429.
``YACHT_DAILY_STREAMS_PER_WORKER``: event streams one worker process holds open at once, ``400``
(below gevent's 1000 connections a worker, so requests always find room); past it a 503.
``YACHT_DAILY_QUEUE_BUDGET_MS``: how long a request may have waited (in the kernel's queues,
then for a slot) before a worker reaches it; past it the request is refused at once with
``503 overloaded`` and ``Retry-After`` (app/observability/admission.py), ``50``; ``0`` refuses none.
``YACHT_DAILY_IN_FLIGHT_PER_WORKER``: requests a ``gevent`` or ``gthread`` worker serves at once,
``4``; the others wait for a slot within the queue budget.
``YACHT_DAILY_STRATEGY_DIR``: where the strategy tables are kept, ``<data dir>/strategy``.
``YACHT_DAILY_LOG_LEVEL``: the app's log level, ``INFO``.
``YACHT_DAILY_LOG_FORMAT``: ``json`` (one object per line, the default) or ``text``.
``YACHT_DAILY_RATE_LIMITS``: ``off`` turns the rate limits off (on by default; off under
``TESTING`` unless a test turns them on).
``YACHT_DAILY_RATE_LIMIT_CREATE``: games created or resumed per client address, ``60/minute``.
``YACHT_DAILY_RATE_LIMIT_MATCHES``: matches (practice, vs computer) created, and tables created,
joined or started, per client address, ``30/minute;120/hour``.
``YACHT_DAILY_RATE_LIMIT_ACTIONS``: rolls and scorings of matches and tables, and matches'
``advance``, per client address, ``1200/minute``; also, in each process's memory (no Redis),
the daily games' action requests per client address that do not reach the compare-and-set.
``YACHT_DAILY_RATE_LIMIT_GAME_ACTIONS``: a daily game's rolls and scorings, per game, counted by
the action's compare-and-set, ``120/minute`` (a whole game is at most 60 actions).
``YACHT_DAILY_RATE_LIMIT_VERIFY``: verifications per client address, ``60/minute``.
``YACHT_DAILY_RATE_LIMIT_DAY_GAMES``: pages of a day's games per client address, ``120/minute``.
Only successful (2xx) answers count against these budgets but the daily games' actions': those
that reach the compare-and-set count per game, applied or not; the others in memory.
``YACHT_DAILY_RATE_LIMIT_TRANSFER``: transfer codes made or redeemed, and friend groups joined by
code, per client address,
``20/hour``; every attempt counts, a refused one too (it is a code guesser's budget).
``YACHT_DAILY_RATE_LIMIT_COSIGNATURES``: witnesses' cosignatures posted per client address,
``120/minute``; every attempt counts, a refused one too.
"""

import datetime as dt
import os
from pathlib import Path

DEFAULT_DATA_DIR = "./var"
DEFAULT_REVEAL_GRACE = 3600
DEFAULT_EPOCH_CHECK_SECONDS = 1.0
MAX_REQUEST_BYTES = 16 * 1024
PLAYER_COOKIE_DAYS = 400
DEFAULT_STREAMS_PER_ADDRESS = 20
DEFAULT_STREAMS_PER_WORKER = 400
DEFAULT_QUEUE_BUDGET_MS = 50
DEFAULT_IN_FLIGHT_PER_WORKER = 4
DEFAULT_RATE_LIMITS = {
    "RATE_LIMIT_CREATE": "60/minute",
    "RATE_LIMIT_MATCHES": "30/minute;120/hour",
    "RATE_LIMIT_ACTIONS": "1200/minute",
    "RATE_LIMIT_GAME_ACTIONS": "120/minute",
    "RATE_LIMIT_VERIFY": "60/minute",
    "RATE_LIMIT_DAY_GAMES": "120/minute",
    "RATE_LIMIT_TRANSFER": "20/hour",
    "RATE_LIMIT_COSIGNATURES": "120/minute",
}


def data_dir_from_env() -> Path:
    """The data directory the environment names, or the default ``./var``."""
    return Path(os.environ.get("YACHT_DAILY_DATA_DIR") or DEFAULT_DATA_DIR)


def strategy_dir(config) -> Path:
    """Where the app's strategy tables are kept: ``STRATEGY_DIR``, else ``<DATA_DIR>/strategy``."""
    return Path(config.get("STRATEGY_DIR") or Path(config["DATA_DIR"]) / "strategy")


def settings_from_env() -> dict:
    """The app's configuration as the environment sets it."""
    return {
        "REDIS_URL": os.environ.get("REDIS_URL") or None,
        "DATA_DIR": str(data_dir_from_env()),
        "REVEAL_GRACE": int(os.environ.get("YACHT_DAILY_REVEAL_GRACE") or DEFAULT_REVEAL_GRACE),
        "REVEAL_IN_WORKERS": os.environ.get("YACHT_DAILY_REVEAL_IN_WORKERS", "1") != "0",
        "PUBLIC_URL": os.environ.get("YACHT_DAILY_PUBLIC_URL") or None,
        "ALLOWED_HOSTS": os.environ.get("YACHT_DAILY_ALLOWED_HOSTS") or None,
        "EPOCH_CHECK_SECONDS": float(os.environ.get("YACHT_DAILY_EPOCH_CHECK_SECONDS")
                                     or DEFAULT_EPOCH_CHECK_SECONDS),
        "DAY_FORMAT": os.environ.get("YACHT_DAILY_DAY_FORMAT") or "2",
        "WITNESSES": os.environ.get("YACHT_DAILY_WITNESSES") or None,
        "LOG_ORIGIN": os.environ.get("YACHT_DAILY_LOG_ORIGIN") or None,
        "LOG_WITNESSES": os.environ.get("YACHT_DAILY_LOG_WITNESSES") or None,
        "MAX_CONTENT_LENGTH": MAX_REQUEST_BYTES,
        "SESSION_COOKIE_NAME": "yd_player",
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "PERMANENT_SESSION_LIFETIME": dt.timedelta(days=PLAYER_COOKIE_DAYS),
        "JSON_SORT_KEYS": False,
        "PROXY_HOPS": int(os.environ.get("YACHT_DAILY_PROXY_HOPS") or 0),
        "STREAMS_PER_ADDRESS": int(os.environ.get("YACHT_DAILY_STREAMS_PER_ADDRESS")
                                   or DEFAULT_STREAMS_PER_ADDRESS),
        "STREAMS_PER_WORKER": int(os.environ.get("YACHT_DAILY_STREAMS_PER_WORKER")
                                  or DEFAULT_STREAMS_PER_WORKER),
        "STRATEGY_DIR": os.environ.get("YACHT_DAILY_STRATEGY_DIR") or None,
        "QUEUE_BUDGET_MS": float(os.environ.get("YACHT_DAILY_QUEUE_BUDGET_MS")
                                 or DEFAULT_QUEUE_BUDGET_MS),
        "IN_FLIGHT_PER_WORKER": int(os.environ.get("YACHT_DAILY_IN_FLIGHT_PER_WORKER")
                                    or DEFAULT_IN_FLIGHT_PER_WORKER),
        "LOG_LEVEL": os.environ.get("YACHT_DAILY_LOG_LEVEL") or "INFO",
        "LOG_FORMAT": os.environ.get("YACHT_DAILY_LOG_FORMAT") or "json",
        "RATE_LIMITS": os.environ.get("YACHT_DAILY_RATE_LIMITS") or None,
        **{key: os.environ.get(f"YACHT_DAILY_{key}") or default
           for key, default in DEFAULT_RATE_LIMITS.items()},
    }
