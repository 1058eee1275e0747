"""Dependency audit: known vulnerabilities in the pinned Python packages (pip-audit on constraints.txt,
nothing installed) and in the front end's runtime packages (npm audit --omit=dev).

Fails on a finding unless audit-exceptions.txt lists its id (or one of its aliases) with a date and a
reason. npm findings count from severity high up; PyPI's advisories carry no severity, so every Python
finding counts. An audit whose service does not answer (offline, a mirror without the audit
endpoints) is skipped with the reason printed: the rest of the test command still runs.

    .venv/bin/python scripts/audit.py            # from the repository root; scripts/audit.sh wraps it
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXCEPTIONS_FILE = ROOT / "audit-exceptions.txt"
TIMEOUT_SECONDS = float(os.environ.get("AUDIT_TIMEOUT_SECONDS", "180"))
BLOCKING_NPM_SEVERITIES = frozenset({"high", "critical"})
# An exception older than this is reported (not failed): time to look again whether a fix exists.
REVIEW_AFTER_DAYS = 90


@dataclass(frozen=True)
class RecordedException:
    id: str
    recorded: dt.date
    reason: str


@dataclass(frozen=True)
class Finding:
    ecosystem: str
    package: str
    id: str
    aliases: tuple[str, ...]
    severity: str
    summary: str

    def ids(self) -> set[str]:
        return {self.id, *self.aliases}

    def __str__(self) -> str:
        also = f" ({', '.join(self.aliases)})" if self.aliases else ""
        return f"{self.ecosystem} {self.package}: {self.id}{also} [{self.severity}] {self.summary}"


@dataclass(frozen=True)
class AuditResult:
    """Findings of one audit, or why it did not run (skipped); notes are printed either way."""

    findings: tuple[Finding, ...] = ()
    skipped: str | None = None
    notes: tuple[str, ...] = ()


class BadExceptionsFile(ValueError):
    pass


def parse_exceptions(text: str) -> dict[str, RecordedException]:
    """`ID  YYYY-MM-DD  reason…` per line; `#` starts a comment."""
    exceptions: dict[str, RecordedException] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 2)
        if len(parts) < 3:
            raise BadExceptionsFile(f"line {number}: want `ID YYYY-MM-DD reason`, got {raw!r}")
        vuln_id, date_text, reason = parts
        try:
            recorded = dt.date.fromisoformat(date_text)
        except ValueError:
            raise BadExceptionsFile(f"line {number}: {date_text!r} is not a date (YYYY-MM-DD)") from None
        exceptions[vuln_id] = RecordedException(vuln_id, recorded, reason.strip())
    return exceptions


def python_result(report: dict[str, Any]) -> AuditResult:
    """pip-audit's JSON: every vulnerability is a finding; packages it could not look up are noted,
    and when it could look up none the audit counts as skipped."""
    findings: list[Finding] = []
    unaudited: list[str] = []
    dependencies = report.get("dependencies", [])
    for dependency in dependencies:
        if dependency.get("skip_reason"):
            unaudited.append(f"{dependency['name']}: {dependency['skip_reason']}")
            continue
        for vuln in dependency.get("vulns", []):
            findings.append(
                Finding(
                    ecosystem="python",
                    package=f"{dependency['name']}=={dependency.get('version', '?')}",
                    id=vuln["id"],
                    aliases=tuple(vuln.get("aliases", [])),
                    severity="unknown",
                    summary=_first_line(vuln.get("description", "")) + _fixed_in(vuln.get("fix_versions", [])),
                )
            )
    if dependencies and len(unaudited) == len(dependencies):
        return AuditResult(
            skipped=f"the package index answered but audited none of {len(dependencies)} pinned packages "
            f"(e.g. {unaudited[0]})"
        )
    notes = tuple(f"not audited: {entry}" for entry in unaudited)
    return AuditResult(findings=tuple(findings), notes=notes)


def npm_result(report: dict[str, Any]) -> AuditResult:
    """npm audit's JSON (report version 2): one finding per advisory, high and critical only."""
    if "auditReportVersion" not in report:
        reason = report.get("message") or report.get("error", {}).get("summary") or "no audit report"
        return AuditResult(skipped=f"npm audit got no report: {reason}")
    advisories: dict[str, Finding] = {}
    for package in report.get("vulnerabilities", {}).values():
        for via in package.get("via", []):
            if not isinstance(via, dict):  # a name: vulnerable through another package, listed itself
                continue
            url = str(via.get("url", ""))
            ghsa = re.search(r"GHSA(-[0-9a-z]{4}){3}", url)
            source = str(via.get("source", ""))
            advisory_id = ghsa.group(0) if ghsa else f"npm-{source}"
            advisories[advisory_id] = Finding(
                ecosystem="npm",
                package=f"{via.get('name', package.get('name', '?'))} {via.get('range', '')}".strip(),
                id=advisory_id,
                aliases=(f"npm-{source}",) if ghsa and source else (),
                severity=str(via.get("severity", "unknown")),
                summary=str(via.get("title", "")),
            )
    blocking = [finding for finding in advisories.values() if finding.severity in BLOCKING_NPM_SEVERITIES]
    lower = len(advisories) - len(blocking)
    notes = (f"{lower} npm advisories below high severity (npm audit --omit=dev lists them)",) if lower else ()
    return AuditResult(findings=tuple(sorted(blocking, key=lambda finding: finding.id)), notes=notes)


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0][:120] if text.strip() else ""


def _fixed_in(versions: Iterable[str]) -> str:
    listed = ", ".join(versions)
    return f" (fixed in {listed})" if listed else ""


Runner = Callable[[list[str], Path], "subprocess.CompletedProcess[str]"]


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_SECONDS, check=False)


def _json_or_none(text: str) -> dict[str, Any] | None:
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError:
        return None
    return parsed if isinstance(parsed, dict) else None


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else "no output"


def audit_python(runner: Runner = run) -> AuditResult:
    try:
        index = runner([sys.executable, "-m", "pip", "index", "versions", "pip", "--disable-pip-version-check"], ROOT)
        if index.returncode != 0:
            return AuditResult(skipped=f"the package index does not answer ({_last_line(index.stderr)})")
        # --no-deps --disable-pip: every package in constraints.txt is pinned, so pip-audit only asks
        # the advisory service about each name and version; it resolves and installs nothing.
        audit = runner(
            [
                sys.executable,
                "-m",
                "pip_audit",
                "--requirement",
                "constraints.txt",
                "--no-deps",
                "--disable-pip",
                "--progress-spinner",
                "off",
                "--format",
                "json",
            ],
            ROOT,
        )
    except subprocess.TimeoutExpired as timeout:
        return AuditResult(skipped=f"no answer within {timeout.timeout:.0f} s")
    report = _json_or_none(audit.stdout)
    if report is None:
        if "No module named pip_audit" in audit.stderr:
            raise SystemExit("pip-audit is not installed: pip install -c constraints.txt -e '.[dev]'")
        return AuditResult(skipped=f"pip-audit could not ask the advisory service ({_last_line(audit.stderr)})")
    return python_result(report)


def audit_npm(runner: Runner = run) -> AuditResult:
    frontend = ROOT / "frontend"
    try:
        ping = runner(["npm", "ping"], frontend)
        if ping.returncode != 0:
            return AuditResult(skipped=f"the npm registry does not answer ({_last_line(ping.stderr)})")
        audit = runner(["npm", "audit", "--omit=dev", "--audit-level=high", "--json"], frontend)
    except subprocess.TimeoutExpired as timeout:
        return AuditResult(skipped=f"no answer within {timeout.timeout:.0f} s")
    report = _json_or_none(audit.stdout)
    if report is None:
        return AuditResult(skipped=f"npm audit printed no report ({_last_line(audit.stderr)})")
    return npm_result(report)


def verdict(
    results: dict[str, AuditResult], exceptions: dict[str, RecordedException], today: dt.date
) -> tuple[list[str], list[Finding]]:
    """The lines to print and the findings that fail the audit."""
    lines: list[str] = []
    blocking: list[Finding] = []
    used: set[str] = set()
    for name, result in results.items():
        if result.skipped:
            lines.append(f"SKIPPED: {name} audit: {result.skipped}")
        lines.extend(f"  {name}: {note}" for note in result.notes)
        for finding in result.findings:
            excepted = sorted(finding.ids() & exceptions.keys())
            if excepted:
                used.update(excepted)
                exception = exceptions[excepted[0]]
                lines.append(f"  excepted ({exception.recorded}: {exception.reason}): {finding}")
            else:
                blocking.append(finding)
                lines.append(f"  FOUND: {finding}")
        if not result.skipped:
            lines.append(f"{name} audit: {len(result.findings)} finding(s) that count")
    audited = {name for name, result in results.items() if not result.skipped}
    for exception in exceptions.values():
        if (today - exception.recorded).days > REVIEW_AFTER_DAYS:
            lines.append(f"  review: the exception for {exception.id} dates from {exception.recorded}")
        if exception.id not in used and audited == set(results):
            lines.append(f"  unused: the exception for {exception.id} matches no finding now (remove it)")
    return lines, blocking


def main() -> int:
    try:
        exceptions = parse_exceptions(EXCEPTIONS_FILE.read_text() if EXCEPTIONS_FILE.exists() else "")
    except BadExceptionsFile as error:
        print(f"{EXCEPTIONS_FILE.name}: {error}")
        return 2
    results = {"Python": audit_python(), "npm": audit_npm()}
    lines, blocking = verdict(results, exceptions, dt.date.today())
    print("\n".join(lines))
    if blocking:
        print(
            f"{len(blocking)} known vulnerabilities: upgrade the package (constraints.txt, frontend/package.json) "
            f"or record a dated exception in {EXCEPTIONS_FILE.name}"
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
