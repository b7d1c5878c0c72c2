"""Backup and restore: every record in one JSON Lines archive, written and read as a stream.

``archive_write`` writes one JSON object per line, in an order a restore can follow (users,
players, editions, games with their seats and entries, jobs with their keys, items and inputs),
reading the games a chunk at a time, so an archive of 100,000 games never holds them all in
memory. ``archive_restore`` reads it back into an empty database with every id kept (a job's
keys name game ids), then rebuilds the statistics and ratings, which are derived from the
games and so are not archived.

The first line says what the file is: ``{"archive": "potdevin-archive/1", ...}``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import IO, Any

import orjson
from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.models import Model, Prefetch

from games.models import Edition, Game, Player, Round, Seat, name_key
from scoring import stats
from scoring.models import Job, JobInput, JobItem, JobKeys

ARCHIVE_FORMAT = "potdevin-archive/1"
CHUNK = 500  # games read (or rows written) at a time


class ArchiveError(Exception):
    """An archive that cannot be restored here; nothing was written."""


def _when(value: datetime.datetime | datetime.date | None) -> str | None:
    return None if value is None else value.isoformat()


def _user_names() -> dict[int, str]:
    return dict(get_user_model().objects.values_list("id", "username"))


def _records() -> Iterator[dict[str, Any]]:
    yield {"archive": ARCHIVE_FORMAT, "written_at": _when(datetime.datetime.now(datetime.UTC))}
    names = _user_names()
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
        }
    for p in Player.objects.order_by("id"):
        yield {
            "kind": "player",
            "id": p.pk,
            "name": p.name,
            "user": names.get(p.user_id) if p.user_id else None,
            "created_by": names.get(p.created_by_id) if p.created_by_id else None,
            "created_at": _when(p.created_at),
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
    yield from _jobs(names)


def _games(names: dict[int, str]) -> Iterator[dict[str, Any]]:
    ids = list(Game.objects.order_by("id").values_list("id", flat=True))
    for at in range(0, len(ids), CHUNK):
        chunk = (
            Game.objects.filter(pk__in=ids[at : at + CHUNK])
            .select_related("edition")
            .prefetch_related(
                Prefetch("seats", queryset=Seat.objects.order_by("seat")),
                Prefetch("rounds", queryset=Round.objects.order_by("number")),
            )
            .order_by("id")
        )
        for g in chunk:
            yield {
                "kind": "game",
                "id": g.pk,
                "game_type": g.game_type,
                "edition": g.edition.key if g.edition else None,
                "variant": g.variant,
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
            }


def _jobs(names: dict[int, str]) -> Iterator[dict[str, Any]]:
    for job in Job.objects.order_by("id"):
        keys = JobKeys.objects.filter(job=job).values_list("keys", flat=True).first()
        yield {
            "kind": "job",
            "id": job.pk,
            "job_kind": job.kind,
            "status": job.status,
            "params": job.params,
            "total": job.total,
            "created_by": names.get(job.created_by_id) if job.created_by_id else None,
            "created_at": _when(job.created_at),
            "finished_at": _when(job.finished_at),
            "progressed_at": _when(job.progressed_at),
            "error": job.error,
            "keys": keys,
            "items": list(
                JobItem.objects.filter(job=job)
                .order_by("key")
                .values("key", "game_id", "ok", "error", "winners_before", "winners_after")
            ),
            "inputs": list(
                JobInput.objects.filter(job=job).order_by("key").values("key", "document")
            ),
        }


def archive_write(out: IO[bytes]) -> dict[str, int]:
    """Write every record to ``out`` as JSON Lines; returns how many of each kind."""
    counts: dict[str, int] = {}
    for record in _records():
        kind = record.get("kind", "header")
        counts[kind] = counts.get(kind, 0) + 1
        out.write(orjson.dumps(record))
        out.write(b"\n")
    counts.pop("header", None)
    return counts


def _lines(source: Iterable[bytes]) -> Iterator[dict[str, Any]]:
    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise ArchiveError(f"line {number} is not JSON: {exc}") from exc
        if not isinstance(record, dict):
            raise ArchiveError(f"line {number} is not a JSON object")
        yield record


class _Batches:
    """Rows to insert, written a chunk at a time."""

    def __init__(self) -> None:
        self.rows: dict[type[Model], list[Model]] = {}

    def add(self, row: Model) -> None:
        rows = self.rows.setdefault(type(row), [])
        rows.append(row)
        if len(rows) >= CHUNK:
            self.flush(type(row))

    def flush(self, model: type[Model] | None = None) -> None:
        for kind in [model] if model else list(self.rows):
            rows = self.rows.pop(kind, [])
            if rows:
                kind._default_manager.bulk_create(rows)


def _require_empty() -> None:
    if Game.objects.exists() or Player.objects.exists() or Job.objects.exists():
        raise ArchiveError(
            "the database already holds games, players or jobs: restore into an empty one "
            "(after `migrate`)"
        )


@contextmanager
def _times_as_recorded() -> Iterator[None]:
    """Let inserts keep the archive's creation and change times (``auto_now_add`` and
    ``auto_now`` would stamp the restore's own)."""
    fields = [
        f
        for model in (Player, Edition, Game, Round, Job)
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    saved = [(f, f.auto_now, f.auto_now_add) for f in fields]  # type: ignore[attr-defined]
    for f in fields:
        f.auto_now = f.auto_now_add = False  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for f, now, now_add in saved:
            f.auto_now, f.auto_now_add = now, now_add  # type: ignore[attr-defined]


def _time(value: str | None) -> datetime.datetime | None:
    return None if value is None else datetime.datetime.fromisoformat(value)


def _user(model: Any, users: dict[str, Any], record: dict[str, Any]) -> Any:
    user = users.get(record["username"]) or model(username=record["username"])
    user.email = record["email"]
    user.password = record["password"]
    user.is_staff = record["is_staff"]
    user.is_superuser = record["is_superuser"]
    user.is_active = record["is_active"]
    user.date_joined = _time(record["date_joined"])
    user.save()
    return user


def _by_name(users: dict[str, Any], name: str | None) -> Any:
    return users[name] if name else None


def _game(
    batches: _Batches,
    users: dict[str, Any],
    editions: dict[tuple[str, str], Edition],
    record: dict[str, Any],
) -> None:
    game = Game(
        pk=record["id"],
        game_type=record["game_type"],
        edition=editions[(record["game_type"], record["edition"])] if record["edition"] else None,
        variant=record["variant"],
        played_on=datetime.date.fromisoformat(record["played_on"]),
        location=record["location"],
        notes=record["notes"],
        owner=users[record["owner"]],
        mode=record["mode"],
        status=record["status"],
        player_count=record["player_count"],
        first_player=record["first_player"],
        teams=record["teams"],
        setup=record["setup"],
        finish=record["finish"],
        sheet=record["sheet"],
        result=record["result"],
        engine_version=record["engine_version"],
        created_at=_time(record["created_at"]),
        updated_at=_time(record["updated_at"]),
        finished_at=_time(record["finished_at"]),
    )
    batches.add(game)
    for s in record["seats"]:
        batches.add(
            Seat(
                game_id=game.pk,
                seat=s["seat"],
                player_id=s["player"],
                team=s["team"],
                score=s["score"],
                rank=s["rank"],
            )
        )
    for e in record["entries"]:
        batches.add(
            Round(
                game_id=game.pk,
                number=e["number"],
                data=e["data"],
                created_at=_time(e["created_at"]),
            )
        )


def _job(users: dict[str, Any], record: dict[str, Any]) -> None:
    job = Job.objects.create(
        pk=record["id"],
        kind=record["job_kind"],
        status=record["status"],
        params=record["params"],
        total=record["total"],
        created_by=_by_name(users, record["created_by"]),
        created_at=_time(record["created_at"]),
        finished_at=_time(record["finished_at"]),
        progressed_at=_time(record["progressed_at"]),
        error=record["error"],
    )
    if record["keys"] is not None:
        JobKeys.objects.create(job=job, keys=record["keys"])
    JobItem.objects.bulk_create(
        JobItem(
            job=job,
            key=i["key"],
            game_id=i["game_id"],
            ok=i["ok"],
            error=i["error"],
            winners_before=i["winners_before"],
            winners_after=i["winners_after"],
        )
        for i in record["items"]
    )
    JobInput.objects.bulk_create(
        JobInput(job=job, key=i["key"], document=i["document"]) for i in record["inputs"]
    )


def _reset_sequences() -> None:
    """Rows inserted with their ids leave PostgreSQL's id sequences behind: move them on."""
    models = [Player, Edition, Game, Seat, Round, Job, JobKeys, JobItem, JobInput, get_user_model()]
    statements = connection.ops.sequence_reset_sql(no_style(), models)
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def archive_restore(source: Iterable[bytes]) -> dict[str, int]:
    """Restore an archive into an empty database, in one transaction (all or nothing); then
    rebuild statistics and ratings. Raises ``ArchiveError``."""
    records = _lines(source)
    header = next(records, None)
    if header is None or header.get("archive") != ARCHIVE_FORMAT:
        raise ArchiveError(f"not a {ARCHIVE_FORMAT} archive")
    counts: dict[str, int] = {}
    User = get_user_model()
    with transaction.atomic(), _times_as_recorded():
        _require_empty()
        # The built-in editions `migrate` stored: the archive holds its own.
        Edition.objects.all().delete()
        users: dict[str, Any] = {u.get_username(): u for u in User.objects.all()}
        editions: dict[tuple[str, str], Edition] = {}
        batches = _Batches()
        for record in records:
            kind = record.get("kind")
            counts[str(kind)] = counts.get(str(kind), 0) + 1
            if kind == "user":
                users[record["username"]] = _user(User, users, record)
            elif kind == "player":
                batches.add(
                    Player(
                        pk=record["id"],
                        name=record["name"],
                        name_key=name_key(record["name"]),  # save() sets it; bulk_create does not
                        user=_by_name(users, record["user"]),
                        created_by=_by_name(users, record["created_by"]),
                        created_at=_time(record["created_at"]),
                    )
                )
            elif kind == "edition":
                edition = Edition.objects.create(
                    game_type=record["game_type"],
                    key=record["key"],
                    description=record["description"],
                    verified=record["verified"],
                    data=record["data"],
                    created_by=_by_name(users, record["created_by"]),
                    created_at=_time(record["created_at"]),
                )
                editions[(edition.game_type, edition.key)] = edition
            elif kind == "game":
                batches.flush(Player)
                _game(batches, users, editions, record)
            elif kind == "job":
                batches.flush()
                _job(users, record)
            else:
                raise ArchiveError(f"unknown record kind {kind!r}")
        batches.flush()
        _reset_sequences()
    stats.stats_rebuild()
    return counts
