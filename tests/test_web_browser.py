"""End-to-end tests of the web game in a real headless Chromium (see ``web_browser.py``).

Each test drives the pages as a person would, by clicking, against a real `escoba serve`
process, and checks what the page shows against what the server holds.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import expect
from websockets.sync.client import connect

from escoba import RULESETS
from escoba.ai.ratings import level_rating
from escoba.messages import level_name
from escoba.scorepad import HandEntry, tally
from server_helpers import Message, RemotePeer
from web_browser import Server, press_play

TIMEOUT = 20_000  # ms: a computer move, a state message and an animation fit well inside


def create_room_in_lobby(page: Any, server: Server, *, nickname: str, opponent: str) -> str:
    """Open the lobby, make a 2-player Escoba room against ``opponent``; the room id."""
    page.goto(server.url + "/")
    page.get_by_test_id("nickname").fill(nickname)
    page.get_by_test_id("preset").select_option("escoba")
    page.get_by_test_id("seat-kind-1").select_option(opponent)
    room = press_play(page, server)
    page.get_by_test_id("status").and_(page.locator("[data-state=connected]")).wait_for(
        timeout=TIMEOUT
    )
    return room


def watch(server: Server, room: str) -> Message:
    """The room's public state, as a spectator receives it."""
    with connect(server.url.replace("http", "ws") + f"/ws/rooms/{room}") as socket:
        _, state = RemotePeer(socket).watch()
        return state


def play_one_card(page: Any) -> None:
    """Wait for our turn, click the first playable card and, if asked, the first capture set;
    return once the card has left the hand (so that the next look at the hand sees the
    position after this play, not the one before it)."""
    playable = page.locator("[data-testid=hand-card][data-moves]").first
    playable.wait_for(timeout=TIMEOUT)
    card = playable.get_attribute("data-card")
    moves = int(playable.get_attribute("data-moves") or "1")
    # near its left edge: in a long hand (Scopone's 10 cards) the next card covers the rest
    playable.click(position={"x": 12, "y": 40})
    if moves > 1:
        page.get_by_test_id("capture-choice").first.click()
    # The last play of a hand may be dealt again in the next one: the score pad says it went.
    page.wait_for_function(
        """(card) => !document.querySelector(`[data-testid=hand-card][data-card="${card}"]`)
            || document.querySelector("[data-testid=scorepad-dialog]").open""",
        arg=card,
        timeout=TIMEOUT,
    )


def test_play_a_full_hand_against_the_computer_by_clicking(page: Any, server: Server) -> None:
    room = create_room_in_lobby(page, server, nickname="Ana", opponent="beginner")
    assert page.get_by_test_id("hand-number").inner_text().strip().endswith("1")
    # RULES.md "A hand": 40 cards, 2 players, 3 cards per deal: 20 plays each, unless the
    # dealer's initial table sweep takes 4 cards first; play until the score pad appears.
    dialog = page.get_by_test_id("scorepad-dialog")
    plays = 0
    while not dialog.is_visible():
        play_one_card(page)
        plays += 1
        assert plays <= 20, "a hand has at most 20 plays per player with 2 players"
        page.locator("[data-testid=hand-card][data-moves]").or_(dialog).first.wait_for(
            timeout=TIMEOUT
        )
    assert plays >= 18
    state = watch(server, room)
    result = state["match"]["results"][0]
    pad = dialog.inner_text()
    for points in result["points"]:
        assert str(points) in pad
    totals = page.get_by_test_id("totals").inner_text()
    for total in state["match"]["totals"]:
        assert str(total) in totals
    page.get_by_test_id("scorepad-close").click()
    assert page.get_by_test_id("hand-number").inner_text().strip().endswith("2")


def test_a_scopone_room_with_three_computers(page: Any, server: Server) -> None:
    """Issue 18: Scopone scientifico from the lobby (docs/rules.md, Scopone: 4 players in two
    partnerships, 10 cards each, nothing on the table, no stock). Choosing it seats four in
    partnerships; three players are refused with the engine's reason and nothing opens; the
    asso piglia tutto option is offered only where a card takes cards of its own value."""
    page.goto(server.url + "/")
    page.get_by_test_id("nickname").fill("Ana")
    page.locator("#options summary").click()
    ace = page.get_by_test_id("option-ace_takes_all")
    expect(ace).to_be_disabled()  # Escoba: sums of 15
    page.get_by_test_id("preset").select_option("scopone-scientifico")
    expect(page.get_by_test_id("players")).to_have_value("4")
    expect(page.get_by_test_id("partnerships")).to_be_checked()
    expect(ace).to_be_enabled()
    expect(page.locator("label[for=seat-kind-2]")).to_have_text("Partner")

    page.get_by_test_id("players").select_option("3")
    page.get_by_test_id("create-room").click()
    error = page.locator("#create-error")
    expect(error).to_have_text(
        "Scopone scientifico: the deck does not share out evenly among 3 players; choose"
        " another number of players.",
        timeout=TIMEOUT,
    )
    assert "/room/" not in page.url

    page.get_by_test_id("players").select_option("4")
    page.get_by_test_id("partnerships").check()
    for seat in (1, 2, 3):
        page.get_by_test_id(f"seat-kind-{seat}").select_option("easy")
    room = press_play(page, server)
    expect(page.locator("#game-name")).to_have_text("Scopone scientifico", timeout=TIMEOUT)
    hand = page.get_by_test_id("hand-card")
    expect(hand).to_have_count(10, timeout=TIMEOUT)  # the computers play until Ana's turn
    expect(page.get_by_test_id("stock-size")).to_be_hidden()
    for held in (9, 8, 7):
        play_one_card(page)
        expect(hand).to_have_count(held, timeout=TIMEOUT)
    match = watch(server, room)["match"]
    assert match["stock_size"] == 0
    assert sum(event["kind"] == "play" for event in match["history"]) >= 9  # 3 rounds of 4


def test_the_lobby_shows_each_levels_rating_in_the_chosen_game(page: Any, server: Server) -> None:
    """The ladder's ratings (docs/ai.md): a computer seat's choices name each level with its
    rating in the game chosen, and follow the preset; Scopone's levels are not rated yet."""

    def about(level: str, rules: str) -> str:
        rating = level_rating(level, RULESETS[rules])
        assert rating is not None
        return f"Computer: {level_name(level)} · about {rating.about}"

    page.goto(server.url + "/")
    option = page.locator("[data-testid=seat-kind-1] option[value=hard]")
    expect(option).to_have_text(about("hard", "escoba"), timeout=TIMEOUT)
    expect(page.locator("[data-testid=seat-kind-1] option[value=beginner]")).to_have_text(
        about("beginner", "escoba")
    )
    page.get_by_test_id("preset").select_option("scopa")
    expect(option).to_have_text(about("hard", "scopa"))
    page.get_by_test_id("preset").select_option("scopone-scientifico")
    expect(option).to_have_text(f"Computer: {level_name('hard')}")


def test_a_refused_join_shows_a_clear_message(chromium: Any, server: Server) -> None:
    """The last free seat is taken while a visitor fills in the invite form: the server
    refuses the join (room_full) and the page says so and offers to watch."""
    ticket = httpx.post(
        server.url + "/api/rooms", json={"nickname": "Ana", "seats": ["person", "person"]}
    ).json()
    visitor_context = chromium.new_context()
    visitor = visitor_context.new_page()
    try:
        visitor.goto(server.url + ticket["invite"])
        visitor.get_by_test_id("join-nickname").fill("Cleo")
        taken = httpx.post(
            server.url + f"/api/rooms/{ticket['room']}/join", json={"nickname": "Bea"}
        )
        assert taken.status_code == 200
        visitor.get_by_test_id("join-room").click()
        error = visitor.locator("#join-error")
        error.wait_for(state="visible", timeout=TIMEOUT)
        assert "taken" in error.inner_text() or "full" in error.inner_text()
        visitor.get_by_test_id("watch-room").wait_for(state="visible", timeout=TIMEOUT)
    finally:
        visitor_context.close()


def test_a_friend_joins_through_the_invite_link(
    context: Any, chromium: Any, server: Server
) -> None:
    host = context.new_page()
    host.goto(server.url + "/")
    host.get_by_test_id("nickname").fill("Ana")
    host.get_by_test_id("seat-kind-1").select_option("person")
    room = press_play(host, server)
    # The page fills the link once its texts have come: wait for it.
    link = host.get_by_test_id("invite-link")
    expect(link).to_have_attribute("href", re.compile(re.escape(room) + "$"), timeout=TIMEOUT)
    invite = link.get_attribute("href")
    assert invite and invite.endswith(room)

    friend_context = chromium.new_context(viewport={"width": 360, "height": 740})
    friend = friend_context.new_page()
    try:
        friend.goto(invite)
        friend.get_by_test_id("join-nickname").fill("Bea <b>")
        friend.get_by_test_id("join-room").click()
        friend.get_by_text("Ana", exact=True).filter(visible=True).first.wait_for(timeout=TIMEOUT)
        # The nickname is shown as text, never read as HTML.
        host.get_by_text("Bea <b>").filter(visible=True).first.wait_for(timeout=TIMEOUT)
        assert host.locator("b", has_text="Bea").count() == 0
        # Whoever is to move plays; the other screen shows the card arrive on the table.
        mover, other = (host, friend)
        if friend.locator("[data-testid=hand-card][data-moves]").count():
            mover, other = friend, host
        card = mover.locator("[data-testid=hand-card][data-moves]").first
        card.wait_for(timeout=TIMEOUT)
        played = card.get_attribute("data-card")
        before = other.get_by_test_id("stock-size").inner_text()
        moves = int(card.get_attribute("data-moves") or "1")
        card.click()
        if moves > 1:
            mover.get_by_test_id("capture-choice").first.click()
        other.locator(
            f"[data-testid=hand-card][data-moves], [data-card='{played}']"
        ).first.wait_for(timeout=TIMEOUT)
        assert other.get_by_test_id("stock-size").inner_text() == before
    finally:
        friend_context.close()


def test_deck_style_and_language_switch(page: Any, server: Server) -> None:
    create_room_in_lobby(page, server, nickname="Ana", opponent="medium")
    card = page.get_by_test_id("hand-card").first.locator("svg.card")
    card.wait_for(timeout=TIMEOUT)
    # An Escoba room shows the Spanish cards Escoba is played with, until a deck is picked.
    assert "card-spanish" in (card.get_attribute("class") or "")
    english = page.get_by_test_id("hint-button").inner_text()

    page.locator("#deck-picker").select_option("french")
    page.locator("[data-testid=hand-card] svg.card-french").first.wait_for(timeout=TIMEOUT)
    page.locator("#deck-picker").select_option("italian")
    page.locator("[data-testid=hand-card] svg.card-italian").first.wait_for(timeout=TIMEOUT)

    # A language's texts are fetched before the page redraws in it: wait for the switch.
    page.locator("#language-picker").select_option("de")
    expect(page.locator("html")).to_have_attribute("lang", "de", timeout=TIMEOUT)
    german = page.get_by_test_id("hint-button").inner_text()
    assert german != english
    page.locator("#language-picker").select_option("it")
    expect(page.locator("html")).to_have_attribute("lang", "it", timeout=TIMEOUT)
    assert page.get_by_test_id("hint-button").inner_text() not in {english, german}
    # The choices are kept: a reload shows the same deck and language.
    page.reload()
    page.locator("[data-testid=hand-card] svg.card-italian").first.wait_for(timeout=TIMEOUT)
    assert page.locator("html").get_attribute("lang") == "it"


def test_french_and_brazilian_portuguese_with_plural_forms(page: Any, server: Server) -> None:
    """The language menu offers French and Brazilian Portuguese; choosing one redraws the page
    in it, counts in the form the language gives them (1 modifiée, 2 modifiées)."""
    page.goto(server.url + "/")
    picker = page.locator("#language-picker")
    # The bar is drawn once the page's texts arrived (a module awaiting them, after load).
    expect(picker.locator("option")).to_have_count(6, timeout=TIMEOUT)
    names = picker.locator("option").all_inner_texts()
    assert "Français" in names and "Português (Brasil)" in names
    picker.select_option("fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr", timeout=TIMEOUT)
    expect(page.get_by_test_id("create-room")).to_have_text("Jouer")
    expect(page.locator("label[for=nickname]")).to_have_text("Votre nom")
    summary = page.locator("#options summary")
    expect(summary).to_have_text("Options de règles")
    summary.click()
    page.get_by_test_id("option-forced_capture").click()
    expect(summary).to_have_text("Options de règles (1 modifiée)")
    page.get_by_test_id("option-kings_redeal").click()
    expect(summary).to_have_text("Options de règles (2 modifiées)")

    picker.select_option("pt-BR")
    expect(page.locator("html")).to_have_attribute("lang", "pt-BR", timeout=TIMEOUT)
    expect(page.get_by_test_id("create-room")).to_have_text("Jogar")
    expect(summary).to_have_text("Opções de regras (2 alteradas)")
    page.get_by_test_id("option-kings_redeal").click()
    expect(summary).to_have_text("Opções de regras (1 alterada)")
    # Escova's own words on the game screen, and the count of the stock in its plural form.
    page.get_by_test_id("option-forced_capture").click()
    page.get_by_test_id("nickname").fill("Ana")
    page.get_by_test_id("seat-kind-1").select_option("beginner")
    press_play(page, server)
    expect(page.get_by_test_id("hint-button")).to_have_text("Dica", timeout=TIMEOUT)
    expect(page.get_by_test_id("scorepad-button")).to_have_text("Placar")
    page.get_by_test_id("stock-size").wait_for(timeout=TIMEOUT)
    expect(page.locator("#stock")).to_have_attribute(
        "title", re.compile(r"^\d+ cartas no monte$"), timeout=TIMEOUT
    )
    assert page.locator("html").get_attribute("lang") == "pt-BR"


def test_hint_and_rules_in_the_page(page: Any, server: Server) -> None:
    create_room_in_lobby(page, server, nickname="Ana", opponent="easy")
    page.locator("[data-testid=hand-card][data-moves]").first.wait_for(timeout=TIMEOUT)
    page.get_by_test_id("hint-button").click()
    hint = page.get_by_test_id("hint-text")
    hint.wait_for(state="visible", timeout=TIMEOUT)
    assert hint.inner_text().strip()
    page.get_by_test_id("rules-button").click()
    rules = page.get_by_test_id("rules-dialog")
    # RULES.md "A move": in Escoba a card takes cards to make 15.
    expect(rules).to_contain_text("15", timeout=TIMEOUT)


def test_score_pad_for_real_cards(page: Any, server: Server) -> None:
    page.goto(server.url + "/scorepad")
    page.get_by_test_id("preset").select_option("escoba")
    page.get_by_test_id("entry-cards-0").fill("25")
    page.get_by_test_id("entry-coins-0").fill("7")
    page.get_by_test_id("entry-sweeps-0").fill("2")
    page.get_by_test_id("entry-sweeps-1").fill("1")
    page.get_by_test_id("entry-seven_of_coins-1").check()
    page.get_by_test_id("entry-sevens_winner-0").check()
    page.get_by_test_id("save-hand").click()
    page.get_by_test_id("hand-row-1").wait_for(timeout=TIMEOUT)
    # RULES.md "Scoring a hand", computed by the engine's own score pad.
    expected = tally(
        RULESETS["escoba"],
        2,
        [HandEntry(cards=(25, 15), coins=(7, 3), seven_of_coins=1, sweeps=(2, 1), sevens_winner=0)],
    )
    for side in (0, 1):
        shown = page.get_by_test_id(f"points-1-{side}").inner_text().strip()
        assert shown == str(expected.hands[0].points[side])
    # A count that does not add up is refused with a message naming the field.
    page.get_by_test_id("entry-cards-0").fill("41")
    page.get_by_test_id("save-hand").click()
    error = page.get_by_test_id("entry-error")
    error.wait_for(state="visible", timeout=TIMEOUT)
    assert error.inner_text().strip()
    assert page.get_by_test_id("hand-row-2").count() == 0


def test_score_pad_with_re_bello_and_napola(page: Any, server: Server) -> None:
    """docs/rules.md, regional options: with re bello and napola the pad asks who took the king
    of coins and each side's run of coins, and scores them as the engine does."""
    page.goto(server.url + "/scorepad")
    page.get_by_test_id("preset").select_option("scopa")
    page.get_by_test_id("options").locator("summary").click()
    page.get_by_test_id("option-re_bello").check()
    page.get_by_test_id("option-napola").check()
    page.get_by_test_id("entry-coin_runs-0").wait_for(timeout=TIMEOUT)
    page.get_by_test_id("entry-cards-0").fill("20")
    page.get_by_test_id("entry-coins-0").fill("6")
    page.get_by_test_id("entry-seven_of_coins-0").check()
    page.get_by_test_id("entry-sevens_winner-none").check()
    page.get_by_test_id("entry-king_of_coins-1").check()
    page.get_by_test_id("entry-coin_runs-0").fill("3")
    page.get_by_test_id("save-hand").click()
    page.get_by_test_id("hand-row-1").wait_for(timeout=TIMEOUT)
    rules = RULESETS["scopa"].replace(re_bello=True, napola=True)
    entry = HandEntry(
        cards=(20, 20),
        coins=(6, 4),
        seven_of_coins=0,
        sweeps=(0, 0),
        sevens_winner=None,
        king_of_coins=1,
        coin_runs=(3, 0),
    )
    expected = tally(rules, 2, [entry]).hands[0].points
    assert expected == (1 + 1 + 3, 1)  # coins, seven of coins, napola A-2-3; re bello
    for side in (0, 1):
        shown = page.get_by_test_id(f"points-1-{side}").inner_text().strip()
        assert shown == str(expected[side])
