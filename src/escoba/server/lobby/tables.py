"""The lobby's open tables: every listed room with a free seat, or whose match may be watched,
as this process knows them, pushed to everyone watching the lobby.

A room's owner keeps its own entry current (:meth:`OpenTables.show`, the rooms' port
:class:`~escoba.server.rooms.ports.Listings`). In a site of several processes each entry is
spread to the others (:attr:`OpenTables.spread`, the site's bus) and heard there
(:meth:`OpenTables.heard`). The bus delivers at most once, so a process says its entries
again every ``refresh`` seconds and forgets those of others not heard for ``keep`` seconds:
a missed message, a newcomer process or a dead one are set right within those times.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Final

from ..clients import Client
from ..config import Clock
from ..protocol import TableGoneMessage, TableListing, TableMessage, TablesMessage

__all__ = ["KEEP_SECONDS", "REFRESH_SECONDS", "OpenTables", "Spread"]

log = logging.getLogger("escoba.server")

REFRESH_SECONDS: Final = 10.0
"""How often a process says its own entries again to the others."""
KEEP_SECONDS: Final = 30.0
"""How long an entry of another process is kept without being said again."""

Spread = Callable[[str, TableListing | None], Awaitable[None]]
"""Tell the other processes a room's entry (None: it is not listed)."""


class OpenTables:
    """The open tables this process knows, and the lobby watchers it keeps up to date."""

    def __init__(
        self, clock: Clock, *, refresh: float = REFRESH_SECONDS, keep: float = KEEP_SECONDS
    ) -> None:
        self._clock = clock
        self._refresh = refresh
        self._keep = keep
        self._tables: dict[str, TableListing] = {}
        self._own: set[str] = set()
        """The rooms whose entries this process keeps (it owns them)."""
        self._heard_at: dict[str, float] = {}
        """When each entry of another process was last heard."""
        self._watchers: set[Client] = set()
        self.spread: Spread | None = None
        """Set when other processes serve the site too."""
        self._outbox: dict[str, TableListing | None] = {}
        self._sending: asyncio.Task[None] | None = None

    # -- entries

    def tables(self) -> list[TableListing]:
        """The open tables: those with a free seat first, then the matches to watch."""
        self._forget_unheard()
        return sorted(self._tables.values(), key=lambda table: table.status != "waiting")

    def show(self, room_id: str, table: TableListing | None) -> None:
        """The entry of a room this process owns (None: not listed)."""
        if table is None:
            self._own.discard(room_id)
        else:
            self._own.add(room_id)
        self._heard_at.pop(room_id, None)
        if self._put(room_id, table) and self.spread is not None:
            self._send(room_id, table)

    def let_go(self, room_id: str) -> None:
        """Another process owns the room now: its entry is that process's to keep."""
        self._own.discard(room_id)
        self._heard_at.setdefault(room_id, self._clock.now())

    def heard(self, room_id: str, table: TableListing | None) -> None:
        """The entry another process said for a room it owns."""
        if room_id in self._own:
            return  # this process owns it now (the other lost it): its own entry stands
        if table is None:
            self._heard_at.pop(room_id, None)
        else:
            self._heard_at[room_id] = self._clock.now()
        self._put(room_id, table)

    def _put(self, room_id: str, table: TableListing | None) -> bool:
        """Set a room's entry and tell the watchers; whether it changed."""
        if self._tables.get(room_id) == table:
            return False
        if table is None:
            del self._tables[room_id]
            text = TableGoneMessage(id=room_id).model_dump_json()
        else:
            self._tables[room_id] = table
            text = TableMessage(table=table).model_dump_json()
        for watcher in list(self._watchers):
            watcher.send_serialised(text)
        return True

    def _forget_unheard(self) -> None:
        oldest = self._clock.now() - self._keep
        for room_id, heard_at in list(self._heard_at.items()):
            if heard_at < oldest:
                del self._heard_at[room_id]
                self._put(room_id, None)

    # -- watchers

    @property
    def watching(self) -> int:
        return len(self._watchers)

    def watch(self, client: Client) -> None:
        """Send ``client`` the open tables, then every change to them."""
        client.send(TablesMessage(tables=self.tables()))
        self._watchers.add(client)

    def unwatch(self, client: Client) -> None:
        self._watchers.discard(client)

    # -- the other processes

    def _send(self, room_id: str, table: TableListing | None) -> None:
        """Spread a room's entry, in order, the latest of each room only."""
        self._outbox.pop(room_id, None)
        self._outbox[room_id] = table
        if self._sending is None or self._sending.done():
            self._sending = asyncio.get_running_loop().create_task(self._send_all())

    async def _send_all(self) -> None:
        while self._outbox and self.spread is not None:
            room_id = next(iter(self._outbox))
            table = self._outbox.pop(room_id)
            try:
                await self.spread(room_id, table)
            except Exception as error:  # the bus says itself when it is out of reach
                log.debug("lobby: an entry could not be spread (%s)", error)

    async def upkeep(self) -> None:
        """Say this process's entries again every ``refresh`` seconds, and forget those of
        others not heard for ``keep`` (their process is gone, or the entry's end was lost)."""
        while True:
            await self._clock.sleep(self._refresh)
            self._forget_unheard()
            if self.spread is not None:
                for room_id in list(self._own):
                    table = self._tables.get(room_id)
                    if table is not None:
                        self._send(room_id, table)

    async def close(self) -> None:
        """Take this process's entries off every other's lobby (it stops), and let the
        watchers go."""
        if self.spread is not None:
            for room_id in list(self._own):
                with contextlib.suppress(Exception):
                    await self.spread(room_id, None)
        if self._sending is not None:
            self._sending.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sending
        for watcher in list(self._watchers):
            watcher.close()
        self._watchers.clear()
