"""Line charts as inline SVG, drawn on the server: no chart library, no script."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

WIDTH = 360
HEIGHT = 180
PAD_LEFT = 40
PAD_RIGHT = 10
PAD_TOP = 12
PAD_BOTTOM = 26


def _ticks(low: float, high: float) -> list[float]:
    if high == low:
        return [low]
    return [low, (low + high) / 2, high]


def _fmt(value: float) -> str:
    """A tick's or a point's number in the reader's language ("1,5" in Italian and Portuguese):
    whole from 10 on, else to one decimal place; never "-0"."""
    places = 0 if abs(value) >= 10 or value == int(value) else 1
    value = round(value, places)
    return number_format(value if value else 0, decimal_pos=places)


def line_chart(
    points: Sequence[tuple[str, float]],
    *,
    title: str,
    zero_line: bool = False,
    series_class: str = "series",
) -> SafeString:
    """An SVG line chart of ``(label, value)`` points in order, scaled to fit, with the first
    and last labels under the x axis. Empty input draws a note instead."""
    if not points:
        # Translators: shown instead of an empty chart; %(title)s is the chart's title.
        note = _("%(title)s: no data yet.") % {"title": title}
        return format_html('<p class="muted">{}</p>', note)
    values = [v for _, v in points]
    low, high = min(values), max(values)
    if zero_line:
        low, high = min(low, 0), max(high, 0)
    if high == low:
        low, high = low - 1, high + 1
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    step = inner_w / (len(points) - 1) if len(points) > 1 else 0

    def x(i: int) -> float:
        return PAD_LEFT + (i * step if len(points) > 1 else inner_w / 2)

    def y(v: float) -> float:
        return PAD_TOP + (high - v) / (high - low) * inner_h

    coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, (_, v) in enumerate(points))
    grid = format_html_join(
        "",
        '<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/>'
        '<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>',
        (
            (
                PAD_LEFT,
                WIDTH - PAD_RIGHT,
                f"{y(t):.1f}",
                f"{y(t):.1f}",
                PAD_LEFT - 4,
                f"{y(t) + 4:.1f}",
                _fmt(t),
            )
            for t in _ticks(low, high)
        ),
    )
    zero = (
        format_html(
            '<line class="zero" x1="{}" x2="{}" y1="{}" y2="{}"/>',
            PAD_LEFT,
            WIDTH - PAD_RIGHT,
            f"{y(0):.1f}",
            f"{y(0):.1f}",
        )
        if zero_line
        else ""
    )
    dots = format_html_join(
        "",
        '<circle class="dot" cx="{}" cy="{}" r="3"><title>{}: {}</title></circle>',
        ((f"{x(i):.1f}", f"{y(v):.1f}", label, _fmt(v)) for i, (label, v) in enumerate(points)),
    )
    first, last = points[0][0], points[-1][0]
    labels = format_html(
        '<text class="tick" x="{}" y="{}" text-anchor="start">{}</text>'
        '<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>',
        PAD_LEFT,
        HEIGHT - 6,
        first,
        WIDTH - PAD_RIGHT,
        HEIGHT - 6,
        last if len(points) > 1 else "",
    )
    return format_html(
        '<svg class="chart" viewBox="0 0 {} {}" role="img" aria-label="{}" '
        'preserveAspectRatio="xMidYMid meet"><title>{}</title>{}{}'
        '<polyline class="{}" points="{}"/>{}{}</svg>',
        WIDTH,
        HEIGHT,
        title,
        title,
        grid,
        zero or mark_safe(""),
        series_class,
        coords,
        dots,
        labels,
    )
