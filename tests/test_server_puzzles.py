"""Puzzles over HTTP: the next puzzle near a rating, of a theme and preset, none excluded or
tried before; the seat's view only (never the answer, the record, another hand or the stock);
a try solved or failed, its answer, explanation and rating change; signed in, the account's
rating and streak stored, a puzzle's first try the only one that counts, the CSRF token
required; bad input refused by name, changing nothing."""

from __future__ import annotations

import contextlib
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from account_helpers import Person, register
from escoba import DECK, Card
from escoba.puzzles import NEAREST, Puzzle, PuzzleRating, load_puzzles, puzzle_by_id
from escoba.server.storage.puzzles import PuzzleStore
from escoba.server.storage.repository import Storage
from escoba.server.storage.tables import PuzzleAttemptRow, PuzzleRatingRow
from server_helpers import assert_refused

NEW = PuzzleRating()


def nearest(rating: float, puzzles: tuple[Puzzle, ...] | list[Puzzle]) -> set[str]:
    ranked = sorted(puzzles, key=lambda puzzle: (abs(puzzle.rating - rating), puzzle.id))
    return {puzzle.id for puzzle in ranked[:NEAREST]}


def wrong_move(puzzle: Puzzle) -> str:
    """A legal move of the puzzle that is not its answer."""
    return next(
        str(move) for move in puzzle.observation().legal_moves if str(move) != puzzle.answer
    )


def with_wrong_moves() -> list[Puzzle]:
    return [puzzle for puzzle in load_puzzles() if len(puzzle.observation().legal_moves) > 1]


def stored_rows(client: TestClient, table: Any) -> list[Any]:
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    with storage.engine.connect() as connection:
        return list(connection.execute(select(table)))


def attempt(client: TestClient, puzzle: Puzzle | str, move: str, **body: Any) -> Any:
    puzzle_id = puzzle if isinstance(puzzle, str) else puzzle.id
    return client.post(f"/api/puzzles/{puzzle_id}/attempt", json={"move": move, **body})


def try_as(person: Person, puzzle: Puzzle, move: str, **body: Any) -> Any:
    return person.post(f"/api/puzzles/{puzzle.id}/attempt", {"move": move, **body})


# -- the next puzzle


@pytest.mark.parametrize("rating", [900, 1500, 2100])
def test_next_is_one_of_the_nearest_to_the_rating(client: TestClient, rating: int) -> None:
    given = {
        client.get(f"/api/puzzles/next?rating={rating}&seed={seed}").json()["id"]
        for seed in range(12)
    }
    assert given <= nearest(rating, load_puzzles())
    assert len(given) > 1  # the seed chooses among them


def test_next_honours_theme_preset_and_exclude(client: TestClient) -> None:
    puzzles = load_puzzles()
    theme = puzzles[0].theme
    for seed in range(5):
        view = client.get(f"/api/puzzles/next?theme={theme}&seed={seed}").json()
        assert view["theme"] == theme
        assert puzzle_by_id(view["id"]).theme == theme
    preset = puzzles[-1].preset
    view = client.get(f"/api/puzzles/next?preset={preset}&seed=1").json()
    assert view["preset"] == preset and puzzle_by_id(view["id"]).preset == preset
    # The nearest ones excluded: another is given, never one of them.
    excluded = nearest(1500, puzzles)
    for seed in range(5):
        view = client.get(
            f"/api/puzzles/next?rating=1500&seed={seed}&exclude={','.join(sorted(excluded))}"
        ).json()
        assert view["id"] not in excluded
    # The same seed and rating: the same puzzle.
    first = client.get("/api/puzzles/next?rating=1400&seed=x").json()["id"]
    assert client.get("/api/puzzles/next?rating=1400&seed=x").json()["id"] == first


def test_a_puzzle_shows_its_seat_view_and_nothing_hidden(client: TestClient) -> None:
    hiding = 0  # positions with something to hide (the last card of a hand hides nothing)
    for seed in range(8):
        response = client.get(f"/api/puzzles/next?seed={seed}&rating={1000 + 150 * seed}")
        assert response.status_code == 200, response.text
        view = response.json()
        puzzle = puzzle_by_id(view["id"])
        observation = puzzle.observation()
        game = puzzle.game()
        assert set(view) == {
            "id", "preset", "rules", "players", "partnerships", "deals_per_hand", "sides",
            "theme", "title", "rating", "match", "player",
        }  # fmt: skip
        match = view["match"]
        assert match["seat"] == observation.seat == game.to_move
        assert match["hand"] == [str(card) for card in observation.hand]
        assert match["table"] == [str(card) for card in observation.table]
        assert match["stock_size"] == game.stock_size
        assert {move["text"] for move in match["legal"]} == {
            str(move) for move in observation.legal_moves
        }
        assert view["player"] is None and view["title"]
        # No other hand's card and no card of the stock appears anywhere in the answer: the
        # seat knows its hand, the table, this hand's captures and the earlier hands' piles.
        known: set[Card] = set(observation.hand) | set(observation.table)
        known |= {card for pile in observation.captured for card in pile}
        known |= {card for result in game.results for pile in result.piles for card in pile}
        hidden = set(DECK) - known
        hiding += bool(hidden)
        shown = set(_card_texts(view))
        assert not shown & {str(card) for card in hidden}, (view["id"], shown & hidden)
        # Nothing marks the answer among the legal moves, and the record is not sent.
        text = response.text
        for word in ('"answer"', '"record"', '"gap"', '"deals"', '"seed"', '"exact"'):
            assert word not in text
    assert hiding


def _card_texts(value: Any) -> list[str]:
    """Every string in the answer that is a card's text."""
    found = []
    if isinstance(value, dict):
        for item in value.values():
            found += _card_texts(item)
    elif isinstance(value, list):
        for item in value:
            found += _card_texts(item)
    elif isinstance(value, str):
        for part in value.replace(":", " ").replace("+", " ").split():
            with contextlib.suppress(ValueError):
                found.append(str(Card.parse(part)))
    return found


# -- a try, not signed in


def test_solving_a_puzzle_raises_the_rating_sent_and_names_the_answer(client: TestClient) -> None:
    puzzle = load_puzzles()[0]
    sent = PuzzleRating(27.0, 6.0)
    response = attempt(client, puzzle, puzzle.answer, rating=sent.to_dict())
    assert response.status_code == 200, response.text
    outcome = response.json()
    after = sent.after(puzzle, True)
    assert outcome["solved"] is True and outcome["answer"] == puzzle.answer
    assert outcome["rating_before"] == sent.shown() < outcome["rating_after"] == after.shown()
    assert outcome["rating"] == pytest.approx(after.to_dict())
    assert outcome["streak"] is None  # the browser keeps its own
    assert outcome["explanation"] == puzzle.explanation("en", "french")
    assert outcome["answer_name"]


def test_failing_a_puzzle_lowers_the_rating_and_shows_the_answer(client: TestClient) -> None:
    puzzle = with_wrong_moves()[0]
    wrong = wrong_move(puzzle)
    response = attempt(client, puzzle, wrong, language="es", deck="spanish")
    outcome = response.json()
    assert outcome["solved"] is False and outcome["move"] == wrong
    assert outcome["answer"] == puzzle.answer
    assert outcome["rating_before"] == NEW.shown() == 1500
    assert outcome["rating_after"] == NEW.after(puzzle, False).shown() < 1500
    assert outcome["explanation"] == puzzle.explanation("es", "spanish")
    assert outcome["explanation"] != puzzle.explanation("en", "french")


# -- signed in


def test_an_accounts_tries_are_stored_and_its_streak_kept(client: TestClient) -> None:
    ana = register(client, "Ana")
    first = ana.get("/api/puzzles/next?seed=1").json()
    assert first["player"] == {
        "rating": 1500,
        "value": NEW.to_dict(),
        "streak": 0,
        "best_streak": 0,
        "solved": 0,
        "attempted": 0,
    }
    one, two, three = with_wrong_moves()[:3]
    solved = try_as(ana, one, one.answer).json()
    assert solved["solved"] is True and solved["streak"] == 1 and solved["counted"] is True
    again = try_as(ana, two, two.answer, rating={"mu": 40, "sigma": 1}).json()
    # The account's rating is used, never one the browser sends.
    assert again["rating_before"] == solved["rating_after"] and again["streak"] == 2
    failed = try_as(ana, three, wrong_move(three)).json()
    assert failed["solved"] is False and failed["streak"] == 0
    assert failed["rating_after"] < failed["rating_before"] == again["rating_after"]
    player = ana.get("/api/puzzles/next?seed=2").json()["player"]
    assert player["rating"] == failed["rating_after"]
    assert player["value"] == pytest.approx(failed["rating"])
    assert (player["streak"], player["best_streak"], player["solved"], player["attempted"]) == (
        0,
        2,
        2,
        3,
    )
    tried = {(row.puzzle_id, row.solved) for row in stored_rows(client, PuzzleAttemptRow)}
    assert tried == {(one.id, True), (two.id, True), (three.id, False)}


def test_a_second_try_of_a_puzzle_answers_but_changes_nothing(client: TestClient) -> None:
    ana = register(client, "Ana")
    puzzle = with_wrong_moves()[0]
    failed = try_as(ana, puzzle, wrong_move(puzzle)).json()
    again = try_as(ana, puzzle, puzzle.answer).json()
    assert again["solved"] is True and again["counted"] is False
    assert again["rating_before"] == again["rating_after"] == failed["rating_after"]
    assert again["streak"] == 0
    [row] = stored_rows(client, PuzzleRatingRow)
    assert (row.attempted, row.solved, row.streak) == (1, 0, 0)


def test_a_signed_in_player_is_given_puzzles_near_its_rating_not_tried(
    client: TestClient,
) -> None:
    ana = register(client, "Ana")
    near = nearest(1500, load_puzzles())
    for puzzle_id in sorted(near):
        assert (
            try_as(ana, puzzle_by_id(puzzle_id), puzzle_by_id(puzzle_id).answer).status_code == 200
        )
    rating = ana.get("/api/puzzles/next?seed=0").json()["player"]["rating"]
    for seed in range(6):
        view = ana.get(f"/api/puzzles/next?seed={seed}").json()
        assert view["id"] not in near
        untried = [puzzle for puzzle in load_puzzles() if puzzle.id not in near]
        assert view["id"] in nearest(rating, untried)


def test_a_signed_in_try_needs_the_csrf_token(client: TestClient) -> None:
    ana = register(client, "Ana")
    puzzle = load_puzzles()[0]
    refused = ana.post(f"/api/puzzles/{puzzle.id}/attempt", {"move": puzzle.answer}, csrf=False)
    assert_refused(refused, 403, "bad_csrf")
    assert stored_rows(client, PuzzleAttemptRow) == []
    assert stored_rows(client, PuzzleRatingRow) == []


def test_an_accounts_puzzles_are_exported_and_deleted_with_it(client: TestClient) -> None:
    ana = register(client, "Ana")
    puzzle = load_puzzles()[0]
    try_as(ana, puzzle, puzzle.answer)
    exported = ana.get("/api/account/export").json()
    assert exported["puzzle_rating"]["solved"] == 1
    assert [row["puzzle"] for row in exported["puzzles"]] == [puzzle.id]
    response = client.request(
        "DELETE", "/api/account", json={"username": "Ana"}, headers=ana.headers()
    )
    assert response.status_code == 200, response.text
    assert stored_rows(client, PuzzleAttemptRow) == []
    assert stored_rows(client, PuzzleRatingRow) == []


# -- bad input


def test_bad_tries_are_refused_by_name_and_change_nothing(client: TestClient) -> None:
    ana = register(client, "Ana")
    puzzle = load_puzzles()[0]
    legal = {str(move) for move in puzzle.observation().legal_moves}
    illegal = next(
        str(card)
        for card in DECK
        if str(card) not in legal and card not in puzzle.observation().hand
    )
    for move in (illegal, "zz", "7d:"):
        refused = assert_refused(try_as(ana, puzzle, move), 422, "illegal_move")
        assert repr(move) in refused["message"]
    for rating in ({"mu": 25, "sigma": 0}, {"mu": "much", "sigma": 8}, {"mu": 1e9, "sigma": 8}):
        assert_refused(attempt(client, puzzle, puzzle.answer, rating=rating), 422, "bad_request")
    refused = attempt(client, puzzle, puzzle.answer, deck="tarot")
    assert "deck" in assert_refused(refused, 422, "bad_request")["message"]
    assert_refused(attempt(client, puzzle, puzzle.answer, colour="red"), 422, "bad_request")
    missing = assert_refused(attempt(client, "zz9999", puzzle.answer), 404, "not_found")
    assert "zz9999" in missing["message"]
    assert_refused(attempt(client, "no such puzzle", puzzle.answer), 404, "not_found")
    assert stored_rows(client, PuzzleAttemptRow) == []
    assert stored_rows(client, PuzzleRatingRow) == []


def test_bad_questions_for_the_next_puzzle_are_refused_by_name(client: TestClient) -> None:
    for query, named in [
        ("theme=tricks", "tricks"),
        ("preset=poker", "poker"),
        ("rating=lots", "rating"),
        ("rating=99999", "rating"),
        ("language=xx", "language"),
    ]:
        refused = assert_refused(client.get(f"/api/puzzles/next?{query}"), 422, "bad_request")
        assert named in refused["message"], (query, refused)


def test_a_puzzle_by_its_id_is_the_same_view_in_the_asked_language(client: TestClient) -> None:
    given = client.get("/api/puzzles/next?seed=3").json()
    puzzle = puzzle_by_id(given["id"])
    assert client.get(f"/api/puzzles/{puzzle.id}").json() == given
    view = client.get(f"/api/puzzles/{puzzle.id}?language=it").json()
    assert view == {**given, "title": puzzle.title("it")}
    for missing in ("zz9999", "a.b"):
        assert_refused(client.get(f"/api/puzzles/{missing}"), 404, "not_found")


def test_tries_at_once_of_one_account_each_count_once(client: TestClient) -> None:
    """Several tries of one account at the same moment (two tabs), the same puzzle among them:
    each puzzle counts once and no try's change of rating is lost."""
    register(client, "Ana")
    account = client.app.state.accounts.by_key("ana")  # type: ignore[attr-defined]
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    store = PuzzleStore(storage)
    puzzles = list(load_puzzles()[:6])
    tries = [*puzzles, puzzles[0], puzzles[1]]

    def rate(mu: float, sigma: float, solved: bool) -> tuple[float, float]:
        return mu + (1.0 if solved else -1.0), sigma

    def one(puzzle: Puzzle) -> bool:
        at = datetime.now(UTC)
        return store.attempt(account.id, puzzle.id, True, rate, (NEW.mu, NEW.sigma), at).counted

    with ThreadPoolExecutor(max_workers=4) as pool:
        counted = list(pool.map(one, tries))
    assert sum(counted) == len(puzzles)
    standing = store.standing(account.id)
    assert standing is not None
    assert (standing.attempted, standing.solved, standing.streak) == (6, 6, 6)
    assert standing.mu == pytest.approx(NEW.mu + 6)
