# Two commands: `make run` (the service with a demo session) and `make test` (five minutes of
# checks; `make long` the long tier, .ci/run both).
# Each creates .venv when it is missing and installs the project into it.

SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

# pytest-xdist workers for `make test`: one per core (`make test TEST_WORKERS=0`: one process).
# A third worker on two cores was measured no faster (6 min 41 s against 6 min 29 s).
TEST_WORKERS ?= auto

.PHONY: run test long install lint typecheck alembic-check browser proxy pytest slow faults bench capacity clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

install: | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'

run: install
	$(BIN)/lanterloo serve --demo --host $(HOST) --port $(PORT)

lint: install
	$(BIN)/ruff check .

# mypy, configured in pyproject.toml: strict for ledger/domain, the defaults elsewhere.
typecheck: install
	$(BIN)/mypy

# `alembic check` on a throwaway SQLite database upgraded to head: fails when the tables in
# ledger/store/tables.py differ from what the migrations build.
alembic-check: install
	@set -euo pipefail; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	printf '[alembic]\nscript_location = %s/migrations\n' "$(CURDIR)" > "$$tmp/alembic.ini"; \
	$(BIN)/alembic -c "$$tmp/alembic.ini" -x url="sqlite:///$$tmp/check.db" upgrade head; \
	$(BIN)/alembic -c "$$tmp/alembic.ini" -x url="sqlite:///$$tmp/check.db" check

# The tablet's browser tests (tests/browser) drive Debian's Chromium, never a download of
# Playwright's: installed here with apt-get when it is missing and the machine allows it (root,
# or sudo without a password), and axe-core vendored for their accessibility check. When it
# cannot be, the browser tests are skipped (under CI=true they fail) and pytest says so
# at the end of its run.
CHROMIUM ?= $(or $(LOO_CHROMIUM),/usr/bin/chromium)

browser:
	@bash tests/support/debian_package.sh "browser tests" chromium "$(CHROMIUM)"
	@if [ -x "$(CHROMIUM)" ]; then \
	  bash tests/browser/vendor_axe.sh || echo "browser tests: axe-core could not be" \
	    "vendored (npm): its accessibility checks will be skipped"; \
	fi

# The proxy's tests (tests/faults/test_proxy.py) and the install test (tests/install) run
# deploy/nginx.conf in front of gunicorn with Debian's nginx, started by the tests on ports and
# folders of their own: installed here with apt-get when it is missing and the machine allows
# it (root, or sudo without a password), without starting its service. When it cannot be,
# those tests are skipped (under CI=true they fail) and say why.
NGINX ?= $(or $(LOO_NGINX),/usr/sbin/nginx)

proxy:
	@bash tests/support/debian_package.sh "proxy tests" nginx "$(NGINX)"

# Every tier, over $(TEST_WORKERS) pytest-xdist workers. pytest exits 5 when it collected no
# tests: that is a failure here, not a pass.
pytest: install browser proxy
	@set -uo pipefail; LOO_TEST_TIER=all $(BIN)/python -m pytest -n $(TEST_WORKERS) \
	  -m "not long and not slow"; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests" >&2; exit 1; fi; exit $$rc

test: lint typecheck alembic-check pytest

# The long tier (tests/conftest.py LONG_RUNS): what would take `make test` past five minutes,
# each the longer form of something it checks more briefly (most tests' PostgreSQL half, the
# fault drills, the install from a clone behind nginx, the screens at every size). .ci/run
# runs it after `make test`, on as many workers (a third worker on two cores starved a drill
# of a frozen PostgreSQL past its bound).
LONG_WORKERS ?= $(TEST_WORKERS)

long: install browser proxy
	@set -uo pipefail; LOO_TEST_TIER=all $(BIN)/python -m pytest -n $(LONG_WORKERS) \
	  -m "long and not slow"; \
	rc=$$?; if [ $$rc -eq 5 ]; then echo "pytest collected no tests" >&2; exit 1; fi; exit $$rc

# The long runs: property runs over sessions of 100-500 deals (marked `slow`: neither
# `make test` nor `make long` runs them) and the long Schemathesis run (300 cases per
# operation, a randomised stateful run), about 15 minutes on 2 cores.
slow: install
	LANTERLOO_SLOW=1 LOO_TEST_TIER=all $(BIN)/python -m pytest -n $(TEST_WORKERS) \
	  tests/unit/test_properties.py tests/e2e/test_openapi_contract.py \
	  tests/integration/test_explain_and_as_of.py

# The long fault runs too (tests/faults, marked `full`): PostgreSQL restarted as after a crash
# during a stream of appends, on a private cluster of its own. `make long` runs the fast
# subset of tests/faults with the rest of the long tier.
faults: install proxy
	LOO_FAULTS=full LOO_TEST_TIER=all $(BIN)/python -m pytest -q tests/faults

# Lanterloo beside its baselines (bare Flask, raw psycopg) and the peer (pyeventsourcing, the
# `bench` extra) under gunicorn and wrk, and a million-event rebuild; writes the tables into
# docs/performance.md. Needs wrk and PostgreSQL.
bench: install
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python bench/run.py

# Tables at a dealer's pace under deploy/gunicorn.conf.py: PostgreSQL ramped 25 tables a minute
# up to 1,000 (or until an append's p99 passes 100 ms or a live view lags 1 s), then one club's
# evening on SQLite (5 tables a minute up to 60); writes its table into docs/performance.md.
# Up to about 50 minutes (it stops at the first step past the bounds); run it on an otherwise
# idle machine. Needs PostgreSQL.
capacity: install
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python bench/capacity.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis instance
