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


# The window's size and scroll position, as a screenshot must leave them.
WINDOW = "() => [innerWidth, innerHeight, Math.round(scrollX), Math.round(scrollY)]"


def whole_page(page: Any, path: Path) -> None:
    """A screenshot of the whole page, and the page left as it was. Chromium takes one by
    stretching the window over the whole page, and puts the window's size and scroll position
    back a moment after the screenshot returns: an action in that moment (a tap) landed where
    the page no longer was. Under load the Bruges score sheet's submit button was missed that
    way (the button focused, no submit, the navigation waited for in vain)."""
    before = page.evaluate(WINDOW)
    page.screenshot(path=str(path), full_page=True)
    page.wait_for_function(f"was => ({WINDOW})().every((v, i) => v === was[i])", arg=before)


def shoot(page: Any, name: str, *, desktop: bool = True) -> None:
    """Screenshots of the current page at phone width (checked to fit) and desktop width."""
    page.set_viewport_size(PHONE)
    fits_phone(page)
    whole_page(page, ARTIFACTS / f"{name}-390.png")
    if desktop:
        page.set_viewport_size(DESKTOP)
        whole_page(page, ARTIFACTS / f"{name}-1280.png")
        page.set_viewport_size(PHONE)
        page.wait_for_function(f"() => innerWidth === {PHONE['width']}")
