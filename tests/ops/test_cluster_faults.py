"""The service on a Redis Cluster that is down when the servers start, then comes back: the
workers start anyway, answer 503 meanwhile, and serve again by themselves."""

import pytest
from redis_cluster import LocalRedisCluster
from test_faults import get, post, wait_for_status


@pytest.fixture
def stopped_cluster(ops_dir):
    """A 3-master cluster, created and then stopped (its nodes remember it)."""
    cluster = LocalRedisCluster(ops_dir / "cluster").start()
    cluster.stop()
    yield cluster
    cluster.stop()


def test_cluster_down_at_start_answers_503_and_recovers(stopped_cluster, deploy_server,
                                                        play_date):
    """Workers boot on an unreachable cluster, answer 503 + Retry-After with /readyz red, and
    play normally once the cluster is back, without a restart."""
    server = deploy_server(stopped_cluster.url, workers=2)
    status, headers, answer = post(server.port, "/api/v1/games",
                                   {"ruleset": "yahtzee", "date": play_date})
    assert status == 503 and headers["retry-after"].isdigit()
    assert answer["error"]["code"] == "storage-unavailable"
    assert get(server.port, "/readyz")[0] == 503
    assert get(server.port, "/healthz")[0] == 200

    stopped_cluster.restart()
    wait_for_status(server.port, "/readyz", 200)
    status, _, answer = post(server.port, "/api/v1/games",
                             {"ruleset": "yahtzee", "date": play_date})
    assert status == 201
    assert server.process.poll() is None and "Traceback" not in server.log()
