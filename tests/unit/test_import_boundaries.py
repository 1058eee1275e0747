"""The import contracts of pyproject.toml ([tool.importlinter]) hold: `indexer/` is a library that
imports nothing from `app/`, and whatever contracts are added there later.

import-linter reads every module's imports statically (those inside functions and under
TYPE_CHECKING too), so a lazy `from app... import` in indexer/ breaks the contract as surely as a
top-level one.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(project: Path) -> subprocess.CompletedProcess[str]:
    """`lint-imports` over `project`'s pyproject.toml, its packages imported from `project`."""
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(project / "pyproject.toml"), "--no-cache"],
        cwd=project,
        env={"PYTHONPATH": str(project), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_every_import_contract_is_kept() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_the_contracts_catch_an_indexer_module_importing_the_app(tmp_path: Path) -> None:
    """The same contracts over a small tree where indexer/ imports app/ (inside a function, as the
    old registry did): reported broken. Guards against a contract that silently checks nothing."""
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    for package in ("app", "app/core", "indexer", "workers"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "app/core/settings.py").write_text("SETTING = 1\n")
    (tmp_path / "indexer/registry.py").write_text(
        "def open_index() -> int:\n    from app.core.settings import SETTING\n\n    return SETTING\n"
    )
    result = lint_imports(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "indexer must not import app BROKEN" in result.stdout
    assert "indexer.registry -> app.core.settings" in result.stdout
