"""Accounts: usernames, passwords, passkeys and the limits on signing in.

An account is optional: playing without one is as it always was. A username follows the
nickname rules (:mod:`.nicknames`) and is unique as it reads (NFKC, case-folded: "Ana" and
"ana" are one name). A password is kept only as its Argon2id hash (``argon2-cffi``, the
parameters of RFC 9106's second recommendation); a passkey is a WebAuthn credential
(``webauthn``) made for this site only. Failed sign-ins count against the username and the
client's address alike, and an unknown username is answered as a wrong password is, after the
same work (a hash is verified either way).
"""

from __future__ import annotations

import json
import secrets
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any, Final

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError
from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from .config import DEFAULT_PASSWORD_COST, Clock, Limits, PasswordCost
from .errors import Refusal
from .nicknames import NicknameError, clean_nickname
from .storage.accounts import AccountStore

__all__ = [
    "BAD_CREDENTIALS",
    "FLOW_SECONDS",
    "MAX_PASSWORD_BYTES",
    "MIN_PASSWORD",
    "NewPasskey",
    "Passwords",
    "SignInLimits",
    "check_password",
    "clean_username",
    "hash_password",
    "new_user_handle",
    "passkey_registration",
    "passkey_request",
    "verify_new_passkey",
    "verify_passkey",
    "verify_password",
]

MIN_PASSWORD: Final = 8
"""The fewest characters of a password."""
MAX_PASSWORD_BYTES: Final = 1024
"""The most bytes of a password (UTF-8): hashing is work, and the work must be bounded."""
FLOW_SECONDS: Final = 300
"""A passkey ceremony must be answered within this."""

BAD_CREDENTIALS: Final = ("bad_credentials", "unknown username or wrong password", 401)
"""The one answer to a wrong password and to an unknown username."""

COMMON_PASSWORDS: Final = frozenset(
    {
        "password",
        "password1",
        "passw0rd",
        "12345678",
        "123456789",
        "1234567890",
        "87654321",
        "11111111",
        "00000000",
        "qwertyui",
        "qwertyuiop",
        "abcdefgh",
        "abcd1234",
        "iloveyou",
        "sunshine",
        "football",
        "baseball",
        "princess",
        "whatever",
        "trustno1",
        "letmein1",
        "welcome1",
        "escoba15",
        "escobaescoba",
        "scopascopa",
        "contraseña",
        "passwort",
        "motdepasse",
        "senha123",
    }
)
"""Passwords guessed first; refused as weak."""

RESERVED: Final = frozenset({"deleted player", "admin", "escoba"})
"""Folded names no account may take."""


def clean_username(text: str) -> tuple[str, str]:
    """The username as shown and its folded form (what must be unique).

    >>> clean_username("  Ana  María ")
    ('Ana María', 'ana maría')
    """
    try:
        name = clean_nickname(text)
    except NicknameError:
        raise Refusal("bad_username", "a username must hold a visible character") from None
    if any(char in name for char in "/\\?#%"):
        raise Refusal("bad_username", "a username cannot hold / \\ ? # or %")
    key = unicodedata.normalize("NFKC", name).casefold()
    if key in RESERVED:
        raise Refusal("username_taken", f"the username {name!r} is taken", 409)
    return name, key


def check_password(password: str, username: str) -> None:
    """Refuse a password that is too long to hash or too easy to guess."""
    if len(password.encode()) > MAX_PASSWORD_BYTES:
        raise Refusal(
            "password_too_long", f"a password may be at most {MAX_PASSWORD_BYTES} bytes long"
        )
    if len(password) < MIN_PASSWORD:
        raise Refusal("weak_password", f"a password needs at least {MIN_PASSWORD} characters")
    folded = password.casefold()
    if folded == username.casefold() or folded in COMMON_PASSWORDS or len(set(password)) < 3:
        raise Refusal("weak_password", "that password is too easy to guess: choose another")


class Passwords:
    """Hashing and checking passwords with Argon2id at a cost (see ``PasswordCost``), at most
    ``at_once`` at a time: guesses from many addresses queue for the hashing instead of
    taking every core and ``memory_kib`` each."""

    def __init__(self, cost: PasswordCost = DEFAULT_PASSWORD_COST, *, at_once: int = 2) -> None:
        self._slots = threading.BoundedSemaphore(at_once)
        self._hasher = PasswordHasher(
            time_cost=cost.time_cost,
            memory_cost=cost.memory_kib,
            parallelism=cost.parallelism,
            type=Type.ID,
        )
        self._decoy: str | None = None

    def hash(self, password: str) -> str:
        """The password's Argon2id hash (salted; the only form ever stored)."""
        with self._slots:
            return self._hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one hashed in ``stored``; with no hash (an unknown
        name, or an account of passkeys only) a decoy is verified, for the same work and
        answer."""
        if len(password.encode()) > MAX_PASSWORD_BYTES:
            return False
        if self._decoy is None:
            self._decoy = self.hash(secrets.token_urlsafe(16))
        try:
            with self._slots:
                matches = self._hasher.verify(
                    stored if stored is not None else self._decoy, password
                )
        except (VerificationError, InvalidHashError):
            return False
        return matches and stored is not None


@cache
def _default() -> Passwords:
    return Passwords()


def hash_password(password: str) -> str:
    """The password's Argon2id hash at the default cost."""
    return _default().hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """:meth:`Passwords.verify` at the default cost."""
    return _default().verify(stored, password)


class SignInLimits:
    """Failed sign-ins counted per folded username and per address, in the database (every
    process of a site sees the same counts)."""

    def __init__(self, store: AccountStore, limits: Limits, clock: Clock) -> None:
        self.store = store
        self.limits = limits
        self.clock = clock

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock.wall(), UTC)

    def _keys(self, key: str, address: str) -> list[str]:
        return [f"name:{key}"[:128], f"address:{address}"[:128]]

    def check(self, key: str, address: str) -> None:
        """Refuse (429 ``too_many_attempts``) a sign-in past either limit."""
        window = timedelta(seconds=self.limits.sign_in_window)
        name, place = self._keys(key, address)
        counts = self.store.failures([name, place], self._now() - window)
        if (
            counts[name] >= self.limits.sign_ins_per_name
            or counts[place] >= self.limits.sign_ins_per_address
        ):
            minutes = max(1, round(self.limits.sign_in_window / 60))
            raise Refusal(
                "too_many_attempts",
                f"too many failed sign-ins: try again in up to {minutes} minutes",
                429,
            )

    def failed(self, key: str, address: str) -> None:
        moment = self._now()
        window = timedelta(seconds=self.limits.sign_in_window)
        self.store.failed(self._keys(key, address), moment, moment - window)

    def succeeded(self, key: str) -> None:
        self.store.forget_failures(f"name:{key}"[:128])


# -- passkeys (WebAuthn)


def _json(options: Any) -> dict[str, Any]:
    parsed: dict[str, Any] = json.loads(options_to_json(options))
    return parsed


def new_user_handle() -> str:
    """A new account's WebAuthn user handle (random: it tells nothing of the account)."""
    return bytes_to_base64url(secrets.token_bytes(32))


def passkey_registration(
    site: str, username: str, user_handle: str, existing: Sequence[str]
) -> tuple[dict[str, Any], str]:
    """The options a browser makes a passkey from (a discoverable one, so that signing in
    needs no name), and their challenge (base64url) to check the answer against."""
    options = generate_registration_options(
        rp_id=site,
        rp_name="escoba",
        user_name=username,
        user_id=base64url_to_bytes(user_handle),
        user_display_name=username,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(credential))
            for credential in existing
        ],
        timeout=FLOW_SECONDS * 1000,
    )
    return _json(options), bytes_to_base64url(options.challenge)


def passkey_request(site: str) -> tuple[dict[str, Any], str]:
    """The options a browser signs in with a passkey of this site from, and their challenge."""
    options = generate_authentication_options(
        rp_id=site,
        user_verification=UserVerificationRequirement.PREFERRED,
        timeout=FLOW_SECONDS * 1000,
    )
    return _json(options), bytes_to_base64url(options.challenge)


@dataclass(frozen=True, slots=True)
class NewPasskey:
    id: str
    """base64url"""
    public_key: bytes
    sign_count: int


def _refused(error: Exception) -> Refusal:
    said = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return Refusal("bad_passkey", f"the passkey was refused: {said[:200]}")


def verify_new_passkey(
    credential: dict[str, Any], challenge: str, site: str, origins: Sequence[str]
) -> NewPasskey:
    """The passkey a browser made from :func:`passkey_registration`'s options, checked
    (challenge, site, origin, signature); ``bad_passkey`` if anything is wrong."""
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=site,
            expected_origin=list(origins),
        )
    except Exception as error:  # the library raises many kinds for a bad answer
        raise _refused(error) from None
    return NewPasskey(
        bytes_to_base64url(verified.credential_id),
        verified.credential_public_key,
        verified.sign_count,
    )


def verify_passkey(
    credential: dict[str, Any],
    challenge: str,
    site: str,
    origins: Sequence[str],
    public_key: bytes,
    sign_count: int,
) -> int:
    """Check a sign-in with a stored passkey: its new signature count, or ``bad_passkey``."""
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=site,
            expected_origin=list(origins),
            credential_public_key=public_key,
            credential_current_sign_count=sign_count,
        )
    except Exception as error:
        raise _refused(error) from None
    return int(verified.new_sign_count)
