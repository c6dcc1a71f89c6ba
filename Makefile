# scorecam: `make demo` and `make test` work on a fresh clone (they set up .venv first).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test test-slow lint clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/scorecam score samples/boards/*.json

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/pytest

test-slow: $(STAMP)
	$(BIN)/pytest -m slow

lint: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format --check . || true

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
