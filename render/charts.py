"""Line charts for the cards: one line per player in their seat colour, readable on a phone."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from PIL import ImageDraw

from . import text, theme

Colour = tuple[int, int, int]
LABEL = 24  # axis and value labels (px); the cards are ~1000 px wide, shown ~550 on a phone
MUTED = (90, 70, 50)
GRID = (214, 196, 156)


def _spread(wanted: list[tuple[float, str]], least: float, top: float,
            bottom: float) -> dict[str, float]:
    """Label heights near the wanted ones, at least `least` apart, inside [top, bottom]
    (as far as they fit)."""
    names = [name for _, name in sorted(wanted)]
    heights: list[float] = []
    for y, _ in sorted(wanted):
        y = max(top, min(bottom, y))
        heights.append(max(y, heights[-1] + least) if heights else y)
    overflow = heights[-1] - bottom if heights else 0
    if overflow > 0:  # pushed past the bottom: move the stack up, keeping the gaps
        heights = [max(top, y - overflow) for y in heights]
        for i in range(1, len(heights)):
            heights[i] = max(heights[i], heights[i - 1] + least)
    return dict(zip(names, heights, strict=True))


def line_chart(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], title: str,
               series: Mapping[str, Sequence[float]], colours: Mapping[str, Colour], *,
               x_labels: Mapping[int, str], y_top: float, y_text: Callable[[float], str],
               bold: Collection[str] = (), end_values: bool = False,
               dots: bool = True) -> None:
    """Title, then a chart of `series` (point i at x index i) inside `box`: a y axis from 0
    to `y_top` labelled by `y_text`, the x labels given (index -> text), each player's line
    in their colour on a dark edge (those in `bold` thicker), and with `end_values` each
    line's last value at its end."""
    x0, y0, x1, y1 = box
    size = text.fit(title, 28, x1 - x0)
    text.draw(draw, (x0, y0), title, size=size, fill=theme.INK)
    top, bottom = y0 + 54, y1 - 40
    left = x0 + 8 + max(text.width(y_text(v), LABEL, "narrow") for v in (0, y_top))
    right = x1 - (64 if end_values else 10)
    n = max((len(v) for v in series.values()), default=1)
    span = max(1, n - 1)
    peak = y_top or 1

    def at(i: int, v: float) -> tuple[float, float]:
        return (left + (right - left) * i / span, bottom - (bottom - top) * min(v, peak) / peak)

    for v in (0, y_top / 2, y_top):
        y = at(0, v)[1]
        if v:
            draw.line((left, y, right, y), fill=GRID, width=1)
        text.draw(draw, (left - 8, y), y_text(v), size=LABEL, kind="narrow", fill=theme.INK,
                  anchor="rm")
    draw.line((left, top, left, bottom, right, bottom), fill=theme.INK, width=2)
    for i, label in x_labels.items():
        x = at(i, 0)[0]
        draw.line((x, bottom, x, bottom + 6), fill=theme.INK, width=2)
        text.draw(draw, (x, bottom + 22), label, size=LABEL, kind="narrow", fill=theme.INK,
                  anchor="mm")
    ends: list[tuple[float, str]] = []
    drawn = sorted(series, key=lambda name: name in bold)  # the bold lines last, on top
    for name in drawn:
        values = series[name]
        colour = colours.get(name, (90, 90, 90))
        pts = [at(i, v) for i, v in enumerate(values)]
        width = 7 if name in bold else 4
        if len(pts) > 1:
            draw.line(pts, fill=theme.INK, width=width + 4, joint="curve")
            draw.line(pts, fill=colour, width=width, joint="curve")
        r = 7 if name in bold else 5
        for px, py in pts if dots else pts[-1:]:
            draw.ellipse((px - r, py - r, px + r, py + r), fill=colour, outline=theme.INK,
                         width=2)
        if pts:
            ends.append((pts[-1][1], name))
    if end_values:
        heights = _spread(ends, LABEL + 2, top, bottom)
        for name in drawn:
            if name in heights and series[name]:
                label = y_text(series[name][-1])
                text.draw(draw, (right + 12, heights[name]), label, size=LABEL,
                          kind="bold" if name in bold else "narrow",
                          fill=theme.INK, anchor="lm")
