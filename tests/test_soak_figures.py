"""The soak's figures (bench/soak_checks.py): the API's `/graphql` p99 from its `/metrics`
histogram, counted only between scrapes that no fault window touches, and RSS growth."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Histogram, generate_latest

from bench.soak_checks import Buckets, Window, graphql_buckets, rss_growth, server_read_p99


def _scrape(durations: list[float]) -> Buckets:
    """What `/metrics` says after `durations` (seconds) of /graphql requests and one /healthz."""
    registry = CollectorRegistry()
    seconds = Histogram("shipwise_http_request_seconds", "d", ["path"], registry=registry)
    for d in durations:
        seconds.labels("/graphql").observe(d)
    seconds.labels("/healthz").observe(30.0)
    return graphql_buckets(generate_latest(registry).decode())


def test_the_p99_is_the_bucket_that_holds_it_outside_the_windows() -> None:
    fast = [0.02] * 980 + [0.2] * 20  # the 99th percentile in the 0.25 s bucket
    slow = [3.0] * 500  # only inside the fault window
    later = fast + fast
    scrapes = [
        (0.0, _scrape([])),
        (10.0, _scrape(fast)),
        (20.0, _scrape(fast + slow)),
        (30.0, _scrape(later + slow)),
    ]
    window = Window("worker kill", 12.0, 18.0, ())
    assert _scrape(fast)[float("inf")] == 1000  # /healthz is not counted
    assert server_read_p99(scrapes, [window]) == 0.25
    assert server_read_p99(scrapes, []) == 5.0  # the slow requests count without the window
    assert server_read_p99(scrapes[:1], []) is None


def test_rss_growth_is_read_after_the_first_minute_and_a_failure_names_its_samples() -> None:
    rss = {
        "steady": [(100.0, 300.0), (165.0, 200.0), (300.0, 240.0)],
        "dipped": [(100.0, 210.0), (161.0, 80.0), (200.0, 70.0), (400.0, 216.0)],
    }
    growth, failures = rss_growth(rss, {"steady": 100.0, "dipped": 100.0})
    assert growth == {"steady": 40.0, "dipped": 136.0}  # the start-up's 300 MB is not counted
    assert failures == [
        "dipped grew 136 MB after its first minute (80 MB at 61 s, lowest 70 MB at 100 s, "
        "largest 216 MB at 300 s)"
    ]
