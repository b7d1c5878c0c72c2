"""Request and response shapes that every game shares, and the bases a game's plugin builds its
own on (games/api/plugins.py says what a plugin's ``api`` part gives). Serializers check shape
only; what a game allows is its engine's to say (with its own error codes), through the
services. Nothing here names a game.

By concern: ``fields`` (the shape bounds and the fields every shape is built from),
``error_shapes`` (the error responses, the id path parameter), ``players`` (the signed-in user,
clubs, players), ``games`` (a game shown, a new game), ``entries`` (entries, end-of-game
choices), ``editions``, ``logs`` (log documents imported and exported). Every name is kept
here: plugins and other apps import them from this package."""

from __future__ import annotations

from games.api.serializers.editions import (
    KEY_SCHEMA,
    EditionDataField,
    EditionSerializer,
    EditionUpdateSerializer,
    description_field,
    games_with_editions,
)
from games.api.serializers.entries import EntryInputSerializer, FinishSerializer, entries_of
from games.api.serializers.error_shapes import ErrorSerializer, errors, id_parameter
from games.api.serializers.fields import (
    MAX_ENTRY_NUMBER,
    MAX_ID,
    MAX_PLAYERS,
    F,
    GameTypeField,
    ResultField,
    default_game_type,
    documented,
    documented_class,
    enum_string,
    game_type_field,
    many,
    result_field,
)
from games.api.serializers.games import (
    BoardGameRefSerializer,
    GameCreateSerializer,
    GameDetailBaseSerializer,
    GameEventSerializer,
    GameListSerializer,
    GameMetaSerializer,
    GameShareSerializer,
    GameSourceSerializer,
    GameTypeSerializer,
    GameUpdateSerializer,
    SeatSerializer,
    board_game_ref,
    first_player_field,
)
from games.api.serializers.logs import (
    IMPORT_REQUEST_SCHEMA,
    MAX_IMPORT_DOCUMENTS,
    ImportedGameSerializer,
    ImportResponseSerializer,
    LogDocumentBaseSerializer,
    import_request_schema,
    log_documents,
)
from games.api.serializers.players import (
    CLUB_QUERY,
    NAME_SCHEMA,
    PLAYER_REF_SCHEMA,
    MeSerializer,
    MyClubSerializer,
    PlayerRefField,
    PlayerRefSerializer,
    PlayerSerializer,
    club_field,
    players_field,
)

__all__ = [
    "CLUB_QUERY",
    "F",
    "IMPORT_REQUEST_SCHEMA",
    "KEY_SCHEMA",
    "MAX_ENTRY_NUMBER",
    "MAX_ID",
    "MAX_IMPORT_DOCUMENTS",
    "MAX_PLAYERS",
    "NAME_SCHEMA",
    "PLAYER_REF_SCHEMA",
    "BoardGameRefSerializer",
    "EditionDataField",
    "EditionSerializer",
    "EditionUpdateSerializer",
    "EntryInputSerializer",
    "ErrorSerializer",
    "FinishSerializer",
    "GameCreateSerializer",
    "GameDetailBaseSerializer",
    "GameEventSerializer",
    "GameListSerializer",
    "GameMetaSerializer",
    "GameShareSerializer",
    "GameSourceSerializer",
    "GameTypeField",
    "GameTypeSerializer",
    "GameUpdateSerializer",
    "ImportResponseSerializer",
    "ImportedGameSerializer",
    "LogDocumentBaseSerializer",
    "MeSerializer",
    "MyClubSerializer",
    "PlayerRefField",
    "PlayerRefSerializer",
    "PlayerSerializer",
    "ResultField",
    "SeatSerializer",
    "board_game_ref",
    "club_field",
    "default_game_type",
    "description_field",
    "documented",
    "documented_class",
    "entries_of",
    "enum_string",
    "errors",
    "first_player_field",
    "game_type_field",
    "games_with_editions",
    "id_parameter",
    "import_request_schema",
    "log_documents",
    "many",
    "players_field",
    "result_field",
]
