"""Accounts in a real browser (issue 34): the account page, the header's link and the lobby's
rated boxes, against `escoba serve` (see ``web_browser.py``).

Passkeys need a secure context, so the pages are opened at ``http://localhost`` (not
127.0.0.1), with Chromium's virtual authenticator standing in for a phone's or a laptop's lock
(driven through the DevTools protocol). A passkey made in one browser profile is carried to
another by copying the authenticator's credential, as a synced passkey would arrive on a
second device.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from test_web_a11y import audit
from web_browser import Server

TIMEOUT = 20_000  # ms

# Refusals these tests provoke on purpose (a wrong password is a 401): the browser logs them.
EXPECTED_STATUS = re.compile(r"status of (400|401|409|422)\b")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("accounts"))
    running.url = f"http://localhost:{running.port}"  # a secure context, for passkeys
    running.start()
    yield running
    running.stop()


class Person:
    """A browser profile of its own (its cookies and storage) with one page, failing the test
    on any script error or unexpected refusal in it."""

    def __init__(self, chromium: Any, width: int = 1280, height: int = 800) -> None:
        self.context = chromium.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", self._console)
        self.expected = EXPECTED_STATUS  # refusals the test provokes
        self.cdp: Any = None
        self.authenticator = ""

    def _console(self, message: Any) -> None:
        if message.type == "error" and not self.expected.search(message.text):
            self.errors.append(message.text)

    def with_authenticator(self) -> Person:
        """A platform authenticator that keeps discoverable credentials and verifies the
        user at once (the fingerprint always matches)."""
        self.cdp = self.context.new_cdp_session(self.page)
        self.cdp.send("WebAuthn.enable")
        made = self.cdp.send(
            "WebAuthn.addVirtualAuthenticator",
            {
                "options": {
                    "protocol": "ctap2",
                    "transport": "internal",
                    "hasResidentKey": True,
                    "hasUserVerification": True,
                    "isUserVerified": True,
                    "automaticPresenceSimulation": True,
                }
            },
        )
        self.authenticator = made["authenticatorId"]
        return self

    def credentials(self) -> list[dict[str, Any]]:
        found = self.cdp.send("WebAuthn.getCredentials", {"authenticatorId": self.authenticator})
        return list(found["credentials"])

    def add_credential(self, credential: dict[str, Any]) -> None:
        self.cdp.send(
            "WebAuthn.addCredential",
            {"authenticatorId": self.authenticator, "credential": credential},
        )

    def signed_in_as(self) -> str | None:
        """Who the server says this browser is, asked from the page (with its cookie)."""
        answer = self.page.evaluate(
            "() => fetch('/api/account', {cache: 'no-store'}).then((r) => r.json())"
        )
        account = answer["account"]
        return None if account is None else str(account["username"])

    def close(self) -> None:
        self.context.close()
        assert not self.errors, f"errors in the browser: {self.errors}"


@pytest.fixture
def people(chromium: Any) -> Iterator[list[Person]]:
    """Browsers for a test, closed (and checked for errors) at its end."""
    made: list[Person] = []
    yield made
    for person in made:
        person.close()


def open_account(person: Person, server: Server) -> Any:
    page = person.page
    page.goto(server.url + "/account")
    # One view or the other, once the server said who is signed in.
    shown = "[data-testid=signed-out]:not([hidden]), [data-testid=signed-in]:not([hidden])"
    expect(page.locator(shown)).to_have_count(1, timeout=TIMEOUT)
    return page


def register_with_password(page: Any, username: str, password: str) -> None:
    page.get_by_test_id("register-username").fill(username)
    page.get_by_test_id("register-password").fill(password)
    page.get_by_test_id("register").click()


def sign_in_with_password(page: Any, username: str, password: str) -> None:
    page.get_by_test_id("sign-in-username").fill(username)
    page.get_by_test_id("sign-in-password").fill(password)
    page.get_by_test_id("sign-in").click()


def expect_signed_in(page: Any, username: str) -> None:
    expect(page.get_by_test_id("signed-in")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_test_id("signed-out")).to_be_hidden()
    expect(page.get_by_test_id("account-username")).to_have_text(username)
    expect(page.get_by_test_id("profile-link")).to_have_attribute("href", f"/players/{username}")


def expect_header(page: Any, username: str | None) -> None:
    """The header's account link: the username to the profile, or Sign in to /account."""
    link = page.get_by_test_id("nav-account")
    if username is None:
        expect(link).to_have_text("Sign in", timeout=TIMEOUT)
        expect(link).to_have_attribute("href", "/account")
        expect(page.get_by_test_id("nav-account-settings")).to_be_hidden()
    else:
        expect(link).to_have_text(username, timeout=TIMEOUT)
        expect(link).to_have_attribute("href", f"/players/{username}")
        expect(page.get_by_test_id("nav-account-settings")).to_have_attribute("href", "/account")
    expect(page.get_by_test_id("nav-leaderboard")).to_have_attribute("href", "/leaderboard")


def test_a_passkey_made_on_one_device_signs_in_on_another(
    chromium: Any, server: Server, people: list[Person]
) -> None:
    """Marta creates her account with a passkey (no password), signs out, and signs in on a
    second device that holds the same passkey, without typing her name."""
    first = Person(chromium).with_authenticator()
    people.append(first)
    page = open_account(first, server)
    expect_header(page, None)
    page.get_by_test_id("register-username").fill("Marta")
    page.get_by_test_id("register-passkey").click()
    expect_signed_in(page, "Marta")
    expect(page.get_by_test_id("account-notice")).to_have_text(
        "Welcome, Marta: your account is made."
    )
    expect(page.get_by_test_id("passkey")).to_have_count(1)
    # No password yet: the form offers to set one, without asking for a current one.
    expect(page.get_by_test_id("password-save")).to_have_text("Set password")
    expect(page.get_by_test_id("password-current")).to_be_hidden()
    expect_header(page, "Marta")
    assert first.signed_in_as() == "Marta"
    made = first.credentials()
    assert len(made) == 1 and made[0]["isResidentCredential"]
    assert made[0]["rpId"] == "localhost"

    page.get_by_test_id("sign-out").click()
    expect(page.get_by_test_id("signed-out")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_test_id("account-notice")).to_have_text("You are signed out.")
    expect_header(page, None)
    assert first.signed_in_as() is None

    # The second device: the same passkey, synced; nothing typed.
    second = Person(chromium).with_authenticator()
    people.append(second)
    other = open_account(second, server)
    second.add_credential(made[0])
    other.get_by_test_id("sign-in-passkey").click()
    expect_signed_in(other, "Marta")
    expect(other.get_by_test_id("account-notice")).to_have_text("Welcome back, Marta.")
    expect_header(other, "Marta")
    assert second.signed_in_as() == "Marta"
    # The first device is still signed out: one session per browser.
    assert first.signed_in_as() is None

    # A device with no passkey of this site is told so, and stays signed out.
    third = Person(chromium).with_authenticator()
    people.append(third)
    stranger = open_account(third, server)
    stranger.get_by_test_id("sign-in-passkey").click()
    expect(stranger.get_by_test_id("sign-in-error")).to_have_text(
        "No passkey was used: the request was cancelled or took too long.", timeout=TIMEOUT
    )
    expect(stranger.get_by_test_id("signed-out")).to_be_visible()
    assert third.signed_in_as() is None


def test_a_password_account_and_a_wrong_password(
    chromium: Any, server: Server, people: list[Person]
) -> None:
    """Bruno registers with a password; weak passwords and taken names are refused in words;
    a wrong password says so and signs nobody in; the right one does, and the header names him
    on every page. He adds a passkey, changes his password, and signs out everywhere."""
    bruno = Person(chromium).with_authenticator()
    people.append(bruno)
    page = open_account(bruno, server)

    register_with_password(page, "Bruno", "short")
    expect(page.get_by_test_id("register-error")).to_have_text(
        "That password is too weak: use at least 8 characters, not your username and not a"
        " common password.",
        timeout=TIMEOUT,
    )
    expect(page.get_by_test_id("signed-out")).to_be_visible()
    register_with_password(page, "Bruno", "a walk by the river")
    expect_signed_in(page, "Bruno")
    expect(page.get_by_test_id("password-save")).to_have_text("Change password")
    # The form was cleared: no password stays in the page.
    assert page.get_by_test_id("register-password").input_value() == ""
    page.get_by_test_id("sign-out").click()
    expect(page.get_by_test_id("signed-out")).to_be_visible(timeout=TIMEOUT)

    register_with_password(page, "bruno", "another good password")
    expect(page.get_by_test_id("register-error")).to_have_text(
        "That username is taken: choose another one.", timeout=TIMEOUT
    )

    sign_in_with_password(page, "Bruno", "a walk by the lake")
    expect(page.get_by_test_id("sign-in-error")).to_have_text(
        "Unknown username or wrong password.", timeout=TIMEOUT
    )
    expect(page.get_by_test_id("signed-out")).to_be_visible()
    expect_header(page, None)
    assert bruno.signed_in_as() is None

    sign_in_with_password(page, "Bruno", "a walk by the river")
    expect_signed_in(page, "Bruno")
    expect(page.get_by_test_id("sign-in-error")).to_be_hidden()
    expect_header(page, "Bruno")
    for where in ("/", "/history", "/learn"):
        page.goto(server.url + where)
        expect_header(page, "Bruno")

    # A passkey besides the password; then a new password (the current one asked first).
    page.goto(server.url + "/account")
    expect_signed_in(page, "Bruno")
    page.get_by_test_id("add-passkey").click()
    expect(page.get_by_test_id("passkey-status")).to_have_text(
        "The passkey is added: sign in with it next time.", timeout=TIMEOUT
    )
    expect(page.get_by_test_id("passkey")).to_have_count(1)
    page.get_by_test_id("password-current").fill("not my password")
    page.get_by_test_id("password-new").fill("a swim in the sea")
    page.get_by_test_id("password-save").click()
    expect(page.get_by_test_id("password-error")).to_have_text(
        "Unknown username or wrong password.", timeout=TIMEOUT
    )
    page.get_by_test_id("password-current").fill("a walk by the river")
    page.get_by_test_id("password-save").click()
    expect(page.get_by_test_id("password-status")).to_have_text(
        "Your password is saved.", timeout=TIMEOUT
    )
    assert bruno.signed_in_as() == "Bruno"

    # His data, downloaded: the account as JSON, with no secret in it.
    with page.expect_download() as download:
        page.get_by_test_id("export").click()
    data = Path(download.value.path()).read_text(encoding="utf-8")
    exported = json.loads(data)
    assert exported["username"] == "Bruno" and len(exported["passkeys"]) == 1
    assert "a swim in the sea" not in data and "a walk by the river" not in data

    # Signed in elsewhere too; signing out everywhere ends both.
    laptop = Person(chromium)
    people.append(laptop)
    sign_in_with_password(open_account(laptop, server), "Bruno", "a swim in the sea")
    expect_signed_in(laptop.page, "Bruno")
    page.get_by_test_id("sign-out-everywhere").click()
    expect(page.get_by_test_id("account-notice")).to_have_text(
        "You are signed out on every device.", timeout=TIMEOUT
    )
    assert bruno.signed_in_as() is None
    assert laptop.signed_in_as() is None


def test_attach_the_matches_this_browser_holds(
    chromium: Any, server: Server, people: list[Person]
) -> None:
    """Cleo played a match before she had an account: once she has one, the page offers to
    attach it, and attaching puts it on the account."""
    cleo = Person(chromium)
    people.append(cleo)
    ticket = httpx.post(
        server.url + "/api/rooms", json={"nickname": "Cleo", "seats": ["person", "beginner"]}
    ).json()
    page = cleo.page
    page.goto(server.url + "/account")
    page.evaluate(
        "([key, ticket]) => localStorage.setItem(key, JSON.stringify(ticket))",
        [
            f"escoba.ticket.{ticket['room']}",
            {"seat": ticket["seat"], "token": ticket["token"], "nickname": "Cleo", "at": 5},
        ],
    )
    page.reload()
    register_with_password(page, "Cleo", "cards on the table")
    expect_signed_in(page, "Cleo")
    offer = page.get_by_test_id("attach-offer")
    expect(offer).to_be_visible()
    expect(page.get_by_test_id("attach-text")).to_have_text(
        "This browser holds your seat at 1 table. Attach its matches to your account, so that"
        " they count on your profile."
    )
    page.get_by_test_id("attach").click()
    expect(page.get_by_test_id("attach-result")).to_have_text(
        "1 match attached to your account.", timeout=TIMEOUT
    )
    expect(page.get_by_test_id("attach")).to_be_hidden()
    # Seen again later, nothing new to attach: no offer.
    page.reload()
    expect_signed_in(page, "Cleo")
    expect(offer).to_be_hidden()


def test_the_lobby_signed_out_and_signed_in(
    chromium: Any, server: Server, people: list[Person]
) -> None:
    """Signed out, the Rated boxes are disabled and say why, with the way to an account.
    Signed in, the name field shows the username, read-only, and Rated makes the new game an
    open, clocked table of people playing the game's own rules."""
    dani = Person(chromium)
    people.append(dani)
    page = dani.page
    page.goto(server.url + "/")
    page.get_by_test_id("nickname").fill("Dani")
    expect_header(page, None)
    for box, hint in (("quick-rated", "quick-rated-hint"), ("rated", "rated-hint")):
        expect(page.get_by_test_id(box)).to_be_disabled()
        expect(page.get_by_test_id(hint)).to_contain_text("Rated games need an account.")
        link = page.get_by_test_id(hint).get_by_role("link", name="Sign in or create one")
        expect(link).to_have_attribute("href", "/account")
    expect(page.get_by_test_id("nickname")).to_be_editable()

    page.get_by_test_id("rated-hint").get_by_role("link").click()
    page.wait_for_url("**/account")
    register_with_password(page, "Dani", "dealing the cards")
    expect_signed_in(page, "Dani")
    page.goto(server.url + "/")
    expect_header(page, "Dani")
    nickname = page.get_by_test_id("nickname")
    expect(nickname).to_have_value("Dani")
    expect(nickname).not_to_be_editable()
    expect(page.get_by_test_id("nickname-account")).to_have_text(
        "Signed in: you sit under your username, Dani."
    )
    expect(page.get_by_test_id("quick-rated")).to_be_enabled()
    rated = page.get_by_test_id("rated")
    expect(rated).to_be_enabled()
    expect(page.get_by_test_id("rated-hint")).to_contain_text("A rated game needs an open table")

    page.get_by_test_id("seat-kind-1").select_option("hard")
    expect(page.get_by_test_id("clock")).to_have_value("")
    rated.check()
    expect(page.get_by_test_id("listed")).to_be_checked()
    expect(page.get_by_test_id("listed")).to_be_disabled()
    expect(page.get_by_test_id("clock")).to_have_value("standard")
    expect(page.get_by_test_id("seat-kind-1")).to_have_value("person")
    expect(page.get_by_test_id("seat-kind-1")).to_be_disabled()
    # Unticked, the fields are free again (and keep what Rated chose).
    rated.uncheck()
    expect(page.get_by_test_id("listed")).to_be_enabled()
    expect(page.get_by_test_id("seat-kind-1")).to_be_enabled()


def test_a_rated_open_table_in_the_lobby(
    chromium: Any, server: Server, people: list[Person]
) -> None:
    """Eva opens a rated table; a stranger's lobby lists it marked Rated, with Eva's username
    at her seat."""
    eva, fede = Person(chromium), Person(chromium)
    people += [eva, fede]
    page = open_account(eva, server)
    register_with_password(page, "Eva", "the seven of coins")
    expect_signed_in(page, "Eva")
    page.goto(server.url + "/")
    fede.page.goto(server.url + "/")
    expect(fede.page.get_by_test_id("open-tables-none")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_test_id("rated")).to_be_enabled(timeout=TIMEOUT)
    page.get_by_test_id("rated").check()
    page.get_by_test_id("create-room").click()
    page.wait_for_url("**/room/**", wait_until="commit", timeout=TIMEOUT)
    room = page.url.rsplit("/", 1)[1]
    table = fede.page.locator(f"[data-testid=open-table][data-room='{room}']")
    expect(table).to_be_visible(timeout=TIMEOUT)
    expect(table.get_by_test_id("rated-badge")).to_have_text("Rated")
    expect(table).to_contain_text("Eva")


def test_a_token_gone_stale_in_another_tab(
    chromium: Any, server: Server, people: list[Person]
) -> None:
    """Ivo's lobby was opened before he signed in again in another tab (a new session, a new
    CSRF token): starting a game there is refused once for the stale token, then sent again
    with the new one, and the game opens."""
    ivo = Person(chromium)
    people.append(ivo)
    ivo.expected = re.compile(r"status of (400|401|403|409|422)\b")  # the stale token's 403
    account = open_account(ivo, server)
    register_with_password(account, "Ivo", "three of cups")
    expect_signed_in(account, "Ivo")
    lobby = ivo.context.new_page()
    lobby.on("pageerror", lambda error: ivo.errors.append(str(error)))
    lobby.goto(server.url + "/")
    expect(lobby.get_by_test_id("nickname")).to_have_value("Ivo", timeout=TIMEOUT)
    account.get_by_test_id("sign-out").click()
    expect(account.get_by_test_id("signed-out")).to_be_visible(timeout=TIMEOUT)
    sign_in_with_password(account, "Ivo", "three of cups")
    expect_signed_in(account, "Ivo")
    stale: list[int] = []
    lobby.on(
        "response",
        lambda response: (
            stale.append(response.status)
            if response.url.endswith("/api/rooms") and response.request.method == "POST"
            else None
        ),
    )
    lobby.get_by_test_id("seat-kind-1").select_option("beginner")
    lobby.get_by_test_id("create-room").click()
    lobby.wait_for_url("**/room/**", wait_until="commit", timeout=TIMEOUT)
    assert stale == [403, 201]


def test_the_account_page_on_a_phone(chromium: Any, server: Server, people: list[Person]) -> None:
    """At 390x844 the page fits the width, its forms stack, the header's menu holds Sign in;
    signed in, every part fits too, and deleting the account asks for the username first."""
    gil = Person(chromium, 390, 844)
    people.append(gil)
    page = open_account(gil, server)
    fits = "() => document.documentElement.scrollWidth <= window.innerWidth"
    assert page.evaluate(fits)
    expect(page.get_by_test_id("nav-account")).to_be_hidden()  # folded into the menu
    page.get_by_role("button", name="Menu").click()
    expect(page.get_by_test_id("nav-account")).to_be_visible()
    expect(page.get_by_test_id("nav-account")).to_have_text("Sign in")
    page.get_by_role("button", name="Menu").click()
    sign_in = page.get_by_test_id("sign-in").bounding_box()
    register = page.get_by_test_id("register").bounding_box()
    assert sign_in is not None and register is not None
    assert register["y"] > sign_in["y"]  # one above the other
    for id_ in ("sign-in-username", "register-username", "register-passkey"):
        box = page.get_by_test_id(id_).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, id_

    register_with_password(page, "Gil", "a long walk home")
    expect_signed_in(page, "Gil")
    assert page.evaluate(fits)
    page.get_by_role("button", name="Menu").click()
    expect(page.get_by_test_id("nav-account")).to_have_text("Gil")
    page.get_by_role("button", name="Menu").click()

    delete = page.get_by_test_id("delete-account")
    delete.scroll_into_view_if_needed()
    expect(delete).to_be_in_viewport()
    expect(delete).to_be_disabled()
    expect(page.get_by_test_id("delete-confirm-label")).to_have_text(
        "Type your username, Gil, to confirm"
    )
    page.get_by_test_id("delete-confirm").fill("gi")
    expect(delete).to_be_disabled()
    page.get_by_test_id("delete-confirm").fill("Gil")
    expect(delete).to_be_enabled()
    delete.click()
    expect(page.get_by_test_id("account-notice")).to_have_text(
        "The account Gil is deleted.", timeout=TIMEOUT
    )
    expect(page.get_by_test_id("signed-out")).to_be_visible()
    assert gil.signed_in_as() is None
    sign_in_with_password(page, "Gil", "a long walk home")
    expect(page.get_by_test_id("sign-in-error")).to_have_text(
        "Unknown username or wrong password.", timeout=TIMEOUT
    )


def test_no_serious_accessibility_problem_on_the_account_page(
    chromium: Any, server: Server, axe_script: Path
) -> None:
    """axe-core finds no serious or critical violation on the account page, signed out and
    signed in."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(server.url + "/account")
        expect(page.get_by_test_id("signed-out")).to_be_visible(timeout=TIMEOUT)
        audit(page, axe_script, "the account page, signed out")
        register_with_password(page, "Hana", "open tables only")
        expect_signed_in(page, "Hana")
        audit(page, axe_script, "the account page, signed in")
    finally:
        context.close()


def test_a_signed_in_guest_joins_a_room_by_its_link_under_the_username(
    chromium: Any, server: Server, people: list[Person]
) -> None:
    """Gus opens a friend's room link while signed in: the join form shows his username,
    read-only, saying why, and he sits under it (a name he might have used before is not
    offered)."""
    gus = Person(chromium)
    people.append(gus)
    ticket = httpx.post(
        server.url + "/api/rooms", json={"nickname": "Host", "seats": ["person", "person"]}
    ).json()
    gus.page.goto(server.url + "/")
    gus.page.evaluate("localStorage.setItem('escoba.nickname', 'Old name')")
    page = open_account(gus, server)
    register_with_password(page, "Gus", "the seven of coins")
    expect_signed_in(page, "Gus")
    page.goto(server.url + f"/room/{ticket['room']}")
    field = page.get_by_test_id("join-nickname")
    expect(field).to_have_value("Gus", timeout=TIMEOUT)
    expect(field).not_to_be_editable()
    expect(page.get_by_test_id("join-account")).to_contain_text("Gus")
    page.get_by_test_id("join-room").click()
    expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=TIMEOUT)
    info = httpx.get(server.url + f"/api/rooms/{ticket['room']}").json()
    assert [seat["account"] for seat in info["seats"]] == [None, "Gus"]
    assert info["seats"][1]["nickname"] == "Gus"
