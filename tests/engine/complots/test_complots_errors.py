"""One test (at least) per error code of the Complots engine
(``docs/complots-engine.md``; rules K3).

Each test checks the exact ``.code``, ``.round``, ``.turn`` and ``.seat``: ``None`` for the log
header; for a turn, round = turn = its 1-based position in ``turns``. Every log here breaks one
rule only, at the turn named.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.complots import ENGINE
from scoring.engine.errors import LogError
from tests.engine.complots.logs import blk, ch, incomes, make_log, t


def rejected(log: Any) -> LogError:
    with pytest.raises(LogError) as info:
        ENGINE.replay(log)
    return info.value


def assert_error(log: Any, code: str, turn: int | None, seat: int | None) -> None:
    err = rejected(log)
    assert (err.code, err.round, err.turn, err.seat) == (code, turn, turn, seat), repr(err)


def assert_header_error(log: Any, code: str) -> None:
    """A header error: raised by ``replay`` and by ``start``, with no round, turn or seat."""
    assert_error(log, code, None, None)
    with pytest.raises(LogError) as info:
        ENGINE.start(log)
    assert (info.value.code, info.value.round, info.value.seat) == (code, None, None)


def test_a_valid_log_replays() -> None:
    # the base every error below breaks: a 3-player game with a few ordinary turns
    ENGINE.replay(make_log(3, [t(0, "income"), t(1, "foreign_aid"), t(2, "duchess")]))


# --- Header --------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["complots-log/2", "potdevin-log/1", None, 1])
def test_unsupported_format(fmt: Any) -> None:
    log = make_log(3, [])
    log["format"] = fmt
    assert_header_error(log, "unsupported_format")


def test_unsupported_format_missing() -> None:
    log = make_log(3, [])
    del log["format"]
    assert_header_error(log, "unsupported_format")


@pytest.mark.parametrize(
    "players",
    ["Ada, Bea, Cy", None, {"0": "Ada"}, ["Ada", "", "Cy"], ["Ada", 2, "Cy"], ["Ada", None]],
    ids=["string", "null", "object", "empty-name", "int-name", "null-name"],
)
def test_malformed_players(players: Any) -> None:
    log = make_log(3, [])
    log["players"] = players
    assert_header_error(log, "malformed")


@pytest.mark.parametrize("turns", ["income", {"0": {}}, 3], ids=["string", "object", "int"])
def test_malformed_turns_not_a_list(turns: Any) -> None:
    log = make_log(3, [])
    log["turns"] = turns
    assert_error(log, "malformed", None, None)


def test_malformed_log_not_an_object() -> None:
    assert_error(["complots-log/1"], "malformed", None, None)


@pytest.mark.parametrize("n", [0, 1, 9, 10])
def test_bad_player_count(n: int) -> None:
    # Setup: 2 to 8 players
    log = make_log(3, [])
    log["players"] = [f"P{i}" for i in range(n)]
    assert_header_error(log, "bad_player_count")


@pytest.mark.parametrize("variant", ["duke", "Ambassador", "", 1, ["inquisitor"]])
def test_bad_variant(variant: Any) -> None:
    log = make_log(3, [])
    log["variant"] = variant
    assert_header_error(log, "bad_variant")


@pytest.mark.parametrize("first", [3, -1, True, False, "0", 1.0, None])
def test_bad_first_player(first: Any) -> None:
    # an int seat 0..n-1; a bool is not an int
    log = make_log(3, [])
    log["first_player"] = first
    assert_header_error(log, "bad_first_player")


def test_missing_first_player() -> None:
    log = make_log(3, [])
    del log["first_player"]
    assert_header_error(log, "bad_first_player")


@pytest.mark.parametrize("teams", [[[0, 1], [2, 3]], [], {"a": [0]}, 2])
def test_bad_teams(teams: Any) -> None:
    # Complots has no teams: missing or null only
    log = make_log(4, [])
    log["teams"] = teams
    assert_header_error(log, "bad_teams")


def test_null_teams_and_unknown_keys_are_accepted() -> None:
    log = make_log(4, [t(0, "income")])
    log.update(teams=None, played_on="2024-05-01", location="Lyon", notes="x", extra={"a": 1})
    assert ENGINE.replay(log)["players"][0]["coins"] == 3


# --- Turns: malformed ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "turn", [["income"], "income", None, 7], ids=["list", "str", "null", "int"]
)
def test_malformed_turn_not_an_object(turn: Any) -> None:
    assert_error(make_log(3, [t(0, "income"), turn]), "malformed", 2, None)


@pytest.mark.parametrize("actor", ["1", None, 1.0, True])
def test_malformed_actor_not_an_int(actor: Any) -> None:
    # no int actor: no seat to name
    assert_error(make_log(3, [t(0, "income"), t(actor, "income")]), "malformed", 2, None)


MALFORMED_TURNS = {
    # turn 8, seat 1 acting; the seat is None "unless obvious": the actor (1) or the seat the
    # broken field belongs to (second item) are accepted too
    "target-str": (t(1, "captain", "0"), 1),
    "target-bool": (t(1, "captain", True), 1),
    "challenge-list": (t(1, "duchess", ch=[0, True]), 1),
    "challenge-by-str": (t(1, "duchess", ch=ch("0", True), losses="0:duchess"), 1),
    "challenge-by-bool": (t(1, "duchess", ch=ch(False, True), losses="0:duchess"), 1),
    "truthful-str": (t(1, "duchess", ch=ch(0, "yes"), losses="0:duchess"), 0),
    "truthful-int": (t(1, "duchess", ch=ch(0, 1), losses="0:duchess"), 0),
    "block-str": (t(1, "foreign_aid", block="duchess"), 1),
    "block-by-str": (t(1, "foreign_aid", block=blk("0", "duchess")), 1),
    "as-int": (t(1, "foreign_aid", block=blk(0, 3)), 0),
    "block-truthful-str": (
        t(1, "foreign_aid", block=blk(0, "duchess", ch(2, "no")), losses="0:captain"),
        2,
    ),
    "losses-object": ({**t(1, "coup", 0), "losses": {"seat": 0, "card": "duchess"}}, 0),
    "loss-str": ({**t(1, "coup", 0), "losses": ["0:duchess"]}, 0),
    "loss-seat-str": ({**t(1, "coup", 0), "losses": [{"seat": "0", "card": "duchess"}]}, 0),
    "forced-swap-str": (t(1, "inquire", 2, forced_swap="yes"), 1),
    "forced-swap-on-captain": (t(1, "captain", 2, forced_swap=True), 1),
    "forced-swap-on-exchange": (t(1, "exchange", forced_swap=False), 1),
}


@pytest.mark.parametrize("name", MALFORMED_TURNS)
def test_malformed_turn_fields(name: str) -> None:
    # docs/complots-engine.md: actor/target/by/seat not ints, challenge/block not objects,
    # truthful not bool, losses not a list of {seat, card} objects, forced_swap not a bool or
    # not on inquire, `as` not a string. Seat 1 has 2 + 3 + 3 = 8 coins on turn 8: it may coup.
    turn, owner = MALFORMED_TURNS[name]
    before = [t(0, "income"), t(1, "duchess"), t(2, "income"), t(0, "income"), t(1, "duchess")]
    before += [t(2, "income"), t(0, "income")]
    log = make_log(3, [*before, turn], variant="inquisitor")
    err = rejected(log)
    assert (err.code, err.round, err.turn) == ("malformed", 8, 8), repr(err)
    assert err.seat in (None, 1, owner), repr(err)


# --- Turns: order, actions, coins, targets -------------------------------------------------------


def complete_game() -> list[dict[str, Any]]:
    """2 players: seat 0 coups twice and wins on turn 13 (1 + 3 + 3 = 7, then 7 again)."""
    return [
        t(0, "duchess"),  # 0: 4
        t(1, "income"),  # 1: 3
        t(0, "duchess"),  # 0: 7
        t(1, "income"),  # 1: 4
        t(0, "coup", 1, losses="1:duchess"),  # 0: 0
        t(1, "income"),  # 1: 5
        t(0, "duchess"),  # 0: 3
        t(1, "income"),  # 1: 6
        t(0, "duchess"),  # 0: 6
        t(1, "income"),  # 1: 7
        t(0, "income"),  # 0: 7
        t(1, "income"),  # 1: 8
        t(0, "coup", 1, losses="1:captain"),  # seat 1 out: game won (turn 13)
    ]


@pytest.mark.parametrize("actor", [1, 0])
def test_game_over(actor: int) -> None:
    # K5: nothing after the game is won (seat 1, the loser, or seat 0 the winner); seat = actor
    log = make_log(2, [*complete_game(), t(actor, "income")])
    assert ENGINE.replay(make_log(2, complete_game()))["complete"] is True
    assert_error(log, "game_over", 14, actor)


@pytest.mark.parametrize("actor", [2, 0, 5, -1])
def test_out_of_turn(actor: int) -> None:
    # turn 2 is seat 1's (clockwise from first_player 0)
    assert_error(make_log(3, [t(0, "income"), t(actor, "income")]), "out_of_turn", 2, actor)


def test_out_of_turn_eliminated_player() -> None:
    # Example 2: seat 2 is out on turn 1; turn 2 is seat 1's, and turn 3 skips seat 2:
    # it is seat 0's.
    turn = t(
        0,
        "captain",
        1,
        ch=ch(2, True),
        block=blk(1, "ambassador", ch(2, True)),
        losses="2:duchess 2:countess",
    )
    log = make_log(3, [turn, t(1, "income"), t(2, "income")])
    assert_error(log, "out_of_turn", 3, 2)


@pytest.mark.parametrize("action", ["steal", "Income", "", "ambassador", "assassinate"])
def test_unknown_action(action: str) -> None:
    assert_error(make_log(3, [t(0, "income"), t(1, action)]), "unknown_action", 2, 1)


def test_action_not_in_variant() -> None:
    # inquire claims the inquisitor, not in an ambassador game
    log = make_log(3, [t(0, "income"), t(1, "inquire", 2)], variant="ambassador")
    assert_error(log, "action_not_in_variant", 2, 1)


def test_forced_coup() -> None:
    # seat 0 (1 coin in a 2-player game): 1 + 3 + 3 + 3 = 10 at the start of turn 7
    turns = [t(0, "duchess"), t(1, "income")] * 3 + [t(0, "foreign_aid")]
    assert_error(make_log(2, turns), "forced_coup", 7, 0)


def test_not_enough_coins_coup() -> None:
    # seat 1: 2 + 3 + 1 = 6 coins on turn 8; a coup needs 7
    turns = [t(0, "income"), t(1, "duchess"), t(2, "income")]
    turns += [t(0, "income"), t(1, "income"), t(2, "income"), t(0, "income")]
    turns.append(t(1, "coup", 0, losses="0:duchess"))
    assert_error(make_log(3, turns), "not_enough_coins", 8, 1)


@pytest.mark.parametrize("challenge", [None, ch(0, False)], ids=["plain", "challenged"])
def test_not_enough_coins_assassin(challenge: dict[str, Any] | None) -> None:
    # seat 1 has 2 coins on turn 2; declaring an assassination needs 3 (even a bluff)
    losses = "1:duchess" if challenge else "0:duchess"
    turns = [t(0, "income"), t(1, "assassin", 0, ch=challenge, losses=losses)]
    assert_error(make_log(3, turns), "not_enough_coins", 2, 1)


@pytest.mark.parametrize(
    "turn",
    [
        t(1, "captain"),
        t(1, "assassin"),
        t(1, "inquire"),
        t(1, "income", 2),
        t(1, "duchess", 2),
        t(1, "foreign_aid", 0),
        t(1, "exchange", 0),
        t(1, "captain", 1),
        t(1, "captain", 3),
        t(1, "captain", -1),
    ],
    ids=[
        "captain-none",
        "assassin-none",
        "inquire-none",
        "income-target",
        "duchess-target",
        "aid-target",
        "exchange-target",
        "self",
        "not-a-seat",
        "negative",
    ],
)
def test_bad_target(turn: dict[str, Any]) -> None:
    # seat 1 has 2 + 1 = 3 coins: enough to assassinate
    log = make_log(3, [t(0, "income"), t(1, "income"), t(2, "income"), t(0, "income"), turn])
    log["variant"] = "inquisitor"
    assert_error(log, "bad_target", 5, 1)


def test_bad_target_coup_missing() -> None:
    # seat 0: 1 + 3 + 3 = 7 coins in a 2-player game
    turns = [t(0, "duchess"), t(1, "income"), t(0, "duchess"), t(1, "income"), t(0, "coup")]
    assert_error(make_log(2, turns), "bad_target", 5, 0)


def test_bad_target_eliminated() -> None:
    # seat 2 out on turn 1 (Example 2); seat 1 then targets it
    turn = t(
        0,
        "captain",
        1,
        ch=ch(2, True),
        block=blk(1, "ambassador", ch(2, True)),
        losses="2:duchess 2:countess",
    )
    assert_error(make_log(3, [turn, t(1, "captain", 2)]), "bad_target", 2, 1)


# --- Challenges and blocks -----------------------------------------------------------------------


@pytest.mark.parametrize("action", ["income", "foreign_aid", "coup"])
def test_not_challengeable(action: str) -> None:
    # no claim, nothing to challenge; seat 0 has 1 + 3 + 3 = 7 coins for the coup
    turns = [t(0, "duchess"), t(1, "income"), t(0, "duchess"), t(1, "income")]
    target = 1 if action == "coup" else None
    losses = "1:duchess" if action == "coup" else ""
    turns.append(t(0, action, target, ch=ch(1, True), losses=losses))
    assert_error(make_log(2, turns), "not_challengeable", 5, 1)


@pytest.mark.parametrize(("by", "seat"), [(1, 1), (3, 3), (-1, -1)], ids=["actor", "far", "neg"])
def test_bad_challenger_of_a_claim(by: int, seat: int) -> None:
    turns = [t(0, "income"), t(1, "duchess", ch=ch(by, True), losses=f"{by}:captain")]
    assert_error(make_log(3, turns), "bad_challenger", 2, seat)


def test_bad_challenger_eliminated() -> None:
    # Example 2: seat 2 out on turn 1; it challenges seat 1's duchess on turn 2
    turn = t(
        0,
        "captain",
        1,
        ch=ch(2, True),
        block=blk(1, "ambassador", ch(2, True)),
        losses="2:duchess 2:countess",
    )
    log = make_log(3, [turn, t(1, "duchess", ch=ch(2, False), losses="1:captain")])
    assert_error(log, "bad_challenger", 2, 2)


def test_bad_challenger_of_a_block_is_the_blocker() -> None:
    turn = t(0, "foreign_aid", block=blk(1, "duchess", ch(1, True)), losses="1:captain")
    assert_error(make_log(3, [turn]), "bad_challenger", 1, 1)


def test_bad_challenger_of_a_block_died_in_the_claim_challenge() -> None:
    # seat 2: 1 influence after turn 1; it challenges seat 0's true captain (turn 2: seat 1's
    # turn, so seat 1 claims), dies, then may not challenge seat 0's block.
    turns = [
        t(0, "duchess", ch=ch(2, True), losses="2:countess"),
        t(
            1,
            "captain",
            0,
            ch=ch(2, True),
            block=blk(0, "captain", ch(2, False)),
            losses="2:duchess 0:assassin",
        ),
    ]
    assert_error(make_log(3, turns), "bad_challenger", 2, 2)


def test_action_cancelled() -> None:
    # a caught assassin bluff is cancelled: nothing left to block (seat 0 has 3 coins)
    turn = t(0, "assassin", 1, ch=ch(2, False), block=blk(1, "countess"), losses="0:duchess")
    assert_error(make_log(3, [*incomes([0, 1, 2]), turn]), "action_cancelled", 4, 1)


@pytest.mark.parametrize("action", ["income", "duchess", "exchange", "inquire", "coup"])
def test_not_blockable(action: str) -> None:
    # K2: only foreign aid, the assassin and the captain can be blocked
    turns = [t(0, "duchess"), t(1, "income"), t(0, "duchess"), t(1, "income")]  # 0: 7 coins
    target = 1 if action in ("coup", "inquire") else None
    losses = "1:duchess" if action == "coup" else ""
    turns.append(t(0, action, target, block=blk(1, "duchess"), losses=losses))
    assert_error(make_log(2, turns, variant="inquisitor"), "not_blockable", 5, 1)


@pytest.mark.parametrize(
    ("turn", "seat"),
    [
        (t(0, "foreign_aid", block=blk(0, "duchess")), 0),  # the actor itself
        (t(0, "foreign_aid", block=blk(3, "duchess")), 3),  # not a seat
        (t(0, "captain", 1, block=blk(2, "captain")), 2),  # K2: not the target
        (t(0, "assassin", 1, block=blk(2, "countess")), 2),  # K2: not the target
        (t(0, "assassin", 1, block=blk(0, "countess")), 0),  # the actor, not the target
    ],
    ids=["aid-actor", "aid-far", "captain-other", "assassin-other", "assassin-actor"],
)
def test_bad_blocker(turn: dict[str, Any], seat: int) -> None:
    assert_error(make_log(3, [*incomes([0, 1, 2]), turn]), "bad_blocker", 4, seat)


def test_bad_blocker_eliminated() -> None:
    # Example 2: seat 2 out on turn 1; it blocks seat 1's foreign aid on turn 2
    turn = t(
        0,
        "captain",
        1,
        ch=ch(2, True),
        block=blk(1, "ambassador", ch(2, True)),
        losses="2:duchess 2:countess",
    )
    log = make_log(3, [turn, t(1, "foreign_aid", block=blk(2, "duchess"))])
    assert_error(log, "bad_blocker", 2, 2)


def test_bad_blocker_target_died_in_the_claim_challenge() -> None:
    # seat 1 (1 influence) challenges a true assassin, dies, then blocks with a countess
    turns = [
        t(0, "income"),
        t(1, "duchess", ch=ch(2, False), losses="1:countess"),
        t(2, "income"),
        t(0, "assassin", 1, ch=ch(1, True), block=blk(1, "countess"), losses="1:duchess"),
    ]
    assert_error(make_log(3, turns), "bad_blocker", 4, 1)


@pytest.mark.parametrize(
    ("turn", "variant"),
    [
        (t(0, "foreign_aid", block=blk(1, "captain")), "ambassador"),
        (t(0, "foreign_aid", block=blk(1, "countess")), "ambassador"),
        (t(0, "assassin", 1, block=blk(1, "duchess")), "ambassador"),
        (t(0, "assassin", 1, block=blk(1, "captain")), "ambassador"),
        (t(0, "captain", 1, block=blk(1, "countess")), "ambassador"),
        (t(0, "captain", 1, block=blk(1, "inquisitor")), "ambassador"),
        (t(0, "captain", 1, block=blk(1, "ambassador")), "inquisitor"),
        (t(0, "captain", 1, block=blk(1, "duke")), "inquisitor"),
    ],
    ids=[
        "aid-captain",
        "aid-countess",
        "assassin-duchess",
        "assassin-captain",
        "captain-countess",
        "captain-inquisitor-in-ambassador-game",
        "captain-ambassador-in-inquisitor-game",
        "captain-unknown",
    ],
)
def test_bad_block_character(turn: dict[str, Any], variant: str) -> None:
    log = make_log(3, [*incomes([0, 1, 2]), turn], variant=variant)
    assert_error(log, "bad_block_character", 4, 1)


# --- Losses --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "variant"),
    [
        ("duke", "ambassador"),
        ("Duchess", "ambassador"),
        ("inquisitor", "ambassador"),
        ("ambassador", "inquisitor"),
    ],
)
def test_unknown_card(card: str, variant: str) -> None:
    turn = t(0, "duchess", ch=ch(2, True), losses=f"2:{card}")
    assert_error(make_log(3, [turn], variant=variant), "unknown_card", 1, 2)


def three_duchesses_up() -> list[dict[str, Any]]:
    """3 players; after turn 3 every duchess (3 copies) is face up, one per seat."""
    return [
        t(0, "duchess", ch=ch(1, True), losses="1:duchess"),
        t(1, "duchess", ch=ch(2, True), losses="2:duchess"),
        t(2, "duchess", ch=ch(0, True), losses="0:duchess"),
    ]


def test_no_copy_left_for_a_claim() -> None:
    # 3 copies face up: seat 0 cannot show a duchess
    turn = t(0, "duchess", ch=ch(1, True), losses="1:captain")
    assert_error(make_log(3, [*three_duchesses_up(), turn]), "no_copy_left", 4, 0)


def test_no_copy_left_for_a_block() -> None:
    # seat 1 cannot show the duchess it blocks with
    turn = t(0, "foreign_aid", block=blk(1, "duchess", ch(2, True)), losses="2:captain")
    assert_error(make_log(3, [*three_duchesses_up(), turn]), "no_copy_left", 4, 1)


def test_no_copy_left_counts_losses_of_the_same_turn() -> None:
    # the claim challenge of turn 4 turns up the third captain, then seat 1's captain block
    # can no longer be true (captains face up: seat 2 turn 1, seat 0 turn 2, seat 2 turn 4)
    turns = [
        t(0, "duchess", ch=ch(2, True), losses="2:captain"),
        t(1, "duchess", ch=ch(0, True), losses="0:captain"),
        t(2, "income"),
        t(
            0,
            "captain",
            1,
            ch=ch(2, True),
            block=blk(1, "captain", ch(0, True)),
            losses="2:captain 0:countess",
        ),
    ]
    assert_error(make_log(3, turns), "no_copy_left", 4, 1)


@pytest.mark.parametrize(
    ("turn", "seat"),
    [
        (t(0, "duchess", ch=ch(2, True)), 2),  # the challenger of a true claim
        (t(0, "duchess", ch=ch(2, False)), 0),  # the caught bluffer
        (t(0, "foreign_aid", block=blk(1, "duchess", ch(0, False))), 1),  # the lying blocker
        (t(0, "foreign_aid", block=blk(1, "duchess", ch(2, True))), 2),
        (t(0, "assassin", 1), 1),  # the assassinated target
        (t(0, "assassin", 1, ch=ch(1, True), losses="1:duchess"), 1),  # its second loss
        (t(0, "assassin", 1, ch=ch(2, True), losses="2:duchess"), 1),
    ],
    ids=[
        "claim-true",
        "claim-false",
        "block-false",
        "block-true",
        "assassination",
        "double-loss-1",
        "effect-after-challenge",
    ],
)
def test_missing_loss(turn: dict[str, Any], seat: int) -> None:
    assert_error(make_log(3, [*incomes([0, 1, 2]), turn]), "missing_loss", 4, seat)


def test_missing_loss_coup() -> None:
    turns = [t(0, "duchess"), t(1, "income"), t(0, "duchess"), t(1, "income"), t(0, "coup", 1)]
    assert_error(make_log(2, turns), "missing_loss", 5, 1)


@pytest.mark.parametrize(
    ("turn", "seat"),
    [
        (t(0, "income", losses="0:duchess"), 0),  # no loss required
        (t(0, "duchess", losses="1:duchess"), 1),
        (t(0, "duchess", ch=ch(2, True), losses="1:captain"), 1),  # the wrong seat
        (t(0, "duchess", ch=ch(2, False), losses="2:captain"), 2),  # the winner loses
        (t(0, "duchess", ch=ch(2, True), losses="2:captain 2:countess"), 2),  # one too many
        (t(0, "captain", 1, block=blk(1, "captain"), losses="1:duchess"), 1),  # block stood
        (t(0, "assassin", 1, block=blk(1, "countess"), losses="1:duchess"), 1),
        (t(0, "assassin", 1, losses="1:duchess 0:duchess"), 0),
        (t(0, "assassin", 1, losses="7:duchess"), 7),
    ],
    ids=[
        "income",
        "unchallenged-claim",
        "wrong-challenger",
        "winner",
        "extra",
        "captain-blocked",
        "assassin-blocked",
        "extra-after-effect",
        "not-a-seat",
    ],
)
def test_unexpected_loss(turn: dict[str, Any], seat: int) -> None:
    assert_error(make_log(3, [*incomes([0, 1, 2]), turn]), "unexpected_loss", 4, seat)


def test_unexpected_loss_of_an_eliminated_player() -> None:
    # a player out after its first loss of the turn never loses again: the assassination's
    # loss vanishes (seat 1 has 1 influence after turn 2)
    turns = [
        t(0, "income"),
        t(1, "duchess", ch=ch(2, False), losses="1:countess"),
        t(2, "income"),
        t(0, "assassin", 1, ch=ch(1, True), losses="1:duchess 1:captain"),
    ]
    assert_error(make_log(3, turns), "unexpected_loss", 4, 1)


@pytest.mark.parametrize(
    ("turn", "seat"),
    [
        (t(0, "duchess", ch=ch(1, False), losses="0:duchess"), 0),
        (t(0, "captain", 1, ch=ch(1, False), losses="0:captain"), 0),
        (t(0, "assassin", 1, ch=ch(2, False), losses="0:assassin"), 0),
        (t(0, "exchange", ch=ch(2, False), losses="0:ambassador"), 0),
        (t(0, "foreign_aid", block=blk(2, "duchess", ch(0, False)), losses="2:duchess"), 2),
        (t(0, "captain", 1, block=blk(1, "ambassador", ch(0, False)), losses="1:ambassador"), 1),
        (t(0, "assassin", 1, block=blk(1, "countess", ch(2, False)), losses="1:countess"), 1),
    ],
    ids=["duchess", "captain", "assassin", "exchange", "aid-block", "captain-block", "countess"],
)
def test_claimed_card_lost(turn: dict[str, Any], seat: int) -> None:
    # a caught bluffer's loss may not be the character it claimed
    assert_error(make_log(3, [*incomes([0, 1, 2]), turn]), "claimed_card_lost", 4, seat)


def test_claimed_card_lost_inquire() -> None:
    turn = t(0, "inquire", 1, ch=ch(1, False), losses="0:inquisitor")
    assert_error(make_log(3, [turn], variant="inquisitor"), "claimed_card_lost", 1, 0)


def test_card_not_hidden() -> None:
    # every duchess is face up: seat 1 cannot turn up a fourth one (3 copies for 3 players)
    turn = t(0, "captain", 1, ch=ch(1, True), losses="1:duchess")
    assert_error(make_log(3, [*three_duchesses_up(), turn]), "card_not_hidden", 4, 1)


def test_card_not_hidden_within_one_turn() -> None:
    # two captains up (turns 1, 2); on turn 4 seat 1 turns up the third captain to its
    # challenge, then the assassination would turn up a fourth
    turns = [
        t(0, "duchess", ch=ch(2, True), losses="2:captain"),
        t(1, "duchess", ch=ch(0, True), losses="0:captain"),
        t(2, "income"),
        t(0, "assassin", 1, ch=ch(1, True), losses="1:captain 1:captain"),
    ]
    # seat 0 has 2 + 3 = 5 coins: enough for the assassin
    assert_error(make_log(3, turns), "card_not_hidden", 4, 1)
