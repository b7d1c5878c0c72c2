import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "potdevin_site.settings")

app = Celery("potdevin_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Statistics keep their task apart from the batch jobs in scoring/tasks.py.
app.autodiscover_tasks(related_name="stats_tasks")
