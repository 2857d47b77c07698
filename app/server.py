"""Gunicorn run from Python: the same settings whichever WSGI app it serves."""

from collections.abc import Callable

from gunicorn.app.base import BaseApplication

from .observability.gunicorn_hooks import SERVER_SETTINGS


class GunicornServer(BaseApplication):
    """Serve the app an ``app_factory`` builds, once per worker after the fork."""

    def __init__(self, app_factory: Callable, options: dict):
        """Keep the factory and the gunicorn settings (``bind``, ``workers``, ``threads`` …)."""
        self.app_factory = app_factory
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        """Apply the settings."""
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        """Build the WSGI app in the worker, so Redis connections open after the fork."""
        return self.app_factory()


def server_options(bind: str, workers: int, threads: int) -> dict:
    """The gunicorn settings ``serve`` uses (and the benchmark's bare endpoint too)."""
    return {
        **SERVER_SETTINGS,
        "bind": bind,
        "workers": workers,
        "threads": threads,
        "worker_class": "gthread" if threads > 1 else "sync",
        "preload_app": False,
        "timeout": 30,
        "graceful_timeout": 10,
        "keepalive": 5,
        "errorlog": "-",
        "loglevel": "info",
        "proc_name": "yacht-daily",
        "control_socket_disable": True,
    }
