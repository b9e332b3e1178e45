# Crossword press. `make help` lists the targets.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PUZZLES := $(sort $(wildcard puzzles/*.txt))

.DEFAULT_GOAL := site
.PHONY: site test check bench clean help

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 12

$(STAMP): pyproject.toml
	@echo "setup  $(VENV) (virtual environment and packages)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[test]'
	@touch $@

site: $(STAMP) ## build every puzzle into public/ (the default)
	@for f in $(PUZZLES); do \
	  slug=$$(basename $$f .txt); echo "build  $$slug"; \
	  $(BIN)/crossword generate --words $$f --out-dir public/$$slug >/dev/null 2>&1 || { $(BIN)/crossword generate --words $$f >/dev/null; exit 1; }; \
	done

test: $(STAMP) ## run the test suite
	$(BIN)/python -m pytest

bench: $(STAMP) ## compare the layout strategies (table on stdout, figures in build/bench.json)
	$(BIN)/crossword bench --json build/bench.json

clean: ## remove the virtual environment and caches (public/ is kept: it is committed)
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
