import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "potdevin_site.settings")

app = Celery("potdevin_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
# The tasks live beside what they run: the batch jobs' and the statistics' follow-ups.
app.autodiscover_tasks(["scoring.jobs", "scoring.stats"])
