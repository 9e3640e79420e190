"""Every job function by name, and the periodic jobs; both runners use this registry."""

from __future__ import annotations

from datetime import timedelta

from jobs.delivery import dispatch_comparison
from jobs.erasure import erase_stale_cases
from jobs.finalize import finalize_comparison
from jobs.heartbeat import record_heartbeat
from jobs.hosted_runs import complete_hosted_runs
from jobs.live import grade_live_traces
from jobs.run_alerts import announce_run_regression
from jobs.run_pairs import judge_run_pair
from jobs.sweeper import sweep_comparisons
from jobs.verdict_sweep import sweep_verdicts
from jobs.webhooks import send_webhook, sweep_webhooks
from server.runtime.interfaces import JobRegistry, PeriodicJob
from server.settings import Settings

_DIVISORS_OF_A_MINUTE = (1, 2, 3, 4, 5, 6, 10, 12, 15)


def sweep_period(lease_seconds: int) -> timedelta:
    """Sweep at least as often as a lease expires (≤ 15 s), on a period arq's cron can run."""
    return timedelta(seconds=max(d for d in _DIVISORS_OF_A_MINUTE if d <= max(1, lease_seconds)))


def build_registry(settings: Settings) -> JobRegistry:
    return JobRegistry(
        functions={
            "record_heartbeat": record_heartbeat,
            "dispatch_comparison": dispatch_comparison,
            "sweep_comparisons": sweep_comparisons,
            "send_webhook": send_webhook,
            "sweep_webhooks": sweep_webhooks,
            "finalize_comparison": finalize_comparison,
            "complete_hosted_runs": complete_hosted_runs,
            "sweep_verdicts": sweep_verdicts,
            "erase_stale_cases": erase_stale_cases,
            "judge_run_pair": judge_run_pair,
            "announce_run_regression": announce_run_regression,
            "grade_live_traces": grade_live_traces,
        },
        periodic=(
            PeriodicJob("record_heartbeat", timedelta(minutes=1), run_at_startup=True),
            PeriodicJob(
                "sweep_comparisons",
                sweep_period(settings.dispatch_lease_seconds),
                run_at_startup=True,
            ),
            PeriodicJob("sweep_webhooks", timedelta(minutes=1), run_at_startup=True),
            PeriodicJob(
                "sweep_verdicts",
                timedelta(seconds=settings.verdict_sweep_seconds),
                run_at_startup=True,
            ),
            PeriodicJob("erase_stale_cases", timedelta(hours=1), run_at_startup=True),
        ),
        timeout_seconds=settings.job_timeout_seconds,
        queue_name=settings.queue_name,
    )
