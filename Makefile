# scorecam: `make demo` and `make test` work on a fresh clone (they set up .venv first).
PYTHON ?= python3
VENV := .venv
MODELS ?= models
TRAIN_ARGS ?=
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TRAIN_STAMP := $(VENV)/.installed-train

.PHONY: setup demo test test-slow lint clean samples kits contact-sheets bench-synth model-mondo eval-mondo eval-stress eval-unseen bench-read

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
	@# a photo the reader refuses (no island it can vouch for) says why and the demo goes on
	$(BIN)/scorecam score samples/mondo/*.jpg --annotate out/annotated \
		|| echo "(photos above marked 'scorecam:' were refused, each with its reason)"
	$(BIN)/scorecam score samples/boards/*.json

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/pytest

test-slow: $(TRAIN_STAMP)
	$(BIN)/pytest -m "slow or train"

# The committed sample photos: held-out seeds (>= 9000 are never used in training).
samples: $(STAMP)
	rm -rf samples/mondo samples/mondo-stress samples/mediterraneo
	$(BIN)/scorecam synth mondo --n 10 --seed 9900 --out samples/mondo --long-side 2000 --jobs 2
	$(BIN)/scorecam synth mondo --n 8 --seed 9902 --stress --out samples/mondo-stress --long-side 2400 --jobs 2
	$(BIN)/scorecam synth mediterraneo --n 10 --seed 9900 --out samples/mediterraneo --long-side 1600 --jobs 2

# Printable kits (not committed: `make kits` writes them to kits/).
kits: $(STAMP)
	$(BIN)/scorecam kit mondo --out kits/mondo
	$(BIN)/scorecam kit mediterraneo --out kits/mediterraneo

# The contact sheets shown in README.md.
contact-sheets: $(STAMP)
	$(BIN)/scorecam synth mondo --n 16 --seed 9901 --out build/sheet-mondo --long-side 2000 --jobs 2 \
		--contact-sheet docs/images/contact-sheet-mondo.jpg
	$(BIN)/scorecam synth mondo --n 16 --seed 9903 --stress --out build/sheet-stress --long-side 2000 --jobs 2 \
		--contact-sheet docs/images/contact-sheet-stress.jpg
	$(BIN)/scorecam synth mediterraneo --n 16 --seed 9901 --out build/sheet-mediterraneo --long-side 2000 \
		--jobs 2 --contact-sheet docs/images/contact-sheet-mediterraneo.jpg

# Simulator speed: whole photos per second at 12 MP and at training size, and crops per minute.
bench-synth: $(STAMP)
	$(BIN)/python -m vision.synth.bench_synth

# Train the Mondo models from simulator output (fixed seeds < 9000) and export them to models/.
# Both data sets are made first on both cores, then the two nets train side by side, a core each.
model-mondo: $(TRAIN_STAMP)
	$(BIN)/python -m vision.training.train_locator --data-only $(TRAIN_ARGS)
	$(BIN)/python -m vision.training.train_mondo_tiles --data-only $(TRAIN_ARGS)
	$(BIN)/python -m vision.training.train_locator --out $(MODELS)/mondo-locator.onnx $(TRAIN_ARGS) \
		> $(MODELS)/.train-locator.log 2>&1 & \
	$(BIN)/python -m vision.training.train_mondo_tiles --out $(MODELS)/mondo-tiles.onnx $(TRAIN_ARGS); \
	tiles=$$?; wait $$!; locator=$$?; cat $(MODELS)/.train-locator.log; rm -f $(MODELS)/.train-locator.log; \
	test $$tiles -eq 0 -a $$locator -eq 0

# The figures of models/README.md: 500 held-out 12 MP photos (seed 9001, never used in training).
eval-mondo: $(STAMP)
	$(BIN)/scorecam synth mondo --n 500 --seed 9003 --out build/heldout-mondo-9003 --jobs 2
	$(BIN)/scorecam eval build/heldout-mondo-9003 --json build/eval-mondo.json

# The stress set: every condition from its hard end (seed 9501, never used in training); the
# figures per condition, wrong-and-unflagged beside exact.
eval-stress: $(STAMP)
	$(BIN)/scorecam synth mondo --n 500 --seed 9501 --stress --out build/stress-mondo --jobs 2
	$(BIN)/scorecam eval build/stress-mondo --json build/eval-stress.json

# A table the reader never saw: both models trained without one whole table family (folded and
# rippled tablecloths; build/models-unseen, not shipped), measured on photos of that family alone.
UNSEEN := tablecloth
eval-unseen: $(TRAIN_STAMP)
	$(MAKE) model-mondo MODELS=build/models-unseen TRAIN_ARGS=--exclude-tables=$(UNSEEN)
	$(BIN)/scorecam synth mondo --n 500 --seed 9701 --tables $(UNSEEN) --out build/unseen-mondo --jobs 2
	SCORECAM_MODELS=build/models-unseen $(BIN)/scorecam eval build/unseen-mondo --json build/eval-unseen.json

# Whole-photo reading time and its ratio to decoding the same 12 MP photo with OpenCV.
bench-read: $(STAMP)
	$(BIN)/python -m vision.mondo.bench_read

lint: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format --check . || true

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
