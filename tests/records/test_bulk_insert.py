"""``games.records.bulk``: ``bulk_insert`` stores what ``bulk_create`` stores and sets the ids, on
every database (COPY on PostgreSQL, ``bulk_create`` itself elsewhere); ``insert_rows`` writes plain
rows."""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import JSONField, Model, Value
from django.utils import timezone

from games.records import bulk, services
from games.records.models import Edition, Game, GameEvent, Player, Round, Seat
from tests.accounts import first_club

pytestmark = pytest.mark.django_db

# What JSON columns hold: text of every script, nested lists, numbers up to 2**53, floats.
RESULT = {
    "format": "potdevin-result/1",
    "players": [
        {"seat": 0, "name": "Zoë 🍷", "score": 2**53, "team": None, "share": 0.5},
        {"seat": 1, "name": '李 "quoted" back\\slash\ttab\nline', "score": -(2**53)},
    ],
    "nested": [[1, [2, [3, []]]], {}, [], [None, True, False]],
    "floats": [0.1, -2.5, 1e-7, 123456.789, 2.0**53, 1e300, -0.0],
    "keys": {"ü": 1, "🎲": 2, "": 3, "\\N": 4, "tab\there": 5},
    "text": "\\N",  # what COPY writes for NULL, as text
}
LOCATION = "Café \\N\ttab\nnew line\\ 🍷"
NOTES = "line one\r\nline two\\\n\t«quoted»"


def _stored(model: type[Model], objs: Sequence[Model], skip: Sequence[str]) -> list[dict]:
    """The stored rows of ``objs``, read back through the model, without the ``skip``
    columns."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname not in skip]
    by_pk = {row["id"]: row for row in model.objects.filter(pk__in=[o.pk for o in objs]).values()}
    return [{name: by_pk[o.pk][name] for name in names} for o in objs]


FINISHED_AT = datetime.datetime(2026, 2, 28, 22, 15, 30, 123456, tzinfo=datetime.UTC)


def _games(owner: Any, edition: Edition) -> list[Game]:
    base = {"club": first_club(), "owner": owner, "game_type": "pot-de-vin", "player_count": 4}
    return [
        Game(**base, result=RESULT, teams=None, setup={}, played_on=datetime.date(2026, 2, 28)),
        Game(
            **base,
            edition=edition,
            teams=[[0, 2], [1, 3]],
            setup={"hands": {"0": ["A1", "U13"]}, "trump_pile": None},
            finish={"jokers": {"1": ["nobles"]}},
            result={"complete": True, "winners": [0, 2]},
            engine_version="1.0.0",
            status=Game.Status.FINISHED,
            finished_at=FINISHED_AT,
            location=LOCATION,
            notes=NOTES,
            first_player=3,
            duration=95,
        ),
        Game(**base, variant="short", result=None, sheet=[1, "two", {"3": [4.5]}]),
    ]


def test_games_read_back_as_bulk_create_stores_them(owner: Any, pdv_edition: Edition) -> None:
    created, inserted = _games(owner, pdv_edition), _games(owner, pdv_edition)
    Game.objects.bulk_create(created)
    bulk.bulk_insert(inserted)
    stamps = ("id", "created_at", "updated_at")
    assert _stored(Game, inserted, stamps) == _stored(Game, created, stamps)
    # What was given is what is read back (floats that are whole numbers aside, which
    # PostgreSQL's jsonb writes back as integers, for bulk_create too).
    stored = _stored(Game, inserted, stamps)
    assert stored[1]["location"] == LOCATION and stored[1]["notes"] == NOTES
    assert stored[0]["result"]["players"] == RESULT["players"]
    assert stored[0]["result"]["keys"] == RESULT["keys"]
    assert stored[0]["result"]["nested"] == RESULT["nested"]
    assert stored[0]["teams"] is None and stored[2]["result"] is None
    for game in inserted:
        fresh = Game.objects.get(pk=game.pk)
        assert (fresh.created_at, fresh.updated_at) == (game.created_at, game.updated_at)
        assert game.created_at is not None and not game._state.adding
        assert game._state.db == "default"


def test_seats_rounds_and_events_read_back_as_bulk_create_stores_them(
    owner: Any, pdv_edition: Edition
) -> None:
    players = services.players_resolve(
        ["Ana", "Bé", "Çé", "Dé 🍷"], club=first_club(), created_by=owner
    )
    at = timezone.now()
    entries: list[Any] = [RESULT, {"trump": "E3", "plays": [{"seat": 0, "pass": True}]}]
    entries += ["text", 7, [1, [2]], {}]

    def seats(games: list[Game]) -> list[Model]:
        scores, ranks = (3, -1, None, 0), (1, 4, None, 2)
        return [
            Seat(game=g, seat=i, player=p, team=i % 2 if g.teams else None, score=s, rank=r)
            for g in games
            for i, (p, s, r) in enumerate(zip(players, scores, ranks, strict=True))
        ]

    def rounds(games: list[Game]) -> list[Model]:
        return [Round(game=g, number=n, data=d) for g in games for n, d in enumerate(entries, 1)]

    def events(games: list[Game]) -> list[Model]:
        return [
            services.history_event(games[0], GameEvent.Action.CREATED, owner),
            services.history_event(games[1].pk, GameEvent.Action.CORRECTED, owner, 3),
            GameEvent(game_id=games[1].pk, action=GameEvent.Action.DELETED, at=at),
        ]

    # Two sets of games, since a game's seats and rounds are unique: one for each way.
    games_created, games_inserted = _games(owner, pdv_edition)[:2], _games(owner, pdv_edition)[:2]
    bulk.bulk_insert(games_created + games_inserted)
    for make, skip in [
        (seats, ["id"]),
        (rounds, ["id", "created_at"]),
        (events, ["id", "at"]),
    ]:
        created, inserted = make(games_created), make(games_inserted)
        type(created[0]).objects.bulk_create(created)  # type: ignore[attr-defined]
        bulk.bulk_insert(inserted)
        assert all(obj.pk is not None and not obj._state.adding for obj in inserted)
        # The same rows, each of its own game.
        pairs = dict(
            zip((g.pk for g in games_created), (g.pk for g in games_inserted), strict=True)
        )
        expected = [
            {**row, "game_id": pairs[row["game_id"]]}
            for row in _stored(type(created[0]), created, skip)
        ]
        assert _stored(type(inserted[0]), inserted, skip) == expected
    assert [e.at for e in GameEvent.objects.filter(action=GameEvent.Action.DELETED)] == [at, at]


def test_ids_come_from_the_table_sequence(owner: Any, pdv_edition: Edition) -> None:
    games = _games(owner, pdv_edition)
    bulk.bulk_insert(games)
    ids = [g.pk for g in games]
    assert None not in ids and ids == sorted(set(ids))
    # Later writes of any kind take ids past them.
    later = Game.objects.create(club=first_club(), owner=owner, player_count=3)
    assert later.pk > max(ids)
    more = _games(owner, pdv_edition)
    bulk.bulk_insert(more)
    assert min(g.pk for g in more) > later.pk


def test_an_object_with_its_id_keeps_it(owner: Any, pdv_edition: Edition) -> None:
    taken = Game.objects.create(club=first_club(), owner=owner, player_count=3)
    given = _games(owner, pdv_edition)
    given[1].pk = taken.pk + 1000
    bulk.bulk_insert(given)
    assert given[1].pk == taken.pk + 1000
    assert Game.objects.get(pk=taken.pk + 1000).location == LOCATION
    assert given[0].pk is not None and given[0].pk != given[1].pk


def test_an_unsaved_related_object_is_refused_as_bulk_create_refuses_it(owner: Any) -> None:
    unsaved = Game(club=first_club(), owner=owner, player_count=3)
    player = Player.objects.create(club=first_club(), name="Ana")
    with pytest.raises(ValueError, match="unsaved related object 'game'"):
        Seat.objects.bulk_create([Seat(game=unsaved, seat=0, player=player)])
    with pytest.raises(ValueError, match="unsaved related object 'game'"):
        bulk.bulk_insert([Seat(game=unsaved, seat=0, player=player)])


def test_a_related_object_saved_after_it_was_given_is_stored_by_its_id(owner: Any) -> None:
    game = Game(club=first_club(), owner=owner, player_count=3)
    player = Player.objects.create(club=first_club(), name="Ana")
    seat = Seat(game=game, seat=0, player=player)
    game.save()
    bulk.bulk_insert([seat])
    assert Seat.objects.get(pk=seat.pk).game_id == game.pk


def test_objects_of_two_models_are_refused(owner: Any) -> None:
    game = Game(club=first_club(), owner=owner, player_count=3)
    with pytest.raises(TypeError):
        bulk.bulk_insert([game, GameEvent(game_id=1, action=GameEvent.Action.CREATED)])


def test_nothing_to_store_asks_nothing(django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(0):
        bulk.bulk_insert([])


def test_an_expression_is_stored_as_bulk_create_stores_it(owner: Any) -> None:
    """A JSON null (not SQL NULL) is written by an expression, which COPY cannot carry: such
    objects are left to ``bulk_create``."""
    game = Game(club=first_club(), owner=owner, player_count=3, result=Value(None, JSONField()))
    bulk.bulk_insert([game])
    assert game.pk is not None
    assert Game.objects.filter(pk=game.pk, result__isnull=True).count() == 0


def _outcome(store: Callable[[list[Model]], Any], make: Callable[[], Model]) -> Any:
    """What one write leaves: the stored value of the test's column, or the error's class."""
    obj = make()
    try:
        with transaction.atomic():
            store([obj])
    except (DatabaseError, ValueError, TypeError) as exc:
        return type(exc)
    row = Game.objects.filter(pk=obj.pk).values("result", "notes").get()
    return row


@pytest.mark.parametrize(
    "result",
    [
        {"nan": math.nan},
        {"infinity": [math.inf, -math.inf]},
        {"past 64 bits": 2**70},
        {1: "an integer key", None: "a null key"},
        {"a date": datetime.date(2026, 1, 1)},
        {"lone surrogate": "\ud800"},
        {"nul": "a\x00b"},
    ],
    ids=["nan", "infinity", "big-int", "non-str-keys", "date", "surrogate", "nul"],
)
def test_json_no_encoder_agrees_on_is_stored_or_refused_as_bulk_create_does(
    owner: Any, result: Any
) -> None:
    def make() -> Model:
        return Game(club=first_club(), owner=owner, player_count=3, result=result)

    created = _outcome(Game.objects.bulk_create, make)
    inserted = _outcome(bulk.bulk_insert, make)
    if isinstance(created, dict) and isinstance(inserted, dict):
        # NaN reads back as NaN on SQLite: equal to itself only as text.
        assert repr(inserted) == repr(created)
    else:
        assert inserted == created


def test_text_postgresql_takes_no_part_of_is_refused_as_bulk_create_does(owner: Any) -> None:
    def make() -> Model:
        return Game(club=first_club(), owner=owner, player_count=3, notes="a\x00b")

    created = _outcome(Game.objects.bulk_create, make)
    inserted = _outcome(bulk.bulk_insert, make)
    if connection.vendor == "postgresql":
        assert isinstance(created, type) and issubclass(created, DatabaseError)
        assert isinstance(inserted, type) and issubclass(inserted, DatabaseError)
    else:
        assert inserted == created


def test_a_constraint_broken_is_django_s_integrity_error_and_stores_nothing(owner: Any) -> None:
    game = Game.objects.create(club=first_club(), owner=owner, player_count=3)
    twice = [Round(game=game, number=1, data={}), Round(game=game, number=1, data={})]
    with pytest.raises(IntegrityError), transaction.atomic():
        bulk.bulk_insert(twice)
    # Nothing was stored: the objects are as unsaved as before.
    assert [r.pk for r in twice] == [None, None]


def test_insert_rows_writes_plain_rows(owner: Any) -> None:
    game = Game.objects.create(club=first_club(), owner=owner, player_count=3)
    at = timezone.now()
    rows = [(game.pk, n, data, at) for n, data in enumerate([RESULT, [1, "🍷"], "\\N"], 1)]
    bulk.insert_rows(Round, ["game_id", "number", "data", "created_at"], rows)
    stored = list(Round.objects.filter(game=game).order_by("number").values_list("data", flat=True))
    assert stored[1:] == [[1, "🍷"], "\\N"]
    assert stored[0]["players"] == RESULT["players"]


def test_insert_rows_stores_none_as_sql_null_as_django_does(owner: Any) -> None:
    """A nullable JSON column given None holds SQL NULL (what ``isnull`` finds), not the JSON
    null: the same as a model saved with None there."""
    from scoring.models import Job, JobItem

    job = Job.objects.create(kind=Job.Kind.RESCORE, total=2)
    JobItem.objects.create(job=job, key=1, ok=True, error=None)  # saved by Django
    bulk.insert_rows(
        JobItem, ["job", "key", "ok", "outcome", "error"], [(job.pk, 2, True, "", None)]
    )
    assert set(job.items.filter(error__isnull=True).values_list("key", flat=True)) == {1, 2}


def test_insert_rows_writes_times_as_django_writes_them(owner: Any) -> None:
    """A time inserted as a row reads back equal, and compares in the database like one Django
    wrote (SQLite keeps times as text: an offset in it would sort apart)."""
    game = Game.objects.create(club=first_club(), owner=owner, player_count=3)
    Round.objects.create(game=game, number=1, data={})
    written = Round.objects.get(game=game, number=1).created_at
    bulk.insert_rows(Round, ["game", "number", "data", "created_at"], [(game.pk, 2, {}, written)])
    assert Round.objects.get(game=game, number=2).created_at == written
    assert Round.objects.filter(game=game, created_at=written).count() == 2


def test_update_rows_sets_the_fields_of_the_rows_by_their_keys(owner: Any) -> None:
    """More rows than one statement takes; a date compares in the database like one Django
    wrote; a key no row has changes nothing; other fields and rows are left as they were."""
    from scoring.models import RatingHistory

    club = first_club()
    players = [Player.objects.create(club=club, name=f"P{k}") for k in range(3)]
    day = datetime.date(2026, 3, 1)
    rows = [
        RatingHistory.objects.create(
            player=players[k % 3],
            game=None,  # rows of a deleted game: many of one player
            game_type="pot-de-vin",
            played_on=day,
            mu=25.0,
            sigma=8.0,
            ordinal=1.0,
        )
        for k in range(bulk.BATCH + 5)
    ]
    changed, left = rows[: bulk.BATCH + 3], rows[bulk.BATCH + 3 :]
    later = datetime.date(2026, 3, 2)
    updates = [(r.pk, later, 20.0 + k / 8, 0.25) for k, r in enumerate(changed)]
    missing = max(r.pk for r in rows) + 100
    bulk.update_rows(
        RatingHistory, ("played_on", "mu", "ordinal"), [*updates, (missing, later, 1.0, 1.0)]
    )

    stored = {r["id"]: r for r in RatingHistory.objects.values()}
    assert len(stored) == len(rows)
    for k, row in enumerate(changed):
        assert (stored[row.pk]["played_on"], stored[row.pk]["mu"], stored[row.pk]["ordinal"]) == (
            later,
            20.0 + k / 8,
            0.25,
        )
        assert stored[row.pk]["sigma"] == 8.0 and stored[row.pk]["player_id"] == row.player_id
    for row in left:
        assert (stored[row.pk]["played_on"], stored[row.pk]["mu"]) == (day, 25.0)
    assert RatingHistory.objects.filter(played_on=later).count() == len(changed)
    assert RatingHistory.objects.filter(played_on__gt=day).count() == len(changed)


def test_update_rows_of_nothing_asks_nothing(django_assert_num_queries: Any) -> None:
    from scoring.models import RatingHistory

    with django_assert_num_queries(0):
        bulk.update_rows(RatingHistory, ("mu",), [])
