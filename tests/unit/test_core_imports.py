"""app/core is the floor every domain stands on: it imports no domain package, not the task modules
(app.tasks, app.task_modules) and not the Celery entry point (workers). The walk is over the source
with `ast`, so an import inside a function counts as much as one at the top.

Two known exceptions, each named with what it may reach: db.py loads the model registry
(app.models) before the first session, because domains name each other's classes and every mapper
must be known; deps.py is the HTTP edge (who is calling: users, sign-in, the platform's access
rule; and the geocoder the locations and tours routers share), shared by every router."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "app" / "core"
# What core may import from the app: core itself, plus the named exceptions (module → prefixes).
ALLOWED_APP_PREFIX = "app.core"
EXCEPTIONS: dict[str, tuple[str, ...]] = {
    "db.py": ("app.models",),
    "deps.py": ("app.users", "app.auth", "app.platform", "app.locations", "app.search"),
}


def imported_modules(source: str, module: str) -> list[tuple[int, str]]:
    """Every module an `import` or `from … import` names, relative imports resolved against `module`."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")[: -node.level]
                base = ".".join([*package, base] if base else package)
            found.append((node.lineno, base))
            # `from app import tasks` names the module app.tasks.
            found.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names if base == "app")
    return found


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def forbidden(name: str, allowed: tuple[str, ...]) -> bool:
    if within(name, "workers"):
        return True
    if not name.startswith("app."):
        return False  # the standard library and third-party packages
    return not any(within(name, prefix) for prefix in (ALLOWED_APP_PREFIX, *allowed))


def violations(path: Path) -> list[str]:
    module = "app.core." + path.stem if path.stem != "__init__" else "app.core"
    allowed = EXCEPTIONS.get(path.name, ())
    return [
        f"{path.name}:{line} imports {name}"
        for line, name in imported_modules(path.read_text(), module)
        if forbidden(name, allowed)
    ]


def test_core_imports_no_domain_and_no_workers() -> None:
    files = sorted(CORE.glob("*.py"))
    assert files, f"no modules found under {CORE}"
    assert [problem for path in files for problem in violations(path)] == []


@pytest.mark.parametrize(
    "line",
    [
        "from app.tours.models import Tour",
        "import app.tasks",
        "from app import tasks",
        "from workers.celery_app import celery_app",
        "import workers",
        "from ..discovery import rank_calculation",
        "    from app.search.tasks import EMBED_TOURS_TASK",  # inside a function: still an import
    ],
)
def test_the_check_catches_each_way_of_importing_upwards(tmp_path: Path, line: str) -> None:
    source = "def later() -> None:\n" + line + "\n" if line.startswith(" ") else line + "\n"
    bad = tmp_path / "bad.py"
    bad.write_text(source)
    assert violations(bad) != []


@pytest.mark.parametrize(
    "line", ["from app.core.db import Base", "from app.core import outbox", "from . import settings", "import celery"]
)
def test_the_check_lets_core_import_core_and_libraries(tmp_path: Path, line: str) -> None:
    ok = tmp_path / "ok.py"
    ok.write_text(line + "\n")
    assert violations(ok) == []
