"""Throwaway servers of the load test's own, on this machine only: a PostgreSQL cluster (initdb
and pg_ctl, so it can be restarted without touching the machine's server), a Redis, and the
project's production server (gunicorn) with a Celery worker and its beat."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PG_BIN = Path(os.environ.get("POTDEVIN_PG_BIN", "/usr/lib/postgresql/15/bin"))
PG_USER = "postgres"  # PostgreSQL refuses to run as root: the cluster belongs to this user


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", PG_USER, "--", *command] if os.geteuid() == 0 else command


def _wait_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing answers on port {port}")


class Postgres:
    """A PostgreSQL cluster in a temporary folder, on a port of its own."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="potdevin-loadtest-pg-"))
        shutil.chown(self.dir, PG_USER)
        self.data = self.dir / "data"
        self.port = free_port()
        subprocess.run(
            _as_postgres(
                [str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"]
                + ["--no-sync"]
            ),
            check=True,
            capture_output=True,
        )
        self.start()

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def _ctl(self, *args: str) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c max_connections=100 -k {self.dir}"
        )
        subprocess.run(
            _as_postgres(
                [str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-w", "-o", options, *args]
                + ["-l", str(self.dir / "log")]
            ),
            check=True,
            capture_output=True,
        )

    def start(self) -> None:
        self._ctl("start")
        _wait_port(self.port)

    def restart(self) -> None:
        self._ctl("restart", "-m", "fast")
        _wait_port(self.port)

    def stop(self) -> None:
        try:
            self._ctl("stop", "-m", "immediate")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


class Redis:
    """A Redis of its own that keeps nothing on disk: a restart loses what was queued, which
    the jobs must survive."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
            + ["--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_port(self.port)

    def restart(self) -> None:
        self.stop()
        self.start()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


class Site:
    """`make serve` as a deployment runs it: gunicorn with sync workers and a Celery worker
    with the beat, on the given database and broker."""

    def __init__(self, env: dict[str, str], *, web_workers: int, log_dir: Path) -> None:
        self.port = free_port()
        self.env = {
            **os.environ,
            **env,
            "PORT": str(self.port),
            "WEB_WORKERS": str(web_workers),
            "DATABASE_CONN_MAX_AGE": "60",
        }
        self.log_dir = log_dir
        self.web = self._spawn(
            "web",
            [sys.executable, "-m", "gunicorn", "-c", "potdevin_site/gunicorn.conf.py"]
            + ["potdevin_site.wsgi"],
        )
        self.worker = self._spawn(
            "worker",
            [sys.executable, "-m", "celery", "-A", "potdevin_site", "worker", "--beat", "-l"]
            + ["info", "--concurrency", "1", "--schedule", str(log_dir / "celerybeat")],
        )
        self._wait_ready()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _spawn(self, name: str, command: list[str]) -> subprocess.Popen[bytes]:
        log = (self.log_dir / f"{name}.log").open("wb")
        return subprocess.Popen(
            command,
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def _wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.base}/api/health/", timeout=2):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the server did not start: see " + str(self.log_dir / "web.log"))

    def web_worker_pids(self) -> list[int]:
        children = Path(f"/proc/{self.web.pid}/task/{self.web.pid}/children")
        return [int(p) for p in children.read_text().split()]

    def kill_a_web_worker(self) -> int:
        """SIGKILL one gunicorn worker (the master starts another); returns its pid."""
        pid = self.web_worker_pids()[0]
        os.kill(pid, signal.SIGKILL)
        return pid

    def stop(self) -> None:
        for process in (self.web, self.worker):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in (self.web, self.worker):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
