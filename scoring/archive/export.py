"""The export: every record read from the database, a chunk of games at a time, and written
as an archive with its trailer (``archive_write``)."""

from __future__ import annotations

import base64
import datetime
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

import orjson
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Prefetch

from games.records.models import (
    BoardGame,
    Club,
    Edition,
    Game,
    GameEvent,
    GameShare,
    IdempotencyKey,
    Invitation,
    Membership,
    Player,
    PlaySource,
    Round,
    Seat,
    SourceRef,
    UserSettings,
)
from scoring.archive.lines import ARCHIVE_FORMAT, CHUNK, KINDS, ArchiveError, _encode, _named
from scoring.models import Job, JobInput, JobItem, JobKeys


def _when(value: datetime.datetime | datetime.date | None) -> str | None:
    return None if value is None else value.isoformat()


def _user_names() -> dict[int, str]:
    return dict(get_user_model().objects.values_list("id", "username"))


def _records() -> Iterator[dict[str, Any]]:
    yield {"archive": ARCHIVE_FORMAT, "written_at": _when(datetime.datetime.now(datetime.UTC))}
    names = _user_names()
    languages = dict(UserSettings.objects.values_list("user_id", "language"))
    for user in get_user_model().objects.order_by("id"):
        yield {
            "kind": "user",
            "username": user.get_username(),
            "email": user.email,
            "password": user.password,  # the hash, as stored
            "is_staff": user.is_staff,
            "is_superuser": user.is_superuser,
            "is_active": user.is_active,
            "date_joined": _when(user.date_joined),
            "language": languages.get(user.pk, ""),  # the pages' language ("": the browser's)
        }
    yield from _clubs(names)
    for p in Player.objects.order_by("id"):
        yield {
            "kind": "player",
            "id": p.pk,
            "club": p.club_id,
            "name": p.name,
            "user": names.get(p.user_id) if p.user_id else None,
            "created_by": names.get(p.created_by_id) if p.created_by_id else None,
            "created_at": _when(p.created_at),
        }
    for b in BoardGame.objects.order_by("id"):
        yield {
            "kind": "board_game",
            "id": b.pk,
            "club": b.club_id,
            "name": b.name,
            "bgg_id": b.bgg_id,
            "win": b.win,
            "created_by": names.get(b.created_by_id) if b.created_by_id else None,
            "created_at": _when(b.created_at),
        }
    for e in Edition.objects.order_by("id"):
        yield {
            "kind": "edition",
            "game_type": e.game_type,
            "key": e.key,
            "description": e.description,
            "verified": e.verified,
            "data": e.data,
            "created_by": names.get(e.created_by_id) if e.created_by_id else None,
            "created_at": _when(e.created_at),
        }
    yield from _games(names)
    yield from _events(names)
    yield from _sources()
    yield from _jobs(names)
    yield from _idempotency_keys(names)


def _sources() -> Iterator[dict[str, Any]]:
    """What imports learnt: the other apps' ids of players, locations and games, then the
    imported plays (after the games they name)."""
    for r in SourceRef.objects.order_by("id").iterator(CHUNK):
        yield {
            "kind": "source_ref",
            "id": r.pk,
            "club": r.club_id,
            "app": r.app,
            "ref_kind": r.kind,
            "external_id": r.external_id,
            "player": r.player_id,
            "board_game": r.board_game_id,
            "location": r.location,
        }
    for p in PlaySource.objects.order_by("id").iterator(CHUNK):
        yield {
            "kind": "play_source",
            "id": p.pk,
            "club": p.club_id,
            "app": p.app,
            "external_id": p.external_id,
            "game": p.game_id,
            "fingerprint": p.fingerprint,
            "imported_at": _when(p.imported_at),
        }


def _clubs(names: dict[int, str]) -> Iterator[dict[str, Any]]:
    """Clubs, then memberships and invitations, which name them (by id) and users (by name).
    Invitation tokens are secrets, archived as users' password hashes are."""
    for club in Club.objects.order_by("id"):
        yield {
            "kind": "club",
            "id": club.pk,
            "name": club.name,
            "slug": club.slug,
            "public_results": club.public_results,
            "created_at": _when(club.created_at),
        }
    for m in Membership.objects.order_by("id").iterator(CHUNK):
        yield {
            "kind": "membership",
            "id": m.pk,
            "club": m.club_id,
            "user": names[m.user_id],
            "role": m.role,
            "joined_at": _when(m.joined_at),
        }
    for i in Invitation.objects.order_by("id").iterator(CHUNK):
        yield {
            "kind": "invitation",
            "id": i.pk,
            "club": i.club_id,
            "token": i.token,
            "role": i.role,
            "created_by": names.get(i.created_by_id) if i.created_by_id else None,
            "created_at": _when(i.created_at),
            "expires_at": _when(i.expires_at),
            "revoked_at": _when(i.revoked_at),
            "used_at": _when(i.used_at),
            "used_by": names.get(i.used_by_id) if i.used_by_id else None,
        }


def _games(names: dict[int, str]) -> Iterator[dict[str, Any]]:
    ids = list(Game.objects.order_by("id").values_list("id", flat=True))
    for at in range(0, len(ids), CHUNK):
        chunk = (
            Game.objects.filter(pk__in=ids[at : at + CHUNK])
            .select_related("edition")
            .prefetch_related(
                Prefetch("seats", queryset=Seat.objects.order_by("seat")),
                Prefetch("rounds", queryset=Round.objects.order_by("number")),
                Prefetch("shares", queryset=GameShare.objects.order_by("id")),
            )
            .order_by("id")
        )
        for g in chunk:
            yield {
                "kind": "game",
                "id": g.pk,
                "club": g.club_id,
                "game_type": g.game_type,
                "edition": g.edition.key if g.edition else None,
                "variant": g.variant,
                "board_game": g.board_game_id,
                "duration": g.duration,
                "played_on": _when(g.played_on),
                "location": g.location,
                "notes": g.notes,
                "owner": names[g.owner_id],
                "mode": g.mode,
                "status": g.status,
                "player_count": g.player_count,
                "first_player": g.first_player,
                "teams": g.teams,
                "setup": g.setup,
                "finish": g.finish,
                "sheet": g.sheet,
                "result": g.result,
                "engine_version": g.engine_version,
                "created_at": _when(g.created_at),
                "updated_at": _when(g.updated_at),
                "finished_at": _when(g.finished_at),
                "seats": [
                    {
                        "seat": s.seat,
                        "player": s.player_id,
                        "team": s.team,
                        "score": s.score,
                        "rank": s.rank,
                    }
                    for s in g.seats.all()
                ],
                "entries": [
                    {"number": r.number, "data": r.data, "created_at": _when(r.created_at)}
                    for r in g.rounds.all()
                ],
                # Its share links, stopped ones too (archives written before them have none).
                "shares": [
                    {
                        "token": s.token,
                        "created_by": names.get(s.created_by_id) if s.created_by_id else None,
                        "created_at": _when(s.created_at),
                        "revoked_at": _when(s.revoked_at),
                    }
                    for s in g.shares.all()
                ],
            }


def _events(names: dict[int, str]) -> Iterator[dict[str, Any]]:
    events = GameEvent.objects.order_by("id").values_list(
        "game_id", "action", "number", "user_id", "username", "at"
    )
    for game_id, action, number, user_id, username, at in events.iterator(CHUNK):
        yield {
            "kind": "event",
            "game": game_id,
            "action": action,
            "number": number,
            "user": names.get(user_id) if user_id else None,  # the account, while it exists
            "username": username,  # the name when it was done
            "at": _when(at),
        }


def _jobs(names: dict[int, str]) -> Iterator[dict[str, Any]]:
    for job in Job.objects.order_by("id"):
        keys = JobKeys.objects.filter(job=job).values_list("keys", flat=True).first()
        yield {
            "kind": "job",
            "id": job.pk,
            "job_kind": job.kind,
            "club": job.club_id,  # None: a re-score of every club's games
            "status": job.status,
            "params": job.params,
            "total": job.total,
            "done": job.done,
            "failed": job.failed,
            "created_by": names.get(job.created_by_id) if job.created_by_id else None,
            "created_at": _when(job.created_at),
            "finished_at": _when(job.finished_at),
            "progressed_at": _when(job.progressed_at),
            "error": job.error,
            "keys": keys,
            "items": list(
                JobItem.objects.filter(job=job)
                .order_by("key")
                .values(
                    "key", "game_id", "ok", "outcome", "error", "winners_before", "winners_after"
                )
            ),
            "inputs": list(
                JobInput.objects.filter(job=job).order_by("key").values("key", "document")
            ),
        }


def _idempotency_keys(names: dict[int, str]) -> Iterator[dict[str, Any]]:
    """The answers kept for writes sent with a key: a phone that sends again after a restore is
    still answered once. A request still being answered has no answer to keep."""
    rows = IdempotencyKey.objects.filter(status__isnull=False).order_by("id")
    for k in rows.iterator(CHUNK):
        yield {
            "kind": "idempotency_key",
            "user": names[k.user_id],
            "club": k.club_id,
            "key": k.key,
            "fingerprint": k.fingerprint,
            "status": k.status,
            "content_type": k.content_type,
            "location": k.location,
            "body": base64.b64encode(bytes(k.body)).decode("ascii"),
            "notices": k.notices,
            "game_version": k.game_version,
            "created_at": _when(k.created_at),
        }


@contextmanager
def _one_moment() -> Iterator[None]:
    """On PostgreSQL, read every table as of one moment (a game changed while the export runs
    is archived as it was when it started, its seats and entries with it). SQLite's
    transactions here take the write lock (``transaction_mode``): there the export reads as
    it goes, as it always has."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def archive_write(out: IO[bytes]) -> dict[str, int]:
    """Write every record to ``out`` as JSON Lines, then the trailer; returns how many records
    of each kind. Raises ``ArchiveError`` naming a record it cannot write (the trailer is then
    not written, so the archive is refused as incomplete)."""
    counts = dict.fromkeys(KINDS, 0)
    digest = hashlib.sha256()
    with _one_moment():
        for record in _records():
            kind = record.get("kind")
            try:
                line = _encode(record) + b"\n"
            except (TypeError, ValueError) as exc:
                raise ArchiveError(
                    f"cannot write {_named(record)} to the archive ({exc}): the export stopped, "
                    "and the archive is incomplete"
                ) from exc
            digest.update(line)
            out.write(line)
            if kind:
                counts[kind] += 1
    trailer = {"trailer": ARCHIVE_FORMAT, "counts": counts, "sha256": digest.hexdigest()}
    out.write(orjson.dumps(trailer) + b"\n")
    return counts
