"""Complots' turn entry: a plain HTML form in two steps, fit for a phone without JavaScript.
First the action (only the ones the rules allow the seat to act) and its target; then who
challenged the claim, who blocked (only the players and characters allowed) and who challenged
the block, and the cards turned up. Which losses the turn requires is computed from the rules
(shared/rules/complots.md) only to prefill the loss rows; the engine checks the turn, and its
refusal is shown next to the field that caused it. What the page offers at each step is
``pages.turn_context``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.plugins.complots import GAME_TYPE
from games.plugins.complots.table import (
    Table,
    block_characters,
    claim_of,
    is_blockable,
    is_targeted,
    required_losses,
)
from games.plugins.complots.words import (
    CHARACTER_LABELS,
    REFUSAL_VOCABULARY,
    entry_detail,
    seat_words,
    turn_words,
)
from games.records.errors import RecordError
from games.records.models import Game
from games.web import refusals
from scoring.engine import LogError, get_engine
from scoring.engine.complots.rules import ACTION_NAMES, CHARACTER_NAMES

MAX_LOSSES = 3  # the claim's challenge, the block's challenge, the coup or assassination
YES, NO = "yes", "no"

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
    detail = entry_detail(entry, names)
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
                % {"name": names[p["seat"]], "coins_and_influences": seat_words(p)}
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
