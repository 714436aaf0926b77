"""The analysis in the terminal (issue "Learn from every match", deliverable 2): ``escoba
replay FILE --analyse`` in plain lines and full screen, in the reader's language and deck."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from escoba import RULESETS, Game
from escoba.ai.analysis import Analyst, MatchAnalysis, positions
from escoba.cli import app
from escoba.play.analysis import analyse_game, lead_chart, lead_sparkline

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})
BUDGET = 300


def played_out(seed: int, preset: str = "escoba", players: int = 2) -> Game:
    game = Game(RULESETS[preset], players=players, seed=seed)
    rng = random.Random(seed)
    while game.to_move is not None:
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.fixture(scope="module")
def match() -> tuple[Game, MatchAnalysis]:
    game = played_out(4)
    return game, analyse_game(game, BUDGET)


def test_the_chart_shows_who_leads_and_marks_the_costly_moves(
    match: tuple[Game, MatchAnalysis],
) -> None:
    game, analysis = match
    rows = lead_chart(analysis, width=40, height=9)
    assert len(rows) == 10  # nine rows of bars and the marks under them
    top, bottom, marks = rows[0], rows[8], rows[-1]
    final = game.totals[0] - game.totals[1]
    # The last column stands on the side of the final score.
    last = len(rows[4].rstrip()) - 1
    above = any(len(r) > last and r[last] == "█" for r in rows[:4])
    below = any(len(r) > last and r[last] == "█" for r in rows[5:9])
    assert above == (final > 0) and below == (final < 0)
    assert top.lstrip().startswith("+") and bottom.lstrip().startswith("-")
    costly = analysis.costly()
    assert costly and set(marks.strip()) <= {"·", "?", "!", " "}
    assert len(marks.replace(" ", "")) >= 1
    line, columns = lead_sparkline(analysis, width=30)
    assert len(line) == 30 and len(columns) == len(analysis.moves)
    assert columns[0] == 0 and columns[-1] == 29


def test_three_sides_have_no_chart() -> None:
    game = played_out(2, players=3)
    analyst = Analyst(budget=BUDGET, min_deals=2)
    first = positions(game.record())[:6]
    analysis = MatchAnalysis(3, tuple(analyst.analyse_position(p) for p in first))
    assert all(m.lead is None for m in analysis.moves)
    assert lead_chart(analysis) == []
    assert lead_sparkline(analysis) == ("", [])


@pytest.mark.slow
def test_replay_analyse_in_plain_lines_in_spanish(tmp_path: Path) -> None:
    game = played_out(4)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(game.record()))
    args = ["replay", str(path), "--plain", "--analyse", "--analysis-budget", str(BUDGET)]
    result = runner.invoke(app, [*args, "--language", "es", "--deck", "spanish"])
    assert result.exit_code == 0, result.output
    shown = result.stdout
    analysis = analyse_game(game, BUDGET)
    assert "Análisis de la partida" in shown
    for seat in (0, 1):
        accuracy = analysis.accuracy(seat)
        assert accuracy is not None
        assert f"puesto {seat + 1}: precisión {accuracy:.0f};" in shown
    costly = analysis.costly()
    assert shown.count("    Cuesta unos ") == len(costly)
    first = costly[0]
    assert f"Mano {first.hand_number + 1}, puesto {first.seat + 1}:" in shown
    assert " de " in first.explanation("es", "spanish")  # "3 de espadas"
    assert first.explanation("es", "spanish") in shown
    assert "Ventaja esperada de puesto 1" in shown


def test_the_analysis_budget_is_checked(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(played_out(1).record()))
    result = runner.invoke(app, ["replay", str(path), "--analyse", "--analysis-budget", "5"])
    assert result.exit_code == 2
    assert "--analysis-budget" in result.output


@pytest.mark.slow
def test_full_screen_replay_shows_each_moves_analysis(
    match: tuple[Game, MatchAnalysis],
) -> None:
    pytest.importorskip("textual")
    from escoba.tui import ReplayApp
    from escoba.tui.widgets import plain_text

    game, analysis = match
    costly = analysis.costly()[0]
    viewer = ReplayApp(game, [None, None], None, "italian", "it", analysis)

    async def main() -> None:
        async with viewer.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            step = next(i for i, m in viewer.analysed.items() if m is costly)
            viewer.action_go(step)
            await pilot.pause()
            from textual.widgets import Static

            shown = plain_text(viewer.query_one("#analysis", Static))
            assert "Precisione:" in shown
            name = {"inaccuracy": "imprecisione", "mistake": "errore", "blunder": "errore grave"}
            assert f"Analisi: {name[costly.judgement]}." in shown
            assert costly.explanation("it", "italian") in shown
            assert "▲" in shown
            widget = viewer.query_one("#analysis", Static)
            assert widget.region.bottom <= 24  # in view on an 80x24 terminal
            best = next(i for i, m in viewer.analysed.items() if m.judgement == "best")
            viewer.action_go(best)
            await pilot.pause()
            shown = plain_text(viewer.query_one("#analysis", Static))
            assert "Analisi: la giocata migliore." in shown
            assert "Costa" not in shown

    asyncio.run(main())
    # Every move that stood has its step, in order.
    assert list(viewer.analysed.values()) == list(analysis.moves)
