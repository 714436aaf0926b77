"""The arena: computer players (or any :class:`~escoba.ai.Player`) against each other on
duplicate deals, so that the luck of the cards cancels.

A *duplicate hand* is one shuffled deck (one hand, with its dealer) played once in every
seat rotation. The seats are filled from a *line* of entrants, and rotation ``r`` puts the
entrant at ``line[(seat + r) % seats]`` in each seat:

- 2 or 3 players, or 4 each for themselves: the line is the entrants in the order given, and
  there are as many rotations as seats. Every entrant plays every seat of every deck once,
  and the order of play around the table stays the same (cyclic rotations, not all orders).
- 4 players in partnerships (seats 0+2 against 1+3), two entrants: each entrant plays both
  seats of its side (two players of its kind, each with its own seed); the line is
  ``A B A B`` and there are 2 rotations: the sides swapped, A on seats 0+2, then on 1+3.
- 4 players in partnerships, four entrants: entrants 1+3 are partners against 2+4; the four
  cyclic rotations keep the partnerships, swap the sides twice and put each entrant in every
  seat once.

A game of the arena is one deck in one rotation: :meth:`Game.from_record` replays the deck's
record (the deck and the dealer, no moves yet) and the players play that one hand. Players
never see the game: each gets its seat's :meth:`~escoba.Game.observation` and the legal moves,
and a fresh player is made for every game (a player cannot remember a deck from one rotation
to the next). The seeds come from the arena's ``seed``: deck ``i`` from ``f"arena:{seed}:{i}"``,
and the player in seat ``s`` of deck ``i`` from a hash of ``seed``, ``i`` and ``s`` -- the
same in every rotation, whoever sits there (common random numbers: two copies of one
level replay each other's games exactly, so their difference is exactly zero).

The figures (see :class:`ArenaResult`) are computed per duplicate hand, the unit over which
luck cancels: an entrant's points on a duplicate hand are the mean of its side's points over
the rotations, and the 95% confidence intervals use the normal approximation
``mean ± 1.96·sd/√n`` over the ``n`` duplicate hands.

>>> from escoba import RULESETS
>>> result = play_arena(["beginner", "beginner"], rules=RULESETS["escoba"], hands=4, seed=1)
>>> result.players, result.hands, result.games, result.mean_difference, result.elo
(('beginner', 'beginner'), 4, 8, 0.0, (0.0, 0.0))
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, runtime_checkable

from .ai import FORMER_LEVELS, LEVELS, Player, PlayerFactory, make_player
from .errors import EscobaError, IllegalMoveError, InvalidMoveError, RulesError
from .game import Game
from .moves import Move
from .rules import RuleSet, preset_name
from .scoring import HandResult, match_winner

__all__ = [
    "ELO_LIMIT",
    "Z95",
    "ArenaError",
    "ArenaGame",
    "ArenaResult",
    "Entrant",
    "SeeingPlayer",
    "elo_from_score",
    "play_arena",
    "seat_lines",
]

Z95: Final = 1.96
"""The normal quantile of the 95% confidence intervals."""
ELO_LIMIT: Final = 800.0
"""Elo differences are clamped to ± this (a score rate of 0 or 1 has no finite Elo)."""


class ArenaError(EscobaError, ValueError):
    """Bad arena arguments, or a player that broke the rules (an illegal move)."""


@runtime_checkable
class SeeingPlayer(Protocol):
    """A player that is shown the whole match, hidden cards included (see ``sees_all``)."""

    @property
    def name(self) -> str: ...

    def choose_seeing(self, match: Game, legal: Sequence[Move]) -> Move:
        """One of ``legal`` for the seat to play in ``match`` (a copy of the match)."""
        ...


@dataclass(frozen=True, slots=True)
class Entrant:
    """A competitor of the arena: a name for the tables and a factory of players from a seed."""

    name: str
    factory: PlayerFactory
    sees_all: bool = False
    """The player sees every hand: it chooses with ``choose_seeing`` (a :class:`SeeingPlayer`)
    from a copy of the match. Only benchmark players that bound what search can do."""

    @classmethod
    def level(cls, level: str) -> Entrant:
        """The computer player of a level (``beginner``, ``easy``, ...)."""
        if not isinstance(level, str):
            raise ArenaError(f"a player must be a level name or an Entrant, got {level!r}")
        name = level.strip().lower()
        name = FORMER_LEVELS.get(name, name)  # a former name plays as the level it became
        try:
            make_player(name, 0)
        except EscobaError:
            if name in LEVELS:
                raise ArenaError(
                    f"player level {name!r} is not available in this version"
                ) from None
            raise ArenaError(
                f"unknown player level {level!r}; the levels are {', '.join(LEVELS)}"
            ) from None

        def factory(seed: int) -> Player:
            return make_player(name, seed)

        return cls(name, factory)


@dataclass(frozen=True, slots=True)
class ArenaGame:
    """One game of the arena (one deck in one rotation), as the progress callback gets it."""

    number: int
    """Games finished so far, this one included (1 to ``total``)."""
    total: int
    """Games the arena plays: duplicate hands times rotations."""
    hand: int
    """The duplicate hand (deck), 0-based."""
    rotation: int
    seating: tuple[int, ...]
    """The entrant (index into the arena's players) in each seat."""
    result: HandResult
    points: tuple[int, ...]
    """Each entrant's points in this game: the points of the side it sat on."""
    record: Mapping[str, Any]
    """The game's record (:meth:`Game.record`), the one hand played."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ArenaResult:
    """What an arena measured. Per-entrant tuples follow the order of ``players``."""

    players: tuple[str, ...]
    """The entrants' names, in the order given (a name may repeat)."""
    rules: RuleSet
    seats: int
    partnerships: bool
    seed: int
    hands: int
    """Duplicate hands: decks, each played in every rotation."""
    rotations: int
    games: int
    """Hands played: ``hands * rotations``."""
    total_points: tuple[int, ...]
    """Each entrant's points over all games (its side's points in every game it played)."""
    mean_points: tuple[float, ...]
    """Mean points per hand played: ``total_points / games``."""
    ci95: tuple[tuple[float, float], ...]
    """95% confidence interval of ``mean_points`` over the duplicate hands (``(-inf, inf)``
    with a single hand)."""
    margin: tuple[float, ...]
    """Mean points per hand minus the mean points of the opposing sides in the same game."""
    margin_ci95: tuple[tuple[float, float], ...]
    mean_difference: float | None
    """Two entrants: the first's points per hand minus the second's (``margin[0]``)."""
    difference_ci95: tuple[float, float] | None
    wins: tuple[int, ...]
    """Duplicate hands won: more points over the rotations than every opponent."""
    draws: tuple[int, ...]
    """Duplicate hands tied at the top with an opponent."""
    losses: tuple[int, ...]
    score_rate: tuple[float, ...]
    """Share of duplicate hands won against each opponent, draws counting half (mean over
    the opponents)."""
    elo: tuple[float, ...]
    """Elo difference to the average opponent, from ``score_rate``, clamped to ±ELO_LIMIT.
    Two entrants: ``elo[0] == -elo[1]`` is the first's Elo over the second."""
    matches: int
    """Matches completed when the hands of each rotation are chained, in order, into matches
    to the rule set's target (a match unfinished at the end is dropped)."""
    match_wins: tuple[int, ...]
    """Chained matches won by each entrant's side."""
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-able data (an unbounded interval becomes ``null``)."""

        def interval(ci: tuple[float, float] | None) -> list[float] | None:
            if ci is None or not all(map(math.isfinite, ci)):
                return None
            return [ci[0], ci[1]]

        return {
            "players": list(self.players),
            "rules": preset_name(self.rules) or self.rules.to_dict(),
            "seats": self.seats,
            "partnerships": self.partnerships,
            "seed": self.seed,
            "hands": self.hands,
            "rotations": self.rotations,
            "games": self.games,
            "total_points": list(self.total_points),
            "mean_points": list(self.mean_points),
            "ci95": [interval(ci) for ci in self.ci95],
            "margin": list(self.margin),
            "margin_ci95": [interval(ci) for ci in self.margin_ci95],
            "mean_difference": self.mean_difference,
            "difference_ci95": interval(self.difference_ci95),
            "wins": list(self.wins),
            "draws": list(self.draws),
            "losses": list(self.losses),
            "score_rate": list(self.score_rate),
            "elo": list(self.elo),
            "matches": self.matches,
            "match_wins": list(self.match_wins),
            "seconds": self.seconds,
        }


def elo_from_score(rate: float) -> float:
    """The Elo difference that expects the score ``rate`` (draws counting half), clamped.

    >>> elo_from_score(0.5), round(elo_from_score(0.75), 1), elo_from_score(1.0)
    (0.0, 190.8, 800.0)
    """
    if rate <= 0:
        return -ELO_LIMIT
    if rate >= 1:
        return ELO_LIMIT
    elo = -400 * math.log10(1 / rate - 1)
    return max(-ELO_LIMIT, min(ELO_LIMIT, elo)) + 0.0  # + 0.0: no -0.0


def seat_lines(entrants: int, seats: int, partnerships: bool) -> tuple[tuple[int, ...], ...]:
    """The seating of every rotation: entrant index per seat (see the module's docs).

    >>> seat_lines(2, 2, False)
    ((0, 1), (1, 0))
    >>> seat_lines(2, 4, True)
    ((0, 1, 0, 1), (1, 0, 1, 0))
    >>> seat_lines(3, 3, False)
    ((0, 1, 2), (1, 2, 0), (2, 0, 1))
    """
    line = [i % entrants for i in range(seats)]
    rotations = entrants if partnerships and entrants == 2 else seats
    return tuple(tuple(line[(seat + r) % seats] for seat in range(seats)) for r in range(rotations))


def _mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, (-math.inf, math.inf)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, (mean - half, mean + half)


def _player_seed(seed: int, hand: int, seat: int) -> int:
    digest = hashlib.blake2b(f"arena-player:{seed}:{hand}:{seat}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big")


def _entrants(players: Sequence[str | Entrant]) -> list[Entrant]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ArenaError(f"players: a list of level names or Entrants, got {players!r}")
    return [p if isinstance(p, Entrant) else Entrant.level(p) for p in players]


def _check_setup(entrants: int, seats: int | None, partnerships: bool) -> int:
    if not isinstance(partnerships, bool):
        raise ArenaError(f"partnerships: must be true or false, got {partnerships!r}")
    if seats is None:
        seats = 4 if partnerships else entrants
    if not isinstance(seats, int) or isinstance(seats, bool) or not 2 <= seats <= 4:
        raise ArenaError(f"players: must be 2, 3 or 4 seats, got {seats!r}")
    if partnerships:
        if seats != 4:
            raise ArenaError(f"partnerships: need 4 players, got {seats}")
        if entrants not in (2, 4):
            raise ArenaError(
                f"partnerships: give 2 players (one per side) or 4 (one per seat, "
                f"the 1st and 3rd against the 2nd and 4th), got {entrants}"
            )
    elif entrants != seats:
        raise ArenaError(f"{seats} players: give one player per seat, got {entrants}")
    return seats


def play_arena(
    players: Sequence[str | Entrant],
    *,
    rules: RuleSet,
    hands: int,
    seats: int | None = None,
    partnerships: bool = False,
    seed: int = 0,
    on_game: Callable[[ArenaGame], None] | None = None,
) -> ArenaResult:
    """Play ``hands`` duplicate hands between ``players`` (level names or :class:`Entrant`s).

    ``seats`` defaults to one per player (4 with ``partnerships``). ``on_game`` is called
    after every game (one deck in one rotation) with an :class:`ArenaGame`. Bad arguments,
    and a player choosing an illegal move, raise :class:`ArenaError`.
    """
    started = time.perf_counter()
    if not isinstance(rules, RuleSet):
        raise ArenaError(f"rules must be a RuleSet (see RULESETS), got {rules!r}")
    if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
        raise ArenaError(f"hands: must be a whole number >= 1, got {hands!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ArenaError(f"seed: must be a whole number, got {seed!r}")
    entrants = _entrants(players)
    count = len(entrants)
    seats = _check_setup(count, seats, partnerships)
    try:
        rules.deals_per_hand(seats)  # Scopone's deck shares out among 2 or 4 seats, not 3
    except RulesError as error:
        raise ArenaError(str(error)) from None
    lines = seat_lines(count, seats, partnerships)
    rotations = len(lines)
    total = hands * rotations
    # Opponents: entrants that sit on different sides (partners never do).
    sides = 2 if partnerships else seats
    sides_of_line = [seat % sides for seat in range(seats)]
    side_of_entrant = {lines[0][seat]: sides_of_line[seat] for seat in range(seats)}
    opponents = [
        [f for f in range(count) if side_of_entrant[f] != side_of_entrant[e]] for e in range(count)
    ]

    # points[hand][rotation][entrant], margins likewise; side points per game for matches
    points: list[list[tuple[int, ...]]] = []
    # margins as whole numbers: own * (sides - 1) - the other sides' points
    margins: list[list[tuple[int, ...]]] = []
    side_points: list[list[tuple[int, ...]]] = []
    number = 0
    for hand in range(hands):
        template = Game(rules, seats, partnerships, seed=f"arena:{seed}:{hand}").record()
        points.append([])
        margins.append([])
        side_points.append([])
        for rotation, seating in enumerate(lines):
            game = Game.from_record(template)
            seated = [
                entrants[e].factory(_player_seed(seed, hand, seat))
                for seat, e in enumerate(seating)
            ]
            while game.hand_number == 0 and not game.is_over():
                seat = game.to_move
                assert seat is not None
                observation = game.observation(seat)
                player = seated[seat]
                if entrants[seating[seat]].sees_all:
                    if not isinstance(player, SeeingPlayer):
                        raise ArenaError(
                            f"player {entrants[seating[seat]].name!r} is marked as seeing "
                            "every hand but has no choose_seeing()"
                        )
                    move = player.choose_seeing(game.copy(), observation.legal_moves)
                else:
                    move = player.choose(observation, observation.legal_moves)
                try:
                    game.play(move)
                except (IllegalMoveError, InvalidMoveError) as error:
                    raise ArenaError(
                        f"player {entrants[seating[seat]].name!r} in seat {seat} "
                        f"chose an illegal move: {error}"
                    ) from None
            result = game.results[0]
            by_side = result.points
            mine = [0] * count
            margin = [0] * count
            for seat, e in enumerate(seating):
                side = game.side_of(seat)
                mine[e] = by_side[side]
                margin[e] = by_side[side] * sides - sum(by_side)
            points[hand].append(tuple(mine))
            margins[hand].append(tuple(margin))
            side_points[hand].append(by_side)
            number += 1
            if on_game is not None:
                record = game.record()
                record["hands"] = record["hands"][:1]
                on_game(
                    ArenaGame(
                        number=number,
                        total=total,
                        hand=hand,
                        rotation=rotation,
                        seating=seating,
                        result=result,
                        points=tuple(mine),
                        record=record,
                    )
                )

    # Per duplicate hand: each entrant's mean over the rotations.
    per_hand = [[sum(g[e] for g in games) / rotations for e in range(count)] for games in points]
    per_hand_margin = [
        [sum(g[e] for g in games) / (rotations * (sides - 1)) for e in range(count)]
        for games in margins
    ]
    total_points = tuple(sum(g[e] for games in points for g in games) for e in range(count))
    mean_points: list[float] = []
    ci95: list[tuple[float, float]] = []
    margin_mean: list[float] = []
    margin_ci: list[tuple[float, float]] = []
    for e in range(count):
        _, ci = _mean_ci([row[e] for row in per_hand])
        mean_points.append(total_points[e] / total)
        ci95.append(ci)
        m, mci = _mean_ci([row[e] for row in per_hand_margin])
        margin_mean.append(m)
        margin_ci.append(mci)

    wins = [0] * count
    draws = [0] * count
    losses = [0] * count
    scores = [0.0] * count
    for games in points:
        sums = [sum(g[e] for g in games) for e in range(count)]
        for e in range(count):
            against = [sums[f] for f in opponents[e]]
            best = max(against)
            if sums[e] > best:
                wins[e] += 1
            elif sums[e] == best:
                draws[e] += 1
            else:
                losses[e] += 1
            scores[e] += math.fsum(
                1.0 if sums[e] > a else 0.5 if sums[e] == a else 0.0 for a in against
            ) / len(against)
    score_rate = tuple(s / hands for s in scores)

    matches, match_wins = _chain_matches(rules, lines, side_points, partnerships, count)
    two = count == 2
    return ArenaResult(
        players=tuple(e.name for e in entrants),
        rules=rules,
        seats=seats,
        partnerships=partnerships,
        seed=seed,
        hands=hands,
        rotations=rotations,
        games=total,
        total_points=total_points,
        mean_points=tuple(mean_points),
        ci95=tuple(ci95),
        margin=tuple(margin_mean),
        margin_ci95=tuple(margin_ci),
        mean_difference=margin_mean[0] if two else None,
        difference_ci95=margin_ci[0] if two else None,
        wins=tuple(wins),
        draws=tuple(draws),
        losses=tuple(losses),
        score_rate=score_rate,
        elo=tuple(elo_from_score(rate) for rate in score_rate),
        matches=matches,
        match_wins=tuple(match_wins),
        seconds=time.perf_counter() - started,
    )


def _chain_matches(
    rules: RuleSet,
    lines: Sequence[tuple[int, ...]],
    side_points: Sequence[Sequence[tuple[int, ...]]],
    partnerships: bool,
    count: int,
) -> tuple[int, list[int]]:
    """Chain each rotation's hands, in order, into matches to the target (as
    :class:`Game` ends a match: the target reached with a lead of ``win_by``)."""
    matches = 0
    match_wins = [0] * count
    for rotation, seating in enumerate(lines):
        sides = 2 if partnerships else len(seating)
        members = [{e for seat, e in enumerate(seating) if seat % sides == s} for s in range(sides)]
        totals = [0] * sides
        for games in side_points:
            for side, gained in enumerate(games[rotation]):
                totals[side] += gained
            best = match_winner(totals, rules)
            if best is not None:
                matches += 1
                for e in members[best]:
                    match_wins[e] += 1
                totals = [0] * sides
    return matches, match_wins
