"""The board server: an aiohttp app in the bot's own process (docs/web.md).

Off unless WEB_PORT is set. It serves the page and its assets, signs members in (bot.web.
signin), keeps open boards live (bot.web.hub, bot.web.socket) and takes their actions through
the game service (bot.web.actions), so a tap and a slash command are one unit of work and
the channel sees the same posts. Health and Prometheus text for operators at /healthz and
/metrics. Nothing here logs a token or a coin.
"""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import urlsplit

import discord
from aiohttp import web

import i18n
from bot.chat.announce import Announcer
from bot.game.service import GameService
from bot.language import Languages
from bot.settings import Settings
from bot.store import GameRow, GameStatus
from bot.web.access import Access
from bot.web.actions import Actions
from bot.web.assets import Assets, Blob
from bot.web.hub import Hub
from bot.web.limits import Buckets
from bot.web.metrics import Metrics
from bot.web.oauth import OAuth
from bot.web.signin import SignIn, error
from bot.web.socket import Sockets
from bot.web.tokens import BadToken, Signer

log = logging.getLogger(__name__)

PAGE_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data: blob: https://cdn.discordapp.com; "
            "connect-src 'self' ws: wss: https://discord.com; font-src 'self'; "
            "base-uri 'none'; form-action 'self'; frame-ancestors 'self' https://discord.com "
            "https://*.discord.com https://*.discordsays.com")
STORY_HOURS = 24.0


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def serve(request: web.Request, blob: Blob, *, immutable: bool = False) -> web.Response:
    """`blob`, gzipped where the client takes it, 304 when its ETag matches."""
    headers = {"ETag": blob.etag, "Cache-Control": "public, max-age=31536000, immutable"
               if immutable else "no-cache", "Vary": "Accept-Encoding"}
    if request.headers.get("If-None-Match") == blob.etag:
        return web.Response(status=304, headers=headers)
    body = blob.body
    if blob.gzipped is not None and "gzip" in request.headers.get("Accept-Encoding", ""):
        body, headers["Content-Encoding"] = blob.gzipped, "gzip"
    return web.Response(body=body, content_type=blob.content_type, headers=headers)


class WebServer:
    """The board server of one bot process."""

    def __init__(self, settings: Settings, client: discord.Client, service: GameService,
                 announcer: Announcer, languages: Languages) -> None:
        secret = settings.discord_client_secret
        assert settings.web_port is not None and settings.web_public_url and secret
        self.settings = settings
        self.client = client
        self.service = service
        self.public_url = settings.web_public_url
        self.metrics = Metrics()
        self.signer = Signer(secret.get_secret_value())
        client_id = client.application_id or 0
        self.oauth = OAuth(discord.http.Route.BASE, client_id, secret.get_secret_value())
        self.assets = Assets(announcer.stories)
        self.hub = Hub(service, languages, self.metrics)
        self.hub.story_url = self._story_links
        self.actions = Actions(service, announcer, self.metrics, self.hub.names)
        self.signin = SignIn(self.signer, self.oauth, self.public_url,
                             settings.web_session_hours, self.metrics,
                             Buckets(rate=2.0, burst=60),  # Discord's proxy: many members, one address
                             secure=self.public_url.startswith("https://"))
        origins = {origin_of(self.public_url), f"https://{client_id}.discordsays.com"}
        self.sockets = Sockets(self.signer, Access(client), self.hub, self.actions, languages,
                               service.store, self.metrics, origins,
                               Buckets(rate=8, burst=24))
        self._runner: web.AppRunner | None = None
        self.port = 0  # the port listened on, once started

    def app(self) -> web.Application:
        app = web.Application(client_max_size=16 * 1024, middlewares=[self._headers])
        app.add_routes([
            web.get("/", self.page), web.get("/c/{channel}", self.page),
            web.get("/static/{name}", self.static), web.get("/api/config", self.config),
            web.get("/api/board/{key}", self.board), web.get("/board/{file}", self.layer),
            web.get("/sprites/{file}", self.sprite), web.get("/api/i18n/{lang}", self.words),
            web.get("/story/{game}/{file}", self.story), web.get("/healthz", self.health),
            web.get("/metrics", self.metrics_text), web.get("/ws", self.sockets.handle),
            *self.signin.routes(),
        ])
        return app

    @web.middleware
    async def _headers(self, request: web.Request, handler: Any) -> web.StreamResponse:
        try:
            resp: web.StreamResponse = await handler(request)
        except web.HTTPNotFound:
            resp = error(404, "not_found", "Nothing here.")
        except web.HTTPMethodNotAllowed:
            resp = error(405, "bad_method", "Not with that method.")
        except web.HTTPRequestEntityTooLarge:
            resp = error(413, "too_large", "That request is too large.")
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        return resp

    async def start(self) -> None:
        self.service.hooks.change_listeners.append(self.hub.changed)
        self.hub.start()
        self._runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=5.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.web_host, self.settings.web_port)
        await site.start()
        server = site._server  # the bound socket: WEB_PORT=0 takes any free port
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else int(self.settings.web_port or 0)
        log.info("board server listening on %s:%s (public address %s)",
                 self.settings.web_host, self.port, self.public_url)

    async def stop(self) -> None:
        if self.hub.changed in self.service.hooks.change_listeners:
            self.service.hooks.change_listeners.remove(self.hub.changed)
        await self.actions.drain()
        await self.sockets.close_all()
        await self.hub.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.oauth.close()

    # -- pages and assets ----------------------------------------------------------------

    async def page(self, request: web.Request) -> web.StreamResponse:
        """The page: /c/<channel> in a browser, / inside Discord (channel_id in the query)."""
        channel = request.match_info.get("channel") or request.query.get("channel_id", "")
        board = None
        if channel.isdigit() and len(channel) <= 20:
            game = await self.hub.game_of(int(channel))
            board = game.board if game is not None else None
        in_discord = "frame_id" in request.query
        blob = await self.assets.page_for(
            board, in_discord=in_discord,
            signed_in=not in_discord and "channel" in request.match_info
            and self.signin.from_request(request) is not None)
        if blob is None:
            return error(503, "no_page", "The board page was not built (npm run build in web/).")
        resp = serve(request, blob)
        resp.headers["Content-Security-Policy"] = PAGE_CSP
        return resp

    async def static(self, request: web.Request) -> web.StreamResponse:
        blob = self.assets.page_file(request.match_info["name"])
        if blob is None:
            raise web.HTTPNotFound()
        # a digest in the name (discord-<digest>.js) or the query (app.js?v=): never changes
        named = re.search(r"-[0-9a-f]{8,}\.", request.match_info["name"]) is not None
        return serve(request, blob, immutable=named or "v" in request.query)

    async def config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": str(self.client.application_id or ""),
                                  "activity": self.settings.discord_activity,
                                  "login": "/auth/login"})

    async def board(self, request: web.Request) -> web.StreamResponse:
        blob = await self.assets.board(request.match_info["key"])
        if blob is None:
            raise web.HTTPNotFound()
        return serve(request, blob)

    async def layer(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["file"]
        blob = await self.assets.layer(name[:-5]) if name.endswith(".webp") else None
        if blob is None:
            raise web.HTTPNotFound()
        return serve(request, blob, immutable="v" in request.query)

    async def sprite(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["file"]
        blob = await self.assets.piece(name[:-4]) if name.endswith(".png") else None
        if blob is None:
            raise web.HTTPNotFound()
        return serve(request, blob)

    async def words(self, request: web.Request) -> web.StreamResponse:
        blob = self.assets.words(request.match_info["lang"])
        if blob is None:
            raise web.HTTPNotFound()
        return serve(request, blob)

    def _story_links(self, game: GameRow) -> dict[str, str]:
        """A finished game's end card and replay, for the boards of its channel (the link
        carries a signed pass: the pictures of a game are for whoever got its board)."""
        ticket = self.signer.pass_for(game.id, hours=STORY_HOURS)
        return {what: f"/story/{game.id}/{what}.png?t={ticket}" for what in ("card", "replay")}

    async def story(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["file"]
        what = name[:-4] if name.endswith(".png") else ""
        game_id = request.match_info["game"]
        if what not in ("card", "replay") or not game_id.isdigit():
            raise web.HTTPNotFound()
        try:
            allowed = self.signer.read_pass(request.query.get("t"))
        except BadToken:
            return error(403, "not_allowed", "Open the game's board to see its story.")
        game = await self.service.store.get_game(int(game_id))
        if allowed != int(game_id) or game is None or game.status is not GameStatus.FINISHED:
            return error(403, "not_allowed", "Open the game's board to see its story.")
        lang = request.query.get("lang", "en")
        blob = await self.assets.story(game, what, lang if lang in i18n.LANGUAGES else "en")
        if blob is None:
            return error(503, "no_picture", "The picture could not be drawn; try again.")
        return serve(request, blob)

    # -- for operators ---------------------------------------------------------------------

    async def health(self, request: web.Request) -> web.Response:
        ready = self.client.is_ready() and not self.client.is_closed()
        return web.Response(text="ok\n" if ready else "starting\n", status=200 if ready else 503)

    async def metrics_text(self, request: web.Request) -> web.Response:
        return web.Response(text=self.metrics.text(), content_type="text/plain",
                            charset="utf-8")
