"""The quick-match queue: the people waiting to play a game with others, first come first
served, each taken out of it exactly once.

:class:`LocalQueue` serves a process alone; a site of several processes keeps one queue in
Redis (:mod:`escoba.server.replication.queue`), with the same three operations, each atomic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol

__all__ = ["LocalQueue", "Queue", "SeekKey", "Seeker"]


@dataclass(frozen=True, slots=True)
class SeekKey:
    """What people wait for together: a preset, how many play, and whether it is rated."""

    rules: str
    players: int
    rated: bool = False

    @property
    def name(self) -> str:
        return f"{self.rules}:{self.players}" + (":rated" if self.rated else "")


@dataclass(frozen=True, slots=True)
class Seeker:
    """One person waiting: who, where (the process holding their connection), since when;
    signed in, their account, and the address they seek from (fair-play flags compare them)."""

    id: str
    process: str
    nickname: str
    language: str
    account: int | None = None
    address: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seeker:
        account = data.get("account")
        address = data.get("address")
        return cls(
            str(data["id"]),
            str(data["process"]),
            str(data["nickname"]),
            str(data["language"]),
            None if account is None else int(account),
            None if address is None else str(address),
        )


class Queue(Protocol):
    """The queue, by what people wait for."""

    async def join(self, key: SeekKey, seeker: Seeker) -> Sequence[Seeker]:
        """Put ``seeker`` at the end of the line; the first ``key.players`` of it, taken out,
        once that many wait (else nothing)."""

    async def take(self, key: SeekKey, seeker_id: str) -> Sequence[Seeker]:
        """Take the seeker out, with those before and after it, ``key.players`` at most, the
        seeker first; nothing if it is no longer waiting (it was paired meanwhile)."""

    async def leave(self, key: SeekKey, seeker_id: str) -> None:
        """The seeker stops waiting (if it still was)."""


class LocalQueue:
    """The queue of a process serving alone, in its memory."""

    def __init__(self) -> None:
        self._lines: dict[SeekKey, list[Seeker]] = {}

    async def join(self, key: SeekKey, seeker: Seeker) -> Sequence[Seeker]:
        line = self._lines.setdefault(key, [])
        line.append(seeker)
        if len(line) < key.players:
            return ()
        group, line[:] = line[: key.players], line[key.players :]
        return group

    async def take(self, key: SeekKey, seeker_id: str) -> Sequence[Seeker]:
        line = self._lines.get(key, [])
        mine = [seeker for seeker in line if seeker.id == seeker_id]
        if not mine:
            return ()
        others = [seeker for seeker in line if seeker.id != seeker_id][: key.players - 1]
        group = [mine[0], *others]
        line[:] = [seeker for seeker in line if seeker not in group]
        return group

    async def leave(self, key: SeekKey, seeker_id: str) -> None:
        line = self._lines.get(key)
        if line is not None:
            line[:] = [seeker for seeker in line if seeker.id != seeker_id]
