"""Scorepad mode: a game entered by its final tableaux only, for groups that do not log rounds.

The sheet is ``{"players": [...], "teams": null | [[0, 2], [1, 3]], "tableaux": [{"nobles": 2,
..., "jokers": 1, "bonus": 0, "malus": 0, "pot_de_vin": 1, "gems": 3, "cards": 9}, ...],
"jokers": null | {"0": ["nobles"]}}``, one tableau per seat. What a real game could not leave
on the table is refused; the scoring is the replay's own (``score.score_table``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from scoring.engine.errors import Code, LogError, Said, Seat, said
from scoring.engine.potdevin.cards import CHARACTERS, GUILDS
from scoring.engine.potdevin.decks import Deck
from scoring.engine.potdevin.play import check_players, check_teams, parse_jokers
from scoring.engine.potdevin.score import Tableau, result_document

NEUTRAL_FIELDS: Final[tuple[str, ...]] = ("jokers", "bonus", "malus", "pot_de_vin")
COUNT_FIELDS: Final[tuple[str, ...]] = (*GUILDS, *NEUTRAL_FIELDS, "gems", "cards")
NEUTRAL_COPIES: Final = len(CHARACTERS)  # one Joker, +2, -2 and Pot de Vin per character


def _bad(message: str | Said, seat: int | None = None) -> LogError:
    return LogError("bad_tableau", message, seat=seat)


def _read_tableau(raw: Any, seat: int) -> Tableau:
    if not isinstance(raw, Mapping):
        raise LogError(
            "malformed", said("the tableau of {seat} is an object", seat=Seat(seat)), seat=seat
        )
    unknown = sorted(set(raw) - set(COUNT_FIELDS))
    if unknown:
        raise _bad(said("unknown tableau fields: {fields}", fields=", ".join(unknown)), seat)
    counts = {}
    for name in COUNT_FIELDS:
        value = raw.get(name, 0)
        if type(value) is not int or value < 0:
            raise _bad(
                said("{field} must be a whole number, 0 or more", field=Code(name, quoted=False)),
                seat,
            )
        counts[name] = value
    guilds = tuple(counts[g] for g in GUILDS)
    neutral = sum(counts[f] for f in NEUTRAL_FIELDS)
    symbols = sum(guilds)
    # A guild card carries one or two symbols, so its cards lie between symbols/2 and symbols.
    least, most = neutral + (symbols + 1) // 2, neutral + symbols
    if not least <= counts["cards"] <= most:
        raise _bad(
            said(
                "{symbols} guild symbols and {neutral} neutral cards make {least} to {most} "
                "cards, not {cards}",
                symbols=symbols,
                neutral=neutral,
                least=least,
                most=most,
                cards=counts["cards"],
            ),
            seat,
        )
    return Tableau(
        guilds,
        counts["jokers"],
        counts["bonus"],
        counts["malus"],
        counts["pot_de_vin"],
        counts["gems"],
        counts["cards"],
    )


def score_sheet(sheet: Mapping[str, Any], deck: Deck) -> dict[str, Any]:
    if not isinstance(sheet, Mapping):
        raise LogError("malformed", said("a scorepad sheet is a JSON object"))
    names, setup = check_players(sheet.get("players"))
    n = setup.players
    teams = check_teams(sheet.get("teams"), n)
    raw = sheet.get("tableaux")
    if not isinstance(raw, list) or len(raw) != n:
        raise LogError(
            "malformed",
            said(
                "{tableaux} is a list of {count} tableaux, one per seat",
                tableaux=Code("tableaux"),
                count=n,
            ),
        )
    tableaux = [_read_tableau(t, s) for s, t in enumerate(raw)]
    for field in NEUTRAL_FIELDS:
        total = sum(getattr(t, field) for t in tableaux)
        if total > NEUTRAL_COPIES:
            raise _bad(
                said(
                    "the game has {copies} {field} cards, the tableaux show {total}",
                    copies=NEUTRAL_COPIES,
                    field=Code(field, quoted=False),
                    total=total,
                )
            )
    for g, name in enumerate(GUILDS):
        total = sum(t.guilds[g] for t in tableaux)
        if total > deck.guild_totals[g]:
            raise _bad(
                said(
                    "deck {deck} has {count} {guild} symbols, not {total}",
                    deck=deck.id,
                    count=deck.guild_totals[g],
                    guild=Code(name, quoted=False),
                    total=total,
                )
            )
    gems = sum(t.gems for t in tableaux)
    if gems > n * setup.gems:
        raise _bad(
            said(
                "{players} players hold {gems} gems in all, not {total}",
                players=n,
                gems=n * setup.gems,
                total=gems,
            )
        )
    cards = sum(t.cards for t in tableaux)
    most_cards = setup.hand * n + (setup.trump_pile if setup.winner_takes_trump else 0)
    if cards > most_cards:
        raise _bad(
            said(
                "at most {most} cards can be won with {players} players, not {cards}",
                most=most_cards,
                players=n,
                cards=cards,
            )
        )
    return result_document(
        deck_id=deck.id,
        names=names,
        teams=teams,
        tableaux=tableaux,
        jokers=parse_jokers(sheet.get("jokers"), n),
        live=None,
        complete=True,
        rounds_played=0,
        rounds_total=setup.rounds,
        rounds=[],
        violations=[],
    )
