# The two commands: `make run` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
DATA_DIR ?= ./var

.PHONY: run test soak bench venv clean

$(VENV)/.installed: requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

venv: $(VENV)/.installed

## run: the API under gunicorn (gevent workers), an RQ worker with its scheduler, and (without
## REDIS_URL) a private valkey-server persisting to DATA_DIR. Ctrl-C stops all.
run: venv
	PORT=$(PORT) DATA_DIR=$(DATA_DIR) $(PY) -m service.run

## test: the whole suite, against real servers the fixtures start, in two
## processes (pytest-xdist; each starts its own servers on free ports).
test: venv
	$(PY) -m pytest -n 2

## soak: the long property runs (1,000+ random games per game), which CI need not run.
soak: venv
	SOAK=1 $(PY) -m pytest tests/games tests/test_non_interference.py

## bench: API throughput and latency against a plain Flask endpoint, 5,000
## waiting clients (streams and long polls), the workers, the cost of each
## DURABILITY, and the bots' win rates.
bench: venv
	$(PY) bench/api.py
	$(PY) bench/streams.py
	$(PY) bench/workers.py
	$(PY) bench/durability.py
	$(PY) bench/growth.py
	$(PY) bench/store_memory.py
	for game in $$($(PY) -c 'from games.registry import GAMES; print(*GAMES)'); do $(PY) bench/bots.py $$game; done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
