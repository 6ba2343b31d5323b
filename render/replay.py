"""The animated replay of a finished game: one frame per turn map, as an animated PNG.

A frame is exactly the map the bot posted after a turn (story.Frame: the turn's public
observation, the regions conquered in it outlined, the game's language, drawn by map_image's
own code, mapview.map_layers) with a caption strip under it: round, player, what they did,
and how far into the game it is. (When the game ends as the last turn's survivors are
placed, the bot posts one more map, and the replay has one more frame.) Successive frames
are drawn as successive maps are (the static layer, the marker tiles and the panel strips
kept in this process are reused) and stored as APNG (render.apng), each frame as its changes
over the one before, found from the map layers the two frames do not share.

APNG rather than animated WebP or GIF (bench/replay.py --formats prints all three on the
same frames): Discord's clients animate APNG attachments, animated WebP not in every client;
APNG keeps the map's palette pixel for pixel, as GIF would; and it is the cheapest to make
(measured: ~1.2 ms a frame to encode, GIF ~8 ms with Pillow, WebP ~30 ms at its fastest
method), though GIF and WebP at its default method are smaller (about half, and a third).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache

from PIL import Image, ImageDraw

import i18n
from story import Deed, Frame, SecretUntilOver, Story

from . import text, theme
from .apng import AnimatedPng, AnimationFrame, IndexInUse, unused_index
from .encode import palette, palette_index
from .geometry import board_key
from .mapview import Layer, map_layers, panel_height, shown_on_map
from .static import MARGIN, map_layer

CAPTION_H = 64  # the caption strip under each frame's map
FRAME_MS = 1200  # how long each turn is shown
LAST_MS = 6000  # the last frame (the end of the game) stays longer before the replay loops


def _deed(deed: Deed, lang: str) -> str:
    if deed.kind == "picked":
        return i18n.t("story.deed.picked", lang,
                      combo=i18n.t("combo", lang, power=deed.power, race=deed.race))
    if deed.kind == "conquered":
        return i18n.t("story.deed.conquered", lang, n=deed.n)
    if deed.kind == "declined":
        return i18n.t("story.deed.declined", lang, race=deed.race)
    return i18n.t("story.deed.held", lang)


def deeds_text(deeds: Iterable[Deed], lang: str = "en") -> str:
    """What a player did in a turn, in words: "picked Flying Ratmen, conquered 4 regions"
    (the caption's words; the key-moments review words its turns with them too)."""
    return i18n.t("list.sep", lang).join(_deed(d, lang) for d in deeds)


def caption(frame: Frame, lang: str = "en") -> str:
    """What a frame's strip says: "Round 3 · ann: picked Flying Ratmen, conquered 4
    regions" (no coins: a turn's caption tells only what the turn's map and events show)."""
    if frame.player is None:
        return i18n.t("story.caption_end", lang, round=frame.round)
    return i18n.t("story.caption", lang, round=frame.round, player=frame.player,
                  deeds=deeds_text(frame.deeds, lang))


@lru_cache(maxsize=64)
def _index(key: str, colour: tuple[int, int, int]) -> int:
    return palette_index(palette(key), colour)


@lru_cache(maxsize=12)
def _inks(key: str) -> tuple[list[int], int, int]:
    """On board `key`'s palette: the index of ink over parchment at each coverage 0-255 (a
    text mask mapped through it is the text drawn in ink, antialiased), and the indices of
    the parchment's dark shade and of the ink."""
    ramp = Image.new("RGB", (256, 1))
    ramp.putdata([tuple(round(p + (i - p) * a / 255) for p, i in
                        zip(theme.PARCHMENT, theme.INK, strict=True)) for a in range(256)])
    indices = ramp.quantize(palette=palette(key), dither=Image.Dither.NONE)
    return list(indices.tobytes()), _index(key, theme.PARCHMENT_DARK), _index(key, theme.INK)


def caption_strip(key: str, width: int, words: str, colour: tuple[int, int, int] | None,
                  turn: int, turns: int, lang: str = "en") -> Image.Image:
    """The strip under a frame's map, on board `key`'s palette: a progress rule, the
    player's colour, the caption, and "turn 12 of 40" at the right. The words are drawn as a
    mask and mapped to the palette's shades of ink (one lookup, where quantizing the whole
    strip would cost more than drawing it)."""
    mask = Image.new("L", (width, CAPTION_H), 0)
    draw = ImageDraw.Draw(mask)
    count = i18n.t("story.count", lang, n=turn, total=turns)
    count_size = text.fit(count, 22, width / 4, "narrow")
    count_w = text.draw(draw, (width - MARGIN, CAPTION_H // 2 + 3), count, size=count_size,
                        kind="narrow", fill=255, anchor="rm")
    x = MARGIN + (40 if colour is not None else 0)
    room = width - MARGIN - count_w - 16 - x
    text.draw(draw, (x, CAPTION_H // 2 + 3), words, size=text.fit(words, 28, room), fill=255,
              anchor="lm")
    ramp, shade, ink = _inks(key)
    strip = mask.point(ramp).convert("P")
    strip.putpalette(palette(key).getpalette() or [])
    draw = ImageDraw.Draw(strip)
    draw.rectangle((0, 0, width, 5), fill=shade)
    draw.rectangle((0, 0, round(width * turn / max(1, turns)), 5), fill=ink)
    if colour is not None:
        draw.rectangle((MARGIN, 18, MARGIN + 28, 46), fill=ink)
        draw.rectangle((MARGIN + 2, 20, MARGIN + 26, 44), fill=_index(key, colour))
    return strip


def frame_parts(story: Story, k: int, lang: str = "en"
                ) -> tuple[Image.Image, Image.Image, list[Layer]]:
    """Frame `k`'s map, caption strip and the map's layers (mapview.map_layers)."""
    frame = story.frames[k]
    board = story.board
    shown, layers = map_layers(board, shown_on_map(frame.observation),
                               highlight=frame.highlight, lang=lang)
    colour = (theme.player_colour(story.players.index(frame.player))
              if frame.player in story.players else None)
    strip = caption_strip(board_key(board), shown.width, caption(frame, lang), colour, k + 1,
                          len(story.frames), lang)
    return shown, strip, layers


def frame_image(story: Story, k: int, lang: str = "en") -> tuple[Image.Image, Image.Image]:
    """Frame `k` as (map, caption strip), both on the board's palette: the map is the one
    the bot posts after that turn, drawn by the same code (mapview.map_image)."""
    shown, strip, _ = frame_parts(story, k, lang)
    return shown, strip


def changed_boxes(before: set[Layer], now: set[Layer], shown: Image.Image,
                  strip: Image.Image) -> list[tuple[int, int, int, int]]:
    """Where a frame differs from the frame before: inside the layers (tiles, highlights,
    panel strips) one of the two maps has and the other has not, and the caption strip."""
    changed = list({box for _, box in before ^ now})  # (a tile's old and new: one box)
    changed.append((0, shown.height, shown.width, shown.height + strip.height))
    return changed


def _frames(story: Story, lang: str) -> Iterator[AnimationFrame]:
    """Each frame's parts, delay and changed boxes."""
    last = len(story.frames) - 1
    before: set[Layer] = set()
    for k in range(len(story.frames)):
        shown, strip, layers = frame_parts(story, k, lang)
        now = set(layers)
        yield (shown, strip), LAST_MS if k == last else FRAME_MS, changed_boxes(
            before, now, shown, strip)
        before = now


def replay_png(story: Story, lang: str = "en") -> bytes:
    """The replay of a finished game as an animated PNG (one frame per turn, looping)."""
    return next(done for done in replay_steps(story, lang) if done is not None)


def replay_steps(story: Story, lang: str = "en") -> Iterator[bytes | None]:
    """The replay made one frame at a time: None after each frame, then the APNG's bytes
    (the same bytes as replay_png). A drawer that must stay free for other pictures draws it
    a step at a time (bot.drawing.draw_step)."""
    if not story.finished:
        raise SecretUntilOver("a replay is made once the game is over")
    if not story.frames:
        raise ValueError("the game has no turn to replay")
    key = board_key(story.board)
    colours = bytes(palette(key).getpalette() or [])[:768].ljust(768, b"\0")
    static = map_layer(key)
    size = (static.width, static.height + panel_height(len(story.players)) + CAPTION_H)
    clear = unused_index(colours)
    if clear is not None:
        r, g, b = colours[3 * clear:3 * clear + 3]
        if _index(key, (r, g, b)) == clear:
            clear = None  # this Pillow picks the later of equal colours: no transparent index
    while True:
        writer = AnimatedPng(size, colours, len(story.frames), clear)
        try:
            for parts, delay, changed in _frames(story, lang):
                writer.add(parts, delay, changed)
                yield None
        except IndexInUse:  # a frame shows that colour after all: no transparent index
            if clear is None:
                raise
            clear = None
            continue
        yield writer.finish()
        return


def replay_alt(story: Story, lang: str = "en") -> str:
    """The replay's alt text."""
    return i18n.t("story.alt.replay", lang, n=len(story.frames))
