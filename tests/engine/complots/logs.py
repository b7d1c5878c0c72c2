"""Builders of hand-written ``complots-log/1`` logs for the Complots engine tests."""

from __future__ import annotations

from typing import Any

NAMES = ("Ada", "Bea", "Cy", "Dan", "Eve", "Fox", "Gil", "Hal")


def make_log(
    n: int, turns: list[Any], *, variant: str | None = "ambassador", first: int = 0
) -> dict[str, Any]:
    log: dict[str, Any] = {
        "format": "complots-log/1",
        "players": list(NAMES[:n]),
        "first_player": first,
        "turns": turns,
    }
    if variant is not None:
        log["variant"] = variant
    return log


def t(
    actor: Any,
    action: str,
    target: Any = None,
    *,
    ch: Any = None,
    block: Any = None,
    losses: str = "",
    **extra: Any,
) -> dict[str, Any]:
    """One turn; ``losses`` is written ``"1:duchess 2:captain"`` (seat:card, in order)."""
    turn: dict[str, Any] = {"actor": actor, "action": action}
    if target is not None:
        turn["target"] = target
    if ch is not None:
        turn["challenge"] = ch
    if block is not None:
        turn["block"] = block
    if losses:
        turn["losses"] = [
            {"seat": int(seat), "card": card}
            for seat, card in (item.split(":") for item in losses.split())
        ]
    turn.update(extra)
    return turn


def ch(by: Any, truthful: Any) -> dict[str, Any]:
    return {"by": by, "truthful": truthful}


def blk(by: Any, as_: Any, challenge: dict[str, Any] | None = None) -> dict[str, Any]:
    block: dict[str, Any] = {"by": by, "as": as_}
    if challenge is not None:
        block["challenge"] = challenge
    return block


def incomes(seats: list[int]) -> list[dict[str, Any]]:
    return [t(seat, "income") for seat in seats]
