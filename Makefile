# Two commands on a fresh machine with Python 3.11+ and make: `make run`, `make test`.
PYTHON ?= python3
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install browser graphiql portal portal-check run test pytest lint typecheck schema bench clean

# The two editable installs in one resolve, built with the venv's own setuptools (what both
# pyproject.toml's [build-system] require) rather than a throw-away build environment each.
$(STAMP): pyproject.toml sdk/python/pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "shipwise needs Python 3.11+"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip 'setuptools>=68' wheel
	$(BIN)/python -m pip install --quiet --no-build-isolation -e '.[dev]' -e sdk/python
	@touch $(STAMP)

install: $(STAMP) browser graphiql portal

# GraphiQL's files, from the npm registry when npm is present, into a git-ignored directory
# (server/graphiql/static); without them /graphql says how to get them and the API works.
graphiql: $(STAMP)
	@$(BIN)/python -m server.graphiql.fetch || \
	  echo "GraphiQL: going on without its files; /graphql says how to get them" >&2

# The portal (web/): built with npm, when present, into the git-ignored web/dist, which
# `shipwise serve` serves at /; without npm, / says how to get it and the API works.
# `npm ci` runs again only when package-lock.json changes.
NPM := $(shell command -v npm 2>/dev/null)
portal:
ifdef NPM
	@cd web && { [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund --loglevel=error; } && npm run --silent build >/dev/null
else
	@echo "portal: npm is not on the PATH; going on without it (/ says how to get it)" >&2
endif

# The portal's ESLint and its Vitest units (skipped without npm, as the build is); its types
# were checked by the build above (`tsc --noEmit` in `npm run build`), so not again here.
portal-check: portal
ifdef NPM
	cd web && npm exec --no -- eslint . && npm run --silent test
endif

# Page tests drive Debian's Chromium; install it when missing (root on CI machines).
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { if [ "$$(id -u)" = 0 ]; then apt-get install -y -qq chromium >/dev/null || \
	      { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }; \
	    else echo "page tests need Chromium: sudo apt-get install chromium" >&2; fi; }

run: install
	$(BIN)/shipwise serve --demo --port $(PORT)

# The checks and the suite side by side (the suite mostly waits on servers and a browser);
# `install` runs once, before any of them.
test:
	@$(MAKE) --no-print-directory --output-sync=line -j3 lint typecheck pytest

# Four pytest-xdist workers on any machine: most tests wait on servers, processes and a
# browser, so four keep two cores busy (docs/testing.md has the figures).
PYTEST_WORKERS ?= 4
# The repo's modules byte-compiled first: the suite starts some sixty `shipwise` processes, and
# where the environment sets PYTHONDONTWRITEBYTECODE each would compile them from source
# (`import server.app`: 1.95 s of CPU, 1.75 s with the bytecode there).
pytest: install
	@$(BIN)/python -m compileall -q server jobs stats bench tests sdk/python/src
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist worksteal --durations=25

lint: install portal-check
	$(BIN)/ruff check .

typecheck: install
	$(BIN)/mypy server jobs stats tests
	$(BIN)/mypy --strict sdk/python/src

schema: install
	$(BIN)/python -c 'from server.api.schema import export_sdl; open("schema.graphql", "w").write(export_sdl())'

clean:
	rm -rf $(VENV) .shipwise .pytest_cache .mypy_cache .ruff_cache server/graphiql/static \
	  web/node_modules web/dist
