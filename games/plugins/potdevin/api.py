"""Pot de Vin's API shapes: a new game (deck, teams, the deal), a round (trump and plays), the
Joker placement at the end, the game as shown, the final tableaux of a scorepad game, and its
deck versions (/api/decks/). Shape only: the rules are the engine's."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import (
    OpenApiExample,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.permissions import StaffWrites
from games.api.plugins import GameApi
from games.api.serializers import (
    KEY_SCHEMA,
    EntryInputSerializer,
    FinishSerializer,
    GameCreateSerializer,
    GameDetailBaseSerializer,
    GameMetaSerializer,
    LogDocumentBaseSerializer,
    description_field,
    documented,
    entries_of,
    enum_string,
    errors,
    game_type_field,
    result_field,
)
from games.plugins.potdevin import GAME_TYPE
from games.records import services
from games.records.models import Edition, Game
from scoring.engine import get_engine
from scoring.engine.potdevin.cards import CARD_COUNT, CARD_NAMES, GUILDS, is_guild_card
from scoring.engine.potdevin.decks import MAX_SYMBOLS_PER_CARD
from scoring.engine.potdevin.rules import TEAM_COUNTS

INFO = get_engine(GAME_TYPE).info
CARD_MAX_LENGTH = 8  # room for a mistyped card, which the engine then names (unknown_card)
# What the engine takes (it refuses another with its own code: unknown_card, bad_hands...):
# a card's name, a seat of the largest table, and seats as the keys of an object ("0", ...).
CARD_SCHEMA: dict[str, Any] = {"type": "string", "pattern": "^[APEU](1[0-3]|[1-9])$"}
SEAT_SCHEMA: dict[str, Any] = {
    "type": "integer",
    "minimum": 0,
    "maximum": max(INFO.player_counts) - 1,
}
SEAT_KEYS = [str(seat) for seat in range(max(INFO.player_counts))]
# Guild names, inline (not an enum component named after a field).
GUILD_SCHEMA: dict[str, Any] = {"type": "string", "allOf": [{"enum": list(GUILDS)}]}
GUILD_CARDS = [CARD_NAMES[i] for i in range(CARD_COUNT) if is_guild_card(i)]
# A deck's cards as the engine takes them (rules D1): every guild card, and no other card, to 1
# or 2 guild symbols (another is bad_deck).
CARDS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        card: {
            "type": "array",
            "items": GUILD_SCHEMA,
            "minItems": 1,
            "maxItems": MAX_SYMBOLS_PER_CARD,
        }
        for card in GUILD_CARDS
    },
    "required": GUILD_CARDS,
    "additionalProperties": False,
}


class PlaySerializer(serializers.Serializer):
    """One action: ``{"seat": 1, "card": "A7"}`` or ``{"seat": 2, "pass": true}``."""

    seat = documented(serializers.IntegerField, SEAT_SCHEMA, min_value=-1000, max_value=1000)
    card = documented(
        serializers.CharField, CARD_SCHEMA, max_length=CARD_MAX_LENGTH, required=False
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["pass"] = serializers.BooleanField(required=False)  # a keyword in Python
        return fields


class RoundEntrySerializer(serializers.Serializer):
    """One round as the log has it."""

    trump = documented(
        serializers.CharField,
        CARD_SCHEMA,
        max_length=CARD_MAX_LENGTH,
        help_text="The revealed card.",
    )
    plays = PlaySerializer(many=True, max_length=12, help_text="Actions in turn order.")


class RoundSerializer(RoundEntrySerializer):
    """One stored round: its number and the round as the log has it."""

    number = serializers.IntegerField(min_value=1)


class RoundInputSerializer(EntryInputSerializer, RoundEntrySerializer):
    """A round to append or correct."""

    def entry_data(self) -> dict[str, Any]:
        data = self.validated_data
        return {"trump": data["trump"], "plays": [dict(p) for p in data["plays"]]}


@extend_schema_field(
    {
        # A key that is no seat is refused (bad_joker_placement), and so is a guild named
        # twice (a column holds one Joker at most).
        "type": "object",
        "properties": {
            seat: {"type": "array", "items": GUILD_SCHEMA, "maxItems": 6, "uniqueItems": True}
            for seat in SEAT_KEYS
        },
        "additionalProperties": False,
    }
)
class JokersField(serializers.DictField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            child=serializers.ListField(child=serializers.CharField(max_length=16), max_length=6),
            allow_null=True,
            required=False,
            help_text='Explicit Joker placement per seat, e.g. {"0": ["nobles"]} (rules D5). '
            "Left out, the engine places them to score most.",
            **kwargs,
        )


class PotDeVinFinishSerializer(FinishSerializer):
    """Pot de Vin's end-of-game choice: where the Jokers go (left out: where they score most)."""

    jokers = JokersField()

    def finish_data(self) -> dict[str, Any] | None:
        jokers = self.validated_data.get("jokers")
        return None if jokers is None else {"jokers": jokers}


def _deck_field() -> serializers.SlugRelatedField:
    return documented(
        serializers.SlugRelatedField,
        KEY_SCHEMA,
        slug_field="key",
        queryset=Edition.objects.filter(game_type=GAME_TYPE),
        required=False,
        help_text=f"The deck version; left out, `{INFO.default_edition}`.",
    )


def _teams_field() -> serializers.ListField:
    # The engine takes pairs of seats: 2 teams of 4 players, 3 of 6 (bad_teams otherwise).
    pair = {
        "type": "array",
        "items": SEAT_SCHEMA,
        "minItems": 2,
        "maxItems": 2,
        "uniqueItems": True,
    }
    return documented(
        serializers.ListField,
        {
            "type": "array",
            "items": pair,
            "minItems": min(TEAM_COUNTS.values()),
            "maxItems": max(TEAM_COUNTS.values()),
        },
        child=serializers.ListField(child=serializers.IntegerField(), max_length=8),
        max_length=8,
        allow_null=True,
        required=False,
        help_text="Seat lists, e.g. [[0, 2], [1, 3]]; null for no teams.",
    )


class PotDeVinGameCreateSerializer(GameCreateSerializer):
    """A new Pot de Vin game: players, first player, teams, the deck version, and the deal if
    the table recorded it."""

    player_counts = INFO.player_counts
    game_type = game_type_field(GAME_TYPE)
    deck = _deck_field()
    teams = _teams_field()
    hands = documented(
        serializers.DictField,
        {  # a key that is no seat is refused (bad_hands)
            "type": "object",
            "properties": {seat: {"type": "array", "items": CARD_SCHEMA} for seat in SEAT_KEYS},
            "additionalProperties": False,
        },
        child=serializers.ListField(child=serializers.CharField(max_length=CARD_MAX_LENGTH)),
        allow_null=True,
        required=False,
        help_text="The deal, if recorded: seat to cards (rules D4).",
    )
    trump_pile = documented(
        serializers.ListField,
        {"type": "array", "items": CARD_SCHEMA, "maxItems": 52},
        child=serializers.CharField(max_length=CARD_MAX_LENGTH),
        max_length=52,
        allow_null=True,
        required=False,
        help_text="The trump pile, if recorded (3-5 players: in reveal order).",
    )

    def game_args(self) -> dict[str, Any]:
        data = self.validated_data
        return {
            "edition": data.get("deck"),
            "teams": data.get("teams"),
            "setup": {"hands": data.get("hands"), "trump_pile": data.get("trump_pile")},
        }


class TableauSerializer(serializers.Serializer):
    """Final tableau of one seat (scorepad mode). Counts default to 0."""

    nobles = serializers.IntegerField(min_value=0, max_value=100, default=0)
    artists = serializers.IntegerField(min_value=0, max_value=100, default=0)
    traders = serializers.IntegerField(min_value=0, max_value=100, default=0)
    workmen = serializers.IntegerField(min_value=0, max_value=100, default=0)
    knights = serializers.IntegerField(min_value=0, max_value=100, default=0)
    assassins = serializers.IntegerField(min_value=0, max_value=100, default=0)
    jokers = serializers.IntegerField(min_value=0, max_value=100, default=0)
    bonus = serializers.IntegerField(min_value=0, max_value=100, default=0, help_text="+2 cards")
    malus = serializers.IntegerField(min_value=0, max_value=100, default=0, help_text="-2 cards")
    pot_de_vin = serializers.IntegerField(min_value=0, max_value=100, default=0)
    gems = serializers.IntegerField(min_value=0, max_value=100, default=0, help_text="gems won")
    cards = serializers.IntegerField(min_value=0, max_value=100, default=0, help_text="cards won")


class PotDeVinScorepadSerializer(GameMetaSerializer):
    """A finished Pot de Vin game known by its final tableaux only."""

    player_counts = INFO.player_counts
    game_type = game_type_field(GAME_TYPE)
    deck = _deck_field()
    teams = _teams_field()
    tableaux = TableauSerializer(many=True, max_length=8, help_text="One per seat.")
    jokers = JokersField()

    def game_args(self) -> dict[str, Any]:
        data = self.validated_data
        jokers = data.get("jokers")
        return {
            "edition": data.get("deck"),
            "teams": data.get("teams"),
            "sheet": [dict(t) for t in data["tableaux"]],
            "finish": None if jokers is None else {"jokers": jokers},
        }


class PotDeVinGameDetailSerializer(GameDetailBaseSerializer):
    """A Pot de Vin game: its deck, the deal, the Joker placement, the tableaux of a scorepad
    game, and its rounds."""

    game_type = game_type_field(GAME_TYPE, read_only=True)
    deck_verified = serializers.BooleanField(read_only=True)
    hands = serializers.JSONField(read_only=True)
    trump_pile = serializers.JSONField(read_only=True)
    jokers = serializers.JSONField(read_only=True)
    tableaux = serializers.JSONField(read_only=True)
    rounds = RoundSerializer(many=True, read_only=True)
    result = result_field(
        "The engine's replay result (format potdevin-result/1): " + INFO.result_detail,
        read_only=True,
    )

    class Meta(GameDetailBaseSerializer.Meta):
        fields = [
            *GameDetailBaseSerializer.Meta.fields,
            "deck_verified",
            "hands",
            "trump_pile",
            "jokers",
            "tableaux",
            "rounds",
        ]

    def game_fields(self, game: Game) -> dict[str, Any]:
        setup = game.setup or {}
        return {
            "deck_verified": game.edition.verified if game.edition_id is not None else None,
            "hands": setup.get("hands"),
            "trump_pile": setup.get("trump_pile"),
            "jokers": (game.finish or {}).get("jokers"),
            "tableaux": game.sheet,
            "rounds": entries_of(game),
        }


class PotDeVinLogSerializer(LogDocumentBaseSerializer):
    """Documentation only: the export is a potdevin-log/1 document."""

    format = enum_string([INFO.log_format])
    teams = serializers.JSONField(allow_null=True)
    deck = serializers.CharField()
    hands = serializers.JSONField(allow_null=True)
    trump_pile = serializers.JSONField(allow_null=True)
    rounds = RoundEntrySerializer(many=True)
    jokers = serializers.JSONField(allow_null=True)


# --- Deck versions: Pot de Vin's editions under the name its clients know ---------------------


class DeckSerializer(serializers.ModelSerializer):
    """A deck version: Pot de Vin's edition, its data under the name `cards`."""

    game_type = game_type_field(GAME_TYPE)
    cards = documented(
        serializers.DictField,
        CARDS_SCHEMA,
        source="data",
        child=serializers.ListField(child=serializers.CharField(max_length=16), max_length=2),
        help_text='Each guild card (values 4 to 12) to its guild symbols, e.g. {"A4": '
        '["nobles"], "A10": ["nobles", "nobles"]}.',
    )
    description = description_field()

    class Meta:
        model = Edition
        fields = ["key", "game_type", "description", "verified", "cards", "created_at"]
        read_only_fields = ["created_at"]
        extra_kwargs = {"key": {"validators": []}}  # uniqueness is the service's (409)
        validators: list[Any] = []  # and per game type too


class DeckUpdateSerializer(serializers.ModelSerializer):
    class Meta:
        model = Edition
        fields = ["description", "verified"]


@extend_schema_view(
    list=extend_schema(responses={200: DeckSerializer(many=True), **errors(400, 401, 404)}),
    retrieve=extend_schema(responses={200: DeckSerializer, **errors(401, 404)}),
    create=extend_schema(responses={201: DeckSerializer, **errors(400, 401, 409, 413, 429)}),
    partial_update=extend_schema(
        request=DeckUpdateSerializer,
        responses={200: DeckSerializer, **errors(400, 401, 403, 404, 413, 429)},
    ),
)
class DeckViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Deck versions (Pot de Vin's editions, also at /api/editions/): which guild symbols each
    guild card carries (rules D1). A version's cards never change: a correction is a new
    version. `standard` is built from a rule and is NOT verified against the printed cards.
    Staff mark a version verified."""

    serializer_class = DeckSerializer
    lookup_field = "key"
    # Keys are slugs: anything else is no deck (and PostgreSQL refuses a NUL in a query).
    lookup_value_regex = "[-a-zA-Z0-9_]+"
    http_method_names = ["get", "post", "patch"]

    def get_queryset(self) -> QuerySet[Edition]:
        return Edition.objects.filter(game_type=GAME_TYPE)

    def get_permissions(self) -> list[Any]:
        if self.action == "partial_update":
            return [*super().get_permissions(), StaffWrites()]
        return super().get_permissions()

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Edition]]:
        return DeckUpdateSerializer if self.action == "partial_update" else DeckSerializer

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = DeckSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        deck = services.edition_create(
            game_type=GAME_TYPE,
            key=serializer.validated_data["key"],
            data=serializer.validated_data["data"],
            description=serializer.validated_data.get("description", ""),
            verified=False,  # only staff mark a deck verified, after checking it
            created_by=request.user,
        )
        return Response(DeckSerializer(deck).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        super().update(request, *args, **kwargs)
        return Response(DeckSerializer(self.get_object()).data)


SCOREPAD_EXAMPLES = (
    OpenApiExample(
        "Pot de Vin: a game known by its final tableaux",
        value={
            "game_type": GAME_TYPE,
            "players": ["Ada", "Bea", "Cy"],
            "tableaux": [
                {"nobles": 3, "artists": 2, "jokers": 1, "gems": 2, "cards": 5},
                {"traders": 2, "workmen": 2, "pot_de_vin": 1, "gems": 1, "cards": 4},
                {"knights": 3, "assassins": 1, "bonus": 1, "gems": 1, "cards": 4},
            ],
        },
        request_only=True,
    ),
)

API = GameApi(
    create=PotDeVinGameCreateSerializer,
    entry=RoundInputSerializer,
    entry_out=RoundSerializer,
    finish=PotDeVinFinishSerializer,
    detail=PotDeVinGameDetailSerializer,
    log=PotDeVinLogSerializer,
    scorepad=PotDeVinScorepadSerializer,
    edition_data_schema=CARDS_SCHEMA,  # an edition's data is its deck's cards
    scorepad_examples=SCOREPAD_EXAMPLES,
    create_examples=(
        OpenApiExample(
            "Pot de Vin: a 3-player game",
            value={
                "game_type": GAME_TYPE,
                "players": ["Ada", "Bea", "Cy"],
                "first_player": 1,
                "location": "Club night",
            },
            request_only=True,
        ),
    ),
    entry_examples=(
        OpenApiExample(
            "Pot de Vin: a round",
            value={
                "number": 1,
                "trump": "E5",
                "plays": [
                    {"seat": 1, "card": "A7"},
                    {"seat": 2, "pass": True},
                    {"seat": 0, "card": "A9"},
                ],
            },
            request_only=True,
        ),
    ),
    routes=(("decks", DeckViewSet, "deck"),),
)
