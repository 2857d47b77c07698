"""Gunicorn settings for Yacht Daily in production.

Run with ``gunicorn -c deploy/gunicorn.conf.py`` (the app is named below). Every knob an
operator turns has an environment variable; docs/operations.md lists them and
docs/performance.md gives the measurements behind the defaults.
"""

import os
import sys

from app.cli.server import quiet_late_patching
from app.observability.gunicorn_hooks import SERVER_SETTINGS


def default_workers() -> int:
    """Two workers per core: a worker waits on Redis for part of each request (performance.md)."""
    return 2 * (os.cpu_count() or 1)


wsgi_app = "app:create_app()"
bind = os.environ.get("YACHT_DAILY_BIND", "127.0.0.1:8000").split(",")
workers = int(os.environ.get("WEB_CONCURRENCY", default_workers()))
worker_class = os.environ.get("YACHT_DAILY_WORKER_CLASS", "sync")
threads = int(os.environ.get("YACHT_DAILY_THREADS", "1"))
# Behind nginx, which buffers whole requests (deploy/nginx), slow clients never reach a worker,
# so sync workers are the default here; `yacht-daily serve`, exposed as it is, uses gevent.
gevent_post_fork = quiet_late_patching if worker_class == "gevent" else None
if gevent_post_fork:
    post_fork = gevent_post_fork

# Opt-in, behind nginx: one port per worker instead of the bind's port (the bind's host kept),
# YACHT_DAILY_WORKER_PORTS=<first port>: worker slot i alone accepts on first + i, and nginx
# hashes the player cookie onto those ports, so a player's games stay in one worker's cache
# (app/cli/worker_ports.py; operations.md "One worker per player").
if os.environ.get("YACHT_DAILY_WORKER_PORTS"):
    from app.cli.worker_ports import WorkerPorts, WorkerPortsError

    try:
        worker_ports = WorkerPorts.configured(os.environ["YACHT_DAILY_WORKER_PORTS"], bind,
                                              workers, worker_class, after_fork=gevent_post_fork)
    except WorkerPortsError as error:
        sys.exit(f"Error: {error}")
    bind = worker_ports.binds
    pre_fork = worker_ports.pre_fork
    post_fork = worker_ports.post_fork

# A request does at most two Redis round trips: 30 s means something is stuck, not slow.
timeout = int(os.environ.get("YACHT_DAILY_WORKER_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
# Recycle workers now and then so that a slow leak never becomes an outage; the jitter keeps
# them from all restarting at once. A new worker spends about a second of CPU on its imports
# and strategy tables (a bare Flask worker: 0.04 s), so every 5,000 requests cost 0.2 ms each,
# a tenth of an action's CPU; every 50,000 cost 0.02 ms (performance.md).
max_requests = int(os.environ.get("YACHT_DAILY_MAX_REQUESTS", "50000"))
max_requests_jitter = max_requests // 10
# No preloading: each worker imports the app and opens its Redis connections after the fork,
# so no socket is ever shared between processes.
preload_app = False
# The heartbeat file on a RAM disk, so a slow disk never makes a healthy worker look hung.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
limit_request_line = 4094
limit_request_fields = 50
# Only a proxy on these addresses may set X-Forwarded-Proto (the app trusts X-Forwarded-For
# separately, by hop count: YACHT_DAILY_PROXY_HOPS).
forwarded_allow_ips = os.environ.get("YACHT_DAILY_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")

accesslog = SERVER_SETTINGS["accesslog"]
errorlog = SERVER_SETTINGS["errorlog"]
loglevel = os.environ.get("YACHT_DAILY_LOG_LEVEL", "info").lower()
logger_class = SERVER_SETTINGS["logger_class"]
proc_name = "yacht-daily"
# No control socket in the service user's home: several servers on one host would share it.
control_socket_disable = True

# Metrics: a shared directory for the workers' samples (PROMETHEUS_MULTIPROC_DIR, else a private
# temporary one), emptied at start and cleaned of dead workers; then the master imports the app
# and reads the strategy tables once for every worker it forks (app.preload).
on_starting = SERVER_SETTINGS["on_starting"]
# Each worker runs a reveal thread; the one holding the Redis lease reveals (operations.md).
post_worker_init = SERVER_SETTINGS["post_worker_init"]
# Each worker freezes what it loaded (fewer, shorter collections) and unfreezes it as it exits.
worker_exit = SERVER_SETTINGS["worker_exit"]
child_exit = SERVER_SETTINGS["child_exit"]
on_exit = SERVER_SETTINGS["on_exit"]
