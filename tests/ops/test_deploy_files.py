"""The deploy files parse and say what docs/operations.md promises, checked by the real tools.

Each tool may be missing on a machine (no compose client, no systemd, no nginx): that test is
skipped with the reason. The Docker engine itself is never needed.
"""

import datetime as dt
import os
import re
import shutil
import subprocess
import sys
from fnmatch import fnmatch
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
VENV_BIN = Path(sys.executable).parent


def gunicorn_settings(data_dir: Path, tmp_path: Path, **env: str) -> dict[str, str]:
    """The settings gunicorn reads from deploy/gunicorn.conf.py (it loads the app too)."""
    result = subprocess.run(
        [str(VENV_BIN / "gunicorn"), "--print-config", "-c", str(DEPLOY / "gunicorn.conf.py")],
        capture_output=True, text=True, cwd=tmp_path,
        env={**os.environ, "YACHT_DAILY_DATA_DIR": str(data_dir),
             "REDIS_URL": f"unix://{tmp_path}/absent.sock", **env})
    assert result.returncode == 0, result.stderr
    return dict(re.findall(r"^(\w+)\s+= (.*)$", result.stdout, re.MULTILINE))


def test_gunicorn_config_loads_with_its_defaults_and_overrides(data_dir, tmp_path):
    """The config loads the app; workers follow the cores unless WEB_CONCURRENCY says; the
    access log is JSON; nothing is preloaded; workers are recycled with jitter."""
    defaults = gunicorn_settings(data_dir, tmp_path)
    assert defaults["workers"] == str(2 * os.cpu_count())
    assert defaults["worker_class"] == "sync" and defaults["preload_app"] == "False"
    assert defaults["logger_class"] == "app.observability.logs.GunicornJsonLogger"
    assert defaults["accesslog"] == "-" and defaults["bind"] == "['127.0.0.1:8000']"
    assert int(defaults["max_requests_jitter"]) > 0 and int(defaults["timeout"]) > 0
    assert {"on_starting", "child_exit", "on_exit"} <= set(defaults)
    tuned = gunicorn_settings(data_dir, tmp_path, WEB_CONCURRENCY="3",
                              YACHT_DAILY_WORKER_CLASS="gthread", YACHT_DAILY_THREADS="4",
                              YACHT_DAILY_BIND="0.0.0.0:8000")
    assert (tuned["workers"], tuned["worker_class"], tuned["threads"]) == ("3", "gthread", "4")
    assert tuned["bind"] == "['0.0.0.0:8000']"


def compose_command() -> list[str] | None:
    """The compose client present here: the docker plugin, else docker-compose, else None."""
    if shutil.which("docker"):
        plugin = subprocess.run(["docker", "compose", "version"], capture_output=True)
        if plugin.returncode == 0:
            return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return None


def test_compose_file_is_valid_and_wires_replicas_redis_and_proxy():
    """`compose config` accepts the file; replicas share Redis and secrets; Redis fsyncs always."""
    command = compose_command()
    if command is None:
        pytest.skip("no compose client (docker compose plugin or docker-compose) on this machine")
    result = subprocess.run([*command, "-f", str(DEPLOY / "compose.yaml"), "config"],
                            capture_output=True, text=True, cwd=DEPLOY)
    assert result.returncode == 0, result.stderr
    rendered = result.stdout
    for service in ("redis:", "init:", "app1:", "app2:", "reveal:", "proxy:"):
        assert re.search(rf"^  {service}", rendered, re.MULTILINE), service
    assert re.search(r"--appendfsync\s*\n\s*- always", rendered)
    assert rendered.count("REDIS_URL: redis://redis:6379/0") == 3
    assert rendered.count("app-data:/var/lib/yacht-daily") == 4
    assert "service_completed_successfully" in rendered


def systemd_units_with_local_paths(tmp_path: Path) -> list[Path]:
    """The units copied to ``tmp_path`` with /opt/yacht-daily/venv/bin pointing at this venv."""
    units = []
    for unit in sorted((DEPLOY / "systemd").iterdir()):
        text = unit.read_text().replace("/opt/yacht-daily/venv/bin/", f"{VENV_BIN}/")
        copy = tmp_path / unit.name
        copy.write_text(text)
        units.append(copy)
    return units


def test_systemd_units_verify(tmp_path):
    """`systemd-analyze verify` finds no unknown key, bad value or missing command."""
    if not shutil.which("systemd-analyze"):
        pytest.skip("systemd-analyze is not installed here")
    units = systemd_units_with_local_paths(tmp_path)
    assert {unit.name for unit in units} == {
        "yacht-daily.service", "yacht-daily-reveal.service", "yacht-daily-reveal.timer"}
    result = subprocess.run(["systemd-analyze", "verify", *map(str, units)],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == ""


def test_reveal_timer_runs_the_reveal_command():
    """The timer starts the reveal service, which runs `yacht-daily reveal` as the service user."""
    timer = (DEPLOY / "systemd" / "yacht-daily-reveal.timer").read_text()
    service = (DEPLOY / "systemd" / "yacht-daily-reveal.service").read_text()
    assert "Unit=yacht-daily-reveal.service" in timer
    assert "Persistent=true" in timer
    assert re.search(r"^ExecStart=\S+/yacht-daily reveal$", service, re.MULTILINE)
    assert "User=yacht-daily" in service


def self_signed_certificate(directory: Path) -> tuple[Path, Path]:
    """A throwaway certificate and key for localhost, as PEM files in ``directory``."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = dt.datetime.now(dt.UTC)
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=1))
        .not_valid_after(now + dt.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "fullchain.pem", directory / "privkey.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    return cert_path, key_path


def test_nginx_example_passes_nginx_t(tmp_path):
    """`nginx -t` accepts the site once its upstream hosts, certificate and cache paths exist
    here."""
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx")
                                      else None)
    if nginx is None:
        pytest.skip("nginx is not installed here")
    cert_path, key_path = self_signed_certificate(tmp_path)
    site = (DEPLOY / "nginx" / "yacht-daily.conf").read_text()
    site = re.sub(r"server app(\d):(\d+)", r"server 127.0.0.\1:\2", site)
    site = site.replace("/etc/nginx/tls/fullchain.pem", str(cert_path))
    site = site.replace("/etc/nginx/tls/privkey.pem", str(key_path))
    site = site.replace("/var/cache/nginx/yacht-daily", str(tmp_path / "cache"))
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\n"
        f"events {{}}\nhttp {{ include {tmp_path}/site.conf; }}\n")
    result = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"),
         "-c", str(tmp_path / "nginx.conf")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


def dockerignore_admits(path: str, patterns: list[str]) -> bool:
    """Whether the build context keeps ``path`` under .dockerignore rules (last match wins)."""
    kept = True
    for pattern in patterns:
        negated = pattern.startswith("!")
        rule = pattern.lstrip("!").rstrip("/")
        if fnmatch(path, rule) or path.startswith(rule + "/"):
            kept = negated
    return kept


def test_dockerfile_copies_only_what_exists_and_runs_unprivileged():
    """Every COPY source exists and survives the ignore file; non-root user; a health check."""
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    patterns = [line.strip() for line in (DEPLOY / "Dockerfile.dockerignore").read_text()
                .splitlines() if line.strip() and not line.startswith("#")]
    sources = []
    for line in re.findall(r"^COPY (?!--from)(.+)$", dockerfile, re.MULTILINE):
        sources.extend(line.split()[:-1])
    assert sources
    for source in sources:
        assert (ROOT / source).exists(), source
        assert dockerignore_admits(source.rstrip("/"), patterns), source
    assert re.search(r"^USER (?!root|0\b)\S+", dockerfile, re.MULTILINE)
    assert re.search(r"^HEALTHCHECK .*/healthz", dockerfile, re.MULTILINE | re.DOTALL)
    assert "gunicorn.conf.py" in dockerfile.split("CMD", 1)[1]
