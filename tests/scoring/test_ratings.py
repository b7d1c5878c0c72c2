"""Skill ratings (scoring.stats): openskill Plackett-Luce over games in (date, id) order, one
independent series per game type, recomputed from the earliest changed date after a change
commits."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from openskill.models import PlackettLuce

from games.records import services
from games.records.models import Game, Player
from scoring import stats
from scoring.models import Rating, RatingHistory, RatingsPending
from scoring.stats import selectors
from scoring.stats.tasks import ratings_catch_up_task
from tests.accounts import first_club
from tests.scoring import stats_builders as B

tableau, scorepad, day = B.tableau, B.scorepad, B.day
POT_DE_VIN, COMPLOTS = B.POT_DE_VIN, B.COMPLOTS

pytestmark = pytest.mark.django_db

Commit = Callable[[], AbstractContextManager[Any]]


@pytest.fixture
def owner() -> Any:
    return get_user_model().objects.create_user("owner")  # no password: no hashing


@pytest.fixture
def commit(django_capture_on_commit_callbacks: Any, settings: Any) -> Commit:
    """``with commit(): ...``: what runs when a transaction commits (the ratings recompute, in
    process) runs at the end of the block, as it would after a real commit."""
    settings.POTDEVIN_RATINGS_SYNC = True

    def block() -> AbstractContextManager[Any]:
        return django_capture_on_commit_callbacks(execute=True)

    return block


def pid(name: str) -> int:
    return Player.objects.get(name=name).pk


def rating(name: str, game_type: str = POT_DE_VIN) -> tuple[float, float]:
    r = Rating.objects.get(player_id=pid(name), game_type=game_type)
    return r.mu, r.sigma


def history(game_type: str = POT_DE_VIN) -> dict[tuple[int, int | None], tuple[int, float, float]]:
    return {
        (h.player_id, h.game_id): (h.pk, h.mu, h.sigma)
        for h in RatingHistory.objects.filter(game_type=game_type)
    }


def expected_ratings(
    game_type: str = POT_DE_VIN,
) -> tuple[dict[int, Any], dict[tuple[int, int], Any]]:
    """openskill called directly, game by game in (played_on, id) order, from the results of
    the games of ``game_type`` only: (rating per player, rating per (player, game))."""
    model = PlackettLuce()
    current: dict[int, Any] = {}
    after: dict[tuple[int, int], Any] = {}
    finished = Game.objects.filter(status=Game.Status.FINISHED, game_type=game_type)
    for game in finished.order_by("played_on", "id"):
        seats = {s.seat: s.player_id for s in game.seats.all()}
        result = game.result
        assert result is not None
        if result.get("teams"):
            units = [[seats[s] for s in t["seats"]] for t in result["teams"]]
            ranks = [t["rank"] for t in result["teams"]]
        else:
            units = [[seats[p["seat"]]] for p in result["players"]]
            ranks = [p["rank"] for p in result["players"]]
        teams = [[current.get(p) or model.rating() for p in unit] for unit in units]
        for unit, rated in zip(units, model.rate(teams, ranks=ranks), strict=True):
            for p, r in zip(unit, rated, strict=True):
                current[p] = after[(p, game.pk)] = r
    return current, after


def assert_ratings_match(game_type: str = POT_DE_VIN) -> None:
    current, after = expected_ratings(game_type)
    stored = {r.player_id: r for r in Rating.objects.filter(game_type=game_type)}
    assert sorted(stored) == sorted(current)
    for p, r in current.items():
        assert stored[p].mu == pytest.approx(r.mu, abs=1e-9)
        assert stored[p].sigma == pytest.approx(r.sigma, abs=1e-9)
        assert stored[p].ordinal == pytest.approx(r.ordinal(), abs=1e-9)
        assert stored[p].games == sum(1 for q, _ in after if q == p)
    rows = {(h.player_id, h.game_id): h for h in RatingHistory.objects.filter(game_type=game_type)}
    assert sorted(rows) == sorted(after)
    for key, r in after.items():
        assert (rows[key].mu, rows[key].sigma) == pytest.approx((r.mu, r.sigma), abs=1e-9)


def test_first_game_equals_openskill_rate(owner: Any, commit: Commit) -> None:
    # Ada and Bea share first place (same points, cards and gems); Cy is third.
    with commit():
        game = scorepad(
            owner, ["Ada", "Bea", "Cy"], [tableau(nobles=3), tableau(artists=3), tableau()]
        )
    model = PlackettLuce()
    a, b, c = model.rating(), model.rating(), model.rating()
    [[a2], [b2], [c2]] = model.rate([[a], [b], [c]], ranks=[1, 1, 3])
    for name, r in (("Ada", a2), ("Bea", b2), ("Cy", c2)):
        stored = Rating.objects.get(player_id=pid(name))
        assert (stored.mu, stored.sigma) == pytest.approx((r.mu, r.sigma), abs=1e-12)
        assert stored.ordinal == pytest.approx(r.ordinal(), abs=1e-12)
        assert stored.ordinal == pytest.approx(r.mu - 3 * r.sigma, abs=1e-12)
        assert stored.games == 1
        row = RatingHistory.objects.get(player_id=pid(name), game=game)
        assert (row.mu, row.sigma, row.played_on) == (stored.mu, stored.sigma, game.played_on)
    assert rating("Ada") == rating("Bea")  # a shared place: the same update


def test_team_game_with_tied_teams(owner: Any, commit: Commit) -> None:
    # Teams (Ada, Cy) and (Bea, Dev) share first place; then a 6-player game of three teams.
    with commit():
        scorepad(
            owner,
            ["Ada", "Bea", "Cy", "Dev"],
            [tableau(nobles=3), tableau(artists=3), tableau(), tableau()],
            teams=[[0, 2], [1, 3]],
        )
    model = PlackettLuce()
    [[a, c], [b, d]] = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[1, 1]
    )
    assert rating("Ada") == pytest.approx((a.mu, a.sigma), abs=1e-12)
    assert rating("Dev") == pytest.approx((d.mu, d.sigma), abs=1e-12)
    with commit():
        B.imported(
            owner,
            [
                B.simulated(
                    6,
                    4,
                    names=["Ada", "Bea", "Cy", "Dev", "Eli", "Flo"],
                    played_on=day(1),
                    teams=True,
                )
            ],
        )
    assert_ratings_match()


def test_an_older_game_changes_the_ratings_after_it(owner: Any, commit: Commit) -> None:
    names = ["Ada", "Bea", "Cy", "Dev"]
    with commit():
        B.imported(
            owner,
            [B.simulated(3 + k % 2, k, names=names[: 3 + k % 2], played_on=day(2 * k))
             for k in range(4)],
        )  # fmt: skip
    before = history()
    g0, g1, g2, g3 = Game.objects.order_by("played_on")
    # A game on day 3, between g1 (day 2) and g2 (day 4), that Ada, Bea and Cy played.
    with commit():
        (inserted,) = B.imported(owner, [B.simulated(3, 99, names=names[:3], played_on=day(3))])
    after = history()
    for game in (g0, g1):  # before it: the same rows, untouched
        for key, row in before.items():
            if key[1] == game.pk:
                assert after[key] == row
    for game in (g2, g3):  # after it: recomputed
        changed = [k for k in before if k[1] == game.pk and after[k][1:] != before[k][1:]]
        assert changed
    assert {k for k in after if k[1] == inserted.pk} == {(pid(n), inserted.pk) for n in names[:3]}
    assert_ratings_match()


def test_changes_keep_ratings_equal_to_a_full_recompute(owner: Any, commit: Commit) -> None:
    names = ["Ada", "Bea", "Cy", "Dev", "Eli", "Flo"]
    with commit():
        games = B.imported(
            owner,
            [
                B.simulated(n, 10 + k, names=names[:n], played_on=day(k % 5), teams=k % 3 == 1)
                for k, n in enumerate([3, 4, 5, 6, 4, 3, 6, 4])
            ],
        )
    assert_ratings_match()
    with commit():
        services.game_reopen(game=games[2])
    assert_ratings_match()
    with commit():
        services.game_update(game=games[5], played_on=day(-1))
    assert_ratings_match()
    with commit():
        services.game_delete(game=games[0])
    assert not RatingHistory.objects.filter(game__isnull=True).exists()
    assert_ratings_match()
    with commit():
        services.game_finish(game=games[2])
    assert_ratings_match()
    kept = {k: v[1:] for k, v in history().items()}
    fields = ("player_id", "game_type", "mu", "sigma", "ordinal", "games")
    current = sorted(Rating.objects.values_list(*fields))
    stats.ratings_recompute(since=None)  # the same order and inputs: the same numbers
    assert {k: v[1:] for k, v in history().items()} == kept
    assert sorted(Rating.objects.values_list(*fields)) == current


def test_a_player_without_games_left_is_not_rated(owner: Any, commit: Commit) -> None:
    with commit():
        game = scorepad(owner, ["Ada", "Bea", "Cy"], [tableau(nobles=1), tableau(), tableau()])
        scorepad(owner, ["Bea", "Cy", "Dev"], [tableau(nobles=1), tableau(), tableau()])
    assert Rating.objects.filter(player_id=pid("Ada")).exists()
    with commit():
        services.game_delete(game=game)
    assert not Rating.objects.filter(player_id=pid("Ada")).exists()
    assert Rating.objects.get(player_id=pid("Bea")).games == 1
    assert_ratings_match()


def test_leaderboard_is_ordered_by_ordinal(owner: Any, commit: Commit) -> None:
    names = ["Ada", "Bea", "Cy", "Dev", "Eli"]
    with commit():
        B.imported(
            owner,
            [B.simulated(3, k, names=names[k % 3 : k % 3 + 3], played_on=day(k))
             for k in range(9)],
        )  # fmt: skip
    board = list(selectors.leaderboard(club=first_club()))
    ordinals = [r["ordinal"] for r in board]
    assert ordinals == sorted(ordinals, reverse=True)
    assert ordinals == sorted((r.ordinal for r in Rating.objects.all()), reverse=True)
    assert {r["player__name"] for r in board} == set(names)
    entries = selectors.leaderboard_entries(board, start=1)
    assert [e["position"] for e in entries] == list(range(1, 6))
    assert [e["player"]["name"] for e in entries] == [r["player__name"] for r in board]
    most = max(r["games"] for r in board)
    assert {r["games"] for r in selectors.leaderboard(club=first_club(), min_games=most)} == {most}


@pytest.fixture
def queued(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    settings.POTDEVIN_RATINGS_SYNC = False
    sent: list[Any] = []
    monkeypatch.setattr(ratings_catch_up_task, "delay", lambda *args: sent.append(args))
    yield sent


def test_without_sync_one_task_is_queued_after_commit(
    owner: Any, queued: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    names = ["Ada", "Bea", "Cy"]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        B.imported(
            owner,
            [
                B.simulated(3, 1, names=names, played_on=day(5)),
                B.simulated(3, 2, names=names, played_on=day(2)),
            ],
        )
        assert queued == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert queued == [()]  # once
    # The change is written down with the transaction, from the earliest date.
    assert list(RatingsPending.objects.values_list("game_type", "since")) == [(POT_DE_VIN, day(2))]
    assert not Rating.objects.exists()


def test_the_task_takes_every_pending_change_in_one_recompute(
    owner: Any, queued: list[Any]
) -> None:
    names = ["Ada", "Bea", "Cy"]
    B.imported(
        owner,
        [B.simulated(3, k, names=names, played_on=day(k)) for k in range(3)],
    )
    assert ratings_catch_up_task() == 3
    assert_ratings_match()
    assert ratings_catch_up_task() == 0  # queued behind the first: nothing left to do
    first = RatingHistory.objects.filter(played_on=day(0)).order_by("id")
    ids = list(first.values_list("id", flat=True))
    # A burst of changes from days 2, 1 and 2: one recompute from day 1 (2 games), not three.
    RatingsPending.objects.bulk_create(
        RatingsPending(game_type=POT_DE_VIN, since=d) for d in (day(2), day(1), day(2))
    )
    assert ratings_catch_up_task.apply().get() == 2
    assert list(first.values_list("id", flat=True)) == ids  # kept: before the date
    assert not RatingsPending.objects.exists()
    assert_ratings_match()
    RatingsPending.objects.bulk_create(
        RatingsPending(game_type=POT_DE_VIN, since=d) for d in (day(2), None)
    )
    assert ratings_catch_up_task() == 3  # one change wants every game


def test_a_change_whose_task_could_not_be_queued_is_taken_by_the_next(
    owner: Any, settings: Any, monkeypatch: pytest.MonkeyPatch, commit: Commit
) -> None:
    settings.POTDEVIN_RATINGS_SYNC = False

    def broker_down(*args: Any) -> None:
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(ratings_catch_up_task, "delay", broker_down)
    names = ["Ada", "Bea", "Cy"]
    with commit():  # the game is stored all the same
        B.imported(owner, [B.simulated(3, 1, names=names, played_on=day(3))])
    assert not Rating.objects.exists()
    sent: list[Any] = []
    monkeypatch.setattr(ratings_catch_up_task, "delay", lambda *args: sent.append(args))
    with commit():
        B.imported(owner, [B.simulated(3, 2, names=names, played_on=day(5))])
    assert sent == [()]
    assert ratings_catch_up_task() == 2  # both games: the first one's change was kept
    assert_ratings_match()


def test_ratings_follow_the_date_then_the_game_id(owner: Any, commit: Commit) -> None:
    # Two games on one day: the one stored first (smaller id) is rated first.
    with commit():
        first = scorepad(
            owner,
            ["Ada", "Bea", "Cy"],
            [tableau(nobles=1), tableau(), tableau()],
            played_on=datetime.date(2026, 5, 1),
        )
        second = scorepad(
            owner,
            ["Ada", "Bea", "Cy"],
            [tableau(), tableau(nobles=1), tableau()],
            played_on=datetime.date(2026, 5, 1),
        )
    assert first.pk < second.pk
    ada = Rating.objects.get(player_id=pid("Ada"))
    last = RatingHistory.objects.get(player_id=pid("Ada"), game=second)
    assert (ada.mu, ada.sigma) == (last.mu, last.sigma)
    assert_ratings_match()


# --- Game types ------------------------------------------------------------------------------


def _complots_win(owner: Any, on: int, names: tuple[str, ...] = ("Ada", "Bea", "Cy")) -> Game:
    """A finished Complots game (hand-written result) that the first name survives."""
    ranks = [{"rank": 1 + i} for i in range(len(names))]
    return B.complots_result(owner, list(names), ranks, played_on=day(on))


def _pot_de_vin_loss(owner: Any, on: int) -> Game:
    """A Pot de Vin game Ada loses: Bea first, Cy second, Ada third."""
    return scorepad(
        owner,
        ["Ada", "Bea", "Cy"],
        [tableau(), tableau(nobles=2), tableau(nobles=1)],
        played_on=day(on),
    )


def test_ratings_are_kept_per_game_type(owner: Any, commit: Commit) -> None:
    """Ada wins every Complots game and loses every Pot de Vin game: two independent ratings,
    each openskill over its own game type only."""
    with commit():
        for k in range(4):
            _pot_de_vin_loss(owner, 2 * k)
    pot_de_vin_before = history(POT_DE_VIN)
    ada_pot_de_vin = rating("Ada", POT_DE_VIN)
    with commit():
        for k in range(4):
            _complots_win(owner, 2 * k + 1)  # interleaved dates: rated apart all the same
    assert_ratings_match(POT_DE_VIN)
    assert_ratings_match(COMPLOTS)
    # The Complots games left the Pot de Vin series as it was, row for row.
    assert history(POT_DE_VIN) == pot_de_vin_before
    assert rating("Ada", POT_DE_VIN) == ada_pot_de_vin
    mu_pot_de_vin, _ = rating("Ada", POT_DE_VIN)
    mu_complots, _ = rating("Ada", COMPLOTS)
    start = PlackettLuce().rating().mu
    assert mu_pot_de_vin < start < mu_complots
    # The same as four games alone against openskill: nothing carried over from Pot de Vin.
    model = PlackettLuce()
    a, b, c = model.rating(), model.rating(), model.rating()
    for _ in range(4):
        [[a], [b], [c]] = model.rate([[a], [b], [c]], ranks=[1, 2, 3])
    assert rating("Ada", COMPLOTS) == pytest.approx((a.mu, a.sigma), abs=1e-9)
    ada = Player.objects.get(name="Ada")
    assert {r.game_type: r.games for r in Rating.objects.filter(player=ada)} == {
        POT_DE_VIN: 4,
        COMPLOTS: 4,
    }
    # Reads take the game type: the rating history and the stats' rating.
    assert [h.game_id for h in selectors.rating_history(player=ada, game_type=COMPLOTS)] == list(
        Game.objects.filter(game_type=COMPLOTS).order_by("played_on").values_list("id", flat=True)
    )
    served = selectors.player_stats(player=ada, game_type=COMPLOTS)["rating"]
    assert (served["mu"], served["games"]) == (mu_complots, 4)
    assert selectors.rating_history_pages(player=ada, game_type=COMPLOTS).count() == 4
    # A full recompute of every game type gives the same numbers.
    kept = {g: {k: v[1:] for k, v in history(g).items()} for g in (POT_DE_VIN, COMPLOTS)}
    assert stats.ratings_recompute(since=None) == 8
    assert {g: {k: v[1:] for k, v in history(g).items()} for g in (POT_DE_VIN, COMPLOTS)} == kept


def test_leaderboard_by_game_type(owner: Any, commit: Commit) -> None:
    with commit():
        for k in range(3):
            _pot_de_vin_loss(owner, k)
            _complots_win(owner, k, ("Ada", "Bea", "Cy", "Dev"))
    complots = list(selectors.leaderboard(club=first_club(), game_type=COMPLOTS))
    assert [r["player__name"] for r in complots][0] == "Ada"
    assert {r["player__name"] for r in complots} == {"Ada", "Bea", "Cy", "Dev"}
    pot_de_vin = list(selectors.leaderboard(club=first_club()))  # Pot de Vin unless told
    assert pot_de_vin == list(selectors.leaderboard(club=first_club(), game_type=POT_DE_VIN))
    assert [r["player__name"] for r in pot_de_vin] == ["Bea", "Cy", "Ada"]  # no Dev
    entries = selectors.leaderboard_entries(complots, start=1)
    assert [(e["player"]["name"], e["games"], e["wins"]) for e in entries][0] == ("Ada", 3, 3)
    assert selectors.leaderboard_entries(pot_de_vin, start=1)[2]["wins"] == 0
    assert list(selectors.leaderboard(club=first_club(), game_type=COMPLOTS, min_games=4)) == []


def test_pending_changes_carry_their_game_type(owner: Any, queued: list[Any]) -> None:
    _pot_de_vin_loss(owner, 0)
    _pot_de_vin_loss(owner, 2)
    _complots_win(owner, 1)
    assert sorted(RatingsPending.objects.values_list("game_type", "since")) == [
        (COMPLOTS, day(1)),
        (POT_DE_VIN, day(0)),
        (POT_DE_VIN, day(2)),
    ]
    assert ratings_catch_up_task() == 3  # one recompute per game type: 2 + 1 games
    assert_ratings_match(POT_DE_VIN)
    assert_ratings_match(COMPLOTS)
    pot_de_vin = list(RatingHistory.objects.filter(game_type=POT_DE_VIN).values_list("id"))
    # A Complots change recomputes Complots only: the Pot de Vin rows stay as they were.
    RatingsPending.objects.create(game_type=COMPLOTS, since=None)
    assert ratings_catch_up_task() == 1
    assert list(RatingHistory.objects.filter(game_type=POT_DE_VIN).values_list("id")) == pot_de_vin
    # A deleted Complots game takes its ratings with it; Pot de Vin keeps Ada's.
    services.game_delete(game=Game.objects.get(game_type=COMPLOTS))
    assert ratings_catch_up_task() == 0
    assert not Rating.objects.filter(game_type=COMPLOTS).exists()
    assert Rating.objects.filter(game_type=POT_DE_VIN).count() == 3
