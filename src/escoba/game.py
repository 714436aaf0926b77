"""A match: dealing, turns, hands, match end, observations and records.

The state is kept as ints (bit sets of cards) so that random play and search run fast; the
public methods turn it into Cards, Moves and immutable views. Every change of state goes
through :meth:`Game.play` or :meth:`Game.play_key`, which accept only legal moves,
:meth:`Game.take_back`, or :meth:`Game.deal` (chance made explicit), each checked.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from ._bits import (
    FULL_DECK,
    KINGS_MASK,
    SIG,
    SWEPT,
    VALUE,
    capture_effect,
    shuffled_deck,
    signature,
    sweep_limit,
    value_sum,
)
from .captures import capture_masks, legal_keys
from .cards import DECK, Card, card_set, cards_of_mask
from .errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    InvalidQueryError,
    RecordError,
    RulesError,
)
from .moves import INTERNED, Move
from .observation import (
    Deal,
    Event,
    InitialSweep,
    Observation,
    Play,
    PublicView,
    Redeal,
    TakeBack,
)
from .record_format import (
    TAKE_BACK,
    MatchRecord,
    RecordedMatch,
    hand_record,
    match_record,
    parse_record,
)
from .rules import RuleSet
from .scoring import HandResult, match_winner, score_masks
from .snapshot import Snapshot

__all__ = ["Game", "GivenDeck", "OnMove", "replay_moves"]
_SWEEP: Final = 1 << 46  # log flag beside a move key: this capture scored a sweep
_KEY: Final = _SWEEP - 1
_TAKEN_BACK: Final = -1  # a take back among a hand's recorded moves
_DEALS: Final = tuple(Deal(number) for number in range(41))
# Each seat's plays by log entry (a move key with its sweep flag): the events are values, so
# a match hands out the same ones again. Past _PLAYS_KEPT a seat's memo starts again.
_PLAYS: Final[tuple[dict[int, Play], ...]] = ({}, {}, {}, {})
_PLAYS_KEPT: Final = 1 << 15
_DEALT: dict[int, Play] = {}  # (entry << 2 | seat) << 6 | round -> that play, then the deal
_OPENING: Final = (_DEALS[1],)  # how most hands open: one deal

Deck = tuple[int, ...]
GivenDeck = Sequence[Card | str]
"""A deck given to deal from: the 40 cards in dealing order, as Cards or their texts (a
record's deal is one)."""


# Play's slots, set one by one: what a frozen dataclass's __init__ does, without its
# per-field object.__setattr__ calls (every move returns a Play; most are memoized).
_SET_SEAT, _SET_CARD, _SET_CAPTURES, _SET_SWEEP, _SET_KIND = (
    Play.__dict__[name].__set__ for name in ("seat", "card", "captures", "sweep", "kind")
)
_SET_DEAL, _SET_RESULT, _SET_NEXT_HAND, _SET_WINNER = (
    Play.__dict__[name].__set__ for name in ("deal", "result", "next_hand", "winner")
)
_CAPTURED: dict[int, frozenset[Card]] = {}  # capture mask -> its cards


def _made_play(
    seat: int,
    card: Card,
    captures: frozenset[Card],
    sweep: bool,
    deal: Deal | None = None,
    result: HandResult | None = None,
    next_hand: tuple[Event, ...] = (),
    winner: int | None = None,
) -> Play:
    made = object.__new__(Play)
    _SET_SEAT(made, seat)
    _SET_CARD(made, card)
    _SET_CAPTURES(made, captures)
    _SET_SWEEP(made, sweep)
    _SET_KIND(made, "play")
    _SET_DEAL(made, deal)
    _SET_RESULT(made, result)
    _SET_NEXT_HAND(made, next_hand)
    _SET_WINNER(made, winner)
    return made


def _followed(
    play: Play,
    deal: Deal | None = None,
    result: HandResult | None = None,
    next_hand: tuple[Event, ...] = (),
    winner: int | None = None,
) -> Play:
    """``play`` with what followed it."""
    return _made_play(
        play.seat, play.card, play.captures, play.sweep, deal, result, next_hand, winner
    )


_DROPS: Final = tuple(
    tuple(_made_play(seat, card, frozenset(), False) for card in DECK) for seat in range(4)
)
"""Each seat's drop of each card."""


def _dealt(dealt: int, play: Play, deal: Deal) -> Play:
    """``play`` followed by ``deal``, memoized under ``dealt``."""
    if len(_DEALT) >= _PLAYS_KEPT:
        _DEALT.clear()
    made = _DEALT[dealt] = _followed(play, deal=deal)
    return made


def _play_of(entry: int, seat: int) -> Play:
    """The Play event of a log entry (a move key with its sweep flag) by a seat, memoized:
    returning an event from every move costs a dictionary lookup."""
    mask = (entry & _KEY) >> 6
    captures = _CAPTURED.get(mask)
    if captures is None:
        captures = _CAPTURED[mask] = card_set(mask)
    play = _made_play(seat, DECK[entry & 63], captures, bool(entry & _SWEEP))
    plays = _PLAYS[seat]
    if len(plays) >= _PLAYS_KEPT:
        plays.clear()
        _CAPTURED.clear()
    plays[entry] = play
    return play


class _HandLog:
    """What happened in one hand, as the record and the public history need it."""

    __slots__ = (
        "dealer",
        "deals",
        "earlier",
        "initial_sweeps",
        "initial_table",
        "plays",
        "resumed_at",
    )

    def __init__(self, dealer: int) -> None:
        self.dealer = dealer
        self.deals: list[Deck] = []
        self.plays: list[int] = []  # move keys, with the _SWEEP flag
        self.initial_table = 0
        self.initial_sweeps = 0
        # The record's moves up to the last take back (_TAKEN_BACK marks each); the moves
        # since are plays[resumed_at:]. Kept aside so that a move appends to plays only.
        self.earlier: list[int] = []
        self.resumed_at = 0

    def recorded(self) -> list[int]:
        """Every move in the order played, take backs included."""
        return [*self.earlier, *self.plays[self.resumed_at :]]


class Game:
    """A match of Escoba, Scopa, Scopone or Escova between 2, 3 or 4 seats.

    >>> from escoba import DECK, RULESETS
    >>> game = Game(RULESETS["escoba"], players=2, seed=7)
    >>> game.to_move == (game.dealer + 1) % 2, len(game.hand(game.to_move)), game.stock_size
    (True, 3, 30)
    >>> while not game.is_over():
    ...     event = game.play(game.legal_moves()[0])
    >>> event.winner == game.winner is not None and max(game.totals) >= 21
    True

    Chance is the first dealer's draw and the shuffle of every hand, all from ``seed``
    unless given: here seat 1 deals the first hand from the deck in its canonical order.

    >>> game = Game(RULESETS["escoba"], seed=0, first_dealer=1, decks=[DECK])
    >>> " ".join(map(str, game.hand(0))), " ".join(map(str, game.table)), game.to_move
    ('Ad 2d 3d', '7d Jd Qd Kd', 0)
    """

    def __init__(
        self,
        rules: RuleSet,
        players: int = 2,
        partnerships: bool = False,
        *,
        seed: int | str,
        first_dealer: int | None = None,
        decks: Iterable[GivenDeck] | None = None,
    ) -> None:
        """Start a match between ``players`` seats (2, 3 or 4; four may play in two
        ``partnerships``).

        ``seed`` (a whole number or a string) decides every shuffle and, unless
        ``first_dealer`` names the seat that deals first, the draw for it. ``decks`` are
        shuffles made elsewhere (a position to study, a record's decks), in the order they are
        dealt, each the 40 cards in dealing order (Cards or their texts): the first hand is
        dealt from the first deck, a deal voided by ``kings_redeal`` takes the next, and so
        on; once they run out, the seed shuffles. Given here rather than drawn through a
        callback, they keep a match a value that copies and records without calling out;
        decks drawn while the match goes on (OpenSpiel's chance nodes) are given to
        :meth:`deal`. A bad setting or deck raises RulesError naming it.
        """
        if not isinstance(rules, RuleSet):
            raise RulesError(f"rules must be a RuleSet (see RULESETS), got {rules!r}")
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
            raise RulesError(f"players: must be 2, 3 or 4, got {players!r}")
        if not isinstance(partnerships, bool):
            raise RulesError(f"partnerships: must be true or false, got {partnerships!r}")
        if partnerships and players != 4:
            raise RulesError(f"partnerships: need 4 players, got {players}")
        rules.deals_per_hand(players)  # the deck must share out evenly
        if not isinstance(seed, (int, str)) or isinstance(seed, bool):
            raise RulesError(f"seed: must be a whole number or a string, got {seed!r}")
        if first_dealer is not None and (
            not isinstance(first_dealer, int)
            or isinstance(first_dealer, bool)
            or not 0 <= first_dealer < players
        ):
            raise RulesError(
                f"first_dealer: must be a seat 0 to {players - 1} (or None to draw for it), "
                f"got {first_dealer!r}"
            )
        if decks is None:
            given: tuple[Deck, ...] = ()
        elif isinstance(decks, (str, bytes)) or not isinstance(decks, Iterable):
            raise RulesError(f"decks: must be a list of decks, got {decks!r}")
        else:
            given = tuple(
                _checked_deck(deck, f"decks: deck {number}")
                for number, deck in enumerate(decks, start=1)
            )
        self.rules = rules
        self.players = players
        self.partnerships = partnerships
        self.seed = seed
        if partnerships:
            self.sides: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
        else:
            self.sides = tuple((seat,) for seat in range(players))
        self._side_of = tuple(seat % len(self.sides) for seat in range(players))
        self._next_seat = tuple((seat + 1) % players for seat in range(players))
        self._match = rules.capture == "match"
        self._forced = rules.forced_capture
        self._ace_takes_all = rules.ace_takes_all
        self._plays_per_hand = rules.plays_per_hand
        self._sweep_limit = sweep_limit(rules)
        self._round = rules.hand_cards * players  # cards dealt to the seats at a time
        self._table_cards = rules.table_cards
        self._given = given  # decks given to deal from, in order; the seed deals after them
        self._given_used = 0
        self.first_dealer = self._draw_for_dealer() if first_dealer is None else first_dealer
        self._dealer = self.first_dealer
        self._hand_number = 0
        self._hand_logs: list[_HandLog] = []
        # Finished hands as raw data; HandResult values are made when first asked for.
        self._results: tuple[HandResult, ...] = ()
        self._totals = [0] * len(self.sides)
        self._winner: int | None = None
        self._start_hand()

    # -- randomness: every deck comes from the seed, by hand and attempt, so a replayed
    # -- record continues exactly as the original match would have.

    def _shuffled(self, *purpose: object) -> Deck:
        # A hash of the seed and the purpose, not a generator's state: any hand's deck can
        # be made again from the seed alone.
        return shuffled_deck(":".join(map(str, ("escoba", self.seed, *purpose))))

    def _draw_for_dealer(self) -> int:
        """Each seat draws a card, lowest deals; the seats tied lowest draw again."""
        deck = list(self._shuffled("lot"))
        drawing = list(range(self.players))
        while True:
            draws = {seat: VALUE[deck.pop()] for seat in drawing}
            lowest = min(draws.values())
            drawing = [seat for seat in drawing if draws[seat] == lowest]
            if len(drawing) == 1:
                return drawing[0]

    def _deck_for(self, attempt: int) -> Deck:
        """The next deck to deal: the next one given, else the seed's."""
        if self._given_used < len(self._given):
            self._given_used += 1
            return self._given[self._given_used - 1]
        return self._shuffled("hand", self._hand_number, attempt)

    def _first_table(self, deck: Deck) -> int:
        """The cards a deck deals face up to the table, as a mask."""
        table = 0
        for card in deck[self._round : self._round + self._table_cards]:
            table |= 1 << card
        return table

    def _voids(self, table: int) -> bool:
        """Whether a deal showing ``table`` is void and dealt again (RULES.md "A hand" 3:
        three or more kings on the table, under ``kings_redeal``)."""
        return self.rules.kings_redeal and (table & KINGS_MASK).bit_count() >= 3

    # -- the hand

    def _start_hand(self, decks: Sequence[Deck] = ()) -> None:
        """Deal a hand: from ``decks`` if given (:meth:`deal` has checked that they deal it
        exactly), else from the next decks given to the match, else from the seed."""
        n = self.players
        log = _HandLog(self._dealer)
        self._hand_logs.append(log)
        self._log = log.plays
        table = 0
        deck: Deck = ()
        while not deck or self._voids(table):
            deck = decks[len(log.deals)] if decks else self._deck_for(len(log.deals))
            log.deals.append(deck)
            table = self._first_table(deck)
        self._deck = deck
        self._hands: list[list[int]] = [[] for _ in range(n)]
        self._stock_pos = 0
        self._deal_round()
        self._stock_pos += self._table_cards
        self._piles = [0] * len(self.sides)
        self._sweeps = [0] * len(self.sides)
        self._last_capturer = -1
        total = value_sum(table)
        if self.rules.initial_table_sweeps and total in (15, 30):
            side = self._side_of[self._dealer]
            self._piles[side] = table
            self._sweeps[side] = total // 15
            self._last_capturer = self._dealer
            log.initial_table = table
            log.initial_sweeps = total // 15
            table = 0
        self._table = table
        self._sig = signature(table)
        self._to_move = (self._dealer + 1) % n
        self._keys: list[int] | None = None

    def deal(self, *decks: GivenDeck) -> tuple[Event, ...]:
        """Deal the current hand from ``decks`` instead of the deck it was dealt from, before
        its first move, and return its opening events (:meth:`history`): chance made explicit,
        for a caller that shuffles each hand once the one before has ended (OpenSpiel's
        chance nodes). ``decks`` are in the order dealt, each the 40 cards in dealing order:
        any deal voided by ``kings_redeal`` first, the deck the hand is played from last.

        The hand starts again from them (the seats' hands, the table, the stock, an initial
        sweep) and the record holds them in its place. Bad decks raise RulesError naming
        what is wrong; once the hand has a move (even one taken back), or the match is over,
        IllegalMoveError; either way nothing changes.
        """
        if self._to_move < 0:
            raise IllegalMoveError("the match is over: there is no hand to deal")
        log = self._hand_logs[-1]
        if log.plays or log.earlier:
            raise IllegalMoveError(
                f"hand {self._hand_number + 1} has begun: a hand is dealt only before its "
                "first move"
            )
        if not decks:
            raise RulesError("deal: give the deck to deal from")
        given = tuple(
            _checked_deck(deck, f"deck {number}") for number, deck in enumerate(decks, start=1)
        )
        for number, deck in enumerate(given, start=1):
            void = self._voids(self._first_table(deck))
            if void and number == len(given):
                raise RulesError(
                    f"deck {number}: 3 or more kings on the table void the deal "
                    "(kings_redeal): give the deck it is dealt again from after it"
                )
            if not void and number < len(given):
                raise RulesError(
                    f"deck {number}: its deal stands (only 3 or more kings on the table void "
                    f"a deal, under kings_redeal), so deck {number + 1} would never be dealt"
                )
        self._hand_logs.pop()
        self._start_hand(given)
        return self.history()

    def _deal_round(self) -> None:
        n = self.players
        pos = self._stock_pos
        deck = self._deck
        size = self.rules.hand_cards
        for i in range(1, n + 1):
            self._hands[(self._dealer + i) % n] = sorted(deck[pos : pos + size])
            pos += size
        self._stock_pos = pos

    def _apply(self, key: int) -> Play:
        """Play a legal move given by its key (the hot path: no checks here); return its
        event."""
        seat = self._to_move
        card = key & 63
        hand = self._hands[seat]
        hand.remove(card)
        log = self._log
        if key >> 6:
            self._table, self._sig, gained = capture_effect(
                key, self._table, self._sig, len(log), self._sweep_limit, self._ace_takes_all
            )
            side = self._side_of[seat]
            self._piles[side] |= gained & FULL_DECK
            self._last_capturer = seat
            if gained & SWEPT:
                self._sweeps[side] += 1
                key |= _SWEEP
            play = _PLAYS[seat].get(key) or _play_of(key, seat)
        else:
            self._table |= 1 << card
            self._sig += SIG[card]
            play = _DROPS[seat][card]
        log.append(key)
        self._keys = None
        if hand or seat != self._dealer:
            self._to_move = self._next_seat[seat]
            return play
        if len(log) < self._plays_per_hand:
            self._deal_round()
            self._to_move = self._next_seat[seat]
            deal = _DEALS[len(log) // self._round + 1]
            dealt = ((key << 2 | seat) << 6) | deal.round
            return _DEALT.get(dealt) or _dealt(dealt, play, deal)
        result = self._end_hand()
        if self._winner is not None:
            return _followed(play, result=result, winner=self._winner)
        opened = self._hand_logs[-1]
        plain = len(opened.deals) == 1 and not opened.initial_sweeps
        opening = _OPENING if plain else self.history()
        return _followed(play, result=result, next_hand=opening)

    def _end_hand(self) -> HandResult:
        leftovers = 0
        if self._table and self._last_capturer >= 0:
            leftovers = self._table
            self._piles[self._side_of[self._last_capturer]] |= leftovers
            self._table = 0
            self._sig = 0
        points, breakdown = score_masks(self._piles, self._sweeps, self.rules)
        result = HandResult(
            dealer=self._dealer,
            piles=tuple(map(card_set, self._piles)),
            sweeps=tuple(self._sweeps),
            points=points,
            breakdown=MappingProxyType(breakdown),
            leftovers=card_set(leftovers),
            last_capturer=None if self._last_capturer < 0 else self._last_capturer,
        )
        self._results = (*self._results, result)
        totals = self._totals
        for side, gained in enumerate(points):
            totals[side] += gained
        winner = match_winner(totals, self.rules)
        if winner is not None:
            self._winner = winner
            self._to_move = -1
            self._keys = None
            return result
        self._hand_number += 1
        self._dealer = (self._dealer + 1) % self.players
        self._start_hand()
        return result

    # -- moves

    def _current_keys(self) -> list[int]:
        """The legal keys of the seat to move, worked out once a position (kept in _keys)."""
        keys = self._keys
        if keys is None:
            if self._to_move < 0:
                keys = self._keys = []
            else:
                keys = self._keys = legal_keys(
                    self._hands[self._to_move],
                    self._table,
                    self._sig,
                    self._match,
                    self._forced,
                    self._ace_takes_all,
                )
        return keys

    def legal_keys(self) -> list[int]:
        """The legal moves as ints (card index | capture mask << 6): the fast path for
        simulation and search; :meth:`play_key` plays one."""
        keys = self._keys
        if keys is None:  # after every move: _current_keys's work, without its call
            if self._to_move < 0:
                return []
            keys = self._keys = legal_keys(
                self._hands[self._to_move],
                self._table,
                self._sig,
                self._match,
                self._forced,
                self._ace_takes_all,
            )
        return keys.copy()

    def play_key(self, key: int) -> Play:
        """Play a move given as its int key and return its event (see :meth:`play`); an
        illegal key raises IllegalMoveError."""
        if key.__class__ is int and key in (self._keys or self._current_keys()):
            return self._apply(key)
        if not isinstance(key, int) or isinstance(key, bool) or not 0 <= key < 1 << 46:
            raise InvalidMoveError(f"a move key must be an int from legal_keys(), got {key!r}")
        if key & 63 >= 40:
            raise InvalidMoveError(f"move key {key} names no card")
        raise IllegalMoveError(self._why_illegal(Move.of_key(key)))

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move (empty once the match is over)."""
        keys = self._keys
        if keys is None:  # after every move: _current_keys's work, without its call
            if self._to_move < 0:
                return []
            keys = self._keys = legal_keys(
                self._hands[self._to_move],
                self._table,
                self._sig,
                self._match,
                self._forced,
                self._ace_takes_all,
            )
        return list(map(INTERNED.__getitem__, keys))

    def play(self, move: Move | str) -> Play:
        """Play a move (a :class:`Move` or its text) and return its event: the :class:`Play`,
        with what followed it by itself (the next round's deal, the hand's result, the
        opening of the next hand, the match's winner). An illegal move raises
        :class:`IllegalMoveError` and changes nothing."""
        if move.__class__ is not Move:
            if not isinstance(move, str):
                raise InvalidMoveError(f"a move must be a Move or its text, got {move!r}")
            move = Move.parse(move)
        key = move.key
        if key in (self._keys or self._current_keys()):
            return self._apply(key)
        raise IllegalMoveError(self._why_illegal(move))

    def take_back(self) -> TakeBack:
        """Take back the last move of the current hand and return its :class:`TakeBack`:
        the match is again exactly as it was before that move (hands, table, stock,
        captures, sweeps, the seat to move), a round's deal that followed it undone. The
        record keeps the move and its take back, so a replay shows both. With no move in
        the current hand (it has just begun) or once the match is over, raises
        :class:`IllegalMoveError` and changes nothing."""
        if self._to_move < 0:
            raise IllegalMoveError("the match is over: no move can be taken back")
        plays = self._log
        if not plays:
            raise IllegalMoveError(
                f"no move to take back: hand {self._hand_number + 1} has no move yet"
            )
        log = self._hand_logs[-1]
        log.earlier += plays[log.resumed_at :]
        log.earlier.append(_TAKEN_BACK)
        entry = plays.pop()
        log.resumed_at = len(plays)
        n = self.players
        number = len(plays) + 1  # the hand's move being taken back, counted from 1
        seat = (log.dealer + number) % n
        if number % self._round == 0:  # it emptied the last hand: the round it dealt goes back
            self._stock_pos -= self._round
            self._hands = [[] for _ in range(n)]
        card = entry & 63
        insort(self._hands[seat], card)
        taken = (entry & _KEY) >> 6
        if taken:
            self._table |= taken
            side = self._side_of[seat]
            self._piles[side] &= ~(taken | 1 << card)
            if entry & _SWEEP:
                self._sweeps[side] -= 1
            self._last_capturer = self._capturer_of(log)
        else:
            self._table &= ~(1 << card)
        self._sig = signature(self._table)
        self._to_move = seat
        self._keys = None
        return TakeBack(seat, INTERNED[entry & _KEY])

    def _capturer_of(self, log: _HandLog) -> int:
        """The seat that last took cards in the hand so far, -1 if none."""
        for index in range(len(log.plays) - 1, -1, -1):
            if log.plays[index] >> 6:
                return (log.dealer + index + 1) % self.players
        return log.dealer if log.initial_sweeps else -1

    def _why_illegal(self, move: Move) -> str:
        if self._to_move < 0:
            return f"{move}: the match is over, no move can be played"
        seat = self._to_move
        card = move.card
        if card.index not in self._hands[seat]:
            held = " ".join(str(DECK[c]) for c in self._hands[seat])
            return f"{move}: seat {seat} does not hold {card} (its hand: {held})"
        missing = move.capture_mask & ~self._table
        if missing:
            names = " ".join(map(str, cards_of_mask(missing)))
            return f"{move}: {names} {'is' if missing.bit_count() == 1 else 'are'} not on the table"
        options = [
            str(Move.of_key(card.index | m << 6))
            for m in capture_masks(
                card.index, self._table, self._sig, self._match, self._ace_takes_all
            )
        ]
        if not move.is_capture:
            return f"{move}: {card} can take cards, so it must (forced capture): " + ", ".join(
                options
            )
        if self._ace_takes_all and card.value == 1:
            rule = "an ace takes an ace on the table, or else the whole table"
        elif self._match:
            rule = "in Scopa a card takes one card of equal value, or else cards summing to it"
        else:
            rule = "the played card and the taken cards must sum to exactly 15"
        alternatives = f"; it can take: {', '.join(options)}" if options else ""
        return f"{move}: {card} cannot take that set ({rule}){alternatives}"

    # -- the public view of the state

    @property
    def to_move(self) -> int | None:
        """The seat to play, None once the match is over."""
        return None if self._to_move < 0 else self._to_move

    @property
    def dealer(self) -> int:
        """The seat dealing the current (or last) hand."""
        return self._dealer

    @property
    def hand_number(self) -> int:
        """Hands finished before the current one."""
        return self._hand_number

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards in a seat's hand (the engine's view: never hand this to another seat)."""
        self._check_seat(seat)
        return tuple(DECK[c] for c in self._hands[seat])

    @property
    def table(self) -> tuple[Card, ...]:
        """The cards face up on the table, in canonical order."""
        return tuple(cards_of_mask(self._table))

    @property
    def stock_size(self) -> int:
        """Cards left to deal."""
        return 40 - self._stock_pos

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self._hands)

    @property
    def captured(self) -> tuple[frozenset[Card], ...]:
        """Each side's captured cards in the current hand."""
        return tuple(card_set(p) for p in self._piles)

    @property
    def sweeps(self) -> tuple[int, ...]:
        """Each side's sweeps in the current hand."""
        return tuple(self._sweeps)

    @property
    def results(self) -> tuple[HandResult, ...]:
        """The finished hands."""
        return self._results

    @property
    def totals(self) -> tuple[int, ...]:
        """Match points per side."""
        return tuple(self._totals)

    def is_over(self) -> bool:
        return self._to_move < 0

    @property
    def winner(self) -> int | None:
        """The winning side, None until the match is over."""
        return self._winner

    def side_of(self, seat: int) -> int:
        """The side a seat plays for."""
        self._check_seat(seat)
        return self._side_of[seat]

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise InvalidQueryError(f"seat must be 0 to {self.players - 1}, got {seat!r}")

    def history(self, hand_number: int | None = None) -> tuple[Event, ...]:
        """The public events of a hand (the current one by default)."""
        if hand_number is None:
            hand_number = len(self._hand_logs) - 1
        if not isinstance(hand_number, int) or not 0 <= hand_number < len(self._hand_logs):
            raise InvalidQueryError(
                f"hand_number must be 0 to {len(self._hand_logs) - 1}, got {hand_number!r}"
            )
        log = self._hand_logs[hand_number]
        n = self.players
        events: list[Event] = []
        first_table = slice(self._round, self._round + self._table_cards)
        for deck in log.deals[:-1]:
            events.append(Redeal(tuple(DECK[c] for c in sorted(deck[first_table]))))
        events.append(Deal(1))
        if log.initial_sweeps:
            events.append(InitialSweep(log.dealer, card_set(log.initial_table), log.initial_sweeps))
        for i, entry in enumerate(log.plays, start=1):
            seat = (log.dealer + i) % n
            events.append(
                _PLAYS[seat].get(entry) or _play_of(entry, seat)
                if entry >= 64
                else _DROPS[seat][entry]
            )
            if i % self._round == 0 and i < self._plays_per_hand:
                events.append(Deal(i // self._round + 1))
        return tuple(events)

    def _public(self) -> dict[str, Any]:
        """The fields of :class:`PublicView`, by name: what everybody at the table sees."""
        return {
            "rules": self.rules,
            "players": self.players,
            "partnerships": self.partnerships,
            "sides": self.sides,
            "hand_number": self._hand_number,
            "dealer": self._dealer,
            "to_move": self.to_move,
            "table": self.table,
            "stock_size": self.stock_size,
            "hand_sizes": self.hand_sizes,
            "captured": self.captured,
            "sweeps": self.sweeps,
            "history": self.history(),
            "totals": self.totals,
            "results": self.results,
            "winner": self._winner,
        }

    def public_view(self) -> PublicView:
        """What everybody at the table sees now, and nothing more: the view for a
        spectator. It holds no hand, no legal moves and no seat."""
        return PublicView(**self._public())

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now: the public view and its own part (its hand, and its
        legal moves when it is to move)."""
        self._check_seat(seat)
        return Observation(
            **self._public(),
            seat=seat,
            hand=self.hand(seat),
            legal_moves=tuple(self.legal_moves()) if seat == self._to_move else (),
        )

    def snapshot(self) -> Snapshot:
        """The whole state as plain ints, hidden cards included: for clients that own the
        match and follow it fast (the research environment); never give it to a seat."""
        played = [0] * self.players
        seat = self._hand_logs[-1].dealer
        for entry in self._log:
            seat = self._next_seat[seat]
            played[seat] |= 1 << (entry & 63)
        return Snapshot(
            hands=tuple(map(tuple, self._hands)),
            table=self._table,
            piles=tuple(self._piles),
            sweeps=tuple(self._sweeps),
            totals=tuple(self._totals),
            stock_size=40 - self._stock_pos,
            hand_number=self._hand_number,
            dealer=self._dealer,
            to_move=self.to_move,
            last_capturer=None if self._last_capturer < 0 else self._last_capturer,
            played=tuple(played),
        )

    # -- copies

    def copy(self) -> Game:
        """An independent copy of the match in its current state (cheap: what no move
        changes is shared). Copying the whole match, hidden cards included, is for the
        engine's own clients (search that owns the game, tests); never give it to a seat."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        log = self._hand_logs[-1]
        current = _HandLog(log.dealer)
        current.deals = list(log.deals)
        current.plays = list(log.plays)
        current.initial_table = log.initial_table
        current.initial_sweeps = log.initial_sweeps
        current.earlier = list(log.earlier)
        current.resumed_at = log.resumed_at
        # Finished hands' logs never change again, so they are shared.
        other._hand_logs = [*self._hand_logs[:-1], current]
        other._log = current.plays
        other._hands = [list(hand) for hand in self._hands]
        other._piles = list(self._piles)
        other._sweeps = list(self._sweeps)
        other._totals = list(self._totals)
        other._keys = None
        return other

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self.copy()

    # -- records

    def record(self) -> MatchRecord:
        """The match as JSON-able data: rules, seats, every deck dealt and every move, the
        moves taken back and their take backs included."""
        return match_record(
            self.rules,
            self.players,
            self.partnerships,
            self.seed,
            self.first_dealer,
            (
                hand_record(
                    log.dealer,
                    log.deals,
                    (
                        TAKE_BACK if entry == _TAKEN_BACK else INTERNED[entry & _KEY]
                        for entry in (log.recorded() if log.earlier else log.plays)
                    ),
                )
                for log in self._hand_logs
            ),
        )

    @classmethod
    def from_record(cls, record: Mapping[str, Any], on_move: OnMove | None = None) -> Game:
        """Replay a record; a record that is malformed or does not replay raises RecordError.

        The match is dealt from the record's decks (the public way: ``decks`` and
        ``first_dealer``) and its moves are played again. ``on_move``, if given, sees the
        game once before the first move (with None) and after every move and take back, with
        its event (the replay viewers take their steps from it)."""
        recorded = parse_record(record)
        try:
            game = cls(
                recorded.rules,
                recorded.players,
                recorded.partnerships,
                seed=recorded.seed,
                first_dealer=recorded.first_dealer,
                decks=[deck for decks in recorded.decks for deck in decks],
            )
        except RulesError as error:
            raise RecordError(str(error)) from None
        replay_moves(game, recorded, on_move)
        return game


OnMove = Callable[[Game, Play | TakeBack | None], None]
"""Sees a replayed match before its first move (with None) and after every move and take
back (with its event)."""


def replay_moves(game: Game, recorded: RecordedMatch, on_move: OnMove | None = None) -> None:
    """Play a record's moves in a game dealt from its decks, checking each hand's dealer,
    decks and length; raise RecordError at the first that does not replay."""
    if on_move is not None:
        on_move(game, None)
    hands = len(recorded.moves)
    for number, (dealer, decks, hand_moves) in enumerate(
        zip(recorded.dealers, recorded.decks, recorded.moves, strict=True), start=1
    ):
        if game.hand_number != number - 1 or game.is_over():
            raise RecordError(f"hand {number}: the match had already ended or moved on")
        if dealer != game.dealer:
            raise RecordError(
                f"hand {number}: dealer {dealer!r} recorded, but seat {game.dealer} deals"
            )
        dealt = 1 + sum(isinstance(event, Redeal) for event in game.history())
        if dealt != len(decks):
            raise RecordError(
                f"hand {number}: {len(decks)} deck(s) recorded, but the hand was dealt "
                f"{dealt} time(s) (a deal is void, and dealt again, only on 3 or more kings "
                "on the table under kings_redeal)"
            )
        for index, text in enumerate(hand_moves, start=1):
            if game.hand_number != number - 1 or game.is_over():
                raise RecordError(f"hand {number}: more moves than a hand holds")
            try:
                event: Play | TakeBack = game.take_back() if text == TAKE_BACK else game.play(text)
            except (IllegalMoveError, InvalidMoveError, InvalidCardError) as error:
                raise RecordError(f"hand {number}, move {index}: {error}") from None
            if on_move is not None:
                on_move(game, event)
        if number < hands and game.hand_number == number - 1 and not game.is_over():
            raise RecordError(
                f"hand {number}: {len(hand_moves)} moves recorded, a hand has "
                f"{game.rules.plays_per_hand}"
            )


def _checked_deck(deck: object, where: str) -> Deck:
    """A given deck as card indices; RulesError naming what is wrong with it."""
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence):
        raise RulesError(f"{where}: must list the 40 cards in dealing order, got {deck!r}")
    if len(deck) != 40:
        raise RulesError(f"{where}: must list the 40 cards, got {len(deck)}")
    indices: list[int] = []
    for place, item in enumerate(deck, start=1):
        if isinstance(item, Card):
            indices.append(item.index)
        elif isinstance(item, str):
            try:
                indices.append(Card.parse(item).index)
            except InvalidCardError as error:
                raise RulesError(f"{where}, card {place}: {error}") from None
        else:
            raise RulesError(f"{where}, card {place}: not a card: {item!r}")
    if len(set(indices)) != 40:
        twice = sorted({index for index in indices if indices.count(index) > 1})
        missing = sorted(set(range(40)) - set(indices))
        raise RulesError(
            f"{where}: {_named(twice, 'appears', 'appear')} more than once, "
            f"{_named(missing, 'is', 'are')} missing"
        )
    return tuple(indices)


def _named(indices: Sequence[int], one: str, more: str) -> str:
    """Cards named with a verb that agrees: "7d appears", "7d 3c appear"."""
    return f"{' '.join(str(DECK[i]) for i in indices)} {one if len(indices) == 1 else more}"
