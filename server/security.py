"""API token generation and hashing, and Fernet encryption of secrets at rest."""

from __future__ import annotations

import hashlib
import secrets

from cryptography.fernet import Fernet

TOKEN_PREFIX = "sw_"


def generate_token() -> str:
    """A new API token: `sw_` + 43 url-safe characters (256 bits)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """SHA-256 hex of the token; tokens are random, so an unsalted fast hash is enough."""
    return hashlib.sha256(token.encode()).hexdigest()


def display_prefix(token: str) -> str:
    """The first characters of a token, safe to show so its owner can recognise it."""
    return token[:10]


class SecretBox:
    """Encrypts secrets (provider keys, webhook secrets) with the service's Fernet key."""

    def __init__(self, key: str) -> None:
        self._fernet = Fernet(key.encode())

    def encrypt(self, plaintext: str) -> str:
        return self._fernet.encrypt(plaintext.encode()).decode()

    def decrypt(self, ciphertext: str) -> str:
        return self._fernet.decrypt(ciphertext.encode()).decode()
