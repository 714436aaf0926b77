"""Attacks on a real server while a person plays on it: what each costs the player, and what
the server does about it.

    python benchmarks/attack.py --seconds 12 --markdown

starts `escoba serve` for each attack (a process of its own on a SQLite database in a
temporary folder, the default limits unless the table says otherwise), lets a probe client
play a match against an ``easy`` computer on it (the person plays a legal move as soon as it
is its turn; the time from sending the play to receiving the state that acknowledges it is
its ack), and runs one attack for about ``--seconds``:

* huge headers: heads streaming a 100 MB header that never ends its line;
* half-sent requests: as many connections as one address (and then twenty) may open, each
  stopping in the middle of a request head;
* a ping flood on many WebSockets, 200 pings of each kind each, then a reset instead of a
  close;
* spectators who never read, flooding pings;
* a room-creation flood from one address, and rooms of three ``hard`` computers (the top
  level) played as fast as the server lets, from one address, and eight rooms from each of
  eight addresses;
* WebSockets that never join; spectators as many as one room takes; a hint flood from
  several connections of one seat;
* junk: huge integers, deep nesting, NUL, invalid UTF-8 in paths, headers, bodies and
  WebSocket messages;
* forty rooms asked for from one address under forged ``X-Forwarded-For`` headers, to a
  server that trusts no proxy, and to one that trusts that address as a proxy (then only
  the rightmost address of the header may count);
* slow bodies: from seventeen addresses, as many connections as each may open, each asking
  for a room with a body that trickles in a byte every 8 s, and one whose body stops after
  its first byte, while a newcomer asks for the presets every second;
* capacity after a restart: rooms of a person and three ``easy`` computers from eight
  addresses until the server's computer seats are all stored, then SIGTERM, the server
  started again on the same database, and how soon a newcomer gets a room with a computer
  and one without;
* password guessing: wrong passwords against one account from one address, then unknown
  names from it (the sign-in limits per name and per address answer 429), whether an unknown
  name is answered as a wrong password is, and what the account's owner then gets; wrong
  passwords from forty addresses at once, each an Argon2id verification for the server; and,
  with the limits raised, the time of the answer to a wrong password and to an unknown name
  (their medians, to tell whether the time gives away which names exist);
* session fixation: a session value the attacker chose, and the attacker's own live
  session, set in a browser before it signs in (neither may become the session); every
  sign-in a new session; a signed-out session dead for reading and for changing;
* CSRF: a signed-in browser made to send every state-changing API request by another site's
  page (``Origin`` of another site or ``null``, ``Sec-Fetch-Site`` cross-site or same-site),
  with the session's cookie, even with its token: 403 ``cross_site``; then from the site
  itself without the token or with a wrong one: 403 ``bad_csrf`` for every request that acts
  for the account.

A baseline without an attack comes first. The table gives, for each, the probe's 50th and
99th percentile ack, its plays, the server's resident memory before and at its peak, what a
newcomer asking for ``/api/presets`` during the attack got, what the server did, how long it
took to be back to the sockets it held before, and whether its log shows a traceback.
Every client is on loopback: the attackers from 127.0.0.1 (and 127.0.1.x where an attack
needs more addresses), the probe from 127.0.0.2, the newcomer from 127.0.0.3, all to the
server on 127.0.0.1. ``--markdown`` prints the table as Markdown; ``--only`` runs the attacks
whose name holds one of its words, such as ``--only j. k.`` or ``--only slow``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import select
import signal
import socket
import statistics
import struct
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from websockets.asyncio.client import ClientConnection

from escoba.server.config import DEFAULT_LIMITS
from gc_pauses import listens_on, server_command, start_server
from soak import alive, descendants

ATTACKER = "127.0.0.1"
PROBE = "127.0.0.2"
NEWCOMER = "127.0.0.3"
WAIT = 10.0
"""Seconds within which the server must answer what a client waits for."""
HUGE_HEADER = 100 * 2**20
CHUNK = b"a" * 65536
HEAD = b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n"
STALL_WAIT = 25.0
"""Seconds a stalled connection waits for the server to close it (its timeouts are 10 s)."""


def extra_address(number: int) -> str:
    """Another loopback address an attacker may come from (the whole 127/8 is loopback)."""
    return f"127.0.1.{number + 1}"


# -- the server process ------------------------------------------------------------------------


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    log: Path
    command: list[str]
    """Its command line, to start it again on the same port and database."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.process.pid


def serve(
    folder: Path, limits: dict[str, float], pace: float, options: tuple[str, ...] = ()
) -> Server:
    database = f"sqlite:///{folder / 'attack.db'}"
    log = folder / "server.log"

    def command(port: int) -> list[str]:
        return [*server_command(port, database, pace=pace, limits=limits), *options]

    with log.open("wb") as output:
        process, port = start_server(command, output, subprocess.STDOUT)
    return Server(process, port, log, command(port))


async def start_again(server: Server) -> Server:
    """Start an ended ``server`` again on its port and database, its log going on in the same
    file; once it answers, or has ended, or a minute has passed (check ``process.poll()``)."""
    with server.log.open("ab") as output:
        process = subprocess.Popen(server.command, stdout=output, stderr=subprocess.STDOUT)
    again = Server(process, server.port, server.log, server.command)
    deadline = time.monotonic() + 60
    async with httpx.AsyncClient(base_url=server.url, timeout=2) as http:
        while time.monotonic() < deadline and process.poll() is None:
            # its own listening socket, not another process's that took the port meanwhile
            with contextlib.suppress(httpx.HTTPError, OSError):
                if (
                    listens_on(process.pid, server.port)
                    and (await http.get("/api/presets")).status_code == 200
                ):
                    break
            await asyncio.sleep(0.1)
    return again


def stop_server(server: Server) -> tuple[float, int]:
    """SIGTERM; the seconds it took the server to end (killed after 20), and how many of its
    processes (the computers' fork server and workers) outlived it, which are then ended."""
    children = descendants(server.pid)
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    try:
        server.process.wait(20)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()
    taken = time.monotonic() - started
    time.sleep(2)  # time for its children to see it gone
    left = [child for child in children if alive(child)]
    for child in reversed(left):  # workers first, then the fork server
        with contextlib.suppress(OSError):
            os.kill(child, signal.SIGTERM)
    return taken, len(left)


def status_value(pid: int, key: str) -> float:
    """A /proc/PID/status figure in MiB (VmRSS, VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def open_sockets(pid: int) -> int:
    count = 0
    for entry in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            count += os.readlink(entry).startswith("socket:")
    return count


# -- raw connections ---------------------------------------------------------------------------


class Raw:
    """A TCP connection driven by hand, byte by byte: nothing is read unless asked."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = bytearray()
        self.loop = asyncio.get_running_loop()

    @classmethod
    async def open(cls, port: int, source: str = ATTACKER, rcvbuf: int | None = None) -> Raw:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            if rcvbuf is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
            sock.bind((source, 0))
            await asyncio.wait_for(
                asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port)), WAIT
            )
        except BaseException:
            sock.close()
            raise
        return cls(sock)

    async def send(self, data: bytes, timeout: float = 5.0) -> None:
        await asyncio.wait_for(self.loop.sock_sendall(self.sock, data), timeout)

    async def recv(self, timeout: float) -> bytes:
        """What comes next; b"" once the server has closed or reset the connection."""
        try:
            return await asyncio.wait_for(self.loop.sock_recv(self.sock, 65536), timeout)
        except (ConnectionResetError, BrokenPipeError):
            return b""

    async def head(self, timeout: float = WAIT) -> tuple[int, bytes]:
        """The status and head of the server's answer (0 if it closed first)."""
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in self.buffer:
            chunk = await self.recv(max(0.01, deadline - time.monotonic()))
            if not chunk:
                return 0, bytes(self.buffer)
            self.buffer += chunk
        head, _, rest = bytes(self.buffer).partition(b"\r\n\r\n")
        self.buffer = bytearray(rest)
        try:
            return int(head.split(b" ", 2)[1]), head
        except (IndexError, ValueError):
            return -1, head

    async def upgrade(self, path: str, timeout: float = WAIT) -> tuple[int, bytes]:
        """Open a WebSocket on ``path``: the answer's status (101) and head."""
        await self.send(handshake(path))
        return await self.head(timeout)

    async def frame(self, timeout: float = WAIT) -> tuple[int, bytes] | None:
        """The server's next frame (opcode, payload), None if it closed first."""
        deadline = time.monotonic() + timeout
        while (found := parse_frame(self.buffer)) is None:
            chunk = await self.recv(max(0.01, deadline - time.monotonic()))
            if not chunk:
                return None
            self.buffer += chunk
        return found

    def hung_up(self) -> bool:
        """Whether the server closed or reset the connection, without reading a byte."""
        poller = select.poll()
        poller.register(self.sock, select.POLLRDHUP | select.POLLHUP | select.POLLERR)
        return any(events for _, events in poller.poll(0))

    def cut(self) -> None:
        """Close with a reset (SO_LINGER 0) instead of a goodbye."""
        with contextlib.suppress(OSError):
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()

    def close(self) -> None:
        self.sock.close()


def handshake(path: str | bytes) -> bytes:
    target = path.encode() if isinstance(path, str) else path
    key = base64.b64encode(os.urandom(16))
    return (
        b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: "
        + key
        + b"\r\n\r\n"
    )


def frame(payload: bytes | str, opcode: int = 1) -> bytes:
    """A client frame (masked, as clients must)."""
    data = payload.encode() if isinstance(payload, str) else payload
    mask = os.urandom(4)
    size = len(data)
    if size < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
    elif size < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
    return head + mask + bytes(byte ^ mask[n % 4] for n, byte in enumerate(data))


def parse_frame(buffer: bytearray) -> tuple[int, bytes] | None:
    """Take one whole server frame (unmasked) off the front of ``buffer``."""
    if len(buffer) < 2:
        return None
    opcode, size, offset = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
    if size == 126:
        if len(buffer) < 4:
            return None
        size, offset = int.from_bytes(buffer[2:4], "big"), 4
    elif size == 127:
        if len(buffer) < 10:
            return None
        size, offset = int.from_bytes(buffer[2:10], "big"), 10
    if len(buffer) < offset + size:
        return None
    payload = bytes(buffer[offset : offset + size])
    del buffer[: offset + size]
    return opcode, payload


PING = frame('{"type": "ping"}')
CONTROL_PING = frame(b"", opcode=9)
WATCH = frame('{"type": "watch"}')


def error_code(payload: bytes | bytearray) -> str:
    """A server message's error code, or its type."""
    try:
        message = json.loads(payload)
    except ValueError:
        return "not JSON"
    return str(message.get("code") or message.get("type"))


def spread(values: Iterable[float]) -> str:
    ordered = sorted(values)
    if not ordered:
        return "-"
    if ordered[-1] - ordered[0] < 0.05:
        return f"{ordered[0]:.1f} s"
    return f"{ordered[0]:.1f}–{ordered[-1]:.1f} s"


def tally_text(counts: Counter[str]) -> str:
    return ", ".join(f"{name} ×{count}" for name, count in counts.most_common())


async def gather_bounded(work: Iterable[Awaitable[Any]], limit: int) -> list[Any]:
    """Run ``work`` at most ``limit`` at a time; exceptions are returned, not raised."""
    gate = asyncio.Semaphore(limit)

    async def one(item: Awaitable[Any]) -> Any:
        async with gate:
            return await item

    return await asyncio.gather(*(one(item) for item in work), return_exceptions=True)


# -- the probe ---------------------------------------------------------------------------------


class Probe:
    """A person playing a match against an ``easy`` computer, each play as soon as it is its
    turn, from its own address; it takes its seat again if its socket is closed."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.acks: list[tuple[float, float]] = []
        """(when, seconds) of each acknowledged play."""
        self.replies: list[tuple[float, float]] = []
        """(when, seconds) of each wait for the computer, from an ack to the next turn."""
        self.failures: list[str] = []
        self.errors: Counter[str] = Counter()
        self.room = ""
        self.token = ""
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        self.stopping = False

    async def start(self) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=PROBE)
        async with httpx.AsyncClient(base_url=self.url, transport=transport, timeout=WAIT) as http:
            body = {"nickname": "probe", "seats": ["person", "easy"], "rules": "escoba"}
            reply = await http.post("/api/rooms", json=body)
        reply.raise_for_status()
        self.room, self.token = reply.json()["room"], reply.json()["token"]
        self.task = asyncio.create_task(self.play())
        await asyncio.wait_for(self.ready.wait(), WAIT)

    async def play(self) -> None:
        address = self.url.replace("http", "ws", 1) + f"/ws/rooms/{self.room}"
        for _attempt in range(60):  # enough for a server to stop and start again
            if self.stopping:
                return
            try:
                async with websockets.connect(
                    address, local_addr=(PROBE, 0), open_timeout=WAIT, close_timeout=2
                ) as ws:
                    await self.seat(ws)
            except asyncio.CancelledError:
                raise
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else "no close frame"
                self.failures.append(f"closed ({code})")
            except Exception as error:
                self.failures.append(f"{type(error).__name__}: {error}"[:80])
            await asyncio.sleep(0.5)

    async def seat(self, ws: ClientConnection) -> None:
        await ws.send(json.dumps({"type": "join", "token": self.token}))
        sent_at: float | None = None
        acked_at: float | None = None
        sent_card = ""
        seat: int | None = None
        rng = random.Random(7)
        while not self.stopping:
            # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancellation
            async with asyncio.timeout(60):
                message = json.loads(await ws.recv())
            kind = message["type"]
            if kind == "welcome":
                seat = message["seat"]
            elif kind == "error":
                self.errors[message["code"]] += 1
                sent_at = None
            if kind != "state":
                continue
            self.ready.set()
            event = message.get("event") or {}
            if sent_at is not None and event.get("seat") == seat and event["card"] == sent_card:
                self.acks.append((time.monotonic(), time.perf_counter() - sent_at))
                sent_at = None
                acked_at = time.perf_counter()
            match = message["match"]
            if match["over"]:
                await ws.send(json.dumps({"type": "rematch"}))
                acked_at = None
            elif sent_at is None and match["to_move"] == seat and match["legal"]:
                if acked_at is not None:
                    self.replies.append((time.monotonic(), time.perf_counter() - acked_at))
                    acked_at = None
                move = rng.choice(match["legal"])
                sent_card = move["card"]
                sent_at = time.perf_counter()
                await ws.send(
                    json.dumps({"type": "play", "card": sent_card, "captures": move["captures"]})
                )

    def between(self, start: float, end: float, replies: bool = False) -> list[float]:
        """The acks (or the computer's replies) in seconds between ``start`` and ``end``,
        shortest first."""
        chosen = self.replies if replies else self.acks
        return sorted(seconds for when, seconds in chosen if start <= when <= end)

    async def stop(self) -> None:
        self.stopping = True
        for _ in range(10):
            if self.task is None or self.task.done():
                return
            self.task.cancel()
            await asyncio.wait({self.task}, timeout=1)


# -- the attacks -------------------------------------------------------------------------------


@dataclass
class Target:
    """What an attack is given: the server, the probe's room, and when to stop."""

    server: Server
    probe: Probe
    seconds: float
    started: float = field(default_factory=time.monotonic)

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def deadline(self) -> float:
        return self.started + self.seconds

    def left(self) -> float:
        return self.deadline - time.monotonic()


async def baseline(target: Target) -> str:
    await asyncio.sleep(target.seconds)
    return "nothing to do"


async def huge_headers(target: Target) -> str:
    """Connections streaming a 100 MB header line without its end, four at a time."""
    statuses: Counter[str] = Counter()
    sent_at_answer: list[float] = []
    cut_after: list[float] = []
    full = 0

    async def one() -> None:
        nonlocal full
        raw = await Raw.open(target.port)
        answer = asyncio.create_task(raw.head(WAIT))
        answered: list[float] = []
        answer.add_done_callback(lambda _: answered.append(time.monotonic()))
        sent = 0
        answered_at: int | None = None
        cut = False
        try:
            try:
                await raw.send(HEAD + b"X-Huge: ")
                while sent < HUGE_HEADER:
                    await raw.send(CHUNK)
                    sent += len(CHUNK)
                    if answered_at is None and answer.done():
                        answered_at = sent
                # All sent: go on, a byte at a time, until the server cuts the connection
                for _ in range(100):
                    await asyncio.sleep(0.05)
                    await raw.send(b"a")
            except (OSError, TimeoutError):
                cut = True
            try:
                status, _ = await answer
            except TimeoutError:
                status = 0
            if answered and cut:
                cut_after.append(time.monotonic() - answered[0])
            statuses[f"{status} {error_code(raw.buffer)}" if status else "no answer"] += 1
            sent_at_answer.append((answered_at or sent) / 2**20)
            full += sent >= HUGE_HEADER
        finally:
            answer.cancel()
            raw.close()

    async def worker() -> None:
        for _ in range(25):
            if target.left() <= 0:
                return
            await one()

    await asyncio.gather(*(worker() for _ in range(4)))
    answered = statistics.median(sent_at_answer) if sent_at_answer else 0
    return (
        f"{tally_text(statuses)} of {sum(statuses.values())} heads; the client had sent "
        f"{answered:.1f} MiB (median) when the answer came, and was cut "
        f"{spread(cut_after)} after it; {full} sent all 100 MB before the cut"
    )


async def half_sent(target: Target, addresses: int, per_address: int) -> str:
    """Connections that stop halfway through a request head, until the server closes them."""
    refused: Counter[str] = Counter()
    closed_after: list[float] = []
    still_open = 0
    failed = 0
    raws: list[Raw] = []

    async def one(source: str) -> None:
        nonlocal still_open, failed
        try:
            raw = await Raw.open(target.port, source)
        except (OSError, TimeoutError):
            failed += 1
            return
        raws.append(raw)
        began = time.monotonic()
        with contextlib.suppress(OSError, TimeoutError):
            await raw.send(HEAD + b"X-Stalled: ")
        try:
            data = await raw.recv(STALL_WAIT)
        except TimeoutError:
            still_open += 1
            return
        if data.startswith(b"HTTP/1.1 "):
            code = error_code(data.partition(b"\r\n\r\n")[2])
            refused[f"{data[9:12].decode()} {code}"] += 1
        elif data:
            refused["answered"] += 1
        else:
            closed_after.append(time.monotonic() - began)

    sources = [ATTACKER if n == 0 else extra_address(n) for n in range(addresses)]
    try:
        await asyncio.gather(*(one(s) for s in sources for _ in range(per_address)))
    finally:
        for raw in raws:
            raw.close()
    held = len(closed_after) + still_open
    text = f"{held} held, closed after {spread(closed_after)}"
    if refused:
        text += f"; refused: {tally_text(refused)}"
    if still_open:
        text += f"; {still_open} still open"
    if failed:
        text += f"; {failed} could not connect"
    return text


async def ping_flood(target: Target) -> str:
    """Waves of WebSockets from four addresses, each 200 pings of each kind, then a reset."""
    path = f"/ws/rooms/{target.probe.room}"
    upgraded = 0
    refused: Counter[str] = Counter()
    waves = 0

    async def one(source: str) -> None:
        nonlocal upgraded
        raw = await Raw.open(target.port, source)
        try:
            status, _ = await raw.upgrade(path)
            if status != 101:
                refused[str(status)] += 1
                return
            upgraded += 1
            await raw.send(PING * 200 + CONTROL_PING * 200)
            await asyncio.sleep(0.05)
        finally:
            raw.cut()

    sources = [ATTACKER, *(extra_address(n) for n in range(1, 4))]
    while target.left() > 0.5 and waves < 30:
        waves += 1
        await gather_bounded((one(s) for s in sources for _ in range(50)), 200)
        await asyncio.sleep(0.2)
    text = f"{upgraded} sockets in {waves} waves, 200+200 pings each, then reset"
    if refused:
        text += f"; refused {tally_text(refused)}"
    return text


async def non_readers(target: Target) -> str:
    """Spectators of the probe's room (as many as it takes) flooding pings, never reading,
    until the server cuts them (or ``NON_READER_SECONDS``)."""
    path = f"/ws/rooms/{target.probe.room}"
    raws: list[Raw] = []
    for _ in range(50):
        raw = await Raw.open(target.port, rcvbuf=4096)
        status, _ = await raw.upgrade(path)
        if status != 101:
            raw.close()
            continue
        await raw.send(WATCH)
        raws.append(raw)
    began = time.monotonic()
    cut_after: dict[int, float] = {}
    sent = 0
    # Longer than the others: the kernel's send buffers take seconds to fill before the
    # server's own send_seconds start counting
    deadline = target.started + max(target.seconds, NON_READER_SECONDS)
    while time.monotonic() < deadline and len(cut_after) < len(raws):
        for number, raw in enumerate(raws):
            if number in cut_after:
                continue
            if raw.hung_up():
                cut_after[number] = time.monotonic() - began
                continue
            try:
                await raw.send(PING * 20, timeout=0.2)
                sent += 20
            except (OSError, TimeoutError):
                if raw.hung_up():
                    cut_after[number] = time.monotonic() - began
        await asyncio.sleep(0.1)
    for raw in raws:
        raw.close()
    parts = [f"{len(raws)} spectators sent {sent} pings, reading nothing"]
    if cut_after:
        parts.append(f"{len(cut_after)} cut after {spread(cut_after.values())}")
    if len(cut_after) < len(raws):
        parts.append(
            f"{len(raws) - len(cut_after)} still open after {time.monotonic() - began:.0f} s"
        )
    return "; ".join(parts)


async def room_flood(target: Target) -> str:
    """Rooms for two people created as fast as one client can, from one address."""
    answers: list[str] = []
    began = time.monotonic()
    async with httpx.AsyncClient(base_url=target.server.url, timeout=WAIT) as http:
        while target.left() > 0 and len(answers) < 5000:
            body = {"nickname": "flood", "seats": ["person", "person"]}
            reply = await http.post("/api/rooms", json=body)
            code = "" if reply.status_code == 201 else " " + reply.json().get("code", "")
            answers.append(f"{reply.status_code}{code}")
    counts = Counter(answers)
    refusals = [n for n, answer in enumerate(answers) if not answer.startswith("201")]
    first = f"first refusal at #{refusals[0] + 1}, " if refusals else ""
    rate = len(answers) / (time.monotonic() - began)
    return f"{tally_text(counts)} ({first}{rate:.0f} requests/s)"


async def top_level_rooms(target: Target, addresses: int = 8, per_address: int = 8) -> str:
    """From each address, ``per_address`` rooms of a person and three ``hard`` computers (or
    fewer if refused); the person plays at once whenever it is its turn, so the computers
    think all the time."""
    refusals: Counter[str] = Counter()
    rooms: list[tuple[str, str, str]] = []
    for number in range(addresses):
        source = ATTACKER if number == 0 else extra_address(number)
        transport = httpx.AsyncHTTPTransport(local_address=source)
        async with httpx.AsyncClient(
            base_url=target.server.url, transport=transport, timeout=WAIT
        ) as http:
            for _ in range(per_address):
                body = {
                    "nickname": "x",
                    "seats": ["person", "hard", "hard", "hard"],
                    "players": 4,
                    "partnerships": False,
                }
                reply = await http.post("/api/rooms", json=body)
                if reply.status_code != 201:
                    refusals[f"{reply.status_code} {reply.json().get('code')}"] += 1
                    break
                rooms.append((source, reply.json()["room"], reply.json()["token"]))
    moves: Counter[str] = Counter()

    async def play(source: str, room: str, token: str) -> None:
        address = target.server.url.replace("http", "ws", 1) + f"/ws/rooms/{room}"
        async with websockets.connect(address, local_addr=(source, 0), close_timeout=1) as ws:
            await ws.send(json.dumps({"type": "join", "token": token}))
            while target.left() > 0:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), target.left()))
                except TimeoutError:
                    return
                if message["type"] != "state":
                    continue
                event = message.get("event") or {}
                if event:
                    moves["person" if event["seat"] == 0 else "hard"] += 1
                match = message["match"]
                if match["over"]:
                    await ws.send(json.dumps({"type": "rematch"}))
                elif match["to_move"] == 0 and match["legal"]:
                    move = match["legal"][0]
                    await ws.send(
                        json.dumps(
                            {"type": "play", "card": move["card"], "captures": move["captures"]}
                        )
                    )

    results = await asyncio.gather(*(play(*room) for room in rooms), return_exceptions=True)
    broken = sum(isinstance(result, BaseException) for result in results)
    made = f"{len(rooms) / addresses:g} rooms an address"
    if refusals:
        made += f", then {tally_text(refusals)}"
    plural = "es" if addresses > 1 else ""
    # The probe's pace beside the computers': the fair share of the computer workers
    now = time.monotonic()
    plays = len(target.probe.between(target.started, now))
    replies = target.probe.between(target.started, now, replies=True)
    text = (
        f"{made}; {len(rooms)} rooms from {addresses} address{plural} played "
        f"{moves['hard']} hard and {moves['person']} person moves; the probe played "
        f"{60 * plays / max(1.0, now - target.started):.0f} a minute"
    )
    if replies:
        text += f", its computer replying in {statistics.median(replies):.2f} s (median)"
    if broken:
        text += f"; {broken} sockets failed"
    return text


async def never_join(target: Target, addresses: int = 5, per_address: int = 70) -> str:
    """WebSockets on the probe's room that never join, from several addresses."""
    path = f"/ws/rooms/{target.probe.room}"
    refused: Counter[str] = Counter()
    closed: Counter[str] = Counter()
    closed_after: list[float] = []
    raws: list[Raw] = []

    async def one(source: str) -> None:
        raw = await Raw.open(target.port, source)
        raws.append(raw)
        status, _ = await raw.upgrade(path)
        if status != 101:
            refused[str(status)] += 1
            return
        began = time.monotonic()
        said = ""
        while (found := await raw.frame(STALL_WAIT)) is not None:
            opcode, payload = found
            if opcode == 1:
                said = error_code(payload)
            elif opcode == 8:
                code = int.from_bytes(payload[:2], "big") if payload else 1005
                closed[f"{said or 'closed'} ({code})"] += 1
                closed_after.append(time.monotonic() - began)
                return
        closed[f"{said or 'cut'} (no close frame)"] += 1
        closed_after.append(time.monotonic() - began)

    sources = [ATTACKER if n == 0 else extra_address(n) for n in range(addresses)]
    try:
        results = await asyncio.gather(
            *(one(s) for s in sources for _ in range(per_address)), return_exceptions=True
        )
    finally:
        for raw in raws:
            raw.close()
    failed = sum(isinstance(result, BaseException) for result in results)
    text = f"{len(closed_after)} held, closed after {spread(closed_after)}: {tally_text(closed)}"
    if refused:
        text += f"; refused {tally_text(refused)}"
    if failed:
        text += f"; {failed} timed out"
    return text


async def many_spectators(target: Target, count: int = 100) -> str:
    """Spectators of the probe's room, more than it takes, all reading what they get, from
    two addresses."""
    address = target.server.url.replace("http", "ws", 1) + f"/ws/rooms/{target.probe.room}"
    answers: Counter[str] = Counter()
    states = 0

    async def one(source: str) -> None:
        nonlocal states
        async with websockets.connect(address, local_addr=(source, 0), close_timeout=1) as ws:
            await ws.send(json.dumps({"type": "watch"}))
            while target.left() > 0:
                try:
                    raw = await asyncio.wait_for(ws.recv(), target.left())
                except TimeoutError:
                    return
                except websockets.ConnectionClosed as closed:
                    code = closed.rcvd.code if closed.rcvd else "no close frame"
                    answers[f"then closed ({code})"] += 1
                    return
                message = json.loads(raw)
                if message["type"] in {"welcome", "error"}:
                    answers[message.get("code") or "watching"] += 1
                elif message["type"] == "state":
                    states += 1

    sources = [ATTACKER, extra_address(1)]
    work = [one(sources[n % 2]) for n in range(count)]
    results = await asyncio.gather(*work, return_exceptions=True)
    failed = sum(isinstance(result, BaseException) for result in results)
    text = f"{count} asked: {tally_text(answers)}; {states} states sent to them"
    if failed:
        text += f"; {failed} sockets failed"
    return text


async def hint_flood(target: Target, seats: int = 5, connections: int = 6) -> str:
    """Seats of rooms against a computer, each on more connections than a seat may have,
    every connection asking for a hint 50 times a second."""
    answers: Counter[str] = Counter()
    tickets = []
    async with httpx.AsyncClient(base_url=target.server.url, timeout=WAIT) as http:
        for _ in range(seats):
            body = {"nickname": "hints", "seats": ["person", "easy"]}
            reply = await http.post("/api/rooms", json=body)
            reply.raise_for_status()
            tickets.append(reply.json())

    async def one(ticket: dict[str, Any]) -> None:
        address = target.server.url.replace("http", "ws", 1) + f"/ws/rooms/{ticket['room']}"
        async with websockets.connect(address, close_timeout=1) as ws:
            await ws.send(json.dumps({"type": "join", "token": ticket["token"]}))

            async def read() -> None:
                async for raw in ws:
                    message = json.loads(raw)
                    if message["type"] in {"hint", "error", "welcome"}:
                        answers[message.get("code") or message["type"]] += 1

            reading = asyncio.create_task(read())
            try:
                while target.left() > 0 and not reading.done():
                    await ws.send(json.dumps({"type": "hint"}))
                    await asyncio.sleep(0.02)
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else "no close frame"
                answers[f"closed ({code})"] += 1
            finally:
                reading.cancel()

    work = [one(ticket) for ticket in tickets for _ in range(connections)]
    results = await asyncio.gather(*work, return_exceptions=True)
    failed = sum(isinstance(result, BaseException) for result in results)
    joined = answers.pop("welcome", 0)
    text = f"{seats} seats × {connections} connections, {joined} joined: {tally_text(answers)}"
    if failed:
        text += f"; {failed} sockets failed"
    return text


def junk_requests(room: str) -> list[tuple[str, bytes]]:
    """Hostile HTTP requests, whole, as bytes."""

    def get(path: bytes, *headers: bytes) -> bytes:
        return b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(headers) + b"\r\n"

    def post(path: str, body: bytes) -> bytes:
        return (
            b"POST " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body
        )

    big = b"9" * 5000
    seats = b'"nickname": "x", "seats": ["person", "easy"]'
    return [
        ("huge match id", get(b"/api/matches/" + b"9" * 400 + b"/replay")),
        ("negative match id", get(b"/api/matches/-" + b"9" * 40 + b"/replay")),
        ("NUL in room id", get(b"/api/rooms/%00ab%00")),
        ("raw NUL in path", get(b"/api/rooms/a\x00b")),
        ("invalid UTF-8 path", get(b"/api/rooms/\xff\xfe\xc0\xaf")),
        ("invalid UTF-8 escaped", get(b"/room/%ff%fe%c0%af")),
        ("invalid UTF-8 query", get(f"/api/rooms/{room}/cheatsheet?language=%ff%00".encode())),
        ("NUL in a header", get(b"/api/presets", b"X-Junk: a\x00b\r\n")),
        ("invalid UTF-8 header", get(b"/api/presets", b"X-Junk: \xff\xfe\r\n")),
        ("deep array", post("/api/rooms", b"[" * 30000 + b"]" * 30000)),
        ("deep object", post("/api/rooms", b'{"a":' * 10000 + b"1" + b"}" * 10000)),
        ("deep score pad", post("/api/scorepad", b'{"a":' * 10000 + b"1" + b"}" * 10000)),
        ("huge integer", post("/api/rooms", b"{" + seats + b', "players": ' + big + b"}")),
        ("huge float", post("/api/rooms", b"{" + seats + b', "players": 1e999}')),
        (
            "huge option",
            post("/api/rooms", b"{" + seats + b', "options": {"target_score": ' + big + b"}}"),
        ),
        ("huge pad points", post("/api/scorepad", b'{"hands": [{"points": ' + big + b"}]}")),
        ("NUL nickname", post(f"/api/rooms/{room}/join", b'{"nickname": "a\\u0000b"}')),
        ("raw NUL in body", post(f"/api/rooms/{room}/join", b'{"nickname": "a\x00b"}')),
        ("invalid UTF-8 body", post(f"/api/rooms/{room}/join", b'{"nickname": "\xff\xfe"}')),
        ("lone surrogate", post("/api/scorepad", b'{"rules": "\\ud800"}')),
        ("huge length", get(b"/api/presets", b"Content-Length: 99999999999999999999999999\r\n")),
        (
            "huge chunk",
            b"POST /api/scorepad HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
            b"\r\nFFFFFFFFFFFFFFFFFFFFFFFF\r\n" + b"a" * 70000,
        ),
        ("TLS hello", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(64)),
        ("bad method", b"\xff\xfe / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
        ("many headers", get(b"/api/presets", *(b"X-%d: 1\r\n" % n for n in range(150)))),
    ]


def junk_messages() -> list[tuple[str, bytes, bool]]:
    """Hostile WebSocket frames, each sent after the handshake (and a ``watch`` if True)."""
    big = "9" * 4000
    return [
        ("invalid UTF-8 text", frame(b'{"type": "ping", "x": "\xff\xfe"}'), False),
        ("invalid UTF-8 text, watching", frame(b'{"type": "ping\xc0\xaf"}'), True),
        ("NUL in type", frame('{"type": "ping\\u0000"}'), True),
        ("raw NUL", frame(b'{"type": "pi\x00ng"}'), True),
        ("deep nesting", frame("[" * 2000 + "]" * 2000), True),
        ("deep object", frame('{"a":' * 800 + "1" + "}" * 800), False),
        ("huge integer", frame('{"type": "play", "card": ' + big + "}"), True),
        ("huge float", frame('{"type": "play", "card": "7d", "captures": [1e999]}'), True),
        ("NUL token", frame('{"type": "join", "token": "\\u0000\\u0000"}'), False),
        ("huge token", frame('{"type": "join", "token": "' + "a" * 3000 + '"}'), False),
        ("binary junk", frame(bytes(range(256)) * 2, opcode=2), True),
        ("too large", frame("x" * 5000), True),
        ("reserved opcode", frame(b"x", opcode=3), True),
    ]


NON_READER_SECONDS = 25.0
"""How long the spectators who never read go on at most, waiting to be cut."""
JUNK_WAIT = 3.0
"""Seconds a junk request or message waits for its answer."""


async def junk(target: Target) -> str:
    """Every junk request and message, again and again until the time is up."""
    requests = junk_requests(target.probe.room)
    messages = junk_messages()
    path = f"/ws/rooms/{target.probe.room}"
    answers: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    passes = 0

    async def ask(name: str, data: bytes) -> None:
        raw = await Raw.open(target.port)
        try:
            with contextlib.suppress(OSError, TimeoutError):
                await raw.send(data)
            try:
                status, _ = await raw.head(JUNK_WAIT)
            except TimeoutError:
                answers["no answer"] += 1
                wrong[f"{name}: no answer in {JUNK_WAIT:g} s"] += 1
                return
            answers[str(status or "closed")] += 1
            if status >= 500 or status <= 0:
                wrong[f"{name}: {status or 'closed without an answer'}"] += 1
        finally:
            raw.close()

    async def say(name: str, data: bytes, watch: bool) -> None:
        raw = await Raw.open(target.port)
        try:
            status, _ = await raw.upgrade(path)
            if status != 101:
                wrong[f"{name}: upgrade {status}"] += 1
                return
            with contextlib.suppress(OSError, TimeoutError):
                await raw.send((WATCH if watch else b"") + data)
            try:
                while (found := await raw.frame(JUNK_WAIT)) is not None:
                    opcode, payload = found
                    if opcode == 8:
                        code = int.from_bytes(payload[:2], "big") if payload else 1005
                        answers[f"ws close {code}"] += 1
                        return
                    said = error_code(payload) if opcode == 1 else f"opcode {opcode}"
                    if said not in {"welcome", "state"}:
                        answers[f"ws {said}"] += 1
                        return
            except TimeoutError:
                wrong[f"{name}: no answer in {JUNK_WAIT:g} s"] += 1
                return
            wrong[f"{name}: closed without a word"] += 1
        finally:
            raw.close()

    while target.left() > 0 and passes < 1000:
        passes += 1
        for name, data in requests:
            await ask(name, data)
        for name, data, watch in messages:
            await say(name, data, watch)
        for bad_path in (b"/ws/rooms/\xff\xfe", b"/ws/rooms/%ff%00", b"/ws/rooms/" + b"9" * 5000):
            await ask(f"socket path {bad_path[:16]!r}", handshake(bad_path))
    text = f"{passes} passes: {tally_text(answers)}"
    if wrong:
        text += f"; WRONG: {tally_text(wrong)}"
    else:
        text += "; none unanswered, no 5xx"
    return text


def said(reply: httpx.Response) -> str:
    """An answer as its status and, when refused, its error code."""
    if reply.status_code < 300:
        return str(reply.status_code)
    try:
        return f"{reply.status_code} {reply.json().get('code')}"
    except ValueError:
        return f"{reply.status_code} not JSON"


PLAIN_ROOM = {"nickname": "x", "seats": ["person", "easy"]}
FORGED = 40
"""Rooms asked for under forged X-Forwarded-For headers, more than one address may create."""


async def forged_forwarding(target: Target, last: str = "") -> str:
    """Rooms asked for from the attacker's address, each naming another client in
    ``X-Forwarded-For`` (with ``last``, a forged list ending in ``last``, as a proxy the
    server trusts would have appended the address it saw)."""
    answers: Counter[str] = Counter()
    transport = httpx.AsyncHTTPTransport(local_address=ATTACKER)
    async with httpx.AsyncClient(
        base_url=target.server.url, transport=transport, timeout=WAIT
    ) as http:
        for number in range(1, FORGED + 1):
            forged = f"10.7.0.{number}" + (f", {last}" if last else "")
            reply = await http.post(
                "/api/rooms", json=PLAIN_ROOM, headers={"X-Forwarded-For": forged}
            )
            answers[said(reply)] += 1
        # Whom the server counted them against: the one address it should have, asked again
        if last:
            other = "192.0.2.10"
            headers = {"X-Forwarded-For": f"10.7.0.99, {other}"}
            then = f"then one ending in {other}"
        else:
            headers = {}
            then = "then one without the header"
        check = said(await http.post("/api/rooms", json=PLAIN_ROOM, headers=headers))
    forged_as = f"10.7.0.1–{FORGED}" + (f", {last}" if last else "")
    return f"{FORGED} from {ATTACKER} as {forged_as}: {tally_text(answers)}; {then}: {check}"


SLOW_ADDRESSES = 17
SLOW_PER_ADDRESS = 64
"""Connections of each slow-body address: the default ``connections_per_address``; all of them
together are more than ``connections_total``."""
SLOW_HEAD = (
    b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 60000\r\n\r\n"
)
TRICKLE_EVERY = 8.0
"""Seconds between the bytes of a trickling body."""
SLOW_PAUSE = 2.0
"""Seconds a slow-body connection waits before the next one, so that refusals are not a
connect loop that takes the small machine's cores from the server."""


async def answer(raw: Raw, timeout: float) -> str:
    """The server's answer on ``raw``: its status and error code, "closed" if it closed
    without one, "no answer" if none came within ``timeout``."""
    try:
        status, head = await raw.head(timeout)
    except TimeoutError:
        return "no answer"
    if status <= 0:
        return "closed"
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length" and value.strip().isdigit():
            length = int(value)
    # The JSON body may come in a later read than the head
    with contextlib.suppress(TimeoutError):
        while len(raw.buffer) < length and (chunk := await raw.recv(1.0)):
            raw.buffer += chunk
    return f"{status} {error_code(raw.buffer)}" if length else str(status)


async def slow_body(port: int, source: str, stall: bool = False) -> tuple[str, float]:
    """A room asked for with a body that trickles in, a byte every ``TRICKLE_EVERY`` s, or
    (``stall``) stops after its first byte: what the server answered, and how many seconds
    after the head."""
    try:
        raw = await Raw.open(port, source)
    except (OSError, TimeoutError):
        return "could not connect", 0.0
    began = time.monotonic()
    answered = asyncio.create_task(answer(raw, STALL_WAIT))
    try:
        with contextlib.suppress(OSError, TimeoutError):  # refused before the end: answered
            await raw.send(SLOW_HEAD + b"{")
            while not stall and not answered.done():
                await asyncio.wait({answered}, timeout=TRICKLE_EVERY)
                if not answered.done():
                    await raw.send(b" ")
        return await answered, time.monotonic() - began
    finally:
        answered.cancel()
        raw.close()


async def slow_bodies(target: Target) -> str:
    """From ``SLOW_ADDRESSES`` addresses, ``SLOW_PER_ADDRESS`` connections each sending a
    trickling body, each followed by another while the attack goes on, and one connection
    whose body stalls after its first byte; a newcomer asks for the presets every second."""
    answers: Counter[str] = Counter()
    held: list[float] = []
    unanswered = 0
    visits: list[float] = []
    """The seconds each newcomer's visit that was served took."""
    turned_away: Counter[str] = Counter()

    async def keep(source: str) -> None:
        nonlocal unanswered
        while target.left() > 0:
            what, seconds = await slow_body(target.port, source)
            answers[what] += 1
            if what == "no answer":
                unanswered += 1
            elif not what.startswith(("429", "503", "could not")):
                held.append(seconds)  # refused at connect time: never held
            await asyncio.sleep(SLOW_PAUSE)

    async def visit() -> None:
        transport = httpx.AsyncHTTPTransport(local_address=NEWCOMER)
        async with httpx.AsyncClient(
            base_url=target.server.url, transport=transport, timeout=5
        ) as http:
            while target.left() > 0:
                started = time.perf_counter()
                at = time.monotonic() - target.started
                try:
                    reply = await http.get("/api/presets")
                except httpx.HTTPError as error:
                    turned_away[f"{type(error).__name__} at {at:.1f} s"] += 1
                else:
                    if reply.status_code == 200:
                        visits.append(time.perf_counter() - started)
                    else:
                        turned_away[f"{said(reply)} at {at:.1f} s"] += 1
                await asyncio.sleep(1.0)

    stalled = asyncio.create_task(slow_body(target.port, ATTACKER, stall=True))
    await asyncio.sleep(0.1)  # its place taken before the crowd comes
    sources = [ATTACKER if n == 0 else extra_address(n) for n in range(SLOW_ADDRESSES)]
    await asyncio.gather(
        visit(), *(keep(source) for source in sources for _ in range(SLOW_PER_ADDRESS))
    )
    stall_said, stall_seconds = await stalled
    text = (
        f"{sum(answers.values())} trickling bodies from {SLOW_ADDRESSES} addresses: "
        f"{tally_text(answers)}; held {spread(held)}"
    )
    if unanswered:
        text += f"; {unanswered} still open after {STALL_WAIT:g} s"
    if stall_said == "no answer":
        text += f"; the stalled one still open after {STALL_WAIT:g} s"
    else:
        text += f"; the stalled one: {stall_said} after {stall_seconds:.1f} s"
    text += f"; newcomer served {len(visits)}/{len(visits) + turned_away.total()}"
    if visits:
        text += f" (at most {1000 * max(visits):.0f} ms)"
    if turned_away:
        text += f", not: {tally_text(turned_away)}"
    return text


RESTART_WATCH = 12.0
"""Seconds a newcomer goes on asking for rooms, once a second, after the server has started
again."""


async def restart_capacity(target: Target, seats: int = 1000, addresses: int = 8) -> str:
    """Rooms of a person and three ``easy`` computers (then of one, for the last few) from
    several addresses until ``seats`` computer seats are stored or the server refuses; then
    SIGTERM, the server started again on the same database, and a newcomer asking every
    second for a room with a computer and one without, for ``RESTART_WATCH`` seconds."""
    stored = 0
    rooms = 0
    refusals: Counter[str] = Counter()

    async def fill(source: str) -> None:
        nonlocal stored, rooms
        transport = httpx.AsyncHTTPTransport(local_address=source)
        async with httpx.AsyncClient(
            base_url=target.server.url, transport=transport, timeout=WAIT
        ) as http:
            for computers in (3, 1):
                while stored + computers <= seats:
                    stored += computers  # taken before asking: the others see it at once
                    body = {
                        "nickname": "x",
                        "seats": ["person", *["easy"] * computers],
                        "players": computers + 1,
                    }
                    reply = await http.post("/api/rooms", json=body)
                    if reply.status_code != 201:
                        stored -= computers
                        refusals[said(reply)] += 1
                        return
                    rooms += 1

    sources = [ATTACKER if n == 0 else extra_address(n) for n in range(addresses)]
    await asyncio.gather(*(fill(source) for source in sources))
    transport = httpx.AsyncHTTPTransport(local_address=NEWCOMER)
    async with httpx.AsyncClient(
        base_url=target.server.url, transport=transport, timeout=WAIT
    ) as http:
        before = said(await http.post("/api/rooms", json=PLAIN_ROOM))
    text = f"{rooms} rooms with {stored} computer seats stored from {addresses} addresses"
    if refusals:
        text += f" (then {tally_text(refusals)})"
    text += f"; a newcomer's room with a computer then: {before}"
    # Blocking for seconds is the point here: nothing else is served while it stops
    stopping, _ = await asyncio.to_thread(stop_server, target.server)
    started = time.monotonic()
    target.server = await start_again(target.server)
    if target.server.process.poll() is not None:
        return text + f"; stopped in {stopping:.1f} s, and did not start again"
    text += f"; stopped in {stopping:.1f} s, answering again {time.monotonic() - started:.1f} s"
    text += " after starting"
    # Not only the first answer: a server that loads every stored room in the background
    # serves the first asks, and is full once they are loaded
    kinds = {"with a computer": PLAIN_ROOM, "without": {**PLAIN_ROOM, "seats": ["person"] * 2}}
    answers: dict[str, Counter[str]] = {kind: Counter() for kind in kinds}
    given: dict[str, float] = {}
    last_refused: dict[str, float] = {}
    async with httpx.AsyncClient(
        base_url=target.server.url, transport=transport, timeout=WAIT
    ) as http:
        watch_until = time.monotonic() + RESTART_WATCH
        while time.monotonic() < watch_until:
            for kind, body in kinds.items():
                try:
                    what = said(await http.post("/api/rooms", json=body))
                except httpx.HTTPError as error:
                    what = type(error).__name__
                answers[kind][what] += 1
                if what == "201":
                    given.setdefault(kind, time.monotonic() - started)
                else:
                    last_refused[kind] = time.monotonic() - started
            await asyncio.sleep(1.0)
    for kind in kinds:
        text += f"; a room {kind}: {tally_text(answers[kind])}"
        if kind in given:
            text += f", the first 201 at {given[kind]:.1f} s"
        if kind in last_refused:
            text += f", the last refusal at {last_refused[kind]:.1f} s"
    return text


# -- accounts ------------------------------------------------------------------------------------

SESSION_COOKIE = "escoba_session"
PASSWORD = "a long enough secret"
EVIL = "https://evil.example"
OWNER = extra_address(40)
"""Where the accounts an attack goes after were made from (no attacker's address)."""
GUESSERS = 40
"""Addresses guessing passwords at once in the attack from many addresses."""
TIMING_PAIRS = 20
"""The fewest (wrong password, unknown name) pairs the timing attack measures."""


def from_address(target: Target, source: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=source)
    return httpx.AsyncClient(base_url=target.server.url, transport=transport, timeout=WAIT)


@dataclass
class Signed:
    """A browser's session: the cookie's value and its CSRF token."""

    token: str
    csrf: str

    def headers(self, csrf: bool = True) -> dict[str, str]:
        headers = {"Cookie": f"{SESSION_COOKIE}={self.token}"}
        if csrf:
            headers["X-CSRF-Token"] = self.csrf
        return headers


async def ask(
    http: httpx.AsyncClient,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    """A request with exactly the cookies ``headers`` name (the client keeps none)."""
    http.cookies.clear()
    reply = await http.request(method, path, json=body, headers=headers or {})
    http.cookies.clear()
    return reply


def signed(reply: httpx.Response) -> Signed | None:
    """The session an answer set, if it set one."""
    token = reply.cookies.get(SESSION_COOKIE)
    if reply.status_code >= 300 or not token:
        return None
    return Signed(token, reply.json()["csrf"])


async def new_account(http: httpx.AsyncClient, name: str) -> Signed:
    reply = await ask(
        http, "POST", "/api/account/register", {"username": name, "password": PASSWORD}
    )
    made = signed(reply)
    if made is None:
        raise RuntimeError(f"registering {name!r}: {said(reply)}")
    return made


async def sign_in(
    http: httpx.AsyncClient, name: str, password: str = PASSWORD, presented: str | None = None
) -> httpx.Response:
    headers = {} if presented is None else {"Cookie": f"{SESSION_COOKIE}={presented}"}
    body = {"username": name, "password": password}
    return await ask(http, "POST", "/api/account/sign-in", body, headers)


async def who(http: httpx.AsyncClient, token: str) -> str | None:
    """The username the session ``token`` is signed in as, or None."""
    reply = await ask(http, "GET", "/api/account", headers={"Cookie": f"{SESSION_COOKIE}={token}"})
    account = reply.json()["account"]
    return None if account is None else str(account["username"])


def verdict(text: str, wrong: list[str]) -> str:
    return text + (f"; WRONG: {'; '.join(wrong)}" if wrong else "")


async def password_guessing(target: Target) -> str:
    """Wrong passwords against one account from one address, then unknown names from it;
    whether an unknown name and a wrong password are answered alike; what the owner gets
    then; then guesses on until the time is up."""
    wrong: list[str] = []
    async with from_address(target, OWNER) as owner:
        await new_account(owner, "victim")
        await new_account(owner, "bystander")
    per_name, per_address = DEFAULT_LIMITS.sign_ins_per_name, DEFAULT_LIMITS.sign_ins_per_address
    async with from_address(target, ATTACKER) as attacker:
        victim: Counter[str] = Counter()
        answers: dict[str, httpx.Response] = {}
        for number in range(2 * per_name):
            reply = await sign_in(attacker, "victim", f"guess number {number:04d}")
            victim[said(reply)] += 1
            answers.setdefault(f"wrong password {said(reply)}", reply)
        unknown: Counter[str] = Counter()
        for number in range(per_address):
            reply = await sign_in(attacker, f"nobody {number}", f"guess number {number:04d}")
            unknown[said(reply)] += 1
            answers.setdefault(f"unknown name {said(reply)}", reply)
        if victim != Counter({"401 bad_credentials": per_name, "429 too_many_attempts": per_name}):
            wrong.append(f"against one account: {tally_text(victim)}")
        if unknown["401 bad_credentials"] != per_address - per_name:
            wrong.append(f"unknown names from the address: {tally_text(unknown)}")
        for status in ("401 bad_credentials", "429 too_many_attempts"):
            pair = [answers.get(f"{kind} {status}") for kind in ("wrong password", "unknown name")]
            if None in pair:
                wrong.append(f"no {status} for both")
                continue
            first, second = pair
            assert first is not None and second is not None
            cookies = "set-cookie" in first.headers or "set-cookie" in second.headers
            if first.content != second.content or cookies:
                wrong.append(f"{status}: answered differently ({first.text} / {second.text})")
        # The owner, from elsewhere, with the right password; another account likewise.
        async with from_address(target, extra_address(41)) as elsewhere:
            owner_then = said(await sign_in(elsewhere, "victim"))
            bystander = said(await sign_in(elsewhere, "bystander"))
        if bystander != "200":
            wrong.append(f"another account from another address: {bystander}")
        more: Counter[str] = Counter()
        times: list[float] = []
        while target.left() > 0 and len(times) < 20_000:
            began = time.perf_counter()
            reply = await sign_in(attacker, "victim", f"guess {len(times)}")
            times.append(time.perf_counter() - began)
            more[said(reply)] += 1
    text = (
        f"one account from one address: {tally_text(victim)}; unknown names then: "
        f"{tally_text(unknown)}; wrong password and unknown name answered alike "
        f"(401 and 429, same body, no cookie); the owner's right password from another "
        f"address then: {owner_then}; another account from there: {bystander}; then "
        f"{len(times)} more guesses: {tally_text(more)}, median "
        f"{1000 * statistics.median(times) if times else 0:.0f} ms"
    )
    return verdict(text, wrong)


async def distributed_guessing(target: Target, addresses: int = GUESSERS) -> str:
    """Wrong passwords for unknown names (a new one each, so no name's limit counts) from
    many addresses at once, eight guesses in flight, until the time is up: each costs the
    server an Argon2id verification until the address's limit refuses it unhashed."""
    answers: Counter[str] = Counter()
    times: dict[str, list[float]] = {}
    sources = [ATTACKER, *(extra_address(n) for n in range(1, addresses))]
    gate = asyncio.Semaphore(8)

    async def guesses(source: str, number: int) -> None:
        async with from_address(target, source) as http:
            for guess in range(10_000):
                if target.left() <= 0:
                    return
                async with gate:
                    began = time.perf_counter()
                    try:
                        reply = await sign_in(
                            http, f"someone {number}.{guess}", f"guess {guess:05d}"
                        )
                    except httpx.HTTPError as error:
                        answers[type(error).__name__] += 1
                        continue
                    taken = time.perf_counter() - began
                answers[said(reply)] += 1
                times.setdefault(said(reply), []).append(taken)

    await asyncio.gather(*(guesses(source, n) for n, source in enumerate(sources)))
    parts = [f"{sum(answers.values())} guesses from {addresses} addresses: {tally_text(answers)}"]
    for status, taken in sorted(times.items()):
        ordered = sorted(taken)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        parts.append(
            f"{status} in {1000 * statistics.median(ordered):.0f} ms (p99 {1000 * p99:.0f})"
        )
    wrong = [text for text in answers if text.startswith("5")]
    return verdict("; ".join(parts), [f"server errors: {', '.join(wrong)}"] if wrong else [])


def quantiles(values: list[float]) -> str:
    """Median and the 10th to 90th percentile, in milliseconds."""
    ordered = sorted(values)
    low, high = ordered[int(0.1 * len(ordered))], ordered[int(0.9 * len(ordered))]
    return f"{1000 * statistics.median(ordered):.0f} ms ({1000 * low:.0f}–{1000 * high:.0f})"


async def sign_in_timing(target: Target) -> str:
    """Wrong passwords for an account and unknown names, one after the other from one
    address (the limits raised out of the way), in pairs whose order alternates, until the
    time is up and at least ``TIMING_PAIRS`` pairs: whether the time of the answer tells an
    account that exists from one that does not."""
    async with from_address(target, OWNER) as owner:
        await new_account(owner, "victim")
    times: dict[str, list[float]] = {"wrong password": [], "unknown name": []}
    bodies: dict[str, set[bytes]] = {kind: set() for kind in times}
    async with from_address(target, ATTACKER) as attacker:
        pair = 0
        while pair < TIMING_PAIRS or (target.left() > 0 and pair < 500):
            kinds = list(times) if pair % 2 == 0 else list(reversed(times))
            for kind in kinds:
                name = "victim" if kind == "wrong password" else f"nobody {pair}"
                began = time.perf_counter()
                reply = await sign_in(attacker, name, f"guess {pair:05d}")
                times[kind].append(time.perf_counter() - began)
                bodies[kind].add(reply.content)
            pair += 1
    wrong_password, unknown = times["wrong password"], times["unknown name"]
    difference = statistics.median(unknown) - statistics.median(wrong_password)
    text = (
        f"{pair} pairs: a wrong password {quantiles(wrong_password)}, an unknown name "
        f"{quantiles(unknown)}: medians {1000 * difference:+.0f} ms apart "
        f"({100 * difference / statistics.median(wrong_password):+.1f}%)"
    )
    wrong = []
    if bodies["wrong password"] != bodies["unknown name"] or len(bodies["unknown name"]) != 1:
        wrong.append("the answers differ")
    return verdict(text, wrong)


async def session_fixation(target: Target) -> str:
    """A session value the attacker chose, and the attacker's own live session, planted in
    a browser that then signs in; five sign-ins in a row from one browser; sign-out."""
    wrong: list[str] = []
    async with (
        from_address(target, OWNER) as victim_browser,
        from_address(target, ATTACKER) as attacker,
    ):
        await new_account(victim_browser, "victim")
        mallory = await new_account(attacker, "mallory")
        # A value made up by the attacker, set in the victim's browser before the sign-in
        planted = "attacker-chosen-session-value-0123456789abcdef"
        reply = await sign_in(victim_browser, "victim", presented=planted)
        got = signed(reply)
        if got is None or got.token == planted:
            wrong.append(f"a made-up value was kept: {said(reply)}")
        if await who(attacker, planted) is not None:
            wrong.append("the made-up value is signed in")
        # The attacker's own live session, planted: the victim's sign-in ends it
        reply = await sign_in(victim_browser, "victim", presented=mallory.token)
        victims = signed(reply)
        if victims is None or victims.token == mallory.token:
            wrong.append("the planted live session was kept")
        if await who(attacker, mallory.token) is not None:
            wrong.append("the planted live session goes on after the victim's sign-in")
        # Every sign-in a new session; the one presented ends
        tokens = [] if victims is None else [victims.token]
        for _ in range(5):
            reply = await sign_in(
                victim_browser, "victim", presented=tokens[-1] if tokens else None
            )
            new = signed(reply)
            if new is None:
                wrong.append(f"a sign-in failed: {said(reply)}")
                break
            tokens.append(new.token)
        alive = [token for token in tokens[:-1] if await who(victim_browser, token) is not None]
        if len(set(tokens)) != len(tokens) or alive:
            wrong.append(
                f"{len(set(tokens))} sessions of {len(tokens)} sign-ins, {len(alive)} old alive"
            )
        # Another device's sign-in (presenting nothing) leaves this one signed in
        async with from_address(target, extra_address(42)) as device:
            other = signed(await sign_in(device, "victim"))
        # Sign-out: the session is dead, for reading and for changing
        latest = signed(await sign_in(victim_browser, "victim", presented=tokens[-1]))
        if latest is None or other is None:
            return verdict("", [*wrong, "a sign-in failed"])
        out = await ask(victim_browser, "POST", "/api/account/sign-out", {}, latest.headers())
        after_read = await who(victim_browser, latest.token)
        after_write = said(
            await ask(
                victim_browser, "POST", "/api/account/sign-out-everywhere", {}, latest.headers()
            )
        )
        if said(out) != "200" or after_read is not None or after_write != "401 sign_in_needed":
            wrong.append(f"sign-out {said(out)}, then read as {after_read}, write {after_write}")
        if await who(victim_browser, other.token) != "victim":
            wrong.append("another device's session ended with this one's sign-out")
    text = (
        "a value chosen by the attacker: not adopted (a new session, the value signed out); "
        "the attacker's own live session planted: ended by the victim's sign-in; "
        f"{len(tokens)} sign-ins from one browser: {len(set(tokens))} different sessions, "
        "each earlier one signed out; after sign-out the session reads as signed out and a "
        f"change with it and its token gets {after_write}; another device's session goes on"
    )
    return verdict(text, wrong)


CROSS_SITE = [
    {"Origin": EVIL},
    {"Origin": "null"},
    {"Origin": EVIL, "Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site", "Origin": "https://games.127.0.0.1"},
]
"""What a browser sends with a request that a page of another site makes."""


def csrf_requests(victim: str, room: str) -> list[tuple[str, str, dict[str, Any]]]:
    """Every state-changing API request a page may ask a signed-in browser to make."""
    return [
        ("DELETE", "/api/account", {"username": victim}),
        ("PUT", "/api/account/password", {"password": "chosen by the attacker", "current": None}),
        ("POST", "/api/account/sign-out-everywhere", {}),
        ("POST", "/api/account/sign-out", {}),
        ("POST", "/api/account/attach", {"tokens": []}),
        ("POST", "/api/account/passkeys/options", {}),
        ("POST", "/api/rooms", {"nickname": "x", "seats": ["person", "person"]}),
        ("POST", f"/api/rooms/{room}/join", {"nickname": "x"}),
        ("POST", "/api/matches/mine", {"tokens": []}),
        ("POST", "/api/scorepad", {"rules": "escoba", "sides": 2, "hands": []}),
        ("POST", "/api/account/sign-in", {"username": "mallory", "password": PASSWORD}),
        ("POST", "/api/account/register", {"username": "mallory 2", "password": PASSWORD}),
    ]


async def cross_site(target: Target) -> str:
    """A signed-in browser asked by another site's page to change things (Origin of another
    site, or Sec-Fetch-Site cross-site or same-site), with the session's cookie and even its
    token; then the same requests from the site itself without the token or with a wrong one.
    The account must come out as it went in."""
    wrong: list[str] = []
    async with from_address(target, OWNER) as browser, from_address(target, ATTACKER) as other:
        victim = await new_account(browser, "victim")
        await new_account(other, "mallory")
        room = await ask(other, "POST", "/api/rooms", PLAIN_ROOM | {"seats": ["person"] * 2})
        room_id = room.json()["room"]
        refused: Counter[str] = Counter()
        for headers in CROSS_SITE:
            for method, path, body in csrf_requests("victim", room_id):
                for csrf in (False, True):
                    reply = await ask(browser, method, path, body, victim.headers(csrf) | headers)
                    refused[said(reply)] += 1
        if set(refused) != {"403 cross_site"}:
            wrong.append(f"from another site: {tally_text(refused)}")
        # CORS: another origin is never allowed to read an answer
        read = await ask(
            browser, "GET", "/api/account", headers=victim.headers(False) | {"Origin": EVIL}
        )
        if "access-control-allow-origin" in read.headers:
            wrong.append("an answer to another origin allows it to read")
        # The site's own pages, without the token or with a wrong one
        tokenless: Counter[str] = Counter()
        passed: list[str] = []
        own = {"Origin": target.server.url, "Sec-Fetch-Site": "same-origin"}
        for token in ("none", "wrong"):
            for method, path, body in csrf_requests("victim", room_id):
                headers = victim.headers(csrf=False) | own
                if token == "wrong":
                    headers["X-CSRF-Token"] = victim.csrf[::-1]
                reply = await ask(browser, method, path, body, headers)
                tokenless[said(reply)] += 1
                if reply.status_code < 400:
                    passed.append(f"{method} {path} {said(reply)}")
                if await who(browser, victim.token) != "victim":
                    if not path.endswith(("/sign-in", "/register")):
                        wrong.append(f"{method} {path} without the token signed the victim out")
                    # a sign-in (or a new account) there ends the session the browser had
                    victim = signed(await sign_in(browser, "victim")) or victim
        still = await who(browser, victim.token)
        if still != "victim":
            wrong.append(f"the victim's account after: {still}")
        if said(await sign_in(browser, "victim")) != "200":
            wrong.append("the victim's password changed")
    accepted = "; accepted without the token: " + ", ".join(sorted(set(passed))) if passed else ""
    text = (
        f"from another site ({len(CROSS_SITE)} kinds × {len(csrf_requests('', ''))} requests, "
        f"with and without the token): {tally_text(refused)}; from the site itself without "
        f"the token or with a wrong one: {tally_text(tokenless)}{accepted}; no CORS header; "
        "the victim still signed in, the password unchanged"
    )
    return verdict(text, wrong)


@dataclass(frozen=True)
class Attack:
    name: str
    run: Callable[[Target], Awaitable[str]]
    limits: dict[str, float] = field(default_factory=dict)
    options: tuple[str, ...] = ()
    """More options of `escoba serve`."""
    grace: float = 0.0
    """Seconds the attack may take beyond the usual ``--seconds`` and 40."""


ATTACKS = [
    Attack("baseline (no attack)", baseline),
    Attack("a. 100 MB header, 4 at a time", huge_headers),
    Attack("b. half-sent heads, 1 address", lambda t: half_sent(t, 1, 80)),
    Attack("b. half-sent heads, 20 addresses", lambda t: half_sent(t, 20, 60)),
    Attack("c. ping flood, then reset", ping_flood),
    Attack("d. spectators that never read", non_readers),
    Attack("e. room creation flood", room_flood),
    Attack("e. hard rooms, 1 address", lambda t: top_level_rooms(t, 1, 40)),
    Attack("e. hard rooms, 8 addresses × 8", top_level_rooms),
    Attack("f. sockets that never join", never_join),
    Attack("g. 100 spectators in one room", many_spectators),
    Attack("h. hint flood, one seat", hint_flood),
    Attack("i. junk", junk),
    # 30 rooms of one computer each are more computer seats than one address may have (24):
    # raised, so that the number of rooms is what refuses
    Attack(
        "j. forged X-Forwarded-For",
        forged_forwarding,
        {"computer_seats_per_address": FORGED},
    ),
    Attack(
        "j. forged X-Forwarded-For, proxy trusted",
        lambda t: forged_forwarding(t, "192.0.2.9"),
        {"computer_seats_per_address": FORGED},
        ("--forwarded-allow-ips", ATTACKER),
    ),
    Attack("k. slow bodies, 17 addresses", slow_bodies),
    # Enough rooms from 8 addresses for every computer seat the server holds by default
    Attack(
        "l. capacity after a restart",
        restart_capacity,
        {"rooms_per_address": 60, "computer_seats_per_address": 180},
        grace=RESTART_WATCH + 40,
    ),
    Attack("m. password guessing, 1 address", password_guessing),
    Attack(f"m. password guessing, {GUESSERS} addresses", distributed_guessing),
    # The limits out of the way: every guess is answered after its hash, as the first are
    Attack(
        "m. sign-in timing: unknown name or wrong password",
        sign_in_timing,
        {"sign_ins_per_name": 10**6, "sign_ins_per_address": 10**6},
        grace=60,
    ),
    Attack("n. session fixation", session_fixation),
    Attack("o. CSRF from another site", cross_site),
]


# -- running them ------------------------------------------------------------------------------


@dataclass
class Row:
    attack: str
    limits: str
    plays: int
    p50: float | None
    p99: float | None
    rss_before: float
    rss_peak: float
    reply: float | None
    newcomer: str
    outcome: str
    released: str
    probe: str
    log: str


async def newcomer(url: str) -> str:
    """What a new visitor gets while the attack goes on."""
    transport = httpx.AsyncHTTPTransport(local_address=NEWCOMER)
    started = time.perf_counter()
    try:
        async with httpx.AsyncClient(base_url=url, transport=transport, timeout=5) as http:
            reply = await http.get("/api/presets")
    except httpx.HTTPError as error:
        return type(error).__name__
    taken = 1000 * (time.perf_counter() - started)
    if reply.status_code != 200:
        return f"{reply.status_code} {reply.json().get('code', '')} in {taken:.0f} ms"
    return f"200 in {taken:.0f} ms"


def settings(attack: Attack) -> str:
    """The limits and options an attack's server runs with, beyond the defaults."""
    changed = [f"{name}={value:g}" for name, value in attack.limits.items()]
    return ", ".join([*changed, " ".join(attack.options)] if attack.options else changed)


def unstarted(attack: Attack, log: Path) -> Row:
    """The row of an attack whose server would not start (an option it does not know)."""
    said = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
    last = said[-1].strip(" │|") if said else "no output"
    return Row(
        attack=attack.name,
        limits=settings(attack) or "defaults",
        plays=0,
        p50=None,
        p99=None,
        rss_before=0.0,
        rss_peak=0.0,
        reply=None,
        newcomer="-",
        outcome=f"the server did not start: {last}"[:200],
        released="-",
        probe="-",
        log="-",
    )


async def attack_row(attack: Attack, folder: Path, args: argparse.Namespace) -> Row:
    folder.mkdir()
    try:
        server = serve(folder, attack.limits, args.pace, attack.options)
    except SystemExit:  # start_server's way of saying the server ended at once
        return unstarted(attack, folder / "server.log")
    probe = Probe(server.url)
    # An attack may stop the server and start another (target.server): measure that one
    target = Target(server, probe, args.seconds)
    peak = 0.0
    try:
        await probe.start()
        await asyncio.sleep(2)  # the probe's first plays, before the attack
        rss_before = status_value(server.pid, "VmRSS")
        high_before = status_value(server.pid, "VmHWM")
        sockets_before = open_sockets(server.pid)
        target.started = time.monotonic()

        async def watch() -> None:
            nonlocal peak
            while True:
                with contextlib.suppress(OSError):  # between a server and the next
                    peak = max(peak, status_value(target.server.pid, "VmRSS"))
                await asyncio.sleep(0.1)

        watching = asyncio.create_task(watch())
        seen = ""

        async def visit() -> None:
            nonlocal seen
            await asyncio.sleep(args.seconds / 2)
            seen = await newcomer(server.url)

        visiting = asyncio.create_task(visit())
        try:
            outcome = await asyncio.wait_for(attack.run(target), args.seconds + 40 + attack.grace)
        except TimeoutError:
            outcome = "the attack did not end in time: cut short"
        except Exception as error:
            outcome = f"the attack failed: {type(error).__name__}: {error}"[:200]
        ended = time.monotonic()
        await visiting
        watching.cancel()
        running = target.server.process.poll() is None
        if running:
            high = status_value(target.server.pid, "VmHWM")
            if high > high_before:  # the process's own high-water mark, reached in the attack
                peak = max(peak, high)
        acks = probe.between(target.started, ended)
        replies = probe.between(target.started, ended, replies=True)
        last_ack = probe.acks[-1][0] if probe.acks else ended
        if all(when < last_ack for when, _ in probe.replies) and ended - last_ack > 1:
            replies.append(ended - last_ack)  # still waiting for the computer at the end
        released = "not" if running else "the server had ended"
        for tenth in range(200 if running else 0):
            if open_sockets(target.server.pid) <= sockets_before:
                released = f"{tenth / 10:.1f} s"
                break
            await asyncio.sleep(0.1)
        else:
            if running:
                left = open_sockets(target.server.pid) - sockets_before
                released = f"{left} left after 20 s"
        late = probe.between(ended - 3, ended)
        # The same failure again and again (a server restarting) is said once, with a count
        troubles = [
            text if count == 1 else f"{text} ×{count}"
            for text, count in Counter(probe.failures).items()
        ]
        if not late:
            troubles.append("stalled: no play in the attack's last 3 s")
        if probe.errors:
            troubles.append(tally_text(probe.errors))
    finally:
        await probe.stop()
        stopping, left_behind = stop_server(target.server)
    logged = server.log.read_text(errors="replace")
    tracebacks = logged.count("Traceback")
    log = f"{tracebacks} tracebacks" if tracebacks else "clean"
    if stopping > 5:
        log += f"; took {stopping:.0f} s to stop"
    if left_behind:
        log += f"; {left_behind} processes outlived it"

    def ms(q: float) -> float | None:
        return 1000 * acks[min(len(acks) - 1, int(q * len(acks)))] if acks else None

    return Row(
        attack=attack.name,
        limits=settings(attack) or "defaults",
        plays=len(acks),
        p50=ms(0.5),
        p99=ms(0.99),
        rss_before=rss_before,
        rss_peak=peak,
        reply=max(replies) if replies else None,
        newcomer=seen,
        outcome=outcome,
        released=released,
        probe="; ".join(troubles) if troubles else "ok",
        log=log,
    )


HEADERS = [
    "attack",
    "limits",
    "probe plays",
    "ack p50 ms",
    "ack p99 ms",
    "RSS MiB (before → peak)",
    "computer reply max s",
    "newcomer",
    "what the server did",
    "sockets back",
    "probe",
    "server log",
]


def cells(row: Row) -> list[str]:
    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}"

    return [
        row.attack,
        row.limits,
        str(row.plays),
        ms(row.p50),
        ms(row.p99),
        f"{row.rss_before:.0f} → {row.rss_peak:.0f}",
        "-" if row.reply is None else f"{row.reply:.1f}",
        row.newcomer,
        row.outcome,
        row.released,
        row.probe,
        row.log,
    ]


def show(rows: list[Row], markdown: bool) -> None:
    table = Table(title="attacks, one at a time, while a person plays", show_lines=True)
    for name in HEADERS:
        table.add_column(name, justify="right" if "ms" in name or "plays" in name else "left")
    for row in rows:
        table.add_row(*cells(row))
    Console(width=200).print(table)
    if markdown:
        print("| " + " | ".join(HEADERS) + " |")
        print("|" + "---|" * len(HEADERS))
        for row in rows:
            print("| " + " | ".join(cell.replace("|", "\\|") for cell in cells(row)) + " |")


async def run(args: argparse.Namespace, folder: Path) -> list[Row]:
    chosen = [a for a in ATTACKS if not args.only or any(w in a.name for w in args.only)]
    rows = []
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:.0f}/{task.total:.0f}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=Console(stderr=True)) as progress:
        task = progress.add_task("attacks", total=len(chosen))
        for number, attack in enumerate(chosen):
            progress.update(task, description=attack.name)
            rows.append(await attack_row(attack, folder / str(number), args))
            progress.update(task, completed=number + 1)
            logged = (folder / str(number) / "server.log").read_text(errors="replace")
            if "Traceback" in logged:
                args.logs.mkdir(parents=True, exist_ok=True)
                kept = args.logs / f"attack-{number}.log"
                kept.write_text(logged)
                progress.console.print(f"{attack.name}: tracebacks in the log, kept in {kept}")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=12.0, help="length of each attack")
    parser.add_argument("--pace", type=float, default=0.05, help="the server's computer pace")
    parser.add_argument("--only", nargs="*", help="attacks whose name holds one of these")
    parser.add_argument("--markdown", action="store_true", help="also print Markdown")
    parser.add_argument(
        "--logs",
        type=Path,
        default=Path(tempfile.gettempdir()) / "escoba-attack-logs",
        help="where server logs with tracebacks are kept",
    )
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        rows = asyncio.run(run(args, Path(folder)))
    show(rows, args.markdown)
    if args.json:
        args.json.write_text(json.dumps([vars(row) for row in rows], indent=1) + "\n")


if __name__ == "__main__":
    main()
