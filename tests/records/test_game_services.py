"""The record services (games/services.py) on Pot de Vin games (Complots games:
test_complots_services.py): every write runs the engine on the game as it would stand afterwards
and stores nothing when the engine refuses it.

Expected scores are worked by hand from the rules tables (shared/rules/pot-de-vin.md), or by
``hand_score`` below, a scorer written for these tests from the rules alone (3 to 5 players,
no teams) that shares no code with the engine."""

from __future__ import annotations

import copy
import datetime
import itertools
from collections import Counter
from typing import Any

import pytest

from games.records import services
from games.records.errors import GameConflict, RecordError
from games.records.models import Edition, Game, Player, Round, Seat
from scoring.engine import LogError, get_engine
from scoring.engine.potdevin.cards import GUILDS
from scoring.engine.potdevin.simulate import simulate
from tests.accounts import first_club

pytestmark = pytest.mark.django_db

POT_DE_VIN = "pot-de-vin"
COLUMN_POINTS = (0, 1, 3, 6, -1, -3, -6, 10, 15)  # rules: scoring table; D6: above 8 as 8
POT_DE_VIN_POINTS = (0, -1, -3, -6, 10)


def column_points(symbols: int) -> int:
    return COLUMN_POINTS[min(symbols, 8)]


def d1_symbols(card: str) -> list[str]:
    """Rules D1, the `standard` layout: A=0, P=1, E=2, U=3."""
    ci, value = "APEU".index(card[0]), int(card[1:])
    if 4 <= value <= 9:
        return [GUILDS[(value - 4 + ci) % 6]]
    if 10 <= value <= 12:
        return [GUILDS[((value - 10) * 4 + ci) % 6]] * 2
    return []


def standard_cards() -> dict[str, list[str]]:
    return {f"{c}{v}": d1_symbols(f"{c}{v}") for c in "APEU" for v in range(4, 13)}


def hand_score(log: dict[str, Any], jokers: dict[str, list[str]] | None = None) -> list[dict]:
    """Score, cards won, gems won and rank per seat of a 3-5 player game without teams."""
    n = len(log["players"])
    won: list[list[str]] = [[] for _ in range(n)]
    gems = [0] * n
    for rnd in log["rounds"]:
        cards = [(p["seat"], p["card"]) for p in rnd["plays"] if not p.get("pass")]
        passes = sum(1 for p in rnd["plays"] if p.get("pass"))
        lead, trump = cards[0][1][0], rnd["trump"][0]
        trumps = [(int(c[1:]), s) for s, c in cards if c[0] == trump]
        winner = max(trumps or [(int(c[1:]), s) for s, c in cards if c[0] == lead])[1]
        won[winner] += [c for _, c in cards] + [rnd["trump"]]  # 3-5 players: trump taken
        gems[winner] += passes
    out = []
    for seat in range(n):
        values = Counter(int(c[1:]) for c in won[seat])
        columns = Counter(g for c in won[seat] for g in d1_symbols(c))
        eligible = [g for g in GUILDS if columns[g]]
        count = min(values[1], len(eligible))  # D5: as many as can be placed, one per column
        if jokers is not None and str(seat) in jokers:
            choices = [tuple(jokers[str(seat)])]
        else:
            choices = list(itertools.combinations(eligible, count))
        guild_points = max(
            sum(column_points(columns[g] + (g in placed)) for g in GUILDS) for placed in choices
        )
        score = (
            guild_points
            + 2 * values[2]
            - 2 * values[3]
            + POT_DE_VIN_POINTS[values[13]]
            + gems[seat]
        )
        out.append({"score": score, "cards": len(won[seat]), "gems": gems[seat]})
    keys = [(o["score"], o["cards"], o["gems"]) for o in out]
    for o, key in zip(out, keys, strict=True):
        o["rank"] = 1 + sum(1 for k in keys if k > key)  # D7: competition ranks
    return out


# A 3-player game without the deal, seat 1 starting, worked by hand.
# Round 1: E5 revealed (Enzo trump); seat 1 leads A7, seat 2 pays a gem, seat 0 plays A9. No
# Enzo card: the highest Aldo wins, A9 (seat 0), who takes A7, A9, E5 and the gem. Seat 0:
# A7 workmen, A9 assassins, E5 workmen (D1) -> 3 + 1 points + 1 gem = 5.
R1 = {
    "trump": "E5",
    "plays": [{"seat": 1, "card": "A7"}, {"seat": 2, "pass": True}, {"seat": 0, "card": "A9"}],
}
# Round 2: seat 0 starts; trump U4; P5, P8, then seat 2 trumps with U6 and wins.
R2 = {
    "trump": "U4",
    "plays": [{"seat": 0, "card": "P5"}, {"seat": 1, "card": "P8"}, {"seat": 2, "card": "U6"}],
}
# Round 3: seat 2 starts; trump E6; U9, U5, a pass: U9 wins (seat 2).
R3 = {
    "trump": "E6",
    "plays": [{"seat": 2, "card": "U9"}, {"seat": 0, "card": "U5"}, {"seat": 1, "pass": True}],
}
# Round 4: seat 2 starts; trump E7; A4, A6, A10: A10 wins (seat 1).
R4 = {
    "trump": "E7",
    "plays": [{"seat": 2, "card": "A4"}, {"seat": 0, "card": "A6"}, {"seat": 1, "card": "A10"}],
}


@pytest.fixture
def deck(pdv_edition: Edition) -> Edition:
    """The stored standard deck, which the hand scorer reads by rules D1."""
    assert pdv_edition.data == standard_cards()
    return pdv_edition


def new_game(owner: Any, deck: Edition, names=("Ada", "Bea", "Cy"), first_player=1, **kw) -> Game:
    players = services.players_resolve(club=first_club(), refs=list(names), created_by=owner)
    return services.game_create(
        club=first_club(),
        owner=owner,
        players=players,
        game_type=POT_DE_VIN,
        edition=deck,
        first_player=first_player,
        **kw,
    )


def append_all(game: Game, rounds: list[dict[str, Any]]) -> Game:
    for data in rounds:
        game, _ = services.round_append(game=game, round_data=copy.deepcopy(data))
    game.refresh_from_db()
    return game


def stored(game: Game) -> dict[str, Any]:
    """What a refused write must leave as it was."""
    game = Game.objects.get(pk=game.pk)
    return {
        "status": game.status,
        "result": game.result,
        "finish": game.finish,
        "finished_at": game.finished_at,
        "updated_at": game.updated_at,
        "rounds": list(Round.objects.filter(game=game).values_list("number", "data")),
        "seats": list(Seat.objects.filter(game=game).values_list("seat", "score", "rank")),
    }


def game_from_log(owner: Any, deck: Edition, log: dict[str, Any], rounds: int | None = None):
    """A game made round by round from a simulated log (with its deal)."""
    game = new_game(
        owner,
        deck,
        names=log["players"],
        first_player=log["first_player"],
        setup={"hands": log["hands"], "trump_pile": log["trump_pile"]},
        teams=log["teams"],
    )
    return append_all(game, log["rounds"][:rounds])


# --- round_append ---------------------------------------------------------------------------


def test_round_append_stores_the_round_and_the_standings(owner, deck) -> None:
    game = new_game(owner, deck)
    game, stored_round = services.round_append(game=game, round_data=copy.deepcopy(R1), number=1)

    row = Round.objects.get(game=game)
    assert (row.number, row.data["trump"], row.data["plays"]) == (1, "E5", R1["plays"])
    assert row.data == R1
    assert stored_round.pk == row.pk
    game.refresh_from_db()
    result = game.result
    assert result["rounds_played"] == 1 and result["complete"] is False
    assert result["rounds"][0]["winner"] == 0
    assert [p["score"] for p in result["players"]] == [5, 0, 0]  # worked by hand above
    assert [p["rank"] for p in result["players"]] == [1, 2, 2]
    # Scores and ranks reach the seats only when the game is finished.
    assert list(game.seats.values_list("score", "rank")) == [(None, None)] * 3


def test_round_append_matches_the_hand_scorer_round_after_round(owner, deck) -> None:
    game = new_game(owner, deck)
    log = {"players": ["Ada", "Bea", "Cy"], "rounds": []}
    for data in (R1, R2, R3, R4):
        game, _ = services.round_append(game=game, round_data=copy.deepcopy(data))
        log["rounds"].append(data)
        expected = hand_score(log)
        assert [p["score"] for p in game.result["players"]] == [e["score"] for e in expected]
        assert [p["rank"] for p in game.result["players"]] == [e["rank"] for e in expected]
    assert [r["winner"] for r in game.result["rounds"]] == [0, 2, 2, 1]


def test_impossible_round_raises_log_error_and_stores_nothing(owner, deck) -> None:
    game = append_all(new_game(owner, deck), [R1])
    before = stored(game)
    # Round 2 is started by seat 0 (round 1's winner), who plays A9 again.
    duplicated = {"trump": "U4", "plays": [{"seat": 0, "card": "A9"}]}
    with pytest.raises(LogError) as caught:
        services.round_append(game=game, round_data=duplicated, number=2)
    assert (caught.value.code, caught.value.round, caught.value.seat) == ("duplicate_card", 2, 0)
    assert Round.objects.filter(game=game).count() == 1
    assert stored(game) == before


def test_round_out_of_turn_is_refused(owner, deck) -> None:
    game = append_all(new_game(owner, deck), [R1])
    before = stored(game)
    wrong_starter = {"trump": "U4", "plays": [{"seat": 1, "card": "P5"}]}  # seat 0 starts
    with pytest.raises(LogError) as caught:
        services.round_append(game=game, round_data=wrong_starter)
    assert (caught.value.code, caught.value.round) == ("out_of_turn", 2)
    assert stored(game) == before


def test_round_append_with_a_stale_number_is_a_conflict(owner, deck) -> None:
    game = append_all(new_game(owner, deck), [R1])
    before = stored(game)
    for number in (1, 3):
        with pytest.raises(GameConflict) as caught:
            services.round_append(game=game, round_data=copy.deepcopy(R2), number=number)
        assert caught.value.code == "round_conflict"
        assert caught.value.round == number
    assert stored(game) == before


# --- round_undo -------------------------------------------------------------------------------


def test_round_undo_removes_the_last_round_and_rescores(owner, deck) -> None:
    game = append_all(new_game(owner, deck), [R1, R2])
    game = services.round_undo(game=game)
    game.refresh_from_db()
    assert list(Round.objects.filter(game=game).values_list("number", flat=True)) == [1]
    assert game.result["rounds_played"] == 1
    assert [p["score"] for p in game.result["players"]] == [5, 0, 0]
    services.round_undo(game=game)
    game.refresh_from_db()
    assert Round.objects.filter(game=game).count() == 0
    assert [p["score"] for p in game.result["players"]] == [0, 0, 0]
    with pytest.raises(GameConflict) as caught:
        services.round_undo(game=game)
    assert caught.value.code == "no_rounds"


# --- round_correct ----------------------------------------------------------------------------


def test_round_correct_replaces_a_round_and_rescores(owner, deck) -> None:
    game = append_all(new_game(owner, deck), [R1, R2, R3, R4])
    # Seat 1 won round 4 with A10 and took A4 nobles, A6 traders, A10 two nobles, E7 assassins
    # (D1): nobles 3 (6) + traders 1 (1) + assassins 1 (1) = 8 points.
    assert game.result["players"][1]["score"] == 8
    # Corrected: A11 instead of A10 (two knights symbols). Seat 1 still wins the round, now
    # with nobles 1 (1) + traders 1 (1) + knights 2 (3) + assassins 1 (1) = 6 points.
    corrected = copy.deepcopy(R4)
    corrected["plays"][2]["card"] = "A11"
    services.round_correct(game=game, number=4, round_data=corrected)
    game.refresh_from_db()
    assert Round.objects.get(game=game, number=4).data["plays"] == corrected["plays"]
    assert game.result["rounds"][3]["winning_card"] == "A11"
    assert game.result["players"][1]["score"] == 6
    log = {"players": ["Ada", "Bea", "Cy"], "rounds": [R1, R2, R3, corrected]}
    expected = hand_score(log)
    assert [p["score"] for p in game.result["players"]] == [e["score"] for e in expected]


def test_round_correct_checks_later_rounds_and_names_the_one_that_breaks(owner, deck) -> None:
    game = append_all(new_game(owner, deck), [R1, R2, R3, R4])
    before = stored(game)
    # Round 2 corrected so that seat 0 leads A6 there (seat 2 still wins with the trump U6, so
    # rounds 3 keeps its starter): round 4, where seat 0 plays A6 again, becomes impossible.
    corrected = copy.deepcopy(R2)
    corrected["plays"][0]["card"] = "A6"
    with pytest.raises(LogError) as caught:
        services.round_correct(game=game, number=2, round_data=corrected)
    assert (caught.value.code, caught.value.round, caught.value.seat) == ("duplicate_card", 4, 0)
    assert stored(game) == before


def test_round_correct_of_a_missing_round(owner, deck) -> None:
    game = append_all(new_game(owner, deck), [R1])
    with pytest.raises(RecordError) as caught:
        services.round_correct(game=game, number=2, round_data=copy.deepcopy(R2))
    assert (caught.value.code, caught.value.round) == ("no_such_round", 2)
    assert not isinstance(caught.value, GameConflict)


# --- game_finish / game_reopen ----------------------------------------------------------------


def test_finish_an_incomplete_game_is_a_conflict(owner, deck) -> None:
    game = append_all(new_game(owner, deck), [R1, R2])
    before = stored(game)
    with pytest.raises(GameConflict) as caught:
        services.game_finish(game=game)
    assert caught.value.code == "game_incomplete"
    assert stored(game) == before


def test_finish_a_complete_game_sets_seat_scores_and_ranks(owner, deck) -> None:
    log = simulate(3, seed=0)
    game = game_from_log(owner, deck, log)
    game = services.game_finish(game=game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    expected = hand_score(log)
    seats = list(game.seats.order_by("seat").values_list("score", "rank"))
    assert seats == [(e["score"], e["rank"]) for e in expected]
    assert game.result["complete"] is True


def test_finish_with_an_explicit_joker_placement(owner, deck) -> None:
    # Seed 0: seat 0 ends with one Joker and nobles 1, workmen 1, knights 3, assassins 4
    # symbols. By choice the Joker goes to knights: 3 + 1 = 4 symbols score -1 instead of 6.
    log = simulate(3, seed=0)
    game = game_from_log(owner, deck, log)
    jokers = {"0": ["knights"]}
    game = services.game_finish(game=game, finish={"jokers": jokers})
    game.refresh_from_db()
    assert game.finish["jokers"] == jokers
    expected = hand_score(log, jokers=jokers)
    optimal = hand_score(log)
    assert expected[0]["score"] == optimal[0]["score"] - 9  # nobles +2 lost, knights -7
    assert list(game.seats.order_by("seat").values_list("score", flat=True)) == [
        e["score"] for e in expected
    ]
    assert game.result["players"][0]["breakdown"]["jokers"]["placed"] == ["knights"]


def test_finish_with_a_bad_joker_placement_changes_nothing(owner, deck) -> None:
    log = simulate(3, seed=0)
    game = game_from_log(owner, deck, log)
    before = stored(game)
    # Seat 0 has no artists symbol: a Joker cannot make a column alone.
    with pytest.raises(LogError) as caught:
        services.game_finish(game=game, finish={"jokers": {"0": ["artists"]}})
    assert (caught.value.code, caught.value.seat) == ("bad_joker_placement", 0)
    assert stored(game) == before
    assert before["status"] == Game.Status.IN_PROGRESS and before["finish"] is None


def test_a_finished_game_is_read_only_until_reopened(owner, deck) -> None:
    log = simulate(3, seed=1)
    game = game_from_log(owner, deck, log)
    game = services.game_finish(game=game)
    before = stored(game)
    last = log["rounds"][-1]
    for write in (
        lambda: services.round_append(game=game, round_data=copy.deepcopy(last)),
        lambda: services.round_undo(game=game),
        lambda: services.round_correct(game=game, number=1, round_data=log["rounds"][0]),
        lambda: services.game_finish(game=game),
    ):
        with pytest.raises(GameConflict) as caught:
            write()
        assert caught.value.code == "game_finished"
    assert stored(game) == before

    services.game_reopen(game=game)
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and game.finished_at is None
    assert list(game.seats.values_list("score", "rank")) == [(None, None)] * 3
    with pytest.raises(GameConflict) as caught:
        services.game_reopen(game=game)
    assert caught.value.code == "game_not_finished"

    # Editable again: undo the last round, append it again, finish again.
    services.round_undo(game=game)
    services.round_append(game=game, round_data=copy.deepcopy(last))
    services.game_finish(game=game)
    expected = hand_score(log)
    assert list(game.seats.order_by("seat").values_list("score", "rank")) == [
        (e["score"], e["rank"]) for e in expected
    ]


# --- import and export ------------------------------------------------------------------------


def counts() -> tuple[int, int, int, int]:
    return (
        Game.objects.count(),
        Round.objects.count(),
        Seat.objects.count(),
        Player.objects.count(),
    )


def test_import_of_a_list_is_all_or_nothing(owner, deck) -> None:
    good = simulate(3, seed=2, names=["Ann", "Bo", "Cid"])
    bad = simulate(4, seed=3, names=["Dee", "Eve", "Fay", "Gus"])
    # In round 3 of the second document, the first card played repeats round 1's first card.
    play = next(p for p in bad["rounds"][2]["plays"] if "card" in p)
    play["card"] = bad["rounds"][0]["plays"][0]["card"]
    before = counts()
    with pytest.raises(RecordError) as caught:
        services.game_import(club=first_club(), owner=owner, documents=[good, bad])
    assert caught.value.index == 1
    assert (caught.value.round, caught.value.seat) == (3, play["seat"])
    assert caught.value.code in {"duplicate_card", "not_in_hand"}
    assert counts() == before
    assert not Player.objects.filter(name__in=["Ann", "Dee"]).exists()


def test_import_of_a_complete_log_makes_a_finished_game(owner, deck) -> None:
    log = simulate(5, seed=4)
    (game,) = services.game_import(club=first_club(), owner=owner, documents=[log])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert game.player_count == 5 and game.first_player == log["first_player"]
    assert Round.objects.filter(game=game).count() == len(log["rounds"])
    stored_rounds = [r.data for r in Round.objects.filter(game=game).order_by("number")]
    assert stored_rounds == log["rounds"]
    replay = get_engine("pot-de-vin").replay(log)
    seats = list(game.seats.order_by("seat").values_list("player__name", "score", "rank"))
    assert seats == [(p["name"], p["score"], p["rank"]) for p in replay["players"]]
    expected = hand_score(log)
    assert [s[1:] for s in seats] == [(e["score"], e["rank"]) for e in expected]


def test_import_of_a_team_game(owner, deck) -> None:
    log = simulate(4, seed=5, teams=True)
    (game,) = services.game_import(club=first_club(), owner=owner, documents=[log])
    replay = get_engine("pot-de-vin").replay(copy.deepcopy(log))
    assert game.status == Game.Status.FINISHED
    assert list(game.seats.order_by("seat").values_list("team", "score", "rank")) == [
        (p["team"], p["score"], p["rank"]) for p in replay["players"]
    ]
    # Teammates share the team's score (D8).
    for pair in log["teams"]:
        assert len({replay["players"][s]["score"] for s in pair}) == 1


def test_import_of_a_partial_log_makes_a_game_in_progress(owner, deck) -> None:
    log = simulate(3, seed=6)
    log["rounds"] = log["rounds"][:5]
    (game,) = services.game_import(club=first_club(), owner=owner, documents=[log])
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and game.finished_at is None
    assert game.result["rounds_played"] == 5
    assert list(game.seats.values_list("score", "rank")) == [(None, None)] * 3
    # It goes on round by round from where the log stopped.
    full = simulate(3, seed=6)
    services.round_append(game=game, round_data=full["rounds"][5], number=6)


def test_import_matches_players_case_insensitively(owner, deck) -> None:
    ada = Player.objects.create(club=first_club(), name="Ada")
    bea = Player.objects.create(club=first_club(), name="Bea")
    log = simulate(3, seed=7, names=["ada", "BEA", "Cy"])
    (game,) = services.game_import(club=first_club(), owner=owner, documents=[log])
    seats = list(game.seats.order_by("seat").values_list("player_id", flat=True))
    assert seats[:2] == [ada.pk, bea.pk]
    assert Player.objects.count() == 3
    assert Player.objects.get(pk=seats[2]).name == "Cy"
    # And a second import naming "cy" finds the player the first one made.
    (again,) = services.game_import(
        club=first_club(), owner=owner, documents=[simulate(3, seed=8, names=["cy", "ADA", "bea"])]
    )
    assert list(again.seats.order_by("seat").values_list("player_id", flat=True)) == [
        seats[2],
        ada.pk,
        bea.pk,
    ]
    assert Player.objects.count() == 3


def test_names_are_one_player_whatever_their_case_or_unicode_form(owner, deck) -> None:
    """Folded in Python, the same on every database: SQLite's LOWER() folds ASCII only, so
    "úna" and "ÚNA" were two players there."""
    una = Player.objects.create(club=first_club(), name="ÚNA")
    players = services.players_resolve(
        club=first_club(), refs=["Úrsula", "úna", "Zoë"], created_by=owner
    )
    assert [p.name for p in players[::2]] == ["Úrsula", "Zoë"]
    assert players[1].pk == una.pk
    assert Player.objects.count() == 3
    # "Zoë" typed with a combining diaeresis (NFD), "ÚRSULA" in capitals: the same players.
    again = services.players_resolve(
        club=first_club(), refs=["ÚRSULA", "Zoe\u0308", "Jürgen"], created_by=owner
    )
    assert [p.pk for p in again[:2]] == [players[0].pk, players[2].pk]
    assert Player.objects.count() == 4
    with pytest.raises(GameConflict) as taken:
        services.player_create(club=first_club(), name="jÜrgen", created_by=owner)
    assert taken.value.code == "player_exists"
    log = simulate(3, seed=9, names=["Úna", "úna", "Cy"])
    with pytest.raises(RecordError) as twice:
        services.game_import(club=first_club(), owner=owner, documents=[log])
    assert twice.value.code == "player_twice"


def test_import_refuses_the_same_player_twice(owner, deck) -> None:
    log = simulate(3, seed=9, names=["Ada", "ada ", "Cy"])
    with pytest.raises(RecordError) as caught:
        services.game_import(club=first_club(), owner=owner, documents=[log])
    assert (caught.value.code, caught.value.index) == ("player_twice", 0)
    assert counts() == (0, 0, 0, 0)


def test_import_refuses_a_name_too_long_for_the_record(owner, deck) -> None:
    log = simulate(3, seed=9, names=["Ada", "B" * 81, "Cy"])
    with pytest.raises(RecordError) as caught:
        services.game_import(club=first_club(), owner=owner, documents=[log])
    assert (caught.value.code, caught.value.seat, caught.value.index) == ("too_long", 1, 0)
    assert counts() == (0, 0, 0, 0)


def test_export_reimports_to_the_same_result(owner, deck) -> None:
    log = simulate(4, seed=10, record_deal=False)
    game = game_from_log(owner, deck, log)
    services.game_update(
        game=game, played_on=datetime.date(2026, 3, 14), location="Club", notes="final"
    )
    services.game_finish(game=game)
    game.refresh_from_db()

    exported = services.game_export_log(game=game)
    assert exported["rounds"] == log["rounds"]
    assert exported["players"] == log["players"]
    (copy_game,) = services.game_import(club=first_club(), owner=owner, documents=[exported])
    copy_game.refresh_from_db()
    assert copy_game.status == Game.Status.FINISHED
    assert (copy_game.played_on, copy_game.location, copy_game.notes) == (
        datetime.date(2026, 3, 14),
        "Club",
        "final",
    )
    assert copy_game.result == game.result
    # The seats are the same people, not new players.
    assert list(copy_game.seats.order_by("seat").values_list("player_id", "score", "rank")) == list(
        game.seats.order_by("seat").values_list("player_id", "score", "rank")
    )
    expected = hand_score(log)
    assert [p["score"] for p in copy_game.result["players"]] == [e["score"] for e in expected]


def test_export_of_a_game_in_progress_reimports_in_progress(owner, deck) -> None:
    game = append_all(new_game(owner, deck), [R1, R2, R3])
    exported = services.game_export_log(game=game)
    assert exported["first_player"] == 1 and exported["rounds"] == [R1, R2, R3]
    (copy_game,) = services.game_import(club=first_club(), owner=owner, documents=[exported])
    assert copy_game.status == Game.Status.IN_PROGRESS
    assert [p["score"] for p in copy_game.result["players"]] == [5, 0, 11]


# --- scorepad mode ----------------------------------------------------------------------------


def test_scorepad_game_scores_tableaux_by_the_rules_tables(owner, deck) -> None:
    tableaux = [
        # nobles 3 + artists 1 and a Joker: the Joker must go on one of them (D5); on artists
        # 6 + 3 = 9 (on nobles it would be -1 + 1). +2 card: 2; two Pot de Vin: -3; 3 gems: 3.
        # Total 11.
        {
            "nobles": 3,
            "artists": 1,
            "jokers": 1,
            "bonus": 1,
            "pot_de_vin": 2,
            "gems": 3,
            "cards": 8,
        },
        # traders 2 (3) + knights 1 (1) + a -2 card (-2) + 2 gems = 4, with 4 cards.
        {"traders": 2, "knights": 1, "malus": 1, "gems": 2, "cards": 4},
        # assassins 3 (6) + one Pot de Vin (-1) + a -2 card (-2) + 1 gem = 4, with 5 cards.
        {"assassins": 3, "pot_de_vin": 1, "malus": 1, "gems": 1, "cards": 5},
    ]
    full = [
        {
            key: t.get(key, 0)
            for key in (*GUILDS, "jokers", "bonus", "malus", "pot_de_vin", "gems", "cards")
        }
        for t in tableaux
    ]
    players = services.players_resolve(
        club=first_club(), refs=["Ada", "Bea", "Cy"], created_by=owner
    )
    game = services.scorepad_game_create(
        club=first_club(),
        owner=owner,
        players=players,
        game_type=POT_DE_VIN,
        edition=deck,
        sheet=full,
    )
    game.refresh_from_db()
    assert game.mode == Game.Mode.SCOREPAD and game.status == Game.Status.FINISHED
    # Seats 1 and 2 tie on 4 points; seat 2 won more cards (D7): rank 2, seat 1 rank 3.
    assert list(game.seats.order_by("seat").values_list("score", "rank")) == [
        (11, 1),
        (4, 3),
        (4, 2),
    ]
    assert game.result["players"][0]["breakdown"]["jokers"]["placed"] == ["artists"]
    assert [p["tiebreak"] for p in game.result["players"]][1:] == ["cards", "cards"]
    # A scorepad game has no rounds to append, export or reopen.
    with pytest.raises(GameConflict) as caught:
        services.round_append(game=game, round_data=copy.deepcopy(R1))
    assert caught.value.code == "scorepad_game"
    with pytest.raises(GameConflict):
        services.game_export_log(game=game)
    with pytest.raises(GameConflict):
        services.game_reopen(game=game)


def test_scorepad_refuses_impossible_tableaux(owner, deck) -> None:
    players = services.players_resolve(
        club=first_club(), refs=["Ada", "Bea", "Cy"], created_by=owner
    )
    before = counts()
    impossible = [{"jokers": 3}, {"jokers": 2}, {}]  # 5 Jokers; the game has 4
    with pytest.raises(LogError) as caught:
        services.scorepad_game_create(
            club=first_club(),
            owner=owner,
            players=players,
            game_type=POT_DE_VIN,
            edition=deck,
            sheet=impossible,
        )
    assert caught.value.code == "bad_tableau"
    assert counts() == before


def test_scorepad_agrees_with_a_replay(owner, deck) -> None:
    """The same final tableaux score the same whether replayed or typed in (rules: one
    scoring)."""
    log = simulate(3, seed=11)
    (replayed,) = services.game_import(club=first_club(), owner=owner, documents=[log])
    tableaux = []
    for p in replayed.result["players"]:
        t = dict(p["tableau"])
        t.update(gems=p["gems_won"], cards=p["cards_won"])
        tableaux.append(t)
    players = [s.player for s in replayed.seats.order_by("seat")]
    pad = services.scorepad_game_create(
        club=first_club(),
        owner=owner,
        players=players,
        game_type=POT_DE_VIN,
        edition=deck,
        sheet=tableaux,
    )
    assert list(pad.seats.order_by("seat").values_list("score", "rank")) == list(
        replayed.seats.order_by("seat").values_list("score", "rank")
    )


# --- players ----------------------------------------------------------------------------------


def test_player_create_refuses_a_name_in_any_case(owner) -> None:
    services.player_create(club=first_club(), name="Ada", created_by=owner)
    with pytest.raises(GameConflict) as caught:
        services.player_create(club=first_club(), name="  aDA ", created_by=owner)
    assert caught.value.code == "player_exists"
    assert Player.objects.count() == 1


def test_game_create_refuses_a_player_at_two_seats(owner, deck) -> None:
    with pytest.raises(RecordError) as caught:
        new_game(owner, deck, names=["Ada", "Bea", "ada"])
    assert (caught.value.code, caught.value.seat) == ("player_twice", 2)
    assert Game.objects.count() == 0


# --- game types and editions ------------------------------------------------------------------


def test_game_create_uses_the_stored_standard_edition_unless_told(owner, pdv_edition) -> None:
    players = services.players_resolve(
        club=first_club(), refs=["Ada", "Bea", "Cy"], created_by=owner
    )
    game = services.game_create(
        club=first_club(), owner=owner, players=players, first_player=0, game_type=POT_DE_VIN
    )
    game.refresh_from_db()
    assert (game.game_type, game.edition_id, game.variant) == (POT_DE_VIN, pdv_edition.pk, "")
    assert game.setup == {"hands": None, "trump_pile": None}
    assert game.finish is None and game.sheet is None
    assert services.game_export_log(game=game)["deck"] == "standard"


def test_game_create_of_an_unknown_game_type_stores_nothing(owner) -> None:
    players = services.players_resolve(
        club=first_club(), refs=["Ada", "Bea", "Cy"], created_by=owner
    )
    with pytest.raises(RecordError) as caught:
        services.game_create(
            club=first_club(), owner=owner, players=players, first_player=0, game_type="chess"
        )
    assert caught.value.code == "unknown_game_type"
    assert Game.objects.count() == 0


def test_a_new_deck_edition_is_checked_and_used(owner, deck) -> None:
    layout = standard_cards()
    # A10 and P10 swap symbols: seat 1 wins round 4 with A10, now two artists instead of two
    # nobles (D1): nobles 1 (1) + artists 2 (3) + traders 1 (1) + assassins 1 (1) = 6 points.
    layout["A10"], layout["P10"] = layout["P10"], layout["A10"]
    swapped = services.edition_create(
        game_type=POT_DE_VIN, key="swapped", data=layout, created_by=owner
    )
    assert (swapped.game_type, swapped.verified) == (POT_DE_VIN, False)
    game = append_all(new_game(owner, swapped), [R1, R2, R3, R4])
    assert game.edition_id == swapped.pk
    assert game.result["players"][1]["score"] == 6
    assert services.game_export_log(game=game)["deck"] == "swapped"

    with pytest.raises(GameConflict) as taken:
        services.edition_create(game_type=POT_DE_VIN, key="standard", data=layout, created_by=owner)
    assert taken.value.code == "deck_exists"
    broken = {k: v for k, v in layout.items() if k != "A4"}
    with pytest.raises(LogError) as refused:
        services.edition_create(game_type=POT_DE_VIN, key="broken", data=broken, created_by=owner)
    assert refused.value.code == "bad_deck"
    assert set(Edition.objects.filter(game_type=POT_DE_VIN).values_list("key", flat=True)) == {
        "standard",
        "swapped",
    }
