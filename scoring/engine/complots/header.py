"""A Complots log's header: its players, variant and first player checked, and the state they
give before turn 1."""

from __future__ import annotations

from typing import Any

from scoring.engine.complots.rules import (
    CHARACTER_COUNT,
    INFLUENCES,
    LOG_FORMAT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    START_COINS,
    TREASURY_TOTAL,
    TWO_PLAYER_FIRST_COINS,
    VARIANT_AMBASSADOR,
    VARIANT_CODES,
    copies_for,
)
from scoring.engine.complots.state import RINGS, State
from scoring.engine.errors import (
    Code,
    LogError,
    check_first_player,
    check_header,
    check_no_teams,
    check_player_names,
    said,
)


def check_players(names: Any) -> list[str]:
    """The player names in seat order."""
    return check_player_names(names, game="Complots", fewest=MIN_PLAYERS, most=MAX_PLAYERS)


def check_variant(variant: Any) -> int:
    """The variant: which fifth character is in play. Missing or null: the base game."""
    if variant is None:
        return VARIANT_AMBASSADOR
    code = VARIANT_CODES.get(variant, -1) if isinstance(variant, str) else -1
    if code < 0:
        raise LogError(
            "bad_variant",
            said(
                "{variant} is {ambassador} or {inquisitor} (or null), not {value!r}",
                variant=Code("variant"),
                ambassador=Code("ambassador"),
                inquisitor=Code("inquisitor"),
                value=variant,
            ),
        )
    return code


def start_state(log: Any) -> State:
    """Check a log header and build the state before turn 1 (``log["turns"]`` is not read).

    Raises ``LogError``: malformed, unsupported_format, bad_player_count, bad_variant,
    bad_first_player, bad_teams.
    """
    header = check_header(log, LOG_FORMAT)
    names = check_players(header.get("players"))
    n = len(names)
    variant = check_variant(header.get("variant"))
    first = check_first_player(header.get("first_player"), n)
    check_no_teams(header.get("teams"), game="Complots")
    st = State()
    st.names = names
    st.players = n
    st.variant = variant
    st.first_player = first
    st.copies = copies_for(n)
    st.rings = RINGS[n]
    coins = [START_COINS] * n
    if n == 2:
        coins[first] = TWO_PLAYER_FIRST_COINS
    st.coins = coins
    st.hidden = [INFLUENCES] * n
    st.face_up = [[] for _ in range(n)]
    st.up = [0] * CHARACTER_COUNT
    st.treasury = TREASURY_TOTAL - sum(coins)
    st.turn_no = 0
    st.current = first
    st.alive = n
    st.eliminated_on = [0] * n
    st.elim_order = []
    st.coins_gained = [0] * n
    st.coins_lost_to_captains = [0] * n
    st.claims_made = [0] * n
    st.bluffs_caught = [0] * n
    st.challenges_made = [0] * n
    st.challenges_won = [0] * n
    st.blocks_made = [0] * n
    st.blocks_standing = [0] * n
    st.influences_taken = [0] * n
    st.players_eliminated = [0] * n
    st.turns = []
    return st
