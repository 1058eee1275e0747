"""The distributed stack on paper: docker-compose.yml is valid and runs every part the README names."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_compose_file_has_every_service() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"postgres", "elasticsearch", "redis", "api", "worker", "beat", "migrate"} <= set(services)
    assert services["elasticsearch"]["image"].split(":")[-1].startswith("8.")
    assert "--workers" in services["api"]["command"]
    assert services["worker"]["command"][:3] == ["celery", "-A", "workers.celery_app"]
    env = services["api"]["environment"]
    assert env["DATABASE_URL"].startswith("postgresql+psycopg://") and env["REDIS_URL"].startswith("redis://")


def test_docker_compose_accepts_the_file() -> None:
    binary = shutil.which("docker-compose")
    if binary is None:
        pytest.skip("docker-compose is not installed here (apt-get install docker-compose validates without an engine)")
    result = subprocess.run(
        [binary, "-f", str(ROOT / "docker-compose.yml"), "config", "-q"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def test_the_api_trusts_only_the_documented_proxy_address() -> None:
    """`serve` (not bare uvicorn, which believes X-Forwarded-For from 127.0.0.1) runs the API, and the
    one trusted address sits in the proxy network but outside its gateway and dynamic range."""
    import ipaddress

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    api = compose["services"]["api"]
    assert api["command"][:4] == ["python", "-m", "app.cli", "serve"] and "--no-setup" in api["command"]
    assert "proxy" in api["networks"] and "default" in api["networks"]
    trusted = api["environment"]["TRUSTED_PROXIES"].removeprefix("${TRUSTED_PROXIES:-").removesuffix("}")
    (network,) = compose["networks"]["proxy"]["ipam"]["config"]
    subnet, dynamic = ipaddress.ip_network(network["subnet"]), ipaddress.ip_network(network["ip_range"])
    address = ipaddress.ip_address(trusted)
    assert address in subnet and address not in dynamic and address != next(subnet.hosts())
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert 'CMD ["python", "-m", "app.cli", "serve"' in dockerfile and "--proxy-headers" not in dockerfile
