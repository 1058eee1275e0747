# One image for the API, the Celery worker and beat; the built front end is served by the API.
FROM node:20-bookworm-slim AS frontend
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
# The image is for deployments: without JWT_SECRET and ENCRYPTION_KEY every process refuses to start
# (ENVIRONMENT=development generates them per container, which only suits a trial on one machine).
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 ENVIRONMENT=production
WORKDIR /srv/touratlas
COPY pyproject.toml constraints.txt ./
COPY app/ app/
COPY indexer/ indexer/
COPY workers/ workers/
COPY demo/ demo/
COPY mappings/ mappings/
COPY alembic.ini ./
RUN pip install --no-cache-dir -c constraints.txt . \
    && useradd --create-home --uid 1000 touratlas && mkdir -p data && chown touratlas data
COPY --from=frontend /src/frontend/dist frontend/dist
USER touratlas
EXPOSE 8000
# Serve only (`python -m app.cli setup` migrates): `serve` believes X-Forwarded-For only from TRUSTED_PROXIES.
CMD ["python", "-m", "app.cli", "serve", "--host", "0.0.0.0", "--port", "8000", "--workers", "4", "--no-setup"]
