# The README's first two commands: `make run` and `make test`. Both set up what they need.
HOST ?= 127.0.0.1
PORT ?= 8000
export HOST PORT
PY := .venv/bin/python

.PHONY: run test setup client lint format demo reindex bench clean audit

run: ## Run TourAtlas on its embedded defaults (SQLite, embedded index, in-process tasks, demo content)
	@bash scripts/setup.sh run
	@$(PY) -m app.cli serve --host $(HOST) --port $(PORT)

test: ## The whole suite: linters, types, front-end tests, pytest on SQLite and PostgreSQL, e2e in Chromium
	@bash scripts/setup.sh test
	@bash scripts/test.sh

setup:
	@bash scripts/setup.sh test

client: ## Regenerate frontend/openapi.json and the typed API client from the backend
	@$(PY) -m app.cli openapi frontend/openapi.json
	@npm --prefix frontend run --silent generate-client

audit: ## Known vulnerabilities in the pinned Python and npm packages (also part of `make test`)
	@bash scripts/audit.sh

lint:
	@$(PY) -m ruff check app indexer workers demo tests bench && $(PY) -m mypy app indexer workers demo

format:
	@$(PY) -m ruff format app indexer workers demo tests bench && $(PY) -m ruff check --fix app indexer workers demo tests bench

demo: ## Load the demo corpus (TOURS=n to size it)
	@$(PY) -m demo load --tours $${TOURS:-2000}

reindex: ## Rebuild the search index from the database
	@$(PY) -m app.search reindex

clean:
	rm -rf data/touratlas.db* data/index
