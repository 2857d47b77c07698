"""Every Redis key name of the service, grouped by feature, each group under its hash tag.

The rule every store keeps: a key carries its hash tag (the part in braces, which alone picks
its Redis Cluster slot), and no command, script or transaction spans two tags, so the same code
runs on one Redis and on Redis Cluster. A pipeline may queue commands on many tags: each is its
own command. The tags:

- ``{g:<game id>}``: a daily game's record, transcript, action counts and kept review;
- ``{d:<date>}``: a date's game index, format and seal, its boards, its receipt trees, its
  references and their lease, and its day's logs;
- ``{ledger}``: the ledger and its index, each epoch's first game time, the reveal and log
  leases and the last reveal failure;
- ``{slog}``: the service log (its entries, subtree levels, per-log cursors, checkpoints,
  witnesses' cosignatures and sizes, origin and lease: ``app/servicelog/store.py``);
- ``{p:<pseudonym>}``: a player's daily history and matches;
- ``{x:<code>}``: a transfer code;
- ``{coach}``: the coach's work queues;
- ``{fg:<group id>}``, ``{fgc:<code>}``: a friend group (its record, members and kept daily
  results), a friend group's invite code; a player's groups are under the player's tag;
- ``{m:<match id>}``: a match and its log;
- ``{t:<table id>}``, ``{tc:<code>}``, ``{clock}``, ``{sa:<address>}``: a table and its
  events, a table's short code, the turn clock's deadlines, an address's open event streams;
- the rate limits' windows, one key a command, written by the ``limits`` library.
"""

import ipaddress

# ------------------------------------------------------------------ daily games: {g:<game id>}


def game_key(game_id: str) -> str:
    """The hash holding a game's ruleset, date, player, name and receipt."""
    return f"{{g:{game_id}}}"


def action_count_key(game_id: str, seconds: int) -> str:
    """The count of a game's actions in its current window of ``seconds`` (a rate limit,
    expiring with the window)."""
    return f"{{g:{game_id}}}:actions:{seconds}"


def transcript_key(game_id: str) -> str:
    """The list holding a game's transcript, one canonical JSON action per item."""
    return f"{{g:{game_id}}}:t"


def review_key(game_id: str) -> str:
    """A finished game's review (JSON, kept a while): under the game's hash tag."""
    return f"{{g:{game_id}}}:review"


# ------------------------------------------------------------------ a date's games: {d:<date>}


def day_games_key(date: str, ruleset: str) -> str:
    """The set of the ids of every game of (date, ruleset)."""
    return f"{{d:{date}}}:games:{ruleset}"


def day_order_key(date: str, ruleset: str) -> str:
    """The ids of (date, ruleset)'s games as a sorted set of equal scores, read in id order
    page by page (ZRANGEBYLEX); copied from the day's set when it is first read."""
    return f"{{d:{date}}}:order:{ruleset}"


def day_format_key(date: str) -> str:
    """The date's format, ``1`` or ``2`` (the day's log), set at its first game."""
    return f"{{d:{date}}}:format"


def day_sealed_key(date: str) -> str:
    """Set when the reveal of ``date`` starts: from then on no game of the date is indexed."""
    return f"{{d:{date}}}:sealed"


# ------------------------------------------------------------------ a date's boards: {d:<date>}


def board_key(date: str, ruleset: str) -> str:
    """The leaderboard of (date, ruleset): finished game ids scored by their total."""
    return f"{{d:{date}}}:board:{ruleset}"


def skill_board_key(date: str, ruleset: str) -> str:
    """The skill board of (date, ruleset): finished game ids scored by their skill score."""
    return f"{{d:{date}}}:skill-board:{ruleset}"


def skill_totals_key(date: str, ruleset: str) -> str:
    """The totals of the games on the skill board of (date, ruleset): game id → total."""
    return f"{{d:{date}}}:skill-totals:{ruleset}"


def legacy_skill_board_key(date: str, ruleset: str) -> str:
    """The skill board of (date, ruleset) as an earlier version wrote it: game ids scored
    ``centipoints × 10000 − total``; emptied (and so gone) once converted."""
    return f"{{d:{date}}}:skill:{ruleset}"


# ------------------------------------------------------------------ a date's references: {d:<date>}


def references_key(date: str) -> str:
    """The hash of a revealed date's references (perfect game, foresight maximum) per sheet."""
    return f"{{d:{date}}}:references"


def references_lease(date: str) -> str:
    """The Redis lease on computing ``date``'s references, under the day's hash tag."""
    return f"{{d:{date}}}:references-lease"


# ------------------------------------------------------------------ receipt trees: {d:<date>}


def leaf_chunk_key(date: str, ruleset: str, chunk: int) -> str:
    """Chunk ``chunk`` of (date, ruleset)'s signed receipts in Merkle leaf order (a JSON array),
    written at the reveal."""
    return f"{{d:{date}}}:leaves:{ruleset}:{chunk}"


def tree_key(date: str, ruleset: str) -> str:
    """The index of (date, ruleset)'s receipt tree (size, chunk roots, first game of each
    chunk), written at the reveal after every chunk."""
    return f"{{d:{date}}}:tree:{ruleset}"


def tree_progress_key(date: str, ruleset: str) -> str:
    """How far the reveal got with (date, ruleset)'s tree: its full chunks so far and the last
    game in them (while a reveal works, or after one was cut short)."""
    return f"{{d:{date}}}:tree-progress:{ruleset}"


# ------------------------------------------------------------------ the day's logs: {d:<date>}


def log_closed_key(date: str) -> str:
    """Set when the date's logs close."""
    return f"{{d:{date}}}:log-closed"


def day_log_key(date: str, ruleset: str, part: str) -> str:
    """One part of (date, sheet)'s log (its parts: ``app/daylog/store.py``)."""
    return f"{{d:{date}}}:log:{ruleset}:{part}"


def log_subtrees_key(date: str, ruleset: str, level: int) -> str:
    """The list of (date, sheet)'s complete subtrees of ``2^level`` leaves (0: the leaves)."""
    return day_log_key(date, ruleset, "hashes" if level == 0 else f"hashes:{level}")


# ------------------------------------------------------------------ the ledger: {ledger}

LEDGER_ENTRIES = "{ledger}:entries"
LEDGER_INDEX = "{ledger}:index"
REVEAL_LEASE = "{ledger}:reveal-lease"
REVEAL_FAILURE = "{ledger}:reveal-failure"
LOG_LEASE = "{ledger}:log-lease"


def first_game_key(epoch: int) -> str:
    """When the first game of epoch ``epoch`` was created (set once)."""
    return f"{{ledger}}:first-game:{epoch}"


# ------------------------------------------------------------------ the service log: {slog}

SERVICE_LOG_IDENTITY = "{slog}:vkey"
SERVICE_LOG_ENTRIES = "{slog}:entries"
SERVICE_LOG_CURSORS = "{slog}:cursors"
SERVICE_LOG_POSITIONS = "{slog}:positions"
SERVICE_LOG_CHECKPOINTS = "{slog}:checkpoints"
SERVICE_LOG_SIZES = "{slog}:sizes"
SERVICE_LOG_COSIGNATURES = "{slog}:cosignatures"
SERVICE_LOG_WITNESSED = "{slog}:witnessed"
SERVICE_LOG_LEASE = "{slog}:lease"


def service_log_hashes_key(level: int) -> str:
    """The list of the service log's complete subtrees of ``2^level`` entries (0: the leaves)."""
    return "{slog}:hashes" if level == 0 else f"{{slog}}:hashes:{level}"


# ------------------------------------------------------------------ players: {p:<pseudonym>}


def history_key(pseudonym: str) -> str:
    """The hash of a player's games: game id → canonical JSON history record."""
    return f"{{p:{pseudonym}}}:history"


def history_order_key(pseudonym: str) -> str:
    """The player's game ids scored by their date's ordinal: the history's order, trimmed from
    the oldest end to its limit."""
    return f"{{p:{pseudonym}}}:order"


def match_history_key(pseudonym: str) -> str:
    """The hash of a player's matches: match id → canonical JSON record."""
    return f"{{p:{pseudonym}}}:matches"


def match_history_order_key(pseudonym: str) -> str:
    """The player's match ids scored by start time (Unix seconds), trimmed from the oldest."""
    return f"{{p:{pseudonym}}}:matches-order"


# ------------------------------------------------------------------ transfer codes: {x:<code>}


def transfer_key(code: str) -> str:
    """The one-time transfer code ``code``: the identity it carries, until it expires."""
    return f"{{x:{code}}}"


# ------------------------------------------------------------------ friend groups: {fg:<id>}


def group_key(group_id: str) -> str:
    """The hash of a friend group's name, invite code and creation time."""
    return f"{{fg:{group_id}}}"


def group_members_key(group_id: str) -> str:
    """The hash of a friend group's members: pseudonym → canonical JSON member record."""
    return f"{{fg:{group_id}}}:members"


def group_day_key(group_id: str, date: str) -> str:
    """The hash of a friend group's kept results of ``date``: ``<pseudonym>:<sheet>`` → the
    member's finished game's total and skill figure (JSON), or ``-`` for none once the date
    is over."""
    return f"{{fg:{group_id}}}:day:{date}"


def group_code_key(code: str) -> str:
    """The friend group invite code ``code``: the id of its group."""
    return f"{{fgc:{code}}}"


def player_groups_key(pseudonym: str) -> str:
    """The set of the ids of a player's friend groups (the player's own hash tag)."""
    return f"{{p:{pseudonym}}}:groups"


# ------------------------------------------------------------------ the coach's queues: {coach}

SKILL_PENDING = "{coach}:skill-pending"
REFERENCES_PENDING = "{coach}:references-pending"

# ------------------------------------------------------------------ matches: {m:<match id>}


def match_key(match_id: str) -> str:
    """The hash of a match's settings, seeds, status and result."""
    return f"{{m:{match_id}}}"


def match_log_key(match_id: str) -> str:
    """The list of a match's actions, every seat's, in play order."""
    return f"{{m:{match_id}}}:log"


# ------------------------------------------------------------------ tables: {t:<id>}, {tc:<code>}


def table_key(table_id: str) -> str:
    """The hash of a table's lobby, its match and its timed turn."""
    return f"{{t:{table_id}}}"


def table_events_key(table_id: str) -> str:
    """The stream of ``table_id``'s events (the table's own hash tag)."""
    return f"{{t:{table_id}}}:events"


def table_code_key(code: str) -> str:
    """The short join code ``code``: the id of its table."""
    return f"{{tc:{code}}}"


# ------------------------------------------------------------------ the turn clock: {clock}

TURN_DEADLINES = "{clock}:deadlines"

# ------------------------------------------------------------- open event streams: {sa:<address>}

STREAM_IPV6_PREFIX = 64  # an IPv6 address counts by its /64, one subscriber's usual allocation


def stream_address_key(address: str) -> str:
    """The Redis key of ``address``'s open streams: its own hash tag; an IPv6 address by its
    /64 prefix."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return f"{{sa:{address}}}"
    if parsed.version == 6:
        if parsed.ipv4_mapped is not None:
            return f"{{sa:{parsed.ipv4_mapped}}}"
        network = ipaddress.ip_network(f"{parsed}/{STREAM_IPV6_PREFIX}", strict=False)
        return f"{{sa:{network}}}"
    return f"{{sa:{parsed}}}"


# ------------------------------------------------------------------ rate limits (no hash tag)
# The ``limits`` library keys each window ``LIMITS:LIMITER/<identifiers>/<amount>/<multiples>/
# <granularity>``, one key a command: a route's budget is identified by (RATE_LIMIT_PREFIX,
# address, endpoint or budget name), the matches' and tables' shared action budget by
# (SHARED_ACTIONS_SCOPE, address), as Flask-Limiter keyed them.

RATE_LIMIT_PREFIX = "yacht-daily"
SHARED_ACTIONS_SCOPE = "actions"
