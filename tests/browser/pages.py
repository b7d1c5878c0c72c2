"""What the browser tests share: headless Chromium (Debian's `chromium`, installed by `make
browser`) and its options, signing in, and the phone-width check with screenshots at phone
(390x844) and desktop (1280x800) widths into artifacts/. The `browser` fixture is in
conftest.py."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.accounts import PASSWORD
from tests.paths import ROOT

CHROMIUM = os.environ.get("POTDEVIN_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = ROOT / "artifacts"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


# The languages of the pages; layout tests run in each (Italian and Portuguese words are longer).
LANGUAGES = ["en", "it", "pt-br"]


def sign_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click('main form button[type="submit"]')
    page.wait_for_url(f"{base}/")


def use_language(context: Any, base: str, language: str) -> None:
    """Pages in ``language`` for this browser context: the cookie the language switcher sets."""
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])


def fits_phone(page: Any) -> None:
    """No horizontal scrolling at 390 px."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width} px wide"


# The window's size and scroll position.
WINDOW = "() => [innerWidth, innerHeight, Math.round(scrollX), Math.round(scrollY)]"


def whole_page(page: Any, path: Path) -> None:
    """A screenshot of the whole page, and the page left where it was. Chromium takes one by
    stretching the window over the whole page; once the window is put back, the page is left
    scrolled to its end, and a tap on the next action can make Chromium jump back to where it
    was, between the press and the release: the tap lands on nothing. Under load the Bruges
    score sheet's submit button was missed that way (focused, no submit, the navigation waited
    for in vain). So the page is scrolled back to where it was, and waited for."""
    size = [page.viewport_size["width"], page.viewport_size["height"]]
    # A viewport just resized may not have reached the window yet either.
    page.wait_for_function(f"size => ({WINDOW})().slice(0, 2).join() === size.join()", arg=size)
    before = page.evaluate(WINDOW)
    page.screenshot(path=str(path), full_page=True)
    page.evaluate("([x, y]) => window.scrollTo(x, y)", before[2:])
    page.wait_for_function(f"was => ({WINDOW})().join() === was.join()", arg=before)


def shoot(page: Any, name: str, *, desktop: bool = True) -> None:
    """Screenshots of the current page at phone width (checked to fit) and desktop width."""
    page.set_viewport_size(PHONE)
    fits_phone(page)
    whole_page(page, ARTIFACTS / f"{name}-390.png")
    if desktop:
        page.set_viewport_size(DESKTOP)
        whole_page(page, ARTIFACTS / f"{name}-1280.png")
        page.set_viewport_size(PHONE)
