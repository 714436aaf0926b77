"""The cycle collector's pauses in a running server: `escoba serve`, in this process, with
every collection timed.

    python benchmarks/gc_pauses.py --port 8000 --pace 0 --report pauses.json

serves the web game as `escoba serve` does (the same app, uvicorn configuration and limits:
``--database``, ``--pace``, ``--limit NAME=VALUE``, ``--computer-workers``) while
``gc.callbacks`` records the generation and duration of every collection from the moment
the server is ready. On SIGTERM or SIGINT it shuts down as the server does and writes a JSON
summary to ``--report``: collections and pause times (50th and 99th percentile, longest,
total) for each generation and in all, the seconds measured, the objects frozen and the
server's resident memory at the end. ``--freeze-every SECONDS`` also calls ``gc.freeze()``
that often, as the server used to (every 30 s), for an A/B comparison; 0 leaves it to the
server (one freeze at start).

load.py and soak.py start the server through this script with ``--gc-report PATH``, so the
pauses are measured under their load; :func:`server_command` builds either command line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import json
import math
import os
import signal
import socket
import subprocess
import sys
import time
from array import array
from collections.abc import Callable, Mapping
from pathlib import Path
from types import FrameType
from typing import IO, Any

import httpx
from rich.table import Table

GENERATIONS = 3
SCRIPT = Path(__file__).resolve()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def listens_on(pid: int, port: int) -> bool:
    """Whether process ``pid`` itself listens on 127.0.0.1:``port`` (not another one that
    took the port first)."""
    inodes = set()
    for entry in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(entry)
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, state, inode = fields[1], fields[3], fields[9]
        if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port and inode in inodes:
            return True
    return False


def start_server(
    command: Callable[[int], list[str]],
    stdout: IO[bytes] | int | None,
    stderr: IO[bytes] | int | None,
) -> tuple[subprocess.Popen[bytes], int]:
    """Start ``command(port)`` on a free port and wait until it answers. A port is free when
    chosen, but another process may take it before the server binds it: then the server
    ends, and it is started again on another port."""
    for _attempt in range(5):
        port = free_port()
        process = subprocess.Popen(command(port), stdout=stdout, stderr=stderr)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            if listens_on(process.pid, port):
                with contextlib.suppress(httpx.HTTPError):
                    reply = httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=2)
                    if reply.status_code == 200:
                        return process, port
            time.sleep(0.1)
        if process.poll() is None:
            process.kill()
        process.wait()
    raise SystemExit("the server did not start (see its output)")


def server_command(
    port: int,
    database: str,
    *,
    pace: float,
    limits: Mapping[str, float],
    computer_workers: int | None = None,
    gc_report: Path | None = None,
    freeze_every: float = 0.0,
) -> list[str]:
    """The command line of a server on 127.0.0.1:``port``: `escoba serve`, or this script
    when ``gc_report`` names where its pauses go."""
    if gc_report is None:
        command = [sys.executable, "-m", "escoba", "serve"]
    else:
        command = [sys.executable, str(SCRIPT), "--report", str(gc_report)]
        command += ["--freeze-every", f"{freeze_every:g}"]
    command += ["--port", str(port), "--pace", str(pace), "--database", database]
    for name, value in limits.items():
        number = int(value) if float(value).is_integer() else value
        command += ["--limit", f"{name}={number}"]
    if computer_workers is not None:
        command += ["--computer-workers", str(computer_workers)]
    return command


class Pauses:
    """Every collection's duration in seconds, by generation, once ``recording``."""

    def __init__(self) -> None:
        self.recording = False
        self.started_at = 0.0
        self.durations = [array("d") for _ in range(GENERATIONS)]
        self.collected = [0] * GENERATIONS
        self._began = 0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter_ns()
        elif self.recording and self._began:
            generation = info["generation"]
            self.durations[generation].append((time.perf_counter_ns() - self._began) / 1e9)
            self.collected[generation] += info.get("collected", 0)

    def start(self) -> None:
        self.started_at = time.monotonic()
        self.recording = True

    def summary(self) -> dict[str, Any]:
        every = sorted(value for values in self.durations for value in values)
        seconds = time.monotonic() - self.started_at if self.recording else 0.0
        result: dict[str, Any] = {
            "seconds": round(seconds, 1),
            "all": figures(every),
            "generations": {
                str(generation): {
                    **figures(sorted(values)),
                    "objects_collected": self.collected[generation],
                }
                for generation, values in enumerate(self.durations)
            },
            "pause_ms_per_second": round(1000 * sum(every) / seconds, 3) if seconds else None,
            "frozen_objects": gc.get_freeze_count(),
            "thresholds": list(gc.get_threshold()),
        }
        return result


def figures(ordered: list[float]) -> dict[str, Any]:
    """Count and pause times in milliseconds of sorted durations in seconds."""

    def quantile(q: float) -> float | None:
        if not ordered:
            return None
        return round(1000 * ordered[min(len(ordered) - 1, math.floor(q * len(ordered)))], 3)

    return {
        "count": len(ordered),
        "p50_ms": quantile(0.50),
        "p99_ms": quantile(0.99),
        "max_ms": round(1000 * ordered[-1], 3) if ordered else None,
        "total_ms": round(1000 * sum(ordered), 1),
    }


def pause_table(summary: Mapping[str, Any], title: str = "cycle collector pauses") -> Table:
    """A report's pauses as a table: a row per generation and one for all."""
    table = Table(title=title)
    for name in ("generation", "collections", "p50 ms", "p99 ms", "max ms", "total ms"):
        table.add_column(name, justify="left" if name == "generation" else "right")

    def row(name: str, item: Mapping[str, Any]) -> None:
        shown = [item["p50_ms"], item["p99_ms"], item["max_ms"]]
        table.add_row(
            name,
            str(item["count"]),
            *("-" if value is None else f"{value:.2f}" for value in shown),
            f"{item['total_ms']:.1f}",
        )

    for generation, item in summary["generations"].items():
        row(generation, item)
    row("all", summary["all"])
    return table


def pause_line(summary: Mapping[str, Any]) -> str:
    """What the table leaves out, in a sentence."""
    freeze = summary.get("freeze_every") or 0
    return (
        f"gc.freeze() {f'every {freeze:g} s' if freeze else 'once, at start'}; "
        f"{summary['seconds']:g} s measured, {summary['pause_ms_per_second']} ms of pauses a "
        f"second; {summary['frozen_objects']:,} objects frozen; server "
        f"{summary['rss_mib_at_end']} MiB at the end"
    )


def read_report(path: Path) -> dict[str, Any] | None:
    """A report written by a server that has ended, or None if there is none."""
    try:
        result: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return result


def resident_mib() -> float | None:
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return None


def parse_limits(items: list[str]) -> dict[str, float]:
    """``NAME=VALUE`` items as changes to the server's limits (whole numbers where the
    default is one), as `escoba serve --limit` takes them."""
    from escoba.server.config import DEFAULT_LIMITS

    defaults = dataclasses.asdict(DEFAULT_LIMITS)
    changes: dict[str, float] = {}
    for item in items:
        name, equals, text = item.partition("=")
        name = name.strip().lower().replace("-", "_")
        if not equals or name not in defaults:
            raise SystemExit(f"--limit: expected NAME=VALUE with one of {', '.join(defaults)}")
        value = float(text)
        changes[name] = int(value) if isinstance(defaults[name], int) else value
    return changes


def default_workers() -> int:
    """As `escoba serve`: one computer worker per core."""
    return max(1, len(os.sched_getaffinity(0)))


async def serve(args: argparse.Namespace, pauses: Pauses) -> None:
    import uvicorn

    from escoba.server.config import DEFAULT_LIMITS, Settings
    from escoba.server.http.app import create_app
    from escoba.server.http.transport import raise_open_files_limit, server_config

    changes = parse_limits(args.limit)
    if args.computer_workers is not None:
        changes["computer_workers"] = args.computer_workers
    changes.setdefault("computer_workers", default_workers())
    limits = DEFAULT_LIMITS.replace(**changes)
    database = args.database or f"sqlite:///{Path.cwd() / 'gc_pauses.db'}"
    application = create_app(Settings(database_url=database, pace=args.pace, limits=limits))
    raise_open_files_limit()
    server = uvicorn.Server(
        server_config(application, host=args.host, port=args.port, limits=limits)
    )
    serving = asyncio.create_task(server.serve())
    # Recorded from the moment the server answers: start-up's own collect and freeze excluded
    for _ in range(6000):
        if server.started or serving.done():
            break
        await asyncio.sleep(0.01)
    pauses.start()
    print(f"gc_pauses: serving at http://{args.host}:{args.port}/", flush=True)
    freezing: asyncio.Task[None] | None = None
    if args.freeze_every > 0:
        freezing = asyncio.create_task(freeze_every(args.freeze_every))
    try:
        await serving
    finally:
        if freezing is not None:
            freezing.cancel()


async def freeze_every(seconds: float) -> None:
    """The server's old habit: every ``seconds``, move whatever survives out of the
    collector's sight."""
    while True:
        gc.freeze()
        await asyncio.sleep(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--database", help="SQLAlchemy URL (default: gc_pauses.db here)")
    parser.add_argument("--pace", type=float, default=0.7, help="seconds per computer move")
    parser.add_argument(
        "--limit", action="append", default=[], metavar="NAME=VALUE", help="a server limit"
    )
    parser.add_argument("--computer-workers", type=int, metavar="N")
    parser.add_argument(
        "--freeze-every",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="also call gc.freeze() this often (0: never, as the server now does)",
    )
    parser.add_argument("--report", type=Path, required=True, help="where the JSON summary goes")
    args = parser.parse_args()

    pauses = Pauses()
    gc.callbacks.append(pauses)
    stopped_by: list[int] = []

    def stopped(number: int, _frame: FrameType | None) -> None:
        stopped_by.append(number)  # uvicorn raises its signal again once it has shut down

    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, stopped)
    try:
        asyncio.run(serve(args, pauses))
    finally:
        gc.callbacks.remove(pauses)
        summary = pauses.summary()
        summary["freeze_every"] = args.freeze_every
        summary["rss_mib_at_end"] = resident_mib()
        summary["signal"] = signal.Signals(stopped_by[0]).name if stopped_by else None
        args.report.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
