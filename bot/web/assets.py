"""What the board page loads besides the game: its own built files, the board's drawing data,
layer and pieces, its words, and a finished game's end card and replay.

Boards and pieces are made once per process by a drawing worker (bot.pictures.page_asset)
and kept here as bytes (about 150 KB a board), each with an ETag; text is kept gzipped too.
The page's built files ship inside the package (bot/web/static, made by `npm run build` in
web/), so serving them needs no Node.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import mimetypes
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

import engine
import i18n
from bot import pictures
from bot.archive.stories import Stories
from bot.store import GameRow
from render.sprites import PIECES

STATIC = Path(__file__).resolve().parent / "static"
STORIES_KEPT = 16
TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html",
         ".json": "application/json", ".webp": "image/webp", ".png": "image/png",
         ".woff2": "font/woff2", ".svg": "image/svg+xml", ".ttf": "font/ttf",
         ".txt": "text/plain"}
# what goes out gzipped (text, and the TrueType font: a third of its size; WebP, PNG and WOFF2
# are compressed already)
COMPRESSIBLE = ("text/", "application/json", "image/svg", "font/ttf")


@dataclass(frozen=True, slots=True)
class Blob:
    """Bytes to serve, with their type, ETag and (for text) a gzipped copy."""

    body: bytes
    content_type: str
    etag: str
    gzipped: bytes | None = None

    @classmethod
    def of(cls, body: bytes, content_type: str) -> Blob:
        tag = '"' + hashlib.sha1(body).hexdigest()[:20] + '"'
        packed = content_type.startswith(COMPRESSIBLE)
        return cls(body, content_type, tag, gzip.compress(body, 9, mtime=0) if packed else None)


def _type(name: str) -> str:
    suffix = Path(name).suffix
    return TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"


class Assets:
    """Made once, then served from memory."""

    def __init__(self, stories: Stories, static: Path = STATIC) -> None:
        self.stories = stories
        self.static = static
        self._made: dict[tuple[str, str], Blob] = {}
        self._making: dict[tuple[str, str], asyncio.Future[Blob | None]] = {}
        self._stories: OrderedDict[tuple[int, str, str], Blob] = OrderedDict()

    def page_file(self, name: str) -> Blob | None:
        """A built file of the page (index.html, app.js, ...); None: no such file."""
        key = ("static", name)
        found = self._made.get(key)
        if found is None:
            path = (self.static / name).resolve()
            if self.static.resolve() not in path.parents or not path.is_file():
                return None
            found = self._made[key] = Blob.of(path.read_bytes(), _type(name))
        return found

    async def page_for(self, board: str | None, *, in_discord: bool = False,
                       signed_in: bool = False) -> Blob | None:
        """index.html, told what the page will ask for first: inside Discord the SDK's chunk
        and the app's config (the SDK needs its client id), in a browser the member's session
        (`signed_in`: she has the cookie), and when the channel's board is known its drawing
        data and map layer. Preloaded beside the script, they do not wait for it to run, nor
        for the first snapshot (round trips less on a first load)."""
        page = self.page_file("index.html")
        if page is None:
            return None
        drawing = await self.board(board) if board is not None else None
        key = ("page", f"{board if drawing is not None else ''}:{in_discord}:{signed_in}")
        found = self._made.get(key)
        if found is None:
            links = ""
            if in_discord:
                chunk = next(iter(sorted(self.static.glob("discord-*.js"))), None)
                if chunk is not None:
                    links += f'<link rel="modulepreload" href="/static/{chunk.name}">'
                links += '<link rel="preload" as="fetch" crossorigin="anonymous" ' \
                         'href="/api/config">'
            elif signed_in:
                links += '<link rel="preload" as="fetch" crossorigin="anonymous" ' \
                         'href="/api/session">'
            if drawing is not None:
                layer = json.loads(drawing.body).get("layer", "")
                links += (f'<link rel="preload" as="fetch" crossorigin="anonymous" '
                          f'href="/api/board/{board}"><link rel="preload" as="image" '
                          f'href="{layer}">')
            html = page.body.replace(b"</head>", links.encode() + b"</head>", 1)
            found = self._made[key] = Blob.of(html, page.content_type)
        return found

    async def _once(self, key: tuple[str, str],
                    make: Callable[[], Awaitable[Blob | None]]) -> Blob | None:
        found = self._made.get(key)
        if found is not None:
            return found
        making = self._making.get(key)
        if making is None:
            making = self._making[key] = asyncio.ensure_future(make())
            making.add_done_callback(lambda _: self._making.pop(key, None))
        blob: Blob | None = await asyncio.shield(making)
        if blob is not None:
            self._made[key] = blob
        return blob

    async def _drawn(self, name: str, key: str, content_type: str) -> Blob | None:
        """One of render.page's assets (bot.pictures.page_asset), made by a drawer once."""
        async def make() -> Blob | None:
            body = await pictures.page_asset(name, key)
            return None if body is None else Blob.of(body, content_type)
        return await self._once((name, key), make)

    async def board(self, key: str) -> Blob | None:
        """A board's drawing data (docs/web.md); None for an unknown board."""
        if key not in engine.data.BOARD_IDS:
            return None
        return await self._drawn("board_drawing", key, "application/json")

    async def layer(self, key: str) -> Blob | None:
        """A board's static map layer (WebP)."""
        if key not in engine.data.BOARD_IDS:
            return None
        return await self._drawn("layer_webp", key, "image/webp")

    async def piece(self, kind: str) -> Blob | None:
        """A piece's picture (PNG)."""
        if kind not in PIECES:
            return None
        return await self._drawn("piece_png", kind, "image/png")

    def words(self, lang: str) -> Blob | None:
        """The page's words and the game's names in one language (docs/web.md "Words")."""
        if lang not in i18n.LANGUAGES:
            return None
        key = ("words", lang)
        found = self._made.get(key)
        if found is None:
            keys = sorted(k for k in i18n.catalog(i18n.DEFAULT) if k.startswith("web."))
            names = {kind: {ident: i18n.name(kind, ident, lang) for ident in idents}
                     for kind, idents in (("race", engine.data.RACES),
                                          ("power", engine.data.POWERS),
                                          ("terrain", get_args(engine.data.Terrain)),
                                          ("piece", engine.data.PIECES))}
            body = {"lang": lang, "words": {k: i18n.template(k, lang) for k in keys},
                    "races": names["race"], "powers": names["power"],
                    "terrain": names["terrain"], "pieces": names["piece"],
                    "abbr": {r: i18n.t(f"abbr.{r}", lang) for r in engine.data.RACES}}
            found = self._made[key] = Blob.of(
                json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode(),
                "application/json")
        return found

    async def story(self, game: GameRow, what: str, lang: str) -> Blob | None:
        """A finished game's end card ("card") or replay ("replay") in `lang`."""
        key = (game.id, what, lang)
        found = self._stories.get(key)
        if found is not None:
            return found
        told = await self.stories.of(game)
        route = hash((told.board.id, told.players, game.seed))
        if what == "card":
            body = await pictures.end_card_png(told, lang=lang, route=route)
        else:
            body = await pictures.replay_png(told, lang=lang, route=route)
        if body is None:
            return None
        found = self._stories[key] = Blob.of(body, "image/png")
        while len(self._stories) > STORIES_KEPT:
            self._stories.popitem(last=False)
        return found
