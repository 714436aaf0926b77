"""The benchmarks' own logic, small: the capacity search of benchmarks/capacity.py, the
match equity of benchmarks/match_play.py and a short run of benchmarks/lobby.py (their long
runs stay in benchmarks/)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from escoba import RULESETS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from capacity import capacity, next_clients, shortfalls
from match_play import Equity

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def search(
    holds_up_to: int, *, start: int = 20, fails: int | None = None, precision: float = 0.15
) -> dict[int, bool]:
    held: dict[int, bool] = {} if fails is None else {fails: False}
    while (clients := next_clients(held, start=start, most=4000, precision=precision)) is not None:
        assert clients not in held, "no count is tried twice"
        held[clients] = clients <= holds_up_to
    return held


@pytest.mark.parametrize("holds_up_to", [0, 3, 19, 20, 137, 1000, 5000])
def test_the_capacity_search_brackets_what_a_server_holds(holds_up_to: int) -> None:
    """Doubling then bisecting ends with the most clients that held, within 15% of the least
    that did not (or at --most when everything held)."""
    held = search(holds_up_to)
    found = capacity(held)
    assert found == min(holds_up_to, 4000) or found <= holds_up_to < found * 1.15 + 1
    failed = [clients for clients, ok in held.items() if not ok]
    if holds_up_to < 4000:
        assert min(failed) <= max(found * 1.15, found + 1)
    assert len(held) <= 14


def test_a_known_failure_starts_the_bisection_below_it() -> None:
    held = search(118, start=112, fails=125, precision=0.03)
    assert min(held) == 112 and capacity(held) == 118


def test_a_run_holds_only_with_prompt_acks_replies_in_pace_and_no_error() -> None:
    run = {"errors": 0, "ack_ms_p99": 9.0, "computer_reply_s_p99": 1.04, "level": "hard"}
    assert shortfalls(run, ack_ms=100, pace=1.0, reply_slack=0.1) == []
    late = {**run, "computer_reply_s_p99": 1.2}
    assert shortfalls(late, ack_ms=100, pace=1.0, reply_slack=0.1) == ["reply p99 1.2 s"]
    slow = {**run, "ack_ms_p99": 140.0, "errors": 2}
    assert shortfalls(slow, ack_ms=100, pace=1.0, reply_slack=0.1) == [
        "2 errors",
        "ack p99 140 ms",
    ]


# Hands of Scopa as two equal players end (points of one side, of the other): made up, but
# with the shape of real ones (the 7 of coins always scores, so no hand is 0-0).
SCOPA_HANDS = {(3, 1): 0.3, (1, 3): 0.3, (2, 2): 0.2, (4, 0): 0.1, (0, 4): 0.1}


def test_match_equity_is_a_chance_that_respects_the_score() -> None:
    """From the rules of winning the match (docs/rules.md, "Winning the match": the target,
    then a lead of win_by): even at an even score, near one at 10-0 in a match to 11, the
    two sides' chances sum to one, and a side that has reached the target without the lead
    plays on."""
    equity = Equity(SCOPA_HANDS, RULESETS["scopa"])
    assert equity.before_hand(0, 0) == pytest.approx(0.5)
    assert equity.before_hand(5, 5) == pytest.approx(0.5)
    assert equity.before_hand(10, 0) > 0.95
    for mine, theirs in [(0, 0), (3, 7), (9, 10), (10, 10), (12, 12)]:
        total = equity.before_hand(mine, theirs) + equity.before_hand(theirs, mine)
        assert total == pytest.approx(1.0)
    assert equity.winner(11, 10) == 0 and equity.winner(11, 11) is None
    assert equity.winner(12, 13) == 1


def test_a_margin_is_worth_most_where_the_match_turns_on_it() -> None:
    """At 9-10 in a match to 11, a hand won 3-1 wins the match (12-11) and one lost loses it;
    at 0-0 the same margins move the chance far less. The worth of a margin rises with it."""
    equity = Equity(SCOPA_HANDS, RULESETS["scopa"])
    late = equity.of_margin(9, 10)
    early = equity.of_margin(0, 0)
    assert late(2) > 0.99 and late(-2) < 0.01
    assert 0 < early(2) - early(-2) < 0.5 < late(2) - late(-2)
    values = [late(margin / 2) for margin in range(-8, 9)]
    assert values == sorted(values)


@pytest.mark.slow
def test_a_small_lobby_load_pairs_everyone_once_and_shows_every_table(tmp_path: Path) -> None:
    """benchmarks/lobby.py, small: 12 people seeking over 3 s and 12 lobby watchers while
    tables open and close, on one server: everyone paired exactly once, every watcher shown
    every table come and go, and the figures written."""
    figures = tmp_path / "lobby.json"
    command = [sys.executable, "lobby.py", "--players", "12", "--seconds", "3"]
    command += ["--watchers", "12", "--hold", "1", "--settle", "1", "--json", str(figures)]
    done = subprocess.run(
        command, cwd=BENCHMARKS, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    (run,) = json.loads(figures.read_text())
    assert (run["players"], run["paired"], run["paired_twice"], run["unpaired"]) == (12, 12, 0, 0)
    assert run["pairing_s"]["count"] == 12 and run["pairing_s"]["p99"] < 1.0
    assert run["tables"] >= 2 and run["missed"] == 0
    assert run["listed_s"]["count"] == 12 * run["tables"] and run["errors"] == []
    assert "pairing delay" in done.stdout
