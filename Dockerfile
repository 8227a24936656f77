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

# never run as root
RUN useradd --create-home --uid 10001 tabletell
USER tabletell

EXPOSE 8000
CMD ["sh", "-c", "exec gunicorn wsgi:app --bind 0.0.0.0:${PORT} --worker-class gthread --workers ${WEB_CONCURRENCY:-2} --threads ${WEB_THREADS:-16} --access-logfile -"]
