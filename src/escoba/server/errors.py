"""The server's errors, below every other module of it: a refusal to a client, and the
states of what the server stands on (storage, the bus between processes, a room's fence).

:class:`Refusal` is what a client is told (a code from ``docs/protocol.md`` and a clear
message; nothing was changed). The others are raised by storage and the bus and handled by
the server; none reaches a client as it is.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from .protocol import ErrorMessage

__all__ = [
    "RESTARTING",
    "BusUnavailable",
    "Refusal",
    "StaleFence",
    "StorageUnavailable",
]


RESTARTING: Final = ("restarting", "the server is restarting: try again in a moment", 503)
"""The refusal of an intention no process can act on now (the room's owner is gone and not
yet replaced, or Redis cannot be reached)."""


class Refusal(Exception):  # noqa: N818 (a refusal is not a failure of the server)
    """An action refused with a code and a clear message; nothing was changed."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_message(self) -> ErrorMessage:
        return ErrorMessage(code=self.code, message=self.message)


class StorageUnavailable(Exception):  # noqa: N818 (a state of the database, not a mistake)
    """The database failed (a full disk, a locked or corrupt file, a server gone). The
    transaction that failed stored nothing; what was committed before stays as it was."""


class BusUnavailable(Exception):  # noqa: N818 (a state of Redis, not a mistake)
    """Redis cannot be reached or failed: nothing is known of the leases until it is back,
    so a process must stop applying moves to its rooms rather than guess."""


class StaleFence(Exception):  # noqa: N818 (a state of the room, not a failure)
    """A write under a fencing token that is not the room's fence (now or any more):
    another process claimed the room since (see ``leases``). Nothing of the call was stored;
    the process must give the room up, not try again."""

    def __init__(self, message: str, matches: Collection[int] = ()) -> None:
        super().__init__(message)
        self.matches = frozenset(matches)
        """The matches whose moves were refused (none for a claim)."""
