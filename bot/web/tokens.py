"""Signed tokens: the board's sessions and the browser sign-in's `state`.

A token is `<payload>.<signature>`: the payload is base64url JSON, the signature HMAC-SHA256
over it with a key derived from the application's client secret. Nothing is kept on the
server, so a session outlives a restart (open boards reconnect without signing in again)
and every bot process sharing the secret accepts it; each carries its expiry. A token is
never logged (`Session.__repr__` names the member only).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class BadToken(ValueError):
    """A token that is malformed, forged, of another kind, or expired."""


@dataclass(frozen=True, slots=True)
class Session:
    """Who a board's viewer is: her Discord id, name and client locale."""

    user_id: int
    name: str
    locale: str
    expires: float

    def __repr__(self) -> str:
        return f"Session(user {self.user_id})"


class Signer:
    """Makes and reads this bot's tokens (one key per purpose, from one secret)."""

    def __init__(self, secret: str, *, clock: Any = time.time) -> None:
        if not secret:
            raise ValueError("a signer needs the client secret")
        self._key = hashlib.sha256(b"smallworld-web\0" + secret.encode()).digest()
        self.now = clock

    def _sign(self, kind: str, payload: dict[str, Any]) -> str:
        body = _b64(json.dumps({"k": kind, **payload}, separators=(",", ":")).encode())
        mac = hmac.new(self._key, body.encode(), hashlib.sha256).digest()
        return f"{body}.{_b64(mac)}"

    def _read(self, kind: str, token: object) -> dict[str, Any]:
        if not isinstance(token, str) or len(token) > 2048 or token.count(".") != 1:
            raise BadToken("malformed")
        body, mac = token.split(".")
        want = hmac.new(self._key, body.encode(), hashlib.sha256).digest()
        try:
            given = _unb64(mac)
            payload = json.loads(_unb64(body))
        except (ValueError, UnicodeDecodeError):
            raise BadToken("malformed") from None
        if not hmac.compare_digest(want, given):
            raise BadToken("forged")
        if not isinstance(payload, dict) or payload.get("k") != kind:
            raise BadToken("another kind of token")
        if float(payload.get("e", 0)) < self.now():
            raise BadToken("expired")
        return payload

    def session(self, user_id: int, name: str, locale: str, *, hours: float) -> str:
        return self._sign("s", {"u": str(user_id), "n": name[:100], "l": locale[:16],
                                "e": round(self.now() + hours * 3600)})

    def read_session(self, token: object) -> Session:
        p = self._read("s", token)
        try:
            return Session(int(p["u"]), str(p["n"]), str(p["l"]), float(p["e"]))
        except (KeyError, ValueError, TypeError):
            raise BadToken("malformed") from None

    def pass_for(self, game_id: int, *, hours: float) -> str:
        """A pass to one game's pictures (handed to the boards of its channel)."""
        return self._sign("g", {"g": str(game_id), "e": round(self.now() + hours * 3600)})

    def read_pass(self, token: object) -> int:
        """The game a pass is for."""
        try:
            return int(self._read("g", token)["g"])
        except (KeyError, ValueError, TypeError):
            raise BadToken("malformed") from None

    def state(self, channel_id: int, *, minutes: float = 10) -> tuple[str, str]:
        """A browser sign-in's `state` and the nonce its cookie must carry back (so a state
        is good only in the browser that started the sign-in)."""
        nonce = secrets.token_urlsafe(16)
        return self._sign("o", {"c": str(channel_id), "x": nonce,
                                "e": round(self.now() + minutes * 60)}), nonce

    def read_state(self, token: object, nonce: object) -> int:
        """The channel a sign-in was started for (BadToken: not this browser's, or old)."""
        p = self._read("o", token)
        if not isinstance(nonce, str) or not hmac.compare_digest(str(p.get("x", "")), nonce):
            raise BadToken("not this browser's sign-in")
        return int(p["c"])
