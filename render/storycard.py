"""The end card of a finished game, and its alt text: how the game went, in one picture.

From the top: the ranking (as the final reveal draws it), each player's coins after every
round as a line chart, one lane per player with the races and powers they played over the
rounds (Active, then in decline) and the regions they held after each round, and, when the
caller passes an evaluation series, each player's chance to win turn by turn. Coins are
read from the story only after the end: an unfinished game's story has none, and both the
card and the alt text refuse it (story.SecretUntilOver).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

import i18n
from engine import data
from story import SecretUntilOver, Stint, Story

from . import text, theme
from .cards import GOLD, PAD, WIDTH, draw_ranking, hue_colour, ranking_height
from .charts import line_chart
from .encode import card_png

COINS_H = 400  # the coins chart
CHANCES_H = 340  # the win-chance chart
LANES_HEAD = 56  # the lanes' title and round numbers
LANE_H = 114  # a player's lane: Active races, races in decline, regions held
NAME_W = 176  # the names' column left of the lanes
ACTIVE_H, DECLINE_H = 44, 26
LEAST = 18  # no word on the card is drawn smaller than this (px)

Chances = Sequence[Mapping[str, float]]


def _colours(story: Story) -> dict[str, tuple[int, int, int]]:
    return {name: theme.player_colour(i) for i, name in enumerate(story.players)}


def check_chances(story: Story, chances: Chances) -> list[dict[str, float]]:
    """An evaluation series as the card draws it: one {player: chance to win, 0..1} per
    turn, every player of the game in each. Anything else is refused (ValueError)."""
    if not isinstance(chances, Sequence) or isinstance(chances, str | bytes) or not chances:
        raise ValueError("the win chances must be a list with one entry per turn")
    out = []
    for i, entry in enumerate(chances, start=1):
        if not isinstance(entry, Mapping) or set(entry) != set(story.players):
            raise ValueError(f"win chances, turn {i}: give one value for each player "
                             f"({', '.join(story.players)})")
        row = {}
        for name, value in entry.items():
            if isinstance(value, bool) or not isinstance(value, int | float) or \
                    not math.isfinite(value) or not 0 <= value <= 1:
                raise ValueError(f"win chances, turn {i}: {name}'s chance must be a number "
                                 "from 0 to 1")
            row[str(name)] = float(value)
        out.append(row)
    return out


def _stint_label(stint: Stint, room: float, lang: str) -> tuple[str, int]:
    """The longest of "power race", race, short race that fits `room` at LEAST px or more."""
    combo = i18n.t("combo", lang, power=stint.power, race=stint.race) if stint.power else \
        i18n.name("race", stint.race, lang)
    for label in (combo, i18n.name("race", stint.race, lang), theme.abbr(stint.race, lang)):
        size = text.fit(label, 24, room, "narrow")
        if size >= LEAST and text.width(label, size, "narrow") <= room:
            return label, size
    return "", 0


def _lanes(im: Image.Image, top: int, story: Story, lang: str) -> int:
    """A lane per player: their combos as bars over the rounds they were Active, a thin
    grey bar while in decline, and under each round the regions they held after it."""
    draw = ImageDraw.Draw(im)
    colours = _colours(story)
    rounds = max(1, story.rounds_played)
    left, right = PAD + NAME_W, WIDTH - PAD
    col = (right - left) / rounds
    title = i18n.t("story.races", lang)
    text.draw(draw, (PAD, top + 4), title, size=text.fit(title, 28, WIDTH - 2 * PAD),
              fill=theme.INK)
    y = top + LANES_HEAD
    for r in range(1, rounds + 1):
        text.draw(draw, (left + col * (r - 0.5), y - 2), str(r), size=24, kind="narrow",
                  fill=(90, 70, 50), anchor="ms")
    winners = set(story.winners)
    for name in story.players:
        colour = colours[name]
        draw.line((PAD, y, right, y), fill=theme.PARCHMENT_DARK, width=2)
        if name in winners:  # framed in gold, as in the ranking
            draw.rounded_rectangle((PAD - 4, y + 3, right + 4, y + LANE_H - 3), radius=12,
                                   fill=(250, 236, 190), outline=GOLD, width=3)
        draw.rounded_rectangle((PAD, y + 14, PAD + 12, y + LANE_H - 14), radius=5, fill=colour,
                               outline=theme.INK, width=2)
        text.draw(draw, (PAD + 22, y + LANE_H // 2), name,
                  size=text.fit(name, 26, NAME_W - 30), fill=theme.INK, anchor="lm")
        for stint in story.stints.get(name, ()):
            last = stint.declined or rounds
            x0, x1 = left + col * (stint.picked - 1) + 3, left + col * last - 3
            fill = hue_colour(stint.race, data.RACES, 0.45, 0.8)
            draw.rounded_rectangle((x0, y + 8, x1, y + 8 + ACTIVE_H), radius=10, fill=fill,
                                   outline=theme.INK, width=2)
            label, size = _stint_label(stint, x1 - x0 - 16, lang)
            if label:
                text.draw(draw, (x0 + 8, y + 8 + ACTIVE_H // 2), label, size=size,
                          kind="narrow", fill=theme.text_on(fill), anchor="lm")
            if stint.declined is not None:  # in decline until the round it left the map
                gone = rounds if stint.gone is None else max(stint.declined, stint.gone - 1)
                d0, d1 = left + col * (stint.declined - 1) + 3, left + col * gone - 3
                dy = y + 12 + ACTIVE_H
                draw.rounded_rectangle((d0, dy, d1, dy + DECLINE_H), radius=8,
                                       fill=theme.DECLINE_FILL, outline=theme.INK, width=1)
                short = theme.abbr(stint.race, lang)
                if text.width(short, LEAST, "narrow") <= d1 - d0 - 8:
                    text.draw(draw, ((d0 + d1) / 2, dy + DECLINE_H / 2), short, size=LEAST,
                              kind="narrow", fill=theme.INK, anchor="mm")
        held = story.regions.get(name, ())
        for r, n in enumerate(held[:rounds], start=1):
            text.draw(draw, (left + col * (r - 0.5), y + LANE_H - 8), str(n), size=24,
                      kind="bold", fill=theme.INK, anchor="ms")
        y += LANE_H
    draw.line((PAD, y, right, y), fill=theme.PARCHMENT_DARK, width=2)
    return y + 16 - top


def _chances(im: Image.Image, top: int, story: Story, chances: list[dict[str, float]],
             lang: str) -> None:
    """Each player's chance to win after every turn, with the rounds marked under it."""
    series = {name: [row[name] * 100 for row in chances] for name in story.players}
    frames = story.frames
    marks: dict[int, str] = {}
    if len(chances) == len(frames):  # a value per turn: mark where each round begins
        for i, frame in enumerate(frames):
            if i == 0 or frames[i - 1].round != frame.round:
                marks[i] = str(frame.round)
    else:
        marks = {0: "1", len(chances) - 1: str(len(chances))}
    line_chart(ImageDraw.Draw(im), (PAD, top, WIDTH - PAD, top + CHANCES_H - 10),
               i18n.t("story.chances", lang), series, _colours(story), x_labels=marks,
               y_top=100, y_text=lambda v: f"{v:.0f}%", bold=story.winners,
               end_values=True, dots=len(chances) <= 12)


def draw_end_card(story: Story, lang: str = "en",
                  chances: Chances | None = None) -> Image.Image:
    """The end card of a finished game (RGB); `chances`: see check_chances."""
    if not story.finished:
        raise SecretUntilOver("the end card shows coins: only once the game is over")
    checked = check_chances(story, chances) if chances is not None else None
    ranking = [p.player for p in story.ranking]
    coins = {p.player: p.coins for p in story.ranking}
    tokens = {p.player: p.tokens for p in story.ranking}
    winners = list(story.winners)
    colours = _colours(story)
    n = len(story.players)
    lanes_h = LANES_HEAD + LANE_H * n + 16
    height = (ranking_height(n) + COINS_H + lanes_h + (CHANCES_H if checked else 0) + PAD)
    im = Image.new("RGB", (WIDTH, height), theme.PARCHMENT)
    y = draw_ranking(im, ranking, coins, tokens, winners, colours, lang)
    series = {name: [story.start_coins, *story.coins[name]] for name in story.players}
    peak = max((max(v) for v in series.values()), default=1)
    y_top = 10 * math.ceil(max(1, peak) / 10)
    line_chart(ImageDraw.Draw(im), (PAD, y, WIDTH - PAD, y + COINS_H - 10),
               i18n.t("story.coins", lang), series, colours,
               x_labels={i: str(i) for i in range(len(series[ranking[0]]))}, y_top=y_top,
               y_text=lambda v: str(round(v)), bold=winners, end_values=True)
    y += COINS_H
    y += _lanes(im, y, story, lang)
    if checked:
        _chances(im, y, story, checked, lang)
    return im


def end_card_png(story: Story, lang: str = "en", chances: Chances | None = None) -> bytes:
    """The end card as a small palette PNG (see draw_end_card)."""
    return card_png(draw_end_card(story, lang, chances))


def _stints_text(stints: Sequence[Stint], last: int, lang: str) -> str:
    if not stints:
        return i18n.t("story.alt.no_race", lang)
    parts = []
    for stint in stints:
        combo = i18n.t("combo", lang, power=stint.power, race=stint.race) if stint.power \
            else i18n.name("race", stint.race, lang)
        end = stint.declined or last
        key = "story.alt.stint_one" if end == stint.picked else "story.alt.stint"
        parts.append(i18n.t(key, lang, combo=combo, first=stint.picked, last=end))
    return i18n.t("list.sep", lang).join(parts)


def end_card_alt(story: Story, lang: str = "en") -> str:
    """The end card's alt text: one sentence per player, in the order of the ranking."""
    if not story.finished:
        raise SecretUntilOver("the end card's story tells coins: only once the game is over")
    last = max(1, story.rounds_played)
    sentences = []
    for placing in story.ranking:
        name = placing.player
        held = story.regions.get(name, ())
        most = max(held, default=0)
        peak = (i18n.t("story.alt.peak", lang, n=most, round=held.index(most) + 1) if most
                else i18n.t("story.alt.no_region", lang))
        key = "story.alt.won" if placing.rank == 1 else "story.alt.placed"
        sentences.append(i18n.t(key, lang, player=name, rank=placing.rank, coins=placing.coins,
                                stints=_stints_text(story.stints.get(name, ()), last, lang),
                                peak=peak))
    return " ".join(sentences)
