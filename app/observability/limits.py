"""Rate limits: per client address on game creation, matches' and tables' actions,
verification, the heavy read of a day's games, transfer codes and witnesses' cosignatures, in
the same Redis; per game on the daily games' actions, counted by the action's own
compare-and-set.

A refused request gets a 429 with Retry-After. Only answers that did something count (2xx): a
404 on a junk id, a 400 on bad input, a 409, a 304 or a 429 spend nothing, so one client's
mistakes do not eat the budget that everyone behind the same NAT shares; the transfer codes'
budget counts every attempt (a refused redemption is what a code guesser spends), and so does
the cosignatures' (each refused one still cost a signature check). A request is
counted as it arrives, in one Redis round trip that also refuses it past the limit, and an
answer that did nothing gives its count back (a second round trip, only then). Matches' and
tables' actions are counted by ``ActionBudget`` straight on Flask-Limiter's storage and strategy
(the same windows, keys and fallback), without Flask-Limiter's per-request evaluation, which
cost as much CPU as the count's round trip.

A daily game's action (issue 14) costs no round trip of its own: the compare-and-set script
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
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter
from redis.exceptions import RedisClusterException
from werkzeug.exceptions import TooManyRequests

from app.services import EXTENSION, redis_url

API = "/api/v1"
CREATE_RULE = f"{API}/games"
MATCH_CREATE_RULES = (f"{API}/matches", f"{API}/tables", f"{API}/tables/<table>/join",
                      f"{API}/tables/<table>/start")
GAME_ACTION_RULE = re.compile(rf"^{re.escape(API)}/games/<[^>]+>/(roll|score)$")
ACTION_RULE = re.compile(rf"^{re.escape(API)}/(matches/<[^>]+>/(roll|score|advance)|"
                         rf"tables/<[^>]+>/(roll|score))$")
VERIFY_RULE = f"{API}/verify"
DAY_GAMES_RULE = f"{API}/days/<date>/<ruleset>/games"
TRANSFER_RULES = (f"{API}/me/transfer", f"{API}/me/transfer/redeem")
COSIGNATURE_RULE = f"{API}/logs/<date>/<sheet>/cosignatures"
KINDS = ("create", "match-create", "game-action", "action", "verify", "day-games", "transfer",
         "cosignature")
UNREFUNDED = ("transfer", "cosignature", "game-action")
STORAGE_TIMEOUT = 2.0
LIMITER_EXTENSION = "yacht_daily_limiter"
MEMORY_STORAGE = "memory://"

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
        elif "POST" in methods and rule.rule == VERIFY_RULE:
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
    """Store the limits in the app's Redis and put them on the limited endpoints.

    ``RATE_LIMITS`` ``off`` turns them off; unset, they are on except under ``TESTING``.
    """
    switch = app.config.get("RATE_LIMITS")
    app.config.setdefault("RATELIMIT_ENABLED", switch != "off" if switch else not app.testing)
    app.config.setdefault("RATELIMIT_STORAGE_URI", storage_uri(redis_url(app.config)))
    app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", {
        "socket_timeout": STORAGE_TIMEOUT, "socket_connect_timeout": STORAGE_TIMEOUT})
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "yacht-daily")
    app.config.setdefault("RATELIMIT_STRATEGY", "fixed-window")
    # No X-RateLimit-* headers on every answer: each costs a Redis read. A 429 gets its
    # Retry-After below.
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", False)
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    endpoints = limited_endpoints(app)
    if not app.config["RATELIMIT_ENABLED"]:
        return  # off: no limiter, no wrapper, no hook: nothing left to run on each request
    try:
        limiter = Limiter(get_remote_address, app=app)
    except RedisClusterException as error:
        # The cluster client connects as it is built: unreachable while this worker starts,
        # the worker counts in memory until it is recycled, rather than not starting at all.
        log.warning("rate limits counted in this process only: %s", error)
        app.config["RATELIMIT_STORAGE_URI"] = MEMORY_STORAGE
        limiter = Limiter(get_remote_address, app=app)
    # The limit decorators hold the limiter weakly: the app keeps it alive.
    app.extensions[LIMITER_EXTENSION] = limiter
    # Flask-Limiter's own before_request hook finds nothing to count here (no default or
    # application limits; each limited view's decorator counts it), yet costs every request its
    # evaluation: off.
    app.before_request_funcs[None].remove(limiter._check_request_limit)
    # Its after-request hook likewise: it adds the X-RateLimit-* headers (off) and deducts the
    # limits that count only some answers (``deduct_when``: none here; refund_unsuccessful
    # gives counts back).
    if not app.config["RATELIMIT_HEADERS_ENABLED"]:
        app.after_request_funcs[None][:] = [
            hook for hook in app.after_request_funcs[None]
            if getattr(hook, "func", None) is not Limiter._Limiter__inject_headers]
    app.extensions[EXTENSION].games.action_limits = game_action_limits(
        app.config["RATE_LIMIT_GAME_ACTIONS"])
    # Rolls and scorings share one budget, and so do making and redeeming transfer codes;
    # creation, verification and day pages have their own. Each request is counted as it comes
    # (one Redis round trip, INCR, which also refuses it past the limit); an answer that is not a
    # 2xx gives its count back (refund_unsuccessful), except on the transfer codes' budget.
    actions = ActionBudget(limiter, app.config["RATE_LIMIT_ACTIONS"])
    guard = ProcessGuard(app.config["RATE_LIMIT_ACTIONS"])
    decorators = {
        "create": limiter.limit(app.config["RATE_LIMIT_CREATE"], methods=["POST"]),
        "match-create": limiter.limit(app.config["RATE_LIMIT_MATCHES"], methods=["POST"]),
        "game-action": guard.guarded,
        "action": actions.counted,
        "verify": limiter.limit(app.config["RATE_LIMIT_VERIFY"], methods=["POST"]),
        # HEAD runs the whole view too (Flask answers it with GET's): limited alike.
        "day-games": limiter.limit(app.config["RATE_LIMIT_DAY_GAMES"], methods=["GET", "HEAD"]),
        # Every attempt counts here, a refused one too: it is a code guesser's budget.
        "transfer": limiter.shared_limit(app.config["RATE_LIMIT_TRANSFER"], "transfer",
                                         methods=["POST"]),
        # Every attempt counts here too: a refused cosignature still cost a signature check.
        "cosignature": limiter.limit(app.config["RATE_LIMIT_COSIGNATURES"], methods=["POST"]),
    }
    for endpoint, kind in endpoints.items():
        app.view_functions[endpoint] = decorators[kind](app.view_functions[endpoint])

    refundable = {endpoint for endpoint, kind in endpoints.items() if kind not in UNREFUNDED}

    @app.after_request
    def refund_unsuccessful(response):
        """Give back what an answer that did nothing (not a 2xx, a 429 included) counted."""
        if request.endpoint in refundable and not succeeded(response):
            actions.refund()
            for counted in limiter.current_limits:
                try:
                    limiter.limiter.hit(counted.limit, *counted.request_args, cost=-1)
                except Exception:  # as Flask-Limiter's own deductions do (SWALLOW_ERRORS)
                    log.exception("could not give a rate limit count back")
        return response

    @app.after_request
    def tell_when_to_retry(response):
        """A 429 says in how many seconds the exceeded window resets."""
        if response.status_code == 429 and "Retry-After" not in response.headers:
            response.headers["Retry-After"] = str(g.get(RETRY_AFTER)
                                                  or seconds_until_reset(limiter))
        return response


def game_action_limits(rule: str) -> tuple[tuple[int, int], ...]:
    """(amount, seconds) of each window of ``rule`` (``120/minute``, ``;``-separated), as the
    compare-and-set counts them."""
    return tuple((item.amount, item.get_expiry()) for item in parse_many(rule))


RETRY_AFTER = "yacht_daily_retry_after"
COUNTED = "yacht_daily_actions_counted"
ACTION_COUNT = "action_count"  # the route's CountedOnce (app/api/routes.py)


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
            address = get_remote_address()
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


class ActionBudget:
    """The matches' and tables' actions' shared budget per client address: each request counted
    once as it arrives (one INCR per limit on the limiter's storage, which also refuses past the
    limit), given back by ``refund`` when its answer did nothing. While that storage fails, the
    process counts in memory."""

    SCOPE = "actions"

    def __init__(self, limiter: Limiter, rule: str):
        """Count on ``limiter``'s storage (and its in-memory fallback) against ``rule``."""
        self.limiter = limiter
        self.items = parse_many(rule)
        self.fallback = FixedWindowRateLimiter(MemoryStorage())

    def counted(self, view):
        """``view`` with each call counted first, a 429 past the budget."""
        @functools.wraps(view)
        def counted_view(*args, **kwargs):
            """Count the request, then serve it."""
            self.spend()
            return view(*args, **kwargs)
        return counted_view

    def spend(self) -> None:
        """Count this request against every limit; a 429 (Retry-After set) if one is spent."""
        address = get_remote_address()
        counted = g.setdefault(COUNTED, [])
        for item in self.items:
            strategy = self.limiter.limiter
            try:
                allowed = strategy.hit(item, self.SCOPE, address)
            except Exception as error:  # Redis away: count in this process meanwhile
                log.warning("rate limit storage unreachable, counting in memory: %s", error)
                strategy = self.fallback
                allowed = strategy.hit(item, self.SCOPE, address)
            counted.append((strategy, item, address))  # a refused count is given back too
            if not allowed:
                reset = strategy.get_window_stats(item, self.SCOPE, address).reset_time
                g.setdefault(RETRY_AFTER, max(1, math.ceil(reset - time.time())))
                raise TooManyRequests(f"Rate limit exceeded: {item}")

    def refund(self) -> None:
        """Give back what this request counted."""
        for strategy, item, address in g.pop(COUNTED, ()):
            try:
                strategy.hit(item, self.SCOPE, address, cost=-1)
            except Exception:
                log.exception("could not give a rate limit count back")


def succeeded(response) -> bool:
    """Whether an answer spends from the budget: only a 2xx, a request that did something."""
    return 200 <= response.status_code < 300


def seconds_until_reset(limiter: Limiter) -> int:
    """Whole seconds until the window of the limit this request broke resets (at least 1)."""
    broken = limiter.current_limit
    if broken is None:
        return 1
    return max(1, math.ceil(broken.reset_at - time.time()))
