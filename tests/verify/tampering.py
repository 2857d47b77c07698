"""Every single change a forger could make to a published object, generated from its shape.

``changes(value)`` walks a JSON value and yields, for every field at every depth, one change of
its value (a character of a string, a number plus one, a boolean flipped), plus each key
removed and an unexpected key added to each object, and each list's last item dropped.
"""

import string
from collections.abc import Iterator
from dataclasses import dataclass

REMOVED = object()
FORGED_KEY = "forged"
_HEX = "0123456789abcdef"


@dataclass(frozen=True)
class Change:
    """A change at ``path`` (keys and indices from the root): the new value, or REMOVED."""

    path: tuple
    what: str
    value: object

    def apply(self, root):
        """``root`` with this change made, copying only the containers on the path (the rest
        is shared with ``root``: callers never mutate a changed value in place)."""
        return _replaced(root, self.path, self.value)

    @property
    def field(self):
        """The last key of the path (None for the root)."""
        return self.path[-1] if self.path else None


def changes(value, path: tuple = ()) -> Iterator[Change]:
    """Every single change of ``value`` and of everything inside it."""
    if isinstance(value, bool):
        yield Change(path, f"{value} → {not value}", not value)
    elif isinstance(value, int):
        yield Change(path, f"{value} → {value + 1}", value + 1)
    elif isinstance(value, str):
        for position in sorted({0, len(value) - 1}) if value else ():
            changed = change_character(value, position)
            yield Change(path, f"{value!r} → {changed!r}", changed)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from changes(item, (*path, index))
        if value:
            yield Change(path, "last item dropped", value[:-1])
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from changes(item, (*path, key))
            yield Change((*path, key), "key removed", REMOVED)
        yield Change((*path, FORGED_KEY), "unexpected key added", 1)


def change_character(text: str, position: int) -> str:
    """``text`` with the character at ``position`` replaced by the next one of its kind
    (a hex string stays hex, a date stays digits)."""
    old = text[position]
    if len(text) >= 32 and set(text) <= set(_HEX):
        new = _HEX[(_HEX.index(old) + 1) % 16]
    elif old in string.digits:
        new = str((int(old) + 1) % 10)
    elif old in string.ascii_lowercase:
        new = string.ascii_lowercase[(string.ascii_lowercase.index(old) + 1) % 26]
    else:
        new = "x"
    return text[:position] + new + text[position + 1:]


def _replaced(node, path: tuple, value):
    """A copy of ``node`` whose item at ``path`` is ``value`` (REMOVED: no such item)."""
    if not path:
        return value
    step, rest = path[0], path[1:]
    copied = list(node) if isinstance(node, list) else dict(node)
    if rest:
        copied[step] = _replaced(node[step], rest, value)
    elif value is REMOVED:
        del copied[step]
    else:
        copied[step] = value
    return copied
