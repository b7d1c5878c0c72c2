"""Player names that mean one person, the same on every route (create, scorepad, import, the
pages): ``player_name`` is the one rule.

- Invisible format characters (Unicode category Cf: zero-width spaces and joiners, the
  byte-order mark, left-to-right and right-to-left marks and bidi embeddings, isolates and
  overrides) are removed: they change nothing a person sees, yet "Ada\\u200b" would be a second
  Ada, and a bidi override can make a name read backwards in every list that shows it.
- The name is then NFKC-normalised (compatibility forms folded: a full-width "Ａｄａ" is "Ada"),
  every run of white space becomes one space, and the ends are trimmed.
- Other control characters (NUL, escape, ...) and lone surrogates are refused, not stripped:
  they are no part of a name, and a silent repair would hide a client's bug.
- What is left has 1 to ``MAX_NAME_LENGTH`` characters.

Names are told apart by ``models.name_key``: the normalised name case-folded. Case-folding a
character gives at most 3 (``KEY_GROWTH``), so the key column holds 3 x 80 characters.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from django.utils.translation import gettext as _

MAX_NAME_LENGTH = 80
KEY_GROWTH = 3  # the most characters str.casefold() makes of one (tests check every one)
_SPACES = re.compile(r"\s+")


class BadName(ValueError):
    """A name no player can have; ``code`` is the API's (invalid_text, too_long, blank_name)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def player_name(raw: str, *, max_length: int = MAX_NAME_LENGTH) -> str:
    """``raw`` as a player's name (see the module's docstring), or as another name under the
    same rule with its own length (a club's named game). Raises ``BadName``."""
    return _player_name(raw, max_length)


# A club's few names come back in every game of an import (a thousand games, thirty names):
# the names made are remembered. A refusal is not (its message is in the asker's language).
@lru_cache(maxsize=4096)
def _player_name(raw: str, max_length: int) -> str:
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        raise BadName("invalid_text", _("a name cannot hold a lone surrogate")) from None
    visible = "".join(c for c in raw if unicodedata.category(c) != "Cf")
    name = _SPACES.sub(" ", unicodedata.normalize("NFKC", visible)).strip()
    if any(unicodedata.category(c) == "Cc" for c in name):
        raise BadName("invalid_text", _("a name cannot hold control characters"))
    if not name:
        raise BadName("blank_name", _("a name cannot be blank"))
    if len(name) > max_length:
        raise BadName(
            "too_long",
            _("a name has at most %(most)s characters, not %(length)s")
            % {"most": max_length, "length": len(name)},
        )
    return name
