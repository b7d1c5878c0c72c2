"""Complots in words, for the pages: the characters as the rulebook names them, the actions,
the statistics, the refusal words, the places in the elimination order, and a turn as people
say it ("Bea: Captain on Ada, blocked. Ada turned up Duchess.")."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.web import present, refusals
from scoring.engine.complots.rules import ASSASSIN_COST, COUP_COST

# The characters as the Italian rulebook names them (Duchessa, Assassino, …).
CHARACTER_LABELS = {
    # Translators: Italian: the rulebook's Duchessa, Assassino, Contessa, Capitano,
    # Ambasciatore, Inquisitore. There is no Portuguese rulebook of Complots: the names of Coup's
    # Brazilian edition, but "Duquesa" (Coup's card is a duke, Complots' a duchess).
    "duchess": pgettext_lazy("complots character", "Duchess"),
    "assassin": pgettext_lazy("complots character", "Assassin"),
    "countess": pgettext_lazy("complots character", "Countess"),
    "captain": pgettext_lazy("complots character", "Captain"),
    "ambassador": pgettext_lazy("complots character", "Ambassador"),
    "inquisitor": pgettext_lazy("complots character", "Inquisitor"),
}
ACTION_LABELS = {
    "income": (gettext_lazy("Income"), gettext_lazy("+1 coin")),
    "foreign_aid": (gettext_lazy("Foreign aid"), gettext_lazy("+2 coins; the duchess blocks it")),
    "coup": (
        gettext_lazy("Coup"),
        # Translators: the cost is a number of coins (7).
        format_lazy(gettext_lazy("pay {cost}: the target loses an influence"), cost=COUP_COST),
    ),
    "duchess": (CHARACTER_LABELS["duchess"], gettext_lazy("+3 coins")),
    "assassin": (
        CHARACTER_LABELS["assassin"],
        format_lazy(gettext_lazy("pay {cost}: the target loses an influence"), cost=ASSASSIN_COST),
    ),
    "captain": (CHARACTER_LABELS["captain"], gettext_lazy("takes 2 coins from the target")),
    "exchange": (gettext_lazy("Exchange"), gettext_lazy("swaps cards with the Court")),
    "inquire": (CHARACTER_LABELS["inquisitor"], gettext_lazy("looks at a card of the target")),
}
# The exchange is claimed by the variant's fifth character.
EXCHANGE_LABELS = {
    "ambassador": gettext_lazy("Ambassador: exchange"),
    "inquisitor": gettext_lazy("Inquisitor: exchange"),
}
VARIANT_LABELS = {
    "ambassador": gettext_lazy("Ambassador (the base game)"),
    "inquisitor": gettext_lazy("Inquisitor (instead of the Ambassador)"),
}
# The statistics' labels (scoring/engine/complots/info.py), for the pages.
STAT_LABELS = {
    "coins_gained": gettext_lazy("Coins gained"),
    "coins_lost_to_captains": gettext_lazy("Coins lost to captains"),
    "claims_made": gettext_lazy("Claims made"),
    "bluffs_caught": gettext_lazy("Bluffs caught"),
    "challenges_made": gettext_lazy("Challenges made"),
    "challenges_won": gettext_lazy("Challenges won"),
    "blocks_made": gettext_lazy("Blocks made"),
    "blocks_standing": gettext_lazy("Blocks standing"),
    "influences_taken": gettext_lazy("Influences taken"),
    "players_eliminated": gettext_lazy("Players eliminated"),
}
# Sentences naming a character, one per character: the article and the agreement depend on it.
# The characters an action claims (the Countess only blocks).
CLAIM_NOTES = {
    # Translators: on the turn entry, after the action: "(claims the Duchess)".
    "duchess": gettext_lazy("claims the Duchess"),
    "assassin": gettext_lazy("claims the Assassin"),
    "captain": gettext_lazy("claims the Captain"),
    "ambassador": gettext_lazy("claims the Ambassador"),
    "inquisitor": gettext_lazy("claims the Inquisitor"),
}
CHALLENGE_QUESTIONS = {
    "duchess": gettext_lazy("Who challenged the Duchess?"),
    "assassin": gettext_lazy("Who challenged the Assassin?"),
    "captain": gettext_lazy("Who challenged the Captain?"),
    "ambassador": gettext_lazy("Who challenged the Ambassador?"),
    "inquisitor": gettext_lazy("Who challenged the Inquisitor?"),
}
CLAIM_SHOWN = {
    # Translators: the answer to "was the claim true?"; %(name)s is the player who acted.
    "duchess": gettext_lazy("True: %(name)s showed the Duchess"),
    "assassin": gettext_lazy("True: %(name)s showed the Assassin"),
    "captain": gettext_lazy("True: %(name)s showed the Captain"),
    "ambassador": gettext_lazy("True: %(name)s showed the Ambassador"),
    "inquisitor": gettext_lazy("True: %(name)s showed the Inquisitor"),
}
# A card turned face up, in the turn's words ("Ada turned up Duchess.").
LOSS_WORDS = {
    "duchess": gettext_lazy("%(name)s turned up Duchess."),
    "assassin": gettext_lazy("%(name)s turned up Assassin."),
    "countess": gettext_lazy("%(name)s turned up Countess."),
    "captain": gettext_lazy("%(name)s turned up Captain."),
    "ambassador": gettext_lazy("%(name)s turned up Ambassador."),
    "inquisitor": gettext_lazy("%(name)s turned up Inquisitor."),
}
# The engine's codes and log keys in the players' words, for its refusals on the pages.
# The characters and actions are written in English as their codes ("the duchess"); translated,
# they read as the rulebook's names.
REFUSAL_VOCABULARY = refusals.Vocabulary(
    words={
        # Translators: a character's name inside an engine refusal ("caught bluffing the
        # duchess"), written as in the rulebook (no Portuguese rulebook: Coup BR's names).
        "duchess": pgettext_lazy("complots character", "duchess"),
        "assassin": pgettext_lazy("complots character", "assassin"),
        "countess": pgettext_lazy("complots character", "countess"),
        "captain": pgettext_lazy("complots character", "captain"),
        "ambassador": pgettext_lazy("complots character", "ambassador"),
        "inquisitor": pgettext_lazy("complots character", "inquisitor"),
        # Translators: an action's name inside an engine refusal ("coup cannot be blocked").
        "income": pgettext_lazy("complots action", "income"),
        "coup": pgettext_lazy("complots action", "coup"),
        "exchange": pgettext_lazy("complots action", "exchange"),
        "foreign_aid": pgettext_lazy("complots action", "foreign aid"),
        # Translators: the Inquisitor's look at a card of another player, in a refusal.
        # Translators: the refusal words below fill a refusal's template, which has its own
        # article in English ("captain needs a target"); a translation may carry its own.
        "inquire": pgettext_lazy("complots refusal word", "inquiry"),
        "losses": gettext_lazy("the list of cards turned up"),
        "forced_swap": gettext_lazy("a forced swap"),
        "target": pgettext_lazy("complots refusal word", "target"),
        "block": gettext_lazy("a block"),
        "challenge": pgettext_lazy("complots refusal word", "challenge"),
        # A game known by its result only (the result sheet's keys and counts).
        "eliminated": gettext_lazy("the elimination order"),
        "counts": gettext_lazy("the counts"),
        "sheet": gettext_lazy("the result"),
        # Translators: the K4 counts inside a refusal: "Ada has 2 challenges won, more than
        # its 1 challenges made."
        "coins_gained": pgettext_lazy("complots count in a refusal", "coins gained"),
        "coins_lost_to_captains": pgettext_lazy(
            "complots count in a refusal", "coins lost to captains"
        ),
        "claims_made": pgettext_lazy("complots count in a refusal", "claims made"),
        "bluffs_caught": pgettext_lazy("complots count in a refusal", "bluffs caught"),
        "challenges_made": pgettext_lazy("complots count in a refusal", "challenges made"),
        "challenges_won": pgettext_lazy("complots count in a refusal", "challenges won"),
        "blocks_made": pgettext_lazy("complots count in a refusal", "blocks made"),
        "blocks_standing": pgettext_lazy("complots count in a refusal", "blocks standing"),
        "influences_taken": pgettext_lazy("complots count in a refusal", "influences taken"),
        "players_eliminated": pgettext_lazy("complots count in a refusal", "players eliminated"),
    },
    # "the target is a live player other than the actor, not 3": the 3 is a seat.
    seat_phrases=(re.compile(r"\bnot (\d+)$"),),
)


# The generic pages' sentences about Complots where the defaults for turns do not fit: a game
# known by its result is entered by who went out when, not by a final sheet of scores.
ENTRY_TEXTS = {
    "scorepad_help": gettext_lazy(
        "For a game played without logging turns: its result. Choose who was eliminated "
        "first, second and so on; the one left standing wins. Counts are optional. The game is "
        "ranked as a logged game is."
    ),
}

# The places in the elimination order (the 8th player of 8 is the winner, never "out").
LAST_STANDING = pgettext_lazy("complots elimination order", "last one standing")
OUT_LABELS = {
    1: pgettext_lazy("complots elimination order", "1st out"),
    2: pgettext_lazy("complots elimination order", "2nd out"),
    3: pgettext_lazy("complots elimination order", "3rd out"),
    4: pgettext_lazy("complots elimination order", "4th out"),
    5: pgettext_lazy("complots elimination order", "5th out"),
    6: pgettext_lazy("complots elimination order", "6th out"),
    7: pgettext_lazy("complots elimination order", "7th out"),
}


def action_label(action: str, variant: str) -> str:
    if action == "exchange":
        return str(EXCHANGE_LABELS[variant])
    return str(ACTION_LABELS[action][0])


def character_label(card: str) -> str:
    """A character in words (a code not known is shown as it is)."""
    return str(CHARACTER_LABELS.get(card, card))


def stat_label(stat: Any) -> str:
    """A statistic's label in the page's language (the engine's English one if not listed)."""
    return str(STAT_LABELS.get(stat.name, stat.label))


def _coins(count: int) -> str:
    return ngettext("%(count)s coin", "%(count)s coins", count) % {"count": count}


def _influences(count: int) -> str:
    return ngettext("%(count)s influence", "%(count)s influences", count) % {"count": count}


def seat_words(player: Mapping[str, Any]) -> str:
    # Translators: a player's coins and hidden influences: "3 coins, 2 influences".
    return _("%(coins)s, %(influences)s") % {
        "coins": _coins(player["coins"]),
        "influences": _influences(player["influences"]),
    }


def standing_words(player: Mapping[str, Any]) -> str:
    """How a player stands in the ranking: "2 influences, 3 coins" or "out on turn 4"."""
    if not player["alive"]:
        return _("out on turn %(number)s") % {"number": player["eliminated_on_turn"]}
    # Translators: a live player's standing in the ranking: "2 influences, 3 coins".
    return _("%(influences)s, %(coins)s") % {
        "influences": _influences(player["influences"]),
        "coins": _coins(player["coins"]),
    }


def turn_words(turn: Mapping[str, Any], names: Sequence[str], variant: str) -> str:
    """A turn of the result in words: "Bea: Captain on Ada, blocked. Ada turned up Duchess"."""
    action = turn["action"]
    params = {"actor": names[turn["actor"]], "action": action_label(action, variant)}
    outcome = turn.get("outcome")
    if turn.get("target") is not None:
        params["target"] = names[turn["target"]]
        if outcome == "cancelled":
            text = _("%(actor)s: %(action)s on %(target)s, a bluff caught: cancelled.")
        elif outcome == "blocked":
            text = _("%(actor)s: %(action)s on %(target)s, blocked.")
        else:
            text = _("%(actor)s: %(action)s on %(target)s.")
    elif outcome == "cancelled":
        text = _("%(actor)s: %(action)s, a bluff caught: cancelled.")
    elif outcome == "blocked":
        text = _("%(actor)s: %(action)s, blocked.")
    else:
        text = _("%(actor)s: %(action)s.")
    text %= params
    for loss in turn.get("losses") or []:
        text += " " + _loss_words(names[loss["seat"]], loss["card"])
    eliminated = turn.get("eliminated") or []
    if eliminated:
        gone = present.names_joined([names[s] for s in eliminated])
        text += " " + ngettext("%(names)s is out.", "%(names)s are out.", len(eliminated)) % {
            "names": gone
        }
    return text


def _loss_words(name: str, card: str) -> str:
    if card in LOSS_WORDS:
        return str(LOSS_WORDS[card]) % {"name": name}
    # Translators: a card turned face up that the page does not know (never in a valid game).
    return _("%(name)s turned up %(card)s.") % {"name": name, "card": card}


def entry_detail(entry: Mapping[str, Any], names: Sequence[str]) -> str:
    """What a turn's entry says besides its outcome: who challenged and who blocked, and the
    forced swap ("Bea challenged: the claim was true"); "" when none."""
    parts = []
    challenge = entry.get("challenge")
    if challenge:
        who = {"name": names[challenge["by"]]}
        if challenge["truthful"]:
            parts.append(_("%(name)s challenged: the claim was true") % who)
        else:
            parts.append(_("%(name)s challenged: the claim was false") % who)
    block = entry.get("block")
    if block:
        params = {"name": names[block["by"]], "character": character_label(block["as"])}
        inner = block.get("challenge")
        if inner:
            params["challenger"] = names[inner["by"]]
        if not inner:
            # Translators: %(character)s is a character's name without an article ("as Duchess").
            text = _("%(name)s blocked as %(character)s") % params
        elif inner["truthful"]:
            # Translators: %(character)s is a character's name without an article ("as Duchess").
            text = _(
                "%(name)s blocked as %(character)s, challenged by %(challenger)s: "
                "the block was true"
            )
            text %= params
        else:
            # Translators: %(character)s is a character's name without an article ("as Duchess").
            text = _(
                "%(name)s blocked as %(character)s, challenged by %(challenger)s: "
                "the block was false"
            )
            text %= params
        parts.append(text)
    if entry.get("forced_swap"):
        parts.append(_("the target swapped the card shown"))
    return "; ".join(parts)
