"""A checked Complots turn as it happens (K3): the claim's challenge, the cost, the block and
its challenge, then the action's effect, each loss of influence matched to the next one the log
lists."""

from __future__ import annotations

from scoring.engine.complots.reading import _error
from scoring.engine.complots.rules import (
    ASSASSIN_COST,
    ASSASSINATE,
    BLOCKED,
    CANCELLED,
    CAPTAIN_STEAL,
    CHARACTER_CODES,
    CHARACTER_NAMES,
    COUP,
    COUP_COST,
    DONE,
    DUCHESS_COINS,
    DUCHESS_TAX,
    FOREIGN_AID,
    FOREIGN_AID_COINS,
    INCOME,
    INCOME_COINS,
    STEAL,
)
from scoring.engine.complots.state import State, _Turn
from scoring.engine.errors import Code, LogError, Seat, said


def _resolve(st: State, turn: _Turn) -> str:
    """Play a checked turn; returns its outcome. Losses come in order (K3): the claim's
    challenge, the block's challenge, then the coup or assassination."""
    actor = turn.actor
    if turn.claim >= 0:
        st.claims_made[actor] = st.claims_made[actor] + 1
    if turn.has_challenge:
        _claim_challenged(st, turn)
    if turn.cancelled:
        return CANCELLED
    action = turn.action
    coins = st.coins
    if action == ASSASSINATE:  # K5: paid once the claim stands, before any block
        coins[actor] = coins[actor] - ASSASSIN_COST
        st.treasury = st.treasury + ASSASSIN_COST
    elif action == COUP:
        coins[actor] = coins[actor] - COUP_COST
        st.treasury = st.treasury + COUP_COST
    if turn.has_block and _block_stands(st, turn):
        return BLOCKED
    _take_effect(st, turn)
    return DONE


def _claim_challenged(st: State, turn: _Turn) -> None:
    """A true claim costs the challenger an influence; a bluff costs the actor one, which may not
    be the character it claimed."""
    actor = turn.actor
    challenger = turn.challenger
    st.challenges_made[challenger] = st.challenges_made[challenger] + 1
    if turn.truthful:
        _lose(st, turn, challenger, -1, actor)
    else:
        st.bluffs_caught[actor] = st.bluffs_caught[actor] + 1
        st.challenges_won[challenger] = st.challenges_won[challenger] + 1
        _lose(st, turn, actor, turn.claim, challenger)


def _block_stands(st: State, turn: _Turn) -> bool:
    """The block, and its challenge if any: whether the block stands."""
    blocker = turn.blocker
    st.blocks_made[blocker] = st.blocks_made[blocker] + 1
    if turn.has_block_challenge:
        block_challenger = turn.block_challenger
        block_char = turn.block_char
        st.challenges_made[block_challenger] = st.challenges_made[block_challenger] + 1
        if not turn.block_truthful:
            st.bluffs_caught[blocker] = st.bluffs_caught[blocker] + 1
            st.challenges_won[block_challenger] = st.challenges_won[block_challenger] + 1
            _lose(st, turn, blocker, block_char, block_challenger)
            return False
        if st.up[block_char] >= st.copies:  # turned up earlier in this turn
            raise _no_copy_left(block_char, turn.tno, blocker)
        _lose(st, turn, block_challenger, -1, blocker)
    st.blocks_standing[blocker] = st.blocks_standing[blocker] + 1
    return True


def _take_effect(st: State, turn: _Turn) -> None:
    """The action's effect, once nothing stopped it."""
    action = turn.action
    actor = turn.actor
    target = turn.target
    coins = st.coins
    if action in (COUP, ASSASSINATE):
        if st.hidden[target]:  # a player already eliminated loses nothing more
            st.influences_taken[actor] = st.influences_taken[actor] + 1
            _lose(st, turn, target, -1, actor)
    elif action == STEAL:
        taken = min(CAPTAIN_STEAL, coins[target])
        coins[target] = coins[target] - taken
        coins[actor] = coins[actor] + taken
        st.coins_gained[actor] = st.coins_gained[actor] + taken
        st.coins_lost_to_captains[target] = st.coins_lost_to_captains[target] + taken
    elif action in (INCOME, FOREIGN_AID, DUCHESS_TAX):
        if action == INCOME:
            amount = INCOME_COINS
        elif action == FOREIGN_AID:
            amount = FOREIGN_AID_COINS
        else:
            amount = DUCHESS_COINS
        if amount > st.treasury:  # K1: takes what is there
            amount = st.treasury
        st.treasury = st.treasury - amount
        coins[actor] = coins[actor] + amount
        st.coins_gained[actor] = st.coins_gained[actor] + amount


def _lose(st: State, turn: _Turn, seat: int, forbidden: int, credit: int) -> None:
    """Seat ``seat`` must lose one influence now: match it to the next listed loss and apply it.

    ``forbidden`` is the character a caught bluffer claimed (-1: any); ``credit`` is the seat
    credited if the loss eliminates ``seat`` (K5).
    """
    tno = turn.tno
    listed = turn.listed
    k = turn.k
    if k >= len(listed):
        raise _error(
            "missing_loss",
            said(
                "{seat} must lose an influence here, and {losses} lists no more",
                seat=Seat(seat),
                losses=Code("losses"),
            ),
            tno,
            seat,
        )
    loss = listed[k]
    by: int = loss["seat"]
    if by != seat:
        raise _error(
            "unexpected_loss",
            said(
                "the loss at position {position} must be by {seat}, not {by}",
                position=k + 1,
                seat=Seat(seat),
                by=Seat(by),
            ),
            tno,
            by,
        )
    name: str = loss["card"]
    card = CHARACTER_CODES[name]
    if card == forbidden:
        raise _error(
            "claimed_card_lost",
            said(
                "{seat} was caught bluffing the {character}: it cannot turn one up",
                seat=Seat(seat),
                character=Code(name, quoted=False),
            ),
            tno,
            seat,
        )
    up = st.up
    if up[card] >= st.copies:
        raise _error(
            "card_not_hidden",
            said(
                "every {character} is already face up; {seat} cannot hold one",
                character=Code(name, quoted=False),
                seat=Seat(seat),
            ),
            tno,
            seat,
        )
    turn.k = k + 1
    up[card] = up[card] + 1
    st.face_up[seat].append(card)
    turn.done.append({"seat": seat, "card": CHARACTER_NAMES[card]})
    left = st.hidden[seat] - 1
    st.hidden[seat] = left
    if not left:  # eliminated at once: coins back to the Treasury (K1)
        st.treasury = st.treasury + st.coins[seat]
        st.coins[seat] = 0
        st.alive = st.alive - 1
        st.eliminated_on[seat] = tno
        st.elim_order.append(seat)
        turn.eliminated.append(seat)
        st.players_eliminated[credit] = st.players_eliminated[credit] + 1


def _no_copy_left(card: int, tno: int, seat: int) -> LogError:
    return _error(
        "no_copy_left",
        said(
            "every {character} is already face up: {seat} cannot show one",
            character=Code(CHARACTER_NAMES[card], quoted=False),
            seat=Seat(seat),
        ),
        tno,
        seat,
    )
