"""Tokens, decline, lost tribes, pieces and highlights reach the picture."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engine import data
from render import sprites, static, theme
from render.mapview import draw_map

BOARD = "official-2p"


def _obs(regions: dict) -> dict:
    return {
        "board": BOARD, "round": 3, "rounds": 10, "current": "ann", "stage": "conquest",
        "finished": False, "row": [],
        "players": {
            "ann": {"hand": 2, "active": {"race": "Trolls", "power": "Fortified",
                                          "tokens_on_board": 5},
                    "decline": [{"race": "Elves", "power": "Forest", "tokens_on_board": 2}]},
            "bob": {"hand": 0, "active": {"race": "Halflings", "power": "Heroic",
                                          "tokens_on_board": 4}, "decline": []},
        },
        "regions": regions,
    }


def _map(regions: dict, highlight=()) -> Image.Image:
    return draw_map(data.board(BOARD), _obs(regions), highlight=highlight)


def _box(xy, sprite: Image.Image) -> tuple[int, int, int, int]:
    x, y = xy
    return (int(x - sprite.width / 2), int(y - sprite.height / 2),
            int(x + sprite.width / 2), int(y + sprite.height / 2))


def _colours(im: Image.Image, box) -> set[tuple[int, int, int]]:
    return {c for _, c in im.crop(box).getcolors(1 << 16)}


def _near(colours, target, tol=12) -> bool:
    return any(all(abs(a - b) <= tol for a, b in zip(c, target, strict=True)) for c in colours)


def test_marker_in_owner_colour_and_decline_greyed() -> None:
    empty = _map({})
    im = _map({
        "5": {"owner": "ann", "race": "Trolls", "tokens": 3, "decline": False, "pieces": []},
        "9": {"owner": "ann", "race": "Elves", "tokens": 2, "decline": True, "pieces": []},
    })
    spots = static.layout(BOARD)
    active_box = _box(spots[5].marker, sprites.marker(3, "Tro", theme.player_colour(0)))
    decline_box = _box(spots[9].marker, sprites.marker(2, "Elf", theme.player_colour(0),
                                                         decline=True))
    assert ImageChops.difference(im, empty).getbbox() is not None
    active = _colours(im, active_box)
    assert _near(active, theme.player_colour(0), 2)
    declined = _colours(im, decline_box)
    assert _near(declined, theme.DECLINE_FILL, 6)
    # the decline tag is mostly grey, the active one mostly owner colour
    def share(box, colour):
        crop = im.crop(box)
        n = sum(cnt for cnt, c in crop.getcolors(1 << 16) if _near([c], colour, 30))
        return n / (crop.width * crop.height)
    assert share(active_box, theme.player_colour(0)) > 0.4
    assert share(decline_box, theme.DECLINE_FILL) > 0.2
    assert share(decline_box, theme.player_colour(0)) < 0.4


def test_each_piece_and_lost_tribe_is_drawn() -> None:
    spots = static.layout(BOARD)
    empty = _map({})
    for kind in data.PIECES:
        im = _map({"7": {"owner": "bob", "race": "Halflings", "tokens": 1, "decline": False,
                         "pieces": [kind]}})
        box = _box(spots[7].pieces[0], sprites.piece(kind))
        diff = ImageChops.difference(im.crop(box), empty.crop(box)).getbbox()
        assert diff is not None, kind
    im = _map({"4": {"lost_tribe": True}})
    box = _box(spots[4].marker, sprites.marker(0, "Tribe", theme.LOST_TRIBE))
    assert _near(_colours(im, box), theme.LOST_TRIBE, 4)


def test_pieces_look_different_and_counts_are_written() -> None:
    shots = [sprites.piece(k).tobytes() for k in data.PIECES]
    assert len(set(shots)) == len(data.PIECES)
    assert sprites.piece("encampment", 3).width > sprites.piece("encampment").width


def test_highlight_outlines_the_region() -> None:
    plain = _map({})
    lit = _map({}, highlight=[6])
    box = ImageChops.difference(plain, lit).getbbox()
    assert box is not None
    from render.masks import region_mask

    (ox, oy), mask = region_mask(BOARD, 6)
    assert ox <= box[0] and oy <= box[1]
    assert box[2] <= ox + mask.width and box[3] <= oy + mask.height
    assert _near(_colours(lit, box), theme.HIGHLIGHT, 0)


def test_highlight_masks_are_the_square_erosions_they_stand_for() -> None:
    """The cached ring and edge are built from repeated 3x3 minimum filters: they must equal
    the 11x11 and 5x5 erosions they replace, for regions of every shape on every board."""
    from PIL import ImageFilter

    from render.geometry import board_key
    from render.masks import highlight_masks, region_mask

    for board_id in data.BOARD_IDS:
        key = board_key(data.board(board_id))
        for rid in range(0, len(data.board(board_id).regions), 5):
            offset, mask = region_mask(key, rid)
            ring = ImageChops.subtract(mask, mask.filter(ImageFilter.MinFilter(11)))
            core = ImageChops.subtract(mask, mask.filter(ImageFilter.MinFilter(5)))
            got_offset, got_ring, got_edge = highlight_masks(key, rid)
            assert got_offset == offset
            assert got_ring.tobytes() == ring.tobytes()
            assert got_edge.tobytes() == ImageChops.subtract(ring, core).tobytes()
            assert got_edge.getbbox() is not None  # the edge is not empty


def test_warm_with_highlights_prepares_every_region_of_the_boards_it_is_given() -> None:
    import render
    from render.masks import board_masks

    board_masks.cache_clear()
    render.warm(["official-2p"], highlights=True)
    assert sorted(board_masks("official-2p")) == list(range(len(data.board("official-2p")
                                                                .regions)))
    assert board_masks.cache_info().currsize == 1
    render.warm(["official-3p"])  # without: no mask is made
    assert board_masks.cache_info().currsize == 1


def test_highlight_masks_are_read_back_from_the_disk_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A board's masks are made once and kept on disk: a process that finds them there
    reads the same masks back without eroding a region; a damaged file is made again."""
    from render import masks

    monkeypatch.setenv("SMALLWORLD_RENDER_CACHE", str(tmp_path))
    masks.board_masks.cache_clear()
    made = masks.board_masks("official-2p")
    (kept,) = tmp_path.glob("highlights-official-2p-*.bin")
    masks.board_masks.cache_clear()
    eroded: list[int] = []
    real = masks._eroded
    monkeypatch.setattr(masks, "_eroded", lambda key, rid: eroded.append(rid) or real(key, rid))
    assert masks.board_masks("official-2p") == made and eroded == []
    kept.write_bytes(kept.read_bytes()[:-10])  # cut short
    masks.board_masks.cache_clear()
    assert masks.board_masks("official-2p") == made
    assert eroded == list(range(len(data.board("official-2p").regions)))
    masks.board_masks.cache_clear()
