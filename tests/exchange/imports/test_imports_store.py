"""Storing another app's plays (``games.exchange.imports.plays_store``): all or nothing, once per
play (a second import changes nothing), a play edited in the app updating its game in place, and the
statistics and ratings of what was imported, counted by hand."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest

from games.exchange import imports
from games.exchange.formats.plays import PlayFile
from games.records import board_games
from games.records.errors import RecordError
from games.records.models import (
    BoardGame,
    Club,
    Game,
    GameEvent,
    Player,
    PlaySource,
    Seat,
    SourceRef,
)
from scoring.models import PlayerGame, PlayerStats, Rating
from scoring.stats.games import stats_key
from tests.exchange.imports.conftest import AZUL, COUP, GOLF, play, seat

pytestmark = pytest.mark.django_db

Commit = Callable[[], AbstractContextManager[Any]]


@pytest.fixture
def commit(django_capture_on_commit_callbacks: Any, settings: Any) -> Commit:
    """``with commit(): ...``: what runs when a transaction commits (ratings) runs at the end
    of the block, as it would after a real commit."""
    settings.POTDEVIN_RATINGS_SYNC = True
    return lambda: django_capture_on_commit_callbacks(execute=True)


# An evening: three plays of Azul (one tie for first), one of Golf (lowest wins), two of Coup
# (Complots: one ranking everyone, one with its winner only).
EVENING = [
    play("az1", AZUL, seat("Ada", 50), seat("Bea", 40), seat("Cy", 30), on="2026-03-01"),
    play("az2", AZUL, seat("Ada", 20), seat("Bea", 45), on="2026-03-02"),
    play("az3", AZUL, seat("Ada", 33), seat("Bea", 33), seat("Cy", 10), on="2026-03-03"),
    play("golf", GOLF, seat("Cy", 30), seat("Ada", 34), on="2026-03-03"),
    play(
        "c1",
        COUP,
        seat("Ada", rank=2),
        seat("Bea", rank=1),
        seat("Cy", rank=3),
        on="2026-03-04",
    ),
    play(
        "c2",
        COUP,
        seat("Ada", winner=True),
        seat("Bea", winner=False),
        seat("Cy", winner=False),
        on="2026-03-05",
    ),
]


def counts() -> dict[str, int]:
    return {
        "games": Game.objects.count(),
        "seats": Seat.objects.count(),
        "events": GameEvent.objects.count(),
        "sources": PlaySource.objects.count(),
        "refs": SourceRef.objects.count(),
        "players": Player.objects.count(),
        "board_games": BoardGame.objects.count(),
        "facts": PlayerGame.objects.count(),
    }


def store(club: Club, owner: Any, plays: list[Any]) -> dict[str, Any]:
    plan, outcomes = imports.plays_store(
        club=club, owner=owner, play_file=PlayFile(app="bgstats", plays=plays)
    )
    return plan.summary(outcomes)


def stats(name: str, key: str) -> tuple[int, float]:
    row = PlayerStats.objects.get(player__name=name, game_type=key, bucket="all")
    return row.games, row.wins


def test_an_evening_imports_to_the_expected_games_statistics_and_ratings(
    club: Club, recorder: Any, commit: Commit
) -> None:
    with commit():
        summary = store(club, recorder, EVENING)
    assert summary["created"] == {"games": 6, "players": 3, "board_games": 2, "locations": 0}
    assert summary["game_types"] == {"complots": 2, "other": 4}
    assert summary["skipped"] == []
    azul = BoardGame.objects.get(name="Azul")
    golf = BoardGame.objects.get(name="Golf")
    assert (azul.bgg_id, azul.win, golf.win) == (230802, "highest", "lowest")

    by_play = {s.external_id: s.game for s in PlaySource.objects.select_related("game")}
    assert {k: (g.game_type, g.mode) for k, g in by_play.items()} == {
        "az1": ("other", "result"),
        "az2": ("other", "result"),
        "az3": ("other", "result"),
        "golf": ("other", "result"),
        "c1": ("complots", "scorepad"),
        "c2": ("complots", "result"),
    }
    assert {k: g.result["winners"] for k, g in by_play.items()} == {
        "az1": [0],
        "az2": [1],
        "az3": [0, 1],  # 33 and 33: a shared first
        "golf": [0],  # 30 beats 34 at golf
        "c1": [1],
        "c2": [0],
    }
    # By hand. Azul: Ada won az1 and half of az3, Bea az2 and half of az3, Cy none of two.
    azul_key, golf_key = stats_key("other", azul.pk), stats_key("other", golf.pk)
    assert stats("Ada", azul_key) == (3, 1.5)
    assert stats("Bea", azul_key) == (3, 1.5)
    assert stats("Cy", azul_key) == (2, 0)
    assert stats("Cy", golf_key) == (1, 1)
    assert stats("Ada", golf_key) == (1, 0)
    # Complots: Bea won c1, Ada c2.
    assert stats("Ada", "complots") == (2, 1)
    assert stats("Bea", "complots") == (2, 1)
    assert stats("Cy", "complots") == (2, 0)
    # A rating per player and named game (and per our game), each of its own.
    ratings = set(Rating.objects.values_list("player__name", "game_type"))
    assert ratings == {
        ("Ada", azul_key),
        ("Bea", azul_key),
        ("Cy", azul_key),
        ("Ada", golf_key),
        ("Cy", golf_key),
        ("Ada", "complots"),
        ("Bea", "complots"),
        ("Cy", "complots"),
    }
    assert (
        Rating.objects.get(player__name="Cy", game_type=golf_key).mu
        > Rating.objects.get(player__name="Ada", game_type=golf_key).mu
    )


def test_a_second_import_changes_nothing(club: Club, recorder: Any, commit: Commit) -> None:
    with commit():
        store(club, recorder, EVENING)
    before = counts()
    results = dict(Game.objects.values_list("id", "result"))
    with commit():
        summary = store(club, recorder, EVENING)
    assert summary["unchanged"] == 6
    assert summary["created"]["games"] == summary["updated"] == 0
    assert counts() == before
    assert dict(Game.objects.values_list("id", "result")) == results


def test_a_play_edited_in_the_app_updates_its_game_in_place(
    club: Club, recorder: Any, commit: Commit
) -> None:
    with commit():
        store(club, recorder, EVENING)
    game = PlaySource.objects.get(external_id="az2").game
    azul_key = stats_key("other", game.board_game_id)
    assert stats("Bea", azul_key) == (3, 1.5)
    # In the app: az2's scores corrected (Ada won it after all), Cy added, a place and a date.
    edited = play(
        "az2",
        AZUL,
        seat("Ada", 52),
        seat("Bea", 45),
        seat("Cy", 12),
        on="2026-03-06",
        location="Home",
    )
    before = counts()
    with commit():
        summary = store(club, recorder, [*EVENING[:1], edited, *EVENING[2:]])
    assert (summary["updated"], summary["unchanged"], summary["created"]["games"]) == (1, 5, 0)
    again = Game.objects.get(pk=game.pk)  # the same game, in place
    assert again.result["winners"] == [0]
    assert (again.played_on.isoformat(), again.location, again.player_count) == (
        "2026-03-06",
        "Home",
        3,
    )
    assert [(s.player.name, s.score, s.rank) for s in again.seats.order_by("seat")] == [
        ("Ada", 52, 1),
        ("Bea", 45, 2),
        ("Cy", 12, 3),
    ]
    assert list(GameEvent.objects.filter(game_id=game.pk).values_list("action", flat=True)) == [
        "created",
        "edited",
    ]
    after = counts()
    assert after["games"] == before["games"]
    assert after["seats"] == before["seats"] + 1
    assert after["events"] == before["events"] + 1
    assert after["sources"] == before["sources"]
    # Statistics follow: Ada won az1, az2 and half of az3; Bea half of az3; Cy one more game.
    assert stats("Ada", azul_key) == (3, 2.5)
    assert stats("Bea", azul_key) == (3, 0.5)
    assert stats("Cy", azul_key) == (3, 0)
    assert PlaySource.objects.get(external_id="az2").fingerprint == imports.fingerprint(edited)


def test_an_edit_that_changes_who_played_and_the_game_rewrites_the_seats(
    club: Club, recorder: Any, commit: Commit
) -> None:
    with commit():
        store(club, recorder, [EVENING[0]])
    game = Game.objects.get()
    # In the app the play was of Coup all along, with other people.
    with commit():
        store(club, recorder, [play("az1", COUP, seat("Dan", rank=1), seat("Eve", rank=2))])
    again = Game.objects.get()
    assert again.pk == game.pk
    assert (again.game_type, again.mode, again.board_game_id) == ("complots", "scorepad", None)
    assert [s.player.name for s in again.seats.order_by("seat")] == ["Dan", "Eve"]
    assert set(PlayerGame.objects.values_list("player__name", "game_type")) == {
        ("Dan", "complots"),
        ("Eve", "complots"),
    }


def test_a_play_whose_game_was_deleted_here_comes_back(club: Club, recorder: Any) -> None:
    store(club, recorder, [EVENING[0]])
    Game.objects.get().delete()
    summary = store(club, recorder, [EVENING[0]])
    assert summary["created"]["games"] == 1
    assert PlaySource.objects.count() == 1


def test_a_direct_import_is_all_or_nothing(
    club: Club, recorder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = board_games.result_game_create
    calls = []

    def refused_the_third_time(**kwargs: Any) -> Game:
        calls.append(1)
        if len(calls) == 3:
            raise RecordError("bad_win", "refused here")
        return real(**kwargs)

    monkeypatch.setattr(board_games, "result_game_create", refused_the_third_time)
    before = counts()
    with pytest.raises(RecordError) as refused:
        store(club, recorder, EVENING)
    assert (refused.value.code, refused.value.index) == ("bad_win", 2)
    assert counts() == before


def test_the_apps_ids_are_learnt_so_a_renamed_player_stays_the_same(
    club: Club, recorder: Any
) -> None:
    store(club, recorder, [play("1", AZUL, seat("Ada", 3, ref="u-ada"), seat("Bea", 2))])
    # Renamed in the app: the next file calls her "Adeline".
    summary = store(club, recorder, [play("2", AZUL, seat("Adeline", 4, ref="u-ada"))])
    assert summary["matched"]["players"] == 1 and summary["created"]["players"] == 0
    assert set(Player.objects.values_list("name", flat=True)) == {"Ada", "Bea"}


def test_statistics_follow_an_import_once_not_once_per_play(club: Club, recorder: Any) -> None:
    from games.records import events

    calls: list[list[int]] = []

    def spy(*, game_ids: list[int]) -> None:
        calls.append(sorted(game_ids))

    events.on_results_changed(spy)
    try:
        store(club, recorder, EVENING)
    finally:
        events._results_listeners.remove(spy)
    assert calls == [sorted(Game.objects.values_list("id", flat=True))]
