"""Writes to game records of any game. Every write that depends on the entries runs the game's
engine on the game as it would stand afterwards, inside one transaction with the game row
locked, and stores nothing if the engine refuses it. What is game-shaped comes from the
engine's ``GameInfo``; nothing here names a game.

Modules: ``players`` (the clubs' rosters), ``editions``, ``games`` (a game created, finished,
reopened, changed, deleted, exported), ``entries`` (appended, undone, corrected), ``shares``
(read-only links), ``logs`` (our own log documents imported), ``common`` (what they share).
Callers use this package's names (``services.game_create``): a test replacing one here
replaces it for every caller outside the package.
"""

from games.records.services.common import (
    _check_club,
    _check_distinct,
    _clean_notes,
    _game_info,
    _seats_for,
    games_touch,
    history_event,
)
from games.records.services.editions import (
    EditionCache,
    _edition_for,
    edition_create,
    edition_default,
    edition_mark_verified,
    editions_by_key,
    editions_ensure_builtin,
)
from games.records.services.entries import round_append, round_correct, round_undo
from games.records.services.games import (
    game_create,
    game_delete,
    game_export_log,
    game_finish,
    game_reopen,
    game_update,
    scorepad_game_create,
)
from games.records.services.logs import (
    MAX_IMPORT_ENTRIES,
    PlannedGame,
    game_import,
    import_plan,
    import_store,
    log_document_check,
    log_document_clean,
)
from games.records.services.players import clean_name, player_create, player_update, players_resolve
from games.records.services.shares import MAX_SHARES, share_create, share_revoke

__all__ = [
    "EditionCache",
    "MAX_IMPORT_ENTRIES",
    "MAX_SHARES",
    "PlannedGame",
    "clean_name",
    "edition_create",
    "edition_default",
    "edition_mark_verified",
    "editions_by_key",
    "editions_ensure_builtin",
    "game_create",
    "game_delete",
    "game_export_log",
    "game_finish",
    "game_import",
    "game_reopen",
    "game_update",
    "games_touch",
    "history_event",
    "import_plan",
    "import_store",
    "log_document_check",
    "log_document_clean",
    "player_create",
    "player_update",
    "players_resolve",
    "round_append",
    "round_correct",
    "round_undo",
    "scorepad_game_create",
    "share_create",
    "share_revoke",
    # What games.records.board_games and games.exchange.imports build on.
    "_check_club",
    "_check_distinct",
    "_clean_notes",
    "_edition_for",
    "_game_info",
    "_seats_for",
]
