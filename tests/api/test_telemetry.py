"""FastAPI's native OpenTelemetry hooks stay off: TourAtlas configures no provider, and left on they
look the three global providers up on every request (the feed's event-loop time, bench/RESULTS.md
"Feed over HTTP at 1M, session 11"). Even a provider set globally by some library does not turn them on."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.telemetry import _asgi

from app.main import create_app


class ConfiguredProvider:
    """Not one of OpenTelemetry's deferred placeholders: FastAPI takes it for a configured provider."""


@pytest.fixture
def configured_providers(monkeypatch: pytest.MonkeyPatch) -> None:
    provider: Any = ConfiguredProvider()
    monkeypatch.setattr(_asgi.trace, "get_tracer_provider", lambda: provider)
    monkeypatch.setattr(_asgi.metrics, "get_meter_provider", lambda: provider)
    monkeypatch.setattr(_asgi._logs, "get_logger_provider", lambda: provider)


@pytest.mark.usefixtures("database", "configured_providers")
def test_the_apps_native_telemetry_stays_off() -> None:
    assert FastAPI()._native_telemetry.enabled()  # what FastAPI does by default, with a provider set
    assert not create_app()._native_telemetry.enabled()
