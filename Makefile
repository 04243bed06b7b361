# make serve: set up and run the score sheet.  make test: set up and run every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

CATALOGS := $(wildcard src/scopa/locale/*/LC_MESSAGES/scopa.po)
COMPILED := $(CATALOGS:.po=.mo)

.PHONY: setup wasm catalogs messages system-deps serve test test-fast test-system test-busy test-thorough lint typecheck pytest bench native dist clean

$(STAMP): pyproject.toml setup.py package-lock.json
	scripts/node-deps.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP) catalogs wasm

# The kernel built to WebAssembly for the phone's worker (scripts/build-wasm.py), where clang,
# lld and wasi-libc are installed (scripts/system-deps.sh); without them the phone plays with
# the pure engine.
WASM := src/scopa/engine/native/kernel.wasm
wasm: $(WASM)

$(WASM): src/scopa/engine/native/wasm.c $(wildcard src/scopa/engine/native/*.h) scripts/build-wasm.py
	$(PYTHON) scripts/build-wasm.py --if-possible

# The gettext catalogs compiled in place (.mo for Python, static/i18n/*.json for the scripts);
# a wheel compiles its own (setup.py).
catalogs: $(COMPILED)

$(COMPILED): $(CATALOGS) scripts/catalogs.py $(STAMP)
	$(BIN)/python scripts/catalogs.py

# Extract the messages again and merge them into the catalogs (then translate what is new):
# the project's own (domain scopa), and the command line toolkit's, click's and Typer's own
# words ("No such option", "Usage:"; domain toolkit) from the installed packages.
messages: $(STAMP)
	$(BIN)/pybabel extract --add-location=file --sort-by-file --ignore-dirs='.* ._ vendor node_modules mutants build dist' -F babel.cfg -k N_ -k NN_:1,2 -k NP_:1c,2 -k pgettext:1c,2 -k npgettext:1c,2,3 -o src/scopa/locale/scopa.pot --omit-header -w 100 .
	$(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete -w 100 -i src/scopa/locale/scopa.pot -d src/scopa/locale -D scopa
	$(BIN)/pybabel extract --no-location --sort-output --omit-header -w 100 -o src/scopa/locale/toolkit.pot $$($(BIN)/python -c 'import click, typer, os; print(os.path.dirname(click.__file__), os.path.dirname(typer.__file__))')
	$(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete -w 100 -i src/scopa/locale/toolkit.pot -d src/scopa/locale -D toolkit

# Debian's chromium (browser tests), postgresql (store tests on both databases) and caddy
# (the HTTPS proxy test).
system-deps:
	@scripts/system-deps.sh

serve: setup
	$(BIN)/scopa serve $(ARGS)

# The page scripts (src/scopa/web/static/*.js): eslint (eslint.config.js), and TypeScript's
# checker over their JSDoc types, strict (tsconfig.json: the pages; tsconfig.workers.json: the
# service worker and the Pyodide worker). Their node tests (tests/js/) are linted, not typed.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	node_modules/.bin/eslint .
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tsconfig.workers.json

typecheck: $(STAMP)
	$(BIN)/mypy

# pytest's two tiers at once (scripts/run-tests.sh): fast (core, application, web in process,
# browser) and system (tests marked system: real servers, kills, Caddy, schemathesis).
pytest: setup system-deps
	@test -f $(WASM) || $(PYTHON) scripts/build-wasm.py --if-possible
	scripts/run-tests.sh $(ARGS)

# The three at once: mypy and the linters run on one core while pytest starts on the
# others (mypy alone is half a minute on one core). Any failure fails the whole.
test: setup
	$(MAKE) --no-print-directory -j3 lint typecheck pytest

# One tier alone.
test-fast: setup system-deps
	@test -f $(WASM) || $(PYTHON) scripts/build-wasm.py --if-possible
	scripts/run-tests.sh fast $(ARGS)

test-system: setup system-deps
	scripts/run-tests.sh system $(ARGS)

# The whole check with every core kept busy by stress-ng (scripts/busy.sh): it must pass.
test-busy: setup system-deps
	scripts/busy.sh $(MAKE) --no-print-directory test

# The whole check with every Hypothesis property at its full count of examples (an everyday
# run takes half: tests/examples.py).
test-thorough: setup system-deps
	SCOPA_HYPOTHESIS=thorough $(MAKE) --no-print-directory test

# The native kernel again after a change to its C sources (the install builds it too).
native: $(STAMP)
	$(BIN)/python scripts/build-native.py

# The sdist and the wheel for every platform (py3-none-any: the native kernel is left out of the
# wheel; installing from the sdist builds it where a C compiler is present).
dist: $(STAMP)
	SCOPA_PURE_WHEEL=1 $(BIN)/python -m build

bench: $(STAMP)
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf node_modules src/scopa/web/static/vendor $(VENV) build *.egg-info src/*.egg-info .mypy_cache .ruff_cache test-artifacts src/scopa/engine/native/*.so $(WASM)
