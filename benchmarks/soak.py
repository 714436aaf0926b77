"""Memory under churn: thousands of connections and rooms through one server, which must give
back what they held once they are gone.

    python benchmarks/soak.py --rounds 20 --rooms-per-round 40

starts `escoba serve` (its own SQLite database in a temporary folder, ``--pace 0``, rooms
leaving memory after ``--room-idle`` seconds without a connection) and churns it in rounds.
Each round opens ``--rooms-per-round`` rooms at once, a third of each kind: a person against
an ``easy`` computer, a person against three, two people; takes every person's seat over a
WebSocket, adds spectators, plays some moves, closes each seat's socket and takes the seat
again with its token, plays on, and then closes everything, a quarter of the rooms abandoned
mid-match with their sockets cut (no closing handshake). A few rooms of earlier rounds, long
gone from memory, are visited again (loaded back from storage, a move played).

After ``--warmup`` rounds and a quiet pause longer than room_idle the server's resident
memory (VmRSS) and open sockets (entries of /proc/PID/fd that are sockets) are the baseline
(the warm-up is long enough for what fills once and stays: the engine's memos of table sums
and moves, SQLite's page caches, the allocator's arenas; after three rounds memory is still
rising by steps of a few MiB);
they are measured after every round, and at the end after the same quiet pause. The verdict
compares the end with the baseline: PASS if memory is within 10% and the sockets are back to
about the baseline. ``--plot PATH`` draws memory over the rounds (if matplotlib is
installed); ``--gc-report PATH`` runs the server under gc_pauses.py and shows its pauses.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import os
import random
import signal
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from websockets.asyncio.client import ClientConnection

from gc_pauses import pause_line, pause_table, read_report, server_command, start_server

KINDS: dict[str, dict[str, Any]] = {
    "one computer": {"seats": ["person", "easy"]},
    "three computers": {"seats": ["person", "easy", "easy", "easy"], "players": 4},
    "two people": {"seats": ["person", "person"]},
}
WAIT = 10.0
"""Seconds within which the server must answer anything a client waits for."""
ROUND_SECONDS = 90.0
"""A round still running after this is cut short (and its rooms counted as errors)."""


@dataclass
class Tally:
    rooms: int = 0
    connections: int = 0
    moves: int = 0
    reconnects: int = 0
    abandoned: int = 0
    revisits: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    visited: list[tuple[str, str]] = field(default_factory=list)
    """A seat token of each person-against-computers room, for later visits."""


@dataclass
class Sample:
    label: str
    phase: str
    rooms: int
    connections: int
    moves: int
    rss: float
    sockets: int
    workers: float
    seconds: float
    errors: int


# -- the server process ------------------------------------------------------------------------


def resident_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def open_sockets(pid: int) -> int:
    """The process's file descriptors that are sockets (its listener, its clients' and its
    workers' connections)."""
    count = 0
    for entry in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            count += os.readlink(entry).startswith("socket:")
    return count


def descendants(pid: int) -> list[int]:
    """Child processes, theirs and so on (the computers' fork server and workers)."""
    found: list[int] = []
    waiting = [pid]
    while waiting:
        parent = waiting.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            with contextlib.suppress(OSError):
                children = [int(n) for n in (task / "children").read_text().split()]
                found += children
                waiting += children
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server; say if it took long, or if processes of its outlived it (and end
    those)."""
    children = descendants(process.pid)
    started = time.monotonic()
    process.terminate()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        print("the server did not stop within 30 s of SIGTERM; killed")
        process.kill()
        process.wait()
    taken = time.monotonic() - started
    if taken > 5:
        print(f"the server took {taken:.0f} s to stop after SIGTERM")
    time.sleep(2)  # time for its children to see it gone
    left = [child for child in children if alive(child)]
    if left:
        print(f"{len(left)} processes of the server outlived it: {left}; ended now")
    for child in reversed(left):
        with contextlib.suppress(OSError):
            os.kill(child, signal.SIGTERM)


def workers_mib(pid: int) -> float:
    total = 0.0
    for child in descendants(pid):
        with contextlib.suppress(OSError):
            total += resident_mib(child)
    return total


# -- clients -----------------------------------------------------------------------------------


class Peer:
    """One WebSocket in a room; a reader takes every message as it comes and keeps the last
    state, so that a client never makes the server wait."""

    def __init__(self, ws: ClientConnection, changed: asyncio.Event, tally: Tally) -> None:
        self.ws = ws
        self.changed = changed
        self.tally = tally
        self.seat: int | None = None
        self.welcomed = False
        self.state: dict[str, Any] | None = None
        self.pending: str | None = None
        self.refused = False
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, ws_url: str, room: str, changed: asyncio.Event, tally: Tally) -> Peer:
        ws = await websockets.connect(
            f"{ws_url}/ws/rooms/{room}", open_timeout=WAIT, close_timeout=2, max_size=2**22
        )
        tally.connections += 1
        return cls(ws, changed, tally)

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                message = json.loads(raw)
                kind = message["type"]
                if kind == "welcome":
                    self.seat = message["seat"]
                    self.welcomed = True
                elif kind == "state":
                    self.state = message
                    event = message.get("event") or {}
                    if (
                        self.pending is not None
                        and event.get("seat") == self.seat
                        and event.get("card") == self.pending
                    ):
                        self.pending = None
                elif kind == "error":
                    self.tally.errors[message["code"]] += 1
                    self.refused = True
                self.changed.set()

    def to_move(self) -> bool:
        if self.state is None or self.seat is None or self.pending is not None:
            return False
        match = self.state["match"]
        return bool(match["to_move"] == self.seat and match["legal"] and not match["over"])

    async def join(self, token: str | None) -> None:
        """Take the seat of ``token`` (or watch, without one) and wait for the state."""
        message = {"type": "join", "token": token} if token else {"type": "watch"}
        await self.ws.send(json.dumps(message))
        await until(lambda: self.state is not None or self.refused, self.changed)
        if self.state is None:
            raise RuntimeError("join refused")

    async def play(self, rng: random.Random) -> None:
        assert self.state is not None
        match = self.state["match"]
        move = rng.choice(match["legal"])
        self.pending = move["card"]
        self.refused = False
        await self.ws.send(
            json.dumps({"type": "play", "card": move["card"], "captures": move["captures"]})
        )
        await until(lambda: self.pending is None or self.refused, self.changed)
        self.pending = None

    async def close(self, *, cut: bool = False) -> None:
        if cut:
            self.ws.transport.abort()  # gone without a goodbye, as a lost network would
        else:
            with contextlib.suppress(Exception):
                await self.ws.close()
        self.reader.cancel()
        with contextlib.suppress(BaseException):
            await self.reader


async def until(done: Callable[[], bool], changed: asyncio.Event, timeout: float = WAIT) -> None:
    """Wait until ``done()``, woken by ``changed``; TimeoutError after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        changed.clear()
        if done():
            return
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), min(left, 0.5))


async def play_moves(seats: list[Peer], count: int, rng: random.Random, tally: Tally) -> None:
    """Play ``count`` person moves in the room, each by the seat whose turn it is."""
    changed = seats[0].changed
    for _ in range(count):
        await until(lambda: any(peer.to_move() for peer in seats), changed)
        peer = next(peer for peer in seats if peer.to_move())
        await peer.play(rng)
        tally.moves += 1


async def room_life(
    index: int,
    kind: str,
    http: httpx.AsyncClient,
    ws_url: str,
    args: argparse.Namespace,
    tally: Tally,
    abandon: bool,
) -> None:
    rng = random.Random(index)
    body = {"nickname": f"soak{index}", "rules": "escoba", **KINDS[kind]}
    reply = await http.post("/api/rooms", json=body)
    if reply.status_code != 201:
        tally.errors[f"create {reply.status_code}"] += 1
        return
    ticket = reply.json()
    room = ticket["room"]
    tally.rooms += 1
    tokens = [ticket["token"]]
    if kind == "two people":
        joined = await http.post(f"/api/rooms/{room}/join", json={"nickname": f"guest{index}"})
        if joined.status_code != 200:
            tally.errors[f"join {joined.status_code}"] += 1
            return
        tokens.append(joined.json()["token"])
    else:
        tally.visited.append((room, ticket["token"]))
    changed = asyncio.Event()
    peers: list[Peer] = []
    try:
        spectators = [await Peer.open(ws_url, room, changed, tally) for _ in range(args.spectators)]
        peers += spectators
        for spectator in spectators:
            await spectator.join(None)
        seats = [await Peer.open(ws_url, room, changed, tally) for _ in tokens]
        peers += seats
        for peer, token in zip(seats, tokens, strict=True):
            await peer.join(token)
        await play_moves(seats, args.moves, rng, tally)
        for number, token in enumerate(tokens):  # leave and come back, as after a reload
            await seats[number].close()
            peers.remove(seats[number])
            seats[number] = await Peer.open(ws_url, room, changed, tally)
            peers.append(seats[number])
            await seats[number].join(token)
            tally.reconnects += 1
        await play_moves(seats, args.moves, rng, tally)
    finally:
        if abandon:
            tally.abandoned += 1
        await asyncio.gather(*(peer.close(cut=abandon) for peer in peers))


async def revisit(room: str, token: str, ws_url: str, tally: Tally) -> None:
    """Come back to a room long gone from memory: it loads from storage; play a move."""
    changed = asyncio.Event()
    peer = await Peer.open(ws_url, room, changed, tally)
    try:
        await peer.join(token)
        await play_moves([peer], 1, random.Random(room), tally)
        tally.revisits += 1
    finally:
        await peer.close()


async def churn_round(
    number: int, url: str, args: argparse.Namespace, tally: Tally, rng: random.Random
) -> None:
    ws_url = url.replace("http", "ws", 1)
    kinds = list(KINDS)
    old = tally.visited[: max(0, len(tally.visited) - 3 * args.rooms_per_round)]
    returning = rng.sample(old, min(args.revisits, len(old)))
    async with httpx.AsyncClient(base_url=url, timeout=WAIT) as http:
        work = [
            room_life(
                number * args.rooms_per_round + index,
                kinds[index % len(kinds)],
                http,
                ws_url,
                args,
                tally,
                abandon=index % 4 == 3,
            )
            for index in range(args.rooms_per_round)
        ]
        work += [revisit(room, token, ws_url, tally) for room, token in returning]
        try:
            results = await asyncio.wait_for(
                asyncio.gather(*work, return_exceptions=True), ROUND_SECONDS
            )
        except TimeoutError:
            tally.errors["round cut short"] += 1
            return
    for result in results:
        if isinstance(result, BaseException):
            tally.errors[type(result).__name__] += 1


# -- the run -----------------------------------------------------------------------------------


async def run(url: str, pid: int, args: argparse.Namespace) -> list[Sample]:
    tally = Tally()
    rng = random.Random(1)
    samples: list[Sample] = []
    started = time.monotonic()
    quiet = 2 * args.room_idle + 3  # evicted at the sweep after room_idle, then settled

    def sample(label: str, phase: str) -> Sample:
        taken = Sample(
            label,
            phase,
            tally.rooms,
            tally.connections,
            tally.moves,
            resident_mib(pid),
            open_sockets(pid),
            workers_mib(pid),
            time.monotonic() - started,
            sum(tally.errors.values()),
        )
        samples.append(taken)
        return taken

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:.0f}/{task.total:.0f}"),
        TimeElapsedColumn(),
    )
    sample("start", "start")
    total = args.warmup + args.rounds
    with Progress(*columns, console=Console(stderr=True)) as progress:
        rounds = progress.add_task("rounds", total=total)
        for number in range(total):
            phase = "warm-up" if number < args.warmup else "churn"
            await churn_round(number, url, args, tally, rng)
            await asyncio.sleep(args.settle)
            sample(str(number + 1), phase)
            progress.update(rounds, completed=number + 1)
            if number + 1 == args.warmup:
                pause = progress.add_task("quiet (baseline)", total=quiet)
                await quiet_pause(quiet, progress, pause)
                sample("baseline", "quiet")
        pause = progress.add_task("quiet (end)", total=quiet)
        await quiet_pause(quiet, progress, pause)
        sample("end", "quiet")
    if tally.errors:
        print("client errors:", dict(tally.errors.most_common()))
    print(
        f"{tally.rooms} rooms, {tally.connections} connections, {tally.moves} moves, "
        f"{tally.reconnects} reconnects, {tally.abandoned} rooms abandoned, "
        f"{tally.revisits} rooms loaded again"
    )
    return samples


async def quiet_pause(seconds: float, progress: Progress, task: Any) -> None:
    for second in range(int(seconds)):
        await asyncio.sleep(1)
        progress.update(task, completed=second + 1)


def show(samples: list[Sample]) -> bool:
    baseline = next((s for s in samples if s.label == "baseline"), samples[0])
    end = samples[-1]
    table = Table(title="server memory over the churn")
    for name in ("after", "rooms", "conns", "moves", "RSS MiB", "Δ MiB", "sockets", "workers"):
        table.add_column(name, justify="left" if name == "after" else "right")
    table.add_column("s", justify="right")
    table.add_column("errors", justify="right")
    for item in samples:
        label = item.label
        if item.phase == "warm-up":
            label += " (w)"
        table.add_row(
            label,
            str(item.rooms),
            str(item.connections),
            str(item.moves),
            f"{item.rss:.1f}",
            f"{item.rss - baseline.rss:+.1f}" if item.phase != "start" else "",
            str(item.sockets),
            f"{item.workers:.0f}",
            f"{item.seconds:.0f}",
            str(item.errors),
        )
    table.caption = (
        "after: a round (w: of the warm-up) or a quiet pause; Δ: RSS less the baseline's; sockets: "
        "the server's open sockets; workers: RSS of its computer processes, MiB"
    )
    console = Console()
    if not console.is_terminal:
        console = Console(width=120)  # a log or a pipe: no need to squeeze the columns
    console.print(table)
    growth = end.rss - baseline.rss
    percent = 100 * growth / baseline.rss
    memory_ok = percent <= 10
    sockets_ok = end.sockets <= baseline.sockets + 2
    print(
        f"open sockets in the server: {end.sockets} at the end, {baseline.sockets} after the "
        f"warm-up ({'back to the baseline' if sockets_ok else 'NOT back to the baseline'})"
    )
    verdict = "PASS" if memory_ok and sockets_ok else "FAIL"
    print(
        f"verdict: RSS {end.rss:.1f} MiB after {end.rooms} rooms and {end.connections} "
        f"connections, {baseline.rss:.1f} MiB after the warm-up: {growth:+.1f} MiB "
        f"({percent:+.1f}%), {verdict}"
    )
    return verdict == "PASS"


def plot(samples: list[Sample], path: Path) -> None:
    try:
        matplotlib: Any = importlib.import_module("matplotlib")
    except ImportError:
        print("--plot: matplotlib is not installed; no plot drawn")
        return
    matplotlib.use("Agg")  # no display needed
    plt: Any = importlib.import_module("matplotlib.pyplot")
    figure, axis = plt.subplots(figsize=(8, 4))
    axis.plot([s.seconds for s in samples], [s.rss for s in samples], marker="o")
    baseline = next((s for s in samples if s.label == "baseline"), samples[0])
    axis.axhline(baseline.rss, linestyle="--", color="grey", label="baseline")
    axis.axhline(baseline.rss * 1.1, linestyle=":", color="red", label="baseline + 10%")
    axis.set_xlabel("seconds")
    axis.set_ylabel("server RSS (MiB)")
    axis.set_title(f"{samples[-1].rooms} rooms, {samples[-1].connections} connections")
    axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    print(f"plot: {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20, help="rounds measured")
    parser.add_argument("--rooms-per-round", type=int, default=45)
    parser.add_argument("--warmup", type=int, default=8, help="rounds before the baseline")
    parser.add_argument("--moves", type=int, default=4, help="person moves before and after")
    parser.add_argument("--spectators", type=int, default=2, help="spectators per room")
    parser.add_argument("--revisits", type=int, default=5, help="old rooms visited a round")
    parser.add_argument("--room-idle", type=float, default=3.0, help="the server's room_idle")
    parser.add_argument("--settle", type=float, default=1.0, help="seconds before a sample")
    parser.add_argument("--plot", type=Path, help="draw memory over time to this PNG")
    parser.add_argument(
        "--gc-report", type=Path, help="run the server under gc_pauses.py, its report here"
    )
    parser.add_argument("--freeze-every", type=float, default=0.0, metavar="SECONDS")
    parser.add_argument("--json", type=Path, help="also write the samples here")
    args = parser.parse_args()

    limits = {
        "room_idle": args.room_idle,
        "rooms_per_address": 1_000_000,
        "computer_seats_per_address": 1_000_000,
        "connections_per_address": 10_000,
        "connections_total": 10_000,
    }
    with tempfile.TemporaryDirectory() as folder:

        def command(port: int) -> list[str]:
            return server_command(
                port,
                f"sqlite:///{folder}/soak.db",
                pace=0,
                limits=limits,
                gc_report=args.gc_report,
                freeze_every=args.freeze_every,
            )

        log = Path(folder) / "server.log"
        with log.open("wb") as output:
            process, port = start_server(command, output, subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            samples = asyncio.run(run(url, process.pid, args))
        finally:
            stop(process)
        logged = log.read_text(errors="replace")
    show(samples)
    report_log(logged)
    if args.plot:
        plot(samples, args.plot)
    if args.gc_report:
        pauses = read_report(args.gc_report)
        if pauses is not None:
            Console().print(pause_table(pauses, "server pauses under the churn"))
            print(pause_line(pauses))
    if args.json:
        args.json.write_text(json.dumps([vars(s) for s in samples], indent=1) + "\n")


def report_log(logged: str) -> None:
    """Say what of the server's log is worth reading: tracebacks and errors."""
    tracebacks = logged.count("Traceback")
    errors = [line for line in logged.splitlines() if "ERROR" in line or "CRITICAL" in line]
    if not tracebacks and not errors:
        print("server log: no traceback, no error")
        return
    print(f"server log: {tracebacks} tracebacks, {len(errors)} error lines; first ones:")
    print("\n".join(logged.splitlines()[:40]))


if __name__ == "__main__":
    main()
