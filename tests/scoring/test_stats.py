"""Player statistics kept materialized (scoring.stats), per game type: hand-built games with
known scores, ranks and counts, and simulated games of every game type checked against a
plain-Python recomputation from their results."""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.records import adapters, events, services
from games.records.models import Game, Player
from scoring import jobs, stats
from scoring.models import HeadToHead, Job, PlayerGame, PlayerStats
from scoring.stats import selectors
from tests.scoring import stats_builders as B

tableau, scorepad, day, DAY = B.tableau, B.scorepad, B.day, B.DAY
POT_DE_VIN, COMPLOTS = B.POT_DE_VIN, B.COMPLOTS

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> Any:
    return get_user_model().objects.create_user("owner")  # no password: no hashing


def player(name: str) -> Player:
    return Player.objects.get(name=name)


def served(name: str, game_type: str = POT_DE_VIN) -> dict[str, Any]:
    return selectors.player_stats(player=player(name), game_type=game_type)


def h2h(name: str, game_type: str = POT_DE_VIN) -> dict[str, tuple[int, int, int, int]]:
    return {
        h["opponent"]["name"]: (h["games"], h["wins"], h["losses"], h["ties"])
        for h in served(name, game_type)["head_to_head"]
    }


def assert_matches_results(game_type: str = POT_DE_VIN) -> None:
    """Every player's served statistics of ``game_type`` equal the plain-Python
    recomputation."""
    expected = B.expected_stats(game_type)
    for p in Player.objects.all():
        got = B.comparable(selectors.player_stats(player=p, game_type=game_type))
        want = expected.get(p.pk) or B.comparable(_no_games(game_type))
        B.assert_close(got, want)


def _no_games(game_type: str = POT_DE_VIN) -> dict[str, Any]:
    return selectors.player_stats(player=Player(pk=0, name="nobody"), game_type=game_type)


# --- Hand-built games ---------------------------------------------------------------------


def test_shared_first_place_counts_half_a_win(owner: Any) -> None:
    # Ada: nobles 3 = 6 points; Bea: artists 3 = 6; Cy: traders 1 = 1 (rules D6). Ada and Bea
    # have the same points, cards (3) and gems (0): they share first place (D7).
    game = scorepad(
        owner,
        ["Ada", "Bea", "Cy"],
        [tableau(nobles=3), tableau(artists=3), tableau(traders=1)],
    )
    assert [p["rank"] for p in game.result["players"]] == [1, 1, 3]
    ada, cy = served("Ada"), served("Cy")
    assert (ada["games"], ada["wins"], ada["win_rate"]) == (1, 0.5, 0.5)
    assert (ada["average_score"], ada["best_score"], ada["worst_score"]) == (6, 6, 6)
    assert ada["average_rank"] == 1
    assert served("Bea")["wins"] == 0.5
    assert (cy["wins"], cy["win_rate"], cy["average_rank"], cy["best_score"]) == (0, 0, 3, 1)
    # A scorepad game records no rounds: rounds won and gems paid count logged games only.
    assert (ada["logged_games"], ada["rounds_won"], ada["gems_paid"]) == (0, 0, 0)
    assert ada["by_player_count"]["3"]["games"] == 1
    assert ada["by_player_count"]["4"]["games"] == 0
    assert (ada["individual"]["wins"], ada["team"]["games"]) == (0.5, 0)
    # Head-to-head: a shared place is a tie.
    assert h2h("Ada") == {"Bea": (1, 0, 0, 1), "Cy": (1, 1, 0, 0)}
    assert h2h("Cy") == {"Ada": (1, 0, 1, 0), "Bea": (1, 0, 1, 0)}
    # Streaks: a shared first place is a win.
    assert (ada["current_streak"], ada["longest_streak"]) == (1, 1)
    assert (cy["current_streak"], cy["longest_streak"]) == (0, 0)


def test_team_game_win_negative_columns_and_sweep(owner: Any) -> None:
    # Teams [[0, 2], [1, 3]] (rules D8: per guild the teammates' smaller column counts).
    # Team 0: Ada knights 5 and the four Pot de Vin cards; Cy nobles 4, knights 2. Counted:
    # nobles 4 (Cy's) = -1, knights 2 (Cy's; Ada's 5 is dropped) = 3, Pot de Vin 4 = 10: 12.
    # Team 1: Bea artists 3 = 6, Dev traders 3 = 6: 12. Same points; team 0 won more cards
    # (15 to 6), so it ranks first.
    game = scorepad(
        owner,
        ["Ada", "Bea", "Cy", "Dev"],
        [
            tableau(knights=5, pot_de_vin=4),
            tableau(artists=3),
            tableau(nobles=4, knights=2),
            tableau(traders=3),
        ],
        teams=[[0, 2], [1, 3]],
    )
    assert [p["score"] for p in game.result["players"]] == [12, 12, 12, 12]
    assert [p["rank"] for p in game.result["players"]] == [1, 2, 1, 2]
    ada, cy = served("Ada"), served("Cy")
    # Teammates of the winning team each get a whole win.
    assert (ada["wins"], cy["wins"], served("Bea")["wins"]) == (1, 1, 0)
    assert ada["team"]["games"] == 1 and ada["individual"]["games"] == 0
    assert ada["by_player_count"]["4"]["wins"] == 1
    # The sweep is Ada's own: four Pot de Vin cards in her tableau.
    assert (ada["pot_de_vin_sweeps"], cy["pot_de_vin_sweeps"]) == (1, 0)
    # The negative nobles column that counted is Cy's; Ada's knights (-3 alone) were dropped.
    assert cy["negative_columns"] == {**dict.fromkeys(B.GUILDS, 0), "nobles": 1}
    assert ada["negative_columns"] == dict.fromkeys(B.GUILDS, 0)
    # Teammates are not opponents.
    assert h2h("Ada") == {"Bea": (1, 1, 0, 0), "Dev": (1, 1, 0, 0)}
    assert h2h("Bea") == {"Ada": (1, 0, 1, 0), "Cy": (1, 0, 1, 0)}


def test_teams_sharing_first_place_split_the_win(owner: Any) -> None:
    # Team 0 (Ada, Cy): nobles 3 = 6; team 1 (Bea, Dev): artists 3 = 6; 3 cards and no gem
    # each: the two teams share first place, so each of the four players has half a win.
    scorepad(
        owner,
        ["Ada", "Bea", "Cy", "Dev"],
        [tableau(nobles=3), tableau(artists=3), tableau(), tableau()],
        teams=[[0, 2], [1, 3]],
    )
    assert [served(n)["wins"] for n in ("Ada", "Bea", "Cy", "Dev")] == [0.5] * 4
    assert h2h("Cy") == {"Bea": (1, 0, 0, 1), "Dev": (1, 0, 0, 1)}


def test_negative_columns_alone(owner: Any) -> None:
    # Ada: artists 4 = -1, workmen 6 = -6: both columns negative (rules D6).
    scorepad(
        owner,
        ["Ada", "Bea", "Cy"],
        [tableau(artists=4, workmen=6), tableau(nobles=1), tableau(traders=2)],
    )
    negative = served("Ada")["negative_columns"]
    assert negative == {**dict.fromkeys(B.GUILDS, 0), "artists": 1, "workmen": 1}
    assert served("Ada")["best_score"] == -7


def test_revokes_found_after_the_fact(owner: Any) -> None:
    names = ["Ada", "Bea", "Cy", "Dev"]
    log, revoke = B.revoke_log(4, names=names, played_on=day(0))
    (game,) = B.imported(owner, [log])
    assert game.status == Game.Status.FINISHED
    violations = game.result["violations"]
    assert {"round": revoke["round"], "seat": revoke["seat"]} in [
        {"round": v["round"], "seat": v["seat"]} for v in violations
    ]
    for seat, name in enumerate(names):
        expected = sum(1 for v in violations if v["code"] == "revoke" and v["seat"] == seat)
        assert served(name)["revokes"] == expected
    assert served(names[revoke["seat"]])["revokes"] >= 1
    # A logged game knows rounds won and gems paid.
    ada = served("Ada")
    assert ada["logged_games"] == 1
    assert ada["rounds_won"] == game.result["players"][0]["rounds_won"]
    assert ada["gems_paid"] == game.result["players"][0]["gems_paid"]
    assert_matches_results()


def test_reopen_removes_a_game_and_finishing_adds_it_back(owner: Any) -> None:
    names = ["Ada", "Bea", "Cy"]
    first, second = B.imported(
        owner,
        [
            B.simulated(3, 1, names=names, played_on=day(0)),
            B.simulated(3, 2, names=names, played_on=day(1)),
        ],
    )
    assert served("Ada")["games"] == 2
    before = served("Ada")

    services.game_reopen(game=second)
    assert served("Ada")["games"] == 1
    assert PlayerGame.objects.filter(game=second).count() == 0
    assert h2h("Ada")["Bea"][0] == 1
    assert_matches_results()

    services.game_finish(game=second)
    assert served("Ada") == before
    assert_matches_results()

    services.game_delete(game=first)
    assert served("Ada")["games"] == 1
    assert not PlayerGame.objects.filter(game__isnull=True).exists()
    assert_matches_results()


def _pairs() -> dict[tuple[str, str], tuple[int, int, int, int, int]]:
    """Every head-to-head row by (player, opponent): its id, games, wins, losses, ties."""
    return {
        (h.player.name, h.opponent.name): (h.pk, h.games, h.wins, h.losses, h.ties)
        for h in HeadToHead.objects.select_related("player", "opponent")
    }


def _met(game: Game, name: str, other: str) -> tuple[int, int, int, int]:
    """(games, wins, losses, ties) of ``name`` against ``other`` in this game alone, by their
    seats' ranks."""
    ranks = dict(game.seats.values_list("player__name", "rank"))
    mine, theirs = ranks[name], ranks[other]
    return (1, int(mine < theirs), int(mine > theirs), int(mine == theirs))


def test_a_change_writes_the_head_to_head_of_its_own_table_only(owner: Any) -> None:
    """A changed game takes its pairs' counts away (and adds the new ones): a pair that also
    met elsewhere keeps its row with one game less, a pair that met only there loses its row,
    and pairs it did not seat are not written at all."""
    first, second = B.imported(
        owner,
        [
            B.simulated(3, 11, names=["Ada", "Bea", "Cy"], played_on=day(0)),
            B.simulated(3, 12, names=["Bea", "Ada", "Dev"], played_on=day(1)),
        ],
    )
    before = _pairs()
    each = [_met(game, "Ada", "Bea") for game in (first, second)]
    assert before[("Ada", "Bea")][1:] == tuple(map(sum, zip(*each, strict=True)))
    assert before[("Ada", "Dev")][1:] == _met(second, "Ada", "Dev")

    services.game_reopen(game=second)
    after = _pairs()
    assert after[("Ada", "Bea")] == (before[("Ada", "Bea")][0], *_met(first, "Ada", "Bea"))
    assert after[("Bea", "Ada")] == (before[("Bea", "Ada")][0], *_met(first, "Bea", "Ada"))
    assert not {pair for pair in after if "Dev" in pair}
    assert after[("Bea", "Cy")] == before[("Bea", "Cy")]  # the same row, never written
    assert after[("Cy", "Ada")] == before[("Cy", "Ada")]
    assert_matches_results()


def test_head_to_head_counts_out_of_step_are_counted_again(owner: Any) -> None:
    """Counts a change cannot be added to (a row lost here: taking a game away would leave it
    below zero) are counted again from the games, both ways round."""
    first, second = B.imported(
        owner,
        [
            B.simulated(3, 21, names=["Ada", "Bea", "Cy"], played_on=day(0)),
            B.simulated(3, 22, names=["Ada", "Bea", "Cy"], played_on=day(1)),
        ],
    )
    HeadToHead.objects.filter(player__name="Ada", opponent__name="Bea").delete()
    services.game_reopen(game=first)
    assert h2h("Ada")["Bea"] == _met(second, "Ada", "Bea")
    assert h2h("Bea")["Ada"] == _met(second, "Bea", "Ada")
    assert_matches_results()


def test_a_player_without_games_left_has_no_stats(owner: Any) -> None:
    game = scorepad(owner, ["Ada", "Bea", "Cy"], [tableau(nobles=1), tableau(), tableau()])
    services.game_delete(game=game)
    ada = served("Ada")
    assert (ada["games"], ada["wins"], ada["win_rate"], ada["head_to_head"]) == (0, 0, None, [])
    assert not PlayerStats.objects.exists() and not HeadToHead.objects.exists()


def _win(owner: Any, on: int) -> Game:
    return scorepad(owner, ["Ada", "Bea", "Cy"], [tableau(nobles=1), tableau(), tableau()],
                    played_on=day(on))  # fmt: skip


def _loss(owner: Any, on: int) -> Game:
    return scorepad(owner, ["Ada", "Bea", "Cy"], [tableau(), tableau(nobles=1), tableau()],
                    played_on=day(on))  # fmt: skip


def streaks(name: str = "Ada") -> tuple[int, int]:
    s = served(name)
    return s["current_streak"], s["longest_streak"]


def test_winning_streaks_follow_the_date_order(owner: Any) -> None:
    # By date: W W L W W  ->  current 2, longest 2.
    _win(owner, 0)
    _win(owner, 2)
    _loss(owner, 4)
    _win(owner, 6)
    late = _win(owner, 8)
    assert streaks() == (2, 2)
    assert streaks("Bea") == (0, 1)
    # An old win entered later, between the first two: W W W L W W -> longest 3.
    _win(owner, 1)
    assert streaks() == (2, 3)
    # An old loss on day 7: W W W L W L W -> current 1.
    old_loss = _loss(owner, 7)
    assert streaks() == (1, 3)
    # Moving that loss to day 3 (before the first loss): W W W L L W W -> current 2.
    services.game_update(game=old_loss, played_on=day(3))
    assert streaks() == (2, 3)
    # Deleting the last game: W W W L L W -> current 1.
    services.game_delete(game=late)
    assert streaks() == (1, 3)
    assert_matches_results()


def test_a_random_history_matches_the_results(owner: Any) -> None:
    """Simulated and scorepad games of mixed sizes, teams and dates, then reopened, re-dated,
    re-finished and deleted: every served statistic equals the recomputation from results."""
    rng = random.Random(5)
    pool = ["Ada", "Bea", "Cy", "Dev", "Eli", "Flo", "Gus"]
    logs = []
    for k in range(24):
        n = rng.choice([3, 4, 4, 5, 6])
        logs.append(
            B.simulated(
                n,
                100 + k,
                names=rng.sample(pool, n),
                played_on=day(rng.randrange(30)),
                teams=n in (4, 6) and rng.random() < 0.4,
                record_deal=rng.random() < 0.5,
            )
        )
    log, _ = B.revoke_log(5, names=pool[:5], played_on=day(12))
    logs.append(log)
    games = B.imported(owner, logs)
    scorepad(
        owner,
        ["Gus", "Ada", "Flo"],
        [tableau(nobles=2, gems=1), tableau(nobles=2, gems=1), tableau(pot_de_vin=4)],
        played_on=day(5),
    )
    assert_matches_results()

    services.game_reopen(game=games[0])
    services.game_reopen(game=games[1])
    services.game_update(game=games[2], played_on=day(40))
    services.game_update(game=games[3], played_on=day(-3))
    services.game_delete(game=games[4])
    assert_matches_results()
    services.game_finish(game=games[0])
    assert_matches_results()

    rows = sorted(PlayerStats.objects.values_list("player_id", "bucket", "games", "wins"))
    h2h_rows = sorted(HeadToHead.objects.values_list("player_id", "opponent_id", "games", "wins"))
    stats.stats_rebuild(ratings=False)
    assert sorted(PlayerStats.objects.values_list("player_id", "bucket", "games", "wins")) == rows
    h2h_after = sorted(HeadToHead.objects.values_list("player_id", "opponent_id", "games", "wins"))
    assert h2h_after == h2h_rows


def test_unchanged_results_are_not_rewritten(owner: Any) -> None:
    (game,) = B.imported(owner, [B.simulated(4, 3, names=["A", "B", "C", "D"], played_on=DAY)])
    ids = list(PlayerGame.objects.filter(game=game).values_list("id", flat=True))
    with CaptureQueriesContext(connection) as queries:
        stats.game_results_changed(game_ids=[game.pk])
    assert list(PlayerGame.objects.filter(game=game).values_list("id", flat=True)) == ids
    assert not [q for q in queries if q["sql"].lstrip().upper().startswith(("DELETE", "INSERT"))]


def test_a_batch_refreshes_each_player_once(owner: Any) -> None:
    """The queries of one call do not grow with the number of games in it."""
    names = ["Ada", "Bea", "Cy", "Dev", "Eli", "Flo"]

    def queries_for(count: int, seed: int) -> int:
        logs = [
            B.simulated(4, seed + k, names=names[k % 3 : k % 3 + 4], played_on=day(k))
            for k in range(count)
        ]
        games = B.imported(owner, logs)
        # The statistics as they were before these games: their rows gone, the counts too.
        PlayerGame.objects.filter(game__in=games).delete()
        stats.head_to_head_refresh(player_ids=Player.objects.values_list("pk", flat=True))
        with CaptureQueriesContext(connection) as queries:
            stats.game_results_changed(game_ids=[g.pk for g in games])
        # Bulk inserts come in batches (SQLite takes at most 999 parameters per statement).
        return sum(1 for q in queries if not q["sql"].lstrip().upper().startswith("INSERT"))

    queries_for(3, 0)  # every pair of players has met: the calls below update their counts
    assert queries_for(5, 100) == queries_for(40, 1000)
    assert_matches_results()


def test_reading_stats_takes_a_few_queries(owner: Any, django_assert_num_queries: Any) -> None:
    for k in range(3):
        _win(owner, k)
    ada = player("Ada")
    with django_assert_num_queries(3):  # buckets, rating, head-to-head
        selectors.player_stats(player=ada)


def test_a_rescore_job_updates_stats(owner: Any) -> None:
    """A finished re-score job hands its games to the statistics (scoring.jobs.AFTER_JOB)."""
    game = scorepad(owner, ["Ada", "Bea", "Cy"], [tableau(nobles=1), tableau(), tableau()])
    assert served("Ada")["wins"] == 1
    assert stats.job_games_changed in jobs.AFTER_JOB
    # As a re-score would: a new result (here Bea's tableau corrected) stored on the game.
    sheet = {
        "players": ["Ada", "Bea", "Cy"],
        "teams": None,
        "tableaux": [tableau(nobles=1), tableau(artists=2), tableau()],
        "jokers": None,
    }
    seats = list(game.seats.order_by("seat"))
    adapters.store_result(game, seats, B.ENGINE.score_tableaux(sheet), final=True)
    game.save()
    stats.job_games_changed(Job(kind=Job.Kind.IMPORT), [game.pk])  # imports: done per batch
    assert served("Ada")["wins"] == 1
    stats.job_games_changed(Job(kind=Job.Kind.RESCORE), [game.pk])
    assert (served("Ada")["wins"], served("Bea")["wins"]) == (0, 1)
    assert_matches_results()


@pytest.mark.django_db(transaction=True)
def test_concurrent_refreshes_on_postgresql() -> None:
    """Games sharing players refreshed at the same time, each in its own transaction: the
    refreshes queue (advisory lock), so none fails on the rows another is rewriting and none
    misses another's rows."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one writer at a time")
    services.editions_ensure_builtin()  # the flush of a transactional test removed them
    owner = get_user_model().objects.create_user("racer")
    names = ["Ada", "Bea", "Cy", "Dev", "Eli", "Flo"]
    logs = [B.simulated(4, 300 + k, names=names[k % 3 : k % 3 + 4], played_on=day(k % 4))
            for k in range(8)]  # fmt: skip
    games = B.imported(owner, logs)
    # As if each game had just been finished: its rows are not there yet.
    PlayerGame.objects.all().delete()
    PlayerStats.objects.all().delete()
    HeadToHead.objects.all().delete()
    start = threading.Barrier(len(games))
    failures: list[BaseException] = []

    def refresh(game: Game) -> None:
        try:
            start.wait()
            with transaction.atomic():
                stats.game_results_changed(game_ids=[game.pk])
                time.sleep(0.05)  # hold the transaction open: the other refreshes overlap it
        except BaseException as exc:  # reported below
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=refresh, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert PlayerGame.objects.count() == 32
    assert_matches_results()


# --- Game types ------------------------------------------------------------------------------


def test_complots_k4_totals_and_rates_by_hand(owner: Any) -> None:
    # Two finished Complots games with hand-written results (rules K4, K5 name the counts).
    # Game 1, 3 players: Ada survives (rank 1), Bea is eliminated last (2), Cy first (3).
    B.complots_result(
        owner,
        ["Ada", "Bea", "Cy"],
        [
            {"rank": 1, "coins_gained": 12, "coins_lost_to_captains": 2, "claims_made": 5,
             "bluffs_caught": 1, "challenges_made": 2, "challenges_won": 1, "blocks_made": 1,
             "blocks_standing": 1, "influences_taken": 3, "players_eliminated": 2},
            {"rank": 2, "claims_made": 2, "bluffs_caught": 1, "challenges_made": 1},
            {"rank": 3, "coins_gained": 4},
        ],
        played_on=day(0),
    )  # fmt: skip
    # Game 2, 4 players: Ada is third.
    B.complots_result(
        owner,
        ["Ada", "Bea", "Cy", "Dev"],
        [
            {"rank": 3, "coins_gained": 6, "coins_lost_to_captains": 4, "claims_made": 3,
             "bluffs_caught": 2, "challenges_made": 2, "challenges_won": 2, "blocks_made": 2,
             "influences_taken": 1},
            {"rank": 1, "players_eliminated": 3},
            {"rank": 2},
            {"rank": 4},
        ],
        played_on=day(1),
    )  # fmt: skip
    ada = served("Ada", COMPLOTS)
    # Totals: coins 12 + 6 = 18, lost 2 + 4 = 6, claims 5 + 3 = 8, bluffs caught 1 + 2 = 3,
    # challenges 2 + 2 = 4 of which won 1 + 2 = 3, blocks 1 + 2 = 3 of which standing 1,
    # influences taken 3 + 1 = 4, players eliminated 2 + 0 = 2.
    assert {k: ada[k] for k in B.K4} == {
        "coins_gained": 18, "coins_lost_to_captains": 6, "claims_made": 8, "bluffs_caught": 3,
        "challenges_made": 4, "challenges_won": 3, "blocks_made": 3, "blocks_standing": 1,
        "influences_taken": 4, "players_eliminated": 2,
    }  # fmt: skip
    # Challenge success 3 / 4; bluffs caught per claim 3 / 8; survival (1 + 3) / 2.
    assert (ada["challenge_success"], ada["bluffs_caught_per_claim"]) == (0.75, 0.375)
    assert ada["survival"] == ada["average_rank"] == 2
    # Generic figures: one win in two games; Complots has no scores.
    assert (ada["games"], ada["wins"], ada["win_rate"]) == (2, 1, 0.5)
    assert (ada["average_score"], ada["best_score"], ada["worst_score"]) == (None, None, None)
    assert (ada["current_streak"], ada["longest_streak"]) == (0, 1)
    # By player count, from the engine's player counts (2 to 8), not Pot de Vin's 3 to 6.
    assert sorted(ada["by_player_count"], key=int) == [str(n) for n in range(2, 9)]
    three, four = ada["by_player_count"]["3"], ada["by_player_count"]["4"]
    assert (three["challenge_success"], three["bluffs_caught_per_claim"]) == (0.5, 0.2)
    assert (four["challenge_success"], four["bluffs_caught_per_claim"]) == (1, 0.6667)
    assert (three["survival"], four["survival"]) == (1, 3)
    assert ada["by_player_count"]["2"]["challenge_success"] is None  # no game: no rate
    assert (ada["individual"]["games"], ada["team"]["games"]) == (2, 0)
    # Cy made no challenge and no claim: the rates are null, not 0.
    cy = served("Cy", COMPLOTS)
    assert (cy["challenge_success"], cy["bluffs_caught_per_claim"]) == (None, None)
    assert h2h("Ada", COMPLOTS) == {"Bea": (2, 1, 1, 0), "Cy": (2, 1, 1, 0), "Dev": (1, 1, 0, 0)}
    assert ada["game_types"] == [{"game_type": COMPLOTS, "label": "Complots", "games": 2}]
    assert_matches_results(COMPLOTS)


def test_game_types_are_kept_apart(owner: Any) -> None:
    # Ada wins a Pot de Vin game against Bea and Cy, and plays two Complots games with Bea and
    # Dev: each game type has its own statistics, head-to-head and streaks.
    _win(owner, 0)
    pot_de_vin = served("Ada")
    names = ["Ada", "Bea", "Dev"]
    B.imported(
        owner,
        [B.complots_simulated(3, k, names=names, played_on=day(1 + k)) for k in range(2)],
    )
    assert served("Ada") == {
        **pot_de_vin,
        "game_types": [
            {"game_type": POT_DE_VIN, "label": "Pot de Vin", "games": 1},
            {"game_type": COMPLOTS, "label": "Complots", "games": 2},
        ],
    }
    ada = served("Ada", COMPLOTS)
    assert ada["games"] == 2
    assert set(h2h("Ada", COMPLOTS)) == {"Bea", "Dev"}
    assert set(h2h("Ada")) == {"Bea", "Cy"}
    assert served("Dev")["games"] == 0
    assert served("Dev")["game_types"] == [{"game_type": COMPLOTS, "label": "Complots", "games": 2}]
    assert served("Cy", COMPLOTS)["games"] == 0
    assert set(
        PlayerStats.objects.filter(player=player("Ada")).values_list("game_type", flat=True)
    ) == {
        POT_DE_VIN,
        COMPLOTS,
    }
    # The Pot de Vin fields are Pot de Vin's; Complots has its own.
    assert "pot_de_vin_sweeps" not in ada and "challenge_success" not in pot_de_vin
    assert_matches_results(POT_DE_VIN)
    assert_matches_results(COMPLOTS)


def test_simulated_complots_games_match_the_results(owner: Any) -> None:
    """Simulated Complots games of 2 to 8 players, finished and unfinished, then reopened,
    re-dated and deleted: every served statistic equals the recomputation from results."""
    rng = random.Random(7)
    pool = ["Ada", "Bea", "Cy", "Dev", "Eli", "Flo", "Gus", "Hal", "Ivy"]
    logs = [
        B.complots_simulated(
            n, 500 + k, names=rng.sample(pool, n), played_on=day(rng.randrange(20)),
            complete=k % 7 != 3,
        )
        for k, n in enumerate([2, 3, 4, 5, 6, 7, 8, 3, 4, 2, 5, 6, 3, 4])
    ]  # fmt: skip
    logs += [B.simulated(4, 40 + k, names=pool[k : k + 4], played_on=day(k)) for k in range(3)]
    games = B.imported(owner, logs)
    assert {g.game_type for g in games} == {POT_DE_VIN, COMPLOTS}
    assert Game.objects.filter(game_type=COMPLOTS, status=Game.Status.FINISHED).count() >= 12
    assert_matches_results(COMPLOTS)
    assert_matches_results(POT_DE_VIN)

    finished = [g for g in games if g.game_type == COMPLOTS and g.status == Game.Status.FINISHED]
    services.game_reopen(game=finished[0])
    services.game_update(game=finished[1], played_on=day(30))
    services.game_delete(game=finished[2])
    assert_matches_results(COMPLOTS)
    rows = sorted(PlayerStats.objects.values_list("player_id", "game_type", "bucket", "counters"))
    h2h_rows = sorted(
        HeadToHead.objects.values_list("player_id", "opponent_id", "game_type", "games")
    )
    stats.stats_rebuild(ratings=False)
    assert (
        sorted(PlayerStats.objects.values_list("player_id", "game_type", "bucket", "counters"))
        == rows
    )
    assert (
        sorted(HeadToHead.objects.values_list("player_id", "opponent_id", "game_type", "games"))
        == h2h_rows
    )


def test_records_announce_changed_results_through_games_events(owner: Any) -> None:
    """Record services never import scoring: they call ``games.records.events.results_changed``, to
    which scoring subscribes at start-up (scoring.apps)."""
    game = _win(owner, 0)
    PlayerGame.objects.all().delete()
    events.results_changed(game_ids=[game.pk])
    assert PlayerGame.objects.filter(game=game).count() == 3
    assert served("Ada")["wins"] == 1


def test_a_game_without_statistics_module_shows_its_engine_stats(owner: Any) -> None:
    """Generic code reads a game's counters from its engine's ``info.stats``; without a plugin
    module a bucket shows each total and its rate (per game, or per the stat ``per`` names)."""
    from scoring.stats.games import game_stats

    plain = dataclasses.replace(game_stats(COMPLOTS), module=None)
    B.complots_result(
        owner, ["Ada", "Bea"], [{"rank": 1, "claims_made": 4, "bluffs_caught": 1}, {"rank": 2}]
    )
    totals = PlayerStats.objects.get(player=player("Ada"), bucket="all").counters
    bucket = plain.bucket(totals, {"games": 1})
    assert (bucket["claims_made"], bucket["claims_made_rate"]) == (4, 4)
    assert bucket["bluffs_caught_rate"] == 0.25  # per claims made (the engine's StatDef.per)
    assert set(plain.api_fields()) == set(bucket)
