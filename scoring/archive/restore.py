"""The restore: an archive's records written back into an empty database with their ids,
in one transaction, then the statistics and ratings rebuilt (``archive_restore``)."""

from __future__ import annotations

import base64
import datetime
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import DataError, IntegrityError, connection, transaction
from django.db.models import Max, Model

from games.api.language import supported
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
    name_key,
)
from scoring import stats
from scoring.archive.lines import CHUNK, ArchiveError, _named
from scoring.archive.reader import _Reader
from scoring.models import Job, JobInput, JobItem, JobKeys

# The club ``games`` migration 0011 puts everything stored before clubs into.
FIRST_CLUB = {"name": "Club", "slug": "club"}


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
    """Refuse a database holding records; then delete its clubs, all empty (`migrate` makes
    one), so that the archive's clubs keep their ids."""
    held = (Game, GameEvent, Player, BoardGame, Job, Membership, Invitation)
    if any(model.objects.exists() for model in held):
        raise ArchiveError(
            "the database already holds games, histories, players, jobs or club members: "
            "restore into an empty one (after `migrate`)"
        )
    Club.objects.all().delete()


class _Clubs:
    """The clubs restored, so that a record naming another is refused (the database would
    only tell at the commit). An archive written before clubs names none: its records go into
    one club, made when first needed."""

    def __init__(self) -> None:
        self.ids: set[int] = set()
        self.single: Club | None = None

    def restore(self, record: dict[str, Any]) -> None:
        club = Club.objects.create(
            pk=record["id"],
            name=record["name"],
            slug=record["slug"],
            public_results=record["public_results"],
            created_at=_time(record["created_at"]),
        )
        self.ids.add(club.pk)

    def the_single_one(self) -> Club:
        if self.single is None:
            self.single = Club.objects.create(**FIRST_CLUB)
        return self.single

    def of(self, record: dict[str, Any]) -> int:
        """The id of the club ``record`` names (the single club's if it names none)."""
        if "club" not in record:  # written before clubs
            if self.ids:
                raise ValueError(f"{_named(record)} names no club, though the archive has clubs")
            return self.the_single_one().pk
        club = record["club"]
        if club not in self.ids:
            raise ValueError(f"{_named(record)} names club {club!r}, which the archive lacks")
        return club


def _into_one_club(club: Club) -> None:
    """Every account a member of ``club``, as ``games`` migration 0011 made them: staff and
    superusers owners, whoever created a game or a player a recorder."""
    recorders = set(Game.objects.values_list("owner_id", flat=True))
    recorders |= set(Player.objects.exclude(created_by=None).values_list("created_by", flat=True))
    users = get_user_model().objects.values_list("id", "is_staff", "is_superuser")
    Membership.objects.bulk_create(
        Membership(
            club=club,
            user_id=user_id,
            role=(
                Membership.Role.OWNER
                if staff or superuser
                else Membership.Role.RECORDER
                if user_id in recorders
                else Membership.Role.MEMBER
            ),
        )
        for user_id, staff, superuser in users.iterator()
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
    language = record.get("language") or ""  # archives written before it have none
    if not isinstance(language, str) or (language and supported(language) != language):
        raise ValueError(f"language {language!r} is not one of the site's languages")
    if language:
        UserSettings.objects.update_or_create(user=user, defaults={"language": language})
    return user


def _by_name(users: dict[str, Any], name: str | None) -> Any:
    return users[name] if name else None


def _game(
    batches: _Batches,
    clubs: _Clubs,
    users: dict[str, Any],
    editions: dict[tuple[str, str], Edition],
    record: dict[str, Any],
) -> None:
    game = Game(
        pk=record["id"],
        club_id=clubs.of(record),
        game_type=record["game_type"],
        edition=editions[(record["game_type"], record["edition"])] if record["edition"] else None,
        variant=record["variant"],
        board_game_id=record.get("board_game"),  # archives written before named games: none
        duration=record.get("duration"),
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
    for s in record.get("shares", []):  # archives written before share links have none
        batches.add(
            GameShare(
                game_id=game.pk,
                token=s["token"],
                created_by=_by_name(users, s["created_by"]),
                created_at=_time(s["created_at"]),
                revoked_at=_time(s["revoked_at"]),
            )
        )


def _outcome(job: Job, item: dict[str, Any]) -> str:
    """An item's outcome; an archive written before items kept one: a re-scored game's from
    its winners (those jobs rewrote every game they scored), as scoring 0010 gives it."""
    if "outcome" in item:
        return str(item["outcome"])
    if job.kind != Job.Kind.RESCORE or not item["ok"]:
        return ""
    before = item["winners_before"]
    changed = before is not None and before != item["winners_after"]
    return JobItem.WINNERS_CHANGED if changed else JobItem.CHANGED


def _job(clubs: _Clubs, users: dict[str, Any], record: dict[str, Any]) -> None:
    if "club" in record:
        club = None if record["club"] is None else clubs.of(record)
    else:  # written before clubs: an import went into the single club, a re-score is everyone's
        club = clubs.of(record) if record["job_kind"] == Job.Kind.IMPORT else None
    job = Job.objects.create(
        pk=record["id"],
        kind=record["job_kind"],
        club_id=club,
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
    items = JobItem.objects.bulk_create(
        JobItem(
            job=job,
            key=i["key"],
            game_id=i["game_id"],
            ok=i["ok"],
            outcome=_outcome(job, i),
            error=i["error"],
            winners_before=i["winners_before"],
            winners_after=i["winners_after"],
        )
        for i in record["items"]
    )
    # An archive written before jobs kept counters: its items, as its batches count them now.
    job.done = record.get("done", len(items))
    job.failed = record.get("failed", sum(1 for i in items if not i.ok))
    job.save(update_fields=["done", "failed"])
    JobInput.objects.bulk_create(
        JobInput(job=job, key=i["key"], document=i["document"]) for i in record["inputs"]
    )


def _reset_sequences() -> None:
    """Rows inserted with their ids leave PostgreSQL's id sequences behind: move them on."""
    models = [
        Club,
        Membership,
        Invitation,
        Player,
        BoardGame,
        Edition,
        Game,
        Seat,
        SourceRef,
        PlaySource,
        Round,
        Job,
        JobKeys,
        JobItem,
        JobInput,
        get_user_model(),
    ]
    statements = connection.ops.sequence_reset_sql(no_style(), models)
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)
        _after_deleted_games(cursor)


def _after_deleted_games(cursor: Any) -> None:
    """A new game's id comes after every id a history names: a deleted game's history is kept,
    and a new game with its id would show it as its own."""
    last = GameEvent.objects.aggregate(last=Max("game_id"))["last"]
    if last is None or (Game.objects.aggregate(last=Max("id"))["last"] or 0) >= last:
        return
    table = Game._meta.db_table
    if connection.vendor == "postgresql":
        cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)", [table, last])
    elif connection.vendor == "sqlite":  # AUTOINCREMENT keeps the last id in sqlite_sequence
        cursor.execute(
            "UPDATE sqlite_sequence SET seq = MAX(seq, %s) WHERE name = %s", [last, table]
        )
        if cursor.rowcount == 0:
            cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, last])
    else:
        raise ArchiveError(f"restoring on {connection.vendor} is not supported")


class _Restore:
    """The records restored so far, each written as it is read: users, clubs, editions and jobs
    at once (later records name them), the other rows in batches."""

    def __init__(self, user_model: Any) -> None:
        self.user_model = user_model
        self.users: dict[str, Any] = {u.get_username(): u for u in user_model.objects.all()}
        self.editions: dict[tuple[str, str], Edition] = {}
        self.clubs = _Clubs()
        self.batches = _Batches()

    def add(self, record: dict[str, Any]) -> None:
        """Restore one record (of a kind the reader knows)."""
        users, clubs, batches = self.users, self.clubs, self.batches
        kind = record["kind"]
        if kind == "user":
            users[record["username"]] = _user(self.user_model, users, record)
        elif kind == "club":
            clubs.restore(record)
        elif kind == "membership":
            batches.add(
                Membership(
                    pk=record["id"],
                    club_id=clubs.of(record),
                    user=users[record["user"]],
                    role=record["role"],
                    joined_at=_time(record["joined_at"]),
                )
            )
        elif kind == "invitation":
            batches.add(
                Invitation(
                    pk=record["id"],
                    club_id=clubs.of(record),
                    token=record["token"],
                    role=record["role"],
                    created_by=_by_name(users, record["created_by"]),
                    created_at=_time(record["created_at"]),
                    expires_at=_time(record["expires_at"]),
                    revoked_at=_time(record["revoked_at"]),
                    used_at=_time(record["used_at"]),
                    used_by=_by_name(users, record["used_by"]),
                )
            )
        elif kind == "player":
            batches.add(
                Player(
                    pk=record["id"],
                    club_id=clubs.of(record),
                    name=record["name"],
                    # save() sets it; bulk_create does not
                    name_key=name_key(record["name"]),
                    user=_by_name(users, record["user"]),
                    created_by=_by_name(users, record["created_by"]),
                    created_at=_time(record["created_at"]),
                )
            )
        elif kind == "board_game":
            batches.add(
                BoardGame(
                    pk=record["id"],
                    club_id=clubs.of(record),
                    name=record["name"],
                    name_key=name_key(record["name"]),
                    bgg_id=record["bgg_id"],
                    win=record["win"],
                    created_by=_by_name(users, record["created_by"]),
                    created_at=_time(record["created_at"]),
                )
            )
        elif kind == "source_ref":
            batches.add(
                SourceRef(
                    pk=record["id"],
                    club_id=clubs.of(record),
                    app=record["app"],
                    kind=record["ref_kind"],
                    external_id=record["external_id"],
                    player_id=record["player"],
                    board_game_id=record["board_game"],
                    location=record["location"],
                )
            )
        elif kind == "play_source":
            batches.add(
                PlaySource(
                    pk=record["id"],
                    club_id=clubs.of(record),
                    app=record["app"],
                    external_id=record["external_id"],
                    game_id=record["game"],
                    fingerprint=record["fingerprint"],
                    imported_at=_time(record["imported_at"]),
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
            self.editions[(edition.game_type, edition.key)] = edition
        elif kind == "game":
            batches.flush(Player)
            batches.flush(BoardGame)
            _game(batches, clubs, users, self.editions, record)
        elif kind == "event":
            batches.add(
                GameEvent(
                    game_id=record["game"],
                    action=record["action"],
                    number=record["number"],
                    user=_by_name(users, record["user"]),
                    username=record["username"],
                    at=_time(record["at"]),
                )
            )
        elif kind == "idempotency_key":
            batches.add(
                IdempotencyKey(
                    user=users[record["user"]],
                    club_id=None if record["club"] is None else clubs.of(record),
                    key=record["key"],
                    fingerprint=record["fingerprint"],
                    status=record["status"],
                    content_type=record["content_type"],
                    location=record["location"],
                    body=base64.b64decode(record["body"], validate=True),
                    notices=record["notices"],
                    game_version=record["game_version"],
                    created_at=_time(record["created_at"]),
                )
            )
        else:  # a job
            batches.flush()
            _job(clubs, users, record)


def archive_restore(source: Iterable[bytes]) -> dict[str, int]:
    """Restore an archive into an empty database, in one transaction (all or nothing); then
    rebuild statistics and ratings. Raises ``ArchiveError``, having written nothing, for an
    archive that is incomplete (no trailer, a line cut short), altered (counts or checksum
    unlike the trailer's) or that this database cannot take."""
    reader = _Reader(source)
    reader.header()
    User = get_user_model()
    try:
        with transaction.atomic(), _times_as_recorded():
            _require_empty()
            # The built-in editions `migrate` stored: the archive holds its own.
            Edition.objects.all().delete()
            restore = _Restore(User)
            for record in reader.records():
                restore.add(record)
            restore.batches.flush()
            reader.finish()  # raising here rolls every row back
            if reader.written_before_clubs:
                _into_one_club(restore.clubs.the_single_one())
            elif restore.clubs.single is not None:
                raise ValueError("a record names no club, though the archive counts clubs")
            _reset_sequences()
    except (KeyError, TypeError, ValueError, AttributeError, IntegrityError, DataError) as exc:
        raise ArchiveError(
            f"line {reader.number}: the archive's records cannot be restored "
            f"({type(exc).__name__}: {exc})"
        ) from exc
    stats.stats_rebuild()
    return reader.counts
