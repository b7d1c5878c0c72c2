"""Reading a turn of a Complots log: its shape checked as it is read, once, before any rule
is, and the errors that say where a log went wrong."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.complots.state import _Turn
from scoring.engine.errors import Code, LogError, Said, said


def _malformed(
    message: str | Said, *, turn: int | None = None, seat: int | None = None
) -> LogError:
    return LogError("malformed", message, round=turn, seat=seat, turn=turn)


def _error(code: str, message: str | Said, turn: int, seat: int | None) -> LogError:
    return LogError(code, message, round=turn, seat=seat, turn=turn)


def _as_dict(value: Any) -> dict[str, Any] | None:
    """``value`` as a dict if it is a JSON object (or any mapping), else None."""
    if type(value) is dict:
        return value
    if isinstance(value, Mapping):
        return dict(value)
    return None


def _read_challenge(value: Any, of_block: bool, tno: int) -> tuple[int, bool]:
    """A challenge object (the claim's, or the block's when ``of_block``): (challenger seat,
    truthful)."""
    challenge = _as_dict(value)
    if challenge is None:
        if of_block:
            message = said(
                "the block's {challenge} is an object {{'by': seat, 'truthful': true|false}}",
                challenge=Code("challenge"),
            )
        else:
            message = said(
                "{challenge} is an object {{'by': seat, 'truthful': true|false}}",
                challenge=Code("challenge"),
            )
        raise _malformed(message, turn=tno)
    by = challenge.get("by")
    if type(by) is not int:
        if of_block:
            message = said(
                "the block's {challenge}: {by_key} is the challenger's seat number",
                challenge=Code("challenge"),
                by_key=Code("by"),
            )
        else:
            message = said(
                "{challenge}: {by_key} is the challenger's seat number",
                challenge=Code("challenge"),
                by_key=Code("by"),
            )
        raise _malformed(message, turn=tno)
    truthful = challenge.get("truthful")
    if type(truthful) is not bool:
        if of_block:
            message = said(
                "the block's {challenge}: {truthful} is true or false (was the claim true?)",
                challenge=Code("challenge"),
                truthful=Code("truthful"),
            )
        else:
            message = said(
                "{challenge}: {truthful} is true or false (was the claim true?)",
                challenge=Code("challenge"),
                truthful=Code("truthful"),
            )
        raise _malformed(message, turn=tno, seat=by)
    return by, truthful


def _read_losses(value: Any, tno: int) -> list[dict[str, Any]]:
    """The listed losses, each an object with an int ``seat`` and a str ``card``."""
    if value is None:
        return []
    if type(value) is not list:
        raise _malformed(
            said(
                "{losses} is a list of {{'seat': seat, 'card': character}}", losses=Code("losses")
            ),
            turn=tno,
        )
    listed: list[Any] = value
    for item in listed:
        if type(item) is not dict or type(item.get("seat")) is not int:
            break
        if type(item.get("card")) is not str:
            break
    else:
        return listed  # the usual case: JSON objects, kept as they are
    losses: list[dict[str, Any]] = []
    for item in listed:
        loss = _as_dict(item)
        if loss is None:
            raise _malformed(
                said("a loss is an object {{'seat': seat, 'card': character}}"), turn=tno
            )
        seat = loss.get("seat")
        if type(seat) is not int:
            raise _malformed(
                said("a loss's {seat_key} is a seat number", seat_key=Code("seat")), turn=tno
            )
        if type(loss.get("card")) is not str:
            raise _malformed(
                said("a loss's {card_key} is a character name", card_key=Code("card")),
                turn=tno,
                seat=seat,
            )
        losses.append(loss)
    return losses


def _read_turn(entry: Any, tno: int) -> _Turn:
    """Turn ``tno`` as the log gives it, its shape checked (malformed) before any rule is."""
    t = _as_dict(entry)
    if t is None:
        raise _malformed(
            said(
                "a turn is an object with {actor_key} and {action_key}",
                actor_key=Code("actor"),
                action_key=Code("action"),
            ),
            turn=tno,
        )
    actor = t.get("actor")
    if type(actor) is not int:
        raise _malformed(
            said("a turn's {actor_key} is a seat number", actor_key=Code("actor")), turn=tno
        )
    turn = _Turn(tno, actor)
    action_value = t.get("action")
    turn.action_value = action_value
    target_value = t.get("target")
    if target_value is not None:
        turn.has_target = True
        if type(target_value) is not int:
            raise _malformed(
                said("{target_key} is a seat number", target_key=Code("target")),
                turn=tno,
                seat=actor,
            )
        turn.target = target_value
    challenge = t.get("challenge")
    if challenge is not None:
        turn.has_challenge = True
        turn.challenger, turn.truthful = _read_challenge(challenge, False, tno)
    block_value = t.get("block")
    if block_value is not None:
        _read_block(turn, block_value)
    turn.listed = _read_losses(t.get("losses"), tno)
    forced_swap = t.get("forced_swap")
    if forced_swap is not None:
        if type(forced_swap) is not bool:
            raise _malformed(
                said("{forced_swap} is true or false", forced_swap=Code("forced_swap")),
                turn=tno,
                seat=actor,
            )
        if action_value != "inquire":
            raise _malformed(
                said(
                    "{forced_swap} belongs to an {inquire} only",
                    forced_swap=Code("forced_swap"),
                    inquire=Code("inquire"),
                ),
                turn=tno,
                seat=actor,
            )
    return turn


def _read_block(turn: _Turn, value: Any) -> None:
    """A turn's block: the blocker, the character it claims, and the block's challenge."""
    tno = turn.tno
    turn.has_block = True
    block = _as_dict(value)
    if block is None:
        raise _malformed(
            said(
                "{block} is an object {{'by': seat, 'as': character, 'challenge': ...}}",
                block=Code("block"),
            ),
            turn=tno,
        )
    by = block.get("by")
    if type(by) is not int:
        raise _malformed(
            said(
                "{block}: {by_key} is the blocker's seat number",
                block=Code("block"),
                by_key=Code("by"),
            ),
            turn=tno,
        )
    turn.blocker = by
    as_value = block.get("as")
    if type(as_value) is not str:
        raise _malformed(
            said(
                "{block}: {as_key} is the character the blocker claims",
                block=Code("block"),
                as_key=Code("as"),
            ),
            turn=tno,
            seat=by,
        )
    turn.block_as = as_value
    inner = block.get("challenge")
    if inner is not None:
        turn.has_block_challenge = True
        turn.block_challenger, turn.block_truthful = _read_challenge(inner, True, tno)
