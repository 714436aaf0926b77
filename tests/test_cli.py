"""The ``escoba`` command (rules, simulate) and the modules behind it: cheatsheet, simulate."""

from __future__ import annotations

import dataclasses
import re

import pytest
import typer
from typer.testing import CliRunner

import escoba
from escoba import CATEGORIES, RULESETS, RulesError
from escoba.catalogue import text as catalogue_text
from escoba.cheatsheet import (
    OPTION_MEANINGS,
    PRESET_ORIGINS,
    category_label,
    cheat_sheet,
    cheat_sheet_lines,
    format_value,
    option_meaning,
    preset_origin,
    summary,
)
from escoba.cli import app, parse_settings
from escoba.rules import OPTION_NAMES
from escoba.scoring import categories_in_play
from escoba.simulate import SimulationSummary, simulate

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def assert_usage_error(args: list[str], *fragments: str) -> str:
    code, out, err = run(*args)
    assert code == 2, (code, out, err)
    assert out == ""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("Error: ")
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


# -- escoba rules ---------------------------------------------------------------------------------


def test_rules_without_preset_lists_the_presets_with_a_description() -> None:
    code, out, err = run("rules")
    assert code == 0, err
    for name, rules in RULESETS.items():
        line = next(line for line in out.splitlines() if f" {name} " in line)
        assert PRESET_ORIGINS[name] in line
        assert summary(rules) in line
    assert len(RULESETS) == 8


@pytest.mark.parametrize("language", ["fr", "pt-BR"])
def test_rules_speak_the_asked_language_in_every_column(language: str) -> None:
    code, out, err = run("rules", "--language", language)
    assert code == 0, err
    assert catalogue_text("rules.presets_title", language) in out
    for name in RULESETS:
        line = next(line for line in out.splitlines() if line.startswith(f"│ {name} "))
        assert preset_origin(name, language) in line
        assert preset_origin(name, language) != preset_origin(name)
    code, out, err = run("rules", "scopa", "--language", language)
    assert code == 0, err
    assert catalogue_text("rules.options_title", language, title="scopa") in out
    for name in RULESETS["scopa"].to_dict():
        row = next(line for line in out.splitlines() if f" {name} " in line)
        assert option_meaning(name, language) in row


def test_rules_scopa_prints_every_option_and_the_cheat_sheet() -> None:
    code, out, err = run("rules", "scopa")
    assert code == 0, err
    assert err == ""
    assert "Rules: scopa" in out
    for name, value in RULESETS["scopa"].to_dict().items():
        row = next(line for line in out.splitlines() if f" {name} " in line)
        assert format_value(value) in row
        assert OPTION_MEANINGS[name] in row
    assert "Single-card priority" in out
    assert "never a sum" in out
    assert "11 or more points" in out
    assert "Primiera" in out
    assert "7=21 6=18 A=16 5=15 4=14 3=13 2=12 face=10" in out
    assert "does not count" in out  # the last-card sweep
    assert "Kings redeal" in out
    assert "Setenta" not in out


def test_rules_marks_the_options_that_differ_from_escoba() -> None:
    code, out, _ = run("rules", "scopa")
    assert code == 0
    differing = set(RULESETS["scopa"].differences(RULESETS["escoba"]))
    for name in OPTION_NAMES:
        row = next(line for line in out.splitlines() if f" {name} " in line)
        assert (f"* {name}" in row) == (name in differing), row
    code, out, _ = run("rules", "escoba")
    assert code == 0
    assert not any(f"* {name}" in out for name in OPTION_NAMES)


def test_rules_escoba_cheat_sheet_has_the_escoba_specifics() -> None:
    code, out, _ = run("rules", "escoba")
    assert code == 0
    assert "make exactly 15" in out
    assert "Forced capture" in out
    assert "counts too" in out  # sweep with the last card
    assert "Initial table" in out
    assert "7 > 6 > A > 5 > 4 > 3 > 2 > faces" in out
    assert "21 or more points" in out
    assert "Single-card priority" not in out


def test_rules_with_set_options() -> None:
    code, out, err = run("rules", "escoba", "--set", "target_score=15", "--set", "big_wins=true")
    assert code == 0, err
    assert "escoba with big_wins=true, target_score=15" in out
    assert "15 or more points" in out
    assert "2 with 30 or more" in out
    assert "All four sevens: 1 point more" in out
    code, out, _ = run("rules", "escoba", "-s", "sevens=sevens")
    assert code == 0
    assert "(the escoba-fournier preset)" in out
    assert "Most sevens: 1." in out


def test_rules_set_without_preset_changes_the_base() -> None:
    code, out, _ = run("rules", "--set", "win_by=2")
    assert code == 0
    assert "Rules: escoba with win_by=2" in out
    assert "by at least 2" in out


def test_rules_unknown_preset_names_it_and_lists_the_valid_ones() -> None:
    line = assert_usage_error(["rules", "nope"], "'nope'")
    for name in RULESETS:
        assert name in line


@pytest.mark.parametrize(
    ("setting", "fragment"),
    [
        ("target_score=abc", "target_score: must be a whole number from 1 to 1000, got 'abc'"),
        ("target_score=0", "target_score"),
        ("big_wins=maybe", "big_wins: must be true or false"),
        ("sevens=most", "sevens: 'most' is not one of"),
        ("colour=red", "unknown rule option 'colour'"),
        ("big_wins", "OPTION=VALUE"),
        ("=3", "OPTION=VALUE"),
    ],
)
def test_rules_bad_set_gives_the_engine_message(setting: str, fragment: str) -> None:
    assert_usage_error(["rules", "escoba", "--set", setting], fragment)


def test_rules_nonsense_combination_is_refused() -> None:
    assert_usage_error(
        ["rules", "scopa", "--set", "initial_table_sweeps=true"], "initial_table_sweeps"
    )


def test_parse_settings_types() -> None:
    assert parse_settings(["a=true", "b=False", "c=on", "d=no", "e=12", "f=-1", "g=primiera"]) == {
        "a": True,
        "b": False,
        "c": True,
        "d": False,
        "e": 12,
        "f": -1,
        "g": "primiera",
    }
    assert parse_settings([" win-by = 2 "]) == {"win_by": 2}
    with pytest.raises(ValueError, match="OPTION=VALUE"):
        parse_settings(["target_score"])


# -- escoba simulate ------------------------------------------------------------------------------


def test_simulate_prints_a_table_with_the_categories() -> None:
    code, out, err = run("simulate", "--games", "5", "--rules", "escova", "--players", "3")
    assert code == 0, err
    assert "5 matches of escova, 3 players" in out
    # Only the categories escova scores: no sevens category, no re bello or napola rows.
    shown = categories_in_play(RULESETS["escova"])
    for category in CATEGORIES:
        assert (category_label(category, RULESETS["escova"]) in out) == (category in shown)
    for text in ("total", "first player's edge", "hands", "opener of hand 1 wins"):
        assert text in out
    for seat in range(3):
        assert f"seat {seat} wins" in out
    assert "simulating" not in out  # the progress bar never reaches stdout


def test_simulate_partnerships() -> None:
    code, out, err = run("simulate", "-n", "3", "--players", "4", "--partnerships", "--seed", "5")
    assert code == 0, err
    assert "4 players in partnerships" in out
    assert "seats 0+2 win" in out
    assert "seats 1+3 win" in out


def test_simulate_is_reproducible_and_takes_set_options() -> None:
    args = ["simulate", "-n", "4", "-r", "scopa", "--seed", "9", "--set", "target_score=5"]
    first = run(*args)
    assert first[0] == 0, first[2]
    assert "scopa with target_score=5" in first[1]
    assert run(*args) == first


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--players", "5"], ("--players", "2, 3 or 4", "5")),
        (["--players", "1"], ("--players",)),
        (["--partnerships"], ("--partnerships", "4", "2")),
        (["--players", "3", "--partnerships"], ("--partnerships", "3")),
        (["--games", "0"], ("--games", "0")),
        (["--games", "lots"], ("--games",)),
        (["--rules", "nope"], ("'nope'", "escoba-fournier")),
        (["--set", "target_score=-1"], ("target_score",)),
        (["--colour"], ("--colour",)),
    ],
)
def test_simulate_bad_arguments_give_one_line_errors(
    args: list[str], fragments: tuple[str, ...]
) -> None:
    assert_usage_error(["simulate", "-n", "2", *args], *fragments)


# -- the command itself ---------------------------------------------------------------------------


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0
    assert out.strip() == f"escoba {escoba.__version__}"


@pytest.mark.parametrize("args", [["--help"], ["-h"], []])
def test_help_lists_the_commands(args: list[str]) -> None:
    code, out, _ = run(*args)
    assert code == 0
    assert "rules" in out
    assert "simulate" in out


def test_subcommand_help() -> None:
    code, out, _ = run("simulate", "--help")
    assert code == 0
    for option in ("--games", "--rules", "--players", "--partnerships", "--seed", "--set"):
        assert option in out


def test_unknown_command() -> None:
    assert_usage_error(["deal"], "deal")


# -- cheatsheet.py --------------------------------------------------------------------------------


def test_every_option_and_preset_is_described() -> None:
    assert set(OPTION_MEANINGS) == set(OPTION_NAMES)
    assert set(PRESET_ORIGINS) == set(RULESETS)


@pytest.mark.parametrize("name", list(RULESETS))
def test_cheat_sheet_fits_one_screen(name: str) -> None:
    rules = RULESETS[name]
    for variant in (rules, rules.replace(big_wins=True, win_by=2, forced_capture=False)):
        lines = cheat_sheet_lines(variant)
        assert len(lines) <= 30
        assert all(len(line) <= 160 and "\n" not in line for line in lines)
        assert cheat_sheet_lines(variant) == lines  # pure
        assert "\n" not in summary(variant)


def test_cheat_sheet_sections() -> None:
    titles = [section.title for section in cheat_sheet(RULESETS["escoba"])]
    assert titles == [
        "Taking cards",
        "Sweeps",
        "Dealing",
        "Scoring each hand",
        "Winning: first to 21",
    ]


def test_cheat_sheet_scoring_follows_the_options() -> None:
    def text(**changes: object) -> str:
        return "\n".join(cheat_sheet_lines(RULESETS["escoba"].replace(**changes)))

    base = text()
    assert "Most cards: 1." in base
    assert "Most coins: 1." in base
    assert "All four sevens" not in base
    assert "2 with all 10 coins" in text(all_coins_two=True)
    assert "All four sevens: 2 points more." in text(all_sevens_bonus=2)
    assert "Most sevens: 1." in text(sevens="sevens")
    assert "No sevens category." in text(sevens="none")
    assert "cannot win it" in text(sevens="primiera", primiera_needs_all_suits=True)
    assert "a missing suit adds 0" in text(sevens="primiera")
    assert "Capture is optional" in text(forced_capture=False)
    assert "No initial-table sweeps" in text(initial_table_sweeps=False)
    assert "does not count" in text(last_play_sweep_counts=False)


def test_cheat_sheet_escova_and_classic() -> None:
    escova = "\n".join(cheat_sheet_lines(RULESETS["escova"]))
    assert "No sevens category." in escova
    assert "Most coins: 1 (2 with all 10 coins)." in escova
    assert "31 or more points" in escova
    classic = "\n".join(cheat_sheet_lines(RULESETS["escoba-classic"]))
    assert "Most sevens: 1." in classic
    assert "All four sevens: 1 point more." in classic


def test_summaries() -> None:
    assert summary(RULESETS["escoba"]) == "sum to 15, setenta, to 21"
    assert summary(RULESETS["escoba"].replace(win_by=2, big_wins=True)) == (
        "sum to 15, setenta, big wins, to 21 by 2"
    )
    assert len({summary(rules) for rules in RULESETS.values()}) == len(RULESETS)


# -- simulate.py ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def escoba_summary() -> SimulationSummary:
    return simulate(RULESETS["escoba"], matches=20, seed=11)


def test_simulation_means_are_consistent(escoba_summary: SimulationSummary) -> None:
    s = escoba_summary
    assert s.matches == 20
    assert s.hands >= 20
    assert s.mean_hands_per_match == pytest.approx(s.hands / s.matches)
    assert tuple(s.category_means) == CATEGORIES
    assert s.mean_points_per_hand == pytest.approx(sum(s.category_means.values()))
    assert s.mean_sweeps_per_hand == pytest.approx(s.category_means["sweeps"])
    assert 0 <= s.category_means["seven_of_coins"] <= 1
    assert 0 <= s.category_means["cards"] <= 2  # big_wins is off: at most 1, ties give 0
    assert s.category_means["all_sevens"] == 0
    assert sum(s.win_share) == pytest.approx(1)
    assert len(s.win_share) == len(s.sides) == 2
    assert 0 <= s.opener_win_rate <= 1
    assert s.first_player_edge == pytest.approx(s.opener_points_per_hand - s.dealer_points_per_hand)
    assert s.fair_share == 0.5
    # every hand hands out at least the seven of coins (almost always), so points > 0
    assert s.mean_points_per_hand > 1


def test_simulation_same_seed_same_summary(escoba_summary: SimulationSummary) -> None:
    again = simulate(RULESETS["escoba"], matches=20, seed=11)
    assert again == escoba_summary
    other = simulate(RULESETS["escoba"], matches=20, seed=12)
    assert other != escoba_summary


def test_simulation_summary_is_frozen(escoba_summary: SimulationSummary) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        escoba_summary.matches = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        escoba_summary.category_means["cards"] = 0.0  # type: ignore[index]


def test_escova_has_no_sevens_points() -> None:
    s = simulate(RULESETS["escova"], matches=5, players=3, seed=2)
    assert s.category_means["sevens"] == 0
    assert s.category_means["all_sevens"] == 0
    assert len(s.sides) == 3
    assert s.fair_share == pytest.approx(1 / 3)


def test_simulation_with_partnerships_and_bonuses() -> None:
    rules = RULESETS["escoba-classic"].replace(target_score=5)
    s = simulate(rules, matches=30, players=4, partnerships=True, seed=4)
    assert s.sides == ((0, 2), (1, 3))
    assert len(s.win_share) == 2
    assert s.category_means["sevens"] > 0
    assert s.mean_points_per_hand == pytest.approx(sum(s.category_means.values()))


def test_simulation_progress_callback_once_per_match() -> None:
    seen: list[int] = []
    simulate(RULESETS["scopa"], matches=4, seed=0, on_match=seen.append)
    assert seen == [1, 2, 3, 4]


def test_simulation_bad_arguments() -> None:
    with pytest.raises(ValueError, match="matches"):
        simulate(RULESETS["escoba"], matches=0)
    with pytest.raises(RulesError, match="players"):
        simulate(RULESETS["escoba"], matches=1, players=5)
    with pytest.raises(RulesError, match="partnerships"):
        simulate(RULESETS["escoba"], matches=1, players=2, partnerships=True)


COMMANDS = ["rules", "simulate", "arena", "serve", "play", "replay", "learn", "admin"]


def help_text(*command: str, columns: int = 80) -> str:
    """A command's --help as a person reads it: the box drawing gone, the lines joined."""
    narrow = CliRunner(env={"COLUMNS": str(columns), "NO_COLOR": "1"})
    result = narrow.invoke(app, [*command, "--help"])
    assert result.exit_code == 0, result.output
    text = re.sub(r"[│╭╮╰╯─]", " ", result.output)
    return " ".join(text.split())


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_each_docstring_as_flowing_text_without_markup(command: str) -> None:
    """Every command's help: no reStructuredText backquotes, and its summary as one paragraph
    broken only where the terminal's width ends a line (the source's line breaks gone)."""
    narrow = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})
    output = narrow.invoke(app, [command, "--help"]).output
    assert "``" not in output and "`" not in output
    written = typer.main.get_command(app).commands[command].help  # type: ignore[attr-defined]
    assert written
    summary = " ".join(written.split("\n\n")[0].split()).replace("``", "")
    assert summary in help_text(command, columns=100)
    # A line of the box is as wide as the terminal unless its paragraph ends there.
    inner = [line for line in output.splitlines() if line.startswith(" ") and line.strip()]
    assert all(len(line) <= 100 for line in inner)


@pytest.mark.parametrize("command", ["play", "rules"])
def test_help_names_every_preset_scopone_included(command: str) -> None:
    text = help_text(command)
    for name in RULESETS:
        assert name in text, (command, name)
