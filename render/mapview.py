"""The map picture of one observation: static layer + tokens, pieces, highlight, side panel."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache, lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

import i18n
from engine import data

from . import sprites, text, theme
from .geometry import board_key, geometry
from .static import MARGIN, layout, map_layer, paste_centered

PANEL_HEAD = 56
PANEL_ROW = 74


def seat_colours(observation: dict) -> dict[str, tuple[int, int, int]]:
    """Each player's colour, by seat order (the order of observation["players"])."""
    return {name: theme.player_colour(i) for i, name in enumerate(observation["players"])}


@lru_cache(maxsize=1024)
def region_mask(key: str, rid: int) -> tuple[tuple[int, int], Image.Image]:
    """(offset, mask) of one region at drawn size, cropped to its box (frame included)."""
    geo = geometry(key)
    lab = geo.label_image().point([255 if i == rid else 0 for i in range(256)])
    lab = lab.resize(geo.size, Image.Resampling.NEAREST)
    x0, y0, x1, y1 = lab.getbbox()
    pad = 6
    x0, y0 = max(0, x0 - pad), max(0, y0 - pad)
    x1, y1 = min(lab.width, x1 + pad), min(lab.height, y1 + pad)
    return (x0 + MARGIN, y0 + MARGIN), lab.crop((x0, y0, x1, y1))


@lru_cache(maxsize=1024)
def highlight_masks(key: str, rid: int) -> tuple[tuple[int, int], Image.Image, Image.Image]:
    """(offset, ring, edge) of a highlighted region: `ring` is the band 5 px deep inside its
    border (drawn dark), `edge` that band less its outer 2 px (drawn in the highlight colour).

    Computed once per region: the erosions are most of a highlight's cost (about 11 ms a
    region, drawn on most end-of-turn maps). A 3x3 minimum filter applied k times is the
    (2k+1)x(2k+1) one, pixel for pixel, at a fraction of the cost."""
    offset, mask = region_mask(key, rid)
    eroded = mask
    steps = []
    for _ in range(5):
        eroded = eroded.filter(ImageFilter.MinFilter(3))
        steps.append(eroded)
    ring = ImageChops.subtract(mask, steps[4])  # 11x11 erosion
    core = ImageChops.subtract(mask, steps[1])  # 5x5 erosion
    return offset, ring, ImageChops.subtract(ring, core)


def _highlight(im: Image.Image, key: str, rid: int) -> None:
    (ox, oy), ring, edge = highlight_masks(key, rid)
    im.paste((20, 20, 20), (ox, oy), ring)
    im.paste(theme.HIGHLIGHT, (ox, oy), edge)


def _paste_inside(im: Image.Image, sprite: Image.Image, x: float, y: float,
                  size: tuple[int, int]) -> None:
    """Paste centred at (x, y), nudged so the sprite stays on the map."""
    hw, hh = sprite.width / 2, sprite.height / 2
    x = min(max(x, MARGIN + hw), MARGIN + size[0] - hw)
    y = min(max(y, MARGIN + hh), MARGIN + size[1] - hh)
    paste_centered(im, sprite, x, y)


def draw_tokens(im: Image.Image, board: data.Board, observation: dict,
                highlight: Iterable[int] = (), lang: str = "en") -> None:
    """Markers (owner colour, count, race), lost tribes, pieces, highlighted regions."""
    colours = seat_colours(observation)
    key = board_key(board)
    spots = layout(key)
    size = geometry(key).size
    for rid in sorted({int(r) for r in highlight}):
        if 0 <= rid < len(board.regions):
            _highlight(im, key, rid)
    for key, reg in observation.get("regions", {}).items():
        rid = int(key)
        sp = spots[rid]
        if reg.get("lost_tribe"):
            _paste_inside(im, sprites.marker(0, i18n.t("map.tribe", lang), theme.LOST_TRIBE), *sp.marker, size)
        elif reg.get("owner") is not None and reg.get("tokens", 0) > 0:
            colour = colours.get(reg["owner"], (128, 128, 128))
            tag = sprites.marker(reg["tokens"], theme.abbr(reg.get("race"), lang), colour,
                                 decline=bool(reg.get("decline")))
            _paste_inside(im, tag, *sp.marker, size)
        counts = Counter(reg.get("pieces", ()))
        order = list(sprites.PIECES)
        kinds = sorted(counts, key=lambda k: order.index(k) if k in order else len(order))
        for i, kind in enumerate(kinds):
            x, y = sp.pieces[i] if i < len(sp.pieces) else (sp.marker[0] + 40 * i, sp.marker[1])
            _paste_inside(im, sprites.piece(kind, counts[kind]), x, y, size)


def _race_line(hold: dict | None, lang: str = "en") -> str:
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


def draw_panel(im: Image.Image, top: int, observation: dict, *, viewer: str | None,
               lang: str = "en") -> None:
    """Round, whose turn, and per player: colour, active race, hand, declines (coins: own only)."""
    draw = ImageDraw.Draw(im)
    w = im.width
    draw.rectangle((0, top, w, im.height), fill=theme.PARCHMENT)
    draw.line((MARGIN, top + 2, w - MARGIN, top + 2), fill=theme.INK, width=3)
    rnd, rounds = observation.get("round"), observation.get("rounds")
    if observation.get("finished"):
        title = i18n.t("map.title_over", lang, round=rnd, rounds=rounds)
    else:
        stage = observation.get("stage") or ""
        title = i18n.t("map.title", lang, round=rnd, rounds=rounds,
                       player=observation.get("current"),
                       stage=i18n.t(f"stage.{stage}", lang) if i18n.has(f"stage.{stage}") else stage)
    size = text.fit(title, 28, w - 2 * MARGIN - 8, "serif")
    text.draw(draw, (MARGIN + 4, top + PANEL_HEAD // 2 + 2), title, size=size, kind="serif",
              fill=theme.INK, anchor="lm")
    colours = seat_colours(observation)
    y = top + PANEL_HEAD
    for name, p in observation["players"].items():
        is_current = name == observation.get("current") and not observation.get("finished")
        if is_current:
            draw.rounded_rectangle((MARGIN - 4, y + 2, w - MARGIN + 4, y + PANEL_ROW - 4),
                                   radius=10, fill=(250, 240, 214), outline=colours[name],
                                   width=3)
        sw = sprites.swatch(colours[name], 34)
        im.paste(sw, (MARGIN + 6, y + 8), sw)
        x = MARGIN + 50
        room = w - MARGIN - x
        name_size = text.fit(name, 26, room / 2, "bold")
        x2 = x + text.draw(draw, (x, y + 6), name, size=name_size, kind="bold",
                           fill=theme.INK) + 18
        act = p.get("active")
        line1 = _race_line(act, lang)
        if act:
            line1 = i18n.t("map.active", lang, combo=line1, on_map=act.get("tokens_on_board", 0),
                           hand=p.get("hand", 0))
        text.draw(draw, (x2, y + 8), line1, size=text.fit(line1, 22, w - MARGIN - x2, "narrow"),
                  kind="narrow", fill=theme.INK)
        decl = p.get("decline") or []
        sep = i18n.t("list.sep", lang)
        line2 = i18n.t("map.in_decline", lang, list=sep.join(
            f"{_race_line(d, lang)} ({d.get('tokens_on_board', 0)})" for d in decl)) if decl else ""
        if viewer is not None and name == viewer and "coins" in p:
            line2 = (line2 + " · " if line2 else "") + i18n.t("map.your_coins", lang,
                                                              coins=p["coins"])
        if line2:
            text.draw(draw, (x, y + 40), line2, size=text.fit(line2, 22, room, "narrow"),
                      kind="narrow", fill=(90, 70, 50))
        y += PANEL_ROW
    im.paste(legend(w, lang), (0, y + 10))


def draw_map(board: data.Board, observation: dict, *, viewer: str | None = None,
             highlight: Iterable[int] = (), lang: str = "en") -> Image.Image:
    """The full map picture (RGB) of an observation of `board`."""
    static = map_layer(board_key(board))
    n = len(observation["players"])
    im = Image.new("RGB", (static.width, static.height + panel_height(n)), theme.PARCHMENT)
    im.paste(static, (0, 0))
    draw_tokens(im, board, observation, highlight, lang)
    draw_panel(im, static.height, observation, viewer=viewer, lang=lang)
    return im
