"""Bringing a club's plays in on a phone: upload a file (BG Stats' export or a play it shared,
BoardGameGeek's plays XML, our own game logs), see what the import would do (what it would
create, match, update or skip, and why), confirm, then follow the job and read its report.

The file is read and planned at upload; its plays wait in a planned job (``scoring.jobs``)
until its recorder confirms, so a phone sends the file once."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy
from django.views.decorators.http import require_POST

from games.api.imports import max_upload_bytes
from games.exchange import imports
from games.exchange.formats.detect import read_play_file
from games.exchange.formats.plays import FormatError
from games.records import access
from games.records.errors import RecordError
from games.records.i18n import engine_message
from games.web import present
from games.web.clubs import current_club
from games.web.confirm import Question, asks_first
from scoring import jobs
from scoring.engine import LogError
from scoring.jobs import selectors as job_selectors
from scoring.models import Job

RECENT_JOBS = 10
PLAYS_SHOWN = 100  # a plan lists this many plays on its page; the counts say the rest

# How a player, a game or a location was found, in words.
MATCH_WORDS = {
    imports.NEW: pgettext_lazy("import match", "new"),
    imports.BY_REF: pgettext_lazy("import match", "same as before"),
    imports.BY_BGG: pgettext_lazy("import match", "same BoardGameGeek id"),
    imports.BY_NAME: pgettext_lazy("import match", "same name"),
}
ACTION_WORDS = {
    imports.CREATE: pgettext_lazy("import action", "new game"),
    imports.UPDATE: pgettext_lazy("import action", "update"),
    imports.UNCHANGED: pgettext_lazy("import action", "already here"),
    imports.SKIP: pgettext_lazy("import action", "skipped"),
}
FORMAT_WORDS = {
    "bgstats-export": gettext_lazy("BG Stats export"),
    "bgsplay": gettext_lazy("BG Stats play"),
    "bgg-xml": gettext_lazy("BoardGameGeek plays"),
    "bgstats": gettext_lazy("BG Stats export"),
    "bgg": gettext_lazy("BoardGameGeek plays"),
    imports.LOG_FORMAT: gettext_lazy("Game logs"),
}


class ImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("File"),
        help_text=gettext_lazy(
            "BG Stats: Settings, Backup, Export (BGStatsExport.json, zipped or not) or a "
            "shared play (.bgsplay). BoardGameGeek: your plays saved as XML. Or game logs "
            "exported here."
        ),
    )


def _status_word(status: str) -> str:
    if status == Job.Status.PLANNED:
        return pgettext("job status", "waiting for confirmation")
    return present.job_status_word(status)


def _too_large(request: HttpRequest) -> bool:
    declared = request.META.get("CONTENT_LENGTH")
    # A form's fields and boundaries add a little to the file itself.
    return bool(declared and str(declared).isdigit() and int(declared) > max_upload_bytes() + 4096)


def _too_large_said() -> str:
    return _("The file is over %(limit)s bytes.") % {"limit": max_upload_bytes()}


def _read(form: ImportForm) -> Any:
    """The uploaded file as read (``detect.read_play_file``), or None with the form's error."""
    upload = form.cleaned_data["file"]
    if upload.size is not None and upload.size > max_upload_bytes():
        form.add_error(
            "file", _("The file is over %(limit)s bytes.") % {"limit": max_upload_bytes()}
        )
        return None
    try:
        return read_play_file(upload.read(max_upload_bytes() + 1), filename=upload.name)
    except FormatError as exc:
        form.add_error("file", exc.message)
        return None


@login_required
def imports_page(request: HttpRequest) -> HttpResponse:
    """The upload form and the club's recent imports; a file sent is read and planned, and the
    plan shown (``import_detail``) to be confirmed."""
    club = current_club(request)
    if club is None:
        return render(request, "web/no_club.html")
    can_import = access.may(request.user, club.pk, access.Can.RECORD)
    status = 200
    form = ImportForm()
    if request.method == "POST":
        if not can_import:
            raise PermissionDenied("only the club's recorders import its plays")
        if _too_large(request):
            form = ImportForm(data={})  # the body is not read: the form says why
            form.is_valid()
            form.errors["file"] = form.error_class([_too_large_said()])
            status = 413
        else:
            form = ImportForm(request.POST, request.FILES)
            read = _read(form) if form.is_valid() else None
            if read is not None:
                try:
                    job = _planned(request, club, read, form.cleaned_data["file"].name)
                except (LogError, RecordError) as exc:
                    form.add_error("file", _said(exc))
                else:
                    return redirect("web:import", pk=job.pk)
            status = 400
    recent = list(
        job_selectors.visible_jobs(request.user, Job.Kind.IMPORT).filter(club=club)[:RECENT_JOBS]
    )
    for job in recent:
        job.status_word = _status_word(job.status)  # type: ignore[attr-defined]
        job.format_word = FORMAT_WORDS.get(job.params.get("format", ""), "")  # type: ignore[attr-defined]
    context = {"form": form, "club": club, "can_import": can_import, "jobs": recent}
    return render(request, "web/imports.html", context, status=status)


def _said(exc: LogError | RecordError) -> str:
    message = engine_message(exc) if isinstance(exc, LogError) else exc.message
    index = getattr(exc, "index", None)
    if index is None:
        return message
    return _("document %(number)s: %(message)s") % {"number": index + 1, "message": message}


def _planned(request: HttpRequest, club: Any, read: Any, filename: str) -> Job:
    if isinstance(read, list):  # our own game logs
        summary = imports.logs_plan(club=club, owner=request.user, documents=read)
        return jobs.import_start(
            club=club, created_by=request.user, documents=read, plan=summary, confirmed=False
        )
    return jobs.import_plays_start(
        club=club,
        created_by=request.user,
        play_file=read,
        format=read.kind or read.app,
        filename=filename,
        confirmed=False,
    )


def _job(request: HttpRequest, pk: int) -> Job:
    job = job_selectors.visible_jobs(request.user, Job.Kind.IMPORT).filter(pk=pk).first()
    if job is None:
        raise Http404("no such import")
    return job


def _dated(play: dict[str, Any]) -> dict[str, Any]:
    """A planned play with its date as a date, for the page to say in the reader's words."""
    try:
        return {**play, "date": datetime.date.fromisoformat(play.get("played_on", ""))}
    except (TypeError, ValueError):
        return {**play, "date": None}


def _worded(entries: list[dict[str, Any]], words: dict[str, Any], key: str) -> list[dict[str, Any]]:
    return [{**e, "word": words.get(e.get(key, ""), e.get(key, ""))} for e in entries]


@login_required
def import_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A planned import's plan, to confirm; a running or finished one's progress and report."""
    job = _job(request, pk)
    progress = jobs.job_progress(job)
    report = progress.get("report") or job.params.get("plan") or {}
    details = job.params.get("details") or {}
    plays = [_dated(p) for p in details.get("plays", [])]
    by_id = {p["play"]: p for p in plays}
    skipped = [{**s, "known": by_id.get(s.get("play"))} for s in report.get("skipped", [])]
    problems = [{**p, "known": by_id.get(p.get("play"))} for p in report.get("problems", [])]
    planned = job.status == Job.Status.PLANNED
    context = {
        "job": job,
        "progress": progress,
        "report": report,
        "skipped": skipped,
        "problems": problems,
        "status_word": _status_word(progress["status"]),
        "format_word": FORMAT_WORDS.get(report.get("format", ""), report.get("format", "")),
        "filename": job.params.get("filename", ""),
        "planned": planned,
        "can_confirm": job.status == Job.Status.PLANNED
        and access.owner_or_admin(request.user, job),
        "players": _worded(details.get("players", []), MATCH_WORDS, "match"),
        "board_games": _worded(details.get("board_games", []), MATCH_WORDS, "match"),
        "locations": _worded(details.get("locations", []), MATCH_WORDS, "match"),
        "plays": _worded(plays[:PLAYS_SHOWN], ACTION_WORDS, "action"),
        "plays_more": max(0, len(plays) - PLAYS_SHOWN),
        "api_url": f"/api/imports/{job.pk}/",
    }
    return render(request, "web/import.html", context)


@login_required
@require_POST
def import_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """Run a planned import: who uploaded it while still a recorder, or the club's admins."""
    job = _job_to_act_on(request, pk)
    try:
        jobs.import_confirm(job.pk)
    except jobs.CannotResume as exc:
        messages.info(request, exc.message)
    except jobs.QueueUnavailable as exc:
        messages.error(request, _("The job queue is unavailable: %(error)s") % {"error": exc})
    else:
        messages.success(request, _("Import started: its report fills in as the plays are read."))
    return redirect("web:import", pk=job.pk)


def _job_to_act_on(request: HttpRequest, pk: int) -> Job:
    """The planned import ``pk``, if the user may confirm or discard it now: who uploaded it
    while still holding the role that takes, or the club's admins (``access.owner_or_admin``),
    checked when the action happens, not when it was planned. 404 for one they cannot see."""
    job = _job(request, pk)
    if not access.owner_or_admin(request.user, job):
        raise PermissionDenied("only who uploaded the file, or the club's admins, act on it")
    return job


def _discard_question(request: HttpRequest, pk: int) -> Question:
    job = _job_to_act_on(request, pk)
    filename = job.params.get("filename") or _("this file")
    return Question(
        title=_("Discard the import of %(file)s?") % {"file": filename},
        goes=_("Its plan is dropped; nothing of it was stored, and no game changes."),
        button=_("Discard the import"),
        back=reverse("web:import", args=[job.pk]),
    )


@login_required
@require_POST
@asks_first(_discard_question)
def import_discard(request: HttpRequest, pk: int) -> HttpResponse:
    """Drop a planned import: who uploaded it while still a recorder, or the club's admins,
    checked now, not when it was planned."""
    job = _job_to_act_on(request, pk)
    try:
        jobs.import_discard(job.pk)
    except jobs.CannotResume as exc:
        messages.info(request, exc.message)
        return redirect("web:import", pk=job.pk)
    messages.success(request, _("Import discarded: nothing of it was stored."))
    return redirect("web:imports")
