VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: serve test vectors clean translations

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

serve: $(STAMP)
	$(VENV)/bin/yacht-daily serve

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest
	# The API suite again, on a real 3-master Redis Cluster (tests/redis_cluster.py).
	$(PY) tests/redis_cluster.py $(PY) -m pytest tests/app -q

# After changing a page's text: refresh the French catalog, translate its new entries, run again.
translations: $(STAMP)
	mkdir -p build
	$(VENV)/bin/pybabel extract -F babel.cfg -k _ -k gettext -k ngettext:1,2 --no-location \
		--sort-output --omit-header -o build/messages.pot .
	$(VENV)/bin/pybabel update -i build/messages.pot -d app/translations --no-fuzzy-matching \
		--ignore-obsolete -w 100
	$(VENV)/bin/pybabel compile -d app/translations

vectors: $(STAMP)
	$(PY) scripts/make_vectors.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
