"""Quick match: "Play now" pairs a person with others waiting for the same game and number of
players, first come first served, across every process of a site.

A person waits while their lobby connection is open: closing it (leaving the page) takes them
out of the queue. The queue (:mod:`.queue`) takes each person out exactly once, whichever
process pairs them; that process opens the room and hands each person their seat, through the
site's bus (:attr:`QuickMatch.spread`) when their connection is on another process. After
``wait`` seconds a person is told so, and may keep waiting or fill the free seats with
computers (``fill``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from ...errors import RulesError
from ...rules import RULESETS
from ..clients import Client
from ..config import Clock
from ..errors import RESTARTING, BusUnavailable, Refusal
from ..nicknames import NicknameError, clean_nickname
from ..protocol import (
    ErrorMessage,
    FillMessage,
    PairedMessage,
    SeatTicket,
    SeekCancelledMessage,
    SeekingMessage,
    SeekMessage,
    SeekWaitedMessage,
)
from .queue import Queue, Seeker, SeekKey

__all__ = ["Opener", "QuickMatch", "Spread"]

log = logging.getLogger("escoba.server")

Opener = Callable[[SeekKey, Sequence[Seeker], str | None, str | None], Awaitable[list[SeatTicket]]]
"""Open the room of a quick match: what it is for, the people paired (in seat order), the level
of the computers that fill the other seats, and the address that asked for them; each
person's ticket."""
Spread = Callable[[str, PairedMessage | ErrorMessage], Awaitable[None]]
"""Tell the other processes what became of a seeker (by id): paired, or refused."""


@dataclass(slots=True)
class _Waiting:
    key: SeekKey
    seeker: Seeker
    notice: asyncio.Task[None] | None = None


class QuickMatch:
    """The people this process has waiting, and the pairing of them."""

    def __init__(
        self, queue: Queue, opener: Opener, clock: Clock, *, wait: float, process: str = "here"
    ) -> None:
        self.queue = queue
        self._open = opener
        self._clock = clock
        self.wait = wait
        self.process = process
        """This process, as the seekers it holds name it."""
        self.spread: Spread | None = None
        """Set when other processes serve the site too."""
        self._waiting: dict[Client, _Waiting] = {}
        self._clients: dict[str, Client] = {}
        """Each seeker waiting here, by id."""
        self._leaving: set[asyncio.Task[None]] = set()

    @property
    def seeking(self) -> int:
        return len(self._waiting)

    async def seek(
        self,
        client: Client,
        message: SeekMessage,
        account: tuple[int, str] | None = None,
        address: str | None = None,
    ) -> None:
        """Put the connection's person in the queue; pair them if enough are waiting.
        ``account``: the signed-in person's (id, username), who waits under that name and
        may seek a rated match."""
        if client in self._waiting:
            raise Refusal("already_seeking", "you are waiting for a match already")
        key = SeekKey(message.rules, message.players, message.rated)
        _check(key)
        if key.rated and account is None:
            raise Refusal("sign_in_needed", "sign in to play a rated match")
        if account is not None and any(
            waiting.seeker.account == account[0] for waiting in self._waiting.values()
        ):
            raise Refusal("already_seeking", "you are waiting for a match already")
        try:
            nickname = clean_nickname(message.nickname) if account is None else account[1]
        except NicknameError as error:
            raise Refusal("bad_nickname", str(error)) from None
        seeker = Seeker(
            secrets.token_urlsafe(12),
            self.process,
            nickname,
            message.language,
            None if account is None else account[0],
            address,
        )
        waiting = self._waiting[client] = _Waiting(key, seeker)
        self._clients[seeker.id] = client
        client.send(SeekingMessage(rules=key.rules, players=key.players, wait=self.wait))
        waiting.notice = asyncio.get_running_loop().create_task(self._notice(client, waiting))
        try:
            group = await self.queue.join(key, seeker)
        except BusUnavailable:
            self._forget(client)
            raise Refusal(*RESTARTING) from None
        if group:
            await self._pair(key, group, None, None)

    async def fill(self, client: Client, message: FillMessage, address: str) -> None:
        """Play now: the people waiting for the same (the asker first), the seats left to
        computers of the level asked for."""
        waiting = self._waiting.get(client)
        if waiting is None:
            raise Refusal("not_seeking", "you are not waiting for a match")
        if waiting.key.rated:
            raise Refusal(
                "rated_people_only",
                "a rated match is played by people only: cancel, and play now unrated to "
                "fill the seats with computers",
            )
        try:
            group = await self.queue.take(waiting.key, waiting.seeker.id)
        except BusUnavailable:
            raise Refusal(*RESTARTING) from None
        if group:  # else paired meanwhile: the ticket is on its way
            await self._pair(waiting.key, group, message.level, address)

    async def cancel(self, client: Client) -> None:
        waiting = self._waiting.get(client)
        if waiting is None:
            raise Refusal("not_seeking", "you are not waiting for a match")
        await self._leave(client, waiting)
        client.send(SeekCancelledMessage())

    def gone(self, client: Client) -> asyncio.Task[None] | None:
        """The connection closed: its person leaves the queue."""
        waiting = self._waiting.get(client)
        if waiting is None:
            return None
        self._forget(client)  # at once: whatever comes for it now is for nobody
        # Kept until done: the socket's handler may be cancelled before it awaits this
        task = asyncio.get_running_loop().create_task(self._unqueue(waiting))
        self._leaving.add(task)
        task.add_done_callback(self._leaving.discard)
        return task

    async def _leave(self, client: Client, waiting: _Waiting) -> None:
        self._forget(client)
        await self._unqueue(waiting)

    async def _unqueue(self, waiting: _Waiting) -> None:
        with contextlib.suppress(BusUnavailable):  # an entry of a process gone is skipped
            await self.queue.leave(waiting.key, waiting.seeker.id)

    def _forget(self, client: Client) -> None:
        waiting = self._waiting.pop(client, None)
        if waiting is None:
            return
        self._clients.pop(waiting.seeker.id, None)
        if waiting.notice is not None:
            waiting.notice.cancel()

    async def _notice(self, client: Client, waiting: _Waiting) -> None:
        if waiting.key.rated:
            return  # computers are never offered for a rated match
        await self._clock.sleep(self.wait)
        if self._waiting.get(client) is waiting:
            client.send(SeekWaitedMessage(waited=self.wait))

    async def _pair(
        self, key: SeekKey, group: Sequence[Seeker], level: str | None, address: str | None
    ) -> None:
        """Open the room for ``group`` (taken out of the queue) and hand each their seat; if
        it cannot be opened, each is told why and may seek again."""
        try:
            tickets = await self._open(key, group, level, address)
        except Refusal as refusal:
            told: Sequence[PairedMessage | ErrorMessage] = [refusal.to_message()] * len(group)
        else:
            told = [PairedMessage(ticket=ticket) for ticket in tickets]
        for seeker, message in zip(group, told, strict=True):
            await self.deliver(seeker.id, message, spread=seeker.process != self.process)

    async def deliver(
        self, seeker_id: str, message: PairedMessage | ErrorMessage, *, spread: bool = False
    ) -> None:
        """Tell a seeker waiting here (else, with ``spread``, the process that holds it)."""
        client = self._clients.get(seeker_id)
        if client is not None:
            self._forget(client)
            client.send(message)
        elif spread and self.spread is not None:
            try:
                await self.spread(seeker_id, message)
            except BusUnavailable as error:  # its seat waits for it; abandoned if never taken
                log.warning("quick match: a seat could not be handed over (%s)", error)

    async def close(self) -> None:
        for client, waiting in list(self._waiting.items()):
            await self._leave(client, waiting)


def _check(key: SeekKey) -> None:
    rules = RULESETS.get(key.rules)
    if rules is None:
        raise Refusal(
            "bad_rules", f"unknown rule set {key.rules!r}; the presets are {', '.join(RULESETS)}"
        )
    try:
        rules.deals_per_hand(key.players)
    except RulesError as error:  # Scopone for three: the deck does not share out
        raise Refusal("bad_seating", str(error)) from None
