"""Signing in to the board: inside Discord (the Activity's code, POST /api/token) and in a
browser (Discord's authorization-code flow: /auth/login -> Discord -> /auth/callback).

Either way the bot exchanges the code at Discord's token endpoint with the client secret and
asks `/users/@me` who the member is; the page never says who it is. The member gets a signed
session (bot.web.tokens) that the page sends as the first message of its socket. A browser
sign-in's `state` is signed and bound to a cookie of the browser that started it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import pydantic
from aiohttp import web

from bot.web.limits import Buckets
from bot.web.messages import TokenRequest
from bot.web.metrics import Metrics
from bot.web.oauth import OAuth, OAuthError
from bot.web.tokens import BadToken, Session, Signer

log = logging.getLogger(__name__)

SESSION_COOKIE = "sw_session"
STATE_COOKIE = "sw_state"


def error(status: int, code: str, text: str) -> web.Response:
    return web.json_response({"error": {"code": code, "text": text}}, status=status)


def client_address(request: web.Request) -> str:
    return request.remote or "?"


@dataclass
class SignIn:
    """The sign-in routes and who a request's session names."""

    signer: Signer
    oauth: OAuth
    public_url: str
    hours: float
    metrics: Metrics
    per_address: Buckets
    secure: bool = True

    def routes(self) -> list[web.RouteDef]:
        return [web.post("/api/token", self.token), web.get("/auth/login", self.login),
                web.get("/auth/callback", self.callback), web.get("/api/session", self.session)]

    def _limited(self, request: web.Request) -> web.Response | None:
        if self.per_address.take(client_address(request)):
            return None
        self.metrics.limited += 1
        return error(429, "rate_limited", "Too many sign-ins from here; wait a minute.")

    def _session_for(self, member: Any) -> str:
        return self.signer.session(member.id, member.name, member.locale, hours=self.hours)

    @staticmethod
    def _user(member: Any) -> dict[str, str]:
        return {"id": str(member.id), "name": member.name}

    async def token(self, request: web.Request) -> web.Response:
        """The Activity's code -> the access token its SDK needs, and our session."""
        if (limited := self._limited(request)) is not None:
            return limited
        try:
            body = TokenRequest.model_validate_json(await request.read())
        except pydantic.ValidationError:
            return error(400, "bad_request", 'Send {"code": "..."} from the SDK\'s authorize.')
        try:
            access = await self.oauth.exchange(body.code)
            member = await self.oauth.member(access)
        except OAuthError as exc:
            self.metrics.sign_ins["failed"] += 1
            log.info("activity sign-in refused: %s", exc)
            return error(401 if 400 <= exc.status < 500 else 502, "sign_in_failed",
                         "Discord did not accept the sign-in; open the board again.")
        self.metrics.sign_ins["activity"] += 1
        return web.json_response({"access_token": access, "session": self._session_for(member),
                                  "user": self._user(member)})

    def _cookie_args(self, max_age: int, path: str = "/") -> dict[str, Any]:
        return {"max_age": max_age, "path": path, "httponly": True, "secure": self.secure,
                "samesite": "Lax"}

    async def login(self, request: web.Request) -> web.StreamResponse:
        """Start the browser's sign-in for a channel's board."""
        if (limited := self._limited(request)) is not None:
            return limited
        channel = request.query.get("channel", "")
        if not channel.isdigit() or len(channel) > 20:
            return error(400, "bad_request", "Open the board from its channel: /c/<channel id>.")
        state, nonce = self.signer.state(int(channel))
        resp = web.HTTPFound(self.oauth.authorize_url(self.redirect_uri, state))
        resp.set_cookie(STATE_COOKIE, nonce, **self._cookie_args(600, "/auth"))
        raise resp

    @property
    def redirect_uri(self) -> str:
        return f"{self.public_url}/auth/callback"

    async def callback(self, request: web.Request) -> web.StreamResponse:
        """Discord sends the browser back here with a code (or an error)."""
        if (limited := self._limited(request)) is not None:
            return limited
        try:
            channel = self.signer.read_state(request.query.get("state"),
                                             request.cookies.get(STATE_COOKIE))
        except (BadToken, ValueError):
            self.metrics.sign_ins["failed"] += 1
            return error(400, "bad_state", "This sign-in is old or was started elsewhere; "
                                           "open the board's link again.")
        code = request.query.get("code", "")
        if not code or len(code) > 512:
            self.metrics.sign_ins["failed"] += 1
            raise web.HTTPFound(f"/c/{channel}?signin=denied")
        try:
            access = await self.oauth.exchange(code, self.redirect_uri)
            member = await self.oauth.member(access)
        except OAuthError as exc:
            self.metrics.sign_ins["failed"] += 1
            log.info("browser sign-in refused: %s", exc)
            raise web.HTTPFound(f"/c/{channel}?signin=failed") from None
        self.metrics.sign_ins["browser"] += 1
        resp = web.HTTPFound(f"/c/{channel}")
        resp.set_cookie(SESSION_COOKIE, self._session_for(member),
                        **self._cookie_args(int(self.hours * 3600)))
        resp.del_cookie(STATE_COOKIE, path="/auth")
        raise resp

    def from_request(self, request: web.Request) -> Session | None:
        """The session a request carries (a Bearer header, else the cookie), if valid."""
        header = request.headers.get("Authorization", "")
        token = header[7:] if header.startswith("Bearer ") else request.cookies.get(
            SESSION_COOKIE)
        try:
            return self.signer.read_session(token)
        except BadToken:
            return None

    async def session(self, request: web.Request) -> web.Response:
        """A signed-in browser's session, for its socket (the cookie is HttpOnly)."""
        found = self.from_request(request)
        token = request.cookies.get(SESSION_COOKIE)
        if found is None or token is None:
            return error(401, "signed_out", "Sign in with Discord to open the board.")
        return web.json_response({"session": token,
                                  "user": {"id": str(found.user_id), "name": found.name}})
