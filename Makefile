# Needs only python3.11 and make; everything else is installed into .venv.
PYTHON ?= python3.11
# Compiled bytecode is kept (in __pycache__, ignored by git): without it every test process,
# worker and server compiles the whole project again, and pytest rewrites every test module.
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.DEFAULT_GOAL := help
.PHONY: help venv pyodide run serve migrate test check measure lint format messages bench bench-scale loadtest browser clean

help: ## Show this help
	@echo "potdevin make targets:"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-11s %s\n", $$1, $$2}'

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when pyproject.toml changes. uv (from PyPI, into the virtualenv) installs the
# same packages from the same index as pip, in seconds instead of minutes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip install --python $(BIN)/python -e ".[dev]"
	touch $@

# The engine's hot modules compiled with mypyc, beside their sources. An accelerator only: where
# no C compiler is found the same sources run as plain Python, and every test passes either way.
ENGINE_SOURCES := $(wildcard scoring/engine/*.py scoring/engine/*/*.py)
ENGINE_BUILT = scoring/engine/*.so scoring/engine/*/*.so
ENGINE_STAMP := var/build/engine.stamp

$(ENGINE_STAMP): $(STAMP) $(ENGINE_SOURCES)
	@mkdir -p var/build
	@if $(BIN)/python -m scoring.engine.build > var/build/engine.log 2>&1; then \
		echo "engine compiled with mypyc"; \
	else \
		echo "engine not compiled (see var/build/engine.log): it runs as plain Python"; \
		rm -f $(ENGINE_BUILT); \
	fi
	@touch $@

# Pyodide (npm's package), for the pages' offline checks: the browser runs the engine's own
# sources under it (games/web/engine_files.py serves both). Refused unless its sha512 is the one
# pinned in tools/pyodide.py; only the files a page loads are kept, under var/pyodide/.
PYODIDE_STAMP := var/pyodide/installed.json

$(PYODIDE_STAMP): tools/pyodide.py
	$(PYTHON) -m tools.pyodide

pyodide: $(PYODIDE_STAMP) ## Download and verify Pyodide into var/pyodide (the browser's engine)

venv: $(STAMP) $(ENGINE_STAMP) pyodide ## Create .venv, install the project and its dev tools, build the engine, get Pyodide

migrate: venv ## Apply database migrations and collect the static files
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v0

# The worker runs in the background; the trap stops it when runserver ends or on Ctrl-C.
run: migrate ## Migrate, then serve on 127.0.0.1:8000 with a Celery worker
	@$(BIN)/celery -A potdevin_site worker --beat --concurrency 1 -l info & \
	worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT; \
	trap 'exit 130' INT TERM; \
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# Production: gunicorn (potdevin_site/gunicorn.conf.py: sync workers, two per core plus one)
# and a Celery worker per core. Database connections live a minute in each web worker, one at
# a time. Ctrl-C stops both.
serve: migrate ## Serve with gunicorn (workers from the cores) and Celery workers
	@$(BIN)/celery -A potdevin_site worker --beat -l info & \
	worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT; \
	trap 'exit 130' INT TERM; \
	HOST=$(HOST) PORT=$(PORT) DATABASE_CONN_MAX_AGE=$${DATABASE_CONN_MAX_AGE:-60} \
		$(BIN)/gunicorn -c potdevin_site/gunicorn.conf.py potdevin_site.wsgi

# The catalogues under locale/: new marked texts added to every language's .po (translations
# kept), and the .mo files compiled, in pure Python (no GNU gettext needed). Commit both.
messages: venv ## Extract marked texts into locale/*/LC_MESSAGES/*.po and compile the .mo files
	$(BIN)/python -m potdevin_site.messages update
	$(BIN)/python -m potdevin_site.messages check || true

lint: venv ## ruff, the layers' import contract (pyproject.toml), mypy --strict on the engine
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy --strict scoring/engine

format: venv ## Fix what ruff can fix and format the code
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Tasks sent by the tests go to a Redis database of their own, where the job tests start real
# workers; a dead worker's batch comes back after 4 s instead of an hour.
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15
TEST_ENV := CELERY_BROKER_URL=$(TEST_REDIS_URL) CELERY_VISIBILITY_TIMEOUT=4
# Every core: pytest-xdist runs the tests in that many processes, each with a test database of
# its own; a process that is free takes tests from a busy one (worksteal).
TEST_WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
PYTEST := $(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal
# What the database runs of the suite: everything by default; .ci/run's second database leaves
# out the engine's tests (TEST_PATHS), which never touch one, and runs them once on the plain
# sources instead (PURE_ENGINE_TESTS).
TEST_PATHS ?=
PURE_ENGINE_TESTS ?= tests/engine

test: lint ## Lint, then every test on every core (and the engine's tests again on the plain sources)
	$(TEST_ENV) $(PYTEST) $(TEST_PATHS)
	$(if $(PURE_ENGINE_TESTS),POTDEVIN_PURE_ENGINE=1 $(PYTEST) -q $(PURE_ENGINE_TESTS))

# The schema fuzzing module is slow to collect (it builds its cases then): left out whole.
check: venv ## The inner loop: the tests neither slow nor in a browser, on every core
	$(TEST_ENV) $(PYTEST) -q -m "not slow and not browser and not measure" --ignore tests/api/test_api_schemathesis.py

# Times for the record, not checks: the offline downloads and first answers with the page's CPU
# slowed 4 times (written to artifacts/).
measure: venv ## Measure the offline engine's and pages' first answers with a slowed CPU
	$(TEST_ENV) $(BIN)/pytest -q -m measure tests/browser

# The web scorepad's browser tests drive Debian's Chromium (Playwright's own browser download is
# not used). Needs root, as in CI; does nothing when Chromium is already there.
CHROMIUM ?= /usr/bin/chromium

browser: ## Install Debian's Chromium for the browser tests, if missing
	@if [ -x $(CHROMIUM) ]; then \
		echo "chromium: $(CHROMIUM)"; \
	else \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium; \
	fi

bench: venv ## Run the benchmarks (python -m bench)
	$(BIN)/python -m bench

# Not part of `make bench`: a million games through the import and re-score jobs with two
# worker processes, on the local PostgreSQL and Redis; half an hour or more.
# POTDEVIN_BENCH_SCALE_GAMES=20000 for a try in a few minutes.
bench-scale: venv ## Import and re-score a million games with real workers (long; not in bench)
	$(BIN)/python -m bench scale

# On servers of its own (a PostgreSQL cluster, a Redis, gunicorn and a worker), this machine
# only: a minute of load, then a minute with a web worker killed, the database restarted and the
# broker restarted under it.
loadtest: venv ## Load test the production server, then under faults, then with 40 phones watching
	$(BIN)/python -m loadtest --seconds 60
	$(BIN)/python -m loadtest --seconds 60 --fault kill-worker --fault restart-db --fault restart-broker
	$(BIN)/python -m loadtest --watch --seconds 30

clean: ## Remove caches and build files (keeps .venv and var/)
	find . -path ./$(VENV) -prune -o -type d -name __pycache__ -exec rm -rf {} +
	rm -rf .pytest_cache .mypy_cache .ruff_cache .hypothesis artifacts build dist *.egg-info var/build
	rm -f $(ENGINE_BUILT)
