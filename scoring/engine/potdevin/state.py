"""The state of a Pot de Vin game between rounds, as the engine keeps it.

Sets of cards are bit masks of the cards' small integers (see ``cards``): replaying whole
stored archives is a hot path.
"""

from __future__ import annotations

from typing import Any

from scoring.engine.potdevin.cards import ALL_CARDS_MASK
from scoring.engine.potdevin.decks import Deck
from scoring.engine.potdevin.rules import Setup


class State:
    """The game after some rounds. Mutable for speed inside the engine; the public
    ``apply_round`` works on a copy, so a state handed out is never changed."""

    __slots__ = (
        "setup",
        "names",
        "first_player",
        "teams",
        "deck",
        "jokers",
        "rings",
        "dealt",
        "counts",
        "emptied",
        "gems",
        "gems_won",
        "gems_paid",
        "gems_removed",
        "tally",
        "rounds_won",
        "played",
        "trumps",
        "cycle",
        "pile",
        "pile_order",
        "starter",
        "round_no",
        "finished",
        "failures",
        "violations",
        "rounds",
    )

    setup: Setup
    names: list[str]
    first_player: int
    teams: list[list[int]] | None
    deck: Deck
    jokers: dict[int, list[str]] | None
    rings: tuple[tuple[int, ...], ...]  # rings[s]: every seat clockwise starting at s
    dealt: list[int] | None  # each seat's hand as dealt (bit mask), when the log records it
    counts: list[int]  # cards in hand per seat
    emptied: int  # mask of the seats that have played their last card
    gems: list[int]  # gems in hand
    gems_won: list[int]
    gems_paid: list[int]
    gems_removed: list[int]  # rules D2: gems left in a hand that ran out of cards
    tally: list[int]  # cards won per seat, tallied by column (see cards.card_tally)
    rounds_won: list[int]
    played: int  # mask of cards played
    trumps: int  # mask of cards revealed as trump
    cycle: int  # 6 players: mask of trumps revealed in the current cycle of 4 rounds
    pile: int  # mask of the trump pile when the log lets us know it, else 0
    pile_order: list[int] | None  # 3-5 players: the recorded pile in reveal order
    starter: int
    round_no: int  # rounds played so far
    finished: bool
    # rules D4 without the deal: per seat, lead character -> [(round, card)] not followed yet
    # (empty when the deal is recorded)
    failures: list[dict[int, list[tuple[int, int]]]]
    violations: list[dict[str, Any]]
    rounds: list[dict[str, Any]]  # one summary per round played (never changed once made)

    def copy(self) -> State:
        new = State()
        # Immutable or never changed after the header: shared.
        new.setup = self.setup
        new.names = self.names
        new.first_player = self.first_player
        new.teams = self.teams
        new.deck = self.deck
        new.jokers = self.jokers
        new.rings = self.rings
        new.dealt = self.dealt
        new.pile = self.pile
        new.pile_order = self.pile_order
        # Changed by rounds: copied.
        new.counts = list(self.counts)
        new.emptied = self.emptied
        new.gems = list(self.gems)
        new.gems_won = list(self.gems_won)
        new.gems_paid = list(self.gems_paid)
        new.gems_removed = list(self.gems_removed)
        new.tally = list(self.tally)
        new.rounds_won = list(self.rounds_won)
        new.played = self.played
        new.trumps = self.trumps
        new.cycle = self.cycle
        new.starter = self.starter
        new.round_no = self.round_no
        new.finished = self.finished
        new.failures = [{ch: list(v) for ch, v in f.items()} for f in self.failures]
        new.violations = list(self.violations)
        new.rounds = list(self.rounds)  # round summaries are never changed once made
        return new

    @property
    def hands(self) -> list[int] | None:
        """Each seat's hand now (bit mask), when the deal is recorded."""
        if self.dealt is None:
            return None
        unplayed = ALL_CARDS_MASK ^ self.played
        return [hand & unplayed for hand in self.dealt]

    @property
    def player_count(self) -> int:
        return self.setup.players
