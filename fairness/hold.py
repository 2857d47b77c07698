"""A hold: which of the five dice a roll keeps, as five booleans (True for a die kept)."""

from .errors import InvalidHold

NO_HOLD = (False,) * 5
MAX_MESSAGE = 200


def parse_hold(hold) -> tuple[bool, ...]:
    """``hold`` as five booleans (None: nothing held), or InvalidHold: a list or tuple of five
    values that are each exactly ``True`` or ``False``."""
    if hold is None:
        return NO_HOLD
    if (not isinstance(hold, list | tuple) or len(hold) != 5
            or any(type(flag) is not bool for flag in hold)):
        raise InvalidHold(f"hold must be a list of five true/false values, got {hold!r}"
                          [:MAX_MESSAGE])
    return tuple(hold)
