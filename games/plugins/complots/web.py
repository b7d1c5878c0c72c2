"""Complots' pieces of the web scorepad (found through ``plugin_for("complots")``; the generic
pages in ``games/web/`` never import this module by name): the variant of a new game, the turn
entry, the result of a game known by its result only (``ScorepadSheet``: who went out first,
second..., and the counts kept), the table (coins, influences, face-up cards), the ranking with
the K4 counts, and the player page's section.

The turn entry is a plain HTML form in two steps, fit for a phone without JavaScript: first the
action (only the ones the rules allow the seat to act) and its target; then who challenged the
claim, who blocked (only the players and characters allowed) and who challenged the block, and
the cards turned up. Which losses the turn requires is computed here from the rules
(shared/rules/complots.md) only to prefill the loss rows; the engine checks the turn, and its
refusal is shown next to the field that caused it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.records.errors import RecordError
from games.records.models import Game, Player
from games.records.selectors import engine_state
from games.web import present, refusals
from scoring.engine import LogError, get_engine
from scoring.engine.complots.rules import (
    ACTION_CLAIMS,
    ACTION_CODES,
    ACTION_NAMES,
    ASSASSIN_COST,
    BLOCK_BY_TARGET_ONLY,
    BLOCKABLE,
    BLOCKERS,
    CHARACTER_NAMES,
    COUP_COST,
    FORCED_COUP_COINS,
    STAT_NAMES,
    TARGETED,
    TIEBREAK_COINS,
    TIEBREAK_LOSS_ORDER,
    TIEBREAK_SHARED,
    VARIANT_CARDS,
    VARIANT_CODES,
    VARIANT_NAMES,
)
from scoring.engine.complots.sheet import MAX_COUNT

GAME_TYPE = "complots"
MAX_LOSSES = 3  # the claim's challenge, the block's challenge, the coup or assassination

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
YES, NO = "yes", "no"
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


# --- The rules, by name (the engine's constants are small integers) ----------------------------


def claim_of(action: str, variant: str) -> str | None:
    """The character an action claims, or None (income, foreign aid, coup)."""
    code = ACTION_CLAIMS[VARIANT_CODES[variant]][ACTION_CODES[action]]
    return CHARACTER_NAMES[code] if code >= 0 else None


def is_targeted(action: str) -> bool:
    return TARGETED[ACTION_CODES[action]]


def is_blockable(action: str) -> bool:
    return BLOCKABLE[ACTION_CODES[action]]


def blocked_by_target_only(action: str) -> bool:
    return BLOCK_BY_TARGET_ONLY[ACTION_CODES[action]]


def block_characters(action: str, variant: str) -> list[str]:
    """The characters that block ``action`` in ``variant`` (K2)."""
    mask = BLOCKERS[VARIANT_CODES[variant]][ACTION_CODES[action]]
    return [name for code, name in enumerate(CHARACTER_NAMES) if mask >> code & 1]


def game_characters(variant: str) -> list[str]:
    mask = VARIANT_CARDS[VARIANT_CODES[variant]]
    return [name for code, name in enumerate(CHARACTER_NAMES) if mask >> code & 1]


def allowed_actions(coins: int, variant: str) -> list[str]:
    """The actions a seat starting its turn with ``coins`` may declare: only a coup from 10
    coins, no coup under 7, no assassination under 3, inquire only with the inquisitor."""
    if coins >= FORCED_COUP_COINS:
        return ["coup"]
    allowed = []
    for action in ACTION_NAMES:
        if action == "coup" and coins < COUP_COST:
            continue
        if action == "assassin" and coins < ASSASSIN_COST:
            continue
        if action == "inquire" and variant != "inquisitor":
            continue
        allowed.append(action)
    return allowed


def action_label(action: str, variant: str) -> str:
    if action == "exchange":
        return str(EXCHANGE_LABELS[variant])
    return str(ACTION_LABELS[action][0])


def character_label(card: str) -> str:
    """A character in words (a code not known is shown as it is)."""
    return str(CHARACTER_LABELS.get(card, card))


def required_losses(hidden: Sequence[int], turn: Mapping[str, Any]) -> list[int]:
    """The seats that must turn up an influence in ``turn``, in order (rules: the claim's
    challenge, then the block's challenge, then the coup or assassination; an eliminated player
    loses nothing more). ``hidden``: each seat's hidden influences before the turn. For the
    loss rows of the form only: the engine decides."""
    left = list(hidden)
    out: list[int] = []

    def lose(seat: Any) -> None:
        if isinstance(seat, int) and 0 <= seat < len(left) and left[seat] > 0:
            left[seat] -= 1
            out.append(seat)

    challenge = turn.get("challenge")
    if challenge:
        if challenge.get("truthful"):
            lose(challenge.get("by"))
        else:
            lose(turn.get("actor"))
            return out  # a caught bluff cancels the action
    blocked = False
    block = turn.get("block")
    if block:
        blocked = True
        inner = block.get("challenge")
        if inner:
            if inner.get("truthful"):
                lose(inner.get("by"))
            else:
                lose(block.get("by"))
                blocked = False
    if not blocked and turn.get("action") in ("coup", "assassin"):
        lose(turn.get("target"))
    return out


# --- Reads ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """Where a game stands before its next turn, as the turn entry needs it."""

    number: int  # the next turn's number
    over: bool  # one player is left: no turn follows
    current: int | None  # the seat to act
    variant: str
    players: list[dict[str, Any]]  # the result's seats: coins, influences, face_up, alive
    state: Any  # the engine's state, to replay a refused turn's losses one by one

    @property
    def hidden(self) -> list[int]:
        return [p["influences"] for p in self.players]

    def live_others(self, seat: int | None) -> list[dict[str, Any]]:
        return [p for p in self.players if p["alive"] and p["seat"] != seat]


def _next_live(players: Sequence[Mapping[str, Any]], after: int) -> int | None:
    n = len(players)
    for k in range(1, n + 1):
        seat = (after + k) % n
        if players[seat]["alive"]:
            return seat
    return None


def table_state(game: Game) -> Table:
    """The table before the game's next turn. Raises ``LogError`` if the stored turns no longer
    replay (a rules correction)."""
    state = engine_state(game)
    result = get_engine(GAME_TYPE).result(state)
    players = result["players"]
    turns = result["turns"]
    over = bool(result["complete"])
    if over:
        current = None
    elif turns:  # the next live seat clockwise after the last turn's actor
        current = _next_live(players, turns[-1]["actor"])
    else:
        current = game.first_player or 0
    return Table(
        number=result["turns_played"] + 1,
        over=over,
        current=current,
        variant=result["variant"],
        players=players,
        state=state,
    )


# --- New game: the variant ----------------------------------------------------------------------


class NewGameOptions(forms.Form):
    """Complots' own options of a new game: which fifth character is in play."""

    template = "web/complots/new_game_options.html"

    variant = forms.ChoiceField(
        choices=[(v, VARIANT_LABELS[v]) for v in VARIANT_NAMES],
        initial=VARIANT_NAMES[0],
        widget=forms.RadioSelect,
        label=gettext_lazy("Variant"),
        help_text=gettext_lazy(
            "The Inquisitor also inquires: it looks at a card of another player."
        ),
    )

    def check(self, players: int) -> bool:
        return True

    def game_kwargs(self) -> dict[str, Any]:
        return {"variant": self.cleaned_data["variant"]}


# --- A game known by its result: the elimination order, the counts kept --------------------------

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
# The result sheet's refusals about the order, and about one seat's counts.
ORDER_CODES = {"bad_seat", "eliminated_twice", "no_winner", "missing_seat"}
COUNT_CODES = {"bad_count", "unknown_count", "inconsistent_counts"}


def _named_seats(data: Any, seats: int) -> list[str]:
    """The names typed on the same page (the players' form), in seat order, up to the last
    one filled: the sheet's checks need to know how many players there are."""
    raw = [str(data.get(f"player_{s}") or "").strip() for s in range(seats)]
    count = max((s + 1 for s, name in enumerate(raw) if name), default=0)
    return raw[:count]


class ScorepadSheet(forms.Form):
    """A finished game known by its result only: per place in the elimination order (1st out,
    2nd out...), the seat that went out; the seat no place names won. Then, folded away, the
    K4 counts a player kept, each box blank when it was not counted (unknown, not 0). Plain
    HTML: the seats are numbered as on the players' rows above (players.js adds the names)."""

    template = "web/complots/scorepad_sheet.html"

    def __init__(self, *args: Any, seats: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        choices = [
            ("", "—"),
            *((str(s), _("Seat %(number)s") % {"number": s}) for s in range(seats)),
        ]
        for place in range(1, seats):
            self.fields[f"out_{place}"] = forms.ChoiceField(
                choices=choices,
                required=False,
                label=OUT_LABELS[place],
                widget=forms.Select(attrs={"class": "seat-choice"}),
            )
        for seat in range(seats):
            for name in STAT_NAMES:
                self.fields[f"c{seat}_{name}"] = forms.IntegerField(
                    required=False,
                    min_value=0,
                    max_value=MAX_COUNT,
                    label=STAT_LABELS[name],
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "count"}),
                )

    def places(self) -> list[forms.BoundField]:
        return [self[f"out_{place}"] for place in range(1, self.seats)]

    def rows(self, players_form: forms.Form) -> list[dict[str, Any]]:
        """Per seat, its counts' fields (and the seat's name field, for its legend)."""
        return [
            {
                "seat": seat,
                "name": players_form[f"player_{seat}"],
                "counts": [self[f"c{seat}_{name}"] for name in STAT_NAMES],
            }
            for seat in range(self.seats)
        ]

    def counts_open(self) -> bool:
        """Whether the counts are shown unfolded: one was typed, or one is refused."""
        names = [f"c{seat}_{name}" for seat in range(self.seats) for name in STAT_NAMES]
        return any(n in self.errors or str(self.data.get(n) or "").strip() for n in names)

    def _player(self, seat: int) -> str:
        names = _named_seats(self.data, self.seats)
        name = names[seat] if seat < len(names) else ""
        return name or _("seat %(number)s") % {"number": seat}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        picks = [(place, data.get(f"out_{place}") or "") for place in range(1, self.seats)]
        last = max((place for place, seat in picks if seat), default=0)
        players = len(_named_seats(self.data, self.seats))
        chosen: set[str] = set()
        for place, seat in picks:
            field = f"out_{place}"
            if not seat:
                if place < last:
                    self.add_error(
                        field, _("Fill the places in order, from the 1st out, with no gap.")
                    )
                continue
            if seat in chosen:
                self.add_error(
                    field, _("%(player)s is chosen twice.") % {"player": self._player(int(seat))}
                )
            elif players and int(seat) >= players:
                self.add_error(field, _("Seat %(number)s has no player.") % {"number": seat})
            chosen.add(seat)
        if self.errors or players < 2:
            return data  # the players' form says what is wrong with the players
        if len(chosen) < players - 1:
            self.add_error(
                None,
                ngettext(
                    "Choose who went out, in order: every player but the winner, %(count)s "
                    "player of %(players)s.",
                    "Choose who went out, in order: every player but the winner, %(count)s "
                    "players of %(players)s.",
                    players - 1,
                )
                % {"count": players - 1, "players": players},
            )
        elif len(chosen) == players:
            self.add_error(None, _("One player is left standing, the winner: leave them out."))
        return data

    def sheet(self, players: int) -> dict[str, Any]:
        """The result sheet as the engine reads it (``sheet``): the seats in the order they
        went out, and the counts kept (None when none was)."""
        data = self.cleaned_data
        order = [int(data[f"out_{p}"]) for p in range(1, self.seats) if data.get(f"out_{p}")]
        counts: list[dict[str, int] | None] = []
        for seat in range(players):
            kept = {
                n: data[f"c{seat}_{n}"] for n in STAT_NAMES if data.get(f"c{seat}_{n}") is not None
            }
            counts.append(kept or None)
        return {"eliminated": order, "counts": counts if any(counts) else None}

    def engine_error(self, exc: LogError | RecordError) -> bool:
        """The engine's refusal of the sheet next to what it is about, in the players' words:
        a seat chosen twice at its second place, a refused count at its box, the rest at the
        top of the sheet. False when it is about the players or the variant (shown there)."""
        if exc.code not in ORDER_CODES | COUNT_CODES:
            return False
        names = _named_seats(self.data, self.seats)
        words = refusals.sentence(exc, names, REFUSAL_VOCABULARY)
        field = self._field_of(exc)
        self.add_error(field, words)
        return True

    def _field_of(self, exc: LogError | RecordError) -> str | None:
        params = getattr(exc, "params", None) or {}
        seat = exc.seat
        if exc.code == "eliminated_twice" and "second" in params:
            return f"out_{params['second']}"
        if exc.code in COUNT_CODES and seat is not None:
            for key in ("count", "part"):
                code = params.get(key)
                name = getattr(code, "value", None)
                if name in STAT_NAMES and f"c{seat}_{name}" in self.fields:
                    return f"c{seat}_{name}"
        return None


# --- The turn entry ------------------------------------------------------------------------------

STEP_ACTION, STEP_DETAILS, STEP_SAVE = "action", "details", "save"
ACTION_FIELDS = ("action", "target")
# Where the engine's refusal goes, by its code (the rest: see ``TurnForm.engine_error``).
FIELD_OF_CODE = {
    "game_over": "action",
    "out_of_turn": "action",
    "unknown_action": "action",
    "action_not_in_variant": "action",
    "forced_coup": "action",
    "not_enough_coins": "action",
    "bad_target": "target",
    "not_challengeable": "challenge_by",
    "action_cancelled": "block_by",
    "not_blockable": "block_by",
    "bad_blocker": "block_by",
    "bad_block_character": "block_as",
}
LOSS_CODES = {
    "unknown_card",
    "missing_loss",
    "unexpected_loss",
    "claimed_card_lost",
    "card_not_hidden",
}


def _seat_choices(names: Sequence[str], empty: str) -> list[tuple[str, str]]:
    return [("", empty), *((str(s), name) for s, name in enumerate(names))]


def _truth_choices() -> list[tuple[str, str]]:
    return [
        ("", "—"),
        (YES, gettext_lazy("True: the card was shown")),
        (NO, gettext_lazy("False: a bluff")),
    ]


class TurnForm(forms.Form):
    """The next turn. Every seat and character is a choice here, so that a stale or forged
    turn reaches the engine and is refused with its reasons; the page offers only what the
    rules allow (``turn_context``)."""

    template = "web/complots/turn_entry.html"

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    actor = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    action = forms.ChoiceField(choices=[(a, a) for a in ACTION_NAMES], required=False)
    target = forms.ChoiceField(required=False)
    forced_swap = forms.BooleanField(
        required=False, label=gettext_lazy("The target had to swap that card")
    )
    challenge_by = forms.ChoiceField(required=False)
    challenge_truthful = forms.ChoiceField(choices=_truth_choices(), required=False)
    block_by = forms.ChoiceField(required=False)
    block_as = forms.ChoiceField(
        choices=[("", "—"), *((c, CHARACTER_LABELS[c]) for c in CHARACTER_NAMES)], required=False
    )
    block_challenge_by = forms.ChoiceField(required=False)
    block_challenge_truthful = forms.ChoiceField(choices=_truth_choices(), required=False)

    def __init__(self, *args: Any, table: Table, names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        self.names = names
        self.step = (self.data.get("step") or STEP_SAVE) if self.is_bound else STEP_ACTION
        self.stage = STEP_ACTION if not self.is_bound else STEP_DETAILS
        self._ready = False
        self._turn: dict[str, Any] = {}
        self._listed: list[tuple[int, dict[str, Any]]] = []  # (row, loss) in order
        for name in ("target", "challenge_by", "block_by", "block_challenge_by"):
            self.fields[name].choices = _seat_choices(names, "—")  # type: ignore[attr-defined]
        cards = [("", "—"), *((c, CHARACTER_LABELS[c]) for c in CHARACTER_NAMES)]
        for i in range(MAX_LOSSES):
            self.fields[f"loss_{i}_seat"] = forms.ChoiceField(
                choices=_seat_choices(names, "—"),
                required=False,
                # Translators: the label of a loss row's player: "Loss 1: who".
                label=_("Loss %(number)s: who") % {"number": i + 1},
            )
            self.fields[f"loss_{i}_card"] = forms.ChoiceField(
                choices=cards,
                required=False,
                # Translators: the label of a loss row's card: "Loss 1: card".
                label=_("Loss %(number)s: card") % {"number": i + 1},
            )

    # The values as typed, for the page and the turn.

    def _int(self, name: str) -> int | None:
        value = self.cleaned_data.get(name)
        return int(value) if value not in (None, "") else None

    def _truth(self, name: str) -> bool | None:
        value = self.cleaned_data.get(name)
        return {YES: True, NO: False}.get(value or "")

    def has_details(self, action: str) -> bool:
        """Whether the action has more to ask than itself: a challenge, a block, a loss."""
        variant = self.table.variant
        return claim_of(action, variant) is not None or is_blockable(action) or action == "coup"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:  # a choice not offered (a forged post): shown where it was typed
            on_action = any(f in self.errors for f in ACTION_FIELDS)
            self.stage = STEP_ACTION if on_action else STEP_DETAILS
            return data
        action = data.get("action") or ""
        actor = data.get("actor")
        actor_name = self.names[actor] if actor is not None and actor < len(self.names) else ""
        if self.step == STEP_ACTION:  # "Change": back to the action, nothing checked
            self.stage = STEP_ACTION
            return data
        if not action:
            self.add_error("action", _("Choose %(name)s's action.") % {"name": actor_name})
        elif is_targeted(action) and self._int("target") is None:
            self.add_error("target", _("Choose whom %(name)s targets.") % {"name": actor_name})
        if self.errors:
            self.stage = STEP_ACTION
            return data
        self.stage = STEP_DETAILS
        if self.step == STEP_DETAILS and self.has_details(action):
            return data  # the next step of the entry: challenge, block, losses
        self._check_details(action)
        self._turn = self._build_turn()
        self._check_losses()
        self._ready = not self.errors
        return data

    def _check_details(self, action: str) -> None:
        if self._int("challenge_by") is not None and self._truth("challenge_truthful") is None:
            self.add_error("challenge_truthful", _("Was the claim true? Choose one."))
        if self._int("block_by") is not None:
            if not self.cleaned_data.get("block_as"):
                allowed = block_characters(action, self.table.variant) if action else []
                if len(allowed) == 1:
                    self.cleaned_data["block_as"] = allowed[0]
                else:
                    self.add_error("block_as", _("As which character did they block?"))
            if (
                self._int("block_challenge_by") is not None
                and self._truth("block_challenge_truthful") is None
            ):
                self.add_error("block_challenge_truthful", _("Was the block true? Choose one."))
        elif self._int("block_challenge_by") is not None:
            self.add_error(
                "block_challenge_by", _("No one blocked: there is no block to challenge.")
            )

    def _build_turn(self) -> dict[str, Any]:
        data = self.cleaned_data
        action = data["action"]
        turn: dict[str, Any] = {"actor": data["actor"], "action": action}
        if is_targeted(action):  # a target left checked on another action means nothing
            turn["target"] = self._int("target")
        challenger = self._int("challenge_by")
        if challenger is not None:
            turn["challenge"] = {"by": challenger, "truthful": self._truth("challenge_truthful")}
        blocker = self._int("block_by")
        if blocker is not None:
            block: dict[str, Any] = {"by": blocker, "as": data.get("block_as") or ""}
            block_challenger = self._int("block_challenge_by")
            if block_challenger is not None:
                block["challenge"] = {
                    "by": block_challenger,
                    "truthful": self._truth("block_challenge_truthful"),
                }
            turn["block"] = block
        if action == "inquire" and data.get("forced_swap"):
            turn["forced_swap"] = True
        return turn

    def _check_losses(self) -> None:
        """The loss rows: a row names who and which card. With none filled in, the rows are
        filled with the seats the rules require, and the page asks for their cards."""
        rows = [
            (i, self._int(f"loss_{i}_seat"), self.cleaned_data.get(f"loss_{i}_card") or "")
            for i in range(MAX_LOSSES)
        ]
        if not any(card for _, _, card in rows):
            needed = required_losses(self.table.hidden, self._turn)
            if needed:
                # A turn the engine refuses for another reason is not worth a card: say why.
                refusal = self._refusal(self._turn)
                if refusal is not None and refusal.code not in LOSS_CODES:
                    self.engine_error(refusal)
                else:
                    self._prefill(needed)
                return
            rows = []  # a seat chosen without a card, where no loss is due, means nothing
        for i, seat, card in rows:
            if card and seat is None:
                self.add_error(f"loss_{i}_seat", _("Whose card was it?"))
            elif seat is not None and not card:
                self.add_error(
                    f"loss_{i}_card",
                    _("Which card did %(name)s turn up?") % {"name": self.names[seat]},
                )
            elif card and seat is not None:
                self._listed.append((i, {"seat": seat, "card": card}))

    def _refusal(self, turn: dict[str, Any]) -> LogError | None:
        """The engine's refusal of ``turn`` after the stored turns, or None."""
        try:
            get_engine(GAME_TYPE).apply_entry(self.table.state, turn)
        except LogError as exc:
            return exc
        return None

    def _prefill(self, seats: Sequence[int]) -> None:
        self.data = self.data.copy()
        for i in range(MAX_LOSSES):
            seat = seats[i] if i < len(seats) else None
            self.data[f"loss_{i}_seat"] = "" if seat is None else str(seat)
            self.data[f"loss_{i}_card"] = ""
            if seat is not None:
                self.add_error(
                    f"loss_{i}_card",
                    _("Which card did %(name)s turn up?") % {"name": self.names[seat]},
                )

    def ready(self) -> bool:
        return self._ready

    def entry_data(self) -> dict[str, Any]:
        turn = dict(self._turn)
        if self._listed:
            turn["losses"] = [loss for _, loss in self._listed]
        return turn

    # Refusals.

    def engine_error(self, exc: LogError | RecordError) -> None:
        """Show the engine's refusal next to the field that caused it; nothing is stored."""
        field = self._field_of(exc)
        if field is not None and field.split("_")[0] in ("action", "target"):
            self.stage = STEP_ACTION
        self.add_error(field, refusals.sentence(exc, self.names, REFUSAL_VOCABULARY))

    def _field_of(self, exc: LogError | RecordError) -> str | None:
        if isinstance(exc, RecordError):
            return None
        code, seat = exc.code, exc.seat
        if code in FIELD_OF_CODE:
            return FIELD_OF_CODE[code]
        turn = self._turn
        challenge = turn.get("challenge") or {}
        block = turn.get("block") or {}
        block_challenge = block.get("challenge") or {}
        if code == "bad_challenger":
            if challenge and challenge["by"] == seat:
                return "challenge_by"
            return "block_challenge_by" if block_challenge else "challenge_by"
        if code == "no_copy_left":
            if challenge and seat == turn["actor"] and challenge.get("truthful"):
                return "challenge_truthful"
            return "block_challenge_truthful"
        if code in LOSS_CODES:
            return self._loss_field(exc)
        return None

    def _loss_field(self, exc: LogError) -> str:
        """The loss row the refusal is about: the engine reads the losses in order, so the row
        is the first whose turn, cut after it, is refused the same way."""
        listed = self._listed
        if exc.code == "missing_loss":
            used = {i for i, _ in listed}
            row = next((i for i in range(MAX_LOSSES) if i not in used), MAX_LOSSES - 1)
            if exc.seat is not None:  # who must lose: offered in the row
                self.data = self.data.copy()
                self.data[f"loss_{row}_seat"] = str(exc.seat)
            return f"loss_{row}_card"
        for k in range(1, len(listed) + 1):
            found = self._refusal({**self._turn, "losses": [loss for _, loss in listed[:k]]})
            if found is not None and (found.code, found.seat) == (exc.code, exc.seat):
                row = listed[k - 1][0]
                return f"loss_{row}_seat" if exc.code == "unexpected_loss" else f"loss_{row}_card"
        row = next((i for i, loss in listed if loss["seat"] == exc.seat), 0)
        return f"loss_{row}_card"


def entry_form(game: Game, table: Table, names: list[str], data: Any = None) -> TurnForm:
    initial = {"number": table.number, "actor": table.current}
    return TurnForm(data, initial=initial, table=table, names=names)


def entry_saved(result: dict[str, Any], number: int, names: list[str]) -> str:
    turn = (result.get("turns") or [])[number - 1]
    words = _("Turn %(number)s saved: %(turn)s") % {
        "number": number,
        "turn": turn_words(turn, names, result.get("variant") or "ambassador"),
    }
    if result.get("complete"):
        winner = names[result["winners"][0]]
        words += " " + _last_left(winner)
    return words


def _last_left(name: str) -> str:
    return _("%(name)s is the last player left.") % {"name": name}


def entry_review(
    result: dict[str, Any], number: int, names: list[str], form: TurnForm
) -> dict[str, Any]:
    """The turn in words before it is saved (``result``: the game as it would stand with it):
    what happened, who challenged and blocked, the cards turned up, and what changed at the
    table. "Change" goes back to the turn's details (or its action, when it has none) with
    everything kept."""
    turn = (result.get("turns") or [])[number - 1]
    variant = result.get("variant") or form.table.variant
    entry = form.entry_data()
    lines = [turn_words(turn, names, variant)]
    detail = _entry_detail(entry, names)
    if detail:
        lines.append(detail[0].upper() + detail[1:] + ".")
    before = {p["seat"]: p for p in form.table.players}
    changed = []
    for p in result.get("players") or []:
        old = before.get(p["seat"])
        if old is None or (old["coins"], old["influences"]) == (p["coins"], p["influences"]):
            continue
        if not p["alive"]:
            changed.append(_("%(name)s is out") % {"name": names[p["seat"]]})
        else:
            # Translators: one player's change in a turn's review: "Ada 4 coins, 2 influences".
            changed.append(
                _("%(name)s %(coins_and_influences)s")
                % {"name": names[p["seat"]], "coins_and_influences": _seat_words(p)}
            )
    # Translators: the changes are separated by "; ": "After it: Ada 4 coins, 2 influences;
    # Bea is out."
    after = _("After it: %(changes)s.") % {"changes": "; ".join(changed)} if changed else ""
    if result.get("complete") and result.get("winners"):
        after += " " + _last_left(names[result["winners"][0]])
    step = STEP_DETAILS if form.has_details(entry["action"]) else STEP_ACTION
    return {
        "title": _("Turn %(number)s: check it before saving") % {"number": number},
        "number": number,
        "lines": lines,
        "after": after.strip(),
        "change": ("step", step),
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


def _choice(form: TurnForm, field: str, value: str, label: str, detail: str = "") -> dict[str, Any]:
    current = form[field].value() if form.is_bound else form.initial.get(field)
    return {
        "id": f"{field}-{value or 'none'}",
        "name": field,
        "value": value,
        "label": label,
        "detail": detail,
        "checked": str(current or "") == value,
    }


def turn_context(form: TurnForm, table: Table, names: list[str]) -> dict[str, Any]:
    """What the turn entry shows: the seat to act, the allowed actions and targets, then the
    challenge, block and loss rows the chosen action can have."""
    actor = table.current
    assert actor is not None
    me = table.players[actor]
    variant = table.variant
    others = table.live_others(actor)
    actions = [
        _choice(form, "action", a, action_label(a, variant), str(ACTION_LABELS[a][1]))
        for a in allowed_actions(me["coins"], variant)
    ]
    targets = [
        _choice(form, "target", str(p["seat"]), names[p["seat"]], _seat_words(p)) for p in others
    ]
    context: dict[str, Any] = {
        "actor": me,
        "actor_name": names[actor],
        "forced_coup": me["coins"] >= FORCED_COUP_COINS,
        "stage": form.stage,
        "actions": actions,
        "targets": targets,
        "targeted_actions": present.names_joined(
            [
                action_label(a, variant)
                for a in ACTION_NAMES
                if is_targeted(a) and (a != "inquire" or variant == "inquisitor")
            ]
        ),
    }
    action = (form["action"].value() or "") if form.is_bound else ""
    if form.stage != STEP_DETAILS or action not in ACTION_CODES:
        context["stage"] = STEP_ACTION
        return context
    target = form["target"].value() if is_targeted(action) else ""
    target_seat = int(target) if str(target or "").isdigit() else None
    claim = claim_of(action, variant)
    target_name = names[target_seat] if target_seat is not None and target_seat < len(names) else ""
    summary = {
        "actor": names[actor],
        "action": action_label(action, variant),
        "target": target_name,
    }
    context.update(
        {
            # The action chosen, above its details: "Ada: Captain on Cy".
            "summary": _("%(actor)s: %(action)s on %(target)s") % summary
            if target_name
            else _("%(actor)s: %(action)s") % summary,
            "action": action,
            "action_label": action_label(action, variant),
            "target": target or "",
            "target_name": target_name,
            "claim": character_label(claim) if claim else None,
            "claim_note": str(CLAIM_NOTES[claim]) if claim else "",
            "challenge_question": str(CHALLENGE_QUESTIONS[claim]) if claim else "",
            "inquire": action == "inquire",
        }
    )
    if claim:
        context["challengers"] = [_choice(form, "challenge_by", "", _("No one"))] + [
            _choice(form, "challenge_by", str(p["seat"]), names[p["seat"]]) for p in others
        ]
        context["claim_truth"] = [
            _choice(
                form,
                "challenge_truthful",
                YES,
                str(CLAIM_SHOWN[claim]) % {"name": names[actor]},
            ),
            _choice(
                form,
                "challenge_truthful",
                NO,
                _("False: %(name)s was bluffing") % {"name": names[actor]},
            ),
        ]
    if is_blockable(action):
        if blocked_by_target_only(action):
            blockers = [p for p in others if p["seat"] == target_seat]
        else:
            blockers = others
        characters = block_characters(action, variant)
        context["blockers"] = [_choice(form, "block_by", "", _("No one"))] + [
            _choice(form, "block_by", str(p["seat"]), names[p["seat"]]) for p in blockers
        ]
        context["block_characters"] = [
            _choice(form, "block_as", c, character_label(c)) for c in characters
        ]
        if len(characters) == 1 and not form["block_as"].value():
            context["block_characters"][0]["checked"] = True
        block_challengers = [
            p
            for p in table.players
            if p["alive"] and (len(blockers) != 1 or p["seat"] != blockers[0]["seat"])
        ]
        context["block_challengers"] = [_choice(form, "block_challenge_by", "", _("No one"))] + [
            _choice(form, "block_challenge_by", str(p["seat"]), names[p["seat"]])
            for p in block_challengers
        ]
        context["block_truth"] = [
            _choice(form, "block_challenge_truthful", YES, _("True: the blocker showed the card")),
            _choice(form, "block_challenge_truthful", NO, _("False: the blocker was bluffing")),
        ]
    # A coup can only take the target's influence: its row is known before anything else.
    if (
        action == "coup"
        and target_seat is not None
        and not any(form[f"loss_{i}_seat"].value() for i in range(MAX_LOSSES))
    ):
        form.data = form.data.copy()
        form.data["loss_0_seat"] = str(target_seat)
    context["loss_rows"] = [
        {"index": i, "seat": form[f"loss_{i}_seat"], "card": form[f"loss_{i}_card"]}
        for i in range(MAX_LOSSES)
    ]
    context["loss_seat_choices"] = [("", "—")] + [
        (str(p["seat"]), names[p["seat"]]) for p in table.players if p["alive"]
    ]
    context["loss_card_choices"] = [("", "—")] + [
        (c, character_label(c)) for c in game_characters(variant)
    ]
    return context


def _coins(count: int) -> str:
    return ngettext("%(count)s coin", "%(count)s coins", count) % {"count": count}


def _influences(count: int) -> str:
    return ngettext("%(count)s influence", "%(count)s influences", count) % {"count": count}


def _seat_words(player: Mapping[str, Any]) -> str:
    # Translators: a player's coins and hidden influences: "3 coins, 2 influences".
    return _("%(coins)s, %(influences)s") % {
        "coins": _coins(player["coins"]),
        "influences": _influences(player["influences"]),
    }


def _standing_words(player: Mapping[str, Any]) -> str:
    """How a player stands in the ranking: "2 influences, 3 coins" or "out on turn 4"."""
    if not player["alive"]:
        return _("out on turn %(number)s") % {"number": player["eliminated_on_turn"]}
    # Translators: a live player's standing in the ranking: "2 influences, 3 coins".
    return _("%(influences)s, %(coins)s") % {
        "influences": _influences(player["influences"]),
        "coins": _coins(player["coins"]),
    }


# --- Finish: nothing to choose ------------------------------------------------------------------


def finish_form(result: dict[str, Any], data: Any = None) -> None:
    return None  # Complots has no end-of-game choices


# --- The game page ------------------------------------------------------------------------------


def seat_rows(players: Sequence[Mapping[str, Any]], current: int | None) -> list[dict[str, Any]]:
    """Every player's coins, hidden influences and face-up cards, the seat to act marked."""
    return [
        {
            **p,
            "current": p["seat"] == current,
            "face_up_labels": [character_label(c) for c in p["face_up"] or ()],
            "hidden_marks": range(p["influences"] or 0),
        }
        for p in players
    ]


# The tie-breaks of the ranking (the engine's ``tiebreak_wording``), with and without the
# players the tie was with.
TIEBREAK_SENTENCES = {
    TIEBREAK_COINS: (
        gettext_lazy("Tie-break: placed by coins among players with as many influences left."),
        gettext_lazy(
            "Tie-break: placed by coins among players with as many influences left "
            "(with %(names)s)."
        ),
    ),
    TIEBREAK_SHARED: (
        gettext_lazy("Tie-break: shared: as many influences left and as many coins."),
        gettext_lazy(
            "Tie-break: shared: as many influences left and as many coins (with %(names)s)."
        ),
    ),
    TIEBREAK_LOSS_ORDER: (
        gettext_lazy(
            "Tie-break: eliminated in the same turn as another; the later loss ranks better."
        ),
        gettext_lazy(
            "Tie-break: eliminated in the same turn as another; the later loss ranks better "
            "(with %(names)s)."
        ),
    ),
}


def tiebreak_words(player: Mapping[str, Any], players: Sequence[Mapping[str, Any]]) -> str:
    """The tie-break that placed ``player`` in words (the engine's ``tiebreak_wording``), with
    the players it was measured against."""
    code = player.get("tiebreak")
    if not code:
        return ""
    if code == "loss_order":
        others = [
            p["name"]
            for p in players
            if p is not player and p["eliminated_on_turn"] == player["eliminated_on_turn"]
        ]
    elif code == "shared":
        others = [
            p["name"]
            for p in players
            if p is not player and p["alive"] and p["rank"] == player["rank"]
        ]
    else:  # coins: the live players with as many influences left
        others = [
            p["name"]
            for p in players
            if p is not player and p["alive"] and p["influences"] == player["influences"]
        ]
    joined = present.names_joined(others)
    if code in TIEBREAK_SENTENCES:
        alone, along = TIEBREAK_SENTENCES[code]
        return str(along) % {"names": joined} if others else str(alone)
    # A tie-break the page does not know: the engine's words.
    wording = get_engine(GAME_TYPE).info.tiebreak_wording.get(code, code)
    tail = f" (with {joined})" if others else ""
    return f"Tie-break: {wording}{tail}."


def _result_standing(player: Mapping[str, Any], players: int) -> str:
    """How a player of a game known by its result stands: "1st out", ..., or the winner's
    "last one standing" (the rank says the place: the first out ranks last, K4)."""
    if player["alive"]:
        return str(LAST_STANDING)
    place = players + 1 - player["rank"]
    return str(OUT_LABELS.get(place, ""))


def ranking(result: Mapping[str, Any], *, by_result: bool = False) -> list[dict[str, Any]]:
    """The players in rank order, with their standing in words: a logged game's influences
    and coins or the turn they went out in; a game known by its result only (``by_result``),
    the place they went out in."""
    players = result.get("players") or []
    rows = [
        {
            **p,
            "rank_words": present.rank_words(p["rank"]),
            "winner": p["seat"] in (result.get("winners") or []),
            "tiebreak_words": tiebreak_words(p, players),
            "standing_words": (
                _result_standing(p, len(players)) if by_result else _standing_words(p)
            ),
        }
        for p in players
    ]
    return sorted(rows, key=lambda p: (p["rank"], p["seat"]))


def stat_label(stat: Any) -> str:
    """A statistic's label in the page's language (the engine's English one if not listed)."""
    return str(STAT_LABELS.get(stat.name, stat.label))


def counts_table(result: Mapping[str, Any]) -> dict[str, Any] | None:
    """The K4 counts: one card per player (a phone reads eight players' cards one under the
    other), each a row per count; a count not kept (a game known by its result) is None, shown
    as a dash. None when no count at all is known."""
    players = result.get("players") or []
    stats = get_engine(GAME_TYPE).info.stats
    if all(p.get(s.name) is None for p in players for s in stats):
        return None
    return {
        "players": [
            {
                "seat": p["seat"],
                "name": p["name"],
                "rank_words": present.rank_words(p["rank"]),
                "rows": [
                    {"key": s.name, "label": stat_label(s), "value": p.get(s.name)} for s in stats
                ],
            }
            for p in players
        ],
    }


def _turn_history(game: Game, result: Mapping[str, Any], names: list[str]) -> list[dict[str, Any]]:
    entries = [r.data for r in game.rounds.all()]  # prefetched, in order
    variant = result.get("variant") or "ambassador"
    history = []
    for turn in result.get("turns") or []:
        entry = entries[turn["turn"] - 1] if turn["turn"] <= len(entries) else {}
        history.append(
            {
                "turn": turn["turn"],
                "words": turn_words(turn, names, variant),
                "detail": _entry_detail(entry, names),
            }
        )
    return history


def _entry_detail(entry: Mapping[str, Any], names: Sequence[str]) -> str:
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


def game_page(
    *,
    game: Game,
    result: dict[str, Any],
    names: list[str],
    table: Table | None,
    entry_form: TurnForm | None,
    finish_form: None,
    can_write: bool,
) -> dict[str, Any]:
    """The context of Complots' pieces of the game page."""
    variant = result.get("variant") or game.variant or "ambassador"
    winners = result.get("winners") or []
    current = table.current if table is not None else None
    # A game known by its result only has no table to show: no turn, coin or card is known.
    by_result = game.mode == Game.Mode.SCOREPAD
    context: dict[str, Any] = {
        "meta_template": "web/complots/game_meta.html",
        "top_template": None if by_result else "web/complots/table.html",
        "by_result": by_result,
        "body_template": "web/complots/game_body.html",
        "over_heading": (
            _("%(name)s wins: one player is left") % {"name": names[winners[0]]}
            if winners
            else _("The game is won")
        ),
        "finish_button": _("Finish the game"),
        "scripts": ["js/turn.js"] if entry_form is not None else [],
        "variant_label": character_label(variant),
        "seat_rows": [] if by_result else seat_rows(result.get("players") or [], current),
        "treasury": result.get("treasury"),
        "turns_played": result.get("turns_played", 0),
        "ranking": ranking(result, by_result=by_result),
        "finished": game.status == Game.Status.FINISHED,
        "counts": counts_table(result) if game.status == Game.Status.FINISHED else None,
        "history": _turn_history(game, result, names),
    }
    if entry_form is not None and table is not None:
        context.update(turn_context(entry_form, table, names))
    return context


# --- The player page ----------------------------------------------------------------------------


def player_section(player: Player, stats: dict[str, Any]) -> dict[str, Any]:
    """What the player page shows of Complots: games, wins, survival and the K4 counts."""
    info = get_engine(GAME_TYPE).info
    counts = [
        {"name": s.name, "label": stat_label(s), "value": stats.get(s.name, 0)} for s in info.stats
    ]
    return {"template": "web/complots/player_section.html", "stats": stats, "counts": counts}
