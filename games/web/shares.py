"""Share links: a read-only page of one game for the people at the table who have no account
(made and stopped from the game's page by those who may change the game)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.records import selectors, services
from games.records.errors import RecordError
from games.web import views


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


@login_required
@require_POST
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
    return views.render_game(request, game, shared=True)
