"""Scenario tests for the Complots rules: one or more per rule and per decision (K1-K5).

Rules: ``shared/rules/complots.md``; source: ``shared/rulebooks/complots.it.txt`` (its Example 1,
Example 2 and the two double-loss cases are tests below). Every expected number is worked out
by hand from the rules; the comment next to it shows the arithmetic. Seats are 0-based: the
rulebook's "Giocatore 1" is seat 0.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.complots import ENGINE
from scoring.engine.errors import LogError
from tests.engine.complots import reference
from tests.engine.complots.logs import NAMES, blk, ch, incomes, make_log, t

COUNTS = reference.COUNT_NAMES  # K5's names, as the rules file spells them


# --- result helpers ------------------------------------------------------------------------------


def replay(log: dict[str, Any]) -> dict[str, Any]:
    return ENGINE.replay(log)


def seat(result: dict[str, Any], s: int) -> dict[str, Any]:
    player = result["players"][s]
    assert player["seat"] == s
    return player


def coins(result: dict[str, Any]) -> list[int]:
    return [p["coins"] for p in result["players"]]


def ranks(result: dict[str, Any]) -> list[int]:
    return [p["rank"] for p in result["players"]]


def tiebreaks(result: dict[str, Any]) -> list[str | None]:
    return [p["tiebreak"] for p in result["players"]]


def counts(result: dict[str, Any], s: int) -> dict[str, int]:
    """The K4 counts of seat ``s`` that are not zero."""
    return {k: seat(result, s)[k] for k in COUNTS if seat(result, s)[k] != 0}


def rejected(log: dict[str, Any]) -> LogError:
    with pytest.raises(LogError) as info:
        ENGINE.replay(log)
    return info.value


def assert_error(log: dict[str, Any], code: str, turn: int | None, seat_: int | None) -> None:
    err = rejected(log)
    assert (err.code, err.round, err.turn, err.seat) == (code, turn, turn, seat_), repr(err)


def treasury_holds_the_rest(result: dict[str, Any]) -> None:
    # K1: coins on the table + Treasury = 54, always.
    assert sum(coins(result)) + result["treasury"] == 54


# --- Engine identity and result shape ------------------------------------------------------------


def test_engine_identity() -> None:
    """Contract: ids and formats; rules "Setup": 2 to 8 players, two variants, no teams."""
    assert ENGINE.game_id == "complots"
    assert ENGINE.log_format == "complots-log/1"
    assert ENGINE.version == "1.0.0"
    assert ENGINE.info.game_id == "complots"
    assert ENGINE.info.log_format == "complots-log/1"
    assert ENGINE.info.entries_key == "turns"
    assert tuple(ENGINE.info.player_counts) == (2, 3, 4, 5, 6, 7, 8)  # Setup: 2 to 8 players
    assert set(ENGINE.info.variants) == {"ambassador", "inquisitor"}
    assert ENGINE.info.default_variant == "ambassador"
    assert not ENGINE.info.team_counts  # no teams in Complots


def test_result_shape() -> None:
    """Contract "Result": complots-result/1, no teams and no scores (K4 ranks, no points)."""
    result = replay(make_log(3, [t(0, "income")], variant="inquisitor"))
    assert result["format"] == "complots-result/1"
    assert result["game"] == "complots"
    assert result["engine_version"] == "1.0.0"
    assert result["variant"] == "inquisitor"
    assert result["turns_played"] == 1
    for s, player in enumerate(result["players"]):
        assert player["name"] == NAMES[s]
        assert player["team"] is None and player["score"] is None  # no teams, no points
    assert result["turns"] == [
        {
            "turn": 1,
            "actor": 0,
            "action": "income",
            "target": None,
            "outcome": "done",
            "losses": [],
            "eliminated": [],
        }
    ]


def test_unknown_header_keys_are_ignored() -> None:
    """Log format: optional played_on, location, notes (as in potdevin-log/1)."""
    log = make_log(3, [t(0, "income")])
    log.update(played_on="2024-05-01", location="Lyon", notes="first game")
    assert coins(replay(log)) == [3, 2, 2]  # 2 + 1 income


# --- Setup ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("first", [0, 1])
def test_setup_two_players_first_player_has_one_coin(first: int) -> None:
    """Setup, 2 players: the first player starts with 1 coin, the other with 2; K1 Treasury."""
    result = replay(make_log(2, [], first=first))
    other = 1 - first
    assert seat(result, first)["coins"] == 1
    assert seat(result, other)["coins"] == 2
    assert result["treasury"] == 54 - 3  # K1: 54 - (1 + 2) = 51
    for p in result["players"]:
        assert (p["influences"], p["face_up"], p["alive"]) == (2, [], True)
        assert p["eliminated_on_turn"] is None
        assert all(p[k] == 0 for k in COUNTS)
    assert (result["complete"], result["winners"], result["turns_played"]) == (False, [], 0)
    # K4 unfinished: equal influences (2), then coins: 2 beats 1, decided by coins.
    assert seat(result, other)["rank"] == 1 and seat(result, first)["rank"] == 2
    assert tiebreaks(result) == ["coins", "coins"]


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8])
def test_setup_three_or_more_players_two_coins_each(n: int) -> None:
    """Setup: 2 coins each; K1: the Treasury holds 54 - 2n."""
    result = replay(make_log(n, [], first=n - 1))
    assert coins(result) == [2] * n
    assert result["treasury"] == 54 - 2 * n  # 3p: 48 ... 7p: 40, 8p: 38
    # K4: everybody 2 influences and 2 coins: all share rank 1.
    assert ranks(result) == [1] * n
    assert tiebreaks(result) == ["shared"] * n


def duchess_shows(n: int) -> list[dict[str, Any]]:
    """Turns 1-3: seat k claims the duchess, seat k+1 challenges and loses a duchess (3 face up).

    The claims are true, so seat k shows its duchess and draws another (rules "Challenges" 1).
    """
    return [
        t(k, "duchess", ch=ch((k + 1) % n, True), losses=f"{(k + 1) % n}:duchess")
        for k in (0, 1, 2)
    ]


@pytest.mark.parametrize("n", [3, 6])
def test_three_copies_for_three_to_six_players(n: int) -> None:
    """Setup: 3 copies of each character for 3-6 players; K3: no 4th duchess face up."""
    actor = 3 % n  # turn 4 comes back to seat 0 in 3p, reaches seat 3 in 6p
    target = (actor + 1) % n
    turns = [
        *duchess_shows(n),
        t(actor, "captain", target, ch=ch(target, True), losses=f"{target}:duchess"),
    ]
    assert_error(make_log(n, turns), "card_not_hidden", 4, target)


@pytest.mark.parametrize("n", [7, 8])
def test_four_copies_for_seven_and_eight_players(n: int) -> None:
    """Setup "Partita per 7 e 8 giocatori": 4 copies of each character (20 cards)."""
    turns = [*duchess_shows(n), t(3, "captain", 4, ch=ch(4, True), losses="4:duchess")]
    result = replay(make_log(n, turns))
    # face up: seats 1, 2, 3, 4 one duchess each = 4 copies, allowed
    assert sum(p["face_up"].count("duchess") for p in result["players"]) == 4
    # with 3 duchesses face up a 4th copy is hidden: a truthful duchess show is allowed
    more = [*duchess_shows(n), t(3, "duchess", ch=ch(4, True), losses="4:captain")]
    assert seat(replay(make_log(n, more)), 3)["coins"] == 2 + 3
    # ... but not a 5th copy face up
    fifth = [*turns, t(4, "captain", 5, ch=ch(5, True), losses="5:duchess")]
    assert_error(make_log(n, fifth), "card_not_hidden", 5, 5)


def test_two_players_have_three_copies() -> None:
    """K5: in a 2-player game each character has 3 copies, as in 3 to 6.

    A third duchess may be face up (it is, in the last turn). A fourth copy, or a show with 3
    face up, cannot be reached in a 2-player game: 3 losses already end it.
    """
    turns = [
        t(0, "duchess", ch=ch(1, True), losses="1:duchess"),  # seat 0: 1 + 3 = 4
        t(1, "duchess", ch=ch(0, True), losses="0:duchess"),  # seat 1: 2 + 3 = 5
        t(0, "duchess", ch=ch(1, True), losses="1:duchess"),  # third duchess: seat 1 is out
    ]
    result = replay(make_log(2, turns))
    assert result["complete"] and result["winners"] == [0]
    assert seat(result, 1)["face_up"] == ["duchess", "duchess"]
    assert coins(result) == [7, 0]  # seat 0: 4 + 3; seat 1 out, its 5 back to the Treasury
    assert result["treasury"] == 51 - 3 - 3 + 5 - 3  # 47: seat 1's 5 back before the last +3


# --- Variants ------------------------------------------------------------------------------------


@pytest.mark.parametrize("null", [False, True], ids=["missing", "null"])
def test_variant_missing_or_null_is_ambassador(null: bool) -> None:
    """Setup: the fifth character is the ambassador unless the log says inquisitor."""
    turns = [t(0, "exchange"), t(1, "captain", 0, block=blk(0, "ambassador"))]
    log = make_log(3, turns, variant=None)
    if null:
        log["variant"] = None
    result = replay(log)
    assert result["variant"] == "ambassador"
    assert coins(result) == [2, 2, 2]  # the captain was blocked by the ambassador
    log["turns"] = [t(0, "inquire", 1)]
    assert_error(log, "action_not_in_variant", 1, 0)


def test_ambassador_variant_exchange_and_block() -> None:
    """Variant ambassador: exchange claims the ambassador; the ambassador blocks the captain."""
    turns = [
        t(0, "exchange", ch=ch(1, False), losses="0:captain"),  # caught bluff
        t(1, "captain", 2, block=blk(2, "ambassador", ch(0, True)), losses="0:duchess"),
    ]
    result = replay(make_log(3, turns))
    assert seat(result, 0)["influences"] == 0 and seat(result, 0)["eliminated_on_turn"] == 2
    assert coins(result) == [0, 2, 2]  # seat 0 out: its 2 coins back; the captain was blocked
    assert result["treasury"] == 48 + 2
    assert [x["outcome"] for x in result["turns"]] == ["cancelled", "blocked"]
    # the caught exchange bluffer may not lose the ambassador it claimed
    bad = make_log(3, [t(0, "exchange", ch=ch(1, False), losses="0:ambassador")])
    assert_error(bad, "claimed_card_lost", 1, 0)
    # the inquisitor is not in this game: not a card, not a blocker
    assert_error(
        make_log(3, [t(0, "exchange", ch=ch(1, True), losses="1:inquisitor")]), "unknown_card", 1, 1
    )
    assert_error(
        make_log(3, [t(0, "captain", 1, block=blk(1, "inquisitor"))]), "bad_block_character", 1, 1
    )


def test_inquisitor_variant_exchange_inquire_and_block() -> None:
    """Variant inquisitor: exchange and inquire claim the inquisitor, which blocks the captain."""
    turns = [
        t(0, "exchange", ch=ch(1, True), losses="1:countess"),
        t(1, "inquire", 2, ch=ch(0, False), losses="1:captain"),  # caught, seat 1 out
        t(2, "captain", 0, block=blk(0, "inquisitor")),
        t(0, "inquire", 2, forced_swap=True),
    ]
    result = replay(make_log(3, turns, variant="inquisitor"))
    assert result["variant"] == "inquisitor"
    assert coins(result) == [2, 0, 2]  # seat 1's 2 coins back to the Treasury
    assert result["treasury"] == 48 + 2
    assert [seat(result, s)["face_up"] for s in range(3)] == [[], ["countess", "captain"], []]
    assert [x["outcome"] for x in result["turns"]] == ["done", "cancelled", "blocked", "done"]
    assert counts(result, 0) == {
        "claims_made": 2,
        "blocks_made": 1,
        "blocks_standing": 1,
        "challenges_made": 1,
        "challenges_won": 1,
        "players_eliminated": 1,
    }
    log = make_log(
        3, [t(0, "exchange", ch=ch(1, False), losses="0:inquisitor")], variant="inquisitor"
    )
    assert_error(log, "claimed_card_lost", 1, 0)
    log = make_log(
        3, [t(0, "exchange", ch=ch(1, True), losses="1:ambassador")], variant="inquisitor"
    )
    assert_error(log, "unknown_card", 1, 1)
    log = make_log(3, [t(0, "captain", 1, block=blk(1, "ambassador"))], variant="inquisitor")
    assert_error(log, "bad_block_character", 1, 1)


# --- The forced coup -----------------------------------------------------------------------------


def forced_coup_turns() -> list[dict[str, Any]]:
    """2 players, seat 0 first with 1 coin: three duchesses take it to 10 coins."""
    return [
        t(0, "duchess"),  # 1 + 3 = 4
        t(1, "income"),  # 2 + 1 = 3
        t(0, "duchess"),  # 4 + 3 = 7
        t(1, "income"),  # 4
        t(0, "duchess"),  # 7 + 3 = 10 (a player below 10 may do anything)
        t(1, "income"),  # 5
    ]


def test_forced_coup_at_ten_coins() -> None:
    """Rules "A turn" / K3 (the forced coup): starting a turn with 10 or more coins, coup."""
    turns = [*forced_coup_turns(), t(0, "coup", 1, losses="1:captain")]
    result = replay(make_log(2, turns))
    assert coins(result) == [10 - 7, 5]  # 3, 5
    assert result["treasury"] == 51 - 3 - 1 - 3 - 1 - 3 - 1 + 7  # 46
    assert seat(result, 1)["face_up"] == ["captain"]
    assert counts(result, 0) == {"coins_gained": 9, "claims_made": 3, "influences_taken": 1}
    treasury_holds_the_rest(result)


@pytest.mark.parametrize(
    "turn",
    [
        t(0, "income"),
        t(0, "duchess"),
        t(0, "assassin", 1),
        t(0, "captain", 1),
        t(0, "foreign_aid"),
        t(0, "exchange"),
    ],
    ids=lambda x: x["action"],
)
def test_forced_coup_refuses_any_other_action(turn: dict[str, Any]) -> None:
    """Rules "A turn" / K3: with 10 coins nothing but a coup is allowed."""
    assert_error(make_log(2, [*forced_coup_turns(), turn]), "forced_coup", 7, 0)


def test_forced_coup_with_more_than_ten_coins() -> None:
    """Rules "A turn" / K3: 10 *or more*: 12 coins (income refused, coup to 5 allowed)."""
    turns = [
        t(0, "duchess"),  # 1 + 3 = 4
        t(1, "income"),
        t(0, "duchess"),  # 7
        t(1, "income"),
        t(0, "foreign_aid"),  # 9 (still below 10)
        t(1, "income"),
        t(0, "duchess"),  # 9 + 3 = 12
        t(1, "income"),
    ]
    assert_error(make_log(2, [*turns, t(0, "income")]), "forced_coup", 9, 0)
    result = replay(make_log(2, [*turns, t(0, "coup", 1, losses="1:duchess")]))
    assert seat(result, 0)["coins"] == 12 - 7  # 5


# --- K1: the Treasury ----------------------------------------------------------------------------


def test_treasury_runs_empty_k1() -> None:
    """K1: taking more than the Treasury holds takes what is there, possibly 0; a coup pays 7
    back into it."""
    n = 8
    turns = [t(s, "duchess") for s in range(n)]  # each 2 + 3 = 5; Treasury 38 - 24 = 14
    turns += [t(s, "duchess") for s in range(4)]  # seats 0-3: 8 each; Treasury 14 - 12 = 2
    turns += [
        t(4, "duchess"),  # takes min(3, 2) = 2: seat 4 has 7, Treasury 0
        t(5, "duchess"),  # takes min(3, 0) = 0
        t(6, "income"),  # takes 0
        t(7, "foreign_aid"),  # takes 0
    ]
    result = replay(make_log(n, turns))
    assert result["treasury"] == 0
    assert coins(result) == [8, 8, 8, 8, 7, 5, 5, 5]  # 54 on the table
    assert [seat(result, s)["coins_gained"] for s in range(n)] == [6, 6, 6, 6, 5, 3, 3, 3]
    assert all(x["outcome"] == "done" for x in result["turns"])
    turns += [
        t(0, "coup", 1, losses="1:assassin"),  # seat 0: 8 - 7 = 1; Treasury 0 + 7 = 7
        t(1, "income"),  # seat 1: 8 + 1 = 9; Treasury 6
    ]
    result = replay(make_log(n, turns))
    assert result["treasury"] == 6
    assert coins(result) == [1, 9, 8, 8, 7, 5, 5, 5]
    assert seat(result, 1)["coins_gained"] == 3 + 3 + 1
    treasury_holds_the_rest(result)


def test_eliminated_players_coins_return_to_treasury_k1_k5() -> None:
    """K1 and K5: an eliminated player's coins go back to the Treasury at once (it shows 0)."""
    turns = [
        t(0, "duchess"),  # seat 0: 5; Treasury 48 - 3 = 45
        t(1, "duchess"),  # seat 1: 5; Treasury 42
        t(2, "income"),  # seat 2: 3; Treasury 41
        t(0, "coup", 1, losses="1:countess"),  # seat 0 needs 7: no; see below
    ]
    assert_error(make_log(3, turns), "not_enough_coins", 4, 0)  # 5 < 7
    turns[3] = t(0, "assassin", 1, ch=ch(2, False), losses="0:duchess")  # caught: pays nothing
    turns += [
        t(1, "foreign_aid"),  # seat 1: 7; Treasury 39
        t(2, "assassin", 1, losses="1:captain"),  # seat 2: 3 - 3 = 0; Treasury 42
        t(0, "income"),  # seat 0: 6; Treasury 41
        t(1, "income"),  # seat 1: 8; Treasury 40
        t(2, "income"),  # seat 2: 1; Treasury 39
        t(0, "assassin", 1, losses="1:countess"),  # seat 0: 3; Treasury 42; seat 1 out: 8 back
    ]
    assert len(turns) == 10
    result = replay(make_log(3, turns))
    assert coins(result) == [3, 0, 1]
    assert result["treasury"] == 42 + 8  # 50
    assert seat(result, 1)["eliminated_on_turn"] == 10
    assert result["turns"][9]["eliminated"] == [1]
    treasury_holds_the_rest(result)


def test_coup_payment_goes_to_treasury() -> None:
    """K1: a coup costs 7, paid to the Treasury."""
    turns = [t(0, "duchess"), t(1, "income"), t(0, "duchess"), t(1, "income")]
    # seat 0: 1 + 3 + 3 = 7; seat 1: 2 + 1 + 1 = 4; Treasury 51 - 8 = 43
    result = replay(make_log(2, [*turns, t(0, "coup", 1, losses="1:duchess")]))
    assert coins(result) == [0, 4]
    assert result["treasury"] == 43 + 7  # 50


# --- K2: who may challenge and who may block -----------------------------------------------------


def test_any_other_player_may_block_foreign_aid_k2() -> None:
    """K2 table: foreign aid is blocked by any other live player claiming the duchess."""
    result = replay(make_log(3, [t(0, "foreign_aid", block=blk(2, "duchess"))]))
    assert coins(result) == [2, 2, 2]  # blocked: no +2
    assert result["turns"][0]["outcome"] == "blocked"
    assert counts(result, 2) == {"blocks_made": 1, "blocks_standing": 1}


def test_actor_may_challenge_a_block_k2() -> None:
    """K2 / rules 2.: any other live player, the actor included, may challenge the block."""
    turn = t(0, "foreign_aid", block=blk(1, "duchess", ch(0, False)), losses="1:captain")
    result = replay(make_log(3, [turn]))
    assert coins(result) == [4, 2, 2]  # the block failed: 2 + 2
    assert result["turns"][0]["outcome"] == "done"
    assert counts(result, 0) == {"coins_gained": 2, "challenges_made": 1, "challenges_won": 1}
    assert counts(result, 1) == {"blocks_made": 1, "bluffs_caught": 1}


def test_third_player_may_challenge_a_claim_k2() -> None:
    """K2 / rules 1.: any other live player may challenge the claim, not only the target."""
    turn = t(0, "captain", 1, ch=ch(2, False), losses="0:duchess")
    result = replay(make_log(3, [turn]))
    assert coins(result) == [2, 2, 2]  # cancelled
    assert counts(result, 2) == {"challenges_made": 1, "challenges_won": 1}


@pytest.mark.parametrize(
    ("action", "as_"), [("captain", "captain"), ("captain", "ambassador"), ("assassin", "countess")]
)
def test_targeted_power_blocked_only_by_its_target_k2(action: str, as_: str) -> None:
    """K2: a block of a captain or an assassin comes only from its target."""
    turns = [*incomes([0, 1, 2]), t(0, action, 1, block=blk(2, as_))]
    assert_error(make_log(3, turns), "bad_blocker", 4, 2)
    turns[3] = t(0, action, 1, block=blk(1, as_))
    result = replay(make_log(3, turns))
    assert result["turns"][3]["outcome"] == "blocked"
    # captain blocked: nothing moves; assassin blocked: its 3 coins stay spent (3 - 3 = 0)
    assert seat(result, 0)["coins"] == (3 if action == "captain" else 0)


def test_inquire_cannot_be_blocked_but_can_be_challenged_k2() -> None:
    """K2: no character blocks the inquisitor's inquiry; its claim can be challenged."""
    block = t(0, "inquire", 1, block=blk(1, "inquisitor"))
    assert_error(make_log(3, [block], variant="inquisitor"), "not_blockable", 1, 1)
    turn = t(0, "inquire", 1, ch=ch(2, True), losses="2:duchess", forced_swap=False)
    result = replay(make_log(3, [turn], variant="inquisitor"))
    assert seat(result, 2)["face_up"] == ["duchess"]
    assert counts(result, 0) == {"claims_made": 1}
    assert counts(result, 2) == {"challenges_made": 1}


@pytest.mark.parametrize("action", ["income", "coup", "duchess", "exchange"])
def test_unblockable_actions(action: str) -> None:
    """K2 table: income, coup, duchess and exchange cannot be blocked."""
    turns = [t(0, "duchess"), t(1, "income"), t(0, "duchess"), t(1, "income")]  # seat 0: 7
    target = 1 if action == "coup" else None
    turns.append(t(0, action, target, block=blk(1, "duchess"), losses="1:captain"))
    assert_error(make_log(2, turns), "not_blockable", 5, 1)


def test_eliminated_players_never_challenge_or_block_again() -> None:
    """Rules "Losses" / K2, K3: an eliminated player never acts, blocks or challenges again."""
    turns = [
        t(0, "duchess", ch=ch(1, True), losses="1:countess"),
        t(1, "duchess", ch=ch(2, True), losses="2:countess"),
        t(2, "duchess", ch=ch(1, True), losses="1:captain"),  # seat 1 out (turn 3)
    ]
    assert replay(make_log(3, turns))["players"][1]["alive"] is False
    # next is seat 0 (after seat 2; seat 1 is out)
    assert_error(make_log(3, [*turns, t(0, "duchess", ch=ch(1, True))]), "bad_challenger", 4, 1)
    aid = t(0, "foreign_aid", block=blk(1, "duchess"))
    assert_error(make_log(3, [*turns, aid]), "bad_blocker", 4, 1)
    aid = t(0, "foreign_aid", block=blk(2, "duchess", ch(1, False)))
    assert_error(make_log(3, [*turns, aid]), "bad_challenger", 4, 1)
    assert_error(make_log(3, [*turns, t(0, "captain", 1)]), "bad_target", 4, 0)


# --- Challenges and blocks: resolution, losses in order ------------------------------------------


def test_true_claim_challenged_challenger_loses_action_goes_on() -> None:
    """Rules 1. truthful: the challenger loses 1 influence; the action goes on."""
    result = replay(make_log(3, [t(0, "duchess", ch=ch(2, True), losses="2:captain")]))
    assert coins(result) == [5, 2, 2]  # 2 + 3
    assert seat(result, 2)["face_up"] == ["captain"] and seat(result, 2)["influences"] == 1
    assert result["turns"][0]["outcome"] == "done"
    assert counts(result, 0) == {"coins_gained": 3, "claims_made": 1}
    assert counts(result, 2) == {"challenges_made": 1}


def test_false_claim_challenged_claimant_loses_action_cancelled() -> None:
    """Rules 1. false: the claimant loses a card other than the claimed one; cancelled."""
    result = replay(make_log(3, [t(0, "duchess", ch=ch(1, False), losses="0:assassin")]))
    assert coins(result) == [2, 2, 2]
    assert result["treasury"] == 48
    assert result["turns"][0]["outcome"] == "cancelled"
    assert counts(result, 0) == {"claims_made": 1, "bluffs_caught": 1}
    assert counts(result, 1) == {"challenges_made": 1, "challenges_won": 1}
    lying = make_log(3, [t(0, "duchess", ch=ch(1, False), losses="0:duchess")])
    assert_error(lying, "claimed_card_lost", 1, 0)


def test_assassin_bluff_caught_pays_nothing_k5() -> None:
    """Rules 1. / K5: a caught assassin bluff spends no coins."""
    turns = [*incomes([0, 1, 2]), t(0, "assassin", 1, ch=ch(2, False), losses="0:duchess")]
    result = replay(make_log(3, turns))
    assert coins(result) == [3, 3, 3]  # 2 + 1 each, nothing paid
    assert result["treasury"] == 48 - 3  # 45
    assert seat(result, 1)["face_up"] == []


def test_true_block_challenged_challenger_loses_block_stands() -> None:
    """Rules 2.: a true block survives its challenge (the challenger loses) and stands."""
    turn = t(0, "captain", 1, block=blk(1, "captain", ch(0, True)), losses="0:countess")
    result = replay(make_log(3, [turn]))
    assert coins(result) == [2, 2, 2]
    assert result["turns"][0]["outcome"] == "blocked"
    assert counts(result, 0) == {"claims_made": 1, "challenges_made": 1}
    assert counts(result, 1) == {"blocks_made": 1, "blocks_standing": 1}


def test_false_block_challenged_blocker_loses_action_takes_effect() -> None:
    """Rules 2.: a block shown to be a bluff fails and the action takes effect."""
    turn = t(0, "captain", 1, block=blk(1, "ambassador", ch(2, False)), losses="1:duchess")
    result = replay(make_log(3, [turn]))
    assert coins(result) == [4, 0, 2]  # steals min(2, 2) = 2
    assert result["turns"][0]["outcome"] == "done"
    assert counts(result, 0) == {"claims_made": 1, "coins_gained": 2}
    assert counts(result, 1) == {"blocks_made": 1, "bluffs_caught": 1, "coins_lost_to_captains": 2}
    assert counts(result, 2) == {"challenges_made": 1, "challenges_won": 1}
    lying = make_log(3, [{**turn, "losses": [{"seat": 1, "card": "ambassador"}]}])
    assert_error(lying, "claimed_card_lost", 1, 1)


def test_assassin_blocked_coins_stay_spent_k5() -> None:
    """K5 / rules 2.: the assassin pays once its claim survived, before the block; a standing
    countess block does not give the 3 coins back."""
    turns = [*incomes([0, 1, 2]), t(0, "assassin", 1, block=blk(1, "countess"))]
    result = replay(make_log(3, turns))
    assert coins(result) == [0, 3, 3]  # 3 - 3
    assert result["treasury"] == 45 + 3  # 48
    assert result["turns"][3]["outcome"] == "blocked"


def three_losses_turns() -> list[dict[str, Any]]:
    """Turn 4: an assassination with a claim challenge, a block challenge and the effect."""
    return [
        *incomes([0, 1, 2]),  # 3 coins each, Treasury 45
        t(
            0,
            "assassin",
            1,
            ch=ch(2, True),  # (1) seat 2 loses
            block=blk(1, "countess", ch(0, False)),  # (2) seat 1 bluffed: loses
            losses="2:duchess 1:captain 1:assassin",  # (3) the assassination: seat 1 out
        ),
    ]


def test_losses_in_order_claim_block_effect() -> None:
    """Rules "Losses" / K3: listed in the order they happen: the claim's challenge, the
    block's challenge, then the assassination."""
    result = replay(make_log(3, three_losses_turns()))
    assert seat(result, 1)["face_up"] == ["captain", "assassin"]
    assert seat(result, 2)["face_up"] == ["duchess"]
    assert result["turns"][3]["eliminated"] == [1]
    assert coins(result) == [0, 0, 3]  # seat 0 paid 3; seat 1's 3 back to the Treasury
    assert result["treasury"] == 45 + 3 + 3  # 51
    assert counts(result, 0) == {
        "coins_gained": 1,
        "claims_made": 1,
        "challenges_made": 1,
        "challenges_won": 1,
        "influences_taken": 1,
        "players_eliminated": 1,  # seat 1 fell to the assassination
    }
    assert counts(result, 1) == {"coins_gained": 1, "blocks_made": 1, "bluffs_caught": 1}
    assert counts(result, 2) == {"coins_gained": 1, "challenges_made": 1}
    turns = three_losses_turns()
    turns[3]["losses"] = turns[3]["losses"][1:2] + turns[3]["losses"][:1] + turns[3]["losses"][2:]
    assert_error(make_log(3, turns), "unexpected_loss", 4, 1)  # seat 2's loss comes first
    turns = three_losses_turns()
    del turns[3]["losses"][2]
    assert_error(make_log(3, turns), "missing_loss", 4, 1)


# --- The rulebook's examples ---------------------------------------------------------------------


def test_rulebook_example_1() -> None:
    """Esempio 1: player 1's captain steals from player 2, who challenges; the captain is real:
    player 2 turns up a card and loses 2 coins."""
    result = replay(make_log(3, [t(0, "captain", 1, ch=ch(1, True), losses="1:duchess")]))
    assert coins(result) == [4, 0, 2]  # 2 + 2, 2 - 2
    assert seat(result, 1)["face_up"] == ["duchess"] and seat(result, 1)["influences"] == 1
    assert result["treasury"] == 48
    assert result["turns"][0]["outcome"] == "done"
    assert counts(result, 0) == {"claims_made": 1, "coins_gained": 2}
    assert counts(result, 1) == {"challenges_made": 1, "coins_lost_to_captains": 2}
    # K4: seat 0 (2 infl, 4 coins) before seat 2 (2 infl, 2 coins), both by coins; seat 1
    # has 1 influence.
    assert ranks(result) == [1, 3, 2]
    assert tiebreaks(result) == ["coins", None, "coins"]


def test_rulebook_example_1_both_cards_up_eliminates() -> None:
    """Esempio 1, "if both cards are face up, he is eliminated": the challenger's last card;
    its coins go back at once (K5), so the captain then takes min(2, 0) = 0."""
    turns = [
        t(0, "income"),  # seat 0: 3
        t(1, "duchess", ch=ch(2, False), losses="1:countess"),  # seat 1: 1 influence, 2 coins
        t(2, "income"),  # seat 2: 3
        t(0, "captain", 1, ch=ch(1, True), losses="1:duchess"),  # seat 1 out
    ]
    result = replay(make_log(3, turns))
    assert coins(result) == [3, 0, 3]
    assert result["treasury"] == 48 - 1 - 1 + 2  # 48
    assert seat(result, 1)["eliminated_on_turn"] == 4
    assert seat(result, 1)["coins_lost_to_captains"] == 0
    # the claimant won the challenge that eliminated seat 1 (K4/K5 players_eliminated)
    assert counts(result, 0) == {"coins_gained": 1, "claims_made": 1, "players_eliminated": 1}
    # K4 competition ranking: seats 0 and 2 both (2 influences, 3 coins): 1, 1, then 3.
    assert ranks(result) == [1, 3, 1]
    assert tiebreaks(result) == ["shared", None, "shared"]
    assert result["winners"] == [] and not result["complete"]


@pytest.mark.parametrize("variant", ["ambassador", "inquisitor"])
def test_rulebook_example_2(variant: str) -> None:
    """Esempio 2: player 3 challenges player 1's captain (true: player 3 loses a card); player 2
    blocks with the ambassador (inquisitor), player 3 challenges again (true: loses its last
    card, out). The block stands: no coins move."""
    turn = t(
        0,
        "captain",
        1,
        ch=ch(2, True),
        block=blk(1, variant, ch(2, True)),
        losses="2:duchess 2:countess",
    )
    result = replay(make_log(3, [turn], variant=variant))
    assert coins(result) == [2, 2, 0]  # seat 2 out: its 2 coins back
    assert result["treasury"] == 48 + 2  # 50
    assert result["turns"][0]["outcome"] == "blocked"
    assert result["turns"][0]["eliminated"] == [2]
    assert seat(result, 2)["eliminated_on_turn"] == 1
    assert seat(result, 2)["face_up"] == ["duchess", "countess"]
    assert counts(result, 0) == {"claims_made": 1}
    # seat 1 won the challenge that eliminated seat 2
    assert counts(result, 1) == {"blocks_made": 1, "blocks_standing": 1, "players_eliminated": 1}
    assert counts(result, 2) == {"challenges_made": 2}
    # K4: seats 0 and 1 (2 influences, 2 coins) share 1st; seat 2 eliminated: 3rd (1, 1, 3)
    assert ranks(result) == [1, 1, 3]
    assert tiebreaks(result) == ["shared", "shared", None]
    # next turn: seat 1 (after seat 0)
    assert_error(make_log(3, [turn, t(2, "income")], variant=variant), "out_of_turn", 2, 2)


def test_rulebook_double_loss_1_challenging_a_true_assassin() -> None:
    """Precisazioni, case 1: player 2 challenges a true assassin: loses one card to the
    challenge, then the second to the assassination, and is out."""
    turns = [*incomes([0, 1, 2]), t(0, "assassin", 1, ch=ch(1, True), losses="1:duchess 1:captain")]
    result = replay(make_log(3, turns))
    assert seat(result, 1)["face_up"] == ["duchess", "captain"]
    assert seat(result, 1)["eliminated_on_turn"] == 4
    assert coins(result) == [0, 0, 3]  # seat 0: 3 - 3; seat 1 out
    assert result["treasury"] == 45 + 3 + 3  # 51
    assert result["turns"][3]["outcome"] == "done"
    assert counts(result, 0) == {
        "coins_gained": 1,
        "claims_made": 1,
        "influences_taken": 1,
        "players_eliminated": 1,  # the assassination took the last card
    }
    assert counts(result, 1) == {"coins_gained": 1, "challenges_made": 1}
    # K4: seat 2 (2 infl, 3 coins) then seat 0 (2 infl, 0 coins), then the eliminated
    assert ranks(result) == [2, 3, 1]
    assert tiebreaks(result) == ["coins", None, "coins"]


def test_double_loss_1_unless_a_countess_block_stands() -> None:
    """Rules "Losses": "... unless a countess block then stands": the target keeps 1 card."""
    turn = t(0, "assassin", 1, ch=ch(1, True), block=blk(1, "countess"), losses="1:duchess")
    result = replay(make_log(3, [*incomes([0, 1, 2]), turn]))
    assert seat(result, 1)["influences"] == 1 and seat(result, 1)["alive"]
    assert coins(result) == [0, 3, 3]  # paid before the block (K5)
    assert result["turns"][3]["outcome"] == "blocked"
    assert counts(result, 1) == {
        "coins_gained": 1,
        "challenges_made": 1,
        "blocks_made": 1,
        "blocks_standing": 1,
    }


def test_rulebook_double_loss_2_bluffing_the_countess() -> None:
    """Precisazioni, case 2: nobody challenges the assassin; player 2 bluffs a countess, player 1
    challenges: player 2 loses a card (not the countess), then the assassination takes the
    second."""
    turn = t(0, "assassin", 1, block=blk(1, "countess", ch(0, False)), losses="1:duchess 1:captain")
    result = replay(make_log(3, [*incomes([0, 1, 2]), turn]))
    assert seat(result, 1)["face_up"] == ["duchess", "captain"]
    assert seat(result, 1)["eliminated_on_turn"] == 4
    assert coins(result) == [0, 0, 3]
    assert result["treasury"] == 51  # 45 + 3 paid + 3 returned
    assert result["turns"][3]["outcome"] == "done"
    assert counts(result, 0) == {
        "coins_gained": 1,
        "claims_made": 1,
        "challenges_made": 1,
        "challenges_won": 1,
        "influences_taken": 1,
        "players_eliminated": 1,
    }
    assert counts(result, 1) == {"coins_gained": 1, "blocks_made": 1, "bluffs_caught": 1}
    # the bluffer may not turn up the countess it claimed
    bad = t(0, "assassin", 1, block=blk(1, "countess", ch(0, False)), losses="1:countess 1:captain")
    assert_error(make_log(3, [*incomes([0, 1, 2]), bad]), "claimed_card_lost", 4, 1)


def test_dead_target_changes_nothing_more() -> None:
    """Rules "Losses": a target eliminated by its challenge loses nothing more (the assassin's
    loss vanishes) and can no longer block."""
    turns = [
        t(0, "income"),  # 3
        t(1, "duchess", ch=ch(2, False), losses="1:countess"),  # seat 1: 1 card left
        t(2, "income"),
        t(0, "assassin", 1, ch=ch(1, True), losses="1:duchess"),  # out by the challenge
    ]
    result = replay(make_log(3, turns))
    assert seat(result, 1)["face_up"] == ["countess", "duchess"]
    assert coins(result) == [0, 0, 3]  # paid 3; seat 1's 2 back
    assert result["treasury"] == 48 - 2 + 3 + 2  # 51
    # credited to the claimant who won the challenge; the assassination took nothing
    assert counts(result, 0) == {"coins_gained": 1, "claims_made": 1, "players_eliminated": 1}
    extra = [
        *turns[:3],
        {**turns[3], "losses": [*turns[3]["losses"], {"seat": 1, "card": "captain"}]},
    ]
    assert_error(make_log(3, extra), "unexpected_loss", 4, 1)
    blocked = [*turns[:3], {**turns[3], "block": blk(1, "countess")}]
    assert_error(make_log(3, blocked), "bad_blocker", 4, 1)


# --- Turn order ----------------------------------------------------------------------------------


def test_turn_order_skips_the_eliminated_and_follows_a_dead_actor() -> None:
    """Rules "A turn" / K3 (turn order): clockwise, skipping eliminated players; after a turn
    the next live seat after its actor, even when the actor died in it."""
    turns = [
        t(0, "income"),  # seat 0: 3; Treasury 46 - 1 = 45
        t(1, "duchess", ch=ch(0, False), losses="1:captain"),
        t(2, "duchess", ch=ch(0, False), losses="2:captain"),
        t(3, "income"),  # seat 3: 3; Treasury 44
        t(0, "duchess", ch=ch(2, True), losses="2:countess"),  # seat 2 out: 2 back; 0: 6
        # seat 1 challenges a true duchess block and loses its last card in its own turn
        t(1, "foreign_aid", block=blk(3, "duchess", ch(1, True)), losses="1:assassin"),
        t(3, "income"),  # seat 2 is skipped: after 1 comes 3
    ]
    result = replay(make_log(4, turns))
    assert coins(result) == [6, 0, 0, 4]
    assert result["treasury"] == 44 - 3 + 2 + 2 - 1  # 44
    assert [seat(result, s)["eliminated_on_turn"] for s in range(4)] == [None, 6, 5, None]
    # K4: 0 (2 infl, 6) then 3 (2 infl, 4); seat 1 out last ranks before seat 2
    assert ranks(result) == [1, 3, 4, 2]
    assert tiebreaks(result) == ["coins", None, None, "coins"]
    # seat 2 eliminated by losing to the claimant (turn 5), seat 1 to the blocker (turn 6)
    assert seat(result, 0)["players_eliminated"] == 1
    assert seat(result, 3)["players_eliminated"] == 1
    assert_error(make_log(4, [*turns[:6], t(2, "income")]), "out_of_turn", 7, 2)
    assert_error(make_log(4, [*turns, t(1, "income")]), "out_of_turn", 8, 1)
    replay(make_log(4, [*turns, t(0, "income")]))


def test_first_player_starts() -> None:
    """Rules "A turn" / K3 (turn order): clockwise from first_player."""
    result = replay(make_log(3, [t(2, "income"), t(0, "income"), t(1, "income")], first=2))
    assert coins(result) == [3, 3, 3]
    assert_error(make_log(3, [t(0, "income")], first=2), "out_of_turn", 1, 0)


# --- K4: ranking ---------------------------------------------------------------------------------


def complete_three_player_game() -> list[dict[str, Any]]:
    return [
        *incomes([0, 1, 2]),  # 3 coins each; Treasury 45
        t(0, "assassin", 1, ch=ch(1, True), losses="1:duchess 1:captain"),  # 0: 0; T 51
        t(2, "assassin", 0, losses="0:countess"),  # 2: 0; T 54
        t(0, "income"),  # 0: 1; T 53
        t(2, "income"),  # 2: 1; T 52
        t(0, "duchess", ch=ch(2, True), losses="2:assassin"),  # 0: 4; T 49
        t(2, "duchess", ch=ch(0, True), losses="0:duchess"),  # 0 out: 4 back (T 53); 2: 4, T 50
    ]


def test_complete_game_ranks_by_elimination_k4() -> None:
    """K4: the last live player first, then the one eliminated last."""
    result = replay(make_log(3, complete_three_player_game()))
    assert result["complete"] is True
    assert result["winners"] == [2]
    assert result["turns_played"] == 9
    assert ranks(result) == [2, 3, 1]  # 0 out on turn 9, 1 on turn 4
    assert tiebreaks(result) == [None, None, None]
    assert [seat(result, s)["eliminated_on_turn"] for s in range(3)] == [9, 4, None]
    assert coins(result) == [0, 0, 4]
    assert result["treasury"] == 50
    assert seat(result, 2)["face_up"] == ["assassin"] and seat(result, 2)["influences"] == 1
    assert [seat(result, s)["alive"] for s in range(3)] == [False, False, True]
    assert counts(result, 0) == {
        "coins_gained": 1 + 1 + 3,
        "claims_made": 2,
        "challenges_made": 1,
        "influences_taken": 1,
        "players_eliminated": 1,  # seat 1, by the assassination of turn 4
    }
    assert counts(result, 1) == {"coins_gained": 1, "challenges_made": 1}
    assert counts(result, 2) == {
        "coins_gained": 1 + 1 + 3,
        "claims_made": 2,
        "challenges_made": 1,
        "influences_taken": 1,
        "players_eliminated": 1,  # seat 0, which lost its challenge of turn 9 to seat 2
    }


def test_same_turn_eliminations_later_loss_ranks_better_k5() -> None:
    """K5: of two players eliminated in the same turn, the one whose eliminating loss comes
    later in ``losses`` ranks better (tiebreak "loss_order")."""
    turns = [
        t(0, "income"),  # 0: 3; Treasury 47
        t(1, "duchess", ch=ch(0, False), losses="1:captain"),
        t(2, "duchess", ch=ch(0, False), losses="2:captain"),
        # seat 2 challenges a true assassin and dies; then the assassination kills seat 1
        t(0, "assassin", 1, ch=ch(2, True), losses="2:duchess 1:countess"),
    ]
    result = replay(make_log(3, turns))
    assert result["complete"] and result["winners"] == [0]
    assert ranks(result) == [1, 2, 3]
    assert tiebreaks(result) == [None, "loss_order", "loss_order"]
    assert result["turns"][3]["eliminated"] == [2, 1]
    assert coins(result) == [0, 0, 0]
    assert result["treasury"] == 54  # 47 + 3 paid + 2 + 2 returned
    assert seat(result, 0)["players_eliminated"] == 2  # one by challenge, one by assassination


def test_same_turn_eliminations_in_an_unfinished_game_k4_k5() -> None:
    """K4/K5: live players first (influences, coins), then the eliminated by loss order."""
    turns = [
        t(0, "income"),  # 0: 3; Treasury 45
        t(1, "duchess", ch=ch(3, False), losses="1:captain"),
        t(2, "duchess", ch=ch(3, False), losses="2:captain"),
        t(3, "income"),  # 3: 3; Treasury 44
        t(0, "assassin", 1, ch=ch(2, True), losses="2:countess 1:duchess"),
    ]
    result = replay(make_log(4, turns))
    assert not result["complete"] and result["winners"] == []
    assert coins(result) == [0, 0, 0, 3]
    assert result["treasury"] == 44 + 3 + 2 + 2  # 51
    assert ranks(result) == [2, 3, 4, 1]  # 3 (3 coins), 0 (0 coins), then 1, then 2
    assert tiebreaks(result) == ["coins", "loss_order", "loss_order", "coins"]
    assert [seat(result, s)["eliminated_on_turn"] for s in range(4)] == [None, 5, 5, None]
    assert counts(result, 3) == {"coins_gained": 1, "challenges_made": 2, "challenges_won": 2}
    # next after seat 0: seats 1 and 2 are out, so seat 3
    assert_error(make_log(4, [*turns, t(1, "income")]), "out_of_turn", 6, 1)


def test_unfinished_ranking_rules_file_example_k4() -> None:
    """The log of the rules file ("In words"): Bea first (two influences), Ada and Cy share
    second (one influence and 4 coins each); every K4 count of that game."""
    turns = [
        t(0, "income"),  # Ada 3
        t(1, "captain", 0, ch=ch(2, True), losses="2:duchess"),  # Ada 1, Bea 4
        t(2, "foreign_aid", block=blk(0, "duchess", ch(2, False)), losses="0:captain"),  # Cy 4
        t(0, "duchess"),  # Ada 4
        t(1, "assassin", 2, block=blk(2, "countess")),  # Bea 1
        t(2, "inquire", 0, forced_swap=True),
    ]
    result = replay(make_log(3, turns, variant="inquisitor"))
    assert coins(result) == [4, 1, 4]
    assert result["treasury"] == 54 - 9  # 45
    assert [p["influences"] for p in result["players"]] == [1, 2, 1]
    assert ranks(result) == [2, 1, 2]
    assert tiebreaks(result) == ["shared", None, "shared"]
    assert [x["outcome"] for x in result["turns"]] == [
        "done",
        "done",
        "done",
        "done",
        "blocked",
        "done",
    ]
    assert counts(result, 0) == {
        "coins_gained": 4,
        "coins_lost_to_captains": 2,
        "claims_made": 1,
        "bluffs_caught": 1,
        "blocks_made": 1,
    }
    assert counts(result, 1) == {"coins_gained": 2, "claims_made": 2}
    assert counts(result, 2) == {
        "coins_gained": 2,
        "claims_made": 1,
        "challenges_made": 2,
        "challenges_won": 1,
        "blocks_made": 1,
        "blocks_standing": 1,
    }
    assert result["turns"][1] == {
        "turn": 2,
        "actor": 1,
        "action": "captain",
        "target": 0,
        "outcome": "done",
        "losses": [{"seat": 2, "card": "duchess"}],
        "eliminated": [],
    }


def test_unfinished_ranking_influences_before_coins_k4() -> None:
    """K4: more influences beat more coins; three live players with (2, 2), (1, 5), (1, 5)."""
    turns = [
        t(0, "duchess", ch=ch(1, False), losses="0:countess"),  # 0: 1 influence, 2 coins
        t(1, "duchess", ch=ch(2, False), losses="1:countess"),  # 1: 1 influence, 2 coins
        t(2, "income"),  # 2: 3
        t(0, "duchess"),  # 0: 5
        t(1, "duchess"),  # 1: 5
    ]
    result = replay(make_log(3, turns))
    assert coins(result) == [5, 5, 3]
    assert ranks(result) == [2, 2, 1]
    assert tiebreaks(result) == ["shared", "shared", None]
    result = replay(make_log(3, [*turns, t(2, "income"), t(0, "income")]))
    # 0: (1, 6), 1: (1, 5), 2: (2, 4)
    assert ranks(result) == [2, 3, 1]
    assert tiebreaks(result) == ["coins", "coins", None]


def test_players_eliminated_credit_k4_k5() -> None:
    """K4/K5 players_eliminated: a player eliminated by a lost challenge is credited to the
    challenge's winner (here a block challenger), otherwise to the coup's actor."""
    turns = [
        t(0, "duchess", ch=ch(1, False), losses="0:captain"),  # 0: 1 influence
        # 0 bluffs a duchess block, seat 2 catches it: 0 out (2 coins back); 1: 2 + 2 = 4
        t(1, "foreign_aid", block=blk(0, "duchess", ch(2, False)), losses="0:countess"),
        t(2, "duchess", ch=ch(1, False), losses="2:assassin"),  # 2: 1 influence
        t(1, "duchess"),  # 1: 7
        t(2, "income"),  # 2: 3
        t(1, "coup", 2, losses="2:captain"),  # 1: 0; 2 out (3 coins back)
    ]
    result = replay(make_log(3, turns))
    assert result["complete"] and result["winners"] == [1]
    assert ranks(result) == [3, 1, 2]  # 0 out on turn 2, 2 on turn 6
    assert coins(result) == [0, 0, 0]
    assert result["treasury"] == 48 + 2 - 2 - 3 - 1 + 7 + 3  # 54
    assert counts(result, 0) == {"claims_made": 1, "bluffs_caught": 2, "blocks_made": 1}
    assert counts(result, 1) == {
        "coins_gained": 2 + 3,
        "claims_made": 1,
        "challenges_made": 2,
        "challenges_won": 2,
        "influences_taken": 1,
        "players_eliminated": 1,  # seat 2, by the coup
    }
    assert counts(result, 2) == {
        "coins_gained": 1,
        "claims_made": 1,
        "bluffs_caught": 1,
        "challenges_made": 1,
        "challenges_won": 1,
        "players_eliminated": 1,  # seat 0, caught bluffing its block
    }


# --- K5 details ----------------------------------------------------------------------------------


def test_captain_may_target_a_player_with_no_coins_k5() -> None:
    """K5: a captain may target a player with 0 coins, and takes nothing."""
    turns = [
        t(0, "captain", 1),  # 0: 4, 1: 0
        t(1, "exchange"),
        t(2, "captain", 1),  # min(2, 0) = 0
    ]
    result = replay(make_log(3, turns))
    assert coins(result) == [4, 0, 2]
    assert result["turns"][2]["outcome"] == "done"
    assert counts(result, 2) == {"claims_made": 1}
    assert counts(result, 1) == {"claims_made": 1, "coins_lost_to_captains": 2}


def test_captain_takes_the_only_coin() -> None:
    """K5 / table: the captain takes min(2, target's coins): 1 when the target has 1."""
    turns = [t(0, "captain", 1), t(1, "income"), t(0, "captain", 1)]  # 1: 0, then 1, then 0
    result = replay(make_log(2, turns, first=0))
    assert coins(result) == [1 + 2 + 1, 0]  # seat 0 started with 1 (2 players)
    assert counts(result, 1) == {"coins_gained": 1, "coins_lost_to_captains": 3}


def test_game_is_won_when_one_player_is_left_k5() -> None:
    """K5: the game is won the moment one player is left; no turn may follow."""
    turns = complete_three_player_game()
    assert_error(make_log(3, [*turns, t(2, "income")]), "game_over", 10, 2)
    unfinished = replay(make_log(3, turns[:-1]))
    assert unfinished["complete"] is False and unfinished["winners"] == []


def test_forced_swap_is_optional_and_meaningless_when_cancelled_k5() -> None:
    """K5: ``forced_swap`` is optional and means nothing when the inquiry does not take
    effect."""
    turns = [
        t(0, "inquire", 1),  # no forced_swap
        t(1, "inquire", 2, ch=ch(0, False), losses="1:duchess", forced_swap=True),
        t(2, "inquire", 0, forced_swap=False),
    ]
    result = replay(make_log(3, turns, variant="inquisitor"))
    assert coins(result) == [2, 2, 2]
    assert [x["outcome"] for x in result["turns"]] == ["done", "cancelled", "done"]
    assert [p["influences"] for p in result["players"]] == [2, 1, 2]
