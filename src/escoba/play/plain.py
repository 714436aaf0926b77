"""``escoba play --plain``: the match as plain lines, for screen readers and pipes.

Before each of the person's moves it prints the state and a numbered list of the legal moves
(numbered from 1, so answering 1 is always legal), then reads one number per line; ``h``
asks the coach for a hint, ``r`` shows the rules' cheat sheet, ``s`` the score pad so far,
``c`` each side's captured cards.
Anything else is refused with a line saying why, and asked again. Computer moves are printed one a
line; after each hand, the score pad. At the end of input the match is saved; at the end of
the match the result is printed and the saved match forgotten.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from typing import ClassVar, TextIO

from ..ai.coach import Coach
from ..cheatsheet import cheat_sheet_lines, cheat_sheet_title
from ..explanation import explain_hand
from ..observation import Play
from ..rules import preset_name
from .local_match import LocalMatch, LocalMatchError, Played
from .render import Words, capital, captures_shown
from .saves import Saves

__all__ = ["PlainGame", "words_for"]

RECENT = 6
"""At most this many of the hand's last moves are shown with the state."""


def words_for(match: LocalMatch) -> Words:
    return Words(
        match.deck,
        match.language,
        match.game.sides,
        match.levels,
        you=match.person,
        rules=match.game.rules,
    )


class PlainGame:
    """Runs a local match on a text input and output until the match ends or the input does."""

    def __init__(
        self,
        match: LocalMatch,
        saves: Saves,
        stdin: TextIO,
        stdout: TextIO,
        *,
        resumed: bool = False,
        coach: Coach | None = None,
    ) -> None:
        self.match = match
        self.saves = saves
        self.stdin = stdin
        self.stdout = stdout
        self.words = words_for(match)
        self.resumed = resumed
        self._coach = coach
        self._heading: int | None = None
        """The hand whose heading was printed last: each hand's heading is printed once."""

    @property
    def coach(self) -> Coach:
        """The coach of the hints, made when first asked for (its search takes a moment)."""
        if self._coach is None:
            self._coach = Coach(seed=self.match.seed)
        return self._coach

    def say(self, line: str = "") -> None:
        self.stdout.write(line + "\n")

    def run(self) -> int:
        """Play on; the exit code (0: the match ended or was saved)."""
        match = self.match
        self.header()
        if not any(isinstance(e, Play) for e in match.game.history()):
            self.opening()
        try:
            while not match.is_over():
                if match.person_to_move():
                    if not self.person_turn():
                        return self.save()
                else:
                    played = match.advance()
                    assert played is not None
                    self.report(played)
        except KeyboardInterrupt:
            return self.save()
        self.finish()
        return 0

    # -- the parts

    def header(self) -> None:
        w = self.words
        game = self.match.game
        name = preset_name(game.rules) or w.text("play.custom_rules")
        players = w.plural("count.players", game.players)
        seat = self.match.person + 1  # counted from 1, as the web lobby does
        self.say(w.text("play.header", rules=name, players=players, seed=game.seed, seat=seat))
        if game.partnerships:
            self.say(w.text("play.partnerships"))
        for seat, level in enumerate(self.match.levels):
            if level is not None:
                self.say(w.text("play.opponent", seat=seat + 1, level=w.level(level)))
        self.say(w.text("play.target", target=game.rules.target_score))
        if self.resumed:
            self.say(w.text("play.resumed"))

    def heading(self, hand_number: int, dealer: int) -> None:
        """The hand's heading, "Hand 2. Dealer: you.", unless it is already on the screen."""
        if self._heading == hand_number:
            return
        self._heading = hand_number
        self.say(
            self.words.text("play.hand", number=hand_number + 1, dealer=self.words.seat(dealer))
        )

    def opening(self) -> None:
        """A new hand: who deals, and a redeal or an initial sweep if there was one."""
        game = self.match.game
        self.say()
        self.heading(game.hand_number, game.dealer)
        for event in game.history():
            line = self.words.event(event)
            if line is not None:
                self.say(line)

    def state(self) -> None:
        """The person's view: hand number, dealer, scores, table, own hand, the others'
        card counts, stock, captures and sweeps, the last moves."""
        w = self.words
        obs = self.match.observation()
        self.say()
        # The opening of the hand printed its heading already; a resumed match has none yet.
        self.heading(obs.hand_number, obs.dealer)
        self.say(w.text("play.scores", scores=w.scores(obs.totals)))
        recent = [e for e in obs.history if isinstance(e, Play)][-RECENT:]
        if recent:
            self.say(w.text("play.last_moves"))
            for event in recent:
                self.say("  " + w.played(event.seat, event.move, event.sweep))
        self.say(w.text("play.table", cards=w.cards(obs.table)))
        self.say(w.text("play.your_hand", cards=w.cards(obs.hand)))
        for seat, count in enumerate(obs.hand_sizes):
            if seat != obs.seat:
                self.say(w.text("play.hand_size", who=w.seat(seat), count=count))
        self.say(w.plural("play.stock", obs.stock_size))
        for side, pile in enumerate(obs.captured):
            self.say(
                capital(
                    w.plural("play.captured", len(pile), side=w.side(side), sweeps=obs.sweeps[side])
                )
            )

    def person_turn(self) -> bool:
        """Show the state and the moves, read a choice and play it; False at end of input."""
        w = self.words
        self.state()
        moves = self.match.legal_moves()
        self.say(w.text("play.your_moves"))
        for number, move in enumerate(moves, start=1):
            self.say(f"  {number}. {w.move(move)}")
        count = len(moves)
        while True:
            self.say(w.text("play.prompt", count=count))
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                return False
            answer = line.strip()
            if answer.lower() == "u":
                if self.take_back():
                    return True  # an earlier position: shown again, with its moves
                continue
            if answer.lower() in self.ASKS:
                self.ASKS[answer.lower()](self)
                continue
            try:
                number = int(answer)
            except ValueError:
                self.say(w.text("play.not_a_number", text=answer, count=count))
                continue
            if not 1 <= number <= count:
                self.say(w.text("play.out_of_range", number=number, count=count))
                continue
            self.report(self.match.play(moves[number - 1]))
            return True

    def hint(self) -> None:
        """The coach's best move and why, in the player's deck and language."""
        w = self.words
        best = self.coach.advise(self.match.observation()).best
        why = best.text(w.language, w.deck)
        self.say(w.text("play.hint", move=w.move_phrase(best.move), why=why))

    def rules(self) -> None:
        """The cheat sheet of the match's rules, its cards named as the player's deck."""
        w = self.words
        rules = self.match.game.rules
        self.say(cheat_sheet_title(preset_name(rules) or w.text("play.custom_rules"), w.language))
        for line in cheat_sheet_lines(rules, w.language, w.deck):
            self.say(line)

    def score_pad(self) -> None:
        """The score pad of every finished hand, with the running totals."""
        w = self.words
        results = self.match.game.results
        if not results:
            self.say(w.text("play.no_hands_yet", scores=w.scores(self.match.game.totals)))
            return
        totals = [0] * len(self.match.game.sides)
        for number, result in enumerate(results):
            totals = [t + p for t, p in zip(totals, result.points, strict=True)]
            for line in w.score_pad(number, result, totals):
                self.say(line)

    def captures(self) -> None:
        """Each side's captured cards, suit by suit: of this hand, or between hands of the
        hand just ended."""
        game = self.match.game
        for line in self.words.captures(captures_shown(self.match.observation(), game.results)):
            self.say(line)

    def take_back(self) -> bool:
        """Take back the person's last move of the hand and the computer moves after it;
        False, saying why, when there is none."""
        w = self.words
        try:
            taken = self.match.take_back()
        except LocalMatchError:
            self.say(w.text("tui.take_back_none"))
            return False
        self.say(w.text("tui.taken_back", card=w.card(taken[-1].move.card)))
        return True

    ASKS: ClassVar[Mapping[str, Callable[[PlainGame], None]]] = {
        "h": hint,
        "r": rules,
        "s": score_pad,
        "c": captures,
    }
    """What the letters at the move prompt ask for."""

    def report(self, played: Played) -> None:
        w = self.words
        self.say(w.played(played.seat, played.move, played.sweep))
        if played.hand_ended:
            game = self.match.game
            number = played.hand_number
            # The hand just ended is the last result: the match totals are the running ones.
            for line in w.hand_end(number, game.results[number], game.totals):
                self.say(line)
            for line in w.explanation(number, explain_hand(game.results[number], game.rules)):
                self.say(line)
            if not game.is_over():
                self.opening()
        self.stdout.flush()

    def save(self) -> int:
        path = self.saves.save_current(self.match)
        self.say()
        self.say(self.words.text("play.saved", path=path))
        self.stdout.flush()
        return 0

    def finish(self) -> None:
        w = self.words
        game = self.match.game
        winner = game.winner
        assert winner is not None
        scores = w.scores(game.totals)
        self.say()
        if self.match.person in game.sides[winner]:
            self.say(w.text("play.you_win", scores=scores))
        else:
            self.say(w.text("play.you_lose", winner=w.side(winner), scores=scores))
        self.saves.clear_current()
        path = self.saves.save_finished(self.match)
        self.say(w.text("play.kept", path=shlex.quote(str(path))))  # a command to copy
        self.stdout.flush()
