"""``escoba replay FILE`` on a terminal: step through a recorded match move by move.

Every seat's cards are shown: the match is over (or saved), and a replay is for learning
from it. The steps come from replaying the record: the deal of each hand, every move, and
the end of each hand with its points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from ..ai.analysis import MatchAnalysis, MoveAnalysis
from ..cards import Card, DeckStyle
from ..game import Game
from ..moves import Move
from ..observation import InitialSweep, Play, Redeal, TakeBack
from ..play.analysis import JUDGEMENT_KEYS, lead_sparkline
from ..play.render import computer_names
from ..records import TAKE_BACK, replay
from .texts import UI_LANGUAGES, t, tn
from .widgets import card_text, cards_text, fill, move_text, plain_text

__all__ = ["ReplayApp", "Step", "match_steps"]


@dataclass(frozen=True, slots=True)
class Step:
    """What the table looked like after one move (or at a deal, or at a hand's end)."""

    hand_number: int
    dealer: int
    move_number: int
    """Moves played in this hand so far."""
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    stock: int
    captured: tuple[int, ...]
    sweeps: tuple[int, ...]
    totals: tuple[int, ...]
    seat: int | None
    """Who played the move of this step (None at a deal)."""
    move: Move | None
    sweep: bool
    hand_points: tuple[int, ...] | None
    """The hand's points, on the step that ended it."""
    events: tuple[Redeal | InitialSweep, ...] = ()
    """What happened at a deal: redeals and the dealer's initial sweep."""
    taken_back: bool = False
    """The step's move was taken back: the table is as it was before it."""


def _snapshot(
    game: Game,
    move_number: int,
    seat: int | None = None,
    move: Move | None = None,
    sweep: bool = False,
    events: tuple[Redeal | InitialSweep, ...] = (),
) -> Step:
    """The table of a hand still being played, as ``game`` shows it now."""
    return Step(
        hand_number=game.hand_number,
        dealer=game.dealer,
        move_number=move_number,
        hands=tuple(game.hand(seat) for seat in range(game.players)),
        table=game.table,
        stock=game.stock_size,
        captured=tuple(len(pile) for pile in game.captured),
        sweeps=game.sweeps,
        totals=game.totals,
        seat=seat,
        move=move,
        sweep=sweep,
        hand_points=None,
        events=events,
    )


def _at_deal(game: Game) -> Step:
    events = tuple(e for e in game.history() if isinstance(e, Redeal | InitialSweep))
    return _snapshot(game, 0, events=events)


def match_steps(game: Game) -> list[Step]:
    """The replay screen's steps of a recorded match, from the first deal to the last move."""
    steps: list[Step] = []

    def seen(now: Game, last: Play | TakeBack | None) -> None:
        if last is None:
            steps.append(_at_deal(now))
            return
        before = steps[-1]
        if isinstance(last, TakeBack):
            step = _snapshot(now, before.move_number - 1, last.seat, last.move)
            steps.append(replace(step, taken_back=True))
            return
        number = before.hand_number
        move = last.move
        hands = list(before.hands)
        hands[last.seat] = tuple(c for c in hands[last.seat] if c != move.card)
        if last.result is None:
            steps.append(_snapshot(now, before.move_number + 1, last.seat, move, last.sweep))
            return
        # The hand is over (and the next one dealt): show the table as the move left it.
        if move.is_capture:
            table = tuple(c for c in before.table if c not in move.captures)
        else:
            table = (*before.table, move.card)
        side = now.side_of(last.seat)
        captured = list(before.captured)
        sweeps = list(before.sweeps)
        if move.is_capture:
            captured[side] += 1 + len(move.captures)
        if last.sweep:
            sweeps[side] += 1
        steps.append(
            Step(
                hand_number=number,
                dealer=before.dealer,
                move_number=before.move_number + 1,
                hands=tuple(hands),
                table=table,
                stock=0,
                captured=tuple(captured),
                sweeps=tuple(sweeps),
                totals=now.totals,
                seat=last.seat,
                move=move,
                sweep=last.sweep,
                hand_points=last.result.points,
            )
        )
        if not now.is_over():
            steps.append(_at_deal(now))

    replay(game.record(), seen)
    return steps


def _analysed_steps(
    steps: Sequence[Step], analysis: MatchAnalysis | None
) -> dict[int, MoveAnalysis]:
    """Each step that shows a move that stood, with that move's analysis: the steps' moves
    in order, less those taken back (a move followed by its take back)."""
    if analysis is None:
        return {}
    standing = [
        index
        for index, step in enumerate(steps)
        if step.move is not None
        and not step.taken_back
        and not (index + 1 < len(steps) and steps[index + 1].taken_back)
    ]
    return dict(zip(standing, analysis.moves, strict=False))


class ReplayApp(App[None]):
    """A recorded match, one step a key press: every seat's cards, the table, the move."""

    TITLE = "escoba replay"
    CSS = """
    Screen { layout: vertical; padding: 0 1; }
    #status { text-style: bold; }
    #info { margin-bottom: 1; }
    #table-cards { margin-bottom: 1; }
    #hands { margin-bottom: 1; }
    #move { color: $warning; }
    #keys { dock: bottom; color: $text-muted; }
    """
    BINDINGS = [  # noqa: RUF012 (Textual's declared class attribute)
        Binding("right,n,space", "step(1)", "next", show=False),
        Binding("left,p", "step(-1)", "back", show=False),
        Binding("home", "go(0)", "first", show=False),
        Binding("end", "go(-1)", "last", show=False),
        Binding("q,escape", "quit", "quit", show=False),
    ]

    def __init__(
        self,
        game: Game,
        levels: Sequence[str | None],
        person: int | None = None,
        deck: DeckStyle = "french",
        language: str = "en",
        analysis: MatchAnalysis | None = None,
    ) -> None:
        super().__init__()
        self.analysis = analysis
        self.game = game
        self.levels = tuple(levels)
        self.person = person
        self.deck: DeckStyle = deck
        self.language = language
        shown = language if language in UI_LANGUAGES else "en"
        self._computers = computer_names(self.levels, shown)
        self._computers_short = computer_names(self.levels, shown, with_level=False)
        self.steps = match_steps(game)
        # Moves standing in each hand: a move taken back and its take back count for none.
        self.hand_moves = [
            len(hand["moves"]) - 2 * hand["moves"].count(TAKE_BACK)
            for hand in game.record()["hands"]
        ]
        self.analysed = _analysed_steps(self.steps, analysis)
        """The analysis of the move each step shows, by step (moves that stood only)."""
        self.index = 0

    # -- words

    def tr(self, key: str, **params: object) -> str:
        return t(key, self.language, **params)

    def seat_name(self, seat: int, long: bool = False) -> str:
        """The person ("You"), "Computer 2" ("Computer 2 (hard)" when ``long``), or "Seat 3"."""
        if seat == self.person:
            return self.tr("tui.you")
        names = self._computers if long else self._computers_short
        if seat in names:
            return names[seat]
        return self.tr("tui.seat", seat=seat + 1)  # seats counted from 1, as the web does

    def side_names(self) -> list[str]:
        return ["+".join(self.seat_name(s) for s in side) for side in self.game.sides]

    def cards(self, cards: Sequence[Card], sep: str = "  ") -> Text:
        if not cards:
            return Text(self.tr("tui.empty"), style="dim")
        return cards_text(sorted(cards), self.deck, self.language, sep)

    def move_text(self, seat: int, move: Move, sweep: bool) -> Text:
        return move_text(
            self.seat_name(seat),
            move,
            sweep,
            mine=seat == self.person,
            style=self.deck,
            language=self.language,
        )

    # -- layout

    def compose(self) -> ComposeResult:
        yield Static(id="status", markup=False)
        yield Static(id="info", markup=False)
        yield Static(id="table-cards", markup=False)
        yield Static(id="hands", markup=False)
        yield Static(id="move", markup=False)
        yield Static(id="analysis", markup=False)
        yield Static(self.tr("tui.replay_keys"), id="keys", markup=False)

    def on_mount(self) -> None:
        self.show()

    def scores(self, points: Sequence[int]) -> str:
        return "  ".join(f"{n} {p}" for n, p in zip(self.side_names(), points, strict=True))

    def show(self) -> None:
        step = self.steps[self.index]
        moves = self.hand_moves[step.hand_number]
        status = self.tr(
            "tui.replay_status",
            hand=step.hand_number + 1,
            move=step.move_number,
            moves=moves,
            step=self.index + 1,
            steps=len(self.steps),
        )
        self.query_one("#status", Static).update(Text(status))
        info = [
            self.tr("tui.dealer", name=self.seat_name(step.dealer)),
            self.tr("tui.stock", n=step.stock),
            self.tr("tui.label", label=self.tr("tui.totals", target=self.game.rules.target_score))
            + f" {self.scores(step.totals)}",
        ]
        sides = [
            self.tr(
                "tui.captured",
                name=name,
                cards=tn("count.cards_taken", cards, self.language),
                sweeps=tn("count.sweeps", sweeps, self.language),
            )
            for name, cards, sweeps in zip(
                self.side_names(), step.captured, step.sweeps, strict=True
            )
        ]
        self.query_one("#info", Static).update(Text(" · ".join(info) + "\n" + " · ".join(sides)))
        table = Text(self.tr("tui.label", label=self.tr("tui.table")) + " ", style="dim")
        table.append_text(self.cards(step.table, sep="   "))
        self.query_one("#table-cards", Static).update(table)
        hands = Text()
        for seat, held in enumerate(step.hands):
            if seat:
                hands.append("\n")
            mover = step.move is not None and seat == step.seat
            label = self.tr("tui.label", label=self.seat_name(seat, long=True))
            hands.append(("▶ " if mover else "  ") + label + " ")
            hands.append_text(self.cards(held))
        self.query_one("#hands", Static).update(hands)
        self.query_one("#move", Static).update(self.step_text(step))
        self.query_one("#analysis", Static).update(self.analysis_text())

    def step_text(self, step: Step) -> Text:
        lines: list[Text] = []
        if step.move is None or step.seat is None:
            lines.append(Text(self.tr("tui.replay_start")))
            for event in step.events:
                if isinstance(event, Redeal):
                    lines.append(Text(self.tr("tui.redeal")))
                elif isinstance(event, InitialSweep):
                    name = self.seat_name(event.dealer)
                    lines.append(
                        Text(tn("tui.initial_sweep", event.sweeps, self.language, name=name))
                    )
        elif step.taken_back:
            card = card_text(step.move.card, self.deck, self.language)
            who = Text(self.seat_name(step.seat))
            lines.append(fill("tui.took_back", self.language, name=who, card=card))
        else:
            lines.append(self.move_text(step.seat, step.move, step.sweep))
        if step.hand_points is not None:
            points = self.scores(step.hand_points)
            lines.append(
                Text(self.tr("tui.replay_hand_end", n=step.hand_number + 1, points=points), "bold")
            )
            if step is self.steps[-1] and self.game.winner is not None:
                winner = self.side_names()[self.game.winner]
                lines.append(Text(self.tr("tui.winner", name=winner), "bold"))
        return Text("\n").join(lines)

    def analysis_text(self) -> Text:
        """Under the move: the expected lead over the match with a cursor at this move, and
        the analysis of this move (with the coach's words when it was costly)."""
        if self.analysis is None:
            return Text()
        lines: list[Text] = []
        figures = []
        for seat in range(self.game.players):
            accuracy = self.analysis.accuracy(seat)
            if accuracy is not None:
                figures.append(f"{self.seat_name(seat)} {accuracy:.0f}")
        lines.append(Text(self.tr("analysis.step_accuracy", figures=" · ".join(figures)), "dim"))
        chart, column_of = lead_sparkline(self.analysis, width=max(10, self.size.width - 4))
        judged = self.analysed.get(self.index)
        if chart:
            lines.append(Text(chart, style="cyan"))
            if judged is not None:
                lines.append(Text(" " * column_of[judged.index] + "▲"))
        if judged is not None:
            name = self.tr(JUDGEMENT_KEYS[judged.judgement])
            style = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "red"}.get(
                judged.judgement, "green"
            )
            line = Text(self.tr("analysis.step", judgement=name), style=style)
            if judged.is_costly:
                line.append(" " + judged.explanation(self.language, self.deck))
            lines.append(line)
        return Text("\n").join(lines)

    def screen_text(self) -> str:
        """Every text the screen shows (for tests and checks)."""
        return "\n".join(plain_text(w) for w in self.screen.query(Static))

    # -- keys

    def action_step(self, delta: int) -> None:
        self.action_go(max(0, min(len(self.steps) - 1, self.index + delta)))

    def action_go(self, index: int) -> None:
        self.index = index % len(self.steps)
        self.show()
