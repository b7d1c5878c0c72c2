"""A club's plays in another app's format, on the pages: the same file as the API's."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_ratelimit.decorators import ratelimit

from games.exchange import exports
from games.records import access


def _rate(group: str, request: HttpRequest) -> str:
    """The API's rate in django-ratelimit's form ("20/min" is "20/m")."""
    count, period = exports.EXPORT_RATE.split("/")
    return f"{count}/{period[0]}"


@login_required
@require_GET
@ratelimit(key="user", rate=_rate, method="GET", block=False)
def bgstats(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's finished games as BG Stats' export file, for any member of the club."""
    club = access.club_or_404(request.user, slug)
    if getattr(request, "limited", False):
        return HttpResponse(
            _("Too many exports; wait a minute."),
            status=429,
            content_type="text/plain; charset=utf-8",
        )
    response = HttpResponse(
        exports.bgstats_file(club=club, user=request.user), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{exports.EXPORT_FILENAME}"'
    return response
