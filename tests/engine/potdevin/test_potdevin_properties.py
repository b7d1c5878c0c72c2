"""Property tests of the Pot de Vin engine on simulated games.

The simulator (``scoring.engine.potdevin.simulate``) plays legal games on its own; the naive
``reference`` module (no import from ``scoring``) replays and scores them from the rules file.
Every property below is checked on games drawn by hypothesis: 3 to 6 players, teams where
allowed (D9), the deal recorded or not (D4), any pass rate.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import LogError, get_engine
from scoring.engine.potdevin.simulate import simulate
from tests.engine.potdevin import reference

ENGINE = get_engine("pot-de-vin")
SETUP = reference.SETUP  # players -> (trump pile, hand, gems each, rounds)

# Sized so the whole file runs in about 10 s on 2 cores.
FEW = settings(max_examples=100, deadline=None)
SOME = settings(max_examples=300, deadline=None)
MANY = settings(max_examples=800, deadline=None)

PASS_RATES = st.one_of(st.sampled_from([0.0, 0.25, 1.0]), st.floats(0.0, 1.0))
PLAYERS = st.integers(3, 6)


@st.composite
def games(
    draw: st.DrawFn,
    *,
    players: st.SearchStrategy[int] = PLAYERS,
    record_deal: bool | None = None,
) -> dict[str, Any]:
    """A simulated legal game log."""
    n = draw(players)
    teams = draw(st.booleans()) if n in (4, 6) else False
    seed = draw(st.integers(0, 2**32 - 1))
    record = draw(st.booleans()) if record_deal is None else record_deal
    pass_rate = draw(PASS_RATES)
    return simulate(n, seed=seed, teams=teams, record_deal=record, pass_rate=pass_rate)


def engine_view(result: dict[str, Any]) -> dict[str, Any]:
    """The fields of an engine result that ``reference.replay`` also computes."""
    return {
        "complete": result["complete"],
        "rounds_played": result["rounds_played"],
        "players": [
            {
                k: p[k]
                for k in (
                    "seat",
                    "cards_won",
                    "gems_won",
                    "cards_in_hand",
                    "gems_in_hand",
                    "gems_paid",
                    "gems_removed",
                    "score",
                    "rank",
                )
            }
            for p in result["players"]
        ],
        "rounds": [
            {k: r[k] for k in ("round", "starter", "winner", "cards", "gems")}
            for r in result["rounds"]
        ],
        "winners": result["winners"],
        "teams": None
        if result["teams"] is None
        else [
            {k: t[k] for k in ("team", "seats", "score", "rank", "cards_won", "gems_won")}
            for t in result["teams"]
        ],
        "violations": result["violations"],
    }


def card_plays(log: dict[str, Any]) -> list[tuple[int, int]]:
    """(round index, play index) of every card played, in log order."""
    return [
        (r, i)
        for r, rnd in enumerate(log["rounds"])
        for i, play in enumerate(rnd["plays"])
        if "card" in play
    ]


def rejected(log: dict[str, Any]) -> LogError:
    with pytest.raises(LogError) as info:
        ENGINE.replay(log)
    return info.value


def assert_error(err: LogError, code: str, round_: int | None, seat: int | None) -> None:
    assert (err.code, err.round, err.seat) == (code, round_, seat), repr(err)


# --- The engine agrees with the reference -----------------------------------------------------


@MANY
@given(games())
def test_engine_agrees_with_reference(log: dict[str, Any]) -> None:
    # rules D1-D9 all at once: rounds, D2 skips, D3 end, D5 Jokers, D6, D7 ranks, D8 teams.
    assert engine_view(ENGINE.replay(log)) == reference.replay(log)


@SOME
@given(games(), st.data())
def test_partial_log_agrees_with_reference(log: dict[str, Any], data: st.DataObject) -> None:
    # A partial log (game in progress) is scored as if it ended now.
    k = data.draw(st.integers(0, len(log["rounds"])), label="rounds kept")
    partial = {**log, "rounds": log["rounds"][:k]}
    result = ENGINE.replay(partial)
    assert engine_view(result) == reference.replay(partial)
    assert result["rounds_played"] == k
    assert result["complete"] == (k == len(log["rounds"]))


# --- Conservation -----------------------------------------------------------------------------


@MANY
@given(games())
def test_cards_and_gems_are_conserved(log: dict[str, Any]) -> None:
    result = ENGINE.replay(log)
    n = len(log["players"])
    pile, hand, gems_each, rounds_total = SETUP[n]
    players = result["players"]
    won = sum(p["cards_won"] for p in players)
    held = sum(p["cards_in_hand"] for p in players)
    # 6 players: the 4 trump cards stay in the centre; else D3: unrevealed trumps are set aside.
    set_aside = 4 if n == 6 else pile - result["rounds_played"]
    assert won + held + set_aside == 52
    assert n * hand + pile == 52
    assert held == n * hand - sum(len(r["cards"]) for r in result["rounds"]) + (
        0 if n == 6 else result["rounds_played"]
    )
    assert sum(p["gems_won"] for p in players) == sum(p["gems_paid"] for p in players)
    assert n * gems_each == sum(
        p["gems_won"] + p["gems_in_hand"] + p["gems_removed"] for p in players
    )
    for p in players:
        assert p["gems_in_hand"] + p["gems_paid"] + p["gems_removed"] == gems_each
        if p["cards_in_hand"]:
            assert p["gems_removed"] == 0  # D2 removes only the gems of an empty hand
        else:
            assert p["gems_in_hand"] == 0
    assert sum(r["gems"] for r in result["rounds"]) == sum(p["gems_won"] for p in players)
    assert sum(p["rounds_won"] for p in players) == result["rounds_played"]
    # D3: the game ended after the last trump, or earlier because nobody holds a card.
    assert result["complete"]
    assert result["rounds_played"] == rounds_total or held == 0


@SOME
@given(games())
def test_breakdown_adds_up(log: dict[str, Any]) -> None:
    result = ENGINE.replay(log)
    units = result["teams"] or result["players"]
    for unit in units:
        b = unit["breakdown"]
        parts = (
            b["guild_points"]
            + b["bonus"]["points"]
            + b["malus"]["points"]
            + b["pot_de_vin"]["points"]
            + b["gems"]["points"]
        )
        assert b["total"] == parts == unit["score"]
        assert b["guild_points"] == sum(g["points"] for g in b["guilds"].values())
        assert b["jokers"]["held"] == len(b["jokers"]["placed"]) + b["jokers"]["discarded"]


# --- Determinism and round-by-round replay ----------------------------------------------------


@SOME
@given(games())
def test_replay_is_deterministic(log: dict[str, Any]) -> None:
    before = copy.deepcopy(log)
    first = ENGINE.replay(log)
    assert ENGINE.replay(log) == first
    assert ENGINE.replay(copy.deepcopy(log)) == first
    assert log == before  # the log is not changed by a replay


@SOME
@given(games())
def test_round_by_round_equals_replay(log: dict[str, Any]) -> None:
    state = ENGINE.start(log)
    for rnd in log["rounds"]:
        old = ENGINE.result(state)
        new = ENGINE.apply_round(state, rnd)
        assert ENGINE.result(state) == old  # apply_round leaves its input as it was
        state = new
    assert ENGINE.result(state) == ENGINE.replay(log)


@FEW
@given(games(), st.data())
def test_failed_apply_round_leaves_the_state(log: dict[str, Any], data: st.DataObject) -> None:
    k = data.draw(st.integers(0, len(log["rounds"]) - 1), label="round")
    state = ENGINE.start(log)
    for rnd in log["rounds"][:k]:
        state = ENGINE.apply_round(state, rnd)
    old = ENGINE.result(state)
    bad = copy.deepcopy(log["rounds"][k])
    bad["plays"][0] = {"seat": bad["plays"][0]["seat"], "pass": True}
    with pytest.raises(LogError):
        ENGINE.apply_round(state, bad)
    assert ENGINE.result(state) == old
    assert ENGINE.result(ENGINE.apply_round(state, log["rounds"][k])) == ENGINE.replay(
        {**log, "rounds": log["rounds"][: k + 1]}
    )


# --- Valid logs -------------------------------------------------------------------------------


@SOME
@given(
    st.integers(3, 6),
    st.booleans(),
    st.integers(0, 2**32 - 1),
    PASS_RATES,
)
def test_valid_logs_have_no_violations(n: int, teams: bool, seed: int, pass_rate: float) -> None:
    # rules D4: with the deal recorded or not, a legal game has no revoke.
    teams = teams and n in (4, 6)
    dealt = simulate(n, seed=seed, teams=teams, record_deal=True, pass_rate=pass_rate)
    bare = simulate(n, seed=seed, teams=teams, record_deal=False, pass_rate=pass_rate)
    assert bare["rounds"] == dealt["rounds"] and bare["hands"] is None
    with_deal = ENGINE.replay(dealt)
    without = ENGINE.replay(bare)
    assert with_deal["violations"] == []
    assert without["violations"] == []
    # Recording the deal changes the checks, never the result.
    assert with_deal == without


# --- Single corruptions are rejected with the right code, round and seat ----------------------


@SOME
@given(games(), st.data())
def test_duplicated_card(log: dict[str, Any], data: st.DataObject) -> None:
    # rules D4: a card played twice is impossible. The replaced play keeps its seat and turn,
    # and the card was played (so it is not in the trump pile): in the engine's check order
    # (seat and turn, card_in_trump_pile, duplicate_card, not_in_hand, revoke) duplicate_card
    # is the first rule broken, whatever the character of the card.
    plays = card_plays(log)
    target = data.draw(st.integers(1, len(plays) - 1), label="target")
    source = data.draw(st.integers(0, target - 1), label="source")
    (r1, i1), (r2, i2) = plays[source], plays[target]
    bad = copy.deepcopy(log)
    bad["rounds"][r2]["plays"][i2]["card"] = log["rounds"][r1]["plays"][i1]["card"]
    seat = log["rounds"][r2]["plays"][i2]["seat"]
    assert_error(rejected(bad), "duplicate_card", r2 + 1, seat)


@SOME
@given(games(), st.data())
def test_starter_passes(log: dict[str, Any], data: st.DataObject) -> None:
    r = data.draw(st.integers(0, len(log["rounds"]) - 1), label="round")
    bad = copy.deepcopy(log)
    seat = bad["rounds"][r]["plays"][0]["seat"]
    bad["rounds"][r]["plays"][0] = {"seat": seat, "pass": True}
    assert_error(rejected(bad), "starter_passed", r + 1, seat)


@SOME
@given(games(), st.data())
def test_swapped_turn(log: dict[str, Any], data: st.DataObject) -> None:
    candidates = [r for r, rnd in enumerate(log["rounds"]) if len(rnd["plays"]) >= 2]
    r = data.draw(st.sampled_from(candidates), label="round")
    bad = copy.deepcopy(log)
    plays = bad["rounds"][r]["plays"]
    plays[0], plays[1] = plays[1], plays[0]
    assert_error(rejected(bad), "out_of_turn", r + 1, plays[0]["seat"])


@SOME
@given(games(), st.data())
def test_missing_turn(log: dict[str, Any], data: st.DataObject) -> None:
    candidates = [r for r, rnd in enumerate(log["rounds"]) if len(rnd["plays"]) >= 2]
    r = data.draw(st.sampled_from(candidates), label="round")
    bad = copy.deepcopy(log)
    missing = bad["rounds"][r]["plays"].pop()["seat"]
    assert_error(rejected(bad), "out_of_turn", r + 1, missing)


@SOME
@given(games(), st.data())
def test_round_after_the_end(log: dict[str, Any], data: st.DataObject) -> None:
    # rules D3: the simulated game is complete; one more round is impossible.
    assert ENGINE.replay(log)["complete"]
    r = data.draw(st.integers(0, len(log["rounds"]) - 1), label="copied round")
    bad = copy.deepcopy(log)
    bad["rounds"].append(copy.deepcopy(log["rounds"][r]))
    assert_error(rejected(bad), "too_many_rounds", len(log["rounds"]) + 1, None)


@SOME
@given(games(players=st.integers(3, 5)), st.data())
def test_trump_reused(log: dict[str, Any], data: st.DataObject) -> None:
    r2 = data.draw(st.integers(1, len(log["rounds"]) - 1), label="round")
    r1 = data.draw(st.integers(0, r2 - 1), label="earlier round")
    bad = copy.deepcopy(log)
    bad["rounds"][r2]["trump"] = log["rounds"][r1]["trump"]
    assert_error(rejected(bad), "trump_reused", r2 + 1, None)


@FEW
@given(games(players=st.just(6)), st.data())
def test_trump_reused_in_a_cycle_6p(log: dict[str, Any], data: st.DataObject) -> None:
    # 6 players: each cycle of 4 rounds reveals the 4 cards once each.
    r2 = data.draw(st.sampled_from([r for r in range(len(log["rounds"])) if r % 4]), label="round")
    r1 = data.draw(st.integers(r2 - r2 % 4, r2 - 1), label="earlier round of the cycle")
    bad = copy.deepcopy(log)
    bad["rounds"][r2]["trump"] = log["rounds"][r1]["trump"]
    assert_error(rejected(bad), "trump_reused", r2 + 1, None)


@SOME
@given(games(), st.data())
def test_card_from_the_trump_pile(log: dict[str, Any], data: st.DataObject) -> None:
    # rules D4: a card played that lies in the trump pile (here: revealed as trump already, or
    # this round's trump; with the deal recorded, any card of the pile).
    r, i = data.draw(st.sampled_from(card_plays(log)), label="play")
    pile = [rnd["trump"] for rnd in log["rounds"][: r + 1]]
    if log["trump_pile"] is not None:
        pile += log["trump_pile"]
    card = data.draw(st.sampled_from(pile), label="trump card")
    bad = copy.deepcopy(log)
    bad["rounds"][r]["plays"][i]["card"] = card
    assert_error(rejected(bad), "card_in_trump_pile", r + 1, log["rounds"][r]["plays"][i]["seat"])


@SOME
@given(games(), st.data())
def test_unknown_card(log: dict[str, Any], data: st.DataObject) -> None:
    r, i = data.draw(st.sampled_from(card_plays(log)), label="play")
    card = data.draw(st.sampled_from(["A14", "A0", "X5", "U", "a7", "P 4"]), label="card")
    bad = copy.deepcopy(log)
    bad["rounds"][r]["plays"][i]["card"] = card
    assert_error(rejected(bad), "unknown_card", r + 1, log["rounds"][r]["plays"][i]["seat"])


def plays_without_gems(log: dict[str, Any]) -> list[tuple[int, int]]:
    """(round index, play index) of the cards played, not as starter, by a seat that had paid
    every gem by then (gems only leave a hand by passes while it holds cards, D2)."""
    n = len(log["players"])
    gems = [SETUP[n][2]] * n
    found = []
    for r, rnd in enumerate(log["rounds"]):
        for i, play in enumerate(rnd["plays"]):
            if "card" in play and i > 0 and gems[play["seat"]] == 0:
                found.append((r, i))
        for play in rnd["plays"]:
            if play.get("pass"):
                gems[play["seat"]] -= 1
    return found


@SOME
@given(games(), st.data())
def test_pass_without_gems(log: dict[str, Any], data: st.DataObject) -> None:
    candidates = plays_without_gems(log)
    if not candidates:
        return  # nobody ran out of gems while holding cards (see the test below)
    r, i = data.draw(st.sampled_from(candidates), label="play")
    bad = copy.deepcopy(log)
    seat = bad["rounds"][r]["plays"][i]["seat"]
    bad["rounds"][r]["plays"][i] = {"seat": seat, "pass": True}
    assert_error(rejected(bad), "pass_without_gems", r + 1, seat)


def test_pass_without_gems_has_candidates() -> None:
    # The property above must not pass by finding nothing to edit.
    logs = [simulate(n, seed=seed, pass_rate=0.9) for n in (3, 4, 5, 6) for seed in range(5)]
    assert all(plays_without_gems(log) for log in logs)


@SOME
@given(games(record_deal=True), st.data())
def test_card_moved_between_hands(log: dict[str, Any], data: st.DataObject) -> None:
    # A card moved from one recorded hand to another: both hands have the wrong size, and the
    # header check finds the lower seat first.
    n = len(log["players"])
    a = data.draw(st.integers(0, n - 1), label="from")
    b = data.draw(st.sampled_from([s for s in range(n) if s != a]), label="to")
    bad = copy.deepcopy(log)
    card = data.draw(st.sampled_from(bad["hands"][str(a)]), label="card")
    bad["hands"][str(a)].remove(card)
    bad["hands"][str(b)].append(card)
    assert_error(rejected(bad), "bad_hands", None, min(a, b))


def first_hand_error(log: dict[str, Any]) -> tuple[str, int, int] | None:
    """The first play that the recorded hands forbid: a card not held (not_in_hand), or a card
    off the lead while holding the lead character (revoke, rules D4)."""
    hands = {int(s): set(cards) for s, cards in log["hands"].items()}
    for number, rnd in enumerate(log["rounds"], start=1):
        lead = None
        for play in rnd["plays"]:
            if "card" not in play:
                continue
            seat, card = play["seat"], play["card"]
            if card not in hands[seat]:
                return ("not_in_hand", number, seat)
            if lead is None:
                lead = card[0]
            elif card[0] != lead and any(c[0] == lead for c in hands[seat]):
                return ("revoke", number, seat)
            hands[seat].remove(card)
    return None


@SOME
@given(games(record_deal=True), st.data())
def test_cards_swapped_between_hands(log: dict[str, Any], data: st.DataObject) -> None:
    # The hands keep their sizes, but a card that seat a plays is now recorded in seat b's
    # hand: the engine checks every play against the recorded hand (D4), so the first play the
    # new deal forbids is rejected, as not_in_hand or as a revoke.
    n = len(log["players"])
    r, i = data.draw(st.sampled_from(card_plays(log)), label="play")
    a = log["rounds"][r]["plays"][i]["seat"]
    card = log["rounds"][r]["plays"][i]["card"]
    b = data.draw(st.sampled_from([s for s in range(n) if s != a]), label="other seat")
    bad = copy.deepcopy(log)
    other = data.draw(st.sampled_from(bad["hands"][str(b)]), label="card back")
    bad["hands"][str(a)].remove(card)
    bad["hands"][str(a)].append(other)
    bad["hands"][str(b)].remove(other)
    bad["hands"][str(b)].append(card)
    expected = first_hand_error(bad)
    assert expected is not None  # at the latest, seat a's play of `card` is not in its hand
    code, number, seat = expected
    assert_error(rejected(bad), code, number, seat)


# --- Revokes found after the fact (rules D4) --------------------------------------------------


def revoke_edit(log: dict[str, Any], start: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Swap two cards of one seat between rounds r1 < r2 so that in r1 it plays off the lead X
    and in r2 it plays the X card it had followed with. Returns the edited log and the revoke
    it must report, for the first candidate (from ``start``, cyclically) that keeps the log
    legal without the deal: every round winner is unchanged, so the turn order is too."""
    plays = card_plays(log)
    original = reference.replay(log)
    candidates = []
    for r1, i1 in plays:
        if i1 == 0:
            continue  # the starter sets the lead
        p1 = log["rounds"][r1]["plays"][i1]
        lead = log["rounds"][r1]["plays"][0]["card"][0]
        if p1["card"][0] != lead:
            continue
        for r2, i2 in plays:
            p2 = log["rounds"][r2]["plays"][i2]
            if r2 > r1 and p2["seat"] == p1["seat"] and p2["card"][0] != lead:
                candidates.append((r1, i1, r2, i2))
    if not candidates:
        return None
    start %= len(candidates)
    for r1, i1, r2, i2 in candidates[start:] + candidates[:start]:
        bad = copy.deepcopy(log)
        p1 = bad["rounds"][r1]["plays"][i1]
        p2 = bad["rounds"][r2]["plays"][i2]
        p1["card"], p2["card"] = p2["card"], p1["card"]
        try:
            edited = reference.replay(bad)
        except AssertionError:
            continue
        if [r["winner"] for r in edited["rounds"]] != [r["winner"] for r in original["rounds"]]:
            continue
        seat = p1["seat"]
        lead = bad["rounds"][r1]["plays"][0]["card"][0]
        proof = next(
            (r + 1, p["card"])
            for r, i in plays
            if r > r1
            for p in [bad["rounds"][r]["plays"][i]]
            if p["seat"] == seat and p["card"][0] == lead
        )
        violation = {
            "code": "revoke",
            "round": r1 + 1,
            "seat": seat,
            "card": p1["card"],
            "lead": lead,
            "proof": {"round": proof[0], "card": proof[1]},
        }
        return bad, violation
    return None


@SOME
@given(
    st.integers(3, 6),
    st.booleans(),
    st.integers(0, 2**32 - 1),
    PASS_RATES,
    st.integers(0, 10**6),
)
def test_revoke_found_after_the_fact(
    n: int, teams: bool, seed: int, pass_rate: float, start: int
) -> None:
    teams = teams and n in (4, 6)
    bare = simulate(n, seed=seed, teams=teams, record_deal=False, pass_rate=pass_rate)
    edit = revoke_edit(bare, start)
    if edit is None:
        return  # no seat ever followed and later played off that character (very rare)
    bad, violation = edit
    result = ENGINE.replay(bad)
    assert violation in result["violations"]
    assert result["violations"] == reference.replay(bad)["violations"]
    assert engine_view(result) == reference.replay(bad)
    # The same edit with the deal recorded is impossible at once (D4).
    dealt = simulate(n, seed=seed, teams=teams, record_deal=True, pass_rate=pass_rate)
    assert dealt["rounds"] == bare["rounds"]
    dealt["rounds"] = bad["rounds"]
    assert_error(rejected(dealt), "revoke", violation["round"], violation["seat"])


def test_revoke_edit_finds_candidates() -> None:
    # The property above must not pass by finding nothing to edit.
    found = sum(
        revoke_edit(simulate(n, seed=seed, record_deal=False), 0) is not None
        for n in (3, 4, 5, 6)
        for seed in range(10)
    )
    assert found >= 36
