"""Prometheus metrics at ``/metrics``: requests, latency, Redis errors, rate limiting, reveals
and their failures, and the games and reveals read from Redis (``game_metrics``).

Under gunicorn every worker is its own process: with ``PROMETHEUS_MULTIPROC_DIR`` set (the
deploy config sets it before any worker starts) each worker writes its samples to files there
and a scrape of any worker merges them all. Without it (the test client, a single process) the
default registry serves.
"""

import os
import time

from flask import Response, current_app, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess as prometheus_multiprocess

from app.observability.game_metrics import GameCollector
from app.services import EXTENSION

STATIC_ROUTE = "/static/<path:filename>"
UNMATCHED_ROUTE = "unmatched"
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

REQUESTS = Counter(
    "yacht_daily_http_requests_total", "HTTP requests answered, by route and status.",
    ["method", "route", "status"])
LATENCY = Histogram(
    "yacht_daily_http_request_duration_seconds", "Time to answer a request, by route.",
    ["method", "route"], buckets=LATENCY_BUCKETS)
REDIS_ERRORS = Counter(
    "yacht_daily_redis_errors_total", "Requests that failed because Redis did, by error type.",
    ["error"])
RATE_LIMITED = Counter(
    "yacht_daily_rate_limited_total", "Requests refused with 429, by route.", ["route"])
REVEALS = Counter(
    "yacht_daily_reveals_total", "Dates this service's processes revealed.")
REVEAL_FAILURES = Counter(
    "yacht_daily_reveal_failures_total",
    "Reveal attempts that failed, by the type of the error that caused it.", ["error"])


class LabelledChildren:
    """A metric's children by label values, looked up once each: ``labels()`` takes a lock and
    validates the labels on every call; the set of (method, route, status) is small."""

    def __init__(self, metric):
        """Wrap ``metric``."""
        self.metric = metric
        self.children = {}

    def get(self, *values: str):
        """The child for these label values."""
        child = self.children.get(values)
        if child is None:
            child = self.children[values] = self.metric.labels(*values)
        return child


REQUEST_COUNTS = LabelledChildren(REQUESTS)
LATENCIES = LabelledChildren(LATENCY)


def route_label() -> str:
    """The matched URL rule (bounded cardinality), never the raw path; static files under one
    label whatever the release's content digest in their path, so series survive a deploy."""
    if request.url_rule is None:
        return UNMATCHED_ROUTE
    if request.url_rule.endpoint == "static":
        return STATIC_ROUTE
    return request.url_rule.rule


def process_registry() -> CollectorRegistry:
    """All workers' samples merged when multiprocess, else this process's registry."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        prometheus_multiprocess.MultiProcessCollector(registry)
        return registry
    return REGISTRY


def store_registry(services) -> CollectorRegistry:
    """A registry of the gauges read from Redis for this scrape."""
    registry = CollectorRegistry()
    registry.register(GameCollector(services))
    return registry


def init_app(app) -> None:
    """Time and count every request, and serve the metrics at ``/metrics``."""

    @app.before_request
    def start_timer():
        """Note when the request started."""
        g.request_started = time.perf_counter()

    @app.after_request
    def count_request(response):
        """Count the request by route and status and record its duration."""
        route = route_label()
        REQUEST_COUNTS.get(request.method, route, str(response.status_code)).inc()
        started = g.get("request_started")
        if started is not None:
            LATENCIES.get(request.method, route).observe(time.perf_counter() - started)
        if response.status_code == 429:
            RATE_LIMITED.labels(route).inc()
        return response

    @app.get("/metrics")
    def metrics():
        """The Prometheus text exposition of every metric."""
        body = generate_latest(process_registry()) + generate_latest(
            store_registry(current_app.extensions[EXTENSION]))
        return Response(body, content_type=CONTENT_TYPE_LATEST)
