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
# the web client's rules pages are rendered from these
COPY docs/rules/ docs/rules/

# never run as root
RUN useradd --create-home --uid 10001 tabletell
USER tabletell

EXPOSE 8000
# gevent workers: a client waiting on a game costs a greenlet, not a thread
# (service/run.py builds the same command for `make run`)
ENV PROMETHEUS_MULTIPROC_DIR=/tmp/tabletell-metrics
CMD ["sh", "-c", "mkdir -p $PROMETHEUS_MULTIPROC_DIR && rm -f $PROMETHEUS_MULTIPROC_DIR/*.db && exec gunicorn wsgi:app --config python:service.gunicorn_conf --bind 0.0.0.0:${PORT} --worker-class service.gunicorn_workers.GeventWorker --workers ${WEB_CONCURRENCY:-2} --worker-connections ${WEB_CONNECTIONS:-10000}"]
