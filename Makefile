# scorecam: `make demo` and `make test` work on a fresh clone (they set up .venv first).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TRAIN_STAMP := $(VENV)/.installed-train

.PHONY: setup demo test test-slow lint clean samples kits contact-sheets bench-synth model-mondo eval-mondo bench-read

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

$(TRAIN_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[test,train]'
	touch $(TRAIN_STAMP)

demo: $(STAMP)
	$(BIN)/scorecam score samples/mondo/*.jpg --annotate out/annotated
	$(BIN)/scorecam score samples/boards/*.json

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/pytest

test-slow: $(TRAIN_STAMP)
	$(BIN)/pytest -m "slow or train"

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

# Train the Mondo models from simulator output (fixed seeds < 9000) and export them to models/.
model-mondo: $(TRAIN_STAMP)
	$(BIN)/python -m vision.training.train_locator --out models/mondo-locator.onnx
	$(BIN)/python -m vision.training.train_mondo_tiles --out models/mondo-tiles.onnx

# The figures of models/README.md: 500 held-out 12 MP photos (seed 9001, never used in training).
eval-mondo: $(STAMP)
	$(BIN)/scorecam synth mondo --n 500 --seed 9001 --out build/heldout-mondo --jobs 2
	$(BIN)/scorecam eval build/heldout-mondo --json build/eval-mondo.json

# Whole-photo reading time and its ratio to decoding the same 12 MP photo with OpenCV.
bench-read: $(STAMP)
	$(BIN)/python -m vision.mondo.bench_read

lint: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format --check . || true

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
