"""Rate limits: per client address on game creation, matches' and tables' actions,
verification, the heavy read of a day's games, transfer codes (and group invite codes) and
witnesses' cosignatures, in the same Redis; per game on the daily games' actions, counted by the
action's own compare-and-set.

A refused request gets a 429 with Retry-After. Only answers that did something count (2xx): a
404 on a junk id, a 400 on bad input, a 409, a 304 or a 429 spend nothing, so one client's
mistakes do not eat the budget that everyone behind the same NAT shares; the transfer codes'
budget counts every attempt (a refused redemption is what a code guesser spends), and so does
the cosignatures' (each refused one still cost a signature check). A request is
counted as it arrives, in one Redis round trip that also refuses it past the limit, and an
answer that did nothing gives its count back (a second round trip, only then). Every limited
route is counted by an ``AddressBudget`` straight on ``limits``' public storages and fixed-window
strategy (the keys Flask-Limiter wrote before, so a deploy continues the windows it left): no
extension evaluates anything on a request that no budget limits.

A daily game's action costs no round trip of its own: the compare-and-set script
counts it in a fixed window under the game's hash tag (``RATE_LIMIT_GAME_ACTIONS``, per game,
``GameService.action_limits``), which holds on Redis Cluster, and refuses it past the limit with
nothing written. A legit game has a bounded number of actions, and a client address's games are
bounded by the creation limit, so the per-game limit also bounds what one address can make the
store write. The daily games' action requests that never reach the compare-and-set (stale
numbers, bad bodies, junk ids, repeats served from the cache) are counted by ``ProcessGuard``,
per address in this process's memory (``RATE_LIMIT_ACTIONS``, no Redis): a flood of them is
refused without taking the process's time, and honest play never spends that budget.

The counts in Redis are shared by every worker and every replica; if Redis is down, each process
counts in memory until it is back. Behind a proxy the client address is the one the proxy
reports (``PROXY_HOPS``)."""

import functools
import logging
import math
import re
import time

from flask import g, request
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import FixedWindowRateLimiter
from redis.exceptions import RedisClusterException
from werkzeug.exceptions import TooManyRequests

from app.platform.keys import RATE_LIMIT_PREFIX as KEY_PREFIX
from app.platform.keys import SHARED_ACTIONS_SCOPE
from app.services import EXTENSION, redis_url

API = "/api/v1"
CREATE_RULE = f"{API}/games"
MATCH_CREATE_RULES = (f"{API}/matches", f"{API}/tables", f"{API}/tables/<table>/join",
                      f"{API}/tables/<table>/start")
GAME_ACTION_RULE = re.compile(rf"^{re.escape(API)}/games/<[^>]+>/(roll|score)$")
ACTION_RULE = re.compile(rf"^{re.escape(API)}/(matches/<[^>]+>/(roll|score|advance)|"
                         rf"tables/<[^>]+>/(roll|score))$")
# A past day played again costs a replay and a review, as a verification does: one budget.
VERIFY_RULES = (f"{API}/verify", f"{API}/days/<date>/<ruleset>/replay")
DAY_GAMES_RULE = f"{API}/days/<date>/<ruleset>/games"
TRANSFER_RULES = (f"{API}/me/transfer", f"{API}/me/transfer/redeem", f"{API}/groups/join")
COSIGNATURE_RULE = f"{API}/logs/<date>/<sheet>/cosignatures"
KINDS = ("create", "match-create", "game-action", "action", "verify", "day-games", "transfer",
         "cosignature")
STORAGE_TIMEOUT = 2.0
CONNECT_RETRY_SECONDS = 5.0

log = logging.getLogger(__name__)


def storage_uri(url: str) -> str:
    """The `limits` storage URI for a redis-py URL (a unix socket is ``redis+unix://``)."""
    if url.startswith("unix://"):
        return "redis+unix://" + url[len("unix://"):]
    return url


def limited_endpoints(app) -> dict[str, str]:
    """The endpoints of game creation, daily games' actions, the other actions, verification, a
    day's games, transfer codes and cosignatures, by kind."""
    found = {}
    for rule in app.url_map.iter_rules():
        methods = rule.methods or ()
        if "POST" in methods and rule.rule == CREATE_RULE:
            found[rule.endpoint] = "create"
        elif "POST" in methods and rule.rule in MATCH_CREATE_RULES:
            found[rule.endpoint] = "match-create"
        elif "POST" in methods and GAME_ACTION_RULE.match(rule.rule):
            found[rule.endpoint] = "game-action"
        elif "POST" in methods and ACTION_RULE.match(rule.rule):
            found[rule.endpoint] = "action"
        elif "POST" in methods and rule.rule in VERIFY_RULES:
            found[rule.endpoint] = "verify"
        elif "GET" in methods and rule.rule == DAY_GAMES_RULE:
            found[rule.endpoint] = "day-games"
        elif "POST" in methods and rule.rule in TRANSFER_RULES:
            found[rule.endpoint] = "transfer"
        elif "POST" in methods and rule.rule == COSIGNATURE_RULE:
            found[rule.endpoint] = "cosignature"
    missing = set(KINDS) - set(found.values())
    if missing:
        raise RuntimeError(f"no API route to rate-limit for: {', '.join(sorted(missing))}")
    return found


def init_app(app) -> None:
    """Count the limited endpoints in the app's Redis, each against its own budget.

    ``RATE_LIMITS`` ``off`` turns them off; unset, they are on except under ``TESTING``.
    ``RATELIMIT_STORAGE_URI`` (a ``limits`` storage URI) counts elsewhere than the app's Redis.
    """
    switch = app.config.get("RATE_LIMITS")
    enabled = switch != "off" if switch else not app.testing
    endpoints = limited_endpoints(app)
    if not enabled:
        return  # off: no wrapper, no hook: nothing left to run on each request
    counter = AddressCounter(app.config.get("RATELIMIT_STORAGE_URI")
                             or storage_uri(redis_url(app.config)))
    app.extensions[EXTENSION].games.action_limits = game_action_limits(
        app.config["RATE_LIMIT_GAME_ACTIONS"])
    # Rolls and scorings share one budget, and so do making and redeeming transfer codes;
    # creation, verification and day pages have their own. Each request is counted as it comes
    # (one Redis round trip, which also refuses it past the limit); an answer that is not a 2xx
    # gives its count back, except on the transfer codes' and the cosignatures' budgets.
    actions = AddressBudget(counter, app.config["RATE_LIMIT_ACTIONS"], ActionBudgetKey())
    guard = ProcessGuard(app.config["RATE_LIMIT_ACTIONS"])
    transfers = AddressBudget(counter, app.config["RATE_LIMIT_TRANSFER"],
                              RouteBudgetKey("transfer"), refunded=False)

    def per_route(rule: str, methods=("POST",), refunded: bool = True):
        """A budget of this endpoint's own (its key names the endpoint)."""
        return lambda endpoint: AddressBudget(counter, app.config[rule], RouteBudgetKey(endpoint),
                                              methods, refunded).counted

    budgets = {
        "create": per_route("RATE_LIMIT_CREATE"),
        "match-create": per_route("RATE_LIMIT_MATCHES"),
        "game-action": lambda endpoint: guard.guarded,
        "action": lambda endpoint: actions.counted,
        "verify": per_route("RATE_LIMIT_VERIFY"),
        # HEAD runs the whole view too (Flask answers it with GET's): limited alike.
        "day-games": per_route("RATE_LIMIT_DAY_GAMES", methods=("GET", "HEAD")),
        # Every attempt counts here, a refused one too: it is a code guesser's budget.
        "transfer": lambda endpoint: transfers.counted,
        # Every attempt counts here too: a refused cosignature still cost a signature check.
        "cosignature": per_route("RATE_LIMIT_COSIGNATURES", refunded=False),
    }
    for endpoint, kind in endpoints.items():
        app.view_functions[endpoint] = budgets[kind](endpoint)(app.view_functions[endpoint])

    @app.after_request
    def settle_budgets(response):
        """Give back what an answer that did nothing (not a 2xx, a 429 included) counted; a 429
        says in how many seconds the exceeded window resets."""
        if not succeeded(response):
            refund()
            if response.status_code == 429 and "Retry-After" not in response.headers:
                response.headers["Retry-After"] = str(g.get(RETRY_AFTER) or 1)
        return response


def game_action_limits(rule: str) -> tuple[tuple[int, int], ...]:
    """(amount, seconds) of each window of ``rule`` (``120/minute``, ``;``-separated), as the
    compare-and-set counts them."""
    return tuple((item.amount, item.get_expiry()) for item in parse_many(rule))


RETRY_AFTER = "yacht_daily_retry_after"
COUNTED = "yacht_daily_counted"
ACTION_COUNT = "action_count"  # the route's CountedOnce (app/daily/routes.py)


def client_address() -> str:
    """The client's address (the proxy's report of it behind ``PROXY_HOPS`` proxies)."""
    return request.remote_addr or "127.0.0.1"


class ProcessGuard:
    """A per-address count, in this process's memory (``limits``' in-memory fixed windows:
    microseconds, no Redis), of the daily games' action requests that did not reach their
    compare-and-set (which counts the others per game): stale numbers, bad bodies, junk ids,
    repeats served from the cache. Past ``rule``, every action request from that address is a
    429 until the window ends, so such a flood cannot take this process's time; honest play
    never spends it."""

    SCOPE = "game-actions"

    def __init__(self, rule: str):
        """Count in memory against ``rule``."""
        self.items = parse_many(rule)
        self.strategy = FixedWindowRateLimiter(MemoryStorage())

    def guarded(self, view):
        """``view`` refused with a 429 while its address is past the rule, and counted after
        unless its compare-and-set counted it."""
        @functools.wraps(view)
        def guarded_view(*args, **kwargs):
            """Check the address's count, serve the request, count it if Redis did not."""
            address = client_address()
            for item in self.items:
                if not self.strategy.test(item, self.SCOPE, address):
                    reset = self.strategy.get_window_stats(item, self.SCOPE, address).reset_time
                    g.setdefault(RETRY_AFTER, max(1, math.ceil(reset - time.time())))
                    raise TooManyRequests(f"Rate limit exceeded: {item}")
            try:
                return view(*args, **kwargs)
            finally:
                counted = g.get(ACTION_COUNT)
                if counted is None or not counted.reached:
                    for item in self.items:
                        self.strategy.hit(item, self.SCOPE, address)
        return guarded_view


class AddressCounter:
    """Fixed windows per client address in a ``limits`` storage (the app's Redis, shared by
    every worker and replica), counted in this process's memory while that storage fails."""

    def __init__(self, uri: str):
        """Count in the storage at ``uri``."""
        self.uri = uri
        self.fallback = FixedWindowRateLimiter(MemoryStorage())
        self._shared: FixedWindowRateLimiter | None = None
        self._next_connect = 0.0
        self._connect()

    def _connect(self) -> FixedWindowRateLimiter | None:
        """The shared storage's strategy, built now if it is not yet (a short timeout, so that
        a Redis away costs a request seconds, not the worker's timeout). A Redis Cluster client
        connects as it is built: unreachable, the process counts in memory and tries again
        CONNECT_RETRY_SECONDS later, rather than not starting at all."""
        if self._shared is None and time.monotonic() >= self._next_connect:
            try:
                self._shared = FixedWindowRateLimiter(storage_from_string(
                    self.uri, socket_timeout=STORAGE_TIMEOUT,
                    socket_connect_timeout=STORAGE_TIMEOUT))
            except RedisClusterException as error:
                log.warning("rate limits counted in this process meanwhile: %s", error)
                self._next_connect = time.monotonic() + CONNECT_RETRY_SECONDS
        return self._shared

    def hit(self, item: RateLimitItem, identifiers: tuple[str, ...]) -> tuple:
        """Count one request: (the strategy that counted it, whether the limit still allows it)."""
        shared = self._connect()
        if shared is not None:
            try:
                return shared, shared.hit(item, *identifiers)
            except Exception as error:  # the storage away: count in this process meanwhile
                log.warning("rate limit storage unreachable, counting in memory: %s", error)
        return self.fallback, self.fallback.hit(item, *identifiers)


class RouteBudgetKey:
    """The identifiers of a route's budget: the prefix, the address and the endpoint (or the
    shared budget's name), as Flask-Limiter keyed them."""

    def __init__(self, scope: str):
        """Key the windows under ``scope``."""
        self.scope = scope

    def __call__(self, address: str) -> tuple[str, ...]:
        """The identifiers for ``address``."""
        return KEY_PREFIX, address, self.scope


class ActionBudgetKey:
    """The identifiers of the matches' and tables' actions' shared budget, as it was keyed."""

    SCOPE = SHARED_ACTIONS_SCOPE

    def __call__(self, address: str) -> tuple[str, ...]:
        """The identifiers for ``address``."""
        return self.SCOPE, address


class AddressBudget:
    """A rule (``60/minute``, ``;``-separated windows) per client address: each request on
    ``methods`` counted once as it arrives (one round trip per window, which also refuses past
    the limit: a 429 with Retry-After), and, if ``refunded``, given back when its answer did
    nothing (not a 2xx)."""

    def __init__(self, counter: AddressCounter, rule: str, key, methods=("POST",),
                 refunded: bool = True):
        """Count on ``counter`` against ``rule``, each address's windows keyed by ``key``."""
        self.counter = counter
        self.items = sorted(parse_many(rule))  # the shortest window first, as before
        self.key = key
        self.methods = frozenset(methods)
        self.refunded = refunded

    def counted(self, view):
        """``view`` with each call counted first, a 429 past the budget."""
        @functools.wraps(view)
        def counted_view(*args, **kwargs):
            """Count the request, then serve it."""
            if request.method in self.methods:
                self.spend()
            return view(*args, **kwargs)
        return counted_view

    def spend(self) -> None:
        """Count this request against every window; a 429 (Retry-After set) at the first one
        spent, the later ones not counted."""
        identifiers = self.key(client_address())
        for item in self.items:
            strategy, allowed = self.counter.hit(item, identifiers)
            if self.refunded:  # a refused count is given back too
                g.setdefault(COUNTED, []).append((strategy, item, identifiers))
            if not allowed:
                reset = strategy.get_window_stats(item, *identifiers).reset_time
                g.setdefault(RETRY_AFTER, max(1, math.ceil(reset - time.time())))
                raise TooManyRequests(f"Rate limit exceeded: {item}")


def refund() -> None:
    """Give back what this request counted on refunded budgets."""
    for strategy, item, identifiers in g.pop(COUNTED, ()):
        try:
            strategy.hit(item, *identifiers, cost=-1)
        except Exception:
            log.exception("could not give a rate limit count back")


def succeeded(response) -> bool:
    """Whether an answer spends from the budget: only a 2xx, a request that did something."""
    return 200 <= response.status_code < 300
