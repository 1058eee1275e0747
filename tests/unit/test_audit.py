"""scripts/audit.py (issue 12 part 6): what fails the dependency audit, what a dated exception lets
through, and when an audit is skipped with its reason instead of passing silently."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
TODAY = dt.date(2026, 11, 25)


def load_audit() -> ModuleType:
    spec = importlib.util.spec_from_file_location("touratlas_audit", ROOT / "scripts" / "audit.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


audit = load_audit()


def pip_report(*dependencies: dict[str, Any]) -> dict[str, Any]:
    return {"dependencies": list(dependencies), "fixes": []}


def npm_advisory(name: str, severity: str, ghsa: str, source: int) -> dict[str, Any]:
    via = {
        "source": source,
        "name": name,
        "title": f"Something bad in {name}",
        "url": f"https://github.com/advisories/{ghsa}",
        "severity": severity,
        "range": "<2.0.0",
    }
    return {"name": name, "severity": severity, "via": [via], "effects": [], "isDirect": False}


def npm_report(*packages: dict[str, Any]) -> dict[str, Any]:
    vulnerabilities = {package["name"]: package for package in packages}
    # A package vulnerable only through another lists that one's name: not an advisory of its own.
    vulnerabilities["dependent"] = {"name": "dependent", "severity": "high", "via": ["lib-a"], "effects": []}
    return {"auditReportVersion": 2, "vulnerabilities": vulnerabilities, "metadata": {}}


def test_every_python_finding_counts_and_unaudited_packages_are_noted() -> None:
    jinja2 = {"id": "PYSEC-1", "aliases": ["CVE-1"], "fix_versions": ["3.1.6"], "description": "XSS"}
    result = audit.python_result(
        pip_report(
            {"name": "jinja2", "version": "3.1.0", "vulns": [jinja2]},
            {"name": "rich", "version": "15.0.0", "vulns": []},
            {"name": "torch", "version": "2.13.0+cpu", "skip_reason": "Dependency not found on PyPI"},
        )
    )
    assert result.skipped is None
    assert [(finding.id, finding.aliases) for finding in result.findings] == [("PYSEC-1", ("CVE-1",))]
    assert "fixed in 3.1.6" in str(result.findings[0])
    assert result.notes == ("not audited: torch: Dependency not found on PyPI",)


def test_a_python_audit_that_could_look_nothing_up_is_skipped_not_passed() -> None:
    result = audit.python_result(pip_report({"name": "rich", "version": "1", "skip_reason": "not found"}))
    assert result.skipped and "audited none of 1" in result.skipped


def test_npm_counts_high_and_critical_advisories_only() -> None:
    result = audit.npm_result(
        npm_report(
            npm_advisory("lib-a", "high", "GHSA-aaaa-bbbb-cccc", 1001),
            npm_advisory("lib-b", "critical", "GHSA-2222-3333-4444", 1002),
            npm_advisory("lib-c", "moderate", "GHSA-5555-6666-7777", 1003),
        )
    )
    assert [finding.id for finding in result.findings] == ["GHSA-2222-3333-4444", "GHSA-aaaa-bbbb-cccc"]
    assert result.findings[1].aliases == ("npm-1001",)
    assert result.notes == ("1 npm advisories below high severity (npm audit --omit=dev lists them)",)


def test_an_npm_registry_without_the_audit_service_is_a_skip() -> None:
    result = audit.npm_result(
        {"message": "405 Method Not Allowed - POST …/security/advisories/bulk", "statusCode": 405}
    )
    assert result.skipped and "405 Method Not Allowed" in result.skipped


def test_a_dated_exception_lets_its_finding_through_and_nothing_else() -> None:
    exceptions = audit.parse_exceptions(
        "# id  date  reason\nGHSA-aaaa-bbbb-cccc  2026-10-01  only the dev server uses it   # comment\n"
        "npm-1002 2026-06-01 no fix released; the affected call is never made\n"
        "PYSEC-9 2026-11-01 gone since\n"
    )
    results = {
        "npm": audit.npm_result(
            npm_report(
                npm_advisory("lib-a", "high", "GHSA-aaaa-bbbb-cccc", 1001),
                npm_advisory("lib-b", "critical", "GHSA-2222-3333-4444", 1002),
                npm_advisory("lib-d", "high", "GHSA-8888-9999-cccc", 1004),
            )
        ),
        "Python": audit.AuditResult(),
    }
    lines, blocking = audit.verdict(results, exceptions, TODAY)
    # By id, and by an alias (npm's own advisory number); the third finding fails the audit.
    assert [finding.id for finding in blocking] == ["GHSA-8888-9999-cccc"]
    text = "\n".join(lines)
    assert "excepted (2026-10-01: only the dev server uses it)" in text
    assert "review: the exception for npm-1002 dates from 2026-06-01" in text
    assert "unused: the exception for PYSEC-9" in text


def test_unused_exceptions_are_not_reported_while_an_audit_was_skipped() -> None:
    exceptions = audit.parse_exceptions("PYSEC-9 2026-11-01 still needed\n")
    results = {"Python": audit.AuditResult(skipped="offline"), "npm": audit.AuditResult()}
    lines, blocking = audit.verdict(results, exceptions, TODAY)
    assert blocking == [] and lines[0] == "SKIPPED: Python audit: offline"
    assert not any("unused" in line for line in lines)


@pytest.mark.parametrize(
    "line", ["GHSA-aaaa-bbbb-cccc 2026-10-01", "GHSA-aaaa-bbbb-cccc yesterday no fix", "GHSA-aaaa-bbbb-cccc"]
)
def test_an_exception_without_a_date_or_reason_is_refused(line: str) -> None:
    with pytest.raises(audit.BadExceptionsFile):
        audit.parse_exceptions(line)


def test_the_audits_skip_when_the_registry_does_not_answer() -> None:
    def offline(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(command, 1, stdout="", stderr="ERROR: network unreachable\n")

    def slow(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
        raise subprocess.TimeoutExpired(command, 180)

    assert audit.audit_python(offline).skipped == "the package index does not answer (ERROR: network unreachable)"
    assert audit.audit_npm(offline).skipped == "the npm registry does not answer (ERROR: network unreachable)"
    assert audit.audit_python(slow).skipped == audit.audit_npm(slow).skipped == "no answer within 180 s"


def test_pip_audit_is_asked_about_the_pins_without_installing_anything() -> None:
    commands: list[list[str]] = []

    def answering(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
        commands.append(command)
        report = pip_report({"name": "rich", "version": "15.0.0", "vulns": []})
        return subprocess.CompletedProcess(command, 0, stdout=json.dumps(report), stderr="")

    assert audit.audit_python(answering) == audit.AuditResult()
    pip_audit = commands[-1]
    assert pip_audit[1:3] == ["-m", "pip_audit"]
    assert {"--no-deps", "--disable-pip"} <= set(pip_audit) and "constraints.txt" in pip_audit


def test_the_exceptions_file_in_the_repository_parses() -> None:
    audit.parse_exceptions((ROOT / "audit-exceptions.txt").read_text())
