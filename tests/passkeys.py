"""A software passkey authenticator for the server tests: it answers WebAuthn's ceremonies as
a browser with a platform authenticator does (attestation ``none``, ES256 keys), so that the
server's passkey routes are tested without a browser. The browser tests use Chromium's own
virtual authenticator."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

__all__ = ["SoftAuthenticator", "b64url"]


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _bytes(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class _Credential:
    id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: str
    sign_count: int = 0


@dataclass
class SoftAuthenticator:
    """Makes and uses passkeys. ``origin`` is the page's origin the browser would report."""

    origin: str
    credentials: list[_Credential] = field(default_factory=list)

    def create(self, options: dict[str, Any], *, rp_id: str | None = None) -> dict[str, Any]:
        """Answer registration options (``rp_id``: pretend to be another site)."""
        site = rp_id or options["rp"]["id"]
        key = ec.generate_private_key(ec.SECP256R1())
        credential = _Credential(secrets.token_bytes(16), key, site, options["user"]["id"])
        numbers = key.public_key().public_numbers()
        cose = cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )
        attested = bytes(16) + struct.pack(">H", len(credential.id)) + credential.id + cose
        data = hashlib.sha256(site.encode()).digest() + bytes([0x45]) + struct.pack(">I", 0)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": data + attested})
        client_data = self._client_data("webauthn.create", options["challenge"])
        self.credentials.append(credential)
        return {
            "id": b64url(credential.id),
            "rawId": b64url(credential.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "attestationObject": b64url(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

    def get(self, options: dict[str, Any], *, which: int = -1) -> dict[str, Any]:
        """Answer sign-in options with the passkey ``which`` made for the options' site."""
        credential = [c for c in self.credentials if c.rp_id == options["rpId"]][which]
        credential.sign_count += 1
        data = (
            hashlib.sha256(credential.rp_id.encode()).digest()
            + bytes([0x05])
            + struct.pack(">I", credential.sign_count)
        )
        client_data = self._client_data("webauthn.get", options["challenge"])
        signature = credential.key.sign(
            data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return {
            "id": b64url(credential.id),
            "rawId": b64url(credential.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(data),
                "signature": b64url(signature),
                "userHandle": credential.user_handle,
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

    def _client_data(self, kind: str, challenge: str) -> bytes:
        # The challenge comes back exactly as the options gave it (base64url).
        _bytes(challenge)
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": self.origin, "crossOrigin": False}
        ).encode()
