# scorecam: `make demo` and `make test` work on a fresh clone (they set up .venv first).
# .venv is built with PYTHON (3.11 or newer); `make PYTHON=python3.12 ...` picks another one.
PYTHON ?= python3
VENV := .venv
MODELS ?= models
TRAIN_ARGS ?=
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TRAIN_STAMP := $(VENV)/.installed-train

# An interpreter's identity, "3.11.7 /real/path/python3.11" (a venv's names the Python it was made from).
PY_ID := import os, sys; print("%d.%d.%d" % sys.version_info[:3], os.path.realpath(sys._base_executable))
BUILT_ID := $(shell cat $(STAMP) 2>/dev/null)
VENV_ID := $(shell $(BIN)/python -c '$(PY_ID)' 2>/dev/null)
ifeq ($(wildcard $(STAMP)),)
  REBUILD := .venv was never finished
else ifeq ($(BUILT_ID),)
  BUILT_ID := $(VENV_ID)# a finished .venv of an older Makefile (an empty stamp): keep it while it runs
endif
ifndef REBUILD
  ifneq ($(BUILT_ID),$(VENV_ID))
    REBUILD := .venv was built by Python $(BUILT_ID) but $(if $(VENV_ID),now runs $(VENV_ID),no longer runs)
  else ifneq ($(origin PYTHON),file)
    ifneq ($(shell $(PYTHON) -c '$(PY_ID)' 2>/dev/null),$(BUILT_ID))
      REBUILD := .venv was built by Python $(BUILT_ID), not by PYTHON=$(PYTHON)
    endif
  endif
endif
# Says which Python PYTHON is, and fails below 3.11 (it runs on Python 2 as well, to say so).
PY_VERSION := import sys; print("Python %s at %s" % (sys.version.split()[0], sys.executable)); sys.exit(sys.version_info < (3, 11))
PY_TOO_OLD = make: scorecam needs Python 3.11 or newer, but PYTHON=$(PYTHON) is $${found:-not a Python that runs}; \
	pick another with: make PYTHON=python3.12 $(or $(MAKECMDGOALS),setup)

.PHONY: setup demo test test-slow lint clean samples kits contact-sheets bench-synth model-mondo model-mondo-backs model-mediterraneo objective-faces-mediterraneo eval-mediterraneo model-snorkeling eval-snorkeling model-mediatore eval-mediatore eval-mondo eval-stress eval-unseen bench-read bench-start bench-batch

setup: $(STAMP)

# A .venv that was never finished (a failed earlier attempt), no longer runs, or was built by another
# Python than PYTHON is made again from scratch; otherwise a changed pyproject.toml only reinstalls.
$(STAMP): pyproject.toml $(if $(REBUILD),FORCE)
ifdef REBUILD
	@found=$$($(PYTHON) -c '$(PY_VERSION)' 2>/dev/null) || { echo "$(PY_TOO_OLD)"; exit 1; }
	@echo "($(REBUILD): making it with $(PYTHON))"
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
endif
	$(BIN)/pip install --quiet -e '.[test,web]'
	$(BIN)/python -c '$(PY_ID)' > $(STAMP)

FORCE:

$(TRAIN_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[test,web,train,ray]'
	touch $(TRAIN_STAMP)

demo: $(STAMP)
	@# a photo the reader refuses (no island it can vouch for) says why and the demo goes on
	$(BIN)/scorecam score samples/mondo/*.jpg --annotate out/annotated \
		|| echo "(photos above marked 'scorecam:' were refused, each with its reason)"
	@# a Snorkeling table at the end of a round: divers named by mat, the round added to a running game
	rm -f out/snorkeling-game.json
	$(BIN)/scorecam score samples/snorkeling/snorkeling-s9900-00000.jpg --players 3=Anna 5=Ben \
		--totals out/snorkeling-game.json --annotate out/annotated/snorkeling-s9900-00000.png
	@# one side's won Mediatore cards: every card whose corner shows read, its points counted in thirds
	$(BIN)/scorecam score samples/mediatore/mediatore-s9902-00002.jpg --game mediatore \
		--annotate out/annotated/mediatore-s9902-00002.png
	@# a Mediterráneo sea, scored by the two objective cards read beside it: each octopus's arrow on the picture
	$(BIN)/scorecam score samples/mediterraneo/mediterraneo-s9900-00001.jpg --first circle \
		--annotate out/annotated/mediterraneo-s9900-00001.png
	@# boards written by hand, every game: Mondo, Mediterráneo, Snorkeling rounds, Mediatore rounds and ledger
	$(BIN)/scorecam score samples/boards/*.json
	@# the same boards as a club's batch: one CSV, and a table per game with columns of its own
	$(BIN)/scorecam batch samples/boards --out out/boards.csv

# -rs: a skipped test says why (the browser test without Chromium); --durations: the ten slowest
# tests named, to keep the suite under 10 minutes
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/pytest -rs --durations=10

test-slow: $(TRAIN_STAMP)
	$(BIN)/pytest -m "slow or train"

# The committed sample photos: held-out seeds (>= 9000 are never used in training).
samples: $(STAMP)
	rm -rf samples/mondo samples/mondo-stress samples/mediterraneo
	$(BIN)/scorecam synth mondo --n 10 --seed 9900 --out samples/mondo --long-side 2000 --jobs 2
	$(BIN)/scorecam synth mondo --n 8 --seed 9902 --stress --out samples/mondo-stress --long-side 2400 --jobs 2
	$(BIN)/scorecam synth mediterraneo --n 10 --seed 9900 --out samples/mediterraneo --long-side 1600 --jobs 2
	rm -rf samples/snorkeling
	$(BIN)/scorecam synth snorkeling --n 6 --seed 9900 --out samples/snorkeling --long-side 2000 --jobs 2
	rm -rf samples/mediatore
	$(BIN)/scorecam synth mediatore --n 3 --seed 9902 --out samples/mediatore --long-side 1600 --jobs 1

# Printable kits (not committed: `make kits` writes them to kits/).
kits: $(STAMP)
	$(BIN)/scorecam kit mondo --out kits/mondo
	$(BIN)/scorecam kit mediterraneo --out kits/mediterraneo
	$(BIN)/scorecam kit snorkeling --out kits/snorkeling
	$(BIN)/scorecam kit mediatore --out kits/mediatore

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
# $(MODELS) is made first: the locator's log is written there before either net would make it
# (make eval-unseen, into a new build/models-unseen, once lost the locator so).
model-mondo: $(TRAIN_STAMP)
	mkdir -p $(MODELS)
	$(BIN)/python -m vision.training.train_locator --data-only $(TRAIN_ARGS)
	$(BIN)/python -m vision.training.train_mondo_tiles --data-only $(TRAIN_ARGS)
	$(BIN)/python -m vision.training.train_locator --out $(MODELS)/mondo-locator.onnx $(TRAIN_ARGS) \
		> $(MODELS)/.train-locator.log 2>&1 & \
	$(BIN)/python -m vision.training.train_mondo_tiles --out $(MODELS)/mondo-tiles.onnx $(TRAIN_ARGS); \
	tiles=$$?; wait $$!; locator=$$?; cat $(MODELS)/.train-locator.log; rm -f $(MODELS)/.train-locator.log; \
	test $$tiles -eq 0 -a $$locator -eq 0

# Train the Mediterráneo sea locator and cell model (900 photos of seed 1 and 500 of each of seeds 2-5, every
# second of those from the stress world; one process, one torch thread).
model-mediterraneo: $(TRAIN_STAMP)
	$(BIN)/python -m vision.training.train_mediterraneo --out-dir $(MODELS) $(TRAIN_ARGS)

# The reference faces the Mediterráneo objective-card reader matches (drawn by the kit's art; no training).
objective-faces-mediterraneo: $(STAMP)
	$(BIN)/python -m vision.training.mediterraneo_objective_faces --out $(MODELS)/mediterraneo-objectives.npz

# The Mediterráneo figures of models/README.md: fresh 12 MP photos (seeds 9650 and 9651, 500 each, never
# used in training or development; earlier figures were of seeds 9630, 9631 / 9632, 9633 / 9634, 9637 / 9638,
# 9642 / 9643, 9646 / 9647, 9648 / 9649).
EVAL_SEA_N ?= 500
eval-mediterraneo: $(STAMP)
	$(BIN)/scorecam synth mediterraneo --n $(EVAL_SEA_N) --seed 9650 --out build/heldout-mediterraneo-9650 --jobs 2
	$(BIN)/scorecam eval build/heldout-mediterraneo-9650 --out build/eval-mediterraneo-9650.json
	$(BIN)/scorecam synth mediterraneo --n $(EVAL_SEA_N) --seed 9651 --stress --out build/heldout-mediterraneo-9651-stress --jobs 2
	$(BIN)/scorecam eval build/heldout-mediterraneo-9651-stress --out build/eval-mediterraneo-9651-stress.json

# Train the Snorkeling header model, card model and locator (seed 1 photos, one process, one torch thread).
model-snorkeling: $(TRAIN_STAMP)
	$(BIN)/python -m vision.training.train_snorkeling --out-dir $(MODELS) $(TRAIN_ARGS)

# The Snorkeling figures of models/README.md: fresh 12 MP photos (seeds 9676, 500 everyday, and 9677, 500 stress, never used
# in training or development; earlier figures were of 9646/9647, 9648/9649, 9652/9653, 9656/9657, 9662/9663, 9664/9665,
# 9666/9667, 9668/9669, 9670/9671 and 9672/9673 (300 / 200), and 9674/9675 (500 / 500; 9675 then a dev set)).
eval-snorkeling: $(STAMP)
	$(BIN)/scorecam synth snorkeling --n 500 --seed 9676 --out build/fresh-snork-9676 --jobs 2
	$(BIN)/scorecam eval build/fresh-snork-9676 --out build/eval-snorkeling-9676.json
	$(BIN)/scorecam synth snorkeling --n 500 --seed 9677 --stress --out build/fresh-snork-9677-stress --jobs 2
	$(BIN)/scorecam eval build/fresh-snork-9677-stress --out build/eval-snorkeling-9677-stress.json

# Train the Mondo back model (the terrain of a tile lying back side up, from a fine crop: 800 photos of
# seed 21 with several backs each, 150 of seed 22 to validate; both cores make the photos, one trains).
model-mondo-backs: $(TRAIN_STAMP)
	mkdir -p $(MODELS)
	$(BIN)/python -m vision.training.train_mondo_backs --out $(MODELS)/mondo-backs.onnx $(TRAIN_ARGS)

# Train the Mediatore corner locator and corner model (seed 1 photos, one process, one torch thread).
model-mediatore: $(TRAIN_STAMP)
	$(BIN)/python -m vision.training.train_mediatore --out-dir $(MODELS) $(TRAIN_ARGS)

# The Mediatore figures of models/README.md: held-out 12 MP photos (seeds 9696 and 9697, never used in
# training or development; EVAL_MEDIATORE_N photos of seed 9696; earlier figures were of 9650/9651,
# 9654/9655, 9658/9659, 9662/9663, 9664/9665, 9666/9667, 9668/9669, 9670/9671, 9672/9673, 9674/9675,
# 9676/9677, 9678/9679, 9680/9681, 9682/9683, 9684/9685, 9686/9687, 9688/9689, 9690/9691, 9692/9693
# and 9694/9695).
EVAL_MEDIATORE_N ?= 500
eval-mediatore: $(STAMP)
	$(BIN)/scorecam synth mediatore --n $(EVAL_MEDIATORE_N) --seed 9696 --out build/fresh-mediatore-9696 --jobs 2
	$(BIN)/scorecam eval build/fresh-mediatore-9696 --out build/eval-mediatore-9696.json
	$(BIN)/scorecam synth mediatore --n 200 --seed 9697 --stress --out build/fresh-mediatore-9697-stress --jobs 2
	$(BIN)/scorecam eval build/fresh-mediatore-9697-stress --out build/eval-mediatore-9697-stress.json

# The figures of models/README.md: held-out 12 MP photos (seed 9037, never used in training or development;
# earlier figures were of seeds 9036, 9035, 9034, 9033, ...; 9031 is a development set). Read with each island's grid as its game states it (3x3,
# or 4x4 for two players), then guessed.
EVAL_MONDO_N ?= 500
eval-mondo: $(STAMP)
	$(BIN)/scorecam synth mondo --n $(EVAL_MONDO_N) --seed 9037 --out build/heldout-mondo-9037 --jobs 2
	$(BIN)/scorecam eval build/heldout-mondo-9037 --out build/eval-mondo-9037.json
	$(BIN)/scorecam eval build/heldout-mondo-9037 --grid detected --out build/eval-mondo-9037-detected.json

# The stress set: every condition from its hard end (seed 9533, never used in training or development;
# earlier figures were of seeds 9532, 9531, 9530, 9529, ...); the figures per condition, wrong-and-unflagged beside exact.
EVAL_STRESS_N ?= 500
eval-stress: $(STAMP)
	$(BIN)/scorecam synth mondo --n $(EVAL_STRESS_N) --seed 9533 --stress --out build/heldout-stress-9533 --jobs 2
	$(BIN)/scorecam eval build/heldout-stress-9533 --out build/eval-stress-9533.json
	$(BIN)/scorecam eval build/heldout-stress-9533 --grid detected --out build/eval-stress-9533-detected.json

# A table the reader never saw: the locator, the tile model and the back model trained without one
# whole table family (folded and rippled tablecloths; build/models-unseen, not shipped), measured on
# photos of that family alone (read without the second locator: build/models-unseen has none).
UNSEEN := tablecloth
eval-unseen: $(TRAIN_STAMP)
	$(MAKE) model-mondo MODELS=build/models-unseen TRAIN_ARGS=--exclude-tables=$(UNSEEN)
	$(MAKE) model-mondo-backs MODELS=build/models-unseen TRAIN_ARGS="--exclude-tables=$(UNSEEN) --threads 2"
	$(BIN)/scorecam synth mondo --n 500 --seed 9701 --tables $(UNSEEN) --out build/unseen-mondo --jobs 2
	SCORECAM_MODELS=build/models-unseen $(BIN)/scorecam eval build/unseen-mondo --out build/eval-unseen.json

# Whole-photo reading time (a Mondo island, a Mediterráneo sea, a side's won Mediatore cards) and its
# ratio to decoding the same 12 MP photo with OpenCV.
bench-read: $(STAMP)
	$(BIN)/python -m vision.mondo.bench_read
	$(BIN)/python -m vision.mediterraneo.bench_read
	$(BIN)/python -m vision.mediatore.bench_read

# Whole-process time of `scorecam score photo.jpg` (start to printed table) and the imports it pays.
bench-start: $(STAMP)
	$(BIN)/python -m scorecam.bench_start

# Batch throughput: photos/s with --jobs 2 against one process on the same photos, and the ratio.
bench-batch: $(STAMP)
	$(BIN)/python -m scorecam.bench_batch

lint: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format --check . || true

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
