"""Decks: which guild symbols each guild card carries (rules D1: the layout is data, not code)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from scoring.engine.errors import Code, LogError, Said, said
from scoring.engine.potdevin.cards import (
    CARD_COUNT,
    CARD_INDEX,
    CARD_NAMES,
    CHARACTERS,
    GUILD_INDEX,
    GUILD_VALUES,
    GUILDS,
    card_tally,
    is_guild_card,
)

MAX_SYMBOLS_PER_CARD: Final = 2


@dataclass(frozen=True)
class Deck:
    """A deck version. ``symbols[card_index]`` is the tuple of guild indexes the card carries
    (one entry per symbol: a card with two nobles symbols is ``(0, 0)``); neutral cards carry ()."""

    id: str
    symbols: tuple[tuple[int, ...], ...]
    verified: bool = False
    description: str = ""
    # Symbols per guild over the whole deck, for documentation and checks.
    guild_totals: tuple[int, ...] = field(init=False)
    # tallies[card_index]: what winning the card adds to a player's tally (see cards.card_tally).
    tallies: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        totals = [0] * len(GUILDS)
        for card in self.symbols:
            for g in card:
                totals[g] += 1
        object.__setattr__(self, "guild_totals", tuple(totals))
        tallies = tuple(card_tally(i, syms) for i, syms in enumerate(self.symbols))
        object.__setattr__(self, "tallies", tallies)

    def as_dict(self) -> dict[str, Any]:
        """The deck in the JSON form that ``deck_from_dict`` reads back."""
        return {
            "id": self.id,
            "verified": self.verified,
            "description": self.description,
            "cards": {
                CARD_NAMES[i]: [GUILDS[g] for g in syms]
                for i, syms in enumerate(self.symbols)
                if syms
            },
        }


def _bad_deck(message: str | Said) -> LogError:
    return LogError("bad_deck", message)


def deck_from_dict(data: Mapping[str, Any]) -> Deck:
    """Build a deck from ``{"id", "verified", "description", "cards": {"A4": ["nobles"], ...}}``.

    Every guild card (values 4 to 12) must be listed with one or two known guilds, and nothing
    else. Raises ``LogError`` with code ``bad_deck``.
    """
    if not isinstance(data, Mapping):
        raise _bad_deck(
            said("a deck is an object with {id} and {cards}", id=Code("id"), cards=Code("cards"))
        )
    deck_id = data.get("id")
    cards = data.get("cards")
    if not isinstance(deck_id, str) or not deck_id:
        raise _bad_deck(said("a deck needs a non-empty string {id}", id=Code("id")))
    if not isinstance(cards, Mapping):
        raise _bad_deck(
            said(
                "a deck needs {cards}: an object from card to its guild symbols",
                cards=Code("cards"),
            )
        )
    symbols: list[tuple[int, ...]] = [()] * CARD_COUNT
    for name, guilds in cards.items():
        index = CARD_INDEX.get(name) if isinstance(name, str) else None
        if index is None:
            raise _bad_deck(said("{name!r} is not a card (A1 to U13)", name=name))
        if not is_guild_card(index):
            raise _bad_deck(
                said("{card} is a neutral card: only values 4 to 12 carry guild symbols", card=name)
            )
        if (
            not isinstance(guilds, list)
            or not 1 <= len(guilds) <= MAX_SYMBOLS_PER_CARD
            or not all(isinstance(g, str) and g in GUILD_INDEX for g in guilds)
        ):
            raise _bad_deck(
                said(
                    "{card} must carry 1 or {most} symbols from {guilds}",
                    card=name,
                    most=MAX_SYMBOLS_PER_CARD,
                    guilds=", ".join(GUILDS),
                )
            )
        symbols[index] = tuple(GUILD_INDEX[g] for g in guilds)
    missing = [CARD_NAMES[i] for i in range(CARD_COUNT) if is_guild_card(i) and not symbols[i]]
    if missing:
        raise _bad_deck(said("guild cards without symbols: {cards}", cards=", ".join(missing)))
    verified = data.get("verified", False)
    description = data.get("description", "")
    if not isinstance(verified, bool) or not isinstance(description, str):
        raise _bad_deck(
            said(
                "{verified} must be true or false and {description} a string",
                verified=Code("verified"),
                description=Code("description"),
            )
        )
    return Deck(deck_id, tuple(symbols), verified=verified, description=description)


def standard_layout() -> dict[str, list[str]]:
    """The default layout of rules D1 (not checked against the printed cards):
    values 4..9 one symbol of guild (value - 4 + character) mod 6; values 10..12 two symbols of
    guild ((value - 10) * 4 + character) mod 6."""
    layout: dict[str, list[str]] = {}
    for c, letter in enumerate(CHARACTERS):
        for value in GUILD_VALUES:
            if value <= 9:
                layout[f"{letter}{value}"] = [GUILDS[(value - 4 + c) % 6]]
            else:
                layout[f"{letter}{value}"] = [GUILDS[((value - 10) * 4 + c) % 6]] * 2
    return layout


STANDARD_DECK: Final = deck_from_dict(
    {
        "id": "standard",
        "verified": False,
        "description": (
            "Default layout of rules D1, built from a rule: NOT verified against the printed "
            "cards. Correct it by creating a new deck version."
        ),
        "cards": standard_layout(),
    }
)

BUILTIN_DECKS: Final[dict[str, Deck]] = {STANDARD_DECK.id: STANDARD_DECK}
