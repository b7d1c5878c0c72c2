"""Migrations games 0010-0012 and scoring 0007: everything stored before clubs goes into one
club (slug "club"), nothing lost and no id changed. Every account is a member of it, staff and
superusers its owners, whoever created a game or a player a recorder; every player and game is
the club's, import jobs too (re-score jobs stay every club's: null). Then a club is required, a
player's name unique within its club and an account linked to one player per club.

Thousands of games of the three types are stored with the models of the state before clubs
(rows only: they need not replay), the database is migrated to the latest state, back, and
forwards again. A fresh database gets the club too."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tests.records.migrations import latest, migrate

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.usefixtures("back_to_latest"),
]

BEFORE = [("games", "0009_game_shares"), ("scoring", "0006_stats_per_game_type")]
GAME_TYPES = {"pot-de-vin": (3, 4, 5), "complots": (2, 3, 4, 5, 6), "bruges": (2, 3, 4)}
PER_TYPE = 1000
PLAYERS = 40
# Every table the migrations could touch, as (app, model): rows compared field by field.
TABLES = [
    ("auth", "User"),
    ("games", "Edition"),
    ("games", "Player"),
    ("games", "Game"),
    ("games", "Seat"),
    ("games", "Round"),
    ("games", "GameEvent"),
    ("games", "GameShare"),
    ("scoring", "Job"),
    ("scoring", "JobKeys"),
    ("scoring", "JobInput"),
    ("scoring", "JobItem"),
    ("scoring", "PlayerGame"),
    ("scoring", "Rating"),
]
# The fields clubs add, and the ones added since (named games, durations, the statistics' and
# import items' own, jobs' counters, results' digests): not in the state before.
NEW_FIELDS = {
    "club_id",
    "board_game_id",
    "duration",
    "detailed",
    "outcome",
    "done",
    "failed",
    "result_digest",
}


def _snapshot(apps: Any) -> dict[tuple[str, str], dict[int, dict[str, Any]]]:
    """Every row of TABLES by id, without the fields clubs add."""
    out = {}
    for app, name in TABLES:
        model = apps.get_model(app, name)
        out[app, name] = {
            row["id"]: {k: _value(model, k, v) for k, v in row.items() if k not in NEW_FIELDS}
            for row in model.objects.order_by("id").values()
        }
    return out


def _value(model: Any, name: str, value: Any) -> Any:
    # A job's documents became JSON text later (scoring 0013): compared as the values they hold.
    if (model._meta.label, name) == ("scoring.JobInput", "document") and isinstance(value, str):
        return json.loads(value)
    return value


def _assert_same(
    before: dict[tuple[str, str], dict[int, dict[str, Any]]],
    after: dict[tuple[str, str], dict[int, dict[str, Any]]],
) -> None:
    for table, rows in before.items():
        assert after[table].keys() == rows.keys(), table
        changed = [pk for pk, row in rows.items() if after[table][pk] != row]
        assert not changed, (table, changed[:5], rows[changed[0]], after[table][changed[0]])


def _store_before_clubs(apps: Any) -> dict[str, Any]:
    """Users, players, games of the three types with their seats, entries, events and share
    links, statistics rows, a re-score job and an import job, through the models of the state
    before clubs. The ids that matter to the checks."""
    User = apps.get_model(settings.AUTH_USER_MODEL)
    Edition = apps.get_model("games", "Edition")
    Player = apps.get_model("games", "Player")
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    Round = apps.get_model("games", "Round")
    GameEvent = apps.get_model("games", "GameEvent")
    GameShare = apps.get_model("games", "GameShare")
    Job = apps.get_model("scoring", "Job")
    JobKeys = apps.get_model("scoring", "JobKeys")
    JobInput = apps.get_model("scoring", "JobInput")
    JobItem = apps.get_model("scoring", "JobItem")
    PlayerGame = apps.get_model("scoring", "PlayerGame")
    Rating = apps.get_model("scoring", "Rating")

    def user(username: str, **flags: bool) -> Any:
        return User.objects.create(username=username, password="!", **flags)

    # A superuser who is not staff, and a staff user who also creates games: both owners.
    admin = user("admin", is_superuser=True)
    staff = user("staff", is_staff=True)
    ada = user("ada")  # creates games
    bea = user("bea")  # creates games
    cy = user("cy")  # creates players, no game
    dee = user("dee")  # neither: linked to a player
    eve = user("eve")  # nothing at all
    roles = {
        admin.pk: "owner",
        staff.pk: "owner",
        ada.pk: "recorder",
        bea.pk: "recorder",
        cy.pk: "recorder",
        dee.pk: "member",
        eve.pk: "member",
    }

    edition = Edition.objects.create(
        game_type="pot-de-vin", key="migration-clubs", data={"A4": ["nobles"]}
    )
    linked = {0: admin, 1: ada, 2: dee, 3: staff}  # player index: account
    players = Player.objects.bulk_create(
        Player(
            name=f"Player {i}" if i % 7 else f"ÉLODIE {i}",
            name_key=f"player {i}" if i % 7 else f"élodie {i}",
            user=linked.get(i),
            created_by=cy if i % 3 == 0 else (admin if i % 3 == 1 else None),
        )
        for i in range(PLAYERS)
    )
    assert all(p.pk for p in players)

    owners = [ada, bea, staff]
    start = datetime.date(2020, 1, 1)
    now = timezone.now()
    games = []
    for t, (game_type, counts) in enumerate(sorted(GAME_TYPES.items())):
        for i in range(PER_TYPE):
            n = counts[i % len(counts)]
            finished = i % 4 != 0
            scorepad = i % 10 == 9
            games.append(
                Game(
                    game_type=game_type,
                    edition=edition if game_type == "pot-de-vin" and i % 2 else None,
                    variant="short" if game_type == "bruges" and i % 5 == 0 else "",
                    played_on=start + datetime.timedelta(days=(i * 3 + t) % 2000),
                    location="Café" if i % 6 == 0 else "",
                    notes=f"game {t}-{i}" if i % 11 == 0 else "",
                    owner=owners[(i + t) % len(owners)],
                    mode="scorepad" if scorepad else "rounds",
                    status="finished" if finished else "in_progress",
                    player_count=n,
                    first_player=i % n,
                    teams=[[0, 2], [1, 3]] if game_type == "complots" and n == 4 else None,
                    setup={"seed": i, "type": game_type},
                    finish={"jokers": [i % n]} if game_type == "pot-de-vin" and finished else None,
                    sheet={"scores": list(range(n))} if scorepad else None,
                    result=(
                        {"scores": [(i * (s + 1)) % 50 for s in range(n)], "winners": [i % n]}
                        if finished
                        else None
                    ),
                    engine_version="1.2" if finished else "",
                    finished_at=now - datetime.timedelta(minutes=i) if finished else None,
                )
            )
    games = Game.objects.bulk_create(games, batch_size=500)
    assert len(games) == PER_TYPE * len(GAME_TYPES) and all(g.pk for g in games)

    seats, rounds, events, shares, stats = [], [], [], [], []
    for i, game in enumerate(games):
        for s in range(game.player_count):
            player = players[(i + 3 * s) % PLAYERS]
            score = (i * (s + 1)) % 50 if game.status == "finished" else None
            team = s % 2 if game.teams else None
            rank = s + 1 if game.status == "finished" else None
            seats.append(Seat(game=game, seat=s, player=player, team=team, score=score, rank=rank))
            if game.status == "finished":
                stats.append(
                    PlayerGame(
                        game=game,
                        player=player,
                        game_type=game.game_type,
                        played_on=game.played_on,
                        seat=s,
                        player_count=game.player_count,
                        team=team,
                        team_play=team is not None,
                        score=score,
                        rank=s + 1,
                        win_share=1.0 if s == 0 else 0.0,
                        counters={"bribes": s},
                    )
                )
        events.append(GameEvent(game=game, action="created", user=game.owner, username="x"))
        if game.mode == "rounds":
            for number in range(1, 1 + i % 4):
                rounds.append(Round(game=game, number=number, data={"n": number, "bid": i % 7}))
                events.append(GameEvent(game=game, action="added", number=number))
        if game.status == "finished":
            events.append(GameEvent(game=game, action="finished", at=game.finished_at))
        if i % 50 == 0:
            shares.append(
                GameShare(
                    game=game,
                    token=f"token-{i:05d}",
                    created_by=game.owner,
                    revoked_at=now if i % 100 == 0 else None,
                )
            )
    Seat.objects.bulk_create(seats, batch_size=2000)
    Round.objects.bulk_create(rounds, batch_size=2000)
    GameEvent.objects.bulk_create(events, batch_size=2000)
    GameShare.objects.bulk_create(shares)
    PlayerGame.objects.bulk_create(stats, batch_size=2000)
    Rating.objects.bulk_create(
        Rating(player=p, game_type=game_type, mu=25.0 + k, sigma=8.3, ordinal=0.5, games=k)
        for k, p in enumerate(players)
        for game_type in GAME_TYPES
    )
    # A deleted game's history outlives it: an event of no game.
    GameEvent.objects.create(game_id=10**9, action="deleted", user=bea, username="bea")

    rescore = Job.objects.create(
        kind="rescore", status="done", params={"edition": edition.pk}, total=3, created_by=staff
    )
    JobKeys.objects.create(job=rescore, keys=[g.pk for g in games[:3]])
    JobItem.objects.bulk_create(
        JobItem(job=rescore, key=g.pk, game=g, ok=True, winners_before=[0], winners_after=[1])
        for g in games[:3]
    )
    imported = Job.objects.create(kind="import", status="running", total=2, created_by=ada)
    JobInput.objects.create(job=imported, key=1, document={"game": "complots", "players": []})
    JobItem.objects.create(job=imported, key=0, game=games[-1], ok=True)
    JobItem.objects.create(
        job=imported, key=1, ok=False, error={"code": "bad", "message": "no players"}
    )
    return {
        "roles": roles,
        "links": {p.pk: p.user_id for p in players},
        "rescore": rescore.pk,
        "import": imported.pk,
        "counts": {"seats": len(seats), "rounds": len(rounds), "events": len(events) + 1},
    }


def _assert_in_one_club(
    apps: Any, before: dict[tuple[str, str], dict[int, dict[str, Any]]], stored: dict[str, Any]
) -> Any:
    """The latest state: one club, everything in it, nothing else changed. The club."""
    Club = apps.get_model("games", "Club")
    Membership = apps.get_model("games", "Membership")
    Player = apps.get_model("games", "Player")
    Game = apps.get_model("games", "Game")
    Job = apps.get_model("scoring", "Job")

    clubs = list(Club.objects.all())
    assert [(c.slug, c.name) for c in clubs] == [("club", "Club")]
    club = clubs[0]
    assert club.public_results is False

    memberships = list(Membership.objects.values_list("user_id", "club_id", "role"))
    assert sorted(memberships) == sorted(
        (user_id, club.pk, role) for user_id, role in stored["roles"].items()
    )
    assert not apps.get_model("games", "Invitation").objects.exists()

    assert set(Player.objects.values_list("club_id", flat=True)) == {club.pk}
    assert set(Game.objects.values_list("club_id", flat=True)) == {club.pk}
    assert Game.objects.count() == PER_TYPE * len(GAME_TYPES)
    for game_type in GAME_TYPES:
        assert Game.objects.filter(club=club, game_type=game_type).count() == PER_TYPE
    assert dict(Player.objects.values_list("id", "user_id")) == stored["links"]
    assert dict(Job.objects.values_list("id", "club_id")) == {
        stored["rescore"]: None,
        stored["import"]: club.pk,
    }

    after = _snapshot(apps)
    _assert_same(before, after)
    counts = stored["counts"]
    assert len(after["games", "Seat"]) == counts["seats"]
    assert len(after["games", "Round"]) == counts["rounds"]
    assert len(after["games", "GameEvent"]) == counts["events"]
    return club


def test_everything_stored_before_clubs_goes_into_one_club_and_back() -> None:
    old = migrate(BEFORE)
    stored = _store_before_clubs(old)
    before = _snapshot(old)
    assert len(before["games", "Seat"]) > 3 * PER_TYPE * 2

    new = migrate(latest())
    _assert_in_one_club(new, before, stored)

    # Backwards: as before clubs, nothing lost; an account is one player again.
    old = migrate(BEFORE)
    _assert_same(before, _snapshot(old))
    Player = old.get_model("games", "Player")
    linked = Player.objects.filter(user__isnull=False).order_by("id").first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="Twin", name_key="twin", user_id=linked.user_id)

    # And forwards again: a new club, the same rows.
    new = migrate(latest())
    again = _assert_in_one_club(new, before, stored)

    # A name is unique within its club, and an account one player in each club.
    Club = new.get_model("games", "Club")
    Player = new.get_model("games", "Player")
    other = Club.objects.create(name="Other", slug="other")
    taken = Player.objects.filter(user__isnull=False).order_by("id").first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=again, name="Taken", name_key=taken.name_key)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=again, name="Twin", name_key="twin", user_id=taken.user_id)
    Player.objects.create(club=other, name=taken.name, name_key=taken.name_key)
    Player.objects.create(club=other, name="Twin", name_key="twin", user_id=taken.user_id)
    assert Player.objects.filter(user_id=taken.user_id).count() == 2
    assert Player.objects.filter(name_key=taken.name_key).count() == 2


def test_a_fresh_database_has_the_first_club() -> None:
    # From no table of the games app at all (scoring's go with them) and no data. The editions
    # the engines ship go first: 0005 backwards wants an edition's key unique across games.
    migrate(latest()).get_model("games", "Edition").objects.all().delete()
    MigrationExecutor(connection).migrate([("games", None)])
    assert "games_game" not in connection.introspection.table_names()

    apps = migrate(latest())
    Club = apps.get_model("games", "Club")
    assert list(Club.objects.values_list("slug", "name")) == [("club", "Club")]
    assert not apps.get_model("games", "Membership").objects.exists()
