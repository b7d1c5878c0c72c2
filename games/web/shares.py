"""Share links: a read-only page of one game for the people at the table who have no account
(made and stopped from the game's page by those who may change the game)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import formats
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.records import selectors, services
from games.records.errors import RecordError
from games.web import views
from games.web.confirm import Question, asks_first


@login_required
@require_POST
def share_create(request: HttpRequest, pk: int) -> HttpResponse:
    game = views.writable(request, pk)
    try:
        services.share_create(game=game, by=request.user)
    except RecordError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("Share link made: anyone with it can follow this game, and nothing else.")
        )
    return redirect(reverse("web:game", args=[game.pk]) + "#shares")


def _stopping(request: HttpRequest, pk: int, token: str) -> Question:
    game = views.writable(request, pk)
    share = selectors.game_shares(game=game).filter(token=token).first()
    if share is None:
        raise Http404
    return Question(
        title=_("Stop this share link?"),
        goes=_(
            "The link made on %(date)s then opens nothing: whoever has it can no longer follow "
            "this game. The game itself stays as it is."
        )
        % {"date": formats.date_format(localtime(share.created_at), "DATETIME_FORMAT")},
        button=_("Stop this link"),
        back=reverse("web:game", args=[game.pk]) + "#shares",
    )


@login_required
@require_POST
@asks_first(_stopping)
def share_revoke(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    game = views.writable(request, pk)
    if not services.share_revoke(game=game, token=token):
        raise Http404
    messages.success(request, _("Share link stopped: it no longer opens the game."))
    return redirect(reverse("web:game", args=[game.pk]) + "#shares")


def shared(request: HttpRequest, token: str) -> HttpResponse:
    """The game a share link shows, to anyone who has the link; a stopped or unknown link is
    not found alike."""
    game = selectors.shared_game(token)
    if game is None:
        raise Http404
    return views.render_game(request, game, shared=True, live_url=_live_url(token))


def shared_live(request: HttpRequest, token: str) -> HttpResponse:
    """The share link's page for ``static/js/live.js``, as ``views.game_live``: 304 while the
    game is as the page shows it (one query), else the page; a stopped link is not found."""
    found = selectors.shared_game_version(token)
    if found is None:
        raise Http404
    unchanged = views.not_modified(request, views.live_tag(*found, shared=True))
    if unchanged is not None:
        return unchanged
    game = selectors.shared_game(token)
    if game is None:  # stopped meanwhile
        raise Http404
    page = views.render_game(request, game, shared=True, live_url=_live_url(token), live=True)
    return views.live_page(
        request, page, views.live_tag(game.pk, selectors.version_of(game), shared=True)
    )


def _live_url(token: str) -> str:
    return reverse("web:shared-live", args=[token])
