"""Accounts (issue 34, item 1): registering with a password or a passkey, sessions in cookies
rotated at sign-in and ended everywhere, CSRF, the sign-in limits, attaching a browser's
matches, export and deletion; every bad input refused by name, changing nothing."""

from __future__ import annotations

import dataclasses
import logging
import statistics
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from account_helpers import PASSWORD, Person, register, session_of, sign_in
from escoba.server.config import DEFAULT_PASSWORD_COST
from escoba.server.storage.tables import AccountRow, SessionRow, now
from passkeys import SoftAuthenticator
from server_helpers import (
    TEST_LIMITS,
    assert_refused,
    connect,
    create_room,
    play_until,
    running_app,
)

ORIGIN = "http://testserver"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    limits = dataclasses.replace(
        TEST_LIMITS, sign_ins_per_name=3, sign_ins_per_address=6, passkey_flows_per_address=4
    )
    with running_app(tmp_path / "escoba.db", limits=limits) as client:
        yield client


def state(client: TestClient) -> Any:
    return client.app.state  # type: ignore[attr-defined]


def accounts(client: TestClient) -> list[Any]:
    with state(client).storage.engine.connect() as connection:
        return list(connection.execute(select(AccountRow)))


def me(client: TestClient, person: Person) -> dict[str, Any]:
    answer: dict[str, Any] = person.get("/api/account").json()
    return answer


# -- registering and signing in with a password


def test_register_signs_in_with_an_httponly_samesite_cookie(client: TestClient) -> None:
    response = client.post(
        "/api/account/register", json={"username": " Ana ", "password": PASSWORD}
    )
    assert response.status_code == 201
    cookie = response.headers["set-cookie"]
    assert "escoba_session=" in cookie
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain HTTP (a test server): Secure behind HTTPS only
    answer = response.json()
    assert answer["account"]["username"] == "Ana"
    assert answer["account"]["has_password"] is True
    assert PASSWORD not in response.text
    # The cookie's token is never stored: the database holds its hash only.
    token = session_of(response)
    client.cookies.clear()
    with state(client).storage.engine.connect() as connection:
        stored = connection.execute(select(SessionRow.id)).scalars().all()
    assert token not in stored and len(stored) == 1
    assert (
        client.get("/api/account", headers={"Cookie": f"escoba_session={token}"}).json()["account"][
            "username"
        ]
        == "Ana"
    )


def test_cookies_are_secure_behind_https(tmp_path: Path) -> None:
    with running_app(tmp_path / "escoba.db") as client:
        client.base_url = client.base_url.copy_with(scheme="https")  # type: ignore[attr-defined]
        response = client.post(
            "/api/account/register", json={"username": "Ana", "password": PASSWORD}
        )
        assert response.status_code == 201, response.text
        assert "Secure" in response.headers["set-cookie"]


@pytest.mark.slow
def test_the_password_is_stored_only_as_an_argon2id_hash_and_never_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    # The server's own cost (RFC 9106's second recommendation), not the tests' cheap one.
    with running_app(tmp_path / "escoba.db", password_cost=DEFAULT_PASSWORD_COST) as client:
        register(client, "Ana")
        sign_in(client, "Ana")
        client.post("/api/account/sign-in", json={"username": "Ana", "password": "wrong but long"})
        (row,) = accounts(client)
    assert row.password_hash is not None
    assert row.password_hash.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    assert PASSWORD not in row.password_hash
    assert PASSWORD not in caplog.text and "wrong but long" not in caplog.text


@pytest.mark.parametrize(
    ("username", "password", "status", "code"),
    [
        ("\u200b\u2060", PASSWORD, 400, "bad_username"),  # nothing visible
        ("a/b", PASSWORD, 400, "bad_username"),
        ("Ana", "short", 400, "weak_password"),
        ("Ana", "password1", 400, "weak_password"),
        ("Anastasia", "anastasia", 400, "weak_password"),  # the username itself
        ("Ana", "aaaaaaaaaaaa", 400, "weak_password"),
        ("Ana", "x" * 1025, 400, "password_too_long"),
        ("Ana", "ñ" * 600, 400, "password_too_long"),  # 1,200 bytes
        ("Ana", "y" * 30_000, 422, "bad_request"),
        ("deleted player", PASSWORD, 409, "username_taken"),
    ],
)
def test_a_bad_username_or_password_is_refused_by_name_and_makes_nothing(
    client: TestClient, username: str, password: str, status: int, code: str
) -> None:
    response = client.post(
        "/api/account/register", json={"username": username, "password": password}
    )
    assert_refused(response, status, code)
    assert "set-cookie" not in response.headers
    assert accounts(client) == []


def test_a_taken_username_is_refused_however_it_is_written(client: TestClient) -> None:
    register(client, "Ana María")
    for spelling in ("ana maría", "ANA MARÍA", "Ana  Mari\u0301a"):
        response = client.post(
            "/api/account/register", json={"username": spelling, "password": PASSWORD}
        )
        assert_refused(response, 409, "username_taken")
    assert len(accounts(client)) == 1


def test_signing_in_makes_a_new_session_and_ends_the_one_presented(client: TestClient) -> None:
    first = register(client, "Ana")
    # Signing in from a browser that presents a session (fixed by someone else, or its own):
    response = client.post(
        "/api/account/sign-in",
        json={"username": "ana", "password": PASSWORD},
        headers={"Cookie": f"escoba_session={first.token}"},
    )
    assert response.status_code == 200, response.text
    second = session_of(response)
    client.cookies.clear()
    assert second != first.token
    assert me(client, first)["account"] is None  # the old session is over
    fresh = Person(client, "Ana", second, response.json()["csrf"])
    assert me(client, fresh)["account"]["username"] == "Ana"
    assert response.json()["csrf"] != first.csrf


def test_a_session_value_made_up_by_an_attacker_is_never_adopted(client: TestClient) -> None:
    register(client, "Ana")
    planted = "attacker-chosen-session-value-0123456789"
    response = client.post(
        "/api/account/sign-in",
        json={"username": "Ana", "password": PASSWORD},
        headers={"Cookie": f"escoba_session={planted}"},
    )
    client.cookies.clear()
    assert session_of(response) != planted
    assert client.get("/api/account", headers={"Cookie": f"escoba_session={planted}"}).json() == {
        "account": None,
        "csrf": None,
    }


def test_sign_out_ends_this_session_and_sign_out_everywhere_every_one(client: TestClient) -> None:
    phone = register(client, "Ana")
    laptop = sign_in(client, "Ana")
    tablet = sign_in(client, "Ana")
    response = phone.post("/api/account/sign-out")
    assert response.json() == {"signed_out": True}
    assert (
        'escoba_session=""' in response.headers["set-cookie"]
        or "Max-Age=0" in (response.headers["set-cookie"])
    )
    assert me(client, phone)["account"] is None
    assert me(client, laptop)["account"]["username"] == "Ana"
    assert laptop.post("/api/account/sign-out-everywhere").status_code == 200
    assert me(client, laptop)["account"] is None
    assert me(client, tablet)["account"] is None


def test_an_expired_session_is_no_session(client: TestClient) -> None:
    ana = register(client, "Ana")

    with state(client).storage.engine.begin() as connection:
        connection.execute(update(SessionRow).values(seen_at=now() - timedelta(days=31)))
    assert me(client, ana) == {"account": None, "csrf": None}
    # ...and a state-changing request with it is anonymous, not signed in.
    ticket = ana.create_room(nickname="Guest", seats=["person", "easy"])
    assert ticket["seat"] == 0


# -- CSRF and requests from other sites


def test_a_signed_in_request_without_the_csrf_token_is_refused_and_changes_nothing(
    client: TestClient,
) -> None:
    ana = register(client, "Ana")
    for path, body in [
        ("/api/account/sign-out-everywhere", {}),
        ("/api/rooms", {"nickname": "Ana"}),
        ("/api/account/attach", {"tokens": []}),
    ]:
        assert_refused(ana.post(path, body, csrf=False), 403, "bad_csrf")
        response = ana.post(path, body, csrf=False, **{"X-CSRF-Token": "forged" * 8})
        assert_refused(response, 403, "bad_csrf")
    assert me(client, ana)["account"]["username"] == "Ana"
    # DELETE and PUT alike
    response = client.request(
        "DELETE",
        "/api/account",
        json={"username": "Ana"},
        headers={"Cookie": f"escoba_session={ana.token}"},
    )
    assert_refused(response, 403, "bad_csrf")
    assert len(accounts(client)) == 1


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site", "Origin": "https://sub.testserver"},
    ],
)
def test_state_changing_requests_from_another_site_are_refused(
    client: TestClient, headers: dict[str, str]
) -> None:
    response = client.post(
        "/api/account/register", json={"username": "Ana", "password": PASSWORD}, headers=headers
    )
    assert_refused(response, 403, "cross_site")
    assert accounts(client) == []
    assert_refused(
        client.post("/api/rooms", json={"nickname": "Ana"}, headers=headers), 403, "cross_site"
    )


def test_requests_from_the_sites_own_pages_pass(client: TestClient) -> None:
    response = client.post(
        "/api/account/register",
        json={"username": "Ana", "password": PASSWORD},
        headers={"Origin": ORIGIN, "Sec-Fetch-Site": "same-origin"},
    )
    assert response.status_code == 201, response.text


# -- the sign-in limits


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(client: TestClient) -> None:
    register(client, "Ana")
    wrong = client.post(
        "/api/account/sign-in", json={"username": "Ana", "password": "not it at all"}
    )
    unknown = client.post(
        "/api/account/sign-in", json={"username": "Nobody", "password": "not it at all"}
    )
    passkeys_only = client.post(
        "/api/account/sign-in", json={"username": "\u200b", "password": "not it at all"}
    )
    for response in (wrong, unknown, passkeys_only):
        assert_refused(response, 401, "bad_credentials")
    assert wrong.json() == unknown.json() == passkeys_only.json()
    assert "set-cookie" not in wrong.headers and "set-cookie" not in unknown.headers


def test_an_unknown_name_takes_as_long_as_a_wrong_password(client: TestClient) -> None:
    register(client, "Ana")
    wrong: list[float] = []
    unknown: list[float] = []
    # Under the limits: each name gets two failures.
    for index in range(2):
        for name, times in (("Ana", wrong), (f"Nobody{index}", unknown)):
            started = time.perf_counter()
            client.post("/api/account/sign-in", json={"username": name, "password": "x" * 12})
            times.append(time.perf_counter() - started)
        client.post("/api/account/sign-in", json={"username": "Ana", "password": PASSWORD})
    # Both verify an Argon2id hash: neither is an order of magnitude quicker.
    assert statistics.median(unknown) > 0.3 * statistics.median(wrong)
    assert statistics.median(wrong) > 0.3 * statistics.median(unknown)


def test_failed_sign_ins_are_limited_per_name_unknown_names_alike(client: TestClient) -> None:
    register(client, "Ana")
    for name in ("Ana", "Nobody"):
        for _ in range(3):
            response = client.post(
                "/api/account/sign-in", json={"username": name, "password": "guess guess"}
            )
            assert_refused(response, 401, "bad_credentials")
        refused = assert_refused(
            client.post("/api/account/sign-in", json={"username": name, "password": "guess 2"}),
            429,
            "too_many_attempts",
        )
        assert "try again" in refused["message"]
    # Even the right password waits out the limit: guessing cannot tell when it hit.
    right = client.post("/api/account/sign-in", json={"username": "ana", "password": PASSWORD})
    assert_refused(right, 429, "too_many_attempts")


def test_failed_sign_ins_are_limited_per_address(client: TestClient) -> None:
    register(client, "Ana")
    for index in range(6):  # six names, one failure each, from one address
        client.post(
            "/api/account/sign-in", json={"username": f"guess{index}", "password": "guess guess"}
        )
    response = client.post("/api/account/sign-in", json={"username": "Ana", "password": PASSWORD})
    assert_refused(response, 429, "too_many_attempts")


def test_a_disabled_account_cannot_sign_in_and_its_sessions_end(client: TestClient) -> None:
    ana = register(client, "Ana")

    (account,) = accounts(client)
    state(client).accounts.set_disabled(account.id, True)
    assert me(client, ana)["account"] is None
    response = client.post("/api/account/sign-in", json={"username": "Ana", "password": PASSWORD})
    assert_refused(response, 403, "account_disabled")


# -- passkeys


def passkey_account(client: TestClient, username: str, device: SoftAuthenticator) -> Person:
    client.cookies.clear()
    started = client.post("/api/account/passkeys/options", json={"username": username}).json()
    assert started["options"]["rp"]["id"] == "testserver"
    assert started["options"]["authenticatorSelection"]["residentKey"] == "required"
    response = client.post(
        "/api/account/passkeys",
        json={"flow": started["flow"], "credential": device.create(started["options"])},
    )
    assert response.status_code == 201, response.text
    token = session_of(response)
    client.cookies.clear()
    return Person(client, username, token, response.json()["csrf"])


def passkey_sign_in(client: TestClient, device: SoftAuthenticator) -> Any:
    client.cookies.clear()
    started = client.post("/api/account/sign-in/options", json={}).json()
    assert started["options"]["allowCredentials"] == []  # discoverable: no name asked
    response = client.post(
        "/api/account/sign-in/passkey",
        json={"flow": started["flow"], "credential": device.get(started["options"])},
    )
    return response


def test_register_with_a_passkey_and_sign_in_with_it_on_another_device(client: TestClient) -> None:
    phone = SoftAuthenticator(ORIGIN)
    ana = passkey_account(client, "Ana", phone)
    account = me(client, ana)["account"]
    assert account["has_password"] is False and len(account["passkeys"]) == 1
    assert ana.post("/api/account/sign-out").status_code == 200
    response = passkey_sign_in(client, phone)
    assert response.status_code == 200, response.text
    assert response.json()["account"]["username"] == "Ana"
    # A password sign-in for a passkeys-only account is refused as any wrong password.
    refused = client.post("/api/account/sign-in", json={"username": "Ana", "password": PASSWORD})
    assert_refused(refused, 401, "bad_credentials")


def test_a_passkey_made_for_another_site_or_origin_is_refused(client: TestClient) -> None:
    started = client.post("/api/account/passkeys/options", json={"username": "Ana"}).json()
    elsewhere = SoftAuthenticator(ORIGIN).create(started["options"], rp_id="evil.example")
    response = client.post(
        "/api/account/passkeys", json={"flow": started["flow"], "credential": elsewhere}
    )
    assert_refused(response, 400, "bad_passkey")
    started = client.post("/api/account/passkeys/options", json={"username": "Ana"}).json()
    phished = SoftAuthenticator("https://evil.example").create(started["options"])
    response = client.post(
        "/api/account/passkeys", json={"flow": started["flow"], "credential": phished}
    )
    assert_refused(response, 400, "bad_passkey")
    assert accounts(client) == []


def test_passkey_requests_under_way_are_limited_per_address(client: TestClient) -> None:
    begun = [client.post("/api/account/sign-in/options", json={}) for _ in range(4)]
    assert {response.status_code for response in begun} == {200}
    for path, body in (
        ("/api/account/sign-in/options", {}),
        ("/api/account/passkeys/options", {"username": "Ana"}),
    ):
        assert_refused(client.post(path, json=body), 429, "too_many_attempts")
    # Answering one (even wrongly) uses it up and frees its place.
    answered = client.post(
        "/api/account/sign-in/passkey",
        json={"flow": begun[0].json()["flow"], "credential": {"id": "unknown"}},
    )
    assert_refused(answered, 400, "bad_passkey")
    assert client.post("/api/account/sign-in/options", json={}).status_code == 200


def test_a_passkey_answer_is_used_once_and_a_forged_one_refused(client: TestClient) -> None:
    device = SoftAuthenticator(ORIGIN)
    passkey_account(client, "Ana", device)
    started = client.post("/api/account/sign-in/options", json={}).json()
    answer = device.get(started["options"])
    first = client.post(
        "/api/account/sign-in/passkey", json={"flow": started["flow"], "credential": answer}
    )
    assert first.status_code == 200
    client.cookies.clear()
    again = client.post(
        "/api/account/sign-in/passkey", json={"flow": started["flow"], "credential": answer}
    )
    assert_refused(again, 400, "flow_expired")
    started = client.post("/api/account/sign-in/options", json={}).json()
    forged = device.get(started["options"])
    forged["response"]["signature"] = forged["response"]["signature"][::-1]
    response = client.post(
        "/api/account/sign-in/passkey", json={"flow": started["flow"], "credential": forged}
    )
    assert_refused(response, 400, "bad_passkey")
    assert "set-cookie" not in response.headers


def test_a_signed_in_account_adds_a_passkey_and_a_password(client: TestClient) -> None:
    ana = register(client, "Ana")
    device = SoftAuthenticator(ORIGIN)
    started = ana.post("/api/account/passkeys/options", {}).json()
    response = ana.post(
        "/api/account/passkeys",
        {"flow": started["flow"], "credential": device.create(started["options"])},
    )
    assert response.status_code == 201, response.text
    assert len(response.json()["account"]["passkeys"]) == 1
    assert passkey_sign_in(client, device).json()["account"]["username"] == "Ana"
    # Changing the password needs the current one, and ends the other sessions.
    other = sign_in(client, "Ana")
    wrong = client.put(
        "/api/account/password",
        json={"password": "a new long secret", "current": "not the password"},
        headers=ana.headers(),
    )
    assert_refused(wrong, 401, "bad_credentials")
    changed = client.put(
        "/api/account/password",
        json={"password": "a new long secret", "current": PASSWORD},
        headers=ana.headers(),
    )
    assert changed.status_code == 200, changed.text
    client.cookies.clear()
    assert me(client, other)["account"] is None
    assert sign_in(client, "Ana", "a new long secret").username == "Ana"


# -- a browser's matches, export and deletion


def test_signed_in_people_sit_under_their_username(client: TestClient) -> None:
    ana = register(client, "Ana")
    ticket = ana.create_room(nickname="Someone else", seats=["person", "easy"])
    info = client.get(f"/api/rooms/{ticket['room']}").json()
    assert info["seats"][0]["nickname"] == "Ana" and info["seats"][0]["account"] == "Ana"
    assert info["seats"][1]["account"] is None


def test_attach_puts_a_browsers_matches_on_the_account(client: TestClient) -> None:
    ticket = create_room(client, nickname="Ana", seats=["person", "person"])
    ana = register(client, "Ana")
    response = ana.post("/api/account/attach", {"tokens": [ticket["token"]]})
    assert response.json() == {"attached": 1}
    # Attached once: again changes nothing; another account cannot take it.
    assert ana.post("/api/account/attach", {"tokens": [ticket["token"]]}).json() == {"attached": 0}
    bea = register(client, "Bea")
    assert bea.post("/api/account/attach", {"tokens": [ticket["token"]]}).json() == {"attached": 0}
    exported = ana.get("/api/account/export").json()
    assert [match["room"] for match in exported["matches"]] == [ticket["room"]]
    assert_refused(client.post("/api/account/attach", json={"tokens": []}), 401, "sign_in_needed")


def test_export_holds_the_accounts_data_and_no_secret(client: TestClient) -> None:
    ana = register(client, "Ana")
    response = ana.get("/api/account/export")
    assert "attachment" in response.headers["content-disposition"]
    data = response.json()
    assert data["username"] == "Ana" and data["has_password"] is True
    text = response.text
    assert "argon2" not in text and ana.token not in text and ana.csrf not in text


def test_deleting_an_account_keeps_its_matches_under_a_deleted_player(client: TestClient) -> None:
    ana = register(client, "Ana")
    ticket = ana.create_room(seats=["person", "easy"])
    wrong = client.request(
        "DELETE", "/api/account", json={"username": "Bea"}, headers=ana.headers()
    )
    assert_refused(wrong, 400, "confirm_username")
    response = client.request(
        "DELETE", "/api/account", json={"username": "ana"}, headers=ana.headers()
    )
    assert response.json() == {"deleted": True}
    client.cookies.clear()
    assert me(client, ana)["account"] is None
    assert_refused(client.get("/api/players/Ana"), 404, "not_found")
    info = client.get(f"/api/rooms/{ticket['room']}").json()
    assert info["id"] == ticket["room"]  # the room and its match stay
    # The name is free again.
    assert register(client, "Ana").username == "Ana"


@pytest.mark.slow
def test_an_account_finds_its_matches_and_replays_on_a_new_device(client: TestClient) -> None:
    """Signed in on a device that holds no seat token, a player still lists their finished
    matches, replays them and makes them public; others do not see them."""
    ana, bea = register(client, "Ana"), register(client, "Bea")
    ticket = ana.create_room(seats=["person", "person"], options={"target_score": 1})
    joined = bea.join(ticket["room"])
    with connect(client, ticket["room"]) as first, connect(client, ticket["room"]) as second:
        first.join(ticket["token"])
        second.join(joined["token"])
        play_until([first, second], lambda state: bool(state["match"]["over"]))
    phone = sign_in(client, "Ana")  # no seat token on this device
    (listed,) = phone.post("/api/matches/mine", {"tokens": []}).json()["matches"]
    assert listed["seat"] == 0 and listed["names"] == ["Ana", "Bea"]
    replay = phone.post(f"/api/matches/{listed['id']}/replay", {"tokens": []})
    assert replay.status_code == 200 and replay.json()["match"] == listed["id"]
    cai = register(client, "Cai")
    assert cai.post("/api/matches/mine", {"tokens": []}).json()["matches"] == []
    hidden = cai.post(f"/api/matches/{listed['id']}/replay", {"tokens": []})
    assert_refused(hidden, 404, "not_found")
    made = client.put(
        f"/api/matches/{listed['id']}/public",
        json={"tokens": [], "public": True},
        headers=phone.headers(),
    )
    assert made.json() == {"match": listed["id"], "public": True}
    client.cookies.clear()
    assert cai.post(f"/api/matches/{listed['id']}/replay", {"tokens": []}).status_code == 200
