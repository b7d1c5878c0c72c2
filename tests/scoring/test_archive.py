"""Backup and restore: ``export_all`` writes every record to one JSON Lines archive and
``import_all`` restores it into an empty database. After the round trip every game's exported
log (or final sheet), result, seats and entries are identical, and so are the statistics and
ratings rebuilt from them; a second archive equals the first."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import timezone

from games.records import board_games, services
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
)
from scoring import jobs, stats
from scoring.engine.potdevin.decks import standard_layout
from scoring.jobs import tasks
from scoring.models import HeadToHead, Job, JobItem, PlayerStats, Rating, RatingHistory
from tests.accounts import first_club, make_user

pytestmark = pytest.mark.django_db


def _snapshot() -> dict[str, Any]:
    games = {}
    for game in Game.objects.select_related("edition", "owner").order_by("id"):
        log = services.game_export_log(game=game) if game.mode == Game.Mode.ROUNDS else None
        games[game.pk] = {
            "log": log,
            "sheet": game.sheet,
            "result": game.result,
            "row": (
                game.game_type,
                game.edition.key if game.edition else None,
                game.variant,
                game.status,
                game.owner.get_username(),
                game.created_at,
                game.finished_at,
                game.club_id,
            ),
            "seats": list(
                Seat.objects.filter(game=game)
                .order_by("seat")
                .values_list("seat", "player_id", "team", "score", "rank")
            ),
            "entries": list(
                Round.objects.filter(game=game)
                .order_by("number")
                .values_list("number", "data", "created_at")
            ),
        }
    return {
        "games": games,
        "players": list(
            Player.objects.order_by("id").values_list("id", "club_id", "name", "user__username")
        ),
        "clubs": list(Club.objects.order_by("id").values_list("id", "name", "slug")),
        "members": list(
            Membership.objects.order_by("id").values_list("club_id", "user__username", "role")
        ),
        "editions": list(
            Edition.objects.order_by("game_type", "key").values_list(
                "game_type", "key", "verified", "data"
            )
        ),
        "users": list(
            get_user_model()
            .objects.order_by("username")
            .values_list("username", "password", "is_staff")
        ),
        "languages": list(
            UserSettings.objects.order_by("user__username").values_list(
                "user__username", "language"
            )
        ),
        "jobs": list(
            Job.objects.order_by("id").values_list("id", "kind", "club_id", "status", "total")
        ),
        "job_items": list(
            JobItem.objects.order_by("job_id", "key").values_list(
                "job_id", "key", "game_id", "ok", "winners_after"
            )
        ),
        "stats": list(PlayerStats.objects.order_by("player_id", "game_type", "bucket").values()),
        "h2h": list(HeadToHead.objects.order_by("player_id", "opponent_id", "game_type").values()),
        "ratings": list(
            Rating.objects.order_by("player_id", "game_type").values(
                "player_id", "game_type", "mu", "sigma", "games"
            )
        ),
        "history": list(
            RatingHistory.objects.order_by("player_id", "game_id").values(
                "player_id", "game_id", "mu", "sigma"
            )
        ),
        "shares": list(
            GameShare.objects.order_by("token").values_list(
                "game_id", "token", "created_by__username", "created_at", "revoked_at"
            )
        ),
        "events": list(
            GameEvent.objects.order_by("id").values_list(
                "game_id", "action", "number", "user__username", "username", "at"
            )
        ),
    }


def _without_ids(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Statistics rows as numbers: their own ids and refresh times are the rebuild's."""
    return [{k: v for k, v in row.items() if k not in {"id", "updated"}} for row in rows]


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _wipe() -> None:
    """An empty database as `migrate` leaves it: the built-in editions and one club, empty."""
    Job.objects.all().delete()
    Game.objects.all().delete()
    GameEvent.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()  # their memberships and invitations too
    Edition.objects.all().delete()
    get_user_model().objects.all().delete()
    Club.objects.create(name="Club", slug="club")
    services.editions_ensure_builtin()


def test_export_then_import_into_an_empty_database_keeps_everything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    call_command("demo", games=120, seed=4)  # both games, some in progress
    owner = get_user_model().objects.get(username="demo")
    club = first_club()
    ada = get_user_model().objects.create_user("ada", password="pw-archive-1")
    UserSettings.objects.create(user=ada, language="pt-br")  # the pages' language kept too
    Player.objects.filter(pk=Player.objects.order_by("id").first().pk).update(user=ada)
    layout = standard_layout()
    layout["A10"], layout["P10"] = layout["P10"], layout["A10"]
    fixed = services.edition_create(
        game_type="pot-de-vin", key="fixed", data=layout, created_by=ada, verified=True
    )
    tableaux = [
        {
            "nobles": 2,
            "artists": 0,
            "traders": 0,
            "workmen": 0,
            "knights": 0,
            "assassins": 0,
            "jokers": 0,
            "bonus": 0,
            "malus": 0,
            "pot_de_vin": 0,
            "gems": 0,
            "cards": 1,
        },
    ] * 3
    services.scorepad_game_create(
        club=club,
        owner=ada,
        players=services.players_resolve(["Ada", "Bea", "Cy"], club=club, created_by=ada),
        game_type="pot-de-vin",
        sheet=[dict(t, cards=c) for t, c in zip(tableaux, (1, 1, 1), strict=True)],
        edition=fixed,
    )
    # A history of every kind: a game's turns entered, corrected and undone by two people, one
    # of whom has left (the name stays), then the game deleted (its history stays).
    bea = get_user_model().objects.create_user("bea", password="pw-archive-2")
    gone = services.game_create(
        club=club,
        owner=ada,
        players=services.players_resolve(["Ada", "Bea", "Cy"], club=club, created_by=ada),
        first_player=0,
        game_type="complots",
    )
    services.round_append(game=gone, round_data={"actor": 0, "action": "income"}, by=bea)
    services.round_correct(
        game=gone, number=1, round_data={"actor": 0, "action": "foreign_aid"}, by=ada
    )
    services.round_undo(game=gone, by=bea)
    services.game_delete(game=gone, by=ada)
    bea.delete()
    # Share links: one open, one stopped.
    shared = Game.objects.filter(game_type="bruges").first()
    services.share_create(game=shared, by=ada)
    stopped = services.share_create(game=shared, by=owner)
    assert services.share_revoke(game=shared, token=stopped.token)
    # A re-score job, run here batch by batch.
    sent: list[Any] = []
    monkeypatch.setattr(tasks.rescore_batch, "delay", lambda *a: sent.append(a))
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.rescore_start(created_by=owner, game_type="complots")
    for job_id, keys in sent:
        jobs.rescore_batch(job_id=job_id, game_ids=keys)
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE
    stats.stats_rebuild()  # the ratings a commit would have queued (tests do not commit)
    before = _snapshot()
    assert {g["row"][0] for g in before["games"].values()} == {"pot-de-vin", "complots", "bruges"}
    assert before["stats"] and before["ratings"] and before["job_items"]

    first = tmp_path / "first.jsonl"
    call_command("export_all", str(first))
    _wipe()
    assert not Game.objects.exists() and not PlayerStats.objects.exists()
    call_command("import_all", str(first))

    after = _snapshot()
    assert after["games"] == before["games"]
    assert before["languages"] == [("ada", "pt-br")]
    assert [(s[2], s[4] is None) for s in sorted(before["shares"], key=lambda s: s[3])] == [
        ("ada", True),
        ("demo", False),
    ]
    # The deleted game's history, as written by hand: who (the account while it exists, the
    # name always), what, which turn.
    kept = [e[:5] for e in before["events"] if e[0] == gone.pk]
    assert kept == [
        (gone.pk, "created", None, "ada", "ada"),
        (gone.pk, "added", 1, None, "bea"),
        (gone.pk, "corrected", 1, "ada", "ada"),
        (gone.pk, "undone", 1, None, "bea"),
        (gone.pk, "deleted", None, "ada", "ada"),
    ]
    keys = (
        "players",
        "clubs",
        "members",
        "editions",
        "users",
        "languages",
        "jobs",
        "job_items",
        "ratings",
        "history",
        "events",
        "shares",
    )
    for key in keys:
        assert after[key] == before[key], key
    assert _without_ids(after["stats"]) == _without_ids(before["stats"])
    assert _without_ids(after["h2h"]) == _without_ids(before["h2h"])
    # Ids go on from the restored ones: a new game does not collide.
    new = services.game_create(
        club=first_club(),
        owner=ada,
        players=services.players_resolve(["Ada", "Bea", "Cy"], club=first_club(), created_by=ada),
        first_player=0,
        game_type="complots",
    )
    assert new.pk > max(before["games"])
    # Nor does it take a deleted game's id, whose history the archive kept.
    assert new.pk > gone.pk

    second = tmp_path / "second.jsonl"
    Game.objects.filter(pk=new.pk).delete()
    GameEvent.objects.filter(game_id=new.pk).delete()
    call_command("export_all", str(second))
    # All but the header's time, and so the trailer's checksum; the trailer's counts too.
    first_records, second_records = _records(first), _records(second)
    assert second_records[1:-1] == first_records[1:-1]
    assert second_records[-1]["counts"] == first_records[-1]["counts"]


def test_import_refuses_a_database_that_is_not_empty(tmp_path: Path) -> None:
    call_command("demo", games=3, seed=1)
    archive = tmp_path / "a.jsonl"
    call_command("export_all", str(archive))
    with pytest.raises(CommandError, match="empty"):
        call_command("import_all", str(archive))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"archive": "something-else/1"}\n', encoding="utf-8")
    _wipe()
    with pytest.raises(CommandError, match="potdevin-archive/1"):
        call_command("import_all", str(bad))


def test_import_refuses_a_club_with_a_member_or_an_invitation(tmp_path: Path) -> None:
    """The club `migrate` makes is empty, and so replaced by the archive's; one with a member,
    or an invitation out, is someone's."""
    call_command("demo", games=3, seed=1)
    archive = tmp_path / "a.jsonl"
    call_command("export_all", str(archive))
    _wipe()
    member = make_user("early", role=Membership.Role.OWNER)
    with pytest.raises(CommandError, match="empty"):
        call_command("import_all", str(archive))
    assert list(Membership.objects.values_list("user__username", "club__slug")) == [
        ("early", "club")
    ]
    member.delete()
    Invitation.objects.create(
        club=first_club(), token="out-there", expires_at=timezone.now() + timedelta(days=7)
    )
    with pytest.raises(CommandError, match="empty"):
        call_command("import_all", str(archive))
    assert not Game.objects.exists()
    Invitation.objects.all().delete()
    call_command("import_all", str(archive))
    assert Game.objects.count() == 3


def test_named_games_durations_and_import_sources_survive_a_round_trip(tmp_path: Path) -> None:
    """A club's named game, a play of it with its duration and a cooperative one, and what an
    import learnt (another app's ids of a player and of a play) come back as they were."""
    club = first_club()
    ada = make_user("ada-archive", club=club)
    azul = board_games.board_game_create(club=club, name="Azul", bgg_id=230802, by=ada)
    pandemic = board_games.board_game_create(club=club, name="Pandemic", win="cooperative")
    players = services.players_resolve(["Ada", "Bea", "Cy"], club=club, created_by=ada)
    play = board_games.result_game_create(
        club=club,
        owner=ada,
        players=players,
        game_type="other",
        board_game=azul,
        sheet=[{"score": 61}, {"score": 74}, {"score": 61}],
        first_player=2,
        duration=45,
        location="Bar Sport",
    )
    board_games.result_game_create(
        club=club,
        owner=ada,
        players=players[:2],
        game_type="other",
        board_game=pandemic,
        sheet=[{}, {}],
        won=True,
    )
    SourceRef.objects.create(
        club=club, app="bgstats", kind="player", external_id="uuid-bea", player=players[1]
    )
    PlaySource.objects.create(
        club=club, app="bgstats", external_id="uuid-play", game=play, fingerprint="f" * 64
    )
    stats.stats_rebuild()

    def snapshot() -> dict[str, Any]:
        return {
            "board_games": list(
                BoardGame.objects.order_by("id").values_list(
                    "id", "club_id", "name", "bgg_id", "win"
                )
            ),
            "games": list(
                Game.objects.order_by("id").values_list(
                    "id",
                    "game_type",
                    "mode",
                    "board_game_id",
                    "duration",
                    "first_player",
                    "sheet",
                    "result",
                )
            ),
            "refs": list(SourceRef.objects.values_list("app", "kind", "external_id", "player_id")),
            "plays": list(
                PlaySource.objects.values_list("app", "external_id", "game_id", "fingerprint")
            ),
            "stats": _without_ids(
                list(PlayerStats.objects.order_by("player_id", "game_type", "bucket").values())
            ),
        }

    before = snapshot()
    # By hand: Bea wins Azul alone; Ada and Cy share second; both stats series are Azul's own.
    assert [s.rank for s in play.seats.order_by("seat")] == [2, 1, 2]
    assert before["games"][0][3:5] == (azul.pk, 45)
    assert {row["game_type"] for row in before["stats"]} == {
        f"other-{azul.pk}",
        f"other-{pandemic.pk}",
    }
    path = tmp_path / "archive.jsonl"
    call_command("export_all", str(path))
    counts = _records(path)[-1]["counts"]
    assert (counts["board_game"], counts["source_ref"], counts["play_source"]) == (2, 1, 1)
    _wipe()
    assert not BoardGame.objects.exists() and not PlaySource.objects.exists()
    call_command("import_all", str(path))
    assert snapshot() == before
    # A new named game does not collide with a restored id.
    assert board_games.board_game_create(club=first_club(), name="Carcassonne").pk > pandemic.pk


def test_jobs_keep_their_counters_and_an_older_archive_counts_its_items(tmp_path: Path) -> None:
    """A job's counters and its items' outcomes come back as they were; an archive written
    before jobs kept them gets the counters from the items and a re-score's outcomes from its
    winners (those jobs rewrote every game they scored), as scoring 0010 gives them."""
    staff = make_user("staff-archive", is_staff=True)
    job = Job.objects.create(kind=Job.Kind.RESCORE, total=3, done=3, failed=1, created_by=staff)
    JobItem.objects.bulk_create(
        [
            JobItem(
                job=job, key=1, ok=True, outcome="unchanged", winners_before=[0], winners_after=[0]
            ),
            JobItem(
                job=job,
                key=2,
                ok=True,
                outcome="winners_changed",
                winners_before=[0],
                winners_after=[1],
            ),
            JobItem(job=job, key=3, ok=False, error={"code": "game_deleted", "message": "gone"}),
        ]
    )
    path = tmp_path / "archive.jsonl"
    call_command("export_all", str(path))
    _wipe()
    call_command("import_all", str(path))
    assert _counted(job.pk) == (3, 1, {1: "unchanged", 2: "winners_changed", 3: ""})

    # The same archive as written before: no counters, no outcomes; its checksum made again.
    lines = path.read_bytes().splitlines(keepends=True)
    older = []
    for line in lines[:-1]:
        record = json.loads(line)
        if record.get("kind") == "job":
            del record["done"], record["failed"]
            for item in record["items"]:
                del item["outcome"]
        older.append((json.dumps(record) + "\n").encode())
    trailer = json.loads(lines[-1])
    trailer["sha256"] = hashlib.sha256(b"".join(older)).hexdigest()
    path.write_bytes(b"".join(older) + (json.dumps(trailer) + "\n").encode())
    _wipe()
    call_command("import_all", str(path))
    assert _counted(job.pk) == (3, 1, {1: "changed", 2: "winners_changed", 3: ""})


def _counted(job_id: int) -> tuple[int, int, dict[int, str]]:
    """A restored job's counters and its items' outcomes by key."""
    job = Job.objects.get(pk=job_id)
    return job.done, job.failed, dict(job.items.values_list("key", "outcome"))
