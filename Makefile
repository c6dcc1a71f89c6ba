# scorecam: `make demo` and `make test` work on a fresh clone (they set up .venv first).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test test-slow lint clean samples kits contact-sheets bench-synth

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

# The committed sample photos: held-out seeds (>= 9000 are never used in training).
samples: $(STAMP)
	rm -rf samples/mondo samples/mediterraneo
	$(BIN)/scorecam synth mondo --n 10 --seed 9900 --out samples/mondo --long-side 1600 --jobs 2
	$(BIN)/scorecam synth mediterraneo --n 10 --seed 9900 --out samples/mediterraneo --long-side 1600 --jobs 2

# Printable kits (not committed: `make kits` writes them to kits/).
kits: $(STAMP)
	$(BIN)/scorecam kit mondo --out kits/mondo
	$(BIN)/scorecam kit mediterraneo --out kits/mediterraneo

# The contact sheets shown in README.md.
contact-sheets: $(STAMP)
	$(BIN)/scorecam synth mondo --n 16 --seed 9901 --out build/sheet-mondo --long-side 2000 --jobs 2 \
		--contact-sheet docs/images/contact-sheet-mondo.jpg
	$(BIN)/scorecam synth mediterraneo --n 16 --seed 9901 --out build/sheet-mediterraneo --long-side 2000 \
		--jobs 2 --contact-sheet docs/images/contact-sheet-mediterraneo.jpg

# Simulator speed: whole photos per second at 12 MP and at training size, and crops per minute.
bench-synth: $(STAMP)
	$(BIN)/python -m vision.synth.bench_synth

lint: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format --check . || true

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
