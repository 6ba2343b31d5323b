"""The combo row (six visible race/power combos) and the end-of-game reveal."""

from __future__ import annotations

import colorsys
from collections.abc import Callable, Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

import i18n
from engine import data

from . import sprites, text, theme
from .charts import line_chart
from .encode import palette_index
from .geometry import read_cache, source_digest, write_cache
from .kept import Kept
from .mapview import Observation, Shows, seat_colours
from .static import fonts_digest

WIDTH = 1028
ROW_H = 92
PAD = 16
GOLD = (236, 190, 40)


def hue_colour(name: str, names: tuple[str, ...], s: float, v: float) -> tuple[int, int, int]:
    i = names.index(name) if name in names else sum(map(ord, name))
    r, g, b = colorsys.hsv_to_rgb((i * 0.61803) % 1.0, s, v)
    return (int(r * 255), int(g * 255), int(b * 255))


def _coin(draw: ImageDraw.ImageDraw, x: float, y: float, r: float = 14) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill=GOLD, outline=theme.INK, width=2)
    draw.ellipse((x - r + 5, y - r + 5, x + r - 5, y + r - 5), outline=(180, 130, 20), width=2)


def _tokens(name: str, table: Mapping[str, data.RaceData | data.PowerData]) -> int:
    item = table.get(name)
    return item.tokens if item is not None else 0


COST_COLUMN = 226  # the cost and coins column at the right of each combo


def combo_sizes(power: str, race: str, n_tokens: int, lang: str = "en") -> tuple[int, int]:
    """Font sizes (names, token count) that fit a combo's badge, banner and count between
    the slot disc and the cost column (measured in the picture's language)."""
    tokens = i18n.t("row.tokens", lang, n=n_tokens)
    room = WIDTH - PAD - COST_COLUMN - (PAD + 72) - 16 - 12
    size = 28
    while size > 16:
        used = (text.width(power, size) + 30 + text.width(race, size) + 32
                + text.width(tokens, size))
        if used <= room:
            break
        size -= 1
    return size, size


ROW_HEAD = 60
CARD = (PAD, 6, WIDTH - PAD, ROW_H - 6)  # a combo's card inside its strip
# where a combo's names and tokens (middle) and its cost and coins (right) are drawn: both
# inside the card, clear of the slot number's disc; each is drawn on its own piece of the
# card, and kept, so that a row is mostly laid out of pieces drawn before
MIDDLE = (PAD + 72, CARD[1], WIDTH - PAD - COST_COLUMN, CARD[3])
RIGHT = (WIDTH - PAD - COST_COLUMN, CARD[1], CARD[2], CARD[3])


def _card() -> Image.Image:
    """A combo's strip with its empty card."""
    im = Image.new("RGB", (WIDTH, ROW_H), theme.PARCHMENT)
    ImageDraw.Draw(im).rounded_rectangle(CARD, radius=14, fill=(248, 238, 212),
                                         outline=theme.INK, width=2)
    return im


def _slot_strip(slot: int) -> Image.Image:
    """The strip of the combo in `slot` (0-5): its card and number (1-6, as /sw pick and
    the menus count them; the engine's slot is one less)."""
    im = _card()
    draw = ImageDraw.Draw(im)
    cy = ROW_H // 2
    draw.ellipse((PAD + 10, cy - 26, PAD + 62, cy + 26), fill=theme.INK)
    draw.text((PAD + 36, cy), str(slot + 1), font=theme.font(32, "bold"), fill=(255, 255, 255),
              anchor="mm")
    return im


def _combo_piece(power_id: str, race_id: str, lang: str) -> Image.Image:
    """The power badge and race banner, joined like the cardboard pieces, and the tokens."""
    im = _card().crop(MIDDLE)
    draw = ImageDraw.Draw(im)
    races, powers = data.races(), data.powers()
    power, race = i18n.name("power", power_id, lang), i18n.name("race", race_id, lang)
    pc = hue_colour(power_id, data.POWERS, 0.35, 0.85)
    rc = hue_colour(race_id, data.RACES, 0.45, 0.8)
    n = _tokens(race_id, races) + _tokens(power_id, powers)
    size, _ = combo_sizes(power, race, n, lang)
    cy = ROW_H // 2 - MIDDLE[1]
    x = 0
    pw = int(text.width(power, size)) + 30
    rw = int(text.width(race, size)) + 32
    draw.rounded_rectangle((x, cy - 30, x + pw + 14, cy + 30), radius=28, fill=pc,
                           outline=theme.INK, width=2)
    text.draw(draw, (x + 14, cy), power, size=size, fill=theme.text_on(pc), anchor="lm")
    x += pw
    draw.polygon([(x, cy - 30), (x + rw, cy - 30), (x + rw - 14, cy), (x + rw, cy + 30),
                  (x, cy + 30)], fill=rc, outline=theme.INK, width=2)
    text.draw(draw, (x + 12, cy), race, size=size, fill=theme.text_on(rc), anchor="lm")
    x += rw + 16
    text.draw(draw, (x, cy - 15), i18n.t("row.tokens", lang, n=n), size=size,
              fill=theme.INK, anchor="lm")
    text.draw(draw, (x, cy + 19), f"{_tokens(race_id, races)} + {_tokens(power_id, powers)}",
              size=26, kind="narrow", fill=(90, 70, 50), anchor="lm")
    return im


def _cost_piece(cost: int, coins: int, lang: str) -> Image.Image:
    """The combo's cost, and the coins lying on it ("2 on it": the picker takes them)."""
    im = _card().crop(RIGHT)
    draw = ImageDraw.Draw(im)
    cy = ROW_H // 2 - RIGHT[1]
    col = COST_COLUMN - 12
    right = WIDTH - PAD - 10 - RIGHT[0]
    label = i18n.t("row.cost", lang, cost=cost)
    text.draw(draw, (0, cy - 15), label, size=text.fit(label, 28, col), fill=theme.INK,
              anchor="lm")
    if not coins:
        none = i18n.t("row.no_coins", lang)
        text.draw(draw, (0, cy + 19), none, size=text.fit(none, 26, col, "narrow"),
                  kind="narrow", fill=(90, 70, 50), anchor="lm")
        return im
    cx = 14
    for k in range(min(coins, 4)):
        _coin(draw, cx + k * 14, cy + 19)
    tx: float = cx + (min(coins, 4) - 1) * 14 + 24
    tx += text.draw(draw, (tx, cy + 19), str(coins), size=28, fill=theme.INK, anchor="lm") + 8
    on_it = i18n.t("row.on_it", lang)
    text.draw(draw, (tx, cy + 19), on_it, size=text.fit(on_it, 26, right - tx, "narrow"),
              kind="narrow", fill=(90, 70, 50), anchor="lm")
    return im


def _row_title(lang: str) -> Image.Image:
    im = Image.new("RGB", (WIDTH, ROW_HEAD), theme.PARCHMENT)
    title = i18n.t("row.title", lang)
    text.draw(ImageDraw.Draw(im), (PAD, ROW_HEAD // 2), title,
              size=text.fit(title, 32, WIDTH - 2 * PAD, "serif"), kind="serif", fill=theme.INK,
              anchor="lm")
    return im


# a piece of the row picture: (what, arguments, where), drawn by ROW_PIECES[what](*arguments)
RowPart = tuple[str, Shows, tuple[int, int]]


def _row_parts(observation: Observation, lang: str) -> tuple[tuple[int, int], list[RowPart]]:
    """The row picture's size, and what it is laid out of: (what, arguments, where), each
    drawn by ROW_PIECES[what](*arguments); equal arguments draw equal pixels."""
    row = observation.get("row") or []
    parts: list[RowPart] = [("title", (lang,), (0, 0))]
    for slot, combo in enumerate(row):
        y0 = ROW_HEAD + slot * ROW_H
        parts.append(("slot", (slot,), (0, y0)))
        parts.append(("combo", (combo.get("power", "?"), combo.get("race", "?"), lang),
                      (MIDDLE[0], y0 + MIDDLE[1])))
        parts.append(("cost", (combo.get("cost", slot),
                               combo.get("coins_on_combo", combo.get("coins", 0)), lang),
                      (RIGHT[0], y0 + RIGHT[1])))
    return (WIDTH, ROW_HEAD + ROW_H * max(1, len(row)) + PAD), parts


# (each takes its own arguments: _row_parts gives them with the piece's name)
ROW_PIECES: dict[str, Callable[..., Image.Image]] = {
    "title": _row_title, "slot": _slot_strip, "combo": _combo_piece, "cost": _cost_piece}


def draw_row(observation: Observation, lang: str = "en") -> Image.Image:
    """Six visible combos: number 1-6, power badge + race banner, tokens, cost, coins on it.

    Sized to stay legible when Discord shows it about 550 px wide (no text under 26 px)."""
    size, parts = _row_parts(observation, lang)
    im = Image.new("RGB", size, theme.PARCHMENT)
    for what, args, at in parts:
        im.paste(ROW_PIECES[what](*args), at)
    return im


# a combo's piece ~20-60 KB, ~1/10 packed (render.kept): the combos of many games in a few
# languages
PIECES_BYTES = 3 * 1024 * 1024
_pieces = Kept(PIECES_BYTES)


def _piece_on_palette(what: str, args: Shows) -> Image.Image:
    return _pieces.get((what, args), lambda: row_on_palette(ROW_PIECES[what](*args)))


def clear_pieces() -> None:
    """Forget the row pieces kept (tests and benchmarks: draw everything again)."""
    _pieces.clear()


def row_image(observation: Observation, lang: str = "en") -> Image.Image:
    """`draw_row` on the row palette, laid out of pieces mapped to it once per content: a
    combo's badge, banner and tokens look the same in any slot and any game, its cost and
    coins take a few values, and its number six. The same pixels as
    `row_on_palette(draw_row(...))`, mostly without drawing or mapping anything."""
    size, parts = _row_parts(observation, lang)
    im = Image.new("P", size, palette_index(row_palette(), theme.PARCHMENT))
    im.putpalette(row_palette().getpalette() or [])
    for what, args, at in parts:
        im.paste(_piece_on_palette(what, args), at)
    return im


def _sample_rows() -> Image.Image:
    """Rows that show every race and every power (and coins, and none) one under another:
    every colour and blend a row can be drawn with."""
    races, powers = data.RACES, data.POWERS
    combos = [{"power": powers[i % len(powers)], "race": races[i % len(races)], "cost": i % 6,
               "coins_on_combo": i % 5} for i in range(max(len(races), len(powers)) + 4)]
    rows = [draw_row({"row": combos[k:k + 6]}) for k in range(0, len(combos), 6)]
    im = Image.new("RGB", (WIDTH, sum(r.height for r in rows)))
    y = 0
    for r in rows:
        im.paste(r, (0, y))
        y += r.height
    return im


@lru_cache(maxsize=1)
def row_palette() -> Image.Image:
    """One 256-colour palette for every combo row, made (median cut) from rows showing every
    race and power. Mapping a row to it takes ~1 ms where choosing a palette per picture
    took ~6 ms, and it is closer: mean error 0.11 against 0.93 per channel (128 colours per
    picture). Kept in the render disk cache, by drawing code and fonts."""
    name = (f"row-palette-{source_digest('cards.py', 'theme.py', 'text.py')}"
            f"-{fonts_digest(theme.FONT_DIR)}.rgb")
    flat = read_cache(name)
    if flat is None or len(flat) != 768:
        q = _sample_rows().quantize(256, method=Image.Quantize.MEDIANCUT,
                                    dither=Image.Dither.NONE)
        flat = bytes((q.getpalette() or [])[:768]).ljust(768, b"\0")
        write_cache(name, flat)
    pal = Image.new("P", (1, 1))
    pal.putpalette(list(flat))
    return pal


def row_on_palette(im: Image.Image) -> Image.Image:
    """A drawn combo row on the row palette (see `row_palette`)."""
    return im.convert("RGB").quantize(palette=row_palette(), dither=Image.Dither.NONE)


def _entry(item: object) -> str:
    if isinstance(item, dict):
        return str(item.get("player") or item.get("name"))
    return str(item)


RANK_HEAD, RANK_ROW, RANK_FOOT = 110, 70, 80  # the ranking: title, a row per player, note


def ranking_height(n_players: int) -> int:
    return RANK_HEAD + RANK_ROW * n_players + RANK_FOOT


def draw_ranking(im: Image.Image, ranking: list[str], coins: dict[str, int],
                 on_board: dict[str, int], winners: list[str],
                 colours: dict[str, tuple[int, int, int]], lang: str = "en") -> int:
    """The end of a game at the top of `im`: "Game over", the winner, a row per player
    (place, colour, name, a bar as long as their coins, the coins) and the tie-break note.
    Returns the height drawn (`ranking_height`)."""
    draw = ImageDraw.Draw(im)
    sep = i18n.t("list.sep", lang)
    title = i18n.t("final.winner" if len(winners) == 1 else "final.shared", lang,
                   names=sep.join(winners))
    over = i18n.t("final.title", lang)
    full = WIDTH - 2 * PAD
    text.draw(draw, (PAD, 38), over, size=text.fit(over, 36, full, "serif"), kind="serif",
              fill=theme.INK, anchor="lm")
    text.draw(draw, (PAD, 84), title, size=text.fit(title, 32, full), fill=theme.INK,
              anchor="lm")
    big = theme.font(30, "bold")
    y, rh = RANK_HEAD, RANK_ROW
    best = max(coins.values(), default=0) or 1
    for place, name in enumerate(ranking, start=1):
        cy = y + rh // 2
        if name in winners:
            draw.rounded_rectangle((PAD - 4, y + 4, WIDTH - PAD + 4, y + rh - 4), radius=12,
                                   fill=(250, 236, 190), outline=GOLD, width=3)
        draw.text((PAD + 8, cy), f"{place}.", font=big, fill=theme.INK, anchor="lm")
        sw = sprites.swatch(colours.get(name, (128, 128, 128)), 34)
        im.paste(sw, (PAD + 56, cy - 17), sw)
        bar_x = 420
        text.draw(draw, (PAD + 100, cy), name, size=text.fit(name, 30, bar_x - PAD - 110),
                  fill=theme.INK, anchor="lm")
        c = coins.get(name, 0)
        bar_w = int((WIDTH - PAD - 170 - bar_x) * c / best)
        draw.rounded_rectangle((bar_x, cy - 14, bar_x + max(bar_w, 6), cy + 14), radius=8,
                               fill=GOLD, outline=theme.INK, width=2)
        label = i18n.t("final.coins", lang, n=c)
        lx = bar_x + max(bar_w, 6) + 12
        text.draw(draw, (lx, cy), label, size=text.fit(label, 30, WIDTH - PAD - lx),
                  fill=theme.INK, anchor="lm")
        y += rh
    tied = [p for p in ranking if coins.get(p) == coins.get(ranking[0])]
    if len(tied) > 1:
        note = i18n.t("final.tie", lang, list=sep.join(
            i18n.t("final.tie_item", lang, player=p, n=on_board.get(p, 0)) for p in tied))
    else:
        note = i18n.t("final.tie_rule", lang)
    text.draw(draw, (PAD, y + 34), note, size=text.fit(note, 26, full, "narrow"), kind="narrow",
              fill=(90, 70, 50), anchor="lm")
    return ranking_height(len(ranking))


def draw_final(observation: Observation, regions_by_round: dict[str, list[int]] | None = None,
               lang: str = "en") -> Image.Image:
    """Final coins, ranking, the tie-break note; a regions-held chart if history is given.

    Coins come from the finished game's ranking ({"player", "total", "tokens", "rank"})."""
    players = list(observation["players"])
    colours = seat_colours(observation)
    on_board: dict[str, int] = {p: 0 for p in players}
    for reg in observation.get("regions", {}).values():
        if reg.get("owner") in on_board:
            on_board[reg["owner"]] += reg.get("tokens", 0)
    entries = observation.get("ranking") or []
    coins: dict[str, int] = {}
    for e in entries:
        if isinstance(e, dict):
            coins[_entry(e)] = int(e.get("total") or e.get("coins") or 0)
            if "tokens" in e:
                on_board[_entry(e)] = int(e["tokens"])
    ranking = [_entry(x) for x in entries]
    if not ranking:
        ranking = sorted(players, key=lambda p: (-coins.get(p, 0), -on_board[p]))
    won = observation.get("winners") or observation.get("winner")
    winners = [won] if isinstance(won, str) else [_entry(x) for x in won or []]
    if not winners:
        top = ranking[0]
        winners = [p for p in ranking
                   if coins.get(p) == coins.get(top) and on_board[p] == on_board[top]]
    chart_h = 300 if regions_by_round else 0
    im = Image.new("RGB", (WIDTH, ranking_height(len(ranking)) + chart_h), theme.PARCHMENT)
    y = draw_ranking(im, ranking, coins, on_board, winners, colours, lang)
    if regions_by_round:
        peak = max((max(v) for v in regions_by_round.values() if v), default=1) or 1
        n = max(len(v) for v in regions_by_round.values())
        line_chart(ImageDraw.Draw(im), (PAD, y - 10, WIDTH - PAD, y + chart_h - 20),
                   i18n.t("final.chart", lang), regions_by_round, colours,
                   x_labels={i: str(i + 1) for i in range(n)}, y_top=peak,
                   y_text=lambda v: str(round(v)))
    return im
