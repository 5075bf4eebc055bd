# Two entry points: `make run` (demo server) and `make test` (lint, format, the architecture's
# contracts, migrations check, the whole suite on every core, the 30 slowest tests listed).
# Everything runs from the project's own virtualenv so no global packages leak in.

PYTHON := .venv/bin/python
PIP := $(PYTHON) -m pip --disable-pip-version-check
# pytest-xdist workers for `make test` (a number, or auto: one per core). loadgroup hands tests
# out one at a time but keeps each xdist_group on one worker (tests/conftest.py says which).
TEST_WORKERS ?= auto
PYTEST_ARGS := -n $(TEST_WORKERS) --dist loadgroup --durations=30

.PHONY: run test lint clean

# The virtualenv is created only if missing.
$(PYTHON):
	python3 -m venv .venv

# Stamp files: reinstall only when a requirements file is newer than the last install.
.venv/.installed-run: requirements.txt | $(PYTHON)
	$(PIP) install -r requirements.txt
	touch $@

.venv/.installed-dev: requirements-dev.txt requirements.txt | $(PYTHON)
	$(PIP) install -r requirements-dev.txt
	touch $@

# Front-end assets (htmx, uPlot) from the npm registry, at the versions package-lock.json pins.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

run: .venv/.installed-run node_modules/.installed
	$(PYTHON) manage.py migrate --noinput
	$(PYTHON) manage.py load_demo
	scripts/serve.sh

test: .venv/.installed-dev node_modules/.installed
	scripts/ensure_chromium.sh
	scripts/ensure_poppler.sh
	$(MAKE) --no-print-directory lint
	$(PYTHON) manage.py makemigrations --check --dry-run
	$(PYTHON) -m pytest $(PYTEST_ARGS)

# ruff (lint and format) and the import-linter contracts of pyproject.toml.
lint: .venv/.installed-dev
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .
	.venv/bin/lint-imports --no-logo

clean:
	rm -rf .venv staticfiles test-output .pytest_cache .ruff_cache .hypothesis node_modules
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
