"""The distributed stack on paper: docker-compose.yml is valid and runs every part the README names."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
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


def compose_config(folder: Path, **environment: str) -> subprocess.CompletedProcess[str]:
    """`docker-compose config` with only these variables (an empty env file, none of this shell's)."""
    binary = shutil.which("docker-compose")
    if binary is None:
        pytest.skip("docker-compose is not installed here (apt-get install docker-compose validates without an engine)")
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp"), **environment}
    empty = folder / "empty.env"
    empty.write_text("")
    command = [binary, "--env-file", str(empty), "-f", str(ROOT / "docker-compose.yml"), "config"]
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False)


def test_docker_compose_accepts_the_file(tmp_path: Path) -> None:
    result = compose_config(tmp_path, JWT_SECRET="x" * 48, ENCRYPTION_KEY="y" * 44)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("missing", ["JWT_SECRET", "ENCRYPTION_KEY"])
def test_compose_refuses_to_start_without_either_secret(missing: str, tmp_path: Path) -> None:
    """No placeholder and no empty default: each container would sign or encrypt with its own key."""
    given = {"JWT_SECRET": "x" * 48, "ENCRYPTION_KEY": "y" * 44}
    del given[missing]
    result = compose_config(tmp_path, **given)
    assert result.returncode != 0 and f"set {missing}" in result.stderr


def test_compose_runs_outside_development_with_required_secrets() -> None:
    env = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["api"]["environment"]
    assert env["ENVIRONMENT"] == "${ENVIRONMENT:-production}"
    for name in ("JWT_SECRET", "ENCRYPTION_KEY"):
        assert env[name].startswith(f"${{{name}:?"), env[name]  # required: no default at all
    assert "ENVIRONMENT=production" in (ROOT / "Dockerfile").read_text()  # the image run without compose too


def test_a_lone_worker_takes_every_queue_and_the_split_stays_possible() -> None:
    """`setup` and tour changes queue embeddings: the default `worker` consumes that queue too, so a
    stack with one worker computes them; `worker-embeddings` is the optional split (a profile)."""
    from app.core.tasks import task_queues
    from app.task_modules import load_task_modules

    load_task_modules()
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    worker = services["worker"]["command"]
    queues = worker[worker.index("-Q") + 1]
    match = re.fullmatch(r"\$\{WORKER_QUEUES:-([a-z,]+)\}", queues)
    assert match, queues
    assert set(match.group(1).split(",")) == set(task_queues().values()) == {"index", "mail", "default", "embeddings"}
    assert "profiles" not in services["worker"]
    assert services["worker-embeddings"]["profiles"] == ["split-embeddings"]
    split = services["worker-embeddings"]["command"]
    assert split[split.index("-Q") + 1] == "embeddings"


def test_beat_keeps_its_schedule_under_data_dir_not_the_working_directory(tmp_path: Path) -> None:
    """`celery beat` as compose starts it (no --schedule), from a folder that is not the data folder:
    the schedule file lands under DATA_DIR. (Beat opens the file before it reaches the broker, so
    no Redis is needed: the broker URL points at a closed port.)"""
    beat = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["beat"]["command"]
    assert "--schedule" not in beat and "-s" not in beat
    data_dir = tmp_path / "data"
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DATA_DIR": str(data_dir),
        "REDIS_URL": "redis://127.0.0.1:9/0",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.db'}",
    }
    log = (tmp_path / "beat.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", *beat[1:]], cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 60
        while not list(data_dir.glob("celerybeat-schedule*")) and time.monotonic() < deadline:
            assert process.poll() is None, (tmp_path / "beat.log").read_text()
            time.sleep(0.2)
    finally:
        process.terminate()
        process.wait(timeout=15)
        log.close()
    assert list(data_dir.glob("celerybeat-schedule*")), (tmp_path / "beat.log").read_text()
    assert list(cwd.iterdir()) == []


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
