"""Signed-in people for the server tests: one app (``TestClient``) serves several accounts,
each sending its own session cookie and CSRF token, as separate browsers would."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient

from server_helpers import Peer

__all__ = ["PASSWORD", "Person", "register"]

PASSWORD = "a long enough secret"
COOKIE = "escoba_session"


class Person:
    """A browser signed in as an account: its session token (the cookie's value) and the
    session's CSRF token."""

    def __init__(self, client: TestClient, username: str, token: str, csrf: str) -> None:
        self.client = client
        self.username = username
        self.token = token
        self.csrf = csrf

    def headers(self, *, csrf: bool = True) -> dict[str, str]:
        headers = {"Cookie": f"{COOKIE}={self.token}"}
        if csrf:
            headers["X-CSRF-Token"] = self.csrf
        return headers

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self.headers(csrf=False))

    def post(self, path: str, body: Any = None, *, csrf: bool = True, **headers: str) -> Any:
        response = self.client.post(
            path, json={} if body is None else body, headers={**self.headers(csrf=csrf), **headers}
        )
        self.client.cookies.clear()
        return response

    def create_room(self, **fields: Any) -> dict[str, Any]:
        body: dict[str, Any] = {"nickname": "ignored", "seats": ["person", "person"]}
        body.update(fields)
        response = self.post("/api/rooms", body)
        assert response.status_code == 201, response.text
        ticket: dict[str, Any] = response.json()
        return ticket

    def join(self, room: str) -> dict[str, Any]:
        response = self.post(f"/api/rooms/{room}/join", {"nickname": "ignored"})
        assert response.status_code == 200, response.text
        ticket: dict[str, Any] = response.json()
        return ticket

    @contextmanager
    def lobby(self) -> Iterator[Peer]:
        """The lobby's socket, opened with this browser's session."""
        with self.client.websocket_connect(
            "/ws/lobby", headers={"cookie": f"{COOKIE}={self.token}"}
        ) as websocket:
            yield Peer(websocket)


def session_of(response: Any) -> str:
    token = response.cookies.get(COOKIE)
    assert token, f"no session cookie in {response.headers}"
    return str(token)


def register(client: TestClient, username: str, password: str = PASSWORD) -> Person:
    """A new account with a password, signed in."""
    return _signed_in(client, "/api/account/register", 201, username, password)


def sign_in(client: TestClient, username: str, password: str = PASSWORD) -> Person:
    return _signed_in(client, "/api/account/sign-in", 200, username, password)


def _signed_in(client: TestClient, path: str, status: int, username: str, password: str) -> Person:
    """The browser signed in by ``path`` (the client keeps no cookie: each Person sends its
    own)."""
    client.cookies.clear()
    response = client.post(path, json={"username": username, "password": password})
    assert response.status_code == status, response.text
    token = session_of(response)
    client.cookies.clear()
    return Person(client, response.json()["account"]["username"], token, response.json()["csrf"])
