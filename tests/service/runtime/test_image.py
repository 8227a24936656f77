"""The container image and the compose file, checked where they cannot be
built: no Docker engine here, nor in CI. hadolint lints the Dockerfile,
check-jsonschema holds docker-compose.yml to the Compose Specification's
schema, and the image's command, port and settings, read by dockerfile-parse,
are held to those ``make run`` uses (its own command run here, from the files
the image copies)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psutil
import yaml
from dockerfile_parse import DockerfileParser

from service.config import Config
from service.runtime import run
from service.runtime.embedded_redis import EmbeddedRedis
from tests.support.paths import ROOT

BIN = Path(sys.executable).parent  # hadolint and check-jsonschema, installed in the venv by make


def dockerfile(path: Path = ROOT / "Dockerfile") -> DockerfileParser:
    return DockerfileParser(str(path))


def instructions(parsed: DockerfileParser, name: str) -> list[str]:
    return [step["value"] for step in parsed.structure if step["instruction"] == name]


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]


def hadolint(path: Path) -> subprocess.CompletedProcess:
    # every finding fails, info and style too (by default only warnings and errors do)
    return subprocess.run(
        [BIN / "hadolint", "--no-color", "--failure-threshold", "style", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_the_dockerfile_has_no_hadolint_finding():
    linted = hadolint(ROOT / "Dockerfile")
    assert linted.returncode == 0, linted.stdout + linted.stderr
    assert linted.stdout == ""


def test_hadolint_finds_what_it_is_there_to_find(tmp_path):
    """The linter runs and reads its rules: an image on a moving tag, run as
    root, with pip's cache kept, is three findings."""
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:latest\nRUN pip install flask\nUSER root\n")
    linted = hadolint(bad)
    assert linted.returncode != 0
    for rule in ("DL3007", "DL3013", "DL3042", "DL3002"):
        assert rule in linted.stdout, (rule, linted.stdout)


def test_the_compose_file_follows_the_compose_specification(tmp_path):
    def check(path: Path) -> subprocess.CompletedProcess:
        return subprocess.run(
            [BIN / "check-jsonschema", "--builtin-schema", "vendor.compose-spec", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )

    checked = check(ROOT / "docker-compose.yml")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    wrong = tmp_path / "compose.yml"  # a misspelt key is caught
    wrong.write_text("services:\n  api:\n    image: x\n    restart_policy: always\n")
    assert check(wrong).returncode != 0


def test_the_image_runs_as_a_user_of_its_own_on_the_port_it_exposes():
    parsed = dockerfile()
    assert instructions(parsed, "USER")[-1] not in ("root", "0")
    port = parsed.envs["PORT"]
    assert instructions(parsed, "EXPOSE") == [port] and port == str(Config.from_env({}).port)
    assert parsed.envs["HOST"] == "0.0.0.0"  # reached from outside its container
    api = compose()["api"]
    assert api["build"] == "."
    assert [mapping.split(":")[-1] for mapping in api["ports"]] == [port]
    assert f"127.0.0.1:{port}/v1/health/ready" in " ".join(api["healthcheck"]["test"])


def test_compose_runs_the_worker_and_the_store_as_make_run_does():
    """The worker container runs the module ``make run`` starts as its
    worker, and the store container the persistence and memory policy of
    ``make run``'s private store (append-only, fsync every second, no RDB
    snapshots, STORE_MAXMEMORY's default, no eviction)."""
    services = compose()
    assert services["worker"]["command"] == ["python", *run.worker_command()[1:]]
    private = EmbeddedRedis("/unused", port=6379, maxmemory=Config.from_env({}).store_maxmemory)
    store = services["redis"]["command"]
    assert store[0] == "valkey-server"
    flags = dict(zip(store[1::2], store[2::2]))
    assert flags == {"--save": "", **dict(zip(private.policy()[::2], private.policy()[1::2]))}
    assert flags["--maxmemory-policy"] == "noeviction" and flags["--appendonly"] == "yes"


def test_compose_monitoring_profile_loads_the_rules_and_dashboards_of_the_repository():
    """docker compose --profile monitoring up: Prometheus reads a scrape
    config of ops/prometheus (which loads alerts.yml beside it) that scrapes
    the API's port and each worker's METRICS_PORT; Grafana's provisioning
    finds the dashboards where they are mounted."""
    services = compose()
    prometheus, grafana = services["prometheus"], services["grafana"]
    mounts = dict(volume.rsplit(":", 1)[0].split(":", 1) for volume in prometheus["volumes"] if volume.startswith("./"))
    assert mounts == {"./ops/prometheus": "/etc/prometheus"}
    config_file = next(arg for arg in prometheus["command"] if arg.startswith("--config.file="))
    relative = config_file.split("=", 1)[1].removeprefix("/etc/prometheus/")
    scrape = yaml.safe_load((ROOT / "ops" / "prometheus" / relative).read_text())
    assert (ROOT / "ops" / "prometheus" / scrape["rule_files"][0]).exists()
    targets = {job["job_name"]: job for job in scrape["scrape_configs"]}
    assert targets["tabletell"]["static_configs"][0]["targets"] == [f"api:{dockerfile().envs['PORT']}"]
    worker_port = int(services["worker"]["environment"]["METRICS_PORT"])
    assert targets["tabletell-worker"]["dns_sd_configs"][0] == {"names": ["worker"], "type": "A", "port": worker_port}

    mounted = dict(volume.rsplit(":", 1)[0].split(":", 1) for volume in grafana["volumes"])
    provider = yaml.safe_load((ROOT / "ops/grafana/provisioning/dashboards/tabletell.yml").read_text())["providers"][0]
    assert mounted["./ops/grafana/dashboards"] == provider["options"]["path"]
    assert mounted["./ops/grafana/provisioning"] == "/etc/grafana/provisioning"
    assert grafana["environment"]["PROMETHEUS_URL"] == "http://prometheus:9090"


def test_the_image_holds_what_the_pages_read():
    """The rules, the how-to-play pages, the problems page and the client the
    page imports are read from files outside the Python packages: the image
    copies each."""
    copied = [value.split()[0] for value in instructions(dockerfile(), "COPY")]
    for needed in ("docs/rules/", "docs/howto/", "docs/problems.md", "clients/js/tabletell.js"):
        assert needed in copied, needed
        assert (ROOT / needed).exists(), needed


def test_the_image_serves_from_the_files_it_copies_with_the_command_make_run_builds(redis_server, tmp_path):
    """The image's filesystem as its COPY lines make it (a directory here
    holding only those files), its command (``python -m service.run api``)
    run there: it serves the API with the gunicorn command ``service.run``
    builds (WEB_WORKER_CLASS, WEB_THREADS and GRACEFUL_SECONDS included), and
    the pages, rules and spec it serves are read from what was copied."""
    import shutil

    import httpx

    from service.runtime.embedded_redis import free_port
    from service.runtime.run import gunicorn_command
    from tests.support.patience import PATIENCE
    from tests.support.stack import wait_healthy

    parsed = dockerfile()
    image = tmp_path / "app"
    image.mkdir()
    for value in instructions(parsed, "COPY"):  # COPY <source>... <target>, from the project's root
        *sources, target = value.split()
        for source in sources:
            if source.endswith("/"):  # a directory, to a directory of the same name
                shutil.copytree(ROOT / source, image / target, ignore=shutil.ignore_patterns("__pycache__"))
            else:  # a file, into a directory (./, docs/) or to its own path
                destination = image / target / Path(source).name if target.endswith("/") else image / target
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(ROOT / source, destination)
    cmd = json.loads(parsed.cmd)
    assert cmd == ["python", "-m", "service.run", "api"]

    port = free_port()
    settings = {
        **parsed.envs,
        "REDIS_URL": redis_server.url,
        "PORT": str(port),
        "HOST": "127.0.0.1",  # the image's 0.0.0.0: not on a shared machine
        "WEB_WORKER_CLASS": "gthread",
        "WEB_THREADS": "3",
        "WEB_CONCURRENCY": "1",
        "GRACEFUL_SECONDS": "4",
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
        "ACCESS_LOG": "off",
    }
    # the image's Python finds the project where it was copied, and the packages pip installed
    env = {**os.environ, **settings, "PYTHONPATH": str(image)}
    process = subprocess.Popen(
        [sys.executable, *cmd[1:]],
        cwd=image,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base, process)
        # the process itself became gunicorn's master (exec), with make run's command
        running = psutil.Process(process.pid).cmdline()
        assert running == gunicorn_command(Config.from_env(settings))
        assert "service.runtime.gunicorn_workers.ThreadWorker" in running
        assert running[running.index("--threads") + 1] == "3"
        assert running[running.index("--graceful-timeout") + 1] == "4"
        assert Path(psutil.Process(process.pid).cwd()) == image
        with httpx.Client(base_url=base, timeout=PATIENCE) as client:
            for path in ("/", "/v1/health/ready", "/openapi.yaml", "/docs", "/docs/problems", "/rules/diez",
                         "/how-to-play/diez", "/static/js/tabletell.js"):
                answer = client.get(path)
                assert answer.status_code == 200, (path, answer.status_code, answer.text[:300])
    finally:
        process.terminate()
        process.wait(timeout=PATIENCE)
