# Two commands do all set-up on a fresh machine (Python 3.11 + pip):
#   make play   - create .venv if missing, install what playing needs, start the game
#   make test   - add the dev, RL, cluster and plot extras to the same .venv, run ruff, mypy --strict, pytest
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUM := $(shell cat pyproject.toml | cksum | cut -d' ' -f1)
# Two stamps, one environment: `make play` installs the package and its own dependencies only
# (no test tools, RL libraries, Dask or matplotlib: docs/cli.md, "Installing"); `make test`
# adds the extras to the same .venv. A full install serves playing too, so it sets both stamps.
PLAY_STAMP := $(VENV)/.play-$(SUM)
STAMP := $(VENV)/.installed-$(SUM)
EXTRAS := dev,rl,cluster,plot

.PHONY: play test lint typecheck unit bench clean browser compiled messages-extract messages-update messages-compile

$(VENV)/bin/python:
	@echo "pinsetter: making a virtual environment in $(VENV)"
	$(PYTHON) -m venv $(VENV)

$(PLAY_STAMP): pyproject.toml | $(VENV)/bin/python
	@if [ -f $(STAMP) ]; then echo "pinsetter: $(VENV) already holds everything playing needs"; else \
		echo "pinsetter: installing pinsetter and what playing needs (pip names each package as it comes)"; \
		$(BIN)/python -m pip install --progress-bar on -e . || exit 1; fi
	@rm -f $(VENV)/.play-*
	@touch $@

$(STAMP): pyproject.toml | $(VENV)/bin/python
	@echo "pinsetter: installing pinsetter with its test tools and extras ($(EXTRAS))"
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --progress-bar on -e '.[$(EXTRAS)]'
	@rm -f $(VENV)/.installed-* $(VENV)/.play-*
	@touch $(STAMP) $(PLAY_STAMP)

play: $(PLAY_STAMP) compiled
	@echo "pinsetter: starting the game ($(BIN)/pinsetter; q or Ctrl+C quits)"
	$(BIN)/pinsetter

test: $(STAMP) lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

# Two workers (this machine has two cores); a module's tests stay in one worker (shared browser, servers).
unit: $(STAMP) browser compiled
	$(BIN)/pytest -n 2 --dist loadfile

# The compiled searches built ahead of time, so that hints start without numba (docs/performance.md);
# quick when they are current, and the searches compile on first use where they cannot be built.
compiled: | $(VENV)/bin/python
	@$(BIN)/python -m pinsetter.solvers.ahead_of_time || echo "pinsetter: the searches will be compiled on first use instead"

# The browser tests drive Debian's Chromium: installed here when run as root (as CI is).
browser:
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing chromium, chromium-driver and a Japanese font for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver fonts-ipafont-gothic >/dev/null; \
	else echo "pinsetter: the browser tests need Chromium: sudo apt-get install chromium chromium-driver"; fi

bench: $(STAMP)
	$(BIN)/pytest benchmarks --benchmark-enable -p no:cacheprovider

# Translations (docs/i18n.md): extract the English texts, merge them into each language's
# catalog, compile the catalogs. The compiled .mo files are committed, so installing needs no step.
LOCALE := src/pinsetter/locale
PYBABEL := PYTHONPATH=src $(BIN)/pybabel

messages-extract: $(STAMP)
	$(PYBABEL) extract -F babel.cfg -k N_ -k ngettext:1,2 -k t -k tn:1,2 --no-location --sort-output \
		--project pinsetter --copyright-holder "pinsetter authors" --msgid-bugs-address "" \
		-o $(LOCALE)/messages.pot .

messages-update: messages-extract
	$(PYBABEL) update -i $(LOCALE)/messages.pot -d $(LOCALE) -D pinsetter --ignore-obsolete

messages-compile: $(STAMP)
	$(PYBABEL) compile -d $(LOCALE) -D pinsetter --statistics

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache src/pinsetter/solvers/_*_aot_*
