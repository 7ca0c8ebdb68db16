#!/usr/bin/env python3
"""Render the app icons (img/icon-192.png, icon-512.png, apple-touch-icon.png) from
img/icon.svg with headless Chromium (Playwright, Debian's /usr/bin/chromium).

The PNGs are committed: the build does not need a browser. Run this after changing
the SVG:  python tools/render_icons.py
"""
import argparse
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools import chromium  # noqa: E402

SIZES = [(512, "icon-512.png"), (192, "icon-192.png"), (180, "apple-touch-icon.png")]


def main() -> None:
    argparse.ArgumentParser(description="Render img/*.png from img/icon.svg.").parse_args()
    svg = (ROOT / "img" / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = chromium.launch(p.chromium)
        for size, name in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content("<style>html,body{margin:0}svg{display:block;"
                             f"width:{size}px;height:{size}px}}</style>{svg}")
            page.screenshot(path=str(ROOT / "img" / name))
            page.close()
            print(f"img/{name}")
        browser.close()


if __name__ == "__main__":
    main()
