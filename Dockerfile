# The API (gunicorn) and, with another command, the worker. The store runs in
# its own container (docker-compose.yml) or wherever REDIS_URL points.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PORT=8000
WORKDIR /app

COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY games/ games/
COPY events/ events/
COPY projections/ projections/
COPY service/ service/
COPY wsgi.py openapi.yaml ./
# the web client's rules and how-to-play pages are rendered from these, the
# problems page from docs/problems.md; the page calls the API through the
# JavaScript client, served from clients/js as it is
COPY docs/rules/ docs/rules/
COPY docs/howto/ docs/howto/
COPY docs/problems.md docs/problems.md
COPY clients/js/tabletell.js clients/js/tabletell.js

# never run as root
RUN useradd --create-home --uid 10001 tabletell
USER tabletell

EXPOSE 8000
ENV HOST=0.0.0.0 PROMETHEUS_MULTIPROC_DIR=/tmp/tabletell-metrics
# the API alone: the gunicorn command `make run` starts (service/run.py builds
# it), from the same settings (WEB_WORKER_CLASS, WEB_CONCURRENCY, WEB_THREADS,
# WEB_CONNECTIONS, GRACEFUL_SECONDS, ...), the metrics directory emptied first
CMD ["python", "-m", "service.run", "api"]
