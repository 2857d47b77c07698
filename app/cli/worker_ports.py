"""One listening port per gunicorn worker, so that a proxy can keep each player on one worker.

With ``YACHT_DAILY_WORKER_PORTS=<first>`` (deploy/gunicorn.conf.py) and ``n`` workers, gunicorn
listens on ``first`` … ``first + n - 1`` of the bind's host instead of the bind's own port, and
worker slot ``i`` alone accepts on ``first + i``. nginx hashes the player cookie onto those
ports (deploy/nginx/yacht-daily.conf), so a player's requests reach the one worker whose
in-process cache holds their games (app/daily/service.py).

Invariants:

- The slots' sockets are the master's own listeners (gunicorn's ``bind``), made once before
  any worker and kept for the master's life (through ``HUP``, and handed over on ``USR2``), so
  a port whose worker is restarting keeps accepting connections into its backlog, and the
  next worker of that slot serves them.
- A worker's slot is chosen in the master before it forks (``pre_fork``): the slot with the
  fewest live workers, the lowest first. A worker replacing a dead one takes its slot; while
  ``HUP`` or ``TTIN`` runs more workers than slots, two share a slot's socket (the kernel gives
  each connection to one of them), never leaving another port unserved.
- In the worker (``post_fork``), ``worker.sockets`` is its slot's listener alone and the other
  slots' sockets are closed in it: a ``sync`` worker keeps its one-socket accept loop (and
  admission control its check at accept, app/observability/admission.py), ``gthread`` and
  ``gevent`` serve that one socket.
"""

from collections import Counter

SETTING = "YACHT_DAILY_WORKER_PORTS"
WORKER_CLASSES = ("sync", "gthread", "gevent")
HIGHEST_PORT = 65535


class WorkerPortsError(ValueError):
    """The setting cannot be served as given; the message says why, for the operator."""


class WorkerPorts:
    """Worker slot ``i`` of ``count`` on ``host``:``first + i``, with gunicorn's hooks for it."""

    def __init__(self, host: str, first: int, count: int, after_fork=None):
        """The slots; ``after_fork(server, worker)``, if given, runs at the end of
        ``post_fork`` (the configuration's own ``post_fork``)."""
        self.host = host
        self.first = first
        self.count = count
        self.after_fork = after_fork

    @classmethod
    def configured(cls, setting: str, bind: list[str], workers: int, worker_class: str,
                   after_fork=None) -> "WorkerPorts":
        """The slots ``setting`` (the first port) asks for on the host of ``bind`` (one TCP
        address, ``host:port``, whose port they replace), or ``WorkerPortsError``."""
        if worker_class not in WORKER_CLASSES:
            raise WorkerPortsError(f"worker class {worker_class!r} is not supported with "
                                   f"{SETTING} (only {', '.join(WORKER_CLASSES)})")
        if not setting.strip().isdigit():
            raise WorkerPortsError(f"{SETTING}={setting!r} is not a port number")
        first = int(setting)
        if workers < 1:
            raise WorkerPortsError(f"{SETTING} needs at least one worker, not {workers}")
        if not 1 <= first <= HIGHEST_PORT - workers + 1:
            raise WorkerPortsError(f"{SETTING}={first}: ports {first}…{first + workers - 1} "
                                   f"for {workers} workers are not all within 1…{HIGHEST_PORT}")
        if len(bind) != 1 or bind[0].startswith(("unix:", "fd://")) or ":" not in bind[0]:
            raise WorkerPortsError(f"{SETTING} needs one TCP bind address (host:port) to take "
                                   f"the host from, not {','.join(bind)!r}")
        return cls(bind[0].rsplit(":", 1)[0], first, workers, after_fork)

    @property
    def binds(self) -> list[str]:
        """gunicorn's ``bind``: every slot's address, slot 0 first."""
        return [f"{self.host}:{self.first + slot}" for slot in range(self.count)]

    def pre_fork(self, server, worker) -> None:
        """In the master, before the fork: give ``worker`` the slot with the fewest live
        workers, the lowest first (a dead worker's slot, when one is free)."""
        taken = Counter(getattr(other, "slot", None) for other in server.WORKERS.values())
        worker.slot = min(range(self.count), key=lambda slot: (taken[slot], slot))

    def post_fork(self, server, worker) -> None:
        """In the new worker: accept on its slot's listener alone; close the others here."""
        port = self.first + worker.slot
        own = [listener for listener in server.LISTENERS if listening_port(listener) == port]
        if not own:
            raise WorkerPortsError(f"the master does not listen on port {port} for worker slot "
                                   f"{worker.slot} (its bind: {', '.join(server.cfg.bind)})")
        for listener in server.LISTENERS:
            if listener is not own[0]:
                listener.close()
        worker.sockets = own[:1]
        server.log.info("Worker slot %s: port %s", worker.slot, port)
        if self.after_fork is not None:
            self.after_fork(server, worker)


def listening_port(listener) -> int | None:
    """The TCP port a gunicorn listener is bound to (None for a unix socket)."""
    address = listener.sock.getsockname()
    return address[1] if isinstance(address, tuple) else None
