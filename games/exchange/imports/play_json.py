"""Plays as plain JSON (an import job keeps them until its batches read them), a play's
fingerprint, and a file as the import reads it (``play_file_prepared``)."""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
from dataclasses import asdict
from typing import Any

from django.utils.translation import gettext as _

from games.exchange.formats.plays import (
    ForeignGame,
    ForeignPlay,
    ForeignPlayer,
    PlayFile,
    Problem,
    Skipped,
)
from games.records import stored_json
from games.records.errors import RecordError


def fingerprint(play: ForeignPlay) -> str:
    """The play's fingerprint: the reader's, or a digest of everything the play holds."""
    if play.fingerprint:
        return play.fingerprint
    body = play_to_json(play)
    body.pop("fingerprint", None)
    body["problems"] = [[p.code, p.seat] for p in play.problems]
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def play_to_json(play: ForeignPlay) -> dict[str, Any]:
    """The play as plain JSON values (lists, dates and times as ISO text)."""
    body: dict[str, Any] = json.loads(json.dumps(asdict(play), default=_iso))
    return body


def _iso(value: Any) -> str:
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


def _from(cls: type[Any], body: Any) -> Any:
    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: v for k, v in body.items() if k in names})


def play_from_json(body: dict[str, Any]) -> ForeignPlay:
    """A play as ``play_to_json`` wrote it. Raises ``KeyError``, ``TypeError`` or
    ``ValueError`` for anything else."""
    fields = {f.name for f in dataclasses.fields(ForeignPlay)}
    values = {k: v for k, v in body.items() if k in fields}
    values["game"] = _from(ForeignGame, body["game"])
    values["players"] = tuple(_from(ForeignPlayer, p) for p in body["players"])
    values["problems"] = tuple(_from(Problem, p) for p in body.get("problems", ()))
    values["played_on"] = datetime.date.fromisoformat(body["played_on"])
    if values.get("played_time") is not None:
        values["played_time"] = datetime.time.fromisoformat(values["played_time"])
    return ForeignPlay(**values)


def safe_text(text: str) -> str:
    """``text`` as every database stores it: NUL removed, a lone surrogate replaced. For what
    a report quotes from a file (a play's id, a reader's words), never for what is imported."""
    return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text.replace("\x00", ""))


def play_file_prepared(play_file: PlayFile) -> PlayFile:
    """``play_file`` as the import reads it: a play the file holds twice is skipped after its
    first time (``duplicate_play``), and a play no database stores whole (a NUL or a lone
    surrogate in a name: ``games.records.stored_json``) is skipped with the gate's code. A prepared
    file is its own preparation."""
    kept: list[ForeignPlay] = []
    skipped = [
        Skipped(s.external_id and safe_text(s.external_id), s.code, safe_text(s.message))
        for s in play_file.skipped
    ]
    seen: set[str] = set()
    for play in play_file.plays:
        try:
            stored_json.check(play_to_json(play))
        except RecordError as exc:
            skipped.append(Skipped(safe_text(play.external_id), exc.code, safe_text(exc.message)))
            continue
        if play.external_id in seen:
            skipped.append(
                Skipped(
                    play.external_id,
                    "duplicate_play",
                    _("the file holds this play twice: the first one is imported"),
                )
            )
            continue
        seen.add(play.external_id)
        kept.append(play)
    return dataclasses.replace(play_file, plays=kept, skipped=skipped)
