"""Start-up with many stored rooms: how long the server takes to be ready when the database
holds thousands of abandoned matches and live ones.

    python benchmarks/startup.py --abandoned 30000 --live 1000

fills a fresh SQLite database (in a temporary folder) with ``--abandoned`` rooms whose
unfinished match nobody has played in for a month, ``--live`` rooms being played, and as many
finished ones, then starts the app (migrations; no room is loaded until someone comes back
to it) and times it until it answers, a few times over, then the first load of a live room.
It prints a table: the time to be ready, the live rooms' query (what a server that loaded
them all at start would have begun with) and the load of one room, and how many rooms the
started server holds.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fastapi.testclient import TestClient
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from sqlalchemy import insert, select

from escoba import Game, RuleSet
from escoba.server.config import Settings
from escoba.server.http.app import create_app
from escoba.server.storage.repository import MatchRow, RoomRow, SeatRow, Storage


def fill(storage: Storage, abandoned: int, live: int) -> None:
    """Abandoned rooms in bulk (a month old, no move), live ones through storage itself."""
    old = datetime.now(UTC) - timedelta(days=30)
    rules = RuleSet().to_dict()
    names = [f"gone{n:06}" for n in range(abandoned)]
    with storage.engine.begin() as connection:
        rows = [
            {"id": name, "created_at": old, "rules": rules, "players": 2, "partnerships": False}
            for name in names
        ]
        connection.execute(insert(RoomRow), rows)
        seats = [
            {"room_id": name, "seat": seat, "level": None} for name in names for seat in (0, 1)
        ]
        connection.execute(insert(SeatRow), seats)
        matches = [
            {
                "room_id": name,
                "number": 1,
                "seed": n,
                "first_dealer": 0,
                "created_at": old,
                "active_at": old,
            }
            for n, name in enumerate(names)
        ]
        connection.execute(insert(MatchRow), matches)
    for n in range(live):
        game = Game(RuleSet(), 2, seed=n)
        storage.create_room(f"live{n:04}", game, [None, "easy"], seed=n)


def live_rooms(storage: Storage, since: datetime) -> list[str]:
    """The rooms whose match is not over and was active since ``since``: the query a server
    that loaded every live room at start would have begun with."""
    with storage.engine.connect() as connection:
        return list(
            connection.scalars(
                select(MatchRow.room_id).where(
                    MatchRow.finished_at.is_(None), MatchRow.active_at >= since
                )
            )
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--abandoned", type=int, default=30_000)
    parser.add_argument("--live", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    console = Console()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'escoba.db'}"
        storage = Storage(url)
        storage.migrate()
        with console.status(f"storing {options.abandoned:,} abandoned rooms"):
            fill(storage, options.abandoned, options.live)
        since = datetime.now(UTC) - timedelta(days=7)
        query: list[float] = []
        for _ in range(options.runs):
            started = time.perf_counter()
            found = live_rooms(storage, since)
            query.append(time.perf_counter() - started)
        storage.close()
        ready: list[float] = []
        loads: list[float] = []
        held = 0
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("starting the server", total=options.runs)
            for run in range(options.runs):
                started = time.perf_counter()
                with TestClient(create_app(Settings(database_url=url, pace=0))) as client:
                    assert client.get("/api/presets").status_code == 200
                    ready.append(time.perf_counter() - started)
                    held = len(client.app.state.registry.rooms)  # type: ignore[attr-defined]
                    started = time.perf_counter()
                    room = found[run % len(found)] if found else None
                    if room is not None:
                        assert client.get(f"/api/rooms/{room}").status_code == 200
                        loads.append(time.perf_counter() - started)
                progress.advance(task)
    table = Table(
        title=f"start-up with {options.abandoned:,} abandoned and {options.live} live rooms"
    )
    for column in ("measure", "median", "max"):
        table.add_column(column, justify="right" if column != "measure" else "left")
    table.add_row(
        "live-rooms query",
        f"{statistics.median(query) * 1000:.1f} ms",
        f"{max(query) * 1000:.1f} ms",
    )
    table.add_row(
        "app ready (migrate, first answer)",
        f"{statistics.median(ready) * 1000:.0f} ms",
        f"{max(ready) * 1000:.0f} ms",
    )
    if loads:
        table.add_row(
            "a live room loaded when first asked for",
            f"{statistics.median(loads) * 1000:.1f} ms",
            f"{max(loads) * 1000:.1f} ms",
        )
    console.print(table)
    console.print(
        f"rooms in memory once started: {held} of {options.abandoned + options.live:,} stored"
    )


if __name__ == "__main__":
    main()
