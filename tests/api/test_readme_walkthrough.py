"""The README's API walk-through runs as written, on a server with one club: an account made
with `createsuperuser`, then its Pot de Vin and Complots commands, in order, with the README's
own bodies and routes. Each command must succeed, except the ones the README shows refused
(the comment after them gives the refusal's code, round and seat, which must be the answer's).
The commands are read from README.md itself, so an edit of the walk-through is tested too.
(The Bruges part takes its bodies from a simulated game with jq, and is not replayed here.)"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from games.records.models import Edition, Game, Membership
from tests.accounts import first_club

README = Path(__file__).resolve().parents[2] / "README.md"
PASSWORD = "walk-through-password-42"
BASE = "http://127.0.0.1:8000"

# Ids from 1, as on the fresh server the README starts from (its commands name games 1 and 2).
pytestmark = pytest.mark.django_db(transaction=True, reset_sequences=True)


def _blocks() -> list[str]:
    """The walk-through's first two ``sh`` blocks: Pot de Vin, then Complots."""
    text = README.read_text(encoding="utf-8")
    start = text.index("With `make run` going, in another terminal")
    blocks = re.findall(r"```sh\n(.*?)```", text[start:], re.S)
    return blocks[:2]


def _commands(block: str) -> list[tuple[str, str | None]]:
    """Each command of a block (continuation lines joined), with the refusal the comment
    after it shows, if any (``# {"code": ...``)."""
    joined = block.replace("\\\n", " ")
    lines = joined.split("\n")
    out: list[tuple[str, str | None]] = []
    for i, line in enumerate(lines):
        if not line or line.startswith("#"):
            continue
        refusal = None
        if lines[i + 1 : i + 2] and lines[i + 1].startswith('# {"code"'):
            refusal = lines[i + 1][1:].strip()
            for more in lines[i + 2 :]:  # a refusal may go on over comment lines
                if refusal.endswith("}") or not more.startswith("#"):
                    break
                refusal += " " + more[1:].strip()
        out.append((line, refusal))
    # A command spread over lines by an open quote: join until the quotes balance.
    merged: list[tuple[str, str | None]] = []
    pending = ""
    for line, refusal in out:
        pending = f"{pending}\n{line}" if pending else line
        try:
            shlex.split(pending)
        except ValueError:
            continue
        merged.append((pending, refusal))
        pending = ""
    assert not pending, pending
    return merged


class Walk:
    """Runs the walk-through's commands against the test client, as the shell would."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.client = APIClient()
        self.env: dict[str, str] = {"JSON": "Content-Type: application/json"}

    def run(self, command: str, refusal: str | None) -> None:
        if command.startswith(".venv/bin/python manage.py"):
            self._manage(command)
        elif command.startswith("TOKEN="):
            body = {"username": "ada", "password": PASSWORD}
            answer = self.client.post("/api/auth/token/", body, format="json")
            assert answer.status_code == 200, answer.content
            self.env["TOKEN"] = answer.json()["token"]
        elif re.match(r"^[A-Z]+=", command):
            name, _, value = command.partition("=")
            self.env[name] = shlex.split(value.replace("$TOKEN", self.env.get("TOKEN", "")))[0]
        else:
            self._curl(command, refusal)

    def _manage(self, command: str) -> None:
        words = shlex.split(command.split(">")[0])[2:]
        if words[0] == "createsuperuser":
            call_command("createsuperuser", *words[1:], interactive=False, verbosity=0)
            from django.contrib.auth import get_user_model

            ada = get_user_model().objects.get(username="ada")
            ada.set_password(PASSWORD)
            ada.save()
            return
        target = command.split(">")[1].strip()
        with (self.tmp / target).open("w", encoding="utf-8") as out:
            call_command(*words, stdout=out)

    def _curl(self, command: str, refusal: str | None) -> None:
        line = command.split(" | jq")[0]
        line = line.replace('"$AUTH"', shlex.quote(f"Authorization: Token {self.env['TOKEN']}"))
        line = line.replace('"$JSON"', shlex.quote(self.env["JSON"]))
        output = None
        if " > " in line:
            line, output = line.split(" > ")
        words = shlex.split(line)
        assert words[0] == "curl", command
        method, headers, body, url = "GET", {}, None, None
        it = iter(words[1:])
        for word in it:
            if word == "-s":
                continue
            if word == "-X":
                method = next(it)
            elif word == "-H":
                name, _, value = next(it).partition(": ")
                headers[name] = value
            elif word in ("-d", "--data-binary"):
                data = next(it)
                body = (self.tmp / data[1:]).read_text() if data.startswith("@") else data
            else:
                url = word
        assert url is not None and url.startswith(BASE), command
        extra = {}
        if "Authorization" in headers:
            extra["HTTP_AUTHORIZATION"] = headers["Authorization"]
        answer = self.client.generic(
            method,
            url[len(BASE) :],
            data=body or "",
            content_type=headers.get("Content-Type", "application/octet-stream"),
            **extra,
        )
        if refusal is not None:
            shown = json.loads(refusal)
            assert answer.status_code == 400, (command, answer.content)
            got = answer.json()
            assert {k: got[k] for k in shown} == shown, (command, got)
            return
        assert 200 <= answer.status_code < 300, (command, answer.status_code, answer.content)
        if output is not None:
            (self.tmp / output.strip()).write_bytes(answer.content)


def test_the_readme_walk_through_runs_as_written_on_a_one_club_server(
    tmp_path: Path, standard_deck: Edition
) -> None:
    first_club()  # what `migrate` made (a transactional test before may have flushed it)
    walk = Walk(tmp_path)
    commands = [c for block in _blocks() for c in _commands(block)]
    assert len(commands) >= 15  # the walk-through as it is: it must not silently shrink
    for command, refusal in commands:
        walk.run(command, refusal)
    # The superuser is in no club, and recorded in the only one there is.
    assert not Membership.objects.exists()
    games = list(Game.objects.order_by("id").values_list("id", "game_type", "club__slug"))
    # The README's ids: its game, the simulated game it imports, then its Complots game.
    assert games == [(1, "pot-de-vin", "club"), (2, "pot-de-vin", "club"), (3, "complots", "club")]
