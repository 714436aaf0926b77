"""Ratings in a real browser (issue 34): a rated quick match between two signed-in people,
played to its end, shows each one's change of rating on the end screen and on both profiles,
as OpenSkill computes it; a player's page draws the rating history as a chart with one point
per rated match, at desktop and phone widths alike; the leaderboard lists the players in
rating order with the computer levels on the same scale.

Every rating here is made by the real server from matches played over its API and its
WebSocket; the expected numbers come from OpenSkill's Plackett-Luce model with the server's
own parameters and display mapping (``escoba.server.ratings``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce
from playwright.sync_api import expect
from websockets.sync.client import connect

from escoba.ai import LEVELS
from escoba.ai.ratings import level_rating
from escoba.rules import RULESETS
from escoba.server.ratings import BETA, BOARD_MATCHES, DAILY_PAIR_LIMIT, MU, SIGMA, Shown, shown
from server_helpers import RemotePeer, play_until
from test_web_a11y import audit
from web_browser import FREE_LIMITS, Server

TIMEOUT = 20_000  # ms: a page, a pairing, a state message fit well inside
PASSWORD = "quiet otter 34 plays"
GAME = "scopa"  # the shortest preset to play out: 11 points
CLOCK = {"per_move": 20.0, "reserve": 60.0}  # a rated table needs a clock
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def model() -> PlackettLuce:
    """OpenSkill's model with the server's parameters."""
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)


@pytest.fixture(scope="module")
def rated_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("profiles"), limits=FREE_LIMITS)
    running.start()
    yield running
    running.stop()


def local(server: Server) -> str:
    """The server at ``localhost``: a secure context for the pages, as for passkeys."""
    return f"http://localhost:{server.port}"


# -- matches over the API and the WebSocket --------------------------------------------------


class Player:
    """A signed-in account, over HTTP: its session cookie and CSRF token."""

    def __init__(self, server: Server, username: str) -> None:
        self.username = username
        self.http = httpx.Client(base_url=local(server), timeout=30)
        made = self.http.post(
            "/api/account/register", json={"username": username, "password": PASSWORD}
        )
        assert made.status_code == 201, made.text
        self.csrf = made.json()["csrf"]

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})
        assert answer.status_code in (200, 201), answer.text
        found: dict[str, Any] = answer.json()
        return found


@dataclass(frozen=True)
class Played:
    """A rated match played to its end: who sat where and which seat won."""

    room: str
    seats: dict[int, str]  # seat -> username
    winner: int  # the winning seat (two players: a side is a seat)
    tokens: dict[int, str]  # seat -> its token


def play_out(server: Server, room: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Play first legal moves from every seat until the match is over: its last state."""
    url = local(server).replace("http", "ws") + f"/ws/rooms/{room}"
    with connect(url) as first, connect(url) as second:
        peers = [RemotePeer(first), RemotePeer(second)]
        for peer, token in zip(peers, tokens.values(), strict=True):
            peer.join(token)
        return play_until(peers, lambda state: bool(state["match"]["over"]))


def ratings_of(server: Server, room: str) -> dict[str, Any]:
    """The room's latest match's ratings (settled in the transaction that stores its end,
    before its last state is sent)."""
    found: dict[str, Any] = httpx.get(local(server) + f"/api/rooms/{room}/ratings").json()
    return found


def rated_match(server: Server, host: Player, guest: Player, status: str = "rated") -> Played:
    """A rated table of ``GAME`` opened by ``host``, joined by ``guest``, played out; what it
    did to their ratings is ``status``."""
    ticket = host.post(
        "/api/rooms",
        {
            "rules": GAME,
            "players": 2,
            "seats": ["person", "person"],
            "nickname": host.username,
            "listed": True,
            "rated": True,
            "clock": CLOCK,
        },
    )
    room = ticket["room"]
    joined = guest.post(f"/api/rooms/{room}/join", {"nickname": guest.username})
    tokens = {ticket["seat"]: ticket["token"], joined["seat"]: joined["token"]}
    last = play_out(server, room, tokens)
    seats = {ticket["seat"]: host.username, joined["seat"]: guest.username}
    assert ratings_of(server, room)["status"] == status
    return Played(room, seats, int(last["match"]["winner"]), tokens)


def expected_ratings(played: list[Played]) -> dict[str, Shown]:
    """Each player's rating as shown after ``played``, in order, as OpenSkill rates them from
    new accounts."""
    rating_model = model()
    now: dict[str, Any] = {}
    for match in played:
        names = [match.seats[seat] for seat in sorted(match.seats)]
        teams = [[now.get(name) or rating_model.rating()] for name in names]
        ranks = [0.0 if seat == match.winner else 1.0 for seat in sorted(match.seats)]
        for name, [rated] in zip(names, rating_model.rate(teams, ranks=ranks), strict=True):
            now[name] = rated
    return {name: shown(rated.mu, rated.sigma) for name, rated in now.items()}


def matches_of(name: str, played: list[Played]) -> list[Played]:
    return [match for match in played if name in match.seats.values()]


def on_board(name: str, played: list[Played]) -> bool:
    """Whether the server lists ``name`` on the leaderboard after ``played``: enough rated
    matches, and a rating no longer provisional."""
    rating = expected_ratings(played).get(name)
    return len(matches_of(name, played)) >= BOARD_MATCHES and not (rating and rating.provisional)


def rating_text(rating: Shown) -> str:
    return f"{rating.rating} ± {rating.deviation}"


def change_text(before: int, after: int) -> str:
    change = after - before
    sign = "+" if change > 0 else "\u2212" if change < 0 else "±"
    return f"{before} → {after} ({sign}{abs(change)})"


# -- data for the profile and the leaderboard -----------------------------------------------

STARS = ("lea", "max")


def chain(server: Server, star: Player) -> list[Played]:
    """Rated matches of ``star`` until the server lists them on the leaderboard: each new
    rival played as often as counts in a day (the server's limit for two accounts)."""
    played: list[Played] = []
    while not on_board(star.username, played):
        assert len(played) < 40, f"{star.username}'s rating never settled"
        rival = Player(server, f"{star.username}-rival{len(played) // DAILY_PAIR_LIMIT + 1}")
        for round_ in range(DAILY_PAIR_LIMIT):
            host, guest = (star, rival) if round_ % 2 == 0 else (rival, star)
            played.append(rated_match(server, host, guest))
    return played


@pytest.fixture(scope="module")
def league(rated_server: Server) -> list[Played]:
    """Lea and max each play rated matches, rival after rival, until both are on the
    leaderboard (two chains of matches with no player in common, played side by side); then
    oli, a newcomer, plays lea once and stays off the board."""
    stars = [Player(rated_server, name) for name in STARS]
    with ThreadPoolExecutor(len(stars)) as pool:
        chains = list(pool.map(lambda star: chain(rated_server, star), stars))
    played = [match for each in chains for match in each]
    played.append(rated_match(rated_server, Player(rated_server, "oli"), stars[0]))
    return played


# -- the tests --------------------------------------------------------------------------------


def sign_up(context: Any, server: Server, username: str) -> None:
    """Register through the browser's own request context: its session cookie is the
    browser's."""
    made = context.request.post(
        local(server) + "/api/account/register",
        data={"username": username, "password": PASSWORD},
    )
    assert made.status == 201, made.text()


def errors_of(page: Any) -> list[str]:
    """The script errors and failed requests the page logs from now on (none is expected)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    return errors


def ticket_of(page: Any, room: str) -> dict[str, Any]:
    kept = page.evaluate(f"localStorage.getItem({json.dumps('escoba.ticket.' + room)})")
    assert kept, f"no seat ticket kept for room {room}"
    ticket: dict[str, Any] = json.loads(kept)
    return ticket


def the_end(page: Any) -> Any:
    """Follow the game screen to the match's end as a person would, closing each finished
    hand's score pad; the last one shows the ratings above the score. The over box then."""
    pad = page.get_by_test_id("scorepad-dialog")
    over = page.locator("#over-box")
    while True:
        expect(pad.or_(over).filter(visible=True).first).to_be_visible(timeout=TIMEOUT)
        if over.is_visible():
            return over
        if page.locator("#scorepad-ratings").is_visible():
            # the last hand's pad: the match is over and its ratings are shown above the score
            expect(page.locator("#scorepad-ratings [data-testid=rating-change]")).to_have_count(2)
        page.locator("#scorepad-close").click()


def test_a_rated_quick_match_changes_both_ratings_as_openskill_does(
    chromium: Any, rated_server: Server
) -> None:
    """Two people sign up, tick Rated and press Play now: paired, their table says Rated; the
    match played to its end, each end screen says both changes ("1500 → 1532 (+32)"), and
    both profiles show the ratings OpenSkill gives for that result."""
    names = ["ada", "bo"]
    contexts = [
        chromium.new_context(viewport=size, reduced_motion="reduce") for size in (DESKTOP, PHONE)
    ]
    try:
        pages = []
        logs = []
        for context, name in zip(contexts, names, strict=True):
            sign_up(context, rated_server, name)
            page = context.new_page()
            logs.append(errors_of(page))
            page.goto(local(rated_server) + "/")
            # signed in, the lobby offers a rated match
            rated = page.get_by_test_id("quick-rated")
            expect(rated).to_be_enabled(timeout=TIMEOUT)
            rated.check()
            page.get_by_test_id("quick-game").select_option(GAME)
            pages.append(page)
        for page in pages:
            page.get_by_test_id("play-now").click()
        for page in pages:
            page.wait_for_url("**/room/**", timeout=TIMEOUT)
        assert pages[0].url == pages[1].url
        room = pages[0].url.rsplit("/", 1)[1]
        for page, other in zip(pages, reversed(names), strict=True):
            expect(page.get_by_test_id("rated-tag")).to_have_text("Rated", timeout=TIMEOUT)
            expect(page.get_by_test_id("rated-tag")).to_be_visible()
            # each sits under their username
            page.get_by_text(other, exact=True).filter(visible=True).first.wait_for(timeout=TIMEOUT)

        tickets = [ticket_of(page, room) for page in pages]
        last = play_out(rated_server, room, {t["seat"]: t["token"] for t in tickets})
        winner = int(last["match"]["winner"])
        seats = {ticket["seat"]: name for ticket, name in zip(tickets, names, strict=True)}
        expected = expected_ratings([Played(room, seats, winner, {})])
        start = shown(MU, SIGMA).rating
        winning = seats[winner]
        losing = next(name for name in names if name != winning)
        assert expected[winning].rating > start > expected[losing].rating

        for page in pages:
            over = the_end(page)
            lines = over.get_by_test_id("rating-change")
            expect(lines).to_have_count(2, timeout=TIMEOUT)
            for name in names:
                line = over.locator(f"[data-testid=rating-change][data-username={name}]")
                expect(line).to_contain_text(change_text(start, expected[name].rating))
                expect(line.get_by_role("link", name=name, exact=True)).to_have_attribute(
                    "href", f"/players/{name}"
                )

        for page, name in zip(pages, names, strict=True):
            page.goto(local(rated_server) + f"/players/{name}")
            card = page.locator(f"[data-testid=profile-rating][data-game={GAME}]")
            expect(card.get_by_test_id("rating-value")).to_have_text(
                rating_text(expected[name]), timeout=TIMEOUT
            )
            expect(card.get_by_test_id("provisional")).to_be_visible()  # one match: not settled
            row = page.get_by_test_id("profile-match").first
            expect(row).to_contain_text("Won" if name == winning else "Lost")
            change = expected[name].rating - start
            expect(row.get_by_test_id("match-change")).to_have_text(
                f"+{change}" if change > 0 else f"\u2212{-change}"
            )
            expect(row.get_by_test_id("replay-link")).to_have_attribute(
                "href", re.compile(r"^/replay/\d+$")
            )
        assert not any(logs), f"errors in the browser: {logs}"
    finally:
        for context in contexts:
            context.close()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_rating_history_is_a_chart_with_a_point_per_rated_match(
    chromium: Any, rated_server: Server, league: list[Played], size: dict[str, int]
) -> None:
    """Lea's page: her rating as OpenSkill gives it, and her history drawn as an SVG chart of
    one point per rated match, inside the page at 1280x800 and at 390x844 (no sideways
    scrolling), named for a screen reader, with the table of its points."""
    played = matches_of("lea", league)
    lea = expected_ratings(league)["lea"]
    context = chromium.new_context(viewport=size)
    try:
        page = context.new_page()
        errors = errors_of(page)
        page.goto(local(rated_server) + "/players/lea")
        expect(page.get_by_test_id("profile-name")).to_have_text("lea", timeout=TIMEOUT)
        card = page.locator(f"[data-testid=profile-rating][data-game={GAME}]")
        expect(card.get_by_test_id("rating-value")).to_have_text(rating_text(lea))
        expect(card.get_by_test_id("provisional")).to_have_count(0)
        expect(card.get_by_test_id("rank")).to_have_text(re.compile(r"^Rank [12]$"))

        chart = page.locator(f"svg[data-testid=rating-chart][data-game={GAME}]")
        expect(chart).to_be_visible()
        expect(chart).to_have_attribute("role", "img")
        expect(chart).to_have_attribute("data-points", str(len(played)))
        points = chart.get_by_test_id("chart-point")
        expect(points).to_have_count(len(played))
        expect(points.last).to_have_attribute("data-rating", str(lea.rating))
        expect(chart).to_have_attribute(
            "aria-label", re.compile(rf"{len(played)} rated matches, .* to {lea.rating};")
        )
        table = page.get_by_test_id("chart-table")
        expect(table.locator("tbody tr")).to_have_count(len(played))
        expect(table.locator("tbody tr").last).to_contain_text(str(lea.rating))

        chart.scroll_into_view_if_needed()
        box = chart.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
        assert box["width"] >= size["width"] * 0.6, box  # the chart takes the page's width
        for point in (points.first, points.last):
            dot = point.bounding_box()
            assert dot is not None and box["x"] <= dot["x"] <= box["x"] + box["width"], dot
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"the page scrolls sideways by {overflow}px"
        # the last matches, each with what it did to her rating
        rows = page.get_by_test_id("profile-match")
        expect(rows).to_have_count(len(played))
        expect(rows.get_by_test_id("match-change")).to_have_count(len(played))
        assert not errors, f"errors in the browser: {errors}"
    finally:
        context.close()


def test_the_leaderboard_lists_players_by_rating_with_the_computer_levels(
    page: Any, chromium: Any, rated_server: Server, league: list[Played]
) -> None:
    """The Scopa board: lea and max, on it, in the order of their ratings as OpenSkill gives
    them, each linking to their page; their rivals and oli (too few matches) are not; the
    computer levels' ratings stand beside them, on the same scale."""
    expected = expected_ratings(league)
    order = sorted(STARS, key=lambda name: -expected[name].rating)
    assert [name for name in expected if on_board(name, league)] == list(STARS)

    page.goto(local(rated_server) + f"/leaderboard?game={GAME}")
    tab = page.locator(f"[data-testid=game-tab][data-game={GAME}]")
    expect(tab).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
    rows = page.get_by_test_id("leaderboard-row")
    expect(rows).to_have_count(len(order), timeout=TIMEOUT)
    assert rows.evaluate_all("rows => rows.map(row => row.dataset.username)") == order
    for rank, name in enumerate(order, start=1):
        row = rows.nth(rank - 1)
        expect(row).to_have_attribute("data-rank", str(rank))
        expect(row).to_contain_text(rating_text(expected[name]))
        expect(row.get_by_role("link", name=name, exact=True)).to_have_attribute(
            "href", f"/players/{name}"
        )
    expect(page.get_by_test_id("leaderboard-you")).to_be_hidden()  # nobody signed in here

    measured = {level: level_rating(level, RULESETS[GAME]) for level in LEVELS}
    levels = {level: rating.about for level, rating in measured.items() if rating is not None}
    assert levels, "no computer level is rated in this game"
    lines = page.get_by_test_id("computer-rating")
    expect(lines).to_have_count(len(levels))
    for level, rating in levels.items():
        line = page.locator(f"[data-testid=computer-rating][data-level={level}]")
        expect(line).to_have_attribute("data-rating", str(rating))
        expect(line).to_contain_text(str(rating))
    # in the list, each level marked above the first player it outrates
    marks = page.get_by_test_id("computer-mark")
    for mark in marks.all():
        level = mark.get_attribute("data-level") or ""
        below = mark.evaluate(
            "mark => { let next = mark.nextElementSibling;"
            " while (next && !next.dataset.rating) next = next.nextElementSibling;"
            " return next ? Number(next.dataset.rating) : null; }"
        )
        assert below is not None and below < levels[level], (level, below)
    expected_marks = [
        level for level, rating in levels.items() if rating > expected[order[-1]].rating
    ]
    expect(marks).to_have_count(len(expected_marks))

    # signed in, lea sees her own place, and her row marked
    context = chromium.new_context(viewport=PHONE)
    try:
        signed = context.request.post(
            local(rated_server) + "/api/account/sign-in",
            data={"username": "lea", "password": PASSWORD},
        )
        assert signed.status == 200, signed.text()
        mine = context.new_page()
        mine.goto(local(rated_server) + f"/leaderboard?game={GAME}")
        rank = order.index("lea") + 1
        you = mine.get_by_test_id("leaderboard-you")
        expect(you).to_have_text(
            f"You: rank {rank} · {rating_text(expected['lea'])} · "
            f"{len(matches_of('lea', league))} rated matches",
            timeout=TIMEOUT,
        )
        expect(mine.locator("[data-testid=leaderboard-row].you")).to_have_attribute(
            "data-username", "lea"
        )
        overflow = mine.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"the board scrolls sideways by {overflow}px on a phone"
    finally:
        context.close()

    # another game's tab: nobody ranked there yet
    page.locator("[data-testid=game-tab][data-game=escova]").click()
    expect(page.get_by_test_id("leaderboard-empty")).to_be_visible(timeout=TIMEOUT)
    expect(tab).to_have_attribute("aria-selected", "false")
    assert page.url.endswith("?game=escova")


def test_a_match_past_the_daily_limit_says_it_did_not_count(
    page: Any, rated_server: Server
) -> None:
    """Two accounts meet once more than counts in a day: the end of that match says it did
    not count for the ratings, and names no change."""
    pat, quin = Player(rated_server, "pat"), Player(rated_server, "quin")
    for _ in range(DAILY_PAIR_LIMIT):
        rated_match(rated_server, pat, quin)
    extra = rated_match(rated_server, pat, quin, status="daily_limit")
    seat = next(seat for seat, name in extra.seats.items() if name == "pat")
    page.goto(local(rated_server) + "/")
    page.evaluate(
        "([key, ticket]) => localStorage.setItem(key, JSON.stringify(ticket))",
        [f"escoba.ticket.{extra.room}", {"seat": seat, "token": extra.tokens[seat], "at": 1}],
    )
    page.goto(local(rated_server) + f"/room/{extra.room}")
    expect(page.get_by_test_id("rated-tag")).to_be_visible(timeout=TIMEOUT)
    over = page.locator("#over-box")
    expect(over).to_be_visible(timeout=TIMEOUT)
    status = over.get_by_test_id("rating-status")
    expect(status).to_have_attribute("data-status", "daily_limit", timeout=TIMEOUT)
    expect(status).to_have_text(
        "This match does not count for the ratings: the same players have met too often today."
    )
    expect(over.get_by_test_id("rating-change")).to_have_count(0)


def test_an_unknown_name_and_a_deleted_opponent(chromium: Any, rated_server: Server) -> None:
    """A name nobody plays under: the page says there is no such player. An account deleted
    after a rated match: its opponent's page names it "deleted player", with no link."""
    cy, di = Player(rated_server, "cy"), Player(rated_server, "di")
    rated_match(rated_server, cy, di)
    gone = cy.http.request(
        "DELETE", "/api/account", json={"username": "cy"}, headers={"X-CSRF-Token": cy.csrf}
    )
    assert gone.status_code == 200, gone.text

    context = chromium.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        errors = errors_of(page)
        page.goto(local(rated_server) + "/players/di")
        row = page.get_by_test_id("profile-match").first
        expect(row).to_contain_text("deleted player", timeout=TIMEOUT)
        expect(row.get_by_role("link", name="deleted player")).to_have_count(0)
        opponent = page.get_by_test_id("stats-opponent").first
        expect(opponent).to_contain_text("deleted player")

        page.goto(local(rated_server) + "/players/nobody%20here")
        missing = page.get_by_test_id("profile-missing")
        expect(missing).to_be_visible(timeout=TIMEOUT)
        expect(missing.get_by_role("heading", level=1)).to_have_text("No such player")
        expect(missing).to_contain_text("Nobody plays here under the name “nobody here”.")
        expect(page.locator("#profile-body")).to_be_hidden()
        # the browser logs the API's 404 for the unknown name, and nothing else
        assert len(errors) == 1 and "404" in errors[0], errors
    finally:
        context.close()


def test_the_rating_pages_pass_an_accessibility_audit(
    chromium: Any, rated_server: Server, league: list[Played], axe_script: Path
) -> None:
    """axe-core finds no serious or critical violation on a player's page (its chart and
    tables) nor on the leaderboard."""
    del league  # the pages hold its players
    # The pages' Content-Security-Policy forbids injected scripts: the audit's own is let in.
    context = chromium.new_context(viewport=DESKTOP, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(local(rated_server) + "/players/lea")
        page.get_by_test_id("rating-chart").first.wait_for(timeout=TIMEOUT)
        audit(page, axe_script, "a player's page", also=("page-has-heading-one",))
        page.goto(local(rated_server) + f"/leaderboard?game={GAME}")
        page.get_by_test_id("leaderboard-row").first.wait_for(timeout=TIMEOUT)
        audit(page, axe_script, "the leaderboard", also=("page-has-heading-one",))
    finally:
        context.close()
