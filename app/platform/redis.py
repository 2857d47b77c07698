"""The Redis connection every store shares, and how the stores talk to it.

``connect(url)`` gives a plain client, or with ``redis+cluster://`` a Redis Cluster client made
on first use (``LazyClusterClient``). Every key carries a hash tag (``app/platform/keys.py``) and
no command or script spans two tags, so the same stores run on both. Scripts are queued in
pipelines as raw EVALs (``queue_script``), stored values are canonical JSON (``stored_json``),
and no reply or argument list grows with a day's games: reads go by pages of ``READ_BATCH``.
"""

import threading
from collections.abc import Mapping, Sequence

import redis
from redis.backoff import ExponentialBackoff
from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.connection import Encoder
from redis.retry import Retry

from fairness import canonical_json

CLUSTER_SCHEME = "redis+cluster://"
SOCKET_TIMEOUT = 10.0
RETRIES = 2  # then a request answers 503 quickly rather than hang while Redis is away
READ_BATCH = 500  # items read per pipelined page


def connect(url: str):
    """A client for ``url``: ``redis+cluster://host:port`` selects Redis Cluster."""
    options = {"decode_responses": True, "socket_timeout": SOCKET_TIMEOUT,
               "socket_connect_timeout": SOCKET_TIMEOUT,
               "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), RETRIES)}
    if url.startswith(CLUSTER_SCHEME):
        return LazyClusterClient("redis://" + url[len(CLUSTER_SCHEME):], options)
    return redis.Redis.from_url(url, health_check_interval=30, **options)


class LazyClusterClient:
    """A Redis Cluster client made on first use, and again on each use until that succeeds.

    redis-py's cluster client reads the slot map as it is built: built at start-up, an
    unreachable cluster would stop every worker from booting (and gunicorn with them) instead of
    letting them answer 503 until it is back. Everything but script registration is the real
    client's.
    """

    def __init__(self, url: str, options: dict):
        """Remember how to connect; connect later."""
        self._url = url
        self._options = options
        self._client: RedisCluster | None = None
        self._lock = threading.Lock()

    def register_script(self, script: str) -> Script:
        """A script object calling through this client (no round trip)."""
        return Script(self, script)

    def get_encoder(self) -> Encoder:
        """How scripts are encoded for their SHA-1, as the real client would."""
        return Encoder("utf-8", "strict", self._options["decode_responses"])

    def __getattr__(self, name: str):
        """The real client's attribute, connecting first if needed."""
        return getattr(self._connected(), name)

    def _connected(self) -> RedisCluster:
        """The real client, built now if it is not yet (raises while the cluster is away)."""
        if self._client is None:
            with self._lock:
                if self._client is None:
                    self._client = RedisCluster.from_url(self._url, **self._options)
        return self._client


def queue_script(pipe, script, keys: Sequence[str], args: Sequence) -> None:
    """Queue ``script`` in ``pipe`` as a raw EVAL: redis-py's cluster pipeline refuses scripts
    (EVALSHA and its eval()), and a plain pipeline would spend an extra round trip on SCRIPT
    EXISTS before running one. Redis routes and caches the EVAL like any other."""
    pipe.execute_command("EVAL", script.script, len(keys), *keys, *args)


def stored_json(value: Mapping) -> str:
    """Canonical JSON text of a stored value."""
    return canonical_json(dict(value)).decode()


def keep_newest(limit_argument: int) -> str:
    """Lua that trims a bounded record — a hash ``KEYS[1]`` of entries by id and a sorted set
    ``KEYS[2]`` of their ids by time — to its newest ``ARGV[limit_argument]`` entries, in the
    same script that adds one."""
    return f"""local extra = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[{limit_argument}])
if extra > 0 then
  local oldest = redis.call('ZRANGE', KEYS[2], 0, extra - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, extra - 1)
  redis.call('HDEL', KEYS[1], unpack(oldest))
end
"""
