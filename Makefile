# Crossword press. `make help` lists the targets.
PYTHON ?= python3
VENV ?= .venv
PORT ?= 8000
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# The builder renders puzzles on every core it may use; `make -j2 site` passes its job count on instead.
JOBS = $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS)))
JOBS_FLAG = $(if $(JOBS),--jobs $(JOBS))

.DEFAULT_GOAL := site
.PHONY: site test check watch bench clean help

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 10

# What the set-up installs from: the project's metadata, the pinned versions (constraints.txt) and the compiled search's source (a wildcard, so
# a copy of the project with only some of them, as the benchmarks and tests make, still builds).
SETUP_SOURCES := $(wildcard pyproject.toml constraints.txt setup.py site_builder/layout/*.c)

# The stamp holds tools/setup-key's hash: a newer pyproject.toml whose change is only a site setting
# ([tool.crossword]) refreshes the stamp's date and installs nothing.
$(STAMP): $(SETUP_SOURCES)
	@if test -x $(BIN)/python && test -f $@ && test "$$(tools/setup-key)" = "$$(cat $@)"; then touch $@; exit 0; fi; \
	PYTHON=$(PYTHON) tools/system-deps && \
	echo "setup  $(VENV): virtual environment, packages and the compiled search" && \
	{ $(BIN)/python -m pip --version >/dev/null 2>&1 || $(PYTHON) -m venv $(VENV); } && \
	$(BIN)/python -m pip install -q --disable-pip-version-check $(if $(wildcard constraints.txt),-c constraints.txt) -e '.[test]' && \
	mkdir -p $(dir $@) && tools/setup-key > $@

# Always run: the build itself knows what is up to date (a puzzle's sources, and its outputs as it left
# them), so it also repairs a public/ edited by hand, restored by git or deleted; up to date, it takes 0.4 s.
site: $(STAMP) ## build every puzzle into public/, incrementally (the default)
	@$(BIN)/crossword build $(JOBS_FLAG)

check: $(STAMP) ## lint the puzzles, rebuild into a temporary folder, fail if public/ differs
	@$(BIN)/crossword lint
	@$(BIN)/crossword check $(JOBS_FLAG)

test: $(STAMP) ## run the test suite (it includes `make check`)
	@tools/system-deps --test
	$(BIN)/python -m pytest

watch: $(STAMP) ## build, serve public/ on http://127.0.0.1:PORT/ (PORT=8000), rebuild on every save, live reload
	@$(BIN)/crossword watch --port $(PORT)

bench: $(STAMP) ## compare the layout strategies, time renders, the site build and watch (figures in build/)
	$(BIN)/crossword bench --json build/bench.json
	$(BIN)/python -m site_builder.bench_site

clean: ## remove the virtual environment and caches (public/ is kept: it is committed)
	rm -rf $(VENV) .cache .pytest_cache .hypothesis build *.egg-info site_builder/layout/_anneal*.so
