VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: serve test lint vectors bench clean

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

vectors: $(STAMP)
	$(PY) scripts/make_vectors.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
