"""Discord's OAuth2, from the bot's side: a code exchanged for an access token at the token
endpoint (with the client secret), then `GET /users/@me` with that token says who the member
is. Identity never comes from the page.

The addresses follow the bot's API base (DISCORD_API_BASE: the fake Discord in tests), and
the browser's authorize page sits beside it (`https://discord.com/oauth2/authorize`).
Discord's rate limits are honoured (a 429's `retry_after`, three tries); the code, the access
token and the refresh token are never logged.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import aiohttp

log = logging.getLogger(__name__)

TRIES = 3
TIMEOUT = aiohttp.ClientTimeout(total=10)
SCOPES = "identify"


class OAuthError(Exception):
    """Discord refused the code or could not be reached (`status`: its HTTP status, or 0)."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Member:
    """Who signed in, as Discord said."""

    id: int
    name: str
    locale: str


def authorize_base(api_base: str) -> str:
    """The authorize page beside an API base: `https://discord.com/api/v10` ->
    `https://discord.com/oauth2/authorize`."""
    root = re.sub(r"/api(/v\d+)?/?$", "", api_base.rstrip("/"))
    return f"{root}/oauth2/authorize"


class OAuth:
    """The token exchange and the member behind a token."""

    def __init__(self, api_base: str, client_id: int, secret: str) -> None:
        self.api_base = api_base.rstrip("/")
        self.client_id = client_id
        self._secret = secret
        self._http: aiohttp.ClientSession | None = None

    def __repr__(self) -> str:
        return f"OAuth(client {self.client_id})"

    def authorize_url(self, redirect_uri: str, state: str) -> str:
        query = urlencode({"client_id": str(self.client_id), "response_type": "code",
                           "redirect_uri": redirect_uri, "scope": SCOPES, "state": state,
                           "prompt": "none"})
        return f"{authorize_base(self.api_base)}?{query}"

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._http

    async def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        for attempt in range(1, TRIES + 1):
            try:
                async with self._session().request(method, self.api_base + path,
                                                   **kwargs) as resp:
                    if resp.status == 429 and attempt < TRIES:
                        body = await resp.json(content_type=None)
                        await asyncio.sleep(min(float(body.get("retry_after", 1)), 5.0))
                        continue
                    if resp.status >= 400:
                        raise OAuthError(f"Discord answered {resp.status} to {path}",
                                         resp.status)
                    return await resp.json(content_type=None)
            except (aiohttp.ClientError, TimeoutError) as exc:
                if attempt == TRIES:
                    raise OAuthError(f"Discord unreachable for {path}: {type(exc).__name__}"
                                     ) from None
                await asyncio.sleep(0.5 * attempt)
        raise OAuthError(f"Discord kept limiting {path}", 429)

    async def exchange(self, code: str, redirect_uri: str | None = None) -> str:
        """The access token for an authorization code (Activity codes come without a
        redirect URI; the browser's with the one they were issued for)."""
        form = {"client_id": str(self.client_id), "client_secret": self._secret,
                "grant_type": "authorization_code", "code": code}
        if redirect_uri:
            form["redirect_uri"] = redirect_uri
        body = await self._call("POST", "/oauth2/token", data=form)
        token = body.get("access_token") if isinstance(body, dict) else None
        if not isinstance(token, str) or not token:
            raise OAuthError("no access token in Discord's answer", 502)
        return token

    async def member(self, access_token: str) -> Member:
        body = await self._call("GET", "/users/@me",
                                headers={"Authorization": f"Bearer {access_token}"})
        try:
            name = body.get("global_name") or body["username"]
            return Member(int(body["id"]), str(name), str(body.get("locale") or ""))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise OAuthError("Discord's /users/@me answer had no user", 502) from None
