"""Nicknames are shown as text, never read as HTML, in every page that shows them: the
lobby's list of your rooms, the invite form, the game screen of each seat, the history and
the replay. The pages also carry the Content-Security-Policy that would stop an injected
script. Runs in a real headless Chromium against `escoba serve` (see ``web_browser.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from server_helpers import RemotePeer, play_until
from web_browser import Server, press_play

TIMEOUT = 20_000  # ms

# Each at most 24 characters (the nickname limit), each a different way into the page.
IMG = "<img src=x onerror=_p=1>"
SCRIPT = "<script>_p=2</script>"
SVG = '"><svg onload=__pwned=1>'
ENTITY = "<b>&amp;</b> {room} $&"
NICKNAMES = [IMG, SCRIPT, SVG, ENTITY]


def assert_nothing_injected(page: Any) -> None:
    """No element came from a nickname, and no nickname's script ran."""
    assert page.locator("img[src=x]").count() == 0
    assert page.locator("svg[onload]").count() == 0
    assert page.locator("b", has_text="&").count() == 0
    assert page.locator("[onerror], [onload]").count() == 0
    inline = page.evaluate("() => [...document.scripts].filter((s) => !s.src).length")
    assert inline == 0
    assert page.evaluate("() => [window._p, window.__pwned]") == [None, None]


def assert_shows(page: Any, *nicknames: str) -> None:
    """Each nickname is on the page as the very text typed."""
    for nickname in nicknames:
        page.get_by_text(nickname).filter(visible=True).first.wait_for(timeout=TIMEOUT)
    text = page.locator("body").inner_text()
    for nickname in nicknames:
        assert nickname in text


def assert_csp(response: Any) -> None:
    """The page allows only its own scripts: no inline script, no eval."""
    policy = response.headers["content-security-policy"]
    directives = dict(
        (part.split()[0], part.split()[1:]) for part in policy.split(";") if part.strip()
    )
    scripts = directives.get("script-src", directives["default-src"])
    assert scripts == ["'self'"], policy
    assert directives["object-src"] == ["'none'"]
    assert directives["base-uri"] == ["'none'"]


@pytest.fixture
def guest(chromium: Any) -> Iterator[Any]:
    """A second person's browser: its own profile, failing the test on any script error."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield opened
    context.close()
    assert not errors, f"errors in the guest's browser: {errors}"


def test_nicknames_in_the_lobby_the_invite_and_the_game(
    page: Any, guest: Any, server: Server
) -> None:
    host_name, guest_name = IMG, SVG
    response = page.goto(server.url + "/")
    assert_csp(response)
    page.get_by_test_id("nickname").fill(host_name)
    page.get_by_test_id("seat-kind-1").select_option("person")
    room = press_play(page, server)

    # The invite form lists the host by name.
    response = guest.goto(server.url + f"/room/{room}")
    assert_csp(response)
    assert_shows(guest, host_name)
    assert_nothing_injected(guest)
    guest.get_by_test_id("join-nickname").fill(guest_name)
    guest.get_by_test_id("join-room").click()
    guest.get_by_test_id("status").and_(guest.locator("[data-state=connected]")).wait_for(
        timeout=TIMEOUT
    )

    # Each game screen names the other person.
    assert_shows(guest, host_name)
    assert_shows(page, guest_name)
    for screen in (page, guest):
        screen.get_by_test_id("hand-card").first.wait_for(timeout=TIMEOUT)
        assert_nothing_injected(screen)
    # A play is told in words naming the player, on the other screen.
    playable = "[data-testid=hand-card][data-moves]"
    for _ in range(TIMEOUT // 100):
        if page.locator(playable).count() or guest.locator(playable).count():
            break
        page.wait_for_timeout(100)
    mover, other, name = (page, guest, host_name)
    if guest.locator(playable).count():
        mover, other, name = (guest, page, guest_name)
    card = mover.locator(playable).first
    moves = int(card.get_attribute("data-moves") or "1")
    card.click()
    if moves > 1:
        mover.get_by_test_id("capture-choice").first.click()
    other.locator("#last-play").filter(has_text=name).wait_for(timeout=TIMEOUT)
    assert_nothing_injected(other)

    # The lobby's "your rooms": the host's nickname and the room's players.
    page.goto(server.url + "/")
    entry = page.locator(f"[data-testid=my-room][data-room='{room}']")
    entry.wait_for(timeout=TIMEOUT)
    assert host_name in entry.inner_text()
    page.locator(f"[data-testid=my-room][data-room='{room}'] a").filter(
        has_text=guest_name
    ).wait_for(timeout=TIMEOUT)
    assert_nothing_injected(page)


def finish_a_match(server: Server, first: str, second: str) -> int:
    """A 2-person match to 1 point, played over the protocol and made public by its first
    player, so that any page lists and replays it; its match id."""
    created = httpx.post(
        server.url + "/api/rooms",
        json={"nickname": first, "seats": ["person", "person"], "options": {"target_score": 1}},
    )
    assert created.status_code == 201, created.text
    ticket = created.json()
    joined = httpx.post(
        server.url + f"/api/rooms/{ticket['room']}/join", json={"nickname": second}
    ).json()
    url = server.url.replace("http", "ws") + f"/ws/rooms/{ticket['room']}"
    with connect(url) as one, connect(url) as two:
        ana, bea = RemotePeer(one), RemotePeer(two)
        ana.join(ticket["token"])
        bea.join(joined["token"])
        play_until([ana, bea], lambda state: state["match"]["over"])
    held = {"tokens": [ticket["token"]]}
    (match,) = httpx.post(server.url + "/api/matches/mine", json=held).json()["matches"]
    made = httpx.put(
        server.url + f"/api/matches/{match['id']}/public", json={**held, "public": True}
    )
    assert made.status_code == 200, made.text
    return int(match["id"])


def test_nicknames_in_the_history_and_the_replay(page: Any, server: Server) -> None:
    match_id = finish_a_match(server, SCRIPT, ENTITY)
    response = page.goto(server.url + "/history")
    assert_csp(response)
    row = page.locator(f"[data-testid=public-row][data-match='{match_id}']")
    row.wait_for(timeout=TIMEOUT)
    text = row.inner_text()
    assert SCRIPT in text and ENTITY in text
    assert_nothing_injected(page)

    response = page.goto(server.url + f"/replay/{match_id}")
    assert_csp(response)
    page.get_by_test_id("replay-step").wait_for(timeout=TIMEOUT)
    for seat, name in enumerate((SCRIPT, ENTITY)):
        panel = page.locator(f"[data-testid=replay-hand][data-seat='{seat}']")
        assert name in panel.inner_text()
    page.get_by_test_id("replay-next").click()
    assert page.get_by_test_id("replay-event").inner_text().strip()
    page.get_by_test_id("replay-last").click()
    page.get_by_test_id("replay-winner").wait_for(timeout=TIMEOUT)
    winner = page.get_by_test_id("replay-winner").inner_text()
    assert SCRIPT in winner or ENTITY in winner
    assert_shows(page, SCRIPT, ENTITY)
    assert_nothing_injected(page)


def test_the_check_sees_an_injected_nickname(context: Any, server: Server) -> None:
    """The checks above can fail: a nickname put in as HTML is seen (the policy stops its
    script, and says so in the console, hence a page without the console watch)."""
    bare = context.new_page()
    bare.goto(server.url + "/history")
    assert_nothing_injected(bare)
    for nickname in (IMG, SVG, ENTITY):
        bare.goto(server.url + "/history")
        bare.evaluate("(html) => document.body.insertAdjacentHTML('beforeend', html)", nickname)
        with pytest.raises(AssertionError):
            assert_nothing_injected(bare)
