"""``escoba admin``: the accounts of a server's database, changed beside a running server.

Each test runs the web app on a SQLite file of its own (``TestClient(create_app(...))``,
accounts made through its HTTP API) and the command on the same file, and checks the effect
through the app, as a person would meet it: a disabled account cannot sign in and its
browsers are signed out, a reset password signs in and the old one does not, a renamed
account's profile is under its new name. Nothing the command prints holds a password or a
hash.

Passwords are hashed at the tests' cheap Argon2id cost here, by the app (its setting) and by
the command (the default hasher swapped for one of that cost): these tests are about what the
commands do, not about the hash's cost, which the server's own tests check.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert, select, text
from sqlalchemy.pool import NullPool
from typer.testing import CliRunner

from escoba.cli import app
from escoba.server import accounts as accounts_module
from escoba.server.config import Settings
from escoba.server.http.app import create_app
from escoba.server.storage.repository import default_database_url
from escoba.server.storage.tables import (
    AccountRow,
    FairPlayFlagRow,
    MatchRow,
    PasskeyRow,
    RatingChangeRow,
)
from escoba.userdata import DATA_DIR_VARIABLE
from server_helpers import TEST_PASSWORD_COST

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})

ANA_PASSWORD = "sevens and coins"
BEA_PASSWORD = "a broom for bea"
SECRETS = ("$argon2", ANA_PASSWORD, BEA_PASSWORD)
"""What no output may hold (the new passwords are added by each test)."""


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    cheap = accounts_module.Passwords(TEST_PASSWORD_COST)
    monkeypatch.setattr(accounts_module, "_default", lambda: cheap)


def new_app(database: str | None) -> Any:
    return create_app(Settings(database_url=database, pace=0, password_cost=TEST_PASSWORD_COST))


@dataclass
class Ran:
    code: int
    out: str
    err: str

    def assert_error(self, code: int, *fragments: str) -> str:
        """One line on stderr, ``Error: ...`` holding each fragment; nothing on stdout."""
        assert self.code == code, (self.code, self.out, self.err)
        assert self.out == ""
        assert "Traceback" not in self.err
        lines = self.err.strip().splitlines()
        assert len(lines) == 1, self.err
        assert lines[0].startswith("Error: ")
        for fragment in fragments:
            assert fragment in lines[0], (fragment, lines[0])
        return lines[0]


def admin(database: str | None, *args: str, stdin: str | None = None, secret: str = "") -> Ran:
    """``escoba admin ARGS --database DATABASE``; nothing it prints holds a secret."""
    where = [] if database is None else ["--database", database]
    result = runner.invoke(app, ["admin", *args, *where], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    for hidden in (*SECRETS, *([secret] if secret else [])):
        assert hidden not in result.stdout and hidden not in result.stderr, hidden
    return Ran(result.exit_code, result.stdout, result.stderr)


class Browser:
    """One browser of the app: its own session cookie and CSRF token (the test client's
    cookie jar is shared, so it is emptied around each request)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.session: str | None = None
        self.csrf: str | None = None

    def request(self, method: str, url: str, **fields: Any) -> Any:
        headers = dict(fields.pop("headers", {}))
        if self.session is not None:
            headers["Cookie"] = f"escoba_session={self.session}"
            if self.csrf is not None:
                headers["X-CSRF-Token"] = self.csrf
        self.client.cookies.clear()
        answer = self.client.request(method, url, headers=headers, **fields)
        if "set-cookie" in answer.headers:
            self.session = self.client.cookies.get("escoba_session") or None
        self.client.cookies.clear()
        if answer.status_code < 300 and "csrf" in answer.json():
            self.csrf = answer.json()["csrf"]
        return answer

    def register(self, username: str, password: str) -> None:
        made = self.request(
            "POST", "/api/account/register", json={"username": username, "password": password}
        )
        assert made.status_code == 201, made.text

    def sign_in(self, username: str, password: str) -> Any:
        return self.request(
            "POST", "/api/account/sign-in", json={"username": username, "password": password}
        )

    def who(self) -> str | None:
        """The username this browser is signed in as, or None."""
        answer = self.request("GET", "/api/account")
        assert answer.status_code == 200, answer.text
        account = answer.json()["account"]
        return None if account is None else str(account["username"])


@dataclass
class Site:
    client: TestClient
    database: str

    def browser(self) -> Browser:
        return Browser(self.client)

    def signed_in(self, username: str, password: str) -> Browser:
        browser = self.browser()
        answer = browser.sign_in(username, password)
        assert answer.status_code == 200, answer.text
        return browser

    def engine(self) -> Any:
        return create_engine(self.database, poolclass=NullPool)

    def account_id(self, username: str) -> int:
        engine = self.engine()
        try:
            with engine.connect() as connection:
                found = connection.scalar(
                    select(AccountRow.id).where(AccountRow.username == username)
                )
        finally:
            engine.dispose()
        assert found is not None, username
        return int(found)

    def new_match(self) -> int:
        """A room's match (a room of two people, opened anonymously): its id."""
        made = self.client.post("/api/rooms", json={"nickname": "x", "seats": ["person"] * 2})
        assert made.status_code == 201, made.text
        engine = self.engine()
        try:
            with engine.connect() as connection:
                match = connection.scalar(
                    select(MatchRow.id).where(MatchRow.room_id == made.json()["room"])
                )
        finally:
            engine.dispose()
        assert match is not None
        return int(match)

    def store(self, table: Any, **values: Any) -> None:
        engine = self.engine()
        try:
            with engine.begin() as connection:
                connection.execute(insert(table).values(**values))
        finally:
            engine.dispose()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    """The app on a SQLite file of the test's own, with two accounts: Ana and Bea."""
    database = f"sqlite:///{tmp_path / 'escoba.db'}"
    with TestClient(new_app(database)) as client:
        made = Site(client, database)
        for name, password in (("Ana", ANA_PASSWORD), ("Bea", BEA_PASSWORD)):
            browser = made.browser()
            browser.register(name, password)
            assert browser.request("POST", "/api/account/sign-out", json={}).status_code == 200
        yield made


def table_line(out: str, first: str) -> list[str]:
    """The cells of the rich table's row whose first cell is ``first``."""
    for line in out.splitlines():
        cells = [cell.strip() for cell in re.split("[│┃]", line.strip().strip("│┃"))]
        if cells and cells[0] == first:
            return cells
    raise AssertionError(f"no row {first!r} in:\n{out}")


def rows_of(out: str) -> list[str]:
    """The lines of a rich table's rows (its header's lines are drawn with ┃)."""
    return [line for line in out.splitlines() if line.count("│") >= 2]


# -- listing ---------------------------------------------------------------------------------------


def rate(site: Site, match: int, account: int, seat: int) -> None:
    site.store(
        RatingChangeRow,
        match_id=match,
        account_id=account,
        seat=seat,
        game="escoba",
        mu_before=25.0,
        sigma_before=8.3,
        mu_after=26.0,
        sigma_after=8.0,
    )


def test_accounts_lists_each_account_with_its_ways_in_its_rated_matches_and_flags(
    site: Site,
) -> None:
    """Every account by name: made when, how it signs in (a password, passkeys), whether it
    is disabled, how many rated matches it played and how many fair-play flags name it."""
    ana, bea = site.account_id("Ana"), site.account_id("Bea")
    first, second = site.new_match(), site.new_match()
    for match in (first, second):
        rate(site, match, ana, 0)
    rate(site, first, bea, 1)
    site.store(FairPlayFlagRow, match_id=first, reason="same_address", accounts=[ana, bea])
    # An account of passkeys only (made as the passkey ceremony makes one)
    site.store(AccountRow, username="Cy", username_key="cy", password_hash=None, user_handle="h-cy")
    cy = site.account_id("Cy")
    for number in range(2):
        site.store(PasskeyRow, id=f"key-{number}", account_id=cy, public_key=b"\x01", sign_count=0)
    assert admin(site.database, "disable", "Bea").code == 0

    listed = admin(site.database, "accounts")
    assert listed.code == 0, listed.err
    assert "3 accounts" in listed.out
    header = table_line(listed.out, "username")
    assert header == [
        "username",
        "created",
        "signs in with",
        "disabled",
        "rated matches",
        "fair-play flags",
    ]
    ana_row, bea_row, cy_row = (table_line(listed.out, name) for name in ("Ana", "Bea", "Cy"))
    assert ana_row[2:] == ["password", "", "2", "1"]
    assert bea_row[2:] == ["password", "disabled", "1", "1"]
    assert cy_row[2:] == ["2 passkeys", "", "0", ""]
    assert ana_row[1].endswith(" UTC") and ana_row[1][:2] == "20"
    names = [line.split("│")[1].strip() for line in rows_of(listed.out)]
    assert names == ["Ana", "Bea", "Cy"], "by name"


def test_an_empty_database_has_no_accounts_nor_flags(tmp_path: Path) -> None:
    """A new database is made and upgraded as the server's start would, and says so."""
    database = f"sqlite:///{tmp_path / 'new.db'}"
    assert admin(database, "accounts").out == "No accounts.\n"
    assert admin(database, "flags").out == "No fair-play flags.\n"
    engine = create_engine(database, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            version = connection.scalar(text("SELECT version_num FROM alembic_version"))
    finally:
        engine.dispose()
    migrations = Path(accounts_module.__file__).parent / "storage" / "migrations" / "versions"
    newest = max(path.name for path in migrations.glob("0*.py"))
    assert version is not None and newest.startswith(version[:4])


def test_flags_lists_each_flag_with_its_match_reason_accounts_and_time(site: Site) -> None:
    """Newest first; an account deleted since is shown as a deleted player."""
    ana, bea = site.account_id("Ana"), site.account_id("Bea")
    older, newer = site.new_match(), site.new_match()
    site.store(FairPlayFlagRow, match_id=older, reason="same_address", accounts=[ana, bea])
    site.store(FairPlayFlagRow, match_id=newer, reason="same_address", accounts=[bea])
    listed = admin(site.database, "flags")
    assert listed.code == 0, listed.err
    assert "2 fair-play flags" in listed.out
    assert table_line(listed.out, "match")[1:] == ["reason", "accounts", "when"]
    rows = [table_line(listed.out, str(match)) for match in (newer, older)]
    assert rows[0][1:3] == ["same address", "Bea"]
    assert rows[1][1:3] == ["same address", "Ana, Bea"]
    assert rows[0][3].endswith(" UTC")
    firsts = [table_line(line, line.split("│")[1].strip())[0] for line in rows_of(listed.out)]
    assert firsts == [str(newer), str(older)], "newest first"
    bea_browser = site.signed_in("Bea", BEA_PASSWORD)
    gone = bea_browser.request("DELETE", "/api/account", json={"username": "Bea"})
    assert gone.status_code == 200, gone.text
    listed = admin(site.database, "flags")
    assert table_line(listed.out, str(older))[2] == "Ana, (deleted player)"
    assert "Bea" not in listed.out


# -- disable and enable ----------------------------------------------------------------------------


def test_a_disabled_account_is_signed_out_and_cannot_sign_in_until_enabled(site: Site) -> None:
    ana_phone, ana_laptop = (site.signed_in("Ana", ANA_PASSWORD) for _ in range(2))
    bea = site.signed_in("Bea", BEA_PASSWORD)

    done = admin(site.database, "disable", "  ana ")  # as typed: any case, spaces around
    assert done.code == 0, done.err
    assert done.out == "Disabled 'Ana': it cannot sign in (2 sessions ended).\n"
    assert ana_phone.who() is None and ana_laptop.who() is None
    assert bea.who() == "Bea", "another account's session goes on"
    refused = site.browser().sign_in("Ana", ANA_PASSWORD)
    assert refused.status_code == 403 and refused.json()["code"] == "account_disabled"
    assert "set-cookie" not in refused.headers
    assert admin(site.database, "disable", "Ana").out == "'Ana' is disabled already.\n"

    done = admin(site.database, "enable", "ANA")
    assert done.code == 0 and done.out == "Enabled 'Ana': it may sign in again.\n"
    assert site.signed_in("Ana", ANA_PASSWORD).who() == "Ana"
    assert admin(site.database, "enable", "Ana").out == "'Ana' is enabled already.\n"


def test_a_disabled_account_leaves_the_leaderboard_listing_but_keeps_its_profile(
    site: Site,
) -> None:
    admin(site.database, "disable", "Bea")
    assert site.client.get("/api/players/Bea").status_code == 200
    listed = admin(site.database, "accounts")
    assert table_line(listed.out, "Bea")[3] == "disabled"
    assert table_line(listed.out, "Ana")[3] == ""


# -- rename ----------------------------------------------------------------------------------------


def test_a_renamed_account_is_found_signs_in_and_is_shown_under_its_new_name(site: Site) -> None:
    browser = site.signed_in("Ana", ANA_PASSWORD)
    done = admin(site.database, "rename", "ana", "  Ana   María ")
    assert done.code == 0, done.err
    assert done.out == "Renamed 'Ana' to 'Ana María'.\n"
    profile = site.client.get("/api/players/Ana%20Mar%C3%ADa")
    assert profile.status_code == 200, profile.text
    assert profile.json()["username"] == "Ana María"
    assert site.client.get("/api/players/ana%20mar%C3%ADa").json()["username"] == "Ana María"
    old = site.client.get("/api/players/Ana")
    assert old.status_code == 404 and old.json()["code"] == "not_found"
    assert browser.who() == "Ana María", "a session goes on under the new name"
    assert site.signed_in("Ana María", ANA_PASSWORD).who() == "Ana María"
    wrong = site.browser().sign_in("Ana", ANA_PASSWORD)
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_credentials"
    # The old name is free again
    site.browser().register("Ana", "another ana's password")
    assert site.client.get("/api/players/Ana").status_code == 200


def test_a_change_of_case_only_is_a_rename(site: Site) -> None:
    assert admin(site.database, "rename", "Ana", "ANA").out == "Renamed 'Ana' to 'ANA'.\n"
    assert site.client.get("/api/players/ana").json()["username"] == "ANA"
    assert admin(site.database, "rename", "ana", "ANA").out == "'ANA' has that username already.\n"


@pytest.mark.parametrize(
    ("new", "code", "said"),
    [
        ("bea", 1, "the username 'bea' is taken by another account"),
        (" BEA ", 1, "the username 'BEA' is taken by another account"),
        ("admin", 1, "the username 'admin' is reserved"),
        ("Deleted Player", 1, "is reserved"),
        ("a/b", 2, "a username cannot hold / \\ ? # or %: 'a/b'"),
        ("   ", 2, "a username must hold a visible character"),
        ("\u200b", 2, "a username must hold a visible character"),
    ],
    ids=ascii,
)
def test_a_name_taken_or_not_allowed_is_refused_and_changes_nothing(
    site: Site, new: str, code: int, said: str
) -> None:
    admin(site.database, "rename", "Ana", new).assert_error(code, said)
    assert site.client.get("/api/players/Ana").json()["username"] == "Ana"
    assert site.client.get("/api/players/Bea").json()["username"] == "Bea"
    assert site.signed_in("Ana", ANA_PASSWORD).who() == "Ana"


# -- reset-password --------------------------------------------------------------------------------


def test_a_reset_password_asked_twice_signs_in_and_the_old_one_does_not(site: Site) -> None:
    browser = site.signed_in("Ana", ANA_PASSWORD)
    new = "a new deck of cards"
    done = admin(site.database, "reset-password", "Ana", stdin=f"{new}\n{new}\n", secret=new)
    assert done.code == 0, done.err
    assert "New password: " in done.out and "Repeat it: " in done.out
    assert done.out.endswith("New password set for 'Ana' (1 session ended).\n")
    assert browser.who() is None, "every session of the account ended"
    old = site.browser().sign_in("Ana", ANA_PASSWORD)
    assert old.status_code == 401 and old.json()["code"] == "bad_credentials"
    assert site.signed_in("Ana", new).who() == "Ana"
    assert site.signed_in("Bea", BEA_PASSWORD).who() == "Bea"
    engine = site.engine()
    try:
        with engine.connect() as connection:
            stored = connection.scalar(
                select(AccountRow.password_hash).where(AccountRow.username == "Ana")
            )
    finally:
        engine.dispose()
    assert stored is not None and stored.startswith("$argon2id$") and new not in stored


def test_two_different_passwords_are_asked_again(site: Site) -> None:
    """Typed twice and different: asked again; the input ending there aborts, unchanged."""
    first, second = "first of two words", "second of two words"
    ran = admin(site.database, "reset-password", "Ana", stdin=f"{first}\n{second}\n", secret=first)
    assert second not in ran.out + ran.err
    assert ran.code == 1 and ran.err.strip().splitlines()[-1] == "Error: aborted"
    assert ran.out.count("New password: ") == 2, "asked again"
    assert "do not match" in ran.out + ran.err
    assert site.signed_in("Ana", ANA_PASSWORD).who() == "Ana"
    assert site.browser().sign_in("Ana", first).status_code == 401


def test_a_password_from_standard_input_ends_every_session_but_no_other_account(
    site: Site,
) -> None:
    ana = [site.signed_in("Ana", ANA_PASSWORD) for _ in range(3)]
    bea = site.signed_in("Bea", BEA_PASSWORD)
    new = "pässwörd from a pipe"
    done = admin(
        site.database, "reset-password", "ANA", "--password-stdin", stdin=new + "\r\n", secret=new
    )
    assert done.code == 0, done.err
    assert done.out == "New password set for 'Ana' (3 sessions ended).\n"
    assert [browser.who() for browser in ana] == [None] * 3
    assert bea.who() == "Bea"
    assert site.signed_in("ana", new).who() == "Ana"


def test_a_password_account_of_passkeys_only_gets_one(site: Site) -> None:
    site.store(AccountRow, username="Cy", username_key="cy", password_hash=None, user_handle="h-cy")
    assert site.browser().sign_in("Cy", "anything at all").status_code == 401
    new = "cy's first password"
    done = admin(site.database, "reset-password", "Cy", "--password-stdin", stdin=new, secret=new)
    assert done.code == 0, done.err
    browser = site.signed_in("Cy", new)
    assert browser.request("GET", "/api/account").json()["account"]["has_password"] is True


@pytest.mark.parametrize(
    ("password", "said"),
    [
        ("short", "a password needs at least 8 characters"),
        ("password", "that password is too easy to guess"),
        ("ANAANAANA", None),  # not the name, but too few distinct characters
        ("x" * 1025, "a password may be at most 1024 bytes long"),
        ("ñ" * 513, "a password may be at most 1024 bytes long"),
    ],
    ids=lambda value: ascii(value)[:20],
)
def test_a_weak_or_too_long_password_is_refused_and_changes_nothing(
    site: Site, password: str, said: str | None
) -> None:
    browser = site.signed_in("Ana", ANA_PASSWORD)
    shown = password in (said or "")  # "password": a word of the error, not a secret
    ran = admin(
        site.database,
        "reset-password",
        "Ana",
        "--password-stdin",
        stdin=password,
        secret="" if shown else password,
    )
    ran.assert_error(2, *([said] if said else ["too easy to guess"]))
    assert browser.who() == "Ana", "no session ended"
    assert site.signed_in("Ana", ANA_PASSWORD).who() == "Ana"


def test_the_username_itself_is_refused_as_a_password(site: Site) -> None:
    site.browser().register("Scopa Player", "scopa player's own")
    ran = admin(
        site.database,
        "reset-password",
        "Scopa Player",
        "--password-stdin",
        stdin="SCOPA PLAYER",
        secret="SCOPA PLAYER",
    )
    ran.assert_error(2, "too easy to guess")


def test_an_empty_standard_input_is_refused(site: Site) -> None:
    ran = admin(site.database, "reset-password", "Ana", "--password-stdin", stdin="")
    ran.assert_error(2, "--password-stdin: no password on standard input")
    assert site.signed_in("Ana", ANA_PASSWORD).who() == "Ana"


# -- errors ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["disable", "Nobody"],
        ["enable", "Nobody"],
        ["rename", "Nobody", "Somebody"],
        ["reset-password", "Nobody", "--password-stdin"],
        ["disable", "admin"],
    ],
    ids=" ".join,
)
def test_an_unknown_name_is_a_clear_error(site: Site, args: list[str]) -> None:
    ran = admin(site.database, *args, stdin="a long enough password\n")
    ran.assert_error(1, f"there is no account named {args[1]!r}")
    assert "Password" not in ran.out, "no password asked for an unknown account"


def test_a_deleted_account_is_unknown(site: Site) -> None:
    bea = site.signed_in("Bea", BEA_PASSWORD)
    assert bea.request("DELETE", "/api/account", json={"username": "Bea"}).status_code == 200
    admin(site.database, "disable", "Bea").assert_error(1, "there is no account named 'Bea'")
    assert "Bea" not in admin(site.database, "accounts").out


def test_a_database_that_cannot_be_opened_is_said_without_its_password(tmp_path: Path) -> None:
    admin("not a url", "accounts").assert_error(2, "--database: not a database URL")
    missing = f"sqlite:///{tmp_path / 'no' / 'such' / 'folder.db'}"
    admin(missing, "accounts").assert_error(2, "--database: cannot open", "folder.db")
    secret = "hunter2-secret"
    ran = admin(f"postgresql+psycopg://escoba:{secret}@127.0.0.1:1/escoba", "flags", secret=secret)
    ran.assert_error(2, "--database: cannot open postgresql+psycopg://escoba:***@127.0.0.1:1")
    text_file = tmp_path / "notes.txt"
    text_file.write_text("not a database, but text long enough to be read as one\n" * 200)
    admin(f"sqlite:///{text_file}", "accounts").assert_error(2, "--database: cannot open")


@pytest.mark.slow
def test_the_default_database_is_the_servers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --database, the file ``escoba serve`` uses by default (in ESCOBA_DATA_DIR
    here): an account registered on a server of the default database is listed."""
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path / "data"))
    url = default_database_url()
    assert url == f"sqlite:///{tmp_path / 'data' / 'escoba.db'}"
    with TestClient(new_app(None)) as client:
        Browser(client).register("Dora", "dora's password")
    listed = admin(None, "accounts")
    assert listed.code == 0, listed.err
    assert table_line(listed.out, "Dora")[2] == "password"
    assert admin(None, "disable", "dora").code == 0
    with TestClient(new_app(url)) as client:
        refused = Browser(client).sign_in("Dora", "dora's password")
    assert refused.json()["code"] == "account_disabled"


def test_admin_alone_shows_its_commands() -> None:
    ran = admin(None, "--help")
    assert ran.code == 0
    for command in ("accounts", "flags", "disable", "enable", "rename", "reset-password"):
        assert command in ran.out
    result = runner.invoke(app, ["admin"])
    assert result.exit_code == 0 and "reset-password" in result.stdout
