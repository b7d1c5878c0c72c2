"""Reads of game records, shaped for the API and pages (prefetching what they show)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet

from games.models import Game, Player, Round, Seat
from scoring import adapters
from scoring.engine import get_engine
from scoring.engine.potdevin.cards import CARD_NAMES, GUILDS, cards_in
from scoring.engine.potdevin.rules import SIX_PLAYER_CYCLE


def _seats() -> Prefetch[Seat]:
    return Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat"))


def game_list() -> QuerySet[Game]:
    # Winners come from the seats' ranks, so the large JSON columns are not read.
    return (
        Game.objects.select_related("deck", "owner")
        .defer("result", "hands", "trump_pile", "tableaux", "jokers", "deck__cards")
        .prefetch_related(_seats())
        .order_by("-played_on", "-id")
    )


def game_detail_queryset() -> QuerySet[Game]:
    return (
        Game.objects.select_related("deck", "owner")
        .defer("deck__cards")
        .prefetch_related(_seats(), Prefetch("rounds", queryset=Round.objects.order_by("number")))
    )


def game_for_write() -> QuerySet[Game]:
    """Enough of a game to check who may change it."""
    return Game.objects.only("id", "owner_id")


def player_id_of(user: Any) -> int | None:
    return Player.objects.filter(user=user).values_list("id", flat=True).first()


# --- Reads for the web scorepad ------------------------------------------------------------


def games_in_progress() -> QuerySet[Game]:
    return game_list().filter(status=Game.Status.IN_PROGRESS)


def games_finished() -> QuerySet[Game]:
    return game_list().filter(status=Game.Status.FINISHED)


@dataclass(frozen=True)
class TableState:
    """Where a game logged round by round stands, as the next round's entry needs it: who acts
    in which order, what each seat still holds, and which cards can no longer appear."""

    number: int  # the next round's number
    over: bool  # no round can follow (rules D3)
    order: list[int]  # seats to act in the next round, the starter first (rules D2)
    cards_in_hand: list[int]
    gems_in_hand: list[int]
    played: list[str]  # cards played so far
    revealed: list[str]  # cards revealed as trump so far
    blocked: list[str]  # cards no seat can play next round (played, revealed, in the pile)
    trump_choices: list[str]  # cards the next round may reveal
    hands: dict[int, list[str]] | None  # what each seat still holds, when the deal is recorded


def table_state(game: Game) -> TableState:
    """Replay the game's rounds with its engine and read the state before the next round.

    Raises ``LogError`` if the stored rounds no longer replay (a deck or rules change)."""
    seats = list(game.seats.select_related("player").order_by("seat"))
    engine = get_engine(game.game_type)
    log = adapters.game_log(game, seats, [])
    state = engine.start(log, deck=adapters.engine_deck(game.deck))
    for round_ in adapters.round_logs(game):
        state = engine.apply_round(state, round_)
    n = state.setup.players
    counts = list(state.counts)
    ring = state.rings[state.starter]
    order = [s for s in ring if counts[s]]
    seen = state.played | state.trumps
    blocked = seen | state.pile
    if n == 6 and state.round_no >= SIX_PLAYER_CYCLE:
        cycle = 0 if state.round_no % SIX_PLAYER_CYCLE == 0 else state.cycle
        allowed = state.trumps & ~cycle
    elif state.pile_order is not None:
        left = state.pile_order[state.round_no :]
        allowed = 1 << left[0] if left else 0
    elif state.pile:
        allowed = state.pile & ~state.trumps
    else:
        allowed = (1 << len(CARD_NAMES)) - 1 & ~seen
    hands = None
    if state.hands is not None:
        hands = {s: [CARD_NAMES[c] for c in cards_in(state.hands[s])] for s in range(n)}
    return TableState(
        number=state.round_no + 1,
        over=state.finished,
        order=[] if state.finished else order,
        cards_in_hand=counts,
        gems_in_hand=list(state.gems),
        played=[CARD_NAMES[c] for c in cards_in(state.played)],
        revealed=[CARD_NAMES[c] for c in cards_in(state.trumps)],
        blocked=[CARD_NAMES[c] for c in cards_in(blocked)],
        trump_choices=[CARD_NAMES[c] for c in cards_in(allowed)],
        hands=hands,
    )


def player_score_history(player: Player, *, limit: int = 200) -> list[Seat]:
    """The player's finished games, oldest first (the last ``limit``), with score and rank."""
    seats = (
        Seat.objects.filter(player=player, game__status=Game.Status.FINISHED)
        .select_related("game")
        .only("seat", "score", "rank", "team", "game__id", "game__played_on", "game__player_count")
        .order_by("-game__played_on", "-game_id")[:limit]
    )
    return list(reversed(seats))


def player_guild_habits(player: Player, *, limit: int = 200) -> dict[str, Any]:
    """What the player collects: per guild, the symbols in their own tableau on average and how
    often they had a column of it, over their last ``limit`` finished games."""
    rows = (
        Seat.objects.filter(player=player, game__status=Game.Status.FINISHED)
        .order_by("-game__played_on", "-game_id")
        .values_list("seat", "game__result")[:limit]
    )
    totals = dict.fromkeys(GUILDS, 0)
    columns = dict.fromkeys(GUILDS, 0)
    games = 0
    for seat, result in rows:
        players = (result or {}).get("players") or []
        if seat >= len(players):
            continue
        tableau = players[seat].get("tableau") or {}
        games += 1
        for guild in GUILDS:
            symbols = int(tableau.get(guild) or 0)
            totals[guild] += symbols
            columns[guild] += symbols > 0
    return {
        "games": games,
        "guilds": [
            {
                "guild": g,
                "symbols": totals[g],
                "average": round(totals[g] / games, 2) if games else None,
                "column_rate": round(columns[g] / games, 2) if games else None,
            }
            for g in GUILDS
        ],
    }
