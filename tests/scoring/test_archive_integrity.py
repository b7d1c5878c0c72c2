"""Backups that cannot lie: an archive holds every value the database can (Unicode of every
kind, long texts, nested JSON, integers beyond 64 bits and, on SQLite, lone surrogates) and
reads back to the very same rows; an archive cut short (no trailer, a line cut in two) or
altered (a record changed, a count changed) is refused, and the database is left exactly as
it was. Every comparison is with the rows read from the database before the export."""

from __future__ import annotations

import hashlib
import io
import json
import math
from pathlib import Path
from typing import Any

import orjson
import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from django.db.models import ForeignKey, Model

from games.records import clubs, services
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
)
from scoring import archive, stats
from scoring.archive import ArchiveError, archive_restore, export
from scoring.models import HeadToHead, Job, JobInput, JobItem, JobKeys, PlayerStats, Rating
from tests.accounts import first_club, make_user

pytestmark = pytest.mark.django_db

User = get_user_model()
ARCHIVED = [
    User,
    Club,
    Membership,
    Invitation,
    Player,
    Edition,
    Game,
    Seat,
    Round,
    GameEvent,
    GameShare,
    Job,
    JobKeys,
    JobItem,
    JobInput,
]
IDS_KEPT = {
    Club,
    Membership,
    Invitation,
    Player,
    Game,
    Job,
}  # the others are restored under new ids, found by their keys
BIG = 2**64
SURROGATE = "\ud800"

HOSTILE_NAMES = [
    "Ada 🎲🃏👩🏽‍🚀",  # emoji, a skin tone, a joiner sequence
    "נועה בת-שבע",  # right to left
    "مرحبا ١٢٣",  # right to left, Arabic digits
    "e\u0301mile Zo\u0308e",  # combining marks (not NFC)
    'Bob "the \\ slash"',  # quotes and a backslash
    "O'Neil \u202eevil\u202c",  # a right-to-left override
    "\\u0041 not an escape",  # looks like an escape, is text
]

NESTED: dict[str, Any] = {
    "deep": [[[{"a": [1, -(2**63), 2**63 - 1, 0]}]], {"b": {"c": {"d": [None, True, False]}}}],
    "floats": [0.1, -2.5, 1e-7, 3.141592653589793, 1.5e300, -0.0, 2.0],
    "ints": [2**53 + 1, 2**63 - 1, -(2**63), 2**63, 2**64 - 1],
    "text": 'quote " backslash \\ slash / newline \n tab \t nul-free 🎲 עברית e\u0301',
    "empty": {"list": [], "object": {}, "string": ""},
    '🔑 key with "quotes" and \\': "value",
}


def _natural(model: type[Model]) -> list[str]:
    """The fields of ``model`` that a restore keeps: its own id only where ids are kept, a
    user or an edition by its keys (the restore makes them anew)."""
    names = []
    for field in model._meta.concrete_fields:
        if field.primary_key and model not in IDS_KEPT:
            continue
        if isinstance(field, ForeignKey) and field.related_model is User:
            names.append(f"{field.name}__username")
        elif isinstance(field, ForeignKey) and field.related_model is Edition:
            names += [f"{field.name}__game_type", f"{field.name}__key"]
        else:
            names.append(field.attname)
    return names


def _rows() -> dict[str, list[dict[str, Any]]]:
    """Every archived row, as the database returns it."""
    return {
        model.__name__: sorted(model.objects.values(*_natural(model)), key=repr)
        for model in ARCHIVED
    }


def _derived() -> dict[str, list[dict[str, Any]]]:
    """Statistics and ratings, which the restore rebuilds (their ids and times are its own)."""
    skip = {"id", "updated"}
    return {
        model.__name__: sorted(
            ({k: v for k, v in row.items() if k not in skip} for row in model.objects.values()),
            key=repr,
        )
        for model in (PlayerStats, HeadToHead, Rating)
    }


def _table_counts() -> dict[str, int]:
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


def _wipe() -> None:
    """An empty database as `migrate` leaves it: the built-in editions and one club, empty."""
    Job.objects.all().delete()
    Game.objects.all().delete()
    GameEvent.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()  # their memberships and invitations too
    Edition.objects.all().delete()
    User.objects.all().delete()
    Club.objects.create(name="Club", slug="club")
    services.editions_ensure_builtin()


def _assert_empty() -> None:
    builtin = set(Edition.objects.values_list("game_type", "key"))
    assert builtin and not Edition.objects.filter(created_by__isnull=False).exists()
    assert list(Club.objects.values_list("name", "slug")) == [("Club", "club")]
    for model in ARCHIVED:  # every archived row but the built-in editions and migrate's club
        if model not in (Edition, Club):
            assert model.objects.count() == 0, model.__name__
    for model in (PlayerStats, HeadToHead, Rating):
        assert model.objects.count() == 0, model.__name__


def _strict_json(line: bytes) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(name)

    return json.loads(line, parse_constant=refuse)


def _some_records() -> None:
    """A few finished games (so that there are statistics and ratings) and a job."""
    call_command("demo", games=6, seed=3)
    owner = User.objects.get(username="demo")
    job = Job.objects.create(
        kind=Job.Kind.RESCORE, status=Job.Status.DONE, params={"game_type": "complots"}, total=2
    )
    games = list(Game.objects.order_by("id")[:2])
    services.share_create(game=games[0], by=owner)  # a share link, kept by the backup
    JobKeys.objects.create(job=job, keys=[g.pk for g in games])
    for g in games:
        JobItem.objects.create(job=job, key=g.pk, game=g, ok=True, winners_after=[0])
    Job.objects.filter(pk=job.pk).update(created_by=owner)
    stats.stats_rebuild()  # the ratings a commit would have queued (tests do not commit)


def _export_bytes(tmp_path: Path) -> bytes:
    path = tmp_path / "archive.jsonl"
    call_command("export_all", str(path))
    return path.read_bytes()


def test_hostile_but_valid_data_round_trips_exactly(tmp_path: Path) -> None:
    sqlite = connection.vendor == "sqlite"
    _some_records()
    ada = User.objects.create_user('ada 🎲 "quoted" \\', email='a"b@example.org', password="pw")
    club = Club.objects.create(name=HOSTILE_NAMES[2], slug="hostile")
    Membership.objects.create(club=club, user=ada, role=Membership.Role.OWNER)
    players = [
        Player.objects.create(club=club, name=name, created_by=ada) for name in HOSTILE_NAMES
    ]
    held = dict(NESTED, big=BIG, negative_big=-BIG, huge=10**40)  # PostgreSQL's jsonb holds these
    if sqlite:  # SQLite holds a lone surrogate in JSON too (as its escape); PostgreSQL cannot
        held.update(lone=SURROGATE, pair=["\udfff" + "x", {SURROGATE: "as a key"}])
    else:
        with pytest.raises(DatabaseError), transaction.atomic():
            Round.objects.create(game=Game.objects.first(), number=999, data={"x": SURROGATE})
    edition = Edition.objects.create(
        game_type="pot-de-vin",
        key="hostile",
        description="\n".join(HOSTILE_NAMES),
        data=held,
        created_by=ada,
    )
    notes = ('🎲 Zo\u0308e «مرحبا» "q" \\ \n' * 400)[:5000]
    game = Game.objects.create(
        club=club,
        game_type="pot-de-vin",
        edition=edition,
        location=HOSTILE_NAMES[1],
        notes=notes,
        owner=ada,
        player_count=3,
        first_player=0,
        setup=held,
        teams=[[0, 2], [1]],
    )
    for seat, player in enumerate(players[:3]):
        Seat.objects.create(game=game, seat=seat, player=player, team=seat % 2)
    for number in (1, 2):
        Round.objects.create(game=game, number=number, data={"n": number, "held": held})
    # Beyond 64 bits, on a line of its own that orjson would read (no lone surrogate on it).
    beyond = Job.objects.create(kind=Job.Kind.RESCORE, params={"big": BIG, "below": -(2**63) - 1})
    job = Job.objects.create(kind=Job.Kind.IMPORT, club=club, params=held, error=notes[:300])
    JobInput.objects.create(job=job, key=0, document={"doc": held, "names": HOSTILE_NAMES})
    JobItem.objects.create(job=job, key=0, ok=False, error={"message": HOSTILE_NAMES[0]})

    before = _rows()
    derived = _derived()
    stored = Round.objects.get(game=game, number=1).data["held"]
    # The database gives back what was stored: integers beyond 64 bits stay integers, and the
    # lone surrogate is a lone surrogate: values orjson refuses to write.
    assert stored["big"] == BIG and type(stored["big"]) is int
    assert stored["huge"] == 10**40 and type(stored["huge"]) is int
    if sqlite:
        assert stored["lone"] == SURROGATE and stored["pair"][1] == {SURROGATE: "as a key"}
    with pytest.raises(orjson.JSONEncodeError):
        orjson.dumps(stored)
    assert len(Game.objects.get(pk=game.pk).notes) == 5000
    assert derived["PlayerStats"] and derived["Rating"]

    data = _export_bytes(tmp_path)
    lines = data.split(b"\n")
    assert lines[-1] == b""  # the last line is whole
    values = [_strict_json(line) for line in lines[:-1]]  # every line is plain JSON
    record = next(v for v in values if v.get("kind") == "game" and v["id"] == game.pk)
    entries = [e["data"] for e in record["entries"]]
    # json.loads reads back the very values stored
    assert repr(entries) == repr(
        [r.data for r in Round.objects.filter(game=game).order_by("number")]
    )
    assert record["notes"] == notes

    _wipe()
    _assert_empty()
    call_command("import_all", str(tmp_path / "archive.jsonl"))

    after = _rows()
    for name, rows in before.items():
        assert after[name] == rows, name
        assert repr(after[name]) == repr(rows), name  # 2**64 == float(2**64): types too
    assert _derived() == derived
    assert Job.objects.get(pk=beyond.pk).params == {"big": BIG, "below": -(2**63) - 1}
    assert type(Job.objects.get(pk=beyond.pk).params["big"]) is int
    restored = Round.objects.get(game=game, number=1).data["held"]
    assert type(restored["big"]) is int and restored["negative_big"] == -BIG
    assert math.copysign(1, restored["floats"][5]) == math.copysign(1, stored["floats"][5])
    if sqlite:
        assert restored["lone"] == SURROGATE
        assert Edition.objects.get(key="hostile").data["pair"][0] == "\udfff" + "x"
    assert list(Player.objects.filter(pk__in=[p.pk for p in players]).order_by("id")) == players
    assert Player.objects.get(pk=players[3].pk).name == HOSTILE_NAMES[3]  # not normalized


def test_a_record_that_cannot_be_written_faithfully_stops_the_export(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    _some_records()
    game = Game.objects.order_by("id").last()
    assert game is not None
    if connection.vendor == "sqlite":
        # JSON SQLite holds, that Python reads as an infinite float (orjson would write null).
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE games_round SET data = '{\"x\": 1e999}' WHERE id = %s",
                [Round.objects.filter(game=game).order_by("number").first().pk],
            )
        assert math.isinf(Round.objects.filter(game=game).order_by("number").first().data["x"])
        what = f"game id {game.pk}"
    else:  # jsonb holds no such number: a record with one, as the export would read it
        real_jobs = export._jobs

        def jobs_and_one_more(names: dict[int, str]) -> Any:
            yield from real_jobs(names)
            yield {"kind": "job", "id": 4242, "params": {"x": math.inf}}

        monkeypatch.setattr(export, "_jobs", jobs_and_one_more)
        what = "job id 4242"

    path = tmp_path / "backup.jsonl"
    path.write_bytes(b"yesterday's archive")
    with pytest.raises(CommandError, match=what) as failed:
        call_command("export_all", str(path))
    assert "incomplete" in str(failed.value)
    assert path.read_bytes() == b"yesterday's archive"  # kept, not replaced by a cut one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.jsonl"]

    capsysbinary.readouterr()
    with pytest.raises(CommandError, match=what):
        call_command("export_all", "-")
    written = capsysbinary.readouterr().out
    assert written and b'"trailer"' not in written
    _wipe()
    counts = _table_counts()
    with pytest.raises(ArchiveError, match="incomplete"):
        archive_restore(io.BytesIO(written))
    assert _table_counts() == counts


def test_encoding_refuses_what_json_cannot_hold() -> None:
    for value in (math.inf, -math.inf, math.nan):
        with pytest.raises(ValueError):
            archive._encode({"kind": "job", "params": [value]})
    line = archive._encode({"a": [BIG, SURROGATE, "é"]})
    assert line == b'{"a":[18446744073709551616,"\\ud800","\\u00e9"]}'
    assert json.loads(line) == {"a": [BIG, SURROGATE, "é"]}
    assert archive._encode({"a": 2**63, "b": "é"}) == orjson.dumps({"a": 2**63, "b": "é"})


def _cuts(data: bytes) -> dict[str, bytes]:
    lines = data.splitlines(keepends=True)
    assert b'"trailer"' in lines[-1] and len(lines) > 10
    middle = len(lines) // 2
    return {
        "empty": b"",
        "in the header": lines[0][:20],
        "after the header": lines[0],
        "in the middle of a record": b"".join(lines[:middle]) + lines[middle][:-30],
        "a record without its newline": b"".join(lines[:middle]) + lines[middle][:-1],
        "at a line boundary in the middle": b"".join(lines[:middle]),
        "at the line boundary before the trailer": b"".join(lines[:-1]),
        "in the trailer": b"".join(lines[:-1]) + lines[-1][:25],
        "the trailer without its newline": data[:-1],
    }


def test_a_cut_archive_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    _some_records()
    data = _export_bytes(tmp_path)
    _wipe()
    counts = _table_counts()
    for where, cut in _cuts(data).items():
        with pytest.raises(ArchiveError, match="incomplete"):
            archive_restore(io.BytesIO(cut))
        assert _table_counts() == counts, where
        _assert_empty()
    # The archive whole is restored (the refusals above left nothing behind).
    archive_restore(io.BytesIO(data))
    assert Game.objects.count() == 6


def _tampered(data: bytes) -> dict[str, tuple[bytes, str]]:
    lines = data.splitlines(keepends=True)
    trailer = json.loads(lines[-1])
    player = next(i for i, line in enumerate(lines) if b'"kind":"player"' in line)
    renamed = json.loads(lines[player])
    renamed["name"] += " (altered)"
    more = dict(trailer, counts=dict(trailer["counts"], game=trailer["counts"]["game"] + 1))
    digest = dict(trailer, sha256="0" * 64)
    extra = json.loads(lines[player])
    extra["id"] = 999_999
    extra["name"] = "An extra"

    def line(value: dict[str, Any]) -> bytes:
        return json.dumps(value).encode() + b"\n"

    return {
        "a record changed": (
            b"".join(lines[:player] + [line(renamed)] + lines[player + 1 :]),
            "checksum",
        ),
        "a record removed": (b"".join(lines[:player] + lines[player + 1 :]), "counts"),
        "a record added before the trailer": (
            b"".join(lines[:player] + [line(extra)] + lines[player:]),
            "counts",
        ),
        "a count changed": (b"".join(lines[:-1]) + line(more), "counts"),
        "the checksum changed": (b"".join(lines[:-1]) + line(digest), "checksum"),
        "a record after the trailer": (data + line(extra), "follows the trailer"),
        "a blank line": (b"".join(lines[:player] + [b"\n"] + lines[player:]), "not JSON"),
        "a second trailer": (data + lines[-1], "follows the trailer"),
    }


def test_a_tampered_archive_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    _some_records()
    data = _export_bytes(tmp_path)
    _wipe()
    counts = _table_counts()
    for what, (altered, message) in _tampered(data).items():
        assert altered != data, what
        with pytest.raises(ArchiveError, match=message):
            archive_restore(io.BytesIO(altered))
        assert _table_counts() == counts, what
        _assert_empty()


def test_an_archive_written_before_histories_were_kept_restores(tmp_path: Path) -> None:
    """Such an archive has no event record and its trailer counts no event: it restores, with
    every other record, and the games have no history."""
    _some_records()
    assert GameEvent.objects.exists()
    lines = _export_bytes(tmp_path).splitlines(keepends=True)
    older = [line for line in lines[:-1] if b'"kind":"event"' not in line]
    trailer = json.loads(lines[-1])
    counts = {kind: n for kind, n in trailer["counts"].items() if kind != "event"}
    digest = hashlib.sha256(b"".join(older)).hexdigest()
    older.append(json.dumps(dict(trailer, counts=counts, sha256=digest)).encode() + b"\n")
    games = set(Game.objects.values_list("id", flat=True))
    _wipe()
    restored = archive_restore(io.BytesIO(b"".join(older)))
    assert restored["event"] == 0 and restored["game"] == len(games)
    assert set(Game.objects.values_list("id", flat=True)) == games
    assert not GameEvent.objects.exists()


def test_the_commands_write_a_trailer_and_refuse_a_cut_file(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    _some_records()
    before = _rows()
    path = tmp_path / "backup.jsonl"
    call_command("export_all", str(path))
    capsysbinary.readouterr()
    call_command("export_all", "-")
    piped = capsysbinary.readouterr().out
    on_disk = path.read_bytes()
    for data in (on_disk, piped):
        lines = [_strict_json(line) for line in data.splitlines()]
        trailer = lines[-1]
        assert set(trailer) == {"trailer", "counts", "sha256"}
        assert trailer["trailer"] == "potdevin-archive/1"
        assert trailer["counts"] == {
            "user": User.objects.count(),
            "club": Club.objects.count(),
            "membership": Membership.objects.count(),
            "invitation": Invitation.objects.count(),
            "player": Player.objects.count(),
            "board_game": BoardGame.objects.count(),
            "edition": Edition.objects.count(),
            "game": Game.objects.count(),
            "event": GameEvent.objects.count(),
            "source_ref": SourceRef.objects.count(),
            "play_source": PlaySource.objects.count(),
            "job": Job.objects.count(),
            "idempotency_key": IdempotencyKey.objects.exclude(status=None).count(),
        }
        body = data[: data.rindex(b"\n", 0, len(data) - 1) + 1]
        assert trailer["sha256"] == hashlib.sha256(body).hexdigest()
    # The same records both ways (the header's time aside).
    assert on_disk.splitlines()[1:-1] == piped.splitlines()[1:-1]
    assert not list(tmp_path.glob("*.partial"))

    _wipe()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(on_disk[: len(on_disk) * 2 // 3])
    with pytest.raises(CommandError, match="incomplete") as refused:
        call_command("import_all", str(cut))
    assert "nothing was restored" in str(refused.value)
    _assert_empty()

    call_command("import_all", str(path))
    assert _rows() == before


@pytest.mark.django_db(transaction=True)
def test_a_refused_restore_commits_nothing(tmp_path: Path) -> None:
    """Outside a test's own transaction: the export reads in a transaction of its own, and a
    refused restore rolls back for real."""
    _some_records()
    before = _rows()
    path = tmp_path / "backup.jsonl"
    call_command("export_all", str(path))
    data = path.read_bytes()
    _wipe()
    counts = _table_counts()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(data[: data.rindex(b'{"trailer"')])
    with pytest.raises(CommandError, match="incomplete"):
        call_command("import_all", str(cut))
    assert _table_counts() == counts
    _assert_empty()
    call_command("import_all", str(path))
    assert _rows() == before
    assert PlayerStats.objects.exists() and Rating.objects.exists()


def _rewind_ids(*models: type[Model]) -> None:
    """Ids given from the start again, as in a database just made by `migrate` (the rows made
    before moved them on): only the restore then moves them past the archive's."""
    with connection.cursor() as cursor:
        for model in models:
            table = model._meta.db_table
            if connection.vendor == "postgresql":
                cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), 1, false)", [table])
            else:  # SQLite's AUTOINCREMENT keeps the last id given here
                cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])


def test_clubs_their_members_and_invitations_round_trip_with_their_ids(tmp_path: Path) -> None:
    """Two clubs, each with its members (one person in both, with another role in each), its
    invitations (open, used, revoked), its players (an "Ada" in each), games and jobs; a club
    deleted before leaves gaps in the ids, which a restore that renumbered would close."""
    home = first_club()
    olga = make_user("olga", club=home, role=Membership.Role.OWNER)
    ada = make_user("ada", club=home, role=Membership.Role.ADMIN)
    cy = make_user("cy", club=home, role=Membership.Role.MEMBER)
    gone = clubs.club_create(name="Gone", owner=cy)
    clubs.invitation_create(club=gone, role=Membership.Role.MEMBER, by=cy)
    clubs.club_delete(club=gone)
    away = clubs.club_create(name="Les Pions", owner=ada)
    clubs.club_update(club=away, public_results=True)
    Membership.objects.create(club=away, user=cy, role=Membership.Role.RECORDER)
    open_link = clubs.invitation_create(club=home, role=Membership.Role.RECORDER, by=olga)
    used = clubs.invitation_create(club=away, role=Membership.Role.MEMBER, by=ada, days=3)
    dan = make_user("dan", role=None)
    clubs.invitation_accept(token=used.token, user=dan)
    stopped = clubs.invitation_create(club=away, role=Membership.Role.ADMIN, by=ada)
    assert clubs.invitation_revoke(club=away, invitation_id=stopped.pk)
    at_home = services.players_resolve(["Ada", "Bea", "Cy"], club=home, created_by=olga)
    abroad = services.players_resolve(["Ada", "Dan", "Eve"], club=away, created_by=ada)
    Player.objects.filter(pk__in=[at_home[0].pk, abroad[0].pk]).update(user=ada)
    games = {}
    for club, owner, players in ((home, olga, at_home), (away, ada, abroad)):
        game = services.game_create(
            club=club, owner=owner, players=players, first_player=0, game_type="complots"
        )
        services.round_append(game=game, round_data={"actor": 0, "action": "income"}, by=owner)
        games[game.pk] = club.pk
    imported = Job.objects.create(kind=Job.Kind.IMPORT, club=away, status=Job.Status.DONE)
    everyone = Job.objects.create(kind=Job.Kind.RESCORE, status=Job.Status.DONE)
    assert gone.pk < away.pk and not Club.objects.filter(pk=gone.pk).exists()
    before = _rows()
    assert len(before["Club"]) == 2 and len(before["Invitation"]) == 3

    data = _export_bytes(tmp_path)
    _wipe()
    _rewind_ids(Club, Membership, Invitation)
    _assert_empty()
    restored = archive_restore(io.BytesIO(data))

    assert (restored["club"], restored["membership"], restored["invitation"]) == (2, 6, 3)
    after = _rows()
    for name, rows in before.items():
        assert after[name] == rows, name
        assert repr(after[name]) == repr(rows), name
    # What the test made, read back: the clubs under their ids, each member's role in each.
    assert list(Club.objects.order_by("id").values_list("id", "slug", "public_results")) == [
        (home.pk, "club", False),
        (away.pk, "les-pions", True),
    ]
    roles = Membership.objects.values_list("club_id", "user__username", "role")
    assert sorted(roles) == sorted(
        [
            (home.pk, "olga", "owner"),
            (home.pk, "ada", "admin"),
            (home.pk, "cy", "member"),
            (away.pk, "ada", "owner"),
            (away.pk, "cy", "recorder"),
            (away.pk, "dan", "member"),
        ]
    )
    links = Invitation.objects.order_by("id")
    assert list(links.values_list("id", "token", "club_id", "created_by__username")) == [
        (open_link.pk, open_link.token, home.pk, "olga"),
        (used.pk, used.token, away.pk, "ada"),
        (stopped.pk, stopped.token, away.pk, "ada"),
    ]
    assert list(Invitation.objects.open().values_list("token", flat=True)) == [open_link.token]
    assert Invitation.objects.get(pk=used.pk).used_by.get_username() == "dan"
    assert Invitation.objects.get(pk=stopped.pk).revoked_at is not None
    adas = Player.objects.filter(name="Ada").order_by("id")
    assert list(adas.values_list("id", "club_id", "user__username")) == [
        (at_home[0].pk, home.pk, "ada"),
        (abroad[0].pk, away.pk, "ada"),
    ]
    assert dict(Game.objects.values_list("id", "club_id")) == games
    assert dict(Job.objects.values_list("id", "club_id")) == {
        imported.pk: away.pk,
        everyone.pk: None,
    }
    # New rows take ids after the restored ones.
    cy = User.objects.get(username="cy")
    newer = clubs.club_create(name="Newer", owner=cy)
    assert newer.pk > away.pk
    assert Membership.objects.get(club=newer).pk > max(m["id"] for m in before["Membership"])
    assert clubs.invitation_create(club=newer, role="member", by=cy).pk > stopped.pk


def _sealed(body: list[bytes], counts: dict[str, int]) -> bytes:
    """``body`` (the header and the records, each a line) with a trailer that matches it."""
    trailer = {
        "trailer": "potdevin-archive/1",
        "counts": counts,
        "sha256": hashlib.sha256(b"".join(body)).hexdigest(),
    }
    return b"".join(body) + json.dumps(trailer).encode() + b"\n"


def _line(record: dict[str, Any]) -> bytes:
    return json.dumps(record).encode() + b"\n"


def test_an_archive_written_before_clubs_restores_into_one_club() -> None:
    """Written by hand as the export wrote it before clubs (no club, membership or invitation;
    players, games and jobs naming no club): everything goes into one club, as migration 0011
    put it, staff and superusers its owners, whoever created a game or a player a recorder."""
    when = "2024-05-01T10:00:00+00:00"

    def user(name: str, *, staff: bool = False, superuser: bool = False) -> dict[str, Any]:
        return {
            "kind": "user",
            "username": name,
            "email": "",
            "password": "!",
            "is_staff": staff,
            "is_superuser": superuser,
            "is_active": True,
            "date_joined": when,
        }

    def player(pk: int, name: str, user: str | None, created_by: str | None) -> dict[str, Any]:
        return {
            "kind": "player",
            "id": pk,
            "name": name,
            "user": user,
            "created_by": created_by,
            "created_at": when,
        }

    def game(pk: int, owner: str, seats: list[int]) -> dict[str, Any]:
        return {
            "kind": "game",
            "id": pk,
            "game_type": "complots",
            "edition": None,
            "variant": "",
            "played_on": "2024-05-02",
            "location": "",
            "notes": "",
            "owner": owner,
            "mode": "rounds",
            "status": "in_progress",
            "player_count": len(seats),
            "first_player": 0,
            "teams": None,
            "setup": {},
            "finish": None,
            "sheet": None,
            "result": None,
            "engine_version": "",
            "created_at": when,
            "updated_at": when,
            "finished_at": None,
            "seats": [
                {"seat": n, "player": p, "team": None, "score": None, "rank": None}
                for n, p in enumerate(seats)
            ],
            "entries": [],
        }

    def job(pk: int, kind: str, created_by: str) -> dict[str, Any]:
        return {
            "kind": "job",
            "id": pk,
            "job_kind": kind,
            "status": "done",
            "params": {},
            "total": 0,
            "created_by": created_by,
            "created_at": when,
            "finished_at": when,
            "progressed_at": None,
            "error": "",
            "keys": None,
            "items": [],
            "inputs": [],
        }

    records = [
        {"archive": "potdevin-archive/1", "written_at": when},
        user("root", superuser=True),
        user("staffer", staff=True),  # owns a game too: staff comes first
        user("keeper"),  # created a player
        user("host"),  # owns a game
        user("guest"),  # is a player, created nothing
        player(7, "Ada", "guest", "keeper"),
        player(9, "Bea", None, None),
        player(12, "Cy", None, None),
        game(40, "host", [7, 9, 12]),
        game(41, "staffer", [9, 12]),
        job(3, "import", "host"),
        job(4, "rescore", "root"),
    ]
    # The oldest trailer: no club, membership or invitation, and no event either.
    counts = {"user": 5, "player": 3, "edition": 0, "game": 2, "job": 2}
    _wipe()
    restored = archive_restore(io.BytesIO(_sealed([_line(r) for r in records], counts)))

    assert (restored["club"], restored["membership"], restored["game"]) == (0, 0, 2)
    club = Club.objects.get()
    assert (club.name, club.slug, club.public_results) == ("Club", "club", False)
    assert dict(Membership.objects.filter(club=club).values_list("user__username", "role")) == {
        "root": "owner",
        "staffer": "owner",
        "keeper": "recorder",
        "host": "recorder",
        "guest": "member",
    }
    assert Membership.objects.count() == 5
    assert dict(Player.objects.values_list("id", "club_id")) == {
        7: club.pk,
        9: club.pk,
        12: club.pk,
    }
    assert dict(Game.objects.values_list("id", "club_id")) == {40: club.pk, 41: club.pk}
    # An import went into the club; a re-score, as migration 0011 left it, was every club's.
    assert dict(Job.objects.values_list("id", "club_id")) == {3: club.pk, 4: None}
    assert Player.objects.get(pk=7).user.get_username() == "guest"


def test_an_archive_naming_a_club_it_lacks_is_refused_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    """Records altered, then sealed again with a trailer that matches them (counts and
    checksum), so that only the check of the club each names can refuse them."""
    _some_records()
    owner = User.objects.get(username="demo")
    away = clubs.club_create(name="Away", owner=owner)
    clubs.invitation_create(club=away, role=Membership.Role.MEMBER, by=owner)
    lines = _export_bytes(tmp_path).splitlines(keepends=True)
    body, counts = lines[:-1], json.loads(lines[-1])["counts"]
    assert counts["club"] == 2 and counts["invitation"] == 1

    def at(kind: str, **match: Any) -> int:
        return next(
            i
            for i, line in enumerate(body)
            if json.loads(line).get("kind") == kind
            and all(json.loads(line)[k] == v for k, v in match.items())
        )

    def moved(kind: str) -> bytes:
        n = at(kind)
        record = dict(json.loads(body[n]), club=999_999)
        return _sealed(body[:n] + [_line(record)] + body[n + 1 :], counts)

    cut = at("club", id=away.pk)
    player = at("player")
    clubless = {k: v for k, v in json.loads(body[player]).items() if k != "club"}
    altered = {
        "a club cut out, its members and invitation kept": (
            _sealed(body[:cut] + body[cut + 1 :], dict(counts, club=1)),
            "names club",
        ),
        "a membership of another club": (moved("membership"), "names club"),
        "an invitation to another club": (moved("invitation"), "names club"),
        "a player of another club": (moved("player"), "names club"),
        "a game of another club": (moved("game"), "names club"),
        "a job of another club": (moved("job"), "names club"),
        "a player of no club": (
            _sealed(body[:player] + [_line(clubless)] + body[player + 1 :], counts),
            "names no club",
        ),
    }
    _wipe()
    before = _table_counts()
    for what, (data, message) in altered.items():
        with pytest.raises(ArchiveError, match=message):
            archive_restore(io.BytesIO(data))
        assert _table_counts() == before, what
        _assert_empty()
    # Sealed the same way but unaltered, the archive restores.
    archive_restore(io.BytesIO(_sealed(body, counts)))
    assert Club.objects.count() == 2 and Invitation.objects.filter(club=away.pk).exists()
