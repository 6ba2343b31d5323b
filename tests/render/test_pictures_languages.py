"""Pictures in every language: raqm shaping for Thai, no missing-glyph boxes, labels that
fit their boxes on every board in every language (measured with the real fonts)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont, features

import engine
import i18n
import render
from engine import data
from render import cards, mapview, sprites, text
from render.static import map_layer

FINAL = {
    "players": {"ann": {}, "bob": {}, "cid": {}},
    "regions": {"1": {"owner": "ann", "race": "Orcs", "tokens": 4}},
    "finished": True,
    "ranking": [{"player": "ann", "total": 30, "tokens": 4, "rank": 1},
                {"player": "bob", "total": 30, "tokens": 2, "rank": 2},
                {"player": "cid", "total": 12, "tokens": 7, "rank": 3}],
    "winners": ["ann"],
}
LEAST = 14  # no label is shrunk below this many pixels to fit


def _drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, str]]:
    """Record every string render.text.draws: (text, size, kind)."""
    seen: list[tuple[str, int, str]] = []
    real = text.draw

    def spy(d, xy, s, *, size, kind="bold", **k):
        seen.append((s, size, kind))
        return real(d, xy, s, size=size, kind=kind, **k)

    monkeypatch.setattr(text, "draw", spy)
    mapview.legend.cache_clear()  # cached pictures would hide their words from the spy
    mapview.clear_strips()
    cards.clear_pieces()
    sprites.clear_markers()
    return seen


def _blank(word: str, size: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    im = Image.new("L", (int(size * (len(word) + 2)), size * 3), 0)
    return im, ImageDraw.Draw(im)


def test_raqm_is_available() -> None:
    assert features.check("raqm"), text.RAQM_MISSING
    text.require_raqm()


def test_thai_map_and_row_are_shaped_like_raqm(monkeypatch: pytest.MonkeyPatch,
                                               scenario_of) -> None:
    state = engine.load_scenario(scenario_of("official-4p"))
    seen = _drawn(monkeypatch)
    render.row_png(state, lang="th")
    render.map_png(state, lang="th")
    thai = {(s, size, kind) for s, size, kind in seen if any("\u0e00" <= c <= "\u0e7f" for c in s)
            and all("\u0e00" <= c <= "\u0e7f" for c in s)}
    drawn_words = {s for s, _, _ in thai}
    assert "ทนทาน" in drawn_words or any(i18n.name("race", r, "th") in drawn_words
                                          for r in data.RACES)
    assert len(thai) >= 5
    differs_from_basic = False
    for word, size, kind in sorted(thai):
        file = str(text.FONT_DIR / "NotoSansThai-Bold.ttf")
        ours, d = _blank(word, size)
        text.draw(d, (size, size), word, size=size, kind=kind, fill=255)
        direct, d = _blank(word, size)
        raqm = ImageFont.truetype(file, size, layout_engine=ImageFont.Layout.RAQM)
        d.text((size, size), word, font=raqm, fill=255)
        assert ImageChops.difference(ours, direct).getbbox() is None, word
        plain, d = _blank(word, size)
        basic = ImageFont.truetype(file, size, layout_engine=ImageFont.Layout.BASIC)
        d.text((size, size), word, font=basic, fill=255)
        differs_from_basic |= ImageChops.difference(ours, plain).getbbox() is not None
    assert differs_from_basic, "no drawn Thai word needed shaping"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_no_missing_glyphs_in_any_language(lang: str, monkeypatch: pytest.MonkeyPatch,
                                           scenario_of) -> None:
    for key, message in i18n.catalog(lang).items():
        for kind in text.CHAINS:
            assert text.has_glyphs(message, kind), (lang, key, kind)
    seen = _drawn(monkeypatch)
    state = engine.load_scenario(scenario_of("official-5p"))
    render.map_png(state, lang=lang, viewer=state.players[0])
    render.row_png(state, lang=lang)
    cards.draw_final(FINAL, {"ann": [1, 2], "bob": [2, 3], "cid": [1, 1]}, lang)
    assert len(seen) > 30
    for s, _, kind in seen:
        assert text.has_glyphs(s, kind), (lang, s)


def test_other_scripts_and_emoji_fall_back_instead_of_boxes() -> None:
    name = "Zoë Ωμέγα Жора ♞ 🐉 漢"
    for kind in text.CHAINS:
        parts = text.runs(name, kind)
        for index, run in parts:
            file = text.CHAINS[kind][index]
            for ch in run:
                if ch != " ":
                    assert ord(ch) in text.coverage(file), (kind, ch, file)
        joined = "".join(r for _, r in parts)
        assert "Ω" in joined and "Ж" in joined and "♞" in joined
        assert "🐉" not in joined and text.REPLACEMENT in joined  # shown as U+FFFD, not a box


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_labels_fit_their_boxes_on_every_board(lang: str) -> None:
    """Markers: no tag wider than the widest English one of the same count (the layout's
    design); legend words in their cells and the panel's lines in the map's width."""
    english = [i18n.t(f"abbr.{r}", "en") for r in data.RACES]
    labels = [i18n.t(f"abbr.{r}", lang) for r in data.RACES] + [i18n.t("map.tribe", lang)]
    room = sprites.label_room()
    for label in labels:
        size = text.fit(label, sprites.LABEL_SIZE * sprites.SS, room * sprites.SS, "narrow")
        assert size >= LEAST * sprites.SS, (lang, label)
        assert text.width(label, size, "narrow") / sprites.SS <= room, (lang, label)
        for count in (0, 9, 20):
            widest = max(sprites.marker(count, e, (200, 100, 50)).width for e in english)
            tag = sprites.marker(count, label, (200, 100, 50))
            assert tag.width <= widest, (lang, label, tag.width)
    for board in data.BOARD_IDS:
        width = map_layer(board).width
        room = mapview.legend_cell(width)
        for kind in mapview.LEGEND:
            word = i18n.t(f"legend.{kind}", lang)
            size = text.fit(word, mapview.LEGEND_SIZE, room, "narrow")
            assert size >= LEAST and text.width(word, size, "narrow") <= room, (board, word)
        longest_combo = max((i18n.t("combo", lang, power=p, race=r)
                             for p in data.POWERS for r in data.RACES),
                            key=lambda c: text.width(c, 22, "narrow"))
        line = i18n.t("map.active", lang, combo=longest_combo, on_map=20, hand=18)
        x2 = mapview.MARGIN + 50 + text.width("Wolfgang_1234", 26) + 18
        room = width - mapview.MARGIN - x2
        size = text.fit(line, 22, room, "narrow")
        assert size >= LEAST and text.width(line, size, "narrow") <= room, (board, line)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_combo_fits_the_row(lang: str) -> None:
    room = cards.WIDTH - cards.PAD - cards.COST_COLUMN - (cards.PAD + 72) - 16 - 12
    for p in data.POWERS:
        for r in data.RACES:
            power, race = i18n.name("power", p, lang), i18n.name("race", r, lang)
            size, _ = cards.combo_sizes(power, race, 20, lang)
            used = (text.width(power, size) + 30 + text.width(race, size) + 32
                    + text.width(i18n.t("row.tokens", lang, n=20), size))
            assert size >= 16 and used <= room, (lang, power, race)
    col = cards.COST_COLUMN - 12
    for key, kind, start in (("row.no_coins", "narrow", 26), ("row.title", "serif", 32)):
        word = i18n.t(key, lang)
        box = col if key != "row.title" else cards.WIDTH - 2 * cards.PAD
        size = text.fit(word, start, box, kind)
        assert size >= LEAST and text.width(word, size, kind) <= box, (lang, key)
    cost = i18n.t("row.cost", lang, cost=5)
    assert text.width(cost, text.fit(cost, 28, col)) <= col


@pytest.mark.parametrize("lang", ["th", "hu", "is"])
def test_pictures_speak_the_language(lang: str, monkeypatch: pytest.MonkeyPatch,
                                     scenario_of) -> None:
    seen = _drawn(monkeypatch)
    state = engine.load_scenario(scenario_of("official-3p"))
    render.map_png(state, lang=lang)
    render.row_png(state, lang=lang)
    cards.draw_final(FINAL, {"ann": [1], "bob": [2], "cid": [3]}, lang)
    words = {s for s, _, _ in seen}
    for key in ("row.title", "final.title", "final.chart", "legend.mountain", "map.tribe"):
        assert i18n.t(key, lang) in words, key
    assert i18n.t("final.coins", lang, n=30) in words
    assert not words & {"Combos on offer (pick by slot)", "Game over", "Tribe", "mountain"}


def _standings_lines(n: int = 3):
    from render.standings import StandingsLine

    return [StandingsLine(i, name, 4, 2, "1.5", 1.75, "18", 21.4 - i, 0.8 * (-1) ** i,
                          (20.0, 21.0, 21.4 - i), away=i == 3)
            for i, name in enumerate(["Somchai", "Eszter", "Þórdís"][:n], 1)]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_standings_picture_in_every_language(lang: str, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    """The league table: every word drawn has its glyphs, every column heading fits its
    column at a readable size, and the words are the language's own."""
    from render import standings

    seen = _drawn(monkeypatch)
    title = i18n.t("league.pic.title", lang, league="Péntek Liga")
    subtitle = i18n.t("league.pic.subtitle", lang, season="Tavasz",
                      state=i18n.t("league.state.running", lang),
                      rounds=i18n.t("league.pic.rounds", lang, n=2, planned=3), games=5)
    im = standings.draw_standings(title, subtitle, _standings_lines(), i18n.t(
        "league.pic.footer", lang), lang)
    empty = standings.draw_standings(title, subtitle, [], "", lang)
    assert im.width == empty.width == cards.WIDTH
    drawn = {s for s, _, _ in seen}
    assert title in drawn and subtitle in drawn
    assert i18n.t("league.pic.nobody", lang) in drawn
    for s, _, kind in seen:
        assert text.has_glyphs(s, kind), (lang, s)
    for col, (word, size) in standings.headings(lang).items():
        assert word in drawn, (lang, col)
        assert size >= standings.LEAST, (lang, word, size)
        assert text.width(word, size, "narrow") <= standings.heading_room(col), (lang, word)
    if lang != "en":
        assert i18n.t("league.pic.player", lang) != i18n.t("league.pic.player", "en")


def test_thai_standings_words_are_shaped_like_raqm(monkeypatch: pytest.MonkeyPatch) -> None:
    from render import standings

    seen = _drawn(monkeypatch)
    standings.draw_standings(i18n.t("league.pic.title", "th", league="ลีก"), "ฤดูร้อน",
                             _standings_lines(), i18n.t("league.pic.footer", "th"), "th")
    thai = {(s, size, kind) for s, size, kind in seen
            if s and all("\u0e00" <= c <= "\u0e7f" for c in s)}
    assert {i18n.t("league.pic.trend", "th"), i18n.t("league.pic.rating", "th")} <= {
        s for s, _, _ in thai}
    for word, size, kind in sorted(thai):
        file = str(text.FONT_DIR / text.CHAINS[kind][text.runs(word, kind)[0][0]])
        ours, d = _blank(word, size)
        text.draw(d, (size, size), word, size=size, kind=kind, fill=255)
        direct, d = _blank(word, size)
        raqm = ImageFont.truetype(file, size, layout_engine=ImageFont.Layout.RAQM)
        d.text((size, size), word, font=raqm, fill=255)
        assert ImageChops.difference(ours, direct).getbbox() is None, word
