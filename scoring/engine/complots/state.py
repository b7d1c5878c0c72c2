"""The state of a Complots game as the engine keeps it, and what the turn being read tracks
besides."""

from __future__ import annotations

from typing import Any, Final

from scoring.engine.complots.rules import MAX_PLAYERS, MIN_PLAYERS, VARIANT_NAMES

# RINGS[n][s]: the seats of an n-player table clockwise after s, s last (shared, never changed).
RINGS: Final = {
    n: tuple(tuple((s + k) % n for k in range(1, n + 1)) for s in range(n))
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}


class State:
    """The game after some turns. Mutable for speed inside the engine; the public
    ``apply_entry`` works on a copy, so a state handed out is never changed."""

    __slots__ = (
        "names",
        "players",
        "variant",
        "first_player",
        "copies",
        "rings",
        "coins",
        "hidden",
        "face_up",
        "up",
        "treasury",
        "turn_no",
        "current",
        "alive",
        "eliminated_on",
        "elim_order",
        "coins_gained",
        "coins_lost_to_captains",
        "claims_made",
        "bluffs_caught",
        "challenges_made",
        "challenges_won",
        "blocks_made",
        "blocks_standing",
        "influences_taken",
        "players_eliminated",
        "turns",
    )

    names: list[str]
    players: int
    variant: int  # rules.VARIANT_AMBASSADOR or rules.VARIANT_INQUISITOR
    first_player: int
    copies: int  # copies of each character in the game
    rings: tuple[tuple[int, ...], ...]  # rings[s]: every seat clockwise after s, s last
    coins: list[int]
    hidden: list[int]  # hidden influences left per seat (0: eliminated)
    face_up: list[list[int]]  # per seat, the characters it turned up, in order
    up: list[int]  # per character, the copies face up at the table
    treasury: int  # K1
    turn_no: int  # turns played so far
    current: int  # the seat whose turn comes next
    alive: int  # players still in the game
    eliminated_on: list[int]  # per seat, the turn it was eliminated in (0: alive)
    elim_order: list[int]  # seats in the order they were eliminated
    # K4/K5 counts, per seat.
    coins_gained: list[int]
    coins_lost_to_captains: list[int]
    claims_made: list[int]
    bluffs_caught: list[int]
    challenges_made: list[int]
    challenges_won: list[int]
    blocks_made: list[int]
    blocks_standing: list[int]
    influences_taken: list[int]
    players_eliminated: list[int]
    turns: list[dict[str, Any]]  # one summary per turn played (never changed once made)

    def copy(self) -> State:
        new = State()
        # Never changed after the header: shared.
        new.names = self.names
        new.players = self.players
        new.variant = self.variant
        new.first_player = self.first_player
        new.copies = self.copies
        new.rings = self.rings
        # Changed by turns: copied.
        new.coins = list(self.coins)
        new.hidden = list(self.hidden)
        new.face_up = [list(cards) for cards in self.face_up]
        new.up = list(self.up)
        new.treasury = self.treasury
        new.turn_no = self.turn_no
        new.current = self.current
        new.alive = self.alive
        new.eliminated_on = list(self.eliminated_on)
        new.elim_order = list(self.elim_order)
        new.coins_gained = list(self.coins_gained)
        new.coins_lost_to_captains = list(self.coins_lost_to_captains)
        new.claims_made = list(self.claims_made)
        new.bluffs_caught = list(self.bluffs_caught)
        new.challenges_made = list(self.challenges_made)
        new.challenges_won = list(self.challenges_won)
        new.blocks_made = list(self.blocks_made)
        new.blocks_standing = list(self.blocks_standing)
        new.influences_taken = list(self.influences_taken)
        new.players_eliminated = list(self.players_eliminated)
        new.turns = list(self.turns)  # turn summaries are never changed once made
        return new

    @property
    def player_count(self) -> int:
        return self.players

    @property
    def finished(self) -> bool:
        """The game is won: one player is left (K5)."""
        return self.alive <= 1

    @property
    def variant_name(self) -> str:
        return VARIANT_NAMES[self.variant]


class _Turn:
    """What one turn tracks besides the game: what the log says of it (read once, before any rule
    is checked), what the checks make of it, and its listed losses as they are matched to the
    ones the rules require."""

    __slots__ = (
        "tno",
        "actor",
        "action_value",
        "target",
        "has_target",
        "challenger",
        "truthful",
        "has_challenge",
        "blocker",
        "block_as",
        "has_block",
        "block_challenger",
        "block_truthful",
        "has_block_challenge",
        "listed",
        "action",
        "claim",
        "cancelled",
        "dead",
        "block_char",
        "k",
        "done",
        "eliminated",
    )

    listed: list[dict[str, Any]]  # the losses as the log lists them, read last

    def __init__(self, tno: int, actor: int) -> None:
        self.tno = tno
        self.actor = actor
        # As written: which names are actions is a rule, checked after the shape.
        self.action_value: Any = None
        self.target = -1
        self.has_target = False
        self.challenger = -1
        self.truthful = False
        self.has_challenge = False
        self.blocker = -1
        self.block_as = ""
        self.has_block = False
        self.block_challenger = -1
        self.block_truthful = False
        self.has_block_challenge = False
        # Found by the checks.
        self.action = -1
        self.claim = -1  # the character the action claims, -1 none
        self.cancelled = False  # the claim was a bluff, caught
        self.dead = -1  # a seat the claim's challenge eliminates (it had one influence left)
        self.block_char = -1
        # The losses matched so far.
        self.k = 0  # listed[k] is the next loss to match
        self.done: list[dict[str, Any]] = []  # for the turn's summary
        self.eliminated: list[int] = []
