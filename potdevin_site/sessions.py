"""The session engine (``SESSION_ENGINE``): Django's database sessions, taking only cookies of
the shape its keys have. A ``sessionid`` with NUL (which PostgreSQL refuses in a query) or any
other stray character is no session, never a 500."""

from __future__ import annotations

import re

from django.contrib.sessions.backends.db import SessionStore as DbSessionStore

_SESSION_KEY = re.compile(r"[0-9a-z]{8,64}")  # Django makes 32 lowercase letters and digits


class SessionStore(DbSessionStore):
    def _validate_session_key(self, key: str | None) -> bool:
        return key is not None and _SESSION_KEY.fullmatch(key) is not None
