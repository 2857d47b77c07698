"""The players' refusals: each its HTTP status and its stable code (docs/api.md).

The players' service raises these; the API's one handler for ``DomainError``
(``app/api/errors.py``) answers them.
"""

from app.platform.errors import DomainError


class PlayerError(DomainError):
    """Any refusal of the players feature."""


class InvalidName(PlayerError):
    """A display name the players refuse as written (``invalid-name``)."""

    status = 400

    def __init__(self, message: str):
        """An ``invalid-name`` refusal saying why."""
        super().__init__("invalid-name", message)


class InvalidCode(PlayerError):
    """Text that cannot be a transfer code (``invalid-code``)."""

    status = 400

    def __init__(self, message: str):
        """An ``invalid-code`` refusal saying why."""
        super().__init__("invalid-code", message)


class NoIdentity(PlayerError):
    """A transfer asked of a browser that has no identity yet."""

    status = 409

    def __init__(self):
        """The refusal: nothing to carry over."""
        super().__init__("no-identity",
                         "This browser has no games yet: there is nothing to carry over.")


class UnknownCode(PlayerError):
    """A well-formed transfer code that is unknown, used or expired."""

    status = 404

    def __init__(self):
        """The refusal of a code that carries nothing."""
        super().__init__("unknown-code",
                         "This code is unknown, already used or expired: make a new one on the "
                         "other device.")
