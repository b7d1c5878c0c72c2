"""gunicorn settings for ``make serve`` (the production server); each can be overridden by an
environment variable. Sync workers serve one request at a time, so each holds at most one
database connection: the connections are bounded by the workers, whatever the request rate."""

import multiprocessing
import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
# gunicorn's own advice for sync workers: two per core, plus one.
workers = int(os.environ.get("WEB_WORKERS", 2 * multiprocessing.cpu_count() + 1))
worker_class = "sync"
timeout = int(os.environ.get("WEB_TIMEOUT", "60"))
graceful_timeout = 30
# Recycle workers now and then: a slow leak in a long-lived process never grows unbounded.
max_requests = 2000
max_requests_jitter = 200
accesslog = "-"
errorlog = "-"
# Behind a proxy on another machine, FORWARDED_ALLOW_IPS names it (see the README).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
