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
    """What people wait for together: a preset, and how many play."""

    rules: str
    players: int

    @property
    def name(self) -> str:
        return f"{self.rules}:{self.players}"


@dataclass(frozen=True, slots=True)
class Seeker:
    """One person waiting: who, where (the process holding their connection), since when."""

    id: str
    process: str
    nickname: str
    language: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seeker:
        return cls(
            str(data["id"]), str(data["process"]), str(data["nickname"]), str(data["language"])
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
