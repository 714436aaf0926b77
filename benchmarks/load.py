"""Load on the web game: N concurrent WebSocket clients, each playing a match against a
computer player (or against another client), over loopback, against one server or a site of
several behind a balancer.

    python benchmarks/load.py --clients 500 --duration 60
    python benchmarks/load.py --level person --clients 400 --think 1
    python benchmarks/load.py --processes 2 --clients 800
    python benchmarks/load.py --compare 1,2 --clients 300 --think 1 --pace 0.5
    python benchmarks/load.py --compare 1:200,2:300 --think 1 --pace 0.5

starts `escoba serve` (or uses --url), opens the rooms at --ramp rooms per second, lets each
client play its seat with a think time, and after the ramp measures for --duration seconds:
matches held open, moves per second (people's and computers'), the time from sending a play
to receiving the state that acknowledges it (50th, 99th percentile, max), the time from that
acknowledgement to the computer's reply (the pace, when the computers keep up), each server's
memory and CPU (its event loop, and its computer worker processes apart), and how busy the
machine's cores were. A finished match is followed by a rematch, so every client keeps
playing.

The cost of a move on the server is the figure "server CPU per move, ms" (``cpu_ms_per_move``
in the JSON, each server's and ``server_cpu_ms_per_move`` for all of them): the CPU the
server processes used while measuring (their event loop and their threads, storage's
included; the computer workers apart), divided by the moves played meanwhile (people's
acknowledged and computers'). ``--level person`` measures people playing people: the clients
pair up, two people to a room (one opens it, the other joins it through its link; the one
who opened it asks for the rematch), so no computer seat and no search is involved and the
figure is the server's own path from a socket message to storage and every connection's
state. One plain server on SQLite, 200 rooms, about 200 moves a second:

    python benchmarks/load.py --level person --clients 400 --think 1 --duration 30

With ``--processes N`` (N > 1), ``--redis URL`` or ``--compare 1,2`` it starts a site: N
`escoba serve --redis` processes on one PostgreSQL database and one Redis, with HAProxy in
front of them (``balance roundrobin``, WebSocket upgrades passed through; its configuration is
written to the temporary folder, as in docs/examples/haproxy.cfg), and every client goes
through HAProxy, so a room's HTTP request and its WebSocket may land on different processes
as behind any balancer. PostgreSQL and Redis are private ones started in the temporary folder
(benchmarks/services.py: Debian's postgresql and redis-server, and haproxy, must be installed)
unless ``--database`` (PostgreSQL only) and ``--redis`` name running ones; each run gets a new
database of the private PostgreSQL and a Redis key prefix of its own. ``--compare 1,2`` runs 1
process and then 2, one after the other on the same kind of site, and prints their figures
side by side, with the CPU of HAProxy, PostgreSQL, Redis and of the load generator itself: on
a machine of few cores they all share the cores with the servers (and with whatever else runs
there: the CPU of other processes is shown too). ``--compare 1:200,2:300`` gives each run
its own number of clients, to show how many each holds at a similar p99. ``--processes 1``
without ``--redis`` is one plain server as before (SQLite unless ``--database``;
``--postgres`` starts a private PostgreSQL for it, ``--balancer`` puts HAProxy in front).

Every client comes from 127.0.0.1, so the started servers get limits per address (rooms,
computer seats, connections) and in all large enough for them (``--limit NAME=VALUE`` adds or
overrides one). ``--analyses 0,20`` measures play while finished matches are analysed
(docs/operators.md, "Analyses never slow play"): a run for each count, side by side; before a
run's server starts, that many finished matches (Escoba, random legal moves) are stored in its
database, made public, and their analyses asked for as the clients' ramp ends, so they run (at
the server's default budget and ``analysis_workers``) while the figures are taken; "moves
analysed per second" says how far they went:

    python benchmarks/load.py --analyses 0,20 --clients 100 --think 1 --duration 45

With ``--gc-report PATH`` the one server runs under gc_pauses.py, which writes
the cycle collector's pauses under this load to PATH (``--freeze-every`` passed on to it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import shutil
import statistics
import subprocess
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import httpx
import websockets
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from gc_pauses import pause_line, pause_table, read_report, server_command, start_server
from services import Balancer, Postgres, Redis
from soak import descendants, stop

TICKS = os.sysconf("SC_CLK_TCK")


def finished_matches(database: str, count: int) -> list[int]:
    """Store ``count`` finished public matches (Escoba, random legal moves) in ``database``,
    made as the server makes its schema; their ids."""
    from escoba import RULESETS, Game
    from escoba.server.storage.repository import MoveWrite, Storage, hash_token

    storage = Storage(database)
    storage.migrate()
    chooser = random.Random(20261205)
    ids = []
    try:
        for number in range(count):
            game = Game(RULESETS["escoba"], players=2, seed=number)
            room = f"analysis-{number}-{secrets.token_hex(4)}"
            match = storage.create_room(room, game, [None, "easy"], seed=number)
            token = secrets.token_urlsafe(24)
            storage.take_seat(room, 0, "Ana", token)
            writes, known = [], 1
            while not game.is_over():
                hand = game.hand_number
                play = game.play(chooser.choice(game.legal_moves()))
                write = MoveWrite.of(match.id, len(writes), hand, play, game, known)
                known += len(write.hands)
                writes.append(write)
            storage.write_moves(writes)
            storage.make_public(match.id, [hash_token(token)], True)
            ids.append(match.id)
    finally:
        storage.close()
    return ids


async def analysed(url: str, ids: list[int], *, ask: bool) -> int:
    """The moves analysed so far over the matches ``ids`` (asking for their analyses first
    with ``ask``)."""
    done = 0
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for match in ids:
            if ask:
                answer = await http.post(f"/api/matches/{match}/analysis", json={"tokens": []})
            else:
                answer = await http.get(f"/api/matches/{match}/analysis")
            answer.raise_for_status()
            done += int(answer.json()["done"])
    return done


@dataclass
class Tally:
    measuring: bool = False
    acks: list[float] = field(default_factory=list)
    replies: list[float] = field(default_factory=list)
    """Seconds from a person's move acknowledged to the computer's reply (the pace, when the
    computers keep up)."""
    person_moves: int = 0
    computer_moves: int = 0
    open_matches: int = 0
    finished: int = 0
    errors: list[str] = field(default_factory=list)
    retries: int = 0
    """Requests refused as ``restarting`` and sent again."""


@dataclass
class Watched:
    """The processes a run measures: the servers, and the services beside them by name
    (each with its child processes: PostgreSQL's backends)."""

    servers: list[int] = field(default_factory=list)
    services: dict[str, int] = field(default_factory=dict)


def memory_mib(pid: int) -> tuple[float, float]:
    """Resident memory and its peak in MiB of a process."""
    status = Path(f"/proc/{pid}/status").read_text()
    values = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return int(values["VmRSS"].split()[0]) / 1024, int(values["VmHWM"].split()[0]) / 1024


def cpu_seconds(pid: int) -> float | None:
    """CPU seconds a process has used (None when it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(stat[11]) + int(stat[12])) / TICKS


def tree_seconds(pid: int, *, own: bool = True) -> dict[int, float]:
    """CPU seconds of a process (unless not ``own``) and of its descendants, by process."""
    found: dict[int, float] = {}
    for each in [pid, *descendants(pid)] if own else descendants(pid):
        seconds = cpu_seconds(each)
        if seconds is not None:
            found[each] = seconds
    return found


def machine_seconds() -> tuple[float, float]:
    """Busy and total CPU seconds of the machine, every core (from /proc/stat)."""
    ticks = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle and iowait
    return (sum(ticks[:8]) - idle) / TICKS, sum(ticks[:8]) / TICKS


@dataclass
class Snapshot:
    """CPU seconds used so far by every watched process, and by the machine."""

    servers: list[float | None]
    workers: list[dict[int, float]]
    services: dict[str, dict[int, float]]
    generator: float
    machine: tuple[float, float]

    @classmethod
    def take(cls, watched: Watched) -> Snapshot:
        return cls(
            servers=[cpu_seconds(pid) for pid in watched.servers],
            workers=[tree_seconds(pid, own=False) for pid in watched.servers],
            services={name: tree_seconds(pid) for name, pid in watched.services.items()},
            generator=time.process_time(),
            machine=machine_seconds(),
        )


def percent_used(before: dict[int, float], after: dict[int, float], seconds: float) -> float:
    """Percent of one core used by a group of processes between two snapshots (one born
    in between counts from its start)."""
    used = sum(value - before.get(pid, 0.0) for pid, value in after.items())
    return round(100 * used / seconds, 1)


REMATCH = json.dumps({"type": "rematch"})

RETRY_SECONDS = 0.5
"""How long a client waits to send again what was refused as ``restarting`` (a room whose
owner is being replaced), as the web page does."""


async def create_room(url: str, body: dict[str, Any], tally: Tally) -> dict[str, Any] | None:
    """Open a room, again a moment later while the site is restarting; its ticket."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        for _attempt in range(20):
            reply = await http.post("/api/rooms", json=body)
            if reply.status_code == 201:
                ticket: dict[str, Any] = reply.json()
                return ticket
            if reply.status_code != 503:
                break
            tally.retries += 1
            await asyncio.sleep(RETRY_SECONDS)
    tally.errors.append(f"create: {reply.status_code} {reply.text[:200]}")
    return None


async def join_room(url: str, room: str, nickname: str, tally: Tally) -> dict[str, Any] | None:
    """Take the free person seat of a room another client opened; its ticket."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        for _attempt in range(20):
            reply = await http.post(f"/api/rooms/{room}/join", json={"nickname": nickname})
            if reply.status_code == 200:
                ticket: dict[str, Any] = reply.json()
                return ticket
            if reply.status_code != 503:
                break
            tally.retries += 1
            await asyncio.sleep(RETRY_SECONDS)
    tally.errors.append(f"join: {reply.status_code} {reply.text[:200]}")
    return None


PEOPLE: Final = "person"
"""``--level person``: the other seat is another client's (people play people)."""


async def client(
    index: int,
    url: str,
    args: argparse.Namespace,
    tally: Tally,
    stop: asyncio.Event,
    opened: asyncio.Future[str | None] | None = None,
) -> None:
    """Play a seat until ``stop``. Against a computer the client opens its own room; with
    ``--level person`` it opens one and sets ``opened`` to its id for its partner, or, given
    ``opened`` already made by its partner, joins that room."""
    rng = random.Random(index)
    people = args.level == PEOPLE
    opener = not people or not (opened is not None and index % 2)
    nickname = f"load{index}"
    if opener:
        body = {"nickname": nickname, "seats": ["person", args.level], "rules": args.rules}
        ticket = await create_room(url, body, tally)
        if opened is not None and not opened.done():
            opened.set_result(None if ticket is None else ticket["room"])
    else:
        assert opened is not None
        room = await opened
        ticket = None if room is None else await join_room(url, room, nickname, tally)
    if ticket is None:
        return
    seat = ticket["seat"]
    address = url.replace("http", "ws", 1) + f"/ws/rooms/{ticket['room']}"
    async with websockets.connect(address, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "join", "token": ticket["token"]}))
        tally.open_matches += opener  # a match of two people counts once
        sent_at: float | None = None
        acked_at: float | None = None  # this seat's last move, until the computer replies
        request = ""  # the last play or rematch sent: sent again if refused as restarting
        sent_card = ""
        turn: asyncio.Task[None] | None = None

        async def play_later(move: dict[str, Any]) -> None:
            nonlocal sent_at, sent_card, request
            await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
            sent_card = move["card"]
            sent_at = time.perf_counter()
            request = json.dumps(
                {"type": "play", "card": move["card"], "captures": move["captures"]}
            )
            await ws.send(request)

        async def again_later(request: str) -> None:
            await asyncio.sleep(RETRY_SECONDS)
            await ws.send(request)

        try:
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except TimeoutError:
                    continue
                message = json.loads(raw)
                kind = message["type"]
                if kind == "error":
                    if message["code"] == "restarting" and request:
                        # The time until the move is acknowledged runs on: a player waits.
                        tally.retries += 1
                        turn = asyncio.create_task(again_later(request))
                    else:
                        tally.errors.append(f"{message['code']}: {message['message']}")
                    continue
                if kind != "state":
                    continue
                event = message.get("event")
                if event and event.get("kind") == "play":
                    if event["seat"] == seat and sent_at is not None and event["card"] == sent_card:
                        acked_at = time.perf_counter()
                        if tally.measuring:
                            tally.acks.append(acked_at - sent_at)
                            tally.person_moves += 1
                        sent_at = None
                        request = ""
                    elif event["seat"] != seat and tally.measuring and not people:
                        tally.computer_moves += 1  # (a person's move is counted by its client)
                        if acked_at is not None:
                            tally.replies.append(time.perf_counter() - acked_at)
                    if event["seat"] != seat:
                        acked_at = None
                match = message["match"]
                if match["over"]:
                    if request != REMATCH and opener:  # one of the pair asks for the rematch
                        tally.finished += 1
                        request = REMATCH
                        await ws.send(request)
                elif (
                    match["to_move"] == seat
                    and match["legal"]
                    and sent_at is None
                    and (turn is None or turn.done())
                ):
                    request = ""
                    turn = asyncio.create_task(play_later(rng.choice(match["legal"])))
                else:
                    request = "" if request == REMATCH else request
        finally:
            tally.open_matches -= opener
            if turn is not None:
                turn.cancel()


async def run(url: str, args: argparse.Namespace, watched: Watched, label: str) -> dict[str, Any]:
    tally = Tally()
    stop_clients = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    console = Console(stderr=True)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:.0f}/{task.total:.0f}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as progress:
        opening = progress.add_task(f"{label}opening rooms", total=args.clients)
        loop = asyncio.get_running_loop()
        opened: asyncio.Future[str | None] | None = None
        for index in range(args.clients):
            if args.level == PEOPLE and index % 2 == 0:
                opened = loop.create_future()  # this client's room, for the next one to join
            tasks.append(asyncio.create_task(client(index, url, args, tally, stop_clients, opened)))
            progress.update(opening, completed=index + 1)
            await asyncio.sleep(1 / args.ramp)
        ids: list[int] = getattr(args, "analysis_ids", [])
        if ids:
            await analysed(url, ids, ask=True)
        settling = progress.add_task(f"{label}settling", total=args.settle)
        for second in range(args.settle):
            await asyncio.sleep(1)
            progress.update(settling, completed=second + 1)
        before = Snapshot.take(watched)
        analysed_before = await analysed(url, ids, ask=False) if ids else 0
        tally.measuring = True
        started = time.perf_counter()
        held: list[int] = []
        measuring = progress.add_task(f"{label}measuring", total=args.duration)
        for second in range(args.duration):
            await asyncio.sleep(1)
            held.append(tally.open_matches)
            progress.update(measuring, completed=second + 1)
        elapsed = time.perf_counter() - started
        tally.measuring = False
        after = Snapshot.take(watched)
        analysed_after = await analysed(url, ids, ask=False) if ids else 0
    memory = [memory_mib(pid) for pid in watched.servers]
    stop_clients.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    acks = sorted(tally.acks)

    def percentile(q: float) -> float:
        return acks[min(len(acks) - 1, int(q * len(acks)))] * 1000 if acks else float("nan")

    replies = sorted(tally.replies)

    def reply(q: float) -> float | None:
        return round(replies[min(len(replies) - 1, int(q * len(replies)))], 2) if replies else None

    moves = tally.person_moves + tally.computer_moves
    servers: list[dict[str, Any]] = []
    for index, (rss, peak) in enumerate(memory):
        own_before, own_after = before.servers[index], after.servers[index]
        used = None if own_before is None or own_after is None else own_after - own_before
        servers.append(
            {
                "rss_mib": round(rss, 1),
                "peak_rss_mib": round(peak, 1),
                "cpu_percent": None if used is None else round(100 * used / elapsed, 1),
                "cpu_seconds": None if used is None else round(used, 2),
                "workers_cpu_percent": percent_used(
                    before.workers[index], after.workers[index], elapsed
                ),
            }
        )
    busy = after.machine[0] - before.machine[0]
    total = after.machine[1] - before.machine[1]
    cpu = {
        **{
            name: percent_used(before.services[name], after.services[name], elapsed)
            for name in watched.services
        },
        "load generator": round(100 * (after.generator - before.generator) / elapsed, 1),
    }
    # What the machine did besides this benchmark (other people's work): it took cores from
    # the servers, so figures measured with much of it are not to be trusted.
    ours = sum(cpu.values()) + sum(
        (server["cpu_percent"] or 0) + server["workers_cpu_percent"] for server in servers
    )
    cpu["other processes"] = round(max(0.0, 100 * busy / elapsed - ours), 1)
    # The servers' CPU per move played: each server's own (with several, a move is played on
    # one and shown on others, so each one's share is over all moves) and all of theirs.
    spent = [server["cpu_seconds"] for server in servers]
    for server in servers:
        server["cpu_ms_per_move"] = (
            round(1000 * server["cpu_seconds"] / moves, 3)
            if server["cpu_seconds"] is not None and moves
            else None
        )
    all_spent = None if not spent or None in spent else sum(spent)
    return {
        "processes": len(watched.servers) or None,
        "clients": args.clients,
        "think_seconds": args.think,
        "pace_seconds": args.pace,
        "level": args.level,
        "seconds": round(elapsed, 1),
        "matches_held_min": min(held),
        "matches_held_mean": round(statistics.mean(held), 1),
        "moves_per_second": round((tally.person_moves + tally.computer_moves) / elapsed, 1),
        "person_moves_per_second": round(tally.person_moves / elapsed, 1),
        "moves": moves,
        "server_cpu_ms_per_move": round(1000 * all_spent / moves, 3)
        if all_spent is not None and moves
        else None,
        "ack_ms_p50": round(percentile(0.50), 1),
        "ack_ms_p99": round(percentile(0.99), 1),
        "ack_ms_max": round(acks[-1] * 1000, 1) if acks else None,
        "computer_reply_s_p50": reply(0.50),
        "computer_reply_s_p99": reply(0.99),
        "matches_finished": tally.finished,
        "analyses": len(ids),
        "analysed_moves_per_second": round((analysed_after - analysed_before) / elapsed, 2),
        "errors": len(tally.errors),
        "restarting_retries": tally.retries,
        "first_errors": tally.errors[:5],
        "servers": servers,
        "cpu_percent": cpu,
        "machine_busy_percent": round(100 * busy / total, 1) if total else None,
        "cores": os.cpu_count(),
    }


def show(results: list[dict[str, Any]]) -> None:
    """One table, a column per run: the figures of runs side by side."""
    first = results[0]
    against = "each other" if first["level"] == PEOPLE else f"'{first['level']}'"
    title = f"{first['clients']} clients against {against}"
    if len({result["clients"] for result in results}) > 1:
        title = f"clients against {against}"
    table = Table(title=title)
    table.add_column("figure")
    for result in results:
        count = result["processes"]
        name = "server" if count is None else f"{count} process" + ("es" if count > 1 else "")
        if any(r.get("analyses") for r in results):
            name += f", {result['analyses']} analyses"
        table.add_column(name, justify="right")

    def each(values: list[Any], unit: str = "") -> str:
        return ", ".join(f"{value:g}{unit}" if value is not None else "?" for value in values)

    rows: list[tuple[str, list[str]]] = [
        ("clients", [str(result["clients"]) for result in results]),
        ("think / pace, s", [f"{r['think_seconds']:g} / {r['pace_seconds']:g}" for r in results]),
        ("seconds measured", [f"{result['seconds']:g}" for result in results]),
        (
            "matches held, least / mean",
            [f"{r['matches_held_min']} / {r['matches_held_mean']:g}" for r in results],
        ),
        ("moves per second", [f"{result['moves_per_second']:g}" for result in results]),
        ("  of which people's", [f"{r['person_moves_per_second']:g}" for r in results]),
        ("ack p50, ms", [f"{result['ack_ms_p50']:g}" for result in results]),
        ("ack p99, ms", [f"{result['ack_ms_p99']:g}" for result in results]),
        ("ack max, ms", [each([result["ack_ms_max"]]) for result in results]),
        (
            "computer reply p50 / p99, s",
            [
                each([r["computer_reply_s_p50"]]) + " / " + each([r["computer_reply_s_p99"]])
                for r in results
            ],
        ),
        ("matches finished", [str(result["matches_finished"]) for result in results]),
        (
            "analyses asked / moves analysed per second",
            [
                f"{r.get('analyses', 0)} / {r.get('analysed_moves_per_second', 0):g}"
                for r in results
            ],
        ),
        ("errors", [str(result["errors"]) for result in results]),
        ("refused as restarting, sent again", [str(r["restarting_retries"]) for r in results]),
    ]
    if any(result["servers"] for result in results):
        rows += [
            (
                "server memory, MiB (each)",
                [each([server["rss_mib"] for server in r["servers"]]) for r in results],
            ),
            (
                "server CPU, % of a core (each)",
                [each([server["cpu_percent"] for server in r["servers"]]) for r in results],
            ),
            (
                "server CPU per move, ms (all servers)",
                [each([r["server_cpu_ms_per_move"]]) for r in results],
            ),
            (
                "computer workers' CPU, %",
                [each([server["workers_cpu_percent"] for server in r["servers"]]) for r in results],
            ),
        ]
    names = list(dict.fromkeys(name for result in results for name in result["cpu_percent"]))
    for name in names:
        rows.append(
            (f"{name} CPU, %", [each([result["cpu_percent"].get(name)]) for result in results])
        )
    rows.append(
        (
            f"machine busy, % of {first['cores']} cores",
            [each([result["machine_busy_percent"]]) for result in results],
        )
    )
    for name, values in rows:
        table.add_row(name, *values)
    Console().print(table)
    for result in results:
        for error in result["first_errors"]:
            print(f"error ({result['processes']} processes):", error)


def server_limits(args: argparse.Namespace) -> dict[str, float]:
    """Limits under which one address (every client's) may hold all the clients' rooms,
    computer seats and connections, and the server all of them; then ``--limit``."""
    connections = max(10_000, 2 * args.clients + 100)
    limits: dict[str, float] = {
        "rooms_per_address": 100_000,
        "computer_seats_per_address": 100_000,
        "rooms_total": max(2000, 2 * args.clients),
        "computer_seats_total": max(1000, 2 * args.clients),
        "connections_per_address": connections,
        "connections_total": connections,
    }
    for item in args.limit:
        name, _, value = item.partition("=")
        limits[name.strip()] = float(value)
    return limits


@dataclass
class Site:
    """What the runs share: the temporary folder, PostgreSQL and Redis (ours, when started
    here, else None), and the Redis URL the servers join with (None: a plain server)."""

    folder: Path
    postgres: Postgres | None
    redis: Redis | None
    redis_url: str | None


def measure(number: int, count: int, args: argparse.Namespace, site: Site) -> dict[str, Any]:
    """Start ``count`` servers (and HAProxy in front when a site), load them, stop them."""
    here = site.folder / f"run{number}"
    here.mkdir()
    if args.database:
        database = args.database
    elif site.postgres is not None:
        database = site.postgres.database()
    else:
        database = f"sqlite:///{here}/load.db"
    joining: list[str] = []
    if site.redis_url is not None:
        prefix = f"escoba-load-{number}-{secrets.token_hex(4)}:"
        joining = ["--redis", site.redis_url, "--redis-prefix", prefix]
    label = f"{count} process{'es' if count > 1 else ''}: " if args.compare else ""
    if args.analyses:
        label = f"{args.analyses_now} analyses: "
        args.analysis_ids = finished_matches(database, args.analyses_now)

    def command(port: int) -> list[str]:
        return (
            server_command(
                port,
                database,
                pace=args.pace,
                limits=server_limits(args),
                computer_workers=args.computer_workers,
                gc_report=args.gc_report,
                freeze_every=args.freeze_every,
            )
            + joining
        )

    servers: list[subprocess.Popen[bytes]] = []
    with ExitStack() as stack:
        ports = []
        for index in range(count):
            log = here / f"server{index + 1}.log"
            with log.open("wb") as output:
                try:
                    process, port = start_server(command, output, subprocess.STDOUT)
                except SystemExit:
                    print(log.read_text(errors="replace")[-3000:])
                    raise
            stack.callback(stop, process)
            servers.append(process)
            ports.append(port)
        watched = Watched(servers=[process.pid for process in servers])
        url = f"http://127.0.0.1:{ports[0]}"
        if site.redis_url is not None or args.balancer:
            balancer = stack.enter_context(Balancer(here, ports))
            watched.services["HAProxy"] = balancer.pid
            url = f"http://127.0.0.1:{balancer.port}"
        if site.postgres is not None:
            watched.services["PostgreSQL"] = site.postgres.pid
        if site.redis is not None:
            watched.services["Redis"] = site.redis.pid
        result = asyncio.run(run(url, args, watched, label))
        for index, process in enumerate(servers, start=1):
            if process.poll() is not None:
                result["errors"] += 1
                result["first_errors"].append(
                    f"server {index} ended during the run (status {process.returncode}); "
                    f"its log: {(here / f'server{index}.log').read_text(errors='replace')[-500:]}"
                )
    return result


def keep_logs(run: Path, kept: Path) -> None:
    """Copy a run's logs (``*.log``) out of the temporary folder."""
    kept.mkdir(parents=True, exist_ok=True)
    for log in run.glob("*.log"):
        shutil.copy(log, kept / log.name)


def runs_given(text: str) -> list[tuple[int, int | None]]:
    """``--compare``: process counts, each with its own number of clients or not
    (``1,2`` or ``1:300,2:450``)."""
    runs: list[tuple[int, int | None]] = []
    for part in text.split(","):
        count, _, clients = part.partition(":")
        try:
            runs.append((int(count), int(clients) if clients else None))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{part!r}: a process count, or a count and clients (1,2 or 1:300,2:450)"
            ) from None
        if runs[-1][0] < 1 or (runs[-1][1] or 1) < 1:
            raise argparse.ArgumentTypeError(f"{part!r}: counts of 1 or more")
    return runs


def arguments(description: str) -> argparse.ArgumentParser:
    """The options of a load run (benchmarks/capacity.py adds its own to them)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--duration", type=int, default=60, help="seconds measured")
    parser.add_argument("--settle", type=int, default=10, help="seconds after the ramp")
    parser.add_argument("--ramp", type=float, default=50, help="rooms opened per second")
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds before a play")
    parser.add_argument("--pace", type=float, default=1.0, help="server's computer pace")
    parser.add_argument(
        "--level",
        default="easy",
        help="the computer's level, or 'person': people play people, two clients a room",
    )
    parser.add_argument("--rules", default="escoba")
    parser.add_argument("--url", help="a running server or site (else servers are started)")
    parser.add_argument(
        "--processes", type=int, default=1, metavar="N", help="servers started (N > 1: a site)"
    )
    parser.add_argument(
        "--compare",
        type=runs_given,
        metavar="N[:CLIENTS],...",
        help="run each process count in turn (with its own clients if given), a site each, "
        "and show them side by side",
    )
    parser.add_argument(
        "--database", help="database URL for the started servers (a site's: PostgreSQL)"
    )
    parser.add_argument("--redis", help="Redis URL a site's servers join (else a private one)")
    parser.add_argument(
        "--postgres", action="store_true", help="a private PostgreSQL for one plain server"
    )
    parser.add_argument(
        "--balancer", action="store_true", help="HAProxy in front of one plain server"
    )
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a limit for the started servers, over the generous ones given",
    )
    parser.add_argument("--computer-workers", type=int, metavar="N")
    parser.add_argument(
        "--gc-report", type=Path, help="run the server under gc_pauses.py, its report here"
    )
    parser.add_argument(
        "--freeze-every",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="with --gc-report: gc.freeze() this often in the server (0: never)",
    )
    parser.add_argument(
        "--analyses",
        type=lambda text: [int(part) for part in text.split(",")],
        metavar="N,...",
        help="a run for each count of finished matches analysed while the clients play",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--logs", type=Path, help="keep the servers' and HAProxy's logs in this folder"
    )
    return parser


def main() -> None:
    parser = arguments(__doc__.splitlines()[0])
    args = parser.parse_args()

    runs = args.compare or [(args.processes, None)]
    if args.analyses:
        if args.compare or args.url:
            parser.error("--analyses starts its own servers, one run per count: no --compare")
        runs = [(args.processes, None)] * len(args.analyses)
    many = bool(args.compare) or args.processes > 1 or args.redis is not None
    if args.processes < 1:
        parser.error("--processes: 1 or more")
    if args.url and (many or args.postgres or args.balancer or args.database):
        parser.error("--url measures a running server: it takes no servers' options")
    if many and args.database and not args.database.startswith("postgresql"):
        parser.error("several processes share a PostgreSQL database: --database postgresql...")
    if args.gc_report and (many or args.url):
        parser.error("--gc-report measures one plain server that the benchmark starts")

    if args.url:
        results = [asyncio.run(run(args.url.rstrip("/"), args, Watched(), ""))]
    else:
        with tempfile.TemporaryDirectory(prefix="escoba-load-") as name, ExitStack() as stack:
            folder = Path(name)
            postgres = None
            if (many or args.postgres) and not args.database:
                postgres = stack.enter_context(Postgres(folder))
            redis = None
            redis_url = args.redis
            if many and redis_url is None:
                redis = stack.enter_context(Redis(folder))
                redis_url = redis.url
            site = Site(folder, postgres, redis, redis_url)
            results = []
            for number, (count, clients) in enumerate(runs, start=1):
                given = argparse.Namespace(**{**vars(args), "clients": clients or args.clients})
                if args.analyses:
                    given.analyses_now = args.analyses[number - 1]
                try:
                    results.append(measure(number, count, given, site))
                finally:
                    if args.logs:
                        keep_logs(folder / f"run{number}", args.logs / f"run{number}")
    show(results)
    if args.gc_report:
        pauses = read_report(args.gc_report)
        if pauses is None:
            print(f"error: the server wrote no report to {args.gc_report}")
        else:
            Console().print(pause_table(pauses, f"server pauses under {args.clients} clients"))
            print(pause_line(pauses))
            results[0]["gc"] = pauses
    if args.json:
        figures: Any = results if args.compare or args.analyses else results[0]
        args.json.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
