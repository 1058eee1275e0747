"""Index names and the versioned mapping files of mappings/.

Each kind of document lives in a concrete index `<prefix>-<kind>-v<version>-<stamp>` reached only
through the alias `<prefix>-<kind>`; a rebuild loads fresh indices and moves the aliases in one call.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

MAPPINGS_DIR = Path(__file__).resolve().parents[2] / "mappings"
KINDS = ("tours", "creators", "ads", "tags", "places")
_MAPPING_FILE = re.compile(r"^(?P<kind>[a-z]+)\.v(?P<version>\d+)\.json$")
# The index a fresh cluster starts with; a fixed name makes concurrent first starts create it once.
BOOTSTRAP_STAMP = "initial"


@dataclass(frozen=True, slots=True)
class IndexSpec:
    kind: str
    version: int
    settings: dict[str, Any]
    mappings: dict[str, Any]


@cache
def index_specs(directory: Path = MAPPINGS_DIR) -> dict[str, IndexSpec]:
    """The newest mapping version of every kind; a kind without a file is a deployment error."""
    newest: dict[str, IndexSpec] = {}
    for path in sorted(directory.glob("*.json")):
        match = _MAPPING_FILE.match(path.name)
        if not match or match["kind"] not in KINDS:
            continue
        version = int(match["version"])
        if match["kind"] in newest and newest[match["kind"]].version >= version:
            continue
        body = json.loads(path.read_text(encoding="utf-8"))
        newest[match["kind"]] = IndexSpec(match["kind"], version, body["settings"], body["mappings"])
    missing = [kind for kind in KINDS if kind not in newest]
    if missing:
        raise FileNotFoundError(f"no Elasticsearch mapping for {', '.join(missing)} in {directory}")
    return newest


def alias_name(prefix: str, kind: str) -> str:
    return f"{prefix}-{kind}"


def versioned_name(prefix: str, spec: IndexSpec, stamp: str) -> str:
    return f"{prefix}-{spec.kind}-v{spec.version}-{stamp}"


def rebuild_stamp(now: datetime | None = None) -> str:
    """Microseconds, so two rebuilds in the same second still get distinct indices."""
    return (now or datetime.now(UTC)).strftime("%Y%m%d%H%M%S%f")


def version_of(index_name: str, prefix: str, kind: str) -> int | None:
    match = re.match(rf"^{re.escape(prefix)}-{re.escape(kind)}-v(\d+)-", index_name)
    return int(match[1]) if match else None
