"""Friend groups: create one (a name), join it by its invite code, leave it, rename it, and
see its board: each member's daily games of a date and the week's and month's tables.

A member's result on (date, sheet) is their daily game's: its total from the game's receipt
(``GameStore``), its skill figure (the points lost to perfect play) from the day's skill board
(``SkillStore``), which the coach fills. Another member's figures are hidden from a player until
that player has finished their own game of the same (date, sheet), or the date is over
everywhere (no game of it can finish any more): the board says only that they played.

An invite code is 10 characters of Crockford's base32 (50 random bits), shown as two groups of
five and typed in any case, like the transfer codes; joining by code is rate limited per client
address like them (``app/observability/limits.py``). A group has at most MEMBER_LIMIT members,
a player at most GROUP_LIMIT groups. Lifetimes: ``store.py``.
"""

import contextlib
import datetime as dt
import json
import re
import secrets as random
from collections.abc import Callable

from app.boards.store import SkillStore
from app.daily.service import GameService
from app.daily.store import GameStore
from app.groups.errors import (
    GroupFull,
    GroupNotFound,
    InvalidGroupCode,
    InvalidGroupName,
    TooManyGroups,
    UnknownGroupCode,
)
from app.groups.store import ADDED, ALREADY, FULL, GONE, NO_RESULT, GroupStore
from app.ledger.days import service_date
from app.ledger.secrets import Secrets
from app.platform import codes
from app.platform.clock import format_timestamp
from fairness import ChainError

MEMBER_LIMIT = 50
GROUP_LIMIT = 20
NAME_MAX_LENGTH = 40
MEMBER_NAME_MAX_LENGTH = 24
WEEK_DAYS = 7
MONTH_DAYS = 30
CODE_LENGTH = 10  # 50 random bits (app.platform.codes)
FINISHED, PLAYING, NOT_PLAYED = "finished", "playing", "not-played"


def clean_text(value, limit: int, error: Callable[[str], Exception], what: str) -> str:
    """``value`` without its surrounding spaces: 1 to ``limit`` printable characters, else
    ``error`` saying so."""
    if not isinstance(value, str):
        raise error(f"The {what} must be text.")
    text = value.strip()
    if not text or len(value) > limit or not value.isprintable():
        raise error(f"The {what} must be 1 to {limit} printable characters.")
    return text


def group_name(value) -> str:
    """A group's name as given: 1 to NAME_MAX_LENGTH printable characters; else a 400."""
    return clean_text(value, NAME_MAX_LENGTH, InvalidGroupName, "group's name")


def canonical_code(value) -> str:
    """The canonical form of a typed invite code (``app.platform.codes``); a 400
    ``invalid-group-code`` if it cannot be one."""
    if not codes.is_typed_text(value, CODE_LENGTH):
        raise InvalidGroupCode("The code must be text: 10 letters and digits.")
    code = codes.canonical_code(value, CODE_LENGTH)
    if code is None:
        raise InvalidGroupCode("A group's code is 10 letters and digits, like ABCDE-23456.")
    return code


def mean(values: list[float]) -> float | None:
    """The mean of ``values`` to the hundredth, None for none."""
    return round(sum(values) / len(values), 2) if values else None


class GroupService:
    """The friend groups of one app, on the daily games' stores."""

    def __init__(self, store: GroupStore, games: GameService, game_store: GameStore,
                 skill: SkillStore, secrets: Secrets, clock: Callable[[], dt.datetime]):
        """Bind to the groups' store and to what the boards read: games, skill boards."""
        self.store = store
        self.games = games
        self.game_store = game_store
        self.skill = skill
        self.secrets = secrets
        self.clock = clock

    # Membership

    def create(self, player: str, name, member_name: str | None) -> dict:
        """A new group named ``name`` with ``player`` as its first member."""
        name = group_name(name)
        pseudonym = self.secrets.pseudonym(player)
        self._make_room(pseudonym)
        for _ in range(codes.ATTEMPTS):
            group_id = random.token_hex(8)
            code = codes.new_code(CODE_LENGTH)
            if self.store.create(group_id, code, name, format_timestamp(self.clock())):
                break
        else:
            raise RuntimeError("no free group code after several draws")
        try:
            self._add_member(group_id, player, pseudonym, member_name)
        except TooManyGroups:  # another request filled the player's list meanwhile
            self.store.delete(group_id, code)
            raise
        return self.summary(player, group_id)

    def join(self, player: str, code, member_name: str | None) -> dict:
        """Join the group whose invite code is ``code`` (a member already: nothing changes)."""
        group_id = self.store.group_of_code(canonical_code(code))
        if group_id is None:
            raise UnknownGroupCode()
        pseudonym = self.secrets.pseudonym(player)
        found = self.store.group(group_id)
        if found is None:
            raise UnknownGroupCode()
        if pseudonym not in found[1]:
            if len(found[1]) >= MEMBER_LIMIT:
                raise GroupFull(MEMBER_LIMIT)
            self._make_room(pseudonym)
            self._add_member(group_id, player, pseudonym, member_name)
        return self.summary(player, group_id)

    def leave(self, player: str | None, group_id: str) -> None:
        """Leave a group; the last member's leaving deletes it."""
        pseudonym = self._pseudonym(player)
        left = self.store.leave(group_id, pseudonym)
        if left is None:
            raise GroupNotFound()
        if left:
            self.store.free_code(left)
        self.store.remove_player_groups(pseudonym, [group_id])

    def rename(self, player: str | None, group_id: str, name) -> dict:
        """Give a group a new name (any member may)."""
        name = group_name(name)
        if not self.store.rename(group_id, self._pseudonym(player), name):
            raise GroupNotFound()
        return self.summary(player, group_id)

    def my_groups(self, player: str | None) -> list[dict]:
        """The player's groups, by name; groups gone since are dropped from their list."""
        if player is None:
            return []
        pseudonym = self.secrets.pseudonym(player)
        ids = self.store.player_groups(pseudonym)
        records = self.store.records(ids)
        self.store.remove_player_groups(pseudonym, ids - set(records))
        groups = [self._described(group_id, record, count)
                  for group_id, (record, count) in records.items()]
        return sorted(groups, key=lambda group: (group["name"].casefold(), group["id"]))

    def summary(self, player: str | None, group_id: str) -> dict:
        """The group's record and members as its member ``player`` sees them."""
        record, members = self._membership(player, group_id)
        described = self._described(group_id, record, len(members))
        pseudonym = self.secrets.pseudonym(player)
        described["members"] = sorted(
            ({"player": key, "name": member["name"], "you": key == pseudonym,
              "joined_at": member["joined_at"]} for key, member in members.items()),
            key=lambda member: (member["name"].casefold(), member["player"]))
        return described

    def _described(self, group_id: str, record: dict, count: int) -> dict:
        """A group's public fields."""
        return {"id": group_id, "name": record["name"], "code": codes.shown_code(record["code"]),
                "created_at": record["created_at"], "member_count": count,
                "member_limit": MEMBER_LIMIT}

    def _pseudonym(self, player: str | None) -> str:
        """The player's pseudonym; a browser without identity is in no group."""
        if player is None:
            raise GroupNotFound()
        return self.secrets.pseudonym(player)

    def _membership(self, player: str | None, group_id: str) -> tuple[dict, dict]:
        """(record, members) of a group ``player`` is a member of; else a 404."""
        pseudonym = self._pseudonym(player)
        found = self.store.group(group_id) if re.fullmatch(r"[0-9a-f]{16}", group_id) else None
        if found is None or pseudonym not in found[1]:
            raise GroupNotFound()
        return found

    def _make_room(self, pseudonym: str) -> None:
        """Refuse a player in GROUP_LIMIT groups already (groups gone since not counted)."""
        ids = self.store.player_groups(pseudonym)
        if len(ids) >= GROUP_LIMIT:
            gone = ids - set(self.store.records(ids))
            self.store.remove_player_groups(pseudonym, gone)
            if len(ids) - len(gone) >= GROUP_LIMIT:
                raise TooManyGroups(GROUP_LIMIT)

    def _add_member(self, group_id: str, player: str, pseudonym: str,
                    member_name: str | None) -> None:
        """Add the player to the group and the group to the player's list, the list first so
        that a group is never joined past the player's limit; a refusal takes it back."""
        if self.store.add_player_group(pseudonym, group_id, GROUP_LIMIT) == FULL:
            raise TooManyGroups(GROUP_LIMIT)
        member = {"player": player, "name": member_name or f"Player {pseudonym[-4:]}",
                  "joined_at": format_timestamp(self.clock())}
        reply = self.store.join(group_id, pseudonym, member, MEMBER_LIMIT)
        if reply not in (ADDED, ALREADY):
            self.store.remove_player_groups(pseudonym, [group_id])
            if reply == GONE:
                raise UnknownGroupCode()
            raise GroupFull(MEMBER_LIMIT)

    # The board

    def board(self, player: str | None, group_id: str, date: str | None = None) -> dict:
        """The group's board of ``date`` (the clock's UTC date by default) as ``player`` sees
        it: each sheet's members and their games, and the week's and month's tables."""
        record, members = self._membership(player, group_id)
        self.store.touch(group_id, record["code"])
        today = dt.date.fromisoformat(service_date(date) if date else
                                       self.clock().date().isoformat())
        dates = [(today - dt.timedelta(days=back)).isoformat() for back in range(MONTH_DAYS)]
        results = self._results(group_id, members, dates)
        viewer = self.secrets.pseudonym(player)
        now = self.clock()
        seen = {(day, sheet) for (key, day, sheet), result in results.items()
                if key == viewer and result["status"] == FINISHED}

        def visible(key: str, day: str, sheet: str) -> bool:
            """Whether the viewer may see this member's figures of (day, sheet)."""
            return (key == viewer or (day, sheet) in seen
                    or not self.games.window(day).accepts_actions(now))

        names = {key: member["name"] for key, member in members.items()}
        sheets = []
        for sheet in self._sheets(dates[0]):
            rows = []
            for key in members:
                result = results[(key, dates[0], sheet)]
                shown = visible(key, dates[0], sheet)
                rows.append({"player": key, "name": names[key], "you": key == viewer,
                             "status": result["status"], "hidden": not shown,
                             "total": result["total"] if shown else None,
                             "loss": result["loss"] if shown else None})
            rows.sort(key=lambda row: (row["status"] != FINISHED, row["loss"] is None,
                                       row["loss"] or 0, row["name"].casefold()))
            sheets.append({"ruleset": sheet, "finished": (dates[0], sheet) in seen,
                           "members": rows})
        tables = {}
        for label, span in (("week", WEEK_DAYS), ("month", MONTH_DAYS)):
            window = set(dates[:span])
            counted = {key: [] for key in members}
            for (key, day, sheet), result in results.items():
                if day in window and result["status"] == FINISHED and visible(key, day, sheet):
                    counted[key].append({"date": day, "ruleset": sheet,
                                         "total": result["total"], "loss": result["loss"]})
            rows = []
            for key, games in counted.items():
                reviewed = [game for game in games if game["loss"] is not None]
                rows.append({"player": key, "name": names[key], "you": key == viewer,
                             "games": len(games),
                             "mean_loss": mean([game["loss"] for game in reviewed]),
                             "best": min(reviewed, key=lambda game: (game["loss"], game["date"]),
                                         default=None)})
            rows.sort(key=lambda row: (row["mean_loss"] is None, row["mean_loss"] or 0,
                                       -row["games"], row["name"].casefold()))
            tables[label] = {"from": dates[span - 1], "to": dates[0], "members": rows}
        return {"group": self.summary(player, group_id), "date": dates[0], "sheets": sheets,
                **tables}

    def _sheets(self, date: str) -> tuple[str, ...]:
        """The daily sheets of ``date`` (none outside every epoch)."""
        with contextlib.suppress(ChainError, ValueError):
            return tuple(self.secrets.rulesets_for(date))
        return ()

    def _results(self, group_id: str, members: dict[str, dict],
                 dates: list[str]) -> dict[tuple[str, str, str], dict]:
        """Every member's result on every (date, sheet): ``status``, ``total``, ``loss``. Kept
        ones are read from the group's days; the others from the games and the skill boards,
        and kept once they can no longer change (finished with a skill figure, or the date
        over without a finished game)."""
        kept = self.store.kept_days(group_id, dates)
        now = self.clock()
        results: dict[tuple[str, str, str], dict] = {}
        missing: dict[str, tuple[str, str, str]] = {}
        for date in dates:
            for sheet in self._sheets(date):
                for key, member in members.items():
                    text = kept[date].get(f"{key}:{sheet}")
                    if text == NO_RESULT:
                        results[(key, date, sheet)] = {"status": NOT_PLAYED, "total": None,
                                                       "loss": None}
                    elif text:
                        figures = json.loads(text)
                        results[(key, date, sheet)] = {"status": FINISHED, **figures}
                    else:
                        game_id = self.games.game_id(member["player"], date, sheet)
                        missing[game_id] = (key, date, sheet)
        receipts = self.game_store.game_receipts(list(missing)) if missing else {}
        keep: dict[str, dict[str, str]] = {}
        for game_id, (key, date, sheet) in missing.items():
            over = not self.games.window(date).accepts_actions(now)
            receipt = receipts.get(game_id)
            if receipt is not None:
                entry = self.skill.entry(date, sheet, game_id)
                loss = entry[0] / 100 if entry is not None else None
                result = {"status": FINISHED, "total": int(receipt["total"]), "loss": loss}
                if loss is not None:
                    keep.setdefault(date, {})[f"{key}:{sheet}"] = json.dumps(
                        {"total": result["total"], "loss": loss})
            else:
                playing = game_id in receipts and not over
                result = {"status": PLAYING if playing else NOT_PLAYED, "total": None,
                          "loss": None}
                if over:
                    keep.setdefault(date, {})[f"{key}:{sheet}"] = NO_RESULT
            results[(key, date, sheet)] = result
        if keep:
            self.store.keep_results(group_id, keep)
        return results
