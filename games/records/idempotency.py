"""Idempotency keys, as stored: a write is claimed under its key before it runs, its answer kept
after, and the same key answered from what was kept (``games.api.idempotency`` is the HTTP side,
for the API and the pages alike).

The semantics are the IETF httpapi draft's ("The Idempotency-Key HTTP Header Field"): the same
key and request get the first answer again; the same key with another request is refused; a key
whose first request is still being answered is refused as in use. Keys are the user's own (two
users never share one) and kept ``settings.POTDEVIN_IDEMPOTENCY_DAYS`` (30 at least): an offline
phone may send its entries days later."""

from __future__ import annotations

import datetime
import enum
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.records import selectors
from games.records.models import Game, IdempotencyKey

# A claim whose request has not finished after this long lost its process (a crash, a killed
# worker): the next request with its key takes it over instead of being refused for ever.
ABANDONED_AFTER = datetime.timedelta(minutes=5)


def kept_for() -> datetime.timedelta:
    return datetime.timedelta(days=max(30, settings.POTDEVIN_IDEMPOTENCY_DAYS))


class Outcome(enum.Enum):
    NEW = "new"  # claimed: run the request, then ``answered`` or ``released``
    REPLAY = "replay"  # answered before: send ``row``'s answer again
    IN_USE = "in_use"  # its first request is still being answered
    OTHER_REQUEST = "other_request"  # the key was used for another request


@dataclass(frozen=True)
class Claim:
    outcome: Outcome
    row: IdempotencyKey | None = None


def claim(*, user: Any, key: str, fingerprint: str, club_id: int | None) -> Claim:
    """Claim ``key`` for a request (``fingerprint``), or say why it is not new. Committed at
    once (outside any transaction of the request), so that a second request sees the claim."""
    now = timezone.now()
    try:
        with transaction.atomic():
            row = IdempotencyKey.objects.create(
                user=user, key=key, fingerprint=fingerprint, club_id=club_id, created_at=now
            )
        return Claim(Outcome.NEW, row)
    except IntegrityError:
        pass
    row = IdempotencyKey.objects.filter(user=user, key=key).first()
    if row is None:  # answered and forgotten in between: claim it afresh
        return claim(user=user, key=key, fingerprint=fingerprint, club_id=club_id)
    expired = row.created_at < now - kept_for()
    abandoned = row.status is None and row.created_at < now - ABANDONED_AFTER
    if expired or abandoned:
        # Taken over only by the request that changes it first (its time is the guard).
        taken = IdempotencyKey.objects.filter(pk=row.pk, created_at=row.created_at).update(
            fingerprint=fingerprint,
            club_id=club_id,
            status=None,
            content_type="",
            location="",
            body=b"",
            notices=[],
            game_version=None,
            created_at=now,
        )
        if taken:
            row.refresh_from_db()
            return Claim(Outcome.NEW, row)
        return Claim(Outcome.IN_USE, row)
    if row.fingerprint != fingerprint:
        return Claim(Outcome.OTHER_REQUEST, row)
    if row.status is None:
        return Claim(Outcome.IN_USE, row)
    return Claim(Outcome.REPLAY, row)


def answered(
    row: IdempotencyKey,
    *,
    status: int,
    content_type: str,
    location: str,
    body: bytes,
    notices: list[list[Any]],
    game_id: int | None,
) -> None:
    """Keep the answer of the request that claimed ``row`` (and, for a game's page, the game's
    version as the answer left it)."""
    IdempotencyKey.objects.filter(pk=row.pk).update(
        status=status,
        content_type=content_type[:255],
        location=location[:2000],
        body=body,
        notices=notices,
        game_version=None
        if game_id is None
        else selectors.game_version(Game.objects.all(), game_id),
    )


def still_as_answered(row: IdempotencyKey, game_id: int | None) -> bool:
    """Whether the game of a page's answer is as that answer left it."""
    if game_id is None or row.game_version is None:
        return True
    return row.game_version == selectors.game_version(Game.objects.all(), game_id)


def released(row: IdempotencyKey) -> None:
    """Forget the claim of a request whose answer is not to be kept (a server error, a refusal
    that may pass later): the same key may be sent again and is run again."""
    IdempotencyKey.objects.filter(pk=row.pk, status__isnull=True).delete()


def answer(row: IdempotencyKey) -> IdempotencyKey:
    """``row`` as stored now (waiting on another request's answer)."""
    return IdempotencyKey.objects.get(pk=row.pk)


def forget_expired(*, now: datetime.datetime | None = None) -> int:
    """Delete the keys past their keeping time; returns how many."""
    cutoff = (now or timezone.now()) - kept_for()
    deleted, _ = IdempotencyKey.objects.filter(created_at__lt=cutoff).delete()
    return deleted
