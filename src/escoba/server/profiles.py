"""Leaderboards and players' profiles, read from storage (call these on a storage thread).

A game's leaderboard lists the players with at least ``BOARD_MATCHES`` rated matches in it,
the last one within ``ACTIVE_DAYS``, whose rating is no longer provisional, by rating; the
computer levels stand beside them on the same scale. A profile shows a player's ratings with
their history, their matches and statistics (by game, by opponent, sweeps, best hands), and
the last matches, each with a link to its replay for whoever may see it (public ones, or every
one for the player themself).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, Final

from ..ai import LEVELS
from ..ai.ratings import level_rating
from ..rules import RULESETS, RuleSet, preset_name
from . import ratings
from .history import SweepCounts
from .protocol.accounts import (
    BoardComputer,
    BoardEntry,
    Leaderboard,
    RatingChangeView,
    RatingView,
    RoomRatings,
    YourRank,
)
from .storage.accounts import AccountStore
from .storage.rated import sides_of
from .storage.repository import Storage
from .storage.standings import BoardRule, Standings
from .storage.tables import RatingRow

__all__ = ["BOARD_SIZE", "leaderboard", "profile", "room_ratings"]

BOARD_SIZE: Final = 100
"""The players a leaderboard lists."""
PROFILE_MATCHES: Final = 200
"""The matches a profile counts (newest first); its list shows the last 30."""
SHOWN_MATCHES: Final = 30


def _rule(now: datetime) -> BoardRule:
    """Who stands on a leaderboard at ``now``: enough rated matches, recently, settled."""
    since = now - timedelta(days=ratings.ACTIVE_DAYS)
    return BoardRule(since, ratings.BOARD_MATCHES, ratings.SETTLED_SIGMA)


def _view(row: RatingRow, rank: int | None) -> RatingView:
    shown = ratings.shown(row.mu, row.sigma)
    return RatingView(
        rating=shown.rating,
        deviation=shown.deviation,
        provisional=shown.provisional,
        matches=row.matches,
        rank=rank,
    )


def _computers(game: str) -> list[BoardComputer]:
    preset = next((RULESETS[name] for name in RULESETS if name.startswith(game)), None)
    if preset is None:
        return []
    found = [(level, level_rating(level, preset)) for level in LEVELS]
    return [
        BoardComputer(level=level, rating=rating.about)
        for level, rating in found
        if rating is not None
    ]


def leaderboard(store: Standings, game: str, now: datetime, account_id: int | None) -> Leaderboard:
    """A game's leaderboard, with the reader's own place when signed in."""
    rule = _rule(now)
    players = [
        BoardEntry(
            rank=place,
            username=name,
            rating=ratings.shown(row.mu, row.sigma).rating,
            deviation=ratings.shown(row.mu, row.sigma).deviation,
            matches=row.matches,
        )
        for place, (name, row) in enumerate(store.board(game, rule, BOARD_SIZE), start=1)
    ]
    you = None
    if account_id is not None:
        mine = next((row for row in store.ratings(account_id) if row.game == game), None)
        if mine is not None:
            you = YourRank(**_view(mine, store.rank(game, rule, account_id)).model_dump())
    return Leaderboard(game=game, players=players, computers=_computers(game), you=you)  # type: ignore[arg-type]


def _iso(moment: datetime | None) -> str:
    if moment is None:
        return ""
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


def profile(
    accounts: AccountStore,
    store: Standings,
    storage: Storage,
    facts: SweepCounts,
    username_key: str,
    reader: int | None,
    now: datetime,
) -> dict[str, Any] | None:
    """A player's profile as ``GET /api/players/{username}`` answers it, or None."""
    account = accounts.by_key(username_key)
    if account is None or account.username is None:
        return None
    mine = reader == account.id
    rows = store.ratings(account.id)
    rule = _rule(now)
    ranks = {row.game: store.rank(row.game, rule, account.id) for row in rows}
    history: dict[str, list[dict[str, Any]]] = {}
    changes = {}
    for change in store.rating_history(account.id):
        shown = ratings.shown(change.mu_after, change.sigma_after)
        history.setdefault(change.game, []).append(
            {
                "at": _iso(change.at),
                "rating": shown.rating,
                "deviation": shown.deviation,
                "match": change.match_id,
            }
        )
        changes[change.match_id] = (
            shown.rating - ratings.shown(change.mu_before, change.sigma_before).rating
        )
    played = store.played(account.id, PROFILE_MATCHES)
    names = store.usernames({row.account_id for *_, players, _ in played for row in players})
    by_game: dict[str, dict[str, int]] = {}
    by_opponent: dict[int, dict[str, Any]] = {}
    best: list[dict[str, Any]] = []
    listed: list[dict[str, Any]] = []
    total_sweeps = won_total = 0
    for match, room, seats, players, seat in played:
        rules = RuleSet.from_dict(room.rules)
        preset = preset_name(rules)
        game = ratings.game_of(rules) or "custom"
        sides = sides_of(room.players, room.partnerships)
        side = next(index for index, members in enumerate(sides) if seat in members)
        won = match.winner == side
        sweeps = facts.of(match.id, storage)
        side_sweeps = sweeps[side] if sweeps else 0
        tally = by_game.setdefault(game, {"matches": 0, "won": 0, "sweeps": 0})
        tally["matches"] += 1
        tally["won"] += won
        tally["sweeps"] += side_sweeps
        total_sweeps += side_sweeps
        won_total += won
        opponents = [row.account_id for row in players if row.seat not in sides[side]]
        for other in opponents:
            entry = by_opponent.setdefault(
                other, {"username": names.get(other), "matches": 0, "won": 0}
            )
            entry["matches"] += 1
            entry["won"] += won
        for hand, points in enumerate(facts.hand_points(match.id, storage)):
            best.append({"match": match.id, "hand": hand + 1, "points": points[side], "game": game})
        if len(listed) < SHOWN_MATCHES:
            listed.append(
                {
                    "id": match.id,
                    "game": game,
                    "preset": preset,
                    "finished_at": _iso(match.finished_at),
                    "won": won,
                    "opponents": [names.get(other) or "" for other in opponents]
                    or [
                        seats[other].nickname or seats[other].level or ""
                        for other in range(room.players)
                        if other not in sides[side]
                    ],
                    "rated": match.id in changes,
                    "change": changes.get(match.id),
                    "replay": mine or match.public,
                }
            )
    best.sort(key=lambda hand: (-hand["points"], -hand["match"]))
    return {
        "username": account.username,
        "created_at": _iso(account.created_at),
        "ratings": {row.game: _view(row, ranks.get(row.game)).model_dump() for row in rows},
        "history": history,
        "stats": {
            "matches": len(played),
            "won": won_total,
            "sweeps": total_sweeps,
            "by_game": by_game,
            "by_opponent": sorted(
                by_opponent.values(), key=lambda entry: (-entry["matches"], entry["username"] or "")
            )[:20],
            "best_hands": best[:5],
        },
        "matches": listed,
    }


def room_ratings(store: Standings, room_id: str) -> RoomRatings | None:
    """What the room's latest match did to ratings."""
    found = store.match_ratings(room_id)
    if found is None:
        return None
    match, rated, changes = found
    return RoomRatings(
        match=match.id,
        rated=rated,
        status=match.rating,
        changes=[
            RatingChangeView(
                seat=change.seat,
                username=name,
                game=change.game,
                before=ratings.shown(change.mu_before, change.sigma_before).rating,
                after=ratings.shown(change.mu_after, change.sigma_after).rating,
                deviation=ratings.shown(change.mu_after, change.sigma_after).deviation,
            )
            for change, name in changes
        ],
    )
