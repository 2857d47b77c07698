"""The friend groups' refusals: each its HTTP status and its stable code (docs/api.md).

The groups' service raises these; the API's one handler for ``DomainError``
(``app/api/errors.py``) answers them.
"""

from app.platform.errors import DomainError


class GroupError(DomainError):
    """Any refusal of the friend groups feature."""


class InvalidGroupName(GroupError):
    """A group name refused as written (``invalid-group-name``)."""

    status = 400

    def __init__(self, message: str):
        """An ``invalid-group-name`` refusal saying why."""
        super().__init__("invalid-group-name", message)


class InvalidGroupCode(GroupError):
    """Text that cannot be a group's invite code (``invalid-group-code``)."""

    status = 400

    def __init__(self, message: str):
        """An ``invalid-group-code`` refusal saying why."""
        super().__init__("invalid-group-code", message)


class UnknownGroupCode(GroupError):
    """A well-formed invite code that names no group (``unknown-group-code``)."""

    status = 404

    def __init__(self):
        """The refusal of a code that leads nowhere."""
        super().__init__("unknown-group-code",
                         "No group has this code: check it with the friend who sent it.")


class GroupNotFound(GroupError):
    """A group that does not exist, or that this player is not a member of
    (``group-not-found``): the two look the same, so that ids cannot be probed."""

    status = 404

    def __init__(self):
        """The refusal of a group this player cannot see."""
        super().__init__("group-not-found",
                         "No such group among yours: join it with its code first.")


class GroupFull(GroupError):
    """A group that has as many members as it may (``group-full``)."""

    status = 409

    def __init__(self, limit: int):
        """The refusal of one member too many."""
        super().__init__("group-full", f"This group is full: it has {limit} members already.")


class TooManyGroups(GroupError):
    """A player in as many groups as one may be (``too-many-groups``)."""

    status = 409

    def __init__(self, limit: int):
        """The refusal of one group too many."""
        super().__init__("too-many-groups",
                         f"You are in {limit} groups already: leave one to join another.")
