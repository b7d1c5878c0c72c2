"""The record services (games/services.py) on Complots games: a game logged turn by turn.

Expected coins, ranks and counts are worked by hand from the rules
(shared/rules/complots.md, K1-K5); the arithmetic is in the comments."""

from __future__ import annotations

import copy
import datetime
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from games.records import events, services
from games.records.errors import GameConflict, RecordError
from games.records.models import Edition, Game, Player, Round, Seat
from scoring.engine import LogError, get_engine
from scoring.engine.complots.simulate import simulate
from scoring.engine.potdevin.simulate import simulate as simulate_pot_de_vin
from tests.accounts import first_club

pytestmark = pytest.mark.django_db

COMPLOTS = "complots"
ENGINE = get_engine(COMPLOTS)
MakeGame = Callable[..., Game]

# Ada (0), Bea (1), Cy (2); Ada starts. 2 coins each; the Treasury holds 54 - 6 = 48 (K1).
TURNS = [
    {"actor": 0, "action": "duchess"},  # 1: Ada 2 + 3 = 5; Treasury 45
    {"actor": 1, "action": "foreign_aid"},  # 2: Bea 2 + 2 = 4; Treasury 43
    {"actor": 2, "action": "income"},  # 3: Cy 2 + 1 = 3; Treasury 42
    {"actor": 0, "action": "income"},  # 4: Ada 6; Treasury 41
    {"actor": 1, "action": "captain", "target": 0},  # 5: Bea takes 2 of Ada's: Bea 6, Ada 4
    # 6: Cy's foreign aid blocked by Ada's (claimed) duchess, unchallenged: Cy stays at 3.
    {"actor": 2, "action": "foreign_aid", "block": {"by": 0, "as": "duchess"}},
    {"actor": 0, "action": "duchess"},  # 7: Ada 7; Treasury 38
    {"actor": 1, "action": "duchess"},  # 8: Bea 9; Treasury 35
    {"actor": 2, "action": "income"},  # 9: Cy 4; Treasury 34
    # 10: Ada pays 7 for a coup on Bea, who turns up a countess: Ada 0, Treasury 41.
    {"actor": 0, "action": "coup", "target": 1, "losses": [{"seat": 1, "card": "countess"}]},
]
# After turn 10: Ada 2 influences 0 coins, Bea 1 influence 9 coins, Cy 2 influences 4 coins.
# K4, unfinished: Cy 1 and Ada 2 (two influences each, Cy ahead on coins), Bea 3.
AFTER_10 = {"coins": [0, 9, 4], "influences": [2, 1, 2], "ranks": [2, 3, 1], "treasury": 41}

# Two players, Ada starts: she gets 1 coin, Bea 2 (Treasury 54 - 3 = 51).
DUEL = [
    {"actor": 0, "action": "duchess"},  # 1: Ada 4
    {"actor": 1, "action": "duchess"},  # 2: Bea 5
    {"actor": 0, "action": "duchess"},  # 3: Ada 7
    {"actor": 1, "action": "duchess"},  # 4: Bea 8
    {"actor": 0, "action": "coup", "target": 1, "losses": [{"seat": 1, "card": "captain"}]},
    {"actor": 1, "action": "coup", "target": 0, "losses": [{"seat": 0, "card": "countess"}]},
    {"actor": 0, "action": "income"},  # 7: Ada 0 + 1 = 1
    {"actor": 1, "action": "foreign_aid"},  # 8: Bea 1 + 2 = 3
    {"actor": 0, "action": "income"},  # 9: Ada 2
    # 10: Bea's assassin, challenged by Ada: it is real, so Ada (challenger) loses her last
    # influence and is eliminated; Bea then pays 3 (the claim survived, K5): Bea 0. The
    # assassination hits no one: its target is out. Ada's 2 coins go back to the Treasury.
    {
        "actor": 1,
        "action": "assassin",
        "target": 0,
        "challenge": {"by": 0, "truthful": True},
        "losses": [{"seat": 0, "card": "duchess"}],
    },
]


def append(game: Game, turns: Sequence[dict[str, Any]]) -> Game:
    for turn in turns:
        game, _ = services.round_append(game=game, round_data=copy.deepcopy(turn))
    game.refresh_from_db()
    return game


def stored(game: Game) -> dict[str, Any]:
    """What a refused write must leave as it was."""
    game = Game.objects.get(pk=game.pk)
    return {
        "status": game.status,
        "variant": game.variant,
        "result": game.result,
        "finish": game.finish,
        "finished_at": game.finished_at,
        "updated_at": game.updated_at,
        "rounds": list(Round.objects.filter(game=game).values_list("number", "data")),
        "seats": list(Seat.objects.filter(game=game).values_list("seat", "score", "rank")),
    }


def column(game: Game, key: str) -> list[Any]:
    return [p[key] for p in game.result["players"]]


def counts() -> tuple[int, int, int]:
    return Game.objects.count(), Seat.objects.count(), Round.objects.count()


@pytest.fixture
def results_changed(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The game ids of every ``results_changed`` the services fire."""
    fired: list[list[int]] = []
    listeners = [*events._results_listeners, lambda *, game_ids: fired.append(list(game_ids))]
    monkeypatch.setattr(events, "_results_listeners", listeners)
    return fired


# --- game_create ------------------------------------------------------------------------------


def test_a_new_game_stores_its_variant_the_base_game_by_default(complots_game: MakeGame) -> None:
    game = complots_game()
    game.refresh_from_db()
    assert (game.game_type, game.variant, game.edition) == (COMPLOTS, "ambassador", None)
    assert (game.mode, game.status, game.player_count) == (Game.Mode.ROUNDS, "in_progress", 3)
    assert game.result["variant"] == "ambassador"
    # K1: 2 coins each, so the Treasury holds 54 - 6.
    assert (column(game, "coins"), game.result["treasury"]) == ([2, 2, 2], 48)
    assert column(game, "influences") == [2, 2, 2]
    assert (game.result["complete"], game.result["winners"]) == (False, [])
    assert list(game.seats.values_list("score", "rank")) == [(None, None)] * 3


def test_the_inquisitor_variant_is_stored_and_played(complots_game: MakeGame) -> None:
    game = complots_game(variant="inquisitor")
    game.refresh_from_db()
    assert (game.variant, game.result["variant"]) == ("inquisitor", "inquisitor")
    # Ada's inquisitor looks at a card of Bea's and makes her swap it: only the inquisitor game
    # has the action (it refuses it in the base game, see below).
    game = append(game, [{"actor": 0, "action": "inquire", "target": 1, "forced_swap": True}])
    assert game.result["turns"][0]["outcome"] == "done"
    assert services.game_export_log(game=game)["variant"] == "inquisitor"


@pytest.mark.parametrize(
    ("names", "first_player", "variant", "teams", "code"),
    [
        (["Solo"], 0, "", None, "bad_player_count"),
        ([f"P{k}" for k in range(9)], 0, "", None, "bad_player_count"),
        (["Ada", "Bea", "Cy"], 0, "bishop", None, "bad_variant"),
        (["Ada", "Bea", "Cy"], 3, "", None, "bad_first_player"),
        (["Ada", "Bea", "Cy", "Dev"], 0, "", [[0, 2], [1, 3]], "bad_teams"),
    ],
)
def test_an_impossible_header_is_refused_and_nothing_stored(
    owner: Any,
    names: list[str],
    first_player: int,
    variant: str,
    teams: list[list[int]] | None,
    code: str,
) -> None:
    players = services.players_resolve(club=first_club(), refs=names, created_by=owner)
    with pytest.raises(LogError) as caught:
        services.game_create(
            club=first_club(),
            owner=owner,
            players=players,
            first_player=first_player,
            game_type=COMPLOTS,
            variant=variant,
            teams=teams,
        )
    assert (caught.value.code, caught.value.round) == (code, None)
    assert counts() == (0, 0, 0)


def test_complots_has_no_editions_and_its_scorepad_takes_a_result(owner: Any) -> None:
    players = services.players_resolve(club=first_club(), refs=["Ada", "Bea"], created_by=owner)
    standard = Edition.objects.get(game_type="pot-de-vin", key="standard")
    with pytest.raises(RecordError) as caught:
        services.game_create(
            club=first_club(),
            owner=owner,
            players=players,
            first_player=0,
            game_type=COMPLOTS,
            edition=standard,
        )
    assert caught.value.code == "no_editions"
    with pytest.raises(RecordError) as caught:
        services.edition_create(game_type=COMPLOTS, key="first", data={}, created_by=owner)
    assert caught.value.code == "no_editions"
    # Complots has a scorepad mode, by its result (the elimination order): a sheet of another
    # shape is the engine's refusal, and nothing is stored.
    with pytest.raises(LogError) as refused:
        services.scorepad_game_create(
            club=first_club(), owner=owner, players=players, game_type=COMPLOTS, sheet=[]
        )
    assert (refused.value.code, refused.value.seat) == ("malformed", None)
    assert counts() == (0, 0, 0)
    game = services.scorepad_game_create(
        club=first_club(),
        owner=owner,
        players=players,
        game_type=COMPLOTS,
        variant="inquisitor",
        sheet={"eliminated": [1], "counts": None},
    )
    # K4: Bea out first ranks 2nd; Ada, left standing, 1st.
    assert (game.variant, game.result["winners"], game.edition_id) == ("inquisitor", [0], None)
    assert [s.rank for s in game.seats.order_by("seat")] == [1, 2]
    assert not Edition.objects.filter(game_type=COMPLOTS).exists()


# --- round_append: one turn at a time -----------------------------------------------------------


def test_turns_are_stored_and_the_standings_follow(complots_game: MakeGame) -> None:
    game = complots_game()
    coins_after = [
        [5, 2, 2],  # 1: Ada's duchess +3
        [5, 4, 2],  # 2: Bea's foreign aid +2
        [5, 4, 3],  # 3: Cy's income +1
        [6, 4, 3],  # 4
        [4, 6, 3],  # 5: Bea's captain takes 2 of Ada's
        [4, 6, 3],  # 6: Cy's foreign aid blocked
        [7, 6, 3],  # 7
        [7, 9, 3],  # 8
        [7, 9, 4],  # 9
        [0, 9, 4],  # 10: Ada's coup costs 7
    ]
    for number, (turn, coins) in enumerate(zip(TURNS, coins_after, strict=True), start=1):
        game, row = services.round_append(game=game, round_data=copy.deepcopy(turn), number=number)
        assert (row.number, row.data) == (number, turn)
        assert (game.result["turns_played"], column(game, "coins")) == (number, coins)
    game.refresh_from_db()
    assert [r.data for r in Round.objects.filter(game=game).order_by("number")] == TURNS
    assert column(game, "coins") == AFTER_10["coins"]
    assert column(game, "influences") == AFTER_10["influences"]
    assert column(game, "rank") == AFTER_10["ranks"]
    # Cy and Ada have two influences each: coins decide (K4); Bea has one left.
    assert column(game, "tiebreak") == ["coins", None, "coins"]
    assert game.result["treasury"] == AFTER_10["treasury"]
    assert column(game, "face_up") == [[], ["countess"], []]
    assert [t["outcome"] for t in game.result["turns"]] == ["done"] * 5 + ["blocked"] + ["done"] * 4
    # K5 counts: Ada claimed the duchess twice (turns 1, 7) and blocked once, standing; her coup
    # took one influence. Bea gained 2 + 2 (captain) + 3; Ada lost 2 to Bea's captain.
    assert column(game, "claims_made") == [2, 2, 0]
    assert column(game, "blocks_made") == [1, 0, 0]
    assert column(game, "blocks_standing") == [1, 0, 0]
    assert column(game, "coins_gained") == [3 + 1 + 3, 2 + 2 + 3, 1 + 1]
    assert column(game, "coins_lost_to_captains") == [2, 0, 0]
    assert column(game, "influences_taken") == [1, 0, 0]
    assert list(game.seats.values_list("score", "rank")) == [(None, None)] * 3
    assert game.engine_version == ENGINE.version


# Each refused as turn 4, Ada's, after turns 1 to 3 (Ada 5 coins, Bea 4, Cy 3).
IMPOSSIBLE_TURN_4 = [
    ({"actor": 1, "action": "income"}, "out_of_turn", 1),
    # A coup needs 7 coins; Ada has 5.
    (
        {"actor": 0, "action": "coup", "target": 1, "losses": [{"seat": 1, "card": "duchess"}]},
        "not_enough_coins",
        0,
    ),
    ({"actor": 0, "action": "inquire", "target": 1}, "action_not_in_variant", 0),
    ({"actor": 0, "action": "captain", "target": 0}, "bad_target", 0),
    (
        {"actor": 0, "action": "income", "challenge": {"by": 1, "truthful": True}},
        "not_challengeable",
        1,
    ),
    # A caught bluff: the claimant (Ada) must lose an influence, not the challenger.
    (
        {
            "actor": 0,
            "action": "duchess",
            "challenge": {"by": 1, "truthful": False},
            "losses": [{"seat": 1, "card": "captain"}],
        },
        "unexpected_loss",
        1,
    ),
    (
        {"actor": 0, "action": "duchess", "challenge": {"by": 1, "truthful": False}},
        "missing_loss",
        0,
    ),
    # ... and the card she loses cannot be the duchess she claimed not to hold.
    (
        {
            "actor": 0,
            "action": "duchess",
            "challenge": {"by": 1, "truthful": False},
            "losses": [{"seat": 0, "card": "duchess"}],
        },
        "claimed_card_lost",
        0,
    ),
]


@pytest.mark.parametrize(("turn", "code", "seat"), IMPOSSIBLE_TURN_4)
def test_an_impossible_turn_raises_log_error_and_stores_nothing(
    complots_game: MakeGame, turn: dict[str, Any], code: str, seat: int
) -> None:
    game = complots_game(turns=TURNS[:3])
    before = stored(game)
    with pytest.raises(LogError) as caught:
        services.round_append(game=game, round_data=turn, number=4)
    error = caught.value
    assert (error.code, error.round, error.turn, error.seat) == (code, 4, 4, seat)
    assert error.as_dict()["turn"] == 4
    assert stored(game) == before


def test_a_turn_with_a_stale_number_is_a_conflict(complots_game: MakeGame) -> None:
    game = complots_game(turns=TURNS[:3])
    before = stored(game)
    for number in (3, 5):
        with pytest.raises(GameConflict) as caught:
            services.round_append(game=game, round_data=copy.deepcopy(TURNS[3]), number=number)
        assert (caught.value.code, caught.value.round) == ("round_conflict", number)
    assert stored(game) == before


def test_nothing_comes_after_the_game_is_won(complots_game: MakeGame) -> None:
    game = complots_game(["Ada", "Bea"], turns=DUEL)
    assert game.result["complete"] is True
    before = stored(game)
    with pytest.raises(LogError) as caught:
        services.round_append(game=game, round_data={"actor": 1, "action": "income"})
    assert (caught.value.code, caught.value.round, caught.value.seat) == ("game_over", 11, 1)
    assert stored(game) == before


# --- round_undo ---------------------------------------------------------------------------------


def test_undo_removes_the_last_turn_and_rescores(complots_game: MakeGame) -> None:
    game = complots_game(turns=TURNS)
    game = services.round_undo(game=game)
    game.refresh_from_db()
    assert list(Round.objects.filter(game=game).values_list("number", flat=True)) == list(
        range(1, 10)
    )
    # Without the coup: Ada 7, Bea 9, Cy 4 coins, two influences each. By coins (K4): Bea 1,
    # Ada 2, Cy 3. The Treasury: 41 - 7 = 34.
    assert game.result["turns_played"] == 9
    assert column(game, "coins") == [7, 9, 4]
    assert column(game, "influences") == [2, 2, 2]
    assert column(game, "rank") == [2, 1, 3]
    assert game.result["treasury"] == 34
    for _ in range(9):
        services.round_undo(game=game)
    game.refresh_from_db()
    assert Round.objects.filter(game=game).count() == 0
    assert (column(game, "coins"), game.result["turns_played"]) == ([2, 2, 2], 0)
    # Nobody ahead of anybody: all three share the first place.
    assert column(game, "rank") == [1, 1, 1]
    with pytest.raises(GameConflict) as caught:
        services.round_undo(game=game)
    assert caught.value.code == "no_rounds"


# --- round_correct ------------------------------------------------------------------------------


def test_correct_a_past_turn_and_the_later_ones_are_replayed(complots_game: MakeGame) -> None:
    game = complots_game(turns=TURNS)
    # Turn 3 was a duchess, not an income: Cy 2 + 3 = 5, still 5 after the blocked aid of turn
    # 6, 6 after turn 9. The Treasury gives 2 more: 41 - 2 = 39. Cy (6 coins) stays ahead of Ada
    # (0) among the two-influence players: Cy 1, Ada 2, Bea 3.
    corrected = {"actor": 2, "action": "duchess"}
    services.round_correct(game=game, number=3, round_data=corrected)
    game.refresh_from_db()
    assert Round.objects.get(game=game, number=3).data == corrected
    assert Round.objects.filter(game=game).count() == 10
    assert column(game, "coins") == [0, 9, 6]
    assert column(game, "rank") == [2, 3, 1]
    assert game.result["treasury"] == 39
    assert column(game, "claims_made") == [2, 2, 1]


def test_a_correction_that_breaks_a_later_turn_names_it_and_changes_nothing(
    complots_game: MakeGame,
) -> None:
    game = complots_game(turns=TURNS)
    before = stored(game)
    # Turn 1 an income instead of a duchess: Ada 3, 4 at turn 4, 2 after Bea's captain, 5 after
    # her duchess at turn 7: the coup of turn 10 needs 7.
    with pytest.raises(LogError) as caught:
        services.round_correct(game=game, number=1, round_data={"actor": 0, "action": "income"})
    error = caught.value
    assert (error.code, error.round, error.turn, error.seat) == ("not_enough_coins", 10, 10, 0)
    assert stored(game) == before


def test_a_correction_can_force_the_next_turn(complots_game: MakeGame) -> None:
    game = complots_game(turns=TURNS)
    # Turn 2 a duchess instead of foreign aid: Bea 5, 7 after her captain, 10 after her duchess.
    # She starts turn 11 with 10 coins: she must coup (rules: a turn).
    services.round_correct(game=game, number=2, round_data={"actor": 1, "action": "duchess"})
    game.refresh_from_db()
    assert column(game, "coins") == [0, 10, 4]
    before = stored(game)
    with pytest.raises(LogError) as caught:
        services.round_append(game=game, round_data={"actor": 1, "action": "income"}, number=11)
    assert (caught.value.code, caught.value.round, caught.value.seat) == ("forced_coup", 11, 1)
    assert stored(game) == before
    coup = {"actor": 1, "action": "coup", "target": 2, "losses": [{"seat": 2, "card": "captain"}]}
    game, _ = services.round_append(game=game, round_data=coup, number=11)
    assert column(game, "coins") == [0, 3, 4]


def test_correct_of_a_missing_turn(complots_game: MakeGame) -> None:
    game = complots_game(turns=TURNS[:2])
    with pytest.raises(RecordError) as caught:
        services.round_correct(game=game, number=3, round_data=copy.deepcopy(TURNS[2]))
    assert (caught.value.code, caught.value.round) == ("no_such_round", 3)


# --- game_finish / game_reopen ------------------------------------------------------------------


def test_finish_while_players_are_alive_is_a_conflict(
    complots_game: MakeGame, results_changed: list[list[int]]
) -> None:
    game = complots_game(turns=TURNS)
    before = stored(game)
    with pytest.raises(GameConflict) as caught:
        services.game_finish(game=game)
    assert caught.value.code == "game_incomplete"
    assert "3 players" in caught.value.message
    assert stored(game) == before
    assert results_changed == []


def test_finish_a_won_game_ranks_the_seats_without_scores(
    complots_game: MakeGame, results_changed: list[list[int]]
) -> None:
    game = complots_game(["Ada", "Bea"], turns=DUEL)
    game = services.game_finish(game=game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert results_changed == [[game.pk]]
    # K4: Bea is the last one alive; Ada, eliminated on turn 10, second. No scores in Complots.
    assert list(game.seats.order_by("seat").values_list("score", "rank")) == [(None, 2), (None, 1)]
    result = game.result
    assert (result["complete"], result["winners"], result["turns_played"]) == (True, [1], 10)
    assert column(game, "alive") == [False, True]
    assert column(game, "eliminated_on_turn") == [10, None]
    assert column(game, "face_up") == [["countess", "duchess"], ["captain"]]
    # Ada's coins back to the Treasury at her elimination, Bea's spent: all 54 in it (K1).
    assert (column(game, "coins"), result["treasury"]) == ([0, 0], 54)
    # Ada: duchess 3 + 3, income 1 + 1. Bea: duchess 3 + 3, foreign aid 2.
    assert column(game, "coins_gained") == [8, 8]
    assert column(game, "claims_made") == [2, 3]
    assert (column(game, "challenges_made"), column(game, "challenges_won")) == ([1, 0], [0, 0])
    # Each coup took an influence; Bea's assassination took none (its target was out), but Ada's
    # elimination by a lost challenge is credited to its winner, Bea (K5).
    assert column(game, "influences_taken") == [1, 1]
    assert column(game, "players_eliminated") == [0, 1]
    assert result["turns"][-1]["eliminated"] == [0]
    assert result == ENGINE.replay(services.game_export_log(game=game))

    # Read-only until reopened; reopened, the ranks are unset again.
    for write in (
        lambda: services.round_undo(game=game),
        lambda: services.game_finish(game=game),
    ):
        with pytest.raises(GameConflict) as caught:
            write()
        assert caught.value.code == "game_finished"
    services.game_reopen(game=game)
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS
    assert list(game.seats.values_list("score", "rank")) == [(None, None)] * 2
    assert results_changed == [[game.pk], [game.pk]]


def test_finish_a_simulated_game_ranks_like_a_replay(complots_game: MakeGame) -> None:
    log = simulate(5, seed=3, variant="inquisitor")
    game = complots_game(
        log["players"], first_player=log["first_player"], variant="inquisitor", turns=log["turns"]
    )
    services.game_finish(game=game)
    replay = ENGINE.replay(log)
    assert list(game.seats.order_by("seat").values_list("score", "rank")) == [
        (None, p["rank"]) for p in replay["players"]
    ]
    assert sorted(p["rank"] for p in replay["players"]) == [1, 2, 3, 4, 5]
    game.refresh_from_db()
    assert game.result == replay


# --- import and export --------------------------------------------------------------------------


def test_export_reimports_to_the_same_result_and_turns(owner: Any, complots_game: MakeGame) -> None:
    game = complots_game(["Ada", "Bea"], turns=DUEL)
    services.game_update(game=game, played_on=datetime.date(2026, 5, 1), location="Club")
    services.game_finish(game=game)
    game.refresh_from_db()

    exported = services.game_export_log(game=game)
    assert exported["format"] == "complots-log/1"
    assert (exported["players"], exported["first_player"]) == (["Ada", "Bea"], 0)
    assert (exported["variant"], exported["turns"]) == ("ambassador", DUEL)
    assert "deck" not in exported and "rounds" not in exported
    (again,) = services.game_import(club=first_club(), owner=owner, documents=[exported])
    again.refresh_from_db()
    assert (again.game_type, again.variant, again.status) == (COMPLOTS, "ambassador", "finished")
    assert (again.played_on, again.location) == (datetime.date(2026, 5, 1), "Club")
    assert again.result == game.result
    assert [r.data for r in Round.objects.filter(game=again).order_by("number")] == DUEL
    assert list(again.seats.order_by("seat").values_list("player_id", "score", "rank")) == list(
        game.seats.order_by("seat").values_list("player_id", "score", "rank")
    )
    assert services.game_export_log(game=again) == exported


def test_a_simulated_game_in_progress_exports_as_it_was_imported(owner: Any) -> None:
    log = simulate(6, seed=8, variant="inquisitor", complete=False)
    (game,) = services.game_import(club=first_club(), owner=owner, documents=[copy.deepcopy(log)])
    game.refresh_from_db()
    assert (game.status, game.variant, game.edition) == ("in_progress", "inquisitor", None)
    assert game.result == ENGINE.replay(log)
    assert list(game.seats.values_list("score", "rank")) == [(None, None)] * 6
    exported = services.game_export_log(game=game)
    assert {k: exported[k] for k in log} == log
    (again,) = services.game_import(club=first_club(), owner=owner, documents=[exported])
    assert again.result == game.result


def test_import_of_a_list_mixing_games_makes_each_game(owner: Any) -> None:
    pot_de_vin = simulate_pot_de_vin(4, seed=1, names=["Ada", "Bea", "Cy", "Dev"])
    complots = simulate(4, seed=1, names=["Ada", "Bea", "Cy", "Dev"])
    unfinished = simulate(3, seed=2, variant="inquisitor", complete=False)
    games = services.game_import(
        club=first_club(), owner=owner, documents=copy.deepcopy([pot_de_vin, complots, unfinished])
    )
    assert [g.game_type for g in games] == ["pot-de-vin", COMPLOTS, COMPLOTS]
    assert [g.variant for g in games] == ["", "ambassador", "inquisitor"]
    assert games[0].edition.key == "standard" and games[1].edition is None
    assert [g.status for g in games] == ["finished", "finished", "in_progress"]
    for game, log in zip(games, [pot_de_vin, complots, unfinished], strict=True):
        game.refresh_from_db()
        assert game.result == get_engine(game.game_type).replay(log)
        entries = log["rounds"] if game.game_type == "pot-de-vin" else log["turns"]
        assert [r.data for r in Round.objects.filter(game=game).order_by("number")] == entries
    # The same four people sat at both finished games.
    assert Player.objects.count() == 4
    complots_ranks = [p["rank"] for p in games[1].result["players"]]
    assert list(games[1].seats.order_by("seat").values_list("rank", flat=True)) == complots_ranks
    assert set(games[1].seats.values_list("score", flat=True)) == {None}


def test_import_refuses_an_impossible_complots_log(owner: Any) -> None:
    good = simulate_pot_de_vin(3, seed=4, names=["Ann", "Bo", "Cid"])
    bad = simulate(4, seed=5, names=["Dee", "Eve", "Fay", "Gus"])
    # Turn 3 played by the seat after the right one.
    wrong = bad["turns"][2]
    wrong["actor"] = (wrong["actor"] + 1) % 4
    before = counts()
    with pytest.raises(RecordError) as caught:
        services.game_import(club=first_club(), owner=owner, documents=[good, bad])
    error = caught.value
    assert (error.index, error.code, error.round, error.seat) == (
        1,
        "out_of_turn",
        3,
        wrong["actor"],
    )
    # The engine's error, with the turn, is the cause (the API's error body reads it there).
    assert (error.__cause__.code, error.__cause__.turn) == ("out_of_turn", 3)
    assert counts() == before
    assert not Player.objects.filter(name__in=["Ann", "Dee"]).exists()
