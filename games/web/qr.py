"""QR codes of the links people pass on at the table (invitations, share links): drawn by the
server with segno as inline SVG, so a phone's camera opens the link from another phone's screen
with no script, no image request and nothing from elsewhere."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _


def qr_svg(url: str, title: str | None = None) -> SafeString:
    """``url`` as a QR code (a regular one: phones' cameras read few Micro QR codes), as SVG
    markup to put in a page: black modules on white whatever the page's colours, a quiet zone
    of 4 modules, sized by the page's CSS (its viewBox is the symbol's modules), its ``title``
    (escaped by segno) the accessible name of an image."""
    code = segno.make_qr(url)
    svg: str = code.svg_inline(
        scale=1,
        dark="#000",
        light="#fff",
        omitsize=True,
        svgclass="qr",
        title=title if title is not None else _("QR code of the link"),
    )
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))  # segno escapes the title
