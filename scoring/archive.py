r"""Backup and restore: every record in one JSON Lines archive, written and read as a stream.

``archive_write`` writes one JSON object per line, in an order a restore can follow (users,
clubs, their memberships and invitations, players, the clubs' named games, editions, games
with their seats and entries, the games' histories (deleted games' included), what imports
learnt (other apps' ids of players, locations, games and plays), jobs with their keys, items
and inputs), reading the games a chunk at a time, so an archive of 100,000 games never holds them
all in memory. ``archive_restore`` reads it back into an empty database with every id kept (a job's
keys name game ids; a player, a game, a job name their club's), then rebuilds the statistics
and ratings, which are derived from the games and so are not archived.

The archive, line by line (each line ends with a newline, ``\n``)::

    {"archive": "potdevin-archive/1", "written_at": "2025-01-31T02:00:00+00:00"}
    {"kind": "user", ...}          every user, then every club, membership, invitation,
    ...                            player, edition, game, event and job
    {"trailer": "potdevin-archive/1",
     "counts": {"user": 3, "club": 2, "membership": 4, "invitation": 1, "player": 40,
                "board_game": 5, "edition": 2, "game": 1200, "event": 9000,
                "source_ref": 45, "play_source": 300, "job": 1},
     "sha256": "<hex>"}

The trailer, on one line and always last, counts the records of each kind (every kind
appears, 0 included; an archive written before histories were kept counts no event, one
written before clubs no club, membership or invitation, one written before imports from other
apps no board_game, source_ref or play_source) and holds the SHA-256 digest of every
byte of the archive before the trailer line (the header and every record line, newlines
included). An archive whose trailer is missing (an export that stopped, a file cut short),
whose counts differ from the records read or whose digest differs from the bytes read is
refused whole: the restore writes its rows inside one transaction and checks the trailer
before it commits.

An archive written before clubs restores into one club, as ``games`` migration 0011 made it:
every account a member, staff its owners, whoever created a game or a player a recorder.

Every line is JSON that ``json.loads`` reads back to the very value stored: orjson writes it
when it can, and the standard library's ``json`` (ASCII only: a lone surrogate such as
``"\ud800"`` is written as its escape) when orjson refuses a value the database can hold (an
integer beyond 64 bits, a lone surrogate) or would write it otherwise (orjson writes an
infinite float as ``null``). A record neither can write faithfully stops the export with an
``ArchiveError`` naming it: no archive that looks complete is ever written without it.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import math
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import IO, Any

import orjson
from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import DataError, IntegrityError, connection, transaction
from django.db.models import Max, Model, Prefetch

from games.records.models import (
    BoardGame,
    Club,
    Edition,
    Game,
    GameEvent,
    GameShare,
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
from games.web.language import supported
from scoring import stats
from scoring.models import Job, JobInput, JobItem, JobKeys

ARCHIVE_FORMAT = "potdevin-archive/1"
# The records, in the archive's order.
KINDS = (
    "user",
    "club",
    "membership",
    "invitation",
    "player",
    "board_game",
    "edition",
    "game",
    "event",
    "source_ref",
    "play_source",
    "job",
)
# The kinds an older archive's trailer may not count: it was written before they existed.
LATER_KINDS = (
    "club",
    "membership",
    "invitation",
    "event",
    "board_game",
    "source_ref",
    "play_source",
)
# The club ``games`` migration 0011 puts everything stored before clubs into.
FIRST_CLUB = {"name": "Club", "slug": "club"}
CHUNK = 500  # games read (or rows written) at a time


class ArchiveError(Exception):
    """A record that cannot be archived, or an archive that cannot be restored here (in which
    case nothing was written)."""


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


def _encode(record: dict[str, Any]) -> bytes:
    """``record`` as one line of JSON (without its newline) that reads back as an equal value:
    orjson's when it writes one, else the standard library's. Raises ``ValueError`` or
    ``TypeError`` for a value neither writes faithfully (an infinite float, say)."""
    try:
        line = orjson.dumps(record)
        if orjson.loads(line) == record:  # orjson writes NaN and infinities as null
            return line
    except orjson.JSONEncodeError:  # an integer beyond 64 bits, a lone surrogate
        pass
    text = json.dumps(record, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    line = text.encode("ascii")
    if _decode(line) != record:
        raise ValueError("its JSON does not read back as the stored value")
    return line


_LONG_NUMBER = re.compile(rb"\d{19}")  # orjson reads an integer beyond 64 bits as a float


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number out of range: {text}")
    return value


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _decode(line: bytes) -> Any:
    """One archive line's value, as ``json.loads`` reads it (orjson when that is the same)."""
    if _LONG_NUMBER.search(line) is None:
        try:
            return orjson.loads(line)
        except orjson.JSONDecodeError:
            pass  # a lone surrogate's escape, or not JSON at all: json tells
    return json.loads(line, parse_float=_finite, parse_constant=_refuse_constant)


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


def _named(record: dict[str, Any]) -> str:
    """How a message names a record: its kind and id (a user by name, an edition by key)."""
    kind = record.get("kind")
    if kind is None:
        return "the header"
    if "id" in record:
        return f"{kind} id {record['id']}"
    if kind == "user":
        return f"user {record['username']!r}"
    return f"{kind} {record.get('game_type')}/{record.get('key')}"


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


class _Reader:
    """An archive's records, checked as they are read: each line whole (ending with a newline)
    and a JSON object; then ``finish`` checks the trailer against what was read."""

    def __init__(self, source: Iterable[bytes]) -> None:
        self._source = iter(source)
        self.number = 0  # of the last line read
        self.counts = dict.fromkeys(KINDS, 0)
        self._digest = hashlib.sha256()
        self._trailer: dict[str, Any] | None = None
        self._digest_before_trailer = ""

    def _line(self) -> bytes | None:
        line = next(self._source, None)
        if line is None:
            return None
        self.number += 1
        if not line.endswith(b"\n"):
            raise ArchiveError(
                f"the archive is incomplete: its last line ({self.number}) is cut short"
            )
        return line

    def _object(self, line: bytes) -> dict[str, Any]:
        try:
            value = _decode(line)
        except ValueError as exc:
            raise ArchiveError(f"line {self.number} is not JSON: {exc}") from exc
        if not isinstance(value, dict):
            raise ArchiveError(f"line {self.number} is not a JSON object")
        return value

    def header(self) -> dict[str, Any]:
        line = self._line()
        if line is None:
            raise ArchiveError("the archive is incomplete: the file is empty")
        self._digest.update(line)
        header = self._object(line)
        if header.get("archive") != ARCHIVE_FORMAT:
            raise ArchiveError(f"not a {ARCHIVE_FORMAT} archive")
        return header

    def records(self) -> Iterator[dict[str, Any]]:
        """The records up to the trailer (kept for ``finish``)."""
        while (line := self._line()) is not None:
            record = self._object(line)
            if "trailer" in record:
                self._trailer = record
                self._digest_before_trailer = self._digest.hexdigest()
                return
            self._digest.update(line)
            kind = record.get("kind")
            if kind not in self.counts:
                raise ArchiveError(f"line {self.number}: unknown record kind {kind!r}")
            self.counts[kind] += 1
            yield record

    def finish(self) -> None:
        """Raise ``ArchiveError`` unless the archive ended with a trailer that matches every
        record read, and nothing after it."""
        trailer = self._trailer
        if trailer is None:
            raise ArchiveError(
                f"the archive is incomplete: it ends after line {self.number} without its "
                "trailer (an export that stopped, or a file cut short)"
            )
        if trailer.get("trailer") != ARCHIVE_FORMAT:
            raise ArchiveError(f"line {self.number}: not a {ARCHIVE_FORMAT} trailer")
        if next(self._source, None) is not None:
            raise ArchiveError(
                f"line {self.number + 1} follows the trailer, which must end the archive"
            )
        counts = trailer.get("counts")
        if isinstance(counts, dict):
            counts = dict.fromkeys(LATER_KINDS, 0) | counts  # written before they existed
        if counts != self.counts:
            raise ArchiveError(
                f"the trailer counts {trailer.get('counts')} but the archive holds "
                f"{self.counts}: records are missing or were added"
            )
        if trailer.get("sha256") != self._digest_before_trailer:
            raise ArchiveError(
                "the archive's checksum does not match its trailer's: it was altered or damaged"
            )

    @property
    def written_before_clubs(self) -> bool:
        """Whether the trailer (checked by ``finish``) counts no club: an older archive."""
        return self._trailer is not None and "club" not in self._trailer["counts"]


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
            users: dict[str, Any] = {u.get_username(): u for u in User.objects.all()}
            editions: dict[tuple[str, str], Edition] = {}
            clubs = _Clubs()
            batches = _Batches()
            for record in reader.records():
                kind = record["kind"]
                if kind == "user":
                    users[record["username"]] = _user(User, users, record)
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
                    editions[(edition.game_type, edition.key)] = edition
                elif kind == "game":
                    batches.flush(Player)
                    batches.flush(BoardGame)
                    _game(batches, clubs, users, editions, record)
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
                else:  # a job
                    batches.flush()
                    _job(clubs, users, record)
            batches.flush()
            reader.finish()  # raising here rolls every row back
            if reader.written_before_clubs:
                _into_one_club(clubs.the_single_one())
            elif clubs.single is not None:
                raise ValueError("a record names no club, though the archive counts clubs")
            _reset_sequences()
    except (KeyError, TypeError, ValueError, AttributeError, IntegrityError, DataError) as exc:
        raise ArchiveError(
            f"line {reader.number}: the archive's records cannot be restored "
            f"({type(exc).__name__}: {exc})"
        ) from exc
    stats.stats_rebuild()
    return reader.counts
