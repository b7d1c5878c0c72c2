"""Read-only links to a game for the people at the table."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.records.errors import GameConflict
from games.records.models import Game, GameShare
from games.records.services.common import _account, _locked_game

# Active share links a game may have at once: enough for every table it is played at.
MAX_SHARES = 20


def share_create(*, game: Game, by: AbstractBaseUser | None = None) -> GameShare:
    """A new read-only link to ``game`` for the people at the table. Raises ``GameConflict``
    (``too_many_shares``) past ``MAX_SHARES`` active links."""
    with transaction.atomic():
        game = _locked_game(game)
        if GameShare.objects.active().filter(game=game).count() >= MAX_SHARES:
            raise GameConflict(
                "too_many_shares",
                _("a game has at most %(most)s share links: stop one first") % {"most": MAX_SHARES},
            )
        return GameShare.objects.create(
            game=game, token=secrets.token_urlsafe(24), created_by=_account(by)
        )


def share_revoke(*, game: Game, token: str) -> bool:
    """Stop a share link of ``game``: it then answers like one that never existed. False when
    ``token`` is no active link of this game."""
    stopped = (
        GameShare.objects.active().filter(game=game, token=token).update(revoked_at=timezone.now())
    )
    return stopped > 0
