"""Screenshots of the dev harness (not shipped): python web/dev/shots.py OUTDIR [name=query ...]

Needs `npm run dev` running (PORT, default 8765) and Python playwright with Debian's chromium.
PALETTE=1 stores them on a 256-colour palette (what docs/ keeps: a quarter of the bytes)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import ViewportSize, sync_playwright

PORT = int(os.environ.get("PORT", "8765"))
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}


def watch(page: Any) -> list[str]:
    """The page's errors and console errors, as they come."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    shots = [a.split("=", 1) for a in sys.argv[2:]] or [["conquest", "snap=conquest"]]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        for name, query in shots:
            for size, vp in (("phone", PHONE), ("desktop", DESKTOP)):
                ctx = browser.new_context(viewport=vp, device_scale_factor=2 if size == "phone" else 1,
                                          has_touch=size == "phone", is_mobile=size == "phone")
                page = ctx.new_page()
                errors = watch(page)
                page.goto(f"http://localhost:{PORT}/?{query}")
                page.wait_for_selector("body[data-ready='1']", timeout=10000)
                page.wait_for_timeout(500)
                path = out / f"{name}-{size}.png"
                page.screenshot(path=str(path))
                if os.environ.get("PALETTE"):
                    from PIL import Image
                    with Image.open(path) as im:
                        small = im.convert("RGB").quantize(256, dither=Image.Dither.NONE)
                    small.save(path, optimize=True)
                print(path, "errors:" if errors else "", *errors)
                ctx.close()
        browser.close()


if __name__ == "__main__":
    main()
