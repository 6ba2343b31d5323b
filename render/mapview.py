"""The map picture of one observation: static layer + tokens, pieces, highlight, side panel."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

import i18n
from engine import data
from engine.view import ActiveRace, PlayerView

from . import sprites, text, theme
from .encode import palette, palette_index, to_palette
from .geometry import board_key, geometry
from .kept import Kept
from .masks import highlight_masks
from .static import MARGIN, layout, map_layer, paste_centered

PANEL_HEAD = 56
PANEL_ROW = 74


Observation = Mapping[str, Any]  # engine.observe's public (or a player's) view, read only
# what a piece of a picture shows, as a key: equal keys, equal pixels (so it can be cached)
Shows = tuple[Hashable, ...]

# what a map shows of an observation: drawn from these fields alone, it is the same picture
# (the bot keys its picture cache by them: a position reached again at another version, or
# with a change no map shows, is not drawn again)
MAP_FIELDS = ("players", "regions", "current", "finished", "round", "rounds", "stage")


def shown_on_map(observation: Observation) -> dict[str, Any]:
    """The fields of `observation` a map shows (see MAP_FIELDS)."""
    return {k: observation[k] for k in MAP_FIELDS if k in observation}


def seat_colours(observation: Observation) -> dict[str, tuple[int, int, int]]:
    """Each player's colour, by seat order (the order of observation["players"])."""
    return {name: theme.player_colour(i) for i, name in enumerate(observation["players"])}


Box = tuple[int, int, int, int]  # left, top, right, bottom (exclusive), image pixels


RING = (20, 20, 20)  # the dark band of a highlight; its inner part is theme.HIGHLIGHT


def _highlighted(board: data.Board, highlight: Iterable[int]) -> list[int]:
    return [rid for rid in sorted({int(r) for r in highlight}) if 0 <= rid < len(board.regions)]


def _highlight(im: Image.Image, key: str, rid: int,
               colours: tuple[text.Ink, text.Ink] = (RING, theme.HIGHLIGHT),
               origin: tuple[int, int] = (0, 0)) -> None:
    """Outline region `rid` in `colours` (dark band, inner band; palette indices on a palette
    image); `im`'s top-left is the map's `origin`."""
    (ox, oy), ring, edge = highlight_masks(key, rid)
    at = (ox - origin[0], oy - origin[1])
    im.paste(colours[0], at, ring)
    im.paste(colours[1], at, edge)


# a sprite placed on the map: (what it shows, as a key), the sprite, its top-left corner
Placed = tuple[Shows, Image.Image, tuple[int, int]]


def _placed(what: Shows, sprite: Image.Image, x: float, y: float,
            size: tuple[int, int]) -> Placed:
    """Centred at (x, y), nudged so the sprite stays on the map."""
    hw, hh = sprite.width / 2, sprite.height / 2
    x = min(max(x, MARGIN + hw), MARGIN + size[0] - hw)
    y = min(max(y, MARGIN + hh), MARGIN + size[1] - hh)
    return what, sprite, (int(x - sprite.width / 2), int(y - sprite.height / 2))


def token_sprites(board: data.Board, observation: Observation, lang: str = "en", *,
                  key: str | None = None) -> list[Placed]:
    """Markers (owner colour, count, race), lost tribes and pieces, in drawing order."""
    colours = seat_colours(observation)
    key = key or board_key(board)
    spots = layout(key)
    size = geometry(key).size
    order = list(sprites.PIECES)
    out: list[Placed] = []
    for rid_text, reg in observation.get("regions", {}).items():
        sp = spots[int(rid_text)]
        if reg.get("lost_tribe"):
            label = i18n.t("map.tribe", lang)
            out.append(_placed(("marker", 0, label, theme.LOST_TRIBE, False),
                               sprites.marker(0, label, theme.LOST_TRIBE), *sp.marker, size))
        elif reg.get("owner") is not None and reg.get("tokens", 0) > 0:
            colour = colours.get(reg["owner"], (128, 128, 128))
            label, decline = theme.abbr(reg.get("race"), lang), bool(reg.get("decline"))
            out.append(_placed(("marker", reg["tokens"], label, colour, decline),
                               sprites.marker(reg["tokens"], label, colour, decline=decline),
                               *sp.marker, size))
        counts = Counter(reg.get("pieces", ()))
        kinds = sorted(counts, key=lambda k: order.index(k) if k in order else len(order))
        for i, kind in enumerate(kinds):
            x, y = sp.pieces[i] if i < len(sp.pieces) else (sp.marker[0] + 40 * i, sp.marker[1])
            out.append(_placed(("piece", kind, counts[kind]), sprites.piece(kind, counts[kind]),
                               x, y, size))
    return out


def draw_tokens(im: Image.Image, board: data.Board, observation: Observation,
                highlight: Iterable[int] = (), lang: str = "en", *,
                key: str | None = None) -> None:
    """Highlighted regions, then markers, lost tribes and pieces (RGB)."""
    key = key or board_key(board)
    for rid in _highlighted(board, highlight):
        _highlight(im, key, rid)
    for _, sprite, corner in token_sprites(board, observation, lang, key=key):
        im.paste(sprite, corner, sprite)


def _race_line(hold: ActiveRace | None, lang: str = "en") -> str:
    if not hold:
        return i18n.t("map.no_race", lang)
    power = hold.get("power")
    if not power:
        return i18n.name("race", hold["race"], lang)
    return i18n.t("combo", lang, power=power, race=hold["race"])


LEGEND = ("mountain", "mine", "magic_source", "cavern", "lost_tribe", "fortress",
          "troll_lair", "encampment", "hero", "dragon", "hole")
LEGEND_SIZE = 22  # the words under the symbols; shrunk (measured) to fit their cell
LEGEND_H = 100


def legend_cell(width: int) -> float:
    """The room for one legend word: a cell less the symbol drawn left of it."""
    per_row = (len(LEGEND) + 1) // 2
    return (width - 2 * MARGIN) / per_row - 46


@cache
def legend(width: int, lang: str = "en") -> Image.Image:
    """What the symbols and pieces mean, two rows under the players."""
    im = Image.new("RGB", (width, LEGEND_H), theme.PARCHMENT)
    draw = ImageDraw.Draw(im)
    draw.line((MARGIN, 2, width - MARGIN, 2), fill=theme.PARCHMENT_DARK, width=2)
    per_row = (len(LEGEND) + 1) // 2
    cell = (width - 2 * MARGIN) / per_row
    room = legend_cell(width)
    for i, kind in enumerate(LEGEND):
        word = i18n.t(f"legend.{kind}", lang)
        x = MARGIN + cell * (i % per_row)
        y = 28 + 46 * (i // per_row)
        sprite = sprites.symbol(kind) if kind in sprites.SYMBOLS else sprites.piece(kind)
        paste_centered(im, sprite, x + 20, y)
        size = text.fit(word, LEGEND_SIZE, room, "narrow")
        text.draw(draw, (x + 42, y), word, size=size, kind="narrow", fill=theme.INK, anchor="lm")
    return im


def panel_height(n_players: int) -> int:
    return PANEL_HEAD + PANEL_ROW * n_players + 10 + LEGEND_H


def _title(observation: Observation, lang: str) -> str:
    rnd, rounds = observation.get("round"), observation.get("rounds")
    if observation.get("finished"):
        return i18n.t("map.title_over", lang, round=rnd, rounds=rounds)
    stage = observation.get("stage") or ""
    return i18n.t("map.title", lang, round=rnd, rounds=rounds, player=observation.get("current"),
                  stage=i18n.t(f"stage.{stage}", lang) if i18n.has(f"stage.{stage}") else stage)


def panel_head(width: int, title: str) -> Image.Image:
    """The panel's first strip: a rule and the round/turn title."""
    im = Image.new("RGB", (width, PANEL_HEAD), theme.PARCHMENT)
    draw = ImageDraw.Draw(im)
    draw.line((MARGIN, 2, width - MARGIN, 2), fill=theme.INK, width=3)
    size = text.fit(title, 28, width - 2 * MARGIN - 8, "serif")
    text.draw(draw, (MARGIN + 4, PANEL_HEAD // 2 + 2), title, size=size, kind="serif",
              fill=theme.INK, anchor="lm")
    return im


def _player_lines(name: str, p: PlayerView, *, viewer: str | None, lang: str) -> tuple[str, str]:
    """A player's two panel lines: the active race (tokens on the map, in hand), then the
    races in decline, and the coins only in the player's own view."""
    act = p.get("active")
    line1 = _race_line(act, lang)
    if act:
        line1 = i18n.t("map.active", lang, combo=line1, on_map=act.get("tokens_on_board", 0),
                       hand=p.get("hand", 0))
    decl = p.get("decline") or []
    sep = i18n.t("list.sep", lang)
    line2 = i18n.t("map.in_decline", lang, list=sep.join(
        f"{_race_line(d, lang)} ({d.get('tokens_on_board', 0)})" for d in decl)) if decl else ""
    if viewer is not None and name == viewer and "coins" in p:
        line2 = (line2 + " · " if line2 else "") + i18n.t("map.your_coins", lang,
                                                          coins=p["coins"])
    return line1, line2


def panel_row(width: int, name: str, colour: tuple[int, int, int], current: bool,
              line1: str, line2: str) -> Image.Image:
    """One player's strip of the panel: colour, name, the two lines; framed if current."""
    im = Image.new("RGB", (width, PANEL_ROW), theme.PARCHMENT)
    draw = ImageDraw.Draw(im)
    w = width
    if current:
        draw.rounded_rectangle((MARGIN - 4, 2, w - MARGIN + 4, PANEL_ROW - 4), radius=10,
                               fill=(250, 240, 214), outline=colour, width=3)
    sw = sprites.swatch(colour, 34)
    im.paste(sw, (MARGIN + 6, 8), sw)
    x = MARGIN + 50
    room = w - MARGIN - x
    name_size = text.fit(name, 26, room / 2, "bold")
    x2 = x + text.draw(draw, (x, 6), name, size=name_size, kind="bold", fill=theme.INK) + 18
    text.draw(draw, (x2, 8), line1, size=text.fit(line1, 22, w - MARGIN - x2, "narrow"),
              kind="narrow", fill=theme.INK)
    if line2:
        text.draw(draw, (x, 40), line2, size=text.fit(line2, 22, room, "narrow"),
                  kind="narrow", fill=(90, 70, 50))
    return im


def panel_parts(width: int, observation: Observation, *, viewer: str | None, lang: str
                ) -> list[tuple[str, Shows]]:
    """The panel as strips from the top, each (what, arguments): "head" (panel_head), "row"
    (panel_row), "gap" (10 px of parchment), "legend" (legend). Equal arguments draw equal
    pixels, so a strip can be cached by them."""
    parts: list[tuple[str, Shows]] = [("head", (width, _title(observation, lang)))]
    colours = seat_colours(observation)
    for name, p in observation["players"].items():
        current = name == observation.get("current") and not observation.get("finished")
        parts.append(("row", (width, name, colours[name], current,
                              *_player_lines(name, p, viewer=viewer, lang=lang))))
    parts.append(("gap", (width,)))
    parts.append(("legend", (width, lang)))
    return parts


def _gap(width: int) -> Image.Image:
    return Image.new("RGB", (width, 10), theme.PARCHMENT)


# (each takes its own arguments: panel_parts gives them with the strip's name)
STRIPS: dict[str, Callable[..., Image.Image]] = {"head": panel_head, "row": panel_row,
                                                 "gap": _gap, "legend": legend}


def draw_panel(im: Image.Image, top: int, observation: Observation, *, viewer: str | None,
               lang: str = "en") -> None:
    """Round, whose turn, and per player: colour, active race, hand, declines (coins: own only)."""
    y = top
    for what, args in panel_parts(im.width, observation, viewer=viewer, lang=lang):
        strip = STRIPS[what](*args)
        im.paste(strip, (0, y))
        y += strip.height


def _clip(box: Box, size: tuple[int, int]) -> Box | None:
    left, top = max(0, box[0]), max(0, box[1])
    right, bottom = min(size[0], box[2]), min(size[1], box[3])
    return (left, top, right, bottom) if left < right and top < bottom else None


@lru_cache(maxsize=12)
def static_on_palette(key: str) -> Image.Image:
    """The static layer of a board on its palette (what every map's untouched pixels are)."""
    return to_palette(map_layer(key), key)


# (compressed: render.kept) a player's strip ~76 KB, ~6 KB packed: the panels of ~100 live
# games; a marker's tile ~6 KB, ~1 KB packed: the markers and pieces of ~100 live games
STRIPS_BYTES = 4 * 1024 * 1024
TILES_BYTES = 3 * 1024 * 1024
_strips = Kept(STRIPS_BYTES)
_tiles = Kept(TILES_BYTES)


def strip_on_palette(key: str, what: str, args: Shows) -> Image.Image:
    """A panel strip (STRIPS[what](*args)) on the palette of board `key`; the latest are
    kept (STRIPS_BYTES): a strip shows the same until its player's race, tokens or turn
    change."""
    return _strips.get((key, what, args), lambda: to_palette(STRIPS[what](*args), key))


def clear_strips() -> None:
    """Forget the strips and tiles kept (tests and benchmarks: draw everything again)."""
    _strips.clear()
    _tiles.clear()


@contextmanager
def no_strips_kept() -> Iterator[None]:
    """Draw as a process that kept no strip or tile yet; those kept before come back after."""
    global _strips, _tiles
    saved, _strips, _tiles = (_strips, _tiles), Kept(STRIPS_BYTES), Kept(TILES_BYTES)
    try:
        yield
    finally:
        _strips, _tiles = saved


@lru_cache(maxsize=64)
def _index(key: str, colour: tuple[int, int, int]) -> int:
    """The index of `colour` on board `key`'s palette."""
    return palette_index(palette(key), colour)


def _touches(key: str, rid: int, box: Box) -> bool:
    """Does the highlight of region `rid` draw any pixel inside `box`?"""
    (ox, oy), ring, _ = highlight_masks(key, rid)
    inside = _clip((box[0] - ox, box[1] - oy, box[2] - ox, box[3] - oy), ring.size)
    return inside is not None and ring.crop(inside).getbbox() is not None


def _groups(placed: list[Placed]) -> list[tuple[Box, list[Placed]]]:
    """The sprites in groups whose boxes do not meet another group's box (a group's box
    holds all of its sprites), each group in drawing order."""
    groups: list[tuple[Box, list[int]]] = []
    for n, (_, sprite, (left, top)) in enumerate(placed):
        box, members = (left, top, left + sprite.width, top + sprite.height), [n]
        merged = True
        while merged:
            merged = False
            for i, (other, its) in enumerate(groups):
                if box[0] < other[2] and other[0] < box[2] and box[1] < other[3] \
                        and other[1] < box[3]:
                    box = (min(box[0], other[0]), min(box[1], other[1]),
                           max(box[2], other[2]), max(box[3], other[3]))
                    members += its
                    del groups[i]
                    merged = True
                    break
        groups.append((box, members))
    return [(box, [placed[n] for n in sorted(members)]) for box, members in groups]


def _tile_key(key: str, box: Box, members: list[Placed], rings: tuple[int, ...]) -> Shows:
    """What a tile shows: equal keys, equal pixels."""
    return (key, box, rings, tuple((w, corner) for w, _, corner in members))


def _tile(key: str, box: Box, members: list[Placed], rings: tuple[int, ...],
          what: Shows) -> Image.Image:
    """A group's box on the palette: the static layer, the highlights that reach into it,
    then its sprites, mapped to the palette (once per content, `what`: _tile_key; kept in
    `_tiles`)."""
    def make() -> Image.Image:
        im = map_layer(key).crop(box)
        for rid in rings:
            _highlight(im, key, rid, origin=(box[0], box[1]))
        for _, sprite, (left, top) in members:
            im.paste(sprite, (left - box[0], top - box[1]), sprite)
        return to_palette(im, key)

    return _tiles.get(what, make)


# something map_image laid on the board's static layer: what it shows (equal keys: equal
# pixels) and where. Two maps of one board differ only inside the boxes of the layers one
# of them has and the other has not (render.replay stores a frame's changes from these).
Layer = tuple[Shows, Box]


def map_layers(board: data.Board, observation: Observation, *, viewer: str | None = None,
               highlight: Iterable[int] = (), lang: str = "en"
               ) -> tuple[Image.Image, list[Layer]]:
    """`map_image`, with the layers it laid on the static layer (see Layer)."""
    key = board_key(board)
    static = map_layer(key)
    out = static_on_palette(key).crop(
        (0, 0, static.width, static.height + panel_height(len(observation["players"]))))
    layers: list[Layer] = []
    rids = _highlighted(board, highlight)
    for rid in rids:
        _highlight(out, key, rid, (_index(key, RING), _index(key, theme.HIGHLIGHT)))
        (ox, oy), ring, _ = highlight_masks(key, rid)
        layers.append((("highlight", rid), (ox, oy, ox + ring.width, oy + ring.height)))
    for box, members in _groups(token_sprites(board, observation, lang, key=key)):
        clipped = _clip(box, static.size)
        if clipped is None:
            continue
        rings = tuple(rid for rid in rids if _touches(key, rid, clipped))
        shows = _tile_key(key, clipped, members, rings)
        out.paste(_tile(key, clipped, members, rings, shows), clipped[:2])
        layers.append((("tile", shows), clipped))
    y = static.height
    for what, args in panel_parts(static.width, observation, viewer=viewer, lang=lang):
        strip = strip_on_palette(key, what, args)
        out.paste(strip, (0, y))
        layers.append((("strip", what, args), (0, y, static.width, y + strip.height)))
        y += strip.height
    return out, layers


def map_image(board: data.Board, observation: Observation, *, viewer: str | None = None,
              highlight: Iterable[int] = (), lang: str = "en") -> Image.Image:
    """The map picture on the board's palette: the same pixels as
    `to_palette(draw_map(...), key)`, for a fraction of the work.

    Nothing is drawn in RGB and mapped to the palette but what is new: the static layer is
    mapped once per board; a highlight's pixels are two solid colours, set by index through
    its masks; sprites are drawn in groups (sprites whose boxes overlap), each group's box
    mapped once per content and kept as a tile (most regions show the same from one turn to
    the next); the panel's strips are mapped once per content too."""
    return map_layers(board, observation, viewer=viewer, highlight=highlight, lang=lang)[0]


def draw_map(board: data.Board, observation: Observation, *, viewer: str | None = None,
             highlight: Iterable[int] = (), lang: str = "en") -> Image.Image:
    """The full map picture (RGB) of an observation of `board`."""
    static = map_layer(board_key(board))
    n = len(observation["players"])
    im = Image.new("RGB", (static.width, static.height + panel_height(n)), theme.PARCHMENT)
    im.paste(static, (0, 0))
    draw_tokens(im, board, observation, highlight, lang)
    draw_panel(im, static.height, observation, viewer=viewer, lang=lang)
    return im
