"""Request and response shapes of the API. Serializers check shape only; what a game allows is
the engine's to say (with its own error codes), through the services."""

from __future__ import annotations

import datetime
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import GAME_TYPES, Deck, Game, Player, Round, Seat

MAX_IMPORT_DOCUMENTS = 1000
_DATETIME = serializers.DateTimeField()


def _datetime(value: datetime.datetime | None) -> str | None:
    return None if value is None else _DATETIME.to_representation(value)


CARD_MAX_LENGTH = 8  # room for a mistyped card, which the engine then names (unknown_card)


class ErrorSerializer(serializers.Serializer):
    """Every error response."""

    code = serializers.CharField(help_text="Stable error code, e.g. `unknown_card`.")
    message = serializers.CharField(help_text="What went wrong, for people.")
    round = serializers.IntegerField(allow_null=True, help_text="1-based round, if any.")
    seat = serializers.IntegerField(allow_null=True, help_text="Seat (0-based), if any.")
    index = serializers.IntegerField(
        required=False, help_text="Import only: which document of the list."
    )
    fields = serializers.DictField(
        required=False, help_text="Form errors per field (code `invalid`)."
    )
    wait = serializers.FloatField(
        required=False, allow_null=True, help_text="Throttled: seconds to wait."
    )


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    is_staff = serializers.BooleanField()
    player = serializers.IntegerField(allow_null=True, help_text="The linked player's id.")


class PlayerSerializer(serializers.ModelSerializer):
    user = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)  # no account: null

    class Meta:
        model = Player
        fields = ["id", "name", "user", "created_at"]
        read_only_fields = ["id", "user", "created_at"]
        extra_kwargs = {"name": {"validators": []}}  # uniqueness is the service's (409)

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError("a name cannot be blank")
        return value


class PlayerRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name"]


class DeckSerializer(serializers.ModelSerializer):
    cards = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField(max_length=16), max_length=2),
        help_text='Each guild card (values 4 to 12) to its guild symbols, e.g. {"A4": '
        '["nobles"], "A10": ["nobles", "nobles"]}.',
    )

    class Meta:
        model = Deck
        fields = ["key", "game_type", "description", "verified", "cards", "created_at"]
        read_only_fields = ["created_at"]
        extra_kwargs = {"key": {"validators": []}}  # uniqueness is the service's (409)


class DeckUpdateSerializer(serializers.ModelSerializer):
    class Meta:
        model = Deck
        fields = ["description", "verified"]


class SeatSerializer(serializers.ModelSerializer):
    player = PlayerRefSerializer(read_only=True)

    class Meta:
        model = Seat
        fields = ["seat", "player", "team", "score", "rank"]


class PlaySerializer(serializers.Serializer):
    """One action: ``{"seat": 1, "card": "A7"}`` or ``{"seat": 2, "pass": true}``."""

    seat = serializers.IntegerField(min_value=-1000, max_value=1000)
    card = serializers.CharField(max_length=CARD_MAX_LENGTH, required=False)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["pass"] = serializers.BooleanField(required=False)  # a keyword in Python
        return fields

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        value: dict[str, Any] = super().to_internal_value(data)
        return value


class RoundSerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = ["number", "trump", "plays"]


class RoundInputSerializer(serializers.Serializer):
    number = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=1000,
        help_text="Append: the number this round should get. When the game has moved on "
        "(another client appended first) the request gets 409 `round_conflict`.",
    )
    trump = serializers.CharField(max_length=CARD_MAX_LENGTH, help_text="The revealed card.")
    plays = PlaySerializer(many=True, max_length=12, help_text="Actions in turn order.")

    def round_data(self) -> dict[str, Any]:
        data = self.validated_data
        return {"trump": data["trump"], "plays": [dict(p) for p in data["plays"]]}


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


class FinishSerializer(serializers.Serializer):
    jokers = JokersField()


class GameListSerializer(serializers.ModelSerializer):
    deck = serializers.SlugRelatedField(slug_field="key", read_only=True)
    owner = serializers.CharField(source="owner.get_username", read_only=True)
    seats = SeatSerializer(many=True, read_only=True)
    winners = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id",
            "game_type",
            "deck",
            "played_on",
            "location",
            "mode",
            "status",
            "player_count",
            "owner",
            "seats",
            "winners",
            "created_at",
        ]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_winners(self, game: Game) -> list[int]:
        return [s.seat for s in game.seats.all() if s.rank == 1]

    def to_representation(self, game: Game) -> dict[str, Any]:
        # Written out by hand: the generic field-by-field path is most of a read's time.
        # The declared fields above stay the documented shape (the schema tests hold them).
        seats = [
            {
                "seat": s.seat,
                "player": {"id": s.player_id, "name": s.player.name},
                "team": s.team,
                "score": s.score,
                "rank": s.rank,
            }
            for s in game.seats.all()
        ]
        return {
            "id": game.pk,
            "game_type": game.game_type,
            "deck": game.deck.key,
            "played_on": game.played_on.isoformat(),
            "location": game.location,
            "mode": game.mode,
            "status": game.status,
            "player_count": game.player_count,
            "owner": game.owner.get_username(),
            "seats": seats,
            "winners": [s["seat"] for s in seats if s["rank"] == 1],
            "created_at": _datetime(game.created_at),
        }


@extend_schema_field(
    {
        "type": "object",
        "description": "The engine's replay result (format potdevin-result/1): per seat score, "
        "rank, tiebreak, cards_won, gems_won, tableau and scorepad breakdown; teams; rounds "
        "with their winner; winners; violations; complete. See docs/pot-de-vin-engine.md.",
        "additionalProperties": True,
    }
)
class ResultField(serializers.JSONField):
    pass


class GameDetailSerializer(GameListSerializer):
    rounds = RoundSerializer(many=True, read_only=True)
    result = ResultField(read_only=True)
    teams = serializers.JSONField(read_only=True)
    hands = serializers.JSONField(read_only=True)
    trump_pile = serializers.JSONField(read_only=True)
    jokers = serializers.JSONField(read_only=True)
    tableaux = serializers.JSONField(read_only=True)
    deck_verified = serializers.BooleanField(source="deck.verified", read_only=True)

    def to_representation(self, game: Game) -> dict[str, Any]:
        body = super().to_representation(game)
        body.update(
            notes=game.notes,
            deck_verified=game.deck.verified,
            first_player=game.first_player,
            teams=game.teams,
            hands=game.hands,
            trump_pile=game.trump_pile,
            jokers=game.jokers,
            tableaux=game.tableaux,
            rounds=[
                {"number": r.number, "trump": r.trump, "plays": r.plays} for r in game.rounds.all()
            ],
            result=game.result,
            engine_version=game.engine_version,
            updated_at=_datetime(game.updated_at),
            finished_at=_datetime(game.finished_at),
        )
        return body

    class Meta(GameListSerializer.Meta):
        fields = [
            *GameListSerializer.Meta.fields,
            "notes",
            "deck_verified",
            "first_player",
            "teams",
            "hands",
            "trump_pile",
            "jokers",
            "tableaux",
            "rounds",
            "result",
            "engine_version",
            "updated_at",
            "finished_at",
        ]


@extend_schema_field(
    {"oneOf": [{"type": "integer"}, {"type": "string", "minLength": 1, "maxLength": 80}]}
)
class PlayerRefField(serializers.Field):
    """A player by id, or by name (created if new)."""

    def to_internal_value(self, data: Any) -> int | str:
        if type(data) is int:
            return data
        if isinstance(data, str) and data.strip() and len(data) <= 80:
            return data.strip()
        raise serializers.ValidationError("a player id, or a name of 1 to 80 characters")

    def to_representation(self, value: Any) -> Any:
        return value


class GameMetaSerializer(serializers.Serializer):
    game_type = serializers.ChoiceField(choices=GAME_TYPES, default="pot-de-vin")
    deck = serializers.SlugRelatedField(
        slug_field="key", queryset=Deck.objects.all(), required=False
    )
    players = serializers.ListField(
        child=PlayerRefField(),
        min_length=1,
        max_length=8,
        help_text="Seat order, clockwise: player ids, or names (a new name creates a player).",
    )
    teams = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), max_length=8),
        max_length=8,
        allow_null=True,
        required=False,
        help_text="Seat lists, e.g. [[0, 2], [1, 3]]; null for no teams.",
    )
    played_on = serializers.DateField(required=False)
    location = serializers.CharField(max_length=120, required=False, allow_blank=True)
    notes = serializers.CharField(max_length=5000, required=False, allow_blank=True)


class GameCreateSerializer(GameMetaSerializer):
    first_player = serializers.IntegerField(min_value=0, max_value=7)
    hands = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField(max_length=CARD_MAX_LENGTH)),
        allow_null=True,
        required=False,
        help_text="The deal, if recorded: seat to cards (rules D4).",
    )
    trump_pile = serializers.ListField(
        child=serializers.CharField(max_length=CARD_MAX_LENGTH),
        max_length=52,
        allow_null=True,
        required=False,
        help_text="The trump pile, if recorded (3-5 players: in reveal order).",
    )


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


class ScorepadCreateSerializer(GameMetaSerializer):
    tableaux = TableauSerializer(many=True, max_length=8, help_text="One per seat.")
    jokers = JokersField()


class GameUpdateSerializer(serializers.ModelSerializer):
    class Meta:
        model = Game
        fields = ["played_on", "location", "notes"]


IMPORT_REQUEST_SCHEMA = {
    "oneOf": [
        {"type": "object", "additionalProperties": True},
        {
            "type": "array",
            "items": {"type": "object", "additionalProperties": True},
            "minItems": 1,
            "maxItems": MAX_IMPORT_DOCUMENTS,
        },
    ],
    "description": "One potdevin-log/1 document, or a list of them.",
}


def log_documents(data: Any, limit: int) -> list[Any]:
    """The log documents of an import request: one document, or a list of 1 to ``limit``."""
    documents = data if isinstance(data, list) else [data]
    if not documents or len(documents) > limit:
        raise serializers.ValidationError({"documents": [f"send 1 to {limit} log documents"]})
    return documents


class ImportedGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    player_count = serializers.IntegerField()
    winners = serializers.ListField(child=serializers.IntegerField())


class ImportResponseSerializer(serializers.Serializer):
    games = ImportedGameSerializer(many=True, help_text="The games made, in document order.")


class RoundAppendResponseSerializer(serializers.Serializer):
    round = RoundSerializer()
    result = ResultField(help_text="Standings after this round.")


class LogDocumentSerializer(serializers.Serializer):
    """Documentation only: the export is a potdevin-log/1 document."""

    format = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    teams = serializers.JSONField(allow_null=True)
    first_player = serializers.IntegerField()
    deck = serializers.CharField()
    hands = serializers.JSONField(allow_null=True)
    trump_pile = serializers.JSONField(allow_null=True)
    rounds = serializers.JSONField()
    jokers = serializers.JSONField(allow_null=True)
    played_on = serializers.CharField()
    location = serializers.CharField(allow_blank=True)
    notes = serializers.CharField(allow_blank=True)
