"""Accounts over HTTP: register, sign in and out, passkeys, the password, and what an
account does with its data (attach a browser's matches, export, delete).

The session is a cookie (``HttpOnly``, ``SameSite=Lax``, ``Secure`` behind HTTPS) whose token
is stored only as its hash; every sign-in makes a new one and ends the one the browser
presented. Every state-changing request of a session carries its CSRF token (``deps``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from ...accounts import (
    BAD_CREDENTIALS,
    FLOW_SECONDS,
    SignInLimits,
    check_password,
    clean_username,
    new_user_handle,
    passkey_registration,
    passkey_request,
    verify_new_passkey,
    verify_passkey,
)
from ...errors import Refusal
from ...history import SeatTokens, token_hashes
from ...protocol.accounts import (
    AccountAnswer,
    AccountView,
    Credentials,
    DeleteAccount,
    NewPassword,
    PasskeyAnswer,
    PasskeyOptions,
    PasskeyStart,
    PasskeyView,
)
from ...rooms.registry import Registry
from ...storage.accounts import SESSION_DAYS, AccountStore, NameTaken, SignedIn
from ...storage.repository import hash_token
from ..deps import (
    SESSION_COOKIE,
    Account,
    Accounts,
    Address,
    Rooms,
    account_of,
    address_of,
    passwords_of,
    settings_of,
    sign_in_limits_of,
)

__all__ = ["router"]

router = APIRouter()

SIGN_IN_NEEDED = ("sign_in_needed", "sign in first", 401)
CREDENTIAL_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,1024}")
"""A passkey's id as the browser sends it (base64url); anything else names no passkey."""


def _iso(moment: datetime) -> str:
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


async def _view(rooms: Registry, store: AccountStore, account_id: int) -> AccountView:
    account = await rooms.stored(store.by_id, account_id)
    assert account is not None and account.username is not None
    passkeys = await rooms.stored(store.passkeys, account_id)
    return AccountView(
        username=account.username,
        created_at=_iso(account.created_at),
        has_password=account.password_hash is not None,
        passkeys=[PasskeyView(id=key.id, created_at=_iso(key.created_at)) for key in passkeys],
    )


def _secure(request: Request) -> bool:
    return request.url.scheme == "https"


async def _sign_in(
    request: Request,
    response: Response,
    rooms: Registry,
    store: AccountStore,
    account_id: int,
) -> AccountAnswer:
    """A new session for the account; the one the browser presented, if any, ends (a session
    is never reused, whoever chose its value)."""
    cookie = request.cookies.get(SESSION_COOKIE)
    presented = hash_token(cookie) if cookie else None
    token, csrf = await rooms.stored(store.new_session, account_id, presented)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_DAYS * 24 * 3600,
        path="/",
        httponly=True,
        samesite="lax",
        secure=_secure(request),
    )
    return AccountAnswer(account=await _view(rooms, store, account_id), csrf=csrf)


def _signed_out(response: Response, request: Request) -> None:
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=_secure(request)
    )


def _needs(account: SignedIn | None) -> SignedIn:
    if account is None:
        raise Refusal(*SIGN_IN_NEEDED)
    return account


def _site(request: Request) -> tuple[str, list[str]]:
    """The passkeys' site (relying party id) and the origins a ceremony may come from."""
    settings = settings_of(request)
    host = request.headers.get("host", "")
    own = f"{request.url.scheme}://{host}"
    site = settings.passkey_site or (request.url.hostname or "")
    return site, [own, *(origin.rstrip("/") for origin in settings.origins)]


def _expires(request: Request) -> datetime:
    return datetime.fromtimestamp(settings_of(request).clock.wall(), UTC) + timedelta(
        seconds=FLOW_SECONDS
    )


async def _begin(
    request: Request,
    rooms: Registry,
    store: AccountStore,
    purpose: str,
    challenge: str,
    **about: Any,
) -> str:
    """A passkey ceremony begun: its id; too many under way from the address are refused."""
    limits = settings_of(request).limits
    flow: str | None = await rooms.stored(
        store.new_flow,
        purpose,
        challenge,
        _expires(request),
        address=address_of(request),
        most=limits.passkey_flows_per_address,
        **about,
    )
    if flow is None:
        raise Refusal(
            "too_many_attempts",
            "too many passkey requests from here are under way: finish one, or wait 5 minutes",
            429,
        )
    return flow


@router.get("/api/account")
async def who(account: Account, rooms: Rooms, store: Accounts) -> AccountAnswer:
    """The signed-in account and its CSRF token, or nothing."""
    if account is None:
        return AccountAnswer(account=None, csrf=None)
    return AccountAnswer(account=await _view(rooms, store, account.account_id), csrf=account.csrf)


@router.post("/api/account/register", status_code=201)
async def register(
    given: Credentials,
    request: Request,
    response: Response,
    rooms: Rooms,
    store: Accounts,
) -> AccountAnswer:
    """A new account with a password, signed in."""
    username, key = clean_username(given.username)
    check_password(given.password, username)
    hashed = await asyncio.to_thread(passwords_of(request).hash, given.password)
    try:
        made = await rooms.stored(store.create, username, key, hashed)
    except NameTaken:
        raise Refusal("username_taken", f"the username {username!r} is taken", 409) from None
    return await _sign_in(request, response, rooms, store, made.id)


@router.post("/api/account/sign-in")
async def sign_in(
    given: Credentials,
    request: Request,
    response: Response,
    address: Address,
    rooms: Rooms,
    store: Accounts,
) -> AccountAnswer:
    """Sign in with a password. An unknown name and a wrong password get one answer, after
    the same work; failures are limited per name and per address."""
    limits: SignInLimits = sign_in_limits_of(request)
    # A name no account can have is counted and answered as an unknown one, under a key
    # made of it that any database holds (no NUL, no lone surrogate).
    raw = given.username.encode("utf-8", "surrogatepass")
    key = "invalid:" + hashlib.sha256(raw).hexdigest()[:40]
    with contextlib.suppress(Refusal):
        key = clean_username(given.username)[1]
    await rooms.stored(limits.check, key, address)
    found = await rooms.stored(store.by_key, key)
    stored = found.password_hash if found is not None else None
    if (
        not await asyncio.to_thread(passwords_of(request).verify, stored, given.password)
        or found is None
    ):
        await rooms.stored(limits.failed, key, address)
        raise Refusal(*BAD_CREDENTIALS)
    if found.disabled:
        raise Refusal("account_disabled", "this account is disabled", 403)
    await rooms.stored(limits.succeeded, key)
    return await _sign_in(request, response, rooms, store, found.id)


@router.post("/api/account/passkeys/options")
async def passkey_options(
    given: PasskeyStart, request: Request, rooms: Rooms, store: Accounts
) -> PasskeyOptions:
    """Begin making a passkey: for a new account named ``username``, or another one for the
    signed-in account."""
    site, _ = _site(request)
    if given.username is None:
        signed = _needs(await account_of(request))
        found = await rooms.stored(store.by_id, signed.account_id)
        assert found is not None
        existing = [key.id for key in await rooms.stored(store.passkeys, signed.account_id)]
        options, challenge = passkey_registration(
            site, signed.username, found.user_handle, existing
        )
        flow = await _begin(request, rooms, store, "register", challenge, account_id=found.id)
        return PasskeyOptions(flow=flow, options=options)
    username, key = clean_username(given.username)
    if await rooms.stored(store.by_key, key) is not None:
        raise Refusal("username_taken", f"the username {username!r} is taken", 409)
    handle = new_user_handle()
    options, challenge = passkey_registration(site, username, handle, [])
    flow = await _begin(
        request, rooms, store, "register", challenge, username=username, user_handle=handle
    )
    return PasskeyOptions(flow=flow, options=options)


@router.post("/api/account/passkeys", status_code=201)
async def add_passkey(
    given: PasskeyAnswer,
    request: Request,
    response: Response,
    rooms: Rooms,
    store: Accounts,
) -> AccountAnswer:
    """The passkey the browser made: a new account signed in, or one more for this one."""
    flow = await rooms.stored(store.take_flow, given.flow, "register")
    if flow is None:
        raise Refusal("flow_expired", "this passkey request expired or was used: start again")
    site, origins = _site(request)
    made = verify_new_passkey(given.credential, flow.challenge, site, origins)
    if await rooms.stored(store.passkey, made.id) is not None:
        raise Refusal("bad_passkey", "this passkey is registered already", 409)
    if flow.account_id is not None:
        signed = _needs(await account_of(request))
        if signed.account_id != flow.account_id:
            raise Refusal("bad_passkey", "this passkey request was another account's")
        await rooms.stored(
            store.add_passkey, signed.account_id, made.id, made.public_key, made.sign_count
        )
        return AccountAnswer(account=await _view(rooms, store, signed.account_id), csrf=signed.csrf)
    assert flow.username is not None and flow.user_handle is not None
    username, key = clean_username(flow.username)
    try:
        new = await rooms.stored(store.create, username, key, None, flow.user_handle)
    except NameTaken:
        raise Refusal("username_taken", f"the username {username!r} is taken", 409) from None
    await rooms.stored(store.add_passkey, new.id, made.id, made.public_key, made.sign_count)
    return await _sign_in(request, response, rooms, store, new.id)


@router.post("/api/account/sign-in/options")
async def sign_in_options(request: Request, rooms: Rooms, store: Accounts) -> PasskeyOptions:
    """Begin signing in with a passkey of this site (the browser offers the ones it has)."""
    site, _ = _site(request)
    options, challenge = passkey_request(site)
    flow = await _begin(request, rooms, store, "sign_in", challenge)
    return PasskeyOptions(flow=flow, options=options)


@router.post("/api/account/sign-in/passkey")
async def sign_in_passkey(
    given: PasskeyAnswer,
    request: Request,
    response: Response,
    rooms: Rooms,
    store: Accounts,
) -> AccountAnswer:
    flow = await rooms.stored(store.take_flow, given.flow, "sign_in")
    if flow is None:
        raise Refusal("flow_expired", "this sign-in expired or was used: start again")
    credential_id = given.credential.get("id")
    if not isinstance(credential_id, str) or not CREDENTIAL_ID.fullmatch(credential_id):
        raise Refusal("bad_passkey", "the passkey was refused: it names no credential")
    key = await rooms.stored(store.passkey, credential_id)
    if key is None:
        raise Refusal("bad_passkey", "this passkey is not one of this site's accounts")
    site, origins = _site(request)
    count = verify_passkey(
        given.credential, flow.challenge, site, origins, key.public_key, key.sign_count
    )
    found = await rooms.stored(store.by_id, key.account_id)
    assert found is not None
    handle = (given.credential.get("response") or {}).get("userHandle")
    if handle is not None and handle != found.user_handle:
        raise Refusal("bad_passkey", "the passkey was refused: its user is another account")
    if found.disabled or found.username is None:
        raise Refusal("account_disabled", "this account is disabled", 403)
    await rooms.stored(store.passkey_used, key.id, count)
    return await _sign_in(request, response, rooms, store, found.id)


@router.post("/api/account/sign-out")
async def sign_out(
    request: Request, response: Response, account: Account, rooms: Rooms, store: Accounts
) -> dict[str, bool]:
    """End this browser's session."""
    if account is not None:
        await rooms.stored(store.end_session, account.session)
    _signed_out(response, request)
    return {"signed_out": True}


@router.post("/api/account/sign-out-everywhere")
async def sign_out_everywhere(
    request: Request, response: Response, account: Account, rooms: Rooms, store: Accounts
) -> dict[str, bool]:
    """End every session of the account, on every device."""
    signed = _needs(account)
    await rooms.stored(store.end_sessions, signed.account_id)
    _signed_out(response, request)
    return {"signed_out": True}


@router.put("/api/account/password")
async def set_password(
    given: NewPassword,
    request: Request,
    response: Response,
    account: Account,
    rooms: Rooms,
    store: Accounts,
) -> AccountAnswer:
    """Set or change the password: every other session ends."""
    signed = _needs(account)
    found = await rooms.stored(store.by_id, signed.account_id)
    assert found is not None
    if found.password_hash is not None and not await asyncio.to_thread(
        passwords_of(request).verify, found.password_hash, given.current or ""
    ):
        raise Refusal("bad_credentials", "the current password is wrong", 401)
    check_password(given.password, signed.username)
    hashed = await asyncio.to_thread(passwords_of(request).hash, given.password)
    await rooms.stored(store.set_password, signed.account_id, hashed)
    await rooms.stored(store.end_sessions, signed.account_id)
    return await _sign_in(request, response, rooms, store, signed.account_id)


@router.post("/api/account/attach")
async def attach(
    held: SeatTokens, account: Account, rooms: Rooms, store: Accounts
) -> dict[str, int]:
    """Put the matches of the seat tokens this browser holds on the account."""
    signed = _needs(account)
    count = await rooms.stored(
        store.attach, signed.account_id, signed.username, token_hashes(held.tokens)
    )
    return {"attached": count}


@router.get("/api/account/export")
async def export(account: Account, rooms: Rooms, store: Accounts) -> Response:
    """Everything stored of the account, as a JSON download."""
    signed = _needs(account)
    data: dict[str, Any] = await rooms.stored(store.export, signed.account_id)
    return JSONResponse(
        json.loads(json.dumps(data)),
        headers={
            "Content-Disposition": 'attachment; filename="escoba-account.json"',
            "Cache-Control": "no-store",
        },
    )


@router.delete("/api/account")
async def delete_account(
    given: DeleteAccount,
    request: Request,
    response: Response,
    account: Account,
    rooms: Rooms,
    store: Accounts,
) -> dict[str, bool]:
    """Delete the account (its matches stay, played by a "deleted player")."""
    signed = _needs(account)
    if given.username.strip().casefold() != signed.username.casefold():
        raise Refusal("confirm_username", "type the account's username to delete it")
    await rooms.stored(store.delete, signed.account_id)
    _signed_out(response, request)
    return {"deleted": True}
