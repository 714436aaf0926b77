"""The ``escoba`` command: ``escoba rules``, ``simulate``, ``arena``, ``play``, ``replay`` and
``serve``.

A typer app with one subcommand a job. This module only
parses arguments and renders with rich; the words come from :mod:`escoba.cheatsheet` and the
figures from :mod:`escoba.simulate` and :mod:`escoba.arena`.

Errors are one line on stderr, ``Error: ...``, with exit code 2 for bad arguments (including
bad rule options) and no traceback.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from . import __version__
from .ai import LEVELS
from .arena import ArenaGame, ArenaResult, Entrant, play_arena
from .cards import DECK_STYLES, DeckStyle
from .cheatsheet import (
    OPTION_MEANINGS,
    PRESET_ORIGINS,
    category_label,
    cheat_sheet,
    cheat_sheet_title,
    format_value,
    summary,
)
from .errors import EscobaError
from .messages import LANGUAGES
from .rules import RULESETS, RuleSet, preset_name
from .scoring import CATEGORIES
from .server.limits import DEFAULT_LIMITS, Limits
from .simulate import SimulationSummary, simulate

__all__ = ["app", "main", "parse_settings"]

BASE_PRESET = "escoba"
USAGE_ERROR = 2


def _click_exception_class() -> type[Exception]:
    """Click's ``ClickException``: typer vendors Click since 0.26 and re-exports only a few of
    its exceptions, but ``typer.BadParameter`` derives from it in every version."""
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == "ClickException":
            return cls
    return typer.BadParameter  # pragma: no cover - every typer so far has it


_ClickException = _click_exception_class()


class _OneLineErrors(TyperGroup):
    """The root command group; it prints every usage error as one line on stderr."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(
                args, prog_name, complete_var, standalone_mode, windows_expand_args, **extra
            )
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except typer.Abort:
            _echo_error("aborted")
            sys.exit(1)
        except _ClickException as error:
            message = str(getattr(error, "format_message", error.__str__)())
            context = getattr(error, "ctx", None)
            if context is not None and isinstance(getattr(context, "command_path", None), str):
                message += f" (see '{context.command_path} --help')"
            _echo_error(message)
            sys.exit(int(getattr(error, "exit_code", 1)))
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=_OneLineErrors,
    name="escoba",
    help="Escoba, Scopa and Escova: play against the computer, the rules, and the arena.",
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _echo_error(message: str) -> None:
    typer.echo(f"Error: {' '.join(message.split())}", err=True)


def _fail(message: str) -> NoReturn:
    _echo_error(message)
    raise typer.Exit(USAGE_ERROR)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"escoba {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Show the version and exit.",
            callback=_show_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    """Escoba, Scopa and Escova: play against the computer, the rules, and the arena."""
    if ctx.invoked_subcommand is None:
        help_text = ctx.get_help()  # rich prints the help itself and returns ""
        if help_text:
            typer.echo(help_text)


# -- rule options ------------------------------------------------------------------------------

SETTINGS_HELP = (
    "Change a rule option, e.g. --set target_score=15 --set big_wins=true (repeatable; "
    "true/false, whole numbers and words)."
)
Settings = Annotated[
    list[str] | None,
    typer.Option("--set", "-s", metavar="OPTION=VALUE", help=SETTINGS_HELP, show_default=False),
]
RulesOption = Annotated[
    str, typer.Option("--rules", "-r", metavar="PRESET", help=f"One of {', '.join(RULESETS)}.")
]
PlayersOption = Annotated[
    int, typer.Option("--players", "-p", help="Seats at the table: 2, 3 or 4.")
]


def _parse_value(text: str) -> bool | int | str:
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def parse_settings(settings: Sequence[str]) -> dict[str, bool | int | str]:
    """``["target_score=15", "big_wins=true"]`` -> ``{"target_score": 15, "big_wins": True}``.

    >>> parse_settings(["target_score=15", "big-wins=yes", "sevens=primiera"])
    {'target_score': 15, 'big_wins': True, 'sevens': 'primiera'}
    """
    changes: dict[str, bool | int | str] = {}
    for item in settings:
        name, equals, text = item.partition("=")
        name = name.strip().replace("-", "_")
        if not equals or not name:
            raise ValueError(f"--set: expected OPTION=VALUE (e.g. target_score=15), got {item!r}")
        changes[name] = _parse_value(text.strip())
    return changes


def _preset(name: str) -> RuleSet:
    rules = RULESETS.get(name.strip().lower())
    if rules is None:
        _fail(f"unknown preset {name!r}; the presets are: {', '.join(RULESETS)}")
    return rules


def _rules_from(preset: str, settings: Sequence[str] | None) -> RuleSet:
    rules = _preset(preset)
    try:
        return rules.replace(**parse_settings(settings or ()))
    except ValueError as error:  # RulesError, or a malformed --set
        _fail(str(error))


def _check_table(players: int, partnerships: bool) -> None:
    """Fail on a table the game cannot seat: 2 to 4 players, partnerships only with 4."""
    if players not in (2, 3, 4):
        _fail(f"--players: must be 2, 3 or 4, got {players}")
    if partnerships and players != 4:
        _fail(f"--partnerships: needs --players 4, got --players {players}")


def _title(preset: str, rules: RuleSet) -> str:
    base = RULESETS[preset]
    changed = rules.differences(base)
    if not changed:
        return preset
    title = f"{preset} with " + ", ".join(f"{k}={format_value(v)}" for k, v in changed.items())
    same = preset_name(rules)
    if same is not None:
        title += f" (the {same} preset)"
    return title


# -- escoba rules --------------------------------------------------------------------------------


@app.command("rules")
def rules_command(
    preset: Annotated[
        str | None,
        typer.Argument(
            metavar="PRESET",
            help=f"A preset: {', '.join(RULESETS)}. Leave it out to list them.",
            show_default=False,
        ),
    ] = None,
    settings: Settings = None,
    language: Annotated[
        str,
        typer.Option(
            "--language",
            metavar="LANG",
            help=f"Language of the cheat sheet and summaries: {', '.join(LANGUAGES)}.",
        ),
    ] = "en",
) -> None:
    """Show a rule set: every option, and a one-screen cheat sheet of how it plays."""
    lang = _language(language)
    console = Console()
    if preset is None and not settings:
        console.print(_presets_table(lang))
        console.print("Show one with: escoba rules NAME [--set OPTION=VALUE ...]", highlight=False)
        return
    name = BASE_PRESET if preset is None else preset.strip().lower()
    rules = _rules_from(name, settings)
    title = _title(name, rules)
    console.print(_options_table(title, rules))
    _print_cheat_sheet(console, title, rules, lang)


def _presets_table(language: str = "en") -> Table:
    table = Table(title="Rule sets", title_justify="left")
    table.add_column("preset", style="bold", no_wrap=True)
    table.add_column("game")
    table.add_column("in short")
    for name, rules in RULESETS.items():
        table.add_row(name, PRESET_ORIGINS.get(name, ""), summary(rules, language))
    return table


def _options_table(title: str, rules: RuleSet) -> Table:
    base = RULESETS[BASE_PRESET].to_dict()
    table = Table(
        title=f"Rules: {title}",
        title_justify="left",
        caption=f"* differs from the base {BASE_PRESET} rules",
        caption_justify="left",
        box=box.SIMPLE_HEAD,
    )
    table.add_column("option", no_wrap=True)
    table.add_column("value", no_wrap=True)
    table.add_column(BASE_PRESET, no_wrap=True, style="dim")
    table.add_column("meaning")
    for name, value in rules.to_dict().items():
        if value == base[name]:
            table.add_row(f"  {name}", format_value(value), "", OPTION_MEANINGS.get(name, ""))
        else:
            table.add_row(
                Text(f"* {name}", style="bold"),
                Text(format_value(value), style="bold yellow"),
                format_value(base[name]),
                OPTION_MEANINGS.get(name, ""),
            )
    return table


def _print_cheat_sheet(console: Console, title: str, rules: RuleSet, language: str) -> None:
    console.print()
    console.print(Text(cheat_sheet_title(title, language), style="bold underline"))
    for section in cheat_sheet(rules, language):
        console.print(Text(section.title, style="bold"))
        bullets = Table.grid(padding=(0, 1))
        bullets.add_column(no_wrap=True)
        bullets.add_column()
        for line in section.lines:
            bullets.add_row("  •", Text(line))
        console.print(bullets)


# -- escoba simulate -----------------------------------------------------------------------------


@app.command("simulate")
def simulate_command(
    games: Annotated[
        int, typer.Option("--games", "-n", help="Number of matches to play (1 or more).")
    ] = 1000,
    rules_name: RulesOption = BASE_PRESET,
    players: PlayersOption = 2,
    partnerships: Annotated[
        bool,
        typer.Option("--partnerships", help="With 4 players: seats 0+2 against 1+3."),
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the random play.")] = 0,
    settings: Settings = None,
) -> None:
    """Play random matches (every move a random legal one) and show what happens on average."""
    if games < 1:
        _fail(f"--games: must be 1 or more, got {games}")
    _check_table(players, partnerships)
    rules = _rules_from(rules_name.strip().lower(), settings)
    progress = _progress("simulating")
    with progress:
        task = progress.add_task("simulating", total=games)
        try:
            result = simulate(
                rules,
                matches=games,
                players=players,
                partnerships=partnerships,
                seed=seed,
                on_match=lambda done: progress.update(task, completed=done),
            )
        except EscobaError as error:
            _fail(str(error))
    title = _title(rules_name.strip().lower(), rules)
    Console().print(_simulation_table(title, result))


def _side_label(seats: tuple[int, ...]) -> str:
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + "+".join(map(str, seats))


def _simulation_table(title: str, result: SimulationSummary) -> Table:
    rules = result.rules
    setup = f"{result.players} players"
    if result.partnerships:
        setup += " in partnerships"
    table = Table(
        title=(
            f"Random play: {result.matches} matches of {title}, {setup}, seed {result.seed} "
            f"({result.hands} hands)"
        ),
        title_justify="left",
        box=box.SIMPLE_HEAD,
    )
    table.add_column("", no_wrap=True)
    table.add_column("mean", justify="right", no_wrap=True)
    table.add_column("meaning")
    notes = {
        "sevens": "" if rules.sevens != "none" else "no sevens category in these rules",
        "all_sevens": ""
        if rules.all_sevens_bonus or rules.big_wins
        else "no all-sevens bonus in these rules",
        "sweeps": "1 point each: also the sweeps per hand",
    }
    table.add_row(Text("points per hand", style="bold"), "", "all sides together")
    for category in CATEGORIES:
        table.add_row(
            f"  {category_label(category, rules)}",
            f"{result.category_means[category]:.2f}",
            notes.get(category, ""),
        )
    table.add_row(
        Text("  total", style="bold"),
        Text(f"{result.mean_points_per_hand:.2f}", style="bold"),
        "the sum of the categories",
        end_section=True,
    )
    table.add_row(
        Text("first player's edge", style="bold"),
        f"{result.first_player_edge:+.2f}",
        f"per hand: side playing first ({result.opener_points_per_hand:.2f}) minus "
        f"dealer's side ({result.dealer_points_per_hand:.2f}); > 0 favours playing first",
        end_section=True,
    )
    fair = f"fair share {result.fair_share:.1%}"
    table.add_row(Text("per match", style="bold"), "", "")
    table.add_row("  hands", f"{result.mean_hands_per_match:.2f}", "hands until a side wins")
    table.add_row(
        "  opener of hand 1 wins",
        f"{result.opener_win_rate:.1%}",
        f"the side that played first in the first hand ({fair})",
    )
    for seats, share in zip(result.sides, result.win_share, strict=True):
        verb = "wins" if len(seats) == 1 else "win"
        table.add_row(f"  {_side_label(seats)} {verb}", f"{share:.1%}", fair)
    return table


# -- escoba arena --------------------------------------------------------------------------------


@app.command("arena")
def arena_command(
    names: Annotated[
        list[str],
        typer.Argument(
            metavar="PLAYER...",
            help=(
                "Computer levels, one per seat (e.g. beginner easy), or OpenSpiel's searchers "
                "openspiel-ismcts and openspiel-mcts (which sees every hand; both need the "
                "openspiel extra). With --partnerships: 2 (one per side, playing both its "
                "seats) or 4 (one per seat: the 1st and 3rd against the 2nd and 4th)."
            ),
            show_default=False,
        ),
    ],
    hands: Annotated[
        int,
        typer.Option(
            "--hands", "-n", help="Duplicate hands: decks, each played in every seat rotation."
        ),
    ] = 200,
    rules_name: RulesOption = BASE_PRESET,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            help="Seats at the table: 2, 3 or 4 (default: one per PLAYER, 4 with --partnerships).",
            show_default=False,
        ),
    ] = None,
    partnerships: Annotated[
        bool,
        typer.Option("--partnerships", help="With 4 players: seats 0+2 against 1+3."),
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the decks and the players.")] = 0,
    json_file: Annotated[
        Path | None,
        typer.Option(
            "--json", metavar="FILE", help="Also write the figures to FILE as JSON.", dir_okay=False
        ),
    ] = None,
    simulations: Annotated[
        int,
        typer.Option(
            "--simulations", help="Budget of the openspiel-* players: simulations per move."
        ),
    ] = 100,
    rollouts: Annotated[
        int,
        typer.Option(
            "--rollouts", help="Random rollouts per leaf of the openspiel-* players' search."
        ),
    ] = 1,
    settings: Settings = None,
) -> None:
    """Play computer levels against each other on duplicate deals (every deck in every seat
    rotation, so the luck of the cards cancels) and compare them."""
    if hands < 1:
        _fail(f"--hands: must be 1 or more, got {hands}")
    if players is not None and players not in (2, 3, 4):
        _fail(f"--players: must be 2, 3 or 4, got {players}")
    seats = players if players is not None else (4 if partnerships else len(names))
    if partnerships and seats != 4:
        _fail(f"--partnerships: needs --players 4, got --players {seats}")
    if partnerships and len(names) not in (2, 4):
        _fail(
            f"--partnerships: give 2 players (one per side) or 4 (one per seat), "
            f"got {len(names)}: {' '.join(names)}"
        )
    if not partnerships and players is None and len(names) not in (2, 3, 4):
        _fail(f"give 2, 3 or 4 PLAYERs, one per seat, got {len(names)}: {' '.join(names)}")
    if not partnerships and len(names) != seats:
        _fail(f"--players {seats}: give one PLAYER per seat, got {len(names)}: {' '.join(names)}")
    rules = _rules_from(rules_name.strip().lower(), settings)
    entrants = _arena_entrants(names, simulations, rollouts)
    progress = _progress("arena")

    def advance(game: ArenaGame) -> None:
        progress.update(task, completed=game.number, total=game.total)

    with progress:
        task = progress.add_task("arena", total=None)
        try:
            result = play_arena(
                entrants,
                rules=rules,
                hands=hands,
                seats=seats,
                partnerships=partnerships,
                seed=seed,
                on_game=advance,
            )
        except EscobaError as error:
            _fail(str(error))
    if json_file is not None:
        try:
            json_file.write_text(json.dumps(result.to_json(), indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            _fail(f"--json: cannot write {json_file}: {error.strerror or error}")
    title = _title(rules_name.strip().lower(), rules)
    Console().print(_arena_table(title, result))


def _arena_entrants(names: list[str], simulations: int, rollouts: int) -> list[str | Entrant]:
    """Level names as they are; OpenSpiel's searchers made with their budgets."""
    if simulations < 1:
        _fail(f"--simulations: must be 1 or more, got {simulations}")
    if rollouts < 1:
        _fail(f"--rollouts: must be 1 or more, got {rollouts}")
    entrants: list[str | Entrant] = []
    for name in names:
        kind = name.strip().lower()
        if not kind.startswith("openspiel-"):
            entrants.append(name)
            continue
        try:
            from .openspiel.players import entrant
        except ImportError:
            _fail(f"{kind} needs the openspiel extra: pip install 'escoba[openspiel]'")
        try:
            entrants.append(entrant(kind, simulations=simulations, rollouts=rollouts))
        except EscobaError as error:
            _fail(str(error))
    return entrants


def _plus_minus(mean: float, ci: tuple[float, float], signed: bool = False) -> str:
    text = f"{mean:+.2f}" if signed else f"{mean:.2f}"
    half = (ci[1] - ci[0]) / 2
    return f"{text} ± {half:.2f}" if math.isfinite(half) else f"{text} ± ?"


def _progress(label: str) -> Progress:
    """A progress bar on standard error (stdout stays clean), shown only on a terminal."""
    errors = Console(stderr=True)
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=errors,
        transient=True,
        disable=not errors.is_terminal,
    )


def _arena_table(title: str, result: ArenaResult) -> Table:
    setup = f"{result.seats} players"
    if result.partnerships:
        setup += " in partnerships"
    table = Table(
        title=(
            f"Arena: {result.hands} duplicate hands of {title}, {setup}, {result.rotations} "
            f"seat rotations each ({result.games} hands played), seed {result.seed}, "
            f"{result.seconds:.1f} s"
        ),
        title_justify="left",
        caption=(
            "points and margin: per hand played, ± the 95% confidence interval over the duplicate "
            "hands; margin: own points minus the opponents' mean; W-D-L: duplicate hands won, "
            "drawn and lost, by points over all rotations; matches: each rotation's hands "
            f"chained into matches to {result.rules.target_score} ({result.matches} completed); "
            "Elo: difference to the average opponent, from the score rate, draws counting half"
        ),
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        expand=True,
    )
    table.add_column("player", style="bold", no_wrap=True)
    table.add_column("points/hand", justify="right", no_wrap=True)
    table.add_column("margin", justify="right", no_wrap=True)
    table.add_column("W-D-L", justify="right", no_wrap=True)
    table.add_column("matches", justify="right", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("Elo", justify="right", no_wrap=True)
    for index, name in enumerate(result.players):
        table.add_row(
            name,
            _plus_minus(result.mean_points[index], result.ci95[index]),
            _plus_minus(result.margin[index], result.margin_ci95[index], signed=True),
            f"{result.wins[index]}-{result.draws[index]}-{result.losses[index]}",
            str(result.match_wins[index]),
            f"{result.score_rate[index]:.0%}",
            f"{result.elo[index]:+.0f}",
        )
    return table


def main() -> None:
    """The ``escoba`` console script."""
    app()


# -- escoba serve --------------------------------------------------------------------------------

LIMIT_HELP = (
    "Change a server limit, e.g. --limit header_bytes=8192 --limit rooms_total=500 "
    "(repeatable; a positive number, seconds for times). The limits: "
    + ", ".join(item.name for item in dataclasses.fields(Limits))
    + "."
)


MAX_COMPUTER_WORKERS = 256
"""More worker processes than this is a typo, not a machine."""


def _default_workers() -> int:
    """One computer worker per core this process may run on, less one for the server."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


def _limit_value(name: str, text: str, default: float) -> float:
    """``text`` as a value of the limit ``name``: a whole number where the default is one."""
    cleaned = text.strip()
    if isinstance(default, int):
        try:
            return int(cleaned)
        except ValueError:
            _fail(f"--limit: {name}: must be a whole number, got {text!r}")
    try:
        value = float(cleaned)
    except ValueError:
        _fail(f"--limit: {name}: must be a number (of seconds), got {text!r}")
    if not math.isfinite(value):
        _fail(f"--limit: {name}: must be a finite number, got {text!r}")
    return value


def _server_limits(items: Sequence[str], computer_workers: int | None) -> Limits:
    """The :class:`Limits` of ``--limit NAME=VALUE`` options and ``--computer-workers``
    (which wins over ``--limit computer_workers=``)."""
    defaults: dict[str, float] = dataclasses.asdict(DEFAULT_LIMITS)
    changes: dict[str, float] = {}
    for item in items:
        name, equals, text = item.partition("=")
        name = name.strip().lower().replace("-", "_")
        if not equals or not name:
            _fail(f"--limit: expected NAME=VALUE (e.g. header_bytes=8192), got {item!r}")
        if name not in defaults:
            _fail(f"--limit: unknown limit {name!r}; the limits are: {', '.join(defaults)}")
        changes[name] = _limit_value(name, text, defaults[name])
    if computer_workers is not None:
        changes["computer_workers"] = computer_workers
    changes.setdefault("computer_workers", _default_workers())
    if changes["computer_workers"] > MAX_COMPUTER_WORKERS:
        _fail(f"--limit: computer_workers: at most {MAX_COMPUTER_WORKERS}")
    try:
        return DEFAULT_LIMITS.replace(**changes)
    except ValueError as error:
        _fail(f"--limit: {error}")


def _said(error: BaseException) -> str:
    """The first line of what failed, the driver's own words where SQLAlchemy wraps them."""
    cause = getattr(error, "orig", None)
    text = str(cause if isinstance(cause, BaseException) else error).strip()
    return text.splitlines()[0] if text else type(error).__name__


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every network).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(help="SQLAlchemy database URL; default SQLite in the user's data directory."),
    ] = None,
    pace: Annotated[
        float, typer.Option(min=0.0, max=10.0, help="Seconds before each computer move.")
    ] = 0.7,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            "--limit",
            metavar="NAME=VALUE",
            help=LIMIT_HELP,
            show_default=False,
        ),
    ] = None,
    computer_workers: Annotated[
        int | None,
        typer.Option(
            "--computer-workers",
            min=1,
            max=MAX_COMPUTER_WORKERS,
            metavar="N",
            help="Worker processes that think for computer seats and hints "
            "(default: the cores less one).",
            show_default=False,
        ),
    ] = None,
    origin: Annotated[
        list[str] | None,
        typer.Option(
            "--origin",
            metavar="URL",
            help="Another site whose pages may open this server's rooms, such as "
            "https://cards.example.org (repeatable; the server's own is always allowed).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Start the web game: open the printed address in a browser, create a room, play."""
    try:
        import uvicorn
        from sqlalchemy.engine import make_url

        from .server.app import create_app
        from .server.storage import default_database_url
        from .server.transport import raise_open_files_limit, server_config
    except ImportError as missing:
        _fail(
            f"the web game needs {missing.name!r}; install it with: "
            "python3 -m pip install 'escoba[web]'"
        )
    limits = _server_limits(limit or (), computer_workers)
    origins = [_origin(value) for value in origin or ()]
    url = database or default_database_url()
    try:
        hidden = make_url(url).render_as_string(hide_password=True)  # never print a password
    except Exception:
        _fail(f"--database: not a database URL such as sqlite:///path or postgresql://...: {url!r}")
    try:
        application = create_app(url, pace=pace, limits=limits, origins=origins)
        with application.state.storage.engine.connect():
            pass  # a database that cannot be reached is said now, not as a traceback later
        application.state.storage.migrate()  # and one that is not a database, or too new
    except Exception as error:  # a missing driver, a server that does not answer
        _fail(f"--database: cannot open {hidden}: {_said(error)}")
    files = raise_open_files_limit()
    if files is not None and files < limits.connections_total + 100:
        typer.echo(
            f"escoba: warning: at most {files} open files, fewer than "
            f"--limit connections_total={limits.connections_total} needs",
            err=True,
        )
    shown = "localhost" if host in {"127.0.0.1", "0.0.0.0"} else host
    typer.echo(f"escoba: playing at http://{shown}:{port}/  (database {hidden}; Ctrl+C stops)")
    uvicorn.Server(server_config(application, host=host, port=port, limits=limits)).run()


def _origin(value: str) -> str:
    """A web origin as browsers send it: scheme and host (and port), nothing more."""
    from urllib.parse import urlsplit

    parts = urlsplit(value.strip())
    if parts.scheme not in {"http", "https"} or not parts.netloc or parts.path not in {"", "/"}:
        _fail(f"--origin: not a web origin such as https://cards.example.org: {value!r}")
    return f"{parts.scheme}://{parts.netloc}".lower()


# -- escoba play and escoba replay ---------------------------------------------------------------


def _deck_style(name: str | None) -> DeckStyle | None:
    if name is None:
        return None
    chosen = name.strip().lower()
    for style in DECK_STYLES:
        if style == chosen:
            return style
    _fail(f"--deck: unknown deck {name!r}; choose one of {', '.join(DECK_STYLES)}")


def _language(name: str) -> str:
    """The --language value, trimmed and lower-cased; a known language or the command fails."""
    chosen = name.strip().lower()
    if chosen not in LANGUAGES:
        _fail(f"--language: unknown language {name!r}; choose one of {', '.join(LANGUAGES)}")
    return chosen


def _full_screen(plain: bool) -> bool:
    """Whether to show the full-screen game: not --plain, and a terminal on both ends."""
    return not plain and sys.stdin.isatty() and sys.stdout.isatty()


_Setup = tuple[RuleSet, int, bool, list[str], DeckStyle, str]


def _setup_screen(
    preset: str,
    rules: RuleSet,
    players: int,
    partnerships: bool,
    levels: list[str],
    deck: DeckStyle,
    language: str,
) -> _Setup | None:
    """The settings chosen on the setup screen (prefilled from these), None if cancelled."""
    try:
        from .tui.setup import SetupApp, SetupChoice
    except ImportError:  # no Textual: the options given (and the plain game)
        return rules, players, partnerships, levels, deck, language
    chosen = SetupApp(
        SetupChoice(
            preset=preset,
            rules=rules,
            players=players,
            partnerships=partnerships,
            opponents=tuple(levels),
            deck=deck,
            language=language,
        )
    ).run()
    if chosen is None:
        return None
    return (
        chosen.rules,
        chosen.players,
        chosen.partnerships,
        list(chosen.opponents),
        chosen.deck,
        chosen.language,
    )


@app.command("play")
def play_command(
    plain: Annotated[
        bool,
        typer.Option(
            "--plain", help="Plain lines, one number per move: for screen readers and pipes."
        ),
    ] = False,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the match saved when you last quit.")
    ] = False,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", help="Seed of the deals (default: a random one).", show_default=False
        ),
    ] = None,
    rules_name: RulesOption = BASE_PRESET,
    players: PlayersOption = 2,
    partnerships: Annotated[
        bool,
        typer.Option("--partnerships", help="With 4 players: you and seat 2 against 1 and 3."),
    ] = False,
    opponents: Annotated[
        list[str] | None,
        typer.Option(
            "--opponent",
            "-o",
            metavar="LEVEL",
            help="Computer level: once for every opponent, or once per opponent seat "
            "(default: medium).",
            show_default=False,
        ),
    ] = None,
    deck: Annotated[
        str | None,
        typer.Option(
            "--deck",
            metavar="STYLE",
            help=f"Card names: {', '.join(DECK_STYLES)} (default: french).",
            show_default=False,
        ),
    ] = None,
    language: Annotated[
        str | None,
        typer.Option(
            "--language",
            metavar="LANG",
            help=f"Language of the game's texts: {', '.join(LANGUAGES)} (default: en).",
            show_default=False,
        ),
    ] = None,
    settings: Settings = None,
    quick: Annotated[
        bool,
        typer.Option(
            "--quick",
            help="Start at once with the options given (no setup screen on a terminal).",
        ),
    ] = False,
) -> None:
    """Play a match against the computer: you are seat 0; saved when you quit."""
    from .play import Session, SessionError, Storage

    style = _deck_style(deck)
    lang = None if language is None else _language(language)
    storage = Storage()
    if resume:
        try:
            session = storage.load_current()
        except (SessionError, OSError) as error:
            _fail(f"--resume: cannot read {storage.current_path}: {error}")
        if session is None:
            _fail(f"--resume: no saved match in {storage.root}")
        if style is not None:
            session.deck = style
        if lang is not None:
            session.language = lang
    else:
        _check_table(players, partnerships)
        rules = _rules_from(rules_name.strip().lower(), settings)
        levels = [name.strip().lower() for name in opponents or ["medium"]]
        for level in levels:
            if level not in LEVELS:
                _fail(f"--opponent: unknown level {level!r}; the levels are {', '.join(LEVELS)}")
        if len(levels) not in (1, players - 1):
            _fail(
                f"--opponent: give one level, or one per opponent ({players - 1}), "
                f"got {len(levels)}: {' '.join(levels)}"
            )
        if seed is None:
            import secrets

            seed = secrets.randbelow(1_000_000)
        deck_style: DeckStyle = style or "french"
        chosen_language = lang or "en"
        if not quick and _full_screen(plain):
            chosen = _setup_screen(
                rules_name.strip().lower(),
                rules,
                players,
                partnerships,
                levels,
                deck_style,
                chosen_language,
            )
            if chosen is None:
                return  # cancelled: no match
            rules, players, partnerships, levels, deck_style, chosen_language = chosen
        try:
            session = Session.new(
                rules,
                players=players,
                partnerships=partnerships,
                seed=seed,
                opponents=levels,
                deck=deck_style,
                language=chosen_language,
            )
        except EscobaError as error:
            _fail(str(error))
    # Piped input or output gets plain lines: the full-screen game needs a terminal.
    if _full_screen(plain):
        try:
            from .tui import run_app
        except ImportError as error:
            typer.echo(
                f"Note: the full-screen game is not available ({error}); playing in plain mode.",
                err=True,
            )
        else:
            run_app(session, storage)
            return
    from .play.plain import PlainGame

    raise typer.Exit(PlainGame(session, storage, sys.stdin, sys.stdout, resumed=resume).run())


@app.command("replay")
def replay_command(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE",
            help="A finished or saved match (escoba play keeps them), or a match record.",
            show_default=False,
            dir_okay=False,
        ),
    ],
    plain: Annotated[
        bool,
        typer.Option("--plain", help="Plain lines (also when input or output is not a terminal)."),
    ] = False,
    deck: Annotated[
        str | None,
        typer.Option("--deck", metavar="STYLE", help=f"Card names: {', '.join(DECK_STYLES)}."),
    ] = None,
    language: Annotated[
        str | None,
        typer.Option("--language", metavar="LANG", help=f"One of {', '.join(LANGUAGES)}."),
    ] = None,
) -> None:
    """Show a recorded match move by move, every seat's cards shown (full screen on a
    terminal; plain lines with --plain or when piped)."""
    from .play.render import Words
    from .play.replay import load, replay_lines
    from .play.session import SessionError

    style = _deck_style(deck)
    lang = None if language is None else _language(language)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        _fail(f"cannot read {file}: {error.strerror or error}")
    except UnicodeDecodeError:
        _fail(f"{file}: not a text file")
    try:
        game, levels, person, saved_deck, saved_language = load(text)
    except SessionError as error:
        _fail(f"{file}: {error}")
    deck_style = style or saved_deck
    chosen_language = lang or saved_language
    if _full_screen(plain):
        try:
            from .tui import run_replay
        except ImportError:
            pass  # no Textual: plain lines
        else:
            run_replay(game, levels, person, deck_style, chosen_language)
            return
    words = Words(deck_style, chosen_language, game.sides, levels, you=person)
    for line in replay_lines(game, words):
        typer.echo(line)
