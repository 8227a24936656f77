# The two commands: `make run` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
DATA_DIR ?= ./var

.PHONY: run dev test soak bench bench-peers venv clean browser tools node npm js-dev lint-tools lock openapi

UV := uv==0.13.9

## the environment: requirements.lock (every package, pinned) installed by uv,
## which fetches and installs in parallel (about 15 s against pip's 45 on
## this machine: CI sets it up on every run); should uv fail, pip installs
## requirements-dev.txt instead, resolving it as it always did.
$(VENV)/.installed: requirements.txt requirements-dev.txt requirements.lock
	$(PYTHON) -m venv $(VENV)
	{ $(PY) -m pip install --quiet --disable-pip-version-check $(UV) && \
	  $(VENV)/bin/uv pip install --quiet --python $(PY) --no-deps --compile-bytecode -r requirements.lock; } || \
	  $(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

## the Python client (clients/python: the tests, benchmarks and examples/bot.py
## use it) as a user gets it: `python -m build` makes its sdist and, from that,
## its wheel in dist/python (the build's own environment set up by uv when
## there is one: about 5 s), and the wheel is installed in .venv, not the
## source tree, so the suite runs the package as it would be published.
## Again only when a file of the client changes. Its dependencies (httpx,
## simple-websocket) are in the lock.
CLIENT_PY := $(shell find clients/python -type f -not -path '*.egg-info/*' -not -path '*/__pycache__/*')
$(VENV)/.client: $(VENV)/.installed $(CLIENT_PY)
	rm -rf dist/python
	$(PY) -m build --quiet $$(test -x $(VENV)/bin/uv && echo --installer=uv) --outdir dist/python clients/python
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall dist/python/*.whl
	touch $@

## lock: requirements.lock again, from requirements-dev.txt resolved by pip
## in a fresh environment (after a requirement is added or bumped).
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	{ sed -n '1,3p' requirements.lock; .lock-venv/bin/python -m pip freeze --exclude-editable; } > requirements.lock.new
	mv requirements.lock.new requirements.lock && rm -rf .lock-venv

venv: $(VENV)/.installed $(VENV)/.client

## run: the API under gunicorn (gevent workers), an RQ worker with its scheduler, and (without
## REDIS_URL) a private valkey-server persisting to DATA_DIR. Ctrl-C stops all.
run: venv
	PORT=$(PORT) DATA_DIR=$(DATA_DIR) $(PY) -m service.run

## dev: make run for developing a client on this machine (TABLETELL_PROFILE=dev,
## docs/operations.md): no rate limits, creation quota or cap on waiting games,
## so a client's own tests run again and again from one address; it says so
## as it starts. Never for a server anyone else uses.
dev: venv
	TABLETELL_PROFILE=dev PORT=$(PORT) DATA_DIR=$(DATA_DIR) $(PY) -m service.run

## tools: what the tests use beside Python, installed when missing: Debian's
## chromium for the web client's tests (tests/service/http/test_web.py),
## jq, which the docs' examples pipe answers through (tests/docs), and
## prometheus (with promtool) for the alerting rules' unit tests and the
## dashboards' queries against a real Prometheus (tests/ops): apt-get as
## root (CI), else through sudo.
tools:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v jq >/dev/null 2>&1 || missing="$$missing jq"; \
	{ command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; } || missing="$$missing prometheus"; \
	[ -z "$$missing" ] || { \
	  echo "installing Debian's$$missing for the tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; \
	  else echo "make test needs$$missing: run 'apt-get install$$missing' as root" >&2; exit 1; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; }

browser: tools

## npm: Debian's nodejs comes without npm (its own package), which packs the
## JavaScript client and installs its tarball for its tests (make test), its
## dev tools (js-dev) and bench/peers (make bench): installed as chromium is
## when missing.
npm: node
	@command -v npm >/dev/null 2>&1 || { \
	  echo "installing Debian's npm"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; \
	  else echo "make needs npm: run 'apt-get install npm' as root" >&2; exit 1; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq npm >/dev/null; }

## lint-tools: the linters the suite runs on openapi.yaml
## (tests/service/http/test_openapi_lint.py): Redocly CLI (its `recommended`
## rules, redocly.yaml) and Spectral (`spectral:oas`, .spectral.yaml), and
## axe-core, which the web client's accessibility test injects into its pages
## (tests/service/http/test_web_access.py), as tools/lint/package-lock.json pins them, in tools/lint/node_modules
## (git-ignored; npm ci again only when the lock changes). make test asks for them.
LINTERS := tools/lint/node_modules/.installed
$(LINTERS): tools/lint/package.json tools/lint/package-lock.json | npm
	cd tools/lint && npm ci --no-audit --no-fund --loglevel=error
	touch $@

lint-tools: $(LINTERS)

## node: Node.js 20 or later for the JavaScript client's tests (clients/js, run
## by tests/clients/test_js_client.py against a running stack), installed when
## missing as chromium is (apt-get's nodejs: 20 or later on Debian 13, or from
## NodeSource's repository on 12, whose own is 18); one too old is an error.
node:
	@command -v node >/dev/null 2>&1 || { \
	  echo "installing Node.js for the JavaScript client's tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; \
	  else echo "make test needs Node.js 20 or later: run 'apt-get install nodejs' as root" >&2; exit 1; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq nodejs >/dev/null; }
	@node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' || { \
	  echo "make test needs Node.js 20 or later for clients/js, not $$(node --version): see https://nodejs.org/en/download" >&2; exit 1; }

## test: the layers first (import-linter's contracts in .importlinter), then
## the types (mypy over the files mypy.ini names: games/, events/,
## projections/ and service/app/; the rest of service/ is listed there with
## its errors and the plan for them), then
## the whole suite (openapi.yaml's linters among it: lint-tools), against real servers the fixtures start, in four
## processes (pytest-xdist; each starts its own servers on free ports; the
## browser tests share one stack and one browser, on one of them; the
## JavaScript client's own tests run under node against one stack, on its
## npm package: packed and installed by npm; the Python client's are run on
## its wheel, which venv installs). Four on
## a 2-core machine: much of the suite waits on the servers, the browser and
## the cluster it starts, and two processes left the cores idle (quiet, on
## 2 cores: 9 min 12 s with two, 7 min 30 s with four, before issue 52; with
## its tests, 9 min 53 s with four; since then 5 min 15 s to 8 min 47 s, all
## of make test on a quiet machine whose speed varied by half over a day:
## still over the 6 minutes aimed at; long property runs counted down to
## make soak's, test helpers made cheaper, slow tests sent first). The CPU
## the suite spends is what is over (some 17 minutes of it on 2 cores):
## 2026-11-29, the runs make soak sizes cut to a quick size, fixtures that
## started a stack or played a game once per test process grouped, took the
## suite's CPU (user+sys, servers and browsers included) from 1,192 s to
## 886 s (some 915 s with the rolling restart back at 1,000 streams, its
## first cost: its 200 met a race of the test's own), under other
## engineers' load (load average 5-12): a quarter, not the 40% aimed at.
## The modules' bytecode is written (PYTHONDONTWRITEBYTECODE unset): every
## process the suite starts imports the project compiled once.
test: venv tools npm js-dev lint-tools
	$(VENV)/bin/lint-imports
	$(PY) -m mypy
	env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -n 4 --dist loadgroup

## openapi: openapi.yaml's games again, from their declarations (each game's
## commands.py and shapes.py: service/http/openapi.py), after a game changes
## what it shows; make test fails while the file differs from them.
openapi: venv
	$(PY) -m service.http.openapi

## soak: what make test runs at a quick, fixed, seeded size, at its full
## size (SOAK=1, tests/support/soak.py), which CI need not run: the games'
## long property runs (1,000+ random games per game, every state fuzzed,
## every view and entry checked against its declarations, the hidden-
## information sweeps, the expert's checks at 12 rollouts, the bots'
## strength runs at bench/bots.py's 1,000 games), the chaos run at its full
## count of SIGKILLs, the streams' 200 waiters and storm of 1,000 clients, the ratings' 200 games
## between 20 players, schemathesis at 100 cases an operation, the
## malformed commands' 20,000 examples, and the tournaments' at the issue's
## size: the 64-player Swiss of 5 rounds on real workers (about 1 to 3
## minutes) and kill -9 at the round starts of three rounds of Diez.
SOAKED := tests/games tests/service/runtime/test_chaos.py \
	tests/service/realtime/test_streams.py tests/service/app/test_ratings.py \
	tests/service/http/test_schemathesis.py tests/service/app/test_malformed_commands.py \
	tests/service/runtime/test_tournament_chaos.py tests/service/workers/test_tournaments_workers.py
soak: venv
	SOAK=1 $(PY) -m pytest $(SOAKED)

## js-dev: the JavaScript client's dev tools, TypeScript alone, as
## clients/js/package-lock.json pins it (npm ci into clients/js/node_modules,
## git-ignored; again only when the lock changes: about 2 s, from npm's cache
## after the first): tests/clients/test_readme_examples.py compiles the
## client's README game under `tsc --strict` against tabletell.d.ts.
JSDEV := clients/js/node_modules/.installed
$(JSDEV): clients/js/package.json clients/js/package-lock.json | npm
	cd clients/js && npm ci --no-audit --no-fund --loglevel=error
	touch $@

js-dev: $(JSDEV)

## bench-peers: boardgame.io, the peer bench/peers/run.py measures beside us,
## as bench/peers/package-lock.json pins it (npm ci into bench/peers/node_modules,
## git-ignored; again only when the lock changes). Only make bench asks for
## it: make run and make test never install it.
PEERS := bench/peers/node_modules/.installed
$(PEERS): bench/peers/package.json bench/peers/package-lock.json | npm
	cd bench/peers && npm ci --no-audit --no-fund --loglevel=error
	touch $@

bench-peers: npm $(PEERS)

## bench: every benchmark (bench/report.py runs them), then one table of their
## figures with the machine they ran on: the API against a plain Flask endpoint
## under both worker classes, 5,000 waiting clients, the web client in a
## browser (page weight, first render, move to screen), player streams, quick
## matches and webhooks, the workers against the
## rules' speed in memory, the cost of each DURABILITY, load time as logs grow
## and folding speed, what a game costs in the store, the bots' win rates,
## and our moves beside boardgame.io's (bench/peers/run.py).
bench: venv tools bench-peers
	$(PY) bench/report.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis dist
