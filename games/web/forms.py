"""Generic forms of the web scorepad. They check what a person typed (blanks, numbers,
choices); what a game allows is the engine's to say, through the services. A game's own fields
(Pot de Vin's teams and deck, Complots' variant, an entry) are in its plugin's web part."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.records import selectors, services
from games.records.errors import RecordError
from games.records.game_types import GamePlugin
from games.records.models import MAX_LOCATION_LENGTH, MAX_NOTES_LENGTH, Edition, name_key
from games.records.names import MAX_NAME_LENGTH
from games.web import present
from scoring.engine import LogError

# A player's name: refused past the name rule's limit (the field says "at most 80 characters"),
# never cut.
NAME_MAX_LENGTH = MAX_NAME_LENGTH


def uncut(field: forms.Field) -> forms.Field:
    """``field`` without the ``maxlength`` Django gives its input: a browser stops the typing
    there and cuts a pasted name silently, mid-word. The server refuses a longer one, at the
    field, with its limit."""
    field.widget.attrs.pop("maxlength", None)
    return field


class PlayersForm(forms.Form):
    """Players in seat order (clockwise), date, place and notes: shared by every way to record a
    game. As many seat rows as the game takes players."""

    played_on = forms.DateField(
        required=False,
        label=gettext_lazy("Played on"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    location = uncut(
        forms.CharField(
            required=False, max_length=MAX_LOCATION_LENGTH, label=gettext_lazy("Location")
        )
    )
    notes = forms.CharField(
        required=False,
        max_length=MAX_NOTES_LENGTH,
        label=gettext_lazy("Notes"),
        help_text=gettext_lazy("Anything worth remembering about the game (kept with its log)."),
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    game_type = forms.CharField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, plugin: GamePlugin, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("game_type", plugin.game_type)
        super().__init__(*args, **kwargs)
        self.plugin = plugin
        self.min_players, self.max_players = present.player_range(plugin)
        names = {}
        for seat in range(self.max_players):
            names[f"player_{seat}"] = forms.CharField(
                required=False,
                max_length=NAME_MAX_LENGTH,
                # Seats are counted from 1 on every page (the API's are 0-based).
                label=_("Seat %(number)s") % {"number": seat + 1},
                widget=forms.TextInput(
                    attrs={"list": "known-players", "autocomplete": "off", "class": "player-name"}
                ),
            )
        for field in names.values():
            uncut(field)
        # The player rows come first, in seat order.
        self.fields = {**names, **self.fields}

    def player_fields(self) -> list[forms.BoundField]:
        return [self[f"player_{s}"] for s in range(self.max_players)]

    def clean_game_type(self) -> str:
        value = self.cleaned_data["game_type"]
        if value != self.plugin.game_type:
            raise forms.ValidationError(
                _("This form records %(game)s games.") % {"game": self.plugin.label}
            )
        return value

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        # A seat whose name was refused (too long) is named all the same: no gap there.
        refused = {s for s in range(self.max_players) if f"player_{s}" in self.errors}
        raw = [
            "" if s in refused else (data.get(f"player_{s}") or "").strip()
            for s in range(self.max_players)
        ]
        count = max((s + 1 for s, name in enumerate(raw) if name or s in refused), default=0)
        names = raw[:count]
        for seat, name in enumerate(names):
            if not name and seat not in refused:
                self.add_error(f"player_{seat}", _("Fill the seats in order, with no gap."))
        low, high = self.min_players, self.max_players
        if count < low:
            self.add_error(
                "player_0",
                _("%(game)s is for %(low)s to %(high)s players: name at least %(low)s.")
                % {"game": self.plugin.label, "low": low, "high": high},
            )
        seen: set[str] = set()
        for seat, name in enumerate(names):
            key = name_key(name)
            if name and key in seen:
                self.add_error(f"player_{seat}", _("%(name)s already has a seat.") % {"name": name})
            seen.add(key)
        data["names"] = names
        return data


class NewGameForm(PlayersForm):
    """A game to be entered entry by entry: players, who starts; the game's own options are
    the plugin's ``NewGameOptions``, a form of its own on the same page."""

    first_player = forms.TypedChoiceField(
        choices=[], coerce=int, initial=0, label=gettext_lazy("First player")
    )

    def __init__(self, *args: Any, plugin: GamePlugin, **kwargs: Any) -> None:
        super().__init__(*args, plugin=plugin, **kwargs)
        field = self.fields["first_player"]
        field.choices = [  # type: ignore[attr-defined]
            (s, _("Seat %(number)s") % {"number": s + 1}) for s in range(self.max_players)
        ]
        field.help_text = present.entry_text(plugin.game_type, "first_player_help")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        first = data.get("first_player")
        if first is not None and data["names"] and first >= len(data["names"]):
            self.add_error("first_player", _("The first player must be one of the seats named."))
        return data


class RescoreForm(forms.Form):
    """Which stored games to replay, and with which edition (of the games that have some)."""

    game_type = forms.ChoiceField(choices=[], required=False, label=gettext_lazy("Game type"))
    edition = forms.ChoiceField(
        choices=[], required=False, label=gettext_lazy("Only games with edition")
    )
    date_from = forms.DateField(
        required=False,
        label=gettext_lazy("Played from"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    date_to = forms.DateField(
        required=False,
        label=gettext_lazy("Played to"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    new_edition = forms.ChoiceField(
        choices=[], required=False, label=gettext_lazy("Re-score with edition")
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        editions = present.edition_choices()
        self.fields["game_type"].choices = [  # type: ignore[attr-defined]
            ("", _("Every game type")),
            *present.game_choices(),
        ]
        self.fields["edition"].choices = [("", _("Any edition")), *editions]  # type: ignore[attr-defined]
        self.fields["new_edition"].choices = [  # type: ignore[attr-defined]
            ("", _("Keep each game's edition")),
            *editions,
        ]

    def _edition(self, name: str) -> Any:
        value = self.cleaned_data.get(name)
        if not value:
            return None
        edition = selectors.edition_by_value(value)
        if edition is None:
            self.add_error(name, _("No such edition."))
        return edition

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in ("edition", "new_edition"):
            data[name] = self._edition(name)
        chosen = data.get("game_type")
        for name in ("edition", "new_edition"):
            edition = data.get(name)
            if edition is not None and chosen and edition.game_type != chosen:
                self.add_error(name, _("This edition is of another game."))
        return data

    def job_params(self) -> dict[str, Any]:
        return {k: v for k, v in self.cleaned_data.items() if v not in (None, "")}


def edition_create_from_form(
    form: forms.Form, *, game_type: str, data: dict[str, Any], created_by: Any
) -> Edition | None:
    """Store a new, unverified version of an edition from a valid "new from existing" form
    (key, description; ``data`` read from the form by its game). A refusal goes back on the
    form: a taken or bad key on ``key``, data the engine rejects on the form; then None."""
    try:
        return services.edition_create(
            game_type=game_type,
            key=form.cleaned_data["key"],
            data=data,
            description=form.cleaned_data["description"],
            verified=False,  # staff mark it verified once checked against the printed game
            created_by=created_by,
        )
    except RecordError as exc:
        form.add_error("key", exc.message)
    except LogError as exc:
        form.add_error(None, exc.message)
    return None


def edition_mark_verified_from_post(
    request: HttpRequest,
    edition: Edition,
    *,
    label: str,
    url_name: str,
    done_texts: tuple[str, str] | None = None,
) -> HttpResponse:
    """The edition page's "verified" button (staff only): mark ``edition`` checked, or not,
    against the printed game, say so, and go back to its page (``url_name``, by key).
    ``done_texts``: the game's own two sentences (marked verified, marked not verified) with
    ``%(key)s``, in the reader's language; else the generic ones with ``label`` (what the game
    calls an edition)."""
    if not request.user.is_staff:
        raise PermissionDenied("staff only")
    verified = request.POST.get("verified") == "1"
    services.edition_mark_verified(edition=edition, verified=verified)
    if done_texts is not None:
        done = done_texts[0] if verified else done_texts[1]
    elif verified:
        # Translators: %(label)s is what a game calls an edition ("Deck"), %(key)s its key.
        done = _("%(label)s %(key)s marked verified.")
    else:
        # Translators: %(label)s is what a game calls an edition ("Deck"), %(key)s its key.
        done = _("%(label)s %(key)s marked not verified.")
    messages.success(request, str(done) % {"label": label, "key": edition.key})
    return redirect(url_name, key=edition.key)
