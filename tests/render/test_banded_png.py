"""The map's banded PNG: the same pixels and palette as Pillow's own PNG, a stream any decoder
reads, unchanged bands reused from earlier maps, and a bounded store of bands."""

from __future__ import annotations

import io
import zlib

import pytest
from PIL import Image

import engine
import render
from render import encode


@pytest.fixture
def image() -> Image.Image:
    state = engine.new_game("official-3p", ["a", "b", "c"], 11)
    png = render.map_png(state)
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


def _decoded(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


def test_same_pixels_and_palette_as_pillow(image: Image.Image) -> None:
    encode.clear_bands()
    ours, pillows = _decoded(encode.banded_png(image)), _decoded(encode.png_bytes(image))
    assert ours.mode == pillows.mode == "P" and ours.size == pillows.size
    assert ours.tobytes() == pillows.tobytes()
    assert ours.getpalette() == pillows.getpalette()


def test_a_changed_map_reuses_the_bands_it_did_not_change(image: Image.Image) -> None:
    encode.clear_bands()
    encode.banded_png(image)
    bands = -(-image.height // encode.BAND_ROWS)
    assert encode.bands_kept() == bands
    changed = image.copy()
    changed.paste(3, (100, 5 * encode.BAND_ROWS + 2, 160, 5 * encode.BAND_ROWS + 9))
    png = encode.banded_png(changed)
    assert encode.bands_kept() == bands + 1  # one new band, all others reused
    assert _decoded(png).tobytes() == changed.tobytes()
    idat = png[png.index(b"IDAT") + 4:png.index(b"IEND") - 8]
    assert zlib.decompress(idat)[:1] == b"\x00"  # a plain zlib stream, filter byte first


def test_the_band_store_is_bounded(image: Image.Image, monkeypatch) -> None:
    encode.clear_bands()
    monkeypatch.setattr(encode, "BAND_CACHE_BYTES", 20_000)
    for colour in range(6):
        im = image.copy()
        im.paste(colour, (0, 0, image.width, image.height // 2))
        assert _decoded(encode.banded_png(im)).tobytes() == im.tobytes()
        assert encode._band_bytes == sum(map(len, encode._bands.values())) <= 20_000
    encode.clear_bands()


def test_other_images_take_pillows_path() -> None:
    rgb = Image.new("RGB", (40, 40), (10, 20, 30))
    assert _decoded(encode.banded_png(rgb)).tobytes() == rgb.tobytes()
