"""The fake's OAuth2 and Activities: what the board page's sign-in and launch need.

- The authorize page (`GET /oauth2/authorize`, outside the API): sends the browser back to
  the redirect URI with a code for the member signed in to the fake in that browser
  (`GET /fake/login?user=ID` sets that cookie, as being signed in to discord.com does),
  `state` untouched. No member signed in: 401.
- The token endpoint (`POST /api/v10/oauth2/token`, a form): checks the client id and
  secret, the grant type, that the code is known, unused and (for a browser code) that the
  redirect URI is the one it was issued for; answers an access token.
- `GET /api/v10/users/@me` with `Authorization: Bearer <access token>`: that member (with
  her client locale); with the bot's token, the bot as before.
- Activities (`activities = True`): the application has the Entry Point command Discord
  creates (type 4, "launch"), a bulk overwrite that leaves it out is refused as Discord
  refuses it, and an interaction may be answered with LAUNCH_ACTIVITY (callback type 12).
- `grant_code(user)`: a code for an Activity's `authorize` (the fake parent page asks it).
"""

from __future__ import annotations

import secrets
import urllib.parse
from typing import Any

from aiohttp import web

from .common import DiscordAPIError, json_reply
from .models import object_id

LAUNCH_ACTIVITY = 12
ENTRY_POINT = 4
LOGIN_COOKIE = "fake_discord_user"
ENTRY_POINT_REFUSAL = "You cannot remove this app's Entry Point command in a bulk update operation"


class OAuthMixin:
    """OAuth2 and Activities for FakeDiscord (state set up in `_init_oauth`)."""

    def _init_oauth(self) -> None:
        self.client_secret = "fake-client-secret"
        #: code -> (user id, redirect URI or None)
        self.oauth_codes: dict[str, tuple[str, str | None]] = {}
        self.access_tokens: dict[str, str] = {}  # access token -> user id
        self.token_exchanges: list[dict[str, str]] = []  # forms received (secret masked)
        self.activity_launches: list[Any] = []  # interactions answered with LAUNCH_ACTIVITY
        self._activities = False

    @property
    def activities(self) -> bool:
        return self._activities

    @activities.setter
    def activities(self, on: bool) -> None:
        """Turn Activities on for the application: Discord then makes its "launch" Entry
        Point command."""
        self._activities = on
        scope = self.commands.setdefault(None, {})
        if on and not any(c.get("type") == ENTRY_POINT for c in scope.values()):
            scope["launch"] = {"id": self.snowflake(), "application_id": self.application_id,
                               "name": "launch", "description": "", "type": ENTRY_POINT,
                               "handler": 2, "version": self.snowflake()}

    def grant_code(self, user: Any, redirect_uri: str | None = None) -> str:
        code = secrets.token_urlsafe(12)
        self.oauth_codes[code] = (object_id(user), redirect_uri)
        return code

    def check_bulk_keeps_entry_point(self, scope: str | None, body: list[dict[str, Any]]
                                     ) -> None:
        had = any(c.get("type") == ENTRY_POINT for c in self.commands.get(scope, {}).values())
        if scope is None and had and not any(c.get("type") == ENTRY_POINT for c in body):
            raise DiscordAPIError(400, 50240, ENTRY_POINT_REFUSAL)

    # -- routes ---------------------------------------------------------------------------

    async def _fake_login(self, request: web.Request) -> web.Response:
        uid = request.query.get("user", "")
        if uid not in self.users:
            return web.Response(status=404, text="no such user")
        resp = web.Response(text=f"signed in to the fake Discord as {uid}")
        resp.set_cookie(LOGIN_COOKIE, uid, httponly=True, samesite="Lax")
        return resp

    async def _authorize(self, request: web.Request) -> web.StreamResponse:
        q = request.query
        if q.get("client_id") != self.application_id or q.get("response_type") != "code":
            return web.Response(status=400, text="invalid client_id or response_type")
        redirect = q.get("redirect_uri", "")
        if not redirect.startswith(("http://", "https://")):
            return web.Response(status=400, text="invalid redirect_uri")
        uid = request.cookies.get(LOGIN_COOKIE)
        if uid not in self.users:
            return web.Response(status=401, text="sign in to Discord first")
        code = self.grant_code(uid, redirect)
        query = urllib.parse.urlencode({"code": code, "state": q.get("state", "")})
        raise web.HTTPFound(f"{redirect}?{query}")

    async def _r_oauth_token(self, request: web.Request) -> web.Response:
        form = dict(await request.post())
        self.token_exchanges.append({k: ("***" if k == "client_secret" else str(v))
                                     for k, v in form.items()})
        if form.get("client_id") != self.application_id or \
                form.get("client_secret") != self.client_secret:
            raise DiscordAPIError(401, 0, "invalid_client")
        if form.get("grant_type") != "authorization_code":
            raise DiscordAPIError(400, 0, "unsupported_grant_type")
        found = self.oauth_codes.pop(str(form.get("code", "")), None)
        if found is None:
            raise DiscordAPIError(400, 0, "invalid_grant (unknown or used code)")
        uid, redirect = found
        if redirect is not None and form.get("redirect_uri") != redirect:
            raise DiscordAPIError(400, 0, "invalid_grant (redirect_uri mismatch)")
        token = secrets.token_urlsafe(18)
        self.access_tokens[token] = uid
        return json_reply({"access_token": token, "token_type": "Bearer",
                           "expires_in": 604800, "refresh_token": secrets.token_urlsafe(18),
                           "scope": "identify"})

    async def _r_me(self, request: web.Request) -> web.Response:
        auth = request.headers.get("Authorization", "")
        if auth == f"Bot {self.token}":
            return json_reply(self.bot_user)
        uid = self.access_tokens.get(auth[7:]) if auth.startswith("Bearer ") else None
        if uid is None:
            raise DiscordAPIError(401, 0, "401: Unauthorized")
        return json_reply({**self.users[uid], "locale": self.user_locales.get(uid, "en-US")})
