"""Player statistics follow changed games by difference (scoring.stats.aggregates,
``player_stats_change``): after any sequence of changes every ``PlayerStats`` row equals, field
by field and to the bit, what a recompute from the players' rows writes
(``player_stats_refresh``), and what a rebuild from the games writes (``stats_rebuild``).
Random sequences over every game type: games finished (after all others or among them),
re-scored with other winners, shared first places, other scores or other counts, re-dated,
reopened and finished again, deleted, and named games won another way."""

from __future__ import annotations

import copy
import datetime
import random
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.records import board_games, services
from games.records.models import BoardGame, Game, Player, Seat
from scoring import stats
from scoring.engine.bruges.simulate import simulate as bruges_simulate
from scoring.models import PlayerGame, PlayerStats
from scoring.stats.aggregates import player_stats_refresh
from scoring.stats.games import BASE_PATHS, game_stats
from tests.accounts import first_club
from tests.scoring import stats_builders as B

pytestmark = pytest.mark.django_db

NAMES = ["Ada", "Bea", "Cy", "Dev", "Eli", "Flo", "Gus"]
DAYS = 12  # few days: many games share one, ordered by id
_KEY = ("player_id", "game_type", "bucket")
_FIELDS = tuple(
    f.attname
    for f in PlayerStats._meta.concrete_fields
    if f.attname not in {"id", "updated", *_KEY}
)


@pytest.fixture
def owner() -> Any:
    return get_user_model().objects.create_user("owner")


def stored() -> dict[tuple[Any, ...], dict[str, Any]]:
    """Every ``PlayerStats`` row, every field but its id and time, by (player, game type,
    bucket)."""
    return {
        tuple(row[k] for k in _KEY): {k: row[k] for k in _FIELDS}
        for row in PlayerStats.objects.values(*_KEY, *_FIELDS)
    }


def recomputed(rebuild: bool = False) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The rows a recompute of every player writes (``rebuild``: a rebuild from the games),
    read in a savepoint rolled back: the statistics under test stay as they are."""
    with transaction.atomic():
        if rebuild:
            stats.stats_rebuild(ratings=False)
        else:
            player_stats_refresh(player_ids=Player.objects.values_list("pk", flat=True))
        rows = stored()
        transaction.set_rollback(True)
    return rows


def assert_as_recomputed(step: str, rebuild: bool = False) -> None:
    got, want = stored(), recomputed(rebuild)
    differ = {
        key: {
            name: (got.get(key, {}).get(name), want.get(key, {}).get(name))
            for name in _FIELDS
            if got.get(key, {}).get(name) != want.get(key, {}).get(name)
        }
        for key in got.keys() | want.keys()
        if got.get(key) != want.get(key)
    }
    assert not differ, f"after {step}: (by difference, recomputed) {differ}"


# --- Games of every type ------------------------------------------------------------------


def _pot_de_vin(rng: random.Random, on: datetime.date) -> dict[str, Any]:
    n = rng.choice([3, 4, 4, 5, 6])
    return B.simulated(
        n,
        rng.randrange(10**6),
        names=rng.sample(NAMES, n),
        played_on=on,
        teams=n in (4, 6) and rng.random() < 0.4,
        record_deal=rng.random() < 0.5,
    )


def _complots(rng: random.Random, on: datetime.date) -> dict[str, Any]:
    n = rng.randint(2, 6)
    return B.complots_simulated(n, rng.randrange(10**6), names=rng.sample(NAMES, n), played_on=on)


def _bruges(rng: random.Random, on: datetime.date) -> dict[str, Any]:
    n = rng.randint(2, 4)
    log = bruges_simulate(n, seed=rng.randrange(10**6))
    return {**log, "players": rng.sample(NAMES, n), "played_on": on.isoformat()}


LOGS = (_pot_de_vin, _complots, _bruges)


def _result_play(
    owner: Any, rng: random.Random, on: datetime.date, board_game: BoardGame | None
) -> Game:
    """A play known by its final scores: of a named game (small scores: shared places are
    common, a shared first is a third or a half of a win), or of Bruges (its own figures
    unknown)."""
    club = first_club()
    n = rng.randint(2, 5 if board_game is not None else 4)
    names = rng.sample(NAMES, n)
    cooperative = board_game is not None and board_game.win == BoardGame.Win.COOPERATIVE
    return board_games.result_game_create(
        club=club,
        owner=owner,
        players=services.players_resolve(club=club, refs=names, created_by=owner),
        game_type="other" if board_game is not None else "bruges",
        board_game=board_game,
        sheet=[
            {"score": rng.choice([None, 3]) if cooperative else rng.randint(0, 4)} for _ in names
        ],  # fmt: skip
        won=rng.random() < 0.5 if cooperative else None,
        played_on=on,
    )


# --- Changes ------------------------------------------------------------------------------


def _unit(player: dict[str, Any], team_play: bool) -> Any:
    return player["team"] if team_play else player["seat"]


def _rescore(game: Game, rng: random.Random) -> str:
    """Store another result, as a re-score that found one: the winners and the last unit
    swapped, a shared first place, other scores, or another of the game's own counts; the
    seats follow. Returns what changed."""
    result = copy.deepcopy(game.result)
    players = result["players"]
    team_play = any(p["team"] is not None for p in players)
    units = sorted({_unit(p, team_play) for p in players})
    how = rng.choice(["winners", "shared first", "scores", "counts"])
    if how == "winners":
        rank = {_unit(p, team_play): p["rank"] for p in players}
        score = {_unit(p, team_play): p["score"] for p in players}
        best = min(units, key=lambda u: (rank[u], u))
        worst = max(units, key=lambda u: (rank[u], u))
        other = {best: worst, worst: best}
        for p in players:
            u = other.get(_unit(p, team_play))
            if u is not None:
                p["rank"], p["score"] = rank[u], score[u]
    elif how == "shared first":
        first = set(rng.sample(units, min(len(units), rng.randint(2, 3))))
        for p in players:
            if _unit(p, team_play) in first:
                p["rank"] = 1
    elif how == "scores":
        change = {u: rng.randint(-6, 6) for u in units}
        for p in players:
            if p["score"] is not None:
                p["score"] += change[_unit(p, team_play)]
    else:
        paths = [path for name, path in game_stats(game.game_type).paths[len(BASE_PATHS) :]]
        counted = []
        for p in players:
            for path in paths:
                *inner, last = path
                entry = p
                for key in inner:
                    entry = entry.get(key) if isinstance(entry, dict) else None
                if isinstance(entry, dict) and type(entry.get(last)) is int:
                    counted.append((entry, last))
        if not counted:
            return "nothing"
        entry, last = rng.choice(counted)
        entry[last] += rng.randint(1, 3)
    result["winners"] = sorted(p["seat"] for p in players if p["rank"] == 1)
    game.result = result
    game.save(update_fields=["result"])
    for p in players:
        Seat.objects.filter(game=game, seat=p["seat"]).update(rank=p["rank"], score=p["score"])
    return how


def _finished(game_type: str | None = None) -> list[Game]:
    games = Game.objects.filter(status=Game.Status.FINISHED).order_by("pk")
    return list(games if game_type is None else games.filter(game_type=game_type))


def _random_history(owner: Any, seed: int, steps: int) -> Counter[str]:
    """``steps`` random changes, every statistic compared with a recompute after each one.
    Returns how many changes of each kind were made."""
    rng = random.Random(seed)
    club = first_club()
    named = [
        board_games.board_game_create(club=club, name="Azul", win=BoardGame.Win.HIGHEST),
        board_games.board_game_create(club=club, name="Golf", win=BoardGame.Win.LOWEST),
        board_games.board_game_create(club=club, name="Hanabi", win=BoardGame.Win.COOPERATIVE),
    ]
    today = 0  # the latest day played: a game of that day or after comes last
    reopened: dict[int, Any] = {}  # game id: its end-of-game choices, to finish it again
    done: Counter[str] = Counter()
    for step in range(steps):
        games = _finished()
        choice = rng.random() if len(games) >= 6 else 0.0
        on = B.day(rng.randrange(DAYS) if rng.random() < 0.5 else today)
        if rng.random() < 0.3:
            today += 1
            on = B.day(today)
        if choice < 0.35:
            if rng.random() < 0.7:
                B.imported(owner, [rng.choice(LOGS)(rng, on) for _ in range(rng.randint(1, 3))])
                what = "finished (log)"
            else:
                _result_play(owner, rng, on, rng.choice([*named, None]))
                what = "finished (result)"
        elif choice < 0.6:
            batch = rng.sample(games, min(len(games), rng.randint(1, 4)))
            hows = [_rescore(game, rng) for game in batch]
            # A re-score's follow-up: the games it rewrote and some it left as they were.
            stats.game_results_changed(game_ids=[g.pk for g in batch + rng.sample(games, 2)])
            what = f"re-scored ({', '.join(hows)})"
        elif choice < 0.72:
            game = rng.choice(games)
            services.game_update(game=game, played_on=on)
            what = "re-dated"
        elif choice < 0.82:
            logged = [g for g in games if g.mode == Game.Mode.ROUNDS]
            if reopened and rng.random() < 0.5:
                pk, finish = rng.choice(sorted(reopened.items(), key=lambda item: item[0]))
                del reopened[pk]
                services.game_finish(game=Game.objects.get(pk=pk), finish=finish)
                what = "finished again"
            elif logged:
                game = rng.choice(logged)
                reopened[game.pk] = game.finish
                services.game_reopen(game=game)
                what = "reopened"
            else:
                continue
        elif choice < 0.9:
            game = rng.choice(games)
            reopened.pop(game.pk, None)
            services.game_delete(game=game)
            what = "deleted"
        else:
            board_game = rng.choice(named[:2])
            win = {BoardGame.Win.HIGHEST: BoardGame.Win.LOWEST}.get(
                board_game.win, BoardGame.Win.HIGHEST
            )
            board_games.board_game_update(board_game=board_game, win=win)
            what = "won another way"
        done[what.split(" (")[0]] += 1
        assert_as_recomputed(f"step {step}, {what}")
    assert_as_recomputed("the last step, against a rebuild from the games", rebuild=True)
    return done


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_changes_end_as_a_recompute(owner: Any, seed: int) -> None:
    done = _random_history(owner, seed, steps=80)
    assert set(done) >= {"finished", "re-scored", "re-dated", "reopened", "deleted"}
    kinds = set(PlayerStats.objects.values_list("game_type", flat=True))
    assert {B.POT_DE_VIN, B.COMPLOTS, "bruges"} <= kinds
    assert any(kind.startswith("other-") for kind in kinds)
    # Shared firsts split into thirds: wins no binary fraction holds, equal all the same.
    assert PlayerGame.objects.filter(win_share__gt=0, win_share__lt=0.5).exists()


# --- What is read again, and what is not --------------------------------------------------


def _history_reads(queries: CaptureQueriesContext) -> list[str]:
    """The queries that read a player's games in their order (streaks read again)."""
    return [
        q["sql"]
        for q in queries.captured_queries
        if PlayerGame._meta.db_table in q["sql"] and "ORDER BY" in q["sql"].upper()
    ]


def test_a_game_after_all_others_goes_on_from_the_stored_streaks(owner: Any) -> None:
    names = ["Ada", "Bea", "Cy", "Dev"]
    B.imported(owner, [B.simulated(4, 10 + k, names=names, played_on=B.day(k)) for k in range(6)])
    with CaptureQueriesContext(connection) as queries:
        B.imported(owner, [B.simulated(4, 30, names=names, played_on=B.day(6))])
    assert not _history_reads(queries)
    assert_as_recomputed("a game after all others")
    # One among the others: the streaks are read again.
    with CaptureQueriesContext(connection) as queries:
        B.imported(owner, [B.simulated(4, 31, names=names, played_on=B.day(2))])
    assert _history_reads(queries)
    assert_as_recomputed("a game among the others")


def test_rows_the_changes_leave_alone_are_not_written(owner: Any) -> None:
    names = ["Ada", "Bea", "Cy"]
    B.imported(owner, [B.complots_simulated(3, 5, names=names, played_on=B.day(0))])
    B.imported(owner, [B.simulated(3, 6, names=names, played_on=B.day(1))])
    complots = dict(PlayerStats.objects.filter(game_type=B.COMPLOTS).values_list("pk", "updated"))
    B.imported(owner, [B.simulated(3, 7, names=names, played_on=B.day(2))])
    assert (
        dict(PlayerStats.objects.filter(game_type=B.COMPLOTS).values_list("pk", "updated"))
        == complots
    )
    assert_as_recomputed("another game type's game")


def test_statistics_out_of_step_are_recomputed_whole(owner: Any) -> None:
    """What cannot be moved by difference is recomputed: a player whose rows were lost
    behind the statistics' back, or whose stored counters are not the game's (a counter the
    game has since gained)."""
    names = ["Ada", "Bea", "Cy"]
    first, _ = B.imported(
        owner, [B.simulated(3, 40 + k, names=names, played_on=B.day(k)) for k in range(2)]
    )
    ada = Player.objects.get(name="Ada")
    PlayerGame.objects.filter(game=first, player=ada).delete()
    bea = PlayerStats.objects.get(player__name="Bea", game_type=B.POT_DE_VIN, bucket="all")
    bea.counters = {k: v for k, v in bea.counters.items() if k != "revokes"}
    bea.save()
    B.imported(owner, [B.simulated(3, 50, names=names, played_on=B.day(5))])
    assert_as_recomputed("a game after statistics out of step")
    assert PlayerStats.objects.get(player=ada, game_type=B.POT_DE_VIN, bucket="all").games == 2
