VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# What the service needs to run, and on top of it what the tests need (playwright, ruff …).
RUNTIME_STAMP := $(VENV)/.installed-runtime
TEST_STAMP := $(VENV)/.installed-test

.PHONY: serve test vectors verify-py clean translations

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(RUNTIME_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $(RUNTIME_STAMP)

# The tests' packages with the service's, in one install (one resolution of the requirements).
$(TEST_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(RUNTIME_STAMP) $(TEST_STAMP)

# make serve PORT=8080 HOST=0.0.0.0 to listen elsewhere (0.0.0.0: every interface).
serve: $(RUNTIME_STAMP)
	$(VENV)/bin/yacht-daily serve --bind $(HOST):$(PORT)

# The suite runs in parallel processes (pytest-xdist), two per core up to eight: the tests wait
# on browsers, servers and clocks much of the time. A test file's tests share one process, which
# has its own Redis and live servers; the strategy tables are built once, into build/, for both
# passes (their files carry checksums: a stale one is rebuilt). Beside it, from its start, the
# API suite's tests that reach Redis run again on real 3-master Redis Clusters, one per core and
# test process, their output shown when both are done; make test fails if either does. The
# sources are compiled first, once: the suite starts some 120 Python processes (servers, commands),
# and where the environment says not to write bytecode (PYTHONDONTWRITEBYTECODE) each would
# compile every module it imports again.
CORES := $(shell python3 -c "import os; print(os.cpu_count() or 1)")
TEST_PROCESSES ?= $(shell python3 -c "print(min(2 * $(CORES), 8))")
CLUSTER_LOG := build/cluster-pass.log
test: export YACHT_DAILY_TEST_STRATEGY_DIR ?= $(CURDIR)/build/test-strategy-tables
test: $(TEST_STAMP)
	$(VENV)/bin/ruff check .
	mkdir -p build
	$(PY) -m compileall -q -x /static/ app fairness strategy verifier tests
	$(PY) tests/redis_cluster.py --clusters $(CORES) $(PY) -m pytest -n $(CORES) --dist loadfile \
		--no-loadscope-reorder -m "not own_redis" --redis-only tests/app -q -p no:cacheprovider \
		> $(CLUSTER_LOG) 2>&1 & \
	cluster=$$!; \
	$(PY) -m pytest -n $(TEST_PROCESSES) --dist loadfile --no-loadscope-reorder; main=$$?; \
	wait $$cluster; clustered=$$?; \
	echo "# The API suite again, on Redis Clusters:"; cat $(CLUSTER_LOG); \
	test $$main -eq 0 && test $$clustered -eq 0

# After changing a page's text: refresh the French and Hungarian catalogs (every language under
# app/translations/), translate their new entries, run again. The catalogs are rewritten under
# the lock PO_LOCK, which whoever else edits them at the same time takes too.
PO_LOCK ?= build/translations.lock
translations: $(RUNTIME_STAMP)
	mkdir -p build
	$(VENV)/bin/pybabel extract -F babel.cfg -k _ -k gettext -k ngettext:1,2 --no-location \
		--sort-output --omit-header -o build/messages.pot .
	flock $(PO_LOCK) sh -c '$(VENV)/bin/pybabel update -i build/messages.pot -d app/translations \
		--no-fuzzy-matching --ignore-obsolete -w 100 && $(VENV)/bin/pybabel compile -d app/translations'

vectors: $(RUNTIME_STAMP)
	$(PY) scripts/make_vectors.py

# After changing fairness/ or verifier/: rebuild app/static/verify.py, the verifier players
# download (tests/verify/test_verify_py_is_built.py fails while it is stale).
verify-py: | $(PY)
	$(PY) scripts/build_verify.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
