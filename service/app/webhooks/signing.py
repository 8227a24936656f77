"""Signing a delivery as Standard Webhooks say
(https://www.standardwebhooks.com/): a ``whsec_`` secret per webhook, and
``webhook-signature`` over ``<id>.<timestamp>.<body>``."""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

SECRET_BYTES = 32  # Standard Webhooks: 24 to 64
SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    """A signing secret in the Standard Webhooks form: ``whsec_`` and the
    base64 of random bytes (the HMAC key is those bytes)."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def sign(secret: str, event_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` header: ``v1,`` and the base64 of
    HMAC-SHA256 over ``<id>.<timestamp>.<body>``, keyed with the secret's
    bytes (the base64 after ``whsec_``)."""
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    message = f"{event_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, message, hashlib.sha256).digest()).decode()
