"""Production start-up depends on app/ only: with the top-level `demo` package unimportable, the
application is built, `python -m app.cli setup` migrates and loads every built-in dictionary, and
asking for the demo corpus anyway fails with a message that says what to do."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Run in a fresh interpreter: this one may have imported `demo` already (tests/unit/test_demo.py).
START_UP = """
import json, sys
sys.modules["demo"] = None  # every `import demo...` now raises ImportError

from sqlalchemy import func, select

import app.main
from app.cli import setup_platform
from app.billing.models import BillingPlan
from app.classifications.models import CaptureDevice, Category, MediaType, RankSource, Subcategory, Tag
from app.vendors.models import Vendor
from app.core.db import get_sessionmaker
from app.core.settings import get_settings
from app.platform.models import PlatformConfig

app.main.create_app()
setup_platform()
counts = {}
with get_sessionmaker()() as session:
    dictionaries = (Category, Subcategory, MediaType, CaptureDevice, Vendor, RankSource, Tag, BillingPlan)
    for model in (*dictionaries, PlatformConfig):
        counts[model.__tablename__] = session.scalar(select(func.count()).select_from(model))

import os
os.environ["SEED_DEMO"] = "true"
get_settings.cache_clear()
try:
    setup_platform()
    refusal = None
except SystemExit as exc:
    refusal = str(exc)
loaded = sorted(name for name, module in sys.modules.items() if module is not None and name.split(".")[0] == "demo")
print(json.dumps({"counts": counts, "refusal": refusal, "demo_modules": loaded}))
"""


def test_start_up_loads_the_dictionaries_without_the_demo_package(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'start.db'}",
        "DATA_DIR": str(tmp_path),
        "SEED_DEMO": "false",
        "TASKS_EAGER": "true",
        "EMBEDDINGS_ENABLED": "false",
        "ELASTICSEARCH_URL": "",
        "REDIS_URL": "",
        "SMTP_URL": "",
        "GEOCODER_URL": "",
        "STRIPE_SECRET_KEY": "",
    }
    finished = subprocess.run(
        [sys.executable, "-c", START_UP], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert finished.returncode == 0, finished.stderr[-3000:]
    result = json.loads(finished.stdout.strip().splitlines()[-1])
    empty = [table for table, count in result["counts"].items() if not count]
    assert empty == [], f"dictionaries not loaded: {empty}"
    assert result["refusal"] == "SEED_DEMO is on, but the demo package is not installed: set SEED_DEMO=false"
    assert result["demo_modules"] == []
