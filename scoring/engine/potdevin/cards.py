"""The 52 character cards, as small integers for speed: index = character * 13 + value - 1."""

from __future__ import annotations

from typing import Final

CHARACTERS: Final[tuple[str, ...]] = ("A", "P", "E", "U")  # Aldo, Pietra, Enzo, Ugo
CHARACTER_NAMES: Final = {"A": "Aldo", "P": "Pietra", "E": "Enzo", "U": "Ugo"}
VALUES: Final = range(1, 14)
GUILDS: Final[tuple[str, ...]] = ("nobles", "artists", "traders", "workmen", "knights", "assassins")
GUILD_INDEX: Final = {name: i for i, name in enumerate(GUILDS)}

JOKER_VALUE: Final = 1
BONUS_VALUE: Final = 2  # the +2 card
MALUS_VALUE: Final = 3  # the -2 card
POT_DE_VIN_VALUE: Final = 13
NEUTRAL_VALUES: Final[tuple[int, ...]] = (JOKER_VALUE, BONUS_VALUE, MALUS_VALUE, POT_DE_VIN_VALUE)
GUILD_VALUES: Final = range(4, 13)

CARD_COUNT: Final = 52
CARD_NAMES: Final[tuple[str, ...]] = tuple(f"{c}{v}" for c in CHARACTERS for v in VALUES)
CARD_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(CARD_NAMES)}
CARD_BIT: Final[dict[str, int]] = {name: 1 << i for i, name in enumerate(CARD_NAMES)}
ALL_CARDS_MASK: Final = (1 << CARD_COUNT) - 1
# Bit mask of every card of one character, to ask "does this hand hold the lead?" in one step.
CHARACTER_MASKS: Final[tuple[int, ...]] = tuple(((1 << 13) - 1) << (13 * c) for c in range(4))

# The cards a player has won, tallied in one int so that taking a card is one addition: 7 bits
# per guild column (a deck carries at most 36 * 2 symbols of one guild), then 3 bits per neutral
# kind (4 copies each), then 6 bits for the number of cards (52). 60 bits in all, so the tally
# stays a machine-sized int.
TALLY_GUILD_BITS: Final = 7
TALLY_NEUTRAL_SHIFT: Final = 42
TALLY_NEUTRAL_BITS: Final = 3
TALLY_CARDS_SHIFT: Final = 54
# Neutral card value -> its tally field (NEUTRAL_VALUES order: Joker, +2, -2, Pot de Vin).
NEUTRAL_FIELD: Final[dict[int, int]] = {value: i for i, value in enumerate(NEUTRAL_VALUES)}


def card_character(index: int) -> int:
    return index // 13


def card_value(index: int) -> int:
    return index % 13 + 1


def is_guild_card(index: int) -> bool:
    return 4 <= index % 13 + 1 <= 12


def mask_of(indexes: list[int] | tuple[int, ...]) -> int:
    mask = 0
    for i in indexes:
        mask |= 1 << i
    return mask


def card_tally(index: int, symbols: tuple[int, ...]) -> int:
    """What taking card ``index``, carrying guild ``symbols``, adds to a won-cards tally."""
    tally = 1 << TALLY_CARDS_SHIFT
    if symbols:
        for g in symbols:
            tally += 1 << (TALLY_GUILD_BITS * g)
    else:
        field = NEUTRAL_FIELD[card_value(index)]
        tally += 1 << (TALLY_NEUTRAL_SHIFT + TALLY_NEUTRAL_BITS * field)
    return tally


def cards_in(mask: int) -> list[int]:
    """Card indexes present in ``mask``, in card order."""
    return [i for i in range(CARD_COUNT) if mask >> i & 1]
