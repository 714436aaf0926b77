"""Load on the lobby: people arriving for a quick match, and people watching the open tables
while tables open and close, against one server or a site of several processes.

    python benchmarks/lobby.py --players 1000 --seconds 60 --watchers 1000
    python benchmarks/lobby.py --compare 1,2 --players 1000 --watchers 1000

starts `escoba serve` (one plain server on SQLite; with ``--processes 2`` or ``--compare 1,2``
a site: the processes on one private PostgreSQL and one private Redis, benchmarks/services.py)
and, for ``--seconds``:

- ``--players`` people arrive at an even pace, each opening the lobby's socket on the next
  process in turn and asking for a quick match of 2-player Escoba (``seek``); the **pairing
  delay** is, for each person paired, the time from the later of the two ``seek`` messages
  of their match to the ``paired`` message: what a person waits once their partner has come.
  Every person must be paired exactly once (an odd one out at the end waits, and is counted);
- ``--watchers`` people keep the lobby open (spread over the processes) while, every
  ``1 / --tables-per-second`` seconds, someone opens an open table, takes their seat (their
  room's socket, ``join``) and leaves it ``--hold`` seconds later; the **lobby's update
  delay** is, for every watcher and table, the time from the creator's ``welcome`` to the
  watcher's ``table`` message, and from the creator closing their socket to ``table_gone``.

Percentiles 50 and 99 and the maximum are shown as a table (``--json`` writes them), with the
CPU of the servers and of this load generator, which shares the machine's cores with them.
Every client comes from 127.0.0.1: the servers get limits per address large enough for all.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import secrets
import statistics
import subprocess
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from gc_pauses import server_command, start_server
from load import cpu_seconds
from services import Postgres, Redis
from soak import stop


@dataclass
class Figures:
    """What one run measured."""

    pairing: list[float] = field(default_factory=list)
    paired_twice: int = 0
    unpaired: int = 0
    listed: list[float] = field(default_factory=list)
    gone: list[float] = field(default_factory=list)
    missed: int = 0
    """Watcher and table pairs where the watcher never saw the table come or go."""
    errors: list[str] = field(default_factory=list)


def percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p99": None, "max": None, "count": 0}
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {
        "p50": statistics.median(ordered),
        "p99": p99,
        "max": ordered[-1],
        "count": len(ordered),
    }


def ws_url(url: str, path: str) -> str:
    return url.replace("http://", "ws://") + path


class Watcher:
    """One person keeping the lobby open: when each table came and went, by room."""

    def __init__(self) -> None:
        self.came: dict[str, float] = {}
        self.went: dict[str, float] = {}
        self.ready = asyncio.Event()

    async def watch(self, url: str, done: asyncio.Event, figures: Figures) -> None:
        try:
            async with websockets.connect(ws_url(url, "/ws/lobby"), max_size=None) as socket:
                while not done.is_set():
                    try:
                        text = await asyncio.wait_for(socket.recv(), 0.5)
                    except TimeoutError:
                        continue
                    now = time.monotonic()
                    message = json.loads(text)
                    kind = message.get("type")
                    if kind == "tables":
                        self.ready.set()
                    elif kind == "table":
                        self.came.setdefault(message["table"]["id"], now)
                    elif kind == "table_gone":
                        self.went.setdefault(message["id"], now)
        except Exception as error:  # a watcher refused or cut off is a finding, not a crash
            figures.errors.append(f"watcher: {error!r}")
            self.ready.set()


async def player(url: str, number: int, seeks: dict[str, float], paired: dict[str, Any]) -> None:
    """One person asking for a quick match, until paired (or the run ends)."""
    name = f"p{number}"
    async with websockets.connect(ws_url(url, "/ws/lobby"), max_size=None) as socket:
        while json.loads(await socket.recv()).get("type") != "tables":
            pass
        await socket.send(json.dumps({"type": "seek", "nickname": name}))
        seeks[name] = time.monotonic()
        while True:
            message = json.loads(await socket.recv())
            if message.get("type") == "paired":
                paired.setdefault(name, []).append((time.monotonic(), message["ticket"]["room"]))
                return
            if message.get("type") == "error":
                raise RuntimeError(f"{name}: {message}")


async def table(
    url: str, hold: float, opened: dict[str, tuple[float, float]], figures: Figures
) -> None:
    """Someone opens an open table, sits there for ``hold`` seconds, and leaves."""
    body = {"nickname": "Host", "seats": ["person", "person"], "listed": True}
    async with httpx.AsyncClient(timeout=30) as http:
        reply = await http.post(url + "/api/rooms", json=body)
    if reply.status_code != 201:
        figures.errors.append(f"table: {reply.status_code} {reply.text[:200]}")
        return
    ticket = reply.json()
    async with websockets.connect(ws_url(url, f"/ws/rooms/{ticket['room']}")) as socket:
        await socket.send(json.dumps({"type": "join", "token": ticket["token"]}))
        while json.loads(await socket.recv()).get("type") != "welcome":
            pass
        welcomed = time.monotonic()
        await asyncio.sleep(hold)
        left = time.monotonic()
    opened[ticket["room"]] = (welcomed, left)


async def run(urls: list[str], args: argparse.Namespace, pids: list[int]) -> dict[str, Any]:
    figures = Figures()
    done = asyncio.Event()
    watchers = [Watcher() for _ in range(args.watchers)]
    tasks = [
        asyncio.create_task(w.watch(urls[n % len(urls)], done, figures))
        for n, w in enumerate(watchers)
    ]
    await asyncio.gather(*(w.ready.wait() for w in watchers))
    seeks: dict[str, float] = {}
    paired: dict[str, list[tuple[float, str]]] = {}
    opened: dict[str, tuple[float, float]] = {}
    players: list[asyncio.Task[None]] = []
    tables: list[asyncio.Task[None]] = []
    cpu_before = {pid: cpu_seconds(pid) or 0.0 for pid in pids}
    own_before = time.process_time()
    start = time.monotonic()
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:.0f}/{task.total:.0f} s"),
        TimeRemainingColumn(),
    ) as progress:
        bar = progress.add_task(f"{len(urls)} process(es)", total=args.seconds)
        next_player = next_table = 0.0
        player_every = args.seconds / max(1, args.players)
        table_every = 1 / args.tables_per_second
        while (elapsed := time.monotonic() - start) < args.seconds:
            while next_player <= elapsed and len(players) < args.players:
                url = urls[len(players) % len(urls)]
                players.append(asyncio.create_task(player(url, len(players), seeks, paired)))
                next_player += player_every
            while next_table <= elapsed < args.seconds - args.hold:
                url = urls[len(tables) % len(urls)]
                tables.append(asyncio.create_task(table(url, args.hold, opened, figures)))
                next_table += table_every
            progress.update(bar, completed=elapsed)
            await asyncio.sleep(0.01)
        progress.update(bar, completed=args.seconds)
        await asyncio.sleep(args.settle)
    seconds = time.monotonic() - start
    cpu = {pid: (cpu_seconds(pid) or 0.0) - cpu_before[pid] for pid in pids}
    own = time.process_time() - own_before
    done.set()
    for task in players:
        task.cancel()
    results = await asyncio.gather(*players, *tables, *tasks, return_exceptions=True)
    figures.errors += [
        repr(r)
        for r in results
        if isinstance(r, Exception) and not isinstance(r, asyncio.CancelledError)
    ][:5]
    by_room: dict[str, list[str]] = {}
    for name, got in paired.items():
        if len(got) > 1:
            figures.paired_twice += 1
        by_room.setdefault(got[0][1], []).append(name)
    for names in by_room.values():
        if len(names) != 2:
            figures.errors.append(f"a room of {len(names)} people: {names}")
            continue
        partner_came = max(seeks[name] for name in names)
        figures.pairing += [paired[name][0][0] - partner_came for name in names]
    figures.unpaired = len(seeks) - len(paired)
    for room, (welcomed, left) in opened.items():
        for w in watchers:
            if room in w.came and room in w.went:
                figures.listed.append(max(0.0, w.came[room] - welcomed))
                figures.gone.append(max(0.0, w.went[room] - left))
            else:
                figures.missed += 1
    return {
        "processes": len(urls),
        "players": len(seeks),
        "pairing_s": percentiles(figures.pairing),
        "paired": len(paired),
        "paired_twice": figures.paired_twice,
        "unpaired": figures.unpaired,
        "watchers": args.watchers,
        "tables": len(opened),
        "listed_s": percentiles(figures.listed),
        "gone_s": percentiles(figures.gone),
        "missed": figures.missed,
        "server_cpu_percent": round(100 * sum(cpu.values()) / seconds, 1),
        "generator_cpu_percent": round(100 * own / seconds, 1),
        "errors": figures.errors[:5],
    }


def show(results: list[dict[str, Any]]) -> None:
    table = Table(title="The lobby under load")
    table.add_column("")
    for result in results:
        table.add_column(f"{result['processes']} process(es)", justify="right")

    def ms(value: float | None) -> str:
        return "-" if value is None else f"{1000 * value:.0f}"

    rows = [
        ("people seeking", lambda r: str(r["players"])),
        ("paired (twice)", lambda r: f"{r['paired']} ({r['paired_twice']})"),
        ("left waiting", lambda r: str(r["unpaired"])),
        ("pairing delay p50 / p99 / max, ms", lambda r: " / ".join(
            ms(r["pairing_s"][k]) for k in ("p50", "p99", "max"))),
        ("lobby watchers", lambda r: str(r["watchers"])),
        ("tables opened and closed", lambda r: str(r["tables"])),
        ("table shown p50 / p99 / max, ms", lambda r: " / ".join(
            ms(r["listed_s"][k]) for k in ("p50", "p99", "max"))),
        ("table gone p50 / p99 / max, ms", lambda r: " / ".join(
            ms(r["gone_s"][k]) for k in ("p50", "p99", "max"))),
        ("updates missed", lambda r: str(r["missed"])),
        ("server CPU, % of a core", lambda r: f"{r['server_cpu_percent']:.0f}"),
        ("load generator CPU, % of a core", lambda r: f"{r['generator_cpu_percent']:.0f}"),
        ("errors", lambda r: str(len(r["errors"]))),
    ]  # fmt: skip
    for label, value in rows:
        table.add_row(label, *(value(result) for result in results))
    Console().print(table)
    for result in results:
        for error in result["errors"]:
            print(f"{result['processes']} process(es): {error}")


def limits(args: argparse.Namespace) -> list[str]:
    connections = 2 * (args.players + args.watchers) + 1000
    return [
        f"connections_total={connections}",
        f"connections_per_address={connections}",
        f"lobby_watchers={connections}",
        "rooms_per_address=100000",
        f"rooms_total={args.players + 10_000}",
    ]


def measure(
    count: int, args: argparse.Namespace, folder: Path, services: tuple[Postgres, Redis] | None
) -> dict[str, Any]:
    here = folder / f"run{count}"
    here.mkdir()
    joining: list[str] = []
    database = f"sqlite:///{here}/lobby.db"
    if count > 1:
        assert services is not None
        postgres, redis = services
        database = postgres.database()
        joining = ["--redis", redis.url, "--redis-prefix", f"lobby-{secrets.token_hex(4)}:"]
    given = {name: float(value) for name, _, value in (x.partition("=") for x in limits(args))}
    servers = []
    with ExitStack() as running:
        urls = []
        for index in range(count):
            log = (here / f"server{index + 1}.log").open("wb")
            running.callback(log.close)

            def command(port: int) -> list[str]:
                return server_command(port, database, pace=0.0, limits=given) + joining

            process, port = start_server(command, log, subprocess.STDOUT)
            running.callback(stop, process)
            servers.append(process)
            urls.append(f"http://127.0.0.1:{port}")
        return asyncio.run(run(urls, args, [process.pid for process in servers]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000, help="people seeking a match")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long they arrive for")
    parser.add_argument("--watchers", type=int, default=1000, help="people watching the lobby")
    parser.add_argument("--tables-per-second", type=float, default=2.0)
    parser.add_argument("--hold", type=float, default=5.0, help="seconds a table stays open")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds after the arrivals")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--compare", help="process counts, one run each: 1,2")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    counts = [int(part) for part in args.compare.split(",")] if args.compare else [args.processes]
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory(prefix="escoba-lobby-") as name, ExitStack() as stack:
        folder = Path(name)
        services = None
        if max(counts) > 1:  # a site: one private PostgreSQL and one Redis for its runs
            services = (stack.enter_context(Postgres(folder)), stack.enter_context(Redis(folder)))
        results = [measure(count, args, folder, services) for count in counts]
    show(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
