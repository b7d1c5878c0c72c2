"""Reading a Complots log's turns: each turn's shape, then the rules checked in the order
docs/complots-engine.md gives, then the turn as it happens, applied to the game state.

Every check raises ``LogError`` before the log is accepted; nothing here draws chance (hidden
cards are never known: the log says only which cards were turned face up). Characters and
actions are small integers (see ``rules``), because replaying whole stored archives is a hot
path. For the same reason list items are updated as ``a[i] = a[i] + x`` (compiled,
``a[i] += x`` is a generic operation) and a turn is read once (``reading``), its shape checked
as it is read, into a ``_Turn`` the checks and the turn's play then share. The header checks
are in ``header``, and importable from here.
"""

from __future__ import annotations

from typing import Any

from scoring.engine.complots.header import check_players, check_variant, start_state
from scoring.engine.complots.reading import _error, _read_turn
from scoring.engine.complots.resolve import _no_copy_left, _resolve
from scoring.engine.complots.rules import (
    ACTION_CLAIMS,
    ACTION_CODES,
    ACTION_NAMES,
    ASSASSIN_COST,
    ASSASSINATE,
    BLOCK_BY_TARGET_ONLY,
    BLOCKABLE,
    BLOCKERS,
    CHARACTER_CODES,
    COUP,
    COUP_COST,
    FORCED_COUP_COINS,
    INQUIRE,
    TARGETED,
    VARIANT_AMBASSADOR,
    VARIANT_CARDS,
)
from scoring.engine.complots.state import State, _Turn
from scoring.engine.errors import Code, Seat, said

__all__ = ["State", "check_players", "check_variant", "play_turn", "start_state"]


def play_turn(st: State, entry: Any) -> None:
    """Check one turn and apply it to ``st`` in place.

    A failed check may leave ``st`` part-changed: callers that keep the state work on a copy.
    Raises ``LogError``: malformed, game_over, out_of_turn, unknown_action,
    action_not_in_variant, forced_coup, not_enough_coins, bad_target, not_challengeable,
    bad_challenger, action_cancelled, not_blockable, bad_blocker, bad_block_character,
    unknown_card, no_copy_left, missing_loss, unexpected_loss, claimed_card_lost,
    card_not_hidden.
    """
    turn = _read_turn(entry, st.turn_no + 1)
    _check_action(st, turn)
    # Who may challenge and block (the losses themselves are read afterwards).
    _check_challenge(st, turn)
    if turn.has_block:
        _check_block(st, turn)
    _check_cards(st, turn)
    outcome = _resolve(st, turn)
    tno = turn.tno
    actor = turn.actor
    listed = turn.listed
    if turn.k < len(listed):
        extra = listed[turn.k]["seat"]
        raise _error(
            "unexpected_loss",
            said(
                "no more loss is required in turn {turn}; {seat} loses nothing more",
                turn=tno,
                seat=Seat(extra),
            ),
            tno,
            extra,
        )

    st.turn_no = tno
    hidden = st.hidden
    if st.alive > 1:
        for s in st.rings[actor]:  # the next live seat clockwise after the actor
            if hidden[s]:
                st.current = s
                break
    st.turns.append(
        {
            "turn": tno,
            "actor": actor,
            "action": ACTION_NAMES[turn.action],
            "target": turn.target if turn.has_target else None,
            "outcome": outcome,
            "losses": turn.done,
            "eliminated": turn.eliminated,
        }
    )


def _check_action(st: State, turn: _Turn) -> None:
    """The actor may take the action now: the game goes on, the turn is the actor's, the action
    is one of the variant's, allowed and paid for with the coins the actor starts with, and
    aimed at a live player when it takes one. Sets ``turn.action``."""
    tno = turn.tno
    actor = turn.actor
    action_value = turn.action_value
    has_target = turn.has_target
    target = turn.target
    n = st.players
    hidden = st.hidden
    coins = st.coins
    if st.alive <= 1:  # K5: nothing comes after the game is won
        raise _error(
            "game_over",
            said("the game was won on turn {turn}; no turn comes after", turn=st.turn_no),
            tno,
            actor,
        )
    if actor != st.current:
        raise _error(
            "out_of_turn",
            said(
                "{current} plays turn {turn}, not {actor}",
                current=Seat(st.current),
                turn=tno,
                actor=Seat(actor),
            ),
            tno,
            actor,
        )
    action = ACTION_CODES.get(action_value, -1) if type(action_value) is str else -1
    if action < 0:
        raise _error(
            "unknown_action",
            said(
                "{action!r} is not an action (one of {actions})",
                action=action_value,
                actions=", ".join(ACTION_NAMES),
            ),
            tno,
            actor,
        )
    variant = st.variant
    if action == INQUIRE and variant == VARIANT_AMBASSADOR:
        raise _error(
            "action_not_in_variant",
            said("{inquire} needs the inquisitor variant", inquire=Code("inquire")),
            tno,
            actor,
        )
    start_coins = coins[actor]
    if start_coins >= FORCED_COUP_COINS and action != COUP:
        raise _error(
            "forced_coup",
            said(
                "{seat} starts the turn with {coins} coins and must coup",
                seat=Seat(actor),
                coins=start_coins,
            ),
            tno,
            actor,
        )
    if (action == COUP and start_coins < COUP_COST) or (
        action == ASSASSINATE and start_coins < ASSASSIN_COST
    ):
        cost = COUP_COST if action == COUP else ASSASSIN_COST
        raise _error(
            "not_enough_coins",
            said(
                "{action} costs {cost} coins; {seat} has {coins}",
                action=Code(ACTION_NAMES[action], quoted=False),
                cost=cost,
                seat=Seat(actor),
                coins=start_coins,
            ),
            tno,
            actor,
        )
    if TARGETED[action]:
        if not has_target:
            raise _error(
                "bad_target",
                said(
                    "{action} needs a {target_key}",
                    action=Code(ACTION_NAMES[action]),
                    target_key=Code("target"),
                ),
                tno,
                actor,
            )
        if target == actor or not 0 <= target < n or not hidden[target]:
            raise _error(
                "bad_target",
                said(
                    "the target is a live player other than the actor, not {target}",
                    target=Seat(target),
                ),
                tno,
                actor,
            )
    elif has_target:
        raise _error(
            "bad_target",
            said("{action} has no target", action=Code(ACTION_NAMES[action])),
            tno,
            actor,
        )
    turn.action = action


def _check_challenge(st: State, turn: _Turn) -> None:
    """Who may challenge the claim, and what the challenge does to the rest of the turn: a
    caught bluff cancels the action, and its loser may be eliminated before any block. Sets
    ``turn.claim``, ``cancelled`` and ``dead``."""
    claim = ACTION_CLAIMS[st.variant][turn.action]
    turn.claim = claim
    if not turn.has_challenge:
        return
    tno = turn.tno
    actor = turn.actor
    challenger = turn.challenger
    hidden = st.hidden
    if claim < 0:
        raise _error(
            "not_challengeable",
            said(
                "{action} claims no character and cannot be challenged",
                action=Code(ACTION_NAMES[turn.action]),
            ),
            tno,
            challenger,
        )
    if challenger == actor or not 0 <= challenger < st.players or not hidden[challenger]:
        raise _error(
            "bad_challenger",
            said(
                "the challenger is a live player other than the actor, not {challenger}",
                challenger=Seat(challenger),
            ),
            tno,
            challenger,
        )
    truthful = turn.truthful
    loser = challenger if truthful else actor
    turn.cancelled = not truthful
    if hidden[loser] == 1:
        turn.dead = loser


def _check_block(st: State, turn: _Turn) -> None:
    """Who may block the action, as which character, and who may challenge the block. Sets
    ``turn.block_char``."""
    tno = turn.tno
    actor = turn.actor
    action = turn.action
    target = turn.target
    cancelled = turn.cancelled
    dead = turn.dead
    blocker = turn.blocker
    block_as = turn.block_as
    has_block_challenge = turn.has_block_challenge
    block_challenger = turn.block_challenger
    n = st.players
    hidden = st.hidden
    variant = st.variant
    if has_block_challenge and (
        block_challenger in (blocker, dead)
        or not 0 <= block_challenger < n
        or not hidden[block_challenger]
    ):
        raise _error(
            "bad_challenger",
            said(
                "the block's challenger is a live player other than the blocker, not {challenger}",
                challenger=Seat(block_challenger),
            ),
            tno,
            block_challenger,
        )
    if cancelled:
        raise _error(
            "action_cancelled",
            said("the claim was a bluff: the action is cancelled and cannot be blocked"),
            tno,
            blocker,
        )
    if not BLOCKABLE[action]:
        raise _error(
            "not_blockable",
            said("{action} cannot be blocked", action=Code(ACTION_NAMES[action])),
            tno,
            blocker,
        )
    if BLOCK_BY_TARGET_ONLY[action]:
        if blocker != target or blocker == dead:
            raise _error(
                "bad_blocker",
                said(
                    "only the live target ({target}) may block {action}",
                    target=Seat(target),
                    action=Code(ACTION_NAMES[action]),
                ),
                tno,
                blocker,
            )
    elif blocker == actor or not 0 <= blocker < n or not hidden[blocker]:
        raise _error(
            "bad_blocker",
            said(
                "a block comes from a live player other than the actor, not {blocker}",
                blocker=Seat(blocker),
            ),
            tno,
            blocker,
        )
    block_char = CHARACTER_CODES.get(block_as, -1)
    if block_char < 0 or not BLOCKERS[variant][action] >> block_char & 1:
        raise _error(
            "bad_block_character",
            said(
                "{character!r} does not block {action}",
                character=block_as,
                action=Code(ACTION_NAMES[action]),
            ),
            tno,
            blocker,
        )
    turn.block_char = block_char


def _check_cards(st: State, turn: _Turn) -> None:
    """The characters the losses name, then whether a truthful show was possible at all."""
    tno = turn.tno
    losses = turn.listed
    in_game = VARIANT_CARDS[st.variant]
    for loss in losses:
        code = CHARACTER_CODES.get(loss["card"], -1)
        if code < 0 or not in_game >> code & 1:
            raise _error(
                "unknown_card",
                said("{card!r} is not one of this game's characters", card=loss["card"]),
                tno,
                loss["seat"],
            )
    up = st.up
    copies = st.copies
    if turn.has_challenge and turn.truthful and up[turn.claim] >= copies:
        raise _no_copy_left(turn.claim, tno, turn.actor)
    if turn.has_block_challenge and turn.block_truthful and up[turn.block_char] >= copies:
        raise _no_copy_left(turn.block_char, tno, turn.blocker)
