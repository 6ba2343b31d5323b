"""The animated replay: one frame per posted turn map, each frame that map pixel for pixel
(with the caption strip cropped), in the game's language, small enough for Discord; and the
APNG writer under it."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

import engine
import i18n
import render
import story
from render import apng, encode, replay
from render.mapview import shown_on_map


def _decoded(png: bytes) -> list[Image.Image]:
    im = Image.open(io.BytesIO(png))
    out = []
    for k in range(im.n_frames):
        im.seek(k)
        out.append(im.convert("RGBA"))
    return out


def _posted_map(tale: story.Story, k: int, lang: str = "en") -> Image.Image:
    """The map the bot posts after frame k's turn, through render's normal map path (the
    bot's worker: render.observation_png of the public observation's map fields)."""
    frame = tale.frames[k]
    png = render.observation_png(tale.board, shown_on_map(frame.observation),
                                 highlight=frame.highlight, lang=lang)
    return Image.open(io.BytesIO(png)).convert("RGBA")


def _same(a: Image.Image, b: Image.Image) -> bool:
    """Pixel for pixel (RGBA: every channel; Pillow's getbbox of an RGBA image would look
    at the alpha channel alone)."""
    return a.size == b.size and ImageChops.difference(a, b).getbbox(alpha_only=False) is None


@pytest.mark.parametrize("board_id", engine.data.BOARD_IDS)
def test_the_replay_is_the_turn_maps_with_a_caption(board_id, game_log) -> None:
    tale = story.tell(*game_log(board_id))
    png = replay.replay_png(tale)
    frames = _decoded(png)
    assert len(frames) == len(tale.frames)
    # every frame on the smallest board, a sample elsewhere (the first, some, the last)
    n = len(frames)
    picked = range(n) if board_id == "official-2p" else sorted({0, 1, n // 2, n - 2, n - 1})
    for k in picked:
        shown = _posted_map(tale, k)
        got = frames[k]
        assert got.getextrema()[3] == (255, 255)  # every pixel opaque: nothing left out
        assert _same(got.crop((0, 0, shown.width, shown.height)), shown), k
        assert got.height == shown.height + replay.CAPTION_H
    info = Image.open(io.BytesIO(png)).info
    assert info.get("loop") == 0


def test_frames_are_shown_a_while_and_the_last_longer(game_log) -> None:
    tale = story.tell(*game_log("official-2p"))
    im = Image.open(io.BytesIO(replay.replay_png(tale)))
    durations = []
    for k in range(im.n_frames):
        im.seek(k)
        durations.append(im.info["duration"])
    assert durations == [replay.FRAME_MS] * (len(durations) - 1) + [replay.LAST_MS]
    # this game ended when the last turn's survivors were placed: the bot posted one more
    # map then, and the replay's last frame is that map
    assert tale.frames[-1].player is None and tale.frames[-2].player is not None
    assert replay.caption(tale.frames[-1]) == "Round 10 · the game is over"


def test_a_five_player_replay_fits_discord(game_log) -> None:
    tale = story.tell(*game_log("official-5p"))
    png = replay.replay_png(tale)
    assert len(png) <= 8 * 1024 * 1024
    assert Image.open(io.BytesIO(png)).width >= 1000


def test_captions_say_what_each_turn_did(game_log, drawn_strings) -> None:
    tale = story.tell(*game_log("official-3p"))
    texts = [replay.caption(f) for f in tale.frames]
    first = tale.frames[0]
    picked = next(d for d in first.deeds if d.kind == "picked")
    assert texts[0].startswith(f"Round 1 · {first.player}: picked ")
    assert i18n.t("combo", "en", power=picked.power, race=picked.race) in texts[0]
    for frame, said in zip(tale.frames, texts, strict=True):
        n = sum(d.n for d in frame.deeds if d.kind == "conquered")
        if n:
            assert f"conquered {n} region" in said
        if any(d.kind == "declined" for d in frame.deeds):
            assert "in decline" in said
    replay.replay_png(tale)
    assert texts[5] in drawn_strings and f"6 / {len(tale.frames)}" in drawn_strings


@pytest.mark.parametrize("lang", ["hu", "th", "is"])
def test_the_replay_speaks_the_games_language(lang, game_log, drawn_strings) -> None:
    tale = story.tell(*game_log("official-2p"))
    png = replay.replay_png(tale, lang)
    drawn = "".join(drawn_strings)  # (a line in two scripts is drawn as runs, one a font)
    assert replay.caption(tale.frames[3], lang) in drawn
    assert replay.caption(tale.frames[3], "en") not in drawn
    assert not [s for s in drawn_strings if s.startswith("Round ")]
    k = 7  # and the map in it is the map posted in that language
    shown = _posted_map(tale, k, lang)
    assert _same(_decoded(png)[k].crop((0, 0, shown.width, shown.height)), shown)
    assert replay.replay_alt(tale, lang) == i18n.t("story.alt.replay", lang,
                                                    n=len(tale.frames))


def test_no_replay_before_the_end(game_log) -> None:
    tale = story.tell(*game_log("official-2p", stop=50))
    with pytest.raises(story.SecretUntilOver):
        replay.replay_png(tale)


def test_a_palette_with_no_spare_colour_still_replays_right(game_log, monkeypatch) -> None:
    """When the index chosen as transparent turns out to be shown (here: forced to one the
    board uses), the replay is written again with whole rectangles, and is still right."""
    tale = story.tell(*game_log("official-2p"))
    used = Image.open(io.BytesIO(render.observation_png(
        tale.board, shown_on_map(tale.frames[0].observation)))).getpixel((5, 5))
    monkeypatch.setattr(replay, "unused_index", lambda palette: used)
    png = replay.replay_png(tale)
    assert b"tRNS" not in png
    frames = _decoded(png)
    for k in (0, 1, len(frames) - 1):
        shown = _posted_map(tale, k)
        assert _same(frames[k].crop((0, 0, shown.width, shown.height)), shown)


# -- the APNG writer -----------------------------------------------------------------------

def _palette() -> bytes:
    rng = random.Random(3)
    colours = [bytes(rng.randrange(256) for _ in range(3)) for _ in range(250)]
    return b"".join(colours) + colours[7] * 6  # 250..255 repeat colour 7: never picked


def _frames(n: int = 6) -> list[list[Image.Image]]:
    """Frames of two parts on _palette(): noise that changes in a few boxes each time."""
    rng = random.Random(5)
    top = Image.frombytes("P", (120, 90), bytes(rng.randrange(240) for _ in range(120 * 90)))
    bottom = Image.new("P", (120, 20), 3)
    out = []
    for k in range(n):
        top, bottom = top.copy(), bottom.copy()
        for _ in range(k % 3 + 1):  # a few boxes change, one frame changes nothing
            if k == 3:
                break
            x, y = rng.randrange(110), rng.randrange(80)
            top.paste(rng.randrange(240), (x, y, x + rng.randrange(1, 10), y + 10))
        bottom.paste(k, (0, 0, 10 * k + 1, 20))
        out.append([top, bottom])
    return out


def _as_rgb(parts: list[Image.Image], palette: bytes) -> Image.Image:
    whole = Image.new("P", (parts[0].width, sum(p.height for p in parts)))
    y = 0
    for p in parts:
        whole.paste(p, (0, y))
        y += p.height
    whole.putpalette(palette)
    return whole.convert("RGBA")


@pytest.mark.parametrize("transparent", [None, 255])
@pytest.mark.parametrize("told", [False, True])
def test_the_writer_decodes_to_its_frames(transparent, told) -> None:
    palette = _palette()
    frames = _frames()
    boxes = []
    for before, now in zip(frames, frames[1:], strict=False):  # the changes, as a caller would
        diff = [ImageChops.difference(a, b).getbbox() for a, b in zip(before, now, strict=True)]
        boxes.append([b for b in ([diff[0]] if diff[0] else [])] +
                     ([(diff[1][0], 90 + diff[1][1], diff[1][2], 90 + diff[1][3])]
                      if diff[1] else []))
    png = apng.animated_png(
        ((parts, 100 * (k + 1), (boxes[k - 1] if told and k else None))
         for k, parts in enumerate(frames)), (120, 110), palette, len(frames), transparent)
    assert (b"tRNS" in png) == (transparent is not None)
    decoded = _decoded(png)
    assert len(decoded) == len(frames)
    for parts, got in zip(frames, decoded, strict=True):
        assert _same(got, _as_rgb(parts, palette))
    assert apng.unused_index(palette) == 255


def test_the_writer_refuses_what_it_cannot_write() -> None:
    palette = _palette()
    frames = _frames(2)
    writer = apng.AnimatedPng((120, 110), palette, 2, 255)
    with pytest.raises(ValueError, match="8-bit parts of one mode, 120 wide"):
        writer.add([frames[0][0]], 100)
    with pytest.raises(ValueError, match="8-bit parts of one mode"):
        writer.add([frames[0][0], frames[0][1].convert("L")], 100)
    shows = frames[0][0].copy()
    shows.putpixel((3, 3), 255)
    with pytest.raises(apng.IndexInUse):
        writer.add([shows, frames[0][1]], 100)
    writer = apng.AnimatedPng((120, 110), palette, 2, 255)
    writer.add(frames[0], 100)
    with pytest.raises(ValueError, match="1 frames added of the 2 announced"):
        writer.finish()
    writer.add(frames[1], 100)
    with pytest.raises(ValueError, match="this animation has 2 frames"):
        writer.add(frames[1], 100)
    assert writer.finish().startswith(apng.SIGNATURE)


def test_the_first_frame_reuses_the_maps_bands(game_log) -> None:
    """The first frame is stored in the maps' bands: a process that drew that map before
    compresses only the bands under it that the caption strip changed."""
    tale = story.tell(*game_log("official-2p"))
    with encode.no_bands_kept():
        render.observation_png(tale.board, shown_on_map(tale.frames[0].observation),
                               highlight=tale.frames[0].highlight)
        before = encode.bands_kept()
        shown, strip = replay.frame_image(tale, 0)
        writer = apng.AnimatedPng((shown.width, shown.height + strip.height),
                                  bytes(encode.palette("official-2p").getpalette() or []),
                                  1, None)
        writer.add([shown, strip], 100)
        new = encode.bands_kept() - before
    assert 0 < new <= -(-replay.CAPTION_H // encode.BAND_ROWS) + 1


def test_the_replay_in_steps_is_one_frame_a_step_then_the_same_picture(game_log) -> None:
    """The same frames, pixel for pixel. Not compared byte for byte: ISA-L's deflate (used
    where installed) does not always give the same bytes for the same rows (a clean-clone CI
    run saw two encodings of this replay differ)."""
    tale = story.tell(*game_log("official-2p"))
    steps = list(replay.replay_steps(tale))
    assert steps[:-1] == [None] * len(tale.frames)
    done = steps[-1]
    assert isinstance(done, bytes)
    stepped, whole = _decoded(done), _decoded(replay.replay_png(tale))
    assert len(stepped) == len(whole) == len(tale.frames)
    assert all(_same(a, b) for a, b in zip(stepped, whole, strict=True))
