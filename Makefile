# The two commands a fresh machine needs: `make run` and `make test`.
PORT ?= 8080
DATA ?= var
RELEASE_BIN := .build/release/tagarela
# The tests' build: a debug build (testable, checked) compiled with -O, in its own folder so that a
# developer's `swift build` in .build is not rebuilt by every `make test` (decision 0081).
TEST_BUILD := .build/optimized-tests
TEST_BIN := $(TEST_BUILD)/debug/tagarela
# Browser tests run in this many processes, each with its own Chromium, servers, ports and folders
# (pytest-xdist; a test file stays in one process, so its module fixtures are made once).
BROWSER_WORKERS ?= 3
BROWSER_ENV = TAGARELA_BIN=$(TEST_BIN) TAGARELA_PICTOGRAMS=$(CURDIR)/.build/test-data/pictograms \
  TAGARELA_PASSWORDS=$(CURDIR)/.build/test-data/passwords TAGARELA_AUDIO=$(CURDIR)/.build/test-data/audio
# Runs after the others, alone: it times Litestream's 1 s sync, which a busy second worker can stretch.
ALONE = test_restore_drill.py

.PHONY: run test bootstrap build bench clean

## run: install what is missing, build the release binary, migrate, load the demo clinic once, serve on :$(PORT)
run: bootstrap build
	$(RELEASE_BIN) migrate --data $(DATA)
	scripts/install-pictograms $(DATA)
	scripts/install-password-list $(DATA)
	$(RELEASE_BIN) educat-audio --data $(DATA)
	$(RELEASE_BIN) seed-demo --data $(DATA)
	$(RELEASE_BIN) serve --port $(PORT) --data $(DATA)

## test: install what is missing, run the Swift tests, then the browser tests against the real binary;
## each phase ends with its ten slowest tests
test: bootstrap
	scripts/install-voices --free  # Festival's Catalan voice (Debian main): a voice besides espeak-ng is always tested
	scripts/install-pictograms .build/test-data
	scripts/install-password-list .build/test-data
	swift build --build-tests -Xswiftc -O --scratch-path $(TEST_BUILD)
	TAGARELA_AUDIO=$(CURDIR)/.build/test-data/audio $(TEST_BIN) educat-audio --data .build/test-data
	scripts/test-swift --scratch-path $(TEST_BUILD)
	$(BROWSER_ENV) python3 -m pytest -q Tests/browser --ignore=Tests/browser/$(ALONE) \
	  -n $(BROWSER_WORKERS) --dist loadfile --durations=10
	$(BROWSER_ENV) python3 -m pytest -q Tests/browser/$(ALONE) -p no:xdist --durations=3

bootstrap:
	@scripts/bootstrap

build:
	swift build -c release --product tagarela

## bench: requests/s and p99 for /healthz and the stylesheet (wrk)
bench: bootstrap
	bench/run

clean:
	rm -rf .build
