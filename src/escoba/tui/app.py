"""The full-screen game: a person against computer players, on a :class:`LocalMatch`.

The screen is drawn only from the person's observation: the other seats' cards are never
looked at, except by the computer players themselves through their own observations.
Quitting an unfinished match saves it (``escoba play --resume`` continues it); a finished
match is kept for ``escoba replay``. After each hand the score pad lists the person's moves
of that hand that cost points, as the coach judged them when they were played, and the
sweeps the person's moves gave away when another move would have kept them.
"""

from __future__ import annotations

import zlib
from collections.abc import Collection, Sequence
from contextlib import suppress
from dataclasses import replace
from pathlib import Path

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Container, Grid, Horizontal, Vertical
from textual.events import Key, Resize
from textual.timer import Timer
from textual.widgets import Static

from ..ai.analysis import INACCURACY
from ..ai.coach import Coach, MoveAdvice, SweepKeeper, sweep_keeper
from ..cards import Card, DeckStyle
from ..catalogue import message_key
from ..cheatsheet import cheat_sheet_lines
from ..errors import IllegalMoveError
from ..explanation import explain_hand
from ..messages import Message
from ..moves import Move
from ..observation import Deal, Event, InitialSweep, Observation, Play, Redeal
from ..play.local_match import LocalMatch, LocalMatchError, Played
from ..play.render import Words, captures_shown, computer_names
from ..play.saves import Saves
from ..rules import INT_OPTIONS
from .texts import t, tn
from .widgets import (
    CapturesScreen,
    CheatSheetScreen,
    Choice,
    ScorePadScreen,
    card_text,
    cards_text,
    explanation_table,
    fill,
    move_text,
    plain_text,
)

__all__ = ["COSTLY", "EscobaApp"]

HAND_SLOTS = INT_OPTIONS["hand_cards"][1]
"""The most cards a hand holds: 10 in Scopone scientifico (3 in most games)."""
HAND_GAP = 3
CHOICE_SLOTS = 12
LOG_LINES = 4
WIDE = 110
"""From this many columns the log of moves stands beside the table and the hand, with more
of its lines (at 80 columns it is under them)."""
COSTLY = INACCURACY
"""The hand review lists the person's moves that lost at least this many points: the
inaccuracies, mistakes and blunders of the match's analysis (:mod:`escoba.ai.analysis`)."""


def _seat_seed(seed: int | str, seat: int) -> int:
    return zlib.crc32(f"{seed}:seat:{seat}".encode())


class EscobaApp(App[None]):
    """One match of Escoba, Scopa or Escova in the terminal, driven by a :class:`LocalMatch`.

    ``saves`` (optional) saves the match when the person quits and keeps it when it ends;
    ``coach`` judges the person's moves for the hints and the hand reviews.
    """

    TITLE = "escoba"
    CSS = """
    Screen { layout: vertical; padding: 0 1; }
    #status { text-style: bold; }
    .label { color: $text-muted; }
    #table-cards { min-height: 1; margin-bottom: 1; }
    #hand { height: auto; }
    #hand > Static { width: auto; margin-right: 1; }
    #hand-cards {
        layout: grid; grid-size: 3; grid-columns: auto; grid-gutter: 0 3;
        height: auto; width: 1fr;
    }
    #hand-cards > Choice { width: auto; }
    #choices { height: auto; max-height: 6; }
    #message { color: $warning; min-height: 1; }
    #main { height: 1fr; layout: vertical; }
    #play { height: auto; }
    #log { height: auto; margin-top: 1; color: $text; }
    #main.wide { layout: horizontal; }
    #main.wide #play { width: 1fr; }
    #main.wide #log {
        height: 100%; margin-top: 0; margin-left: 2; padding-left: 1;
        border-left: vkey $primary 50%;
    }
    #keys { dock: bottom; color: $text-muted; }
    Choice:hover { background: $boost; }
    """
    BINDINGS = [  # noqa: RUF012 (Textual's declared class attribute)
        Binding("s", "score_pad", "score pad", show=False),
        Binding("r", "rules", "rules", show=False),
        Binding("h", "hint", "hint", show=False),
        Binding("c", "captures", "captures", show=False),
        Binding("u", "take_back", "take back", show=False),
        Binding("q", "quit", "quit", show=False),
        Binding("escape", "cancel", "cancel", show=False),
    ]

    def __init__(
        self,
        match: LocalMatch,
        saves: Saves | None = None,
        *,
        pace: float = 0.8,
        coach: Coach | None = None,
    ) -> None:
        super().__init__()
        self.match = match
        self.saves = saves
        self.game = match.game
        self.rules = match.game.rules
        self.person = match.person
        self.deck_style: DeckStyle = match.deck
        self.language = match.language
        self.pace = pace
        self.words = Words(
            match.deck,
            match.language,
            self.game.sides,
            match.levels,
            you=self.person,
            rules=self.rules,
        )
        self._computers = computer_names(match.levels, match.language)
        self._computers_short = computer_names(match.levels, match.language, with_level=False)
        self.coach = coach if coach is not None else Coach(seed=_seat_seed(match.seed, 0))
        self.observation: Observation = match.observation()
        self.choosing: list[Move] = []
        self.message = ""
        self.reviews: dict[int, list[MoveAdvice]] = {}
        """The coach's verdict on each of the person's moves, by hand number."""
        self.sweeps_given: dict[int, dict[int, tuple[int, Card, SweepKeeper]]] = {}
        """By hand number, then by the index of the person's move in ``reviews``: the seat
        that swept right after it, its card, and the move that would have kept the sweep."""
        self._last_move: tuple[int, Observation, Move, tuple[Move, ...]] | None = None
        """The person's last move, its hand, position and the coach's ranking, until the
        next move is played."""
        self.saved_path: Path | None = None
        self.kept_path: Path | None = None
        self._paused = False
        self._timer: Timer | None = None
        self._scheduled = False
        self._log_lines = LOG_LINES
        """How many of the last moves the log shows: fewer while the hand takes more lines."""

    # -- names and texts

    def tr(self, key: str, **params: object) -> str:
        return t(key, self.language, **params)

    def seat_name(self, seat: int) -> str:
        """The person ("You"), or a computer seat's name with its level: "Computer 2 (hard)"."""
        if seat in self._computers:
            return self._computers[seat]
        return self.short_seat_name(seat)

    def short_seat_name(self, seat: int) -> str:
        """The person ("You"), "Computer 2" ("Computer" when there is one), or "Seat 3"."""
        if seat == self.person:
            return self.tr("tui.you")
        if seat in self._computers_short:
            return self._computers_short[seat]
        return self.tr("tui.seat", seat=seat + 1)  # seats counted from 1, as the web does

    def side_names(self) -> list[str]:
        return ["+".join(self.short_seat_name(s) for s in side) for side in self.game.sides]

    def captured_line(self, name: str, pile: Collection[Card], sweeps: int) -> str:
        """ "You: 7 cards taken, 1 sweep": a side's captures this hand, counted."""
        return self.tr(
            "tui.captured",
            name=name,
            cards=tn("count.cards_taken", len(pile), self.language),
            sweeps=tn("count.sweeps", sweeps, self.language),
        )

    def card(self, card: Card) -> Text:
        return card_text(card, self.deck_style, self.language)

    def cards(self, cards: Sequence[Card] | frozenset[Card], sep: str = " + ") -> Text:
        return cards_text(sorted(cards), self.deck_style, self.language, sep)

    def move_text(self, seat: int, move: Move, sweep: bool = False) -> Text:
        # The person's own moves take the second person's verb forms ("You drop").
        return move_text(
            self.seat_name(seat),
            move,
            sweep,
            mine=seat == self.person,
            style=self.deck_style,
            language=self.language,
        )

    def _fill(self, key: str, **parts: Text) -> Text:
        """A text with coloured parts put in place of its {placeholders}."""
        return fill(key, self.language, **parts)

    # -- layout

    def compose(self) -> ComposeResult:
        yield Static(id="status", markup=False)
        yield Static(id="seats", markup=False)
        yield Static(id="sides", markup=False)
        # The play (table, hand, choices) and the log of moves: one under the other at 80
        # columns, side by side on a wide terminal (see _fit_layout).
        with Container(id="main"):
            with Vertical(id="play"):
                yield Static(id="table-cards", markup=False)
                with Horizontal(id="hand"):
                    yield Static(
                        self.tr("tui.label", label=self.tr("tui.your_hand")),
                        id="hand-label",
                        classes="label",
                        markup=False,
                    )
                    with Grid(id="hand-cards"):
                        for number in range(1, HAND_SLOTS + 1):
                            yield Choice("card", number, id=f"hand-{number}")
                with Vertical(id="choices"):
                    for number in range(1, CHOICE_SLOTS + 1):
                        yield Choice("set", number, id=f"choice-{number}")
                yield Static(id="message", markup=False)
            yield Static(id="log", markup=False)
        yield Static(self.tr("tui.keys"), id="keys", markup=False)

    def on_mount(self) -> None:
        self._fit_layout()
        self.refresh_view()
        self.advance()

    @property
    def wide(self) -> bool:
        return self.size.width >= WIDE

    def _log_width(self) -> int:
        return (self.size.width - 2) * 2 // 5 if self.wide else 0

    def _fit_layout(self) -> None:
        """The log beside the play on a wide terminal, under it otherwise; the key help on
        one line: keys are left out from the end (all but quitting) when it would wrap."""
        game = self.screen_stack[0]  # the game's screen, under any modal one
        game.query_one("#main").set_class(self.wide, "wide")
        log = game.query_one("#log", Static)
        log.styles.width = self._log_width() if self.wide else "1fr"
        room = self.size.width - 2  # the screen's padding
        keys = self.tr("tui.keys").split(" · ")
        while len(keys) > 2 and Text(" · ".join(keys)).cell_len > room:
            del keys[-2]
        game.query_one("#keys", Static).update(Text(" · ".join(keys)))

    def refresh_view(self) -> None:
        """Redraw everything from the person's observation."""
        obs = self.observation = self.match.observation()
        game = self.game
        totals = "  ".join(
            f"{name} {points}" for name, points in zip(self.side_names(), obs.totals, strict=True)
        )
        if obs.winner is not None:
            turn = self.tr("tui.winner", name=self.side_names()[obs.winner])
        elif obs.to_move == self.person:
            turn = self.tr("tui.your_turn")
        else:
            turn = self.tr("tui.their_turn", name=self.seat_name(obs.to_move or 0))
        status = (
            f"{self.tr('tui.hand_no', n=obs.hand_number + 1)} · {turn} · "
            f"{self.tr('tui.label', label=self.tr('tui.totals', target=self.rules.target_score))}"
            f" {totals}"
        )
        self.query_one("#status", Static).update(Text(status))
        seats = [
            tn("tui.cards_held", obs.hand_sizes[seat], self.language, name=self.seat_name(seat))
            for seat in range(game.players)
            if seat != self.person
        ]
        seats.append(self.tr("tui.stock", n=obs.stock_size))
        seats.append(self.tr("tui.dealer", name=self.short_seat_name(obs.dealer)))
        self.query_one("#seats", Static).update(Text(" · ".join(seats)))
        sides = [
            self.captured_line(name, pile, sweeps)
            for name, pile, sweeps in zip(self.side_names(), obs.captured, obs.sweeps, strict=True)
        ]
        self.query_one("#sides", Static).update(Text(" · ".join(sides)))
        table = Text(self.tr("tui.label", label=self.tr("tui.table")) + " ", style="dim")
        table.append_text(
            self.cards(obs.table, sep="   ") if obs.table else Text(self.tr("tui.empty"))
        )
        self.query_one("#table-cards", Static).update(table)
        shown: list[Text] = []
        for number in range(1, HAND_SLOTS + 1):
            slot = self.query_one(f"#hand-{number}", Choice)
            if number <= len(obs.hand):
                # The key that picks it: 1 to 9, and 0 for the tenth card.
                line = Text(f"[{number % 10}] ", style="bold")
                line.append_text(self.card(obs.hand[number - 1]))
                slot.update(line)
                slot.display = True
                shown.append(line)
            else:
                slot.update("")
                slot.display = False
        self._fit_hand(shown)
        self._show_choices()
        self.query_one("#message", Static).update(Text(self.message))
        self.query_one("#log", Static).update(self._log_text(obs.history))

    def _fit_hand(self, cards: Sequence[Text]) -> None:
        """As many cards of the hand on a line as the screen's width holds: a Scopone hand of
        10 cards, or long card names, take two lines or more, never past the edge; the log
        of moves gives up a line for each line the hand takes beyond the first."""
        label = self.query_one("#hand-label", Static)
        room = self.size.width - 2 - len(plain_text(label)) - 1  # the screen's padding
        if self.wide:
            room -= self._log_width() + 3  # the log beside it, its margin and border
        widest = max((card.cell_len for card in cards), default=1)
        columns = max(1, min(len(cards), (room + HAND_GAP) // (widest + HAND_GAP)))
        self.query_one("#hand-cards", Grid).styles.grid_size_columns = columns
        rows = -(-len(cards) // columns)
        if self.wide:  # the log has the screen's height beside the play
            self._log_lines = max(LOG_LINES, self.size.height - 5)
        else:
            self._log_lines = max(1, LOG_LINES - max(0, rows - 1))

    def on_resize(self, event: Resize) -> None:
        self._fit_layout()
        slots = self.query("#hand-cards > Choice").results(Choice)
        shown = [Text(plain_text(slot)) for slot in slots if slot.display]
        if shown:  # nothing to fit before the game is drawn, or on another screen
            self._fit_hand(shown)

    def _show_choices(self) -> None:
        for number in range(1, CHOICE_SLOTS + 1):
            slot = self.query_one(f"#choice-{number}", Choice)
            if number <= len(self.choosing):
                move = self.choosing[number - 1]
                line = Text(f"  [{number}] ", style="bold")
                if move.is_capture:
                    line.append_text(self._fill("tui.take_option", cards=self.cards(move.captures)))
                else:
                    line.append_text(self._fill("tui.drop_option", card=self.card(move.card)))
                slot.update(line)
                slot.display = True
            else:
                slot.update("")
                slot.display = False

    def _log_text(self, history: Sequence[Event]) -> Text:
        lines: list[Text] = []
        for event in history:
            if isinstance(event, Play):
                lines.append(self.move_text(event.seat, event.move, event.sweep))
            elif isinstance(event, Deal):
                lines.append(Text(self.tr("tui.deal", round=event.round), style="dim"))
            elif isinstance(event, InitialSweep):
                name = self.short_seat_name(event.dealer)
                lines.append(Text(tn("tui.initial_sweep", event.sweeps, self.language, name=name)))
            elif isinstance(event, Redeal):
                lines.append(Text(self.tr("tui.redeal"), style="dim"))
        return Text("\n").join(lines[-self._log_lines :])

    def screen_text(self) -> str:
        """Every text the current screen shows (for tests and checks)."""
        return "\n".join(plain_text(w) for w in self.screen.query(Static))

    # -- the flow of play

    def advance(self) -> None:
        """Schedule the next computer move, if it is a computer's turn."""
        if self._paused or self._timer is not None or self._scheduled or self.game.is_over():
            return
        seat = self.game.to_move
        if seat is not None and not self.match.is_person(seat):
            if self.pace > 0:
                self._timer = self.set_timer(self.pace, self._computer_move)
            else:
                self._scheduled = True
                self.call_later(self._computer_move)

    def _computer_move(self) -> None:
        self._timer = None
        self._scheduled = False
        if self._paused:
            return
        played = self.match.advance()
        if played is not None:
            self._after(played)

    def _play(self, move: Move) -> None:
        """Play the person's move, keeping the coach's verdict on it for the hand review."""
        verdict: MoveAdvice | None = None
        observation = self.observation
        ranked: tuple[Move, ...] = ()
        with suppress(IllegalMoveError):
            advice = self.coach.advise(observation)
            verdict = advice.of(move)
            ranked = tuple(a.move for a in advice.ranked)
        played = self.match.play(move)
        if verdict is not None:
            self.reviews.setdefault(played.hand_number, []).append(verdict)
            self._last_move = (played.hand_number, observation, move, ranked)
        self._after(played)

    def _note_sweep(self, played: Played) -> None:
        """A computer's move: when it swept right after the person's move, keep what would
        have kept the sweep from it, if any move would have."""
        last, self._last_move = self._last_move, None
        if last is None or played.seat == self.person or not played.sweep:
            return
        hand, observation, move, ranked = last
        if hand != played.hand_number:
            return  # a new hand's table: not the one the person left
        if any(self.person in side and played.seat in side for side in self.game.sides):
            return  # the person's partner swept
        keeper = sweep_keeper(observation, move, played.move.card, ranked)
        reviewed = self.reviews.get(played.hand_number)
        if keeper is not None and reviewed:
            given = self.sweeps_given.setdefault(played.hand_number, {})
            given[len(reviewed) - 1] = (played.seat, played.move.card, keeper)

    def _after(self, played: Played) -> None:
        if played.seat != self.person:
            self._note_sweep(played)
        self.choosing = []
        self.refresh_view()
        if played.hand_ended:
            if self.game.is_over():
                self._keep_finished()
            self._paused = True
            self._open_score_pad(resume=True, review=played.hand_number)
        else:
            self.advance()

    def _keep_finished(self) -> None:
        """The match has ended: forget the saved match, keep this one for replay."""
        if self.saves is not None and self.kept_path is None:
            self.saves.clear_current()
            self.kept_path = self.saves.save_finished(self.match)

    def _resume(self, _: None = None) -> None:
        self._paused = False
        if self.game.is_over():
            self.message = self.tr("tui.match_over")
            self.refresh_view()
        self.advance()

    async def action_quit(self) -> None:
        """Quit; an unfinished match is saved first."""
        if self.saves is not None and not self.game.is_over():
            self.saved_path = self.saves.save_current(self.match)
        self.exit()

    def _say(self, message: str) -> None:
        self.message = message
        self.query_one("#message", Static).update(Text(message))

    def pick(self, number: int) -> None:
        """The person pressed or clicked ``number``: a card of the hand, or a set to take."""
        obs = self.observation
        if self.game.is_over():
            self._say(self.tr("tui.match_over"))
            return
        if obs.to_move != self.person:
            self._say(self.tr("tui.not_your_turn"))
            return
        if self.choosing:
            if not 1 <= number <= len(self.choosing):
                self._say(self.tr("tui.no_set", n=number, count=len(self.choosing)))
                return
            self.message = ""
            self._play(self.choosing[number - 1])
            return
        if not 1 <= number <= len(obs.hand):
            self._say(self.tr("tui.no_card", n=number, count=len(obs.hand)))
            return
        card = obs.hand[number - 1]
        options = [move for move in obs.legal_moves if move.card == card]
        name = self.card(card).plain
        if not options:
            self._say(self.tr("tui.must_take", card=name))
            return
        if len(options) == 1:
            self.message = ""
            self._play(options[0])
            return
        self.choosing = sorted(options, key=lambda m: (not m.is_capture, str(m)))
        self.message = self.tr("tui.choose_set", card=name)
        self.refresh_view()

    def try_move(self, move: Move | str) -> None:
        """Play a move given in full; an illegal one is explained, never played."""
        if self.game.to_move != self.person:
            self._say(self.tr("tui.not_your_turn"))
            return
        try:
            parsed = move if isinstance(move, Move) else Move.parse(move)
            if parsed not in self.observation.legal_moves:
                self.game.play(parsed)  # raises with the reason
        except (IllegalMoveError, ValueError) as error:
            self._say(self.tr("tui.illegal", reason=str(error)))
            return
        self._play(parsed)

    # -- input

    def on_key(self, event: Key) -> None:
        if self.modal_open:
            return
        if event.character is not None and event.character.isdigit():
            event.stop()
            self.pick(int(event.character) or 10)

    def on_choice_picked(self, message: Choice.Picked) -> None:
        if message.kind == "card" and self.choosing:
            self.choosing = []
            self.message = ""
            self.refresh_view()
        self.pick(message.number)

    def action_cancel(self) -> None:
        if self.choosing:
            self.choosing = []
            self.message = ""
            self.refresh_view()

    @property
    def modal_open(self) -> bool:
        return len(self.screen_stack) > 1

    def review_lines(self, hand_number: int) -> list[Text]:
        """The person's moves of a hand that cost at least COSTLY points, with the coach's
        words, and those after which the next player swept when another move would have
        kept the sweep from them (each costs little alone, four of them a hand); one line
        saying so when there were none."""
        given = self.sweeps_given.get(hand_number, {})
        listed = [
            (index, advice)
            for index, advice in enumerate(self.reviews.get(hand_number, []))
            if advice.loss >= COSTLY or index in given
        ]
        if not listed:
            # Small losses add up: a hand of near misses is not a hand without cost.
            lost = sum(advice.loss for advice in self.reviews.get(hand_number, []))
            if lost >= COSTLY:
                points = round(lost, 1)
                return [Text(self.tr("tui.review_small_losses", n=hand_number + 1, points=points))]
            return [Text(self.tr("tui.review_none", n=hand_number + 1), style="green")]
        lines = [Text(self.tr("tui.review_title", n=hand_number + 1), style="bold")]
        for index, advice in listed:
            line = Text("• ")
            line.append_text(self.move_text(self.person, advice.move))
            words = [self.advice_text(advice)] if advice.loss >= COSTLY else []
            if index in given:
                words.append(self.sweep_text(*given[index]))
            line.append(": " + " ".join(words))
            lines.append(line)
        return lines

    def sweep_text(self, seat: int, card: Card, keeper: SweepKeeper) -> str:
        """ "Computer swept next, with 5♦; 2♠, taking nothing, would have left no sweep at
        all." (or "no sweep for that card")."""
        if keeper.safe:
            key = message_key("tui.review_sweep_safe")
        else:
            key = message_key("tui.review_sweep_card")
        name = self.short_seat_name(seat)
        keep = self.words.move_phrase(keeper.move)
        return self.tr(key, name=name, card=self.card(card).plain, keep=keep)

    def advice_text(self, advice: MoveAdvice) -> str:
        """The coach's words on a move, a better move named in the player's deck and
        language ("3♦ taking 6♦, 2♥ and 4♣"), never in the engine's notation."""
        verdict = advice.verdict
        best = verdict.params.get("best")
        if isinstance(best, Move):
            verdict = Message(verdict.key, {**verdict.params, "best": self.words.move_phrase(best)})
        return replace(advice, verdict=verdict).text(self.words.language, self.words.deck)

    def _open_score_pad(self, resume: bool = False, review: int | None = None) -> None:
        footer = ""
        if self.game.winner is not None:
            footer = self.tr("tui.winner", name=self.side_names()[self.game.winner])
        if review is None and self.game.results:
            review = len(self.game.results) - 1
        lines = self.review_lines(review) if review is not None else []
        explanation = None
        if review is not None:
            why = explain_hand(self.game.results[review], self.rules)
            explanation = explanation_table(
                why, review, self.side_names(), self.deck_style, self.language
            )
        screen = ScorePadScreen(
            self.game.results,
            self.side_names(),
            self.rules,
            self.language,
            footer,
            lines,
            explanation,
        )
        self.push_screen(screen, callback=self._resume if resume else None)

    def action_take_back(self) -> None:
        """Take back the person's last move of this hand and the computer moves after it:
        the person's turn again, as it was."""
        if self.modal_open or self._paused:
            return
        try:
            taken = self.match.take_back()
        except LocalMatchError:
            self._say(self.tr("tui.take_back_none"))
            return
        if self._timer is not None:  # a computer's move for a position that is gone
            self._timer.stop()
            self._timer = None
        reviewed = self.reviews.get(self.game.hand_number)
        if reviewed:
            reviewed.pop()  # the coach's verdict on the move taken back
            self.sweeps_given.get(self.game.hand_number, {}).pop(len(reviewed), None)
        self._last_move = None
        self.choosing = []
        self.refresh_view()
        self._say(self.tr("tui.taken_back", card=self.card(taken[-1].move.card).plain))

    def action_score_pad(self) -> None:
        if not self.modal_open:
            self._open_score_pad()

    def action_captures(self) -> None:
        """Each side's captured cards: of this hand, or of the hand just ended while its
        score pad is open (or before anything is captured in the next one)."""
        if self.modal_open and not isinstance(self.screen, ScorePadScreen):
            return
        shown = captures_shown(self.match.observation(), self.game.results)
        sides = [
            (self.captured_line(name, pile, sweeps), sorted(pile))
            for name, pile, sweeps in zip(self.side_names(), shown.piles, shown.sweeps, strict=True)
        ]
        self.push_screen(CapturesScreen(shown.hand_number, sides, self.deck_style, self.language))

    def action_rules(self) -> None:
        if self.modal_open:
            return
        self.push_screen(
            CheatSheetScreen(
                cheat_sheet_lines(self.rules, self.language, self.deck_style), self.language
            )
        )

    def action_hint(self) -> None:
        if self.modal_open:
            return
        obs = self.observation
        if obs.to_move != self.person or not obs.legal_moves:
            self._say(self.tr("tui.hint_wait"))
            return
        best = self.coach.advise(obs).best
        move = best.move
        if move.is_capture:
            shown = self._fill("tui.take_option", cards=self.cards(move.captures))
            shown = self.card(move.card) + Text(": ") + shown
        else:
            shown = self._fill("tui.drop_option", card=self.card(move.card))
        self._say(self.tr("tui.hint", move=shown.plain, why=self.advice_text(best)))
