"""Texts that follow the deck and name who is who: the cheat sheet in each deck style, the
computer seats' names, the hand review and the hand's explanation in the terminal, plain
mode's h, r and s, and the setup screen's level names and check boxes."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import pytest

pytest.importorskip("textual")

from fastapi.testclient import TestClient
from rich.console import Console
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Checkbox, Select, Static
from typer.testing import CliRunner

from escoba import (
    DECK,
    RULESETS,
    Card,
    HandResult,
    Move,
    Observation,
    card_name,
    explain_hand,
    parse_cards,
    score_hand,
)
from escoba.ai.coach import Coach
from escoba.ai.ratings import level_rating
from escoba.cheatsheet import cheat_sheet, cheat_sheet_lines
from escoba.cli import app as cli
from escoba.errors import EscobaError
from escoba.messages import LANGUAGES
from escoba.play import LocalMatch, Saves
from escoba.play.plain import PlainGame
from escoba.play.render import Words, computer_names
from escoba.tui import EscobaApp
from escoba.tui.setup import OptionBox, SetupApp, SetupChoice
from escoba.tui.widgets import (
    CapturesScreen,
    CheatSheetScreen,
    ScorePadScreen,
    explanation_table,
)
from server_helpers import assert_refused, create_room

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("ESCOBA_DATA_DIR", str(folder))
    return folder


class Ranked:
    """An evaluator to which one move (by its text) is the best, every other costs 2 points."""

    def __init__(self, best: str) -> None:
        self.best = best

    def evaluate(self, observation: Observation, legal: Sequence[Move]) -> list[tuple[Move, float]]:
        scored = [(move, 0.0 if str(move) == self.best else -2.0) for move in legal]
        return sorted(scored, key=lambda pair: -pair[1])


def match(levels: Sequence[str] = ("beginner",), **options: object) -> LocalMatch:
    return LocalMatch.new(
        RULESETS["escoba"],
        players=len(levels) + 1,
        seed=42,
        opponents=levels,
        deck=options.get("deck", "french"),  # type: ignore[arg-type]
        language=options.get("language", "en"),  # type: ignore[arg-type]
    )


def shown(app: EscobaApp) -> str:
    """Every text of the screen, tables drawn as the terminal draws them."""
    console = Console(width=SIZE[0], file=io.StringIO(), color_system=None)
    for widget in app.screen.query(Static):
        console.print(widget.content)
    assert isinstance(console.file, io.StringIO)
    return console.file.getvalue()


def run_app(
    test: Callable[[EscobaApp, Pilot[None]], Awaitable[None]], game: LocalMatch, coach: Coach
) -> EscobaApp:
    app = EscobaApp(game, None, pace=0, coach=coach)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await test(app, pilot)

    asyncio.run(main())
    return app


# -- the cheat sheet speaks the deck shown ------------------------------------------------


def test_card_values_name_the_face_cards_of_each_deck() -> None:
    rules = RULESETS["escoba"]
    values = {
        deck: cheat_sheet(rules, "en", deck)[0].lines[0]
        for deck in ("french", "spanish", "italian")
    }
    assert values["french"] == "Values: A=1, 2 to 7 as printed, J=8, Q=9, K=10."
    assert values["spanish"] == "Values: as=1, 2 to 7 as printed, sota=8, caballo=9, rey=10."
    assert values["italian"] == "Values: asso=1, 2 to 7 as printed, fante=8, cavallo=9, re=10."
    # Spanish cards read in English, French cards read in Spanish: the cards on screen decide.
    spanish_french = "\n".join(cheat_sheet_lines(rules, "es", "french"))
    assert "J=8, Q=9, K=10" in spanish_french and "sota" not in spanish_french
    assert "V=8, D=9, R=10" in "\n".join(cheat_sheet_lines(rules, "fr", "french"))
    assert "B=8, D=9, K=10" in "\n".join(cheat_sheet_lines(rules, "de", "french"))


def test_the_french_deck_says_which_suit_is_coins() -> None:
    sheet = "\n".join(cheat_sheet_lines(RULESETS["escoba"], "en", "french"))
    assert "coins = ♦" in sheet and "the seven of coins is the 7♦" in sheet
    assert "Setenta: 1. Each side's best card of every suit, ranked 7 > 6 > A > 5" in sheet
    spanish = "\n".join(cheat_sheet_lines(RULESETS["escoba"], "en", "spanish"))
    assert "coins = oros" in spanish and "the seven of coins is the 7 de oros" in spanish
    assert "7 > 6 > as > 5" in spanish
    # Spanish cards in Spanish need no translation of their suits.
    assert "Palos" not in "\n".join(cheat_sheet_lines(RULESETS["escoba"], "es", "spanish"))
    italian = "\n".join(cheat_sheet_lines(RULESETS["scopa"], "de", "italian"))
    assert "Karo = denari" in italian and "asso=16" in italian


def test_the_examples_are_given_in_the_deck() -> None:
    # RULES.md: Escoba takes to make 15 with the card played; Scopa takes by value.
    escoba = cheat_sheet(RULESETS["escoba"], "en", "spanish")[0].lines
    assert (
        "For example, caballo de bastos (9) takes 4 de copas and 2 de espadas: 9 + 4 + 2 = 15."
        in escoba
    )
    scopa = cheat_sheet(RULESETS["scopa"], "it", "italian")[0].lines
    assert "Per esempio, re di bastoni (10) prende 6 di coppe e 4 di spade: 6 + 4 = 10." in scopa
    assert "Q♣ (9) takes 4♥ and 2♠" in "\n".join(cheat_sheet_lines(RULESETS["escoba"]))


@pytest.mark.parametrize("deck", ["french", "spanish", "italian"])
def test_every_language_gives_every_line_in_every_deck(deck: str) -> None:
    english = cheat_sheet(RULESETS["scopa"], "en", deck)  # type: ignore[arg-type]
    for language in LANGUAGES:
        sheet = cheat_sheet(RULESETS["scopa"], language, deck)  # type: ignore[arg-type]
        own = (deck, language) in (("spanish", "es"), ("italian", "it"))
        lengths = [len(section.lines) for section in sheet]
        # Only the suits' line is left out, where the deck's suit names are the reader's own.
        assert lengths[0] == len(english[0].lines) - own, (language, deck)
        assert lengths[1:] == [len(section.lines) for section in english[1:]]


def test_an_unknown_deck_is_refused_by_name() -> None:
    with pytest.raises(EscobaError, match="unknown deck style 'tarot'"):
        cheat_sheet(RULESETS["escoba"], "en", "tarot")  # type: ignore[arg-type]


def test_rules_command_takes_the_deck() -> None:
    runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})
    result = runner.invoke(cli, ["rules", "escoba", "--deck", "spanish", "--language", "es"])
    assert result.exit_code == 0, result.output
    assert "sota=8, caballo=9, rey=10" in result.stdout
    plain = runner.invoke(cli, ["rules", "escoba"])
    assert "J=8, Q=9, K=10" in plain.stdout and "coins = ♦" in plain.stdout
    bad = runner.invoke(cli, ["rules", "escoba", "--deck", "tarot"])
    assert bad.exit_code == 2 and "--deck" in bad.stderr


def test_cheat_sheet_endpoint_follows_the_deck(client: TestClient) -> None:
    room = create_room(client, rules="escoba", options={})["room"]
    path = f"/api/rooms/{room}/cheatsheet"
    sheet = client.get(path, params={"language": "en", "deck": "spanish"}).json()
    expected = cheat_sheet(RULESETS["escoba"], "en", "spanish")
    assert sheet["sections"][0]["lines"] == list(expected[0].lines)
    assert "sota=8" in sheet["sections"][0]["lines"][0]
    assert client.get(path).json() == client.get(path, params={"deck": "french"}).json()
    refused = assert_refused(client.get(path, params={"deck": "tarot"}), 422, "bad_deck")
    assert "tarot" in refused["message"] and "spanish" in refused["message"]


# -- computer seats have names of their own -----------------------------------------------


def test_computer_names_are_numbered_only_when_there_are_several() -> None:
    assert computer_names([None, "hard"], "en") == {1: "Computer (hard)"}
    assert computer_names([None, "medium", "medium", "medium"], "es") == {
        1: "Ordenador 1 (medio)",
        2: "Ordenador 2 (medio)",
        3: "Ordenador 3 (medio)",
    }
    assert computer_names(["easy", None, "easy"], "fr", with_level=False) == {
        0: "Ordinateur 1",
        2: "Ordinateur 2",
    }


@pytest.mark.slow
def test_three_computers_of_one_level_are_told_apart_on_the_screen() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        for _ in range(3):  # the person's first moves: the hand goes on
            if app.game.to_move == 0:
                await pilot.press("1")
                if app.choosing:
                    await pilot.press("1")
            await pilot.pause()
        text = app.screen_text()
        for number in (1, 2, 3):
            assert f"Computer {number} (medium): " in text  # the cards each holds
        assert re.search(r"Computer \d \(medium\) (plays|drops)", text)  # move lines

    run_app(check, match(["medium"] * 3), Coach(Ranked("")))


def test_plain_mode_names_the_computers() -> None:
    out = io.StringIO()
    game = PlainGame(match(["easy", "easy"]), Saves(), io.StringIO("1\n" * 6), out)
    game.run()
    assert re.search(r"^Computer [12] \(easy\) plays ", out.getvalue(), re.M)
    assert "Cards in the hand of Computer 2: " in out.getvalue()


# -- the hand review and the explanation of the score -------------------------------------


@pytest.mark.slow
def test_review_names_the_better_move_in_the_deck_and_language() -> None:
    # Seed 42: the person holds Ad 3h 2c; 2c could take 6h and 7c.
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        await pilot.press("1")  # Ad dropped: 2 points worse than 2c taking 6h+7c
        while not app.game.results:
            if app.modal_open:
                break
            if app.game.to_move == 0:
                await pilot.press("1")
                if app.choosing:
                    await pilot.press("1")
            await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, ScorePadScreen)
        text = shown(app)
        assert "2 de bastos, captura: 6 de copas y 7 de bastos." in text
        assert "2c:6h+7c" not in text
        explanation = app.screen.query_one("#explanation")
        assert explanation.region.height > 0

    run_app(check, match(deck="spanish", language="es"), Coach(Ranked("2c:6h+7c")))


@pytest.mark.slow
def test_the_score_pad_explains_the_counts_behind_the_points() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        while not app.game.results:
            if app.game.to_move == 0 and not app.modal_open:
                await pilot.press("1")
                if app.choosing:
                    await pilot.press("1")
            await pilot.pause()
        await pilot.pause()
        text = shown(app)
        assert "Hand 1: what each side took" in text
        rows = {
            label: re.search(rf"{label}\s*│\s*(\d+)\s*│\s*(\d+)", text)
            for label in ("Cards taken", "Coins", "Sweeps")
        }
        cards, coins, sweeps = (rows[label] for label in ("Cards taken", "Coins", "Sweeps"))
        assert cards and coins and sweeps
        assert int(cards[1]) + int(cards[2]) == 40 and int(coins[1]) + int(coins[2]) == 10
        result = app.game.results[0]
        assert [int(sweeps[1]), int(sweeps[2])] == list(result.sweeps)
        assert "7♦" in text and "Best card of each suit" in text  # setenta: the best cards
        if result.leftovers:
            assert "Cards left on the table: " in text

    run_app(check, match(), Coach(Ranked("")))


def test_the_explanation_names_the_king_of_coins_and_the_run_of_coins() -> None:
    """Issue 18: re bello, who took the king of coins; napola, the run: "A-2-3-4 of coins:
    4 points" (RULES.md's napola: A-2-3 score 3, one more for each coin after them)."""
    rules = RULESETS["scopa"].replace(re_bello=True, napola=True)
    piles = [
        frozenset(c for c in DECK if c.suit.value == "d" and c.value <= 4)
        | frozenset(parse_cards("7h 7s 7c")),
        frozenset(c for c in DECK if not (c.suit.value == "d" and c.value <= 4))
        - frozenset(parse_cards("7h 7s 7c")),
    ]
    score = score_hand(piles, (0, 0), rules)
    result = HandResult(0, tuple(piles), (0, 0), score.points, score.breakdown, frozenset(), 1)
    why = explain_hand(result, rules)
    assert score.breakdown["napola"] == (4, 0) and score.breakdown["re_bello"] == (0, 1)
    words = Words("french", "en", [[0], [1]], [None, "easy"], you=0, rules=rules)
    lines = words.explanation(0, why)
    assert "  King of coins (re bello): you: –; Computer: K♦." in lines
    assert "  Run of coins (napola): you: A-2-3-4 of coins: 4 points; Computer: –." in lines
    italian = Words("italian", "it", [[0], [1]], [None, "easy"], you=0, rules=rules)
    assert any("asso-2-3-4 di denari: 4 punti" in line for line in italian.explanation(0, why))
    console = Console(file=io.StringIO(), width=100)
    console.print(explanation_table(why, 0, ["You", "Computer"], "spanish", "es"))
    table = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Rey de oros (re bello)" in table and "rey de oros" in table
    assert "as-2-3-4 de oros: 4 puntos" in table
    # The score pad's rows: re bello and napola only where the rules play them.
    pad = "\n".join(words.score_pad(0, result, result.points))
    assert "re bello (king of coins)" in pad and "napola (run of coins)" in pad
    plain = Words("french", "en", [[0], [1]], [None, "easy"], you=0, rules=RULESETS["scopa"])
    assert "re bello" not in "\n".join(plain.category_labels())


# -- the rules pop-up ------------------------------------------------------------------------


def test_rules_open_at_the_top_in_the_deck_shown() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, CheatSheetScreen)
        body = app.screen.query_one(VerticalScroll)
        assert body.max_scroll_y > 0  # the sheet is longer than the pop-up: where it opens matters
        assert body.scroll_y == 0
        assert "sota=8, caballo=9, rey=10" in app.screen_text()

    run_app(check, match(deck="spanish"), Coach(Ranked("")))


# -- plain mode: h, r, s, and one heading per hand ------------------------------------------


def plain(answers: str, **options: object) -> str:
    out = io.StringIO()
    game = match(**options)
    PlainGame(game, Saves(), io.StringIO(answers), out, coach=Coach(Ranked("2c:6h+7c"))).run()
    return out.getvalue()


def test_plain_mode_answers_hint_rules_and_score_pad() -> None:
    out = plain("h\nr\ns\n1\n")
    assert "(h: hint, r: rules, s: score pad, u: take back, c: captures):" in out
    assert "Hint: 2♣ taking 6♥ and 7♣. The best move here." in out
    assert "Cheat sheet: escoba" in out and "J=8, Q=9, K=10" in out
    assert "No hand finished yet. Match points: you: 0; Computer: 0." in out
    # Each answer asks again for the same move: 1 then plays the first one.
    assert out.count("Your move, a number from 1 to 4") == 4
    assert "You play A♦, taking nothing." in out


def test_plain_mode_takes_back_with_u() -> None:
    """Issue 16, item 4: u at the move prompt takes back the person's last move and the
    computer's after it, and shows the position again with its moves."""
    out = plain("u\n1\nu\n")
    before, after = out.split("You play A♦, taking nothing.", 1)
    assert "You have no move to take back in this hand." in before
    assert "Move taken back (A♦): your turn again." in after
    hands = re.findall(r"^Your hand: (.*)$", out, re.M)
    assert hands[0] == hands[-1] and "A♦" in hands[-1]
    assert out.count("  1. A♦") == 2  # the moves listed again after the take back


def test_plain_mode_score_pad_after_a_hand_and_in_spanish() -> None:
    # 18 moves of the person's make a two-player hand (6 deals of 3 cards).
    out = plain("1\n" * 18 + "s\n", language="es", deck="spanish")
    assert "Se acabó la mano 1." in out
    at_end, asked = (part.splitlines()[1:9] for part in out.split("Tanteo, mano 1:")[1:])
    assert at_end == asked  # the pad when the hand ended, and again when asked
    # The names, the five categories the escoba preset scores, the hand and the total: no
    # row for all four sevens, re bello or napola, which it does not play.
    assert at_end[-1].split()[0] == "total" and len(at_end) == 8


def test_plain_mode_explains_the_hand_after_its_score_pad() -> None:
    out = plain("1\n" * 18)
    explained = out.split("Hand 1: what each side took\n")[1]
    cards = re.search(r"^  Cards taken: you: (\d+); Computer: (\d+)\.$", explained, re.M)
    coins = re.search(r"^  Coins: you: (\d+); Computer: (\d+)\.$", explained, re.M)
    assert cards and coins
    assert int(cards[1]) + int(cards[2]) == 40 and int(coins[1]) + int(coins[2]) == 10
    assert re.search(r"^  Seven of coins: you: (7♦|–); Computer: (7♦|–)\.$", explained, re.M)
    assert "  Best card of each suit: you: " in explained and "  Sweeps: you: " in explained


def test_plain_mode_prints_each_hand_heading_once() -> None:
    out = plain("1\n" * 60)
    assert out.count("Hand 1. Dealer") == 1
    assert out.count("Hand 2. Dealer") == 1
    assert "Match points:" in out


# -- the captured cards on demand (issue 16, item 2) -----------------------------------------


def suit_lines(pile: frozenset[Card], indent: str) -> list[str]:
    """The cards of a pile as the terminal lists them: a line per suit, in rank order."""
    suits = sorted({card.suit.value for card in pile}, key="dhsc".index)
    return [
        indent + ", ".join(card_name(c) for c in sorted(pile) if c.suit.value == suit)
        for suit in suits
    ]


def test_plain_mode_lists_each_sides_captured_cards_with_c() -> None:
    game = match()
    out = io.StringIO()
    answers = io.StringIO("1\n" * 4 + "c\n")
    PlainGame(game, Saves(), answers, out, coach=Coach(Ranked(""))).run()
    obs = game.observation()  # the input ended right after c: the position c was asked in
    assert any(obs.captured), "the test needs a capture to show"
    listed = out.getvalue().split("Captured cards, hand 1:\n")[1].splitlines()
    expected: list[str] = []
    for name, pile, sweeps in zip(("You", "Computer"), obs.captured, obs.sweeps, strict=True):
        count = f"{len(pile)} card{'s' if len(pile) != 1 else ''}"
        expected.append(f"  {name}: {count} captured, sweeps: {sweeps}.")
        expected += suit_lines(pile, "    ")
    assert listed[: len(expected)] == expected
    assert listed[len(expected)].startswith("Your move, a number from 1 to")


@pytest.mark.slow
def test_the_captures_screen_opens_with_c_and_after_the_hand_shows_its_cards() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        async def play_until(done: Callable[[], bool]) -> None:
            while not done():
                if app.game.to_move == 0 and not app.modal_open:
                    await pilot.press("1")
                    if app.choosing:
                        await pilot.press("1")
                await pilot.pause()

        await play_until(lambda: any(app.observation.captured))
        obs = app.observation
        await pilot.press("c")
        assert isinstance(app.screen, CapturesScreen)
        text = app.screen_text()
        assert "Captured cards, hand 1" in text
        for pile in obs.captured:
            for line in suit_lines(pile, "  "):
                assert line in text.splitlines()
        await pilot.press("escape")
        assert not app.modal_open

        # The hand ends: over its score pad, c shows the hand's piles, leftovers included.
        await play_until(lambda: bool(app.game.results))
        await pilot.pause()
        assert isinstance(app.screen, ScorePadScreen)
        await pilot.press("c")
        assert isinstance(app.screen, CapturesScreen)
        lines = app.screen_text().splitlines()
        piles = app.game.results[0].piles
        assert sum(map(len, piles)) == 40
        for pile in piles:
            assert all(line in lines for line in suit_lines(pile, "  "))
        await pilot.press("escape")
        assert isinstance(app.screen, ScorePadScreen)

    run_app(check, match(), Coach(Ranked("")))


# -- the setup screen -----------------------------------------------------------------------


@pytest.mark.slow
def test_setup_levels_translated_and_check_boxes_readable_without_colour() -> None:
    app = SetupApp(SetupChoice(language="de", opponents=("hard",)))

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            level = app.query_one("#level-1", Select)
            labels = [str(widget.render()) for widget in level.query(Static)]
            # The level's name in German, with its rating in the chosen game (Escoba)
            rating = level_rating("hard", RULESETS["escoba"])
            assert rating is not None
            assert f"schwer · etwa {rating.about}" in labels, labels
            boxes = list(app.query(Checkbox))
            assert boxes and all(isinstance(box, OptionBox) for box in boxes)
            shown = {box.id: box.render().plain for box in boxes}
            assert shown["forced_capture"].startswith("[x]")
            assert shown["big_wins"].startswith("[ ]")
            app.query_one("#big_wins", Checkbox).value = True
            await pilot.pause()
            assert app.query_one("#big_wins", Checkbox).render().plain.startswith("[x]")

    asyncio.run(main())
