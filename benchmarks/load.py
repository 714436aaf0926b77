"""Load on the web game: N concurrent WebSocket clients, each playing a match against a
computer player, over loopback.

    python benchmarks/load.py --clients 500 --duration 60

starts `escoba serve` (or uses --url), opens the rooms at --ramp rooms per second, lets each
client play its seat with a think time, and after the ramp measures for --duration seconds:
matches held open, moves per second (people's and computers'), the time from sending a play
to receiving the state that acknowledges it (50th, 99th percentile, max), and the server's
memory and CPU. A finished match is followed by a rematch, so every client keeps playing.

Every client comes from 127.0.0.1, so the started server gets limits per address (rooms,
computer seats, connections) and in all large enough for them (``--limit NAME=VALUE`` adds or
overrides one). With ``--gc-report PATH`` the server runs under gc_pauses.py, which writes the
cycle collector's pauses under this load to PATH (``--freeze-every`` passed on to it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from gc_pauses import pause_line, pause_table, read_report, server_command, start_server


@dataclass
class Tally:
    measuring: bool = False
    acks: list[float] = field(default_factory=list)
    person_moves: int = 0
    computer_moves: int = 0
    open_matches: int = 0
    finished: int = 0
    errors: list[str] = field(default_factory=list)


def process_figures(pid: int) -> tuple[float, float, float]:
    """Resident memory and its peak in MiB, and CPU seconds used, of a process."""
    status = Path(f"/proc/{pid}/status").read_text()
    values = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    rss = int(values["VmRSS"].split()[0]) / 1024
    peak = int(values["VmHWM"].split()[0]) / 1024
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return rss, peak, (int(stat[11]) + int(stat[12])) / ticks


async def client(
    index: int, url: str, args: argparse.Namespace, tally: Tally, stop: asyncio.Event
) -> None:
    rng = random.Random(index)
    body = {"nickname": f"load{index}", "seats": ["person", args.level], "rules": args.rules}
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        reply = await http.post("/api/rooms", json=body)
    if reply.status_code != 201:
        tally.errors.append(f"create: {reply.status_code} {reply.text[:200]}")
        return
    ticket = reply.json()
    seat = ticket["seat"]
    address = url.replace("http", "ws", 1) + f"/ws/rooms/{ticket['room']}"
    async with websockets.connect(address, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "join", "token": ticket["token"]}))
        tally.open_matches += 1
        sent_at: float | None = None
        sent_card = ""
        turn: asyncio.Task[None] | None = None

        async def play_later(move: dict[str, Any]) -> None:
            nonlocal sent_at, sent_card
            await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
            sent_card = move["card"]
            sent_at = time.perf_counter()
            await ws.send(
                json.dumps({"type": "play", "card": move["card"], "captures": move["captures"]})
            )

        try:
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except TimeoutError:
                    continue
                message = json.loads(raw)
                kind = message["type"]
                if kind == "error":
                    tally.errors.append(f"{message['code']}: {message['message']}")
                    continue
                if kind != "state":
                    continue
                event = message.get("event")
                if event and event.get("kind") == "play":
                    if event["seat"] == seat and sent_at is not None and event["card"] == sent_card:
                        if tally.measuring:
                            tally.acks.append(time.perf_counter() - sent_at)
                            tally.person_moves += 1
                        sent_at = None
                    elif event["seat"] != seat and tally.measuring:
                        tally.computer_moves += 1
                match = message["match"]
                if match["over"]:
                    tally.finished += 1
                    await ws.send(json.dumps({"type": "rematch"}))
                elif (
                    match["to_move"] == seat
                    and match["legal"]
                    and sent_at is None
                    and (turn is None or turn.done())
                ):
                    turn = asyncio.create_task(play_later(rng.choice(match["legal"])))
        finally:
            tally.open_matches -= 1
            if turn is not None:
                turn.cancel()


async def run(url: str, args: argparse.Namespace, pid: int | None) -> dict[str, Any]:
    tally = Tally()
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    console = Console(stderr=True)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:.0f}/{task.total:.0f}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as progress:
        opening = progress.add_task("opening rooms", total=args.clients)
        for index in range(args.clients):
            tasks.append(asyncio.create_task(client(index, url, args, tally, stop)))
            progress.update(opening, completed=index + 1)
            await asyncio.sleep(1 / args.ramp)
        settling = progress.add_task("settling", total=args.settle)
        for second in range(args.settle):
            await asyncio.sleep(1)
            progress.update(settling, completed=second + 1)
        before = process_figures(pid) if pid else None
        tally.measuring = True
        started = time.perf_counter()
        held: list[int] = []
        measuring = progress.add_task("measuring", total=args.duration)
        for second in range(args.duration):
            await asyncio.sleep(1)
            held.append(tally.open_matches)
            progress.update(measuring, completed=second + 1)
        elapsed = time.perf_counter() - started
        tally.measuring = False
    after = process_figures(pid) if pid else None
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    acks = sorted(tally.acks)

    def percentile(q: float) -> float:
        return acks[min(len(acks) - 1, int(q * len(acks)))] * 1000 if acks else float("nan")

    result: dict[str, Any] = {
        "clients": args.clients,
        "think_seconds": args.think,
        "pace_seconds": args.pace,
        "level": args.level,
        "seconds": round(elapsed, 1),
        "matches_held_min": min(held),
        "matches_held_mean": round(statistics.mean(held), 1),
        "moves_per_second": round((tally.person_moves + tally.computer_moves) / elapsed, 1),
        "person_moves_per_second": round(tally.person_moves / elapsed, 1),
        "ack_ms_p50": round(percentile(0.50), 1),
        "ack_ms_p99": round(percentile(0.99), 1),
        "ack_ms_max": round(acks[-1] * 1000, 1) if acks else None,
        "matches_finished": tally.finished,
        "errors": len(tally.errors),
        "first_errors": tally.errors[:5],
    }
    if before and after:
        result["server_rss_mib"] = round(after[0], 1)
        result["server_peak_rss_mib"] = round(after[1], 1)
        result["server_cpu_percent"] = round(100 * (after[2] - before[2]) / elapsed, 1)
    return result


def show(result: dict[str, Any]) -> None:
    table = Table(title=f"{result['clients']} clients against '{result['level']}'")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in result.items():
        if key not in {"clients", "level", "first_errors"}:
            table.add_row(key.replace("_", " "), str(value))
    Console().print(table)
    for error in result["first_errors"]:
        print("error:", error)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--duration", type=int, default=60, help="seconds measured")
    parser.add_argument("--settle", type=int, default=10, help="seconds after the ramp")
    parser.add_argument("--ramp", type=float, default=50, help="rooms opened per second")
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds before a play")
    parser.add_argument("--pace", type=float, default=1.0, help="server's computer pace")
    parser.add_argument("--level", default="easy")
    parser.add_argument("--rules", default="escoba")
    parser.add_argument("--url", help="a running server (else one is started)")
    parser.add_argument("--database", help="database URL for the started server")
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a limit for the started server, over the generous ones given",
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
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    process = None
    url = args.url
    with tempfile.TemporaryDirectory() as folder:
        if url is None:
            database = args.database or f"sqlite:///{folder}/load.db"

            def command(port: int) -> list[str]:
                return server_command(
                    port,
                    database,
                    pace=args.pace,
                    limits=server_limits(args),
                    computer_workers=args.computer_workers,
                    gc_report=args.gc_report,
                    freeze_every=args.freeze_every,
                )

            process, port = start_server(command, subprocess.DEVNULL, None)
            url = f"http://127.0.0.1:{port}"
        try:
            result = asyncio.run(run(url, args, process.pid if process else None))
        finally:
            if process is not None:
                process.terminate()
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
    show(result)
    if args.gc_report and process is not None:
        pauses = read_report(args.gc_report)
        if pauses is None:
            print(f"error: the server wrote no report to {args.gc_report}")
        else:
            Console().print(pause_table(pauses, f"server pauses under {args.clients} clients"))
            print(pause_line(pauses))
            result["gc"] = pauses
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
