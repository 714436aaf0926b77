"""How many matches against the computer one server holds: benchmarks/load.py run again and
again with more clients, until the server no longer keeps up.

    python benchmarks/capacity.py --level hard --think 1
    python benchmarks/capacity.py --level hard --think 1 --start 50 --most 4000 --duration 20

Each client plays one match against a computer seat of ``--level`` (a rematch follows each
match), so clients are matches held at once. A run *holds* when every move a person sent was
acknowledged within ``--ack-ms`` (100 ms) at the 99th percentile, the computer replied within
its pace at the 99th percentile (``--pace`` plus ``--reply-slack``, 0.1 s: the search and its
queue fit inside the pause a computer takes anyway) and nothing went wrong. The number of
clients doubles from ``--start`` while runs hold, then is bisected between the last run that
held and the first that did not, until they are within ``--precision`` (15%) of each other;
``--fails N`` starts the bisection below N clients, known from an earlier search not to hold;
every run starts a fresh server (one process, SQLite, the computer workers `escoba serve`
starts on this machine). The table shows each run; the last line, the capacity.

Every option of load.py applies to each run (``--pace``, ``--rules``, ``--computer-workers``,
``--limit`` ...). To compare servers, run it against each one's code, e.g. a worktree of an
older commit: ``PYTHONPATH=../old/src python benchmarks/capacity.py ...`` (the servers are
started with this Python and its path).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from load import PEOPLE, Site, arguments, measure


def shortfalls(
    result: Mapping[str, Any], *, ack_ms: float, pace: float, reply_slack: float
) -> list[str]:
    """Why a run did not hold (empty: it held)."""
    reasons = []
    if result["errors"]:
        reasons.append(f"{result['errors']} errors")
    if not result["ack_ms_p99"] < ack_ms:
        reasons.append(f"ack p99 {result['ack_ms_p99']:g} ms")
    reply = result["computer_reply_s_p99"]
    if result["level"] != PEOPLE and (reply is None or reply > pace + reply_slack):
        reasons.append(f"reply p99 {reply:g} s" if reply is not None else "no reply")
    return reasons


def capacity(held: Mapping[int, bool]) -> int:
    """The most clients a run held with (0: none)."""
    return max((clients for clients, ok in held.items() if ok), default=0)


def next_clients(
    held: Mapping[int, bool], *, start: int, most: int, precision: float
) -> int | None:
    """The number of clients to try next, given the runs so far (clients -> whether it held);
    None when the capacity is known (or ``most`` held)."""
    if start not in held:
        return start
    best = capacity(held)
    worst = min(
        (clients for clients, ok in held.items() if not ok and clients > best), default=None
    )
    if worst is None:
        return None if best >= most else min(most, 2 * best)
    if worst - best <= 1 or (best and worst / best <= 1 + precision):
        return None
    return (best + worst) // 2


def main() -> None:
    parser = arguments(__doc__.splitlines()[0])
    parser.set_defaults(level="hard", think=1.0, duration=20, settle=5, ramp=100)
    parser.add_argument("--start", type=int, default=20, help="clients of the first run")
    parser.add_argument("--most", type=int, default=4000, help="clients never tried beyond")
    parser.add_argument(
        "--fails", type=int, help="clients known not to hold (from an earlier search): bisect below"
    )
    parser.add_argument("--precision", type=float, default=0.15, help="bisect until this close")
    parser.add_argument("--ack-ms", type=float, default=100.0, help="ack p99 to stay under")
    parser.add_argument(
        "--reply-slack", type=float, default=0.1, help="seconds a reply may take past the pace"
    )
    args = parser.parse_args()
    if args.url or args.compare or args.processes != 1 or args.redis:
        parser.error("capacity starts one plain server for each run: no --url, --compare, site")
    if args.start < 1 or args.most < args.start:
        parser.error("--start: 1 or more, and --most at least --start")

    console = Console(width=max(Console().width, 110))
    held: dict[int, bool] = {}
    if args.fails is not None:
        if args.fails <= args.start:
            parser.error("--fails: more clients than --start")
        held[args.fails] = False  # a run of its own is not repeated
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="escoba-capacity-") as name:
        site = Site(Path(name), None, None, None)
        number = 0
        while (
            clients := next_clients(
                held, start=args.start, most=args.most, precision=args.precision
            )
        ) is not None:
            number += 1
            given = argparse.Namespace(**{**vars(args), "clients": clients})
            result = measure(number, 1, given, site)
            reasons = shortfalls(
                result, ack_ms=args.ack_ms, pace=args.pace, reply_slack=args.reply_slack
            )
            held[clients] = not reasons
            rows.append({**result, "held": not reasons, "shortfalls": reasons})
            verdict = "holds" if not reasons else "does not hold: " + ", ".join(reasons)
            console.print(f"{clients} matches against '{args.level}': {verdict}")

    table = Table(
        title=f"matches against '{args.level}' on one server (think {args.think:g} s,"
        f" pace {args.pace:g} s)"
    )
    for column in (
        "matches",
        "moves/s",
        "ack p50 / p99, ms",
        "reply p50 / p99, s",
        "server CPU, %",
        "workers' CPU, %",
        "verdict",
    ):
        table.add_column(column, justify="left" if column == "verdict" else "right")
    for row in sorted(rows, key=lambda row: row["clients"]):
        server = row["servers"][0] if row["servers"] else {}
        table.add_row(
            str(row["clients"]),
            f"{row['moves_per_second']:g}",
            f"{row['ack_ms_p50']:g} / {row['ack_ms_p99']:g}",
            f"{row['computer_reply_s_p50']} / {row['computer_reply_s_p99']}",
            f"{server.get('cpu_percent')}",
            f"{server.get('workers_cpu_percent')}",
            "holds" if row["held"] else ", ".join(row["shortfalls"]),
        )
    console.print(table)
    most = capacity(held)
    console.print(
        f"capacity: {most} matches against '{args.level}' at once"
        f" (ack p99 < {args.ack_ms:g} ms, reply p99 <= {args.pace + args.reply_slack:g} s)"
    )
    if args.json:
        args.json.write_text(json.dumps({"capacity": most, "runs": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
